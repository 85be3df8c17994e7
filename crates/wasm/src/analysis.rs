//! The engine's analysis of a position, run in slices: each [`Analysis::step`] searches
//! for at most a given time and returns, so a Web Worker can read its messages (a stop, a
//! new position) between slices. A slice searches the next depth with the engine's own
//! search ([`chimere_engine::search`]) and the analysis's table: the depths already
//! completed come back from the table at once, and a depth a slice did not complete is
//! taken up again by the next one, the turns it had searched found in the table.

use crate::session::Options;
use chimere_core::Game;
use chimere_engine::pos::Api;
use chimere_engine::search::{History, Info, Score, Settings, Shared};
use chimere_engine::{Limits, Tt};
use chimere_rules::VariantKind;
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Deepest iteration an analysis asks for.
const MAX_DEPTH: u32 = 64;

/// A score for the page: centipawns or mate in moves, from the side to move's view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LineScore {
    Cp(i32),
    Mate(i32),
}

/// One of the best lines at a completed depth.
#[derive(Clone, Debug, Serialize)]
pub struct Line {
    /// 1 = the best line.
    pub rank: usize,
    pub depth: u32,
    pub score: LineScore,
    /// The line as UCI tokens (for the board's arrow and to play it).
    pub uci: Vec<String>,
    /// The line in the variant's notation.
    pub notation: Vec<String>,
}

/// What one slice found.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    /// The deepest completed depth so far.
    pub depth: u32,
    /// The lines of that depth (empty until depth 1 is complete, or with no legal turn).
    pub lines: Vec<Line>,
    /// Whether this slice completed a new depth (the lines changed).
    pub fresh: bool,
    /// Nothing more to search: no legal turn, a mate found for sure, or the deepest depth.
    pub done: bool,
    /// Nodes of this slice, and its time in milliseconds.
    pub nodes: u64,
    pub ms: u64,
}

/// An analysis of the position reached from `fen` by `moves` (the moves give the search
/// the history it needs for repetitions).
pub struct Analysis {
    kind: VariantKind,
    options: Options,
    fen: Option<String>,
    moves: Vec<String>,
    multipv: usize,
    tt: Arc<Tt>,
    /// The depth the next slice completes.
    target: u32,
    depth: u32,
    lines: Vec<Line>,
    done: bool,
    /// For the lines' notation.
    at: crate::session::Session,
}

impl Analysis {
    /// An analysis with `multipv` lines (1-5) and a table of `table_mb` MB; refused (with the
    /// rules' reason) when the position or a move is.
    pub fn new(
        variant: &str,
        options: Options,
        fen: Option<&str>,
        moves: Vec<String>,
        multipv: usize,
        table_mb: usize,
    ) -> Result<Analysis, String> {
        let fen = fen.map(str::trim).filter(|f| !f.is_empty()).map(str::to_string);
        let mut at = crate::session::Session::new(variant, &options, fen.as_deref())?;
        for m in &moves {
            at.play(m).map_err(|e| format!("turn `{m}`: {e}"))?;
        }
        Ok(Analysis {
            kind: VariantKind::parse(variant)?,
            options,
            fen,
            moves,
            multipv: multipv.clamp(1, 5),
            tt: Arc::new(Tt::new(table_mb.max(1))),
            target: 1,
            depth: 0,
            lines: Vec::new(),
            done: false,
            at,
        })
    }

