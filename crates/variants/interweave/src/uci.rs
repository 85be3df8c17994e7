//! UCI move tokens (`../shared/spec/uci-notation.md`): one `<from><to>` per capture of a
//! chain, joined by `,` (`c4c8,c8e8`), with the letter of the arriving kind on a promotion
//! (`b6c7r`); a Remover capture, where nothing moves, is the Remover's square then the
//! first removed square in the order a1, a2, …, a8, b1, …, h8 (`d4c4`). What a move
//! captures is implied by its squares and is not written.

use crate::text::parts;
use crate::{Interweave, Move, NOTATION, code_kind, piece_of};
use chimere_core::Square;
use std::fmt::Write;

impl Interweave {
    /// The UCI token of the legal turn `m` (position before the turn). `_chess960` is the
    /// `UCI_Chess960` option, which changes nothing here (no castling).
    pub fn uci_token(&self, m: &Move, _chess960: bool) -> String {
        let mut s = String::with_capacity(5 * m.len as usize);
        for (i, p) in parts(self, m).iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            if p.remover {
                // File-major order: a1, a2, ..., a8, b1, ...
                let first = p.removed.iter().map(|&(sq, _)| Square::new(sq)).min_by_key(|q| (q.file(), q.rank()));
                let _ = write!(s, "{}{}", Square::new(p.from), first.unwrap_or(Square::new(p.from)));
                continue;
            }
            let _ = write!(s, "{}{}", Square::new(p.from), Square::new(p.to));
            if p.moved != 0 && code_kind(p.arrived) != code_kind(p.moved) {
                s.push(NOTATION.kind_char(piece_of(p.arrived).kind));
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use crate::Interweave;
    use chimere_core::Variant;

    #[test]
    fn remover_names_the_first_removed_square_file_by_file() {
        // The Remover d4 removes e4 and d5 at once: d5 comes first in a1, a2, ..., h8
        // order (it would be e4 rank by rank).
        let mut pos = Interweave::from_fen("6kk/8/8/3p4/3Bp3/8/8/KK6 w 0 - 000000").unwrap();
        let mut list = Vec::new();
        pos.legal_turns(&mut list);
        assert_eq!(list.len(), 1);
        assert_eq!(pos.canonical(&list[0]), "-d5:bp -e4:bp");
        assert_eq!(pos.uci_token(&list[0], false), "d4d5");
    }
}
