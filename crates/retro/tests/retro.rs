//! The spec examples of `retro.md` / `conditions.md` the predicates decide, one legal and
//! one illegal hand-made position per tier-0 rule, and random-game properties.

use chimere_chess::Chess;
use chimere_core::{GameOptions, Status, Variant};
use chimere_retro::*;
use proptest::prelude::*;

fn setup(fen: &str) -> Setup {
    Setup::from_fen(fen).expect("fen")
}

fn illegal(fen: &str) -> bool {
    proven_illegal(&setup(fen)).is_illegal()
}

fn static_only(fen: &str) -> Option<&'static str> {
    static_illegal(&setup(fen), &RetroConfig::default())
}

// ---- tier 0, one rule at a time: (legal, illegal) -------------------------------------

#[test]
fn rule1_kings_units_edge_pawns() {
    assert_eq!(static_only("4k3/8/8/8/8/8/8/4K3 w - -"), None);
    assert!(static_only("4k3/8/8/8/8/8/8/3KK3 w - -").is_some());
    assert!(static_only("4k3/8/8/8/8/8/8/8 w - -").is_some());
    assert!(static_only("P3k3/8/8/8/8/8/8/4K3 w - -").is_some());
    assert!(static_only("4k3/8/8/8/8/8/8/p3K3 w - -").is_some());
    let mut s = setup("4k3/8/8/8/8/8/8/4K3 w - -");
    s.put_kind(chimere_core::Square::parse("d4").unwrap(), chimere_core::Colour::White, chimere_core::Kind(7));
    assert!(static_illegal(&s, &RetroConfig::default()).is_some());
}

#[test]
fn rule2_checks() {
    // Side not to move in check.
    assert!(static_only("4k3/4R3/8/8/8/8/8/4K3 w - -").is_some());
    assert_eq!(static_only("4k3/4R3/8/8/8/8/8/4K3 b - -"), None);
    // Double check by rook + bishop: the bishop just moved off the rook's line.
    assert_eq!(static_only("4k3/8/8/1B6/8/8/8/4R1K1 b - -"), None);
    // Double check by two knights: nothing can be discovered.
    assert!(static_only("4k3/8/3N1N2/8/8/8/8/6K1 b - -").is_some());
    // Two rooks on rank and file with no square either could have come from on the other's line.
    assert!(static_only("R3k3/8/8/8/8/8/8/4R1K1 b - -").is_some());
    // ...but a rook that could have come from the e-file while discovering is fine.
    assert_eq!(static_only("3Rk3/8/8/8/8/8/8/4R1K1 b - -"), None);
    // Three checkers.
    assert!(static_only("4k3/8/3N4/1B6/8/8/8/4R1K1 b - -").is_some());
    // A pawn on its 2nd rank checking.
    assert!(static_only("8/8/8/8/8/3k4/4P3/4K3 b - -").is_some());
    assert_eq!(static_only("8/8/8/8/3k4/4P3/8/4K3 b - -"), None);
}

#[test]
fn rule3_counts() {
    assert!(static_only("4k3/8/8/8/8/8/PPPPPPPP/P3K3 w - -").is_some()); // 9 pawns (and one on rank 1)
    assert!(static_only("4k3/8/8/8/P7/8/PPPPPPPP/4K3 w - -").is_some()); // 9 pawns
    assert_eq!(static_only("4k3/8/8/8/8/8/PPPPPPP1/QQ2K3 w - -"), None); // one promoted queen
    assert!(static_only("4k3/8/8/8/8/8/PPPPPPPP/QQ2K3 w - -").is_some()); // a promoted queen, no pawn missing
    // Two dark-square bishops with all pawns: one would be promoted.
    assert!(static_only("4k3/8/8/8/8/8/PPPPPPPP/B1B1K3 w - -").is_some());
    // c1 bishop walled in by b2 and d2 and gone: a dark bishop elsewhere is promoted.
    assert_eq!(static_only("4k3/8/8/8/8/B7/1P1P4/4K3 w - -"), None);
    assert!(static_only("4k3/8/8/8/8/B1P5/PP1PPPPP/4K3 w - -").is_some());
}

