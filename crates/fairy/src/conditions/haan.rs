//! Haan (Popeye `HaanerChess`): every square vacated by a move becomes a hole for the rest
//! of the play (see [`super::Hole`] for what a hole is). Our reading of "vacated": a square
//! that held a unit before the move and is empty after it: the departure square, for
//! castling also the rook's, for en passant also the captured pawn's square, and with
//! other conditions any square a unit left (e.g. the capture square when an Anticirce
//! capturer is reborn elsewhere). A square a hidden unit comes back to at the end of the
//! move (Ghost chess, Parachute...) is not vacated.
//!
//! Popeye's HaanerChess only makes holes of the squares units move from, so the square of a
//! pawn captured en passant stays open there (e.g. a line through it can give check or
//! self-check); the spec names that square explicitly, and wins.
//!
//! The holes are part of the journalled position (effect `Fx::Hole`, in the hash) and are
//! undone with the move.

use crate::position::Fx;
use crate::rules::{Capabilities, Condition, Play, Reject, Slot};
use chimere_core::Bitboard;

#[derive(Clone, Debug, Default)]
pub struct Haan;

impl Condition for Haan {
    fn name(&self) -> String {
        "HaanerChess".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { slots: vec![Slot::AfterMove], ..Capabilities::default() }
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

    fn moves(fen: &str, conds: &[&str]) -> Vec<String> {
        let mut g = game_from_fen(fen, conds).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut s: Vec<String> = v.iter().map(|m| format!("{}{}", m.from, m.to)).collect();
        s.sort();
        s
    }

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

    #[test]
    fn the_vacated_square_blocks_lines_at_once() {
        // White Kd1 (in check from Ra1 along the first rank), Be2, Pg2; Black Kh8 Ra1 Re6.
        // Kd1-e1: d1 becomes a hole between the rook and e1 (legal; orthodox it is not);
        // Kd1-c2, Kd1-d2 leave the rank. Kd1-c1 stays in the rook's line; nothing else
        // parries.
        let m = moves("7k/8/4r3/8/8/8/4B1P1/r2K4 w - - 0 1", &["haan"]);
        assert_eq!(m, ["d1c2", "d1d2", "d1e1"]);
        // No discovered check: White Ka1 Rd1 Bd3, Black Kd8 Pa7. Every bishop move leaves
        // a hole on d3, between the rook and the king.
        let mut g = game_from_fen("3k4/p7/8/8/8/3B4/8/K2R4 w - - 0 1", &["haan"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let bishop: Vec<_> = v.iter().filter(|m| m.from.to_string() == "d3").copied().collect();
        assert_eq!(bishop.len(), 11);
        for m in bishop {
            g.make(&m).unwrap();
            assert!(!g.in_check(chimere_core::Colour::Black), "{m:?}");
            g.unmake();
        }
    }

    #[test]
    fn en_passant_leaves_a_hole_on_the_captured_pawn() {
        // White Kg2 Pe5, Black Kh8 Ba8 Pd5 (just played d7-d5). e5*d6 ep empties d5 on the
        // bishop's diagonal a8-g2, but d5 becomes a hole (spec: "for en passant also the
        // captured pawn's square"), so the king stays screened: legal. Orthodox it is
        // self-check. (Popeye's HaanerChess only makes holes of departure squares and
        // would refuse it: the spec wins.)
        let fen = "b6k/8/8/3pP3/8/8/6K1/8 w - d6 0 1";
        let kings = ["g2f1", "g2f2", "g2f3", "g2g1", "g2g3", "g2h1", "g2h2", "g2h3"];
        let mut expected: Vec<&str> = kings.to_vec();
        expected.extend(["e5d6", "e5e6"]);
        expected.sort();
        assert_eq!(moves(fen, &["haan"]), expected);
        assert!(!moves(fen, &[]).contains(&"e5d6".to_string()));
        let mut g = game_from_fen(fen, &["haan"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let ep = *v.iter().find(|m| m.ep).unwrap();
        g.make(&ep).unwrap();
        for s in ["d5", "e5"] {
            assert!(g.pos.is_hole(chimere_core::Square::parse(s).unwrap()), "{s}");
        }
    }
}
