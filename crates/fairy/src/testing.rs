//! Test support shared by the conditions' unit tests.

use crate::rules::{Capabilities, Condition, Observation};

/// The legal moves of `fen` under the named conditions, in Popeye notation with check
/// marks, sorted.
pub fn move_texts(fen: &str, conditions: &[&str]) -> Vec<String> {
    let mut g = crate::game_from_fen(fen, conditions).unwrap_or_else(|e| panic!("{fen} {conditions:?}: {e}"));
    crate::notation::legal_with_texts(&mut g).into_iter().map(|(_, t)| t).collect()
}

/// A condition that only forces check detection to play the opponent's captures: added to
/// a rule set, it gives the reference answer the fast paths must agree with.
#[derive(Debug)]
pub struct PlayCaptures;

impl Condition for PlayCaptures {
    fn name(&self) -> String {
        "play captures".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { observation: Observation::KingCaptures, ..Capabilities::default() }
    }
}

/// The legal moves of `fen` under the named conditions as departure and arrival squares
/// (`e2e4`), sorted.
pub fn move_squares(fen: &str, conditions: &[&str]) -> Vec<String> {
    let mut g = crate::game_from_fen(fen, conditions).unwrap_or_else(|e| panic!("{fen} {conditions:?}: {e}"));
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    let mut out: Vec<String> = v.iter().map(|m| format!("{}{}", m.from, m.to)).collect();
    out.sort();
    out
}
