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
