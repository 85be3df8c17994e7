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

/// Perft where a node whose status is not `*` has no children (perft.json's
/// `--stop-at-end` targeted position: it exercises the switch counting as a legal turn).
fn perft_stop_at_end(pos: &mut Checkered, depth: u32) -> u64 {
    use chimere_core::{Status, Variant};
    if depth == 0 {
        return 1;
    }
    if pos.status() != Status::Ongoing {
        return 0;
    }
    let mut list = Vec::new();
    pos.legal_turns(&mut list);
    let mut n = 0;
    for m in &list {
        let u = pos.make(m);
        n += perft_stop_at_end(pos, depth - 1);
        pos.unmake(m, u);
    }
    n
}

#[test]
fn perft_stop_at_end_targeted() {
    use chimere_core::Variant;
    let json: serde_json::Value =
        serde_json::from_str(&chimere_testkit::oracle_text("vchess/perft.json")).expect("perft.json");
    let mut seen = 0;
    for t in json["targeted_before_after"].as_array().unwrap() {
        if t["variant"] != "Checkered" || t["flags"] != "--stop-at-end" {
            continue;
        }
        seen += 1;
        let fen = t["fen"].as_str().unwrap();
        let mut pos = Checkered::from_fen(fen).unwrap();
        let depth = t["depth"].as_u64().unwrap() as u32;
        assert_eq!(perft_stop_at_end(&mut pos, depth), t["patched"].as_u64().unwrap(), "{fen}");
    }
    assert!(seen > 0);
}
