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
