//! Help play towards committed final pictures (the intelligent mode when the mating side
//! has [`PICTURES_FROM`] moves or more, where the bound of the parent module is weak).
//!
//! A *picture* commits the end of a mate: the mated king's final square K (within its
//! side's moves); for some units of the mating side a final square and kind each (the
//! units that check K or guard a flight of K; the others are free); for each flight of K
//! that no committed unit attacks on an empty board, a unit of the mated side that stands
//! on it at the end. Every real mate fits at least one enumerated picture: take the
//! mating units that really attack K or a flight (real attacks are within the
//! empty-board ones, also through the king's own square, discovered and double checks
//! included), a minimal subset of them that still checks K and guards every flight not
//! occupied by a mated unit, and the occupants of the remaining flights (a flight held
//! by a mating unit is guarded, else the king takes it). In the enumeration each
//! committed unit adds an attacked square the units before it do not attack (true of a
//! minimal subset in any order), no flight left unguarded holds a committed mating unit,
//! and each side's committed distances (empty-board lower bounds, promotions, captures
//! and castling counted as possible; the mated king's included) fit within its moves.
//!
//! A leaper (pawn, knight) that checks K at the end, or a unit checking it from next to
//! it, made the mating move (its check cannot be discovered: no square between to clear;
//! and the mated side never moves into check): a picture has at most one such checker,
//! and while it stands on its final square already it must still leave and come back
//! (two more moves; a pawn cannot).
//!
//! **Parries.** When every mating unit but the king is committed, a picture is dropped
//! if exactly one committed unit checks K with nothing between in the picture and a
//! blocker, as every kind it may end as, can take it or step into its line in one
//! move that no unit can obstruct ([`Enum::defended`], with the proof): no final
//! position fitting it is a mate. This is what keeps a lone mating piece from carrying
//! every picture of blockers that would parry its check (Popeye's targets are real
//! mates for the same reason).
//!
//! A picture of a *stalemate* commits the stalemated king's final square K, for some
//! units of the stalemating side a final square and kind (units that guard flights of
//! K), and for each flight that no committed unit attacks on an empty board a unit of
//! the stalemated side standing on it. Every stalemate fits one: each flight of K is
//! held by a unit of the stalemated side or really guarded (else the king moves there
//! or takes); take a minimal subset of the real guards still guarding every guarded
//! flight, as above (a unit whose empty-board attacks add nothing is left out: its real
//! attacks are within the others'), so a flight outside the subset's empty-board
//! attacks is guarded by no one and holds a unit of the stalemated side (never a
//! committed guard). A committed leaper (pawn, knight) never attacks K from its final
//! square (a leaper's check cannot be blocked, and the stalemated king is not in
//! check), nor does the king stand next to K.
//!
//! **Full commitment of the stalemated side.** A stalemate picture is then completed:
//! every other unit of the stalemated side S gets a fate, *captured* or a final square
//! and kind (its distance counted in S's budget, with the king's and the blockers'),
//! the captured ones at most the stalemating side W's moves (one capture a move) and,
//! more sharply, assignable to distinct capturing moves of W's units within W's moves
//! ([`Enum::captures_possible`]: a unit's moves are at least its committed distance,
//! its number of captures, and its distance through each capture square, the captured
//! unit taken where it stands after at most S's spare moves). S's final squares are
//! then known exactly (king, blockers, placed units), and each placed unit (a blocker
//! that is not a pawn too) must have no legal move: by the rule proved at
//! `stalemate::immobility`, it is blocked by its own side on every first step, or it
//! is *held* by W — pinned (a knight; a bishop on a rank or file; a rook on a
//! diagonal; a pawn on a rank or diagonal) with a W line piece on the pinning squares,
//! or, a pawn, a W unit on its front square. Holders are committed as requirements met
//! by W's units ([`Enum::ways`]: a committed unit already there, or an uncommitted one
//! whose distance to the squares, as the kinds needed, is added to W's; one unit may
//! meet several requirements only on a square common to them), one completion per way
//! (more than eight ways: one completion without holders, which only weakens it). A
//! real stalemate fits a completion: give each unit its real fate; the real captures
//! are W's moves; each placed unit satisfies the rule in the real final position, and
//! its real holders meet the requirements, so the way of the real holders is among
//! those enumerated (the checks during the enumeration are on subsets of S's final
//! squares, each proved to stay true as squares are added).
//!
//! The complete pictures are searched together: one search whose nodes keep the list
//! of complete pictures still in reach (see *Searching pictures together* below). When
//! the complete pictures overflow, the stalemate pictures are searched one by one
//! without the full commitment, as below. The search checks the stalemate by the real
//! rules, its last two plies filtered by the `stalemate` submodule instead of the mate
//! filters.
//!
//! **Mate pictures together** ([`unite`]). The mate pictures (up to [`UNITE_UP_TO`])
//! are written as completions over one canonical list of every unit on the board: the
//! mated king with its final square K, each blocker with its flight (any kind), each
//! committed mating unit with its final square and kind (a leaper checking K from there
//! marked [`Entry::Checker`]), every other unit of either side [`Entry::Free`]. A completion asks
//! exactly what its picture asks, so the rules of the one-by-one walk below become
//! rules of the completions: each side's committed distances within its moves left; a
//! committed unit captured takes its completions out of reach (the one-by-one walk does
//! not try the capture; here it is tried for the completions where the unit is free);
//! a leaper checker on its final square while the mating side has moves left needs two
//! more (a pawn: out of reach); on the last ply a move is tried only if some completion
//! is complete after it; the last-two-ply filters as below.
//!
//! **Searching pictures together** ([`Walk::step`]). A node keeps the completions in
//! reach with their sums (each side's distances, units to capture still on the board,
//! the leaper's extra moves); a move changes the sums only through the units it moves
//! (the mover, a castling rook, the captured unit), so the child's list is the parent's
//! filtered with those changes, computed before the move is played. *No solution is
//! lost*: a solution line L through a node fits some picture p (the pictures cover every
//! mate within the budgets), and "in reach" is a necessary condition at every node of a
//! line that ends fitting p (each test is a lower bound on what the rest of the line
//! must spend), so p is live at every node of L, each move of L is tried, and the mate
//! is found by the real rules. *The tables stay sound*: a node is recorded "no
//! solution below" only after its search; the live list at a node may depend on the
//! path, but by the argument above, for any path to the same position with the same
//! plies left, every continuation that mates gives a solution line through this node's
//! path too (the final position, and so the picture it fits, depends only on the
//! continuation), whose picture is live here. So "no solution below" is a fact of the
//! position and the plies left, not of the live list: it is kept in the walk's memo
//! and in the searcher's table under the normal search's keys (help: mate in exactly n
//! plies; series: in exactly k series moves), shared by every walk (each first move,
//! each length) and by the normal search. (The one-by-one walk's memo is only its
//! picture's: it never goes to the table.)
//!
//! Each picture is then searched: the normal help moves, keeping only those after which
//! each side's remaining committed distances still fit within its remaining moves (the
//! committed units are followed through the moves: departure to arrival, the castling
//! rook, promotion; a captured committed unit ends the picture), with the last-two-ply
//! filters of the parent module and a table of this picture's sub-positions without a
//! solution. The mate is checked by the real rules, so every line found is a real
//! solution; the pictures cover every mate, so every solution is found. The lines of all
//! pictures are united, then printed in the normal search's order (a walk of the legal
//! moves in generation order through the found lines).
//!
//! **The parent's pictures.** The solver asks for the lines of each first move in turn
//! (and on two threads). A search by the pictures after a first move takes the pictures
//! of the position before it ([`Parent`]: enumerated once, for one more move of the side
//! that played it) and follows each unit through the move: every mate (stalemate)
//! within the moves left after the first move is one within the parent's moves through
//! it, so it fits one of the parent's pictures, and the walk checks each side's
//! distances against the moves left here. Help play does so up to [`PARENT_UP_TO`]
//! plies, series play always.
//!
//! Series play (`ser-h#`, `ser-#`) goes the same way: the series side's moves with the
//! other side passing, the last series move and its answers as in
//! [`Searcher::series_lines`]; the budgets are the series moves for the series side and
//! one move (`ser-h#`) or none (`ser-#`) for the other.

use super::{INF, PAWN, colour_index, filter_last, filter_second_last, tables, units};
use crate::search::{Hooks, Interrupted, Searcher, SeriesSink, Table};
use crate::stip::{Goal, Play};
use crate::table::Q;
use chimere_core::{Colour, Kind};
use chimere_fairy::position::Unit;
use chimere_fairy::rules::Notes;
use chimere_fairy::walk::{BISHOP, KING, KNIGHT, QUEEN, ROOK};
use chimere_fairy::{Game, Move};
use std::collections::HashSet;
use std::sync::Arc;

/// The pictures are used when the mating side has at least this many moves left (below,
/// the bound of the parent module is cheaper). With the pictures searched one by one
/// the threshold was 4; searched together and sharing the table, 3 took the 66 `h#3` of
/// Popeye's `intell` examples from 34 s to 15 s in all (worst: 0.25 s to 0.62 s;
/// best: 3.3 s to 0.46 s).
pub const PICTURES_FROM: u32 = 3;

/// Series play (`Option Intelligent`) goes by the pictures from this many series moves
/// left on (searched together: at 4, `ser-h#6` problems of the measured collection took
/// 0.03 s and 0.28 s instead of 0.85 s and 1.65 s at 6; a `ser-h#8` and a `ser-h#9`
/// about the same).
pub const SERIES_PICTURES_FROM: u32 = 4;

/// More pictures than this: the method gives up (the caller falls back).
const MAX_PICTURES: usize = 400_000;

/// Stalemate pictures are used from this many stalemating moves on (below, the filters
/// of the `stalemate` module alone; with the stalemated side fully committed, `h=3` by
/// the pictures took one problem of the measured collection from 9.5 s to 3.6 s, left
/// another unchanged and took a third from 4.3 s to 27 s: many units of both sides).
pub const STALEMATE_PICTURES_FROM: u32 = 3;

/// Below this many stalemating moves (that is, at [`STALEMATE_PICTURES_FROM`] = 3) help
/// play goes by the stalemate pictures only when their enumeration is cheap, at most
/// [`CHEAP_WORK`] steps; beyond, the normal search (with the `stalemate` module's
/// filters) is used. Measured on the 37 `h=3` of Popeye's `hpint` examples (one
/// thread): the pictures took 114 from 34 s to 0.3 s, 044 from 21 s to 4.9 s, 013 from
/// 10 s to 0.3 s, but 028 from 1.1 s to 22 s and 032 from 3 s to over 40 s (many
/// stalemated pawns: completions explode), hence the bound.
const CHEAP_BELOW: u32 = 4;

/// The work bound of a cheap enumeration (see [`CHEAP_BELOW`]): steps of
/// [`Enum::fate_dfs`], four per unit placed and forty per final position tested by
/// [`Enum::stalemate_placeable`] (about 10 to 40 million a second here).
const CHEAP_WORK: u64 = 80_000_000;

/// The square of a unit no longer on the board (captured), where a [`Tracked`] unit
/// stands now.
const GONE: u8 = 64;

/// How a committed unit ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// On square `to` as the kind of index `kind`.
    As { kind: u8, to: u8 },
    /// On square `to` as any kind (a unit of the mated side blocking a flight).
    Block { to: u8 },
    /// Captured (a stalemated unit, by a move of the stalemating side).
    Captured,
    /// As each completion of its picture says ([`Entry`]).
    Completed,
}

/// What a completion asks of one unit (the pictures' completions, [`Pictures::fates`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Entry {
    /// Nothing (an uncommitted unit).
    Free,
    /// To end on `to` as the kind of index `kind`.
    As { kind: u8, to: u8 },
    /// To end on `to` as any kind (a blocker).
    Block { to: u8 },
    /// A mating unit checking the mated king from `to` as kind `kind` as a leaper or from
    /// next to it: it makes the mating move (see [`leaper_checks`]).
    Checker { kind: u8, to: u8 },
    /// A unit of the stalemating side holding a stalemated unit (pinning it, or standing
    /// in front of a pawn): to end on one of the squares `segs[seg]` of its picture as
    /// one of `kinds` (a bit per kind index).
    Hold { kinds: u8, seg: u32 },
    /// To be captured.
    Captured,
}

impl Entry {
    /// The entry asking what `end` commits to.
    fn of(end: End) -> Entry {
        match end {
            End::As { kind, to } => Entry::As { kind, to },
            End::Block { to } => Entry::Block { to },
            End::Captured => Entry::Captured,
            End::Completed => Entry::Free,
        }
    }
}

/// More completions than this in all: the full commitment gives up.
const MAX_COMPLETIONS: usize = 500_000;

/// A committed unit: where it stands now ([`GONE`]: captured), and how it must end.
#[derive(Clone, Copy, Debug)]
struct Tracked {
    sq: u8,
    /// Of the mating side.
    mater: bool,
    end: End,
}

