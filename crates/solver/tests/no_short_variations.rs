//! `Option NoShortVariations` (solver.md §4): a variation shorter than the play it belongs
//! to is not written. A key's play is as long as the key needs, as Popeye solves it: a
//! `#3` key that mates in two keeps its two-move variations (they are not short), while the
//! stipulation's length alone would drop every one of them.

use chimere_solver::compare::{Line, trees};
use chimere_solver::{Settings, solve_input};

fn solve(body: &str) -> Vec<Line> {
    let input = format!("BeginProblem\nOption NoBoard\n{body}\nEndProblem\n");
    let settings = Settings { threads: 1, progress: false, banner: false, ..Settings::default() };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    solve_input(&input, &settings, &mut out, &mut err).expect("i/o");
    let out = String::from_utf8(out).unwrap();
    trees(&out).remove("").unwrap_or_default()
}

/// The defences written under the key `key`, each with its answers.
fn defences(roots: &[Line], key: &str) -> Vec<(String, Vec<String>)> {
    let root = roots.iter().find(|l| l.text == key).unwrap_or_else(|| panic!("no key {key} in {roots:#?}"));
    root.children
        .iter()
        .filter(|d| d.text.starts_with("1..."))
        .map(|d| (d.text.clone(), d.children.iter().map(|a| a.text.clone()).collect()))
        .collect()
}

/// Circe Clone, White Kh8 Qf8 Rf1, Black Kg2 Se3 Se5, #3: 1.Rf1-g1+ mates in two; both
/// king moves are answered by 2.Qf8-h6#, which Popeye 4.104 writes with the option.
#[test]
fn circe_clone_short_key_keeps_its_variations() {
    let roots = solve(
        "Stipulation #3\nCondition CirceClone\nOption Variation NoShortVariations\n\
         Pieces White Kh8 Rf1 Qf8 Black Kg2 Se5 Se3",
    );
    let mut d = defences(&roots, "1.Rf1-g1 + !");
    d.sort();
    assert_eq!(
        d,
        [
            ("1...Kg2-h2".to_string(), vec!["2.Qf8-h6 #".to_string()]),
            ("1...Kg2-h3".to_string(), vec!["2.Qf8-h6 #".to_string()]),
        ]
    );
}

/// Anticirce Maléfique, White Kc7 Sb6 Rb4 Rb1 Pf5, Black Ka5 Ba3 Pc5, #3: the keys
/// 1.Rb4-b5+ and 1.Sb6-c4+ mate in two after 1...Ka5-a6 (Popeye 4.104 writes both).
#[test]
fn anticirce_malefique_short_keys_keep_their_variations() {
    let roots = solve(
        "Stipulation #3\nCondition AntiCirce Mirror\nOption Variation NoShortVariations\n\
         Pieces White Kc7 Sb6 Rb4 Pf5 Rb1 Black Ka5 Ba3 Pc5",
    );
    assert_eq!(defences(&roots, "1.Rb4-b5 + !"), [("1...Ka5-a6".to_string(), vec!["2.Rb5-a5 #".to_string()])]);
    assert_eq!(defences(&roots, "1.Sb6-c4 + !"), [("1...Ka5-a6".to_string(), vec!["2.Rb4-a4 #".to_string()])]);
}

/// Still short: without a condition, White Kb4 Rc4 Rd6 Rf7, Black Kh8, #3 with the option:
/// after the two-move key 1.Rd6-d7 (threats of mate in one) the variation 1...Kh8-g8
/// 2.Rc4-c8# is as long as the key's play and is written; after the three-move key
/// 1.Kb4-a3 no two-move variation is.
#[test]
fn variations_are_short_against_the_key() {
    let roots = solve("Stipulation #3\nOption Variation NoShortVariations\nPieces White Kb4 Rc4 Rf7 Rd6 Black Kh8");
    assert_eq!(defences(&roots, "1.Rd6-d7 ! threat:"), [("1...Kh8-g8".to_string(), vec!["2.Rc4-c8 #".to_string()])]);
    for (_, answers) in defences(&roots, "1.Kb4-a3 ! threat:") {
        assert!(answers.iter().all(|a| !a.ends_with('#')), "{answers:?}");
    }
}
