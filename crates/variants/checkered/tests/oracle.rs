//! Checks against the vchess oracle (with the spec's fixes applied).

use chimere_checkered::Checkered;
use chimere_testkit::{check_vchess_notation, check_vchess_oracle, check_vchess_perft};

#[test]
fn oracle_records() {
    check_vchess_oracle::<Checkered>("checkered.jsonl");
}

#[test]
fn oracle_notation() {
    check_vchess_notation::<Checkered>("checkered.jsonl", 1000);
}

/// Start to depth 4 (plain, distinct positions, stop at game end) and the targeted
/// positions (including the `--stop-at-end` one, where the switch counts as a legal turn).
#[test]
fn perft_to_depth_4_and_targeted() {
    check_vchess_perft::<Checkered>("Checkered", 4);
}

#[test]
#[ignore = "4.99 M leaves: run in release with --ignored"]
fn perft_depth_5() {
    check_vchess_perft::<Checkered>("Checkered", 5);
}

/// Our tokens (`Variant::uci`) against the vchess harness's, `UCI_Chess960` off and on.
#[test]
fn uci_tokens_match_the_vchess_harness() {
    chimere_testkit::uci::check_vchess_uci::<Checkered>("checkered.jsonl", "Checkered");
}

/// Tokens unique within every position; `parse_turn` reads each back.
#[test]
fn uci_tokens_are_unique_and_parse_back() {
    chimere_testkit::uci::check_uci_unique::<Checkered>("checkered.jsonl");
}