#[test]
fn rule4_pawn_captures() {
    // Three white pawns on the a-file need 0+1+2 captures; Black has all 16 units.
    let full_black = "rnbqkbnr/pppppppp/8/8";
    assert!(static_only(&format!("{full_black}/P7/P7/P7/4K3 w - -")).is_some());
    // With three black units gone it is possible.
    assert_eq!(static_only("rnbqk3/pppppppp/8/8/P7/P7/P7/4K3 w - -"), None);
    // Doubled pawns need one capture.
    assert!(static_only(&format!("{full_black}/8/P7/PPPPPPP1/4K3 w - -")).is_some());
    assert_eq!(static_only("rnbqkbn1/pppppppp/8/8/8/P7/P1PPPPPP/4K3 w - -"), None);
    assert!(static_only("rnbqkbnr/pppppppp/8/8/8/P7/P1PPPPPP/4K3 w - -").is_some());
    // Pawns on their 2nd rank never moved: a3 beside a2..g2 must come from the h-file.
    assert!(static_only("rnbqkbn1/pppppppp/8/8/8/P7/PPPPPPP1/4K3 w - -").is_some());
}

#[test]
fn rule5_cages() {
    assert!(static_only("4k3/8/8/8/8/8/1P6/B3K3 w - -").is_some());
    assert_eq!(static_only("4k3/8/8/8/8/1P6/8/B3K3 w - -"), None);
    assert!(static_only("4k2b/6p1/8/8/8/8/8/4K3 w - -").is_some());
    assert_eq!(static_only("4k2b/8/6p1/8/8/8/8/4K3 w - -"), None);
}

#[test]
fn rule6_castling() {
    assert_eq!(static_only("4k3/8/8/8/8/8/8/4K2R w K -"), None);
    assert!(static_only("4k3/8/8/8/8/8/8/4K1R1 w K -").is_some());
    assert!(static_only("4k3/8/8/8/8/8/8/3K3R w K -").is_some());
    assert_eq!(static_only("r3k3/8/8/8/8/8/8/4K3 w q -"), None);
    assert!(static_only("r3k3/8/8/8/8/8/8/4K3 w k -").is_some());
}

#[test]
fn rule7_en_passant() {
    assert_eq!(static_only("4k3/8/8/3pP3/8/8/8/4K3 w - d6"), None);
    assert!(static_only("4k3/8/8/4P3/8/8/8/4K3 w - d6").is_some()); // no pawn on d5
    assert!(static_only("4k3/3p4/8/3pP3/8/8/8/4K3 w - d6").is_some()); // d7 occupied
    // Before the step the white king would have been in check from d7, Black to move:
    // the side not to move in check.
    assert!(static_only("8/8/8/2kpP3/8/8/8/K7 w - d6").is_none());
    assert!(static_only("8/8/4K3/3pP3/8/8/8/k7 w - d6").is_some());
}

// ---- tier 1 --------------------------------------------------------------------------

#[test]
fn amnesie_ep_provable_case() {
    // conditions.md, Amnésie: after 1.e2-e4 in 8/8/8/8/3p1k2/3p1p2/pn2P3/Kn6 w the last move
    // must have been the double step: without e.p. the position is proven illegal.
    assert!(illegal("8/8/8/8/3pPk2/3p1p2/pn6/Kn6 b - -"));
    assert!(!illegal("8/8/8/8/3pPk2/3p1p2/pn6/Kn6 b - e3"));
    // With a white rook on h1 the rook may have moved last: nothing proven.
    assert!(!illegal("8/8/8/8/3pPk2/3p1p2/pn6/Kn5R b - -"));
    // A normal 1.e2-e4 from the array: the position without e.p. is legal (1.e4 from a
    // position where no pawn could take).
    assert!(!illegal("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -"));
}

#[test]
fn retraction_finds_no_last_move() {
    // White king boxed in on a1 by its own pawns, no other white unit: Black to move, so
    // White moved last, but nothing could move.
    assert!(illegal("4k3/8/8/8/8/8/PPP5/KB6 b - -"));
    // The same with White to move is fine (Black moved last); with c2 empty the bishop
    // may have come from c2.
    assert!(!illegal("4k3/8/8/8/8/8/PPP5/KB6 w - -"));
    assert!(!illegal("4k3/8/8/8/8/8/PP6/KB6 b - -"));
    // The array and the position after 1.e4 e5 are legal.
    assert!(!illegal("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"));
    assert!(!illegal("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6"));
}

#[test]
fn zeller_alsacien_circe() {
    // conditions.md Alsacien: k7/8/1PN5/8/8/8/8/B6K w, Circe, 1.b6-b7+ Kxb7 would rebirth the
    // pawn on b2 behind the a1 bishop: proven illegal; the other positions are fine.
    assert!(illegal("8/1k6/2N5/8/8/8/1P6/B6K w - -"));
    assert!(!illegal("k7/1P6/2N5/8/8/8/8/B6K b - -"));
    assert!(!illegal("k7/8/1PN5/8/8/8/8/B6K w - -"));
}

