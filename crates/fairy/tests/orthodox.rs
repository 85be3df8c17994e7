//! The one orthodox base: the chess crate and the fairy engine with no condition read the
//! same FENs, generate the same moves, write the same FENs back and hash equal positions
//! equally, on the shared oracle (`perft/chess.epd`, `vchess/chess.jsonl`) and on random
//! games (Chess960 arrays included).

use chimere_chess::Chess;
use chimere_core::{Setup, Status, Variant};
use chimere_fairy::{Game, Move, RuleSet, position_from_fen};
use proptest::prelude::*;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn shared(rel: &str) -> String {
    let dir = std::env::var_os("CHIMERE_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"));
    let p = dir.join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e} (set CHIMERE_SHARED)", p.display()))
}

fn fairy(fen: &str) -> Game {
    Game::new(RuleSet::orthodox(), position_from_fen(fen).expect("fairy reads the FEN"))
}

fn fairy_moves(g: &mut Game) -> Vec<Move> {
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    v
}

fn chess_moves(c: &mut Chess) -> Vec<chimere_chess::Move> {
    let mut v = Vec::new();
    c.legal_turns(&mut v);
    v
}

/// Both engines on the same position: same canonical moves, FENs, hash and status.
fn assert_same(c: &mut Chess, g: &mut Game, what: &str) -> BTreeSet<String> {
    assert_eq!(g.fen(), c.fen(), "{what}: vchess FEN");
    assert_eq!(g.pos.standard_fen(), c.standard_fen(), "{what}: standard FEN");
    assert_eq!(g.pos.hash(), c.hash(), "{what}: hash");
    assert_eq!(g.pos.recomputed_hash(), c.recomputed_hash(), "{what}: recomputed hash");
    let fm = fairy_moves(g);
    let cm: BTreeSet<String> = chess_moves(c).iter().map(|m| c.canonical(m)).collect();
    let gm: BTreeSet<String> = fm.iter().map(|m| g.canonical(m).expect("legal")).collect();
    assert_eq!(gm, cm, "{what}: moves");
    assert_eq!(g.status(&fm), c.status(), "{what}: status");
    cm
}

/// Plays the move with canonical form `m` in both engines.
fn play(c: &mut Chess, g: &mut Game, m: &str) {
    let cm = *chess_moves(c).iter().find(|x| c.canonical(x) == m).expect("chess move");
    let _ = c.make(&cm);
    let fm = fairy_moves(g).into_iter().find(|x| g.canonical(x).as_deref() == Some(m)).expect("fairy move");
    g.make(&fm).expect("legal in the fairy engine");
}

#[test]
fn vchess_chess_oracle_both_engines_agree() {
    let text = shared("oracle/vchess/chess.jsonl");
    let mut records = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let r: serde_json::Value = serde_json::from_str(line).expect("JSON");
        let fen = r["fen"].as_str().expect("fen");
        let mut c = Chess::from_fen(fen).expect("chess reads the oracle FEN");
        let mut g = fairy(fen);
        assert_eq!(c.fen(), fen, "FEN written back");
        let moves = assert_same(&mut c, &mut g, fen);
        let oracle: BTreeSet<String> =
            r["moves"].as_array().expect("moves").iter().map(|m| m.as_str().unwrap().to_string()).collect();
        assert_eq!(moves, oracle, "{fen}: oracle moves");
        let status = match r["status"].as_str().unwrap() {
            "1-0" => Status::WhiteWins,
            "0-1" => Status::BlackWins,
            "1/2" => Status::Draw,
            _ => Status::Ongoing,
        };
        assert_eq!(c.status(), status, "{fen}: oracle status");
        for d in r["details"].as_array().into_iter().flatten() {
            let m = d["move"].as_str().unwrap();
            let (mut c2, mut g2) = (c.clone(), fairy(fen));
            play(&mut c2, &mut g2, m);
            assert_eq!(c2.fen(), d["fen_after"].as_str().unwrap(), "{fen} {m}: oracle FEN after");
            assert_same(&mut c2, &mut g2, &format!("{fen} after {m}"));
        }
        records += 1;
    }
    assert!(records >= 100, "only {records} records");
}

