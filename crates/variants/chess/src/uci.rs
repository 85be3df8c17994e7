//! UCI move tokens (`../shared/spec/uci-notation.md`): `<from><to>`, a promotion letter
//! (`e7e8q`), and castling as `<king><king's destination>` (`e1g1`) unless `UCI_Chess960`
//! is on or the king moves less than two files, in which case the king takes its rook
//! (`e1h1`, `f1h1`, `c1b1`).

use crate::movegen::{Flag, Move};
use crate::{Chess, NOTATION};
use chimere_core::Square;
use std::fmt::Write;

/// The token of a castling whose king stands on `king` and rook on `rook`, the king going
/// to `king_to`: the rule shared by every game with castling.
pub fn castling_token(king: Square, rook: Square, king_to: Square, chess960: bool) -> String {
    let moves_two = king.file().abs_diff(king_to.file()) >= 2;
    let to = if chess960 || !moves_two { rook } else { king_to };
    format!("{king}{to}")
}

impl Chess {
    /// The UCI token of the legal move `m` (position before the move); `chess960` is the
    /// `UCI_Chess960` option.
    pub fn uci_token(&self, m: &Move, chess960: bool) -> String {
        match m.flag {
            Flag::Castle => {
                let king_file = if m.to.file() > m.from.file() { 6 } else { 2 };
                castling_token(m.from, m.to, Square::from_coords(king_file, m.from.rank()), chess960)
            }
            Flag::Promote(kind) => {
                let mut s = format!("{}{}", m.from, m.to);
                let _ = s.write_char(NOTATION.kind_char(kind));
                s
            }
            Flag::Normal | Flag::DoublePush | Flag::EnPassant => format!("{}{}", m.from, m.to),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::Chess;
    use chimere_core::Variant;

    fn tokens(fen: &str, chess960: bool) -> Vec<String> {
        let mut pos = Chess::from_fen(fen).unwrap();
        let mut list = Vec::new();
        pos.legal_turns(&mut list);
        let mut t: Vec<String> = list.iter().map(|m| pos.uci_token(m, chess960)).collect();
        t.sort();
        t
    }

    #[test]
    fn castling_and_promotion() {
        let fen = "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let plain = tokens(fen, false);
        assert!(plain.contains(&"e1g1".to_string()) && plain.contains(&"e1c1".to_string()));
        assert!(plain.contains(&"b7a8n".to_string()) && plain.contains(&"b7b8q".to_string()));
        let c960 = tokens(fen, true);
        assert!(c960.contains(&"e1h1".to_string()) && c960.contains(&"e1a1".to_string()));
        assert!(!c960.contains(&"e1g1".to_string()));
    }

    #[test]
    fn king_moving_one_file_or_staying_takes_its_rook() {
        // King f1, rook h1: castling puts the king on g1, one file: `f1h1`, while the king
        // step is `f1g1`. King c1, rook b1: the king stays on c1: `c1b1`.
        let t = tokens("3k4/8/8/8/8/8/8/1RK4R w 0 bhii -", false);
        assert!(t.contains(&"c1b1".to_string()), "{t:?}");
        // Both units of the castling are in the canonical form, the king staying too.
        let mut pos = Chess::from_fen("3k4/8/8/8/8/8/8/1RK4R w 0 bhii -").unwrap();
        let mut list = Vec::new();
        pos.legal_turns(&mut list);
        let c1b1 = list.iter().find(|m| pos.uci_token(m, false) == "c1b1").unwrap();
        assert_eq!(pos.canonical(c1b1), "-b1:wr -c1:wk +c1:wk +d1:wr");
        assert!(t.contains(&"c1g1".to_string()), "{t:?}");
        let t = tokens("3k4/8/8/8/8/8/8/5K1R w 0 ihii -", false);
        assert!(t.contains(&"f1h1".to_string()) && t.contains(&"f1g1".to_string()), "{t:?}");
    }
}
