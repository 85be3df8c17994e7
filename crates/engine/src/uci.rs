//! The UCI protocol (`chimere uci`), per `spec/play.md` §3 and `spec/uci-notation.md`.
//!
//! Commands are read line by line on one thread; a search runs on its own thread, so that
//! `stop`, `isready` and `quit` are answered at once. Every line is accepted: what is not
//! understood is ignored (or answered with an `info string`), never a crash.

use crate::pos::Api;
use crate::search::{self, History, Info, Memory, Numbers, Score, Settings, Shared};
use crate::time::Limits;
use crate::tt::Tt;
use chimere_core::{Game, GameOptions};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// The variants offered by `UCI_Variant`: the registry's list.
pub fn variants() -> Vec<&'static str> {
    chimere_rules::names()
}

/// A shared writer: one line at a time, flushed.
#[derive(Clone)]
pub struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    pub fn new(w: Box<dyn Write + Send>) -> Out {
        Out(Arc::new(Mutex::new(w)))
    }
    pub fn line(&self, s: &str) {
        let mut w = match self.0.lock() {
            Ok(w) => w,
            Err(poisoned) => poisoned.into_inner(),
        };
        let _ = writeln!(w, "{s}");
        let _ = w.flush();
    }
}

/// Option values set by `setoption`.
#[derive(Clone, Debug)]
struct Options {
    variant: String,
    conditions: Vec<String>,
    chess960: bool,
    hash_mb: usize,
    threads: usize,
    level: u8,
    limit_strength: bool,
    elo: u32,
    multipv: usize,
    overhead: u64,
    numbers: Numbers,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            variant: "chess".into(),
            conditions: Vec::new(),
            chess960: false,
            hash_mb: 16,
            threads: 1,
            level: 8,
            limit_strength: false,
            elo: MAX_ELO,
            multipv: 1,
            overhead: 10,
            numbers: Numbers::Current,
        }
    }
}

const MIN_ELO: u32 = 800;
const MAX_ELO: u32 = 2600;

impl Options {
    /// The playing level: `Level`, or `UCI_Elo` when `UCI_LimitStrength` is on (a rough
    /// mapping: 800 → 1, +250 per level, 2550 and above → 8).
    fn effective_level(&self) -> u8 {
        let from_elo =
            if self.limit_strength { (1 + (self.elo.saturating_sub(MIN_ELO)) / 250).min(8) as u8 } else { 8 };
        self.level.min(from_elo).max(1)
    }
}

/// `position` as given: a FEN (or the start) and the move tokens.
#[derive(Clone, Debug, Default)]
struct Setup {
    fen: Option<String>,
    moves: Vec<String>,
}

/// Something generic over the variant type, run on the game the registry builds for the
/// variant chosen at run time.
trait Job {
    type Output;
    fn run<V: Api>(self, game: Game<V>) -> Self::Output;
}

/// Runs `job` on the game of `variant` (with fairy conditions for chess) at `fen` or the
/// start.
fn dispatch<J: Job>(
    variant: &str,
    conditions: &[String],
    chess960: bool,
    fen: Option<&str>,
    job: J,
) -> Result<J::Output, String> {
    let opts = GameOptions { conditions: conditions.to_vec(), chess960, ..GameOptions::default() };
    let kind = chimere_rules::VariantKind::parse(variant)?;
    let rules = chimere_rules::Rules::of(kind, &opts);
    chimere_rules::with_rules!(rules, V => {
        let game = match fen {
            Some(f) => Game::<V>::from_fen(opts, f),
            None => Game::<V>::new(opts),
        };
        game.map(|g| job.run(g)).map_err(|e| e.to_string())
    })
}

/// Plays the setup's move tokens; stops at the first one that is not a legal turn.
fn play_moves<V: Api>(game: &mut Game<V>, moves: &[String]) -> Vec<String> {
    let mut errors = Vec::new();
    for tok in moves {
        if let Err(e) = game.play(tok) {
            errors.push(format!("move `{tok}`: {e}; it and the moves after it are ignored"));
            break;
        }
    }
    errors
}

/// The search's view of a game's history.
fn history<V: Api>(game: &Game<V>) -> History {
    let h = game.hashes();
    History { hashes: h[..h.len().saturating_sub(1)].to_vec(), halfmove: game.fifty_count() }
}

