//! Orthodox chess, and chess with fairy conditions (the fairy engine keeps chess's kind
//! indices 0-5 and numbers its fairy kinds from 6).
//!
//! Provenance of [`DATA`] (orthodox chess): **fitted to game results**, Texel's way, by
//! `examples/tune.rs` (its comment gives the method). Data: 1300 games of Stockfish 15.1
//! (Debian's) against itself at 3000 nodes per move, each from 8 random plies, made by
//! `python3 crates/engine/tools/gen_games.py --games 1300 --nodes 3000 --seed 1 --out
//! games.txt`: 109 200 quiet positions (not in check, Stockfish's move neither a capture
//! nor a promotion), each labelled with its game's result (the file's MD5 here:
//! 7a144ea7bbf4f5f81af16177773718f2; a rerun of the first 15 games gave the same lines). Fit:
//! `cargo run --release -p chimere-engine --example tune -- games.txt --passes 2 --ridge
//! 0.00001` (2 passes per step, ridge 1e-5 towards the hand-set numbers, chosen among 0,
//! 1e-6, 4e-6 and 1e-5, whose held-out losses were 0.072645, 0.072259, 0.071697 and
//! 0.071474): on the 87 360 fitted positions the loss went from 0.077235 (hand-set numbers)
//! to 0.072875, on the 21 840 held-out ones (the last games) from 0.074433 to 0.071474;
//! K = 0.8937. The fit starts from [`HAND_SET`], the
//! hand-set numbers (general chess knowledge: the 1/3/3/5/9 scale, bishop pair,
//! centralisation, pawn advance, a king that hides in the middle game), which remain the
//! base of Checkered's table. The evaluation's shape (which terms exist, the phase
//! weights) is chosen by hand; only the numbers are fitted. Some fitted numbers stand for
//! several correlated things (a rook's `edge` weight is also its home squares); they are
//! meant to be read together.
//!
//! Second step (threats and placement): the terms from [`term::THREAT_PAWN`] on (units
//! attacked by pawns, rooks and queens by minor pieces, queens by rooks, units attacked and
//! not defended, blocked passed pawns, rooks on the 7th rank, knight and bishop outposts,
//! files without an own pawn at the king) were added with weight 0 and fitted alone, the
//! numbers above held: the same generator run extended to 4000 games (`--games 4000`, whose
//! first 1300 games are the file above), its first 71 992 positions (about 860 games), `tune
//! games.txt --limit 71992 --from current --first-term 31 --passes 2 --ridge 0.00001`, run
//! with those weights at 0 (K = 1.0488; loss 0.071484 -> 0.071094 on the fitted part). On 17 820 positions of games 1301-1510 of that
//! run, which no fit has seen, the loss is 0.081309 with [`HAND_SET`], 0.079009 with the
//! first fit and 0.078638 with these terms added (K fitted to each on the 71 280
//! positions before them, 0.82, 0.93, 0.93); on the last 800 games of the 4000 (66 321
//! positions, none fitted; K fitted on the first 3200 games): 0.081172, 0.078470, 0.078294.
//! The 4000-game run's first 109 200 lines are the file above (same MD5). Self-play against the build before them
//! (`tools/sprt.py --nodes 20000 --elo0 0 --elo1 10`): 253 pairs, W-D-L 201-171-134, Elo
//! +46.3 ± 23.4, H1 accepted.
//!
//! Third step (the numbers now in [`DATA`]): every number refitted together on the whole
//! 4000-game run, `tune games.txt --from current --passes 2 --ridge 0.00001` (K = 0.9479;
//! fitted: its first 265 288 positions, the games 1-3200 and the first 58 positions of the
//! next one; held out: the last fifth, 66 321 positions). On the last 788 games with
//! positions (66 379 positions, whole games, `tune --held`), which no fit has seen, the loss
//! went from 0.078355 (the numbers of the second step) to 0.077742 (K fitted on the 265 230
//! positions before them). Self-play against the build before it (`tools/sprt.py --nodes
//! 20000 --elo0 0 --elo1 10`): 92 pairs, W-D-L 94-51-39, Elo +107.1 ± 39.6, H1 accepted.
//!
//! Fourth step (the numbers now in [`DATA`]): the king terms (the attack unit of each
//! attacker kind, pawn shelter by file and rank, pawn storm by rank; terms 48-61, added at
//! 0) and every other number refitted from the third step's on the same 265 230 positions
//! (ridge 0.00001, K = 0.9925): held-out loss (the 66 379 positions above) 0.077742 ->
//! 0.077423. Self-play against the third step's build (`tools/sprt.py --nodes 20000
//! --elo0 0 --elo1 10`): 400 pairs (the limit), W-D-L 316-244-240, Elo +33.1 ± 19.7, LLR
//! +2.82 of +2.94: stopped undecided, its 95 % interval [+13, +53] clear of 0.
//! Chess with conditions ([`FAIRY`]) keeps the hand-set numbers,
//! and its fairy kinds are valued by their walks (nightrider ~ rook, rose ~ queen minus,
//! leapers and hoppers small) by hand.

