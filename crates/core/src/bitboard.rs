//! 64-bit square sets.

use crate::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares, bit `i` = square `i`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, Debug)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(!0);
    pub const LIGHT: Bitboard = Bitboard(0x55AA_55AA_55AA_55AA);
    pub const DARK: Bitboard = Bitboard(!0x55AA_55AA_55AA_55AA);
    /// The squares on the edge of the board.
    pub const EDGES: Bitboard = Bitboard(0xFF81_8181_8181_81FF);

    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }
    #[inline]
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(0xFF << (8 * rank))
    }
    #[inline]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file)
    }
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }
    #[inline]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }
    /// The lowest square of the set, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 { None } else { Some(Square::new(self.0.trailing_zeros() as u8)) }
    }
    #[inline]
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1 << sq.index();
    }
    #[inline]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1 << sq.index());
    }
    #[inline]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1 << sq.index();
    }
    /// Removes and returns the lowest square.
    #[inline]
    pub fn pop(&mut self) -> Option<Square> {
        let s = self.first()?;
        self.0 &= self.0 - 1;
        Some(s)
    }
    /// Shifted one rank up (toward rank 8).
    #[inline]
    pub const fn up(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }
    /// Shifted one rank down (toward rank 1).
    #[inline]
    pub const fn down(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        self.pop()
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! bitop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, o: Bitboard) -> Bitboard {
                Bitboard(self.0 $op o.0)
            }
        }
        impl $atr for Bitboard {
            #[inline]
            fn $af(&mut self, o: Bitboard) {
                self.0 = self.0 $op o.0;
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_and_colours() {
        let b = Bitboard(0b1010_0001);
        let v: Vec<_> = b.map(|s| s.index()).collect();
        assert_eq!(v, vec![0, 5, 7]);
        for sq in Square::ALL {
            assert_eq!(Bitboard::LIGHT.has(sq), sq.is_light());
            let edge = sq.file() == 0 || sq.file() == 7 || sq.rank() == 0 || sq.rank() == 7;
            assert_eq!(Bitboard::EDGES.has(sq), edge);
        }
        assert!(Bitboard(3).more_than_one());
        assert!(!Bitboard(4).more_than_one());
    }
}