impl Tracked {
    /// The final square it is committed to, if any.
    fn to(&self) -> Option<u8> {
        match self.end {
            End::As { to, .. } | End::Block { to } => Some(to),
            End::Captured | End::Completed => None,
        }
    }

    /// The final kind (index) and square it is committed to, if both.
    fn kind_to(&self) -> Option<(usize, usize)> {
        match self.end {
            End::As { kind, to } => Some((kind as usize, to as usize)),
            _ => None,
        }
    }
}

/// Whether a committed mating unit attacks `kq` from its target as a leaper (pawn,
/// knight) or from a square next to it (a contact check): it gives check at the end
/// whatever else stands on the board, so it makes the mating move (such a check is never
/// discovered: no square between to clear; and the mated side never moves into check).
fn leaper_checks(u: &Tracked, kq: u8, mc: usize) -> bool {
    u.kind_to().is_some_and(|(k, to)| contact_or_leaper(mc, k, to, kq as usize))
}

/// Whether a unit of colour `mc`, kind `k` on `to` attacks `kq` as a leaper or from next
/// to it, a check no other unit can block (see [`leaper_checks`]).
fn contact_or_leaper(mc: usize, k: usize, to: usize, kq: usize) -> bool {
    k != KING.index()
        && (k == PAWN.index() || k == KNIGHT.index() || super::cheb(to, kq) == 1)
        && tables().att(mc, k, to) >> kq & 1 == 1
}

/// Minimal moves for the unit on `sq` (kind `k` there, colour `c`) to meet its target.
fn cost(tr: &Tracked, c: usize, k: usize) -> u8 {
    let t = tables();
    match tr.end {
        End::Captured | End::Completed => 0,
        End::Block { to } => t.block(c, k, tr.sq as usize)[to as usize],
        End::As { kind, to } => t.reach(c, k, tr.sq as usize, kind as usize, to as usize),
    }
}

/// The squares strictly between `a` and `b` when they share a line, else none.
fn between_sq(a: usize, b: usize) -> u64 {
    chimere_core::attacks::between(chimere_core::Square::new(a as u8), chimere_core::Square::new(b as u8)).0
}

/// The unit on `sq`, if any; `None` for [`GONE`] (a unit no longer on the board).
fn kind_at(game: &Game, sq: usize) -> Option<(Colour, usize)> {
    if sq >= 64 {
        return None;
    }
    game.pos.board().get(chimere_core::Square::new(sq as u8)).map(|p| (p.colour, p.kind.index()))
}

/// The pictures, flattened: each picture's committed units are `units[a..b]` for one
/// `(a, b)` of `ranges` (the mated king first).
struct Pictures {
    units: Vec<Tracked>,
    /// Per picture: its units `units[a..b]`, and its completions `fates[c..d]` (see
    /// [`Walk::fates`]).
    ranges: Vec<(usize, usize, usize, usize)>,
    /// Completions: per completion, an entry for each unit of `units` in order (each
    /// [`End::Completed`]).
    fates: Vec<Entry>,
    /// The squares where a pinner must end (one of them).
    segs: Vec<u64>,
}

/// Every picture of a mate by `mater` with `m` moves of its own while the other side
/// makes `bmoves`. `None` when the method does not apply
/// (not exactly one mated king, too many pictures, more work than `work_cap`).
fn enumerate(
    game: &Game,
    mater: Colour,
    budgets: (u32, u32),
    stalemate: bool,
    full: bool,
    work_cap: u64,
) -> Option<Pictures> {
    enumerate_all(game, mater, budgets, stalemate, full, work_cap, false).map(|(p, _)| p)
}

/// [`enumerate`], and the number of mate pictures refuted by [`Enum::defended`]; these
/// are kept too when `keep_refuted` (for the tests).
fn enumerate_all(
    game: &Game,
    mater: Colour,
    (m, bmoves): (u32, u32),
    stalemate: bool,
    full: bool,
    work_cap: u64,
    keep_refuted: bool,
) -> Option<(Pictures, usize)> {
    let t = tables();
    let mated = mater.opponent();
    let board = game.pos.board();
    let kings = board.colour(mated).0 & board.kind(KING).0;
    if kings.count_ones() != 1 {
        return None;
    }
    let dk = kings.trailing_zeros() as usize;
    let (mc, dc) = (colour_index(mater), colour_index(mated));
    let maters: Vec<(usize, usize)> = units(game, mater).collect();
    let blockers: Vec<(usize, usize)> = units(game, mated).filter(|&(_, k)| k != KING.index()).collect();
    // Full commitment: each stalemated unit's final (square, kind) options within its
    // side's moves, by cost.
    let full = full && stalemate;
    let mut fate_opts = Vec::new();
    if full {
        for &(sq, k) in &blockers {
            let kinds: &[usize] = if k == PAWN.index() { &[0, 1, 2, 3, 4] } else { std::slice::from_ref(&k) };
            let mut list = Vec::new();
            for &k2 in kinds {
                for to in 0..64 {
                    let c = t.reach(dc, k, sq, k2, to);
                    if c as u32 <= bmoves {
                        list.push((to as u8, k2 as u8, c));
                    }
                }
            }
            list.sort_by_key(|o| o.2);
            fate_opts.push(list);
        }
    }
    let mut canon = Vec::new();
    if full {
        canon.push(Tracked { sq: dk as u8, mater: false, end: End::Completed });
        for &(sq, _) in &blockers {
            canon.push(Tracked { sq: sq as u8, mater: false, end: End::Completed });
        }
        for &(sq, _) in &maters {
            canon.push(Tracked { sq: sq as u8, mater: true, end: End::Completed });
        }
        if canon.len() > 32 {
            return None;
        }
    }
    let mut e = Enum {
        full,
        fate_opts,
        order: Vec::new(),
        checks: Vec::new(),
        occ: 0,
        foreign: 0,
        wspent: 0,
        via: vec![u8::MAX; 16 * 16 * 16],
        maters: &maters,
        blockers: &blockers,
        m: m as u8,
        stalemate,
        mc,
        dc,
        kq: 0,
        flights: 0,
        budget: 0,
        opts: Vec::new(),
        chosen: Vec::new(),
        used: 0,
        all: Vec::new(),
        ranges: Vec::new(),
        fates: Vec::new(),
        segs: Vec::new(),
        canon,
        overflow: false,
        scratch: if full { Some(game.clone()) } else { None },
        moves: Vec::new(),
        work: 0,
        work_cap,
        keep_refuted,
        refuted: 0,
        holes: game.pos.holes().0,
    };
    // Holes (`Condition Hole`): no unit ends there, and a hole is no flight.
    let holes = e.holes;
    for kq in 0..64 {
        let kd = t.dist(KING.index(), dk, kq);
        if kd as u32 > bmoves || holes >> kq & 1 == 1 {
            continue;
        }
        let flights = t.att(0, KING.index(), kq) & !holes;
        // A stalemate needs only the flights guarded.
        let need = if stalemate { flights } else { flights | 1 << kq };
        e.kq = kq;
        e.flights = flights;
        e.budget = (bmoves - kd as u32) as u8;
        // Each mating unit's options: (target, kind, cost, attacked squares of K's).
        e.opts.clear();
        for &(sq, k) in &maters {
            let kinds: &[usize] = if k == PAWN.index() { &[0, 1, 2, 3, 4] } else { std::slice::from_ref(&k) };
            let mut list = Vec::new();
            for &k2 in kinds {
                for to in 0..64 {
                    let c = t.reach(mc, k, sq, k2, to);
                    if c as u32 > m
                        || to == kq
                        || holes >> to & 1 == 1
                        || (k2 == KING.index() && super::cheb(to, kq) <= 1)
                    {
                        continue;
                    }
                    // A leaper never checks the stalemated king, nor a unit next to it.
                    if stalemate && contact_or_leaper(mc, k2, to, kq) {
                        continue;
                    }
                    let a = t.att(mc, k2, to) & need;
                    if a != 0 {
                        list.push((to as u8, k2 as u8, c, a));
                    }
                }
            }
            list.sort_by_key(|o| o.2);
            e.opts.push(list);
        }
        let king = Tracked { sq: dk as u8, mater: false, end: End::As { kind: KING.index() as u8, to: kq as u8 } };
        e.chosen.clear();
        e.chosen.push(king);
        e.mater_dfs(0, 0, 0);
        if e.overflow {
            return None;
        }
    }
    if full {
        // One search over every complete picture (none: no stalemate, nothing to search).
        let n = e.canon.len();
        let ranges = if e.fates.is_empty() { Vec::new() } else { vec![(0, n, 0, e.fates.len())] };
        return Some((Pictures { units: e.canon, ranges, fates: e.fates, segs: e.segs }, 0));
    }
    Some((Pictures { units: e.all, ranges: e.ranges, fates: e.fates, segs: e.segs }, e.refuted))
}

struct Enum<'a> {
    /// Stalemate pictures with every stalemated unit committed (captured, or a final
    /// square and kind where it may be immobile).
    full: bool,
    /// Per stalemated unit (index in `blockers`): its (target, kind, cost) options.
    fate_opts: Vec<Vec<(u8, u8, u8)>>,
    /// The stalemated units without a fate yet, in the order they get one.
    order: Vec<usize>,
    /// Placed stalemated units to check for immobility: (kind, target).
    checks: Vec<(u8, u8)>,
    /// The stalemated side's final squares so far (its king's included).
    occ: u64,
    /// The committed final squares of the stalemating side.
    foreign: u64,
    /// The stalemating side's moves spent on its committed units.
    wspent: u8,
    /// `via[(w * 16 + b) * 16 + slack]`: moves of stalemating unit w to capture
    /// stalemated unit b (and then reach its committed target) when the stalemated side
    /// has `slack` moves to spare; `u8::MAX`: not computed yet.
    via: Vec<u8>,
    maters: &'a [(usize, usize)],
    blockers: &'a [(usize, usize)],
    m: u8,
    /// Pictures of a stalemate (no check, the flights guarded or blocked).
    stalemate: bool,
    mc: usize,
    dc: usize,
    kq: usize,
    flights: u64,
    budget: u8,
    opts: Vec<Vec<(u8, u8, u8, u64)>>,
    chosen: Vec<Tracked>,
    /// Mated units already blocking (bit per index in `blockers`).
    used: u32,
    all: Vec<Tracked>,
    ranges: Vec<(usize, usize, usize, usize)>,
    fates: Vec<Entry>,
    /// Pinning squares of the completions' pinners (see [`Pictures::segs`]).
    segs: Vec<u64>,
    /// Full commitment: every unit, as in the search ([`End::Completed`], from its square).
    canon: Vec<Tracked>,
    overflow: bool,
    /// Full commitment: a copy of the game, to set up candidate final positions on
    /// ([`Enum::stalemate_placeable`]).
    scratch: Option<Game>,
    /// A move buffer for the checks on `scratch`.
    moves: Vec<Move>,
    /// Work done, and the most allowed (see [`CHEAP_WORK`]): beyond, [`Enum::overflow`].
    work: u64,
    work_cap: u64,
    /// Mate pictures refuted by [`Enum::defended`], and whether they are kept all the same.
    refuted: usize,
    keep_refuted: bool,
    /// The holes (`Condition Hole`).
    holes: u64,
}

