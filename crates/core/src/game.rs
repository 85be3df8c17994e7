//! An object-safe face of [`Variant`], so that tools (the CLI, later the server) can pick
//! a variant by name at run time.

use crate::{GameOptions, Perft, RulesError, Status, Variant};
use std::marker::PhantomData;

/// One legal turn, written out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnInfo {
    pub canonical: String,
    pub notation: String,
}

/// What `moves` reports for one position.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub fen: String,
    pub status: Status,
    /// Legal turns, in canonical order (sorted by canonical form).
    pub turns: Vec<TurnInfo>,
}

/// A variant chosen at run time.
pub trait Game: Send + Sync {
    fn name(&self) -> &'static str;
    /// FEN of the starting position for these options.
    fn start_fen(&self, opts: &GameOptions) -> Result<String, RulesError>;
    /// Status and legal turns of a position.
    fn analyse(&self, fen: &str) -> Result<Analysis, RulesError>;
    /// Perft leaf count.
    fn perft(&self, fen: &str, depth: u32, bulk: bool) -> Result<u64, RulesError>;
    /// Perft split by first turn: calls `each(canonical form, leaves)` as each first turn
    /// is counted (in generation order) and returns the total.
    fn divide(&self, fen: &str, depth: u32, bulk: bool, each: &mut dyn FnMut(&str, u64)) -> Result<u64, RulesError>;
}

/// The [`Game`] of a [`Variant`] type.
pub struct VariantGame<V>(PhantomData<fn() -> V>);

impl<V> Default for VariantGame<V> {
    fn default() -> Self {
        VariantGame(PhantomData)
    }
}

impl<V: Variant> Game for VariantGame<V> {
    fn name(&self) -> &'static str {
        V::NAME
    }

    fn start_fen(&self, opts: &GameOptions) -> Result<String, RulesError> {
        Ok(V::new_game(opts)?.fen())
    }

    fn analyse(&self, fen: &str) -> Result<Analysis, RulesError> {
        let mut pos = V::from_fen(fen)?;
        let mut list = Vec::new();
        pos.legal_turns(&mut list);
        let mut turns: Vec<TurnInfo> =
            list.iter().map(|m| TurnInfo { canonical: pos.canonical(m), notation: pos.notation(m) }).collect();
        turns.sort_by(|a, b| a.canonical.cmp(&b.canonical));
        Ok(Analysis { fen: pos.fen(), status: pos.status(), turns })
    }

    fn perft(&self, fen: &str, depth: u32, bulk: bool) -> Result<u64, RulesError> {
        crate::perft::check_perft_depth(depth)?;
        let mut pos = V::from_fen(fen)?;
        Ok(Perft::<V>::default().count(&mut pos, depth, bulk))
    }

    fn divide(&self, fen: &str, depth: u32, bulk: bool, each: &mut dyn FnMut(&str, u64)) -> Result<u64, RulesError> {
        crate::perft::check_perft_depth(depth)?;
        let mut pos = V::from_fen(fen)?;
        Ok(Perft::<V>::default().divide(&mut pos, depth, bulk, each))
    }
}