// ---- deadness ------------------------------------------------------------------------

fn chess(fen: &str) -> Chess {
    Chess::from_fen(fen).expect("fen")
}

fn dead(fen: &str) -> Deadness {
    let mut c = chess(fen);
    let before = c.hash();
    let d = proven_dead(&mut c, &DeadConfig::default(), &orthodox_material_dead::<Chess>);
    assert_eq!(c.hash(), before, "position restored");
    d
}

#[test]
fn material_tier() {
    assert_eq!(dead("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), Deadness::Dead("material"));
    assert_eq!(dead("4k3/8/8/8/8/8/8/4KN2 w - - 0 1"), Deadness::Dead("material"));
    assert_eq!(dead("4k3/8/8/8/8/8/8/4KB2 b - - 0 1"), Deadness::Dead("material"));
    // Bishops all on one square colour, both sides.
    assert_eq!(dead("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1"), Deadness::Dead("material"));
    // KN v KN, KB v KB opposite colours, KNN v K, KN v KB are not dead by material.
    for fen in [
        "4kn2/8/8/8/8/8/8/4KN2 w - - 0 1",
        "4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1",
        "4kb2/8/8/8/8/8/8/4KN2 w - - 0 1",
    ] {
        assert!(!material_dead_setup(&setup(fen)), "{fen}");
        assert!(!dead(fen).is_dead(), "{fen}");
    }
    assert!(!material_dead_setup(&setup("4k3/8/8/8/8/8/4P3/4K3 w - -")));
}

#[test]
fn buchanan_dead_reckoning() {
    // conditions.md, Dead Reckoning: Buchanan 8/p7/8/P2p4/Pp1p4/kP1Pp3/p1KpP3/NQ1B4 w, h=1.5:
    // after 1...a5-a6 2.a2xb1=Q (or =B, =N) every line ends in stalemate: dead. After
    // 2.a2xb1=R play goes on and the position must not be called dead (it is the solution).
    assert!(!dead("8/p7/8/P2p4/Pp1p4/kP1Pp3/p1KpP3/NQ1B4 w - - 0 1").is_dead());
    let after = |p: char| format!("8/p7/P7/3p4/Pp1p4/kP1Pp3/2KpP3/N{p}1B4 w - - 0 1");
    assert!(dead(&after('q')).is_dead());
    assert!(dead(&after('b')).is_dead());
    assert!(!dead(&after('r')).is_dead());
    // =N: no check, but every line is forced into stalemate or a repetition (conditions.md:
    // only the =R line survives Dead Reckoning).
    assert!(dead(&after('n')).is_dead());
    // Stalemate after Kxb1 itself.
    assert_eq!(chess("8/p7/P7/3p4/Pp1p4/kP1Pp3/3pP3/NK1B4 b - - 0 1").status(), Status::Draw);
}

#[test]
fn cache_returns_the_first_answer() {
    let c = Cache::new(2);
    assert!(c.get_or(1, || true));
    assert!(c.get_or(1, || false));
    c.insert(2, false);
    c.insert(3, false); // full: cleared
    assert_eq!(c.get(1), None);
}

// ---- properties -----------------------------------------------------------------------

fn random_game(start: Chess, seed: u64, plies: usize, mut visit: impl FnMut(&Chess, usize)) -> Chess {
    let mut rng = chimere_core::rng::SplitMix64::new(seed);
    let mut pos = start;
    let mut moves = Vec::new();
    for ply in 0..plies {
        visit(&pos, ply);
        moves.clear();
        pos.legal_turns(&mut moves);
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len() as u64) as usize];
        pos.make(&m);
    }
    pos
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, .. ProptestConfig::default() })]

    #[test]
    fn random_games_are_never_illegal(seed in any::<u64>()) {
        let start = chess("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        random_game(start, seed, 160, |p, ply| {
            let fen = p.standard_fen();
            let s = Setup::from_fen(&fen).expect("fen");
            assert_eq!(proven_illegal(&s), Legality::NotProven, "ply {ply}: {fen}");
            let mut any = s.clone();
            any.ep = Ep::Any;
            any.castling = 0;
            assert_eq!(proven_illegal(&any), Legality::NotProven, "ply {ply} (any e.p.): {fen}");
        });
    }

    #[test]
    fn random_chess960_games_are_never_illegal(seed in any::<u64>(), array in 1u64..960) {
        let opts = GameOptions { randomness: 1, seed: array, ..GameOptions::default() };
        let start = Chess::new_game(&opts).expect("start");
        let cfg = RetroConfig { orthodox_array: false, ..RetroConfig::default() };
        random_game(start, seed, 160, |p, ply| {
            let fen = p.standard_fen();
            let mut s = Setup::from_fen(&fen.split(' ').enumerate().map(|(i, f)| if i == 2 { "-" } else { f }).collect::<Vec<_>>().join(" ")).expect("fen");
            s.castling = 0;
            assert_eq!(proven_illegal_with(&s, &cfg), Legality::NotProven, "ply {ply}: {fen}");
        });
    }

    #[test]
    fn games_ending_in_mate_are_never_dead(seed in any::<u64>()) {
        // Random games biased towards checks and captures; in those that end in mate, no
        // position on the way may be proven dead.
        let mut rng = chimere_core::rng::SplitMix64::new(seed);
        let mut pos = chess("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let mut line = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..200 {
            line.push(pos.clone());
            moves.clear();
            pos.legal_turns(&mut moves);
            if moves.is_empty() { break; }
            let checks: Vec<_> = moves.iter().copied().filter(|m| { let u = pos.make(m); let c = pos.in_check(); pos.unmake(m, u); c }).collect();
            let pool = if !checks.is_empty() && rng.below(2) == 0 { checks } else { moves.clone() };
            let m = pool[rng.below(pool.len() as u64) as usize];
            pos.make(&m);
        }
        if matches!(pos.status(), Status::WhiteWins | Status::BlackWins) {
            let cfg = DeadConfig { forced_depth: 4, forced_nodes: 3_000, forced_max_moves: 64, closure_nodes: 3_000, closure_max_moves: 64 };
            for p in line.iter().rev().take(30) {
                let mut q = p.clone();
                let d = proven_dead(&mut q, &cfg, &orthodox_material_dead::<Chess>);
                prop_assert!(!d.is_dead(), "{} called dead", p.standard_fen());
            }
        }
    }
}

