//! Property tests: every printed mate is a mate for the rules engine (help and series
//! lines replayed move by move); the table of solved sub-positions changes no solution,
//! nor do threads sharing it;
//! a problem and its colour-mirrored twin (`HalfDuplex` on the mirrored diagram) have
//! mirrored solutions.

use chimere_fairy::notation;
use chimere_solver::{Settings, compare::trees, solve_input};
use proptest::prelude::*;

fn solve(input: &str, hash_mb: usize) -> String {
    solve_with(input, hash_mb, 1)
}

fn solve_with(input: &str, hash_mb: usize, threads: usize) -> String {
    let settings = Settings { threads, progress: false, hash_mb, ..Settings::default() };
    let mut out = Vec::new();
    let mut err = Vec::new();
    solve_input(input, &settings, &mut out, &mut err).expect("i/o");
    String::from_utf8(out).expect("utf-8")
}

const FILES: &[u8] = b"abcdefgh";

fn sq(i: u8) -> String {
    format!("{}{}", FILES[(i % 8) as usize] as char, i / 8 + 1)
}

/// A random position: two kings apart and a few units (no pawns on the first/last rank).
fn position() -> impl Strategy<Value = (Vec<(bool, char, u8)>, u8)> {
    (
        proptest::collection::vec((any::<bool>(), prop::sample::select(vec!['Q', 'R', 'B', 'S', 'P']), 0u8..64), 1..4),
        0u8..4,
    )
        .prop_map(|(units, stip)| (units, stip))
}

fn input_of(units: &[(bool, char, u8)], wk: u8, bk: u8, stip: &str, options: &str) -> Option<String> {
    let mut used = vec![wk, bk];
    let mut w = format!("K{}", sq(wk));
    let mut b = format!("K{}", sq(bk));
    for &(white, k, s) in units {
        if used.contains(&s) || (k == 'P' && !(8..56).contains(&s)) {
            continue;
        }
        used.push(s);
        let t = format!(" {k}{}", sq(s));
        if white { w.push_str(&t) } else { b.push_str(&t) }
    }
    Some(format!(
        "BeginProblem\nPieces White {w} Black {b}\nStipulation {stip}\nOption NoBoard {options}\nEndProblem\n"
    ))
}

/// Replays a help line (`  1.X Y   2.Z W #`) from the diagram and checks the final
/// position is mate for the engine.
fn replay_is_mate(input: &str, line: &str) -> bool {
    let p = chimere_popeye::parse(input).unwrap().remove(0);
    let mut q = p.clone();
    q.half_duplex = true; // help play: Black starts
    let mut g = chimere_popeye::build_game(&q).unwrap();
    let mut moves: Vec<&str> = Vec::new();
    for tok in line.split_whitespace() {
        let t = tok.split_once('.').map_or(tok, |(_, r)| r);
        if t.is_empty() || t == "#" || t == "+" || t == "=" {
            continue;
        }
        moves.push(t);
    }
    for t in &moves {
        let Some(m) = notation::find_legal(&mut g, t) else { return false };
        g.make(&m);
    }
    let side = g.pos.side();
    let mut legal = Vec::new();
    g.legal_moves(&mut legal);
    g.in_check(side) && legal.is_empty()
}

