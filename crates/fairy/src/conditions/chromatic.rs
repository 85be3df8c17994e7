//! Monochromatique (Popeye `MonochromChess`) and Bichromatique (`BichromChess`): one module
//! with a parameter.
//!
//! - Monochromatique: every move ends on a square of the same colour as its start (knights
//!   never move; bishops always may; pawns only by double steps or diagonal captures,
//!   en passant included; rooks, queens and kings by even distances). Castling is allowed
//!   when both the king's and the rook's moves keep their colour: the kingside castling
//!   (e1-g1, h1-f1) is, the queenside one (a1-d1) is not.
//! - Bichromatique: every move ends on a square of the other colour (knights always may,
//!   bishops never; pawns only by single non-capturing steps; rooks, queens and kings by odd
//!   distances). Castling is impossible (the king's two-square move keeps its colour).
//!
//! The restriction also governs check: a unit checks only by a king capture it could make.
//! For captures the rule depends only on the departure and capture squares (no locust
//! kinds), so check keeps the attack tables, counting only the units on squares of the
//! right colour ([`Condition::capture_squares`]).

use crate::moves::Move;
use crate::position::Position;
use crate::rules::{Condition, Slot};
use chimere_core::{Bitboard, Colour, Square};

#[derive(Clone, Debug)]
pub struct Chromatic {
    /// `true`: Monochromatique (same colour); `false`: Bichromatique (colour changes).
    pub same: bool,
}

/// Monochromatique.
#[allow(non_upper_case_globals)]
pub const Monochrome: Chromatic = Chromatic { same: true };
/// Bichromatique.
#[allow(non_upper_case_globals)]
pub const Bichrome: Chromatic = Chromatic { same: false };

impl Condition for Chromatic {
    fn name(&self) -> String {
        if self.same { "MonochromChess".into() } else { "BichromChess".into() }
    }
    fn slots(&self) -> Vec<Slot> {
        vec![Slot::Admit]
    }
    fn admit(&self, _pos: &Position, _mover: Colour, mv: &Move) -> bool {
        let ok = |a: chimere_core::Square, b: chimere_core::Square| (a.is_light() == b.is_light()) == self.same;
        ok(mv.from, mv.to) && mv.castle.is_none_or(|(rf, rt)| ok(rf, rt))
    }
    fn admit_by_squares(&self) -> bool {
        true
    }
    fn capture_squares(&self, target: Square) -> Bitboard {
        if target.is_light() == self.same { Bitboard::LIGHT } else { Bitboard::DARK }
    }
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;

    fn moves(fen: &str, cond: &str) -> Vec<String> {
        let mut g = game_from_fen(fen, &[cond]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut s: Vec<String> = v.iter().map(|m| format!("{}{}", m.from, m.to)).collect();
        s.sort();
        s
    }

    #[test]
    fn knights_and_bishops() {
        // Kings in corners; a white knight and bishop.
        let fen = "7k/8/8/8/3N4/8/8/K1B5 w - - 0 1";
        let mono = moves(fen, "monochromatique");
        // Monochrome: the knight never moves; the bishop always may; the king a1 only
        // moves diagonally (b2); c1 bishop: b2 blocked? no, b2 free: c1-b2, c1-d2...
        assert!(!mono.iter().any(|m| m.starts_with("d4")));
        assert!(mono.contains(&"c1d2".to_string()));
        assert!(mono.contains(&"a1b2".to_string()));
        assert!(!mono.contains(&"a1a2".to_string()));
        let bi = moves(fen, "bichromatique");
        assert!(!bi.iter().any(|m| m.starts_with("c1")));
        assert!(bi.contains(&"d4e6".to_string()));
        assert!(bi.contains(&"a1a2".to_string()));
        assert!(!bi.contains(&"a1b2".to_string()));
    }

    /// Forces check detection to play the opponent's captures.
    #[derive(Debug)]
    struct PlayCaptures;
    impl crate::Condition for PlayCaptures {
        fn name(&self) -> String {
            "play captures".into()
        }
        fn slots(&self) -> Vec<crate::rules::Slot> {
            Vec::new()
        }
        fn observation(&self) -> crate::rules::Observation {
            crate::rules::Observation::KingCaptures
        }
    }

    #[test]
    fn attack_mask_agrees_with_played_captures() {
        use std::sync::Arc;
        let fen = "r3k2r/pp1n1ppp/2b5/2pPp3/1q6/2N2N2/PPP1QPPP/R3K2R w KQkq e6 0 1";
        for c in [super::Monochrome, super::Bichrome] {
            let fast = crate::RuleSet::build(vec![Arc::new(c.clone())], &[]).unwrap();
            assert_eq!(fast.observation, crate::rules::Observation::Attack);
            let slow = crate::RuleSet::build(vec![Arc::new(c.clone()), Arc::new(PlayCaptures)], &[]).unwrap();
            let pos = crate::position_from_fen(fen).unwrap();
            let a = crate::Game::new(fast, pos.clone()).perft(3);
            let b = crate::Game::new(slow, pos).perft(3);
            assert_eq!(a, b, "{c:?}");
        }
    }

    #[test]
    fn check_is_restricted() {
        // Black king h8, white rook h1 (distance 7: odd). Monochrome: the rook gives no
        // check, so Black's king may stay on the h-file (h7: distance 6 = check).
        let fen = "7k/8/8/8/8/8/8/K6R b - - 0 1";
        let mono = moves(fen, "monochromatique");
        // h8-h7 stays on the file at even distance: checked; h8-g8 / h8-g7 are free.
        assert!(!mono.contains(&"h8h7".to_string()));
        assert!(mono.contains(&"h8g7".to_string()));
    }
}