use super::{Attacks, EvalData, ORTHODOX_WALK, Square2, TERMS, pieces, zone};
use chimere_chess::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
use chimere_core::attacks;
use chimere_core::{Bitboard, Board, Colour, Square};

const Z: Square2 = Square2::ZERO;

/// Chess values by kind: pawn, knight, bishop, rook, queen, king, then the fairy kinds
/// (nightrider, rose, locust, nightrider-locust, bishop-locust, rook-locust, dummy,
/// grasshopper).
pub static DATA: EvalData = EvalData {
    name: "chess",
    kinds: 6,
    walk: ORTHODOX_WALK,
    phase: [0, 1, 1, 2, 4, 0, 2, 3, 1, 1, 1, 1, 0, 1, 0, 0],
    phase_total: 24,
    lmr: true,
    null_move: true,
    futility: true,
    see: true,
    check_extension: true,
    status_every_node: false,
    provenance: "fitted to game results (examples/tune.rs), see the module comment",
    value_mg: [88, 339, 369, 479, 973, 0, 450, 800, 300, 350, 330, 380, 0, 200, 0, 0],
    value_eg: [112, 284, 294, 508, 960, 0, 450, 800, 300, 350, 330, 380, 0, 200, 0, 0],
    square_mg: [
        Square2 { centre: -1, advance: 14, edge: -30, home: 0 },  // pawn
        Square2 { centre: 14, advance: 3, edge: -3, home: 11 },   // knight
        Square2 { centre: 6, advance: 1, edge: 5, home: -4 },     // bishop
        Square2 { centre: 11, advance: 9, edge: 14, home: 18 },   // rook
        Square2 { centre: -3, advance: -4, edge: -10, home: -4 }, // queen
        Square2 { centre: -30, advance: 8, edge: 1, home: 14 },   // king
        Square2 { centre: 4, advance: 0, edge: -10, home: 0 },
        Square2 { centre: 4, advance: 0, edge: -10, home: 0 },
        Square2 { centre: 0, advance: 0, edge: 0, home: 0 },
        Square2 { centre: 0, advance: 0, edge: 0, home: 0 },
        Square2 { centre: 0, advance: 0, edge: 0, home: 0 },
        Square2 { centre: 0, advance: 0, edge: 0, home: 0 },
        Square2 { centre: 0, advance: 0, edge: 0, home: 0 },
        Square2 { centre: 0, advance: 0, edge: 0, home: 0 },
        Square2 { centre: 0, advance: 0, edge: 0, home: 0 },
        Square2 { centre: 0, advance: 0, edge: 0, home: 0 },
    ],
    square_eg: [
        Square2 { centre: -12, advance: 11, edge: -15, home: 0 }, // pawn
        Square2 { centre: 2, advance: -2, edge: -14, home: -3 },  // knight
        Square2 { centre: -5, advance: 1, edge: -12, home: 0 },   // bishop
        Square2 { centre: -8, advance: 1, edge: -10, home: -5 },  // rook
        Square2 { centre: 5, advance: 18, edge: 1, home: 3 },     // queen
        Square2 { centre: 6, advance: -1, edge: -18, home: -4 },  // king
        Square2 { centre: 4, advance: 0, edge: -10, home: 0 },
        Square2 { centre: 4, advance: 0, edge: -10, home: 0 },
        Square2 { centre: 0, advance: 0, edge: 0, home: 0 },
        Square2 { centre: 0, advance: 0, edge: 0, home: 0 },
        Square2 { centre: 0, advance: 0, edge: 0, home: 0 },
        Square2 { centre: 0, advance: 0, edge: 0, home: 0 },
        Square2 { centre: 0, advance: 0, edge: 0, home: 0 },
        Square2 { centre: 0, advance: 0, edge: 0, home: 0 },
        Square2 { centre: 0, advance: 0, edge: 0, home: 0 },
        Square2 { centre: 0, advance: 0, edge: 0, home: 0 },
    ],
    mobility: [0, 3, 5, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    tempo: 10,
    terms: [
        0, -7, 1, 12, 14, 42, 54, 0, 0, 3, 4, 22, 49, 67, 121, 0, -28, -25, -10, 5, 46, 36, 13, 1, 39, -14, 20, 3, 9,
        13, 11, -21, -11, -36, -10, -6, -1, -21, -28, -6, -3, 5, 5, 14, 16, 24, 25, -22, 7, 8, 11, 12, 0, -8, 7, 10,
        -8, 3, 6, -4, -6, -5, 0, 0,
    ],
};

/// The hand-set numbers this file had before they were fitted to games: the base of the
/// hand-set numbers of the variants played with chess's pieces (Checkered's).
pub static HAND_SET: EvalData = EvalData {
    name: "chess",
    kinds: 6,
    value_mg: [90, 320, 335, 480, 960, 0, 450, 800, 300, 350, 330, 380, 0, 200, 0, 0],
    value_eg: [110, 290, 305, 525, 950, 0, 450, 800, 300, 350, 330, 380, 0, 200, 0, 0],
    square_mg: [
        Square2 { centre: 4, advance: 6, edge: -6, home: 0 },    // pawn
        Square2 { centre: 8, advance: 2, edge: -20, home: -10 }, // knight
        Square2 { centre: 4, advance: 1, edge: -10, home: -8 },  // bishop
        Square2 { centre: 1, advance: 2, edge: 0, home: 0 },     // rook
        Square2 { centre: 2, advance: 0, edge: -5, home: 0 },    // queen
        Square2 { centre: -8, advance: -12, edge: 0, home: 20 }, // king: at home
        Square2 { centre: 4, advance: 0, edge: -10, home: 0 },
        Square2 { centre: 4, advance: 0, edge: -10, home: 0 },
        Z,
        Z,
        Z,
        Z,
        Z,
        Z,
        Z,
        Z,
    ],
    square_eg: [
        Square2 { centre: 0, advance: 12, edge: 0, home: 0 },
        Square2 { centre: 6, advance: 0, edge: -15, home: 0 },
        Square2 { centre: 4, advance: 0, edge: -8, home: 0 },
        Square2 { centre: 1, advance: 1, edge: 0, home: 0 },
        Square2 { centre: 4, advance: 0, edge: -5, home: 0 },
        Square2 { centre: 10, advance: 0, edge: -15, home: 0 }, // king: to the centre
        Square2 { centre: 4, advance: 0, edge: -10, home: 0 },
        Square2 { centre: 4, advance: 0, edge: -10, home: 0 },
        Z,
        Z,
        Z,
        Z,
        Z,
        Z,
        Z,
        Z,
    ],
    walk: ORTHODOX_WALK,
    mobility: [0, 4, 5, 3, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    phase: [0, 1, 1, 2, 4, 0, 2, 3, 1, 1, 1, 1, 0, 1, 0, 0],
    phase_total: 24,
    tempo: 12,
    terms: HAND_TERMS,
    lmr: true,
    null_move: true,
    futility: true,
    see: true,
    check_extension: true,
    status_every_node: false,
    provenance: "hand-set from general chess knowledge, checked by short self-play here",
};

/// Chess with fairy conditions: chess's numbers, but the rules may end the game while turns
/// exist (a condition's own status), so the status is asked at every node, and no pruning
/// that assumes orthodox play.
pub static FAIRY: EvalData = EvalData {
    name: "chess+conditions",
    kinds: 14,
    null_move: false,
    lmr: true,
    futility: false,
    see: false,
    status_every_node: true,
    provenance: "chess's numbers (hand-set), fairy kinds valued by their walks by hand",
    ..copy_chess()
};

const fn copy_chess() -> EvalData {
    super::copy_data(&HAND_SET)
}

/// Indices of chess's feature weights in [`EvalData::terms`] (a pair is middle game, end
/// game).
pub mod term {
    /// Passed pawn by relative rank (8 each), middle game then end game.
    pub const PASSED_MG: usize = 0;
    pub const PASSED_EG: usize = 8;
    pub const DOUBLED: usize = 16;
    pub const ISOLATED: usize = 18;
    pub const BISHOP_PAIR: usize = 20;
    /// Middle game, per own pawn in front of the king (the two ranks ahead, three files).
    pub const SHELTER: usize = 22;
    /// Middle game, per squared attack unit on the king's zone, counted from two attackers
    /// on: the units are the [`ATTACK_UNIT`] weights of the enemy pieces bearing on the zone,
    /// in quarters (the square is divided by 16).
    pub const KING_ATTACK: usize = 23;
    /// A rook on a file without pawns; without own pawns only.
    pub const ROOK_OPEN: usize = 24;
    pub const ROOK_SEMI: usize = 26;
    /// A pawn defended by an own pawn or with one beside it.
    pub const CONNECTED: usize = 28;
    /// End game, per passed pawn: per step the enemy king is farther than the own king
    /// from the square in front of it.
    pub const PASSED_KING: usize = 30;
    /// Per own non-pawn unit attacked by an enemy pawn.
    pub const THREAT_PAWN: usize = 31;
    /// Per own rook or queen attacked by an enemy knight or bishop.
    pub const THREAT_MINOR: usize = 33;
    /// Per own queen attacked by an enemy rook.
    pub const THREAT_ROOK: usize = 35;
    /// Per own non-pawn unit attacked and not defended.
    pub const HANGING: usize = 37;
    /// Per passed pawn whose square in front is occupied, times its relative rank less 1.
    pub const PASSED_BLOCKED: usize = 39;
    /// A rook on the 7th rank (relative).
    pub const ROOK_SEVENTH: usize = 41;
    /// A knight, a bishop on relative ranks 4-6, defended by a pawn, out of reach of the
    /// enemy pawns.
    pub const OUTPOST_KNIGHT: usize = 43;
    pub const OUTPOST_BISHOP: usize = 45;
    /// Middle game, per file without an own pawn among the king's file and its neighbours.
    pub const KING_OPEN: usize = 47;
    /// The attack units of a knight, a bishop, a rook, a queen bearing on the enemy king's
    /// zone ([`KING_ATTACK`]), in quarters of a unit.
    pub const ATTACK_UNIT: usize = 48;
    /// Middle game, per file among the king's (the first three weights) and its neighbours
    /// (the next three): the nearest own pawn ahead of the king is one, two, three or more
    /// ranks ahead.
    pub const SHELTER_RANK: usize = 52;
    /// Middle game, per file among the king's and its neighbours: the nearest enemy pawn
    /// ahead of the king is one, two, three, four ranks ahead (farther: nothing).
    pub const STORM_RANK: usize = 58;
    /// Number of terms used.
    pub const USED: usize = 62;
}

const FILES: [u64; 8] = {
    let mut f = [0u64; 8];
    let mut i = 0;
    while i < 8 {
        f[i] = 0x0101_0101_0101_0101 << i;
        i += 1;
    }
    f
};
const NOT_A: u64 = !FILES[0];
const NOT_H: u64 = !FILES[7];

/// The squares on the ranks ahead of rank `r` (0-7) for colour `c`.
#[inline]
fn ahead_of(r: i32, c: Colour) -> u64 {
    if c == Colour::White {
        if r >= 7 { 0 } else { !0u64 << ((r + 1) * 8) }
    } else if r <= 0 {
        0
    } else {
        !0u64 >> ((8 - r) * 8)
    }
}

#[inline]
fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// The pawn-only terms of one side (connected, isolated, doubled pawns, passed pawns by
/// rank): middle game, end game, and the side's passed pawns.
fn pawn_terms(own: u64, their: u64, c: Colour, w: &[i32; TERMS]) -> (i32, i32, u64) {
    use term::*;
    let (mut mg, mut eg, mut passed) = (0, 0, 0u64);
    let defended = pawn_attacks(own, c);
    let beside = ((own & NOT_A) >> 1) | ((own & NOT_H) << 1);
    let connected = (own & (defended | beside)).count_ones() as i32;
    mg += w[CONNECTED] * connected;
    eg += w[CONNECTED + 1] * connected;
    for sq in Bitboard(own) {
        let f = sq.file() as usize;
        let r = sq.rank() as i32;
        let rel = if c == Colour::White { r } else { 7 - r };
        let adj = (if f > 0 { FILES[f - 1] } else { 0 }) | (if f < 7 { FILES[f + 1] } else { 0 });
        if own & adj == 0 {
            mg += w[ISOLATED];
            eg += w[ISOLATED + 1];
        }
        // Squares ahead of the pawn on its file and the two beside it.
        let ahead_mask = ahead_of(r, c);
        if own & FILES[f] & ahead_mask != 0 {
            mg += w[DOUBLED];
            eg += w[DOUBLED + 1];
        }
        if their & (FILES[f] | adj) & ahead_mask == 0 {
            mg += w[PASSED_MG + rel as usize];
            eg += w[PASSED_EG + rel as usize];
            passed |= 1u64 << sq.index();
        }
    }
    (mg, eg, passed)
}

/// [`pawn_terms`] of the pawns `own` of colour `c`, with the shelter and storm of its king
/// `k` ([`shelter_and_storm`]) in the middle game's part: what the pawn cache keeps.
fn pawn_and_king(own: u64, their: u64, k: Option<Square>, c: Colour, w: &[i32; TERMS]) -> (i32, i32, u64) {
    let (mut mg, eg, passed) = pawn_terms(own, their, c, w);
    if let Some(k) = k {
        mg += shelter_and_storm(k, c, own, their, w);
    }
    (mg, eg, passed)
}

/// The pawn terms of both sides for one pawn structure, as [`pawn_terms`] gives them, and
/// each side's [`shelter_and_storm`] for the king square last asked.
#[derive(Copy, Clone, Default)]
struct PawnEntry {
    white: u64,
    black: u64,
    terms: [(i32, i32, u64); 2],
    /// The square index of each side's king whose shelter is in `shelter` (64: none yet).
    king: [u8; 2],
    shelter: [i32; 2],
}

/// A small table of pawn structures already evaluated (the pawn terms depend on the pawns
/// alone, which change in few turns): one per search thread, a few hundred kilobytes.
pub struct PawnCache {
    entries: Vec<PawnEntry>,
}

const PAWN_CACHE: usize = 1 << 13;

impl Default for PawnCache {
    fn default() -> Self {
        // An empty slot has no pawns and holds no terms: filled before it is read.
        PawnCache { entries: vec![PawnEntry { white: !0, black: !0, ..PawnEntry::default() }; PAWN_CACHE] }
    }
}

impl PawnCache {
    /// The pawn terms of both sides, each with its king's shelter and storm ([`pawn_and_king`]).
    fn get(&mut self, white: u64, black: u64, kings: [Option<Square>; 2], w: &[i32; TERMS]) -> [(i32, i32, u64); 2] {
        let h = (white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)) >> 51;
        let e = &mut self.entries[h as usize & (PAWN_CACHE - 1)];
        if e.white != white || e.black != black {
            *e = PawnEntry {
                white,
                black,
                terms: [pawn_terms(white, black, Colour::White, w), pawn_terms(black, white, Colour::Black, w)],
                king: [64; 2],
                shelter: [0; 2],
            };
        }
        let mut terms = e.terms;
        for (i, (c, own, their)) in
            [(Colour::White, white, black), (Colour::Black, black, white)].into_iter().enumerate()
        {
            if let Some(k) = kings[i] {
                if e.king[i] != k.index() as u8 {
                    e.king[i] = k.index() as u8;
                    e.shelter[i] = shelter_and_storm(k, c, own, their, w);
                }
                terms[i].0 += e.shelter[i];
            }
        }
        terms
    }
}

/// What one side's units attack (kinds 0-5), and the units it counts against the other
/// king's zone: read once per evaluation for both sides' terms.
struct Reach {
    /// Squares attacked by any unit.
    all: u64,
    /// Squares attacked by pawns.
    pawn: u64,
    /// Squares attacked by knights and bishops.
    minor: u64,
    /// Squares attacked by rooks.
    rook: u64,
    /// King attack: weighted units bearing on the enemy king's zone, and their number.
    units: i32,
    attackers: i32,
}

/// The squares the pawns `p` of colour `c` attack.
fn pawn_attacks(p: u64, c: Colour) -> u64 {
    if c == Colour::White { ((p & NOT_A) << 7) | ((p & NOT_H) << 9) } else { ((p & NOT_H) >> 7) | ((p & NOT_A) >> 9) }
}

fn reach(b: &Board, c: Colour, seen: &Attacks, w: &[i32; TERMS]) -> Reach {
    let occ = b.occupied();
    let pawn = pawn_attacks(pieces(b, c, PAWN).0, c);
    let mut r = Reach { all: pawn, pawn, minor: 0, rook: 0, units: 0, attackers: 0 };
    if let Some(k) = pieces(b, c, KING).first() {
        r.all |= attacks::king(k).0;
    }
    let zone =
        pieces(b, c.opponent(), KING).first().map_or(Bitboard::EMPTY, |k| shelter_squares(k, c.opponent()) | zone(k));
    for (i, kind) in [KNIGHT, BISHOP, ROOK, QUEEN].into_iter().enumerate() {
        let u = w[term::ATTACK_UNIT + i];
        for sq in pieces(b, c, kind) {
            let a = seen.of(sq, || match kind {
                KNIGHT => attacks::knight(sq),
                BISHOP => attacks::bishop(sq, occ),
                ROOK => attacks::rook(sq, occ),
                _ => attacks::queen(sq, occ),
            });
            r.all |= a.0;
            match kind {
                KNIGHT | BISHOP => r.minor |= a.0,
                ROOK => r.rook |= a.0,
                _ => {}
            }
            if (a & zone).any() {
                r.units += u;
                r.attackers += 1;
            }
        }
    }
    r
}

fn side_terms(
    b: &Board,
    c: Colour,
    pawn: (i32, i32, u64),
    (phase, total): (i32, i32),
    w: &[i32; TERMS],
    (mine, theirs): (&Reach, &Reach),
) -> i32 {
    use term::*;
    let own = pieces(b, c, PAWN).0;
    let their = pieces(b, c.opponent(), PAWN).0;
    let occ = b.occupied().0;
    let (mut mg, mut eg, passed) = pawn;
    let own_king = pieces(b, c, KING).first();
    let their_king = pieces(b, c.opponent(), KING).first();
    for sq in Bitboard(passed) {
        let r = sq.rank() as i32;
        let rel = if c == Colour::White { r } else { 7 - r };
        if (1..7).contains(&rel) {
            let stop = Square::from_coords(sq.file(), if c == Colour::White { r as u8 + 1 } else { r as u8 - 1 });
            if let (Some(k1), Some(k2)) = (own_king, their_king) {
                eg += w[PASSED_KING] * (distance(k2, stop) - distance(k1, stop));
            }
            if occ & (1u64 << stop.index()) != 0 {
                mg += w[PASSED_BLOCKED] * (rel - 1);
                eg += w[PASSED_BLOCKED + 1] * (rel - 1);
            }
        }
    }
    if pieces(b, c, BISHOP).more_than_one() {
        mg += w[BISHOP_PAIR];
        eg += w[BISHOP_PAIR + 1];
    }
    if let Some(k) = own_king {
        let front = shelter_squares(k, c);
        mg += w[SHELTER] * (Bitboard(own) & front).count() as i32;
        // Enemy pieces bearing on the king's zone: weighted, squared, middle game only.
        if theirs.attackers >= 2 {
            mg -= (theirs.units * theirs.units * w[KING_ATTACK] / 16).min(500);
        }
        let f = k.file() as usize;
        let files = (f.saturating_sub(1)..=(f + 1).min(7)).filter(|&i| own & FILES[i] == 0).count() as i32;
        mg += w[KING_OPEN] * files;
    }
    let seventh = if c == Colour::White { 0xFF << 48 } else { 0xFF << 8 };
    for sq in pieces(b, c, ROOK) {
        let file = FILES[sq.file() as usize];
        if own & file == 0 {
            let t = if their & file == 0 { ROOK_OPEN } else { ROOK_SEMI };
            mg += w[t];
            eg += w[t + 1];
        }
        if seventh & (1u64 << sq.index()) != 0 {
            mg += w[ROOK_SEVENTH];
            eg += w[ROOK_SEVENTH + 1];
        }
    }
    // Outposts: a knight or bishop on relative ranks 4-6, defended by a pawn, on a square
    // no enemy pawn can ever attack (out of the span of their attacks, filled towards us).
    let their_span = {
        let mut x = pawn_attacks(their, c.opponent());
        if c == Colour::White {
            x |= x >> 8;
            x |= x >> 16;
            x |= x >> 32;
        } else {
            x |= x << 8;
            x |= x << 16;
            x |= x << 32;
        }
        x
    };
    // Ranks 4-6 for white, 5-3 for black.
    let ranks: u64 = if c == Colour::White { 0x0000_FFFF_FF00_0000 } else { 0x0000_00FF_FFFF_0000 };
    let outposts = mine.pawn & !their_span & ranks;
    for (kind, t) in [(KNIGHT, OUTPOST_KNIGHT), (BISHOP, OUTPOST_BISHOP)] {
        let n = (pieces(b, c, kind).0 & outposts).count_ones() as i32;
        mg += w[t] * n;
        eg += w[t + 1] * n;
    }
    // Threats on the own units: by pawns, by minor pieces on rooks and queens, by rooks on
    // queens, and units attacked but not defended.
    let units_of = |k| pieces(b, c, k).0;
    let minors = units_of(KNIGHT) | units_of(BISHOP);
    let majors = units_of(ROOK) | units_of(QUEEN);
    let by_pawn = ((minors | majors) & theirs.pawn).count_ones() as i32;
    let by_minor = (majors & theirs.minor).count_ones() as i32;
    let by_rook = (units_of(QUEEN) & theirs.rook).count_ones() as i32;
    let hanging = ((minors | majors) & theirs.all & !mine.all).count_ones() as i32;
    mg += w[THREAT_PAWN] * by_pawn + w[THREAT_MINOR] * by_minor + w[THREAT_ROOK] * by_rook + w[HANGING] * hanging;
    eg += w[THREAT_PAWN + 1] * by_pawn
        + w[THREAT_MINOR + 1] * by_minor
        + w[THREAT_ROOK + 1] * by_rook
        + w[HANGING + 1] * hanging;
    (mg * phase + eg * (total - phase)) / total
}

/// The shelter and storm terms of the king `k` of colour `c` ([`term::SHELTER_RANK`],
/// [`term::STORM_RANK`]): on its file and each neighbour, the nearest own and the nearest
/// enemy pawn ahead of it, by their distance in ranks.
fn shelter_and_storm(k: Square, c: Colour, own: u64, their: u64, w: &[i32; TERMS]) -> i32 {
    let kr = k.rank() as i32;
    let ahead = ahead_of(kr, c);
    // Ranks from the king to the nearest pawn of `p` ahead of it (`p` is not empty).
    let nearest = |p: u64| {
        if c == Colour::White {
            (p.trailing_zeros() / 8) as i32 - kr
        } else {
            kr - ((63 - p.leading_zeros()) / 8) as i32
        }
    };
    let f = k.file() as usize;
    let mut mg = 0;
    for (g, &file) in FILES.iter().enumerate().take(f + 2).skip(f.saturating_sub(1)) {
        let side = if g == f { 0 } else { 3 };
        let mine = own & file & ahead;
        if mine != 0 {
            mg += w[term::SHELTER_RANK + side + nearest(mine).min(3) as usize - 1];
        }
        let theirs = their & file & ahead;
        if theirs != 0 {
            let d = nearest(theirs);
            if d <= 4 {
                mg += w[term::STORM_RANK + d as usize - 1];
            }
        }
    }
    mg
}

fn shelter_squares(k: Square, c: Colour) -> Bitboard {
    let z = zone(k);
    let up = if c == Colour::White { z.0 << 8 } else { z.0 >> 8 };
    Bitboard((z.0 | up) & !Bitboard::from_square(k).0)
}

/// Pawn structure, passed pawns, bishop pair, rooks on open files and king safety, white
/// minus black, with the weights `w` ([`term`]).
/// `cache` keeps the pawn terms of structures seen before (`None`: computed afresh).
/// `seen`: the attack sets the evaluation's mobility loop computed (with the same
/// occupancy), reused for the king attack.
pub fn feature(
    b: &Board,
    phase: i32,
    total: i32,
    w: &[i32; TERMS],
    seen: &Attacks,
    cache: Option<&mut PawnCache>,
) -> i32 {
    let (white, black) = (pieces(b, Colour::White, PAWN).0, pieces(b, Colour::Black, PAWN).0);
    let kings = [pieces(b, Colour::White, KING).first(), pieces(b, Colour::Black, KING).first()];
    let pawn = match cache {
        Some(c) => c.get(white, black, kings, w),
        None => [
            pawn_and_king(white, black, kings[0], Colour::White, w),
            pawn_and_king(black, white, kings[1], Colour::Black, w),
        ],
    };
    let white_reach = reach(b, Colour::White, seen, w);
    let black_reach = reach(b, Colour::Black, seen, w);
    side_terms(b, Colour::White, pawn[0], (phase, total), w, (&white_reach, &black_reach))
        - side_terms(b, Colour::Black, pawn[1], (phase, total), w, (&black_reach, &white_reach))
}

/// The hand-set feature weights ([`term`]): passed pawns by rank (middle game half the end
/// game's), doubled and isolated pawns, bishop pair, shelter, king attack, rooks on open
/// and half-open files; no connected-pawn or king-distance term.
pub const HAND_TERMS: [i32; TERMS] = {
    let mut t = [0; TERMS];
    let passed = [0, 5, 10, 18, 32, 55, 90, 0];
    let mut i = 0;
    while i < 8 {
        t[term::PASSED_MG + i] = passed[i] / 2;
        t[term::PASSED_EG + i] = passed[i];
        i += 1;
    }
    t[term::DOUBLED] = -12;
    t[term::DOUBLED + 1] = -12;
    t[term::ISOLATED] = -10;
    t[term::ISOLATED + 1] = -10;
    t[term::BISHOP_PAIR] = 30;
    t[term::BISHOP_PAIR + 1] = 30;
    t[term::SHELTER] = 9;
    t[term::KING_ATTACK] = 3;
    // Knight and bishop 2, rook 3, queen 5 (in quarters).
    t[term::ATTACK_UNIT] = 8;
    t[term::ATTACK_UNIT + 1] = 8;
    t[term::ATTACK_UNIT + 2] = 12;
    t[term::ATTACK_UNIT + 3] = 20;
    t[term::ROOK_OPEN] = 20;
    t[term::ROOK_OPEN + 1] = 10;
    t[term::ROOK_SEMI] = 10;
    t[term::ROOK_SEMI + 1] = 5;
    t
};

/// Chess's numbers as a base for variants played with chess's pieces (Checkered, Dynamo).
pub(crate) const fn copy_chess_for_variants() -> EvalData {
    let mut d = super::copy_data(&HAND_SET);
    d.kinds = 6;
    d.see = false;
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{Tables, units};
    use chimere_core::Variant;

    /// The king attack read from the mobility loop's attack sets is the one computed
    /// afresh: the sets kept are this position's, with its occupancy.
    #[test]
    fn king_attack_reuses_the_mobility_sets_exactly() {
        let t = Tables::new(&DATA);
        let mut seen = Attacks::new();
        for fen in [
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "6k1/5ppp/8/3q4/8/2b2N2/5PPP/3R2K1 b - - 0 1",
            "2r3k1/5pp1/7p/8/3n4/1b6/1Q3PPP/6K1 w - - 0 1",
        ] {
            let pos = chimere_chess::Chess::from_fen(fen).unwrap();
            let b = Variant::board(&pos).unwrap();
            units(b, &t, &mut seen);
            assert!(seen.known.any(), "{fen}: the mobility loop keeps its sets");
            let kept = feature(b, 16, 24, &DATA.terms, &seen, None);
            let afresh = feature(b, 16, 24, &DATA.terms, &Attacks::new(), None);
            assert_eq!(kept, afresh, "{fen}");
        }
    }

    /// The pawn cache gives the feature computed afresh, also when the same pawns come
    /// back with the kings elsewhere (the shelter it keeps is per king square).
    #[test]
    fn pawn_cache_keeps_the_shelter_per_king_square() {
        let mut cache = PawnCache::default();
        for fen in [
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
            "r1bq1r1k/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2Q1RK1 w - - 0 9",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2Q1RK1 w - - 0 9",
            "6k1/5ppp/8/3q4/8/2b2N2/5PPP/3R2K1 b - - 0 1",
            "5k2/5ppp/8/3q4/8/2b2N2/5PPP/3R1K2 b - - 0 1",
        ] {
            let pos = chimere_chess::Chess::from_fen(fen).unwrap();
            let b = Variant::board(&pos).unwrap();
            let afresh = feature(b, 16, 24, &DATA.terms, &Attacks::new(), None);
            let cached = feature(b, 16, 24, &DATA.terms, &Attacks::new(), Some(&mut cache));
            assert_eq!(cached, afresh, "{fen}");
            assert_eq!(feature(b, 16, 24, &DATA.terms, &Attacks::new(), Some(&mut cache)), afresh, "{fen}");
        }
    }

    /// The feature with one middle-game weight at 1 and the others at 0, in the middle game:
    /// how many times that term counts for white less for black (a term counts for the
    /// side whose unit is threatened, blocked or placed).
    fn count(fen: &str, term: usize) -> i32 {
        let pos = chimere_chess::Chess::from_fen(fen).unwrap();
        let b = Variant::board(&pos).unwrap();
        let mut w = [0; TERMS];
        w[term] = 1;
        feature(b, 24, 24, &w, &Attacks::new(), None)
    }

    #[test]
    fn threats_count_units_attacked_by_pawns_lesser_units_and_undefended() {
        use term::*;
        // The d5 knight is attacked by the e6 pawn and defended by nothing.
        let knight = "4k3/8/4p3/3N4/8/8/8/4K3 w - - 0 1";
        assert_eq!(count(knight, THREAT_PAWN), 1);
        assert_eq!(count(knight, HANGING), 1);
        // Defended by the e4 pawn it is still threatened, no longer hanging.
        let defended = "4k3/8/4p3/3N4/4P3/8/8/4K3 w - - 0 1";
        assert_eq!(count(defended, THREAT_PAWN), 1);
        assert_eq!(count(defended, HANGING), 0);
        // A black queen on d8 attacked by the c6 knight and the d1 rook (defended by its king).
        let queen = "3qk3/8/2N5/8/8/8/8/3RK3 b - - 0 1";
        assert_eq!(count(queen, THREAT_MINOR), -1);
        assert_eq!(count(queen, THREAT_ROOK), -1);
        assert_eq!(count(queen, HANGING), 0);
        // With the knight on b6 the queen attacks it and nothing defends it.
        assert_eq!(count("3qk3/8/1N6/8/8/8/8/3RK3 b - - 0 1", HANGING), 1);
    }

    #[test]
    fn outposts_rook_on_seventh_and_blocked_passers() {
        use term::*;
        assert_eq!(count("4k3/p7/8/3N4/4P3/8/8/4K3 w - - 0 1", OUTPOST_KNIGHT), 1);
        // A c7 pawn can come to c6 and chase the knight: no outpost.
        assert_eq!(count("4k3/2p5/8/3N4/4P3/8/8/4K3 w - - 0 1", OUTPOST_KNIGHT), 0);
        assert_eq!(count("4k3/8/4p3/3b4/8/8/8/4K3 b - - 0 1", OUTPOST_BISHOP), -1);
        assert_eq!(count("4k3/R7/8/8/8/8/r7/4K3 w - - 0 1", ROOK_SEVENTH), 0);
        assert_eq!(count("4k3/R7/8/8/8/8/8/4K3 w - - 0 1", ROOK_SEVENTH), 1);
        // The e6 passer (relative rank index 5) is blocked by the king: 5 - 1 steps.
        assert_eq!(count("8/4k3/4P3/8/8/8/8/4K3 w - - 0 1", PASSED_BLOCKED), 4);
        assert_eq!(count("8/2k5/4P3/8/8/8/8/4K3 w - - 0 1", PASSED_BLOCKED), 0);
        // The white king on g1 behind f2 g2 h2 has no open file near it; the black king on
        // e8 has three (no black pawns at all).
        assert_eq!(count("4k3/8/8/8/8/8/5PPP/6K1 w - - 0 1", KING_OPEN), -3);
    }

    #[test]
    fn shelter_and_storm_by_file_and_rank() {
        use term::*;
        // White king g1: f2 and h2 one rank ahead on the neighbouring files, g3 two ranks
        // ahead on its own file; the black king e8 has no pawn near it.
        let fen = "4k3/8/8/8/8/6P1/5P1P/6K1 w - - 0 1";
        assert_eq!(count(fen, SHELTER_RANK + 3), 2);
        assert_eq!(count(fen, SHELTER_RANK + 1), 1);
        assert_eq!(count(fen, SHELTER_RANK), 0);
        // Black king g8 with g7, and a white storm pawn on h5 (three ranks ahead of g8 on
        // the h-file); the black pawn counts for black.
        let fen = "6k1/6p1/8/7P/8/8/8/K7 w - - 0 1";
        assert_eq!(count(fen, SHELTER_RANK), -1);
        assert_eq!(count(fen, STORM_RANK + 2), -1);
        // Nothing four ranks ahead, and no pawn near the white king a1.
        assert_eq!(count(fen, STORM_RANK + 3), 0);
        // A king on its last rank has nothing ahead of it.
        assert_eq!(count("6K1/6P1/8/8/8/8/8/k7 w - - 0 1", SHELTER_RANK), 0);
    }

    /// The king attack weighs each attacker by its kind's unit (in quarters), squares the
    /// sum, and counts from two attackers on.
    #[test]
    fn king_attack_weighs_attackers_by_kind() {
        use term::*;
        let eval = |fen: &str, units: [i32; 4]| {
            let pos = chimere_chess::Chess::from_fen(fen).unwrap();
            let b = Variant::board(&pos).unwrap();
            let mut w = [0; TERMS];
            w[KING_ATTACK] = 1;
            w[ATTACK_UNIT..ATTACK_UNIT + 4].copy_from_slice(&units);
            feature(b, 24, 24, &w, &Attacks::new(), None)
        };
        // A black queen (h4) and knight (e4) bear on the white king g1's zone.
        let fen = "4k3/8/8/8/4n2q/8/8/6K1 w - - 0 1";
        assert_eq!(eval(fen, [8, 8, 12, 20]), -(28 * 28) / 16);
        assert_eq!(eval(fen, [4, 8, 12, 40]), -(44 * 44) / 16);
        // The queen alone: one attacker, nothing.
        assert_eq!(eval("4k3/8/8/8/7q/8/8/6K1 w - - 0 1", [8, 8, 12, 20]), 0);
    }
}
