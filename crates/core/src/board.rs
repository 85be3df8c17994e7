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

/// Pieces on an 8×8 board, of kinds below `K`.
///
/// `K` is the size of the per-kind set table; the orthodox-based variants keep the
/// default ([`Kind::ORTHODOX`], 16 kinds) and only a rules set with a larger piece table
/// (the fairy engine) names a larger board, so that none else carries its table. It must
/// be a power of two no larger than [`Kind::MAX`] (checked when the board type is used:
/// a wrong size does not compile). The per-kind sets are indexed by `kind & (K - 1)`,
/// which lets the compiler drop the bounds check: a rules set must only put kinds below
/// `K` (debug builds assert it; a rules set states its kind count against its board
/// at compile time, e.g. the fairy engine's `const` assertion on its piece table).
///
/// ```compile_fail
/// // Not a power of two: refused when compiled.
/// let _ = chimere_core::Board::<12>::empty();
/// ```
/// ```compile_fail
/// // Past `Kind::MAX`: refused when compiled.
/// let _ = chimere_core::Board::<256>::empty();
/// ```
/// ```
/// let b: chimere_core::Board<128> = chimere_core::Board::empty();
/// assert_eq!(chimere_core::Board::<128>::KINDS, 128);
/// assert_eq!(chimere_core::Board::<16>::KINDS, 16);
/// # let _ = b;
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Board<const K: usize = { Kind::ORTHODOX }> {
    squares: [Option<Piece>; 64],
    by_colour: [Bitboard; 3],
    by_kind: [Bitboard; K],
    hash: u64,
}

impl<const K: usize> Default for Board<K> {
    fn default() -> Self {
        Board::empty()
    }
}

impl<const K: usize> Board<K> {
    /// The number of kinds this board holds (its `KINDS`), checked at compile time.
    pub const KINDS: usize = {
        assert!(K.is_power_of_two() && K <= Kind::MAX, "a board holds a power of two of kinds, at most Kind::MAX");
        K
    };
    const MASK: usize = Self::KINDS - 1;
    /// Evaluated by [`Board::empty`], the one constructor, so that a board of a wrong size
    /// is refused at compile time wherever one is made.
    const SIZE_CHECKED: () = assert!(Self::KINDS == K);

    pub const fn empty() -> Board<K> {
        let () = Self::SIZE_CHECKED;
        Board { squares: [None; 64], by_colour: [Bitboard::EMPTY; 3], by_kind: [Bitboard::EMPTY; K], hash: 0 }
    }

    /// The Zobrist key of `p` on `sq` (a board of orthodox size reads the orthodox part of
    /// the table without asking which part).
    #[inline]
    fn key(p: Piece, sq: Square) -> u64 {
        if Self::KINDS <= Kind::ORTHODOX { zobrist::orthodox_piece(p, sq) } else { zobrist::piece(p, sq) }
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
        self.by_kind[k.index() & Self::MASK]
    }
    #[inline]
    pub fn pieces(&self, p: Piece) -> Bitboard {
        self.by_colour[p.colour.index()] & self.by_kind[p.kind.index() & Self::MASK]
    }
    /// The Zobrist hash of the pieces alone.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// The piece hash recomputed from scratch (for checks).
    pub fn recomputed_hash(&self) -> u64 {
        Square::ALL.iter().filter_map(|&s| self.get(s).map(|p| Self::key(p, s))).fold(0, |a, b| a ^ b)
    }

    /// Puts `p` on the empty square `sq`.
    #[inline]
    pub fn put(&mut self, sq: Square, p: Piece) {
        debug_assert!(self.squares[sq.index()].is_none(), "put on occupied {sq}");
        debug_assert!(p.kind.index() < K, "kind {} on a board of {K} kinds", p.kind.index());
        self.squares[sq.index()] = Some(p);
        self.by_colour[p.colour.index()].set(sq);
        self.by_kind[p.kind.index() & Self::MASK].set(sq);
        self.hash ^= Self::key(p, sq);
    }

