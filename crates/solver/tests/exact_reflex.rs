//! `exact-` reflex play (solver.md): the defender bound to reach the goal before its last
//! move ends the play too early, so that first move is no key (and no try), as in Popeye
//! 4.104; without `exact-` it is a key.

use chimere_solver::compare::{Line, trees};
use chimere_solver::{Settings, solve_input};

fn roots(body: &str) -> Vec<Line> {
    let input = format!("BeginProblem\nOption NoBoard\n{body}\nEndProblem\n");
    let settings = Settings { threads: 1, progress: false, banner: false, ..Settings::default() };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    solve_input(&input, &settings, &mut out, &mut err).expect("i/o");
    trees(&String::from_utf8(out).unwrap()).remove("").unwrap_or_default()
}

fn firsts(body: &str) -> Vec<String> {
    roots(body).into_iter().map(|l| l.text).collect()
}

/// White Ka6 Bh7, Black Kc5 Rf2 Rb4 Bd7 Bd2 Se7: after 1.Ka6-a5 Black must mate at once
/// (1...Rb4-a4# or 1...Rb4-b6#): the key of the r#2, too short for the exact-r#2.
#[test]
fn a_goal_forced_too_early_is_no_key() {
    let pieces = "Pieces White Ka6 Bh7 Black Kc5 Rf2 Bd7 Se7 Rb4 Bd2";
    let plain = roots(&format!("Stipulation r#2\nOption Variation\n{pieces}"));
    assert_eq!(plain.len(), 1, "{plain:#?}");
    assert_eq!(plain[0].text, "1.Ka6-a5 !");
    let mut mates: Vec<&str> = plain[0].children.iter().map(|l| l.text.as_str()).collect();
    mates.sort();
    assert_eq!(mates, ["1...Rb4-a4 #", "1...Rb4-b6 #"]);
    assert!(firsts(&format!("Stipulation exact-r#2\nOption Variation\n{pieces}")).is_empty());
}

/// White Kb6 Bg1 Pg3 Pg7, Black Kh6 Qb8 Sb2 Pa6, exact-r#2 with `Try`: 1.Kb6-a5 forces
/// 1...Qb8-b5# at once; it is neither a key nor a try.
#[test]
fn a_goal_forced_too_early_is_no_try() {
    let pieces = "Pieces White Kb6 Pg7 Bg1 Pg3 Black Kh6 Sb2 Qb8 Pa6";
    assert_eq!(firsts(&format!("Stipulation r#2\n{pieces}")), ["1.Kb6-a5 !"]);
    assert!(firsts(&format!("Stipulation exact-r#2\nOption Variation Try\n{pieces}")).is_empty());
}