impl Enum<'_> {
    fn mater_dfs(&mut self, i: usize, covered: u64, spent: u8) {
        if self.overflow {
            return;
        }
        if i == self.maters.len() {
            if !self.stalemate && covered >> self.kq & 1 == 0 {
                return;
            }
            // A leaper (pawn, knight) that checks at the end made the mating move:
            // there is at most one.
            let leapers = self.chosen.iter().filter(|u| u.mater && leaper_checks(u, self.kq as u8, self.mc)).count();
            if leapers > 1 {
                return;
            }
            let open = self.flights & !covered;
            // A committed mating unit on an unguarded flight would be taken.
            if self.chosen.iter().filter(|u| u.mater).filter_map(Tracked::to).any(|to| open >> to & 1 == 1) {
                return;
            }
            self.used = 0;
            self.wspent = spent;
            self.block_dfs(open, 0);
            return;
        }
        self.mater_dfs(i + 1, covered, spent);
        for j in 0..self.opts[i].len() {
            let (to, k2, c, a) = self.opts[i][j];
            if spent + c > self.m {
                break;
            }
            if a & !covered == 0 || self.chosen.iter().any(|u| u.mater && u.to() == Some(to)) {
                continue;
            }
            let (sq, _) = self.maters[i];
            self.chosen.push(Tracked { sq: sq as u8, mater: true, end: End::As { kind: k2, to } });
            self.mater_dfs(i + 1, covered | a, spent + c);
            self.chosen.pop();
        }
    }

    /// Whether a complete mate picture (`occ`: its final squares) is no mate whatever
    /// else stands on the board: every mating unit but the king is committed, exactly
    /// one committed unit checks K with nothing between in the picture, and a blocker
    /// can take that checker or step between in one move no unit can obstruct (see
    /// [`Enum::parries`]) as every kind it may stand on its flight as (a pawn: a pawn,
    /// or a piece it can promote to within the moves of its side). In
    /// a final position R fitting the picture, the mating side's units are the committed
    /// ones and perhaps its king (which neither checks nor pins); R holds the picture's
    /// units on their squares and perhaps more, so each check of R is one of the
    /// picture's (a line empty in R is empty in the picture): R's only check is that
    /// checker's. The blocker stands on a flight next to K that no committed unit
    /// attacks on an empty board (else no blocker is put there), so no committed line
    /// piece pins it: its parry is legal in R, and R is no mate.
    fn defended(&self, occ: u64) -> bool {
        let committed = |sq: usize| self.chosen.iter().any(|u| u.mater && u.sq as usize == sq);
        if self.maters.iter().any(|&(sq, k)| k != KING.index() && !committed(sq)) {
            return false;
        }
        let t = tables();
        let kq = self.kq;
        let mut checker = None;
        for (k, to) in self.chosen.iter().filter(|u| u.mater).filter_map(Tracked::kind_to) {
            if t.att(self.mc, k, to) >> kq & 1 == 1 && between_sq(to, kq) & occ == 0 {
                if checker.is_some() {
                    return false;
                }
                checker = Some(to);
            }
        }
        let Some(c) = checker else {
            return false;
        };
        // (No unit steps onto a hole.)
        let line = between_sq(c, kq) & !self.holes;
        for u in self.chosen.iter().filter(|u| !u.mater) {
            let End::Block { to } = u.end else {
                continue;
            };
            let Some(&(_, k)) = self.blockers.iter().find(|b| b.0 == u.sq as usize) else {
                continue;
            };
            let f = to as usize;
            // A pawn may end as a pawn or as any piece it can promote to in time: each
            // kind it may stand there as must have the parry.
            let may_be = |k2: usize| {
                if k == PAWN.index() { t.reach(self.dc, k, u.sq as usize, k2, f) <= self.budget } else { k2 == k }
            };
            let mut kinds = (PAWN.index()..KING.index()).filter(|&k2| may_be(k2)).peekable();
            if kinds.peek().is_some() && kinds.all(|k2| self.parries(k2, f, c, line)) {
                return true;
            }
        }
        false
    }

    /// Whether a unit of the mated side, kind `k` on `f`, can take the checker on `c`
    /// or step onto a square of `line` (empty) in a move that no unit can obstruct: a
    /// knight's jump, a step to a square next to it, a pawn's capture or single step.
    fn parries(&self, k: usize, f: usize, c: usize, line: u64) -> bool {
        let t = tables();
        if k == PAWN.index() {
            let ahead = if self.dc == 0 { f + 8 } else { f.wrapping_sub(8) };
            return t.att(self.dc, k, f) >> c & 1 == 1 || ahead < 64 && line >> ahead & 1 == 1;
        }
        let mut sq = (line | 1 << c) & t.att(self.dc, k, f);
        while sq != 0 {
            let d = sq.trailing_zeros() as usize;
            sq &= sq - 1;
            if between_sq(f, d) == 0 {
                return true;
            }
        }
        false
    }

    /// Assigns distinct mated units to the flights in `open`, within the budget.
    fn block_dfs(&mut self, open: u64, spent: u8) {
        if open == 0 {
            if self.full {
                self.fates(spent);
            } else if self.stalemate {
                self.record();
            } else {
                let refuted = self.defended(self.chosen.iter().filter_map(Tracked::to).fold(0, |o, to| o | 1 << to));
                self.refuted += usize::from(refuted);
                if !refuted || self.keep_refuted {
                    self.record();
                }
            }
            return;
        }
        let f = open.trailing_zeros() as usize;
        let t = tables();
        for (b, &(sq, k)) in self.blockers.iter().enumerate() {
            if b >= 32 || self.used >> b & 1 == 1 {
                continue;
            }
            let c = t.block(self.dc, k, sq)[f];
            if c == INF || spent + c > self.budget {
                continue;
            }
            self.used |= 1 << b;
            self.chosen.push(Tracked { sq: sq as u8, mater: false, end: End::Block { to: f as u8 } });
            self.block_dfs(open & (open - 1), spent + c);
            self.chosen.pop();
            self.used &= !(1 << b);
            if self.overflow {
                return;
            }
        }
    }
}

impl Enum<'_> {
    fn record(&mut self) {
        let start = self.all.len();
        self.all.extend_from_slice(&self.chosen);
        let f = self.fates.len();
        self.ranges.push((start, self.all.len(), f, f));
        if self.ranges.len() > MAX_PICTURES {
            self.overflow = true;
        }
    }

    /// Full commitment (see the module doc): the blockers chosen (their squares spent
    /// `spent` of the stalemated side's budget), gives every other stalemated unit a fate.
    fn fates(&mut self, spent: u8) {
        self.occ = 1 << self.kq;
        self.foreign = 0;
        self.checks.clear();
        for u in &self.chosen[1..] {
            let Some(to) = u.to() else { continue };
            if u.mater {
                self.foreign |= 1 << to;
            } else {
                self.occ |= 1 << to;
                // A blocker keeps its kind unless it is a pawn (accepted as any kind).
                let k = self.blockers.iter().find(|b| b.0 == u.sq as usize).map_or(PAWN.index(), |b| b.1);
                if k != PAWN.index() {
                    self.checks.push((k as u8, to));
                }
            }
        }
        self.order.clear();
        // Pieces first (the immobility checks cut early), pawns last.
        for pawns in [false, true] {
            for (b, &(_, k)) in self.blockers.iter().enumerate() {
                if b < 32 && self.used >> b & 1 == 0 && (k == PAWN.index()) == pawns {
                    self.order.push(b);
                }
            }
        }
        if self.blockers.len() > 16 || self.maters.len() > 16 {
            return;
        }
        self.via.fill(u8::MAX);
        self.fate_dfs(0, spent, 0);
    }

    /// Whether every placed stalemated unit may still be immobile with `rem` units
    /// still to place: blocked by its own side, or held by units of the stalemating
    /// side (pinners, a unit in front of a pawn) whose distances, with its committed
    /// ones, fit within its moves (see [`Enum::ways`]).
    fn pins_possible(&self, rem: u32) -> bool {
        match self.requirements(rem) {
            None => false,
            Some(None) => true,
            Some(Some(reqs)) => {
                let mut out = Vec::new();
                self.ways(&reqs, 1, &mut out);
                !out.is_empty()
            }
        }
    }

    /// The stalemating side's units needed to hold the placed stalemated units: one
    /// [`Req`] per unit that cannot be blocked by its own side. `None`: some unit can be
    /// held by nothing; `Some(None)`: no requirement, or too many to use (no bound).
    #[allow(clippy::option_option)]
    fn requirements(&self, rem: u32) -> Option<Option<Vec<Req>>> {
        use super::stalemate::{Immobile, immobility};
        let (kq, occ, foreign) = (self.kq, self.occ, self.foreign);
        let (orth, diag) = (1u8 << ROOK.index() | 1 << QUEEN.index(), 1u8 << BISHOP.index() | 1 << QUEEN.index());
        let mut reqs = Vec::new();
        for &(k, t) in &self.checks {
            let line = |t: usize| if kq % 8 == t % 8 || kq / 8 == t / 8 { orth } else { diag };
            let req = match immobility(k as usize, t as usize, kq, occ, foreign, rem, self.dc == 1) {
                Immobile::Blocked => continue,
                Immobile::Never => return None,
                Immobile::Pinned(seg) => Req { alts: [(seg, line(t as usize)), (0, 0)] },
                Immobile::Front { sq, pin } => Req { alts: [(1 << sq, ANY_KIND), (pin, line(t as usize))] },
            };
            reqs.push(req);
        }
        if reqs.is_empty() || reqs.len() > 6 {
            return Some(None);
        }
        Some(Some(reqs))
    }

    /// Ways to meet the requirements `reqs` (each by one of its alternatives: a unit of
    /// the stalemating side ending on one of the squares as one of the kinds), up to
    /// `max` of them: per uncommitted unit of that side (index in `maters`) the squares
    /// and kinds it must end on (0: nothing). A committed unit meets an alternative at
    /// no cost when its final square and kind are in it; one unit may meet several when
    /// it can end on a square and kind common to them. A way is kept when the side's
    /// committed distances plus each assigned unit's distance to its squares fit within
    /// its moves (each move moves one unit; a unit ends on one square as one kind).
    fn ways(&self, reqs: &[Req], max: usize, out: &mut Vec<[(u64, u8); 16]>) {
        struct Ctx<'a> {
            e: &'a Enum<'a>,
            reqs: &'a [Req],
            max: usize,
            left: u8,
            committed: [Option<(u8, u8)>; 16],
        }
        fn dist(e: &Enum<'_>, w: usize, set: u64, kinds: u8) -> u8 {
            let t = tables();
            let (sq, k) = e.maters[w];
            let mut best = INF;
            let mut b = set;
            while b != 0 {
                let x = b.trailing_zeros() as usize;
                b &= b - 1;
                if kinds == ANY_KIND {
                    best = best.min(t.block(e.mc, k, sq)[x]);
                } else {
                    for k2 in 0..KING.index() + 1 {
                        if kinds >> k2 & 1 == 1 {
                            best = best.min(t.reach(e.mc, k, sq, k2, x));
                        }
                    }
                }
            }
            best
        }
        fn go(c: &Ctx<'_>, r: usize, cur: &mut [(u64, u8); 16], spent: u8, out: &mut Vec<[(u64, u8); 16]>) {
            if out.len() >= c.max {
                return;
            }
            if r == c.reqs.len() {
                out.push(*cur);
                return;
            }
            for &(set, kinds) in &c.reqs[r].alts {
                if set == 0 {
                    continue;
                }
                for w in 0..c.e.maters.len() {
                    if let Some((to, kind)) = c.committed[w] {
                        if set >> to & 1 == 1 && kinds >> kind & 1 == 1 {
                            go(c, r + 1, cur, spent, out);
                            if out.len() >= c.max {
                                return;
                            }
                        }
                        continue;
                    }
                    let (s0, k0) = cur[w];
                    let (s1, k1) = if s0 == 0 { (set, kinds) } else { (s0 & set, k0 & kinds) };
                    if s1 == 0 || k1 == 0 {
                        continue;
                    }
                    let before = if s0 == 0 { 0 } else { dist(c.e, w, s0, k0) };
                    let after = dist(c.e, w, s1, k1);
                    if after >= INF || spent + after - before > c.left {
                        continue;
                    }
                    cur[w] = (s1, k1);
                    go(c, r + 1, cur, spent + after - before, out);
                    cur[w] = (s0, k0);
                    if out.len() >= c.max {
                        return;
                    }
                }
            }
        }
        let mut committed = [None; 16];
        for (w, &(sq, _)) in self.maters.iter().enumerate().take(16) {
            committed[w] = self
                .chosen
                .iter()
                .find(|u| u.mater && u.sq as usize == sq)
                .and_then(Tracked::kind_to)
                .map(|(k, to)| (to as u8, k as u8));
        }
        let c = Ctx { e: self, reqs, max, left: self.m.saturating_sub(self.wspent), committed };
        go(&c, 0, &mut [(0, 0); 16], 0, out);
    }

    /// Moves stalemating unit `w` needs to capture stalemated unit `b` (index in
    /// `blockers`) and then reach its committed target if any, the stalemated side
    /// having `slack` moves to spare (b is taken where it stands after at most `slack`
    /// moves of its own; a pawn also by en passant, its taker landing behind it).
    fn via(&mut self, w: usize, b: usize, slack: u8) -> u8 {
        let i = (w * 16 + b) * 16 + slack.min(15) as usize;
        if self.via[i] != u8::MAX {
            return self.via[i];
        }
        let t = tables();
        let (bsq, bk) = self.blockers[b];
        let mut at = 0u64;
        for (x, &d) in t.block(self.dc, bk, bsq).iter().enumerate() {
            if d <= slack {
                at |= 1 << x;
            }
        }
        if bk == PAWN.index() {
            // En passant: White takes on the square behind (Black's pawns move down);
            // Black takes on the square below.
            at |= if self.dc == 1 { at << 8 } else { at >> 8 };
        }
        let (wsq, wk) = self.maters[w];
        let committed = self.chosen.iter().find(|u| u.mater && u.sq as usize == wsq).and_then(Tracked::kind_to);
        let kinds: &[usize] = if wk == PAWN.index() { &[0, 1, 2, 3, 4] } else { std::slice::from_ref(&wk) };
        let mut best = INF;
        let mut bb = at;
        while bb != 0 {
            let x = bb.trailing_zeros() as usize;
            bb &= bb - 1;
            match committed {
                None => best = best.min(t.block(self.mc, wk, wsq)[x]),
                Some((uk, uto)) => {
                    for &k2 in kinds {
                        let a = t.reach(self.mc, wk, wsq, k2, x);
                        if a < INF {
                            let b2 = t.reach(self.mc, k2, x, uk, uto);
                            best = best.min(a.saturating_add(b2).min(INF));
                        }
                    }
                }
            }
        }
        self.via[i] = best;
        best
    }

    /// Whether the stalemating side can make the captures of the chosen units to be
    /// captured besides its committed units' journeys, the stalemated side having
    /// `slack` moves to spare: a lower bound on its moves is, for the best assignment
    /// of each captured unit to a distinct capturing move of some unit w, the sum over
    /// its units of the largest of w's committed distance, the number of captures w
    /// makes (one a move) and, for each capture, w's moves through the capture square
    /// (to its committed target if any); it must fit within its moves.
    fn captures_possible(&mut self, slack: u8) -> bool {
        let mut caught = [0usize; 16];
        let mut n = 0;
        for u in &self.chosen {
            if u.end == End::Captured {
                caught[n] = self.blockers.iter().position(|b| b.0 == u.sq as usize).expect("a stalemated unit");
                n += 1;
            }
        }
        let nw = self.maters.len();
        let mut via = [[INF; 16]; 16];
        for (c, &b) in caught[..n].iter().enumerate() {
            for (w, v) in via[c].iter_mut().enumerate().take(nw) {
                *v = self.via(w, b, slack);
            }
        }
        // Committed distances per stalemating unit.
        let mut own = [0u8; 16];
        let t = tables();
        for (w, &(sq, k)) in self.maters.iter().enumerate() {
            if let Some((uk, to)) =
                self.chosen.iter().find(|u| u.mater && u.sq as usize == sq).and_then(Tracked::kind_to)
            {
                own[w] = t.reach(self.mc, k, sq, uk, to);
            }
        }
        struct St<'a> {
            via: &'a [[u8; 16]; 16],
            n: usize,
            nw: usize,
            limit: u32,
            steps: u32,
        }
        /// Per unit: (captures so far, moves needed so far).
        fn go(st: &mut St<'_>, c: usize, load: &mut [(u8, u8); 16], total: u32) -> bool {
            st.steps += 1;
            if c == st.n || st.steps > 20_000 {
                return true;
            }
            for w in 0..st.nw {
                let v = st.via[c][w];
                if v >= INF {
                    continue;
                }
                let (k, need) = load[w];
                let need2 = need.max(k + 1).max(v);
                let total2 = total + need2 as u32 - need as u32;
                if total2 > st.limit {
                    continue;
                }
                load[w] = (k + 1, need2);
                let ok = go(st, c + 1, load, total2);
                load[w] = (k, need);
                if ok {
                    return true;
                }
            }
            false
        }
        let mut load = [(0u8, 0u8); 16];
        let mut total = 0u32;
        for w in 0..nw {
            load[w] = (0, own[w]);
            total += own[w] as u32;
        }
        let mut st = St { via: &via, n, nw, limit: self.m as u32, steps: 0 };
        go(&mut st, 0, &mut load, total)
    }

    fn fate_dfs(&mut self, i: usize, spent: u8, caps: u8) {
        self.work += 1;
        if self.work > self.work_cap {
            self.overflow = true;
        }
        if self.overflow {
            return;
        }
        let rem = (self.order.len() - i) as u32;
        if !self.pins_possible(rem) {
            return;
        }
        if rem == 0 {
            // One completion per way to meet the requirements (at most 8: beyond, one
            // without commitment, which only weakens the search).
            let reqs = self.requirements(0).expect("checked above");
            let mut ways = Vec::new();
            if let Some(reqs) = &reqs {
                self.ways(reqs, 9, &mut ways);
            }
            if ways.is_empty() || ways.len() > 8 {
                ways = vec![[(0, 0); 16]];
            }
            for way in ways {
                if !self.stalemate_placeable(&way) {
                    continue;
                }
                // Every unit in the order of [`Enum::canon`].
                for ci in 0..self.canon.len() {
                    let c = self.canon[ci];
                    if let Some(u) = self.chosen.iter().find(|u| u.sq == c.sq && u.mater == c.mater) {
                        self.fates.push(Entry::of(u.end));
                        continue;
                    }
                    let w = self.maters.iter().position(|m| m.0 == c.sq as usize).expect("a stalemating unit");
                    let entry = match way[w] {
                        (0, _) => Entry::Free,
                        (set, kinds) => {
                            self.segs.push(set);
                            Entry::Hold { kinds, seg: (self.segs.len() - 1) as u32 }
                        }
                    };
                    self.fates.push(entry);
                }
            }
            if self.fates.len() > MAX_COMPLETIONS * self.canon.len() {
                self.overflow = true;
            }
            return;
        }
        let b = self.order[i];
        let sq = self.blockers[b].0 as u8;
        // Captured: by a move of the stalemating side, one capture each.
        if caps < self.m {
            self.chosen.push(Tracked { sq, mater: false, end: End::Captured });
            if self.captures_possible(self.budget - spent) {
                self.fate_dfs(i + 1, spent, caps + 1);
            }
            self.chosen.pop();
        }
        for j in 0..self.fate_opts[b].len() {
            let (to, k2, c) = self.fate_opts[b][j];
            if spent + c > self.budget {
                break;
            }
            if (self.occ | self.foreign) >> to & 1 == 1 {
                continue;
            }
            self.chosen.push(Tracked { sq, mater: false, end: End::As { kind: k2, to } });
            self.occ |= 1 << to;
            let checked = true;
            if checked {
                self.checks.push((k2, to));
            }
            self.fate_dfs(i + 1, spent + c, caps);
            if checked {
                self.checks.pop();
            }
            self.occ &= !(1 << to);
            self.chosen.pop();
            if self.overflow {
                return;
            }
        }
    }
}

