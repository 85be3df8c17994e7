//! The bound of the intelligent mode for mates (see the parent module): whether a mate
//! can follow within each side's moves, priced on an empty board, and the filters of the
//! last two plies.

use super::tables::{BOUND_UP_TO, INF, Tables, colour_index, tables, tables_for};
use super::units;
use crate::stip::Play;
use chimere_core::{Colour, Kind};
use chimere_fairy::walk::KING;
use chimere_fairy::{Game, Move};
use std::sync::Arc;

/// The bound with a full search over the mating side's unit placements is computed when
/// the mating side has at most this many moves left; above it a per-square relaxation.
pub(super) const FULL_UP_TO: u32 = 3;

/// Reused buffers of the bound (no allocation per node), owned by the pruning.
#[derive(Default)]
pub(super) struct Scratch {
    /// The tables of the board with its holes, for which holes ([`tables_for`]).
    tables: Option<(u64, Arc<Tables>)>,
    /// Options of every mating unit (up to the node's cost limit): where they start in
    /// the tables' options and how many.
    opts: Vec<(usize, usize)>,
    /// Per candidate K: each unit's options restricted to K's squares, deduplicated,
    /// unit after unit; `local_starts[i]..local_starts[i + 1]`.
    local: Vec<(u64, u8)>,
    local_starts: Vec<usize>,
}

impl Scratch {
    /// The tables of `game`'s board with its holes (kept while the holes stay).
    fn tables(&mut self, game: &Game) -> Arc<Tables> {
        let holes = game.pos.holes().0;
        match &self.tables {
            Some((h, t)) if *h == holes => t.clone(),
            _ => {
                let t = tables_for(holes);
                self.tables = Some((holes, t.clone()));
                t
            }
        }
    }
}

/// Whether a mate may exist after exactly `plies` more alternate moves from here (the
/// side to move first): `false` is a proof that none does.
pub(super) fn mate_possible(sc: &mut Scratch, game: &Game, plies: u32) -> bool {
    let stm = game.pos.side();
    let mater = if plies % 2 == 1 { stm } else { stm.opponent() };
    mate_possible_with(sc, game, mater, plies.div_ceil(2), plies / 2)
}

/// Series play, the series side to move with `k` series moves left (`play` as in
/// [`Searcher::series_exists`]): whether a mate may still end it. `ser-h#`: the series
/// side makes `k` moves, then the other side mates in one; `ser-#`: the series side mates
/// with its `k`-th move, the other side never moving. `false` is a proof that no line
/// from here ends in mate.
pub(super) fn series_mate_possible(sc: &mut Scratch, game: &Game, play: Play, k: u32) -> bool {
    let stm = game.pos.side();
    match play {
        Play::SeriesHelp => mate_possible_with(sc, game, stm.opponent(), 1, k),
        Play::Series => mate_possible_with(sc, game, stm, k, 0),
        _ => true,
    }
}

/// Whether `mater` may mate with `m` moves of its own while the other side makes
/// `bmoves` (king moves and blocks); `false` is a proof that it cannot.
pub(super) fn mate_possible_with(sc: &mut Scratch, game: &Game, mater: Colour, m: u32, bmoves: u32) -> bool {
    let mated = mater.opponent();
    if m > BOUND_UP_TO {
        return true;
    }
    let kept = sc.tables(game);
    let t: &Tables = &kept;
    let board = game.pos.board();
    let kings = board.colour(mated).0 & board.kind(KING).0;
    if kings.count_ones() != 1 {
        return true;
    }
    let dk = kings.trailing_zeros() as usize;
    let (mc, dc) = (colour_index(mater), colour_index(mated));
    let holes = game.pos.holes().0;
    // Blocking costs: the cheapest unit of the mated side (not its king) to stand there.
    let blockers: u64 = board.colour(mated).0 & !kings;
    let mut cb = [INF; 64];
    if bmoves == 0 {
        let mut bb = blockers;
        while bb != 0 {
            cb[bb.trailing_zeros() as usize] = 0;
            bb &= bb - 1;
        }
    } else {
        for (sq, k) in units(game, mated) {
            if k == KING.index() {
                continue;
            }
            for (best, &d) in cb.iter_mut().zip(t.block(dc, k, sq)) {
                *best = (*best).min(d);
            }
        }
    }
    {
        // The mating side's options (each unit's, by cost, where it stands first).
        sc.opts.clear();
        let mut reach_any = 0u64;
        for (sq, k) in units(game, mater) {
            let upto = t.options(mc, k, sq).partition_point(|o| o.cost as u32 <= m);
            sc.opts.push((t.options_index(mc, k, sq), upto));
            reach_any |= t.reach_union(mc, k, sq, m);
        }
        // Every king square within the mated side's moves (castling included: the
        // distance table knows it), its own first.
        let cands: u64 = if bmoves == 0 { 1 << dk } else { !holes };
        let mut order = [dk; 65];
        let mut n = 1;
        let mut bb = cands & !(1 << dk);
        while bb != 0 {
            order[n] = bb.trailing_zeros() as usize;
            bb &= bb - 1;
            n += 1;
        }
        for &kq in &order[..if bmoves == 0 { 1 } else { n }] {
            let kd = t.dist(KING.index(), dk, kq);
            if kd as u32 > bmoves || reach_any >> kq & 1 == 0 {
                continue;
            }
            let budget = (bmoves - kd as u32) as u8;
            // A hole is no flight: as if blocked for good.
            if king_square_possible(sc, t, kq, budget, &cb, blockers | holes, m as u8, reach_any) {
                return true;
            }
        }
        false
    }
}

