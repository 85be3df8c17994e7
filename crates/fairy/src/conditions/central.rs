//! Central (Popeye `CentralChess`): a king can always move; any other unit may move (and
//! so capture and give check) only if it is observed by a friendly unit that itself can
//! move: there is a chain of friendly observations leading back to the king. Computed as
//! the closure from the side's kings: a unit joins when a unit already in the set observes
//! it. A side without a king has no mobile non-royal unit.

use crate::moves;
use crate::position::Position;
use crate::rules::{Capabilities, Condition};
use crate::walk::KING;
use chimere_core::{Bitboard, Colour};

#[derive(Clone, Debug, Default)]
pub struct Central;

impl Condition for Central {
    fn name(&self) -> String {
        "CentralChess".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { mobility: true, ..Capabilities::default() }
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

    fn moves(fen: &str, cond: &str) -> Vec<String> {
        crate::testing::move_squares(fen, &[cond])
    }

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

    #[test]
    fn castling_and_checks_outside_the_chain() {
        // White Ke1, Rh1 (not observed by the king: outside the chain, but castling is a
        // king move), Pf2 (observed by the king). Black Ke8, Bc4 (outside the black chain:
        // it attacks nothing). Ke1-d1/f1/d2/e2, 0-0, f2-f3, f2-f4.
        let expected = ["e1d1", "e1d2", "e1e2", "e1f1", "e1g1", "f2f3", "f2f4"];
        assert_eq!(moves("4k3/8/8/8/2b5/8/5P2/4K2R w K - 0 1", "central"), expected);
        // A black Pd5 observes the bishop but is itself outside the chain (unlike under
        // Ultra-Patrouille): nothing changes.
        assert_eq!(moves("4k3/8/8/3p4/2b5/8/5P2/4K2R w K - 0 1", "central"), expected);
    }

    #[test]
    fn black_to_move() {
        // Popeye-style record, Black to move: White Kd1 Qe2 Rf3 Bg4 Sa8 Pb7, Black Kh8 Rh1
        // Sb2 Pa5. The black king observes none of its units: only it moves, to g7, h7, g8.
        // White's chain Kd1-Qe2-Rf3 reaches none of these squares; Bg4 (which would guard
        // nothing there either) and Pb7/Sa8 are outside it.
        let m = moves("N6k/1P6/8/p7/6B1/5R2/1n2Q3/3K3r b - - 0 1", "central");
        assert_eq!(m, ["h8g7", "h8g8", "h8h7"]);
        // The white chain in the same position: Kd1 always; Qe2 (next to the king); Rf3
        // (observed by the queen). Bg4 (screened by Rf3), Pb7 and Sa8 stay.
        let w = moves("N6k/1P6/8/p7/6B1/5R2/1n2Q3/3K3r w - - 0 1", "central");
        assert!(w.iter().all(|m| m.starts_with("d1") || m.starts_with("e2") || m.starts_with("f3")));
    }
}
