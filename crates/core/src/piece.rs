//! Colours and pieces. A piece kind is a small index whose meaning (and FEN letter) the
//! variant gives; the core only stores and hashes it.

use std::fmt;

/// A piece colour. Besides white and black, a third colour is shared by both players
/// (checkered pieces, neutral pieces); what it means is the rules' business.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
pub enum Colour {
    White = 0,
    Black = 1,
    Shared = 2,
}

impl Colour {
    pub const PLAYERS: [Colour; 2] = [Colour::White, Colour::Black];
    pub const ALL: [Colour; 3] = [Colour::White, Colour::Black, Colour::Shared];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The opponent of a player colour; the shared colour stays shared.
    #[inline]
    pub const fn opponent(self) -> Colour {
        const OPPONENT: [Colour; 3] = [Colour::Black, Colour::White, Colour::Shared];
        OPPONENT[self as usize]
    }

    /// `w` or `b` (the shared colour has no side-to-move letter; `-`).
    pub const fn side_char(self) -> char {
        match self {
            Colour::White => 'w',
            Colour::Black => 'b',
            Colour::Shared => '-',
        }
    }

    /// Rank direction of this player's pawns: +1 for white, -1 for black (0 for shared).
    #[inline]
    pub const fn forward(self) -> i8 {
        match self {
            Colour::White => 1,
            Colour::Black => -1,
            Colour::Shared => 0,
        }
    }
}

/// A piece kind: an index below [`Kind::MAX`], named by the variant.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Kind(pub u8);

/// Piece codes mask kinds by `MAX - 1`, and orthodox boards theirs by `ORTHODOX - 1`.
const _: () = assert!(Kind::MAX.is_power_of_two() && Kind::ORTHODOX.is_power_of_two() && Kind::ORTHODOX <= Kind::MAX);

impl Kind {
    /// Number of distinct kinds there can be (the largest board, [`crate::Board`]`<MAX>`;
    /// the fairy engine's piece table is the largest user).
    pub const MAX: usize = 128;
    /// Number of kinds of the default board, the one every orthodox-based variant keeps.
    pub const ORTHODOX: usize = 16;
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A coloured piece.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Piece {
    pub colour: Colour,
    pub kind: Kind,
}

impl Piece {
    /// Number of distinct piece codes (colour × kind).
    pub const CODES: usize = 3 * Kind::MAX;

    #[inline]
    pub const fn new(colour: Colour, kind: Kind) -> Piece {
        Piece { colour, kind }
    }
    /// A dense index below [`Piece::CODES`]. The kinds of the orthodox board come first,
    /// colour by colour (`16 × colour + kind`, below [`Piece::ORTHODOX_CODES`]); the
    /// larger kinds follow (`3 × kind + colour`), so that an orthodox piece's code, and
    /// so its Zobrist keys, do not depend on how many kinds the largest board holds.
    #[inline]
    pub const fn code(self) -> usize {
        // A kind is below `Kind::MAX` (a power of two): the mask only tells the compiler so.
        let k = self.kind.index() & (Kind::MAX - 1);
        if k < Kind::ORTHODOX { self.colour.index() * Kind::ORTHODOX + k } else { 3 * k + self.colour.index() }
    }
    /// Number of codes of the kinds of the orthodox board (they come first).
    pub const ORTHODOX_CODES: usize = 3 * Kind::ORTHODOX;
}

/// How a variant writes its pieces: the lower-case letter of each kind, and the colour
/// letter of the shared colour in canonical moves (`c` for Checkered).
#[derive(Copy, Clone, Debug)]
pub struct Notation {
    /// `kind_letters[k]` is the lower-case letter of kind `k`.
    pub kind_letters: &'static [u8],
    /// Canonical colour letter of [`Colour::Shared`] pieces.
    pub shared_colour: char,
}

impl Notation {
    pub fn kind_char(&self, kind: Kind) -> char {
        self.kind_letters.get(kind.index()).map_or('?', |&c| c as char)
    }
    pub fn colour_char(&self, colour: Colour) -> char {
        match colour {
            Colour::White => 'w',
            Colour::Black => 'b',
            Colour::Shared => self.shared_colour,
        }
    }
    /// The kind written with this lower-case letter.
    pub fn kind_of(&self, letter: char) -> Option<Kind> {
        let l = letter.to_ascii_lowercase();
        self.kind_letters.iter().position(|&c| c as char == l).map(|i| Kind(i as u8))
    }
    /// Plain FEN letter: upper case for white, lower case otherwise.
    pub fn fen_char(&self, p: Piece) -> char {
        let c = self.kind_char(p.kind);
        if p.colour == Colour::White { c.to_ascii_uppercase() } else { c }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Colour::White => "white",
            Colour::Black => "black",
            Colour::Shared => "shared",
        })
    }
}
