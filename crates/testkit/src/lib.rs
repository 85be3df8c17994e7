//! Test support for the rules crates. Reads the reference data of `../shared/oracle/`
//! (the `shared` folder beside the project root, or `$CHIMERE_SHARED`) and checks a
//! [`Variant`] against it, reporting every mismatch with its position.

use chimere_core::{Perft, Variant, rng::SplitMix64};
use serde::Deserialize;
use std::collections::BTreeSet;
use std::path::PathBuf;

pub mod uci;

/// The shared folder: `$CHIMERE_SHARED`, else `<project root>/../shared`.
pub fn shared_dir() -> PathBuf {
    if let Some(p) = std::env::var_os("CHIMERE_SHARED") {
        return PathBuf::from(p);
    }
    let mut dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    // crates/testkit -> project root
    dir.pop();
    dir.pop();
    dir.join("..").join("shared")
}

/// Reads a file of `../shared/oracle/`, panicking with a clear message if it is missing.
pub fn oracle_text(relative: &str) -> String {
    let path = shared_dir().join("oracle").join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!("cannot read oracle file {}: {e} (is ../shared beside the project?)", path.display())
    })
}

#[derive(Deserialize)]
pub(crate) struct Detail {
    #[serde(rename = "move")]
    mv: String,
    pub(crate) fen_after: String,
}

#[derive(Deserialize)]
pub(crate) struct Record {
    pub(crate) fen: String,
    status: String,
    moves: Vec<String>,
    #[serde(default)]
    pub(crate) details: Vec<Detail>,
}

/// Checks every record of `oracle/vchess/<file>`: the FEN reads and writes back
/// unchanged, the set of canonical turns and the status are the oracle's, and each turn
/// played gives the oracle's `fen_after` and unplays back to the position and its hash.
pub fn check_vchess_oracle<V: Variant>(file: &str) {
    let text = oracle_text(&format!("vchess/{file}"));
    let mut failures = Vec::new();
    let mut records = 0;
    for (line_no, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        records += 1;
        let rec: Record =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{file}:{}: bad JSON: {e}", line_no + 1));
        if let Err(why) = check_record::<V>(&rec) {
            failures.push(format!("{file}:{} {}\n  {why}", line_no + 1, rec.fen));
        }
    }
    assert!(records > 0, "{file}: no records");
    if !failures.is_empty() {
        let shown: Vec<_> = failures.iter().take(12).cloned().collect();
        panic!("{} of {records} records differ from the oracle:\n{}", failures.len(), shown.join("\n"));
    }
}

fn check_record<V: Variant>(rec: &Record) -> Result<(), String> {
    let mut pos = V::from_fen(&rec.fen).map_err(|e| format!("cannot read FEN: {e}"))?;
    if pos.fen() != rec.fen {
        return Err(format!("FEN written back as {}", pos.fen()));
    }
    let mut list = Vec::new();
    pos.legal_turns(&mut list);
    let ours: Vec<String> = list.iter().map(|m| pos.canonical(m)).collect();
    let ours_set: BTreeSet<&str> = ours.iter().map(|s| s.as_str()).collect();
    let theirs: BTreeSet<&str> = rec.moves.iter().map(|s| s.as_str()).collect();
    let mut why = Vec::new();
    let missing: Vec<_> = theirs.difference(&ours_set).collect();
    let extra: Vec<_> = ours_set.difference(&theirs).collect();
    if !missing.is_empty() {
        why.push(format!("missing {missing:?}"));
    }
    if !extra.is_empty() {
        why.push(format!("extra {extra:?}"));
    }
    if ours.len() != ours_set.len() {
        why.push(format!("{} turns generated for {} distinct canonical forms", ours.len(), ours_set.len()));
    }
    let status = pos.status();
    if status.as_str() != rec.status {
        why.push(format!("status {status}, oracle {}", rec.status));
    }
    let hash = pos.hash();
    for d in &rec.details {
        let Some(i) = ours.iter().position(|c| *c == d.mv) else {
            continue;
        };
        let undo = pos.make(&list[i]);
        let after = pos.fen();
        if after != d.fen_after {
            why.push(format!("after {} FEN {after}, oracle {}", d.mv, d.fen_after));
        }
        if pos.hash() != pos.recomputed_hash() {
            why.push(format!("after {} incremental hash differs from recomputed", d.mv));
        }
        pos.unmake(&list[i], undo);
        if pos.fen() != rec.fen || pos.hash() != hash {
            why.push(format!("unmake of {} does not restore the position", d.mv));
        }
    }
    if why.is_empty() { Ok(()) } else { Err(why.join("\n  ")) }
}

