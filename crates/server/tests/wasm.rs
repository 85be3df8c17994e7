//! The WebAssembly build checked in (`crates/server/assets/wasm/`, made by
//! `web/wasm/build.sh`) loads in a real Chromium from the server and agrees with the
//! native rules: perft and the legal turns of every bench position, the engine's mate in
//! one, a refused position's reason (`web/tests/wasm.mjs`). It does not rebuild the module
//! (that needs the wasm toolchain and about five minutes); a change to the rules that
//! changes their answers fails here until the module is rebuilt and committed. Needs
//! `node`, `web/node_modules` and `/usr/bin/chromium`, like the browser tests.

mod support {
    pub mod browser;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_checked_in_wasm_build_agrees_with_native_in_chromium() {
    let Some(web) = support::browser::web_or_skip("the wasm check") else { return };
    let mut expected = Vec::new();
    for b in chimere_rules::BENCH {
        let opts = chimere_core::GameOptions {
            conditions: b.conditions.iter().map(|c| c.to_string()).collect(),
            ..Default::default()
        };
        let mut g = chimere_rules::create_kind(b.variant, opts, Some(b.fen)).unwrap();
        let depth = b.depth.min(3);
        let legal: Vec<String> = g.legal().into_iter().map(|t| t.canonical).collect();
        expected.push(serde_json::json!({
            "variant": b.variant.name(),
            "options": {"conditions": b.conditions},
            "fen": b.fen,
            "depth": depth,
            "perft": g.perft(depth, false),
            "legal": legal,
        }));
    }
    let file = std::env::temp_dir().join(format!("chimere-wasm-expected-{}.json", std::process::id()));
    std::fs::write(&file, serde_json::to_string(&expected).unwrap()).unwrap();
    let result = support::browser::run_script(&web, "wasm", "tests/wasm.mjs", &[&file]).await;
    let _ = std::fs::remove_file(&file);
    if let Err(out) = result {
        panic!("the wasm build disagrees with native or does not load:\n{out}");
    }
}
