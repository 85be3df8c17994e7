//! Interweave: pawn, Smasher (`r`), Leaper (`n`), Remover (`b`), king; no check, a side
//! left with fewer than two kings loses, captures are compulsory.
//!
//! Provenance of [`HAND_SET`]: hand-set. The Leaper (double knight jumps, long orthogonal captures) is
//! valued above the Smasher, the Remover (captures all adjacent enemies without moving)
//! below; kings are not counted as material (losing one loses the game, which the status
//! decides). The counters are the units a side lost and can bring back by promotion: a
//! fraction of their value, more as the side's pawns advance.
//!
//! [`DATA`], the numbers played, are **fitted to game results** from [`HAND_SET`], as
//! chess's are (Texel's method, `examples/tune.rs`), on the engine's own games:
//! `cargo run --release -p chimere-engine --example selfplay -- games --variant interweave --games
//! 500 --nodes 2000 --seed 1 --numbers hand-set --out interweave.txt` (11 542 quiet positions, each labelled with its
//! game's result), then `tune interweave.txt --variant interweave --passes 2 --ridge 0.00001` (ridge chosen
//! among 0, 0.00001, 0.00003, 0.0001 and 0.0003 by the held-out loss: 0.219898 → 0.209438). The variant feature's
//! constants are not fitted. Effect, by a paired self-play match against [`HAND_SET`] on
//! openings not used for the fit (`selfplay match --variant interweave --pairs 100 --nodes 4000
//! --seed 1001`, 200 games): +120 =3 -77, 60.8 %, Elo +76 [+34, +120] (95 %).

use super::{EvalData, Square2, Tables, Walk};
use chimere_core::{Board, Colour, Kind};
use chimere_interweave::Interweave;

const Z: Square2 = Square2::ZERO;

/// The hand-set numbers (see the module's provenance).
pub static HAND_SET: EvalData = EvalData {
    name: "interweave",
    kinds: 5,
    value_mg: [100, 420, 520, 380, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    value_eg: [120, 420, 520, 380, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    square_mg: [
        Square2 { centre: 2, advance: 6, edge: 0, home: 0 },
        Square2 { centre: 4, advance: 0, edge: -8, home: 0 },
        Square2 { centre: 4, advance: 0, edge: -8, home: 0 },
        Square2 { centre: 3, advance: 0, edge: -6, home: 0 },
        Square2 { centre: 2, advance: -4, edge: 0, home: 0 },
        Z,
        Z,
        Z,
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
        Square2 { centre: 4, advance: 0, edge: -8, home: 0 },
        Square2 { centre: 4, advance: 0, edge: -8, home: 0 },
        Square2 { centre: 3, advance: 0, edge: -6, home: 0 },
        Square2 { centre: 4, advance: 0, edge: 0, home: 0 },
        Z,
        Z,
        Z,
        Z,
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
        Walk::Bishop,
        Walk::Bishop,
        Walk::Bishop,
        Walk::None,
        Walk::None,
        Walk::None,
        Walk::None,
        Walk::None,
        Walk::None,
        Walk::None,
        Walk::None,
        Walk::None,
        Walk::None,
        Walk::None,
        Walk::None,
    ],
    mobility: [0, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    phase: [0, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    phase_total: 24,
    tempo: 10,
    terms: [0; super::TERMS],
    lmr: true,
    null_move: false,
    futility: false,
    see: false,
    check_extension: false,
    status_every_node: true,
    provenance: "hand-set",
};

/// The numbers the engine plays with: fitted to the results of the engine's own games
/// (`examples/selfplay.rs` then `examples/tune.rs`, see the module's provenance):
/// 11542 positions of interweave.txt (9234 fitted), K = 0.3946, ridge 0.00001: loss 0.192841 -> 0.178313, held out 0.219898 -> 0.209438.
pub static DATA: EvalData = EvalData {
    value_mg: [145, 407, 508, 361, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    value_eg: [147, 420, 520, 353, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    square_mg: [
        Square2 { centre: 14, advance: 12, edge: -8, home: 0 },
        Square2 { centre: -4, advance: 20, edge: 2, home: 2 },
        Square2 { centre: -4, advance: -16, edge: -24, home: -10 },
        Square2 { centre: 3, advance: 14, edge: -4, home: -4 },
        Square2 { centre: -38, advance: -82, edge: 40, home: 40 },
        Z,
        Z,
        Z,
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
        Square2 { centre: -8, advance: 36, edge: 10, home: 0 },
        Square2 { centre: -20, advance: 60, edge: 2, home: 4 },
        Square2 { centre: 38, advance: 30, edge: -10, home: -2 },
        Square2 { centre: 1, advance: 2, edge: -18, home: -18 },
        Square2 { centre: 22, advance: -12, edge: 4, home: 4 },
        Z,
        Z,
        Z,
        Z,
        Z,
        Z,
        Z,
        Z,
        Z,
        Z,
        Z,
    ],
    mobility: [0, 10, 2, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    tempo: 35,
    provenance: "fitted to self-play results (examples/selfplay.rs, examples/tune.rs)",
    ..super::copy_data(&HAND_SET)
};

/// The counters' worth, white's view: each lost unit a side can bring back counts a sixth
/// of its value, plus a bit per pawn on its sixth or seventh rank able to bring it back.
pub fn feature(pos: &Interweave, b: &Board, t: &Tables) -> i32 {
    let mut score = 0;
    for (c, sign) in [(Colour::White, 1), (Colour::Black, -1)] {
        let mut back = 0;
        for k in chimere_interweave::ROOK..=chimere_interweave::BISHOP {
            let n = pos.captured_count(c, k) as i32;
            back += n * t.data.value_mg[k as usize] / 6;
        }
        if back > 0 {
            let pawns = b.pieces(chimere_core::Piece::new(c, Kind(chimere_interweave::PAWN)));
            let near =
                if c == Colour::White { pawns.0 & 0x00FF_FF00_0000_0000 } else { pawns.0 & 0x0000_0000_00FF_FF00 };
            back += 20 * near.count_ones() as i32;
        }
        score += sign * back;
    }
    score
}
