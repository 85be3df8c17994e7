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

/// Reflex play under Circe (random problems of `gen_deep.py` seed 5120; the lines are
/// Popeye 4.104's): the defender's moves are each made once for legality and the goal,
/// and the search stops at the first that reaches it. An `r#2` with six keys, and an
/// `r#3` without solution whose three tries each have their refutations.
#[test]
fn reflex_play_under_circe_prints_popeyes_keys_and_tries() {
    let mut keys = firsts("Stipulation r#2\nCondition Circe\nPieces White Ke7 Ba3 Black Kb1 Rf4 Qb5");
    keys.sort();
    assert_eq!(keys, ["1.Ba3-b2 !", "1.Ba3-b4 !", "1.Ba3-c1 !", "1.Ba3-c5 !", "1.Ba3-d6 !", "1.Ke7-d8 !"]);
    let tries = roots(
        "Stipulation r#3\nCondition Circe\nOption Variation Try Defence 2\nPieces White Kg6 Pb7 Rc4 Sh5 Black Ka6",
    );
    let mut got: Vec<(String, Vec<String>)> = tries
        .iter()
        .map(|l| {
            // The refutations stand under Popeye's `but`.
            let mut c: Vec<String> = l
                .children
                .iter()
                .flat_map(|c| if c.text == "but" { c.children.iter().collect() } else { vec![c] })
                .map(|c| c.text.clone())
                .collect();
            c.sort();
            (l.text.clone(), c)
        })
        .collect();
    got.sort();
    let want = [
        ("1.Rc4-b4 ? zugzwang.", vec!["1...Ka6-a5 !", "1...Ka6-a7 !"]),
        ("1.b7-b8=Q ? zugzwang.", vec!["1...Ka6-a5 !"]),
        ("1.b7-b8=R ? zugzwang.", vec!["1...Ka6-a5 !", "1...Ka6-a7 !"]),
    ];
    let want: Vec<(String, Vec<String>)> =
        want.iter().map(|(t, c)| (t.to_string(), c.iter().map(|s| s.to_string()).collect())).collect();
    assert_eq!(got, want, "{tries:#?}");
}
