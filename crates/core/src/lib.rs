//! # Chimère core
//!
//! The machinery every set of rules stands on, naming no variant and no condition:
//! squares and bitboards, attack tables for the standard walks, the generic [`Board`]
//! changed only through reversible [`Effect`]s, the canonical move format, FEN helpers,
//! Zobrist keys, seeded random arrays, the [`Variant`] trait, perft, and the object-safe
//! [`Game`] used by tools to choose rules at run time.

pub mod attacks;
mod bitboard;
mod board;
pub mod canonical;
pub mod fen;
mod game;
mod perft;
mod piece;
pub mod random;
pub mod rng;
pub mod setup;
mod square;
mod variant;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::{Board, Effect};
pub use game::{Analysis, Game, TurnInfo, VariantGame};
pub use perft::{MAX_PERFT_DEPTH, Perft, check_perft_depth, perft};
pub use piece::{Colour, Kind, Notation, Piece};
pub use setup::{Dialect, Setup, SetupError, Validation};
pub use square::Square;
pub use variant::{GameOptions, RulesError, Status, Variant};
