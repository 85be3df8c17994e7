//! Checks the browser solver's typed trees on the open corpus (`../shared/oracle/popeye-solve/`):
//! every move of every solution is found again on the board, and the text is the solver's.
//! `cargo run --release -p chimere-wasm --example solve_check [FILE.jsonl...]`

use chimere_wasm::solve::{SolNode, solve};

fn count(nodes: &[SolNode], plies: &mut usize, lost: &mut Vec<String>) {
    for n in nodes {
        for p in &n.plies {
            *plies += 1;
            if p.board.is_none() {
                lost.push(format!("{} ({})", p.text, n.text));
            }
        }
        count(&n.children, plies, lost);
    }
}

fn main() {
    let shared = std::env::var("CHIMERE_SHARED").unwrap_or_else(|_| "../shared".into());
    let dir = format!("{shared}/oracle/popeye-solve");
    let mut files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        let mut all: Vec<_> = std::fs::read_dir(&dir).expect("oracle").flatten().map(|e| e.path()).collect();
        all.sort();
        files = all
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .map(|p| p.display().to_string())
            .collect();
    }
    let (mut problems, mut plies, mut lost_total, mut differ) = (0, 0, 0, 0);
    for f in files {
        for line in std::fs::read_to_string(&f).expect("file").lines() {
            let v: serde_json::Value = serde_json::from_str(line).expect("json");
            let input = v["input"].as_str().expect("input");
            let r = solve(input, 32, &mut |_| {});
            let (native, _) = chimere_solver::solve_to_strings(input);
            let strip =
                |t: &str| t.lines().filter(|l| !l.starts_with("solution finished")).collect::<Vec<_>>().join("\n");
            let text: String = r.iter().map(|p| p.text.as_str()).collect();
            if strip(&text) != strip(&native) {
                differ += 1;
                println!("text differs: {}", v["source"]);
            }
            problems += 1;
            let mut lost = Vec::new();
            for p in &r {
                for t in &p.twins {
                    count(&t.tree, &mut plies, &mut lost);
                }
            }
            if !lost.is_empty() {
                lost_total += lost.len();
                println!("{}: not replayed: {}", v["source"], lost.join(", "));
            }
        }
    }
    println!("{problems} problems, {plies} moves, {lost_total} not replayed, {differ} texts differ");
}
