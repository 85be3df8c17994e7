//! Zobrist keys: one per (piece code, square), one for the side to move, and a bank of
//! general-purpose keys for the other state fields (castling flags, en passant, phases...).

use crate::rng::SplitMix64;
use crate::{Piece, Square};

const FIELD_KEYS: usize = 512;

/// `N` random keys from `seed`, at compile time (for rules crates that lay out key
/// tables of their own).
pub const fn random_keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut rng = SplitMix64::new(seed);
    let mut i = 0;
    while i < N {
        let (v, n) = rng.step();
        out[i] = v;
        rng = n;
        i += 1;
    }
    out
}

/// The piece keys, indexed `piece.code() * 64 + square` (a `const` so that rules crates
/// can build their own compile-time layouts of the same keys; lookups go through the
/// `static` copy below, so the array is not copied at run time).
#[allow(clippy::large_const_arrays)]
pub const PIECE_KEYS: [u64; Piece::CODES * 64] = random_keys(0x5EED_0001);
static PIECE_TABLE: [u64; Piece::CODES * 64] = PIECE_KEYS;
static FIELD: [u64; FIELD_KEYS] = random_keys(0x5EED_0002);

/// Key of `piece` standing on `sq`.
#[inline]
pub fn piece(p: Piece, sq: Square) -> u64 {
    PIECE_TABLE[p.code() * 64 + sq.index()]
}

/// The orthodox part of [`PIECE_KEYS`] (codes below [`Piece::ORTHODOX_CODES`]) by colour,
/// kind and square, for boards of orthodox size.
static ORTHODOX_TABLE: [[[u64; 64]; crate::Kind::ORTHODOX]; 3] = {
    let mut t = [[[0u64; 64]; crate::Kind::ORTHODOX]; 3];
    let mut i = 0;
    while i < Piece::ORTHODOX_CODES * 64 {
        t[i / 64 / crate::Kind::ORTHODOX][i / 64 % crate::Kind::ORTHODOX][i % 64] = PIECE_KEYS[i];
        i += 1;
    }
    t
};

/// [`piece`] for a piece of the orthodox board (kind below [`crate::Kind::ORTHODOX`]):
/// the same key, without the test for the larger kinds.
#[inline]
pub fn orthodox_piece(p: Piece, sq: Square) -> u64 {
    ORTHODOX_TABLE[p.colour.index()][p.kind.index() & (crate::Kind::ORTHODOX - 1)][sq.index()]
}

/// Key toggled when black is to move.
pub const SIDE: u64 = 0x8F2A_47C5_6E1D_93B7;

/// A general key for state field number `i` (below 512). Variants assign their own
/// numbering, e.g. castling flag `k` at `k`, en passant file `f` at `16 + f`.
#[inline]
pub fn field(i: usize) -> u64 {
    FIELD[i % FIELD_KEYS]
}

/// The key of castling right `slot` (white queen side, white king side, black queen
/// side, black king side) held with the rook on `file`. The one castling key of every
/// orthodox-based engine (the chess crate and the fairy engine hash equal positions
/// equally).
#[inline]
pub fn castling(slot: usize, file: u8) -> u64 {
    field(slot * 8 + (file as usize & 7))
}

/// The en passant key: the key of `target` when a capture onto it is possible, i.e. when
/// `capturers` (the pawns of the side to move, as a bitboard) holds a pawn attacking
/// `target` — pseudo-legal: a pinned pawn still counts. Otherwise 0, so that a position
/// reached after a double step nobody can take hashes like the same position reached
/// by other moves (repetitions through transpositions).
#[inline]
pub fn en_passant(target: crate::Square, side_to_move: crate::Colour, capturers: crate::Bitboard) -> u64 {
    if (crate::attacks::pawn(side_to_move == crate::Colour::Black, target) & capturers).any() {
        en_passant_square(target)
    } else {
        0
    }
}

/// The key of an en passant square, whether or not a capture is possible (for engines
/// that cannot tell, e.g. under fairy rules).
#[inline]
pub fn en_passant_square(target: crate::Square) -> u64 {
    field(32 + target.index())
}
