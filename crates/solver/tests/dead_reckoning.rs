//! Dead Reckoning in the solver (`conditions.md`): for goals involving mate the condition
//! is not evaluated; for the other goals a dead position has no move (no line goes on
//! through it) and satisfies no goal. Each fixture with its reason. Also `MoveNumbers`.

use chimere_solver::{compare::same_solutions, solve_to_strings};

fn run(body: &str) -> String {
    let (out, err) = solve_to_strings(&format!("BeginProblem\nOption NoBoard\n{body}\nEndProblem\n"));
    assert!(err.is_empty(), "{err}");
    out
}

fn lines(out: &str) -> Vec<String> {
    out.lines().map(str::trim).filter(|l| l.starts_with(|c: char| c.is_ascii_digit())).map(str::to_string).collect()
}

/// conditions.md (Buchanan, Problemas 2017), h=1.5: after 1...a5-a6 2.a2xb1=Q (=B, =S) the
/// check forces Kc2xb1 into stalemate, so those positions are dead and White has no move
/// there; after 2.a2xb1=R play goes on and 2...Kc2xb1 stalemates. One solution instead of
/// four.
#[test]
fn buchanan() {
    let body = "Stipulation h=1.5\nPieces White Kc2 Qb1 Bd1 Sa1 Pa4a5b3d3e2 Black Ka3 Pa2a7b4d2d4d5e3";
    let with = lines(&run(&format!("{body}\nCondition DeadReckoning")));
    assert_eq!(with, ["1...a5-a6   2.a2*b1=R Kc2*b1 ="]);
    assert_eq!(lines(&run(body)).len(), 4);
}

/// Mate goal: the condition is not evaluated (a dead position holds no mate), so the
/// solutions are those without it; a dead position in check (1.Bc1-b2+ leaves K+B v K,
/// Black has Kh8-g8) is no mate.
#[test]
fn mate_goal_ignores_dead_positions() {
    let out = run("Stipulation #1\nCondition DeadReckoning\nPieces White Kf6 Bc1 Black Kh8");
    assert!(lines(&out).is_empty(), "{out}");
    let body = "Stipulation #2\nOption Variation Try\nPieces White Kg6 Qa2 Rb1 Sd4 Black Kh8 Pg7 Bc8";
    same_solutions(&run(body), &run(&format!("{body}\nCondition DeadReckoning"))).unwrap();
}

/// Stalemate goal: 1.Bd3xg6 and 1.Kf6xg6 leave K+B v K, dead by material, but Black
/// still has Kh8-g8: a dead position is no stalemate, so neither is a solution (an emptied
/// move list once passed for a stalemate here).
#[test]
fn dead_position_is_no_stalemate() {
    let out = run("Stipulation =1\nCondition DeadReckoning\nPieces White Kf6 Bd3 Black Kh8 Pg6");
    assert!(!out.contains("Bd3*g6") && !out.contains("Kf6*g6"), "{out}");
}

/// `Option MoveNumbers`: one progress line per first move, `  n  (move    Time = t s)`,
/// before its solutions; the solutions are unchanged.
#[test]
fn move_numbers() {
    let body = "Stipulation #2\nOption Variation\nPieces White Kg6 Qa2 Rb1 Sd4 Black Kh8 Pg7 Bc8";
    let plain = run(body);
    let numbered = run(&format!("{body}\nOption MoveNumbers"));
    same_solutions(&plain, &numbered).unwrap();
    let progress: Vec<&str> = numbered.lines().filter(|l| l.contains("Time = ") && l.contains('(')).collect();
    assert!(progress[0].starts_with("  1  (") && progress[0].ends_with(" s)"), "{}", progress[0]);
    assert!(progress.iter().any(|l| l.contains("(Rb1-h1 +    Time")), "{progress:?}");
    // As many lines as White has first moves (Popeye: 38 here with the key).
    assert!(progress.len() > 20);
    // The key's line comes before the key.
    let at = |s: &str| numbered.find(s).unwrap();
    assert!(at("(Rb1-h1 +") < at("1.Rb1-h1 + !"));
}
