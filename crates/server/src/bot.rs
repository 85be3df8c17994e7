//! The computer opponent as the server sees it: something that chooses a turn for a game
//! at a level (1-8) within a time. The engine crate provides the real one; without it the
//! server refuses games against the computer rather than playing random moves.

use crate::rules::DynGame;
use std::time::Duration;

/// Chooses the computer's turn.
pub trait Bot: Send + Sync {
    /// A legal turn (any text `DynGame::play` accepts) for the side to move, or `None` when
    /// there is none. `game` may be changed freely: it is the bot's own copy.
    fn choose(&self, game: &mut dyn DynGame, level: u8, budget: Duration) -> Option<String>;
}

/// The computer player of this build, if any.
pub fn default_bot() -> Option<std::sync::Arc<dyn Bot>> {
    None
}
