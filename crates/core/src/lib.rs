//! # Chimère core
//!
//! The machinery every set of rules stands on, naming no variant and no condition:
//! squares and bitboards, attack tables for the standard walks, the generic [`Board`]
//! changed only through reversible [`Effect`]s, the canonical move format, FEN helpers,
//! Zobrist keys, seeded random arrays, the [`Variant`] trait, perft, the stateful [`Game`]
//! over any variant (history, game-level rules, move parsing: the one game API) and its
//! object-safe face [`DynGame`], used by tools and the server to choose rules at run time.

pub mod attacks;
mod bitboard;
mod board;
pub mod canonical;
mod dyn_game;
pub mod fen;
mod perft;
mod piece;
mod play;
pub mod random;
pub mod rng;
pub mod setup;
mod square;
mod variant;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::{Board, Effect};
pub use dyn_game::{DynGame, VariantVisitor};
pub use perft::{MAX_PERFT_DEPTH, Perft, check_perft_depth, perft};
pub use piece::{Colour, Kind, Notation, Piece};
pub use play::{EndReason, Game, Outcome, PlayError, TurnText, parse_turn};
pub use setup::{Dialect, Setup, SetupError, Validation};
pub use square::Square;
pub use variant::{Displacement, GameOptions, GameRules, Repetition, RulesError, Status, Variant};
