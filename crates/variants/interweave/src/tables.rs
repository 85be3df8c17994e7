//! Constant step tables, built at compile time.
//!
//! Directions 0..4 are orthogonal (east, north, west, south), 4..8 diagonal (north-east,
//! north-west, south-west, south-east). [`NONE`] marks a step off the board.

/// "No square": a step off the board.
pub const NONE: u8 = 64;

/// `(file, rank)` deltas of the eight directions.
pub const DIRS: [(i8, i8); 8] = [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (-1, -1), (1, -1)];

const fn offset(sq: u8, df: i8, dr: i8) -> u8 {
    let f = (sq & 7) as i8 + df;
    let r = (sq >> 3) as i8 + dr;
    if f >= 0 && f < 8 && r >= 0 && r < 8 { (r * 8 + f) as u8 } else { NONE }
}

const fn build_step() -> [[u8; 64]; 8] {
    let mut t = [[NONE; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut s = 0;
        while s < 64 {
            t[d][s] = offset(s as u8, DIRS[d].0, DIRS[d].1);
            s += 1;
        }
        d += 1;
    }
    t
}

/// `STEP[d][sq]`: the neighbour of `sq` in direction `d`, or [`NONE`].
pub static STEP: [[u8; 64]; 8] = build_step();

const fn build_adj(first: usize) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        let mut d = first;
        while d < first + 4 {
            let n = offset(s as u8, DIRS[d].0, DIRS[d].1);
            if n != NONE {
                t[s] |= 1 << n;
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// Orthogonally adjacent squares.
pub static ORTH_ADJ: [u64; 64] = build_adj(0);
/// Diagonally adjacent squares.
pub static DIAG_ADJ: [u64; 64] = build_adj(4);

const KNIGHT: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

const fn build_double_knight() -> [[(u8, u8); 8]; 64] {
    let mut t = [[(NONE, NONE); 8]; 64];
    let mut s = 0;
    while s < 64 {
        let mut k = 0;
        let mut n = 0;
        while k < 8 {
            let to = offset(s as u8, 2 * KNIGHT[k].0, 2 * KNIGHT[k].1);
            if to != NONE {
                t[s][n] = (offset(s as u8, KNIGHT[k].0, KNIGHT[k].1), to);
                n += 1;
            }
            k += 1;
        }
        s += 1;
    }
    t
}

/// `DOUBLE_KNIGHT[sq]`: `(midpoint, target)` of each double knight jump from `sq` that
/// stays on the board, then `(NONE, NONE)` fillers.
pub static DOUBLE_KNIGHT: [[(u8, u8); 8]; 64] = build_double_knight();

/// Squares of `b` moved one step east (dropping the h-file).
#[inline]
pub const fn east(b: u64) -> u64 {
    (b << 1) & !0x0101_0101_0101_0101
}
/// Squares of `b` moved one step west (dropping the a-file).
#[inline]
pub const fn west(b: u64) -> u64 {
    (b >> 1) & !0x8080_8080_8080_8080
}

/// The squares `t` such that, for some orthogonal direction `d`, `t + d` is in `mid` and
/// `t + 2d` is in `far` (the custodian pattern: arrival, enemy, friend).
#[inline]
pub const fn sandwiches(mid: u64, far: u64) -> u64 {
    west(mid & west(far)) | east(mid & east(far)) | ((mid & (far >> 8)) >> 8) | ((mid & (far << 8)) << 8)
}

const fn build_piece_keys() -> [[u64; 64]; 16] {
    // The same keys as `chimere_core::zobrist::piece` (core piece code = 16 × colour +
    // kind), laid out by this crate's piece code `1 + 8 × colour + kind`.
    let core = chimere_core::zobrist::PIECE_KEYS;
    let mut t = [[0u64; 64]; 16];
    let mut c = 1;
    while c < 16 {
        let colour = (c - 1) >> 3;
        let kind = (c - 1) & 7;
        let mut s = 0;
        while s < 64 {
            t[c][s] = core[(colour * 16 + kind) * 64 + s];
            s += 1;
        }
        c += 1;
    }
    t
}

/// `PIECE_KEYS[code][sq]`: Zobrist key of a piece (crate code) on a square.
pub static PIECE_KEYS: [[u64; 64]; 16] = build_piece_keys();

const EXTRA: [u64; 128] = chimere_core::zobrist::random_keys(0x1A7E_2002);

const fn build_ep_keys() -> [u64; 65] {
    let mut t = [0u64; 65];
    let mut s = 0;
    while s < 64 {
        t[s] = EXTRA[s];
        s += 1;
    }
    t
}

/// Key of the en-passant skipped square (index 64 = none: 0).
pub static EP_SQUARE_KEYS: [u64; 65] = build_ep_keys();

const fn build_ep_file_keys() -> [u64; 9] {
    let mut t = [0u64; 9];
    let mut f = 0;
    while f < 8 {
        t[f] = EXTRA[64 + f];
        f += 1;
    }
    t
}

/// Key of the en-passant arrival file (index 8 = none: 0).
pub static EP_FILE_KEYS: [u64; 9] = build_ep_file_keys();

const fn build_count_keys() -> [[u64; 16]; 6] {
    let raw: [u64; 96] = chimere_core::zobrist::random_keys(0x1A7E_2003);
    let mut t = [[0u64; 16]; 6];
    let mut i = 0;
    while i < 96 {
        t[i / 16][i % 16] = raw[i];
        i += 1;
    }
    t
}

/// `COUNT_KEYS[counter][value & 15]`: keys of the captured counters.
pub static COUNT_KEYS: [[u64; 16]; 6] = build_count_keys();

/// The light squares (h1 is light).
pub const LIGHT: u64 = 0x55AA_55AA_55AA_55AA;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sane() {
        assert_eq!(STEP[0][7], NONE);
        assert_eq!(STEP[1][0], 8);
        assert_eq!(ORTH_ADJ[0], (1 << 1) | (1 << 8));
        assert_eq!(DIAG_ADJ[0], 1 << 9);
        // a1: double knight to c5 (mid b3) and e3 (mid c2).
        let dk: Vec<_> = DOUBLE_KNIGHT[0].iter().filter(|x| x.0 != NONE).copied().collect();
        assert_eq!(dk, vec![(17, 34), (10, 20)]);
        for c in 1..16u8 {
            let colour = if (c - 1) >> 3 == 0 { chimere_core::Colour::White } else { chimere_core::Colour::Black };
            let p = chimere_core::Piece::new(colour, chimere_core::Kind((c - 1) & 7));
            for s in [0u8, 17, 63] {
                assert_eq!(
                    PIECE_KEYS[c as usize][s as usize],
                    chimere_core::zobrist::piece(p, chimere_core::Square::new(s))
                );
            }
        }
        assert_eq!(EP_SQUARE_KEYS[64], 0);
        assert_eq!(EP_FILE_KEYS[8], 0);
        // a1 enemy on b1, friend on c1: a1 is a sandwich square.
        assert_eq!(sandwiches(1 << 1, 1 << 2) & 1, 1);
        assert_eq!(sandwiches(1 << 8, 1 << 16) & 1, 1);
        assert_eq!(sandwiches(1 << 7, 1 << 8), 0);
    }
}
