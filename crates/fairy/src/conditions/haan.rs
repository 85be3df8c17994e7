//! Haan (Popeye `HaanerChess`): every square vacated by a move becomes a hole for the rest
//! of the play (see [`super::Hole`] for what a hole is). Our reading of "vacated": a square
//! that held a unit before the move and is empty after it: the departure square, for
//! castling also the rook's, for en passant also the captured pawn's square, and with
//! other conditions any square a unit left (e.g. the capture square when an Anticirce
//! capturer is reborn elsewhere). A square a hidden unit comes back to at the end of the
//! move (Ghost chess, Parachute...) is not vacated.
//!
//! The holes are part of the journalled position (effect `Fx::Hole`, in the hash) and are
//! undone with the move.

use crate::position::Fx;
use crate::rules::{Condition, Play, Reject, Slot};
use chimere_core::Bitboard;

#[derive(Clone, Debug, Default)]
pub struct Haan;

impl Condition for Haan {
    fn name(&self) -> String {
        "HaanerChess".into()
    }
    fn slots(&self) -> Vec<Slot> {
        vec![Slot::AfterMove]
    }
    fn after_move(&self, play: &mut Play) -> Result<(), Reject> {
        let mut left = Bitboard::EMPTY;
        for fx in play.pos.frame() {
            if let Fx::Remove(s, _) = fx {
                left.set(*s);
            }
        }
        for s in left & !play.pos.occupied() {
            // A hidden unit comes back there once the move is over: not vacated.
            if play.pos.under(s).next().is_none() {
                play.pos.make_hole(s);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::{Game, game_from_fen};

    /// Walks the tree: every position consistent (hash recomputed = incremental), and
    /// unmake restores the hash and the holes.
    fn walk(g: &mut Game, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let (h, holes) = (g.pos.hash(), g.pos.holes());
        let mut n = 0;
        for m in &v {
            g.make(m).unwrap();
            assert!(g.pos.is_consistent());
            assert!(g.pos.holes().count() > holes.count(), "a move makes at least one hole");
            n += walk(g, depth - 1);
            g.unmake();
            assert_eq!((g.pos.hash(), g.pos.holes()), (h, holes));
        }
        n
    }

    #[test]
    fn a_square_a_ghost_returns_to_is_not_vacated() {
        // 1.Rd1*d5 (ghost of the pawn under d5), then the rook leaves d5: the ghost comes
        // back there, so d5 is no hole; d1 and the rook's departure squares are.
        let mut g = game_from_fen("k7/8/8/3p4/8/8/8/K2R4 w - - 0 1", &["haan", "ghost"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let m = *v.iter().find(|m| m.to.to_string() == "d5").unwrap();
        g.make(&m).unwrap();
        assert!(g.pos.is_hole(chimere_core::Square::parse("d1").unwrap()));
        let mut b = Vec::new();
        g.legal_moves(&mut b);
        g.make(&b[0]).unwrap();
        let mut w = Vec::new();
        g.legal_moves(&mut w);
        let away = *w.iter().find(|m| m.from.to_string() == "d5" && m.to.to_string() == "h5").unwrap();
        g.make(&away).unwrap();
        let d5 = chimere_core::Square::parse("d5").unwrap();
        assert!(!g.pos.is_hole(d5));
        assert!(g.pos.unit(d5).is_some());
        assert!(g.pos.is_consistent());
    }

    #[test]
    fn journal_and_hash_over_a_tree() {
        let mut g = game_from_fen("r3k2r/pp1n1ppp/8/2pPp3/8/2N5/PPP2PPP/R3K2R w KQkq e6 0 1", &["haan"]).unwrap();
        assert!(walk(&mut g, 3) > 1000);
        // The same position differs from one with a hole: different hashes.
        let plain = game_from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", &[]).unwrap();
        let holed = game_from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", &["hole d4"]).unwrap();
        assert_ne!(plain.pos.hash(), holed.pos.hash());
        assert!(holed.pos.is_consistent());
    }

    #[test]
    fn vacated_squares_become_holes_and_unmake_restores() {
        let mut g = game_from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", &["haan"]).unwrap();
        let h0 = g.pos.hash();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let castle = *v.iter().find(|m| m.castle.is_some()).expect("0-0-0");
        g.make(&castle).unwrap();
        assert!(g.pos.is_hole(chimere_core::Square::parse("e1").unwrap()));
        assert!(g.pos.is_hole(chimere_core::Square::parse("a1").unwrap()));
        assert!(g.pos.is_consistent());
        g.unmake();
        assert_eq!(g.pos.hash(), h0);
        assert!(g.pos.holes().is_empty());
        // Black's king cannot go back to e8 after leaving it.
        let rook = *v.iter().find(|m| m.from.to_string() == "a1" && m.to.to_string() == "a2").unwrap();
        g.make(&rook).unwrap();
        let mut b = Vec::new();
        g.legal_moves(&mut b);
        let k = *b.iter().find(|m| m.to.to_string() == "d8").unwrap();
        g.make(&k).unwrap();
        g.legal_moves(&mut Vec::new());
        let mut w = Vec::new();
        g.legal_moves(&mut w);
        // The rook cannot return to a1 (a hole).
        assert!(!w.iter().any(|m| m.to.to_string() == "a1"));
        g.make(&w.iter().find(|m| m.from.to_string() == "e1" && m.to.to_string() == "e2").copied().unwrap()).unwrap();
        let mut b2 = Vec::new();
        g.legal_moves(&mut b2);
        assert!(!b2.iter().any(|m| m.to.to_string() == "e8"));
    }
}
