//! `Option Threat n` (solver.md): a defence succeeds once the attacker has no threat of
//! mate in at most n moves (and the defender is not in check) — at every defender node
//! where the attacker still has at least n moves, the last ones included. So a key that
//! works only through a zugzwang continuation is no key with `Threat 1`.

use chimere_solver::{Settings, solve_input};

fn keys(body: &str) -> Vec<String> {
    let input = format!("BeginProblem\nOption NoBoard\n{body}\nEndProblem\n");
    let settings = Settings { threads: 1, progress: false, banner: false, ..Settings::default() };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    solve_input(&input, &settings, &mut out, &mut err).expect("i/o");
    let out = String::from_utf8(out).unwrap();
    let mut k: Vec<String> =
        out.lines().map(str::trim).filter(|l| l.starts_with("1.") && l.ends_with(" !")).map(str::to_string).collect();
    k.sort();
    k
}

/// White Kc2 Bh4 Rc8, Black Ka3 Ph6, #3: 1.Bh4-e1 (threat 2.Be1-... with a mate-in-one
/// threat at every step) and 1.Rc8-c4, which mates in 3 only because a later Black move is
/// forced by zugzwang: with `Threat 1` a defence after which White threatens no mate in
/// one succeeds, so only 1.Bh4-e1 stays (Popeye 4.104 agrees on both).
#[test]
fn zugzwang_continuations_do_not_count() {
    let body = "Stipulation #3\nPieces White Kc2 Bh4 Rc8 Black Ka3 Ph6";
    assert_eq!(keys(body), ["1.Bh4-e1 !", "1.Rc8-c4 !"]);
    assert_eq!(keys(&format!("{body}\nOption Threat 1")), ["1.Bh4-e1 !"]);
}

/// White Kb1 Qg5 Bc4 Pd4, Black Kb4, #3: 1.Kb1-c2 mates in 3 through zugzwang only: with
/// `Threat 1` there is no key.
#[test]
fn zugzwang_key_is_no_key() {
    let body = "Stipulation #3\nPieces White Kb1 Qg5 Bc4 Pd4 Black Kb4";
    assert_eq!(keys(body), ["1.Kb1-c2 !"]);
    assert!(keys(&format!("{body}\nOption Threat 1")).is_empty());
}

/// White Ka5 Pb5 Ra1, Black Ka8, #3: 1.Ka5-a6 and 1.Ka5-b6+ both mate in 3 only through a
/// second White move that threatens nothing (2.Ra1-c1 or 2.Kb6-c6, zugzwang): with
/// `Threat 1` the guard also holds at Black's last move, so there is no key. (Asking it
/// only while White had more than n moves left kept 1.Ka5-b6+; Popeye 4.104 has none.)
#[test]
fn zugzwang_at_the_last_defence() {
    let body = "Stipulation #3\nPieces White Ka5 Pb5 Ra1 Black Ka8";
    assert_eq!(keys(body), ["1.Ka5-a6 !", "1.Ka5-b6 + !"]);
    assert!(keys(&format!("{body}\nOption Threat 1")).is_empty());
}

/// Tries under `Threat n`: a first move that threatens nothing is no try either, whatever
/// the defences. Bichromatic chess, White Kf3 Sa6 Rf8, Black Kh2, #3: without the option
/// 1.Kf3-g3 is printed as a try (a zugzwang) refuted by 1...Kh2-h1; with `Threat 1` nothing is
/// printed (Popeye 4.104 agrees on both; found by the random corpus).
#[test]
fn a_first_move_without_threat_is_no_try() {
    let body = "Stipulation #3\nCondition BichromChess\nOption Try\nPieces White Kf3 Sa6 Rf8 Black Kh2";
    let tries = |body: &str| -> Vec<String> {
        let input = format!("BeginProblem\nOption NoBoard\n{body}\nEndProblem\n");
        let settings = Settings { threads: 1, progress: false, banner: false, ..Settings::default() };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        solve_input(&input, &settings, &mut out, &mut err).expect("i/o");
        let out = String::from_utf8(out).unwrap();
        out.lines().map(str::trim).filter(|l| l.starts_with("1.")).map(str::to_string).collect()
    };
    assert_eq!(tries(body), ["1.Kf3-g3 ?", "1...Kh2-h1 !"]);
    assert!(tries(&format!("{body}\nOption Threat 1")).is_empty());
}

/// White Kg3 Rb2 Pg2 Pg7, Black Ka7, #3 with `Variation`: 1.g7-g8=R mates in two after
/// its only defence, so its play is written at that length, as Popeye writes it: no mate
/// in one is threatened, a zugzwang (not the two-move "threats" of a null Black move).
#[test]
fn a_short_key_is_written_at_its_own_length() {
    let input =
        "BeginProblem\nOption NoBoard Variation\nStipulation #3\nPieces White Kg3 Rb2 Pg2 Pg7 Black Ka7\nEndProblem\n";
    let settings = Settings { threads: 1, progress: false, banner: false, ..Settings::default() };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    solve_input(input, &settings, &mut out, &mut err).expect("i/o");
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().map(str::trim).collect();
    let at = lines.iter().position(|l| l.starts_with("1.g7-g8=R !")).expect("1.g7-g8=R is a key");
    assert_eq!(&lines[at..at + 3], ["1.g7-g8=R ! zugzwang.", "1...Ka7-a6", "2.Rg8-a8 #"], "{out}");
}