/// At most this many final positions are set up for one completion
/// ([`Enum::stalemate_placeable`]); beyond, the completion is kept untested.
const MAX_PLACEMENTS: u32 = 2048;

/// At most this many units are placed in all (partial positions included) while one
/// completion is tested; beyond, it is kept untested.
const MAX_PLACE_STEPS: u32 = 16 * MAX_PLACEMENTS;

/// The orthodox kinds by table index (P S B R Q K).
const KIND_OF: [Kind; 6] = [PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING];

/// A unit's possible final states while a completion is tested: (square or [`GONE`],
/// kind index, moves of its side).
type Options = Vec<(u8, u8, u8)>;

impl Enum<'_> {
    /// Whether some final position fits the completion now chosen and is a real
    /// stalemate. Every unit gets a final square and kind: the stalemated king its square;
    /// a placed stalemated unit its own; a blocker its kind, a pawn blocker any kind it
    /// can stand there as; a committed stalemating unit its own; a holder (`way`) one of
    /// its squares and kinds; any other stalemating unit but the king is captured, stays,
    /// or stands on any square as any kind it reaches; the stalemating side's distances
    /// within its moves, no two units on one square. Each such position, with the
    /// stalemated side to move, no castling right and no en passant capture, is set up on
    /// the scratch game: one where the stalemating side is in check is no final position
    /// (it has just moved); one where the stalemated side is not in check and has no
    /// legal move is a stalemate. The real final position of a stalemate that fits the
    /// completion is among those set up, and without its castling rights and en passant
    /// state (which only add moves) it is still a stalemate; so a completion without any
    /// is dropped. When more than [`MAX_PLACEMENTS`] positions would be set up, the
    /// completion is kept untested.
    fn stalemate_placeable(&mut self, way: &[(u64, u8); 16]) -> bool {
        let Some(mut g) = self.scratch.take() else {
            return true;
        };
        let t = tables();
        let (mc, dc) = (self.mc, self.dc);
        let mut opts: Vec<(Colour, Options)> = Vec::new();
        let (mater, mated) = if mc == 0 { (Colour::White, Colour::Black) } else { (Colour::Black, Colour::White) };
        opts.push((mated, vec![(self.kq as u8, KING.index() as u8, 0)]));
        for u in self.chosen[1..].iter().filter(|u| !u.mater) {
            let k = self.blockers.iter().find(|b| b.0 == u.sq as usize).map_or(PAWN.index(), |b| b.1);
            let cost = |k2: usize, to: u8| t.reach(dc, k, u.sq as usize, k2, to as usize);
            match u.end {
                End::Captured | End::Completed => {}
                End::Block { to } => {
                    let kinds: Options = if k == PAWN.index() {
                        (0..KING.index())
                            .map(|k2| (to, k2 as u8, cost(k2, to)))
                            .filter(|o| o.2 <= self.budget)
                            .collect()
                    } else {
                        vec![(to, k as u8, cost(k, to))]
                    };
                    opts.push((mated, kinds));
                }
                End::As { kind: k2, to } => opts.push((mated, vec![(to, k2, cost(k2 as usize, to))])),
            }
        }
        let m = self.m;
        for (w, &(sq, k)) in self.maters.iter().enumerate() {
            let mut list: Options = Vec::new();
            if let Some((uk, to)) =
                self.chosen.iter().find(|u| u.mater && u.sq as usize == sq).and_then(Tracked::kind_to)
            {
                list.push((to as u8, uk as u8, t.reach(mc, k, sq, uk, to)));
            } else {
                let (set, kinds) = if w < 16 { way[w] } else { (0, 0) };
                if set == 0 {
                    list.push((sq as u8, k as u8, 0));
                    if k != KING.index() {
                        list.push((GONE, k as u8, 0));
                    }
                }
                let kinds = if set == 0 { ANY_KIND } else { kinds };
                let set = if set == 0 { u64::MAX } else { set };
                for to in 0..64 {
                    for k2 in 0..=KING.index() {
                        if set >> to & 1 == 0 || kinds >> k2 & 1 == 0 || (to == sq && k2 == k && way[w].0 == 0) {
                            continue;
                        }
                        let c = t.reach(mc, k, sq, k2, to);
                        if c <= m {
                            list.push((to as u8, k2 as u8, c));
                        }
                    }
                }
            }
            opts.push((mater, list));
        }
        let budgets = [m, self.budget];
        let mut st = Place { opts: &opts, mater, budgets, tried: 0, steps: 0, moves: std::mem::take(&mut self.moves) };
        g.pos.begin();
        let mut bb = g.pos.occupied().0;
        while bb != 0 {
            let sq = bb.trailing_zeros() as u8;
            bb &= bb - 1;
            g.pos.remove(chimere_core::Square::new(sq));
        }
        g.pos.set_rights(0);
        g.pos.set_ep(None);
        if g.pos.side() != mated {
            g.pos.flip_side();
        }
        let found = st.go(&mut g, 0, 0, [0, 0]);
        self.work += 4 * u64::from(st.steps) + 40 * u64::from(st.tried);
        g.pos.rollback();
        self.moves = st.moves;
        self.scratch = Some(g);
        found != Some(false)
    }
}

/// The search of [`Enum::stalemate_placeable`] (see there).
struct Place<'a> {
    opts: &'a [(Colour, Options)],
    mater: Colour,
    /// Moves of the stalemating side, and of the stalemated side besides its king's.
    budgets: [u8; 2],
    tried: u32,
    /// Units placed so far (partial positions included).
    steps: u32,
    moves: Vec<Move>,
}

impl Place<'_> {
    /// Places unit `i` on, `occ` the squares taken, `spent` each side's moves (as
    /// [`Place::budgets`]): `Some(true)` a stalemate found, `Some(false)` none, `None`
    /// too many tried.
    fn go(&mut self, g: &mut Game, i: usize, occ: u64, spent: [u8; 2]) -> Option<bool> {
        self.steps += 1;
        if self.steps > MAX_PLACE_STEPS {
            return None;
        }
        if i == self.opts.len() {
            self.tried += 1;
            if self.tried > MAX_PLACEMENTS {
                return None;
            }
            return Some(self.stalemate(g));
        }
        let (colour, ref list) = self.opts[i];
        let side = usize::from(colour != self.mater);
        for &(sq, k, c) in list {
            let mut spent = spent;
            spent[side] += c;
            if spent[side] > self.budgets[side] || (sq != GONE && occ >> sq & 1 == 1) {
                continue;
            }
            if sq == GONE {
                match self.go(g, i + 1, occ, spent) {
                    Some(false) => continue,
                    r => return r,
                }
            }
            let at = chimere_core::Square::new(sq);
            g.pos.begin();
            g.pos.add(at, Unit::new(colour, KIND_OF[k as usize]));
            let r = self.go(g, i + 1, occ | 1 << sq, spent);
            g.pos.rollback();
            if r != Some(false) {
                return r;
            }
        }
        Some(false)
    }

    /// Whether the position set up on `g` (the stalemated side to move) is a final
    /// position of a stalemate.
    fn stalemate(&mut self, g: &mut Game) -> bool {
        let mated = self.mater.opponent();
        if g.in_check(self.mater) || g.in_check(mated) {
            return false;
        }
        let mut notes = Notes::new();
        self.moves.clear();
        g.pseudo_moves(mated, &mut self.moves);
        for m in &self.moves {
            if g.make_into(m, &mut notes) {
                g.unmake();
                return false;
            }
        }
        true
    }
}

