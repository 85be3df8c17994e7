//! Twin labels as Popeye writes them.

use chimere_solver::{Settings, solve_input};

fn labels(input: &str) -> Vec<String> {
    let settings = Settings { threads: 1, progress: false, banner: false, ..Settings::default() };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    solve_input(input, &settings, &mut out, &mut err).expect("i/o");
    String::from_utf8(out)
        .unwrap()
        .lines()
        .filter(|l| l.len() > 2 && l.as_bytes()[1] == b')')
        .map(|l| l.trim_end().to_string())
        .collect()
}

/// Under `WhiteToPlay` a help stipulation set by a twin is labelled with the half move
/// less that White's start makes of it (`h#3` solved as `h#2.5`); other twins keep theirs.
#[test]
fn white_to_play_labels_the_twin_stipulation_it_solves() {
    let input = "BeginProblem\nPieces White Ka1 Qd1 Black Kh8 Ph7 Pg7\nStipulation h#2\nOption NoBoard WhiteToPlay\n\
                 Twin Stipulation h#3\nTwin Stipulation exact-h=2\nEndProblem\n";
    assert_eq!(labels(input), vec!["a)", "b) h#2.5", "c) exact-h=1.5"]);
    let input = "BeginProblem\nPieces White Ka1 Qd1 Black Kh8 Ph7 Pg7\nStipulation #2\nOption NoBoard\n\
                 Twin Stipulation h#3\nEndProblem\n";
    assert_eq!(labels(input), vec!["a)", "b) h#3"]);
}
