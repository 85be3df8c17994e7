//! The search: predicates over the fairy engine's [`Game`] (does the attacker force the
//! goal in n moves, does a helpmate of n plies exist...), memoised in a bounded table of
//! solved sub-positions, and the construction of solution trees and lines from them.
//!
//! Every predicate is relative to the side to move, so the same code solves a problem and
//! its Duplex twin. Moves are the engine's legal moves; a pass (the other side not moving
//! in series play, Black's "dummy move" when looking for threats) is [`Move::NULL`], legal
//! when the passing side is not left in check.

use crate::stip::{self, Goal, Play};
pub use crate::table::Table;
use crate::table::{Bounds, Q};
use chimere_core::Bitboard;
use chimere_fairy::rules::{CheckFilter, Notes};
use chimere_fairy::walk::KING;
use chimere_fairy::{Game, Move, notation};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

mod help;
pub(crate) use help::Hooks;
pub use help::{NoPruning, Pruning};

/// Why a search stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupted;

/// The solver state for one position: the game, the table, the stop flag.
pub struct Searcher {
    pub game: Game,
    pub table: Table,
    pub stop: Arc<AtomicBool>,
    pub goal: Goal,
    pub reflex: bool,
    /// Maximum threat length for `Option Threat n` (direct play), if any.
    pub max_threat: Option<u32>,
    /// `exact-`: the goal only on the last move (direct play).
    pub exact: bool,
    nodes: u64,
    /// Scratch notes for the moves made only to test them.
    notes: Notes,
    /// Try moves in reverse order (a helper thread, meeting the owner from the other end).
    pub reverse: bool,
    /// Direct play: the defence that last refuted, by the attacker's moves left (tried
    /// first at the next defender node with as many moves left).
    killers: Vec<Move>,
    /// Direct and self play: the attacker's move that last succeeded, by its moves left
    /// (tried first at the next attacker node with as many moves left).
    attack_killers: Vec<Move>,
    /// Scratch for ordering a node's moves by a count: taken and put back, since the
    /// ordering ends before the node's search goes deeper.
    keyed: Vec<(u32, Move)>,
    /// What help and series play leave out ([`NoPruning`]: nothing; the intelligent
    /// mode installs its own, see [`Searcher::install_pruning`]).
    pub pruning: Box<dyn Pruning>,
}

/// Receives each series line (moves, and the other side's final answer).
pub type SeriesSink<'a> = dyn FnMut(&mut Searcher, &[Move], Option<Move>) -> bool + 'a;

/// One line of a solution tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The move as written (check mark, goal mark included).
    pub text: String,
    /// After an attacker's move: `Some(true)` threat, `Some(false)` zugzwang, `None` neither.
    pub threat: Option<bool>,
    /// Threat lines (attacker moves) when `threat == Some(true)`.
    pub threats: Vec<Node>,
    /// Defences (after an attacker's move) or continuations (after a defence).
    pub children: Vec<Node>,
    /// Refutations (tries only).
    pub refutations: Vec<Node>,
}

impl Node {
    fn leaf(text: String) -> Node {
        Node { text, threat: None, threats: Vec::new(), children: Vec::new(), refutations: Vec::new() }
    }
    /// A node with this text and nothing below it.
    pub fn leaf_pub(text: String) -> Node {
        Node::leaf(text)
    }
    /// An empty node (a holder for a tree's children).
    pub fn default_leaf() -> Node {
        Node::leaf(String::new())
    }
}

/// Whether two moves are the same for Popeye's threat table: the same unit movement
/// (departure, arrival, castling, path), promotion and rebirth choice; what they capture
/// does not count.
pub fn same_move(a: &Move, b: &Move) -> bool {
    a.from == b.from
        && a.to == b.to
        && a.promo == b.promo
        && a.choice == b.choice
        && a.castle == b.castle
        && a.via == b.via
}

/// What kind of first move a tree root is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootKind {
    Key,
    Try,
    /// A reflex-play White move that reaches the goal itself (`?!?`).
    Premature,
}

/// Options that shape the trees.
#[derive(Clone, Copy, Debug, Default)]
pub struct TreeOpts {
    /// Set play: no threats anywhere in the tree (Popeye prints every defence met).
    pub set_play: bool,
    pub variations: bool,
    pub no_threat: bool,
    pub no_short_variations: bool,
}

impl Searcher {
    pub fn new(game: Game, table: Table, stop: Arc<AtomicBool>, goal: Goal, reflex: bool) -> Searcher {
        Searcher {
            game,
            table,
            stop,
            goal,
            reflex,
            max_threat: None,
            exact: false,
            nodes: 0,
            notes: Notes::new(),
            reverse: false,
            killers: Vec::new(),
            attack_killers: Vec::new(),
            keyed: Vec::new(),
            pruning: Box::new(NoPruning),
        }
    }

    /// Makes `m` if it is legal (its notes are not kept); `false`: illegal, nothing made.
    #[inline]
    fn try_make(&mut self, m: &Move) -> bool {
        self.game.make_into(m, &mut self.notes)
    }

    /// Whether `then` holds after some legal move of `moves` (each played, asked and
    /// taken back in turn, stopping at the first that holds); an interruption is passed on.
    fn some_move(
        &mut self,
        moves: &[Move],
        mut then: impl FnMut(&mut Self) -> Result<bool, Interrupted>,
    ) -> Result<bool, Interrupted> {
        for m in moves {
            if !self.try_make(m) {
                continue;
            }
            let ok = then(self);
            self.game.unmake();
            if ok != Ok(false) {
                return ok;
            }
        }
        Ok(false)
    }

    fn check_stop(&mut self) -> Result<(), Interrupted> {
        self.nodes += 1;
        if self.nodes & 1023 == 0 && self.stop.load(Ordering::Relaxed) {
            return Err(Interrupted);
        }
        Ok(())
    }

