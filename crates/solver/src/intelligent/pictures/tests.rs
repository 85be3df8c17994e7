use super::super::tests::{Rng, collect_help, collect_series, random_game, searcher};
use super::mate::enumerate_all;
use super::*;

/// `count` random positions drawn from `seed`.
fn random_games(seed: u64, count: usize) -> impl Iterator<Item = Game> {
    games_from(seed, random_game).take(count)
}

/// The positions `make` draws from `seed`, the failed draws skipped.
fn games_from(seed: u64, make: fn(&mut Rng) -> Option<Game>) -> impl Iterator<Item = Game> {
    let mut rng = Rng(seed);
    std::iter::from_fn(move || {
        loop {
            if let Some(g) = make(&mut rng) {
                return Some(g);
            }
        }
    })
}

/// Solves `count` random positions at each length in `plies` both ways, the pictures
/// used from the first ply on: the same lines in the same order. Returns the number
/// of lines found.
fn compare(seed: u64, count: usize, plies: std::ops::RangeInclusive<u32>) -> usize {
    compare_games(random_games(seed, count), plies)
}

/// [`compare`] on the given positions.
fn compare_games(games: impl Iterator<Item = Game>, plies: std::ops::RangeInclusive<u32>) -> usize {
    let mut found = 0;
    for g in games {
        for p in plies.clone() {
            let (la, _) = collect_help(|out| searcher(g.clone()).help_lines(p, &mut Vec::new(), out));
            let (lb, r) =
                collect_help(|out| lines(&mut searcher(g.clone()), &mut Cache::default(), 0, p, &mut Vec::new(), out));
            assert!(r.is_some(), "pictures not applied: {}", g.pos.fen());
            assert_eq!(la, lb, "{} plies from {}", p, g.pos.fen());
            found += la.len();
        }
    }
    found
}

/// A random position where White has its king and one or two more units, Black
/// (to move) its king on an edge and three to six units around it: mate pictures
/// commit every white unit but the king, and blockers that could parry the check
/// refute many ([`Enumeration::defended`]).
fn few_maters_game(rng: &mut Rng) -> Option<Game> {
    let mut g = few_maters_unchecked(rng, 'b')?;
    if g.in_check(Colour::White) || g.in_check(Colour::Black) {
        return None;
    }
    Some(g)
}

/// The position of [`few_maters_game`] with `side` to move, either side perhaps in
/// check.
fn few_maters_unchecked(rng: &mut Rng, side: char) -> Option<Game> {
    let (mut board, bk) = super::super::tests::kings_on_board(rng)?;
    super::super::tests::crowd(&mut board, bk, 3 + rng.below(4), b"snbrqpp", rng);
    for _ in 0..1 + rng.below(2) {
        let sq = rng.below(64) as usize;
        let u = b"QRBSP"[rng.below(5) as usize] as char;
        if board[sq].is_none() && (u != 'P' || (8..56).contains(&sq)) {
            board[sq] = Some(u);
        }
    }
    let fen = super::super::tests::placement(&board);
    chimere_fairy::game_from_fen(&format!("{fen} {side} - - 0 1"), &[]).ok()
}

/// The pictures on random positions with holes (`Condition Hole`: no flight, no
/// final square there), help play of 1 to 4 plies and series play of 1 to 3 moves.
#[test]
fn the_pictures_find_the_same_mates_with_holes() {
    let mut games = games_from(0x401d, |rng| random_game(rng).and_then(|g| super::super::tests::with_holes(&g, rng)));
    let found = compare_games(games.by_ref().take(60), 1..=4);
    assert!(found >= 20, "only {found} mates");
    compare_series_games(games.take(30), 1..=3);
}

/// The mate pictures on random positions with dummies of either side (units that
/// never move and attack nothing, which block and can be captured), help play of 1 to
/// 4 plies and series play of 1 to 3 moves: the normal search's lines.
#[test]
fn the_pictures_find_the_same_mates_with_dummies() {
    let dummied = |rng: &mut Rng| {
        let g = if rng.below(2) == 0 { random_game(rng) } else { few_maters_game(rng) }?;
        super::super::tests::with_dummies(&g, rng)
    };
    let mut games = games_from(0xd0d1, dummied);
    let found = compare_games(games.by_ref().take(50), 1..=4);
    assert!(found >= 20, "only {found} mates");
    compare_series_games(games.take(30), 1..=3);
}

/// Helpmates in 1.5 and 2 (White mating) where White has few units and Black many:
/// the pictures that a blocker's parry refutes are dropped, and the lines are still
/// the normal search's.
#[test]
fn the_pictures_refuted_by_a_parry_lose_no_mate() {
    let found = compare_games(games_from(0x9a44, few_maters_game).take(160), 2..=4);
    assert!(found >= 40, "only {found} mates");
}

