//! All-in-Chess (Popeye `AllInChess`): on its turn a side may move one of its own units or
//! one of the opponent's. Moved units keep their colour: pawns move in their own
//! direction, capture units of the other colour than their own, promote into their own
//! colour; a side may castle the opponent's king with the opponent's rook. The mover must
//! not leave its OWN king in check (exposing the opponent's king is allowed). A move that
//! exactly reverses the previous move (same unit, back from its arrival to its departure
//! square, neither move a capture) is forbidden — Popeye's reading of "the position before
//! the last move may not be repeated". The last move is part of the position state
//! (journalled and hashed); a diagram has no last move.

use crate::moves::Move;
use crate::position::Position;
use crate::rules::{Condition, Slot};
use chimere_core::Colour;

#[derive(Clone, Debug, Default)]
pub struct AllIn;

impl Condition for AllIn {
    fn name(&self) -> String {
        "All-in-Chess".into()
    }
    fn slots(&self) -> Vec<Slot> {
        vec![Slot::Admit]
    }
    fn any_unit(&self) -> bool {
        true
    }
    fn tracks_last_move(&self) -> bool {
        true
    }
    fn admit_quiet_only(&self) -> bool {
        true
    }
    fn admit(&self, pos: &Position, _mover: Colour, mv: &Move) -> bool {
        if mv.capture.is_some() || mv.castle.is_some() {
            return true;
        }
        match pos.last_move() {
            Some(l) => l.capture || l.from != mv.to || l.to != mv.from,
            None => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;
    use crate::rules::Game;

    fn texts(g: &mut Game) -> Vec<String> {
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut out: Vec<String> = v.iter().map(|m| crate::notation::move_with_check(g, m).unwrap()).collect();
        out.sort();
        out
    }

    #[test]
    fn no_exact_reversal() {
        // White Ke1 Rh1, black Ke8 Pd3 (Popeye record all-in-chess 8): after Black's
        // Ke8-d7, White may move the d7 king anywhere but back to e8.
        let mut g = game_from_fen("4k3/8/8/8/8/3p4/8/4K2R b K - 0 1", &["all-in-chess"]).unwrap();
        let h0 = g.pos.hash();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let m = *v.iter().find(|m| m.from.to_string() == "e8" && m.to.to_string() == "d7").unwrap();
        g.make(&m).unwrap();
        let t = texts(&mut g);
        assert!(!t.contains(&"Kd7-e8".to_string()), "{t:?}");
        assert!(t.contains(&"Kd7-c6".to_string()), "{t:?}");
        assert!(t.contains(&"0-0".to_string()), "{t:?}");
        assert!(g.pos.is_consistent());
        g.unmake();
        assert_eq!(g.pos.hash(), h0);
    }

    #[test]
    fn moving_the_opponents_units() {
        // White Kh1 Pb7, black Ka6 Pf2 Rc8 (Popeye record all-in-chess 5): White may move
        // the black pawn f2 to f1 and promote it (black) to B or S (Q and R would check
        // White's own king h1), and the black king and rook.
        let mut g = game_from_fen("2r5/1P6/k7/8/8/8/5p2/7K w - - 0 1", &["all-in-chess"]).unwrap();
        let t = texts(&mut g);
        for x in ["f2-f1=B", "f2-f1=S", "Ka6*b7", "Rc8-c2", "b7*c8=Q +"] {
            assert!(t.contains(&x.to_string()), "{x} {t:?}");
        }
        assert!(!t.contains(&"f2-f1=Q".to_string()));
    }
}
