//! # Chimère solver
//!
//! Solves fairy chess problems written in Popeye's input language (read by
//! `chimere-popeye`) over the fairy engine (`chimere-fairy`), for orthodox chess and every
//! rule set the engine accepts, and prints the solutions in Popeye's layout
//! (`../shared/spec/solver.md`):
//!
//! - stipulations ([`stip`]): `#n`, `=n`, `~n`, `s#n`, `s=n`, `r#n`, `h#n`, `h#n.5`,
//!   `h=n`, `h~n`, `ser-#n`, `ser-=n`, `ser-h#n`, `ser-h=n`, `ser-s#n`, `exact-`; shorter
//!   solutions are reported as Popeye does;
//! - options: `Try`, `Defence n`, `SetPlay`, `Variation`, `Threat n`, `NoThreat`,
//!   `NoShortVariations`, `Duplex`, `HalfDuplex`, `WhiteToPlay`, `MaxSolutions n`,
//!   `NoBoard`, `EnPassant`, `NoCastling`, `MaxTime s`, `Intelligent` (orthodox
//!   helpmates: the search with provably mate-less sub-positions cut off, [`intelligent`];
//!   otherwise solved normally: same solutions), `MoveNumbers` (a progress line before each first move's solutions:
//!   its number, the move, the time);
//! - twins ([`twins`]): `Move`, `Exchange`, `Remove`, `Add`, `Substitute`, `Rotate`,
//!   `Mirror`, `Shift`, `PolishType`, `Condition`, `Stipulation`, `Continued`,
//!   `ZeroPosition`.
//!
//! The search ([`search`]) memoises solved sub-positions in a bounded lock-free table
//! ([`table`]) shared by the threads, and spreads the first moves over threads (a thread
//! left without first moves helps on one still being solved, from the other end of its
//! move list); solutions are written as soon as each first move is solved, in move order.
//! `crates/solver/bench/speed.py` times `chimere solve` against a Popeye binary on the
//! heaviest problems of the corpus. What is not supported is refused with a one-line reason naming
//! the input line; a file with several problems goes on after a bad one.

pub mod compare;
pub mod intelligent;
pub mod options;
pub mod output;
pub mod search;
/// The stipulation, as the reader types it.
pub use chimere_popeye::stipulation as stip;
pub mod table;
pub mod twins;

use chimere_core::Colour;
use chimere_fairy::{Game, Move};
use chimere_popeye::{OptionKind, PopeyeError, Problem};
use options::{Opts, opts_of};
use search::{Interrupted, Node, RootKind, Searcher, Table, TreeOpts};
use std::io::{self, IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;
#[cfg(not(target_arch = "wasm32"))]
use std::time::Instant;
use stip::{Goal, Play, Stipulation};
// The browser build (crates/wasm): std's clock panics on wasm32-unknown-unknown.
#[cfg(target_arch = "wasm32")]
use web_time::Instant;

/// How to solve (command-line settings).
#[derive(Clone, Debug)]
pub struct Settings {
    /// Size of the table of solved sub-positions, in megabytes (shared by the threads).
    pub hash_mb: usize,
    /// Stop each problem after this time (the problem's `MaxTime` also counts).
    pub max_time: Option<Duration>,
    /// Threads searching first moves in parallel.
    pub threads: usize,
    /// Progress on standard error (only when it is a terminal).
    pub progress: bool,
    /// Print the solutions as JSON (one document per problem) instead of Popeye's layout.
    pub json: bool,
    /// The first output line.
    pub banner: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hash_mb: 256,
            max_time: None,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()).min(8),
            progress: true,
            json: false,
            banner: true,
        }
    }
}

/// The label of the twin with index `i` (0 = `a`): `a` to `z`, then `z1`, `z2`... as
/// Popeye numbers them.
fn twin_letter(i: u32) -> String {
    if i < 26 { ((b'a' + i as u8) as char).to_string() } else { format!("z{}", i - 25) }
}

/// One position to solve: its label line and problem.
struct TwinJob {
    label: Option<String>,
    problem: Problem,
    stip: Stipulation,
}

fn perr(line: usize, message: impl Into<String>) -> PopeyeError {
    PopeyeError { line, message: message.into() }
}

/// Checks a position before solving: the engine accepts its rules, bound to the
/// stipulation's goal; no multi-move turns (only `~1`).
fn check_position(p: &Problem, stip: &Stipulation, line: usize) -> Result<(), PopeyeError> {
    // A condition refusing the stipulation's goal is an error of the stipulation's line.
    let g = chimere_popeye::build_game(p)?;
    if g.rules.turns.is_some() && !(stip.play == Play::Direct && stip.goal == Goal::Any && stip.n == 1) {
        return Err(perr(line, "multi-move turns (Progressif, Annéciens) are only solved with ~1"));
    }
    Ok(())
}

