//! `SetPlay` in series-help play: the set play is the other side's last move alone, played
//! from the diagram (a `ser-h=n` "in zero moves"), written `1...X =` as its own block.

use chimere_solver::solve_to_strings;

fn run(input: &str) -> String {
    solve_to_strings(input).0
}

/// White Kd1 Sf1, black Kg1 Rg2 Bh1 Bh2 Pf2 Pg3, ser-h=5. Black's units all block each
/// other except the king's capture Kg1xf1; with White to move in the diagram, Kd1-e2
/// guards f1 and stalemates at once: that is the set play `1...Kd1-e2 =`.
#[test]
fn series_help_set_play_is_the_last_move_alone() {
    let input = "BeginProblem\nStipulation ser-h=5\nOption NoBoard SetPlay\n\
                 Pieces White Kd1 Sf1 Black Kg1 Rg2 Bh1h2 Pf2g3\nEndProblem\n";
    let out = run(input);
    let set: Vec<&str> = out.lines().filter(|l| l.starts_with("  1...")).collect();
    assert!(set.contains(&"  1...Kd1-e2 ="), "{out}");
    assert!(set.iter().all(|l| l.ends_with(" =")), "{out}");
    // The series itself is still solved below the set play.
    assert!(out.contains("  1.Kg1*f1"), "{out}");
    // Without the option, no set play.
    let out = run(&input.replace(" SetPlay", ""));
    assert!(!out.lines().any(|l| l.starts_with("  1...")), "{out}");
}
