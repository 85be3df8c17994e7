//! UCI tokens of the fairy engine (`chimere_fairy::uci`): within every position, every
//! legal move has its own token (`UCI_Chess960` off and on), and reading a token back
//! gives that move. Positions: the diagram of every Popeye oracle record (every file of
//! `oracle/popeye/`, both kinds of record, every twin-free problem the engine builds),
//! the position after each of its legal moves, and seeded random playouts from it.
//! Without conditions, the tokens are those of the chess crate.

use chimere_core::Variant;
use chimere_core::rng::SplitMix64;
use chimere_fairy::{Game, Move};
use chimere_testkit::{oracle_text, shared_dir};
use std::collections::{BTreeSet, HashSet};

#[derive(Default, Debug)]
struct Stats {
    games: usize,
    skipped: usize,
    positions: usize,
    moves: usize,
    suffixed: usize,
    numbered: usize,
    /// Suffixed tokens by oracle file, with one example.
    by_file: std::collections::BTreeMap<String, (usize, String)>,
}

/// Checks the tokens of the position of `g`; reads back every token if `parse` is
/// `Every` (and compares some with the game API's `Variant::uci` and `parse_turn`), the
/// tokens at seeded indices if `Sample`.
fn check(g: &mut Game, at: &str, parse: Parse, stats: &mut Stats, bad: &mut Vec<String>) {
    let mut legal: Vec<Move> = Vec::new();
    g.legal_moves(&mut legal);
    stats.positions += 1;
    stats.moves += legal.len();
    for chess960 in [false, true] {
        let tokens = g.uci_tokens(&legal, chess960);
        let mut seen = HashSet::new();
        for (i, (m, t)) in legal.iter().zip(&tokens).enumerate() {
            if t.is_empty() || t.contains(char::is_whitespace) {
                bad.push(format!("{at}: bad token `{t}` for {m:?}"));
            }
            if !seen.insert(t.as_str()) {
                bad.push(format!("{at} (chess960 {chess960}): token {t} shared by several moves"));
            }
            if !chess960 && (t.contains('/') || t.contains('#')) {
                stats.suffixed += usize::from(t.contains('/'));
                stats.numbered += usize::from(t.contains('#'));
                let mut file = at.split(':').next().unwrap_or(at).to_string();
                if t.contains('#') {
                    file.push_str(" (numbered)");
                }
                stats.by_file.entry(file).or_insert((0, t.clone())).0 += 1;
            }
            let read = match parse {
                Parse::Every => true,
                Parse::Sample(seed) => (seed ^ i as u64).is_multiple_of(8),
                Parse::No => false,
            };
            if read && g.move_from_uci(t, chess960) != Some(*m) {
                bad.push(format!("{at}: token {t} does not read back as {m:?}"));
            }
            // Through the game API (each call lists the moves and writes them): the
            // `Variant::uci` of one move in four, `parse_turn` of one in sixteen.
            if matches!(parse, Parse::Every) && i % 4 == 0 {
                let one = <Game as Variant>::uci(g, m, chess960);
                if one != *t {
                    bad.push(format!("{at}: Variant::uci gives {one}, the batch {t}"));
                }
                if i % 16 == 0 && <Game as Variant>::parse_turn(g, t).ok() != Some(*m) {
                    bad.push(format!("{at}: parse_turn({t}) is not {m:?}"));
                }
            }
        }
    }
}

/// Which tokens [`check`] reads back.
#[derive(Clone, Copy)]
enum Parse {
    Every,
    /// One in eight, chosen by the seed.
    Sample(u64),
    No,
}

/// Every (record name, game) the engine builds from the Popeye oracle.
fn oracle_games(stats: &mut Stats) -> Vec<(String, Game)> {
    let dir = shared_dir().join("oracle").join("popeye");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".jsonl"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = oracle_text(&format!("popeye/{f}"));
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let rec: serde_json::Value = serde_json::from_str(line).expect("JSON");
            let Some(input) = rec["input"].as_str() else { continue };
            let Ok(problems) = chimere_popeye::parse(input) else {
                stats.skipped += 1;
                continue;
            };
            for (k, p) in problems.iter().enumerate() {
                match chimere_popeye::build_game(p) {
                    Ok(g) => out.push((format!("{f}:{} problem {}", n + 1, k + 1), g)),
                    Err(_) => stats.skipped += 1,
                }
            }
        }
    }
    stats.games = out.len();
    out
}