/// Reads the stipulation, options and twins of a problem into the positions to solve.
fn prepare(p: &Problem) -> Result<(Vec<TwinJob>, Vec<String>, Opts), PopeyeError> {
    let mut messages = p.notices.clone();
    let opts = opts_of(p)?;
    let (stip, line) = p.stipulation.ok_or_else(|| perr(p.line, "problem without a stipulation"))?;
    if opts.white_to_play && stip.play != Play::Help {
        messages.push("WhiteToPlay not applicable - ignored".to_string());
    }
    if opts.intelligent && !matches!(stip.play, Play::Help | Play::Series | Play::SeriesHelp) {
        messages.push(
            "Intelligent Mode only with h#/=, ser-#/= and ser-h#/=, with a limited set of fairy conditions and without fairy pieces."
                .to_string(),
        );
    }
    if let Some(t) = opts.threat
        && (stip.play != Play::Direct || t >= stip.n)
    {
        messages.push("Option \"Threat\" not applicable or indicated maximum threat length too big".to_string());
    }
    let mut jobs = Vec::new();
    let base = p.clone();
    if p.twins.is_empty() {
        check_position(&base, &stip, line)?;
        jobs.push(TwinJob { label: None, problem: base, stip });
        return Ok((jobs, messages, opts));
    }
    let mut prev = base.clone();
    let mut letter = 0u32;
    if !p.zero_position {
        check_position(&base, &stip, line)?;
        jobs.push(TwinJob { label: Some("a) ".to_string()), problem: base.clone(), stip });
        letter = 1;
    }
    for tw in &p.twins {
        let mut q = if tw.continued { prev.clone() } else { base.clone() };
        q.twins.clear();
        let mut desc = twins::apply(&mut q, &tw.cmds).map_err(|m| perr(tw.line, m))?;
        let (st, _) = q.stipulation.expect("a twin keeps its problem's stipulation");
        if opts.white_to_play {
            // As Popeye: the label gives the stipulation White's first move makes of it.
            let (written, played) = (st.to_string(), st.white_to_play().to_string());
            for d in desc.iter_mut().filter(|d| **d == written) {
                *d = played.clone();
            }
        }
        check_position(&q, &st, tw.line)?;
        let label = format!("{}{}) {}  ", if tw.continued { "+" } else { "" }, twin_letter(letter), desc.join("  "));
        letter += 1;
        jobs.push(TwinJob { label: Some(label), problem: q.clone(), stip: st });
        prev = q;
    }
    Ok((jobs, messages, opts))
}

/// The side that starts the play as stated.
fn normal_start(stip: &Stipulation, opts: &Opts) -> Colour {
    match stip.play {
        Play::Help if stip.half || opts.white_to_play => Colour::White,
        Play::Help | Play::SeriesHelp => Colour::Black,
        _ => Colour::White,
    }
}

fn game_with_side(job: &TwinJob, side: Colour) -> Result<Game, PopeyeError> {
    let mut q = job.problem.clone();
    q.half_duplex = side == Colour::Black;
    chimere_popeye::build_game(&q)
}

/// Whether the side not to move is in check (Popeye: "the side to play can capture the king").
fn king_capturable(g: &mut Game) -> bool {
    let side = g.pos.side();
    g.in_check(side.opponent())
}

/// A block of output.
#[derive(Clone, Debug)]
enum Block {
    /// A key, try or premature move with its tree.
    Root(RootKind, Node),
    /// Lines of help or series play (one solution each).
    Lines(Vec<String>),
    /// `Option MoveNumbers`: the progress line of a first move (not a solution).
    Progress(String),
}

struct Shared<'a> {
    settings: &'a Settings,
    stop: Arc<AtomicBool>,
    deadline: Option<Instant>,
    started: Instant,
    solutions: AtomicUsize,
    max_solutions: Option<u32>,
    partial: AtomicBool,
    /// The table of solved sub-positions, shared by the threads and the jobs.
    table: &'a Table,
    /// `Option MoveNumbers`: progress lines.
    move_numbers: bool,
}

impl Shared<'_> {
    fn count(&self, n: usize) -> bool {
        let total = self.solutions.fetch_add(n, Ordering::SeqCst) + n;
        if let Some(m) = self.max_solutions
            && total >= m as usize
        {
            self.partial.store(true, Ordering::SeqCst);
            self.stop.store(true, Ordering::SeqCst);
            return false;
        }
        true
    }
    /// A handle on the shared table for a new job (a twin solved for one side).
    fn job_table(&self) -> Table {
        self.table.job()
    }
}

/// Work a thread without a first move of its own does on a first move another thread is
/// solving: the same search in another move order, filling the shared table (its answers
/// are true whichever thread finds them), so the owner finds its sub-positions solved.
type Helper<'h> = &'h (dyn Fn(&mut Searcher, &Move) + Sync);

