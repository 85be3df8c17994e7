//! Fixtures for Exclusif (`ExclusiveChess`, `conditions.md`): each problem with the reason
//! for every expected line. The Exclusive problems of Popeye's example collection are
//! compared by `examples/compare_popeye.rs` (all identical, see the README of the solver).

use chimere_solver::{Settings, solve_input};

/// The solution lines (trimmed) of a problem, and the errors.
fn solve(body: &str) -> (Vec<String>, String) {
    let input = format!("BeginProblem\nOption NoBoard\n{body}\nEndProblem\n");
    let settings = Settings { threads: 1, progress: false, banner: false, ..Settings::default() };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    solve_input(&input, &settings, &mut out, &mut err).expect("i/o");
    let out = String::from_utf8(out).unwrap();
    let lines = out
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()) || *l == "but")
        .map(str::to_string)
        .collect();
    (lines, String::from_utf8(err).unwrap())
}

const RECURSION: &str = "Pieces White Ka1 Pa2b2 Se3 Rg3 Bc6 Black Kh2 Rf8 Qh3";

/// 1.Se3-f1+ leaves Black two replies, Rf8xf1 and Qh3xf1, both mating White on the
/// first rank: two mating moves are both illegal, so Black cannot move and Se3-f1 mates.
/// It is White's only mate. Without the condition Black captures: no #1. (Popeye agrees.)
#[test]
fn mate_by_exclusivity() {
    let (lines, _) = solve(&format!("Stipulation #1\nCondition ExclusiveChess\n{RECURSION}"));
    assert_eq!(lines, ["1.Se3-f1 # !"]);
    let (lines, _) = solve(&format!("Stipulation #1\n{RECURSION}"));
    assert!(lines.is_empty());
}

/// Qa7-a8 and Qa7-c7 both mate Kc8: neither is legal, no #1 (Popeye agrees).
#[test]
fn two_mates_no_solution() {
    let (lines, _) = solve("Stipulation #1\nCondition ExclusiveChess\nPieces White Kc6 Qa7 Black Kc8");
    assert!(lines.is_empty());
    let (lines, _) = solve("Stipulation #1\nPieces White Kc6 Qa7 Black Kc8");
    assert_eq!(lines.len(), 2);
}

/// `conditions.md`'s HalfDuplex h#0.5 test: with the roles exchanged Black mates in one;
/// it has two mates, Qa2-a1 and Qa2-c2, so both are illegal — no solution.
#[test]
fn half_duplex_two_black_mates() {
    let body = "Stipulation h#0.5\nOption HalfDuplex\nPieces White Kc1 Black Kc3 Qa2";
    let (lines, _) = solve(&format!("{body}\nCondition ExclusiveChess"));
    assert!(lines.is_empty(), "{lines:?}");
    let (lines, _) = solve(body);
    assert_eq!(lines.len(), 2, "{lines:?}");
}

/// `conditions.md`'s divergence test: White to stalemate Ka8 (h=0.5). Nineteen White moves
/// stalemate, so under our rule (the goal is stalemate) all are illegal: no solution.
/// Popeye counts mates only and lists the nineteen; the spec wins.
#[test]
fn stalemate_goal_divergence() {
    let body = "Stipulation h=0.5\nPieces White Kc7 Rb1 Bg1 Black Ka8";
    let (lines, _) = solve(&format!("{body}\nCondition ExclusiveChess"));
    assert!(lines.is_empty(), "{lines:?}");
    let (lines, _) = solve(body);
    assert_eq!(lines.len(), 19);
}

/// Self-mate: after 1.Se3-f1+ Black's only moves are the two mates, both illegal, so Black
/// cannot mate: no s#1 (every ply is judged, the defender's too). Popeye prints
/// `1.Se3-f1 + !` here, not judging Black's final move by the rule: a documented
/// divergence.
#[test]
fn self_mate_final_move_judged() {
    let (lines, _) = solve(&format!("Stipulation s#1\nCondition ExclusiveChess\n{RECURSION}"));
    assert!(lines.is_empty(), "{lines:?}");
}

/// A unique mate in a help-mate stays: h#1, Black Kb8 plays Kb8-a8, then Rh1-h8 is White's
/// only mate (Ka8: a7 and b7 are the king's, b8 the rook's).
#[test]
fn unique_help_mate() {
    let (lines, _) = solve("Stipulation h#1\nCondition ExclusiveChess\nPieces White Kb6 Rh1 Black Kb8");
    assert!(lines.contains(&"1.Kb8-a8 Rh1-h8 #".to_string()), "{lines:?}");
}

/// No goal to be exclusive about: `~1` is refused, naming the stipulation's line.
#[test]
fn any_move_refused() {
    let (lines, err) = solve("Stipulation ~1\nCondition ExclusiveChess\nPieces White Kc6 Qa7 Black Kc8");
    assert!(lines.is_empty());
    assert!(err.contains("line 3") && err.contains("Exclusif needs") && err.contains("~1"), "{err}");
}
