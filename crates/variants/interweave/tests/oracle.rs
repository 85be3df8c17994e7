//! The vchess oracle: every record of `interweave.jsonl`, and perft counts.

use chimere_interweave::Interweave;
use chimere_testkit::{check_vchess_oracle, check_vchess_perft};

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
