//! Attack tables for the standard walks: leapers (knight, king, pawn) by lookup, sliders
//! (rook, bishop, queen) by magic bitboards with committed multipliers, and the `between`
//! and `line` tables used for pins and checks. All are computed at compile time (the
//! WebAssembly build fills the slider table at first use instead).

use crate::{Bitboard, Square};

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

/// Magic multipliers found by a search with this module's seed (regenerate with
/// `cargo test -p chimere-core print_magics -- --ignored --nocapture`). A wrong one stops
/// the build: the table is filled at compile time and refuses a harmful collision.
const ROOK_MAGICS: [u64; 64] = [
    0x0200110042002082,
    0x0040200040001001,
    0x020010200A008041,
    0x0100200500081000,
    0x0E00284420100200,
    0x0280018004000200,
    0x12000C0512A20008,
    0x008004B080004300,
    0x0120800040008021,
    0x8022002086050049,
    0x0482001540822200,
    0x0401801801801001,
    0x0009000500C80030,
    0x9012001008040200,
    0x2004003448111002,
    0x0001000848860D00,
    0x0800848000400824,
    0x4911010040002080,
    0x4038420020820010,
    0xC00012000A002040,
    0x0000808008000400,
    0x00A6008100040080,
    0xA000808001000200,
    0x0088020000812054,
    0x0880010300208440,
    0x0010400100210091,
    0x0445014100122000,
    0x1010004040080400,
    0x0010080080040080,
    0x2408020080040080,
    0x1400020080800100,
    0x0824004200008104,
    0x0000400088800020,
    0x0000200088804001,
    0x8010002400200801,
    0x0080800800801002,
    0x212C004008080080,
    0x0026001004040020,
    0x0001000401000200,
    0x00110000450000AA,
    0x0480004020004001,
    0x1000408201020020,
    0x0002004080120020,
    0x8008002010010100,
    0x0001020800110004,
    0x400A001008020005,
    0x020C900108640002,
    0x0008004891020024,
    0x0420800020400080,
    0x0800290200408600,
    0x0010080400200020,
    0x2005000820100100,
    0x001A040082080080,
    0x2211000400180300,
    0x0000010230880400,
    0x28010C0081185200,
    0x8108142040800101,
    0x1082288011044001,
    0x1082104200A10882,
    0x0102900020340901,
    0x0009002608001015,
    0x0005000400020801,
    0x801008290200D004,
    0x0023000040208201,
];

const BISHOP_MAGICS: [u64; 64] = [
    0x0862084200840900,
    0x4108084084004204,
    0x800802004A015120,
    0x0254440080202045,
    0x004C030801000000,
    0x400201100A201028,
    0x4201010121202000,
    0x030C240042082000,
    0x0000100308210400,
    0x8002500428004258,
    0x0408100440822848,
    0x0020022082000008,
    0x0082420211100000,
    0x8222020222602102,
    0x01040A1210040506,
    0x0280402084100800,
    0x00E108C808108082,
    0x04200013B8020081,
    0x01040148024C0808,
    0x1208000982094000,
    0x0004000080E01000,
    0x8200404808080400,
    0x0802000100900424,
    0x0001000324014404,
    0xC00840A022024208,
    0x22A8421820049100,
    0x2004040282080014,
    0x80840101A0200880,
    0x0819010100104000,
    0x1A22020203209000,
    0x2A04504026880410,
    0x0A49260005008080,
    0x4008080500082001,
    0x8004220800221082,
    0x0001404841100400,
    0x0800020080080080,
    0x0141010400260020,
    0x080408088A020088,
    0x0004081204408080,
    0x0004070324004402,
    0x9068082808400600,
    0x0806211012008800,
    0x22C1008250001102,
    0x001B10A018080500,
    0x2000081104001040,
    0x084040C081000080,
    0x4060040942004440,
    0x0818008420450288,
    0x0041008220210280,
    0x001C440404030004,
    0x4104002201100006,
    0x0042240042022408,
    0x0000009002020410,
    0x0210438408008100,
    0x0908218404004802,
    0x812202D80203802C,
    0x0002084400841000,
    0x000281030882A022,
    0x8002200884008800,
    0xA895020045421200,
    0x81452091C0050102,
    0x8004204048012904,
    0x0100080224481200,
    0x0610901010802840,
];

#[derive(Clone, Copy)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