/// Whether the mated king may be mated on `kq` with `budget` moves left for blocks and
/// `m` moves of the mating side.
#[allow(clippy::too_many_arguments)]
pub(super) fn king_square_possible(
    sc: &mut Scratch,
    t: &Tables,
    kq: usize,
    budget: u8,
    cb: &[u8; 64],
    blockers: u64,
    m: u8,
    reach_any: u64,
) -> bool {
    // The squares that matter: K and its flights not already blocked.
    let flights = t.att(0, KING.index(), kq) & !blockers;
    let need = flights | 1 << kq;
    // Flights no block can fill must be attacked by some option.
    let mut bb = flights;
    while bb != 0 {
        let f = bb.trailing_zeros() as usize;
        bb &= bb - 1;
        if cb[f] > budget && reach_any >> f & 1 == 0 {
            return false;
        }
    }
    let accept = |mask: u64| -> bool {
        if mask >> kq & 1 == 0 {
            return false;
        }
        let mut total = 0u32;
        let mut bb = flights & !mask;
        while bb != 0 {
            total += cb[bb.trailing_zeros() as usize] as u32;
            if total > budget as u32 {
                return false;
            }
            bb &= bb - 1;
        }
        true
    };
    // Per square: every square attacked by some option (all the bound is above
    // FULL_UP_TO moves; a quick test before the placement search below it).
    if !accept(reach_any & need) || m as u32 > FULL_UP_TO {
        return accept(reach_any & need);
    }
    // Each unit's options on these squares, deduplicated (an option within a cheaper or
    // equal one is dropped); options come ordered by cost.
    sc.local.clear();
    sc.local_starts.clear();
    for &(i, upto) in &sc.opts {
        let start = sc.local.len();
        sc.local_starts.push(start);
        for o in t.options_at(i)[..upto].iter() {
            let mask = o.att & need;
            if sc.local[start..].iter().any(|&(k, _)| mask & !k == 0) {
                continue;
            }
            sc.local.push((mask, o.cost));
        }
    }
    sc.local_starts.push(sc.local.len());
    let units = sc.opts.len();
    if units > 64 {
        return true;
    }
    // Suffix unions: what the remaining units could add at best.
    let mut suffix = [0u64; 65];
    for u in (0..units).rev() {
        let all = sc.local[sc.local_starts[u]..sc.local_starts[u + 1]].iter().fold(0, |a, &(k, _)| a | k);
        suffix[u] = suffix[u + 1] | all;
    }
    pub(super) fn dfs(
        local: &[(u64, u8)],
        starts: &[usize],
        suffix: &[u64; 65],
        u: usize,
        mask: u64,
        rem: u8,
        accept: &dyn Fn(u64) -> bool,
    ) -> bool {
        if u + 1 == starts.len() {
            return accept(mask);
        }
        if !accept(mask | suffix[u]) {
            return false;
        }
        for &(k, c) in &local[starts[u]..starts[u + 1]] {
            if c <= rem && dfs(local, starts, suffix, u + 1, mask | k, rem - c, accept) {
                return true;
            }
        }
        false
    }
    dfs(&sc.local, &sc.local_starts, &suffix, 0, 0, m, &accept)
}

/// On the last ply (the mating side to move): whether `mv` may mate, by the empty-board
/// picture (the other units stay; the mover ends on `to`, promoted or not).
pub(super) fn last_move_may_mate(game: &Game, mv: &Move, others: u64, need: u64) -> bool {
    if mv.castle.is_some() {
        return true;
    }
    let t = tables();
    let c = colour_index(game.pos.side());
    let kind = match mv.promo {
        Some(k) => k,
        None => game.pos.board().get(mv.from).map_or(Kind(0), |p| p.kind),
    };
    let att = t.att(c, kind.index(), mv.to.index()) | others;
    att & need == need
}