/// Runs `work` on every first move, spread over threads, calling `emit` with the results
/// in move order as soon as they are ready (progress on a terminal after a second). A
/// thread left without first moves runs `helper` (if any, and the table is on) on a first
/// move still being solved, until it is solved.
#[allow(clippy::too_many_arguments)]
fn for_each_first_move<F>(
    shared: &Shared,
    table: &Table,
    game: &Game,
    goal: Goal,
    reflex: bool,
    moves: &[Move],
    work: F,
    helper: Option<Helper<'_>>,
    emit: &mut dyn FnMut(Vec<Block>) -> io::Result<()>,
) -> io::Result<()>
where
    F: Fn(&mut Searcher, &Move) -> Result<Vec<Block>, Interrupted> + Sync,
{
    let next = AtomicUsize::new(0);
    let helper = helper.filter(|_| table.enabled());
    let threads = if helper.is_some() {
        shared.settings.threads.max(1)
    } else {
        shared.settings.threads.clamp(1, moves.len().max(1))
    };
    // Per first move: solved (its helper stops), and whether a helper took it.
    let solved: Vec<Arc<AtomicBool>> = moves.iter().map(|_| Arc::new(AtomicBool::new(false))).collect();
    let helped: Vec<AtomicBool> = moves.iter().map(|_| AtomicBool::new(false)).collect();
    // `Option MoveNumbers`: Popeye's progress line before each first move's solutions.
    let numbers: Vec<String> = if shared.move_numbers {
        let mut s = Searcher::new(game.clone(), Table::new(0), shared.stop.clone(), goal, reflex);
        moves.iter().map(|m| s.text(m, false)).collect()
    } else {
        Vec::new()
    };
    if threads == 1 && shared.deadline.is_none() {
        // One thread and no time limit: solved here, in move order (no thread to start:
        // the browser build has none; the helper would find every first move solved).
        let mut searcher = Searcher::new(game.clone(), table.clone(), shared.stop.clone(), goal, reflex);
        for (i, m) in moves.iter().enumerate() {
            let r = if searcher.stop.load(Ordering::Relaxed) { None } else { work(&mut searcher, m).ok() };
            if let Some(text) = numbers.get(i) {
                let t = shared.started.elapsed().as_secs_f64();
                emit(vec![Block::Progress(format!("{:3}  ({text}    Time = {t:.3} s)", i + 1))])?;
            }
            if let Some(blocks) = r {
                emit(blocks)?;
            }
        }
        return Ok(());
    }
    let (tx, rx) = mpsc::channel::<(usize, Option<Vec<Block>>)>();
    let tty = shared.settings.progress && io::stderr().is_terminal();
    std::thread::scope(|scope| -> io::Result<()> {
        for _ in 0..threads {
            let tx = tx.clone();
            let next = &next;
            let work = &work;
            let (solved, helped) = (&solved, &helped);
            let mut searcher = Searcher::new(game.clone(), table.clone(), shared.stop.clone(), goal, reflex);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= moves.len() {
                        break;
                    }
                    let r =
                        if searcher.stop.load(Ordering::Relaxed) { None } else { work(&mut searcher, &moves[i]).ok() };
                    solved[i].store(true, Ordering::SeqCst);
                    if tx.send((i, r)).is_err() {
                        return;
                    }
                }
                drop(tx);
                let Some(help) = helper else { return };
                while let Some(j) = (0..moves.len())
                    .find(|&j| !solved[j].load(Ordering::SeqCst) && !helped[j].swap(true, Ordering::SeqCst))
                {
                    if shared.stop.load(Ordering::Relaxed) {
                        return;
                    }
                    // Stops when the first move is solved (or everything stops: see below).
                    let global = std::mem::replace(&mut searcher.stop, solved[j].clone());
                    searcher.reverse = true;
                    help(&mut searcher, &moves[j]);
                    searcher.reverse = false;
                    searcher.stop = global;
                }
            });
        }
        drop(tx);
        let mut pending: Vec<Option<Option<Vec<Block>>>> = vec![None; moves.len()];
        let mut done = 0;
        let mut shown = false;
        while done < moves.len() {
            match rx.recv_timeout(Duration::from_millis(200)) {
                Ok((i, r)) => {
                    pending[i] = Some(r);
                    while done < moves.len() {
                        let Some(r) = pending[done].take() else { break };
                        if let Some(text) = numbers.get(done) {
                            let t = shared.started.elapsed().as_secs_f64();
                            emit(vec![Block::Progress(format!("{:3}  ({text}    Time = {t:.3} s)", done + 1))])?;
                        }
                        if let Some(blocks) = r {
                            emit(blocks)?;
                        }
                        done += 1;
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            let el = shared.started.elapsed();
            if let Some(d) = shared.deadline
                && Instant::now() >= d
            {
                shared.partial.store(true, Ordering::SeqCst);
                shared.stop.store(true, Ordering::SeqCst);
            }
            if shared.stop.load(Ordering::SeqCst) {
                for f in &solved {
                    f.store(true, Ordering::SeqCst);
                }
            }
            if tty && el >= Duration::from_secs(1) {
                shown = true;
                eprint!(
                    "\r  first move {}/{}  {:.1} s   ",
                    done.min(moves.len() - 1) + 1,
                    moves.len(),
                    el.as_secs_f64()
                );
            }
        }
        if shown {
            eprint!("\r{}\r", " ".repeat(40));
        }
        Ok(())
    })
}