/// The squares a slider on `sq` moving along `dirs` reaches with `occupied` as the
/// blockers; with `inner`, only the squares before the board's edge on each ray (the
/// occupancy that matters to a magic lookup).
const fn ray_walk(sq: Square, dirs: &[(i8, i8); 4], occupied: u64, inner: bool) -> u64 {
    // Plain integer steps: this runs for every table entry in the compiler's evaluator.
    let (f0, r0) = (sq.index() as i8 % 8, sq.index() as i8 / 8);
    let mut b = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            if inner && !(f + df >= 0 && f + df < 8 && r + dr >= 0 && r + dr < 8) {
                break;
            }
            let bit = 1u64 << (r * 8 + f);
            b |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    b
}

/// The relevant-occupancy mask of a slider on `sq`.
const fn relevant_mask(sq: Square, dirs: &[(i8, i8); 4]) -> u64 {
    ray_walk(sq, dirs, 0, true)
}

/// The magic entries of one slider (offsets into the slider table from `base`).
const fn magics(dirs: &[(i8, i8); 4], multipliers: &[u64; 64], base: usize) -> [Magic; 64] {
    let mut out = [Magic { mask: 0, magic: 0, shift: 0, offset: 0 }; 64];
    let mut offset = base;
    let mut i = 0;
    while i < 64 {
        let mask = relevant_mask(Square::new(i as u8), dirs);
        let bits = mask.count_ones();
        out[i] = Magic { mask, magic: multipliers[i], shift: 64 - bits, offset: offset as u32 };
        offset += 1 << bits;
        i += 1;
    }
    out
}

/// Entries the slider table of `dirs` takes (one block of 2^bits per square).
const fn table_len(dirs: &[(i8, i8); 4]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < 64 {
        n += 1 << relevant_mask(Square::new(i as u8), dirs).count_ones();
        i += 1;
    }
    n
}

const ROOK_LEN: usize = table_len(&ROOK_DIRS);
const SLIDER_LEN: usize = ROOK_LEN + table_len(&BISHOP_DIRS);
static ROOK_MAGIC: [Magic; 64] = magics(&ROOK_DIRS, &ROOK_MAGICS, 0);
static BISHOP_MAGIC: [Magic; 64] = magics(&BISHOP_DIRS, &BISHOP_MAGICS, ROOK_LEN);

/// Fills the slider table: every subset of every square's mask (Carry-Rippler) at the
/// index its multiplier gives. Two subsets with different attack sets on one index (a
/// wrong multiplier) panic: at compile time for the native table.
const fn fill_slider(table: &mut [Bitboard; SLIDER_LEN]) {
    let mut i = 0;
    while i < 128 {
        let (m, dirs) = if i < 64 { (&ROOK_MAGIC[i], &ROOK_DIRS) } else { (&BISHOP_MAGIC[i - 64], &BISHOP_DIRS) };
        let sq = Square::new((i % 64) as u8);
        let mut sub = 0u64;
        loop {
            let idx = m.offset as usize + (sub.wrapping_mul(m.magic) >> m.shift) as usize;
            let att = ray_walk(sq, dirs, sub, false);
            // No slider's attack set is empty, so an empty entry is a free one.
            assert!(table[idx].0 == 0 || table[idx].0 == att, "a committed magic multiplier collides");
            table[idx] = Bitboard(att);
            sub = sub.wrapping_sub(m.mask) & m.mask;
            if sub == 0 {
                break;
            }
        }
        i += 1;
    }
}

