//! Help and series play: the one driver of both, over a [`Pruning`] owned by the searcher.
//!
//! The driver is the normal search (every legal move, in generation order, answers kept
//! in the table of solved sub-positions); a pruning only tells it which sub-positions
//! and moves provably lead to no solution ([`NoPruning`]: none), or finds the lines of a
//! whole play by another method that gives the same lines in the same order (the
//! intelligent mode's pictures). So the solutions never depend on the pruning.

use super::{Interrupted, Searcher, SeriesSink, Table};
use crate::stip::Play;
use crate::table::Q;
use chimere_fairy::rules::CheckFilter;
use chimere_fairy::{Game, Move};

/// What a help or series search may leave out, and the lines it may find otherwise.
/// Every answer must be proved: a sub-position cut or a move filtered out has no
/// solution below it, and lines found by [`Pruning::help_lines`] or
/// [`Pruning::series_lines`] are exactly those of the driver, in its order.
pub trait Pruning: Send {
    /// Sub-positions with fewer plies left are not looked up in the table (the pruning
    /// answers them faster than a probe, a likely cache miss).
    fn table_from(&self) -> u32 {
        0
    }

    /// Help play, the side to move first, `plies` left (at least 2): `false` is a proof
    /// that no line of exactly `plies` plies ends in the goal.
    fn help_possible(&mut self, _game: &Game, _plies: u32) -> bool {
        true
    }

    /// Help play, `plies` left: keeps from `moves` (the candidates of the side to move)
    /// those after which a line may end in the goal. `true`: each move kept is to be
    /// checked again once made ([`Pruning::help_keeps`]).
    fn help_filter(&mut self, _game: &mut Game, _plies: u32, _moves: &mut Vec<Move>) -> bool {
        false
    }

    /// After [`Pruning::help_filter`] returned `true` at a node with `plies` left: the
    /// move `m` just made (`game` after it) may still lead to the goal.
    fn help_keeps(&mut self, _game: &mut Game, _plies: u32, _m: &Move) -> bool {
        true
    }

    /// Series play, the series side to move with `k` series moves left: `false` is a
    /// proof that no line of `play` ends in the goal.
    fn series_possible(&mut self, _game: &Game, _play: Play, _k: u32) -> bool {
        true
    }

    /// The longest play (help plies, or series moves) the caller will ask of
    /// [`Searcher::help_lines`] or [`Searcher::series_lines`] from the position it asks
    /// next, shorter plays first (0: unknown).
    fn plan(&mut self, _longest: u32) {}

    /// Whether [`Pruning::help_lines`] takes over help play of `plies` plies (a helper
    /// thread filling the table for the driver then has nothing to do).
    fn takes_over_help(&self, _plies: u32) -> bool {
        false
    }

    /// Whether [`Pruning::series_lines`] takes over series play of `k` moves.
    fn takes_over_series(&self, _k: u32) -> bool {
        false
    }

    /// Every help line of exactly `plies` plies from here found another way, fed to
    /// `out` in the driver's order; `Ok(None)`: not taken over (the driver searches).
    /// `s` is the searcher without its pruning (the driver's own search below is
    /// unpruned).
    fn help_lines(
        &mut self,
        _s: &mut Searcher,
        _plies: u32,
        _prefix: &mut Vec<Move>,
        _out: &mut dyn FnMut(&mut Searcher, &[Move]) -> bool,
    ) -> Result<Option<bool>, Interrupted> {
        Ok(None)
    }

    /// [`Pruning::help_lines`] for series play of `k` series moves.
    fn series_lines(
        &mut self,
        _s: &mut Searcher,
        _play: Play,
        _k: u32,
        _prefix: &mut Vec<Move>,
        _out: &mut SeriesSink<'_>,
    ) -> Result<Option<bool>, Interrupted> {
        Ok(None)
    }

    /// Whether this pruning leaves anything out (false for [`NoPruning`] alone).
    fn active(&self) -> bool {
        true
    }
}

/// The plain search: nothing left out.
pub struct NoPruning;

impl Pruning for NoPruning {
    fn active(&self) -> bool {
        false
    }
}

