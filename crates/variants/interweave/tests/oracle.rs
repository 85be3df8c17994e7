//! The vchess oracle: every record of `interweave.jsonl`, and perft counts.

use chimere_core::Variant;
use chimere_interweave::Interweave;
use chimere_testkit::{check_vchess_oracle, check_vchess_perft, oracle_text};

#[test]
fn oracle_records() {
    check_vchess_oracle::<Interweave>("interweave.jsonl");
}

#[test]
fn perft_to_depth_4() {
    check_vchess_perft::<Interweave>("Interweave", 4);
}

#[test]
#[ignore]
fn perft_to_depth_5() {
    check_vchess_perft::<Interweave>("Interweave", 5);
}

/// The testkit compares turns and FENs; the vchess notation of every turn is checked here.
#[test]
fn oracle_notation() {
    let text = oracle_text("vchess/interweave.jsonl");
    let mut failures = Vec::new();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let rec: serde_json::Value = serde_json::from_str(line).expect("JSON");
        let fen = rec["fen"].as_str().expect("fen");
        let mut pos = Interweave::from_fen(fen).expect("FEN");
        let mut list = Vec::new();
        pos.legal_turns(&mut list);
        for d in rec["details"].as_array().expect("details") {
            let mv = d["move"].as_str().expect("move");
            let want = d["notation"].as_str().expect("notation");
            let Some(m) = list.iter().find(|m| pos.canonical(m) == mv) else { continue };
            checked += 1;
            let got = pos.notation(m);
            if got != want {
                failures.push(format!("{fen} {mv}: {got}, oracle {want}"));
            }
        }
    }
    assert!(checked > 0);
    assert!(
        failures.is_empty(),
        "{} notations differ:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
}

/// Bulk counting (quiet turns counted without being listed) agrees with full-leaf perft.
#[test]
fn bulk_perft_equals_full_leaf() {
    for fen in [
        "rbnkknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNKKNBR w 0 - 000000",
        "rb1kk1br/p1p1p2p/2p1n2p/1p3N2/P1P1p2P/P3P2P/P4B1P/RBNKK2R b 15 - 000010",
        "nrbk2k1/p1R3pp/2pp4/6pp/8/2P3P1/PP4PP/KNNB2BK b 13 - 100101",
    ] {
        let mut pos = Interweave::from_fen(fen).unwrap();
        let full = chimere_core::perft(&mut pos, 3, false);
        assert_eq!(chimere_core::perft(&mut pos, 3, true), full, "{fen}");
    }
}
