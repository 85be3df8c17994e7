//! Rule sets: conditions composed through a few pipelines whose order is written once in
//! [`RANKS`]. The engine calls only the hooks a rule set registered (lists built once by
//! [`RuleSet::build`]); it names no condition.
//!
//! Pipelines:
//! - **generate**: walks (data) + the `CaptureOrigin` slot (where a unit captures from),
//!   then the `Admit` filters (a pseudo-legal move the condition forbids);
//! - **choices**: one condition may split a move into alternatives (rebirth square, promotion
//!   of a reborn pawn...), carried in [`Move::choice`];
//! - **play**: the base move (removal, arrival, promotion, castling partner), then the
//!   capture consequences by slot rank (`CapturerVanishes`, `CapturerRebirth`,
//!   `CapturedFate`), the `AfterMove` transformations (every move), then the underworld
//!   release and the state fields (castling, en passant);
//! - **observe**: check is "could the opponent remove a royal unit": by attack tables when
//!   every condition allows it, else by playing the opponent's captures of the royal units
//!   — only those of the units that reach a royal square by their walks
//!   ([`Game::capture_candidates`]), and without playing when the condition with the play
//!   consequences can tell the outcome ([`Condition::royal_capture`]).
//!   [`Game::in_check_reference`] keeps the plain "play every capture" as the reference.
//!
//! Modules: `condition` (the contract: slots, ranks, capabilities, hooks), `ruleset`
//! (composition), `play` (the play pipeline), `check` (observation), `game`
//! (generation glue, legality, legal moves, status, perft), `ctx` (what judging hooks
//! may do).

pub use crate::moves::GenParams;
use crate::moves::{self, Move};
use crate::position::{B_KING, B_KINGSIDE, B_QUEENSIDE, W_KING, W_KINGSIDE, W_QUEENSIDE};
use crate::position::{EnPassant, LastMove, Position, ROYAL, Unit};
use crate::walk::{self, KING, PAWN, ROOK};
use arrayvec::ArrayVec;
use chimere_core::{Bitboard, Colour, Kind, Square};
use std::fmt;
use std::sync::Arc;

mod check;
mod condition;
mod ctx;
mod game;
mod play;
mod ruleset;

pub use check::CheckFilter;
use check::*;
pub use condition::*;
pub use ctx::*;
pub use game::*;
pub use play::*;
pub use ruleset::*;
