//! Popeye's move notation (implemented in [`chimere_fairy::notation`], the fairy engine's
//! readable notation).

pub use chimere_fairy::notation::*;