    /// The legal moves of the side to move.
    pub fn legal(&mut self) -> Vec<Move> {
        let mut v = Vec::new();
        self.game.legal_moves(&mut v);
        v
    }

    /// Candidate moves of the side to move: the pseudo-legal moves when legality is just
    /// "the move can be made" (callers skip moves whose `make` fails), else the legal ones.
    /// Saves playing every move twice.
    pub fn candidates(&mut self) -> Vec<Move> {
        let r = &self.game.rules;
        if r.filters.is_empty() && !r.must_capture && !r.choices_all_or_nothing && r.turns.is_none() {
            let mut v = self.game.take_buf();
            let side = self.game.pos.side();
            self.game.pseudo_moves(side, &mut v);
            return v;
        }
        self.legal()
    }

    /// Whether the side to move has a legal move.
    pub fn has_legal(&mut self) -> bool {
        let r = &self.game.rules;
        if r.filters.is_empty() && !r.must_capture && !r.choices_all_or_nothing && r.turns.is_none() {
            // The kings' moves first: after a check they are the likeliest way out, and a
            // flight ends the test before the other units' moves are generated.
            let side = self.game.pos.side();
            let b = self.game.pos.board();
            let kings = b.colour(side) & b.kind(KING);
            let mut buf = self.game.take_buf();
            let mut found = false;
            for mask in [kings, !kings] {
                if mask.is_empty() {
                    continue;
                }
                buf.clear();
                self.game.pseudo_moves_from(side, mask, &mut buf);
                if buf.iter().any(|m| {
                    self.game.make_into(m, &mut self.notes) && {
                        self.game.unmake();
                        true
                    }
                }) {
                    found = true;
                    break;
                }
            }
            self.game.give_buf(buf);
            return found;
        }
        if let Some(any) = self.game.any_legal_by_filter() {
            return any;
        }
        !self.legal().is_empty()
    }

    /// Whether the side to move is in check.
    pub fn in_check(&mut self) -> bool {
        let side = self.game.pos.side();
        self.game.in_check(side)
    }

    /// Whether the position (after a move) is the goal for the side that moved.
    pub fn goal_reached(&mut self, goal: Goal) -> bool {
        match goal {
            Goal::Any => true,
            Goal::Mate => self.in_check() && !self.has_move_for_goals(),
            Goal::Stalemate => !self.in_check() && !self.has_move_for_goals() && !self.game.goals_void(&[]),
        }
    }

    /// Whether the side to move has a legal move as goals are judged (a filter may rule
    /// only the moves played: [`Game::has_move_for_goals`]).
    fn has_move_for_goals(&mut self) -> bool {
        if self.game.goals_judged_apart() { self.game.has_move_for_goals() } else { self.has_legal() }
    }

    /// For a mate goal, the engine's filter of the moves that may give check (a move it
    /// rules out cannot mate), when the rules allow one.
    fn mate_filter(&mut self) -> Option<CheckFilter> {
        if self.goal == Goal::Mate { self.game.check_filter() } else { None }
    }

    /// [`Searcher::goal_after`], first asking the filter (if any) whether `m` may give
    /// check: a move that cannot is not played.
    fn goal_after_f(&mut self, f: &Option<CheckFilter>, m: &Move) -> bool {
        if let Some(f) = f
            && !f.may_check(&self.game.pos, m)
        {
            return false;
        }
        self.goal_after(m)
    }

    fn goal_after(&mut self, m: &Move) -> bool {
        if !self.try_make(m) {
            return false;
        }
        let g = self.goal_reached(self.goal);
        self.game.unmake();
        g
    }

    /// The move's text with check and goal marks (the move must be legal).
    pub fn text(&mut self, m: &Move, goal_mark: bool) -> String {
        let notes = self.game.make(m).expect("legal move");
        self.game.unmake();
        let mut s = notation::move_text(&self.game, m, &notes);
        if m.is_null() {
            s = " ...".to_string();
        }
        self.game.make(m);
        let goal = goal_mark && self.goal_reached(self.goal);
        let check = self.in_check();
        self.game.unmake();
        if goal && let Some(mark) = stip::goal_mark(self.goal) {
            s.push_str(mark);
        } else if check {
            s.push_str(" +");
        }
        s
    }

    /// Moves ordered for finding a solution fast: checking moves first.
    fn ordered(&mut self, moves: Vec<Move>) -> Vec<Move> {
        if self.goal != Goal::Mate || moves.len() < 2 {
            return moves;
        }
        let mut checks = Vec::with_capacity(moves.len());
        let mut quiet = Vec::with_capacity(moves.len());
        let f = self.mate_filter();
        for m in moves {
            if f.as_ref().is_some_and(|f| !f.may_check(&self.game.pos, &m)) {
                quiet.push(m);
                continue;
            }
            if !self.try_make(&m) {
                continue;
            }
            let c = self.in_check();
            self.game.unmake();
            if c { checks.push(m) } else { quiet.push(m) }
        }
        checks.extend(quiet);
        checks
    }

    // ----- direct play -----

