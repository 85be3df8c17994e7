//! Rois strictement transmutés (no Popeye equivalent): kings cannot move at all unless
//! in check; a checked king moves (and captures, and gives check) only like the checking
//! unit(s). Castling is therefore impossible (a king not in check cannot move, and
//! castling out of check is illegal). Royal units of other kinds (the `Royal` attribute)
//! are treated as kings.
//!
//! Our reading (decisions):
//! - "Checking units" are the enemy units attacking the king by their own walks, kings
//!   excluded: an enemy king never transmits its powers (an unchecked king cannot move, so
//!   it attacks nothing; a checked king's transmuted powers are not passed on again). So
//!   two kings may stand side by side.
//! - A king transmuted into a pawn moves like a pawn of its own colour and never promotes.
//! - Check is "could the opponent capture the royal unit", with the transmuted king moves
//!   counted: the engine plays the opponent's captures (observation by king captures).

use super::reflective_kings::{push_moves_as, reflected, royal_squares};
use crate::moves::{GenParams, Move};
use crate::position::{Position, ROYAL, Unit};
use crate::rules::{Capabilities, Condition, Observation};
use crate::walk::KING;
use chimere_core::Colour;

#[derive(Clone, Debug, Default)]
pub struct StrictTransmutedKings;

impl Condition for StrictTransmutedKings {
    fn name(&self) -> String {
        "Rois strictement transmutés".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { observation: Observation::KingCaptures, extra_moves: true, ..Capabilities::default() }
    }
    fn can_move(&self, u: Unit) -> bool {
        u.kind() != KING && !u.has(ROYAL)
    }
    fn extra_moves(&self, pos: &Position, mover: Colour, gp: &GenParams, out: &mut Vec<Move>) {
        // A royal unit that may not move (paralysis, observation rules) gains nothing.
        for k in royal_squares(pos, mover) & gp.mobile {
            let mask = reflected(pos, mover, k, gp.pawn_first_rank_immobile);
            if mask != 0 {
                push_moves_as(pos, k, mask, mover, gp, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;

    fn moves(fen: &str) -> Vec<String> {
        crate::testing::move_texts(fen, &["rois strictement transmutes"])
    }

    #[test]
    fn unchecked_king_cannot_move() {
        // White Ke1 Rh1 Pa2, black Ke8: the white king is not in check, so it has no move
        // and no castling. The exact set: the pawn a2-a3, a2-a4; the rook h1 along rank 1
        // (g1, f1; e1 holds the king) and up the h-file to h7. Not Rh1-h8: it would check
        // the black king e8 through f8 and g8, which then moves like a rook, and down the
        // open e-file it could capture the white king e1 (self-check).
        let m = moves("4k3/8/8/8/8/8/P7/4K2R w K - 0 1");
        let want = ["Rh1-f1", "Rh1-g1", "Rh1-h2", "Rh1-h3", "Rh1-h4", "Rh1-h5", "Rh1-h6", "Rh1-h7", "a2-a3", "a2-a4"];
        let mut want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
        want.sort();
        assert_eq!(m, want);
    }

    #[test]
    fn checked_king_moves_like_the_checker() {
        // White Ke1 checked by the black knight f3 (no other white unit): the king moves only
        // like a knight, to its knight squares c2, d3, g2 and f3 (capturing the checker).
        // None of c2, d3, g2 is attacked by the knight f3 (it attacks d2, d4, e5, g5, h4, h2,
        // g1, e1), and the black king e8 attacks nothing (an unchecked king cannot move).
        let m = moves("4k3/8/8/8/8/5n2/8/4K3 w - - 0 1");
        let mut want: Vec<String> = ["Ke1-c2", "Ke1-d3", "Ke1*f3", "Ke1-g2"].iter().map(|s| s.to_string()).collect();
        want.sort();
        assert_eq!(m, want);
    }

    #[test]
    fn an_immobile_king_does_not_transmute() {
        // Ultra-Patrouille: a unit moves only while a friendly unit observes it. White Ke1
        // is checked by the black knight f3, which may check: the black pawn g4 observes
        // it. No white unit observes e1, so the king cannot move at all, not even like the
        // knight: White has no move.
        let conds = ["rois strictement transmutes", "ultrapatrol"];
        assert!(moves_with("4k3/8/8/8/6p1/5n2/8/4K3 w - - 0 1", &conds).is_empty());
        // Control: the rook h1 observes e1 (over f1, g1), so the king moves like the
        // knight: c2, d3, g2, none attacked by the knight, and *f3 (the pawn g4, observed
        // by no black unit, cannot recapture). The rook itself, unobserved, cannot move.
        let mut want: Vec<String> = ["Ke1-c2", "Ke1-d3", "Ke1*f3", "Ke1-g2"].iter().map(|s| s.to_string()).collect();
        want.sort();
        assert_eq!(moves_with("4k3/8/8/8/6p1/5n2/8/4K2R w - - 0 1", &conds), want);
    }

    fn moves_with(fen: &str, conds: &[&str]) -> Vec<String> {
        let mut g = game_from_fen(fen, conds).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut out: Vec<String> = v.iter().map(|m| crate::notation::move_with_check(&mut g, m).unwrap()).collect();
        out.sort();
        out
    }

    #[test]
    fn kings_side_by_side() {
        // White Ke4 and black Ke5 side by side, white Pa2: neither king is checked (an
        // unchecked king gives no check), so the white king cannot move: White has a2-a3 and
        // a2-a4 only.
        let m = moves("8/8/8/4k3/4K3/8/P7/8 w - - 0 1");
        assert_eq!(m, vec!["a2-a3".to_string(), "a2-a4".to_string()]);
    }
}
