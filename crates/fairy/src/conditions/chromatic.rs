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
//! The restriction also governs check: a unit checks only by a king capture it could make
//! (the `Admit` filter: check detection plays the opponent's admitted captures).

use crate::moves::Move;
use crate::position::Position;
use crate::rules::{Condition, Slot};
use chimere_core::Colour;

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
