//! Evaluation, one table of numbers per variant ([`EvalData`]) read by one generic
//! function ([`evaluate`]).
//!
//! The data of a variant lives in `eval/<variant>.rs`: piece values by kind index (middle
//! game and end game), piece-square terms built from a few per-kind weights (centrality,
//! advance, an edge penalty), mobility weights, which search techniques are sound for the
//! variant, and one variant feature (Dynamo's edges, Checkered's checkered attackers,
//! Interweave's counters, Fugue's immobilizer, chess pawn structure and king shelter).
//! Each rules type chooses its data and feature through [`crate::pos::Api`], implemented
//! once per type (the registry's `with_rules!` dispatch hands the search a concrete type),
//! so the search itself names no variant and nothing is looked up at run time.

use crate::pos::Api;
use chimere_core::{Bitboard, Board, Colour, Piece, Square, attacks};

pub mod checkered;
pub mod chess;
pub mod dynamo;
pub mod fugue;
pub mod interweave;

/// How a kind moves, for the mobility estimate (attack-table walks only).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Walk {
    /// No mobility term.
    None,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

/// The walks of the orthodox kinds (pawn, knight, bishop, rook, queen, king: no mobility
/// term for pawns and kings), shared by the games that use the chess pieces.
pub const ORTHODOX_WALK: [Walk; 16] = {
    let mut w = [Walk::None; 16];
    w[1] = Walk::Knight;
    w[2] = Walk::Bishop;
    w[3] = Walk::Rook;
    w[4] = Walk::Queen;
    w
};

/// Per-kind weights from which a piece-square table is computed (white's view; black's
/// table is the mirror image). Units: centipawns.
#[derive(Copy, Clone, Debug)]
pub struct Square2 {
    /// Per step of centrality (file distance from the edge + rank distance, 0..6).
    pub centre: i16,
    /// Per rank advanced from the own first rank (0..7).
    pub advance: i16,
    /// On an edge square.
    pub edge: i16,
    /// On the own first rank.
    pub home: i16,
}

impl Square2 {
    pub const ZERO: Square2 = Square2 { centre: 0, advance: 0, edge: 0, home: 0 };
}

/// The evaluation numbers of one variant.
#[derive(Clone, Debug)]
pub struct EvalData {
    /// Name of the variant (for messages).
    pub name: &'static str,
    /// Number of kinds used.
    pub kinds: usize,
    /// Middle-game and end-game value of each kind.
    pub value_mg: [i32; 16],
    pub value_eg: [i32; 16],
    /// Piece-square weights per kind, middle game and end game.
    pub square_mg: [Square2; 16],
    pub square_eg: [Square2; 16],
    /// Mobility walk and weight (per reachable square) of each kind.
    pub walk: [Walk; 16],
    pub mobility: [i32; 16],
    /// Game-phase weight of each kind (sum at the start = `phase_total`).
    pub phase: [i32; 16],
    pub phase_total: i32,
    /// Bonus for having the move.
    pub tempo: i32,
    /// Weights of the variant feature's terms (centipawns; each feature names its indices).
    pub terms: [i32; TERMS],
    /// Late-move reductions are sound here (no zugzwang-dominated play, no forced chains).
    pub lmr: bool,
    /// Null-move pruning is sound here (no zugzwang-dominated play) and the rules can pass.
    pub null_move: bool,
    /// Reverse futility (static) pruning near the leaves is sound here.
    pub futility: bool,
    /// Extend turns that give check (variants with check).
    pub check_extension: bool,
    /// Kinds 0-5 are chess's pawn, knight, bishop, rook, queen and king, capturing by
    /// replacement along their walks and nothing else captures: static exchange
    /// evaluation is sound (bad captures ordered last and left out of quiescence).
    pub see: bool,
    /// The variant's status can be decided while turns exist (king captured, too few kings):
    /// ask `status` at every node, not only when there is no legal turn.
    pub status_every_node: bool,
    /// How the numbers were obtained.
    pub provenance: &'static str,
}

/// A copy of `d` usable in a `static` (`Clone` is not `const`).
pub(crate) const fn copy_data(d: &EvalData) -> EvalData {
    EvalData {
        name: d.name,
        kinds: d.kinds,
        value_mg: d.value_mg,
        value_eg: d.value_eg,
        square_mg: d.square_mg,
        square_eg: d.square_eg,
        walk: d.walk,
        mobility: d.mobility,
        phase: d.phase,
        phase_total: d.phase_total,
        tempo: d.tempo,
        terms: d.terms,
        lmr: d.lmr,
        null_move: d.null_move,
        futility: d.futility,
        check_extension: d.check_extension,
        see: d.see,
        status_every_node: d.status_every_node,
        provenance: d.provenance,
    }
}

/// Number of weights a variant feature may use ([`EvalData::terms`]).
pub const TERMS: usize = 64;

/// Tables computed from [`EvalData`] once per search (they keep a copy of the data, so a
/// tuner can evaluate with numbers of its own).
pub struct Tables {
    pub data: EvalData,
    /// `[kind][square]`, white's view: value + square term, middle game / end game.
    mg: [[i32; 64]; 16],
    eg: [[i32; 64]; 16],
}

fn square_term(w: &Square2, sq: usize) -> i32 {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    let centre = f.min(7 - f) + r.min(7 - r);
    let edge = f == 0 || f == 7 || r == 0 || r == 7;
    w.centre as i32 * centre
        + w.advance as i32 * r
        + if edge { w.edge as i32 } else { 0 }
        + if r == 0 { w.home as i32 } else { 0 }
}

