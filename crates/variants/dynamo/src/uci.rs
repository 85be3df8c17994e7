//! UCI move tokens (`../shared/spec/uci-notation.md`): the token of part 1, then, after
//! `,`, that of part 2 or `0000` for a pass (`h2h6,h1h5`, `e2a6,0000`); a turn of part 1
//! alone has one token. A part names the unit that travels — the moving piece, the pushed
//! piece, the follower or the pulled piece: `<from><to>`, with the letter of the new kind
//! on a promotion, or `<from>--` when it leaves the board (`b2--,c1--`). Castling as in
//! chess (`e1g1`; king takes rook with `UCI_Chess960` or when the king moves less than two
//! files).

use crate::{ALONE, CASTLE, Dynamo, EXIT, Move, NO_PROMO, NOTATION, PASS};
use chimere_core::{Kind, Square};
use std::fmt::Write;

/// Appends the token of a part moving the unit on `from` to `to` ([`EXIT`]: off the board).
fn part(s: &mut String, from: u8, to: u8, promo: u8, kind: Option<Kind>) {
    let _ = write!(s, "{}", Square::new(from));
    if to == EXIT {
        s.push_str("--");
        return;
    }
    let _ = write!(s, "{}", Square::new(to));
    if promo != NO_PROMO && kind != Some(Kind(promo)) {
        s.push(NOTATION.kind_char(Kind(promo)));
    }
}

impl Dynamo {
    /// The UCI token of the legal turn `m` (position before the turn); `chess960` is the
    /// `UCI_Chess960` option.
    pub fn uci_token(&self, m: &Move, chess960: bool) -> String {
        if m.kind == CASTLE {
            // `from1` king, `to1` rook, `from2` the king's destination.
            return chimere_chess::castling_token(
                Square::new(m.from1),
                Square::new(m.to1),
                Square::new(m.from2),
                chess960,
            );
        }
        let kind_on = |s: u8| self.board.get(Square::new(s)).map(|p| p.kind);
        let mut s = String::with_capacity(10);
        part(&mut s, m.from1, m.to1, m.promo1, kind_on(m.from1));
        match m.kind {
            ALONE => {}
            PASS => s.push_str(",0000"),
            _ => {
                s.push(',');
                part(&mut s, m.from2, m.to2, m.promo2, kind_on(m.from2));
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use crate::Dynamo;
    use chimere_core::Variant;

    /// (token, canonical) of every legal turn of `fen`.
    fn turns(fen: &str, chess960: bool) -> Vec<(String, String)> {
        let mut pos = Dynamo::from_fen(fen).unwrap();
        let mut list = Vec::new();
        pos.legal_turns(&mut list);
        list.iter().map(|m| (pos.uci_token(m, chess960), pos.canonical(m))).collect()
    }

    fn has(t: &[(String, String)], token: &str, canonical: &str) -> bool {
        t.iter().any(|(a, b)| a == token && b == canonical)
    }

    #[test]
    fn castling_with_the_king_staying_and_parts() {
        let fen = "3k4/8/8/8/8/8/8/1RK4R w 0 bhii -";
        let t = turns(fen, false);
        // Queen side: the king stays on c1, both units are listed; king takes rook.
        assert!(has(&t, "c1b1", "-b1:wr -c1:wk +c1:wk +d1:wr"), "{t:?}");
        // King side: the king moves four files.
        assert!(has(&t, "c1g1", "-c1:wk -h1:wr +f1:wr +g1:wk"), "{t:?}");
        // A rook step followed by the king (two parts), a rook leaving the board.
        assert!(has(&t, "b1a1,c1b1", "-b1:wr +a1:wr ; -c1:wk +b1:wk"), "{t:?}");
        assert!(has(&t, "b1--,c1b1", "-b1:wr ; -c1:wk +b1:wk"), "{t:?}");
        assert!(has(&t, "c1g1,0000", "-c1:wk +g1:wk ; PASS"), "{t:?}");
        let t = turns(fen, true);
        assert!(has(&t, "c1h1", "-c1:wk -h1:wr +f1:wr +g1:wk"), "{t:?}");
        assert!(has(&t, "c1b1", "-b1:wr -c1:wk +c1:wk +d1:wr"), "{t:?}");
    }
}
