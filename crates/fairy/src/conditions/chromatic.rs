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
use crate::rules::{Capabilities, Condition, Slot};
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
    fn capabilities(&self) -> Capabilities {
        Capabilities { slots: vec![Slot::Admit], admit_by_squares: true, ..Capabilities::default() }
    }
    fn admit(&self, _pos: &Position, _mover: Colour, mv: &Move) -> bool {
        let ok = |a: chimere_core::Square, b: chimere_core::Square| (a.is_light() == b.is_light()) == self.same;
        ok(mv.from, mv.to) && mv.castle.is_none_or(|(rf, rt)| ok(rf, rt))
    }
    fn capture_squares(&self, target: Square) -> Bitboard {
        if target.is_light() == self.same { Bitboard::LIGHT } else { Bitboard::DARK }
    }
}

#[cfg(test)]
mod tests {

    fn moves(fen: &str, cond: &str) -> Vec<String> {
        crate::testing::move_squares(fen, &[cond])
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

    use crate::testing::PlayCaptures;

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

    #[test]
    fn black_castles_kingside_only_under_monochrome() {
        // Black Ke8 Ra8 Rh8, White Ke1; Black to move.
        // Ra8: a6, a4, a2 (even distances on the file), c8 (2 squares; b8/d8 odd).
        // Rh8: h6, h4, h2, f8. Ke8: d7, f7 (diagonal steps keep the colour; d8/f8/e7 don't).
        // 0-0 (e8-g8 and h8-f8 both keep their colours) is legal; 0-0-0 is not (a8-d8).
        let m = moves("r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1", "monochromatique");
        let expected = ["a8a2", "a8a4", "a8a6", "a8c8", "e8d7", "e8f7", "e8g8", "h8f8", "h8h2", "h8h4", "h8h6"];
        assert_eq!(m, expected);
        // Bichromatique: no castling at all (the king's two-square step keeps its colour).
        // Rooks by odd distances: a8-a7/a5/a3/a1, a8-b8/d8; h8-h7/h5/h3/h1, h8-g8 (f8: 2).
        // Ke8: d8, f8, e7 (orthogonal steps change colour; d7/f7 don't).
        let b = moves("r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1", "bichromatique");
        let expected = [
            "a8a1", "a8a3", "a8a5", "a8a7", "a8b8", "a8d8", "e8d8", "e8e7", "e8f8", "h8g8", "h8h1", "h8h3", "h8h5",
            "h8h7",
        ];
        assert_eq!(b, expected);
    }

    #[test]
    fn black_en_passant() {
        // White Pd4 has just played d2-d4; Black pawns c4 and e4, kings e8/e1.
        // Monochrome: only the diagonal ep captures keep the colour (c4*d3, e4*d3); the
        // single steps c4-c3/e4-e3 change it; Ke8-d7/f7 (diagonal steps).
        let fen = "4k3/8/8/8/2pPp3/8/8/4K3 b - d3 0 1";
        assert_eq!(moves(fen, "monochromatique"), ["c4d3", "e4d3", "e8d7", "e8f7"]);
        // Bichrome: no ep (a diagonal keeps the colour); single steps; orthogonal king steps.
        assert_eq!(moves(fen, "bichromatique"), ["c4c3", "e4e3", "e8d8", "e8e7", "e8f8"]);
    }

    #[test]
    fn castling_crosses_only_restricted_checks() {
        // Monochrome, White Ke1 Rh1, Black Ka8 and a rook on the f-file.
        // Rf4 (dark) reaches f2 (dark, 2 squares) but not f1 (light, 3 squares): Ke1-f2 is
        // self-check, 0-0 (crossing f1) is legal. Other moves: Ke1-d2 (d1/e2/f1 change
        // colour), Rh1-f1 and Rh1-h3/h5/h7 (even distances).
        let m = moves("k7/8/8/8/5r2/8/8/4K2R w K - 0 1", "monochromatique");
        assert_eq!(m, ["e1d2", "e1g1", "h1f1", "h1h3", "h1h5", "h1h7"]);
        // Rf5 (light) reaches f1 (4 squares) but not f2: now 0-0 is illegal, Ke1-f2 legal.
        let m = moves("k7/8/8/5r2/8/8/8/4K2R w K - 0 1", "monochromatique");
        assert_eq!(m, ["e1d2", "e1f2", "h1f1", "h1h3", "h1h5", "h1h7"]);
    }
}