    /// Searches for about `budget_ms` milliseconds (at least one node check) and reports.
    pub fn step(&mut self, budget_ms: u64) -> Step {
        if self.done {
            return self.report(false, 0, 0);
        }
        struct Slice<'a> {
            moves: &'a [String],
            multipv: usize,
            tt: &'a Arc<Tt>,
            target: u32,
            budget_ms: u64,
        }
        struct Found {
            infos: Vec<Info>,
            nodes: u64,
            no_turn: bool,
        }
        impl Slice<'_> {
            fn run<V: Api>(self, mut game: Game<V>) -> Found {
                for m in self.moves {
                    if game.play(m).is_err() {
                        return Found { infos: Vec::new(), nodes: 0, no_turn: true };
                    }
                }
                if game.outcome().is_over() || game.legal_turns().is_empty() {
                    return Found { infos: Vec::new(), nodes: 0, no_turn: true };
                }
                let h = game.hashes();
                let history = History { hashes: h[..h.len().saturating_sub(1)].to_vec(), halfmove: game.fifty_count() };
                let settings = Settings {
                    multipv: self.multipv,
                    chess960: game.options().chess960,
                    overhead_ms: 0,
                    ..Settings::default()
                };
                let limits =
                    Limits { depth: Some(self.target), movetime: Some(self.budget_ms.max(1)), ..Limits::default() };
                let shared = Shared::new(self.tt.clone(), Arc::new(AtomicBool::new(false)));
                let mut infos: Vec<Info> = Vec::new();
                let target = self.target;
                let o = chimere_engine::search(game.position(), &history, &limits, &settings, &shared, &mut |i| {
                    if i.depth == target {
                        infos.push(i.clone());
                    }
                });
                Found { infos, nodes: o.nodes, no_turn: false }
            }
        }
        let started = web_clock();
        let slice = Slice { moves: &self.moves, multipv: self.multipv, tt: &self.tt, target: self.target, budget_ms };
        let opts = self.options.game_options();
        let rules = chimere_rules::Rules::of(self.kind, &opts);
        let fen = self.fen.as_deref();
        let found: Result<Found, String> = chimere_rules::with_rules!(rules, V => {
            let game = match fen {
                Some(f) => Game::<V>::from_fen(opts, f),
                None => Game::<V>::new(opts),
            };
            game.map(|g| slice.run(g)).map_err(|e| e.to_string())
        });
        let found = found.unwrap_or(Found { infos: Vec::new(), nodes: 0, no_turn: true });
        let ms = web_clock().saturating_sub(started);
        if found.no_turn {
            self.done = true;
            return self.report(false, 0, ms);
        }
        let fresh = !found.infos.is_empty();
        if fresh {
            self.depth = self.target;
            self.lines = found
                .infos
                .iter()
                .map(|i| Line {
                    rank: i.multipv,
                    depth: i.depth,
                    score: match i.score {
                        Score::Cp(c) => LineScore::Cp(c),
                        Score::Mate(m) => LineScore::Mate(m),
                    },
                    notation: self.at.notation_of(&i.pv),
                    uci: i.pv.clone(),
                })
                .collect();
            self.target += 1;
            // A mate found for sure at this depth will not change (as the engine judges it).
            let sure_mate = match self.lines.first().map(|l| l.score) {
                Some(LineScore::Mate(m)) => self.depth as i32 > 2 * m.abs() + 2,
                _ => false,
            };
            if sure_mate || self.target > MAX_DEPTH {
                self.done = true;
            }
        }
        self.report(fresh, found.nodes, ms)
    }

    fn report(&self, fresh: bool, nodes: u64, ms: u64) -> Step {
        Step { depth: self.depth, lines: self.lines.clone(), fresh, done: self.done, nodes, ms }
    }
}

/// Milliseconds from an arbitrary start (the engine's clock: `performance.now()` in the
/// browser).
fn web_clock() -> u64 {
    thread_local! {
        static START: std::cell::Cell<Option<web_time::Instant>> = const { std::cell::Cell::new(None) };
    }
    START.with(|s| {
        let start = s.get().unwrap_or_else(|| {
            let now = web_time::Instant::now();
            s.set(Some(now));
            now
        });
        start.elapsed().as_millis() as u64
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(a: &mut Analysis, until_depth: u32) -> Step {
        loop {
            let s = a.step(50);
            if s.done || s.depth >= until_depth {
                return s;
            }
        }
    }

    #[test]
    fn finds_mate_in_one_and_stops() {
        let moves = ["f3", "e5", "g4"].map(String::from).to_vec();
        let mut a = Analysis::new("chess", Options::default(), None, moves, 2, 4).unwrap();
        let s = run(&mut a, 64);
        assert!(s.done);
        assert_eq!(s.lines[0].score, LineScore::Mate(1));
        assert_eq!(s.lines[0].uci[0], "d8h4");
        assert_eq!(s.lines[0].notation[0], "Qh4#");
        assert_eq!(s.lines.len(), 2);
    }

    #[test]
    fn slices_deepen_and_lines_are_legal_in_every_variant() {
        for v in chimere_rules::names() {
            let mut a = Analysis::new(v, Options::default(), None, Vec::new(), 3, 4).unwrap();
            let s = run(&mut a, 3);
            assert!(s.depth >= 3, "{v}: depth {}", s.depth);
            assert_eq!(s.lines.len(), 3, "{v}");
            for l in &s.lines {
                assert_eq!(l.uci.len(), l.notation.len(), "{v}: every token is legal in turn");
            }
        }
    }

    #[test]
    fn a_finished_game_has_nothing_to_search() {
        let moves = ["f3", "e5", "g4", "Qh4"].map(String::from).to_vec();
        let mut a = Analysis::new("chess", Options::default(), None, moves, 1, 1).unwrap();
        let s = a.step(50);
        assert!(s.done && s.lines.is_empty());
        assert!(Analysis::new("chess", Options::default(), None, vec!["e5".into()], 1, 1).is_err());
    }
}
