//! Moves as exact codes for the search's table ([`chimere_core::Variant::turn_code`]): a
//! code read back is checked for legality without generating the position's moves.

use crate::movegen::{Flag, Move, Sink, generate};
use crate::{BISHOP, Chess, KING, KNIGHT, PAWN, QUEEN, ROOK};
use chimere_core::{Bitboard, Colour, Kind, Piece, Square, attacks};

/// The exact code of a move: `1 + from + 64 to + 4096 flag` (flag 0 normal, 1 double
/// step, 2 en passant, 3 castling, 4-7 promotion to knight, bishop, rook, queen): never 0,
/// below 2^15.
#[inline]
pub fn code(m: &Move) -> u32 {
    let flag = match m.flag {
        Flag::Normal => 0,
        Flag::DoublePush => 1,
        Flag::EnPassant => 2,
        Flag::Castle => 3,
        Flag::Promote(k) => 3 + k.0 as u32,
    };
    1 + m.from.index() as u32 + 64 * m.to.index() as u32 + 4096 * flag
}

/// The move of code `c` ([`code`]) if it is a legal move of `pos`.
pub fn legal_of_code(pos: &Chess, c: u32) -> Option<Move> {
    if c == 0 || c > 8 * 4096 {
        return None;
    }
    let c = c - 1;
    let from = Square::new((c & 63) as u8);
    let to = Square::new(((c >> 6) & 63) as u8);
    let flag = match c >> 12 {
        0 => Flag::Normal,
        1 => Flag::DoublePush,
        2 => Flag::EnPassant,
        3 => Flag::Castle,
        f => Flag::Promote(Kind(f as u8 - 3)),
    };
    let m = Move { from, to, flag };
    is_legal(pos, &m).then_some(m)
}

/// Whether `m` is a legal move of `pos`, decided without generating (castling and en
/// passant, rare, by generating).
fn is_legal(pos: &Chess, m: &Move) -> bool {
    let b = &pos.board;
    let us = pos.side;
    let them = us.opponent();
    let Some(p) = b.get(m.from) else { return false };
    if p.colour != us {
        return false;
    }
    let rare = match m.flag {
        Flag::Castle => Some(p.kind == KING && b.get(m.to) == Some(Piece::new(us, ROOK))),
        Flag::EnPassant => Some(p.kind == PAWN && pos.ep == Some(m.to)),
        _ => None,
    };
    if let Some(possible) = rare {
        if !possible {
            return false;
        }
        let mut find = FindSink { m: *m, found: false };
        generate(pos, &mut find);
        return find.found;
    }
    let Some(ksq) = pos.king_square(us) else { return false };
    let own = b.colour(us);
    if own.has(m.to) {
        return false;
    }
    let occ = b.occupied();
    let capture = b.colour(them).has(m.to);
    let reach = match p.kind {
        PAWN => {
            let up = us == Colour::White;
            let last = m.to.rank() == if up { 7 } else { 0 };
            let (from, to) = (m.from.index() as i32, m.to.index() as i32);
            let step = if up { 8 } else { -8 };
            let double = !capture
                && to == from + 2 * step
                && m.from.rank() == if up { 1 } else { 6 }
                && !occ.has(Square::new((from + step) as u8));
            let single = !capture && to == from + step;
            let takes = capture && attacks::pawn(up, m.from).has(m.to);
            match m.flag {
                Flag::DoublePush => double,
                Flag::Normal => !last && (single || takes),
                Flag::Promote(k) => last && (single || takes) && matches!(k, KNIGHT | BISHOP | ROOK | QUEEN),
                _ => false,
            }
        }
        _ if m.flag != Flag::Normal => false,
        KNIGHT => attacks::knight(m.from).has(m.to),
        BISHOP => attacks::bishop(m.from, occ).has(m.to),
        ROOK => attacks::rook(m.from, occ).has(m.to),
        QUEEN => attacks::queen(m.from, occ).has(m.to),
        KING => {
            return attacks::king(m.from).has(m.to)
                && pos.attackers(m.to, them, occ ^ Bitboard::from_square(m.from)).is_empty();
        }
        _ => false,
    };
    // The king not left in check: the enemy's attackers once the move is made (the
    // captured unit, on `to`, attacks no more).
    let after = (occ ^ Bitboard::from_square(m.from)) | Bitboard::from_square(m.to);
    reach && (pos.attackers(ksq, them, after) & !Bitboard::from_square(m.to)).is_empty()
}

/// Looks for a castling or en passant move among those generated (the generator hands
/// those out one at a time, through [`Sink::one`]).
struct FindSink {
    m: Move,
    found: bool,
}

impl Sink for FindSink {
    #[inline]
    fn targets(&mut self, _: Square, _: Bitboard, _: Flag) {}
    #[inline]
    fn promotions(&mut self, _: Square, _: Bitboard) {}
    #[inline]
    fn pawn_moves(&mut self, _: Bitboard, _: i8, _: Flag) {}
    #[inline]
    fn pawn_promotions(&mut self, _: Bitboard, _: i8) {}
    #[inline]
    fn one(&mut self, m: Move) {
        self.found |= m == self.m;
    }
}

#[cfg(test)]
mod tests {
    use crate::Chess;
    use chimere_core::Variant;

    /// Every code below 2^15 in every position of a small tree: the turn of a code is
    /// found exactly when it is a legal move with that code.
    fn check_codes(pos: &mut Chess, depth: u32) {
        let mut all = Vec::new();
        pos.legal_turns(&mut all);
        let mut by_code = std::collections::HashMap::new();
        for m in &all {
            let c = pos.turn_code(m);
            assert!(c != 0 && by_code.insert(c, *m).is_none(), "{m:?}");
        }
        for c in 0..(1u32 << 15) + 2 {
            assert_eq!(pos.turn_of_code(c), by_code.get(&c).copied(), "code {c} in {}", pos.fen());
        }
        if depth > 1 {
            for m in &all {
                let u = pos.make(m);
                check_codes(pos, depth - 1);
                pos.unmake(m, u);
            }
        }
    }

    #[test]
    fn turn_codes_find_exactly_the_legal_moves() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/8/8/KPp4r/8/8/8/7k w - c6 0 1",
            "8/8/8/1Pp4r/K7/8/8/7k w - c6 0 1",
            "4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1",
            "k7/8/8/8/8/8/8/qRK5 w B - 0 1",
        ] {
            check_codes(&mut Chess::from_fen(fen).unwrap(), 1);
        }
        check_codes(&mut Chess::from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1").unwrap(), 2);
    }
}
