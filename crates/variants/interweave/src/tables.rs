//! Constant step tables, built at compile time.
//!
//! Directions 0..4 are orthogonal (east, north, west, south), 4..8 diagonal (north-east,
//! north-west, south-west, south-east). [`NONE`] marks a step off the board.

/// "No square": a step off the board.
pub const NONE: u8 = 64;

/// `(file, rank)` deltas of the eight directions.
pub const DIRS: [(i8, i8); 8] = [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (-1, -1), (1, -1)];

/// Index of the opposite direction.
pub const fn opposite(d: usize) -> usize {
    if d < 4 { (d + 2) % 4 } else { 4 + (d - 4 + 2) % 4 }
}

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

const fn build_rays() -> [[u64; 64]; 4] {
    let mut t = [[0u64; 64]; 4];
    let mut d = 0;
    while d < 4 {
        let mut s = 0;
        while s < 64 {
            let mut n = offset(s as u8, DIRS[d].0, DIRS[d].1);
            while n != NONE {
                t[d][s] |= 1 << n;
                n = offset(n, DIRS[d].0, DIRS[d].1);
            }
            s += 1;
        }
        d += 1;
    }
    t
}

/// `RAY[d][sq]`: the squares beyond `sq` in orthogonal direction `d`.
pub static RAY: [[u64; 64]; 4] = build_rays();

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
        assert_eq!(RAY[1][0].count_ones(), 7);
        // a1: double knight to c5 (mid b3) and e3 (mid c2).
        let dk: Vec<_> = DOUBLE_KNIGHT[0].iter().filter(|x| x.0 != NONE).copied().collect();
        assert_eq!(dk, vec![(17, 34), (10, 20)]);
        for d in 0..8 {
            assert_eq!(opposite(opposite(d)), d);
            assert_eq!(DIRS[opposite(d)].0, -DIRS[d].0);
        }
        // a1 enemy on b1, friend on c1: a1 is a sandwich square.
        assert_eq!(sandwiches(1 << 1, 1 << 2) & 1, 1);
        assert_eq!(sandwiches(1 << 8, 1 << 16) & 1, 1);
        assert_eq!(sandwiches(1 << 7, 1 << 8), 0);
    }
}
