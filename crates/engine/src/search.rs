//! The search: iterative deepening over PVS alpha-beta with a transposition table (also
//! in quiescence), move ordering (table move, captures by material gained, killers,
//! history; where the data marks it sound, captures losing material by static exchange
//! last), quiescence on noisy turns (without those losing captures), late-move
//! reductions and static pruning where the variant's data says they are sound, the
//! game-level rules (repetition, fifty moves, insufficient material) inside
//! the tree, and lazy SMP threads sharing the table.
//!
//! Scores are always from the point of view of the side to move of the node. A turn may
//! leave the same side to move (fairy multi-move turns), so a child's score is negated only
//! when the side to move changed.

use crate::eval::{self, Tables};
use crate::pos::{self, Api};
use crate::time::{Clock, Limits};
use crate::tt::{Bound, Tt};
use chimere_core::{Board, Colour, Repetition, Status};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// A mate score: `MATE - plies` for the side that mates.
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;

const INF: i32 = 31_000;
/// Deepest ply of the tree (quiescence included).
pub const MAX_PLY: usize = 96;
const HISTORY: usize = 4096;
/// How much the engine dislikes a draw (centipawns, for the side it plays): it keeps
/// playing on when a little worse rather than repeating.
pub const CONTEMPT: i32 = 15;
/// Ordering score of a noisy turn: this plus the material it gains (clamped).
const NOISY: i32 = 1_000_000;
const TT_MOVE: i32 = 2_000_000;

/// Ordering score of a noisy turn that loses material by static exchange: this plus the
/// exchange's balance (after every quiet turn).
const BAD_NOISY: i32 = -1_000_000;

#[inline]
fn is_noisy_score(s: i32) -> bool {
    (NOISY - 50_000..TT_MOVE).contains(&s) || is_bad_noisy(s)
}

#[inline]
fn is_bad_noisy(s: i32) -> bool {
    (BAD_NOISY - 50_000..BAD_NOISY + 50_000).contains(&s)
}

/// Exchange value of the king for [`exchange`]: it may only take last.
const SEE_KING: i32 = 20_000;

/// What `side` (to move) wins at best by capturing on `to` and going on with the exchange
/// there, least valuable attacker first (0 if it had better not start). Kinds 0-5 are
/// chess's; `values` their worth.
fn exchange(b: &Board, to: chimere_core::Square, side: Colour, values: &[i32; 16]) -> i32 {
    let Some(target) = b.get(to) else { return 0 };
    exchange_on(b, b.occupied(), to, target.kind.index().min(5), side, values)
}

/// [`exchange`] on the units of `b` standing on `occ`, with a unit of kind `target` (0-5)
/// on `to`: the exchange after a turn, read from the board before it (`occ` is the
/// occupancy after it; the squares it emptied are out of `occ`, and no unit on `to`
/// attacks `to`).
fn exchange_on(
    b: &Board,
    mut occ: chimere_core::Bitboard,
    to: chimere_core::Square,
    target: usize,
    side: Colour,
    values: &[i32; 16],
) -> i32 {
    use chimere_core::{Bitboard, Kind, Piece, attacks};
    let value = |k: usize| if k == 5 { SEE_KING } else { values[k] };
    let least = |occ: Bitboard, side: Colour| -> Option<(chimere_core::Square, usize)> {
        let of = |k: usize, from: Bitboard| (from & occ & b.pieces(Piece::new(side, Kind(k as u8)))).first();
        if let Some(sq) = of(0, attacks::pawn(side == Colour::Black, to)) {
            return Some((sq, 0));
        }
        if let Some(sq) = of(1, attacks::knight(to)) {
            return Some((sq, 1));
        }
        // The queen walks as the bishop and the rook: their lines, looked up once.
        let diagonal = attacks::bishop(to, occ);
        if let Some(sq) = of(2, diagonal) {
            return Some((sq, 2));
        }
        let straight = attacks::rook(to, occ);
        if let Some(sq) = of(3, straight) {
            return Some((sq, 3));
        }
        if let Some(sq) = of(4, diagonal | straight) {
            return Some((sq, 4));
        }
        of(5, attacks::king(to)).map(|sq| (sq, 5))
    };
    let mut gain = [0i32; 34];
    let Some((sq, k)) = least(occ, side) else { return 0 };
    gain[0] = value(target);
    let mut on = value(k);
    occ.clear(sq);
    let mut mover = side.opponent();
    let mut d = 0;
    while d < 32 {
        let Some((sq, k)) = least(occ, mover) else { break };
        d += 1;
        gain[d] = on - gain[d - 1];
        on = value(k);
        occ.clear(sq);
        mover = mover.opponent();
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0].max(0)
}

/// The exchange value of the unit on `to` (as [`exchange`] counts it; 0 on an empty square).
#[inline]
fn see_value(b: &Board, to: chimere_core::Square, values: &[i32; 16]) -> i32 {
    b.get(to).map_or(0, |p| {
        let k = p.kind.index().min(5);
        if k == 5 { SEE_KING } else { values[k] }
    })
}

/// A fast hasher for [`turn_id`]: multiply-rotate over the turn's fields.
struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    #[inline]
    fn write_u8(&mut self, x: u8) {
        self.write_u64(x as u64);
    }
    #[inline]
    fn write_u16(&mut self, x: u16) {
        self.write_u64(x as u64);
    }
    #[inline]
    fn write_u32(&mut self, x: u32) {
        self.write_u64(x as u64);
    }
    #[inline]
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(23) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    #[inline]
    fn finish(&self) -> u64 {
        let x = self.0 ^ (self.0 >> 29);
        x.wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ (x >> 32)
    }
}

/// The search's own 32-bit id of a turn (table move, killers, history, excluded root
/// turns): a digest of the turn's value like [`chimere_core::Variant::move_id`]'s, with a
/// cheaper hash (it is computed for every turn of every node). Never 0.
#[inline]
fn turn_id<M: std::hash::Hash>(m: &M) -> u32 {
    use std::hash::Hasher;
    let mut h = IdHasher(0x243F_6A88_85A3_08D3);
    m.hash(&mut h);
    let x = h.finish();
    ((x ^ (x >> 32)) as u32).max(1)
}

/// A score as UCI writes it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Score {
    /// Centipawns for the side to move.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    pub fn from_internal(s: i32) -> Score {
        if s > MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s < -MATE_BOUND {
            Score::Mate(-((MATE + s + 1) / 2))
        } else {
            Score::Cp(s)
        }
    }
}

