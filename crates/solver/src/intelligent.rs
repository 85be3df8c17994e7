//! Intelligent mode for orthodox helpmates (`Option Intelligent`): the help search of
//! [`crate::search`] with every sub-position whose mate is provably out of reach cut off.
//!
//! A mate after `plies` more alternate moves needs, in the final position: the mated
//! king on some square K it reaches with its own moves, the mating side attacking K, and
//! every flight of K (a neighbouring square) either occupied by a unit of the mated side
//! or attacked by the mating side. Each unit's journey is priced with a lower bound on
//! its number of moves (its distance on an empty board: captures, promotions and castling
//! counted as possible; every real move is also a move on the empty board), and attacks
//! are taken on an empty board (a superset of the real ones). When no choice of K, of
//! the mating units' final squares within the mating side's moves and of the blocks
//! within the mated side's moves meets these conditions, no mate exists below the node:
//! the node is answered "no" without searching. On the last ply only the moves that can
//! complete such a picture are tried, and on the one before only the mated side's moves
//! after which one mating move can (its king's moves always). Everything else is the normal search (same moves,
//! same order, same table of solved sub-positions and the same answers), so the
//! solutions are exactly those of the normal search: the pruning only removes subtrees
//! without a solution.
//!
//! The bound is computed only while the mating side has at most `BOUND_UP_TO` (4) moves
//! left. From `PICTURES_FROM` (3) mating moves on, help play goes the other way
//! round instead (the `pictures` submodule): every final picture of a mate (the mated king's
//! square, the mating units that check or guard with their final squares, the mated
//! units that block the remaining flights) is enumerated within both sides' moves, and
//! one search over all pictures keeps at each node the pictures whose committed units
//! can still reach their squares in time, and only the moves that keep one; the lines
//! are given in the normal search's order. The same solutions again: the pictures cover
//! every mate and the lines are played and checked by the real rules. Series play
//! (`ser-h#`, `ser-#`) uses the pictures too from `SERIES_PICTURES_FROM` (4) series
//! moves on.
//!
//! Stalemate goals (`h=n`) go the same way with their own proofs: on the last
//! two plies the filters of the `stalemate` submodule (the stalemating move must touch
//! a square of every legal move's *zone* of the stalemated side), above them the
//! pictures of a stalemate (the `pictures` submodule) from `STALEMATE_PICTURES_FROM` (3)
//! stalemating moves on (at 3 only when their enumeration is cheap); the mate bound is
//! not used for them.
//!
//! Used only for the rules it is proved for: orthodox units (K Q R B S P without
//! attributes), no condition (but holes, `Condition Hole`, for mates: no unit stands on
//! or crosses a hole, so the empty-board distances stay lower bounds and its attacks
//! supersets, and a hole is treated as no flight and no final square), goal mate or
//! stalemate, help play (`h#n`, `h#n.5`, `h=n`),
//! series play (`ser-h#`, `ser-#`, and `ser-h=` by the stalemate pictures: with the
//! stalemated side fully committed they took the measured collection's `ser-h=`
//! problems from over 30 s to 8 s, 11.5 s to 6 s and 9 s to 3.3 s, the others within
//! a tenth of a second or 15%).

mod pictures;
mod stalemate;

use crate::search::{Interrupted, Pruning, Searcher, SeriesSink};
use crate::stip::{Goal, Play, Stipulation};
use chimere_core::{Colour, Kind};
use chimere_fairy::rules::Notes;
use chimere_fairy::walk::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
use chimere_fairy::{Game, Move};
use chimere_popeye::Problem;
use std::sync::OnceLock;

/// "Unreachable" distance.
const INF: u8 = 99;
/// The bound with a full search over the mating side's unit placements is computed when
/// the mating side has at most this many moves left; above it a per-square relaxation.
const FULL_UP_TO: u32 = 3;
/// No bound at all when the mating side has more moves left than this (everything is
/// reachable then, and the bound would only cost time).
const BOUND_UP_TO: u32 = 4;

/// Sub-positions with fewer plies left are not looked up in the table of solved ones.
const TABLE_FROM: u32 = 2;

/// Whether the intelligent mode is used for this problem: `Option Intelligent`, help play
/// with goal mate, and orthodox rules and units.
pub fn applies(p: &Problem, stip: &Stipulation) -> bool {
    stip.play == Play::Help && (orthodox_mate(p, stip) || orthodox_goal(p, stip, Goal::Stalemate))
}

