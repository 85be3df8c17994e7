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

/// Perft where, at every node, children reaching the same position (same board, side,
/// castling rights and last turn as a set of tokens) count once. Positions are told apart
/// by their full hash, which covers exactly these fields.
fn perft_distinct(pos: &mut Dynamo, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = Vec::new();
    pos.legal_turns(&mut list);
    let mut seen = std::collections::HashSet::new();
    let mut n = 0;
    for m in &list {
        let u = pos.make(m);
        if seen.insert(pos.hash()) {
            n += perft_distinct(pos, depth - 1);
        }
        pos.unmake(m, u);
    }
    n
}

#[test]
fn perft_distinct_positions_from_start() {
    let json: serde_json::Value = serde_json::from_str(&oracle_text("vchess/perft.json")).unwrap();
    let v = &json["variants"]["Dynamo"];
    let mut pos = Dynamo::from_fen(v["initial_fen"].as_str().unwrap()).unwrap();
    for (d, n) in v["perft_distinct_positions"].as_object().unwrap() {
        let depth: u32 = d.parse().unwrap();
        assert_eq!(perft_distinct(&mut pos, depth), n.as_u64().unwrap(), "distinct perft({depth})");
    }
}

/// Every start-position perft depth of the oracle (all of them are also run above), timed.
#[test]
#[ignore]
fn perft_full_depth_timed() {
    // Warm up the attack tables first (built once, lazily).
    let mut start = Dynamo::new_game(&Default::default()).unwrap();
    Perft::<Dynamo>::default().count(&mut start, 1, false);
    let t = std::time::Instant::now();
    check_vchess_perft::<Dynamo>("Dynamo", u32::MAX);
    let s = t.elapsed().as_secs_f64();
    let leaves = 174 + 28_923 + 4_329_662;
    println!("all start perfts: {s:.3} s, {:.2} M leaves/s", leaves as f64 / s / 1e6);
}

/// Our vchess notation agrees with the oracle's for every turn it details.
#[test]
fn oracle_notation() {
    let text = oracle_text("vchess/dynamo.jsonl");
    let mut bad = Vec::new();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let mut pos = Dynamo::from_fen(v["fen"].as_str().unwrap()).unwrap();
        let mut list = Vec::new();
        pos.legal_turns(&mut list);
        for d in v["details"].as_array().unwrap() {
            let Some(m) = list.iter().find(|m| pos.canonical(m) == d["move"].as_str().unwrap()) else { continue };
            checked += 1;
            let ours = pos.notation(m);
            if ours != d["notation"].as_str().unwrap() {
                bad.push(format!("{}: {} ours {ours}, oracle {}", v["fen"], d["move"], d["notation"]));
            }
        }
    }
    assert!(checked > 1000);
    assert!(bad.is_empty(), "{} notations differ:\n{}", bad.len(), bad[..bad.len().min(10)].join("\n"));
}