/// Solves one twin position for one starting side; `emit` gets blocks in order.
fn solve_side(
    shared: &Shared,
    job: &TwinJob,
    opts: &Opts,
    start: Colour,
    set_play: bool,
    emit: &mut dyn FnMut(Vec<Block>) -> io::Result<()>,
) -> io::Result<bool> {
    let stip = &job.stip;
    let mut game = match game_with_side(job, start) {
        Ok(g) => g,
        Err(_) => return Ok(false),
    };
    // The set play has the other side to move: it is solved even when the play itself is
    // impossible (the side to play could capture the king), as Popeye does.
    let capturable = king_capturable(&mut game);
    let tree_set_play = set_play && matches!(stip.play, Play::Direct | Play::SelfPlay | Play::Reflex);
    if capturable && !tree_set_play {
        return Ok(false);
    }
    let goal = stip.goal;
    let reflex = stip.play == Play::Reflex;
    let table = shared.job_table();
    let tree = TreeOpts {
        set_play: false,
        variations: opts.variation,
        no_threat: opts.no_threat,
        no_short_variations: opts.no_short,
    };
    match stip.play {
        Play::Direct | Play::SelfPlay | Play::Reflex => {
            let play = if stip.play == Play::Direct { Play::Direct } else { Play::SelfPlay };
            let n = stip.n;
            if set_play {
                let mut blocks = Vec::new();
                if let Ok(mut g2) = game_with_side(job, start.opponent())
                    && !king_capturable(&mut g2)
                {
                    let mut s = Searcher::new(g2, table.clone(), shared.stop.clone(), goal, reflex);
                    s.exact = stip.exact;
                    // Without Variation the set play shows no threats at any depth.
                    let tree = TreeOpts { set_play: !tree.variations, ..tree };
                    let mut node = Node::default_leaf();
                    // Black to move: the set play is the defence tree with White's remaining moves.
                    let rem = if play == Play::Direct { n - 1 } else { n };
                    if rem >= 1 && s.defence_tree_with(play, rem, 1, tree, &mut node, true, false).is_ok() {
                        let mut text = String::new();
                        for d in &node.children {
                            output::write_defence(&mut text, d, 1);
                        }
                        blocks.push(Block::Lines(text.lines().map(str::to_string).collect()));
                    } else {
                        blocks.push(Block::Lines(Vec::new()));
                    }
                } else {
                    blocks.push(Block::Lines(Vec::new()));
                }
                emit(blocks)?;
            }
            if capturable {
                return Ok(false);
            }
            let mut s = Searcher::new(game.clone(), table.clone(), shared.stop.clone(), goal, reflex);
            let moves = s.legal();
            if reflex && s.attacker_must_reach_goal() {
                // White must reach the goal itself: no solution; Popeye shows those moves.
                let mut blocks = Vec::new();
                for m in &moves {
                    if s.goal_after_pub(m) {
                        let text = s.text(m, true);
                        blocks.push(Block::Root(RootKind::Premature, Node::leaf_pub(text)));
                    }
                }
                emit(blocks)?;
                return Ok(true);
            }
            let exact = stip.exact;
            let max_ref = opts.defence;
            let try_ = opts.try_;
            s.max_threat = opts.threat.filter(|&t| play == Play::Direct && t < n);
            let max_threat = s.max_threat;
            let work = move |s: &mut Searcher, m: &Move| -> Result<Vec<Block>, Interrupted> {
                s.max_threat = max_threat;
                s.exact = exact;
                let is_key = s.move_solves(play, m, n)?;
                let mut kind = RootKind::Key;
                if !is_key {
                    if !try_ || n < 2 && play == Play::Direct {
                        return Ok(Vec::new());
                    }
                    kind = RootKind::Try;
                }
                // A key's play is written at the length the key solves in, as Popeye solves
                // it: its threat is looked for within that length (a `#3` key mating in two
                // after any defence and threatening nothing in one is a zugzwang), and with
                // `NoShortVariations` a variation is short against it, not the
                // stipulation's (a `#3` key mating in two keeps its variations).
                let mut len = n;
                if is_key && !exact {
                    for t in 1..n {
                        if s.move_solves(play, m, t)? {
                            len = t;
                            break;
                        }
                    }
                }
                let text = s.text(m, play == Play::Direct);
                let mut node = Node::leaf_pub(text);
                s.game.make(m);
                let reached = play == Play::Direct && s.goal_reached(goal);
                if !reached {
                    let rem = if play == Play::Direct { len - 1 } else { len };
                    if kind == RootKind::Try && play == Play::Direct && s.threat_missing(rem)? {
                        s.game.unmake();
                        return Ok(Vec::new());
                    }
                    if kind == RootKind::Try {
                        // A try: refuted by at most `max_ref` defences.
                        let count = s.refutation_count(play, rem, max_ref)?;
                        if count == 0 || count > max_ref {
                            s.game.unmake();
                            return Ok(Vec::new());
                        }
                    }
                    if rem >= 1 {
                        s.defence_tree(play, rem, 1, tree, &mut node, tree.variations)?;
                    }
                    if !tree.variations {
                        node.threat = None;
                        node.threats.clear();
                        node.children.clear();
                    }
                } else if kind == RootKind::Try {
                    s.game.unmake();
                    return Ok(Vec::new());
                }
                s.game.unmake();
                Ok(vec![Block::Root(kind, node)])
            };
            let mut counted = |blocks: Vec<Block>| -> io::Result<()> {
                let keys = blocks.iter().filter(|b| matches!(b, Block::Root(RootKind::Key, _))).count();
                if keys == 0 || !shared.partial.load(Ordering::SeqCst) {
                    if keys > 0 {
                        shared.count(keys);
                    }
                    emit(blocks)?;
                }
                Ok(())
            };
            for_each_first_move(shared, &table, &game, goal, reflex, &moves, work, None, &mut counted)?;
        }
        Play::Help => {
            let total = if opts.white_to_play && !stip.half { 2 * stip.n - 1 } else { 2 * stip.n + stip.half as u32 };
            if set_play && total >= 2 {
                let mut lines = Vec::new();
                if let Ok(mut g2) = game_with_side(job, start.opponent())
                    && !king_capturable(&mut g2)
                {
                    let mut s = Searcher::new(g2, table.clone(), shared.stop.clone(), goal, false);
                    let _ = help_all(&mut s, total - 1, stip.exact, None, &mut lines);
                }
                emit(vec![Block::Lines(lines)])?;
            }
            let s = Searcher::new(game.clone(), table.clone(), shared.stop.clone(), goal, false);
            let moves = {
                let mut s = s;
                s.legal()
            };
            let exact = stip.exact;
            // Option Intelligent on orthodox helpmates: the search with provably
            // mate-less sub-positions cut off (the same solutions).
            let intel = intelligent::applies(&job.problem, stip);
            let work = move |s: &mut Searcher, m: &Move| -> Result<Vec<Block>, Interrupted> {
                if intel {
                    s.install_pruning(|| intelligent::Intelligent::boxed(goal));
                }
                let mut lines = Vec::new();
                help_all(s, total, exact, Some(m), &mut lines)?;
                Ok(vec![Block::Lines(lines)])
            };
            let helper = move |s: &mut Searcher, m: &Move| {
                if intel {
                    s.install_pruning(|| intelligent::Intelligent::boxed(goal));
                }
                // (The pictures do not use the table: nothing to help with.)
                if s.pruning.takes_over_help(total - 1) {
                    return;
                }
                if total >= 2 && s.game.make(m).is_some() {
                    let _ = s.help_exists(total - 1);
                    s.game.unmake();
                }
            };
            let mut counted = |blocks: Vec<Block>| -> io::Result<()> { emit_lines(shared, blocks, emit) };
            for_each_first_move(shared, &table, &game, goal, false, &moves, work, Some(&helper), &mut counted)?;
        }
        Play::Series | Play::SeriesHelp | Play::SeriesSelf => {
            let play = stip.play;
            if set_play && play == Play::SeriesSelf {
                let mut lines = Vec::new();
                if let Ok(mut g2) = game_with_side(job, start.opponent())
                    && !king_capturable(&mut g2)
                {
                    let mut s = Searcher::new(g2, table.clone(), shared.stop.clone(), goal, false);
                    let moves = s.legal();
                    if !moves.is_empty() && moves.iter().all(|m| s.goal_after_pub(m)) {
                        for m in &moves {
                            let t = s.text(m, true);
                            lines.push(format!("  1...{t}"));
                        }
                    }
                }
                emit(vec![Block::Lines(lines)])?;
            }
            let mut s = Searcher::new(game.clone(), table.clone(), shared.stop.clone(), goal, false);
            let moves = s.legal();
            let (n, exact) = (stip.n, stip.exact);
            let intel = intelligent::applies_series(&job.problem, stip);
            let work = move |s: &mut Searcher, m: &Move| -> Result<Vec<Block>, Interrupted> {
                if intel {
                    s.install_pruning(|| intelligent::Intelligent::boxed(goal));
                }
                let mut lines = Vec::new();
                let lo = if exact { n } else { 1 };
                s.pruning.plan(n - 1);
                for k in lo..=n {
                    series_from(s, play, k, m, &mut lines)?;
                }
                s.pruning.plan(0);
                Ok(vec![Block::Lines(lines)])
            };
            let helper = move |s: &mut Searcher, m: &Move| {
                if intel {
                    s.install_pruning(|| intelligent::Intelligent::boxed(goal));
                }
                // (The pictures do not use the table: nothing to help with.)
                if s.pruning.takes_over_series(n - 1) {
                    return;
                }
                if n >= 2 && s.game.make(m).is_some() {
                    if s.game.make(&Move::NULL).is_some() {
                        let _ = s.series_exists(play, n - 1);
                        s.game.unmake();
                    }
                    s.game.unmake();
                }
            };
            let mut counted = |blocks: Vec<Block>| -> io::Result<()> { emit_lines(shared, blocks, emit) };
            for_each_first_move(shared, &table, &game, goal, false, &moves, work, Some(&helper), &mut counted)?;
        }
    }
    Ok(true)
}