/// Whether the series play goes intelligent (the bound [`series_mate_possible`] for mates,
/// the pictures from [`series_by_pictures`] moves on): `Option Intelligent`, `ser-#n`,
/// `ser-h#n` or `ser-h=n`, orthodox rules and units.
pub fn applies_series(p: &Problem, stip: &Stipulation) -> bool {
    matches!(stip.play, Play::Series | Play::SeriesHelp) && orthodox_mate(p, stip)
        || stip.play == Play::SeriesHelp && orthodox_goal(p, stip, Goal::Stalemate)
}

fn orthodox_mate(p: &Problem, stip: &Stipulation) -> bool {
    orthodox_goal(p, stip, Goal::Mate)
}

/// `Option Intelligent`, goal `goal`, orthodox rules and units; for mate, holes too
/// (`Condition Hole`: squares no unit stands on or crosses, so distances on the empty
/// board stay lower bounds, attacks on it supersets, and a hole is no flight).
fn orthodox_goal(p: &Problem, stip: &Stipulation, goal: Goal) -> bool {
    p.options.iter().any(|o| o == "Intelligent")
        && stip.goal == goal
        && p.conditions.iter().all(|c| goal == Goal::Mate && c.name == "Hole")
        && p.pieces.iter().all(|u| u.kind.index() <= KING.index() && u.attrs == 0 && u.colour != Colour::Shared)
}

// ----- empty-board tables -----

/// Kinds as table indices: the orthodox kinds are 0..=5 (P S B R Q K).
const KINDS: usize = 6;

struct Tables {
    /// `att[colour][kind][sq]`: squares attacked on an empty board.
    att: Vec<u64>,
    /// `dist[kind][from][to]`: moves on an empty board (pieces; the king with castling).
    dist: Vec<u8>,
    /// `pawn[colour][from][kind][to]`: moves of a pawn to stand on `to` as `kind` (pawn or
    /// promoted piece), captures counted as possible.
    pawn: Vec<u8>,
    /// `options[colour][kind][sq]`: where the unit may end within [`BOUND_UP_TO`] moves,
    /// as (attacked squares, cost), by cost, where it stands first.
    options: Vec<Vec<Opt>>,
    /// `unions[colour][kind][sq][cost]`: the squares attacked by the options up to cost.
    unions: Vec<u64>,
    /// `block[colour][kind][sq][to]`: moves to stand on `to` (any kind).
    block: Vec<u8>,
}

fn colour_index(c: Colour) -> usize {
    if c == Colour::White { 0 } else { 1 }
}

impl Tables {
    fn att(&self, c: usize, k: usize, sq: usize) -> u64 {
        self.att[(c * KINDS + k) * 64 + sq]
    }
    fn dist(&self, k: usize, from: usize, to: usize) -> u8 {
        self.dist[(k * 64 + from) * 64 + to]
    }
    fn pawn(&self, c: usize, from: usize, k: usize, to: usize) -> u8 {
        self.pawn[((c * 64 + from) * KINDS + k) * 64 + to]
    }
    fn options(&self, c: usize, k: usize, sq: usize) -> &[Opt] {
        &self.options[(c * KINDS + k) * 64 + sq]
    }
    fn reach_union(&self, c: usize, k: usize, sq: usize, m: u32) -> u64 {
        self.unions[((c * KINDS + k) * 64 + sq) * (BOUND_UP_TO as usize + 1) + m as usize]
    }
    fn block(&self, c: usize, k: usize, sq: usize) -> &[u8] {
        let i = ((c * KINDS + k) * 64 + sq) * 64;
        &self.block[i..i + 64]
    }
    /// Moves for a unit of colour `c`, kind `k` on `from` to stand on `to` as kind `k2`.
    fn reach(&self, c: usize, k: usize, from: usize, k2: usize, to: usize) -> u8 {
        if k == PAWN.index() {
            return self.pawn(c, from, k2, to);
        }
        if k2 != k {
            return INF;
        }
        let d = self.dist(k, from, to);
        // A rook on its corner may reach its castling square with the king's move.
        if k == ROOK.index() {
            let home = if c == 0 { 0 } else { 56 };
            let seed = match from.checked_sub(home) {
                Some(0) => Some(home + 3),
                Some(7) => Some(home + 5),
                _ => None,
            };
            if let Some(s) = seed {
                return d.min(self.dist(k, s, to));
            }
        }
        d
    }
}

fn on_board(f: i32, r: i32) -> Option<usize> {
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as usize)
}

const KNIGHT_STEPS: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const KING_STEPS: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

fn ride(sq: usize, dirs: &[(i32, i32)]) -> u64 {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut bb = 0;
    for &(df, dr) in dirs {
        let (mut x, mut y) = (f + df, r + dr);
        while let Some(s) = on_board(x, y) {
            bb |= 1 << s;
            x += df;
            y += dr;
        }
    }
    bb
}