    /// Removes and returns the piece on `sq`, if any.
    #[inline]
    pub fn take(&mut self, sq: Square) -> Option<Piece> {
        let p = self.squares[sq.index()].take()?;
        self.by_colour[p.colour.index()].clear(sq);
        self.by_kind[p.kind.index() & Self::MASK].clear(sq);
        self.hash ^= Self::key(p, sq);
        Some(p)
    }

    /// Moves the piece on `from` to the empty square `to` and returns it (`None`, and
    /// nothing changed, if `from` is empty): one piece changing square, cheaper than
    /// [`Board::take`] then [`Board::put`].
    #[inline]
    pub fn relocate(&mut self, from: Square, to: Square) -> Option<Piece> {
        let p = self.squares[from.index()].take()?;
        debug_assert!(self.squares[to.index()].is_none(), "relocate to occupied {to}");
        self.squares[to.index()] = Some(p);
        let both = (1u64 << from.index()) | (1u64 << to.index());
        self.by_colour[p.colour.index()].0 ^= both;
        self.by_kind[p.kind.index() & Self::MASK].0 ^= both;
        self.hash ^= Self::key(p, from) ^ Self::key(p, to);
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
        let mut kind = [Bitboard::EMPTY; K];
        for sq in Square::ALL {
            if let Some(p) = self.squares[sq.index()] {
                col[p.colour.index()].set(sq);
                match kind.get_mut(p.kind.index()) {
                    Some(k) => k.set(sq),
                    None => return false,
                }
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
        let mut b: Board = Board::empty();
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

    #[test]
    fn relocate_is_take_then_put() {
        fn check<const K: usize>(kind: Kind) {
            let mut b: Board<K> = Board::empty();
            let (d1, h5, a8) =
                (Square::parse("d1").unwrap(), Square::parse("h5").unwrap(), Square::parse("a8").unwrap());
            let q = Piece::new(Colour::White, kind);
            b.put(d1, q);
            b.put(a8, Piece::new(Colour::Black, Kind(0)));
            let mut slow = b.clone();
            let p = slow.take(d1).unwrap();
            slow.put(h5, p);
            assert_eq!(b.relocate(d1, h5), Some(q));
            assert_eq!(b, slow);
            assert!(b.is_consistent());
            assert_eq!(b.hash(), b.recomputed_hash());
            let empty = b.clone();
            assert_eq!(b.relocate(d1, h5), None, "an empty square moves nothing");
            assert_eq!(b, empty);
        }
        check::<{ Kind::ORTHODOX }>(Kind(4));
        check::<{ Kind::MAX }>(Kind((Kind::MAX - 1) as u8));
    }

    #[test]
    fn boards_of_any_size_hash_orthodox_pieces_alike() {
        let mut small: Board = Board::empty();
        let mut large: Board<{ Kind::MAX }> = Board::empty();
        for (i, sq) in Square::ALL.iter().enumerate().step_by(3) {
            let p = Piece::new(Colour::ALL[i % 3], Kind((i % Kind::ORTHODOX) as u8));
            assert_eq!(zobrist::orthodox_piece(p, *sq), zobrist::piece(p, *sq));
            small.put(*sq, p);
            large.put(*sq, p);
        }
        assert_eq!(small.hash(), large.hash());
        // A kind past the orthodox board has a key of its own on the large board.
        let fairy = Piece::new(Colour::White, Kind(100));
        let e4 = Square::parse("e4").unwrap();
        large.take(e4);
        let before = large.hash();
        large.put(e4, fairy);
        assert_eq!(large.kind(Kind(100)), Bitboard::from_square(e4));
        assert!(large.is_consistent());
        let codes: std::collections::BTreeSet<usize> =
            (0..Kind::MAX).flat_map(|k| Colour::ALL.map(|c| Piece::new(c, Kind(k as u8)).code())).collect();
        assert_eq!(codes.len(), Piece::CODES);
        assert!(codes.iter().all(|&c| c < Piece::CODES));
        assert_ne!(large.hash(), before);
    }
}