impl Tables {
    pub fn new(data: &EvalData) -> Tables {
        let mut mg = [[0; 64]; 16];
        let mut eg = [[0; 64]; 16];
        for k in 0..16 {
            for sq in 0..64 {
                mg[k][sq] = data.value_mg[k] + square_term(&data.square_mg[k], sq);
                eg[k][sq] = data.value_eg[k] + square_term(&data.square_eg[k], sq);
            }
        }
        Tables { data: data.clone(), mg, eg }
    }

    /// Material alone (middle-game values), white minus black: for ordering captures.
    #[inline]
    pub fn material(&self, b: &Board) -> i32 {
        let mut s = 0;
        for k in 0..self.data.kinds {
            let kb = b.kind(chimere_core::Kind(k as u8));
            if kb.is_empty() {
                continue;
            }
            let v = self.data.value_mg[k];
            s += v * ((kb & b.colour(Colour::White)).count() as i32 - (kb & b.colour(Colour::Black)).count() as i32);
        }
        s
    }
}

/// The attack sets the evaluation's mobility loop computed, by the square of the unit: a
/// variant feature reuses them instead of walking the same lines again. A search keeps
/// one and hands it to every evaluation (each starts by forgetting the sets: only
/// `known`'s squares are read, so the sets themselves need no clearing).
pub struct Attacks {
    on: [Bitboard; 64],
    known: Bitboard,
}

impl Default for Attacks {
    fn default() -> Self {
        Attacks::new()
    }
}

impl Attacks {
    pub fn new() -> Attacks {
        Attacks { on: [Bitboard::EMPTY; 64], known: Bitboard::EMPTY }
    }

    /// The attack set of the unit on `sq` if the mobility loop computed it (a unit with a
    /// walk and a mobility weight), else `walk()`.
    #[inline]
    pub fn of(&self, sq: Square, walk: impl FnOnce() -> Bitboard) -> Bitboard {
        if self.known.has(sq) { self.on[sq.index()] } else { walk() }
    }
}

/// The evaluation of `pos` (pieces `b`): centipawns for the side to move.
pub fn evaluate<V: Api>(pos: &V, b: &Board, t: &Tables) -> i32 {
    evaluate_cached(pos, b, t, None)
}

/// [`evaluate`], keeping chess's pawn terms in `cache` (the same value, sooner).
pub fn evaluate_cached<V: Api>(pos: &V, b: &Board, t: &Tables, cache: Option<&mut chess::PawnCache>) -> i32 {
    evaluate_with(pos, b, t, cache, &mut Attacks::new())
}

/// [`evaluate_cached`] with `seen` as the scratch space of the attack sets (kept from one
/// evaluation to the next, so that none clears it).
#[inline]
pub fn evaluate_with<V: Api>(
    pos: &V,
    b: &Board,
    t: &Tables,
    cache: Option<&mut chess::PawnCache>,
    seen: &mut Attacks,
) -> i32 {
    let data = &t.data;
    let (mg, eg, phase) = units(b, t, seen);
    let phase = phase.clamp(0, data.phase_total.max(1));
    let total = data.phase_total.max(1);
    let mut white = (mg * phase + eg * (total - phase)) / total;
    let stm = pos.side_to_move();
    white += pos.feature(b, t, phase, total, seen, cache);
    let own = if stm == Colour::Black { -white } else { white };
    own + data.tempo
}

/// The units' values, square terms and mobility (middle game, end game, white's view)
/// and the game phase; the attack sets of the units with mobility kept in `seen`. One
/// pass per kind over its white then its black units (units of the shared colour count
/// for nothing).
#[inline(always)]
fn units(b: &Board, t: &Tables, seen: &mut Attacks) -> (i32, i32, i32) {
    let data = &t.data;
    let (mut mg, mut eg, mut phase) = (0i32, 0i32, 0i32);
    let occ = b.occupied();
    let (white, black) = (b.colour(Colour::White), b.colour(Colour::Black));
    seen.known = Bitboard::EMPTY;
    for k in 0..<Board>::KINDS {
        let of_kind = b.kind(chimere_core::Kind(k as u8));
        if of_kind.is_empty() {
            continue;
        }
        let (w_units, b_units) = (of_kind & white, of_kind & black);
        phase += data.phase[k] * (w_units.count() + b_units.count()) as i32;
        let (tmg, teg) = (&t.mg[k], &t.eg[k]);
        for sq in w_units {
            mg += tmg[sq.index()];
            eg += teg[sq.index()];
        }
        for sq in b_units {
            mg -= tmg[sq.index() ^ 56];
            eg -= teg[sq.index() ^ 56];
        }
        let w = data.mobility[k];
        if w == 0 {
            continue;
        }
        let walk = data.walk[k];
        for (units, own, sign) in [(w_units, white, 1), (b_units, black, -1)] {
            for sq in units {
                let att = match walk {
                    Walk::None => Bitboard::EMPTY,
                    Walk::Knight => attacks::knight(sq),
                    Walk::Bishop => attacks::bishop(sq, occ),
                    Walk::Rook => attacks::rook(sq, occ),
                    Walk::Queen => attacks::queen(sq, occ),
                    Walk::King => attacks::king(sq),
                };
                seen.on[sq.index()] = att;
                seen.known.set(sq);
                let n = (att & !own).count() as i32;
                mg += sign * w * n;
                eg += sign * w * n;
            }
        }
    }
    (mg, eg, phase)
}

/// Squares of `c`'s pieces of kind `k`.
#[inline]
pub(crate) fn pieces(b: &Board, c: Colour, k: chimere_core::Kind) -> Bitboard {
    b.pieces(Piece::new(c, k))
}

/// The king zone: the king's square and its neighbours.
#[inline]
pub(crate) fn zone(k: Square) -> Bitboard {
    attacks::king(k) | Bitboard::from_square(k)
}
