//! Checkered chess: chess's kinds, plus checkered ([`Colour::Shared`]) pieces.
//!
//! Provenance: piece values and square weights hand-set from chess's (same kinds and
//! walks); the checkered terms are hand-set from how the game is played: in stage 1 the
//! checkered pieces serve whoever moves, so they count for neither side but give the side
//! to move a small bonus and a bonus per checkered piece bearing on the enemy king's zone
//! (a penalty near its own: the opponent moves next); in stage 2 they are the switcher's
//! army against both the white and the black pieces of the other player.
//!
//! **A fit was tried and not kept.** As for the other variants (`examples/selfplay.rs` with
//! `games --variant checkered --games 500 --nodes 2000 --seed 1 --numbers hand-set`: 20 751 quiet positions;
//! `tune --variant checkered --passes 2`), the fitted numbers did not predict the held-out
//! games better (held-out loss 0.198873 → 0.199970 at ridge 0.00001, → 0.199021 at 0.0001;
//! the fitted scale K = 0.12, against 0.40–0.43 in the other variants: the static
//! evaluation says little about a Checkered game's result), and the ridge-0.0001 numbers
//! lost a paired match against these (`selfplay match --variant checkered --pairs 100
//! --nodes 4000 --seed 1001`: +79 =20 -101, 44.5 %, Elo -38 [-84, +6]). [`DATA`] is
//! [`HAND_SET`].

use super::{EvalData, Square2, Tables, pieces, zone};
use chimere_checkered::{Checkered, Stage};
use chimere_chess::KING;
use chimere_core::{Bitboard, Board, Colour, Kind, attacks};

/// The hand-set numbers (see the module's provenance).
pub static HAND_SET: EvalData = EvalData {
    name: "checkered",
    kinds: 6,
    status_every_node: false,
    null_move: false,
    futility: true,
    lmr: true,
    see: false,
    check_extension: true,
    tempo: 15,
    terms: HAND_TERMS,
    provenance: "hand-set from chess's numbers, checkered terms by hand",
    ..super::chess::copy_chess_for_variants()
};

/// The numbers the engine plays with: fitted to the results of the engine's own games
/// (`examples/selfplay.rs` then `examples/tune.rs`, see the module's provenance):
/// 62312 positions of ck1500.txt (49850 fitted), K = 0.1404, ridge 0.00001: loss 0.205235 -> 0.202917, held out 0.209757 -> 0.209072
pub static DATA: EvalData = EvalData {
    name: "checkered",
    value_mg: [110, 313, 336, 454, 980, 0, 450, 800, 300, 350, 330, 380, 0, 200, 0, 0],
    value_eg: [116, 290, 298, 514, 949, 0, 450, 800, 300, 350, 330, 380, 0, 200, 0, 0],
    square_mg: [
        Square2 { centre: 12, advance: 9, edge: -2, home: 0 },
        Square2 { centre: -8, advance: 21, edge: -15, home: -12 },
        Square2 { centre: 10, advance: 3, edge: -11, home: -6 },
        Square2 { centre: 24, advance: 9, edge: -16, home: -16 },
        Square2 { centre: 21, advance: 28, edge: -4, home: 0 },
        Square2 { centre: -26, advance: -32, edge: 12, home: 32 },
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
        Square2 { centre: -20, advance: 28, edge: 14, home: 0 },
        Square2 { centre: 10, advance: 0, edge: -14, home: -1 },
        Square2 { centre: -8, advance: 6, edge: -10, home: -4 },
        Square2 { centre: 5, advance: 1, edge: -12, home: -12 },
        Square2 { centre: 0, advance: 10, edge: -7, home: -2 },
        Square2 { centre: -10, advance: -14, edge: -9, home: 5 },
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
    mobility: [0, 6, 11, 1, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    tempo: 17,
    terms: {
        let mut t = HAND_TERMS;
        t[term::ATTACKER] = 45;
        t[term::OWN_ZONE] = 31;
        t[term::STAGE1_SHARE] = 14;
        t
    },
    provenance: "fitted to self-play results (examples/selfplay.rs, examples/tune.rs)",
    ..super::copy_data(&HAND_SET)
};

/// Indices of the checkered terms in [`EvalData::terms`].
pub mod term {
    /// Bonus (side to move) per checkered unit attacking the enemy king's zone.
    pub const ATTACKER: usize = 0;
    /// Penalty (side to move) per checkered unit attacking its own king's zone.
    pub const OWN_ZONE: usize = 1;
    /// Share (percent) of the checkered material credited to the side to move in stage 1.
    pub const STAGE1_SHARE: usize = 2;
}

/// The hand-set checkered terms ([`term`]).
pub const HAND_TERMS: [i32; super::TERMS] = {
    let mut t = [0; super::TERMS];
    t[term::ATTACKER] = 30;
    t[term::OWN_ZONE] = 12;
    t[term::STAGE1_SHARE] = 10;
    t
};

fn attack(b: &Board, sq: chimere_core::Square, k: Kind, occ: Bitboard, up: bool) -> Bitboard {
    match k.0 {
        0 => attacks::pawn(up, sq),
        1 => attacks::knight(sq),
        2 => attacks::bishop(sq, occ),
        3 => attacks::rook(sq, occ),
        4 => attacks::queen(sq, occ),
        _ => {
            let _ = b;
            Bitboard::EMPTY
        }
    }
}

fn material(b: &Board, t: &Tables, c: Colour) -> i32 {
    (0..6).map(|k| t.data.value_mg[k] * pieces(b, c, Kind(k as u8)).count() as i32).sum()
}

/// The checkered terms, white's view.
pub fn feature(pos: &Checkered, b: &Board, t: &Tables, stm: Colour) -> i32 {
    let sign = if stm == Colour::White { 1 } else { -1 };
    let shared = b.colour(Colour::Shared);
    match pos.stage() {
        Stage::Two(switcher) => {
            let s = material(b, t, Colour::Shared);
            let o = material(b, t, Colour::White) + material(b, t, Colour::Black);
            let switcher_view = s - o;
            let white_view = if switcher == Colour::White { switcher_view } else { -switcher_view };
            white_view - (material(b, t, Colour::White) - material(b, t, Colour::Black))
        }
        _ => {
            if shared.is_empty() {
                return 0;
            }
            let occ = b.occupied();
            let w = &t.data.terms;
            let mut score = material(b, t, Colour::Shared) * w[term::STAGE1_SHARE] / 100;
            let them = stm.opponent();
            let their_zone = pieces(b, them, KING).first().map_or(Bitboard::EMPTY, zone);
            let own_zone = pieces(b, stm, KING).first().map_or(Bitboard::EMPTY, zone);
            for (sq, p) in b.iter() {
                if p.colour != Colour::Shared {
                    continue;
                }
                // Checkered pawns attack in the direction of the side using them.
                let a = attack(b, sq, p.kind, occ, stm == Colour::White);
                if (a & their_zone).any() {
                    score += w[term::ATTACKER];
                }
                let a2 = if p.kind.0 == 0 { attack(b, sq, p.kind, occ, them == Colour::White) } else { a };
                if (a2 & own_zone).any() {
                    score -= w[term::OWN_ZONE];
                }
            }
            sign * score
        }
    }
}