    /// Attacker to move: can it force the goal within `n` of its moves?
    pub fn direct_attack(&mut self, n: u32) -> Result<bool, Interrupted> {
        self.check_stop()?;
        // Without `exact-` and `Option Threat`, the answer is monotone in `n`: what is
        // known for any length is kept as bounds, and a failed length is not searched again.
        let monotone = !self.exact && self.max_threat.is_none();
        if n == 1 && monotone {
            // One move left: a mate-in-one test costs less than the table's memory
            // traffic (such positions seldom meet again: nineteen in twenty probes miss).
            return Ok(!self.cannot_mate(self.game.pos.side()) && self.reaches_goal_at_once());
        }
        let (key, known) = if monotone {
            let key = Table::key(self.game.pos.hash(), Q::Bounds, 0, Q::DirectAttack as u32);
            let b = self.table.bounds(key);
            if let Some(v) = b.answer(n) {
                return Ok(v);
            }
            (key, b)
        } else {
            let key = Table::key(self.game.pos.hash(), Q::DirectAttack, n, self.exact as u32);
            if let Some(v) = self.table.get(key) {
                return Ok(v);
            }
            (key, Bounds::default())
        };
        // The attacker cannot mate (a lone king): no length solves.
        if self.cannot_mate(self.game.pos.side()) {
            if monotone {
                self.table.put_bounds(key, known.with(n.max(0xff), false));
            }
            return Ok(false);
        }
        let moves = self.candidates();
        let mut res = false;
        if (!self.exact || n == 1) && known.no == 0 {
            let f = self.mate_filter();
            for m in &moves {
                if self.goal_after_f(&f, m) {
                    res = true;
                    break;
                }
            }
        }
        if !res && n > 1 {
            let mut moves = self.ordered(moves);
            self.killer_first(&mut moves, n);
            if self.exact {
                res = self.some_move(&moves, |s| s.direct_defence(n - 1))?;
            } else {
                // Shortest first: a mate in k < n is found by a search k deep, before any
                // move is searched to the full length (each pass answers from the table
                // what the previous ones solved; the last pass is the question itself).
                // Lengths known to fail are skipped.
                for k in (known.no + 1).max(2)..=n {
                    res = self.some_move_killer(&moves, n, |s| s.direct_defence(k - 1))?;
                    if res {
                        break;
                    }
                }
            }
        }
        if monotone {
            self.table.put_bounds(key, known.with(n, res));
        } else {
            self.table.put(key, n, res);
        }
        Ok(res)
    }

    /// Attacker to move: whether some move reaches the goal at once (the move that last
    /// did so first).
    fn reaches_goal_at_once(&mut self) -> bool {
        let mut moves = self.candidates();
        self.killer_first(&mut moves, 1);
        let f = self.mate_filter();
        let found = moves.iter().position(|m| self.goal_after_f(&f, m));
        if let Some(i) = found {
            remember(&mut self.attack_killers, 1, moves[i]);
        }
        self.game.give_buf(moves);
        found.is_some()
    }

    /// Puts the attacking move that last succeeded with `n` moves first in `moves`.
    fn killer_first(&self, moves: &mut [Move], n: u32) {
        if let Some(k) = self.attack_killers.get(n as usize).copied()
            && !k.is_null()
            && let Some(i) = moves.iter().position(|m| *m == k)
        {
            moves[..=i].rotate_right(1);
        }
    }

    /// [`Searcher::some_move`], remembering the move that succeeded as the attacker's
    /// killer for `n` moves.
    fn some_move_killer(
        &mut self,
        moves: &[Move],
        n: u32,
        mut then: impl FnMut(&mut Self) -> Result<bool, Interrupted>,
    ) -> Result<bool, Interrupted> {
        for m in moves {
            if !self.try_make(m) {
                continue;
            }
            let ok = then(self);
            self.game.unmake();
            if ok != Ok(false) {
                if ok == Ok(true) {
                    let slot = n as usize;
                    remember(&mut self.attack_killers, slot, *m);
                }
                return ok;
            }
        }
        Ok(false)
    }

    /// Attacker to move: does `m` solve in `n` (reach the goal, or leave a position where
    /// every defence is met within `n - 1`)?
    pub fn direct_move_solves(&mut self, m: &Move, n: u32) -> Result<bool, Interrupted> {
        if !self.try_make(m) {
            return Ok(false);
        }
        let r = if self.goal_reached(self.goal) {
            Ok(!self.exact || n == 1)
        } else if n > 1 {
            self.direct_defence(n - 1)
        } else {
            Ok(false)
        };
        self.game.unmake();
        r
    }

    /// Defender to move, the attacker having `n` moves: is every defence met? Without
    /// `exact-` and `Option Threat` the answer is monotone in `n` and kept as bounds of
    /// the defender's position too: an attacker's move that leads to a known position (a
    /// transposition, or the same move at the next length of the shortest-first passes)
    /// is then answered without generating the defences again.
    pub fn direct_defence(&mut self, n: u32) -> Result<bool, Interrupted> {
        let monotone = !self.exact && self.max_threat.is_none();
        if !monotone {
            return self.direct_defence_search(n);
        }
        self.with_bounds(Q::DirectDefence, n, Searcher::direct_defence_search)
    }

    /// The answer of `search` at length `n` for this position, kept in the table as bounds
    /// of question `q` (an answer monotone in its length): what they decide is not searched.
    fn with_bounds(
        &mut self,
        q: Q,
        n: u32,
        search: fn(&mut Searcher, u32) -> Result<bool, Interrupted>,
    ) -> Result<bool, Interrupted> {
        let key = Table::key(self.game.pos.hash(), Q::Bounds, 0, q as u32);
        let known = self.table.bounds(key);
        if let Some(v) = known.answer(n) {
            return Ok(v);
        }
        let res = search(self, n)?;
        self.table.put_bounds(key, known.with(n, res));
        Ok(res)
    }

    /// [`Searcher::direct_defence`] without asking the table about the position itself.
    fn direct_defence_search(&mut self, n: u32) -> Result<bool, Interrupted> {
        if self.max_threat.is_some_and(|t| n >= t) && !self.threat_within(n)? {
            return Ok(false);
        }
        let mut moves = self.candidates();
        let slot = n as usize;
        // From 2 moves on: the defences leaving the attacker fewest replies first, the
        // table asked about each on the way (without `exact-` and `Option Threat`, where
        // its answers hold); the last refutation with as many moves left first among equals.
        let ordered = n >= 2;
        let probe = (ordered && !self.exact && self.max_threat.is_none()).then_some((Q::DirectAttack as u32, n, false));
        let mut any = match self.sort_defences(&mut moves, slot, ordered, probe) {
            Probe::Refuted(d) => {
                remember(&mut self.killers, slot, d);
                self.game.give_buf(moves);
                return Ok(false);
            }
            Probe::Open { legal } => legal,
        };
        let mut res = Ok(true);
        for d in &moves {
            if !self.try_make(d) {
                continue;
            }
            any = true;
            let ok = self.direct_attack(n);
            self.game.unmake();
            if ok != Ok(true) {
                if ok == Ok(false) {
                    remember(&mut self.killers, slot, *d);
                }
                res = ok;
                break;
            }
        }
        self.game.give_buf(moves);
        Ok(res? && any)
    }