/// Emits help/series lines, counting them against MaxSolutions.
fn emit_lines(
    shared: &Shared,
    blocks: Vec<Block>,
    emit: &mut dyn FnMut(Vec<Block>) -> io::Result<()>,
) -> io::Result<()> {
    let mut kept = Vec::new();
    for b in blocks {
        if let Block::Progress(_) = b {
            if !kept.is_empty() {
                emit(vec![Block::Lines(std::mem::take(&mut kept))])?;
            }
            emit(vec![b])?;
            continue;
        }
        if let Block::Lines(ls) = b {
            for l in ls {
                if shared.partial.load(Ordering::SeqCst) && shared.max_solutions.is_some() {
                    break;
                }
                kept.push(l);
                shared.count(1);
            }
        }
    }
    if kept.is_empty() { Ok(()) } else { emit(vec![Block::Lines(kept)]) }
}

/// Every help line of `total` plies (and the shorter ones unless `exact`), starting with
/// `first` if given.
fn help_all(
    s: &mut Searcher,
    total: u32,
    exact: bool,
    first: Option<&Move>,
    lines: &mut Vec<String>,
) -> Result<(), Interrupted> {
    help_all_as(s, total, exact, first, lines, false)
}

/// [`help_all`]; `after_pass`: the lines are set play after the starting side's pass.
fn help_all_as(
    s: &mut Searcher,
    total: u32,
    exact: bool,
    first: Option<&Move>,
    lines: &mut Vec<String>,
    after_pass: bool,
) -> Result<(), Interrupted> {
    let mut plies = if exact {
        total
    } else if total.is_multiple_of(2) {
        2
    } else {
        1
    };
    s.pruning.plan(if first.is_some() { total - 1 } else { total });
    while plies <= total {
        let starts_half = plies % 2 == 1;
        let mut found: Vec<String> = Vec::new();
        let mut texts = LineTexts::default();
        let mut collect = |s: &mut Searcher, line: &[Move]| -> bool {
            let texts = texts.texts(s, line, false, true);
            found.push(if after_pass {
                output::help_line_after_pass(texts)
            } else {
                output::help_line(texts, starts_half)
            });
            true
        };
        match first {
            Some(m) => {
                if plies == 1 {
                    if s.goal_after_pub(m) {
                        collect(s, &[*m]);
                    }
                } else if s.game.make(m).is_some() {
                    let mut prefix = vec![*m];
                    let r = s.help_lines(plies - 1, &mut prefix, &mut collect);
                    s.game.unmake();
                    r?;
                }
            }
            None => {
                let mut prefix = Vec::new();
                s.help_lines(plies, &mut prefix, &mut collect)?;
            }
        }
        lines.extend(found);
        plies += 2;
    }
    s.pruning.plan(0);
    Ok(())
}

