//! Geometry tables for Dynamo: rays by direction, the direction between two aligned
//! squares, and the "danger" masks of the Dynamo check (squares from which a knight, a
//! pawn or a king could push or pull a king on a given square off the board).

use std::sync::LazyLock;

/// The eight line directions as (file, rank) steps: E, NE, N, NW, W, SW, S, SE.
/// Orthogonal directions have even indices; `d ^ 4` is the opposite direction.
pub const DIRS: [(i8, i8); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
/// No direction (squares not aligned).
pub const NO_DIR: u8 = 8;

/// Knight vectors.
pub const KNIGHT_VECS: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

#[inline]
pub const fn opposite(d: u8) -> u8 {
    d ^ 4
}

#[inline]
pub const fn is_orth(d: u8) -> bool {
    d & 1 == 0
}

/// Square `sq` moved by `(df, dr)` if it stays on the board.
#[inline]
pub fn offset(sq: usize, df: i8, dr: i8) -> Option<usize> {
    let f = (sq & 7) as i8 + df;
    let r = (sq >> 3) as i8 + dr;
    if (0..8).contains(&f) && (0..8).contains(&r) { Some((r * 8 + f) as usize) } else { None }
}

pub struct Tables {
    /// `ray[d][sq]`: squares from `sq` (excluded) in direction `d` to the edge.
    pub ray: [[u64; 64]; 8],
    /// `dir[a][b]`: direction from `a` to `b` if aligned, else [`NO_DIR`].
    pub dir: [[u8; 64]; 64],
    /// Knight squares around `k` from which a knight threatens to push or pull `k` off.
    pub knight_danger: [u64; 64],
    /// King squares around `k` from which a king threatens to push `k` off.
    pub king_danger: [u64; 64],
    /// `pawn_danger[colour][k]`: squares of `colour`'s pawns threatening to push `k` off.
    pub pawn_danger: [[u64; 64]; 2],
    /// Whether a knight on `sq` has a step leading off the board.
    pub knight_exit: [bool; 64],
}

fn build() -> Tables {
    let mut t = Tables {
        ray: [[0; 64]; 8],
        dir: [[NO_DIR; 64]; 64],
        knight_danger: [0; 64],
        king_danger: [0; 64],
        pawn_danger: [[0; 64]; 2],
        knight_exit: [false; 64],
    };
    for sq in 0..64 {
        for (d, &(df, dr)) in DIRS.iter().enumerate() {
            let mut cur = sq;
            while let Some(n) = offset(cur, df, dr) {
                t.ray[d][sq] |= 1 << n;
                t.dir[sq][n] = d as u8;
                cur = n;
            }
        }
        for &(df, dr) in &KNIGHT_VECS {
            let Some(n) = offset(sq, df, dr) else {
                t.knight_exit[sq] = true;
                continue;
            };
            // A knight on n = sq + s: pulls sq off when n + s is off the board, pushes it
            // off when sq - s is off the board.
            if offset(n, df, dr).is_none() || offset(sq, -df, -dr).is_none() {
                t.knight_danger[sq] |= 1 << n;
            }
        }
        let on_edge = |s: usize| s & 7 == 0 || s & 7 == 7 || s >> 3 == 0 || s >> 3 == 7;
        for &(df, dr) in &DIRS {
            let Some(n) = offset(sq, df, dr) else { continue };
            if on_edge(sq) && !on_edge(n) {
                t.king_danger[sq] |= 1 << n;
            }
        }
        for (ci, fwd) in [(0usize, 1i8), (1, -1)] {
            // A pawn of this colour on p = sq - (±1, fwd) pushes sq to sq + (±1, fwd).
            for df in [-1i8, 1] {
                let Some(p) = offset(sq, -df, -fwd) else { continue };
                if offset(sq, df, fwd).is_none() {
                    t.pawn_danger[ci][sq] |= 1 << p;
                }
            }
        }
    }
    t
}

pub static T: LazyLock<Box<Tables>> = LazyLock::new(|| Box::new(build()));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rays_and_dirs() {
        let t = &*T;
        // a1 north: a2..a8
        assert_eq!(t.ray[2][0], 0x0101_0101_0101_0100);
        assert_eq!(t.dir[0][63], 1);
        assert_eq!(t.dir[0][10], NO_DIR);
        assert!(t.knight_exit[0]);
        assert!(!t.knight_exit[27]);
        // king on a1: danger from b2 only (a2, b1 are edge squares)
        assert_eq!(t.king_danger[0], 1 << 9);
        // white pawn on b7 pushes a king on a8 off; on g7 a king on h8.
        assert!(t.pawn_danger[0][56] & (1 << 49) != 0);
        assert_eq!(t.pawn_danger[0][27], 0);
    }
}
