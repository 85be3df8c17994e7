use chimere_core::{Perft, Status, Variant};
use chimere_dynamo::Dynamo;
use chimere_testkit::{check_vchess_oracle, check_vchess_perft, oracle_text};

#[test]
fn oracle_records() {
    check_vchess_oracle::<Dynamo>("dynamo.jsonl");
}

#[test]
fn perft_from_start_depth_3() {
    check_vchess_perft::<Dynamo>("Dynamo", 3);
}

/// Perft where a node whose status is not `*` has no children.
fn perft_stop_at_end(pos: &mut Dynamo, depth: u32) -> u64 {
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
fn targeted_stop_at_end_positions() {
    let json: serde_json::Value = serde_json::from_str(&oracle_text("vchess/perft.json")).unwrap();
    let mut seen = 0;
    for t in json["targeted_before_after"].as_array().unwrap() {
        if t["variant"] != "Dynamo" {
            continue;
        }
        let fen = t["fen"].as_str().unwrap();
        let depth = t["depth"].as_u64().unwrap() as u32;
        let mut pos = Dynamo::from_fen(fen).unwrap();
        let got = if t["flags"] == "--stop-at-end" {
            perft_stop_at_end(&mut pos, depth)
        } else {
            Perft::<Dynamo>::default().count(&mut pos, depth, false)
        };
        assert_eq!(got, t["patched"].as_u64().unwrap(), "perft({depth}) of {fen}");
        seen += 1;
    }
    assert!(seen >= 2);
}
