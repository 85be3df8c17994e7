//! Mars Circe and Mars Mirror Circe (Circé maléfique martien): to capture, a unit is first
//! transferred to its rebirth square (Mars: its standard Circe square; Mirror: the standard
//! square of its kind for the opposite colour), which must be empty or its own square, and
//! captures from there. Non-capturing moves are normal; checks are given from the rebirth
//! square too.

use crate::conditions::circe::standard_square;
use crate::position::{Position, Unit};
use crate::rules::{Capabilities, Condition, Observation, Slot};
use chimere_core::{Colour, Square};

#[derive(Clone, Debug)]
pub struct Mars {
    /// Mirror (maléfique) squares rather than the unit's own.
    pub mirror: bool,
}

/// Mars Mirror Circe.
#[allow(non_upper_case_globals)]
pub const MarsMirror: Mars = Mars { mirror: true };

impl Condition for Mars {
    fn name(&self) -> String {
        if self.mirror { "MarsMirrorCirce".into() } else { "MarsCirce".into() }
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            slots: vec![Slot::CaptureOrigin],
            observation: Observation::KingCaptures,
            ..Capabilities::default()
        }
    }
    fn capture_origin(&self, pos: &Position, from: Square, u: Unit) -> Option<Square> {
        let side = match u.colour() {
            Colour::Shared => pos.side(),
            c => c,
        };
        let s = standard_square(if self.mirror { side.opponent() } else { side }, u.kind(), from);
        (s == from || pos.unit(s).is_none()).then_some(s)
    }
}