// ---- public corpus ---------------------------------------------------------------------

/// Positions (data only) from Sherlock's `tests/legality.rs` (miguel-ambrona/sherlock,
/// commit 13f5af8e, test_legality_misc): `true` = tagged legal there, `false` = tagged
/// illegal. Positions tagged "TBD" (illegal, not yet proven by Sherlock) are left out.
const SHERLOCK: &[(&str, bool)] = &[
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", true),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq -", false),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBNKBNR w - -", false),
    ("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b - -", false),
    ("rnbqkbnr/pppppp1p/8/3b4/8/6P1/PPPPPP2/RNBQK1NR w K -", false),
    ("rnbqkbnr/pppppp1p/8/3b4/8/6P1/PPPPPP2/RNBQK1NR w - -", true),
    ("r3k3/ppp1p1pp/8/8/8/8/8/R1R1K2R b q -", false),
    ("r3k3/ppp1p1pp/8/8/8/8/8/R1R1K2R b - -", true),
    ("r3kR2/ppp3pp/8/8/8/8/8/R3K2R b q -", true),
    ("r1bqkb1r/1ppppppp/8/2P5/8/8/PPPPP1PP/R1BQKB1R b Qq -", true),
    ("r1bqkb1r/1ppppppp/8/2P5/8/8/PPPPP1PP/R1BQKB1R w Qq -", false),
    ("r1bqkb1r/1ppppppp/8/2P5/8/8/PPPPP1PP/R1BQKB1R w q -", true),
    ("r1bqkb1r/1ppppppp/8/2P5/8/8/PPPPP1PP/R1BQKB1R w Q -", true),
    ("rnb1kb2/pppppppr/7p/8/8/P5PP/1PPPP1PR/RNB1KBN1 w Qq -", false),
    ("rnb1kb2/pppppppr/7p/8/8/P5PP/1PPPP1PR/RNB1KBN1 b Qq -", true),
    ("rnb1kb2/pppppppr/7p/8/8/P5PP/1PPPP1PR/RNB1KB2 w Qq -", true),
    ("Nrq1kb1r/pppppppp/1N6/8/1P6/4n1n1/1PPPPPPP/R1BQKB1R b KQk -", false),
    ("rnbqkbrn/ppppp1p1/5pp1/8/8/8/PPPPPPPP/RNBQKB1R w - -", true),
    ("1nbqkbnr/1ppppppp/1p6/3rN3/8/8/1PPPPPPP/R1BQKBNR b Q -", false),
    ("1nbqkbnr/1ppppppp/1p6/3rN3/8/8/1PPPPPPP/R1BQKBNR b - -", true),
    ("Nnbqkbnr/1ppppppp/1p6/3r4/8/8/1PPPPPPP/R1BQKBNR b Q -", true),
    ("rnbqkbnr/ppp2ppp/4p3/3P4/3p4/4P3/PPP2PPP/RNBQKBNR b - -", false),
    ("7b/6p1/3k4/8/8/2K5/8/8 w - -", false),
    ("8/8/8/8/8/P3P2P/1PPP1PP1/2k2K2 w - -", false),
    ("3k1b1K/4ppp1/7p/8/8/8/8/8 w - -", false),
    ("8/8/8/8/8/6P1/6P1/R3K2k w Q -", false),
];

