//! The generic board: a mailbox plus bitboards by colour and by kind, with an incremental
//! Zobrist hash of the pieces. It is changed only through [`Effect`]s, which can be
//! reverted exactly (the effect journal).

use crate::{Bitboard, Colour, Kind, Piece, Square, zobrist};

/// One recorded change of the board. A move is a list of effects; unmaking it reverts
/// them in reverse order.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Effect {
    /// `piece` leaves `square` (captured, moved away, pushed off the board...).
    Remove(Square, Piece),
    /// `piece` appears on `square` (arrival, rebirth, promotion result...).
    Add(Square, Piece),
}

impl Effect {
    /// The effect that undoes this one.
    #[inline]
    pub const fn inverse(self) -> Effect {
        match self {
            Effect::Remove(s, p) => Effect::Add(s, p),
            Effect::Add(s, p) => Effect::Remove(s, p),
        }
    }
}

/// Pieces on an 8×8 board.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Board {
    squares: [Option<Piece>; 64],
    by_colour: [Bitboard; 3],
    by_kind: [Bitboard; Kind::MAX],
    hash: u64,
}

impl Default for Board {
    fn default() -> Self {
        Board::empty()
    }
}

impl Board {
    pub const fn empty() -> Board {
        Board { squares: [None; 64], by_colour: [Bitboard::EMPTY; 3], by_kind: [Bitboard::EMPTY; Kind::MAX], hash: 0 }
    }

    #[inline]
    pub fn get(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_colour[0] | self.by_colour[1] | self.by_colour[2]
    }
    #[inline]
    pub fn colour(&self, c: Colour) -> Bitboard {
        self.by_colour[c.index()]
    }
    #[inline]
    pub fn kind(&self, k: Kind) -> Bitboard {
        self.by_kind[k.index() & (Kind::MAX - 1)]
    }
    #[inline]
    pub fn pieces(&self, p: Piece) -> Bitboard {
        self.by_colour[p.colour.index()] & self.by_kind[p.kind.index() & (Kind::MAX - 1)]
    }
    /// The Zobrist hash of the pieces alone.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// The piece hash recomputed from scratch (for checks).
    pub fn recomputed_hash(&self) -> u64 {
        Square::ALL.iter().filter_map(|&s| self.get(s).map(|p| zobrist::piece(p, s))).fold(0, |a, b| a ^ b)
    }

    /// Puts `p` on the empty square `sq`.
    #[inline]
    pub fn put(&mut self, sq: Square, p: Piece) {
        debug_assert!(self.squares[sq.index()].is_none(), "put on occupied {sq}");
        self.squares[sq.index()] = Some(p);
        self.by_colour[p.colour.index()].set(sq);
        self.by_kind[p.kind.index() & (Kind::MAX - 1)].set(sq);
        self.hash ^= zobrist::piece(p, sq);
    }

    /// Removes and returns the piece on `sq`, if any.
    #[inline]
    pub fn take(&mut self, sq: Square) -> Option<Piece> {
        let p = self.squares[sq.index()].take()?;
        self.by_colour[p.colour.index()].clear(sq);
        self.by_kind[p.kind.index() & (Kind::MAX - 1)].clear(sq);
        self.hash ^= zobrist::piece(p, sq);
        Some(p)
    }

    /// Applies one effect. Debug builds check that a removal finds exactly its piece.
    #[inline]
    pub fn apply(&mut self, e: Effect) {
        match e {
            Effect::Remove(sq, p) => {
                let got = self.take(sq);
                debug_assert_eq!(got, Some(p), "effect {e:?} does not match the board");
            }
            Effect::Add(sq, p) => self.put(sq, p),
        }
    }

    /// Applies effects in order.
    #[inline]
    pub fn apply_all(&mut self, effects: &[Effect]) {
        for &e in effects {
            self.apply(e);
        }
    }

    /// Reverts effects previously applied with [`Board::apply_all`].
    #[inline]
    pub fn revert_all(&mut self, effects: &[Effect]) {
        for &e in effects.iter().rev() {
            self.apply(e.inverse());
        }
    }

    /// Iterates over `(square, piece)` for every occupied square, a1 first.
    pub fn iter(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied().map(move |s| (s, self.squares[s.index()].expect("bitboards match mailbox")))
    }

    /// Debug check that bitboards, mailbox and hash agree.
    pub fn is_consistent(&self) -> bool {
        let mut col = [Bitboard::EMPTY; 3];
        let mut kind = [Bitboard::EMPTY; Kind::MAX];
        for sq in Square::ALL {
            if let Some(p) = self.squares[sq.index()] {
                col[p.colour.index()].set(sq);
                kind[p.kind.index()].set(sq);
            }
        }
        col == self.by_colour && kind == self.by_kind && self.hash == self.recomputed_hash()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn effects_revert_exactly() {
        let mut b = Board::empty();
        let wp = Piece::new(Colour::White, Kind(0));
        let bq = Piece::new(Colour::Black, Kind(4));
        let e2 = Square::parse("e2").unwrap();
        let e4 = Square::parse("e4").unwrap();
        b.put(e2, wp);
        b.put(e4, bq);
        let before = b.clone();
        let effects = [Effect::Remove(e2, wp), Effect::Remove(e4, bq), Effect::Add(e4, wp)];
        b.apply_all(&effects);
        assert!(b.is_consistent());
        assert_eq!(b.get(e4), Some(wp));
        assert_eq!(b.get(e2), None);
        assert_ne!(b.hash(), before.hash());
        b.revert_all(&effects);
        assert_eq!(b, before);
    }
}
