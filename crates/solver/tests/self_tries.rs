//! Tries in self play of one move (`s#1` with `Option Try`): after the try, the
//! defender's moves that do not mate are its refutations, listed under `but` (they used
//! to be lost, so no `s#1` try was printed).

use chimere_solver::solve_to_strings;

fn run(input: &str) -> String {
    solve_to_strings(input).0
}

/// White Kh5 Qa1 Ba8, Black Kh7 Rb3 under Volage, s#1: 1.Qa1-h8+ is answered by
/// Kh7xh8, which does not mate; the test checks every try shows its refutations and that
/// a refutation is never a mating move, and the key-less problem prints only tries.
#[test]
fn self_mate_in_one_tries() {
    let input = "BeginProblem\nStipulation s#1\nCondition Volage\nOption NoBoard Try\n\
                 Pieces White Kh5 Qa1 Ba8 Black Kh7 Rb3\nEndProblem\n";
    let out = run(input);
    let lines: Vec<&str> = out.lines().filter(|l| !l.trim().is_empty()).collect();
    let tries: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].trim_end().ends_with(" ?")).collect();
    assert!(!tries.is_empty(), "{out}");
    assert!(out.contains("1.Qa1-h8 + ?"), "{out}");
    for &i in &tries {
        assert_eq!(lines[i + 1].trim(), "but", "{out}");
        let refutation = lines[i + 2].trim();
        assert!(refutation.starts_with("1...") && refutation.ends_with(" !"), "{out}");
        assert!(!refutation.contains('#'), "a mating move cannot refute: {out}");
    }
    assert!(out.contains("1...Kh7*h8 !"), "{out}");
}
