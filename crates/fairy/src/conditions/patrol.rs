//! Ultra-Patrouille (Popeye `UltraPatrol`): a unit (kings included) may move, capture or
//! give check only while it is observed by a friendly unit (a friendly unit could capture
//! on its square, by its walk, were it an enemy). Observation itself needs no support
//! (the observer need not be observed).

use crate::moves;
use crate::position::Position;
use crate::rules::{Condition, Slot};
use chimere_core::{Bitboard, Colour};

#[derive(Clone, Debug, Default)]
pub struct UltraPatrol;

impl Condition for UltraPatrol {
    fn name(&self) -> String {
        "UltraPatrol".into()
    }
    fn slots(&self) -> Vec<Slot> {
        Vec::new()
    }
    fn has_mobility(&self) -> bool {
        true
    }
    fn mobile_units(&self, pos: &Position, side: Colour) -> Bitboard {
        let mut m = Bitboard::EMPTY;
        for s in pos.movable(side) {
            if moves::attacked_by(pos, side, s, false) {
                m.set(s);
            }
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;

    #[test]
    fn unobserved_units_do_not_move_or_check() {
        // White: Ka1, Rb1 (observed by the king), Rh2 (unobserved). Black Kh8.
        // Rb1 moves; Rh2 does not, and gives no check to the h8 king, so Black may stay.
        let mut g = game_from_fen("7k/8/8/8/8/8/7R/KR6 w - - 0 1", &["ultra-patrouille"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        assert!(v.iter().any(|m| m.from.to_string() == "b1"));
        assert!(!v.iter().any(|m| m.from.to_string() == "h2"));
        // The white king is observed by the rook b1: it moves.
        assert!(v.iter().any(|m| m.from.to_string() == "a1"));
        let mut g = game_from_fen("7k/8/8/8/8/8/7R/KR6 b - - 0 1", &["ultra-patrouille"]).unwrap();
        assert!(!g.in_check(chimere_core::Colour::Black));
    }
}