/// Settings of a search besides its limits.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Search threads (lazy SMP).
    pub threads: usize,
    /// Number of best lines reported.
    pub multipv: usize,
    /// Playing level 1-8 (8: full strength).
    pub level: u8,
    /// Milliseconds kept for transmission delays.
    pub overhead_ms: u64,
    /// Write castling as king takes rook.
    pub chess960: bool,
    /// Use the transposition table (tests switch it off).
    pub use_tt: bool,
    /// Seed of the choice among near-best turns at levels below 8.
    pub seed: u64,
    /// Which evaluation numbers to play with.
    pub numbers: Numbers,
}

/// The evaluation numbers a search uses.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Numbers {
    /// The variant's numbers ([`Api::eval_data`]: fitted to game results where that was done).
    #[default]
    Current,
    /// The hand-set numbers a fit started from ([`Api::hand_set_data`]), to measure the fit.
    HandSet,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            threads: 1,
            multipv: 1,
            level: 8,
            overhead_ms: 10,
            chess960: false,
            use_tt: true,
            seed: 0,
            numbers: Numbers::Current,
        }
    }
}

/// A stop request asked by the search itself (see [`Shared::with_poll`]).
pub type Poll = Box<dyn Fn() -> bool + Send + Sync>;

/// What threads share: the table, the stop flag, the node count, and an optional stop
/// request the main thread asks for.
pub struct Shared {
    pub tt: Arc<Tt>,
    pub stop: Arc<AtomicBool>,
    nodes: AtomicU64,
    poll: Option<Poll>,
    memory: Option<Arc<Memory>>,
}

/// What a search leaves the next search of the same game: the history of the quiet turns
/// that cut off. A search starts from it halved, so that the new position's own cut-offs
/// soon outweigh it; without it every search starts from an empty history.
#[derive(Debug, Default)]
pub struct Memory(std::sync::Mutex<Vec<i32>>);

impl Memory {
    /// Forget everything (a new game, another variant).
    pub fn clear(&self) {
        self.lock().clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<i32>> {
        // A panicking search thread cannot leave the table inconsistent: it is plain numbers.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The history a search starts from.
    fn recall(&self, into: &mut [i32]) {
        let kept = self.lock();
        if kept.len() == into.len() {
            for (h, k) in into.iter_mut().zip(kept.iter()) {
                *h = k / 2;
            }
        }
    }

    fn keep(&self, history: &[i32]) {
        let mut kept = self.lock();
        kept.clear();
        kept.extend_from_slice(history);
    }
}

impl Shared {
    pub fn new(tt: Arc<Tt>, stop: Arc<AtomicBool>) -> Shared {
        Shared { tt, stop, nodes: AtomicU64::new(0), poll: None, memory: None }
    }

    /// Searches start from the history `memory` kept from the previous search, and the main
    /// thread leaves its own there when it ends.
    pub fn with_memory(mut self, memory: Arc<Memory>) -> Shared {
        self.memory = Some(memory);
        self
    }

    /// The search also stops when `poll` answers true; the main thread asks it every 128
    /// nodes, from inside the search. This is the stop control of a caller that cannot set
    /// `stop` from another thread while the search runs (a single-threaded WebAssembly
    /// worker checking its messages or its own clock); together with the `report` callback
    /// of [`search`] (each completed iteration's lines) it drives an analysis without
    /// threads.
    pub fn with_poll(mut self, poll: impl Fn() -> bool + Send + Sync + 'static) -> Shared {
        self.poll = Some(Box::new(poll));
        self
    }
    /// Nodes searched so far by every thread.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }
}

/// One `info` report.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: usize,
    pub score: Score,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    /// The line, as UCI tokens.
    pub pv: Vec<String>,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct Outcome<M> {
    pub best: Option<M>,
    /// The reply expected (second turn of the line).
    pub ponder: Option<M>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    /// The best line as UCI tokens.
    pub pv: Vec<String>,
}

/// The game so far, as the search needs it.
#[derive(Clone, Debug, Default)]
pub struct History {
    /// Hashes of the earlier positions of the game, oldest first (not the current one).
    pub hashes: Vec<u64>,
    /// Plies since the last capture or pawn move.
    pub halfmove: u32,
}

struct Lmr([[u8; 64]; 64]);

impl Lmr {
    fn new() -> Lmr {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (i, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.5 + (d as f64).ln() * (i as f64).ln() / 2.2) as u8;
            }
        }
        Lmr(t)
    }
}

struct Worker<'a, V: Api> {
    pos: V,
    t: &'a Tables,
    shared: &'a Shared,
    clock: &'a Clock,
    limits: &'a Limits,
    settings: &'a Settings,
    main: bool,
    /// Game hashes then the path's: `keys[root_len + ply - 1]` is the position at `ply`.
    keys: Vec<u64>,
    root_len: usize,
    /// Plies since an irreversible turn at each ply.
    fifty: Vec<u32>,
    lists: Vec<Vec<V::Move>>,
    order: Vec<Vec<(i32, u32)>>,
    killers: Vec<[u32; 2]>,
    history: Vec<i32>,
    pv: Vec<Vec<V::Move>>,
    lmr: &'a Lmr,
    nodes: u64,
    unflushed: u64,
    seldepth: usize,
    stopped: bool,
    /// Root turns excluded (MultiPV lines already found), by id.
    excluded: Vec<u32>,
    root_best: Option<(V::Move, i32)>,
    /// `nulled[ply]`: the node at `ply` was reached by a pass.
    nulled: Vec<bool>,
    /// `static_evals[ply]`: the side to move at `ply` and its static value (`None` in check),
    /// set before the node searches its children.
    static_evals: Vec<(Colour, Option<i32>)>,
    /// Whether the side to move of the node about to be searched is in check, when its
    /// parent already asked ([`Worker::child`] sets it, the node takes it).
    child_check: Option<bool>,
    /// Pieces of rules types that keep no [`Board`] of their own.
    scratch: Board,
    /// The side the engine plays.
    root_stm: Colour,
    /// Pawn structures already evaluated.
    pawns: eval::chess::PawnCache,
    /// The evaluation's scratch space.
    seen: eval::Attacks,
    /// Positions already evaluated, by hash.
    evals: EvalCache,
    /// Best turns stored, by position hash.
    turns: TurnCache<V::Move>,
}

/// Evaluations already made, by position hash (the evaluation is a function of the
/// position, which the hash stands for): transpositions and quiescence's re-visits are
/// evaluated once. One per search thread; a slot holds the full key, so a hit is the
/// same position (up to a 64-bit collision, as for the transposition table).
struct EvalCache {
    slots: Box<[(u64, i32)]>,
}

