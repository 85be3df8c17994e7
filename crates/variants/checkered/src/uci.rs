//! UCI move tokens (`../shared/spec/uci-notation.md`): a switch turn is `0000` then the
//! checkered move (`0000,e3e2`); a move is `<from><to>` plus the letter of the arriving
//! kind when it differs from the kind that left (a promotion `e7e8q`, a capture taking the
//! captured kind `d3c5p`); castling as in chess (`e1g1`, king takes rook with
//! `UCI_Chess960` or when the king moves less than two files).

use crate::moves::{F_CASTLE, F_SWITCH, Move};
use crate::{Checkered, NOTATION};
use std::fmt::Write;

impl Checkered {
    /// The UCI token of the legal turn `m` (position before the turn); `chess960` is the
    /// `UCI_Chess960` option.
    pub fn uci_token(&self, m: &Move, chess960: bool) -> String {
        let mut s = String::with_capacity(10);
        if m.is(F_SWITCH) {
            s.push_str("0000,");
        }
        if m.is(F_CASTLE) {
            let (king_to, _) = m.castle_squares();
            s.push_str(&chimere_chess::castling_token(m.from, m.to, king_to, chess960));
            return s;
        }
        let _ = write!(s, "{}{}", m.from, m.to);
        let left = self.board.get(m.from).map_or(m.kind, |p| p.kind);
        if left != m.kind {
            s.push(NOTATION.kind_char(m.kind));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use crate::Checkered;
    use chimere_core::Variant;

    fn turns(fen: &str, chess960: bool) -> Vec<(String, String)> {
        let mut pos = Checkered::from_fen(fen).unwrap();
        let mut list = Vec::new();
        pos.legal_turns(&mut list);
        list.iter().map(|m| (pos.uci_token(m, chess960), pos.canonical(m))).collect()
    }

    #[test]
    fn castling_with_the_king_staying() {
        let t = turns("3k4/8/8/8/8/8/1P6/1RK4R w 0 bhii0000000000000000 - - 1", false);
        assert!(t.iter().any(|(a, b)| a == "c1b1" && b == "-b1:wr -c1:wk +c1:wk +d1:wr"), "{t:?}");
        assert!(t.iter().any(|(a, b)| a == "c1g1" && b == "-c1:wk -h1:wr +f1:wr +g1:wk"), "{t:?}");
        let t = turns("3k4/8/8/8/8/8/1P6/1RK4R w 0 bhii0000000000000000 - - 1", true);
        assert!(t.iter().any(|(a, _)| a == "c1h1"), "{t:?}");
    }

    #[test]
    fn capture_letter_only_when_the_kind_changes() {
        // The knight d3 takes the pawn c5: it stays a knight (`d3c5`) or becomes a
        // checkered pawn (`d3c5p`).
        let t = turns("4k3/8/8/2p5/8/3N4/8/4K3 w 0 iiii0000000000000000 - - 1", false);
        assert!(t.iter().any(|(a, b)| a == "d3c5" && b == "-c5:bp -d3:wn +c5:cn"), "{t:?}");
        assert!(t.iter().any(|(a, b)| a == "d3c5p" && b == "-c5:bp -d3:wn +c5:cp"), "{t:?}");
    }
}