/// Replays the series of a series-self line (`  1.X 2.Y Z #`: White's moves, then Black's
/// answer) and checks Black then has a legal move and every one mates.
fn series_self_is_forced(input: &str, line: &str) -> bool {
    let p = chimere_popeye::parse(input).unwrap().remove(0);
    let mut g = chimere_popeye::build_game(&p).unwrap();
    let moves: Vec<&str> = line
        .split_whitespace()
        .map(|tok| tok.split_once('.').map_or(tok, |(_, r)| r))
        .filter(|t| !t.is_empty() && !["#", "+", "="].contains(t))
        .collect();
    let Some((_, series)) = moves.split_last() else { return false };
    for (i, t) in series.iter().enumerate() {
        let Some(m) = notation::find_legal(&mut g, t) else { return false };
        g.make(&m);
        if i + 1 < series.len() {
            // Black passes between the series moves.
            g.make(&chimere_fairy::moves::Move::NULL);
        }
    }
    let mut replies = Vec::new();
    g.legal_moves(&mut replies);
    !replies.is_empty()
        && replies.iter().all(|m| {
            g.make(m);
            let side = g.pos.side();
            let mut next = Vec::new();
            g.legal_moves(&mut next);
            let mate = g.in_check(side) && next.is_empty();
            g.unmake();
            mate
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    #[test]
    fn printed_helpmates_are_mates_and_the_table_changes_nothing((units, k) in position(), wk in 0u8..64, bk in 0u8..64) {
        prop_assume!((wk % 8).abs_diff(bk % 8) > 1 || (wk / 8).abs_diff(bk / 8) > 1);
        let input = input_of(&units, wk, bk, "h#2", "").unwrap();
        let with = solve(&input, 16);
        let without = solve(&input, 0);
        prop_assert_eq!(trees(&with), trees(&without));
        for l in with.lines().filter(|l| l.starts_with("  1.")) {
            prop_assert!(replay_is_mate(&input, l), "{} is no mate\n{}", l, input);
        }
        let direct = input_of(&units, wk, bk, if k % 2 == 0 { "#2" } else { "s#2" }, "Variation Try").unwrap();
        prop_assert_eq!(trees(&solve(&direct, 16)), trees(&solve(&direct, 0)));
    }

    /// Deeper direct and self play with tries and a second refutation allowed: the
    /// defences ordered by the attacker's replies, the table asked on the way, the last
    /// moves searched without it — the trees are those of the search without a table.
    #[test]
    fn deeper_battle_play_with_tries_the_table_changes_nothing((units, k) in position(), wk in 0u8..64, bk in 0u8..64) {
        prop_assume!((wk % 8).abs_diff(bk % 8) > 1 || (wk / 8).abs_diff(bk / 8) > 1);
        let stip = ["#3", "s#3"][k as usize % 2];
        let condition = if k % 4 < 2 { "" } else { "Condition Circe\n" };
        let Some(input) = input_of(&units, wk, bk, stip, "Variation Try Defence 2") else { return Ok(()) };
        let input = input.replacen("Option", &format!("{condition}Option"), 1);
        prop_assert_eq!(trees(&solve(&input, 16)), trees(&solve(&input, 0)), "{}", input);
    }

    /// Series-self play: the table (which also keeps the end test after the last series
    /// move) changes no solution, and every printed line ends with a Black move after
    /// which the rule holds: after White's series Black has a move and every one mates.
    #[test]
    fn series_self_lines_force_the_mate_and_the_table_changes_nothing((units, k) in position(), wk in 0u8..64, bk in 0u8..64) {
        prop_assume!((wk % 8).abs_diff(bk % 8) > 1 || (wk / 8).abs_diff(bk / 8) > 1);
        let input = input_of(&units, wk, bk, ["ser-s#1", "ser-s#2"][k as usize % 2], "").unwrap();
        let with = solve(&input, 16);
        prop_assert_eq!(trees(&with), trees(&solve(&input, 0)), "{}", input);
        for l in with.lines().filter(|l| l.starts_with("  1.")) {
            prop_assert!(series_self_is_forced(&input, l), "{} is not forced\n{}", l, input);
        }
    }

    /// Threads sharing the table (and helping on one another's first moves once theirs
    /// are done) find the same solutions as one thread without a table.
    #[test]
    fn threads_sharing_the_table_change_nothing((units, k) in position(), wk in 0u8..64, bk in 0u8..64) {
        prop_assume!((wk % 8).abs_diff(bk % 8) > 1 || (wk / 8).abs_diff(bk / 8) > 1);
        let stip = ["h#2", "h#2.5", "ser-h#3", "ser-#3"][k as usize % 4];
        let input = input_of(&units, wk, bk, stip, "").unwrap();
        prop_assert_eq!(trees(&solve_with(&input, 16, 3)), trees(&solve_with(&input, 0, 1)), "{}", input);
    }
}

/// Mirrors a square vertically (a1 <-> a8).
fn flip(s: &str) -> String {
    let b = s.as_bytes();
    format!("{}{}", b[0] as char, (b'9' - (b[1] - b'0')) as char)
}

#[test]
fn colour_mirrored_problem_has_mirrored_solutions() {
    // #2: White Kg6 Qa2 Rb1 Sd4, Black Kh8 Pg7 Bc8; the mirror: colours exchanged, ranks
    // flipped, Black to move (HalfDuplex).
    let input = "BeginProblem\nPieces White Kg6 Qa2 Rb1 Sd4 Black Kh8 Pg7 Bc8\nStipulation #2\nOption NoBoard Variation Try\nEndProblem\n";
    let mirrored = "BeginProblem\nPieces Black Kg3 Qa7 Rb8 Sd5 White Kh1 Pg2 Bc1\nStipulation #2\nOption NoBoard Variation Try HalfDuplex\nEndProblem\n";
    let a = solve(input, 16);
    let b = solve(mirrored, 16);
    // Flip every square in a's solution lines.
    let flipped: String = a
        .lines()
        .map(|l| {
            let mut out = String::new();
            let c: Vec<char> = l.chars().collect();
            let mut i = 0;
            while i < c.len() {
                if i + 1 < c.len() && ('a'..='h').contains(&c[i]) && ('1'..='8').contains(&c[i + 1]) {
                    out.push_str(&flip(&format!("{}{}", c[i], c[i + 1])));
                    i += 2;
                } else {
                    out.push(c[i]);
                    i += 1;
                }
            }
            out + "\n"
        })
        .collect();
    assert!(!trees(&a)[""].is_empty());
    assert_eq!(trees(&flipped), trees(&b), "\n{a}\n{b}");
}
