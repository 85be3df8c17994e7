//! The computer opponent as the server sees it: something that chooses a turn for a game
//! at a level (1-8) within a time. [`EngineBot`] is Chimère's engine
//! (`chimere_engine::play::choose`), which rebuilds the game from its start position and
//! turns so that its search knows the history (repetitions).

use crate::rules::DynGame;
use std::time::Duration;

/// Chooses the computer's turn.
pub trait Bot: Send + Sync {
    /// A legal turn (any text `DynGame::play` accepts) for the side to move, or `None` when
    /// there is none. `game` may be changed freely: it is the bot's own copy.
    fn choose(&self, game: &mut dyn DynGame, level: u8, budget: Duration) -> Option<String>;
}

/// The engine of `chimere-engine`.
pub struct EngineBot;

impl Bot for EngineBot {
    fn choose(&self, game: &mut dyn DynGame, level: u8, budget: Duration) -> Option<String> {
        let moves: Vec<String> = game.history().into_iter().map(|t| t.canonical).collect();
        match chimere_engine::play::choose(
            game.variant(),
            game.options().clone(),
            game.start_fen(),
            &moves,
            level,
            budget,
        ) {
            Ok(turn) => turn,
            Err(e) => {
                eprintln!("the computer could not choose a turn: {e}");
                None
            }
        }
    }
}

/// The computer player of this build.
pub fn default_bot() -> Option<std::sync::Arc<dyn Bot>> {
    Some(std::sync::Arc::new(EngineBot))
}