#[test]
fn perft_suite_both_engines_agree() {
    let text = shared("oracle/perft/chess.epd");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim();
        let mut c = Chess::from_fen(fen).expect("chess reads the EPD FEN");
        let mut g = fairy(fen);
        assert_same(&mut c, &mut g, fen);
        assert_eq!(Setup::parse(&c.standard_fen()).unwrap(), Setup::parse(fen).unwrap(), "{fen}: written back");
        for d in parts {
            let mut w = d.split_whitespace();
            let depth: u32 = w.next().unwrap().trim_start_matches('D').parse().unwrap();
            let n: u64 = w.next().unwrap().parse().unwrap();
            // What the fairy engine counts quickly in a test build.
            if n > 250_000 {
                break;
            }
            assert_eq!(g.perft(depth), n, "{fen}: fairy perft {depth}");
            assert_eq!(chimere_core::perft(&mut c, depth, false), n, "{fen}: chess perft {depth}");
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} perft figures checked");
}

#[test]
fn transpositions_hash_equal_in_both_engines() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let line = |moves: &[&str]| {
        let (mut c, mut g) = (Chess::from_fen(start).unwrap(), fairy(start));
        for m in moves {
            play(&mut c, &mut g, m);
        }
        assert_eq!(c.hash(), g.pos.hash());
        (c.hash(), c)
    };
    let e4 = "-e2:wp +e4:wp";
    let (a, _) = line(&[e4]);
    let (b, cb) = line(&[e4, "-g8:bn +f6:bn", "-g1:wn +f3:wn", "-f6:bn +g8:bn", "-f3:wn +g1:wn"]);
    assert_eq!(a, b, "1.e4 and 1.e4 Nf6 2.Nf3 Ng8 3.Ng1: the same position");
    assert!(cb.fen().ends_with('-') && !line(&[e4]).1.fen().ends_with('-'), "the FEN still writes e3");
    // With a pawn that can take en passant the square counts: 1.d4 .. 2.d5 e5 (d5xe6
    // possible) differs from the same board reached without the double step.
    let ep = line(&["-d2:wp +d4:wp", "-c7:bp +c6:bp", "-d4:wp +d5:wp", "-e7:bp +e5:bp"]).0;
    let no_ep = line(&[
        "-d2:wp +d4:wp",
        "-e7:bp +e6:bp",
        "-d4:wp +d5:wp",
        "-c7:bp +c6:bp",
        "-g1:wn +f3:wn",
        "-e6:bp +e5:bp",
        "-f3:wn +g1:wn",
        "-g8:bn +f6:bn",
        "-g1:wn +f3:wn",
        "-f6:bn +g8:bn",
        "-f3:wn +g1:wn",
    ])
    .1;
    assert_ne!(ep, no_ep.hash(), "en passant possible: hashed");
}

#[test]
fn chess960_castling_lists_both_units() {
    // King g1 with the h1 rook (the king stays), king e1 with the f1 rook (the rook
    // stays), king d8 with the c8 rook (they swap squares).
    let cases = [
        ("4k3/8/8/8/8/8/8/6KR w K - 0 1", "-g1:wk -h1:wr +f1:wr +g1:wk", "0-0"),
        ("4k3/8/8/8/8/8/8/4KR2 w F - 0 1", "-e1:wk -f1:wr +f1:wr +g1:wk", "0-0"),
        ("2rk4/8/8/8/8/8/8/4K3 b c - 0 1", "-c8:br -d8:bk +c8:bk +d8:br", "0-0-0"),
    ];
    for (fen, castle, popeye) in cases {
        let (mut c, mut g) = (Chess::from_fen(fen).unwrap(), fairy(fen));
        let moves = assert_same(&mut c, &mut g, fen);
        assert!(moves.contains(castle), "{fen}: {castle} in {moves:?}");
        let m = fairy_moves(&mut g)
            .into_iter()
            .find(|m| Game::canonical(&mut g.clone(), m).as_deref() == Some(castle))
            .unwrap();
        assert_eq!(chimere_fairy::notation::move_with_check(&mut g, &m).as_deref(), Some(popeye));
        play(&mut c, &mut g, castle);
        assert_same(&mut c, &mut g, &format!("{fen} after castling"));
    }
    // A castling path square attacked: no castling (king b1 to g1 crossing d1).
    let fen = "3rk3/8/8/8/8/8/8/1K5R w H - 0 1";
    let (mut c, mut g) = (Chess::from_fen(fen).unwrap(), fairy(fen));
    let moves = assert_same(&mut c, &mut g, fen);
    assert!(!moves.iter().any(|m| m.contains("+g1:wk")), "{moves:?}");
    let fen = "4k3/8/8/8/8/8/8/1K5R w H - 0 1";
    let (mut c, mut g) = (Chess::from_fen(fen).unwrap(), fairy(fen));
    assert!(assert_same(&mut c, &mut g, fen).contains("-b1:wk -h1:wr +f1:wr +g1:wk"));
}

