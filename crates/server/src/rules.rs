//! The rules as the server uses them: the common game API (`chimere_core::DynGame`,
//! created by name through the registry `chimere_rules::create`).

pub use chimere_core::{DynGame, EndReason, Outcome, PlayError, TurnText};
pub use chimere_rules::{create, names};

/// Whether fairy conditions can be played (chess under conditions, through the registry).
pub const CONDITIONS: bool = true;
