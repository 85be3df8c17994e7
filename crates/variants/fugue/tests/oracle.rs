//! The vchess oracle: every record of `fugue.jsonl` and the perft counts from the start.

use chimere_fugue::Fugue;
use chimere_testkit::{check_vchess_oracle, check_vchess_perft};

#[test]
fn every_oracle_record() {
    check_vchess_oracle::<Fugue>("fugue.jsonl");
}

#[test]
fn perft_to_depth_4() {
    check_vchess_perft::<Fugue>("Fugue", 4);
}

#[test]
#[ignore = "27.7 M leaves; run with --release -- --ignored"]
fn perft_to_depth_5() {
    check_vchess_perft::<Fugue>("Fugue", 5);
}

/// The vchess notation of every oracle turn (the testkit checks the canonical form only).
#[test]
fn oracle_notation() {
    use chimere_core::Variant;
    let text = chimere_testkit::oracle_text("vchess/fugue.jsonl");
    let mut checked = 0;
    let mut wrong = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let rec: serde_json::Value = serde_json::from_str(line).expect("JSON");
        let fen = rec["fen"].as_str().expect("fen");
        let mut pos = Fugue::from_fen(fen).expect("oracle FEN");
        let mut list = Vec::new();
        pos.legal_turns(&mut list);
        for d in rec["details"].as_array().expect("details") {
            let mv = d["move"].as_str().expect("move");
            let want = d["notation"].as_str().expect("notation");
            let Some(m) = list.iter().find(|m| pos.canonical(m) == mv) else { continue };
            checked += 1;
            let got = pos.notation(m);
            if got != want {
                wrong.push(format!("{fen}: {mv}: {got}, oracle {want}"));
            }
        }
    }
    assert!(checked > 1000, "only {checked} turns checked");
    assert!(wrong.is_empty(), "{} notations differ:\n{}", wrong.len(), wrong[..wrong.len().min(10)].join("\n"));
}