#[test]
fn fairy_fen_errors_are_clear() {
    use chimere_core::GameOptions;
    let opts = |conds: &[&str], params: &[(&str, &str)]| GameOptions {
        conditions: conds.iter().map(|c| c.to_string()).collect(),
        params: params.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        ..Default::default()
    };
    let read = |o: &GameOptions, fen: &str| <Game as Variant>::from_fen_with(o, fen).map(|g| g.fen());
    let circe = opts(&["circe"], &[]);
    let empty = "8/8/8/8/8/8/8/8 w - - 0 1";
    assert_eq!(read(&circe, empty).unwrap_err().to_string(), "bad FEN: board: white has no king");
    assert!(read(&opts(&["circe"], &[("kings", "optional")]), empty).is_ok());
    assert!(read(&opts(&["circe"], &[("kings", "maybe")]), empty).is_err());
    // Losing chess plays without royal units.
    assert!(read(&opts(&["losing chess"], &[]), empty).is_ok());
    assert!(read(&circe, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 junk").is_err());
    assert_eq!(read(&circe, "4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap(), "4k3/8/8/8/8/8/8/4K3 w 0 iiii -");
    assert!(position_from_fen("4k3/8/8/8/8/8/8/7K w K - 0 1").is_err(), "a right without its king");
    // Fairy kinds are written with the letters the reader takes back.
    let g = fairy("4k3/8/8/8/8/8/8/G3K2h w - - 0 1");
    assert_eq!(g.fen(), "4k3/8/8/8/8/8/8/G3K2h w 0 iiii -");
}

/// The FENs random games start from: the orthodox start, a tactical middle game, and
/// Chess960 arrays.
const STARTS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "nrbkqrbn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQRBN w FBfb - 0 1",
    "rkrnnbbq/pppppppp/8/8/8/8/PPPPPPPP/RKRNNBBQ w CAca - 0 1",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Random games in both engines: at every ply both FEN dialects round-trip in both
    /// engines (same position, same hash), and the engines agree.
    #[test]
    fn fen_round_trip_on_both_engines(start in 0..STARTS.len(), seed in any::<u64>(), plies in 1usize..40) {
        let (mut c, mut g) = (Chess::from_fen(STARTS[start]).unwrap(), fairy(STARTS[start]));
        let mut rng = seed | 1;
        for _ in 0..plies {
            let here = c.fen();
            let moves = assert_same(&mut c, &mut g, &here);
            // vchess FEN has no half-move clock: each dialect round-trips itself.
            let c2 = Chess::from_fen(&c.fen()).unwrap();
            prop_assert_eq!(c2.fen(), c.fen());
            prop_assert_eq!(c2.hash(), c.hash());
            let c2 = Chess::from_fen(&c.standard_fen()).unwrap();
            prop_assert_eq!(&c2, &c);
            let g2 = fairy(&g.fen());
            prop_assert_eq!(g2.fen(), g.fen());
            prop_assert_eq!(g2.pos.hash(), g.pos.hash());
            let g2 = fairy(&g.pos.standard_fen());
            prop_assert_eq!(g2.pos.standard_fen(), g.pos.standard_fen());
            prop_assert_eq!(g2.pos.hash(), g.pos.hash());
            if moves.is_empty() {
                break;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let m = moves.iter().nth((rng % moves.len() as u64) as usize).unwrap().clone();
            play(&mut c, &mut g, &m);
        }
    }
}

/// Repetition compares positions: the position after 1.e4 comes back after 1.e4 Nf6
/// 2.Nf3 Ng8 3.Ng1 and again after 4...Nf6 5.Nf3 Ng8 6.Ng1 (the en passant square e3
/// cannot be used, so it does not count): the third occurrence draws, in both engines.
#[test]
fn repetition_through_a_double_step_in_both_engines() {
    use chimere_core::{EndReason, Game as Play, GameOptions};
    let line = ["e2e4", "g8f6", "g1f3", "f6g8", "f3g1", "g8f6", "g1f3", "f6g8"];
    let mut chess: Play<Chess> = Play::new(GameOptions::default()).unwrap();
    let mut fairy: Play<Game> = Play::new(GameOptions::default()).unwrap();
    for m in line {
        chess.play(m).unwrap();
        fairy.play(m).unwrap();
        assert!(!chess.outcome().is_over() && !fairy.outcome().is_over(), "over after {m}");
    }
    chess.play("f3g1").unwrap();
    fairy.play("f3g1").unwrap();
    assert_eq!(chess.outcome().reason, EndReason::Repetition);
    assert_eq!(fairy.outcome().reason, EndReason::Repetition);
    assert_eq!(chess.hashes(), fairy.hashes());
}