/// The texts of the moves of lines given one after the other from one position (each
/// with all but its last move played, and a pass after each when `passes`: series
/// play). The moves a line shares with the one before it (all but the last) keep their
/// texts, so only those after the two part are taken back and written: lines come in
/// move order, and a problem with a hundred thousand lines wrote each of their moves
/// again.
#[derive(Default)]
struct LineTexts {
    line: Vec<Move>,
    texts: Vec<String>,
}

impl LineTexts {
    /// The texts of `line` (the goal mark on the last move when `goal_last`).
    fn texts(&mut self, s: &mut Searcher, line: &[Move], passes: bool, goal_last: bool) -> &[String] {
        let k = line.len();
        let same = if self.line.len() == k {
            line[..k - 1].iter().zip(&self.line).take_while(|(a, b)| a == b).count()
        } else {
            0
        };
        self.texts.resize(k, String::new());
        self.texts[k - 1] = s.text(&line[k - 1], goal_last);
        // Undo the moves after the shared ones one by one to write them, then replay them.
        for i in (same..k - 1).rev() {
            if passes {
                s.game.unmake();
            }
            s.game.unmake();
            self.texts[i] = s.text(&line[i], false);
        }
        for m in &line[same..k - 1] {
            s.game.make(m);
            if passes {
                s.game.make(&Move::NULL);
            }
        }
        self.line.clear();
        self.line.extend_from_slice(line);
        &self.texts
    }
}

/// Series lines of exactly `k` moves beginning with `first`.
fn series_from(s: &mut Searcher, play: Play, k: u32, first: &Move, lines: &mut Vec<String>) -> Result<(), Interrupted> {
    let mut found: Vec<String> = Vec::new();
    let mut texts = LineTexts::default();
    let mut collect = |s: &mut Searcher, line: &[Move], answer: Option<Move>| -> bool {
        // Position: before the last series move, the passes in between played.
        let last = line[line.len() - 1];
        let ans = answer.map(|a| {
            s.game.make(&last);
            let t = s.text(&a, true);
            s.game.unmake();
            t
        });
        let texts = texts.texts(s, line, true, play == Play::Series);
        found.push(output::series_line(texts, ans.as_deref()));
        true
    };
    let mut prefix = Vec::new();
    if k == 1 {
        // Only the first move itself.
        s.series_last(play, first, &mut prefix, &mut collect)?;
    } else if s.game.make(first).is_some() {
        if s.game.make(&Move::NULL).is_some() {
            prefix.push(*first);
            let r = s.series_lines(play, k - 1, &mut prefix, &mut collect);
            s.game.unmake();
            s.game.unmake();
            r?;
        } else {
            s.game.unmake();
        }
    }
    lines.extend(found);
    Ok(())
}

