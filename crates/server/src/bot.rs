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

    /// Whether the computer, to move or not, accepts a draw in this position: by its
    /// evaluation from its own side. The default declines.
    fn accepts_draw(&self, game: &mut dyn DynGame, computer_white: bool, level: u8) -> bool {
        let _ = (game, computer_white, level);
        false
    }
}

/// The computer accepts a draw when it judges its own side worse than this (centipawns).
pub const DRAW_BELOW_CP: i32 = -50;

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

    fn accepts_draw(&self, game: &mut dyn DynGame, computer_white: bool, level: u8) -> bool {
        let to_move_white = game.side_to_move() == chimere_core::Colour::White;
        match self.score(game, level) {
            Some(s) => {
                let own = if to_move_white == computer_white { s } else { -s };
                own < DRAW_BELOW_CP
            }
            None => false,
        }
    }
}

impl EngineBot {
    /// The engine's score for the side to move after a short search.
    fn score(&self, game: &mut dyn DynGame, level: u8) -> Option<i32> {
        let moves: Vec<String> = game.history().into_iter().map(|t| t.canonical).collect();
        chimere_engine::play::choose_scored(
            game.variant(),
            game.options().clone(),
            game.start_fen(),
            &moves,
            level.max(4),
            Duration::from_millis(150),
        )
        .ok()
        .map(|(_, s)| s)
    }
}

/// The computer player of this build.
pub fn default_bot() -> Option<std::sync::Arc<dyn Bot>> {
    Some(std::sync::Arc::new(EngineBot))
}
