//! Small bitboard helpers on raw `u64` sets: the eight one-step shifts, the neighbourhood
//! spread used for immobilization, protection and archer spotting, and per-direction ray
//! tables. (Generic; could move to the core later.)

/// Every square but the a-file.
pub const NOT_A: u64 = !0x0101_0101_0101_0101;
/// Every square but the h-file.
pub const NOT_H: u64 = !0x8080_8080_8080_8080;
/// The eighth rank.
pub const RANK_8: u64 = 0xFF00_0000_0000_0000;
/// The first rank.
pub const RANK_1: u64 = 0xFF;

/// The eight directions: N, S, E, W, NE, NW, SE, SW, as (file, rank) steps.
pub const DIRS: [(i8, i8); 8] = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)];
/// Square-index offset of each direction.
pub const OFFSET: [i8; 8] = [8, -8, 1, -1, 9, 7, -7, -9];
/// The opposite of each direction.
pub const OPP: [usize; 8] = [1, 0, 3, 2, 7, 6, 5, 4];

/// The set `b` moved one step in direction `d` (squares falling off the board vanish).
#[inline(always)]
pub const fn shift(b: u64, d: usize) -> u64 {
    match d {
        0 => b << 8,
        1 => b >> 8,
        2 => (b & NOT_H) << 1,
        3 => (b & NOT_A) >> 1,
        4 => (b & NOT_H) << 9,
        5 => (b & NOT_A) << 7,
        6 => (b & NOT_H) >> 7,
        _ => (b & NOT_A) >> 9,
    }
}

/// The union of the eight neighbourhoods of the squares of `b` (a square of `b` is in the
/// result only if it neighbours another square of `b`).
#[inline(always)]
pub const fn spread(b: u64) -> u64 {
    let h = ((b & NOT_H) << 1) | ((b & NOT_A) >> 1);
    let v = b | h;
    h | (v << 8) | (v >> 8)
}

const fn ray_table() -> [[u64; 64]; 8] {
    let mut t = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut s = 0;
        while s < 64 {
            let mut b = 0u64;
            let mut f = (s % 8) as i8 + DIRS[d].0;
            let mut r = (s / 8) as i8 + DIRS[d].1;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                b |= 1 << (r * 8 + f);
                f += DIRS[d].0;
                r += DIRS[d].1;
            }
            t[d][s] = b;
            s += 1;
        }
        d += 1;
    }
    t
}

/// `RAY[d][s]`: the squares strictly beyond `s` in direction `d`, to the edge.
pub static RAY: [[u64; 64]; 8] = ray_table();

const fn near_table(radius: i8) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        let (f0, r0) = ((s % 8) as i8, (s / 8) as i8);
        let mut b = 0u64;
        let mut x = 0;
        while x < 64 {
            let (f, r) = ((x % 8) as i8, (x / 8) as i8);
            let df = if f > f0 { f - f0 } else { f0 - f };
            let dr = if r > r0 { r - r0 } else { r0 - r };
            if x != s && df <= radius && dr <= radius {
                b |= 1 << x;
            }
            x += 1;
        }
        t[s] = b;
        s += 1;
    }
    t
}

/// `NEAR1[s]`: the (up to) eight neighbours of `s`.
pub static NEAR1: [u64; 64] = near_table(1);
/// `NEAR2[s]`: the squares at king distance 1 or 2 from `s`.
pub static NEAR2: [u64; 64] = near_table(2);

/// Iterates the squares of a set, lowest first.
#[derive(Copy, Clone)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u8;
    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            let s = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(s)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_neighbours(b: u64) -> u64 {
        let mut out = 0;
        for s in Bits(b) {
            out |= NEAR1[s as usize];
        }
        out
    }

    #[test]
    fn shifts_and_spread_agree_with_tables() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..500 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let b = x & x.rotate_left(17);
            assert_eq!(spread(b), naive_neighbours(b));
            for (d, rays) in RAY.iter().enumerate() {
                let mut want = 0;
                for s in Bits(b) {
                    // The first square of the ray is the one whose own ray is the rest.
                    let ray = rays[s as usize];
                    for t in Bits(ray) {
                        if rays[t as usize] | (1 << t) == ray {
                            want |= 1 << t;
                        }
                    }
                }
                assert_eq!(shift(b, d), want, "direction {d}");
            }
        }
        assert_eq!(NEAR2[0].count_ones(), 8);
        assert_eq!(NEAR2[27].count_ones(), 24);
        assert_eq!(RAY[4][0].count_ones(), 7);
    }
}
