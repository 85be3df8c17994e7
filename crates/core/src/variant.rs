//! The contract between the engine and a set of rules.

use std::fmt;

/// Result of a position or game: `*` while it goes on.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Status {
    Ongoing,
    WhiteWins,
    BlackWins,
    Draw,
}

impl Status {
    /// `*`, `1-0`, `0-1` or `1/2`, as in the oracle files.
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Ongoing => "*",
            Status::WhiteWins => "1-0",
            Status::BlackWins => "0-1",
            Status::Draw => "1/2",
        }
    }
    /// The win of `colour` (white or black).
    pub const fn win_for(colour: crate::Colour) -> Status {
        match colour {
            crate::Colour::Black => Status::BlackWins,
            _ => Status::WhiteWins,
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An input the rules refuse: a bad FEN, an unknown option, an unknown move...
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum RulesError {
    /// A FEN field is wrong; names the field and why.
    #[error("bad FEN: {field}: {reason}")]
    Fen { field: &'static str, reason: String },
    /// A game option is wrong.
    #[error("bad option: {0}")]
    Option(String),
    /// Something the rules do not (yet) support.
    #[error("unsupported: {0}")]
    Unsupported(String),
}

impl RulesError {
    pub fn fen(field: &'static str, reason: impl Into<String>) -> RulesError {
        RulesError::Fen { field, reason: reason.into() }
    }
}

/// Options for a new game: randomness of the starting array (0 = standard, 1 = symmetric
/// random, 2 = independent random arrays), its seed, and variant-specific `key=value`
/// parameters (e.g. Checkered's `switch=off`).
#[derive(Clone, Debug, Default)]
pub struct GameOptions {
    pub randomness: u8,
    pub seed: u64,
    pub params: Vec<(String, String)>,
}

impl GameOptions {
    /// The value of parameter `key`, if given.
    pub fn param(&self, key: &str) -> Option<&str> {
        self.params.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// Refuses parameters not in `known`, and randomness above 2.
    pub fn check(&self, known: &[&str]) -> Result<(), RulesError> {
        if self.randomness > 2 {
            return Err(RulesError::Option(format!("randomness must be 0, 1 or 2, not {}", self.randomness)));
        }
        for (k, _) in &self.params {
            if !known.contains(&k.as_str()) {
                let list = if known.is_empty() { "none".to_string() } else { known.join(", ") };
                return Err(RulesError::Option(format!("unknown parameter `{k}` (known: {list})")));
            }
        }
        Ok(())
    }
}

/// A set of rules and a position under them. One implementation per variant folder.
///
/// A *turn* is everything a player does before the opponent moves (one or more parts);
/// [`Variant::Move`] is a whole turn. Generation lists every legal turn; `make` plays one
/// and returns what `unmake` needs to restore the position exactly.
pub trait Variant: Clone + Send + Sync + 'static {
    /// A complete legal turn.
    type Move: Copy + Send + fmt::Debug;
    /// What `unmake` needs besides the move.
    type Undo;

    /// Lower-case variant name (`chess`, `checkered`...).
    const NAME: &'static str;

    /// The starting position for these options.
    fn new_game(opts: &GameOptions) -> Result<Self, RulesError>;
    /// Reads a position (the variant's vchess-style FEN, and any other dialect it accepts).
    fn from_fen(fen: &str) -> Result<Self, RulesError>;
    /// Writes the position in the variant's vchess-style FEN.
    fn fen(&self) -> String;

    /// Appends every legal turn to `out` (which the caller has cleared).
    fn legal_turns(&mut self, out: &mut Vec<Self::Move>);
    /// Plays a legal turn.
    fn make(&mut self, m: &Self::Move) -> Self::Undo;
    /// Takes back the turn last played.
    fn unmake(&mut self, m: &Self::Move, undo: Self::Undo);

    /// Position status under the variant's own end rules (not the game-level draws).
    fn status(&mut self) -> Status;

    /// The turn in canonical form (position before the turn).
    fn canonical(&self, m: &Self::Move) -> String;
    /// The turn in the variant's readable notation (position before the turn).
    fn notation(&self, m: &Self::Move) -> String;

    /// Incremental Zobrist hash of the whole position.
    fn hash(&self) -> u64;
    /// The same hash computed from scratch.
    fn recomputed_hash(&self) -> u64;

    /// Number of legal turns (perft's last ply without playing it). Variants may count
    /// faster than generating.
    fn count_turns(&mut self, scratch: &mut Vec<Self::Move>) -> u64 {
        scratch.clear();
        self.legal_turns(scratch);
        scratch.len() as u64
    }
}
