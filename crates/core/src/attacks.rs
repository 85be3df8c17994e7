//! Attack tables for the standard walks: leapers (knight, king, pawn) by lookup, sliders
//! (rook, bishop, queen) by magic bitboards found once at start-up, and the `between` and
//! `line` tables used for pins and checks.

use crate::rng::SplitMix64;
use crate::{Bitboard, Square};
use std::sync::LazyLock;

/// The eight knight steps.
pub const KNIGHT_STEPS: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
/// The eight king steps.
pub const KING_STEPS: [(i8, i8); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
/// Orthogonal directions.
pub const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
/// Diagonal directions.
pub const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

const fn leaper_table(steps: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut t = [Bitboard::EMPTY; 64];
    let mut i = 0;
    while i < 64 {
        let sq = Square::new(i as u8);
        let mut b = 0u64;
        let mut k = 0;
        while k < steps.len() {
            if let Some(to) = sq.offset(steps[k].0, steps[k].1) {
                b |= 1 << to.index();
            }
            k += 1;
        }
        t[i] = Bitboard(b);
        i += 1;
    }
    t
}

static KNIGHT: [Bitboard; 64] = leaper_table(&KNIGHT_STEPS);
static KING: [Bitboard; 64] = leaper_table(&KING_STEPS);
static PAWN: [[Bitboard; 64]; 2] = [leaper_table(&[(-1, 1), (1, 1)]), leaper_table(&[(-1, -1), (1, -1)])];

/// Squares a knight on `sq` attacks.
#[inline]
pub fn knight(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}
/// Squares a king on `sq` attacks.
#[inline]
pub fn king(sq: Square) -> Bitboard {
    KING[sq.index()]
}
/// Squares a pawn on `sq` attacks; `upward` = moving toward rank 8 (white in chess).
#[inline]
pub fn pawn(upward: bool, sq: Square) -> Bitboard {
    PAWN[(!upward) as usize][sq.index()]
}

/// Slider attacks computed ray by ray (slow; used to build tables and as a reference).
pub fn slide(sq: Square, dirs: &[(i8, i8)], occupied: Bitboard) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    for &(df, dr) in dirs {
        let mut cur = sq;
        while let Some(n) = cur.offset(df, dr) {
            b.set(n);
            if occupied.has(n) {
                break;
            }
            cur = n;
        }
    }
    b
}

#[derive(Clone, Copy, Default)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

struct Tables {
    rook: [Magic; 64],
    bishop: [Magic; 64],
    slider: Vec<Bitboard>,
    between: Vec<Bitboard>,
    line: Vec<Bitboard>,
}

fn relevant_mask(sq: Square, dirs: &[(i8, i8)]) -> u64 {
    let mut b = 0u64;
    for &(df, dr) in dirs {
        let mut cur = sq;
        while let Some(n) = cur.offset(df, dr) {
            if n.offset(df, dr).is_none() {
                break;
            }
            b |= 1 << n.index();
            cur = n;
        }
    }
    b
}

