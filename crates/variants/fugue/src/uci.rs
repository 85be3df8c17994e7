//! UCI move tokens (`../shared/spec/uci-notation.md`). Every Fugue turn has one part:
//! an archer's shot is `<archer><target>` (it does not move), a swapper's mutual
//! destruction `<swapper><target>x` (the swap with the same piece is the same squares
//! without `x`), any other move `<from><to>` of the moving piece, with the letter of the
//! new kind on a promotion (`b7b8i`). What a move captures (withdrawal, approach, long
//! leap, pawn leap, replacement) is implied by its squares and is not written.

use crate::moves::{DESTROY, Move};
use crate::{Fugue, NOTATION};
use chimere_core::Square;
use std::fmt::Write;

impl Fugue {
    /// The UCI token of the legal turn `m` (position before the turn). `_chess960` is the
    /// `UCI_Chess960` option, which changes nothing here (no castling).
    pub fn uci_token(&self, m: &Move, _chess960: bool) -> String {
        let from = Square::new(m.from);
        let mut s = String::with_capacity(5);
        let _ = write!(s, "{from}{}", Square::new(m.to));
        if m.flag == DESTROY {
            s.push('x');
        } else if let Some(k) = m.promotion()
            && self.board().get(from).is_some_and(|p| p.kind != k)
        {
            s.push(NOTATION.kind_char(k));
        }
        s
    }
}
