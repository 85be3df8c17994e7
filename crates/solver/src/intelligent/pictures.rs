//! Help play towards committed final pictures (the intelligent mode when the mating side
//! has [`PICTURES_FROM`] moves or more, where the bound of the parent module is weak).
//!
//! The steps, one submodule each: `mate` (the mate pictures, their parries and their
//! union as completions), `fates` (the full commitment of a stalemate picture), `place`
//! (the completion test on a scratch game), `walk` (the search of the pictures, as the
//! hooks of the searcher's one help and series driver, `crate::search::Hooks`) and
//! `cache` (the pictures kept by the searcher's pruning, and the parent's pictures);
//! the proofs below are theirs.
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
//! move that no unit can obstruct ([`Enumeration::defended`], with the proof): no final
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
//! ([`Enumeration::captures_possible`]: a unit's moves are at least its committed distance,
//! its number of captures, and its distance through each capture square, the captured
//! unit taken where it stands after at most S's spare moves). S's final squares are
//! then known exactly (king, blockers, placed units), and each placed unit (a blocker
//! that is not a pawn too) must have no legal move: by the rule proved at
//! `stalemate::immobility`, it is blocked by its own side on every first step, or it
//! is *held* by W — pinned (a knight; a bishop on a rank or file; a rook on a
//! diagonal; a pawn on a rank or diagonal) with a W line piece on the pinning squares,
//! or, a pawn, a W unit on its front square. Holders are committed as requirements met
//! by W's units ([`Enumeration::ways`]: a committed unit already there, or an uncommitted one
//! whose distance to the squares, as the kinds needed, is added to W's; one unit may
//! meet several requirements only on a square common to them), one completion per way
//! (more than eight ways: one completion without holders, which only weakens it). A
//! real stalemate fits a completion: give each unit its real fate; the real captures
//! are W's moves; each placed unit satisfies the rule in the real final position, and
//! its real holders meet the requirements, so the way of the real holders is among
//! those enumerated (the checks during the enumeration are on subsets of S's final
//! squares, each proved to stay true as squares are added). While the fates are
//! given, the placed pieces that cannot be pinned even now (`stalemate::open_unpinnable`:
//! a pin only gets harder as S's squares are added) need each of their open first-step
//! squares filled by one of the units still to place, one square each: those squares
//! are at most as many as the units, and each within reach of one of them
//! ([`Enumeration::blocks_fit`]); this took the `ser-h=12` of the measured collection
//! with eight stalemated units from 12 s to 0.9 s, and an `h=3` from 4.1 s to 0.9 s.
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
//! picture's: it never goes to the table.) By the same argument the lines a walk of
//! the completions finds below a node are every line of that position with those moves
//! left, so another path to it takes them without a search ([`lines::Lines::graft`]).
//!
//! Each picture is then searched: the normal help moves, keeping only those after which
//! each side's remaining committed distances still fit within its remaining moves (the
//! committed units are followed through the moves: departure to arrival, the castling
//! rook, promotion; a captured committed unit ends the picture), with the last-two-ply
//! filters of the parent module and a table of this picture's sub-positions without a
//! solution. The mate is checked by the real rules, so every line found is a real
//! solution; the pictures cover every mate, so every solution is found. The lines of all
//! pictures are united, then printed in the normal search's order (a walk of the
//! candidate moves in generation order along the found lines, [`lines::Lines`]).
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

mod cache;
mod fates;
mod frozen;
mod lines;
mod mate;
mod place;
mod walk;

