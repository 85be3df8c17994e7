//! Case obligatoire conséquente (`WhiteConsequentForcedSquare`, conditions.md): the
//! obligation to play onto a forced square is judged on the pseudo-legal moves, as Popeye
//! 4.104 does: a move onto a forced square that would leave the king in check still binds,
//! and the side then has no move at all.

mod support;

/// The first moves Popeye's `~1` prints (every legal move).
fn moves(body: &str) -> Vec<String> {
    support::top_moves(&format!("BeginProblem\nStipulation ~1\nOption NoBoard\n{body}\nEndProblem\n"))
}

/// White Ke1 Re2, Black Ka8 Re8, forced square g2: Re2-g2 is pinned, yet it binds White,
/// who has no move (without the condition ten moves, Ke1-f2 among them).
#[test]
fn a_pinned_move_onto_a_forced_square_binds() {
    let pieces = "Pieces White Ke1 Re2 Black Ka8 Re8";
    assert_eq!(moves(pieces).len(), 10);
    assert!(moves(&format!("Condition WhiteConsequentForcedSquare g2\n{pieces}")).is_empty());
    // A legal move onto the forced square: it is the only move.
    assert_eq!(moves(&format!("Condition WhiteConsequentForcedSquare f2\n{pieces}")), ["1.Ke1-f2 !"]);
}

/// White in check, forced squares f1 f3: White Kd8 Re8 Rf7 Bb2, Black Kg8 Qe7 Sh5. Rf7-f3
/// and Rf7-f1 leave the king in check but bind White, so Rf7xe7 (the end of an extra
/// h#3 solution, `... 3.Qf8-e7+ Rf7*e7#`, that Popeye does not have) is no move: White
/// is mated.
#[test]
fn in_check_the_forced_square_still_binds() {
    let body = "Condition WhiteConsequentForcedSquare f1f3\nPieces White Kd8 Re8 Rf7 Bb2 Black Kg8 Qe7 Sh5";
    assert!(moves(body).is_empty());
}
