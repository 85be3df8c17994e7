//! Checks against the vchess oracle (with the spec's fixes applied).

use chimere_checkered::Checkered;
use chimere_testkit::{check_vchess_oracle, check_vchess_perft};

#[test]
fn oracle_records() {
    check_vchess_oracle::<Checkered>("checkered.jsonl");
}

#[test]
fn perft_to_depth_4_and_targeted() {
    check_vchess_perft::<Checkered>("Checkered", 4);
}

#[test]
#[ignore]
fn perft_depth_5() {
    check_vchess_perft::<Checkered>("Checkered", 5);
}
