//! A game's rules as chosen in the lobby (variant options, fairy conditions), stored as
//! JSON with the game, and turned into the rules API's options.

use chimere_core::GameOptions;
use serde::{Deserialize, Serialize};

/// The options of one game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Setup {
    /// 0 = standard array, 1 = symmetric random, 2 = independent random arrays.
    pub randomness: u8,
    pub seed: u64,
    /// Variant parameters, e.g. `("switch", "off")` for Checkered.
    pub params: Vec<(String, String)>,
    /// Fairy conditions (chess only), as `chimere moves -c` takes them.
    pub conditions: Vec<String>,
    /// Castling written king-takes-rook in UCI tokens.
    pub chess960: bool,
}

impl Setup {
    /// The rules API's options.
    pub fn options(&self) -> GameOptions {
        GameOptions {
            randomness: self.randomness,
            seed: self.seed,
            params: self.params.clone(),
            conditions: self.conditions.clone(),
            chess960: self.chess960,
        }
    }

    /// A one-line description for lists (`Chess960, circe`).
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.chess960 {
            parts.push("Chess960".to_string());
        } else if self.randomness > 0 {
            parts.push(format!("random {}", self.randomness));
        }
        for (k, v) in &self.params {
            parts.push(format!("{k}={v}"));
        }
        parts.extend(self.conditions.iter().cloned());
        parts.join(", ")
    }
}
