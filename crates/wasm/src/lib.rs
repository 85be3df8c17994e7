//! # Chimère in the browser
//!
//! The rules of every variant and the engine, compiled to WebAssembly (`wasm32-unknown-unknown`,
//! glue by wasm-bindgen; built by `web/wasm/build.sh`, the result checked in under
//! `crates/server/assets/wasm/`). The page's Web Worker holds a [`WasmGame`] for legal turns,
//! play and undo, and a [`WasmAnalysis`] it steps in slices so a stop or a new position is
//! read between two slices. Values cross as JSON text whose shapes are the serde types of
//! [`session`] and [`analysis`] (mirrored by `web/src/analysis/wasm-types.ts`), and of
//! [`solve`] (the problem solver: `web/src/problems/wasm-types.ts`).
//!
//! Everything here is plain Rust tested natively; the `#[wasm_bindgen]` layer only
//! converts.

pub mod analysis;
pub mod session;
pub mod solve;

use analysis::Analysis;
use session::{Options, Session};
use wasm_bindgen::prelude::*;

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// The perft depth the speed comparison (`examples/bench.rs`, `web/wasm/bench.mjs`) uses
/// for a bench position of `variant` whose own depth is `depth`: about a second natively.
pub fn bench_depth(variant: &str, depth: u32) -> u32 {
    match variant {
        "dynamo" => depth.min(3),
        "checkered" | "interweave" | "fugue" => depth.min(4),
        _ => depth.min(5),
    }
}

/// [`bench_depth`] for the page.
#[wasm_bindgen(js_name = benchDepth)]
pub fn bench_depth_js(variant: &str, depth: u32) -> u32 {
    bench_depth(variant, depth)
}

/// The bench positions as JSON: `[{variant, conditions, label, fen, depth}]`.
#[wasm_bindgen(js_name = benchPositions)]
pub fn bench_positions() -> String {
    let v: Vec<_> = chimere_rules::BENCH
        .iter()
        .map(|b| {
            serde_json::json!({
                "variant": b.variant.name(), "conditions": b.conditions, "label": b.label, "fen": b.fen, "depth": b.depth,
            })
        })
        .collect();
    json(&v)
}

/// The registered variants' names, as a JSON array.
#[wasm_bindgen]
pub fn variants() -> String {
    json(&chimere_rules::names())
}

/// The position editor's form of a position (`fen` empty: the start), as JSON of
/// `chimere_rules::setup::Position`.
#[wasm_bindgen(js_name = setupOf)]
pub fn setup_of(variant: &str, options: &str, fen: &str) -> Result<String, JsError> {
    let options = Options::from_json(options).map_err(|e| JsError::new(&e))?;
    session::setup_of(variant, &options, Some(fen)).map(|p| json(&p)).map_err(|e| JsError::new(&e))
}

/// A position set up by hand (`position`: JSON of `chimere_rules::setup::Position`),
/// checked by the rules: JSON `{"fen": …}` or `{"refused": "<why, in words>"}`.
#[wasm_bindgen(js_name = setupFen)]
pub fn setup_fen(variant: &str, options: &str, position: &str) -> Result<String, JsError> {
    let options = Options::from_json(options).map_err(|e| JsError::new(&e))?;
    session::setup_fen(variant, &options, position).map(|r| json(&r)).map_err(|e| JsError::new(&e))
}

/// A game of any variant.
#[wasm_bindgen]
pub struct WasmGame(Session);

#[wasm_bindgen]
impl WasmGame {
    /// `options`: JSON of [`Options`] (`""` for the defaults); `fen`: empty for the start.
    /// An error carries the rules' one-line reason.
    #[wasm_bindgen(constructor)]
    pub fn new(variant: &str, options: &str, fen: &str) -> Result<WasmGame, JsError> {
        let options = Options::from_json(options).map_err(|e| JsError::new(&e))?;
        let fen = Some(fen).filter(|f| !f.trim().is_empty());
        Session::new(variant, &options, fen).map(WasmGame).map_err(|e| JsError::new(&e))
    }