/// A placed stalemated unit that its own side cannot block: a unit of the stalemating
/// side must end on one of the squares as one of the kinds (a bit per kind index) of
/// one alternative (squares 0: no alternative).
#[derive(Clone, Copy)]
struct Req {
    alts: [(u64, u8); 2],
}

/// Every kind (a bit per kind index), as the kinds of a [`Req`] alternative.
const ANY_KIND: u8 = 0x3f;

/// The keys of the sub-positions without a solution (already hashes: not hashed again).
type Memo = HashSet<u64, std::hash::BuildHasherDefault<KeyHasher>>;

/// A hasher for keys that are hashes already.
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// Impossible, as a distance.
const OUT: u16 = 1000;

/// A completion in reach: its index, and its sums (each side's committed distances, its
/// units to be captured still on the board, the leaper-checker's extra moves).
#[derive(Clone, Copy, Debug)]
struct Reach {
    ci: u32,
    mater: u16,
    mated: u16,
    caps: u8,
    pen: u16,
}

/// The completions' entries, indexed per unit for [`Walk::step`]: unit `i`'s distinct
/// entries are `list[base[i] + j]` for `j` from 1 (0 stands for [`Entry::Free`]), and
/// completion `ci`'s entry for unit `i` is `pic[ci * n + i]`.
struct Demands {
    n: usize,
    base: Vec<usize>,
    list: Vec<Entry>,
    pic: Vec<u16>,
    /// Per entry of `list`: the step that last computed its change, and the change of
    /// (distance, units to capture, extra moves).
    cache: Vec<(u32, i32, i32, i32)>,
    stamp: u32,
}

impl Demands {
    /// `fates`: an entry per unit for each completion (`n` units).
    fn new(fates: &[Entry], n: usize) -> Demands {
        let mut per: Vec<std::collections::HashMap<Entry, u16>> = vec![Default::default(); n];
        let mut lists: Vec<Vec<Entry>> = vec![vec![Entry::Free]; n];
        let mut pic = Vec::with_capacity(fates.len());
        for (x, &e) in fates.iter().enumerate() {
            let i = x % n;
            if e == Entry::Free {
                pic.push(0);
                continue;
            }
            let j = *per[i].entry(e).or_insert_with(|| {
                lists[i].push(e);
                (lists[i].len() - 1) as u16
            });
            pic.push(j);
        }
        let mut base = Vec::with_capacity(n + 1);
        let mut list = Vec::new();
        for l in lists {
            base.push(list.len());
            list.extend(l);
        }
        base.push(list.len());
        let cache = vec![(0, 0, 0, 0); list.len()];
        Demands { n, base, list, pic, cache, stamp: 0 }
    }
}

/// The search of one picture.
struct Walk<'a> {
    units: &'a mut [Tracked],
    /// The picture's completions: per completion an entry for each unit of `units` in
    /// order (none when the units are committed themselves).
    fates: &'a [Entry],
    /// The completions' entries per unit (with completions).
    demands: Option<Demands>,
    segs: &'a [u64],
    /// Full commitment: the completions still in reach with their sums, a range per
    /// node on the path (`live[live_start..]` the current node's).
    live: Vec<Reach>,
    live_start: usize,
    /// The live list is still to be made (at the walk's first node).
    fresh: bool,
    mater: Colour,
    /// Stalemate pictures: the stalemate filter on the last ply, none on the one before.
    stalemate: bool,
    memo: &'a mut Memo,
    found: &'a mut HashSet<Vec<Move>>,
    notes: Notes,
    /// The zones of the stalemated side's moves at the node being searched two plies
    /// from the end (help) or at its last series move (`ser-h=`).
    zones: Option<super::stalemate::Zones>,
    /// Per node on the path, by moves left: where it stands ([`Walk::possible`]).
    nodes: Vec<NodeInfo>,
    /// Per move entered on the path: the live range before it and the units it moved.
    trail: Vec<((usize, usize), [usize; 3])>,
}

impl Walk<'_> {
    /// Each side's committed distance (mating side, mated side), and the number of units
    /// to be captured still on the board (each needs a move of the mating side).
    fn sums(&self, game: &Game) -> (u32, u32, u32) {
        let (mc, dc) = (colour_index(self.mater), colour_index(self.mater.opponent()));
        let kq = self.units[0].to().unwrap_or(GONE);
        let mut s = (0u32, 0u32, 0u32);
        for u in self.units.iter() {
            if u.end == End::Captured {
                s.2 += u32::from(u.sq != GONE);
                continue;
            }
            let k = kind_at(game, u.sq as usize).map_or(0, |(_, k)| k);
            if u.mater {
                s.0 += cost(u, mc, k) as u32;
                // A leaper checking at the end makes the mating move: on its square
                // already, it must leave and come back (a pawn cannot).
                if u.kind_to() == Some((k, u.sq as usize)) && leaper_checks(u, kq, mc) {
                    s.0 += if k == PAWN.index() { INF as u32 } else { 2 };
                }
            } else {
                s.1 += cost(u, dc, k) as u32;
            }
        }
        s
    }

    fn key(&self, game: &Game, plies: u32) -> u64 {
        let mut h = game.pos.hash() ^ (plies as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        for (i, u) in self.units.iter().enumerate() {
            h ^= ((u.sq as u64) + 1).wrapping_mul(0xff51_afd7_ed55_8ccd).rotate_left(7 * i as u32 + 1);
        }
        h
    }

    /// The committed distance of the mover's side (`mater`: the mating side; colour
    /// index `c`; `sum` before) after `m`.
    fn after(&self, game: &Game, m: &Move, mater: bool, c: usize, sum: u32) -> i32 {
        let mut sum = sum as i32;
        let from = m.from.index() as u8;
        for u in self.units.iter() {
            if u.mater != mater {
                continue;
            }
            if u.sq == from {
                let k = kind_at(game, from as usize).map_or(0, |(_, k)| k);
                let k2 = m.promo.map_or(k, |p| p.index());
                let moved = Tracked { sq: m.to.index() as u8, ..*u };
                sum += cost(&moved, c, k2) as i32 - cost(u, c, k) as i32;
            } else if let Some((rf, rt)) = m.castle
                && u.sq == rf.index() as u8
            {
                let k = kind_at(game, rf.index()).map_or(0, |(_, k)| k);
                let moved = Tracked { sq: rt.index() as u8, ..*u };
                sum += cost(&moved, c, k) as i32 - cost(u, c, k) as i32;
            }
        }
        sum
    }

    /// What completion entry `e` asks of its unit, now on `sq` as kind `k` (of the mating
    /// side when `mater`): (moves of its side, whether it is a unit to be captured still
    /// on the board, the leaper-checker's extra moves while the mating side has moves
    /// left). [`GONE`] for a unit that must stay on the board: [`OUT`].
    fn entry(&self, e: Entry, sq: u8, k: usize, mater: bool) -> (u16, u8, u16) {
        let t = tables();
        let c = colour_index(if mater { self.mater } else { self.mater.opponent() });
        match e {
            Entry::Free => return (0, 0, 0),
            Entry::Captured => return (0, u8::from(sq != GONE), 0),
            _ if sq == GONE => return (OUT, 0, 0),
            _ => {}
        }
        let sq = sq as usize;
        match e {
            Entry::Free | Entry::Captured => (0, 0, 0),
            Entry::Block { to } => (u16::from(t.block(c, k, sq)[to as usize]), 0, 0),
            Entry::As { kind, to } => (u16::from(t.reach(c, k, sq, kind as usize, to as usize)), 0, 0),
            Entry::Checker { kind, to } => {
                // A leaper checking at the end makes the mating move: on its target
                // already, it must leave and come back (a pawn cannot).
                let (kind, to) = (kind as usize, to as usize);
                let d = t.reach(c, k, sq, kind, to);
                let pen = if sq == to && k == kind { if kind == PAWN.index() { OUT } else { 2 } } else { 0 };
                (u16::from(d), 0, pen)
            }
            Entry::Hold { kinds, seg } => {
                let mut best = INF;
                let mut seg = self.segs[seg as usize];
                while seg != 0 {
                    let x = seg.trailing_zeros() as usize;
                    seg &= seg - 1;
                    if kinds == ANY_KIND {
                        best = best.min(t.block(c, k, sq)[x]);
                    } else {
                        for k2 in 0..=KING.index() {
                            if kinds >> k2 & 1 == 1 {
                                best = best.min(t.reach(c, k, sq, k2, x));
                            }
                        }
                    }
                }
                (u16::from(best), 0, 0)
            }
        }
    }

    /// Whether a completion with these sums is in reach with the moves left (the
    /// leaper-checker's extra moves count while the mating side has moves left).
    fn in_reach(r: &Reach, mated_left: u32, mater_left: u32) -> bool {
        let pen = if mater_left > 0 { u32::from(r.pen) } else { 0 };
        u32::from(r.mated) <= mated_left && u32::from(r.mater) + pen <= mater_left && u32::from(r.caps) <= mater_left
    }

    /// The live list at the walk's first node: every completion in reach here, with its
    /// sums (see [`Walk::step`]). Without completions: `true`.
    fn init_live(&mut self, game: &Game, mated_left: u32, mater_left: u32) -> bool {
        if self.fates.is_empty() || !self.fresh {
            return true;
        }
        self.fresh = false;
        let n = self.units.len();
        let mut here = [(GONE, 0usize, false); 32];
        for (h, u) in here.iter_mut().zip(self.units.iter()) {
            let k = if u.sq == GONE { 0 } else { kind_at(game, u.sq as usize).map_or(0, |(_, k)| k) };
            *h = (u.sq, k, u.mater);
        }
        let start = self.live.len();
        for ci in 0..self.fates.len() / n {
            let comp = &self.fates[ci * n..(ci + 1) * n];
            let mut r = Reach { ci: ci as u32, mater: 0, mated: 0, caps: 0, pen: 0 };
            for (&(sq, k, mater), &e) in here[..n].iter().zip(comp) {
                let (d, c, pen) = self.entry(e, sq, k, mater);
                if mater {
                    r.mater = r.mater.saturating_add(d);
                } else {
                    r.mated = r.mated.saturating_add(d);
                }
                r.caps += c;
                r.pen = r.pen.saturating_add(pen);
            }
            if Self::in_reach(&r, mated_left, mater_left) {
                self.live.push(r);
            }
        }
        self.live_start = start;
        self.live.len() > start
    }

    /// Full commitment: keeps, of the completions in reach at this node
    /// (`live[live_start..]`), those still in reach after `m` (played from `game`), with
    /// `mated_left` and `mater_left` moves left then, as the new live range; `false`
    /// when none is (the caller restores the range). A completion is in reach when
    /// none of its units that stay on the board has been captured, its units to be
    /// captured still on the board are at most the mating side's moves left, and each
    /// side's distances (its units to their final squares and kinds, a blocker to its
    /// square as any kind, a pinner to one of its pinning squares as a line piece, a
    /// leaper checking at the end on its final square already two more) fit within its
    /// moves left. The sums are kept per completion and changed by the units `m` moves
    /// (the mover, a castling rook, the captured unit). Without completions: `true`.
    fn step(&mut self, game: &Game, m: &Move, mated_left: u32, mater_left: u32) -> bool {
        if self.fates.is_empty() {
            return true;
        }
        // (unit index, before (square, kind), after (square, kind))
        let mut mv = [(0usize, (GONE, 0usize), (GONE, 0usize)); 3];
        let mut nm = 0;
        let from = m.from.index() as u8;
        if let Some(i) = self.units.iter().position(|u| u.sq == from) {
            let k = kind_at(game, from as usize).map_or(0, |(_, k)| k);
            mv[nm] = (i, (from, k), (m.to.index() as u8, m.promo.map_or(k, |p| p.index())));
            nm += 1;
        }
        if let Some((rf, rt)) = m.castle
            && let Some(i) = self.units.iter().position(|u| u.sq == rf.index() as u8)
        {
            mv[nm] = (i, (rf.index() as u8, ROOK.index()), (rt.index() as u8, ROOK.index()));
            nm += 1;
        }
        if let Some(cs) = m.capture
            && let Some(i) = self.units.iter().position(|u| u.sq == cs.index() as u8)
        {
            let k = kind_at(game, cs.index()).map_or(0, |(_, k)| k);
            mv[nm] = (i, (cs.index() as u8, k), (GONE, 0));
            nm += 1;
        }
        let mut dm = self.demands.take().expect("completions indexed");
        dm.stamp = dm.stamp.wrapping_add(1);
        if dm.stamp == 0 {
            dm.cache.iter_mut().for_each(|c| c.0 = 0);
            dm.stamp = 1;
        }
        let n = dm.n;
        let (a, b) = (self.live_start, self.live.len());
        for li in a..b {
            let mut r = self.live[li];
            let row = r.ci as usize * n;
            for &(i, (s0, k0), (s1, k1)) in &mv[..nm] {
                let j = dm.pic[row + i] as usize;
                if j == 0 {
                    continue;
                }
                let g = dm.base[i] + j;
                if dm.cache[g].0 != dm.stamp {
                    let e = dm.list[g];
                    let mater = self.units[i].mater;
                    let (d0, c0, p0) = self.entry(e, s0, k0, mater);
                    let (d1, c1, p1) = self.entry(e, s1, k1, mater);
                    dm.cache[g] = (
                        dm.stamp,
                        i32::from(d1) - i32::from(d0),
                        i32::from(c1) - i32::from(c0),
                        i32::from(p1) - i32::from(p0),
                    );
                }
                let (_, dd, dc, dp) = dm.cache[g];
                if self.units[i].mater {
                    r.mater = (i32::from(r.mater) + dd) as u16;
                } else {
                    r.mated = (i32::from(r.mated) + dd) as u16;
                }
                r.caps = (i32::from(r.caps) + dc) as u8;
                r.pen = (i32::from(r.pen) + dp) as u16;
            }
            if Self::in_reach(&r, mated_left, mater_left) {
                self.live.push(r);
            }
        }
        self.demands = Some(dm);
        if self.live.len() == b {
            return false;
        }
        self.live_start = b;
        true
    }

    /// Moves the committed units along `m` (the mover, a castling rook, a captured unit
    /// taken off); returns which.
    fn follow(&mut self, m: &Move) -> [usize; 3] {
        follow(self.units, m)
    }

    /// Undoes [`Walk::follow`].
    fn unfollow(&mut self, m: &Move, moved: [usize; 3]) {
        if moved[2] != usize::MAX
            && let Some(cs) = m.capture
        {
            self.units[moved[2]].sq = cs.index() as u8;
        }
        if moved[0] != usize::MAX {
            self.units[moved[0]].sq = m.from.index() as u8;
        }
        if moved[1] != usize::MAX
            && let Some((rf, _)) = m.castle
        {
            self.units[moved[1]].sq = rf.index() as u8;
        }
    }
}