/// The `between` (strictly between) or, with `whole`, `line` (edge to edge) table.
const fn lines(whole: bool) -> [[Bitboard; 64]; 64] {
    let mut t = [[Bitboard::EMPTY; 64]; 64];
    let dirs = [ROOK_DIRS, BISHOP_DIRS];
    let mut a = 0;
    while a < 64 {
        let sq = Square::new(a as u8);
        let mut d = 0;
        while d < 8 {
            let (df, dr) = dirs[d / 4][d % 4];
            let mut full = 1u64 << a;
            let mut c = sq;
            while let Some(n) = c.offset(df, dr) {
                full |= 1 << n.index();
                c = n;
            }
            c = sq;
            while let Some(n) = c.offset(-df, -dr) {
                full |= 1 << n.index();
                c = n;
            }
            let mut path = 0u64;
            c = sq;
            while let Some(n) = c.offset(df, dr) {
                t[a][n.index()] = Bitboard(if whole { full } else { path });
                path |= 1 << n.index();
                c = n;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

static BETWEEN: [[Bitboard; 64]; 64] = lines(false);
static LINE: [[Bitboard; 64]; 64] = lines(true);

/// The slider table. Native builds compute it at compile time (no start-up work, no
/// initialisation test on each lookup); the WebAssembly build fills it at first use
/// instead, keeping its 850 kB out of the download.
#[cfg(not(target_arch = "wasm32"))]
#[inline]
fn slider_table() -> &'static [Bitboard; SLIDER_LEN] {
    static SLIDER: [Bitboard; SLIDER_LEN] = {
        let mut t = [Bitboard::EMPTY; SLIDER_LEN];
        fill_slider(&mut t);
        t
    };
    &SLIDER
}

#[cfg(target_arch = "wasm32")]
#[inline]
fn slider_table() -> &'static [Bitboard; SLIDER_LEN] {
    static SLIDER: std::sync::LazyLock<Box<[Bitboard; SLIDER_LEN]>> = std::sync::LazyLock::new(|| {
        let mut t: Box<[Bitboard; SLIDER_LEN]> =
            vec![Bitboard::EMPTY; SLIDER_LEN].into_boxed_slice().try_into().expect("table length");
        fill_slider(&mut t);
        t
    });
    &SLIDER
}

#[inline]
fn magic_lookup(m: &Magic, occupied: Bitboard) -> Bitboard {
    let idx = ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    slider_table()[m.offset as usize + idx]
}

/// Rook attacks from `sq` given the occupied squares.
#[inline]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&ROOK_MAGIC[sq.index()], occupied)
}

/// Bishop attacks from `sq` given the occupied squares.
#[inline]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&BISHOP_MAGIC[sq.index()], occupied)
}

/// Queen attacks from `sq` given the occupied squares.
#[inline]
pub fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    rook(sq, occupied) | bishop(sq, occupied)
}

/// The squares strictly between `a` and `b` if they share a line, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

/// The whole line (edge to edge) through `a` and `b` if they share one, else empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINE[a.index()][b.index()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// A multiplier for `sq` whose index (the top `bits` bits) never sends two subsets
    /// of the mask with different attack sets to one entry, searched with `rng`.
    fn search_magic(sq: Square, dirs: &[(i8, i8); 4], rng: &mut SplitMix64) -> u64 {
        let mask = relevant_mask(sq, dirs);
        let shift = 64 - mask.count_ones();
        let mut cases = Vec::new();
        let mut sub = 0u64;
        loop {
            cases.push((sub, ray_walk(sq, dirs, sub, false)));
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        loop {
            let m = rng.next_u64() & rng.next_u64() & rng.next_u64();
            if (mask.wrapping_mul(m) >> 56).count_ones() < 6 {
                continue;
            }
            let mut seen = std::collections::HashMap::new();
            if cases.iter().all(|&(occ, att)| *seen.entry(occ.wrapping_mul(m) >> shift).or_insert(att) == att) {
                return m;
            }
        }
    }

    /// Searches fresh multipliers and prints them (the committed ones are checked when the
    /// table is built, at compile time).
    #[test]
    #[ignore = "prints magic numbers for ROOK_MAGICS / BISHOP_MAGICS"]
    fn print_magics() {
        let mut rng = SplitMix64::new(0x0C41_4D45_5245);
        let mut rook = Vec::new();
        let mut bishop = Vec::new();
        for sq in Square::ALL {
            rook.push(format!("0x{:016X}", search_magic(sq, &ROOK_DIRS, &mut rng)));
            bishop.push(format!("0x{:016X}", search_magic(sq, &BISHOP_DIRS, &mut rng)));
        }
        println!("ROOK_MAGICS {}\nBISHOP_MAGICS {}", rook.join(", "), bishop.join(", "));
    }

    /// Every subset of every square's mask, against the ray walk.
    #[test]
    fn every_table_entry_agrees_with_ray_walks() {
        for sq in Square::ALL {
            for (dirs, f) in [(&ROOK_DIRS, rook as fn(Square, Bitboard) -> Bitboard), (&BISHOP_DIRS, bishop)] {
                let mask = relevant_mask(sq, dirs);
                let mut sub = 0u64;
                loop {
                    assert_eq!(f(sq, Bitboard(sub)), slide(sq, dirs, Bitboard(sub)), "{sq} {sub:#x}");
                    sub = sub.wrapping_sub(mask) & mask;
                    if sub == 0 {
                        break;
                    }
                }
            }
        }
    }

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
