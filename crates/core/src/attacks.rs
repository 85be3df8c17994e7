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

/// Magic multipliers found by [`build_magic`]'s search with this module's seed (regenerate with
/// `cargo test -p chimere-core print_magics -- --ignored --nocapture`). Committing them
/// spares every process the search; a wrong one is caught at start-up and searched anew.
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

/// Every subset of `mask` (Carry-Rippler) with the slider's attack set for it.
fn subsets(sq: Square, dirs: &[(i8, i8)], mask: u64) -> Vec<(u64, Bitboard)> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut sub = 0u64;
    loop {
        out.push((sub, slide(sq, dirs, Bitboard(sub))));
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            return out;
        }
    }
}

/// Fills `table[offset..]` for `magic`; false if two occupancies with different attack
/// sets collide (`table` is then left dirty, to be overwritten by the next try).
fn try_magic(
    cases: &[(u64, Bitboard)],
    magic: u64,
    shift: u32,
    table: &mut [Bitboard],
    used: &mut [u32],
    stamp: u32,
) -> bool {
    for &(occ, att) in cases {
        let idx = (occ.wrapping_mul(magic) >> shift) as usize;
        if used[idx] != stamp {
            used[idx] = stamp;
            table[idx] = att;
        } else if table[idx] != att {
            return false;
        }
    }
    true
}

/// The slider table of one square: with `known` if it works, else with a magic searched
/// for with `rng`. Appends the table to `slider`.
fn build_magic(sq: Square, dirs: &[(i8, i8)], known: u64, rng: &mut SplitMix64, slider: &mut Vec<Bitboard>) -> Magic {
    let mask = relevant_mask(sq, dirs);
    let bits = mask.count_ones();
    let size = 1usize << bits;
    let cases = subsets(sq, dirs, mask);
    let shift = 64 - bits;
    let offset = slider.len();
    slider.resize(offset + size, Bitboard::EMPTY);
    let mut used = vec![0u32; size];
    let mut stamp = 1;
    let mut magic = known;
    while !try_magic(&cases, magic, shift, &mut slider[offset..], &mut used, stamp) {
        stamp += 1;
        magic = loop {
            let m = rng.next_u64() & rng.next_u64() & rng.next_u64();
            if (mask.wrapping_mul(m) >> 56).count_ones() >= 6 {
                break m;
            }
        };
    }
    Magic { mask, magic, shift, offset: offset as u32 }
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let mut rng = SplitMix64::new(0x0C41_4D45_5245);
    let mut slider = Vec::with_capacity(108_000);
    let mut rook = [Magic::default(); 64];
    let mut bishop = [Magic::default(); 64];
    for sq in Square::ALL {
        rook[sq.index()] = build_magic(sq, &ROOK_DIRS, ROOK_MAGICS[sq.index()], &mut rng, &mut slider);
        bishop[sq.index()] = build_magic(sq, &BISHOP_DIRS, BISHOP_MAGICS[sq.index()], &mut rng, &mut slider);
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
    fn committed_magics_need_no_search() {
        let t = &*TABLES;
        for sq in Square::ALL {
            assert_eq!(t.rook[sq.index()].magic, ROOK_MAGICS[sq.index()], "rook magic of {sq}");
            assert_eq!(t.bishop[sq.index()].magic, BISHOP_MAGICS[sq.index()], "bishop magic of {sq}");
        }
    }

    /// Searches fresh magics (a zero start forces the search) and prints them.
    #[test]
    #[ignore = "prints magic numbers for ROOK_MAGICS / BISHOP_MAGICS"]
    fn print_magics() {
        let mut rng = SplitMix64::new(0x0C41_4D45_5245);
        let mut slider = Vec::new();
        let mut rook = Vec::new();
        let mut bishop = Vec::new();
        for sq in Square::ALL {
            rook.push(format!("0x{:016X}", build_magic(sq, &ROOK_DIRS, 0, &mut rng, &mut slider).magic));
            bishop.push(format!("0x{:016X}", build_magic(sq, &BISHOP_DIRS, 0, &mut rng, &mut slider).magic));
        }
        println!("ROOK_MAGICS {}\nBISHOP_MAGICS {}", rook.join(", "), bishop.join(", "));
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