/// What one search by the driver ([`Searcher::help_node`], [`Searcher::series_node`])
/// adds to its nodes: the searcher's [`Pruning`] with the table of solved sub-positions
/// ([`Pruned`]), or a search with a state along the path (the intelligent mode's walk of
/// its pictures). `play` is [`Play::Help`] for help play, `n` the plies or series moves
/// left.
pub(crate) trait Hooks {
    /// Every move searched and every line given to [`Hooks::found`] or [`Hooks::last`]
    /// (else a node stops at its first line).
    const ALL: bool;

    /// The node's answer when it is known already.
    fn known(&mut self, s: &mut Searcher, play: Play, n: u32) -> Option<bool>;

    /// `false` is a proof that no line ends in the goal from here (kept as the hooks see
    /// fit).
    fn possible(&mut self, s: &mut Searcher, play: Play, n: u32) -> bool;

    /// Keeps from `moves` those that may start a line; `true`: each is to be checked
    /// again once made ([`Hooks::keeps`]).
    fn filter(&mut self, game: &mut Game, play: Play, n: u32, moves: &mut Vec<Move>) -> bool;

    /// After [`Hooks::filter`] returned `true`: whether the move `m`, just made, may still
    /// lead to the goal.
    fn keeps(&mut self, game: &mut Game, play: Play, n: u32, m: &Move) -> bool;

    /// Before `m` is tried (`game` before it): `false` leaves it out; else
    /// [`Hooks::leave`] is called once the driver is done with it.
    fn enter(&mut self, game: &Game, play: Play, n: u32, m: &Move) -> bool;

    /// Undoes what [`Hooks::enter`] did for `m`.
    fn leave(&mut self, m: &Move);

    /// With `ALL`, help play: a line found.
    fn found(&mut self, line: &[Move]);

    /// With `ALL`, series play: the lines whose last series move is `m` (the series
    /// side to move, `prefix` the moves before), given as [`Searcher::series_last`]
    /// gives them; whether there is one.
    fn last(&mut self, s: &mut Searcher, play: Play, m: &Move, prefix: &mut Vec<Move>) -> Result<bool, Interrupted>;

    /// The node's answer, found by its search.
    fn record(&mut self, s: &mut Searcher, play: Play, n: u32, res: bool);
}

/// The searcher's pruning, with the table of solved sub-positions, as the driver's hooks.
struct Pruned<'a>(&'a mut dyn Pruning);

impl Pruned<'_> {
    /// The table's key of a node, if it is looked up there.
    fn key(&self, s: &Searcher, play: Play, n: u32) -> Option<u64> {
        match play {
            Play::Help => (n >= self.0.table_from()).then(|| Table::key(s.game.pos.hash(), Q::Help, n, 0)),
            _ => Some(Table::key(s.game.pos.hash(), Q::Series, n, play as u32)),
        }
    }
}

impl Hooks for Pruned<'_> {
    const ALL: bool = false;

    fn known(&mut self, s: &mut Searcher, play: Play, n: u32) -> Option<bool> {
        s.table.get(self.key(s, play, n)?)
    }

    fn possible(&mut self, s: &mut Searcher, play: Play, n: u32) -> bool {
        match play {
            Play::Help => {
                if n < 2 || self.0.help_possible(&s.game, n) {
                    return true;
                }
                if let Some(key) = self.key(s, play, n) {
                    s.table.put(key, n, false);
                }
                false
            }
            _ => self.0.series_possible(&s.game, play, n),
        }
    }

    fn filter(&mut self, game: &mut Game, play: Play, n: u32, moves: &mut Vec<Move>) -> bool {
        play == Play::Help && self.0.help_filter(game, n, moves)
    }

    fn keeps(&mut self, game: &mut Game, _play: Play, n: u32, m: &Move) -> bool {
        self.0.help_keeps(game, n, m)
    }

    fn enter(&mut self, _game: &Game, _play: Play, _n: u32, _m: &Move) -> bool {
        true
    }

    fn leave(&mut self, _m: &Move) {}

    fn found(&mut self, _line: &[Move]) {}

    fn last(
        &mut self,
        _s: &mut Searcher,
        _play: Play,
        _m: &Move,
        _prefix: &mut Vec<Move>,
    ) -> Result<bool, Interrupted> {
        Ok(false)
    }

    fn record(&mut self, s: &mut Searcher, play: Play, n: u32, res: bool) {
        if let Some(key) = self.key(s, play, n) {
            s.table.put(key, n, res);
        }
    }
}

