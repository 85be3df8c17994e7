//! Set play when the play itself is impossible: the diagram leaves Black in check with
//! White to move (White could capture the king), but the set play has Black to move and
//! is solved and printed, as Popeye does; then the play is refused with Popeye's message.

use chimere_solver::{Settings, solve_input};

/// MonochromChess, #2 with SetPlay: Qd1 checks Kh5 (d1 and h5 share a colour). Black to
/// move plays 1...Kh5-g6 (same colour), and 2.Qd1-g4 mates (Popeye 4.104 prints the same
/// set play). The key search is refused: White to move could take the king.
#[test]
fn set_play_of_an_impossible_play() {
    let input = "BeginProblem\nStipulation #2\nCondition MonochromChess\nOption NoBoard SetPlay\n\
                 Pieces White Kc2 Pe3 Qd1 Rb7 Black Kh5 Bb6 Pa7\nEndProblem\n";
    let settings = Settings { threads: 1, progress: false, banner: false, ..Settings::default() };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    solve_input(input, &settings, &mut out, &mut err).expect("i/o");
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    let at = lines.iter().position(|l| *l == "      1...Kh5-g6").unwrap_or_else(|| panic!("{out}"));
    assert_eq!(lines[at + 1], "          2.Qd1-g4 #", "{out}");
    assert!(out.contains("the side to play can capture the king"), "{out}");
    assert!(!out.contains(" !"), "no key: {out}");
}