const EVAL_CACHE: usize = 1 << 14;

impl EvalCache {
    fn new() -> Self {
        // Key 0 with no value: no position hashes to 0 in practice, and a miss costs only
        // the evaluation.
        EvalCache { slots: vec![(0, i32::MIN); EVAL_CACHE].into_boxed_slice() }
    }

    #[inline]
    fn get(&self, key: u64) -> Option<i32> {
        let (k, v) = self.slots[(key as usize) & (EVAL_CACHE - 1)];
        (k == key && v != i32::MIN).then_some(v)
    }

    #[inline]
    fn put(&mut self, key: u64, value: i32) {
        self.slots[(key as usize) & (EVAL_CACHE - 1)] = (key, value);
    }
}

/// The best turn this worker stored with each position, by hash (the table keeps a turn's
/// id only): a node whose table turn is here plays it before generating its turns. A slot
/// holds the full key, so a hit is the same position (up to a 64-bit collision, as for the
/// table), where the turn is legal.
struct TurnCache<M> {
    slots: Box<[(u64, Option<M>)]>,
    mask: usize,
}

/// The size of a [`TurnCache`] (1 MB: 65 536 slots of a chess turn; fewer of a larger one).
const TURN_CACHE_BYTES: usize = 1 << 20;

impl<M: Copy> TurnCache<M> {
    fn new() -> Self {
        let slot = std::mem::size_of::<(u64, Option<M>)>();
        // The largest power of two that fits.
        let n = (TURN_CACHE_BYTES / slot + 1).next_power_of_two() / 2;
        TurnCache { slots: vec![(0, None); n].into_boxed_slice(), mask: n - 1 }
    }

    #[inline]
    fn get(&self, key: u64) -> Option<M> {
        let (k, m) = self.slots[(key as usize) & self.mask];
        if k == key { m } else { None }
    }

    #[inline]
    fn put(&mut self, key: u64, m: M) {
        self.slots[(key as usize) & self.mask] = (key, Some(m));
    }
}

fn terminal(st: Status, stm: Colour, ply: usize, draw: i32) -> Option<i32> {
    match st {
        Status::Ongoing => None,
        Status::Draw => Some(draw),
        s if s == Status::win_for(stm) => Some(MATE - ply as i32),
        _ => Some(-(MATE - ply as i32)),
    }
}