impl Searcher {
    /// Installs the pruning `make` builds unless one is installed already (a searcher
    /// keeps its pruning, and what it learned, from one first move to the next).
    pub fn install_pruning(&mut self, make: impl FnOnce() -> Box<dyn Pruning>) {
        if !self.pruning.active() {
            self.pruning = make();
        }
    }

    /// Runs `f` with the pruning taken out of the searcher (the searcher searches
    /// unpruned meanwhile), and puts it back.
    fn without_pruning<R>(&mut self, f: impl FnOnce(&mut dyn Pruning, &mut Searcher) -> R) -> R {
        let mut p = std::mem::replace(&mut self.pruning, Box::new(NoPruning));
        let r = f(&mut *p, self);
        self.pruning = p;
        r
    }

    // ----- help play -----

    /// Side to move starts: is there a sequence of `plies` alternate moves whose last
    /// reaches the goal?
    pub fn help_exists(&mut self, plies: u32) -> Result<bool, Interrupted> {
        self.without_pruning(|p, s| s.help_node(&mut Pruned(p), plies, &mut Vec::new()))
    }

    /// Every help line of exactly `plies` plies from here, as move lists, in the order of
    /// the legal moves; `Ok(false)`: `out` asked to stop.
    pub fn help_lines(
        &mut self,
        plies: u32,
        prefix: &mut Vec<Move>,
        out: &mut dyn FnMut(&mut Searcher, &[Move]) -> bool,
    ) -> Result<bool, Interrupted> {
        if self.pruning.takes_over_help(plies)
            && let Some(r) = self.without_pruning(|p, s| p.help_lines(s, plies, prefix, out))?
        {
            return Ok(r);
        }
        self.help_lines_below(plies, prefix, out)
    }