fn leap(sq: usize, steps: &[(i32, i32)]) -> u64 {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    steps.iter().filter_map(|&(df, dr)| on_board(f + df, r + dr)).fold(0, |bb, s| bb | 1 << s)
}

fn cheb(a: usize, b: usize) -> u8 {
    let df = (a % 8).abs_diff(b % 8);
    let dr = (a / 8).abs_diff(b / 8);
    df.max(dr) as u8
}

fn build() -> Tables {
    let (p, s, b, r, q, k) = (PAWN.index(), KNIGHT.index(), BISHOP.index(), ROOK.index(), QUEEN.index(), KING.index());
    let diag = [(1, 1), (-1, 1), (-1, -1), (1, -1)];
    let orth = [(1, 0), (0, 1), (-1, 0), (0, -1)];
    let mut att = vec![0u64; 2 * KINDS * 64];
    for c in 0..2 {
        for sq in 0..64 {
            let fwd = if c == 0 { 1 } else { -1 };
            let set = |kind: usize, bb: u64, att: &mut Vec<u64>| att[(c * KINDS + kind) * 64 + sq] = bb;
            set(p, leap(sq, &[(1, fwd), (-1, fwd)]), &mut att);
            set(s, leap(sq, &KNIGHT_STEPS), &mut att);
            set(b, ride(sq, &diag), &mut att);
            set(r, ride(sq, &orth), &mut att);
            set(q, ride(sq, &diag) | ride(sq, &orth), &mut att);
            set(k, leap(sq, &KING_STEPS), &mut att);
        }
    }
    let mut dist = vec![INF; KINDS * 64 * 64];
    for from in 0..64 {
        // Knight: breadth-first.
        let mut d = [INF; 64];
        d[from] = 0;
        let mut frontier = vec![from];
        let mut n = 0;
        while !frontier.is_empty() {
            n += 1;
            let mut next = Vec::new();
            for &x in &frontier {
                let mut bb = leap(x, &KNIGHT_STEPS);
                while bb != 0 {
                    let y = bb.trailing_zeros() as usize;
                    bb &= bb - 1;
                    if d[y] == INF {
                        d[y] = n;
                        next.push(y);
                    }
                }
            }
            frontier = next;
        }
        for to in 0..64 {
            let set = |kind: usize, v: u8, dist: &mut Vec<u8>| dist[(kind * 64 + from) * 64 + to] = v;
            set(s, d[to], &mut dist);
            let line = |bb: u64| {
                if from == to {
                    0
                } else if bb >> to & 1 == 1 {
                    1
                } else {
                    2
                }
            };
            let same_colour = (from % 8 + from / 8) % 2 == (to % 8 + to / 8) % 2;
            set(b, if same_colour { line(ride(from, &diag)) } else { INF }, &mut dist);
            set(r, line(ride(from, &orth)), &mut dist);
            set(q, line(ride(from, &diag) | ride(from, &orth)), &mut dist);
            // King: castling moves it two squares along its rank in one move.
            let mut kd = cheb(from, to);
            if from == 4 || from == 60 {
                kd = kd.min(1 + cheb(from + 2, to)).min(1 + cheb(from - 2, to));
            }
            set(k, kd, &mut dist);
        }
    }
    let mut pawn = vec![INF; 2 * 64 * KINDS * 64];
    for c in 0..2 {
        let fwd: i32 = if c == 0 { 1 } else { -1 };
        let rel = |sq: usize| if c == 0 { sq / 8 } else { 7 - sq / 8 };
        for from in 0..64 {
            if rel(from) == 7 {
                continue;
            }
            // Pawn squares by breadth-first search; promotion squares by arrival cost.
            let mut d = [INF; 64];
            d[from] = 0;
            let mut frontier = vec![from];
            let mut n = 0;
            while !frontier.is_empty() {
                n += 1;
                let mut next = Vec::new();
                for &x in &frontier {
                    if rel(x) == 7 {
                        continue;
                    }
                    let (f, r) = ((x % 8) as i32, (x / 8) as i32);
                    let mut steps = vec![(0, fwd), (1, fwd), (-1, fwd)];
                    if rel(x) <= 1 {
                        steps.push((0, 2 * fwd));
                    }
                    for (df, dr) in steps {
                        if let Some(y) = on_board(f + df, r + dr)
                            && d[y] == INF
                        {
                            d[y] = n;
                            next.push(y);
                        }
                    }
                }
                frontier = next;
            }
            let base = (c * 64 + from) * KINDS;
            for to in 0..64 {
                if rel(to) != 7 {
                    pawn[(base + p) * 64 + to] = d[to];
                }
            }
            for kind in [s, b, r, q] {
                for to in 0..64 {
                    let mut best = INF;
                    for prom in 0..64 {
                        if rel(prom) == 7 && d[prom] != INF {
                            let v = d[prom].saturating_add(dist[(kind * 64 + prom) * 64 + to]);
                            best = best.min(v);
                        }
                    }
                    pawn[(base + kind) * 64 + to] = best;
                }
            }
        }
    }
    let mut t = Tables { att, dist, pawn, options: Vec::new(), unions: Vec::new(), block: Vec::new() };
    let levels = BOUND_UP_TO as usize + 1;
    t.options = vec![Vec::new(); 2 * KINDS * 64];
    t.unions = vec![0; 2 * KINDS * 64 * levels];
    t.block = vec![INF; 2 * KINDS * 64 * 64];
    for c in 0..2 {
        for k in 0..KINDS {
            let kinds: &[usize] = if k == p { &[0, 1, 2, 3, 4] } else { std::slice::from_ref(&k) };
            for sq in 0..64 {
                let i = (c * KINDS + k) * 64 + sq;
                let mut opts = vec![Opt { att: t.att(c, k, sq), cost: 0 }];
                for cost in 0..levels as u8 {
                    for &k2 in kinds {
                        for to in 0..64 {
                            if (to != sq || k2 != k) && t.reach(c, k, sq, k2, to) == cost {
                                opts.push(Opt { att: t.att(c, k2, to), cost });
                            }
                        }
                    }
                }
                for (level, slot) in t.unions[i * levels..(i + 1) * levels].iter_mut().enumerate() {
                    *slot = opts.iter().filter(|o| o.cost as usize <= level).fold(0, |a, o| a | o.att);
                }
                t.options[i] = opts;
                for to in 0..64 {
                    let d = kinds.iter().map(|&k2| t.reach(c, k, sq, k2, to)).min().unwrap_or(INF);
                    t.block[i * 64 + to] = d;
                }
            }
        }
    }
    t
}

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(build)
}

