//! Reflex play (`r#n` without `exact-`) against a plain search written here: random
//! positions, orthodox and under Circe; the solver's keys (its table, its bounds of the
//! defender's positions, its order of the defences) must be exactly the moves the plain
//! search finds.

mod support;

use chimere_fairy::{Game, Move, notation};
use chimere_solver::compare::trees;
use chimere_solver::{Settings, solve_input};
use support::{Rng, sq};

/// Whether the side to move is mated.
fn mated(g: &mut Game) -> bool {
    let side = g.pos.side();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves.is_empty() && g.in_check(side)
}

/// Whether some legal move of the side to move mates.
fn can_mate(g: &mut Game) -> bool {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves.iter().any(|m| {
        g.make(m);
        let r = mated(g);
        g.unmake();
        r
    })
}

/// White to move: can White force Black to mate within `n` Black moves, each side bound
/// to mate when it can (White's mate fails)?
fn attack(g: &mut Game, n: u32) -> bool {
    if can_mate(g) {
        return false;
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves.iter().any(|m| {
        g.make(m);
        let r = defend(g, n);
        g.unmake();
        r
    })
}

/// Black to move with `n` moves left: is the mate forced?
fn defend(g: &mut Game, n: u32) -> bool {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    if moves.is_empty() {
        return false;
    }
    if can_mate(g) {
        return true;
    }
    n > 1
        && moves.iter().all(|m| {
            g.make(m);
            let r = attack(g, n - 1);
            g.unmake();
            r
        })
}

fn solve(input: &str) -> String {
    let settings = Settings { threads: 1, progress: false, hash_mb: 16, banner: false, ..Settings::default() };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    solve_input(input, &settings, &mut out, &mut err).expect("i/o");
    String::from_utf8(out).expect("utf-8")
}

/// A random problem: kings apart, the White king on an edge, a Black queen and two to
/// four further units, most of them Black (so that Black often can mate).
fn random_input(rng: &mut Rng, stip: &str, condition: &str) -> Option<String> {
    let edge = [rng.below(8), 56 + rng.below(8), 8 * rng.below(8), 8 * rng.below(8) + 7];
    let (wk, bk) = (edge[rng.below(4) as usize], rng.below(64));
    if (wk % 8).abs_diff(bk % 8) <= 1 && (wk / 8).abs_diff(bk / 8) <= 1 {
        return None;
    }
    let mut used = vec![wk, bk];
    let (mut w, mut b) = (format!("K{}", sq(wk)), format!("K{}", sq(bk)));
    for i in 0..3 + rng.below(3) {
        let kind = if i == 0 { 'Q' } else { b"QRBSP"[rng.below(5) as usize] as char };
        let s = rng.below(64);
        if used.contains(&s) || (kind == 'P' && !(8..56).contains(&s)) {
            continue;
        }
        used.push(s);
        let side = if i == 0 || rng.below(3) > 0 { &mut b } else { &mut w };
        side.push_str(&format!(" {kind}{}", sq(s)));
    }
    Some(format!(
        "BeginProblem\nStipulation {stip}\n{condition}Option NoBoard\nPieces White {w} Black {b}\nEndProblem\n"
    ))
}

fn key_of(m: &Move) -> (u8, u8, Option<u8>) {
    (m.from.index() as u8, m.to.index() as u8, m.promo.map(|k| k.index() as u8))
}

#[test]
fn reflex_keys_are_the_plain_searchs() {
    let mut rng = Rng(5204);
    let (mut checked, mut with_keys) = (0, 0);
    // Mostly `r#1` and `r#2` (keys are rarer at three moves, and the plain search slower).
    let cases = [
        ("r#1", ""),
        ("r#1", "Condition Circe\n"),
        ("r#2", ""),
        ("r#2", "Condition Circe\n"),
        ("r#2", ""),
        ("r#1", ""),
        ("r#2", "Condition Circe\n"),
        ("r#3", ""),
    ];
    while checked < 80 {
        let (stip, condition) = cases[checked % cases.len()];
        let n = u32::from(stip.as_bytes()[2] - b'0');
        let Some(input) = random_input(&mut rng, stip, condition) else { continue };
        let problem = chimere_popeye::parse(&input).unwrap().remove(0);
        let Ok(mut g) = chimere_popeye::build_game(&problem) else { continue };
        let mut legal = Vec::new();
        g.legal_moves(&mut legal);
        // Black in check (no legal diagram), White in check, without moves or bound to mate
        // at once: no r#n to compare.
        let side = g.pos.side();
        if g.in_check(side.opponent()) || g.in_check(side) || legal.is_empty() || can_mate(&mut g) {
            continue;
        }
        let mut want: Vec<_> = legal
            .iter()
            .filter(|m| {
                g.make(m);
                let r = defend(&mut g, n);
                g.unmake();
                r
            })
            .map(key_of)
            .collect();
        want.sort();
        let out = solve(&input);
        let mut got: Vec<_> = trees(&out)
            .remove("")
            .unwrap_or_default()
            .iter()
            .map(|l| {
                let text = l.text.split_once('.').map_or(l.text.as_str(), |(_, t)| t).trim_end_matches(" !");
                key_of(&notation::find_legal(&mut g, text).unwrap_or_else(|| panic!("{text} in {input}")))
            })
            .collect();
        got.sort();
        assert_eq!(got, want, "{input}\n{out}");
        checked += 1;
        with_keys += usize::from(!want.is_empty());
    }
    // The sample is not all "no solution".
    assert!(with_keys >= 8, "{with_keys} problems with keys");
}
