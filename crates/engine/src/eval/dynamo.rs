//! Dynamo: chess's pieces, which never capture but push and pull each other, off the
//! board too; the king is lost when it can be pushed off (Dynamo check).
//!
//! Provenance of [`HAND_SET`]: hand-set. Values below chess's for the long-range pieces (a piece is lost
//! by being pushed off, which a slider does from afar but cannot prevent); the edge is the
//! danger: every unit on an edge square loses a part of its value (one push from leaving),
//! the king much more, and the king is kept away from the edges by strong centralisation.
//!
//! [`DATA`], the numbers played, are **fitted to game results** from [`HAND_SET`], as
//! chess's are (Texel's method, `examples/tune.rs`), on the engine's own games:
//! `cargo run --release -p chimere-engine --example selfplay -- games --variant dynamo --games
//! 700 --nodes 2000 --seed 1 --numbers hand-set --out dynamo.txt` (9 742 quiet positions, each labelled with its
//! game's result), then `tune dynamo.txt --variant dynamo --passes 2 --ridge 0.0001` (ridge chosen
//! among 0.00003, 0.0001, 0.0003 and 0.001 by the held-out loss: 0.202157 → 0.199009). The variant feature's
//! constants are not fitted. Effect, by a paired self-play match against [`HAND_SET`] on
//! openings not used for the fit (`selfplay match --variant dynamo --pairs 100 --nodes 4000
//! --seed 1001`, 200 games): +118 =0 -82, 59.0 %, Elo +63 [+25, +103] (95 %).

use super::{EvalData, ORTHODOX_WALK, Square2, pieces};
use chimere_core::{Bitboard, Board, Colour};
use chimere_dynamo::Dynamo;

const Z: Square2 = Square2::ZERO;

/// The hand-set numbers (see the module's provenance).
pub static HAND_SET: EvalData = EvalData {
    name: "dynamo",
    kinds: 6,
    value_mg: [100, 310, 320, 460, 850, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    value_eg: [120, 300, 320, 480, 850, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    square_mg: [
        Square2 { centre: 3, advance: 4, edge: -10, home: 0 },
        Square2 { centre: 6, advance: 0, edge: -25, home: 0 },
        Square2 { centre: 4, advance: 0, edge: -20, home: 0 },
        Square2 { centre: 3, advance: 0, edge: -25, home: 0 },
        Square2 { centre: 4, advance: 0, edge: -40, home: 0 },
        Square2 { centre: 12, advance: 0, edge: -70, home: 0 },
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
        Square2 { centre: 3, advance: 8, edge: -10, home: 0 },
        Square2 { centre: 6, advance: 0, edge: -25, home: 0 },
        Square2 { centre: 4, advance: 0, edge: -20, home: 0 },
        Square2 { centre: 3, advance: 0, edge: -25, home: 0 },
        Square2 { centre: 4, advance: 0, edge: -40, home: 0 },
        Square2 { centre: 15, advance: 0, edge: -80, home: 0 },
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
    walk: ORTHODOX_WALK,
    mobility: [0, 3, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    phase: [0, 1, 1, 2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    phase_total: 24,
    tempo: 15,
    terms: [0; super::TERMS],
    lmr: true,
    null_move: false,
    futility: false,
    see: false,
    check_extension: true,
    status_every_node: false,
    provenance: "hand-set",
};

/// The numbers the engine plays with: fitted to the results of the engine's own games
/// (`examples/selfplay.rs` then `examples/tune.rs`, see the module's provenance):
/// 9742 positions of dynamo.txt (7794 fitted), K = 0.3957, ridge 0.0001: loss 0.154561 -> 0.149033, held out 0.202157 -> 0.199009.
pub static DATA: EvalData = EvalData {
    value_mg: [99, 306, 320, 458, 850, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    value_eg: [118, 298, 320, 481, 850, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    square_mg: [
        Square2 { centre: 8, advance: -2, edge: -11, home: -4 },
        Square2 { centre: 3, advance: -4, edge: -26, home: -1 },
        Square2 { centre: 13, advance: -1, edge: -23, home: 0 },
        Square2 { centre: 11, advance: -8, edge: -31, home: 2 },
        Square2 { centre: 8, advance: -9, edge: -41, home: 0 },
        Square2 { centre: 2, advance: -10, edge: -71, home: 0 },
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
        Square2 { centre: 2, advance: 0, edge: -10, home: -4 },
        Square2 { centre: 10, advance: -4, edge: -25, home: 1 },
        Square2 { centre: 14, advance: 5, edge: -22, home: -2 },
        Square2 { centre: 13, advance: 0, edge: -26, home: 2 },
        Square2 { centre: 9, advance: 1, edge: -41, home: 0 },
        Square2 { centre: 7, advance: -10, edge: -80, home: 0 },
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
    mobility: [0, -7, 3, 5, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    tempo: 22,
    provenance: "fitted to self-play results (examples/selfplay.rs, examples/tune.rs)",
    ..super::copy_data(&HAND_SET)
};

/// Penalty for a king whose open lines lead to the edge behind it with an enemy slider on
/// the other side (one move from Dynamo check), per such line.
const KING_LINE: i32 = 35;
/// The side to move is in Dynamo check.
const IN_CHECK: i32 = 60;

/// Edge danger, white's view.
pub fn feature(pos: &Dynamo, b: &Board, stm: Colour) -> i32 {
    let mut score = 0;
    for (c, sign) in [(Colour::White, 1), (Colour::Black, -1)] {
        let Some(k) = pieces(b, c, chimere_chess::KING).first() else { continue };
        let occ = b.occupied();
        // Enemy sliders seeing the king along a line.
        let enemy = b.colour(c.opponent());
        let rq = (b.kind(chimere_chess::ROOK) | b.kind(chimere_chess::QUEEN)) & enemy;
        let bq = (b.kind(chimere_chess::BISHOP) | b.kind(chimere_chess::QUEEN)) & enemy;
        let seen = (chimere_core::attacks::rook(k, occ) & rq) | (chimere_core::attacks::bishop(k, occ) & bq);
        let near_edge = (super::zone(k) & Bitboard::EDGES).any();
        if near_edge {
            score -= sign * KING_LINE * seen.count() as i32;
        }
        if c == stm && pos.in_check(c) {
            score -= sign * IN_CHECK;
        }
    }
    score
}