#[test]
fn tokens_unique_on_popeye_positions_and_playouts() {
    let mut stats = Stats::default();
    let mut bad = Vec::new();
    let mut rng = SplitMix64::new(0x7563_6920_6661_6972);
    let games = oracle_games(&mut stats);
    assert!(games.len() > 200, "only {} oracle games built", games.len());
    for (name, mut g) in games {
        check(&mut g, &name, Parse::Every, &mut stats, &mut bad);
        let mut legal = Vec::new();
        g.legal_moves(&mut legal);
        for m in &legal {
            if g.make(m).is_some() {
                check(&mut g, &format!("{name} after {m:?}"), Parse::No, &mut stats, &mut bad);
                g.unmake();
            }
        }
        // Random playouts, each move checked from the position before it.
        for _ in 0..2 {
            let mut played = 0;
            let mut path = String::new();
            for _ in 0..12 {
                legal.clear();
                g.legal_moves(&mut legal);
                if legal.is_empty() {
                    break;
                }
                let m = legal[rng.below(legal.len() as u64) as usize];
                let token = g.uci_tokens(&legal, false)[legal.iter().position(|x| *x == m).expect("listed")].clone();
                path.push_str(&format!(" {token}"));
                g.make(&m).expect("a legal move plays");
                played += 1;
                check(&mut g, &format!("{name} after{path}"), Parse::Sample(rng.next_u64()), &mut stats, &mut bad);
            }
            for _ in 0..played {
                g.unmake();
            }
        }
    }
    eprintln!(
        "{} games ({} records or problems skipped), {} positions, {} moves, {} tokens with a suffix, {} numbered",
        stats.games, stats.skipped, stats.positions, stats.moves, stats.suffixed, stats.numbered
    );
    for (file, (n, example)) in &stats.by_file {
        eprintln!("  {file}: {n} suffixed, e.g. {example}");
    }
    assert!(bad.is_empty(), "{} token problems:\n{}", bad.len(), bad[..bad.len().min(20)].join("\n"));
}

/// Without conditions the fairy engine writes the chess crate's tokens, on the chess
/// oracle positions it can read (standard castling files).
#[test]
fn no_condition_tokens_are_the_chess_crate_ones() {
    let text = oracle_text("vchess/chess.jsonl");
    let mut compared = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let rec: serde_json::Value = serde_json::from_str(line).expect("JSON");
        let fen = rec["fen"].as_str().expect("fen");
        let Ok(mut g) = chimere_fairy::game_from_fen(fen, &[]) else { continue };
        let mut pos = chimere_chess::Chess::from_fen(fen).expect("oracle FEN");
        for chess960 in [false, true] {
            let mut legal = Vec::new();
            g.legal_moves(&mut legal);
            let ours: BTreeSet<String> = g.uci_tokens(&legal, chess960).into_iter().collect();
            let mut list = Vec::new();
            pos.legal_turns(&mut list);
            let chess: BTreeSet<String> = list.iter().map(|m| pos.uci_token(m, chess960)).collect();
            assert_eq!(ours, chess, "{fen} (chess960 {chess960})");
            compared += 1;
        }
    }
    assert!(compared > 100, "only {compared} positions compared");
}

/// Plays `playouts` seeded random games of up to `plies` moves from the position of `g`,
/// checking the tokens of every position reached; leaves `g` as it was.
fn playouts(
    g: &mut Game,
    name: &str,
    rng: &mut SplitMix64,
    playouts: usize,
    plies: usize,
    stats: &mut Stats,
) -> Vec<String> {
    let mut bad = Vec::new();
    let mut legal = Vec::new();
    check(g, name, Parse::Sample(rng.next_u64()), stats, &mut bad);
    for _ in 0..playouts {
        let mut played = 0;
        let mut path = String::new();
        for _ in 0..plies {
            legal.clear();
            g.legal_moves(&mut legal);
            if legal.is_empty() {
                break;
            }
            let i = rng.below(legal.len() as u64) as usize;
            let m = legal[i];
            path.push(' ');
            path.push_str(&g.uci_tokens(&legal, false)[i]);
            g.make(&m).expect("a legal move plays");
            played += 1;
            check(g, &format!("{name} after{path}"), Parse::Sample(rng.next_u64()), stats, &mut bad);
        }
        for _ in 0..played {
            g.unmake();
        }
    }
    bad
}

/// Every condition of the catalogue, alone, from the start position and from some chess
/// oracle positions (the first records with standard castling files): seeded random
/// playouts, tokens unique at every position, one in eight read back.
#[test]
fn tokens_unique_in_random_playouts_under_every_condition() {
    let mut fens = vec!["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah -".to_string()];
    let text = oracle_text("vchess/chess.jsonl");
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let rec: serde_json::Value = serde_json::from_str(line).expect("JSON");
        let fen = rec["fen"].as_str().expect("fen");
        if fens.len() < 4 && chimere_fairy::game_from_fen(fen, &[]).is_ok() && rec["plies"].as_u64() > Some(10) {
            fens.push(fen.to_string());
        }
    }
    let mut stats = Stats::default();
    let mut bad = Vec::new();
    let mut rng = SplitMix64::new(0x706c_6179_6f75_7473);
    let mut conditions = 0;
    for (name, _) in chimere_fairy::conditions::registry::CATALOGUE {
        let mut built = false;
        for fen in &fens {
            let Ok(mut g) = chimere_fairy::game_from_fen(fen, &[name]) else { continue };
            built = true;
            stats.games += 1;
            bad.extend(playouts(&mut g, &format!("{name}: {fen}"), &mut rng, 2, 10, &mut stats));
        }
        conditions += usize::from(built);
    }
    eprintln!(
        "{conditions} conditions, {} games, {} positions, {} moves, {} tokens with a suffix, {} numbered",
        stats.games, stats.positions, stats.moves, stats.suffixed, stats.numbered
    );
    for (file, (n, example)) in &stats.by_file {
        eprintln!("  {file}: {n} suffixed, e.g. {example}");
    }
    assert!(conditions > 50, "only {conditions} conditions built");
    assert!(bad.is_empty(), "{} token problems:\n{}", bad.len(), bad[..bad.len().min(20)].join("\n"));
}
