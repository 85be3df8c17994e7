//! What the browser tests need: `web/` with its node modules, `node` and Chromium.

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