use super::tables::DUMMY_T;
use super::tables::{Tables, tables_for};
use super::{INF, PAWN, colour_index, filter_last, filter_second_last, tables, units};
use crate::search::{Hooks, Interrupted, Searcher, SeriesSink, Table};
use crate::stip::{Goal, Play};
use crate::table::Q;
pub(super) use cache::Cache;
use cache::{PARENT_UP_TO, Parent, parent_pictures, pictures_for};
use chimere_core::{Colour, Kind};
use chimere_fairy::position::Unit;
use chimere_fairy::rules::Notes;
use chimere_fairy::walk::{BISHOP, KING, KNIGHT, QUEEN, ROOK};
use chimere_fairy::{Game, Move};
use fates::ANY_KIND;
use lines::{At, Lines};
use mate::{enumerate, unite};
use std::collections::HashSet;
use std::sync::Arc;
use walk::{Walk, every_picture};

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
/// [`Enumeration::fate_dfs`], four per unit placed and forty per final position tested by
/// [`Enumeration::stalemate_placeable`] (about 10 to 40 million a second here).
const CHEAP_WORK: u64 = 80_000_000;

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// Hashed as one word (the entries are hashed by the thousands when the completions are
/// indexed, [`walk::Demands`]).
impl std::hash::Hash for Entry {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.packed());
    }
}

impl Entry {
    /// The entry as one word (distinct entries, distinct words).
    fn packed(self) -> u64 {
        let (tag, a, b) = match self {
            Entry::Free => (0, 0, 0),
            Entry::As { kind, to } => (1, kind, u32::from(to)),
            Entry::Block { to } => (2, 0, u32::from(to)),
            Entry::Checker { kind, to } => (3, kind, u32::from(to)),
            Entry::Hold { kinds, seg } => (4, kinds, seg),
            Entry::Captured => (5, 0, 0),
        };
        tag | u64::from(a) << 8 | u64::from(b) << 16
    }

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

/// A committed unit: where it stands now (`None`: captured, in the walk), and how it
/// must end.
#[derive(Clone, Copy, Debug)]
struct Tracked {
    sq: Option<u8>,
    /// Of the mating side.
    mater: bool,
    end: End,
}

impl Tracked {
    /// A unit on the board (as is every unit while the pictures are enumerated).
    fn on(sq: usize, mater: bool, end: End) -> Tracked {
        Tracked { sq: Some(sq as u8), mater, end }
    }