/// Every real mate fits a picture, and no picture a real mate fits is refuted by a
/// parry: in random checkmates (Black mated by White's last move, played from random
/// positions where White has its king and one or two units, Black many), the
/// pictures with no move left to either side (each unit committed to its own square,
/// so each fits the mate) are there, and none is refuted.
#[test]
fn every_mate_keeps_a_picture_with_no_moves_left() {
    let mut rng = Rng(0x3e1f);
    let (mut mates, mut tried, mut parried) = (0, 0, 0);
    let (mut moves, mut replies) = (Vec::new(), Vec::new());
    while mates < 3000 && tried < 2_000_000 {
        tried += 1;
        let Some(mut g) = few_maters_unchecked(&mut rng, 'w') else {
            continue;
        };
        if g.in_check(Colour::Black) || g.in_check(Colour::White) {
            continue;
        }
        moves.clear();
        g.legal_moves(&mut moves);
        for m in &moves {
            g.make(m);
            replies.clear();
            g.legal_moves(&mut replies);
            if g.in_check(Colour::Black) {
                let (p, refuted) =
                    enumerate_all(&g, Colour::White, (0, 0), false, false, u64::MAX, true).expect("pictures");
                if replies.is_empty() {
                    mates += 1;
                    assert!(!p.ranges.is_empty(), "no picture of the mate {}", g.pos.fen());
                    assert_eq!(refuted, 0, "a picture of the mate {} refuted", g.pos.fen());
                } else {
                    parried += refuted;
                }
            }
            g.unmake();
        }
    }
    assert!(mates >= 3000, "{mates} mates in {tried} positions");
    // Checks that are no mates: their pictures are refuted often.
    assert!(parried >= 50, "{parried} pictures of checks refuted");
}

/// The same for series play (`ser-h#k` and `ser-#k`, Black's series), answers
/// included.
fn compare_series(seed: u64, count: usize, ks: std::ops::RangeInclusive<u32>) -> usize {
    compare_series_games(random_games(seed, count), ks)
}

/// [`compare_series`] on the given positions.
fn compare_series_games(games: impl Iterator<Item = Game>, ks: std::ops::RangeInclusive<u32>) -> usize {
    let mut found = 0;
    for g in games {
        for play in [Play::SeriesHelp, Play::Series] {
            for k in ks.clone() {
                let (la, _) = collect_series(|out| searcher(g.clone()).series_lines(play, k, &mut Vec::new(), out));
                let (lb, r) = collect_series(|out| {
                    series_lines(&mut searcher(g.clone()), &mut Cache::default(), 0, play, k, &mut Vec::new(), out)
                });
                assert!(r.is_some(), "pictures not applied: {}", g.pos.fen());
                assert_eq!(la, lb, "{play:?} {k} from {}", g.pos.fen());
                found += la.len();
            }
        }
    }
    found
}

/// Solves the continuations of every first move of `count` random positions, at each
/// help length in `plies` and each series length in `ks`, both ways: the normal
/// search, and the pictures asked after the first move (the parent's pictures
/// followed through it, as the solver's first-move loop asks them); the same lines in
/// the same order. Returns the number of lines found.
fn compare_from_parent(
    seed: u64,
    count: usize,
    goal: Goal,
    plies: std::ops::RangeInclusive<u32>,
    ks: std::ops::RangeInclusive<u32>,
) -> usize {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let after = |g: &Game, m: &Move, pass: bool| {
        let mut s = Searcher::new(g.clone(), Table::new(8), Arc::new(AtomicBool::new(false)), goal, false);
        (s.game.make(m).is_some() && (!pass || s.game.make(&Move::NULL).is_some())).then_some(s)
    };
    let mut found = 0;
    // One cache for the first moves of a position, as the searcher's pruning keeps it.
    let mut cache = Cache::default();
    for g in random_games(seed, count) {
        for m in &searcher(g.clone()).legal() {
            for p in plies.clone() {
                let (Some(mut a), Some(mut b)) = (after(&g, m, false), after(&g, m, false)) else { continue };
                let (la, _) = collect_help(|out| a.help_lines(p, &mut vec![*m], out));
                let (lb, r) = collect_help(|out| lines(&mut b, &mut cache, 0, p, &mut vec![*m], out));
                assert!(r.is_some(), "pictures not applied: {}", g.pos.fen());
                assert_eq!(la, lb, "{} plies after {m:?} from {}", p, g.pos.fen());
                found += la.len();
            }
            for play in [Play::SeriesHelp, Play::Series] {
                for k in ks.clone() {
                    let (Some(mut a), Some(mut b)) = (after(&g, m, true), after(&g, m, true)) else { continue };
                    let (la, _) = collect_series(|out| a.series_lines(play, k, &mut vec![*m], out));
                    let (lb, r) =
                        collect_series(|out| series_lines(&mut b, &mut cache, 0, play, k, &mut vec![*m], out));
                    assert!(r.is_some(), "pictures not applied: {}", g.pos.fen());
                    assert_eq!(la, lb, "{play:?} {k} after {m:?} from {}", g.pos.fen());
                    found += la.len();
                }
            }
        }
    }
    found
}

#[test]
fn the_pictures_of_the_parent_find_the_same_lines_after_each_first_move() {
    let mates = compare_from_parent(41, 6, Goal::Mate, 1..=3, 1..=2);
    let stalemates = compare_from_parent(42, 6, Goal::Stalemate, 1..=3, 1..=2);
    assert!(mates > 0 && stalemates > 0, "{mates} mates, {stalemates} stalemates");
}

