//! Details of Popeye's layout around the solutions (the checker of `solver.md` ignores them,
//! a reader does not): holes in the diagram, where input messages go, the blank line that
//! closes a list of help lines.

use chimere_solver::solve_to_strings;

fn solve(input: &str) -> String {
    let (out, err) = solve_to_strings(input);
    assert!(err.is_empty(), "{err}");
    out
}

/// `Condition Hole d4e5` before the pieces: the queen given on d4 fills that hole (Popeye's
/// message first), e5 is drawn blank, and no condition line names the holes.
#[test]
fn holes_are_drawn_blank_and_a_unit_fills_its_hole() {
    let out = solve("BeginProblem\nStipulation h#1\nCondition Hole d4e5\nPieces White Kb4 Qd4 Black Kd7\nEndProblem\n");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "d4 already occupied - old piece goes to the underworld.");
    assert_eq!(lines[1], "");
    assert!(lines.contains(&"5   .   .   .   .       .   .   .   5"), "{out}");
    assert!(lines.contains(&"4   .   K   .   Q   .   .   .   .   4"), "{out}");
    assert!(lines.contains(&"  h#1                         2 + 1"), "{out}");
    assert!(!out.contains("Hole"), "{out}");
}

/// The pieces before the condition: the hole displaces the queen (Popeye's reading order),
/// so d4 and e5 are both holes and White has only its king.
#[test]
fn a_hole_given_after_a_unit_displaces_it() {
    let out = solve("BeginProblem\nStipulation h#1\nPieces White Kb4 Qd4 Black Kd7\nCondition Hole d4e5\nEndProblem\n");
    assert!(out.lines().any(|l| l == "4   .   K   .       .   .   .   .   4"), "{out}");
    assert!(out.lines().any(|l| l == "  h#1                         1 + 1"), "{out}");
    assert!(!out.contains("underworld"), "{out}");
}

/// A help problem without a solution still closes its (empty) list with a blank line, as a
/// direct problem closes its tree: two blank lines before `solution finished`.
#[test]
fn an_empty_list_of_help_lines_is_closed_by_a_blank_line() {
    for stip in ["h#1", "ser-h#1", "#1"] {
        let out = solve(&format!(
            "BeginProblem\nStipulation {stip}\nPieces White Kb4 Black Kd7\nOption NoBoard\nEndProblem\n"
        ));
        assert!(out.starts_with("\n\nsolution finished."), "{stip}: {out:?}");
    }
}

/// A message about the input (`WhiteToPlay` outside help play) comes before the blank line
/// that opens the problem.
#[test]
fn input_messages_come_first() {
    let out =
        solve("BeginProblem\nStipulation #1\nPieces White Kb6 Rh1 Black Kb8\nOption NoBoard WhiteToPlay\nEndProblem\n");
    assert!(out.starts_with("WhiteToPlay not applicable - ignored\n\n   1.Rh1-h8 # !\n"), "{out:?}");
}

/// Under the diagram, one condition a line, centred, in Popeye's order (its condition
/// table's, not the input's), and the stipulation written as Popeye writes it: Popeye
/// 4.104 prints `Circe`, `MonochromChess`, `BlackChecks` for this input.
#[test]
fn conditions_one_a_line_in_popeyes_order() {
    let out = solve(
        "BeginProblem\nStipulation S#1\nCondition BlackChecks MonochromChess Circe\nPieces White Kc7 Qb1 Black Ka8\nEndProblem\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    let at = lines.iter().position(|l| l.starts_with("  s#1 ")).unwrap_or_else(|| panic!("{out}"));
    assert_eq!(
        &lines[at + 1..at + 4],
        ["                Circe", "           MonochromChess", "             BlackChecks"],
        "{out}"
    );
}

/// A twin's conditions are written as under the diagram: one a line in Popeye's order, the
/// lines after the first indented under the label; holes are not named. Popeye 4.104
/// prints exactly these labels for this input.
#[test]
fn twin_conditions_one_a_line_in_popeyes_order() {
    let out = solve(
        "BeginProblem\nPieces White Kh8 Rf7 Black Ke6\nStipulation #2\nOption NoBoard\n\
         Twin Condition MonochromChess BlackChecks Circe\nTwin Move h8 h7 Condition MonochromChess Circe\n\
         Twin Condition Hole a1b2 Circe\nEndProblem\n",
    );
    for label in [
        "b) Circe\n   MonochromChess\n   BlackChecks  \n",
        "c) wKh8-->h7  Circe\n   MonochromChess  \n",
        "d) Circe  \n",
    ] {
        assert!(out.contains(label), "{label:?} in\n{out}");
    }
}