#[test]
fn sherlock_corpus() {
    let mut caught = Vec::new();
    for (fen, legal) in SHERLOCK {
        let verdict = proven_illegal(&setup(fen));
        if *legal {
            assert_eq!(verdict, Legality::NotProven, "legal position rejected: {fen}");
        } else if verdict.is_illegal() {
            caught.push(*fen);
        }
    }
    let illegal = SHERLOCK.iter().filter(|(_, l)| !l).count();
    eprintln!("Sherlock corpus: {} of {illegal} illegal positions proven: {caught:?}", caught.len());
    // The classes tiers 0-1 claim: the corner-bishop cage.
    assert!(caught.contains(&"7b/6p1/3k4/8/8/2K5/8/8 w - -"));
}

/// CHA's test vectors (data, see the file header): a position either side can still mate
/// in is never proven dead; the dead ones ("--") proven dead are counted.
#[test]
fn cha_test_vectors() {
    let text = include_str!("data/cha-test-vector.txt");
    let cfg = DeadConfig {
        forced_depth: 7,
        forced_nodes: 20_000,
        forced_max_moves: 40,
        closure_nodes: 20_000,
        closure_max_moves: 16,
    };
    let (mut dead_total, mut dead_proven, mut alive) = (0, 0, 0);
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let (tag, fen) = line.split_at(2);
        let fen = format!("{} 0 1", fen.trim());
        let Ok(mut pos) = Chess::from_fen(&fen) else { continue };
        let d = proven_dead(&mut pos, &cfg, &orthodox_material_dead::<Chess>);
        if std::env::var("RETRO_DEBUG").is_ok() {
            let mut v = Vec::new();
            pos.legal_turns(&mut v);
            eprintln!("{tag} {d:?} moves {} {fen}", v.len());
        }
        if tag == "--" {
            dead_total += 1;
            dead_proven += d.is_dead() as u32;
        } else {
            alive += 1;
            assert!(!d.is_dead(), "alive position called dead ({d:?}): {fen}");
        }
    }
    eprintln!("CHA vectors: {alive} alive never called dead; {dead_proven} of {dead_total} dead proven");
    assert!(dead_proven > 0);
}

/// Speed figure (run with `--ignored --nocapture`): tier 0 and tiers 0-1 on positions of
/// random games.
#[test]
#[ignore]
fn speed() {
    let mut all = Vec::new();
    for seed in 0..20 {
        let start = chess("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        random_game(start, seed, 100, |p, _| {
            let mut s = Setup::from_fen(&p.standard_fen()).unwrap();
            s.ep = Ep::Any;
            s.castling = 0;
            all.push(s)
        });
    }
    let t = std::time::Instant::now();
    let n = all.iter().filter(|s| static_illegal(s, &RetroConfig::default()).is_some()).count();
    eprintln!("tier 0: {} positions in {:?} ({n} illegal)", all.len(), t.elapsed());
    let t = std::time::Instant::now();
    let n = all.iter().filter(|s| proven_illegal(s).is_illegal()).count();
    eprintln!("tiers 0-1: {} positions in {:?} ({n} illegal)", all.len(), t.elapsed());
    let mut preds = Vec::new();
    let t = std::time::Instant::now();
    for s in &all {
        preds.clear();
        unmoves(s, &mut preds);
    }
    eprintln!("unmoves: {:?}, last {}", t.elapsed(), preds.len());
}