impl Walk<'_> {
    /// Whether move `m` of the mover (`mater`: the mating side; its committed distance
    /// `sum`, `left` moves of its own left counting this one; `lefts`: the mating and the
    /// mated side's moves left before it) keeps a picture in reach. Without completions:
    /// it takes no committed unit of the other side, and the mover's committed distance
    /// still fits after it. Then [`Walk::step`]: some completion stays in reach after it
    /// (kept as the new live range, which the caller restores).
    fn admits(&mut self, game: &Game, m: &Move, mater: bool, sum: u32, left: u32, lefts: (u32, u32)) -> bool {
        if self.fates.is_empty() {
            if let Some(cs) = m.capture
                && self.units.iter().any(|u| u.mater != mater && u.sq == cs.index() as u8 && u.end != End::Completed)
            {
                return false;
            }
            let c = colour_index(if mater { self.mater } else { self.mater.opponent() });
            if self.after(game, m, mater, c, sum) > left as i32 - 1 {
                return false;
            }
        }
        let (mater_left, mated_left) = lefts;
        let (mater_next, mated_next) = if mater { (mater_left - 1, mated_left) } else { (mater_left, mated_left - 1) };
        self.step(game, m, mated_next, mater_next)
    }
}

/// Where a node of the walk stands (see [`Walk::possible`]).
#[derive(Clone, Copy, Default)]
struct NodeInfo {
    /// The node's key in the memo.
    key: u64,
    /// The side to move is the mating side.
    mover_is_mater: bool,
    /// Its committed distance (without completions).
    sum: u32,
    /// Its moves left, counting the one to make.
    left: u32,
    /// The mating side's moves left, and the mated side's.
    lefts: (u32, u32),
}

impl Walk<'_> {
    /// The node with `n` plies (series moves) left on the path.
    fn at(&mut self, n: u32) -> &mut NodeInfo {
        let n = n as usize;
        if self.nodes.len() <= n {
            self.nodes.resize(n + 1, NodeInfo::default());
        }
        &mut self.nodes[n]
    }
}

/// The key of a node in the searcher's table (help play: mate in exactly `n` plies;
/// series play: in exactly `n` series moves), as the normal search keeps it.
fn table_key(game: &Game, play: Play, n: u32) -> u64 {
    match play {
        Play::Help => Table::key(game.pos.hash(), Q::Help, n, 0),
        _ => Table::key(game.pos.hash(), Q::Series, n, play as u32),
    }
}

/// The walk as the hooks of the help and series driver ([`Searcher::help_node`],
/// [`Searcher::series_node`]): every line is searched, the nodes and moves outside the
/// pictures (completions) in reach left out.
impl Hooks for Walk<'_> {
    const ALL: bool = true;

    fn known(&mut self, s: &mut Searcher, play: Play, n: u32) -> Option<bool> {
        let key = self.key(&s.game, if play == Play::Help { n } else { n + 1000 });
        self.at(n).key = key;
        if self.memo.contains(&key) {
            return Some(false);
        }
        // Completions: the answer is the position's (see the module doc, *Searching
        // pictures together*).
        if !self.fates.is_empty() && n >= 2 && s.table.get(table_key(&s.game, play, n)) == Some(false) {
            return Some(false);
        }
        None
    }

    /// Each side's committed distances within its moves left, the units to capture
    /// within the mating side's moves, and (with completions) some completion in reach
    /// ([`Walk::init_live`]); the node is kept as [`NodeInfo`] for its moves.
    fn possible(&mut self, s: &mut Searcher, play: Play, n: u32) -> bool {
        let mover_is_mater = s.game.pos.side() == self.mater;
        // (With completions every unit is [`End::Completed`]: the sums are the live list's.)
        let (sm, sd, cap) = if self.fates.is_empty() { self.sums(&s.game) } else { (0, 0, 0) };
        let (mine, other) = if mover_is_mater { (sm, sd) } else { (sd, sm) };
        let (left, other_left) = match play {
            Play::Help => (n.div_ceil(2), n / 2),
            _ => (n, u32::from(play == Play::SeriesHelp)),
        };
        let (mater_left, mated_left) = if mover_is_mater { (left, other_left) } else { (other_left, left) };
        if mine > left || other > other_left || cap > mater_left || !self.init_live(&s.game, mated_left, mater_left) {
            let key = self.at(n).key;
            self.memo.insert(key);
            return false;
        }
        let at = self.at(n);
        (at.mover_is_mater, at.sum, at.left, at.lefts) = (mover_is_mater, mine, left, (mater_left, mated_left));
        true
    }

    /// Help play: the last-two-ply filters of the mate or of the stalemate; `ser-h=`: the
    /// zones at the last series move (with the stalemating answer, the last two plies).
    fn filter(&mut self, game: &mut Game, play: Play, n: u32, moves: &mut Vec<Move>) -> bool {
        let zones = match play {
            Play::Help if self.stalemate => {
                if n == 1 {
                    super::stalemate::filter_last(game, moves, &mut self.notes);
                }
                n == 2
            }
            Play::Help => {
                if n == 1 {
                    filter_last(game, moves);
                } else if n == 2 {
                    filter_second_last(game, moves);
                }
                false
            }
            _ => self.stalemate && n == 1 && play == Play::SeriesHelp,
        };
        if !zones {
            return false;
        }
        self.zones = super::stalemate::zones(game, &mut self.notes);
        self.zones.is_some()
    }

    fn keeps(&mut self, game: &mut Game, _play: Play, _n: u32, m: &Move) -> bool {
        self.zones.as_ref().is_none_or(|zs| super::stalemate::second_last_ok(game, zs, m))
    }

    /// [`Walk::admits`]: some picture (completion) stays in reach after `m`; the
    /// committed units are then followed through it.
    fn enter(&mut self, game: &Game, _play: Play, n: u32, m: &Move) -> bool {
        let saved = (self.live_start, self.live.len());
        let at = self.nodes[n as usize];
        if !self.admits(game, m, at.mover_is_mater, at.sum, at.left, at.lefts) {
            return false;
        }
        let moved = self.follow(m);
        self.trail.push((saved, moved));
        true
    }

    fn leave(&mut self, m: &Move) {
        let Some(((start, len), moved)) = self.trail.pop() else {
            return;
        };
        self.unfollow(m, moved);
        self.live_start = start;
        self.live.truncate(len);
    }

    fn found(&mut self, line: &[Move]) {
        self.found.insert(line.to_vec());
    }

    fn last(&mut self, s: &mut Searcher, play: Play, m: &Move, prefix: &mut Vec<Move>) -> Result<bool, Interrupted> {
        let found = &mut *self.found;
        let mut hit = false;
        s.series_last(play, m, prefix, &mut |_, line: &[Move], _| {
            found.insert(line.to_vec());
            hit = true;
            true
        })?;
        Ok(hit)
    }

    /// A node without a line goes to the walk's memo; with completions its answer goes to
    /// the searcher's table too (a fact of the position: see the module doc).
    fn record(&mut self, s: &mut Searcher, play: Play, n: u32, res: bool) {
        if !res {
            let key = self.nodes[n as usize].key;
            self.memo.insert(key);
        }
        if !self.fates.is_empty() && n >= 2 {
            s.table.put(table_key(&s.game, play, n), n, res);
        }
    }
}
/// Every help line of exactly `plies` plies from here, found through the pictures, fed
/// to `out` in the normal search's order. `Ok(None)`: the method does not apply here
/// (the caller searches otherwise); `Ok(Some(false))`: `out` asked to stop.
pub(super) fn lines(
    s: &mut Searcher,
    cache: &mut Cache,
    horizon: u32,
    plies: u32,
    prefix: &mut Vec<Move>,
    out: &mut dyn FnMut(&mut Searcher, &[Move]) -> bool,
) -> Result<Option<bool>, Interrupted> {
    let stm = s.game.pos.side();
    let mater = if plies % 2 == 1 { stm } else { stm.opponent() };
    let search = |w: &mut Walk<'_>, s: &mut Searcher, prefix: &mut Vec<Move>| s.help_node(w, plies, prefix);
    // The longest help play asked from here (same parity, same mating side).
    let most = if horizon > plies && (horizon - plies).is_multiple_of(2) { horizon } else { plies };
    let budgets = (plies.div_ceil(2), plies / 2, most.div_ceil(2), most / 2);
    let (p1, most1) = (plies + 1, most + 1);
    let parent = prefix.last().filter(|_| most <= PARENT_UP_TO).map(|&first| Parent {
        first,
        pass: false,
        budgets: (p1.div_ceil(2), p1 / 2, most1.div_ceil(2), most1 / 2),
    });
    let cheap = s.goal == Goal::Stalemate && most.div_ceil(2) < CHEAP_BELOW;
    let Some(found) = every_picture(s, cache, mater, budgets, cheap, parent, prefix, search)? else {
        return Ok(None);
    };
    Ok(Some(emit(s, plies, prefix, &prefixes(&found, prefix.len()), out)))
}

/// What pictures were enumerated for: (position, mating side, stalemate, the moves of
/// each side).
type PicturesKey = (u64, Colour, bool, u32, u32);

/// The last pictures enumerated (`None`: a cheap enumeration failed), kept by the
/// searcher's pruning from one call to the next.
#[derive(Default)]
pub(super) struct Cache {
    last: Option<(PicturesKey, Option<Arc<Pictures>>)>,
}

/// The pictures of a mate (stalemate) by `mater` within `m` moves of its own and `bmoves`
/// of the other side, enumerated for `most_m` and `most_b` moves when those are more (the
/// longest play the caller will ask from here: see [`crate::search::Pruning::plan`]) and
/// kept in `cache` for the next call. Pictures within more moves are a superset (every bound only loosens) and the
/// search checks each side's distances against its moves left, so the extra pictures only
/// cost time. `None`: the method does not apply. `cheap`: only a cheap enumeration
/// with full commitment serves (see [`CHEAP_BELOW`]); its failure is kept too.
fn pictures_for(
    cache: &mut Cache,
    game: &Game,
    mater: Colour,
    stalemate: bool,
    budgets: (u32, u32, u32, u32),
    cheap: bool,
) -> Option<Arc<Pictures>> {
    let (m, bmoves, most_m, most_b) = budgets;
    let (most_m, most_b) = (most_m.max(m), most_b.max(bmoves));
    let key = (game.pos.hash(), mater, stalemate);
    if let Some(((h, c, st, cm, cb), p)) = &cache.last
        && (*h, *c, *st) == key
        && *cm >= m
        && *cb >= bmoves
    {
        return p.clone();
    }
    // Mate pictures searched together (see [`unite`]).
    let ready =
        |p: Pictures| Arc::new(if stalemate || p.ranges.len() > UNITE_UP_TO { p } else { unite(game, mater, p) });
    let most = (most_m, most_b);
    let pictures = if cheap {
        enumerate(game, mater, most, stalemate, true, CHEAP_WORK).map(ready)
    } else {
        // Full commitment first; on overflow, the pictures without it (for the moves asked).
        match enumerate(game, mater, most, stalemate, true, u64::MAX) {
            Some(p) => Some(ready(p)),
            None => {
                let asked = (m, bmoves);
                let full = if asked == most { None } else { enumerate(game, mater, asked, stalemate, true, u64::MAX) };
                return full.or_else(|| enumerate(game, mater, asked, stalemate, false, u64::MAX)).map(ready);
            }
        }
    };
    cache.last = Some(((key.0, key.1, key.2, most_m, most_b), pictures.clone()));
    pictures
}