/// Checks a setup for the current variant (answers with `info string` on problems).
struct Check<'a> {
    moves: &'a [String],
}

impl Job for Check<'_> {
    type Output = Vec<String>;
    fn run<V: Api>(self, mut game: Game<V>) -> Self::Output {
        play_moves(&mut game, self.moves)
    }
}

/// A search on its own thread.
struct Go {
    setup: Setup,
    limits: Limits,
    settings: Settings,
    tt: Arc<Tt>,
    memory: Arc<Memory>,
    stop: Arc<AtomicBool>,
    release: Arc<AtomicBool>,
    out: Out,
}

impl Job for Go {
    type Output = std::io::Result<JoinHandle<()>>;
    fn run<V: Api>(self, game: Game<V>) -> Self::Output {
        std::thread::Builder::new().stack_size(64 << 20).spawn(move || run_search::<V>(self, game))
    }
}

fn format_info(i: &Info) -> String {
    let score = match i.score {
        Score::Cp(c) => format!("cp {c}"),
        Score::Mate(m) => format!("mate {m}"),
    };
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {}",
        i.depth, i.seldepth, i.multipv, score, i.nodes, i.nps, i.hashfull, i.time_ms
    );
    if !i.pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&i.pv.join(" "));
    }
    s
}

fn run_search<V: Api>(go: Go, mut game: Game<V>) {
    let out = go.out.clone();
    let mut best_line = "bestmove (none)".to_string();
    play_moves(&mut game, &go.setup.moves);
    let hist = history(&game);
    let pos = game.position().clone();
    let shared = Shared::new(go.tt.clone(), go.stop.clone()).with_memory(go.memory.clone());
    let o = search::search(&pos, &hist, &go.limits, &go.settings, &shared, &mut |i| out.line(&format_info(i)));
    if let Some(m) = o.best {
        let mut p = pos.clone();
        let t = search::token(&mut p, &m, go.settings.chess960).unwrap_or_else(|| pos.uci(&m, go.settings.chess960));
        best_line = format!("bestmove {t}");
        if o.pv.len() >= 2 {
            best_line.push_str(&format!(" ponder {}", o.pv[1]));
        }
    }
    // `go infinite` (and ponder): the answer waits for `stop`.
    if go.limits.infinite {
        while !go.release.load(Relaxed) {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
    out.line(&best_line);
}

/// The protocol state.
pub struct Uci {
    out: Out,
    opts: Options,
    setup: Setup,
    tt: Arc<Tt>,
    memory: Arc<Memory>,
    running: Option<(JoinHandle<()>, Arc<AtomicBool>, Arc<AtomicBool>)>,
    searches: u64,
}

impl Uci {
    pub fn new(out: Out) -> Uci {
        Uci {
            out,
            opts: Options::default(),
            setup: Setup::default(),
            tt: Arc::new(Tt::new(16)),
            memory: Arc::default(),
            running: None,
            searches: 0,
        }
    }

    /// Reads commands until `quit` or the end of the input.
    pub fn run(&mut self, input: &mut dyn BufRead) {
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&buf);
            if !self.command(&line) {
                break;
            }
        }
        self.stop_search();
    }

    fn info(&self, s: &str) {
        self.out.line(&format!("info string {s}"));
    }

    /// Handles one line; false on `quit`.
    pub fn command(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else { return true };
        let rest = &words[1..];
        match cmd {
            "uci" => self.identify(),
            "isready" => self.out.line("readyok"),
            "ucinewgame" => {
                self.stop_search();
                self.tt.clear();
                self.memory.clear();
            }
            "setoption" => self.set_option(rest),
            "position" => self.position(rest),
            "go" => self.go(rest),
            "stop" => self.stop_search(),
            "ponderhit" => {
                // Pondering is searched as `infinite`; the hit ends it with the move found.
                self.stop_search();
            }
            "quit" => return false,
            "debug" | "register" => {}
            _ => {}
        }
        true
    }

    fn identify(&self) {
        let o = &self.out;
        o.line(&format!("id name Chimere {}", env!("CARGO_PKG_VERSION")));
        o.line("id author the Chimere authors");
        let vars: Vec<String> = variants().iter().map(|v| format!("var {v}")).collect();
        o.line(&format!("option name UCI_Variant type combo default chess {}", vars.join(" ")));
        o.line("option name Conditions type string default <empty>");
        o.line("option name UCI_Chess960 type check default false");
        o.line("option name Hash type spin default 16 min 1 max 4096");
        o.line("option name Threads type spin default 1 min 1 max 64");
        o.line("option name Level type spin default 8 min 1 max 8");
        o.line("option name UCI_LimitStrength type check default false");
        o.line(&format!("option name UCI_Elo type spin default {MAX_ELO} min {MIN_ELO} max {MAX_ELO}"));
        o.line("option name MultiPV type spin default 1 min 1 max 256");
        o.line("option name Move Overhead type spin default 10 min 0 max 5000");
        o.line("option name Evaluation type combo default current var current var hand-set");
        o.line("uciok");
    }

    fn set_option(&mut self, rest: &[&str]) {
        let vpos = rest.iter().position(|w| w.eq_ignore_ascii_case("value"));
        let name_end = vpos.unwrap_or(rest.len());
        if rest.first().is_none_or(|w| !w.eq_ignore_ascii_case("name")) {
            return;
        }
        let name = rest[1..name_end].join(" ").to_ascii_lowercase();
        let value = vpos.map(|p| rest[p + 1..].join(" ")).unwrap_or_default();
        let num = |lo: u64, hi: u64| value.trim().parse::<u64>().ok().map(|v| v.clamp(lo, hi));
        let flag = value.trim().eq_ignore_ascii_case("true");
        match name.as_str() {
            "uci_variant" => {
                if let Some(kind) = chimere_rules::VariantKind::from_name(&value) {
                    self.stop_search();
                    self.opts.variant = kind.name().to_string();
                    self.setup = Setup::default();
                    self.memory.clear();
                } else {
                    self.info(&format!("unknown variant `{}`", value.trim()));
                }
            }
            "conditions" => {
                let v = value.trim();
                self.opts.conditions = if v.is_empty() || v == "<empty>" {
                    Vec::new()
                } else {
                    v.split(',').map(|c| c.trim().to_string()).filter(|c| !c.is_empty()).collect()
                };
                // Other rules: the kept history of turns means something else.
                self.memory.clear();
            }
            "uci_chess960" => self.opts.chess960 = flag,
            "hash" => {
                if let Some(mb) = num(1, 4096) {
                    self.stop_search();
                    self.opts.hash_mb = mb as usize;
                    self.tt = Arc::new(Tt::new(self.opts.hash_mb));
                }
            }
            "threads" => {
                if let Some(n) = num(1, 64) {
                    self.opts.threads = n as usize;
                }
            }
            "level" => {
                if let Some(n) = num(1, 8) {
                    self.opts.level = n as u8;
                }
            }
            "uci_limitstrength" => self.opts.limit_strength = flag,
            "uci_elo" => {
                if let Some(n) = num(MIN_ELO as u64, MAX_ELO as u64) {
                    self.opts.elo = n as u32;
                }
            }
            "multipv" => {
                if let Some(n) = num(1, 256) {
                    self.opts.multipv = n as usize;
                }
            }
            "move overhead" => {
                if let Some(n) = num(0, 5000) {
                    self.opts.overhead = n;
                }
            }
            "evaluation" => match value.trim().to_ascii_lowercase().as_str() {
                "current" => self.opts.numbers = Numbers::Current,
                "hand-set" => self.opts.numbers = Numbers::HandSet,
                v => self.info(&format!("unknown evaluation `{v}` (current, hand-set)")),
            },
            _ => {}
        }
    }

    fn position(&mut self, rest: &[&str]) {
        let mut setup = Setup::default();
        let moves_at = rest.iter().position(|w| *w == "moves");
        let head = &rest[..moves_at.unwrap_or(rest.len())];
        match head.first() {
            Some(&"startpos") => {}
            Some(&"fen") if head.len() > 1 => setup.fen = Some(head[1..].join(" ")),
            _ => {
                self.info("position: expected `startpos` or `fen <FEN>`");
                return;
            }
        }
        if let Some(p) = moves_at {
            setup.moves = rest[p + 1..].iter().map(|s| s.to_string()).collect();
        }
        let check = Check { moves: &setup.moves };
        match dispatch(&self.opts.variant, &self.opts.conditions, self.opts.chess960, setup.fen.as_deref(), check) {
            Err(e) => {
                self.info(&format!("position refused: {e}"));
                return;
            }
            Ok(errors) => {
                for e in errors {
                    self.info(&e);
                }
            }
        }
        self.setup = setup;
    }

    fn go(&mut self, rest: &[&str]) {
        self.stop_search();
        let mut limits = Limits::default();
        let mut i = 0;
        let num = |i: usize| rest.get(i + 1).and_then(|v| v.parse::<i64>().ok()).map(|v| v.max(0) as u64);
        while i < rest.len() {
            match rest[i] {
                "depth" => limits.depth = num(i).map(|v| v.min(1000) as u32),
                "nodes" => limits.nodes = num(i),
                "movetime" => limits.movetime = num(i),
                "wtime" => limits.wtime = num(i),
                "btime" => limits.btime = num(i),
                "winc" => limits.winc = num(i),
                "binc" => limits.binc = num(i),
                "movestogo" => limits.movestogo = num(i).map(|v| v.min(1000) as u32),
                "infinite" | "ponder" => limits.infinite = true,
                _ => {}
            }
            i += 1;
        }
        self.searches += 1;
        let settings = Settings {
            threads: self.opts.threads,
            multipv: self.opts.multipv,
            level: self.opts.effective_level(),
            overhead_ms: self.opts.overhead,
            chess960: self.opts.chess960,
            use_tt: true,
            seed: self.searches.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ std::process::id() as u64,
            numbers: self.opts.numbers,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let release = Arc::new(AtomicBool::new(false));
        let job = Go {
            setup: self.setup.clone(),
            limits,
            settings,
            tt: self.tt.clone(),
            memory: self.memory.clone(),
            stop: stop.clone(),
            release: release.clone(),
            out: self.out.clone(),
        };
        let (variant, conditions, fen) =
            (self.opts.variant.clone(), self.opts.conditions.clone(), self.setup.fen.clone());
        match dispatch(&variant, &conditions, self.opts.chess960, fen.as_deref(), job) {
            Ok(Ok(handle)) => self.running = Some((handle, stop, release)),
            Ok(Err(e)) => {
                self.info(&format!("cannot start a search: {e}"));
                self.out.line("bestmove (none)");
            }
            Err(e) => {
                self.info(&e);
                self.out.line("bestmove (none)");
            }
        }
    }

    /// Stops the running search, if any, and waits for its `bestmove`.
    fn stop_search(&mut self) {
        if let Some((handle, stop, release)) = self.running.take() {
            stop.store(true, Relaxed);
            release.store(true, Relaxed);
            let _ = handle.join();
        }
    }
}

/// Runs the protocol on standard input and output.
pub fn run_stdio() {
    let out = Out::new(Box::new(std::io::stdout()));
    let mut uci = Uci::new(out);
    let stdin = std::io::stdin();
    let mut lock = stdin.lock();
    uci.run(&mut lock);
}

/// CPU time of the calling thread, seconds (Linux), so that a busy machine does not
/// distort the bench's rates.
fn thread_cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

/// A fixed-depth search of one position on the calling thread (for `chimere bench`):
/// nodes, and seconds of CPU time (wall-clock time where the system does not say).
pub fn bench_search(variant: &str, fen: &str, depth: u32) -> Result<(u64, f64), String> {
    struct Bench {
        depth: u32,
    }
    impl Job for Bench {
        type Output = (u64, f64);
        fn run<V: Api>(self, game: Game<V>) -> Self::Output {
            let shared = Shared::new(Arc::new(Tt::new(16)), Arc::new(AtomicBool::new(false)));
            let limits = Limits { depth: Some(self.depth), ..Limits::default() };
            let t = std::time::Instant::now();
            let cpu = thread_cpu_seconds();
            let o = search::search(
                game.position(),
                &History::default(),
                &limits,
                &Settings::default(),
                &shared,
                &mut |_| {},
            );
            let secs = match (cpu, thread_cpu_seconds()) {
                (Some(a), Some(b)) => b - a,
                _ => t.elapsed().as_secs_f64(),
            };
            (o.nodes, secs)
        }
    }
    dispatch(variant, &[], false, Some(fen), Bench { depth })
}