    /// Its square, while the pictures are enumerated (every unit on the board).
    fn square(&self) -> usize {
        usize::from(self.sq.expect("every unit is on the board while the pictures are enumerated"))
    }

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
fn leaper_checks(u: &Tracked, kq: Option<u8>, mc: usize) -> bool {
    kq.is_some_and(|kq| u.kind_to().is_some_and(|(k, to)| contact_or_leaper(mc, k, to, kq as usize)))
}

/// Whether a unit of colour `mc`, kind `k` on `to` attacks `kq` as a leaper or from next
/// to it, a check no other unit can block (see [`leaper_checks`]).
fn contact_or_leaper(mc: usize, k: usize, to: usize, kq: usize) -> bool {
    k != KING.index()
        && (k == PAWN.index() || k == KNIGHT.index() || super::cheb(to, kq) == 1)
        && tables().att(mc, k, to) >> kq & 1 == 1
}

/// Minimal moves for the unit (kind `k` where it stands, colour `c`) to meet its target;
/// out of reach ([`INF`]) for a unit captured that must end on a square.
fn cost(t: &Tables, tr: &Tracked, c: usize, k: usize) -> u8 {
    match (tr.end, tr.sq) {
        (End::Captured | End::Completed, _) => 0,
        (_, None) => INF,
        (End::Block { to }, Some(sq)) => t.block(c, k, sq as usize)[to as usize],
        (End::As { kind, to }, Some(sq)) => t.reach(c, k, sq as usize, kind as usize, to as usize),
    }
}

/// The squares strictly between `a` and `b` when they share a line, else none.
fn between_sq(a: usize, b: usize) -> u64 {
    chimere_core::attacks::between(chimere_core::Square::new(a as u8), chimere_core::Square::new(b as u8)).0
}

/// The unit on `sq`, if any (none for a unit no longer on the board).
fn kind_at(game: &Game, sq: Option<u8>) -> Option<(Colour, usize)> {
    let p = game.pos.board().get(chimere_core::Square::new(sq?))?;
    Some((p.colour, super::table_kind(p.kind).expect("a kind the intelligent mode admits")))
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

/// One enumeration of pictures ([`mate::enumerate`]), its state by step: what is fixed
/// for the position and budgets, what one king square fixes, the picture being built,
/// the full commitment of a stalemate picture, and what is found.
struct Enumeration<'a> {
    fixed: Fixed<'a>,
    king: KingSquare,
    pic: Building,
    commit: Commitment,
    found: Found,
}

/// A final (square, kind) for a unit, at a cost in its side's moves.
#[derive(Clone, Copy, Debug)]
struct Target {
    to: u8,
    kind: u8,
    cost: u8,
}

/// A mating (stalemating) unit's way to end: its target and the squares of the king's
/// and its flights it attacks there (on an empty board).
#[derive(Clone, Copy, Debug)]
struct Guard {
    target: Target,
    att: u64,
}

/// What an enumeration fixes: the position's units, the sides and their moves, the goal,
/// the holes, the limits.
struct Fixed<'a> {
    /// The tables of the board with its holes ([`tables_for`]).
    t: &'a Tables,
    /// Pictures of a stalemate (no check, the flights guarded or blocked).
    stalemate: bool,
    /// Stalemate pictures with every stalemated unit committed (captured, or a final
    /// square and kind where it may be immobile).
    full: bool,
    /// The mating side's units (square, table kind), and the mated side's but its king.
    maters: &'a [(usize, usize)],
    blockers: &'a [(usize, usize)],
    /// The mating side's moves.
    m: u8,
    /// The mated side's moves.
    bmoves: u8,
    /// The mating side has one move, the last of the play: its units stand still during
    /// all of the mated side's moves (see `frozen`).
    frozen: bool,
    /// The en passant squares of the position (a pawn's capture onto an empty square).
    ep: u64,
    /// Colour indices of the mating and the mated side.
    mc: usize,
    dc: usize,
    /// The holes (`Condition Hole`).
    holes: u64,
    /// Full commitment: per stalemated unit (index in `blockers`) its final targets
    /// within its side's moves, by cost (none on a hole).
    fate_opts: Vec<Vec<Target>>,
    /// Full commitment: per stalemated unit, per number of moves c (up to its side's
    /// moves), the squares of its final targets costing at most c.
    fate_reach: Vec<Vec<u64>>,
    /// Full commitment: every unit, as in the search ([`End::Completed`], from its square).
    canon: Vec<Tracked>,
    /// The most work allowed (see [`CHEAP_WORK`]): beyond, [`Found::overflow`].
    work_cap: u64,
    /// Mate pictures refuted by [`Enumeration::defended`] are kept all the same (tests).
    keep_refuted: bool,
}

/// What the mated king's final square K fixes.
struct KingSquare {
    kq: usize,
    /// K's flights (no hole).
    flights: u64,
    /// The mated side's moves left once its king is on K.
    budget: u8,
    /// Per mating unit (index in `maters`): its ways to guard, by cost.
    opts: Vec<Vec<Guard>>,
}

/// The picture being built.
#[derive(Default)]
struct Building {
    /// The committed units, the mated king first.
    chosen: Vec<Tracked>,
    /// Mated units already blocking (bit per index in `blockers`).
    used: u32,
    /// The stalemating side's moves spent on its committed units.
    wspent: u8,
}

/// The full commitment of one stalemate picture: its working state.
struct Commitment {
    /// The stalemated units without a fate yet, in the order they get one.
    order: Vec<usize>,
    /// Placed stalemated units to check for immobility: (kind, target).
    checks: Vec<(u8, u8)>,
    /// The stalemated side's final squares so far (its king's included).
    occ: u64,
    /// The committed final squares of the stalemating side.
    foreign: u64,
    /// `via[(w * 16 + b) * 16 + slack]`: moves of stalemating unit w to capture
    /// stalemated unit b (and then reach its committed target) when the stalemated side
    /// has `slack` moves to spare; `u8::MAX`: not computed yet.
    via: Vec<u8>,
    /// The game emptied of its units (`place::empty_scratch`), to set up candidate final
    /// positions on ([`Enumeration::stalemate_placeable`]).
    scratch: Option<Game>,
    /// A move buffer for the checks on `scratch`.
    moves: Vec<Move>,
    /// A buffer of ways for [`Enumeration::pins_possible`].
    ways: Vec<[(u64, u8); 16]>,
    /// The stalemated units' distances among the survivors, by (survivors, unit: 0 the
    /// king, `b + 1` the unit `blockers[b]`) (see `frozen`).
    journeys: std::collections::HashMap<(u32, u8), frozen::Journeys>,
}

/// What the enumeration found.
#[derive(Default)]
struct Found {
    /// The pictures' units, and per picture its range (see [`Pictures`]).
    all: Vec<Tracked>,
    ranges: Vec<(usize, usize, usize, usize)>,
    /// The completions ([`Pictures::fates`]) and their pinning squares ([`Pictures::segs`]).
    fates: Vec<Entry>,
    segs: Vec<u64>,
    /// Mate pictures refuted by [`Enumeration::defended`].
    refuted: usize,
    /// Too many pictures, completions or work: the method gives up.
    overflow: bool,
    /// Work done (see [`CHEAP_WORK`]).
    work: u64,
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
    Ok(Some(emit(s, plies, prefix, &found, found.root(), out)))
}

/// The moves on from `at` of the found lines, in the order of the legal moves here (the
/// candidate moves' order: the lines hold legal moves only).
fn in_order(s: &mut Searcher, lines: &Lines, at: At) -> Vec<(Move, At)> {
    if !lines.branches(at) {
        return lines.children(at).collect();
    }
    let moves = s.candidates();
    let out = moves.iter().filter_map(|m| Some((*m, lines.child(at, m)?))).collect();
    s.game.give_buf(moves);
    out
}

/// Walks the legal moves in order along the found lines, feeding the complete ones.
fn emit(
    s: &mut Searcher,
    plies: u32,
    prefix: &mut Vec<Move>,
    lines: &Lines,
    at: At,
    out: &mut dyn FnMut(&mut Searcher, &[Move]) -> bool,
) -> bool {
    if plies == 0 {
        return true;
    }
    for (m, next) in in_order(s, lines, at) {
        prefix.push(m);
        let go_on = if plies == 1 {
            out(s, prefix)
        } else {
            s.game.make(&m);
            let r = emit(s, plies - 1, prefix, lines, next, out);
            s.game.unmake();
            r
        };
        prefix.pop();
        if !go_on {
            return false;
        }
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
    series_emit(s, play, k, prefix, &found, found.root(), out).map(Some)
}

/// Walks the series moves in order along the found lines, the last move's answers as
/// the walk's [`Searcher::series_last`] gave them (in the normal search's order).
fn series_emit(
    s: &mut Searcher,
    play: Play,
    k: u32,
    prefix: &mut Vec<Move>,
    lines: &Lines,
    at: At,
    out: &mut SeriesSink<'_>,
) -> Result<bool, Interrupted> {
    for (m, next) in in_order(s, lines, at) {
        prefix.push(m);
        let go_on = if k > 1 {
            s.game.make(&m);
            let r = if s.game.make(&Move::NULL).is_some() {
                let r = series_emit(s, play, k - 1, prefix, lines, next, out);
                s.game.unmake();
                r
            } else {
                Ok(true)
            };
            s.game.unmake();
            r?
        } else if matches!(play, Play::SeriesHelp | Play::SeriesSelf) {
            lines.children(next).all(|(answer, _)| out(s, prefix, Some(answer)))
        } else {
            out(s, prefix, None)
        };
        prefix.pop();
        if !go_on {
            return Ok(false);
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests;
