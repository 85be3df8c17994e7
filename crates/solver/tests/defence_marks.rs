//! Marks on the defender's moves in direct play (solver.md §4.1: "a defence giving check
//! shows ` +`"): the goal is the attacker's, so a defence or refutation that mates the
//! attacker carries ` +`, never ` #` (Popeye 4.104 writes it so).

use chimere_solver::{Settings, solve_input};

fn solve(body: &str) -> String {
    let input = format!("BeginProblem\nOption NoBoard\n{body}\nEndProblem\n");
    let settings = Settings { threads: 1, progress: false, banner: false, ..Settings::default() };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    solve_input(&input, &settings, &mut out, &mut err).expect("i/o");
    String::from_utf8(out).unwrap()
}

/// Popeye's `exklohne` #2 under Checkless (White Kh1 Qe2 Rg2 Sa4 Pc4f5g3g6, Black Kd4 Qa8
/// Rb7 Pa5d6): the tries 1.Rg2-g1 and 1.Rg2-h2 are refuted by rook checks, which mate
/// (a legal check mates under Checkless) and are written with ` +`.
#[test]
fn a_mating_refutation_is_written_as_a_check() {
    let out = solve(
        "Stipulation #2\nCondition ChecklessChess\nOption Variation Try\n\
         Pieces White Kh1 Qe2 Rg2 Sa4 Pc4f5g3g6 Black Kd4 Qa8 Rb7 Pa5d6",
    );
    let lines: Vec<&str> = out.lines().map(str::trim).collect();
    assert!(lines.contains(&"1...Rb7-h7 + !"), "{out}");
    assert!(lines.contains(&"1...Rb7-b1 + !"), "{out}");
    assert!(!out.contains("# !"), "{out}");
}

/// `Defence n` alone asks for the tries (Popeye's manual: with Defence "all real tries
/// are calculated"): the same problem as above with `Defence 1` and no `Try` prints the
/// same tries; with `Defence 2` at least those, and `Try` written after `Defence 2` sets
/// the number back to one (Popeye reads the options in order).
#[test]
fn defence_alone_asks_for_tries() {
    let solve = |body: &str| {
        let out = solve(body);
        out.lines().filter(|l| !l.contains("Time =")).collect::<Vec<_>>().join("\n")
    };
    let body = |opts: &str| {
        format!(
            "Stipulation #2\nCondition ChecklessChess\nOption Variation {opts}\n\
             Pieces White Kh1 Qe2 Rg2 Sa4 Pc4f5g3g6 Black Kd4 Qa8 Rb7 Pa5d6"
        )
    };
    let with_try = solve(&body("Try"));
    let defence1 = solve(&body("Defence 1"));
    assert!(defence1.contains("1...Rb7-h7 + !"), "{defence1}");
    assert_eq!(with_try, defence1);
    let defence2 = solve(&body("Defence 2"));
    for line in with_try.lines().filter(|l| l.contains('!')) {
        assert!(defence2.contains(line), "{line} missing:\n{defence2}");
    }
    assert_eq!(solve(&body("Defence 2 Try")), with_try);
    let plain = solve(&body(""));
    assert!(!plain.contains(" ? "), "{plain}");
}