fn to_tt(s: i32, ply: usize) -> i32 {
    if s > MATE_BOUND {
        s + ply as i32
    } else if s < -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

fn from_tt(s: i32, ply: usize) -> i32 {
    if s > MATE_BOUND {
        s - ply as i32
    } else if s < -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

impl<'a, V: Api> Worker<'a, V> {
    #[allow(clippy::too_many_arguments)]
    fn new(
        pos: V,
        t: &'a Tables,
        shared: &'a Shared,
        clock: &'a Clock,
        limits: &'a Limits,
        settings: &'a Settings,
        lmr: &'a Lmr,
        hist: &History,
        main: bool,
    ) -> Self {
        let root_stm = pos.side_to_move();
        let mut keys = Vec::with_capacity(hist.hashes.len() + MAX_PLY + 2);
        keys.extend_from_slice(&hist.hashes);
        keys.push(pos.hash());
        let root_len = keys.len();
        let mut fifty = vec![0; MAX_PLY + 2];
        fifty[0] = hist.halfmove;
        let mut history = vec![0; 2 * HISTORY];
        if let Some(m) = &shared.memory {
            m.recall(&mut history);
        }
        Worker {
            pos,
            t,
            shared,
            clock,
            limits,
            settings,
            main,
            keys,
            root_len,
            fifty,
            lists: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            order: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            killers: vec![[0; 2]; MAX_PLY + 2],
            history,
            pv: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            lmr,
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            stopped: false,
            excluded: Vec::new(),
            root_best: None,
            nulled: vec![false; MAX_PLY + 2],
            static_evals: vec![(Colour::White, None); MAX_PLY + 2],
            child_check: None,
            scratch: Board::empty(),
            root_stm,
            pawns: eval::chess::PawnCache::default(),
            seen: eval::Attacks::new(),
            evals: EvalCache::new(),
            turns: TurnCache::new(),
        }
    }

    /// Counts a node; every 128 nodes publishes the count and checks the limits; checks the
    /// stop flag at every node (some variants have slow nodes: Dynamo lists thousands of
    /// turns).
    #[inline]
    fn tick(&mut self) {
        self.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= 128 {
            let total = self.shared.nodes.fetch_add(self.unflushed, Relaxed) + self.unflushed;
            self.unflushed = 0;
            if self.limits.nodes.is_some_and(|n| total >= n)
                || (self.main && (self.clock.out_of_time() || self.shared.poll.as_ref().is_some_and(|p| p())))
            {
                self.shared.stop.store(true, Relaxed);
            }
        }
        // The flag at every node (a relaxed load): some variants' nodes are slow.
        if self.shared.stop.load(Relaxed) {
            self.stopped = true;
        }
    }

    fn flush(&mut self) {
        self.shared.nodes.fetch_add(self.unflushed, Relaxed);
        self.unflushed = 0;
    }

    /// The game-level rules at a node reached by the previous turn (`mover` played it):
    /// repetition, fifty moves, insufficient material.
    fn game_rules(&self, ply: usize, mover: Colour, stm: Colour) -> Option<i32> {
        let idx = self.root_len + ply - 1;
        let key = self.keys[idx];
        let reach = if V::RULES.fifty_moves { self.fifty[ply] as usize } else { idx };
        let lo = idx.saturating_sub(reach);
        let mut count = 0;
        let mut in_path = false;
        let mut i = idx;
        while i > lo {
            i -= 1;
            if self.keys[i] == key {
                count += 1;
                if i >= self.root_len - 1 {
                    in_path = true;
                }
            }
        }
        if count >= 2 || (count >= 1 && in_path) {
            if count >= 2 && V::RULES.repetition == Repetition::CompleterLoses {
                // The player who completed the threefold repetition loses.
                let s = MATE - ply as i32;
                return Some(if mover == stm { -s } else { s });
            }
            return Some(self.draw(stm));
        }
        if V::RULES.fifty_moves && self.fifty[ply] >= 100 {
            return Some(self.draw(stm));
        }
        if self.pos.insufficient_material() {
            return Some(self.draw(stm));
        }
        None
    }

    /// The score of a draw for `stm`: below zero for the side the engine plays.
    #[inline]
    fn draw(&self, stm: Colour) -> i32 {
        if stm == self.root_stm { -CONTEMPT } else { CONTEMPT }
    }

    #[inline]
    fn evaluate(&mut self) -> i32 {
        let key = self.pos.hash();
        let cached = self.evals.get(key);
        // Tests (debug assertions on) evaluate anyway: a hit must be what the evaluation
        // gives, or the hash leaves out something the evaluation reads.
        if let Some(v) = cached
            && !cfg!(debug_assertions)
        {
            return v;
        }
        let b = pos::board(&self.pos, &mut self.scratch);
        let v = eval::evaluate_with(&self.pos, b, self.t, Some(&mut self.pawns), &mut self.seen);
        debug_assert!(cached.is_none_or(|c| c == v), "cached evaluation {cached:?} differs from {v}");
        self.evals.put(key, v);
        v
    }

    /// Whether `c` has a unit besides pawns and kings worth more than a pawn (zugzwang guard).
    fn has_pieces(&mut self, c: Colour) -> bool {
        let b = pos::board(&self.pos, &mut self.scratch);
        let own = b.colour(c);
        (0..self.t.data.kinds)
            .any(|k| self.t.data.value_mg[k] > 200 && (b.kind(chimere_core::Kind(k as u8)) & own).any())
    }

    /// Appends to `order[ply]` (which holds the scores of `lists[ply][..from]`) an ordering
    /// score and the id of each turn of `lists[ply][from..]`; `noisy`: whether they are all
    /// noisy or all quiet, where known.
    fn score_from(&mut self, ply: usize, from: usize, tt_move: u32, stm: Colour, noisy: Option<bool>) {
        let mut order = std::mem::take(&mut self.order[ply]);
        let list = std::mem::take(&mut self.lists[ply]);
        debug_assert_eq!(order.len(), from);
        // The material and `stm`'s squares before the turns, for the noisy turns valued
        // by playing them (computed at the first).
        let mut before: Option<(i32, chimere_core::Bitboard)> = None;
        let side = if stm == Colour::Black { HISTORY } else { 0 };
        for m in &list[from..] {
            let id = turn_id(m);
            let s = if id == tt_move && tt_move != 0 {
                TT_MOVE
            } else if noisy.unwrap_or_else(|| self.pos.is_noisy(m)) {
                let (gained, lost) = match self.noisy_value(m, stm) {
                    Some(v) => v,
                    None => {
                        let (material, own) = *before.get_or_insert_with(|| {
                            let b = pos::board(&self.pos, &mut self.scratch);
                            (self.t.material(b), b.colour(stm))
                        });
                        self.noisy_value_played(m, stm, material, own)
                    }
                };
                let balance = (gained - lost).clamp(-49_000, 49_000);
                if balance < 0 { BAD_NOISY + balance } else { NOISY + gained.clamp(-49_000, 49_000) }
            } else if id == self.killers[ply][0] {
                900_000
            } else if id == self.killers[ply][1] {
                899_000
            } else {
                self.history[side + (id as usize & (HISTORY - 1))]
            };
            order.push((s, id));
        }
        self.lists[ply] = list;
        self.order[ply] = order;
    }

    /// What the noisy turn `m` of `stm` gains in material (middle-game values, as
    /// [`Tables::material`] counts them) and what the opponent wins back by exchange on
    /// the square it reached (0 where the data marks exchanges unsound, or where the gain
    /// covers the unit that arrived), read from the board when the rules describe the turn
    /// as a [`chimere_core::Displacement`]; `None` otherwise.
    #[inline]
    fn noisy_value(&self, m: &V::Move, stm: Colour) -> Option<(i32, i32)> {
        let b = self.pos.board()?;
        let d = self.pos.displacement(m)?;
        let data = &self.t.data;
        let mover = b.get(d.from)?;
        let value = |k: chimere_core::Kind| if k.index() < data.kinds { data.value_mg[k.index()] } else { 0 };
        let white = |p: chimere_core::Piece, v: i32| match p.colour {
            Colour::White => v,
            Colour::Black => -v,
            Colour::Shared => 0,
        };
        let after = d.becomes.unwrap_or(mover.kind);
        let mut delta = white(mover, value(after) - value(mover.kind));
        let mut occ = b.occupied();
        occ.clear(d.from);
        if let Some(c) = d.captured {
            if let Some(victim) = b.get(c) {
                delta -= white(victim, value(victim.kind));
            }
            occ.clear(c);
        }
        occ.set(d.to);
        let gained = if stm == Colour::Black { -delta } else { delta };
        let k = after.index().min(5);
        let arrived = if k == 5 { SEE_KING } else { data.value_mg[k] };
        let lost = if data.see && mover.colour == stm && gained < arrived {
            exchange_on(b, occ, d.to, k, stm.opponent(), &data.value_mg)
        } else {
            0
        };
        Some((gained, lost))
    }

    /// [`Self::noisy_value`] by playing the turn: the material before it is `before` and
    /// `stm`'s units stood on `own_before`.
    fn noisy_value_played(
        &mut self,
        m: &V::Move,
        stm: Colour,
        before: i32,
        own_before: chimere_core::Bitboard,
    ) -> (i32, i32) {
        let sign = if stm == Colour::Black { -1 } else { 1 };
        let see = self.t.data.see;
        let u = self.pos.make(m);
        let b = pos::board(&self.pos, &mut self.scratch);
        let gained = sign * (self.t.material(b) - before);
        // The square the mover reached: what the opponent may take back.
        let arrived = b.colour(stm) & !own_before;
        let lost = match arrived.first() {
            // The opponent wins back at most the unit that arrived: when the gain covers
            // it the exchange cannot make the turn a losing one.
            Some(to) if see && !arrived.more_than_one() && gained < see_value(b, to, &self.t.data.value_mg) => {
                exchange(b, to, stm.opponent(), &self.t.data.value_mg)
            }
            _ => 0,
        };
        self.pos.unmake(m, u);
        (gained, lost)
    }

    /// Moves the best remaining turn to position `i` and returns it.
    #[inline]
    fn pick(&mut self, ply: usize, i: usize) -> (V::Move, i32, u32) {
        let order = &mut self.order[ply];
        // The first of the highest scores (ties keep the list's order); nothing scores
        // above the table move.
        let (mut best, mut top) = (i, order[i].0);
        if top < TT_MOVE {
            for (j, &(s, _)) in order.iter().enumerate().skip(i + 1) {
                if s > top {
                    (best, top) = (j, s);
                    if s >= TT_MOVE {
                        break;
                    }
                }
            }
        }
        order.swap(i, best);
        self.lists[ply].swap(i, best);
        (self.lists[ply][i], order[i].0, order[i].1)
    }

    fn update_pv(&mut self, ply: usize, m: V::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    /// Plays `m` at `ply`, recording the key and the fifty-move count.
    #[inline]
    fn play(&mut self, m: &V::Move, ply: usize) -> V::Undo {
        let irreversible = V::RULES.fifty_moves && self.pos.resets_fifty(m);
        let u = self.pos.make(m);
        self.keys.push(self.pos.hash());
        self.fifty[ply + 1] = if irreversible { 0 } else { self.fifty[ply] + 1 };
        u
    }

    #[inline]
    fn take_back(&mut self, m: &V::Move, u: V::Undo) {
        self.keys.pop();
        self.pos.unmake(m, u);
    }

    /// The value of the child just played, for the side to move at `ply` (`stm`); `check`:
    /// whether its side to move is in check, where already asked.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        stm: Colour,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv: bool,
        check: Option<bool>,
    ) -> i32 {
        self.child_check = check;
        if self.pos.side_to_move() == stm {
            self.search(depth, alpha, beta, ply + 1, pv, stm)
        } else {
            -self.search(depth, -beta, -alpha, ply + 1, pv, stm)
        }
    }

    fn search(&mut self, depth: i32, mut alpha: i32, mut beta: i32, ply: usize, pv_node: bool, mover: Colour) -> i32 {
        // Whether this node's side to move is in check, if the parent asked (taken here
        // first, so that no other node reads it).
        let known_check = self.child_check.take();
        if pv_node {
            self.pv[ply].clear();
        }
        let stm = self.pos.side_to_move();
        if ply > 0 {
            if let Some(s) = self.game_rules(ply, mover, stm) {
                return s;
            }
            // Mate distance: nothing better than mating now can be found below.
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if depth <= 0 || ply >= MAX_PLY {
            self.child_check = known_check;
            return self.quiesce(alpha, beta, ply, 0);
        }
        self.tick();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let data = &self.t.data;
        let key = self.pos.hash();
        let mut tt_move = 0;
        if self.settings.use_tt
            && let Some(h) = self.shared.tt.probe(key)
        {
            tt_move = h.move_id;
            if !pv_node && ply > 0 && h.depth >= depth {
                let s = from_tt(h.score, ply);
                let cut = match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        if data.status_every_node
            && let Some(s) = terminal(self.pos.status(), stm, ply, self.draw(stm))
        {
            return s;
        }
        let in_check = known_check.unwrap_or_else(|| self.pos.in_check());
        // The static value (not in check), and whether it is better than at the side's
        // previous node on the path (two plies up, when the same side moved there; true
        // when that one was in check or is not known).
        let uses_eval = data.futility || data.null_move || data.lmr;
        let static_eval = (!in_check && ply > 0 && uses_eval).then(|| self.evaluate());
        self.static_evals[ply] = (stm, static_eval);
        let improving = match (static_eval, ply.checked_sub(2).map(|p| self.static_evals[p])) {
            (Some(e), Some((c, Some(before)))) if c == stm => e > before,
            _ => true,
        };
        // Static pruning near the leaves, where the data says it is sound.
        let prune = data.futility && !pv_node && !in_check && ply > 0 && beta.abs() < MATE_BOUND;
        if prune
            && depth <= 4
            && let Some(e) = static_eval
            && e - 90 * depth + 40 * i32::from(improving) >= beta
        {
            return e;
        }
        // Null move: if passing still fails high, so will a real turn.
        if data.null_move
            && !pv_node
            && !in_check
            && ply > 0
            && depth >= 3
            && !self.nulled[ply]
            && beta.abs() < MATE_BOUND
            && let Some(e) = static_eval
            && e >= beta
            && self.has_pieces(stm)
            && let Some(u) = self.pos.make_pass()
        {
            self.keys.push(self.pos.hash());
            self.fifty[ply + 1] = self.fifty[ply] + 1;
            self.nulled[ply + 1] = true;
            let r = 3 + depth / 6;
            let s = -self.search(depth - 1 - r, -beta, -beta + 1, ply + 1, false, stm);
            self.nulled[ply + 1] = false;
            self.keys.pop();
            self.pos.unmake_pass(u);
            if self.stopped {
                return 0;
            }
            if s >= beta {
                return if s > MATE_BOUND { beta } else { s };
            }
        }
        // No table move to start from: a shallower search here is about as good.
        let depth = if tt_move == 0 && depth >= 5 && ply > 0 { depth - 1 } else { depth };
        // The table's turn, when this worker stored it itself (so it is a legal turn of
        // this position): searched before the others are generated, which a cut-off spares.
        let mut first =
            if ply > 0 && tt_move != 0 { self.turns.get(key).filter(|m| turn_id(m) == tt_move) } else { None };
        let played_first = first.is_some();
        // Staged generation where the rules generate noisy and quiet turns apart: the
        // noisy turns first, the quiet ones only once no good noisy turn is left (a
        // cut-off before spares them). Not in check (few evasions), nor with a table
        // move not played first (it may be quiet: the whole list puts it first). The tree
        // is not the whole list's: the quiet turns are scored when generated, with the
        // history the noisy turns' subtrees left, and equal scores keep the generation
        // order (picking from the whole list swaps quiet turns behind the noisy ones).
        let staged = V::SPLIT_TURNS && ply > 0 && !in_check && (tt_move == 0 || played_first);
        // 0: nothing generated; 1: the noisy turns; 2: every turn.
        let mut stage = 0u8;
        let (mut n, mut next) = (0, 0);
        let old_alpha = alpha;
        let mut best = -INF;
        let mut best_id = 0;
        let mut best_move = None;
        let mut searched = 0usize;
        let side = if stm == Colour::Black { HISTORY } else { 0 };
        // Late-move pruning's count: fewer turns where the position is not improving.
        let late_moves = if improving { 3 + 2 * depth * depth } else { 3 + depth * depth } as usize;
        loop {
            // The next turn, its ordering score and id, and its place in the node's list
            // (`None`: the table's turn, before the list exists).
            let (m, order_score, id, at) = match first.take() {
                Some(m) => (m, TT_MOVE, tt_move, None),
                None => {
                    if stage == 0 {
                        let mut list = std::mem::take(&mut self.lists[ply]);
                        list.clear();
                        let any = if staged {
                            stage = 1;
                            self.pos.noisy_turns(&mut list)
                        } else {
                            stage = 2;
                            self.pos.legal_turns(&mut list);
                            !list.is_empty()
                        };
                        self.lists[ply] = list;
                        if !any {
                            let st = self.pos.status();
                            return terminal(st, stm, ply, self.draw(stm)).unwrap_or(0);
                        }
                        self.order[ply].clear();
                        self.score_from(ply, 0, tt_move, stm, staged.then_some(true));
                        n = self.lists[ply].len();
                    }
                    let i = next;
                    let mut picked = (i < n).then(|| self.pick(ply, i));
                    // No good noisy turn left: the quiet turns join the rest.
                    if stage == 1 && picked.is_none_or(|(_, s, _)| is_bad_noisy(s)) {
                        stage = 2;
                        let mut list = std::mem::take(&mut self.lists[ply]);
                        self.pos.quiet_turns(&mut list);
                        self.lists[ply] = list;
                        self.score_from(ply, n, tt_move, stm, Some(false));
                        n = self.lists[ply].len();
                        picked = (i < n).then(|| self.pick(ply, i));
                    }
                    let Some((m, s, id)) = picked else { break };
                    next += 1;
                    if played_first && id == tt_move {
                        continue;
                    }
                    (m, s, id, Some(i))
                }
            };
            if ply == 0 && self.excluded.contains(&id) {
                continue;
            }
            let noisy = is_noisy_score(order_score);
            // A capture that loses material by exchange is pruned and reduced like a quiet turn.
            let quiet_like = !noisy || is_bad_noisy(order_score);
            // A turn the pruning below skips unless it gives check: skipped unplayed where
            // the rules tell that it does not (the same choice, without the turn).
            if prune
                && searched >= 1
                && quiet_like
                && order_score < 899_000
                && depth <= 3
                && (searched >= late_moves
                    || (depth <= 2 && static_eval.is_some_and(|e| e + 100 * depth + 60 <= alpha)))
                && (!data.check_extension || self.pos.gives_check(&m) == Some(false))
            {
                continue;
            }
            let u = self.play(&m, ply);
            let check = data.check_extension.then(|| self.pos.in_check());
            let gives_check = check == Some(true);
            // Late quiet turns near the leaves: skip those unlikely to matter (late-move
            // and futility pruning), never a check, a capture or a killer.
            if prune && searched >= 1 && quiet_like && !gives_check && order_score < 899_000 && depth <= 3 {
                let late = searched >= late_moves;
                let futile = depth <= 2 && static_eval.is_some_and(|e| e + 100 * depth + 60 <= alpha);
                if late || futile {
                    self.take_back(&m, u);
                    continue;
                }
            }
            let ext = i32::from(gives_check && ply < MAX_PLY / 2);
            let new_depth = depth - 1 + ext;
            let score = if searched == 0 {
                self.child(stm, new_depth, alpha, beta, ply, pv_node, check)
            } else {
                let mut r = 0;
                if data.lmr
                    && depth >= 3
                    && searched >= 3
                    && quiet_like
                    && !in_check
                    && !gives_check
                    && order_score < 899_000
                {
                    r = self.lmr.0[(depth as usize).min(63)][searched.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = self.child(stm, new_depth - r, alpha, alpha + 1, ply, false, check);
                if s > alpha && r > 0 {
                    s = self.child(stm, new_depth, alpha, alpha + 1, ply, false, check);
                }
                if s > alpha && s < beta && pv_node {
                    s = self.child(stm, new_depth, alpha, beta, ply, true, check);
                }
                s
            };
            self.take_back(&m, u);
            if self.stopped {
                return 0;
            }
            searched += 1;
            if score > best {
                best = score;
                best_id = id;
                best_move = Some(m);
                if ply == 0 {
                    self.root_best = Some((m, score));
                }
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if !noisy {
                            if self.killers[ply][0] != id {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = id;
                            }
                            // The quiet turns tried before it did not cut: less history.
                            for j in 0..at.unwrap_or(0) {
                                let (o, qid) = self.order[ply][j];
                                if o < 899_000 && !is_noisy_score(o) {
                                    let h = &mut self.history[side + (qid as usize & (HISTORY - 1))];
                                    *h = (*h - depth * depth).max(-400_000);
                                }
                            }
                            let h = &mut self.history[side + (id as usize & (HISTORY - 1))];
                            *h += depth * depth;
                            if *h > 400_000 {
                                for x in self.history.iter_mut() {
                                    *x /= 2;
                                }
                            }
                        }
                        break;
                    }
                }
            }
        }
        if searched == 0 {
            // Every root turn excluded (MultiPV beyond the number of turns).
            return -INF;
        }
        if self.settings.use_tt {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > old_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.shared.tt.store(key, best_id, to_tt(best, ply), depth, bound);
            if let Some(m) = best_move {
                self.turns.put(key, m);
            }
        }
        best
    }

    fn quiesce(&mut self, mut alpha: i32, beta: i32, ply: usize, qdepth: u32) -> i32 {
        let known_check = self.child_check.take();
        self.tick();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let stm = self.pos.side_to_move();
        let data = &self.t.data;
        if data.status_every_node
            && let Some(s) = terminal(self.pos.status(), stm, ply, self.draw(stm))
        {
            return s;
        }
        let in_check = qdepth < 4 && data.check_extension && known_check.unwrap_or_else(|| self.pos.in_check());
        let key = self.pos.hash();
        let mut tt_move = 0;
        if self.settings.use_tt
            && let Some(h) = self.shared.tt.probe(key)
        {
            tt_move = h.move_id;
            let s = from_tt(h.score, ply);
            let cut = match h.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return s;
            }
        }
        let old_alpha = alpha;
        if ply >= MAX_PLY {
            return self.evaluate();
        }
        // In check the static value is not a bound: not evaluated.
        let stand = if in_check { 0 } else { self.evaluate() };
        let mut best = -INF;
        if !in_check {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        // In check every turn, else the noisy ones (in the whole list's order). No turn
        // at all: the game is over.
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        let over = if in_check {
            self.pos.legal_turns(&mut list);
            list.is_empty()
        } else {
            !self.pos.noisy_turns(&mut list)
        };
        self.lists[ply] = list;
        if over {
            let st = self.pos.status();
            return terminal(st, stm, ply, self.draw(stm)).unwrap_or(0);
        }
        if self.lists[ply].is_empty() {
            return stand;
        }
        self.order[ply].clear();
        self.score_from(ply, 0, tt_move, stm, (!in_check).then_some(true));
        let n = self.lists[ply].len();
        let mut best_id = 0;
        for i in 0..n {
            let (m, order_score, id) = self.pick(ply, i);
            if !in_check {
                // Captures that lose material by exchange come last: none is worth trying.
                if is_bad_noisy(order_score) {
                    break;
                }
                if (NOISY - 50_000..TT_MOVE).contains(&order_score) && stand + (order_score - NOISY) + 200 < alpha {
                    continue;
                }
            }
            let u = self.play(&m, ply);
            let score = if self.pos.side_to_move() == stm {
                self.quiesce(alpha, beta, ply + 1, qdepth + 1)
            } else {
                -self.quiesce(-beta, -alpha, ply + 1, qdepth + 1)
            };
            self.take_back(&m, u);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_id = id;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if self.settings.use_tt && best > -INF {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > old_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.shared.tt.store(key, best_id, to_tt(best, ply), 0, bound);
        }
        best
    }

    /// One root search at `depth` within the window; the best turn is in `root_best`.
    fn root(&mut self, depth: i32, alpha: i32, beta: i32) -> i32 {
        self.root_best = None;
        self.seldepth = 0;
        let stm = self.pos.side_to_move();
        self.search(depth, alpha, beta, 0, true, stm.opponent())
    }
}

/// The UCI token of the legal turn `m` of `pos`, written with the whole legal list (some
/// rules sets disambiguate tokens against the other turns).
pub fn token<V: Api>(pos: &mut V, m: &V::Move, chess960: bool) -> Option<String> {
    let mut legal = Vec::new();
    pos.legal_turns(&mut legal);
    let i = legal.iter().position(|x| x == m)?;
    pos.uci_all(&legal, chess960).into_iter().nth(i)
}

/// UCI tokens of a line from `pos` (up to its first turn that is not legal).
fn line_tokens<V: Api>(pos: &V, line: &[V::Move], chess960: bool) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(line.len());
    for m in line {
        let Some(t) = token(&mut p, m, chess960) else { break };
        out.push(t);
        p.make(m);
    }
    out
}

/// The level's limits: maximum depth, maximum nodes, and the margin (centipawns) within
/// which a turn may be chosen instead of the best.
pub fn level_limits(level: u8) -> (Option<u32>, Option<u64>, i32) {
    match level {
        0 | 1 => (Some(1), Some(300), 120),
        2 => (Some(2), Some(1_500), 90),
        3 => (Some(3), Some(6_000), 70),
        4 => (Some(4), Some(25_000), 50),
        5 => (Some(5), Some(100_000), 35),
        6 => (Some(6), Some(60_000), 20),
        7 => (Some(8), Some(160_000), 8),
        _ => (None, None, 0),
    }
}

/// Searches `pos` within `limits`; calls `report` after each completed iteration (main
/// thread). Stops when `shared.stop` is set.
pub fn search<V: Api>(
    pos: &V,
    history: &History,
    limits: &Limits,
    settings: &Settings,
    shared: &Shared,
    report: &mut dyn FnMut(&Info),
) -> Outcome<V::Move> {
    let tables = Tables::new(match settings.numbers {
        Numbers::Current => V::eval_data(),
        Numbers::HandSet => V::hand_set_data(),
    });
    let lmr = Lmr::new();
    let mut root = pos.clone();
    let clock = Clock::new(limits, root.side_to_move(), settings.overhead_ms);
    shared.nodes.store(0, Relaxed);
    shared.tt.new_search();
    let mut legal = Vec::new();
    root.legal_turns(&mut legal);
    let mut outcome = Outcome { best: None, ponder: None, score: 0, depth: 0, nodes: 0, pv: Vec::new() };
    if legal.is_empty() || root.status() != Status::Ongoing {
        return outcome;
    }
    let (level_depth, level_nodes, margin) = level_limits(settings.level);
    let mut limits = limits.clone();
    if let Some(d) = level_depth {
        limits.depth = Some(limits.depth.map_or(d, |x| x.min(d)));
    }
    if let Some(n) = level_nodes {
        limits.nodes = Some(limits.nodes.map_or(n, |x| x.min(n)));
    }
    let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 4).clamp(1, MAX_PLY as u32 - 4) as i32;
    let multipv = if margin > 0 { settings.multipv.max(4) } else { settings.multipv.max(1) }.min(legal.len());
    let single = legal.len() == 1 && !limits.infinite && limits.depth.is_none() && limits.nodes.is_none();
    let limits = &limits;
    let clock = &clock;
    let tables = &tables;
    let lmr = &lmr;

    // The main thread's iterative deepening (MultiPV, reports, the final choice).
    let mut main = || {
        let mut w = Worker::new(pos.clone(), tables, shared, clock, limits, settings, lmr, history, true);
        let mut lines: Vec<(V::Move, i32, Vec<V::Move>)> = Vec::new();
        let mut prev_score: i32 = 0;
        for depth in 1..=max_depth {
            let mut found: Vec<(V::Move, i32, Vec<V::Move>)> = Vec::new();
            w.excluded.clear();
            for k in 0..multipv {
                let (mut a, mut b) = (-INF, INF);
                let mut delta = 35;
                if k == 0 && depth >= 5 && prev_score.abs() < MATE_BOUND {
                    a = prev_score - delta;
                    b = prev_score + delta;
                }
                let score = loop {
                    let s = w.root(depth, a, b);
                    if w.stopped {
                        break s;
                    }
                    if s <= a && a > -INF {
                        a = (s - delta).max(-INF);
                    } else if s >= b && b < INF {
                        b = (s + delta).min(INF);
                    } else {
                        break s;
                    }
                    delta *= 2;
                };
                if w.stopped {
                    // A turn fully searched in a stopped iteration is still usable as the
                    // best if it beat the previous best line's score.
                    if k == 0
                        && let Some((m, s)) = w.root_best
                        && (lines.is_empty() || s > lines[0].1)
                    {
                        let pv = if w.pv[0].first() == Some(&m) { w.pv[0].clone() } else { vec![m] };
                        found.push((m, s, pv));
                    }
                    break;
                }
                let Some((m, _)) = w.root_best else { break };
                let pv = if w.pv[0].first() == Some(&m) { w.pv[0].clone() } else { vec![m] };
                w.excluded.push(turn_id(&m));
                found.push((m, score, pv));
            }
            if found.is_empty() {
                break;
            }
            let complete = !w.stopped;
            if complete || lines.is_empty() {
                lines = found;
                // Reported best first: a later line may have scored above an earlier one
                // (each is its own search); equal scores keep the order found.
                lines.sort_by_key(|l| std::cmp::Reverse(l.1));
            } else {
                let n = found.len().min(lines.len());
                for (slot, f) in lines.iter_mut().zip(found).take(n) {
                    *slot = f;
                }
            }
            prev_score = lines[0].1;
            outcome.depth = depth as u32;
            w.flush();
            if complete {
                let elapsed = clock.elapsed().as_millis() as u64;
                let nodes = shared.nodes();
                for (k, (_, s, line)) in lines.iter().enumerate().take(settings.multipv.max(1)) {
                    report(&Info {
                        depth: depth as u32,
                        seldepth: (w.seldepth as u32).max(depth as u32),
                        multipv: k + 1,
                        score: Score::from_internal(*s),
                        nodes,
                        nps: nodes * 1000 / elapsed.max(1),
                        time_ms: elapsed,
                        hashfull: shared.tt.hashfull(),
                        pv: line_tokens(&root, line, settings.chess960),
                    });
                }
            }
            if w.stopped || shared.stop.load(Relaxed) {
                break;
            }
            if single || !clock.another_iteration() {
                break;
            }
            // A mate found for sure at this depth will not get better.
            if limits.depth.is_none()
                && !limits.infinite
                && lines[0].1.abs() > MATE_BOUND
                && depth > (MATE - lines[0].1.abs()) + 2
            {
                break;
            }
        }
        shared.stop.store(true, Relaxed);
        w.flush();
        if let Some(m) = &shared.memory {
            m.keep(&w.history);
        }
        let choice = choose(&lines, margin, settings.seed ^ root.hash());
        if let Some((m, s, line)) = choice {
            outcome.best = Some(*m);
            outcome.score = *s;
            outcome.ponder = line.get(1).copied();
            outcome.pv = line_tokens(&root, line, settings.chess960);
        }
    };
    if settings.threads <= 1 {
        // One thread: no thread is started (the single-thread path runs where threads
        // do not exist, as in a browser's WebAssembly worker).
        main();
    } else {
        std::thread::scope(|scope| {
            for id in 1..settings.threads.max(1) {
                let helper_pos = pos.clone();
                std::thread::Builder::new()
                    .stack_size(32 << 20)
                    .spawn_scoped(scope, move || {
                        let mut w =
                            Worker::new(helper_pos, tables, shared, clock, limits, settings, lmr, history, false);
                        let mut d = 1 + (id as i32 & 1);
                        while d <= max_depth && !w.stopped && !shared.stop.load(Relaxed) {
                            w.root(d, -INF, INF);
                            d += 1;
                        }
                        w.flush();
                    })
                    .expect("a search thread starts");
            }
            main();
        });
    }
    if outcome.best.is_none() {
        outcome.best = legal.first().copied();
    }
    outcome.nodes = shared.nodes();
    outcome
}

/// At full strength the best line; at a lower level a line whose score is within
/// `margin` of the best, weighted towards the best.
#[allow(clippy::type_complexity)]
fn choose<M>(lines: &[(M, i32, Vec<M>)], margin: i32, seed: u64) -> Option<&(M, i32, Vec<M>)> {
    let first = lines.first()?;
    if margin <= 0 || first.1.abs() > MATE_BOUND {
        return Some(first);
    }
    let near: Vec<_> = lines.iter().filter(|l| l.1 >= first.1 - margin).collect();
    let weights: Vec<u64> = near.iter().map(|l| (margin + 1 - (first.1 - l.1)).max(1) as u64).collect();
    let total: u64 = weights.iter().sum();
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= x >> 31;
    let mut pick = x % total.max(1);
    for (l, w) in near.iter().zip(&weights) {
        if pick < *w {
            return Some(l);
        }
        pick -= w;
    }
    Some(first)
}

#[cfg(test)]
mod tests {
    use super::{TURN_CACHE_BYTES, TurnCache, exchange};

    #[test]
    fn turn_cache_answers_its_own_key_only_and_fits_its_size() {
        let mut c = TurnCache::<u32>::new();
        let n = c.slots.len();
        assert!(n.is_power_of_two() && n * std::mem::size_of::<(u64, Option<u32>)>() <= TURN_CACHE_BYTES);
        assert_eq!(n, 65_536);
        c.put(5, 7);
        assert_eq!(c.get(5), Some(7));
        // The same slot under another key: a miss, then that key's own turn.
        let other = 5 + n as u64;
        assert_eq!(c.get(other), None);
        c.put(other, 9);
        assert_eq!((c.get(5), c.get(other)), (None, Some(9)));
        // A larger turn: fewer slots, the same bound.
        let big = TurnCache::<[u64; 5]>::new();
        assert!(big.slots.len() * std::mem::size_of::<(u64, Option<[u64; 5]>)>() <= TURN_CACHE_BYTES);
        assert!(big.slots.len() * 2 * std::mem::size_of::<(u64, Option<[u64; 5]>)>() > TURN_CACHE_BYTES);
    }
    use chimere_core::{Colour, Square, Variant};

    const VALUES: [i32; 16] = [100, 300, 300, 500, 900, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

    fn gain(fen: &str, to: &str, side: Colour) -> i32 {
        let pos = chimere_chess::Chess::from_fen(fen).unwrap();
        exchange(Variant::board(&pos).unwrap(), Square::parse(to).unwrap(), side, &VALUES)
    }

    #[test]
    fn exchange_counts_defenders_and_x_rays() {
        // An undefended pawn is won; a defended one is not worth the queen.
        assert_eq!(gain("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d5", Colour::White), 100);
        assert_eq!(gain("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", "d5", Colour::White), 0);
        // Pawn takes knight, pawn takes back, rook takes: a knight for nothing.
        assert_eq!(gain("4k3/8/4p3/3n4/4P3/8/8/3RK3 w - - 0 1", "d5", Colour::White), 300);
        // Rook takes a pawn defended by a rook, with a second rook behind the first (x-ray):
        // R×p, r×R, R×r: a pawn and a rook for a rook.
        assert_eq!(gain("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d5", Colour::White), 100);
        // The king may take only when nothing defends.
        assert_eq!(gain("8/8/8/3p4/3K4/8/8/7k w - - 0 1", "d5", Colour::White), 100);
        assert_eq!(gain("8/8/4p3/3p4/3K4/8/8/7k w - - 0 1", "d5", Colour::White), 0);
    }
}
