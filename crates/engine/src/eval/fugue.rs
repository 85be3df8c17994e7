//! Fugue: pawn, queen, king, immobilizer, pushme-pullyu, archer, shield, long leaper,
//! swapper; the king is captured, not mated.
//!
//! Provenance of [`HAND_SET`]: hand-set from the pieces' powers: the queen and the immobilizer (which
//! freezes every enemy next to it) highest, the long leaper and the archer (captures
//! without moving) next, the swapper and the pushme-pullyu, the shield (never captures)
//! lowest; the king is not material (its capture ends the game, which the status decides).
//! Features: a unit held by an enemy immobilizer is worth much less while held, a unit
//! beside its own shield cannot be captured, and an enemy immobilizer next to one's own
//! king freezes it.
//!
//! [`DATA`], the numbers played, are **fitted to game results** from [`HAND_SET`], as
//! chess's are (Texel's method, `examples/tune.rs`), on the engine's own games:
//! `cargo run --release -p chimere-engine --example selfplay -- games --variant fugue --games
//! 500 --nodes 2000 --seed 1 --numbers hand-set --out fugue.txt` (26 327 quiet positions, each labelled with its
//! game's result), then `tune fugue.txt --variant fugue --passes 2 --ridge 0.00001` (ridge chosen
//! among 0, 0.000003, 0.00001, 0.00003 and 0.0001: held-out loss 0.171473 → 0.146179; ridge 0
//! reached 0.140466 but with numbers beyond belief, a king square weight of −307). The variant feature's
//! constants are not fitted. Effect, by a paired self-play match against [`HAND_SET`] on
//! openings not used for the fit (`selfplay match --variant fugue --pairs 100 --nodes 4000
//! --seed 1001`, 200 games): +142 =6 -52, 72.5 %, Elo +168 [+124, +219] (95 %).

use super::{EvalData, Square2, Tables, Walk, pieces};
use chimere_core::{Board, Colour};
use chimere_fugue::{Fugue, KING};

const Z: Square2 = Square2::ZERO;
const SLIDER: Square2 = Square2 { centre: 3, advance: 0, edge: -6, home: 0 };

/// The hand-set numbers (see the module's provenance).
pub static HAND_SET: EvalData = EvalData {
    name: "fugue",
    kinds: 9,
    // p, q, k, i, u, a, s, l, w
    value_mg: [100, 950, 0, 650, 420, 500, 300, 550, 380, 0, 0, 0, 0, 0, 0, 0],
    value_eg: [120, 950, 0, 600, 420, 480, 300, 550, 380, 0, 0, 0, 0, 0, 0, 0],
    square_mg: [
        Square2 { centre: 2, advance: 6, edge: 0, home: 0 },
        SLIDER,
        Square2 { centre: -4, advance: -8, edge: 0, home: 10 },
        Square2 { centre: 6, advance: 4, edge: -10, home: 0 },
        SLIDER,
        SLIDER,
        Square2 { centre: 2, advance: 0, edge: 0, home: 0 },
        SLIDER,
        SLIDER,
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
        SLIDER,
        Square2 { centre: 4, advance: 0, edge: -10, home: 0 },
        Square2 { centre: 6, advance: 4, edge: -10, home: 0 },
        SLIDER,
        SLIDER,
        Square2 { centre: 2, advance: 0, edge: 0, home: 0 },
        SLIDER,
        SLIDER,
        Z,
        Z,
        Z,
        Z,
        Z,
        Z,
        Z,
    ],
    walk: [
        Walk::None,
        Walk::Queen,
        Walk::King,
        Walk::Queen,
        Walk::Queen,
        Walk::Queen,
        Walk::Queen,
        Walk::Queen,
        Walk::Queen,
        Walk::None,
        Walk::None,
        Walk::None,
        Walk::None,
        Walk::None,
        Walk::None,
        Walk::None,
    ],
    mobility: [0, 2, 0, 2, 2, 2, 1, 2, 1, 0, 0, 0, 0, 0, 0, 0],
    phase: [0, 4, 0, 2, 1, 1, 1, 2, 1, 0, 0, 0, 0, 0, 0, 0],
    phase_total: 24,
    tempo: 12,
    terms: [0; super::TERMS],
    lmr: true,
    null_move: false,
    futility: true,
    see: false,
    check_extension: false,
    status_every_node: true,
    provenance: "hand-set",
};

