//! Browser tests of the analysis board (`web/tests/analysis.mjs`): Debian's chromium driven
//! by playwright-core against a server started here. Needs `node`, `web/node_modules` and
//! `/usr/bin/chromium`, like the other browser tests (failing under CI without them).

mod support {
    pub mod browser;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_board_in_a_real_browser() {
    let Some(web) = support::browser::web_or_skip("the analysis browser test") else { return };
    let db = std::env::temp_dir().join(format!("chimere-analysis-{}.db", std::process::id()));
    let config = chimere_server::Config { db: db.clone().into(), listen: "127.0.0.1:0".into(), ..Default::default() };
    let (addr, _task) = chimere_server::start(config).await.unwrap();
    let out = tokio::process::Command::new("node")
        .arg("tests/analysis.mjs")
        .arg(format!("http://{addr}"))
        .current_dir(&web)
        .output()
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", db.display()));
    }
    assert!(out.status.success(), "analysis browser tests failed:\n{stdout}");
}
