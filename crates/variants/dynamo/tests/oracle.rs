//! The vchess oracle: every record of `dynamo.jsonl`, notation, and perft counts (plain,
//! distinct positions, stop at game end, targeted positions).

use chimere_dynamo::Dynamo;
use chimere_testkit::{check_vchess_notation, check_vchess_oracle, check_vchess_perft};

#[test]
fn oracle_records() {
    check_vchess_oracle::<Dynamo>("dynamo.jsonl");
}

#[test]
fn oracle_notation() {
    check_vchess_notation::<Dynamo>("dynamo.jsonl", 1000);
}

#[test]
fn perft_from_start_depth_3_and_targeted() {
    check_vchess_perft::<Dynamo>("Dynamo", 3);
}

/// Our tokens (`Variant::uci`) against the vchess harness's, `UCI_Chess960` off and on.
#[test]
fn uci_tokens_match_the_vchess_harness() {
    chimere_testkit::uci::check_vchess_uci::<Dynamo>("dynamo.jsonl", "Dynamo");
}

/// Tokens unique within every position; `parse_turn` reads each back.
#[test]
fn uci_tokens_are_unique_and_parse_back() {
    chimere_testkit::uci::check_uci_unique::<Dynamo>("dynamo.jsonl");
}
