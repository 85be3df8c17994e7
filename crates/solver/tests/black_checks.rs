//! Black Checks (conditions.md): every black move must give check, and Black passes when
//! he has no checking move. Goals are judged as Popeye 4.104 judges them, without the
//! obligation: Black is mated when in check with no legal move at all, and stalemated when
//! not in check with none, whatever checks he could give.

mod support;

/// The key moves of a problem (the lines at the top of its solution tree).
fn keys(stipulation: &str, pieces: &str) -> Vec<String> {
    support::top_moves(&format!(
        "BeginProblem\nCondition BlackChecks\nStipulation {stipulation}\nOption NoBoard\n{pieces}\nEndProblem\n"
    ))
}

/// White Kc7 Qb1 against Black Ka8: a check from h1 or e4 leaves Black the ordinary
/// flight a7, which gives no check. Black then has no move, but he is not mated.
#[test]
fn a_check_with_an_ordinary_flight_is_no_mate() {
    let pieces = "Pieces White Kc7 Qb1 Black Ka8";
    assert_eq!(keys("#1", pieces), ["1.Qb1-a1 # !", "1.Qb1-a2 # !", "1.Qb1-b7 # !", "1.Qb1-b8 # !"]);
}

/// The same position: Qg1 and Qb6 take every square from the black king. Black is
/// stalemated, although under the condition he would pass.
#[test]
fn no_move_at_all_is_stalemate() {
    assert_eq!(keys("=1", "Pieces White Kc7 Qb1 Black Ka8"), ["1.Qb1-b6 = !", "1.Qb1-g1 = !"]);
}

/// White Kc7 Bf8 Sg1, Black Kf6 Be4 Sg5 Re7: Bf8xe7 checks, and Black's only parries
/// (king moves) give no check. It is no mate, so the `r#2` has no premature solution.
#[test]
fn reflex_play_sees_no_premature_mate() {
    let pieces = "Pieces White Kc7 Bf8 Sg1 Black Kf6 Be4 Sg5 Re7";
    assert!(keys("#1", pieces).is_empty());
    assert!(keys("r#2", pieces).is_empty());
}
