//! UCI tokens of chess moves (`../shared/spec/uci-notation.md`): `<from><to>` plus the
//! promotion letter; castling as the king's two-square move (`e1g1`) unless Chess960
//! notation is asked for or the king moves fewer than two files, then as "king takes own
//! rook" (`e1h1`).

use crate::{Chess, Flag, Move, NOTATION};
use chimere_core::Square;

pub(crate) fn token(_pos: &Chess, m: &Move, chess960: bool) -> String {
    match m.flag {
        Flag::Castle => {
            let king_side = m.to.file() > m.from.file();
            let dest = Square::from_coords(if king_side { 6 } else { 2 }, m.from.rank());
            let moved = (dest.file() as i8 - m.from.file() as i8).unsigned_abs();
            if chess960 || moved < 2 { format!("{}{}", m.from, m.to) } else { format!("{}{}", m.from, dest) }
        }
        Flag::Promote(k) => format!("{}{}{}", m.from, m.to, NOTATION.kind_char(k)),
        _ => format!("{}{}", m.from, m.to),
    }
}
