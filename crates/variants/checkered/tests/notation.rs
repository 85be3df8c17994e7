//! The vchess notation of every turn of the oracle file.

use chimere_checkered::Checkered;
use chimere_core::Variant;
use chimere_testkit::oracle_text;

#[test]
fn notation_matches_oracle() {
    let text = oracle_text("vchess/checkered.jsonl");
    let mut bad = Vec::new();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let rec: serde_json::Value = serde_json::from_str(line).expect("JSON");
        let fen = rec["fen"].as_str().unwrap();
        let mut pos = Checkered::from_fen(fen).unwrap();
        let mut list = Vec::new();
        pos.legal_turns(&mut list);
        for d in rec["details"].as_array().unwrap() {
            let mv = d["move"].as_str().unwrap();
            let want = d["notation"].as_str().unwrap();
            if let Some(m) = list.iter().find(|m| pos.canonical(m) == mv) {
                checked += 1;
                let got = pos.notation(m);
                if got != want {
                    bad.push(format!("{fen}: {mv}: ours {got}, oracle {want}"));
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} notations checked");
    assert!(bad.is_empty(), "{} notations differ:\n{}", bad.len(), bad[..bad.len().min(20)].join("\n"));
}