    /// The position as JSON ([`session::State`]).
    pub fn state(&mut self) -> String {
        json(&self.0.state())
    }

    pub fn fen(&self) -> String {
        self.0.fen()
    }

    /// Plays a turn (UCI token, canonical form or notation); JSON of the [`session::Turn`].
    pub fn play(&mut self, turn: &str) -> Result<String, JsError> {
        self.0.play(turn).map(|t| json(&t)).map_err(|e| JsError::new(&e))
    }

    /// Takes back the last turn; JSON of it, or `undefined` at the start.
    pub fn undo(&mut self) -> Option<String> {
        self.0.undo().map(|t| json(&t))
    }

    /// Perft leaves (a number: exact below 2^53).
    pub fn perft(&mut self, depth: u32, bulk: bool) -> Result<f64, JsError> {
        self.0.perft(depth, bulk).map(|n| n as f64).map_err(|e| JsError::new(&e))
    }
}

/// The engine's analysis of one position, run in slices.
#[wasm_bindgen]
pub struct WasmAnalysis(Analysis);

#[wasm_bindgen]
impl WasmAnalysis {
    /// The position reached from `fen` (empty: the start) by `moves` (JSON array of turns),
    /// with `multipv` lines (1-5) and a table of `table_mb` MB.
    #[wasm_bindgen(constructor)]
    pub fn new(
        variant: &str,
        options: &str,
        fen: &str,
        moves: &str,
        multipv: u32,
        table_mb: u32,
    ) -> Result<WasmAnalysis, JsError> {
        let options = Options::from_json(options).map_err(|e| JsError::new(&e))?;
        let moves: Vec<String> = if moves.trim().is_empty() {
            Vec::new()
        } else {
            serde_json::from_str(moves).map_err(|e| JsError::new(&format!("bad moves: {e}")))?
        };
        let fen = Some(fen).filter(|f| !f.trim().is_empty());
        Analysis::new(variant, options, fen, moves, multipv as usize, table_mb as usize)
            .map(WasmAnalysis)
            .map_err(|e| JsError::new(&e))
    }

    /// Searches for about `budget_ms` and returns JSON of [`analysis::Step`].
    pub fn step(&mut self, budget_ms: u32) -> String {
        json(&self.0.step(budget_ms as u64))
    }
}

#[wasm_bindgen]
extern "C" {
    /// Where the solver's text goes as it is written: an object with `text(chunk)`.
    #[wasm_bindgen(typescript_type = "{ text(chunk: string): void }")]
    pub type SolveSink;
    #[wasm_bindgen(method)]
    fn text(this: &SolveSink, chunk: &str);
}

/// The pieces, attributes and options the solver knows, as JSON ([`solve::Catalogue`]).
#[wasm_bindgen(js_name = solverCatalogue)]
pub fn solver_catalogue() -> String {
    json(&solve::catalogue())
}

/// A game's fairy condition (a `--condition` name) as Popeye input writes it: JSON of
/// [`solve::ConditionText`].
#[wasm_bindgen(js_name = conditionPopeye)]
pub fn condition_popeye(name: &str) -> String {
    json(&solve::condition_text(name))
}

/// Reads a Popeye input: JSON array of [`solve::Read`] (a problem for the form, or the
/// error naming its line).
#[wasm_bindgen(js_name = readPopeye)]
pub fn read_popeye(input: &str) -> String {
    json(&solve::read(input))
}

/// Solves every problem of a Popeye input on this thread (the page runs it in a Web
/// Worker and terminates the worker to cancel), with a table of `hash_mb` MB; `sink.text`
/// gets the solver's text as it is written. JSON array of [`solve::ProblemResult`].
#[wasm_bindgen(js_name = solvePopeye)]
pub fn solve_popeye(input: &str, hash_mb: u32, sink: &SolveSink) -> String {
    json(&solve::solve(input, hash_mb as usize, &mut |chunk| sink.text(chunk)))
}