/// The empty-board attacks of the side to move, each unit's left out in turn:
/// `(square, attacks of all others)`; and the squares a mate needs attacked.
pub(super) fn last_ply_picture(game: &Game, out: &mut [u64; 64]) -> Option<u64> {
    let t = tables();
    let side = game.pos.side();
    let c = colour_index(side);
    let board = game.pos.board();
    let kings = board.colour(side.opponent()).0 & board.kind(KING).0;
    if kings.count_ones() != 1 {
        return None;
    }
    let kq = kings.trailing_zeros() as usize;
    // (A hole is no flight.)
    let blockers = board.colour(side.opponent()).0 & !kings | game.pos.holes().0;
    let need = (t.att(0, KING.index(), kq) & !blockers) | 1 << kq;
    let mut list = [(0usize, 0u64); 16];
    let mut n = 0;
    for (sq, k) in units(game, side) {
        if n == 16 {
            return None;
        }
        list[n] = (sq, t.att(c, k, sq));
        n += 1;
    }
    for i in 0..n {
        out[list[i].0] = list[..n].iter().enumerate().filter(|&(j, _)| j != i).fold(0, |a, (_, &(_, b))| a | b);
    }
    Some(need)
}

/// Keeps from `moves` those that may mate on the last ply.
pub(super) fn filter_last(game: &Game, moves: &mut Vec<Move>) {
    let mut others = [0u64; 64];
    if let Some(need) = last_ply_picture(game, &mut others) {
        moves.retain(|m| last_move_may_mate(game, m, others[m.from.index()], need));
    }
}

/// K (first) and its flights not in `blockers`, as a list.
pub(super) fn local_squares(kq: usize, blockers: u64) -> ([usize; 9], usize) {
    let mut rs = [kq; 9];
    let mut n = 1;
    let mut fl = tables().att(0, KING.index(), kq) & !blockers;
    while fl != 0 {
        rs[n] = fl.trailing_zeros() as usize;
        fl &= fl - 1;
        n += 1;
    }
    (rs, n)
}

/// Two plies left (the mated side to move, then the mating move): keeps the moves after
/// which a mating move may exist. A move of the king (castling included) is kept; any
/// other move from `x` to `y` leaves the king on its square, its flights blocked by the
/// units there after the move, and the mating side with one move: the mate needs the
/// king's square and its unblocked flights attacked, on an empty board, by the units
/// where they stand, one of them moved once.
pub(super) fn filter_second_last(game: &Game, moves: &mut Vec<Move>) {
    let t = tables();
    let side = game.pos.side();
    let mater = side.opponent();
    let mc = colour_index(mater);
    let board = game.pos.board();
    let kings = board.colour(side).0 & board.kind(KING).0;
    if kings.count_ones() != 1 {
        return;
    }
    let kq = kings.trailing_zeros() as usize;
    // (A hole is no flight.)
    let (rs, n) = local_squares(kq, game.pos.holes().0);
    let local = |sq: usize| -> u16 { rs[1..n].iter().position(|&x| x == sq).map_or(0, |j| 1 << (j + 1)) };
    let flights: u16 = ((1u32 << n) - 2) as u16;
    let mut blocked = 0u16;
    for &x in &rs[1..n] {
        if board.colour(side).0 >> x & 1 == 1 {
            blocked |= local(x);
        }
    }
    let to_mask = |att: u64| -> u16 {
        let mut mask = 0u16;
        for (j, &sq) in rs.iter().enumerate().take(n) {
            if att >> sq & 1 == 1 {
                mask |= 1 << j;
            }
        }
        mask
    };
    // The masks reachable with one move of one unit (or none), the maximal ones.
    let mut stay = [0u16; 16];
    let mut units_list = [(0usize, 0usize); 16];
    let mut count = 0;
    for (sq, k) in units(game, mater) {
        if count == 16 {
            return;
        }
        stay[count] = to_mask(t.att(mc, k, sq));
        units_list[count] = (sq, k);
        count += 1;
    }
    let mut reach = [0u16; 64];
    let mut nreach = 0;
    let mut add = |mask: u16| {
        if reach[..nreach].iter().any(|&r| mask & !r == 0) {
            return;
        }
        let mut w = 0;
        for i in 0..nreach {
            if reach[i] & !mask != 0 {
                reach[w] = reach[i];
                w += 1;
            }
        }
        nreach = w;
        if nreach < reach.len() {
            reach[nreach] = mask;
            nreach += 1;
        } else {
            reach[nreach - 1] = u16::MAX;
        }
    };
    add(stay[..count].iter().fold(0, |a, &b| a | b));
    for (u, &(sq, k)) in units_list[..count].iter().enumerate() {
        let others = (0..count).filter(|&v| v != u).fold(0, |a, v| a | stay[v]);
        for o in t.options(mc, k, sq).iter().take_while(|o| o.cost <= 1) {
            add(others | to_mask(o.att));
        }
    }
    let reach = &reach[..nreach];
    moves.retain(|m| {
        if m.from.index() == kq || m.castle.is_some() {
            return true;
        }
        let after = (blocked & !local(m.from.index())) | local(m.to.index());
        let req = 1 | (flights & !after);
        reach.iter().any(|&r| r & req == req)
    });
}