    /// `Option Threat t` (direct play, defender to move, the attacker having `n` moves):
    /// whether the attacker's last move fails the option's test — no check and no threat
    /// within `t` — so that it is no solution and no try either (Popeye drops it whatever
    /// the defences).
    pub fn threat_missing(&mut self, n: u32) -> Result<bool, Interrupted> {
        Ok(self.max_threat.is_some_and(|t| n >= t) && !self.threat_within(n)?)
    }

    /// `Option Threat t`: the defender (to move) is in check or the attacker threatens the
    /// goal within `t` moves. Asked at every defender node where the attacker has at least
    /// `t` moves left (as Popeye: a defence that leaves no such threat succeeds, so a
    /// zugzwang continuation does not count there).
    fn threat_within(&mut self, _n: u32) -> Result<bool, Interrupted> {
        let t = self.max_threat.unwrap_or(0);
        if self.in_check() {
            return Ok(true);
        }
        if !self.try_make(&Move::NULL) {
            return Ok(true);
        }
        let saved = self.max_threat.take();
        let r = self.direct_attack(t);
        self.max_threat = saved;
        self.game.unmake();
        r
    }

    // ----- self and reflex play -----

    /// The table key of the attacker's bounds in self and reflex play without `exact-`
    /// (the position as it stands; reflex play apart).
    fn self_attack_bounds_key(&self) -> u64 {
        Table::key(self.game.pos.hash(), Q::Bounds, 0, Q::SelfAttack as u32 | (self.reflex as u32) << 4)
    }

    /// Attacker to move: can it force the defender to reach the goal on the defender's
    /// `n`-th move?
    pub fn self_attack(&mut self, n: u32) -> Result<bool, Interrupted> {
        self.check_stop()?;
        // Without `exact-` the answer is monotone in `n`: kept as bounds.
        let monotone = !self.exact;
        let (key, known) = if monotone {
            let key = self.self_attack_bounds_key();
            let b = self.table.bounds(key);
            if let Some(v) = b.answer(n) {
                return Ok(v);
            }
            (key, b)
        } else {
            let key = Table::key(self.game.pos.hash(), Q::SelfAttack, n, self.reflex as u32 | (self.exact as u32) << 1);
            if let Some(v) = self.table.get(key) {
                return Ok(v);
            }
            (key, Bounds::default())
        };
        // The defender cannot mate (a lone king): no length solves.
        if self.cannot_mate(self.game.pos.side().opponent()) {
            if monotone {
                self.table.put_bounds(key, known.with(n.max(0xff), false));
            }
            return Ok(false);
        }
        let mut moves = self.candidates();
        let mut res = false;
        if !(self.reflex && {
            let f = self.mate_filter();
            moves.iter().any(|m| self.goal_after_f(&f, m))
        }) {
            self.killer_first(&mut moves, n);
            res = self.some_move_killer(&moves, n, |s| s.self_defence(n))?;
        }
        self.game.give_buf(moves);
        if monotone {
            self.table.put_bounds(key, known.with(n, res));
        } else {
            self.table.put(key, n, res);
        }
        Ok(res)
    }

    /// Whether `side` can never mate: orthodox rules (a king gives no check) and no unit
    /// of that side but its kings (neutral units count as its own).
    fn cannot_mate(&self, side: chimere_core::Colour) -> bool {
        self.goal == Goal::Mate
            && self.game.rules.conditions().is_empty()
            && (self.game.pos.movable(side) & !self.game.pos.board().kind(KING)).is_empty()
    }

    /// Whether the legal move `m` of the side to move reaches the goal.
    pub fn goal_after_pub(&mut self, m: &Move) -> bool {
        self.goal_after(m)
    }

    /// Whether the attacker (to move) is bound to reach the goal itself. Popeye's reflex
    /// play binds only the defender (a White move that mates is simply no solution), so
    /// this is always false; kept for semi-reflex variants.
    pub fn attacker_must_reach_goal(&mut self) -> bool {
        if !self.reflex {
            return false;
        }
        let moves = self.candidates();
        moves.iter().any(|m| self.goal_after(m))
    }

    /// Reflex play: the attacker's moves reaching the goal (it must play one), written
    /// `X # ?!?` as Popeye does.
    pub fn premature(&mut self) -> Vec<Node> {
        let moves = self.legal();
        let mut out = Vec::new();
        for m in &moves {
            if self.goal_after(m) {
                let t = self.text(m, true);
                out.push(Node::leaf(format!("{t} ?!?")));
            }
        }
        out
    }

