//! Mars Mirror Circe (Circé maléfique martien): to capture, a unit is first transferred to
//! its mirror rebirth square (the standard Circe square of its kind for the opposite
//! colour), which must be empty or its own square, and captures from there. Non-capturing
//! moves are normal; checks are given from the rebirth square too.

use crate::conditions::circe::standard_square;
use crate::position::{Position, Unit};
use crate::rules::{Condition, Observation, Slot};
use chimere_core::{Colour, Square};

#[derive(Clone, Debug, Default)]
pub struct MarsMirror;

impl Condition for MarsMirror {
    fn name(&self) -> String {
        "MarsMirrorCirce".into()
    }
    fn slots(&self) -> Vec<Slot> {
        vec![Slot::CaptureOrigin]
    }
    fn capture_origin(&self, pos: &Position, from: Square, u: Unit) -> Option<Square> {
        let side = match u.colour() {
            Colour::Shared => pos.side(),
            c => c,
        };
        let s = standard_square(side.opponent(), u.kind(), from);
        (s == from || pos.unit(s).is_none()).then_some(s)
    }
    fn observation(&self) -> Observation {
        Observation::KingCaptures
    }
}