/// Solves `count` random positions at each help length in `plies` and each series
/// length in `ks` with ONE searcher per position, so that the walks (by the pictures
/// from the first ply on) share its table with each other and with the normal
/// search asked first about the same lengths: the same lines as fresh normal
/// searches. Returns the number of lines found.
fn compare_shared(
    seed: u64,
    count: usize,
    plies: std::ops::RangeInclusive<u32>,
    ks: std::ops::RangeInclusive<u32>,
) -> usize {
    let mut found = 0;
    for g in random_games(seed, count) {
        let mut shared = super::super::tests::intelligent(g.clone(), Goal::Mate);
        let mut cache = Cache::default();
        for p in plies.clone() {
            let (la, _) = collect_help(|out| searcher(g.clone()).help_lines(p, &mut Vec::new(), out));
            if p % 2 == 0 {
                // The normal search first fills the table for this length.
                shared.help_exists(p).expect("not stopped");
            }
            let (lb, r) = collect_help(|out| lines(&mut shared, &mut cache, 0, p, &mut Vec::new(), out));
            assert!(r.is_some(), "pictures not applied: {}", g.pos.fen());
            assert_eq!(la, lb, "{} plies from {} (shared table)", p, g.pos.fen());
            found += la.len();
        }
        for play in [Play::SeriesHelp, Play::Series] {
            for k in ks.clone() {
                let (la, _) = collect_series(|out| searcher(g.clone()).series_lines(play, k, &mut Vec::new(), out));
                let (lb, r) =
                    collect_series(|out| series_lines(&mut shared, &mut cache, 0, play, k, &mut Vec::new(), out));
                assert!(r.is_some(), "pictures not applied: {}", g.pos.fen());
                assert_eq!(la, lb, "{play:?} {k} from {} (shared table)", g.pos.fen());
                found += la.len();
            }
        }
    }
    found
}

#[test]
fn the_pictures_sharing_a_table_find_the_same_mates() {
    let found = compare_shared(0x7ab1, 12, 1..=5, 1..=4);
    assert!(found > 20, "only {found} lines in the sample");
}

#[test]
fn the_mate_pictures_are_searched_together() {
    // Black's series of 8 moves before White's mate (2 + 9 units): the pictures of a
    // mate become completions over one canonical unit list, searched in one walk.
    let g = chimere_fairy::game_from_fen("8/8/knb5/npq5/rbr5/1P1K4/8/8 b - - 0 1", &[]).expect("a position");
    let p = enumerate(&g, Colour::White, (1, 8), false, true, u64::MAX).expect("pictures");
    assert!(p.ranges.len() > 1, "one range per picture before the union");
    let count = p.ranges.len();
    let u = unite(&g, Colour::White, p);
    assert_eq!(u.ranges.len(), 1, "one walk");
    let n = u.units.len();
    assert_eq!(n, 11, "every unit on the board");
    assert_eq!(u.fates.len(), count * n, "one completion per picture");
    // Each completion commits the mated king (first), with a final square.
    assert!(u.fates.chunks(n).all(|c| matches!(c[0], Entry::As { kind, .. } if kind == KING.index() as u8)));
}

#[test]
fn the_series_pictures_find_the_same_mates() {
    let found = compare_series(0x5e71, 40, 1..=4);
    assert!(found > 10, "only {found} lines in the sample");
}

#[test]
fn the_pictures_find_the_same_mates() {
    // h#1 to h#2.5 from Black's side (White mates on even lengths, Black on odd).
    let found = compare(0x9a7e, 15, 1..=5);
    assert!(found > 20, "only {found} lines in the sample");
}

#[test]
#[ignore = "heavy: h#3 from random positions, 40 s (run with --release --ignored)"]
fn the_pictures_find_the_same_mates_in_three() {
    let found = compare(0x3a11, 5, 6..=6);
    assert!(found > 0, "no line in the sample");
}

#[test]
#[ignore = "heavy: h#3 and h#4 on many positions (run with --release --ignored)"]
fn the_pictures_find_the_same_mates_deeper() {
    let found = compare(0x51de, 60, 6..=8);
    eprintln!("{found} lines");
}

/// `ser-h=12` of Popeye's `hpint` examples (Funk, Problemkiste 1996): eight black units
/// besides the king, each given a fate. The open squares of Black's unpinnable pieces,
/// bounded together by the units still to place, keep the full commitment within the
/// cheap work bound (without that bound it took about ten times as long); the same 24
/// completions.
#[test]
fn the_open_squares_of_unpinnable_pieces_bound_the_fates() {
    let g = chimere_fairy::game_from_fen("nbk5/qrPp4/1ppK4/1b6/P7/8/8/7B b - - 0 1", &[]).expect("a position");
    let p = enumerate(&g, Colour::White, (1, 12), true, true, CHEAP_WORK).expect("within the cheap work bound");
    // (An entry per unit of the 13 on the board for each completion.)
    assert_eq!(p.fates.len(), 24 * 13, "completions");
}
