//! The rules as the server uses them: the common game API (`chimere_core::DynGame`,
//! created by name through the registry `chimere_rules::create`).

pub use chimere_core::{DynGame, EndReason, Outcome, PlayError, TurnText};
pub use chimere_rules::{VariantKind, create, create_kind, names};