/// Searches every picture of a mate by `mater` with `walk` (`budgets`: as in
/// [`pictures_for`]), and returns the lines found (`None`: the method does not apply).
#[allow(clippy::too_many_arguments)]
fn every_picture(
    s: &mut Searcher,
    cache: &mut Cache,
    mater: Colour,
    budgets: (u32, u32, u32, u32),
    cheap: bool,
    parent: Option<Parent>,
    prefix: &mut Vec<Move>,
    mut walk: impl FnMut(&mut Walk<'_>, &mut Searcher, &mut Vec<Move>) -> Result<bool, Interrupted>,
) -> Result<Option<HashSet<Vec<Move>>>, Interrupted> {
    let stalemate = match s.goal {
        Goal::Mate => false,
        Goal::Stalemate => true,
        Goal::Any => return Ok(None),
    };
    let from_parent = parent.and_then(|p| Some((parent_pictures(s, cache, mater, stalemate, &p, cheap)?, p.first)));
    let (pictures, first) = match from_parent {
        Some((pictures, first)) => (pictures, Some(first)),
        // (A cheap enumeration that failed for the parent is not tried again here.)
        None if cheap && parent.is_some() => return Ok(None),
        None => match pictures_for(cache, &s.game, mater, stalemate, budgets, cheap) {
            Some(pictures) => (pictures, None),
            None => return Ok(None),
        },
    };
    let Pictures { units, ranges, fates, segs } = &*pictures;
    let mut all = units.clone();
    if let Some(first) = &first {
        // Each picture's units, from the parent's squares to this position's.
        follow(&mut all, first);
    }
    let mut memo = Memo::default();
    let mut found = HashSet::new();
    let base = prefix.len();
    for &(a, b, c, d) in ranges {
        memo.clear();
        let mut w = Walk {
            units: &mut all[a..b],
            fates: &fates[c..d],
            demands: (d > c).then(|| Demands::new(&fates[c..d], b - a)),
            segs,
            live: Vec::new(),
            live_start: 0,
            fresh: true,
            mater,
            stalemate,
            memo: &mut memo,
            found: &mut found,
            notes: Notes::new(),
            zones: None,
            nodes: Vec::new(),
            trail: Vec::new(),
        };
        walk(&mut w, s, prefix)?;
        debug_assert_eq!(prefix.len(), base);
    }

    Ok(Some(found))
}

/// Help play goes by the parent's pictures ([`Parent`]) when the longest play asked below
/// the first move has at most this many plies (all lengths of one problem go the same
/// way: the pictures kept are one position's). Measured on Popeye's `hpint` examples (one thread): `h=4`
/// and `h=5` gained (9.6 s to 4.1 s, 13.7 s to 6.7 s, 7.0 s to 5.0 s, 3.5 s to 1.8 s),
/// longer ones were mixed (an `h=8` 12 s to 32 s, another 3.6 s to 2.5 s): the parent's
/// pictures are looser than the child's own (the enumeration's checks see one more move
/// of the side that played first), and deep walks pay for it more often than they
/// save on the enumerations.
const PARENT_UP_TO: u32 = 9;

/// The position a search by the pictures starts from was reached by `first` (and a pass
/// of the other side when `pass`: series play) from its parent, where the same mating
/// side has `budgets` (as [`pictures_for`] takes them: one more move for the side that
/// played `first`). The pictures of the parent serve here: every mate (stalemate) within
/// the moves left here is one within the parent's moves through `first`, so it fits a
/// picture of the parent's with each unit followed through `first` ([`follow`]); and the
/// parent's pictures are enumerated once for all its moves (the first-move loop of the
/// solver asks for each of them in turn), not once per move.
#[derive(Clone, Copy)]
struct Parent {
    first: Move,
    pass: bool,
    budgets: (u32, u32, u32, u32),
}

/// The pictures of the parent position (see [`Parent`]), the game taken back there and
/// brought back here; `None`: the method does not apply there.
fn parent_pictures(
    s: &mut Searcher,
    cache: &mut Cache,
    mater: Colour,
    stalemate: bool,
    p: &Parent,
    cheap: bool,
) -> Option<Arc<Pictures>> {
    let here = s.game.pos.hash();
    if p.pass {
        s.game.unmake();
    }
    s.game.unmake();
    let pictures = pictures_for(cache, &s.game, mater, stalemate, p.budgets, cheap);
    let replayed = s.game.make(&p.first).is_some() && (!p.pass || s.game.make(&Move::NULL).is_some());
    debug_assert!(replayed && s.game.pos.hash() == here, "the parent's move replays to this position");
    pictures
}

/// Mate pictures up to this many are searched together ([`unite`]); beyond, one by one.
/// With the shared table the union was faster on Popeye's `intell` examples but for a
/// few (worst: 3.3 s to 3.6 s), so this is the enumeration's own limit: every mate enumeration is united
/// (at most about 130 MB of completions), and the one-by-one walk serves the stalemate
/// pictures without full commitment.
const UNITE_UP_TO: usize = MAX_PICTURES;

/// The mate pictures `p` (one per range) as completions over one canonical list of every
/// unit on the board (the mated king, the other units of the mated side, the mating
/// units, each [`End::Completed`]), to search them together: per picture, the mated
/// king's entry (its kind, K), a blocker's ([`Entry::Block`], its flight), a committed
/// mating unit's (kind, target), or [`Entry::Checker`] for a leaper that checks K from
/// its target, and [`Entry::Free`] for every uncommitted unit of either side.
fn unite(game: &Game, mater: Colour, p: Pictures) -> Pictures {
    let mc = colour_index(mater);
    let mated = mater.opponent();
    let board = game.pos.board();
    let dk = (board.colour(mated).0 & board.kind(KING).0).trailing_zeros() as u8;
    let mut canon = vec![Tracked { sq: dk, mater: false, end: End::Completed }];
    for (sq, k) in units(game, mated) {
        if k != KING.index() {
            canon.push(Tracked { sq: sq as u8, mater: false, end: End::Completed });
        }
    }
    for (sq, _) in units(game, mater) {
        canon.push(Tracked { sq: sq as u8, mater: true, end: End::Completed });
    }
    let n = canon.len();
    let mut fates = Vec::with_capacity(p.ranges.len() * n);
    for &(a, b, _, _) in &p.ranges {
        let pic = &p.units[a..b];
        let kq = pic[0].to().unwrap_or(GONE);
        let start = fates.len();
        fates.resize(start + n, Entry::Free);
        for u in pic {
            let i = canon.iter().position(|c| c.sq == u.sq && c.mater == u.mater).expect("a unit on the board");
            fates[start + i] = match u.end {
                End::As { kind, to } if u.mater && leaper_checks(u, kq, mc) => Entry::Checker { kind, to },
                end => Entry::of(end),
            };
        }
    }
    let ranges = if fates.is_empty() { Vec::new() } else { vec![(0, n, 0, fates.len())] };
    Pictures { units: canon, ranges, fates, segs: Vec::new() }
}

/// Moves the units on the squares `m` moves along it (the mover, a castling rook, a
/// captured unit taken off: [`GONE`]); returns the index of the last of each.
fn follow(units: &mut [Tracked], m: &Move) -> [usize; 3] {
    let mut moved = [usize::MAX; 3];
    let from = m.from.index() as u8;
    let cs = m.capture.map_or(u8::MAX, |c| c.index() as u8);
    for (i, u) in units.iter_mut().enumerate() {
        if u.sq == cs {
            u.sq = GONE;
            moved[2] = i;
        } else if u.sq == from {
            u.sq = m.to.index() as u8;
            moved[0] = i;
        } else if let Some((rf, rt)) = m.castle
            && u.sq == rf.index() as u8
        {
            u.sq = rt.index() as u8;
            moved[1] = i;
        }
    }
    moved
}

/// Every prefix of a found line beyond the first `base` moves, to walk them in move order.
fn prefixes(found: &HashSet<Vec<Move>>, base: usize) -> HashSet<&[Move]> {
    let mut out: HashSet<&[Move]> = HashSet::new();
    for l in found {
        for i in base + 1..=l.len() {
            out.insert(&l[..i]);
        }
    }
    out
}

/// Walks the legal moves in order along the found lines, feeding the complete ones.
fn emit(
    s: &mut Searcher,
    plies: u32,
    prefix: &mut Vec<Move>,
    lines: &HashSet<&[Move]>,
    out: &mut dyn FnMut(&mut Searcher, &[Move]) -> bool,
) -> bool {
    if plies == 0 {
        return true;
    }
    let moves = s.legal();
    for m in &moves {
        prefix.push(*m);
        if lines.contains(prefix.as_slice()) {
            let go_on = if plies == 1 {
                out(s, prefix)
            } else {
                s.game.make(m);
                let r = emit(s, plies - 1, prefix, lines, out);
                s.game.unmake();
                r
            };
            if !go_on {
                prefix.pop();
                return false;
            }
        }
        prefix.pop();
    }
    true
}

/// Series play by the pictures: every series line of exactly `k` series moves from here
/// (the series side to move), as [`Searcher::series_lines`] gives them, for `ser-h#`
/// (the other side mates in one after the series) and `ser-#` (the last series move
/// mates, the other side never moving). `Ok(None)`: the method does not apply here.
pub(super) fn series_lines(
    s: &mut Searcher,
    cache: &mut Cache,
    horizon: u32,
    play: Play,
    k: u32,
    prefix: &mut Vec<Move>,
    out: &mut SeriesSink<'_>,
) -> Result<Option<bool>, Interrupted> {
    let stm = s.game.pos.side();
    // (mating side, its moves, the other side's moves)
    // The longest series asked from here.
    let most = horizon.max(k);
    let budgets_for = |k: u32, most: u32| match play {
        Play::SeriesHelp => Some((1, k, 1, most)),
        Play::Series => Some((k, 0, most, 0)),
        _ => None,
    };
    let (Some(budgets), Some(parent_budgets)) = (budgets_for(k, most), budgets_for(k + 1, most + 1)) else {
        return Ok(None);
    };
    let mater = if play == Play::SeriesHelp { stm.opponent() } else { stm };
    let parent = prefix.last().map(|&first| Parent { first, pass: true, budgets: parent_budgets });
    let search = |w: &mut Walk<'_>, s: &mut Searcher, prefix: &mut Vec<Move>| s.series_node(w, play, k, prefix);
    let Some(found) = every_picture(s, cache, mater, budgets, false, parent, prefix, search)? else {
        return Ok(None);
    };
    let prefixes = prefixes(&found, prefix.len());
    series_emit(s, play, k, prefix, &prefixes, out).map(Some)
}

/// Walks the series moves in order along the found lines, the last move's ends given by
/// [`Searcher::series_last`] as in the normal search.
fn series_emit(
    s: &mut Searcher,
    play: Play,
    k: u32,
    prefix: &mut Vec<Move>,
    lines: &HashSet<&[Move]>,
    out: &mut SeriesSink<'_>,
) -> Result<bool, Interrupted> {
    let moves = s.legal();
    for m in &moves {
        prefix.push(*m);
        let hit = lines.contains(prefix.as_slice());
        prefix.pop();
        if !hit {
            continue;
        }
        if k == 1 {
            if !s.series_last(play, m, prefix, out)? {
                return Ok(false);
            }
            continue;
        }
        s.game.make(m);
        if s.game.make(&Move::NULL).is_some() {
            prefix.push(*m);
            let r = series_emit(s, play, k - 1, prefix, lines, out);
            prefix.pop();
            s.game.unmake();
            s.game.unmake();
            if !r? {
                return Ok(false);
            }
        } else {
            s.game.unmake();
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{Rng, collect_help, collect_series, random_game, searcher};
    use super::*;

    /// `count` random positions drawn from `seed`.
    fn random_games(seed: u64, count: usize) -> impl Iterator<Item = Game> {
        games_from(seed, random_game).take(count)
    }

    /// The positions `make` draws from `seed`, the failed draws skipped.
    fn games_from(seed: u64, make: fn(&mut Rng) -> Option<Game>) -> impl Iterator<Item = Game> {
        let mut rng = Rng(seed);
        std::iter::from_fn(move || {
            loop {
                if let Some(g) = make(&mut rng) {
                    return Some(g);
                }
            }
        })
    }

    /// Solves `count` random positions at each length in `plies` both ways, the pictures
    /// used from the first ply on: the same lines in the same order. Returns the number
    /// of lines found.
    fn compare(seed: u64, count: usize, plies: std::ops::RangeInclusive<u32>) -> usize {
        compare_games(random_games(seed, count), plies)
    }

    /// [`compare`] on the given positions.
    fn compare_games(games: impl Iterator<Item = Game>, plies: std::ops::RangeInclusive<u32>) -> usize {
        let mut found = 0;
        for g in games {
            for p in plies.clone() {
                let (la, _) = collect_help(|out| searcher(g.clone()).help_lines(p, &mut Vec::new(), out));
                let (lb, r) = collect_help(|out| {
                    lines(&mut searcher(g.clone()), &mut Cache::default(), 0, p, &mut Vec::new(), out)
                });
                assert!(r.is_some(), "pictures not applied: {}", g.pos.fen());
                assert_eq!(la, lb, "{} plies from {}", p, g.pos.fen());
                found += la.len();
            }
        }
        found
    }

    /// A random position where White has its king and one or two more units, Black
    /// (to move) its king on an edge and three to six units around it: mate pictures
    /// commit every white unit but the king, and blockers that could parry the check
    /// refute many ([`Enum::defended`]).
    fn few_maters_game(rng: &mut Rng) -> Option<Game> {
        let mut g = few_maters_unchecked(rng, 'b')?;
        if g.in_check(Colour::White) || g.in_check(Colour::Black) {
            return None;
        }
        Some(g)
    }

    /// The position of [`few_maters_game`] with `side` to move, either side perhaps in
    /// check.
    fn few_maters_unchecked(rng: &mut Rng, side: char) -> Option<Game> {
        let (mut board, bk) = super::super::tests::kings_on_board(rng)?;
        super::super::tests::crowd(&mut board, bk, 3 + rng.below(4), b"snbrqpp", rng);
        for _ in 0..1 + rng.below(2) {
            let sq = rng.below(64) as usize;
            let u = b"QRBSP"[rng.below(5) as usize] as char;
            if board[sq].is_none() && (u != 'P' || (8..56).contains(&sq)) {
                board[sq] = Some(u);
            }
        }
        let fen = super::super::tests::placement(&board);
        chimere_fairy::game_from_fen(&format!("{fen} {side} - - 0 1"), &[]).ok()
    }

    /// The pictures on random positions with holes (`Condition Hole`: no flight, no
    /// final square there), help play of 1 to 4 plies and series play of 1 to 3 moves.
    #[test]
    fn the_pictures_find_the_same_mates_with_holes() {
        let mut games =
            games_from(0x401d, |rng| random_game(rng).and_then(|g| super::super::tests::with_holes(&g, rng)));
        let found = compare_games(games.by_ref().take(60), 1..=4);
        assert!(found >= 20, "only {found} mates");
        compare_series_games(games.take(30), 1..=3);
    }

    /// Helpmates in 1.5 and 2 (White mating) where White has few units and Black many:
    /// the pictures that a blocker's parry refutes are dropped, and the lines are still
    /// the normal search's.
    #[test]
    fn the_pictures_refuted_by_a_parry_lose_no_mate() {
        let found = compare_games(games_from(0x9a44, few_maters_game).take(160), 2..=4);
        assert!(found >= 40, "only {found} mates");
    }

    /// Every real mate fits a picture, and no picture a real mate fits is refuted by a
    /// parry: in random checkmates (Black mated by White's last move, played from random
    /// positions where White has its king and one or two units, Black many), the
    /// pictures with no move left to either side (each unit committed to its own square,
    /// so each fits the mate) are there, and none is refuted.
    #[test]
    fn every_mate_keeps_a_picture_with_no_moves_left() {
        let mut rng = Rng(0x3e1f);
        let (mut mates, mut tried, mut parried) = (0, 0, 0);
        let (mut moves, mut replies) = (Vec::new(), Vec::new());
        while mates < 3000 && tried < 2_000_000 {
            tried += 1;
            let Some(mut g) = few_maters_unchecked(&mut rng, 'w') else {
                continue;
            };
            if g.in_check(Colour::Black) || g.in_check(Colour::White) {
                continue;
            }
            moves.clear();
            g.legal_moves(&mut moves);
            for m in &moves {
                g.make(m);
                replies.clear();
                g.legal_moves(&mut replies);
                if g.in_check(Colour::Black) {
                    let (p, refuted) =
                        enumerate_all(&g, Colour::White, (0, 0), false, false, u64::MAX, true).expect("pictures");
                    if replies.is_empty() {
                        mates += 1;
                        assert!(!p.ranges.is_empty(), "no picture of the mate {}", g.pos.fen());
                        assert_eq!(refuted, 0, "a picture of the mate {} refuted", g.pos.fen());
                    } else {
                        parried += refuted;
                    }
                }
                g.unmake();
            }
        }
        assert!(mates >= 3000, "{mates} mates in {tried} positions");
        // Checks that are no mates: their pictures are refuted often.
        assert!(parried >= 50, "{parried} pictures of checks refuted");
    }

    /// The same for series play (`ser-h#k` and `ser-#k`, Black's series), answers
    /// included.
    fn compare_series(seed: u64, count: usize, ks: std::ops::RangeInclusive<u32>) -> usize {
        compare_series_games(random_games(seed, count), ks)
    }

    /// [`compare_series`] on the given positions.
    fn compare_series_games(games: impl Iterator<Item = Game>, ks: std::ops::RangeInclusive<u32>) -> usize {
        let mut found = 0;
        for g in games {
            for play in [Play::SeriesHelp, Play::Series] {
                for k in ks.clone() {
                    let (la, _) = collect_series(|out| searcher(g.clone()).series_lines(play, k, &mut Vec::new(), out));
                    let (lb, r) = collect_series(|out| {
                        series_lines(&mut searcher(g.clone()), &mut Cache::default(), 0, play, k, &mut Vec::new(), out)
                    });
                    assert!(r.is_some(), "pictures not applied: {}", g.pos.fen());
                    assert_eq!(la, lb, "{play:?} {k} from {}", g.pos.fen());
                    found += la.len();
                }
            }
        }
        found
    }

    /// Solves the continuations of every first move of `count` random positions, at each
    /// help length in `plies` and each series length in `ks`, both ways: the normal
    /// search, and the pictures asked after the first move (the parent's pictures
    /// followed through it, as the solver's first-move loop asks them); the same lines in
    /// the same order. Returns the number of lines found.
    fn compare_from_parent(
        seed: u64,
        count: usize,
        goal: Goal,
        plies: std::ops::RangeInclusive<u32>,
        ks: std::ops::RangeInclusive<u32>,
    ) -> usize {
        use std::sync::Arc;
        use std::sync::atomic::AtomicBool;
        let after = |g: &Game, m: &Move, pass: bool| {
            let mut s = Searcher::new(g.clone(), Table::new(8), Arc::new(AtomicBool::new(false)), goal, false);
            (s.game.make(m).is_some() && (!pass || s.game.make(&Move::NULL).is_some())).then_some(s)
        };
        let mut found = 0;
        // One cache for the first moves of a position, as the searcher's pruning keeps it.
        let mut cache = Cache::default();
        for g in random_games(seed, count) {
            for m in &searcher(g.clone()).legal() {
                for p in plies.clone() {
                    let (Some(mut a), Some(mut b)) = (after(&g, m, false), after(&g, m, false)) else { continue };
                    let (la, _) = collect_help(|out| a.help_lines(p, &mut vec![*m], out));
                    let (lb, r) = collect_help(|out| lines(&mut b, &mut cache, 0, p, &mut vec![*m], out));
                    assert!(r.is_some(), "pictures not applied: {}", g.pos.fen());
                    assert_eq!(la, lb, "{} plies after {m:?} from {}", p, g.pos.fen());
                    found += la.len();
                }
                for play in [Play::SeriesHelp, Play::Series] {
                    for k in ks.clone() {
                        let (Some(mut a), Some(mut b)) = (after(&g, m, true), after(&g, m, true)) else { continue };
                        let (la, _) = collect_series(|out| a.series_lines(play, k, &mut vec![*m], out));
                        let (lb, r) =
                            collect_series(|out| series_lines(&mut b, &mut cache, 0, play, k, &mut vec![*m], out));
                        assert!(r.is_some(), "pictures not applied: {}", g.pos.fen());
                        assert_eq!(la, lb, "{play:?} {k} after {m:?} from {}", g.pos.fen());
                        found += la.len();
                    }
                }
            }
        }
        found
    }

    #[test]
    fn the_pictures_of_the_parent_find_the_same_lines_after_each_first_move() {
        let mates = compare_from_parent(41, 6, Goal::Mate, 1..=3, 1..=2);
        let stalemates = compare_from_parent(42, 6, Goal::Stalemate, 1..=3, 1..=2);
        assert!(mates > 0 && stalemates > 0, "{mates} mates, {stalemates} stalemates");
    }

    /// Solves `count` random positions at each help length in `plies` and each series
    /// length in `ks` with ONE searcher per position, so that the walks (by the pictures
    /// from the first ply on) share its table with each other and with the normal
    /// search asked first about the same lengths: the same lines as fresh normal
    /// searches. Returns the number of lines found.
    fn compare_shared(
        seed: u64,
        count: usize,
        plies: std::ops::RangeInclusive<u32>,
        ks: std::ops::RangeInclusive<u32>,
    ) -> usize {
        let mut found = 0;
        for g in random_games(seed, count) {
            let mut shared = super::super::tests::intelligent(g.clone(), Goal::Mate);
            let mut cache = Cache::default();
            for p in plies.clone() {
                let (la, _) = collect_help(|out| searcher(g.clone()).help_lines(p, &mut Vec::new(), out));
                if p % 2 == 0 {
                    // The normal search first fills the table for this length.
                    shared.help_exists(p).expect("not stopped");
                }
                let (lb, r) = collect_help(|out| lines(&mut shared, &mut cache, 0, p, &mut Vec::new(), out));
                assert!(r.is_some(), "pictures not applied: {}", g.pos.fen());
                assert_eq!(la, lb, "{} plies from {} (shared table)", p, g.pos.fen());
                found += la.len();
            }
            for play in [Play::SeriesHelp, Play::Series] {
                for k in ks.clone() {
                    let (la, _) = collect_series(|out| searcher(g.clone()).series_lines(play, k, &mut Vec::new(), out));
                    let (lb, r) =
                        collect_series(|out| series_lines(&mut shared, &mut cache, 0, play, k, &mut Vec::new(), out));
                    assert!(r.is_some(), "pictures not applied: {}", g.pos.fen());
                    assert_eq!(la, lb, "{play:?} {k} from {} (shared table)", g.pos.fen());
                    found += la.len();
                }
            }
        }
        found
    }

    #[test]
    fn the_pictures_sharing_a_table_find_the_same_mates() {
        let found = compare_shared(0x7ab1, 12, 1..=5, 1..=4);
        assert!(found > 20, "only {found} lines in the sample");
    }

    #[test]
    fn the_mate_pictures_are_searched_together() {
        // Black's series of 8 moves before White's mate (2 + 9 units): the pictures of a
        // mate become completions over one canonical unit list, searched in one walk.
        let g = chimere_fairy::game_from_fen("8/8/knb5/npq5/rbr5/1P1K4/8/8 b - - 0 1", &[]).expect("a position");
        let p = enumerate(&g, Colour::White, (1, 8), false, true, u64::MAX).expect("pictures");
        assert!(p.ranges.len() > 1, "one range per picture before the union");
        let count = p.ranges.len();
        let u = unite(&g, Colour::White, p);
        assert_eq!(u.ranges.len(), 1, "one walk");
        let n = u.units.len();
        assert_eq!(n, 11, "every unit on the board");
        assert_eq!(u.fates.len(), count * n, "one completion per picture");
        // Each completion commits the mated king (first), with a final square.
        assert!(u.fates.chunks(n).all(|c| matches!(c[0], Entry::As { kind, .. } if kind == KING.index() as u8)));
    }

    #[test]
    fn the_series_pictures_find_the_same_mates() {
        let found = compare_series(0x5e71, 40, 1..=4);
        assert!(found > 10, "only {found} lines in the sample");
    }

    #[test]
    fn the_pictures_find_the_same_mates() {
        // h#1 to h#2.5 from Black's side (White mates on even lengths, Black on odd).
        let found = compare(0x9a7e, 15, 1..=5);
        assert!(found > 20, "only {found} lines in the sample");
    }

    #[test]
    #[ignore = "heavy: h#3 from random positions, 40 s (run with --release --ignored)"]
    fn the_pictures_find_the_same_mates_in_three() {
        let found = compare(0x3a11, 5, 6..=6);
        assert!(found > 0, "no line in the sample");
    }

    #[test]
    #[ignore = "heavy: h#3 and h#4 on many positions (run with --release --ignored)"]
    fn the_pictures_find_the_same_mates_deeper() {
        let found = compare(0x51de, 60, 6..=8);
        eprintln!("{found} lines");
    }
}
