//! Browser tests: a real headless Chromium (Debian's `chromium`) driven by playwright-core
//! (`web/tests/browser.mjs`) against the `chimere-server` binary on a fresh SQLite file,
//! started (and stopped and restarted on the same port and file) by the script. They
//! need `node`, `web/node_modules` (`npm ci` in `web/`) and `/usr/bin/chromium`; `.ci/run`
//! installs them. Without them the test fails under CI (`CI` set) and is skipped, loudly,
//! elsewhere. A second test checks that the checked-in built assets match a fresh build.

use std::path::PathBuf;
use std::process::Command;

#[test]
fn the_web_app_in_a_real_browser() {
    let web = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web");
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let missing: Vec<&str> = [
        (!web.join("node_modules/playwright-core").exists(), "web/node_modules (run `npm ci` in web/)"),
        (!std::path::Path::new(&chromium).exists(), "chromium (apt-get install chromium)"),
        (Command::new("node").arg("--version").output().is_err(), "node"),
    ]
    .iter()
    .filter(|(m, _)| *m)
    .map(|(_, what)| *what)
    .collect();
    if !missing.is_empty() {
        let msg = format!("browser tests need: {}", missing.join(", "));
        if std::env::var_os("CI").is_some() {
            panic!("{msg}");
        }
        eprintln!("SKIPPED: {msg}");
        return;
    }
    let db = std::env::temp_dir().join(format!("chimere-browser-{}.db", std::process::id()));
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", db.display()));
    }
    let out = Command::new("node")
        .arg("tests/browser.mjs")
        .arg("--server")
        .arg(env!("CARGO_BIN_EXE_chimere-server"))
        .arg("--db")
        .arg(&db)
        .current_dir(&web)
        .output()
        .unwrap();
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", db.display()));
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "browser tests failed:\n{stdout}");
}

/// The built assets checked in (`crates/server/assets`) are those of a fresh build of
/// `web/` (`web/check-assets.mjs` builds into a temporary directory and compares; about a
/// second). Needs `node` and `web/node_modules`, like the browser tests.
#[test]
fn the_checked_in_assets_match_a_fresh_build() {
    let web = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web");
    if !web.join("node_modules/esbuild").exists() || Command::new("node").arg("--version").output().is_err() {
        let msg = "the assets check needs node and web/node_modules (run `npm ci` in web/)";
        if std::env::var_os("CI").is_some() {
            panic!("{msg}");
        }
        eprintln!("SKIPPED: {msg}");
        return;
    }
    let out = Command::new("node").arg("check-assets.mjs").current_dir(&web).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}", stderr.lines().last().unwrap_or("check-assets.mjs failed"));
}
