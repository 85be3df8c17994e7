//! Perft for orthodox chess: the generic count ([`chimere_core::Perft`]) with each node's
//! moves kept on the stack instead of a growable list, and the last ply counted per piece
//! (popcount) when bulk.

use crate::Chess;
use crate::movegen::{self, CountSink, Flag, ListSink, Move, Sink};
use arrayvec::ArrayVec;
use chimere_core::{Bitboard, Square, Variant};

/// Room for the moves of one node. No reachable position has more than 218 legal moves;
/// a set-up one with more (many queens) is counted through a list instead.
const ROOM: usize = 256;

/// The moves of one node, on the stack (room for `N`), and whether some did not fit.
struct Moves<const N: usize> {
    list: ArrayVec<Move, N>,
    overflowed: bool,
}

impl<const N: usize> Moves<N> {
    fn new() -> Self {
        Moves { list: ArrayVec::new(), overflowed: false }
    }

    #[inline]
    fn push(&mut self, m: Move) {
        if self.list.try_push(m).is_err() {
            self.overflowed = true;
        }
    }
}

impl<const N: usize> Sink for Moves<N> {
    #[inline]
    fn targets(&mut self, from: Square, targets: Bitboard, flag: Flag) {
        for to in targets {
            self.push(Move { from, to, flag });
        }
    }
    #[inline]
    fn promotions(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            for k in movegen::PROMOTIONS {
                self.push(Move { from, to, flag: Flag::Promote(k) });
            }
        }
    }
    #[inline]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8, flag: Flag) {
        for to in targets {
            self.push(Move { from: movegen::behind(to, delta), to, flag });
        }
    }
    #[inline]
    fn pawn_promotions(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            let from = movegen::behind(to, delta);
            for k in movegen::PROMOTIONS {
                self.push(Move { from, to, flag: Flag::Promote(k) });
            }
        }
    }
    #[inline]
    fn one(&mut self, m: Move) {
        self.push(m);
    }
}

/// Leaves at `depth` below `pos` (with `bulk`, the last ply counted without being played).
pub(crate) fn count(pos: &mut Chess, depth: u32, bulk: bool) -> u64 {
    count_in::<ROOM>(pos, depth, bulk)
}

/// [`count`] with room for `N` moves a node.
fn count_in<const N: usize>(pos: &mut Chess, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    if bulk && depth == 1 {
        let mut c = CountSink(0);
        movegen::generate(pos, &mut c);
        return c.0;
    }
    let mut moves = Moves::<N>::new();
    movegen::generate(pos, &mut moves);
    if moves.overflowed {
        let mut list = Vec::new();
        movegen::generate(pos, &mut ListSink(&mut list));
        return over::<N>(pos, &list, depth, bulk);
    }
    over::<N>(pos, &moves.list, depth, bulk)
}

/// Leaves below each of `moves` (played and taken back in turn).
#[inline]
fn over<const N: usize>(pos: &mut Chess, moves: &[Move], depth: u32, bulk: bool) -> u64 {
    if depth == 1 {
        for m in moves {
            let u = pos.make(m);
            pos.unmake(m, u);
        }
        return moves.len() as u64;
    }
    let mut n = 0;
    for m in moves {
        let u = pos.make(m);
        n += count_in::<N>(pos, depth - 1, bulk);
        pos.unmake(m, u);
    }
    n
}

#[cfg(test)]
mod tests {
    use crate::Chess;
    use chimere_core::{Perft, Variant};

    /// With little room most nodes overflow and count through a list: the same leaves as
    /// the generic perft, full-leaf and bulk.
    #[test]
    fn nodes_past_the_room_count_through_a_list() {
        for (fen, depth) in [
            ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4),
        ] {
            let mut pos = Chess::from_fen(fen).unwrap();
            for bulk in [false, true] {
                let generic = Perft::<Chess>::default().count(&mut pos, depth, bulk);
                assert_eq!(super::count_in::<8>(&mut pos, depth, bulk), generic, "{fen} (bulk: {bulk})");
                assert_eq!(super::count(&mut pos, depth, bulk), generic, "{fen} (bulk: {bulk})");
            }
        }
    }
}