    fn help_lines_below(
        &mut self,
        plies: u32,
        prefix: &mut Vec<Move>,
        out: &mut dyn FnMut(&mut Searcher, &[Move]) -> bool,
    ) -> Result<bool, Interrupted> {
        if !self.help_exists(plies)? {
            return Ok(true);
        }
        let mut moves = self.legal();
        let f = if plies == 1 {
            self.pruning.help_filter(&mut self.game, 1, &mut moves);
            self.mate_filter()
        } else {
            None
        };
        for m in &moves {
            if plies == 1 {
                if self.goal_after_f(&f, m) {
                    prefix.push(*m);
                    let go_on = out(self, prefix);
                    prefix.pop();
                    if !go_on {
                        return Ok(false);
                    }
                }
                continue;
            }
            self.try_make(m);
            prefix.push(*m);
            let r = self.help_lines_below(plies - 1, prefix, out);
            prefix.pop();
            self.game.unmake();
            if !r? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The driver's node of help play, `plies` left (the side to move first), `prefix`
    /// the moves that led here: whether a line ends in the goal. With `H::ALL` every
    /// move is searched and every line given to `h` ([`Hooks::found`]), else the search
    /// stops at the first.
    pub(crate) fn help_node<H: Hooks>(
        &mut self,
        h: &mut H,
        plies: u32,
        prefix: &mut Vec<Move>,
    ) -> Result<bool, Interrupted> {
        self.check_stop()?;
        if let Some(v) = h.known(self, Play::Help, plies) {
            return Ok(v);
        }
        if !h.possible(self, Play::Help, plies) {
            return Ok(false);
        }
        let mut moves = self.candidates();
        let recheck = h.filter(&mut self.game, Play::Help, plies, &mut moves);
        let f = if plies == 1 { self.mate_filter() } else { None };
        let mut any = false;
        let mut res = Ok(());
        for i in 0..moves.len() {
            let m = &moves[if self.reverse && !H::ALL { moves.len() - 1 - i } else { i }];
            if !h.enter(&self.game, Play::Help, plies, m) {
                continue;
            }
            let r = if plies == 1 {
                let hit = self.goal_after_f(&f, m);
                if hit && H::ALL {
                    prefix.push(*m);
                    h.found(prefix);
                    prefix.pop();
                }
                Ok(hit)
            } else if !self.try_make(m) {
                Ok(false)
            } else if recheck && !h.keeps(&mut self.game, Play::Help, plies, m) {
                self.game.unmake();
                Ok(false)
            } else {
                prefix.push(*m);
                let r = self.help_node(h, plies - 1, prefix);
                prefix.pop();
                self.game.unmake();
                r
            };
            h.leave(m);
            if fold::<H>(r, &mut any, &mut res) {
                break;
            }
        }
        self.game.give_buf(moves);
        res?;
        h.record(self, Play::Help, plies, any);
        Ok(any)
    }

    // ----- series play -----

    /// Series side to move: `k` more series moves, then the end of `play` (series: the
    /// last series move reaches the goal; series-help: the other side reaches it in one;
    /// series-self: every move of the other side reaches it). Between series moves the
    /// other side passes (so a series move may not give check).
    pub fn series_exists(&mut self, play: Play, k: u32) -> Result<bool, Interrupted> {
        self.without_pruning(|p, s| s.series_node(&mut Pruned(p), play, k, &mut Vec::new()))
    }

    /// The driver's node of series play, `k` series moves left (the series side to move),
    /// as [`Searcher::help_node`]; with `H::ALL` the lines of the last series moves are
    /// given to `h` ([`Hooks::last`]).
    pub(crate) fn series_node<H: Hooks>(
        &mut self,
        h: &mut H,
        play: Play,
        k: u32,
        prefix: &mut Vec<Move>,
    ) -> Result<bool, Interrupted> {
        self.check_stop()?;
        if let Some(v) = h.known(self, play, k) {
            return Ok(v);
        }
        if !h.possible(self, play, k) {
            return Ok(false);
        }
        let mut moves = self.candidates();
        let recheck = h.filter(&mut self.game, play, k, &mut moves);
        let f = if k == 1 { self.mate_filter() } else { None };
        let mut any = false;
        let mut res = Ok(());
        for i in 0..moves.len() {
            let m = &moves[if self.reverse && !H::ALL { moves.len() - 1 - i } else { i }];
            if !h.enter(&self.game, play, k, m) {
                continue;
            }
            let r = if k == 1 {
                let kept = !recheck || {
                    let legal = self.try_make(m);
                    let ok = legal && h.keeps(&mut self.game, play, k, m);
                    if legal {
                        self.game.unmake();
                    }
                    ok
                };
                if !kept {
                    Ok(false)
                } else if H::ALL {
                    h.last(self, play, m, prefix)
                } else {
                    self.series_end(play, m, &f)
                }
            } else if !self.try_make(m) {
                Ok(false)
            } else if (recheck && !h.keeps(&mut self.game, play, k, m)) || !self.try_make(&Move::NULL) {
                self.game.unmake();
                Ok(false)
            } else {
                prefix.push(*m);
                let r = self.series_node(h, play, k - 1, prefix);
                prefix.pop();
                self.game.unmake();
                self.game.unmake();
                r
            };
            h.leave(m);
            if fold::<H>(r, &mut any, &mut res) {
                break;
            }
        }
        self.game.give_buf(moves);
        res?;
        h.record(self, play, k, any);
        Ok(any)
    }

    /// Whether the last series move `m` ends the play as `play` needs.
    /// `f`: the mate filter of the position before `m` (see [`Searcher::mate_filter`]).
    fn series_end(&mut self, play: Play, m: &Move, f: &Option<CheckFilter>) -> Result<bool, Interrupted> {
        match play {
            Play::SeriesHelp => {
                if !self.try_make(m) {
                    return Ok(false);
                }
                // The other side reaches the goal in one: a help question of one ply,
                // memoised (the last series move is reached by many orders of the others),
                // unpruned (the probe of the table answers it).
                let r = self.without_pruning(|_, s| s.help_exists(1));
                self.game.unmake();
                r
            }
            Play::SeriesSelf => {
                if !self.try_make(m) {
                    return Ok(false);
                }
                // Memoised: the position after the last series move is reached by many
                // orders of the others.
                let key = Table::key(self.game.pos.hash(), Q::Series, 0, play as u32);
                let r = match self.table.get(key) {
                    Some(v) => v,
                    None => {
                        let v = self.every_reply_reaches_goal();
                        self.table.put(key, 0, v);
                        v
                    }
                };
                self.game.unmake();
                Ok(r)
            }
            _ => Ok(self.goal_after_f(f, m)),
        }
    }

    /// The side to move has a legal move and every one reaches the goal (the end of
    /// series-self play). Without rules that judge the whole list, the pseudo-legal moves
    /// are tried one by one and the first legal one that misses the goal ends the test.
    fn every_reply_reaches_goal(&mut self) -> bool {
        let r = &self.game.rules;
        if !r.filters.is_empty() || r.must_capture || r.choices_all_or_nothing || r.turns.is_some() {
            let moves = self.legal();
            let f = self.mate_filter();
            return !moves.is_empty() && moves.iter().all(|x| self.goal_after_f(&f, x));
        }
        let f = self.mate_filter();
        let side = self.game.pos.side();
        let mut buf = self.game.take_buf();
        self.game.pseudo_moves(side, &mut buf);
        let mut any = false;
        let mut all = true;
        for m in &buf {
            let may_reach = f.as_ref().is_none_or(|f| f.may_check(&self.game.pos, m));
            if !self.try_make(m) {
                continue;
            }
            any = true;
            let g = may_reach && self.goal_reached(self.goal);
            self.game.unmake();
            if !g {
                all = false;
                break;
            }
        }
        self.game.give_buf(buf);
        any && all
    }

    /// The final moves of the other side after the last series move (series-help: its
    /// goal moves; series-self: all its moves).
    fn series_answers(&mut self) -> Vec<Move> {
        let moves = self.legal();
        moves.into_iter().filter(|x| self.goal_after(x)).collect()
    }

    /// The series lines whose last series move is `m` (legal), with the other side's
    /// final answers (series-help and series-self); `false`: the sink asked to stop.
    pub fn series_last(
        &mut self,
        play: Play,
        m: &Move,
        prefix: &mut Vec<Move>,
        out: &mut SeriesSink<'_>,
    ) -> Result<bool, Interrupted> {
        if !self.series_end(play, m, &None)? {
            return Ok(true);
        }
        prefix.push(*m);
        let mut go_on = true;
        if matches!(play, Play::SeriesHelp | Play::SeriesSelf) {
            self.game.make(m);
            let answers = self.series_answers();
            self.game.unmake();
            for a in answers {
                if !out(self, prefix, Some(a)) {
                    go_on = false;
                    break;
                }
            }
        } else {
            go_on = out(self, prefix, None);
        }
        prefix.pop();
        Ok(go_on)
    }

    /// Every series line of exactly `k` series moves (with the other side's final answer
    /// for series-help and series-self), in the order of the legal moves; `Ok(false)`:
    /// `out` asked to stop.
    pub fn series_lines(
        &mut self,
        play: Play,
        k: u32,
        prefix: &mut Vec<Move>,
        out: &mut SeriesSink<'_>,
    ) -> Result<bool, Interrupted> {
        if self.pruning.takes_over_series(k)
            && let Some(r) = self.without_pruning(|p, s| p.series_lines(s, play, k, prefix, out))?
        {
            return Ok(r);
        }
        self.series_lines_below(play, k, prefix, out)
    }

    fn series_lines_below(
        &mut self,
        play: Play,
        k: u32,
        prefix: &mut Vec<Move>,
        out: &mut SeriesSink<'_>,
    ) -> Result<bool, Interrupted> {
        if !self.series_exists(play, k)? {
            return Ok(true);
        }
        let moves = self.legal();
        for m in &moves {
            if k == 1 {
                if !self.series_last(play, m, prefix, out)? {
                    return Ok(false);
                }
                continue;
            }
            self.game.make(m);
            if self.try_make(&Move::NULL) {
                prefix.push(*m);
                let r = self.series_lines_below(play, k - 1, prefix, out);
                prefix.pop();
                self.game.unmake();
                self.game.unmake();
                if !r? {
                    return Ok(false);
                }
            } else {
                self.game.unmake();
            }
        }
        Ok(true)
    }
}

/// Folds one move's answer into its node's (`any`: a line found; `res`: the interruption,
/// if any): whether the node stops looking at its other moves.
fn fold<H: Hooks>(r: Result<bool, Interrupted>, any: &mut bool, res: &mut Result<(), Interrupted>) -> bool {
    match r {
        Ok(true) => {
            *any = true;
            !H::ALL
        }
        Ok(false) => false,
        Err(e) => {
            *res = Err(e);
            true
        }
    }
}
