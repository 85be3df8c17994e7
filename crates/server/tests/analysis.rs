//! Browser tests of the analysis board (`web/tests/analysis.mjs`): Debian's chromium driven
//! by playwright-core against a server started here. Needs `node`, `web/node_modules` and
//! `/usr/bin/chromium`, like the other browser tests (failing under CI without them).

mod support {
    pub mod browser;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_board_in_a_real_browser() {
    let Some(web) = support::browser::web_or_skip("the analysis browser test") else { return };
    if let Err(out) = support::browser::run_script(&web, "analysis", "tests/analysis.mjs", &[]).await {
        panic!("analysis browser tests failed:\n{out}");
    }
}