    /// Defender to move with `n` moves left: is the goal forced by the defender's `n`-th
    /// move at the latest?
    pub fn self_defence(&mut self, n: u32) -> Result<bool, Interrupted> {
        if !self.exact {
            if self.reflex {
                if n <= 1 {
                    return Ok(self.some_defence_reaches_goal());
                }
                return self.with_bounds(Q::ReflexDefence, n, Searcher::reflex_defence_search);
            }
            return self.self_defence_plain(n);
        }
        let moves = self.legal();
        if moves.is_empty() {
            return Ok(false);
        }
        match self.forced_goal(&moves) {
            // `exact-`: the goal reached before the defender's last move is no solution.
            Some(true) => return Ok(!self.exact_early(n)),
            Some(false) => {}
            None => return Ok(false),
        }
        if n <= 1 {
            return Ok(false);
        }
        let f = self.mate_filter();
        for d in &moves {
            // A defence reaching the goal early fulfils the stipulation (`s#2` is solved
            // when Black mates at once): it refutes nothing, unless `exact-` forbids the
            // shorter play, where it refutes.
            if !self.reflex && self.goal_after_f(&f, d) {
                if self.exact {
                    return Ok(false);
                }
                continue;
            }
            self.try_make(d);
            let ok = self.self_attack(n - 1);
            self.game.unmake();
            if !ok? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// [`Searcher::self_defence`] for plain self play (neither reflex nor `exact-`), in one
    /// pass over the defences: each is made once, a defence reaching the goal is met, any
    /// other refutes at the last move or when the attacker cannot go on after it. The
    /// defence that refuted last with as many moves left is tried first. The answer is
    /// kept as bounds of the position, as in direct play.
    fn self_defence_plain(&mut self, n: u32) -> Result<bool, Interrupted> {
        if n <= 1 && self.simple_legality() {
            return Ok(self.every_defence_reaches_goal());
        }
        self.with_bounds(Q::SelfDefence, n, Searcher::self_defence_search)
    }

    /// [`Searcher::self_defence_plain`] without asking the table about the position itself.
    fn self_defence_search(&mut self, n: u32) -> Result<bool, Interrupted> {
        let mut moves = self.candidates();
        let slot = n as usize;
        // As in direct play: from 3 moves on the fewest replies first, the table asked on
        // the way; the last refutation first among equals.
        let ordered = n >= 3;
        let probe = ordered.then_some((Q::SelfAttack as u32, n - 1, true));
        let mut any = match self.sort_defences(&mut moves, slot, ordered, probe) {
            Probe::Refuted(d) => {
                remember(&mut self.killers, slot, d);
                self.game.give_buf(moves);
                return Ok(false);
            }
            Probe::Open { legal } => legal,
        };
        // No check filter here: building it costs more than the goal tests it saves,
        // since the first defence usually refutes.
        let mut res = Ok(true);
        for d in &moves {
            if !self.try_make(d) {
                continue;
            }
            any = true;
            if self.goal_reached(self.goal) {
                self.game.unmake();
                continue;
            }
            let ok = if n <= 1 { Ok(false) } else { self.self_attack(n - 1) };
            self.game.unmake();
            if ok != Ok(true) {
                if ok == Ok(false) {
                    remember(&mut self.killers, slot, *d);
                }
                res = ok;
                break;
            }
        }
        self.game.give_buf(moves);
        Ok(res? && any)
    }

    /// Reflex play, the defender's last move: whether it has a legal move reaching the
    /// goal (then it must play one). A move the check filter rules out is not made.
    fn some_defence_reaches_goal(&mut self) -> bool {
        let moves = self.candidates();
        let f = self.mate_filter();
        let found = moves.iter().any(|d| self.goal_after_f(&f, d));
        self.game.give_buf(moves);
        found
    }

    /// [`Searcher::self_defence`] for reflex play without `exact-`, two or more moves left
    /// (kept as bounds of the position by the caller: the answer is monotone in `n`).
    /// One pass makes each defence once: a defence reaching the goal must be played, so
    /// it answers yes at once; otherwise the table is asked about the attacker's position
    /// after it (a known failure refutes once no defence is seen to reach the goal, a
    /// known success drops the defence) and the attacker's replies are counted. The rest
    /// are searched fewest replies first (as Popeye orders the defences), the last
    /// refutation with as many moves left first among equals.
    fn reflex_defence_search(&mut self, n: u32) -> Result<bool, Interrupted> {
        let mut moves = self.candidates();
        let slot = n as usize;
        if let Some(k) = self.killers.get(slot).copied().filter(|k| !k.is_null())
            && let Some(i) = moves.iter().position(|m| *m == k)
        {
            moves[..=i].rotate_right(1);
        }
        let f = self.mate_filter();
        let mut keyed = std::mem::take(&mut self.keyed);
        keyed.clear();
        let mut any = false;
        let mut goal = false;
        let mut refuted = None;
        for &d in moves.iter() {
            let may_reach = f.as_ref().is_none_or(|f| f.may_check(&self.game.pos, &d));
            if !self.try_make(&d) {
                continue;
            }
            any = true;
            if may_reach && self.goal_reached(self.goal) {
                self.game.unmake();
                goal = true;
                break;
            }
            if refuted.is_none() {
                let key = self.self_attack_bounds_key();
                match self.table.bounds(key).answer(n - 1) {
                    Some(false) => refuted = Some(d),
                    Some(true) => {}
                    None => {
                        let count = self.reply_count();
                        keyed.push((count, d));
                    }
                }
            }
            self.game.unmake();
        }
        self.game.give_buf(moves);
        if goal {
            self.keyed = keyed;
            return Ok(true);
        }
        if !any {
            self.keyed = keyed;
            return Ok(false);
        }
        if let Some(d) = refuted {
            remember(&mut self.killers, slot, d);
            self.keyed = keyed;
            return Ok(false);
        }
        keyed.sort_by_key(|&(c, _)| c);
        let mut res = Ok(true);
        for &(_, d) in keyed.iter() {
            if !self.try_make(&d) {
                continue;
            }
            let ok = self.self_attack(n - 1);
            self.game.unmake();
            if ok != Ok(true) {
                if ok == Ok(false) {
                    remember(&mut self.killers, slot, d);
                }
                res = ok;
                break;
            }
        }
        self.keyed = keyed;
        res
    }

    /// Defender to move: puts `moves` in the order to search them, each made once. With
    /// `probe` (question `q` of the bounds, the attacker having `n` moves after the
    /// defence, self play or not) the table is asked about each: the first defence it
    /// knows the attacker fails after refutes at once (in self play unless it reaches the
    /// goal), and those it decides otherwise drop out. Illegal defences drop out. With
    /// `by_replies` the rest go by the attacker's replies, fewest first (the likeliest
    /// refutations), the defence that refuted last at `slot` first among equals. Without
    /// `by_replies` nor `probe` the defences are not made here (the search makes each in
    /// turn, and the first usually refutes): only the last refutation is put first.
    fn sort_defences(
        &mut self,
        moves: &mut Vec<Move>,
        slot: usize,
        by_replies: bool,
        probe: Option<(u32, u32, bool)>,
    ) -> Probe {
        let killer = self.killers.get(slot).copied().filter(|k| !k.is_null());
        if let Some(k) = killer
            && let Some(i) = moves.iter().position(|m| *m == k)
        {
            moves[..=i].rotate_right(1);
        }
        if probe.is_none() && !by_replies {
            return Probe::Open { legal: false };
        }
        let mut keyed = std::mem::take(&mut self.keyed);
        keyed.clear();
        let mut legal = false;
        for &d in moves.iter() {
            if !self.try_make(&d) {
                continue;
            }
            legal = true;
            if let Some((q, n, self_play)) = probe {
                let key = Table::key(self.game.pos.hash(), Q::Bounds, 0, q);
                let known = self.table.bounds(key).answer(n);
                if known.is_some() {
                    let refutes = known == Some(false) && !(self_play && self.goal_reached(self.goal));
                    self.game.unmake();
                    if refutes {
                        self.keyed = keyed;
                        return Probe::Refuted(d);
                    }
                    continue;
                }
            }
            let count = if by_replies { self.reply_count() } else { 0 };
            self.game.unmake();
            keyed.push((count, d));
        }
        if by_replies {
            // The last refutation stays first only among the defences leaving as many
            // replies: a refutation found at a sibling node is often a costly one there
            // (a quiet move), where a check leaving the attacker two replies refutes
            // after a small search (Popeye, too, orders these nodes by the count alone).
            keyed.sort_by_key(|&(c, _)| c);
        }
        moves.clear();
        moves.extend(keyed.iter().map(|&(_, m)| m));
        self.keyed = keyed;
        Probe::Open { legal }
    }

    /// How many replies the side to move has, for ordering: its pseudo-legal moves, or
    /// its legal ones when in check (then most pseudo-legal moves are illegal, and a
    /// check that leaves few replies is a strong defence).
    fn reply_count(&mut self) -> u32 {
        let replies = self.candidates();
        let count = if self.in_check() {
            let mut c = 0;
            for r in &replies {
                if self.try_make(r) {
                    self.game.unmake();
                    c += 1;
                }
            }
            c
        } else {
            replies.len() as u32
        };
        self.game.give_buf(replies);
        count
    }

    /// Orders the defences by how many legal replies they leave the attacker, fewest first
    /// (a defence that leaves few is the likeliest refutation); illegal ones are dropped.
    fn fewest_replies_first(&mut self, moves: &mut Vec<Move>) {
        let mut keyed = std::mem::take(&mut self.keyed);
        keyed.clear();
        for m in moves.iter() {
            if !self.try_make(m) {
                continue;
            }
            let count = self.reply_count();
            self.game.unmake();
            keyed.push((count, *m));
        }
        keyed.sort_by_key(|&(c, _)| c);
        moves.clear();
        moves.extend(keyed.iter().map(|&(_, m)| m));
        self.keyed = keyed;
    }

    /// Whether a move is legal exactly when it can be made (no rule judges the whole list
    /// of moves): the pseudo-legal moves can then be tried one unit at a time.
    fn simple_legality(&self) -> bool {
        let r = &self.game.rules;
        r.filters.is_empty() && !r.must_capture && !r.choices_all_or_nothing && r.turns.is_none()
    }

    /// The defender's last move in plain self play: it has a legal move and every one
    /// reaches the goal. Generated unit by unit — first the unit whose move refuted last,
    /// then the king (a king move rarely gives check), then the others — so the first
    /// legal move missing the goal ends the test before the other units' moves are made.
    fn every_defence_reaches_goal(&mut self) -> bool {
        let side = self.game.pos.side();
        let b = self.game.pos.board();
        let kings = b.colour(side) & b.kind(KING);
        let killer = self.killers.get(1).copied().filter(|k| !k.is_null());
        let first = killer.map_or(Bitboard::EMPTY, |k| Bitboard::from_square(k.from));
        // No check filter: every move is made anyway (legality), and the first one
        // missing the goal (usually the first made) ends the test; building the filter
        // would cost more than the check tests it saves.
        let mut buf = self.game.take_buf();
        let mut any = false;
        let mut all = true;
        'units: for mask in [first, kings & !first, !(kings | first)] {
            if mask.is_empty() {
                continue;
            }
            buf.clear();
            self.game.pseudo_moves_from(side, mask, &mut buf);
            for m in &buf {
                if !self.try_make(m) {
                    continue;
                }
                any = true;
                let g = self.goal_reached(self.goal);
                self.game.unmake();
                if !g {
                    all = false;
                    remember(&mut self.killers, 1, *m);
                    break 'units;
                }
            }
        }
        self.game.give_buf(buf);
        any && all
    }

    /// Self play with `exact-`, the defender to move with `n` moves left: reaching the goal
    /// here would be too early.
    fn exact_early(&self, n: u32) -> bool {
        self.exact && n > 1
    }

    /// At a defender node of self/reflex play: `Some(true)` the goal is forced here (self:
    /// every move reaches it; reflex: some move reaches it, so one must be played);
    /// `Some(false)` not reached here, play goes on; `None` (reflex never) .
    fn forced_goal(&mut self, moves: &[Move]) -> Option<bool> {
        let f = self.mate_filter();
        if self.reflex {
            Some(moves.iter().any(|m| self.goal_after_f(&f, m)))
        } else {
            Some(moves.iter().all(|m| self.goal_after_f(&f, m)))
        }
    }

    /// The defender's moves that reach the goal at a node where the goal is forced.
    fn goal_moves(&mut self, moves: &[Move]) -> Vec<Move> {
        moves.iter().copied().filter(|m| self.goal_after(m)).collect()
    }

    // ----- trees (direct, self, reflex) -----

    /// Does attacker move `m` (attacker to move) solve in `n` under `play`?
    pub fn move_solves(&mut self, play: Play, m: &Move, n: u32) -> Result<bool, Interrupted> {
        match play {
            Play::Direct => self.direct_move_solves(m, n),
            _ => {
                if !self.try_make(m) {
                    return Ok(false);
                }
                let r = self.self_defence(n);
                self.game.unmake();
                r
            }
        }
    }

    /// Attacker to move: does it solve within `n`?
    pub fn attack(&mut self, play: Play, n: u32) -> Result<bool, Interrupted> {
        match play {
            Play::Direct => self.direct_attack(n),
            _ => self.self_attack(n),
        }
    }

    /// Attacker to move: the shortest length within `1..=n` it solves in.
    pub fn shortest(&mut self, play: Play, n: u32) -> Result<Option<u32>, Interrupted> {
        let lo = if self.exact { n } else { 1 };
        for t in lo..=n {
            if self.attack(play, t)? {
                return Ok(Some(t));
            }
        }
        Ok(None)
    }

    /// Attacker to move: every move solving in exactly `t` (shortest) moves.
    fn solving_moves(&mut self, play: Play, t: u32) -> Result<Vec<Move>, Interrupted> {
        let moves = self.legal();
        if play != Play::Direct && self.reflex && moves.iter().any(|m| self.goal_after(m)) {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        for m in &moves {
            if self.move_solves(play, m, t)? {
                out.push(*m);
            }
        }
        Ok(out)
    }

    /// The tree below an attacker's move just played (defender to move), the attacker
    /// having `n` more moves (direct) or the defender `n` more moves (self/reflex); `num`
    /// is the number of the defender's move. Fills threat, defences and refutations.
    /// With `max_refutations`, stops counting refutations beyond it.
    pub fn defence_tree(
        &mut self,
        play: Play,
        n: u32,
        num: u32,
        opts: TreeOpts,
        node: &mut Node,
        full: bool,
    ) -> Result<(), Interrupted> {
        self.defence_tree_with(play, n, num, opts, node, full, true)
    }

    /// [`Searcher::defence_tree`]; `threats: false` (set play) prints every defence met
    /// without looking for threats.
    #[allow(clippy::too_many_arguments)]
    pub fn defence_tree_with(
        &mut self,
        play: Play,
        n: u32,
        num: u32,
        opts: TreeOpts,
        node: &mut Node,
        full: bool,
        threats_wanted: bool,
    ) -> Result<(), Interrupted> {
        let moves = self.legal();
        if moves.is_empty() {
            return Ok(());
        }
        if play != Play::Direct {
            // Self/reflex: the goal forced here by the defender's moves (too early with
            // `exact-`: the defences reaching it are then refutations, below).
            if self.forced_goal(&moves) == Some(true) {
                if !self.exact_early(n) {
                    if full {
                        for d in self.goal_moves(&moves) {
                            let text = self.text(&d, true);
                            node.children.push(Node::leaf(text));
                        }
                    }
                    return Ok(());
                }
                if self.reflex {
                    // Reflex play with `exact-`: the defender must reach the goal here,
                    // too early; those moves refute.
                    for d in self.goal_moves(&moves) {
                        let text = self.text(&d, true);
                        node.refutations.push(Node::leaf(format!("{text} !")));
                    }
                    return Ok(());
                }
            }
            if n <= 1 {
                // Self play, the defender's last move: the moves not reaching the goal
                // refute (a try's `but` list).
                if !self.reflex {
                    for d in &moves {
                        if !self.goal_after(d) {
                            let text = self.text(d, true);
                            node.refutations.push(Node::leaf(format!("{text} !")));
                        }
                    }
                }
                return Ok(());
            }
        }
        // Remaining attacker moves after a defence.
        let rem = if play == Play::Direct { n } else { n - 1 };
        // Threats.
        let mut threats: Vec<Move> = Vec::new();
        let mut threat_len: Option<u32> = None;
        if full && threats_wanted && !opts.set_play && !opts.no_threat && !self.in_check() && rem >= 1 {
            if self.try_make(&Move::NULL) {
                let t = self.shortest(play, rem)?;
                if let Some(t) = t {
                    threats = self.solving_moves(play, t)?;
                    threat_len = Some(t);
                    for m in threats.clone() {
                        let child = self.attack_node(play, &m, t, num + 1, opts)?;
                        node.threats.push(child);
                    }
                }
                self.game.unmake();
                node.threat = Some(threat_len.is_some());
            } else {
                node.threat = Some(false);
            }
        }
        let f = if play != Play::Direct && !self.reflex { self.mate_filter() } else { None };
        for d in &moves {
            // Self play: a defence reaching the goal before the last move is no refutation
            // and is not written; with `exact-` it refutes.
            if play != Play::Direct && !self.reflex && self.goal_after_f(&f, d) {
                if self.exact {
                    let text = self.text(d, true);
                    node.refutations.push(Node::leaf(format!("{text} !")));
                }
                continue;
            }
            self.game.make(d);
            // A defence after which every threat still works at the threat's length is
            // met and shows no variation (it is shorter than the threat or as long and
            // defeats none): no search of its own, as Popeye's threat enforcer.
            if let Some(tl) = threat_len
                && !threats.is_empty()
                && self.threats_hold(play, &threats, tl)?
            {
                self.game.unmake();
                continue;
            }
            let solved = self.attack(play, rem)?;
            if !solved {
                let text = self.text_here(d, play);
                let mut r = Node::leaf(format!("{text} !"));
                if play != Play::Direct && self.reflex {
                    r.children = self.premature();
                }
                self.game.unmake();
                node.refutations.push(r);
                continue;
            }
            if !full {
                self.game.unmake();
                continue;
            }
            let s = self.shortest(play, rem)?.unwrap_or(rem);
            let mut print = true;
            if let Some(tl) = threat_len {
                // Shorter than the threat: not printed. As long: printed only if some
                // threat no longer works, and that is so (tested above).
                if s < tl || s == tl && threats.is_empty() {
                    print = false;
                }
            }
            if opts.no_short_variations && s < rem {
                print = false;
            }
            if print {
                let text = self.text_here(d, play);
                let mut dn = Node::leaf(text);
                for m in self.solving_moves(play, s)? {
                    let child = self.attack_node(play, &m, s, num + 1, opts)?;
                    dn.children.push(child);
                }
                node.children.push(dn);
            }
            self.game.unmake();
        }
        Ok(())
    }

    /// After a defence (attacker to move): whether every threat move still solves in the
    /// threat's length `tl`. Popeye identifies moves by what moves where (departure,
    /// arrival, promotion, rebirth choice), not by what they capture.
    fn threats_hold(&mut self, play: Play, threats: &[Move], tl: u32) -> Result<bool, Interrupted> {
        let legal = self.legal();
        for t in threats {
            let Some(now) = legal.iter().find(|m| same_move(m, t)).copied() else {
                return Ok(false);
            };
            if !self.move_solves(play, &now, tl)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Defender to move, as in [`Searcher::defence_tree`] (`n` moves left): how many
    /// defences refute, counted only up to `limit + 1` (a first move refuted more often
    /// than `Option Defence` allows is no try, whatever the exact count). The defences
    /// that refuted last come first, so a first move with many refutations is dismissed
    /// after a few searches.
    pub fn refutation_count(&mut self, play: Play, n: u32, limit: u32) -> Result<u32, Interrupted> {
        let mut moves = self.legal();
        if moves.is_empty() {
            return Ok(0);
        }
        if play != Play::Direct {
            if self.forced_goal(&moves) == Some(true) {
                if !self.exact_early(n) {
                    return Ok(0);
                }
                if self.reflex {
                    // No try either: Popeye prints none for it.
                    return Ok(limit + 1);
                }
            }
            if n <= 1 {
                if self.reflex {
                    return Ok(0);
                }
                let mut count = 0;
                for d in &moves {
                    if !self.goal_after(d) {
                        count += 1;
                        if count > limit {
                            break;
                        }
                    }
                }
                return Ok(count);
            }
        }
        let rem = if play == Play::Direct { n } else { n - 1 };
        // The defences leaving the attacker fewest replies first, as in the searches (a
        // first move refuted twice is dismissed after two searches).
        if n >= if play == Play::Direct { 2 } else { 3 } {
            self.fewest_replies_first(&mut moves);
        }
        // The last refutation first when the defences are not ordered by replies (as in
        // the searches: see `sort_defences`).
        if n < if play == Play::Direct { 2 } else { 3 }
            && let Some(k) = self.killers.get(n as usize).copied()
            && let Some(i) = moves.iter().position(|m| *m == k)
        {
            moves[..=i].rotate_right(1);
        }
        let f = if play != Play::Direct && !self.reflex { self.mate_filter() } else { None };
        let mut count = 0;
        for d in &moves {
            if count > limit {
                break;
            }
            // As in the tree: a self-play defence reaching the goal early is met (with
            // `exact-` it refutes).
            if play != Play::Direct && !self.reflex && self.goal_after_f(&f, d) {
                count += self.exact as u32;
                continue;
            }
            self.game.make(d);
            let solved = self.attack(play, rem);
            self.game.unmake();
            if !solved? {
                count += 1;
            }
        }
        Ok(count)
    }

    /// The text of the defence just played (taking it back and replaying it). In direct
    /// play a defence carries no goal mark: one that mates the attacker shows ` +` only, as
    /// in Popeye (the goal is the attacker's).
    fn text_here(&mut self, d: &Move, play: Play) -> String {
        self.game.unmake();
        let t = self.text(d, play != Play::Direct);
        self.game.make(d);
        t
    }

    /// An attacker's move `m` (attacker to move) solving in `t`, with its tree.
    pub fn attack_node(&mut self, play: Play, m: &Move, t: u32, num: u32, opts: TreeOpts) -> Result<Node, Interrupted> {
        let text = self.text(m, play == Play::Direct);
        let mut node = Node::leaf(text);
        self.game.make(m);
        let reached = play == Play::Direct && self.goal_reached(self.goal);
        if !reached {
            let n = if play == Play::Direct { t - 1 } else { t };
            if play == Play::Direct && n == 0 {
                self.game.unmake();
                return Ok(node);
            }
            self.defence_tree(play, n, num, opts, &mut node, true)?;
            if play != Play::Direct && node.threat.is_none() && !node.children.is_empty() {
                // self play: no zugzwang mark after the last attacking move
            }
        }
        self.game.unmake();
        Ok(node)
    }
}

/// What the table says about a defender node's defences ([`Searcher::sort_defences`]).
enum Probe {
    /// This defence refutes.
    Refuted(Move),
    /// None known to refute; `legal`: some defence is legal.
    Open { legal: bool },
}

/// Keeps `m` as the move to try first at `slot` (killers by moves left).
fn remember(killers: &mut Vec<Move>, slot: usize, m: Move) {
    if killers.len() <= slot {
        killers.resize(slot + 1, Move::NULL);
    }
    killers[slot] = m;
}
