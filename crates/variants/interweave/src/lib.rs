//! Interweave — not implemented yet (placeholder so the registry and CLI can name it).

use chimere_core::{GameOptions, RulesError, Status, Variant};

/// A Interweave position (placeholder).
#[derive(Clone, Debug)]
pub struct Interweave;

fn unsupported() -> RulesError {
    RulesError::Unsupported("the interweave variant is not implemented yet".into())
}

impl Variant for Interweave {
    type Move = ();
    type Undo = ();
    const NAME: &'static str = "interweave";
    fn new_game(_: &GameOptions) -> Result<Self, RulesError> {
        Err(unsupported())
    }
    fn from_fen(_: &str) -> Result<Self, RulesError> {
        Err(unsupported())
    }
    fn fen(&self) -> String {
        String::new()
    }
    fn legal_turns(&mut self, _: &mut Vec<()>) {}
    fn make(&mut self, _: &()) {}
    fn unmake(&mut self, _: &(), _: ()) {}
    fn status(&mut self) -> Status {
        Status::Ongoing
    }
    fn canonical(&self, _: &()) -> String {
        String::new()
    }
    fn notation(&self, _: &()) -> String {
        String::new()
    }
    fn hash(&self) -> u64 {
        0
    }
    fn recomputed_hash(&self) -> u64 {
        0
    }
}