// ----- the bound -----

/// One way a unit of the mating side may end: the squares it attacks there, at a cost.
#[derive(Clone, Copy)]
struct Opt {
    att: u64,
    cost: u8,
}

/// Reused buffers of the bound (no allocation per node), owned by the pruning.
#[derive(Default)]
struct Scratch {
    /// Options of every mating unit (up to the node's cost limit).
    opts: Vec<&'static [Opt]>,
    /// Per candidate K: each unit's options restricted to K's squares, deduplicated,
    /// unit after unit; `local_starts[i]..local_starts[i + 1]`.
    local: Vec<(u64, u8)>,
    local_starts: Vec<usize>,
}

/// The units of one colour (square, kind index).
fn units(game: &Game, c: Colour) -> impl Iterator<Item = (usize, usize)> + '_ {
    let b = game.pos.board();
    let mut bb = b.colour(c).0;
    std::iter::from_fn(move || {
        if bb == 0 {
            return None;
        }
        let sq = bb.trailing_zeros() as usize;
        bb &= bb - 1;
        let p = b.get(chimere_core::Square::new(sq as u8)).expect("occupied");
        Some((sq, p.kind.index()))
    })
}

/// Whether a mate may exist after exactly `plies` more alternate moves from here (the
/// side to move first): `false` is a proof that none does.
fn mate_possible(sc: &mut Scratch, game: &Game, plies: u32) -> bool {
    let stm = game.pos.side();
    let mater = if plies % 2 == 1 { stm } else { stm.opponent() };
    mate_possible_with(sc, game, mater, plies.div_ceil(2), plies / 2)
}

/// Series play, the series side to move with `k` series moves left (`play` as in
/// [`Searcher::series_exists`]): whether a mate may still end it. `ser-h#`: the series
/// side makes `k` moves, then the other side mates in one; `ser-#`: the series side mates
/// with its `k`-th move, the other side never moving. `false` is a proof that no line
/// from here ends in mate.
fn series_mate_possible(sc: &mut Scratch, game: &Game, play: Play, k: u32) -> bool {
    let stm = game.pos.side();
    match play {
        Play::SeriesHelp => mate_possible_with(sc, game, stm.opponent(), 1, k),
        Play::Series => mate_possible_with(sc, game, stm, k, 0),
        _ => true,
    }
}

/// Whether `mater` may mate with `m` moves of its own while the other side makes
/// `bmoves` (king moves and blocks); `false` is a proof that it cannot.
fn mate_possible_with(sc: &mut Scratch, game: &Game, mater: Colour, m: u32, bmoves: u32) -> bool {
    let mated = mater.opponent();
    if m > BOUND_UP_TO {
        return true;
    }
    let t = tables();
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
            let all = t.options(mc, k, sq);
            let upto = all.partition_point(|o| o.cost as u32 <= m);
            sc.opts.push(&all[..upto]);
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
            if king_square_possible(sc, kq, budget, &cb, blockers | holes, m as u8, reach_any) {
                return true;
            }
        }
        false
    }
}