/// Solves every problem of a Popeye input on one thread, without banner or progress, and
/// returns what [`solve_input`] writes: (solutions, error lines). For tests and programs
/// that want the text.
pub fn solve_to_strings(input: &str) -> (String, String) {
    let settings = Settings { threads: 1, progress: false, banner: false, ..Settings::default() };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    solve_input(input, &settings, &mut out, &mut err).expect("writing to memory cannot fail");
    (String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned())
}

/// Solves every problem of a Popeye input, writing Popeye's layout (or JSON) to `out` and
/// one-line errors to `err`. Returns the number of problems refused.
pub fn solve_input(input: &str, settings: &Settings, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<usize> {
    let mut errors = 0;
    let table = Table::new(settings.hash_mb);
    if settings.banner && !settings.json {
        writeln!(out, "Chimère v{} (Popeye-compatible solver)", env!("CARGO_PKG_VERSION"))?;
    }
    for parsed in chimere_popeye::parse_all(input) {
        let p = match parsed {
            Ok(p) => p,
            Err(e) => {
                writeln!(err, "{e}")?;
                errors += 1;
                continue;
            }
        };
        match prepare(&p) {
            Err(e) => {
                writeln!(err, "{e}")?;
                errors += 1;
            }
            Ok((jobs, messages, opts)) => solve_problem(&p, &jobs, &messages, &opts, settings, &table, out)?,
        }
        out.flush()?;
    }
    Ok(errors)
}

fn header(p: &Problem, stip: &str, messages: &[String], out: &mut dyn Write) -> io::Result<()> {
    // Popeye's messages about the input come first (it prints them while reading).
    for m in messages {
        writeln!(out, "{m}")?;
    }
    writeln!(out)?;
    if p.has(OptionKind::NoBoard) {
        return Ok(());
    }
    for l in [&p.author, &p.origin, &p.title].into_iter().flat_map(|f| f.lines()) {
        writeln!(out, "{}", output::centred(l))?;
    }
    writeln!(out)?;
    write!(out, "{}", output::board(p, stip))?;
    for c in twins::condition_lines(&p.conditions) {
        writeln!(out, "{}", output::centred(&c))?;
    }
    if p.has(OptionKind::Duplex) {
        writeln!(out, "{}", output::centred("Duplex"))?;
    }
    if p.half_duplex {
        writeln!(out, "{}", output::centred("HalfDuplex"))?;
    }
    writeln!(out)?;
    Ok(())
}

fn solve_problem(
    p: &Problem,
    jobs: &[TwinJob],
    messages: &[String],
    opts: &Opts,
    settings: &Settings,
    table: &Table,
    out: &mut dyn Write,
) -> io::Result<()> {
    let started = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    let limit = match (settings.max_time, opts.max_time) {
        (Some(a), Some(b)) => Some(a.min(Duration::from_secs(b as u64))),
        (a, b) => a.or(b.map(|s| Duration::from_secs(s as u64))),
    };
    let shared = Shared {
        settings,
        stop: stop.clone(),
        deadline: limit.map(|d| started + d),
        started,
        solutions: AtomicUsize::new(0),
        max_solutions: opts.max_solutions,
        partial: AtomicBool::new(false),
        table,
        move_numbers: opts.move_numbers,
    };
    let stip_text = jobs.first().map_or(String::new(), |j| {
        let mut t = j.stip.to_string();
        if let Some(th) = opts.threat.filter(|&t| j.stip.play == Play::Direct && t < j.stip.n) {
            t.push_str(&format!("/{th}"));
        }
        t
    });
    let mut json_twins = Vec::new();
    if !settings.json {
        header(p, &stip_text, messages, out)?;
        if p.zero_position {
            writeln!(out, "zeroposition\n")?;
        }
    }
    for job in jobs {
        if !settings.json
            && let Some(l) = &job.label
        {
            writeln!(out, "{l}")?;
            writeln!(out)?;
        }
        let tree_mode = matches!(job.stip.play, Play::Direct | Play::SelfPlay | Play::Reflex);
        let start = normal_start(&job.stip, opts);
        let sides: Vec<Colour> = if opts.half_duplex {
            vec![start.opponent()]
        } else if opts.duplex {
            vec![start, start.opponent()]
        } else {
            vec![start]
        };
        let set_play = opts.set_play && job.stip.play != Play::Series;
        let mut blocks_json: Vec<serde_json::Value> = Vec::new();
        // Whether some side's position was legal (solved): Popeye then closes the list of
        // help and series lines with a blank line, even an empty list.
        let mut any_solved = false;
        for (k, &side) in sides.iter().enumerate() {
            let mut q = job.problem.clone();
            q.half_duplex = false;
            let job2 = TwinJob { label: None, problem: q, stip: job.stip };
            if !tree_mode && set_play && k == 0 {
                // Help set play: its own block before the solutions.
                let mut set_lines = Vec::new();
                let mut capture = |blocks: Vec<Block>| -> io::Result<()> {
                    for b in blocks {
                        if let Block::Lines(ls) = b {
                            set_lines.extend(ls);
                        }
                    }
                    Ok(())
                };
                // Solve the set play alone (the solutions are solved below).
                solve_set_only(&shared, &job2, opts, side, &mut capture)?;
                if settings.json {
                    blocks_json.push(serde_json::json!({"set_play": set_lines}));
                } else {
                    for l in &set_lines {
                        writeln!(out, "{l}")?;
                    }
                    writeln!(out)?;
                }
            }
            let mut emit = |blocks: Vec<Block>| -> io::Result<()> {
                for b in blocks {
                    if settings.json {
                        if !matches!(b, Block::Progress(_)) {
                            blocks_json.push(block_json(&b));
                        }
                        continue;
                    }
                    match b {
                        Block::Root(kind, node) => {
                            let mut s = String::new();
                            output::write_root(&mut s, &node, kind);
                            out.write_all(s.as_bytes())?;
                        }
                        Block::Progress(l) => writeln!(out, "{l}")?,
                        Block::Lines(ls) => {
                            if tree_mode {
                                // Set play of a tree: its own block.
                                for l in &ls {
                                    writeln!(out, "{l}")?;
                                }
                                writeln!(out)?;
                            } else {
                                for l in &ls {
                                    writeln!(out, "{l}")?;
                                }
                            }
                        }
                    }
                }
                out.flush()
            };
            let sp = tree_mode && set_play && k == 0;
            let solved = solve_side(&shared, &job2, opts, side, sp, &mut emit)?;
            any_solved |= solved;
            if !solved && !settings.json {
                writeln!(out, "the side to play can capture the king")?;
            }
        }
        if !settings.json {
            if !tree_mode && any_solved {
                writeln!(out)?;
            }
            if tree_mode {
                writeln!(out)?;
            }
        } else {
            json_twins.push(serde_json::json!({"label": job.label.as_deref().map(str::trim_end), "stipulation": job.stip.to_string(), "blocks": blocks_json}));
        }
        if shared.stop.load(Ordering::SeqCst) {
            break;
        }
    }
    let partial = shared.partial.load(Ordering::SeqCst);
    let secs = started.elapsed().as_secs_f64();
    if settings.json {
        let doc = serde_json::json!({
            "title": p.title, "twins": json_twins, "finished": !partial, "seconds": (secs * 1000.0).round() / 1000.0
        });
        writeln!(out, "{doc}")?;
    } else if partial {
        writeln!(out, "Partial solution\n\n")?;
    } else {
        writeln!(out, "solution finished. Time = {secs:.3} s\n\n")?;
    }
    Ok(())
}

/// The set play of help play only.
fn solve_set_only(
    shared: &Shared,
    job: &TwinJob,
    opts: &Opts,
    start: Colour,
    emit: &mut dyn FnMut(Vec<Block>) -> io::Result<()>,
) -> io::Result<()> {
    let stip = &job.stip;
    if stip.play == Play::SeriesHelp {
        // ser-h set play: the other side's last move alone, from the diagram (`1...X =`).
        let mut lines = Vec::new();
        if let Ok(mut g2) = game_with_side(job, start.opponent())
            && !king_capturable(&mut g2)
        {
            let mut s = Searcher::new(g2, shared.job_table(), shared.stop.clone(), stip.goal, false);
            for m in s.legal() {
                if s.goal_after_pub(&m) {
                    let t = s.text(&m, true);
                    lines.push(format!("  1...{t}"));
                }
            }
        }
        return emit(vec![Block::Lines(lines)]);
    }
    if stip.play != Play::Help {
        return emit(vec![Block::Lines(Vec::new())]);
    }
    let total = if opts.white_to_play && !stip.half { 2 * stip.n - 1 } else { 2 * stip.n + stip.half as u32 };
    let table = shared.job_table();
    let mut lines = Vec::new();
    if total >= 2
        && let Ok(mut g2) = game_with_side(job, start.opponent())
        && !king_capturable(&mut g2)
    {
        let mut s = Searcher::new(g2, table.clone(), shared.stop.clone(), stip.goal, false);
        let _ = help_all_as(&mut s, total - 1, stip.exact, None, &mut lines, total % 2 == 1);
    }
    emit(vec![Block::Lines(lines)])
}

fn node_json(n: &Node) -> serde_json::Value {
    let mut v = serde_json::json!({"move": n.text});
    match n.threat {
        Some(true) => v["threat"] = serde_json::Value::Array(n.threats.iter().map(node_json).collect()),
        Some(false) => v["zugzwang"] = serde_json::Value::Bool(true),
        None => {}
    }
    if !n.children.is_empty() {
        v["replies"] = serde_json::Value::Array(n.children.iter().map(node_json).collect());
    }
    if !n.refutations.is_empty() {
        v["refutations"] = serde_json::Value::Array(
            n.refutations.iter().map(|r| serde_json::json!(r.text.trim_end_matches(" !"))).collect(),
        );
    }
    v
}

fn block_json(b: &Block) -> serde_json::Value {
    match b {
        Block::Root(kind, n) => {
            let mut v = node_json(n);
            v["kind"] = serde_json::json!(match kind {
                RootKind::Key => "key",
                RootKind::Try => "try",
                RootKind::Premature => "premature",
            });
            v
        }
        Block::Lines(ls) => serde_json::json!({"lines": ls.iter().map(|l| l.trim()).collect::<Vec<_>>()}),
        Block::Progress(l) => serde_json::json!({"progress": l.trim()}),
    }
}