fn perft_json() -> serde_json::Value {
    serde_json::from_str(&oracle_text("vchess/perft.json")).expect("perft.json is JSON")
}

/// Perft where a node whose status is not `*` has no children (perft.json's
/// `--stop-at-end` flag).
pub fn perft_stop_at_end<V: Variant>(pos: &mut V, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.status() != chimere_core::Status::Ongoing {
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

/// Perft where, at every node, children reaching the same position count once
/// (perft.json's `perft_distinct_positions`). Positions are told apart by their hash,
/// which covers every field of the position but the turn counter.
pub fn perft_distinct<V: Variant>(pos: &mut V, depth: u32) -> u64 {
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

/// Perft counts of `oracle/vchess/perft.json` for `variant` (its key there, e.g.
/// `"Checkered"`) up to `max_depth`: from the start (plain, distinct positions, stop at
/// game end) and from its targeted positions (plain or `--stop-at-end`).
pub fn check_vchess_perft<V: Variant>(variant: &str, max_depth: u32) {
    let json = perft_json();
    let v = &json["variants"][variant];
    let fen = v["initial_fen"].as_str().unwrap_or_else(|| panic!("no variant {variant} in perft.json"));
    let mut pos = V::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    type Counter<V> = fn(&mut V, u32) -> u64;
    let tables: [(&str, Counter<V>); 3] = [
        ("perft", |p, d| Perft::<V>::default().count(p, d, false)),
        ("perft_distinct_positions", perft_distinct::<V>),
        ("perft_stop_at_game_end", perft_stop_at_end::<V>),
    ];
    for (table, count) in tables {
        for (d, n) in v[table].as_object().unwrap_or_else(|| panic!("{variant}: no {table} table")) {
            let depth: u32 = d.parse().expect("depth");
            if depth <= max_depth {
                assert_eq!(count(&mut pos, depth), n.as_u64().unwrap(), "{variant} {table}({depth}) from the start");
            }
        }
    }
    for t in json["targeted_before_after"].as_array().expect("targeted list") {
        let depth = t["depth"].as_u64().unwrap() as u32;
        if t["variant"] != variant || depth > max_depth {
            continue;
        }
        let fen = t["fen"].as_str().unwrap();
        let mut pos = V::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let got = match t["flags"].as_str() {
            Some("") => Perft::<V>::default().count(&mut pos, depth, false),
            Some("--stop-at-end") => perft_stop_at_end(&mut pos, depth),
            other => panic!("unknown perft flags {other:?}"),
        };
        assert_eq!(got, t["patched"].as_u64().unwrap(), "{variant} perft({depth}) {} of {fen}", t["flags"]);
    }
}

/// Checks the variant's notation of every turn detailed in `oracle/vchess/<file>` against
/// the oracle's (vchess) notation; at least `min_checked` turns must be compared.
pub fn check_vchess_notation<V: Variant>(file: &str, min_checked: usize) {
    let text = oracle_text(&format!("vchess/{file}"));
    let mut bad = Vec::new();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let rec: serde_json::Value = serde_json::from_str(line).expect("JSON");
        let fen = rec["fen"].as_str().expect("fen");
        let mut pos = V::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mut list = Vec::new();
        pos.legal_turns(&mut list);
        for d in rec["details"].as_array().expect("details") {
            let mv = d["move"].as_str().expect("move");
            let want = d["notation"].as_str().expect("notation");
            let Some(m) = list.iter().find(|m| pos.canonical(m) == mv) else { continue };
            checked += 1;
            let got = pos.notation(m);
            if got != want {
                bad.push(format!("{fen}: {mv}: ours {got}, oracle {want}"));
            }
        }
    }
    assert!(checked >= min_checked, "only {checked} notations checked");
    assert!(bad.is_empty(), "{} notations differ:\n{}", bad.len(), bad[..bad.len().min(20)].join("\n"));
}

/// Plays random games from `fen`, checking at every step: make/unmake restores the FEN
/// and the hash, the incremental hash equals the recomputed one, the FEN round-trips,
/// and a bulk count equals the generated list. Returns the number of turns played.
pub fn random_walk<V: Variant>(fen: &str, seed: u64, games: usize, max_plies: usize) -> usize {
    let mut rng = SplitMix64::new(seed);
    let mut played = 0;
    let mut list = Vec::new();
    let mut scratch = Vec::new();
    for _ in 0..games {
        let mut pos = V::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for _ in 0..max_plies {
            let before = pos.fen();
            let hash = pos.hash();
            assert_eq!(hash, pos.recomputed_hash(), "hash drift at {before}");
            let again = V::from_fen(&before).unwrap_or_else(|e| panic!("cannot re-read own FEN {before}: {e}"));
            assert_eq!(again.fen(), before, "FEN round trip");
            assert_eq!(again.hash(), hash, "hash of re-read FEN {before}");
            list.clear();
            pos.legal_turns(&mut list);
            assert_eq!(pos.count_turns(&mut scratch), list.len() as u64, "bulk count at {before}");
            if list.is_empty() {
                break;
            }
            for m in &list {
                let u = pos.make(m);
                assert_eq!(pos.hash(), pos.recomputed_hash(), "hash after {} from {before}", pos.fen());
                pos.unmake(m, u);
                assert_eq!(pos.fen(), before, "unmake of {m:?}");
                assert_eq!(pos.hash(), hash, "hash after unmake of {m:?} at {before}");
            }
            let m = list[rng.below(list.len() as u64) as usize];
            pos.make(&m);
            played += 1;
        }
    }
    played
}

/// Robustness on odd but readable positions: takes the FENs of `oracle/vchess/<file>`,
/// replaces random squares of the board field by random letters seen in that file (or
/// empties them), and for every mutant the variant accepts, lists the turns, writes them
/// (canonical and notation), plays and takes each back, asks the status and counts perft
/// to depth 2. Nothing may panic; returns how many mutants were accepted.
pub fn mutated_oracle_positions<V: Variant>(file: &str, seed: u64, count: usize) -> usize {
    let text = oracle_text(&format!("vchess/{file}"));
    let fens: Vec<String> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<Record>(l).expect("JSON").fen)
        .collect();
    let mut letters: Vec<char> = fens
        .iter()
        .flat_map(|f| f.split(' ').next().unwrap_or("").chars().filter(|c| c.is_ascii_alphabetic()).collect::<Vec<_>>())
        .collect();
    letters.sort_unstable();
    letters.dedup();
    let mut rng = SplitMix64::new(seed);
    let mut accepted = 0;
    for _ in 0..count {
        let fen = &fens[rng.below(fens.len() as u64) as usize];
        let (board, rest) = fen.split_once(' ').unwrap_or((fen, ""));
        // Expand the board to 64 cells, mutate, and compress again.
        let mut cells: Vec<Option<char>> = Vec::with_capacity(64);
        for c in board.chars() {
            match c.to_digit(10) {
                Some(d) => cells.extend(std::iter::repeat_n(None, d as usize)),
                None if c == '/' => {}
                None => cells.push(Some(c)),
            }
        }
        for _ in 0..1 + rng.below(4) {
            let i = rng.below(cells.len() as u64) as usize;
            cells[i] = if rng.below(3) == 0 { None } else { Some(letters[rng.below(letters.len() as u64) as usize]) };
        }
        let mut mutant = String::new();
        for (r, rank) in cells.chunks(8).enumerate() {
            if r > 0 {
                mutant.push('/');
            }
            let mut empty = 0;
            for cell in rank {
                match cell {
                    None => empty += 1,
                    Some(c) => {
                        if empty > 0 {
                            mutant.push_str(&empty.to_string());
                            empty = 0;
                        }
                        mutant.push(*c);
                    }
                }
            }
            if empty > 0 {
                mutant.push_str(&empty.to_string());
            }
        }
        mutant.push(' ');
        mutant.push_str(rest);
        let Ok(mut pos) = V::from_fen(&mutant) else { continue };
        accepted += 1;
        let mut list = Vec::new();
        pos.legal_turns(&mut list);
        for m in &list {
            let _ = (pos.canonical(m), pos.notation(m));
            let u = pos.make(m);
            let _ = pos.fen();
            pos.unmake(m, u);
        }
        let _ = pos.status();
        Perft::<V>::default().count(&mut pos, 2, false);
    }
    accepted
}
