//! Neutral kings: a neutral king is the king of both sides (a side is in check when the
//! opponent, with its units and the neutral ones, could take it). The expected moves are
//! Popeye 4.104's for the same input.

mod support;

use std::collections::BTreeSet;

fn moves(input: &str) -> BTreeSet<String> {
    let out = support::first_moves_text(input).unwrap_or_else(|e| panic!("{e}\n{input}"));
    out.lines().filter_map(|l| l.trim().strip_prefix("1.")?.strip_suffix(" !").map(str::to_string)).collect()
}

#[test]
fn a_neutral_king_is_each_sides_king() {
    // White may not leave the neutral king to Black's rook and bishop; the neutral pawn
    // shields it; a move that attacks it checks Black.
    let input = "BeginProblem\nPieces White Qd1 Rb1 Black Rh8 Bg8 Sa6 Neutral Kc4 Pd6\nStipulation ~1\nEndProblem\n";
    let expected: BTreeSet<String> =
        ["Qd1-d5 +", "nKc4-d3 +", "nKc4-b5 +", "nKc4-c3", "nKc4-d4 +"].into_iter().map(str::to_string).collect();
    assert_eq!(moves(input), expected);
}

#[test]
fn a_neutral_king_must_be_the_only_king_and_is_read_without_conditions() {
    let two = "BeginProblem\nPieces White Ra6 Black Kh1 Neutral Kh8\nStipulation ~1\nEndProblem\n";
    let e = support::first_moves_text(two).unwrap_err();
    assert!(e.to_string().contains("must be the only king"), "{e}");
    let circe = "BeginProblem\nPieces White Ra6 Neutral Kh8\nStipulation ~1\nCondition Circe\nEndProblem\n";
    let e = support::first_moves_text(circe).unwrap_err();
    assert!(e.to_string().contains("under conditions"), "{e}");
}
