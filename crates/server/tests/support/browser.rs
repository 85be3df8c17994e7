//! What the browser tests need: `web/` with its node modules, `node` and Chromium.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

/// The `web/` folder when node, `web/node_modules` and Chromium are there. Without them:
/// a panic under CI (`CI` set), else `None` after saying loudly that `what` is skipped.
pub fn web_or_skip(what: &str) -> Option<PathBuf> {
    let web = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web");
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    if web.join("node_modules/playwright-core").exists()
        && std::path::Path::new(&chromium).exists()
        && Command::new("node").arg("--version").output().is_ok()
    {
        return Some(web);
    }
    let msg = format!("{what} needs node, web/node_modules and chromium");
    if std::env::var_os("CI").is_some() {
        panic!("{msg}");
    }
    eprintln!("SKIPPED: {msg}");
    None
}

/// Runs `web/<script>` with node against a server started here on a fresh SQLite file
/// (its URL the first argument, then `args`) and prints what it printed; a failure
/// answers its standard output.
pub async fn run_script(
    web: &std::path::Path,
    name: &str,
    script: &str,
    args: &[&std::path::Path],
) -> Result<(), String> {
    let db = std::env::temp_dir().join(format!("chimere-{name}-{}.db", std::process::id()));
    let config = chimere_server::Config { db: db.clone().into(), listen: "127.0.0.1:0".into(), ..Default::default() };
    let (addr, _task) = chimere_server::start(config).await.unwrap();
    let out = tokio::process::Command::new("node")
        .arg(script)
        .arg(format!("http://{addr}"))
        .args(args)
        .current_dir(web)
        .output()
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    println!("{stdout}");
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", db.display()));
    }
    if out.status.success() { Ok(()) } else { Err(stdout) }
}