/// Whether the mated king may be mated on `kq` with `budget` moves left for blocks and
/// `m` moves of the mating side.
fn king_square_possible(
    sc: &mut Scratch,
    kq: usize,
    budget: u8,
    cb: &[u8; 64],
    blockers: u64,
    m: u8,
    reach_any: u64,
) -> bool {
    let t = tables();
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
    for opts in &sc.opts {
        let start = sc.local.len();
        sc.local_starts.push(start);
        for o in opts.iter() {
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
    fn dfs(
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
fn last_move_may_mate(game: &Game, mv: &Move, others: u64, need: u64) -> bool {
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
fn last_ply_picture(game: &Game, out: &mut [u64; 64]) -> Option<u64> {
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

// ----- the filters of the last two plies -----

/// Keeps from `moves` those that may mate on the last ply.
fn filter_last(game: &Game, moves: &mut Vec<Move>) {
    let mut others = [0u64; 64];
    if let Some(need) = last_ply_picture(game, &mut others) {
        moves.retain(|m| last_move_may_mate(game, m, others[m.from.index()], need));
    }
}

/// K (first) and its flights not in `blockers`, as a list.
fn local_squares(kq: usize, blockers: u64) -> ([usize; 9], usize) {
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
fn filter_second_last(game: &Game, moves: &mut Vec<Move>) {
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

/// The intelligent mode's [`Pruning`] for one goal: the bound and the last-two-ply
/// filters of this module (mates), the zones of the `stalemate` submodule
/// (stalemates), and help and series play taken over by the pictures (the `pictures`
/// submodule) from [`pictures::PICTURES_FROM`] moves of the mating side
/// ([`pictures::STALEMATE_PICTURES_FROM`] stalemating moves, [`pictures::SERIES_PICTURES_FROM`]
/// series moves) on. Owned by the searcher: its buffers and the last pictures
/// enumerated are kept from one first move to the next.
pub struct Intelligent {
    goal: Goal,
    /// The bound's buffers.
    scratch: Scratch,
    notes: Notes,
    /// The zones of the stalemated side's moves at the node two plies from the end being
    /// searched (there is one at a time: the nodes below it have one ply left).
    zones: Option<stalemate::Zones>,
    /// See [`Pruning::plan`].
    horizon: u32,
    /// The last pictures enumerated.
    pictures: pictures::Cache,
}

impl Intelligent {
    /// The pruning for `goal` (mate or stalemate: the others are left unpruned).
    pub fn new(goal: Goal) -> Intelligent {
        Intelligent {
            goal,
            scratch: Scratch::default(),
            notes: Notes::new(),
            zones: None,
            horizon: 0,
            pictures: pictures::Cache::default(),
        }
    }

    /// [`Intelligent::new`], boxed for [`Searcher::install_pruning`].
    pub fn boxed(goal: Goal) -> Box<dyn Pruning> {
        Box::new(Intelligent::new(goal))
    }

    fn mate(&self) -> bool {
        self.goal == Goal::Mate
    }
}

impl Pruning for Intelligent {
    fn table_from(&self) -> u32 {
        TABLE_FROM
    }

    fn help_possible(&mut self, game: &Game, plies: u32) -> bool {
        !self.mate() || mate_possible(&mut self.scratch, game, plies)
    }

    fn help_filter(&mut self, game: &mut Game, plies: u32, moves: &mut Vec<Move>) -> bool {
        match (self.goal, plies) {
            (Goal::Mate, 1) => filter_last(game, moves),
            (Goal::Mate, 2) => filter_second_last(game, moves),
            (Goal::Stalemate, 1) => stalemate::filter_last(game, moves, &mut self.notes),
            (Goal::Stalemate, 2) => {
                self.zones = stalemate::zones(game, &mut self.notes);
                return self.zones.is_some();
            }
            _ => {}
        }
        false
    }

    fn help_keeps(&mut self, game: &mut Game, _plies: u32, m: &Move) -> bool {
        self.zones.as_ref().is_none_or(|zs| stalemate::second_last_ok(game, zs, m))
    }

    fn series_possible(&mut self, game: &Game, play: Play, k: u32) -> bool {
        !self.mate() || series_mate_possible(&mut self.scratch, game, play, k)
    }

    fn plan(&mut self, longest: u32) {
        self.horizon = longest;
    }

    fn takes_over_help(&self, plies: u32) -> bool {
        plies.div_ceil(2) >= pictures_from(self.goal)
    }

    fn takes_over_series(&self, k: u32) -> bool {
        k >= pictures::SERIES_PICTURES_FROM
    }

    fn help_lines(
        &mut self,
        s: &mut Searcher,
        plies: u32,
        prefix: &mut Vec<Move>,
        out: &mut dyn FnMut(&mut Searcher, &[Move]) -> bool,
    ) -> Result<Option<bool>, Interrupted> {
        pictures::lines(s, &mut self.pictures, self.horizon, plies, prefix, out)
    }

    fn series_lines(
        &mut self,
        s: &mut Searcher,
        play: Play,
        k: u32,
        prefix: &mut Vec<Move>,
        out: &mut SeriesSink<'_>,
    ) -> Result<Option<bool>, Interrupted> {
        pictures::series_lines(s, &mut self.pictures, self.horizon, play, k, prefix, out)
    }
}

/// From how many moves of the mating (stalemating) side on help play goes by the pictures.
fn pictures_from(goal: Goal) -> u32 {
    match goal {
        Goal::Stalemate => pictures::STALEMATE_PICTURES_FROM,
        _ => pictures::PICTURES_FROM,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Table;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    /// A small reproducible generator (no dependency).
    pub(super) struct Rng(pub(super) u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            self.0 >> 33
        }
        pub(super) fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// A random orthodox position, Black to move, White not in check: kings apart, a few
    /// units, sometimes castling rights (kings and rooks at home) or an en passant square.
    pub(super) fn random_game(rng: &mut Rng) -> Option<Game> {
        let mut board = [None::<char>; 64];
        let castling = rng.below(4) == 0;
        let (wk, bk) = if castling {
            (4, 60)
        } else {
            // The black king often on an edge: mates are likelier there.
            let bk = if rng.below(2) == 0 { [0, 7][rng.below(2) as usize] * 8 + rng.below(8) } else { rng.below(64) };
            (rng.below(64) as usize, bk as usize)
        };
        if cheb(wk, bk) <= 1 {
            return None;
        }
        board[wk] = Some('K');
        board[bk] = Some('k');
        let mut rights = String::new();
        if castling {
            for (sq, c, r) in [(7, 'R', 'K'), (0, 'R', 'Q'), (63, 'r', 'k'), (56, 'r', 'q')] {
                if rng.below(2) == 0 {
                    board[sq] = Some(c);
                    rights.push(r);
                }
            }
        }
        let units = b"QRBSPPP";
        for _ in 0..2 + rng.below(3) {
            let u = units[rng.below(units.len() as u64) as usize] as char;
            let sq = rng.below(64) as usize;
            if board[sq].is_none() && (u != 'P' || (8..56).contains(&sq)) {
                board[sq] = Some(u);
            }
        }
        for _ in 0..2 + rng.below(4) {
            let u = units[rng.below(units.len() as u64) as usize].to_ascii_lowercase() as char;
            let sq = rng.below(64) as usize;
            if board[sq].is_none() && (u != 'p' || (8..56).contains(&sq)) {
                board[sq] = Some(u);
            }
        }
        let fen = placement(&board);
        // Sometimes White has just played a double step (en passant possible).
        let mut ep = "-".to_string();
        for f in 0..8 {
            if board[24 + f] == Some('P') && board[16 + f].is_none() && board[8 + f].is_none() && rng.below(2) == 0 {
                ep = format!("{}3", (b'a' + f as u8) as char);
                break;
            }
        }
        if rights.is_empty() {
            rights.push('-');
        }
        let mut g = chimere_fairy::game_from_fen(&format!("{fen} b {rights} {ep} 0 1"), &[]).ok()?;
        if g.in_check(Colour::White) {
            return None;
        }
        Some(g)
    }

    pub(super) fn searcher(g: Game) -> Searcher {
        searcher_for(g, Goal::Mate)
    }

    /// A searcher of the normal search for `goal`.
    pub(super) fn searcher_for(g: Game, goal: Goal) -> Searcher {
        Searcher::new(g, Table::new(8), Arc::new(AtomicBool::new(false)), goal, false)
    }

    /// A searcher of the intelligent mode for `goal`.
    pub(super) fn intelligent(g: Game, goal: Goal) -> Searcher {
        let mut s = searcher_for(g, goal);
        s.install_pruning(|| Intelligent::boxed(goal));
        s
    }

    /// The lines a help search (`run`, given the sink) finds, in order, and its result.
    pub(super) fn collect_help<R>(
        run: impl FnOnce(&mut dyn FnMut(&mut Searcher, &[Move]) -> bool) -> Result<R, Interrupted>,
    ) -> (Vec<Vec<Move>>, R) {
        let mut lines = Vec::new();
        let r = run(&mut |_, l: &[Move]| {
            lines.push(l.to_vec());
            true
        })
        .expect("not stopped");
        (lines, r)
    }

    /// A series line with the other side's answer.
    pub(super) type SeriesLine = (Vec<Move>, Option<Move>);

    /// The lines (with their answers) a series search finds, in order, and its result.
    pub(super) fn collect_series<R>(
        run: impl FnOnce(&mut crate::search::SeriesSink<'_>) -> Result<R, Interrupted>,
    ) -> (Vec<SeriesLine>, R) {
        let mut lines = Vec::new();
        let r = run(&mut |_, l: &[Move], ans| {
            lines.push((l.to_vec(), ans));
            true
        })
        .expect("not stopped");
        (lines, r)
    }

    /// The pieces of `board` (index `8 * rank + file`, a1 = 0) as a FEN placement.
    pub(super) fn placement(board: &[Option<char>; 64]) -> String {
        let mut fen = String::new();
        for r in (0..8).rev() {
            let mut empty = 0;
            for f in 0..8 {
                match board[r * 8 + f] {
                    Some(c) => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        fen.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if r > 0 {
                fen.push('/');
            }
        }
        fen
    }

    /// A board with the black king on an edge and the white king apart from it (`None`
    /// when they would touch), and the black king's square.
    pub(super) fn kings_on_board(rng: &mut Rng) -> Option<([Option<char>; 64], usize)> {
        let mut board = [None::<char>; 64];
        let edge = [0, 7][rng.below(2) as usize];
        let bk = if rng.below(2) == 0 { edge * 8 + rng.below(8) } else { rng.below(8) * 8 + edge } as usize;
        let wk = rng.below(64) as usize;
        if cheb(wk, bk) <= 1 {
            return None;
        }
        board[bk] = Some('k');
        board[wk] = Some('K');
        Some((board, bk))
    }

    /// Puts up to `count` black units drawn from `units` on empty squares within two
    /// files and ranks of `bk` (no pawn on the first or last rank).
    pub(super) fn crowd(board: &mut [Option<char>; 64], bk: usize, count: u64, units: &[u8], rng: &mut Rng) {
        for _ in 0..count {
            let (f, r) = ((bk % 8) as i32 + rng.below(5) as i32 - 2, (bk / 8) as i32 + rng.below(5) as i32 - 2);
            if let Some(sq) = on_board(f, r)
                && board[sq].is_none()
            {
                let u = units[rng.below(units.len() as u64) as usize] as char;
                if u != 'p' || (8..56).contains(&sq) {
                    board[sq] = Some(u);
                }
            }
        }
    }

    /// `g` with two to six holes (`Condition Hole`) on empty squares drawn from `rng`,
    /// often around the black king.
    pub(super) fn with_holes(g: &Game, rng: &mut Rng) -> Option<Game> {
        let board = g.pos.board();
        let occupied = board.occupied().0;
        let bk = (board.colour(Colour::Black).0 & board.kind(KING).0).trailing_zeros() as usize;
        let mut squares = String::new();
        for _ in 0..2 + rng.below(5) {
            let sq = if rng.below(2) == 0 {
                let (f, r) = ((bk % 8) as i32 + rng.below(3) as i32 - 1, (bk / 8) as i32 + rng.below(3) as i32 - 1);
                on_board(f, r)?
            } else {
                rng.below(64) as usize
            };
            if occupied >> sq & 1 == 0 {
                squares.push_str(&chimere_core::Square::new(sq as u8).to_string());
            }
        }
        if squares.is_empty() {
            return None;
        }
        chimere_fairy::game_from_fen(&g.pos.fen(), &[&format!("hole {squares}")]).ok()
    }

    /// Walks every node down to `plies`: wherever the normal search finds a mate in the
    /// remaining plies, the bound allows it, and no mating last move is filtered out.
    fn walk(s: &mut Searcher, plies: u32, stats: &mut (u64, u64)) {
        let truth = s.help_exists(plies).expect("not stopped");
        let bound = mate_possible(&mut Scratch::default(), &s.game, plies);
        assert!(!truth || bound, "the bound cuts a mate in {plies}: {}", s.game.pos.fen());
        stats.0 += 1;
        stats.1 += u64::from(!bound);
        let moves = s.legal();
        if plies == 1 {
            let mut kept = moves.clone();
            filter_last(&s.game, &mut kept);
            for m in &moves {
                if s.goal_after_pub(m) {
                    assert!(kept.contains(m), "mating move {m:?} filtered out: {}", s.game.pos.fen());
                }
            }
            return;
        }
        let mut kept = moves.clone();
        if plies == 2 {
            filter_second_last(&s.game, &mut kept);
        }
        for m in &moves {
            s.game.make(m).expect("legal");
            if !kept.contains(m) {
                assert!(!s.help_exists(plies - 1).expect("not stopped"), "{m:?} filtered out: {}", s.game.pos.fen());
            }
            walk(s, plies - 1, stats);
            s.game.unmake();
        }
    }

    /// Walks `count` random positions `plies` deep, checking the bound at every node;
    /// returns (nodes, nodes cut).
    fn bound_sample(seed: u64, count: usize, plies: u32) -> (u64, u64) {
        bound_sample_with(seed, count, plies, false)
    }

    /// [`bound_sample`], the positions with holes when `holes`.
    fn bound_sample_with(seed: u64, count: usize, plies: u32, holes: bool) -> (u64, u64) {
        let mut rng = Rng(seed);
        let mut stats = (0, 0);
        let mut positions = 0;
        while positions < count {
            let Some(mut g) = random_game(&mut rng) else { continue };
            if holes {
                let Some(h) = with_holes(&g, &mut rng) else { continue };
                g = h;
            }
            positions += 1;
            let mut s = searcher(g);
            walk(&mut s, plies, &mut stats);
        }
        stats
    }

    #[test]
    fn the_bound_never_cuts_a_mate() {
        let stats = bound_sample(0x5eed_1234, 60, 3);
        // The test means something only if the bound does cut.
        assert!(stats.1 * 10 > stats.0, "cut {} of {} nodes", stats.1, stats.0);
    }

    /// The same with holes (`Condition Hole`): a hole is no flight.
    #[test]
    fn the_bound_never_cuts_a_mate_with_holes() {
        let stats = bound_sample_with(0x401e, 60, 3, true);
        assert!(stats.1 * 10 > stats.0, "cut {} of {} nodes", stats.1, stats.0);
    }

    #[test]
    #[ignore = "heavy: four plies deep on many positions (run with --release --ignored)"]
    fn the_bound_never_cuts_a_mate_deeper() {
        let stats = bound_sample(0xdead_beef, 150, 4);
        eprintln!("cut {} of {} nodes", stats.1, stats.0);
    }

    #[test]
    fn the_intelligent_search_finds_the_same_mates() {
        same_mates(77, false);
    }

    /// The same with holes (`Condition Hole`).
    #[test]
    fn the_intelligent_search_finds_the_same_mates_with_holes() {
        same_mates(0x401f, true);
    }

    /// Help lines of 1 to 4 plies from 80 random positions (with holes when `holes`), by
    /// the normal search and by the intelligent one: the same lines in the same order.
    fn same_mates(seed: u64, holes: bool) {
        let mut rng = Rng(seed);
        let mut positions = 0;
        let mut found = 0;
        while positions < 80 {
            let Some(mut g) = random_game(&mut rng) else { continue };
            if holes {
                let Some(h) = with_holes(&g, &mut rng) else { continue };
                g = h;
            }
            positions += 1;
            for plies in 1..=4 {
                let mut a = searcher(g.clone());
                let mut b = intelligent(g.clone(), Goal::Mate);
                let mut la = Vec::new();
                let mut lb = Vec::new();
                a.help_lines(plies, &mut Vec::new(), &mut |_, l: &[Move]| {
                    la.push(l.to_vec());
                    true
                })
                .expect("not stopped");
                b.help_lines(plies, &mut Vec::new(), &mut |_, l: &[Move]| {
                    lb.push(l.to_vec());
                    true
                })
                .expect("not stopped");
                assert_eq!(la, lb, "{} plies from {}", plies, g.pos.fen());
                found += la.len();
            }
        }
        assert!(found > 0, "no mate at all in the sample");
    }

    #[test]
    fn empty_board_distances() {
        let t = tables();
        let sq = |s: &str| chimere_core::Square::parse(s).expect("square").index();
        assert_eq!(t.dist(KNIGHT.index(), sq("a1"), sq("h8")), 6);
        assert_eq!(t.dist(BISHOP.index(), sq("a1"), sq("a2")), INF);
        assert_eq!(t.dist(KING.index(), sq("e1"), sq("h1")), 2);
        // A white pawn on b7 stands on a8 as a knight after one move (capture-promotion).
        assert_eq!(t.pawn(0, sq("b7"), KNIGHT.index(), sq("a8")), 1);
        assert_eq!(t.pawn(0, sq("b7"), KNIGHT.index(), sq("b6")), 2);
        assert_eq!(t.pawn(1, sq("e7"), PAWN.index(), sq("e5")), 1);
        assert_eq!(t.pawn(0, sq("e7"), PAWN.index(), sq("e5")), INF);
        // The rook of a castling corner stands on its castling square at no cost.
        assert_eq!(t.reach(0, ROOK.index(), sq("h1"), ROOK.index(), sq("f1")), 0);
    }
}
