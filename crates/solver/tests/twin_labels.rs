//! Twin labels as Popeye writes them.

use chimere_solver::{Settings, solve_input};

fn labels(input: &str) -> Vec<String> {
    let settings = Settings { threads: 1, progress: false, banner: false, ..Settings::default() };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    solve_input(input, &settings, &mut out, &mut err).expect("i/o");
    String::from_utf8(out)
        .unwrap()
        .lines()
        .filter(|l| {
            let t = l.trim_start_matches('+');
            t.starts_with(|c: char| c.is_ascii_lowercase())
                && t[1..].trim_start_matches(|c: char| c.is_ascii_digit()).starts_with(')')
        })
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

/// After `z)` the twins are numbered `z1)`, `z2)`... (Popeye's labels), and a twin's
/// `Add` may give several colours.
#[test]
fn twins_after_z_are_numbered() {
    let mut input = String::from("BeginProblem\nPieces White Ka1 Black Kh1\nStipulation h#1\nOption NoBoard\n");
    for f in ["b", "c", "d", "e", "f", "g"] {
        for r in ["3", "4", "5", "6", "7"] {
            input.push_str(&format!("Twin Add White S{f}{r} Black Pa7\n"));
        }
    }
    input.push_str("EndProblem\n");
    let l = labels(&input);
    assert_eq!(l.len(), 31);
    assert_eq!(l[25], "z) +wSf7  +bPa7");
    assert_eq!(l[26], "z1) +wSg3  +bPa7");
    assert_eq!(l[30], "z5) +wSg7  +bPa7");
}