fn find_magic(sq: Square, dirs: &[(i8, i8)], rng: &mut SplitMix64, table: &mut Vec<Bitboard>) -> Magic {
    let mask = relevant_mask(sq, dirs);
    let bits = mask.count_ones();
    let size = 1usize << bits;
    // Enumerate every subset of the mask (Carry-Rippler) with its attack set.
    let mut occs = Vec::with_capacity(size);
    let mut atts = Vec::with_capacity(size);
    let mut sub = 0u64;
    loop {
        occs.push(sub);
        atts.push(slide(sq, dirs, Bitboard(sub)));
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
    let shift = 64 - bits;
    let offset = table.len();
    table.resize(offset + size, Bitboard::EMPTY);
    let mut used = vec![0u32; size];
    let mut attempt = 0u32;
    loop {
        attempt += 1;
        let magic = rng.next_u64() & rng.next_u64() & rng.next_u64();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        let mut ok = true;
        for (i, &occ) in occs.iter().enumerate() {
            let idx = (occ.wrapping_mul(magic) >> shift) as usize;
            if used[idx] != attempt {
                used[idx] = attempt;
                table[offset + idx] = atts[i];
            } else if table[offset + idx] != atts[i] {
                ok = false;
                break;
            }
        }
        if ok {
            return Magic { mask, magic, shift, offset: offset as u32 };
        }
    }
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let mut rng = SplitMix64::new(0x0C41_4D45_5245);
    let mut slider = Vec::with_capacity(108_000);
    let mut rook = [Magic::default(); 64];
    let mut bishop = [Magic::default(); 64];
    for sq in Square::ALL {
        rook[sq.index()] = find_magic(sq, &ROOK_DIRS, &mut rng, &mut slider);
        bishop[sq.index()] = find_magic(sq, &BISHOP_DIRS, &mut rng, &mut slider);
    }
    let mut between = vec![Bitboard::EMPTY; 64 * 64];
    let mut line = vec![Bitboard::EMPTY; 64 * 64];
    for a in Square::ALL {
        for &(df, dr) in ROOK_DIRS.iter().chain(BISHOP_DIRS.iter()) {
            let mut path = Bitboard::EMPTY;
            let mut cur = a;
            let full = {
                let mut f = Bitboard::from_square(a);
                let mut c = a;
                while let Some(n) = c.offset(df, dr) {
                    f.set(n);
                    c = n;
                }
                c = a;
                while let Some(n) = c.offset(-df, -dr) {
                    f.set(n);
                    c = n;
                }
                f
            };
            while let Some(n) = cur.offset(df, dr) {
                between[a.index() * 64 + n.index()] = path;
                line[a.index() * 64 + n.index()] = full;
                path.set(n);
                cur = n;
            }
        }
    }
    Tables { rook, bishop, slider, between, line }
});

#[inline]
fn magic_lookup(t: &Tables, m: &Magic, occupied: Bitboard) -> Bitboard {
    let idx = ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    t.slider[m.offset as usize + idx]
}

/// Rook attacks from `sq` given the occupied squares.
#[inline]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    let t = &*TABLES;
    magic_lookup(t, &t.rook[sq.index()], occupied)
}

/// Bishop attacks from `sq` given the occupied squares.
#[inline]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    let t = &*TABLES;
    magic_lookup(t, &t.bishop[sq.index()], occupied)
}

/// Queen attacks from `sq` given the occupied squares.
#[inline]
pub fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    rook(sq, occupied) | bishop(sq, occupied)
}

/// The squares strictly between `a` and `b` if they share a line, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    TABLES.between[a.index() * 64 + b.index()]
}

/// The whole line (edge to edge) through `a` and `b` if they share one, else empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    TABLES.line[a.index() * 64 + b.index()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    #[test]
    fn magics_agree_with_ray_walks() {
        let mut rng = SplitMix64::new(99);
        for _ in 0..2000 {
            let occ = Bitboard(rng.next_u64() & rng.next_u64());
            let sq = Square::new(rng.below(64) as u8);
            assert_eq!(rook(sq, occ), slide(sq, &ROOK_DIRS, occ));
            assert_eq!(bishop(sq, occ), slide(sq, &BISHOP_DIRS, occ));
        }
    }

    #[test]
    fn leapers_and_lines() {
        let a1 = Square::parse("a1").unwrap();
        let h8 = Square::parse("h8").unwrap();
        assert_eq!(knight(a1).count(), 2);
        assert_eq!(king(a1).count(), 3);
        assert_eq!(between(a1, h8).count(), 6);
        assert_eq!(line(a1, Square::parse("c3").unwrap()).count(), 8);
        assert!(between(a1, Square::parse("b3").unwrap()).is_empty());
        assert_eq!(pawn(true, Square::parse("e4").unwrap()).count(), 2);
        assert!(pawn(false, Square::parse("e4").unwrap()).has(Square::parse("d3").unwrap()));
    }
}
