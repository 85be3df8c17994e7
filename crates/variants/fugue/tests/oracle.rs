//! The vchess oracle: every record of `fugue.jsonl`, notation, and perft counts.

use chimere_fugue::Fugue;
use chimere_testkit::{check_vchess_notation, check_vchess_oracle, check_vchess_perft};

#[test]
fn every_oracle_record() {
    check_vchess_oracle::<Fugue>("fugue.jsonl");
}

#[test]
fn oracle_notation() {
    check_vchess_notation::<Fugue>("fugue.jsonl", 1000);
}

#[test]
fn perft_to_depth_4() {
    check_vchess_perft::<Fugue>("Fugue", 4);
}

#[test]
#[ignore = "27.7 M leaves: run in release with --ignored"]
fn perft_to_depth_5() {
    check_vchess_perft::<Fugue>("Fugue", 5);
}

/// Our tokens (`Variant::uci`) against the vchess harness's, `UCI_Chess960` off and on.
#[test]
fn uci_tokens_match_the_vchess_harness() {
    chimere_testkit::uci::check_vchess_uci::<Fugue>("fugue.jsonl", "Fugue");
}

/// Tokens unique within every position; `parse_turn` reads each back.
#[test]
fn uci_tokens_are_unique_and_parse_back() {
    chimere_testkit::uci::check_uci_unique::<Fugue>("fugue.jsonl");
}