/// The numbers the engine plays with: fitted to the results of the engine's own games
/// (`examples/selfplay.rs` then `examples/tune.rs`, see the module's provenance):
/// 26327 positions of fugue.txt (21062 fitted), K = 0.4271, ridge 0.00001: loss 0.176925 -> 0.151996, held out 0.171473 -> 0.146179.
pub static DATA: EvalData = EvalData {
    value_mg: [89, 950, 0, 665, 445, 518, 312, 522, 352, 0, 0, 0, 0, 0, 0, 0],
    value_eg: [120, 940, 0, 619, 430, 483, 304, 540, 362, 0, 0, 0, 0, 0, 0, 0],
    square_mg: [
        Square2 { centre: -10, advance: 26, edge: 22, home: 6 },
        Square2 { centre: -3, advance: 3, edge: -17, home: -8 },
        Square2 { centre: -8, advance: -25, edge: -6, home: 6 },
        Square2 { centre: 26, advance: -48, edge: 6, home: 17 },
        Square2 { centre: 29, advance: -28, edge: 10, home: 22 },
        Square2 { centre: 19, advance: -33, edge: 7, home: 10 },
        Square2 { centre: 42, advance: -25, edge: 25, home: 23 },
        Square2 { centre: 13, advance: -23, edge: -27, home: -27 },
        Square2 { centre: 21, advance: 14, edge: -34, home: -36 },
        Z,
        Z,
        Z,
        Z,
        Z,
        Z,
        Z,
    ],
    square_eg: [
        Square2 { centre: 14, advance: 38, edge: 4, home: 0 },
        Square2 { centre: -7, advance: -43, edge: -19, home: -8 },
        Square2 { centre: 0, advance: -7, edge: -23, home: -12 },
        Square2 { centre: 84, advance: 2, edge: -10, home: 4 },
        Square2 { centre: 35, advance: -2, edge: -3, home: 5 },
        Square2 { centre: -18, advance: -12, edge: 14, home: 14 },
        Square2 { centre: -2, advance: -44, edge: 0, home: 4 },
        Square2 { centre: -5, advance: -16, edge: -13, home: -10 },
        Square2 { centre: -1, advance: 2, edge: -26, home: -22 },
        Z,
        Z,
        Z,
        Z,
        Z,
        Z,
        Z,
    ],
    mobility: [0, -4, -25, 8, 6, 11, 10, 4, -11, 0, 0, 0, 0, 0, 0, 0],
    tempo: 0,
    provenance: "fitted to self-play results (examples/selfplay.rs, examples/tune.rs)",
    ..super::copy_data(&HAND_SET)
};

/// Share (percent) of a held unit's value it loses while an enemy immobilizer holds it.
const HELD: i32 = 40;
/// Per unit standing beside its own shield.
const SHIELDED: i32 = 10;
/// A king frozen by an enemy immobilizer.
const KING_HELD: i32 = 60;

/// The immobilizer and shield terms, white's view.
pub fn feature(pos: &Fugue, b: &Board, t: &Tables) -> i32 {
    let mut score = 0;
    for (c, sign) in [(Colour::White, 1), (Colour::Black, -1)] {
        let held = pos.immobilized(c);
        let mut s = 0;
        for sq in chimere_core::Bitboard(held) {
            if let Some(p) = b.get(sq) {
                s -= t.data.value_mg[p.kind.index()] * HELD / 100;
            }
        }
        if (pieces(b, c, KING).0 & held) != 0 {
            s -= KING_HELD;
        }
        s += SHIELDED * pos.protected(c).count_ones() as i32;
        score += sign * s;
    }
    score
}
