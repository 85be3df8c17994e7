//! Ultra-Patrouille (Popeye `UltraPatrol`): a unit (kings included) may move, capture or
//! give check only while it is observed by a friendly unit (a friendly unit could capture
//! on its square, by its walk, were it an enemy). Observation itself needs no support
//! (the observer need not be observed).

use crate::moves;
use crate::position::Position;
use crate::rules::{Capabilities, Condition};
use chimere_core::{Bitboard, Colour};

#[derive(Clone, Debug, Default)]
pub struct UltraPatrol;

impl Condition for UltraPatrol {
    fn name(&self) -> String {
        "UltraPatrol".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { mobility: true, ..Capabilities::default() }
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

    fn moves(fen: &str, cond: &str) -> Vec<String> {
        crate::testing::move_squares(fen, &[cond])
    }

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

    #[test]
    fn an_unobserved_king_gives_no_check() {
        // White Ke4 (observed by Rc4 through d4), Rc4 (observed by nobody: immobile);
        // Black Ke6 (observed by nobody), Pa7. The black king cannot capture, so the white
        // king may step next to it: all eight king moves are legal.
        let m = moves("8/p7/4k3/8/2R1K3/8/8/8 w - - 0 1", "ultra-patrouille");
        assert_eq!(m, ["e4d3", "e4d4", "e4d5", "e4e3", "e4e5", "e4f3", "e4f4", "e4f5"]);
    }

    #[test]
    fn castling_and_checks_by_unobserved_units() {
        // White Ke1 (observed by Rh1), Rh1 (unobserved: immobile, but castling is a king
        // move), Pf2 (observed by the king); Black Ke8, Bc4 (unobserved: attacks nothing).
        // Ke1-d1/f1/d2/e2, 0-0, f2-f3, f2-f4.
        let m = moves("4k3/8/8/8/2b5/8/5P2/4K2R w K - 0 1", "ultra-patrouille");
        assert_eq!(m, ["e1d1", "e1d2", "e1e2", "e1f1", "e1g1", "f2f3", "f2f4"]);
        // Black Pd5 observes c4: the bishop now attacks e2 and f1, so Ke1-e2, Ke1-f1 and
        // 0-0 (crossing f1) are illegal.
        let m = moves("4k3/8/8/3p4/2b5/8/5P2/4K2R w K - 0 1", "ultra-patrouille");
        assert_eq!(m, ["e1d1", "e1d2", "f2f3", "f2f4"]);
    }

    #[test]
    fn black_to_move() {
        // Popeye-style record, Black to move: White Kh2 Rd1 Pb7 Pg7, Black Ka3 Ra8 Bd8 Sh8
        // Pc2 Pe2. Ra8 observes a3 and d8, so the king and the bishop move; nothing observes
        // a8, h8, c2 or e2. The white rook is unobserved: it attacks nothing (Ka3-b2 etc.),
        // and Bd8-c7, unobserved on c7, gives no check.
        let fen = "r2b3n/1P4P1/8/8/8/k7/2p1p2K/3R4 b - - 0 1";
        let m = moves(fen, "ultra-patrouille");
        let expected = ["a3a2", "a3a4", "a3b2", "a3b3", "a3b4", "d8a5", "d8b6", "d8c7", "d8e7", "d8f6", "d8g5", "d8h4"];
        assert_eq!(m, expected);
        let mut g = game_from_fen(fen, &["ultra-patrouille"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let c7 = *v.iter().find(|m| m.to.to_string() == "c7").unwrap();
        g.make(&c7).unwrap();
        assert!(!g.in_check(chimere_core::Colour::White));
    }
}
