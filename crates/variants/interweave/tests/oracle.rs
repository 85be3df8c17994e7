//! The vchess oracle: every record of `interweave.jsonl`, notation, and perft counts.

use chimere_interweave::Interweave;
use chimere_testkit::{check_vchess_notation, check_vchess_oracle, check_vchess_perft};

#[test]
fn oracle_records() {
    check_vchess_oracle::<Interweave>("interweave.jsonl");
}

#[test]
fn oracle_notation() {
    check_vchess_notation::<Interweave>("interweave.jsonl", 1000);
}

#[test]
fn perft_to_depth_4() {
    check_vchess_perft::<Interweave>("Interweave", 4);
}

#[test]
#[ignore = "20 M leaves: run in release with --ignored"]
fn perft_to_depth_5() {
    check_vchess_perft::<Interweave>("Interweave", 5);
}

/// Bulk counting (quiet turns counted without being listed) agrees with full-leaf perft.
#[test]
fn bulk_perft_equals_full_leaf() {
    for fen in [
        "rbnkknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNKKNBR w 0 - 000000",
        "rb1kk1br/p1p1p2p/2p1n2p/1p3N2/P1P1p2P/P3P2P/P4B1P/RBNKK2R b 15 - 000010",
        "nrbk2k1/p1R3pp/2pp4/6pp/8/2P3P1/PP4PP/KNNB2BK b 13 - 100101",
    ] {
        let mut pos = <Interweave as chimere_core::Variant>::from_fen(fen).unwrap();
        let full = chimere_core::perft(&mut pos, 3, false);
        assert_eq!(chimere_core::perft(&mut pos, 3, true), full, "{fen}");
    }
}

/// Our tokens (`Variant::uci`) against the vchess harness's, `UCI_Chess960` off and on.
#[test]
fn uci_tokens_match_the_vchess_harness() {
    chimere_testkit::uci::check_vchess_uci::<Interweave>("interweave.jsonl", "Interweave");
}

/// Tokens unique within every position; `parse_turn` reads each back.
#[test]
fn uci_tokens_are_unique_and_parse_back() {
    chimere_testkit::uci::check_uci_unique::<Interweave>("interweave.jsonl");
}
