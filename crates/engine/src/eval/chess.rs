//! Orthodox chess, and chess with fairy conditions (the fairy engine keeps chess's kind
//! indices 0-5 and numbers its fairy kinds from 6).
//!
//! Provenance: hand-set from general chess knowledge (the usual 1/3/3/5/9 scale, a small
//! bishop-pair bonus, centralisation and pawn advance as piece-square weights, a king that
//! hides in the middle game and centralises in the end game), then adjusted by a few short
//! self-play and test-suite runs here; not fitted to game results. The fairy kinds are
//! valued by their walks (nightrider ~ rook, rose ~ queen minus, leapers and hoppers
//! small) by hand.

use super::{EvalData, Feature, ORTHODOX_WALK, Square2, pieces, zone};
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
    feature: Feature::Chess,
    lmr: true,
    null_move: true,
    futility: true,
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
    status_every_node: true,
    provenance: "chess's numbers (hand-set), fairy kinds valued by their walks by hand",
    ..copy_chess()
};

const fn copy_chess() -> EvalData {
    EvalData {
        name: DATA.name,
        kinds: DATA.kinds,
        value_mg: DATA.value_mg,
        value_eg: DATA.value_eg,
        square_mg: DATA.square_mg,
        square_eg: DATA.square_eg,
        walk: DATA.walk,
        mobility: DATA.mobility,
        phase: DATA.phase,
        phase_total: DATA.phase_total,
        tempo: DATA.tempo,
        feature: DATA.feature,
        lmr: DATA.lmr,
        null_move: DATA.null_move,
        futility: DATA.futility,
        check_extension: DATA.check_extension,
        status_every_node: DATA.status_every_node,
        provenance: DATA.provenance,
    }
}

/// Passed pawn bonus by relative rank (end game; half in the middle game).
const PASSED: [i32; 8] = [0, 5, 10, 18, 32, 55, 90, 0];
const DOUBLED: i32 = -12;
const ISOLATED: i32 = -10;
const BISHOP_PAIR: i32 = 30;
/// Middle-game bonus per own pawn in front of the king (the two ranks ahead, three files).
const SHELTER: i32 = 9;
/// Middle-game penalty per squared attack unit on the king's zone (knight and bishop 2,
/// rook 3, queen 5), counted from two attackers on.
const KING_ATTACK: i32 = 3;
/// A rook on a file without own pawns (full: without any pawn), middle game.
const ROOK_OPEN: i32 = 20;

const FILES: [u64; 8] = {
    let mut f = [0u64; 8];
    let mut i = 0;
    while i < 8 {
        f[i] = 0x0101_0101_0101_0101 << i;
        i += 1;
    }
    f
};

fn side_terms(b: &Board, c: Colour, phase: i32, total: i32) -> i32 {
    let own = pieces(b, c, PAWN).0;
    let their = pieces(b, c.opponent(), PAWN).0;
    let (mut mg, mut eg) = (0, 0);
    for sq in Bitboard(own) {
        let f = sq.file() as usize;
        let r = sq.rank() as i32;
        let rel = if c == Colour::White { r } else { 7 - r };
        let adj = (if f > 0 { FILES[f - 1] } else { 0 }) | (if f < 7 { FILES[f + 1] } else { 0 });
        if own & adj == 0 {
            mg += ISOLATED;
            eg += ISOLATED;
        }
        // Squares ahead of the pawn on its file and the two beside it.
        let ahead_mask = if c == Colour::White {
            if r >= 7 { 0 } else { !0u64 << ((r + 1) * 8) }
        } else if r <= 0 {
            0
        } else {
            !0u64 >> ((8 - r) * 8)
        };
        if own & FILES[f] & ahead_mask != 0 {
            mg += DOUBLED;
            eg += DOUBLED;
        }
        if their & (FILES[f] | adj) & ahead_mask == 0 {
            eg += PASSED[rel as usize];
            mg += PASSED[rel as usize] / 2;
        }
    }
    if pieces(b, c, BISHOP).more_than_one() {
        mg += BISHOP_PAIR;
        eg += BISHOP_PAIR;
    }
    if let Some(k) = pieces(b, c, KING).first() {
        let front = shelter_squares(k, c);
        mg += SHELTER * (Bitboard(own) & front).count() as i32;
        // Enemy pieces bearing on the king's zone: weighted, squared, middle game only.
        let zone = front | super::zone(k);
        let occ = b.occupied();
        let them = c.opponent();
        let (mut units, mut n) = (0, 0);
        for (kind, w) in [(KNIGHT, 2), (BISHOP, 2), (ROOK, 3), (QUEEN, 5)] {
            for sq in pieces(b, them, kind) {
                let a = match kind {
                    KNIGHT => attacks::knight(sq),
                    BISHOP => attacks::bishop(sq, occ),
                    ROOK => attacks::rook(sq, occ),
                    _ => attacks::queen(sq, occ),
                };
                if (a & zone).any() {
                    units += w;
                    n += 1;
                }
            }
        }
        if n >= 2 {
            mg -= (units * units * KING_ATTACK).min(500);
        }
    }
    for sq in pieces(b, c, ROOK) {
        let file = FILES[sq.file() as usize];
        if own & file == 0 {
            let open = their & file == 0;
            mg += if open { ROOK_OPEN } else { ROOK_OPEN / 2 };
            eg += if open { ROOK_OPEN / 2 } else { ROOK_OPEN / 4 };
        }
    }
    (mg * phase + eg * (total - phase)) / total
}

fn shelter_squares(k: Square, c: Colour) -> Bitboard {
    let z = zone(k);
    let up = if c == Colour::White { z.0 << 8 } else { z.0 >> 8 };
    Bitboard((z.0 | up) & !Bitboard::from_square(k).0)
}

/// Pawn structure, bishop pair and king shelter, white minus black.
pub fn feature(b: &Board, phase: i32, total: i32) -> i32 {
    side_terms(b, Colour::White, phase, total) - side_terms(b, Colour::Black, phase, total)
}

/// Chess's numbers as a base for variants played with chess's pieces (Checkered, Dynamo).
pub(crate) const fn copy_chess_for_variants() -> EvalData {
    let mut d = copy_chess();
    d.kinds = 6;
    d
}
