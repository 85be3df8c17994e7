//! Central (Popeye `CentralChess`): a king can always move; any other unit may move (and
//! so capture and give check) only if it is observed by a friendly unit that itself can
//! move: there is a chain of friendly observations leading back to the king. Computed as
//! the closure from the side's kings: a unit joins when a unit already in the set observes
//! it. A side without a king has no mobile non-royal unit.

use crate::moves;
use crate::position::Position;
use crate::rules::{Condition, Slot};
use crate::walk::KING;
use chimere_core::{Bitboard, Colour};

#[derive(Clone, Debug, Default)]
pub struct Central;

impl Condition for Central {
    fn name(&self) -> String {
        "CentralChess".into()
    }
    fn slots(&self) -> Vec<Slot> {
        Vec::new()
    }
    fn has_mobility(&self) -> bool {
        true
    }
    fn mobile_units(&self, pos: &Position, side: Colour) -> Bitboard {
        let all = pos.movable(side);
        let mut m = all & pos.board().kind(KING);
        loop {
            let mut grew = false;
            for s in all & !m {
                if moves::attacked_from(pos, side, s, false, m) {
                    m.set(s);
                    grew = true;
                }
            }
            if !grew {
                return m;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;

    #[test]
    fn chain_back_to_the_king() {
        // White Ka1, Rb1 (observed by the king), Rb8 (observed by Rb1: chain), Bh3
        // (observed by nobody). Black Kh6 off the lines.
        let mut g = game_from_fen("1R6/8/7k/8/8/7B/8/KR6 w - - 0 1", &["central"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let from = |s: &str| v.iter().any(|m| m.from.to_string() == s);
        assert!(from("a1") && from("b1") && from("b8"));
        assert!(!from("h3"));
    }
}
