//! Browser tests of the problems page (`web/tests/problems.mjs`): Debian's chromium driven
//! by playwright-core against a server started here. The solver compiled to WebAssembly
//! (checked in under `crates/server/assets/wasm/`) must print, in the page's worker, the
//! lines the native solver (`chimere solve`) prints for problems of the open corpus
//! (`../shared/oracle/popeye-solve/`). Needs `node`, `web/node_modules` and
//! `/usr/bin/chromium`, like the other browser tests (failing under CI without them).

mod support {
    pub mod browser;
}

use std::path::PathBuf;

fn shared() -> PathBuf {
    std::env::var_os("CHIMERE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"))
}

/// The problems of the corpus the test solves: one of every fourth file (in name order),
/// and the three pasted together (a tree with twins, help lines with twins, tries).
fn corpus() -> (Vec<(String, String)>, Vec<String>) {
    let dir = shared().join("oracle/popeye-solve");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    let read = |p: &PathBuf| -> Vec<serde_json::Value> {
        std::fs::read_to_string(p).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    };
    let mut picked = Vec::new();
    for f in files.iter().step_by(4) {
        let rs = read(f);
        // The lightest problem of the file (CI time), by Popeye's time.
        let r = rs
            .iter()
            .min_by(|a, b| a["popeye_seconds"].as_f64().partial_cmp(&b["popeye_seconds"].as_f64()).unwrap())
            .unwrap();
        picked.push((r["source"].as_str().unwrap().to_string(), r["input"].as_str().unwrap().to_string()));
    }
    let one = |name: &str, i: usize| read(&dir.join(name))[i]["input"].as_str().unwrap().to_string();
    let pasted = vec![one("circe-plain.jsonl", 0), one("orthodox.jsonl", 3), one("sat.jsonl", 0)];
    (picked, pasted)
}

/// Several problems as one input: each `EndProblem` but the last becomes `NextProblem`.
fn joined(inputs: &[String]) -> String {
    let mut out = String::new();
    for (i, t) in inputs.iter().enumerate() {
        let mut t = t.trim().to_string();
        if i > 0 {
            t = t.trim_start_matches("BeginProblem").trim_start().to_string();
        }
        if i + 1 < inputs.len() {
            t = t.trim_end_matches("EndProblem").trim_end().to_string() + "\nNextProblem";
        }
        out.push_str(&t);
        out.push('\n');
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_problems_page_in_a_real_browser() {
    let Some(web) = support::browser::web_or_skip("the problems browser test") else { return };
    let (picked, pasted) = corpus();
    let native = |input: &str| {
        let t0 = std::time::Instant::now();
        let (out, err) = chimere_solver::solve_to_strings(input);
        (out, err, t0.elapsed().as_secs_f64() * 1000.0)
    };
    let mut solo = Vec::new();
    for (source, input) in &picked {
        let (text, err, ms) = native(input);
        solo.push(serde_json::json!({"source": source, "input": input, "text": text, "errors": err, "ms": ms}));
    }
    let paste = joined(&pasted);
    let (paste_text, paste_err, _) = native(&paste);
    assert!(paste_err.is_empty(), "{paste_err}");
    // Twins built by the page's controls: the base problem, the lines the controls write,
    // and the native solver's text for the whole.
    let twin_lines = ["Twin Move g3 h3", "Twin Continued Substitute R Q Rotate 180"];
    let twin_base =
        "BeginProblem\nPieces White Kg3 Ra6 Pg7 Black Kd3 Pc3 Re5\nStipulation h#2\nOption NoBoard\nEndProblem\n";
    let twin_input = twin_base.replace("EndProblem", &(twin_lines.join("\n") + "\nEndProblem"));
    let (twin_text, twin_err, _) = native(&twin_input);
    assert!(twin_err.is_empty() && twin_text.contains("+c)"), "{twin_err}{twin_text}");
    let expected = serde_json::json!({
        "solo": solo,
        "paste": {"input": paste, "text": paste_text},
        "twins": {"base": twin_base, "lines": twin_lines, "text": twin_text},
    });
    let file = std::env::temp_dir().join(format!("chimere-problems-expected-{}.json", std::process::id()));
    std::fs::write(&file, expected.to_string()).unwrap();
    let result = support::browser::run_script(&web, "problems", "tests/problems.mjs", &[&file]).await;
    let _ = std::fs::remove_file(&file);
    if let Err(out) = result {
        panic!("problems browser tests failed:\n{out}");
    }
}
