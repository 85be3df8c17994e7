//! Squares of the 8×8 board, numbered a1 = 0 … h8 = 63.

use std::fmt;

/// A square of the 8×8 board: `file + 8 * rank`, a1 = 0, h1 = 7, a8 = 56.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// Every square, a1 first.
    pub const ALL: [Square; 64] = {
        let mut all = [Square(0); 64];
        let mut i = 0;
        while i < 64 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square with this index; `None` unless `index < 64`.
    #[inline]
    pub const fn try_new(index: u8) -> Option<Square> {
        if index < 64 { Some(Square(index)) } else { None }
    }

    /// The square with this index (which must be below 64; checked in debug builds).
    #[inline]
    pub const fn new(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index & 63)
    }

    /// The square on `file` (0 = a) and `rank` (0 = first rank), both below 8.
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Square {
        debug_assert!(file < 8 && rank < 8);
        Square((rank & 7) * 8 + (file & 7))
    }

    /// The square at `(file, rank)` if both lie on the board.
    #[inline]
    pub const fn checked(file: i8, rank: i8) -> Option<Square> {
        if file >= 0 && file < 8 && rank >= 0 && rank < 8 { Some(Square((rank * 8 + file) as u8)) } else { None }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// This square shifted by `(df, dr)`, if still on the board.
    #[inline]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        Square::checked(self.file() as i8 + df, self.rank() as i8 + dr)
    }

    /// The same square seen from the other side (rank mirrored).
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// Whether the square is a light square (h1 is light).
    #[inline]
    pub const fn is_light(self) -> bool {
        (self.file() + self.rank()) % 2 == 1
    }

    /// Parses a square name such as `e4`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = b[0].wrapping_sub(b'a');
        let r = b[1].wrapping_sub(b'1');
        (f < 8 && r < 8).then(|| Square::from_coords(f, r))
    }

    /// The file letter, `a`..`h`.
    pub const fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        f.write_char(self.file_char())?;
        f.write_char((b'1' + self.rank()) as char)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::ALL {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("e4"), Some(Square::from_coords(4, 3)));
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a9"), None);
        assert_eq!(Square::parse("a10"), None);
        assert_eq!(Square::parse("é"), None);
    }

    #[test]
    fn colours_and_offsets() {
        assert!(Square::parse("h1").unwrap().is_light());
        assert!(!Square::parse("a1").unwrap().is_light());
        assert_eq!(Square::parse("a1").unwrap().offset(-1, 0), None);
        assert_eq!(Square::parse("b1").unwrap().offset(1, 2), Square::parse("c3"));
    }
}
