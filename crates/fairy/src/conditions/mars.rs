//! Mars Circe and Mars Mirror Circe (Circé maléfique martien): to capture, a unit is first
//! transferred to its rebirth square (Mars: its standard Circe square; Mirror: the standard
//! square of its kind for the opposite colour), which must be empty or its own square, and
//! captures from there. Non-capturing moves are normal; checks are given from the rebirth
//! square too.

use crate::conditions::circe::{ORTHODOX, standard_square};
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
        // The generator hands a neutral unit over in the colour of the side moving it.
        let side = match u.colour() {
            Colour::Shared => pos.side(),
            c => c,
        };
        let s = standard_square(if self.mirror { side.opponent() } else { side }, u.kind(), from, ORTHODOX);
        (s == from || pos.unit(s).is_none()).then_some(s)
    }
}

#[cfg(test)]
mod tests {
    use crate::position::{Position, Unit};
    use crate::walk::{BISHOP, KING};
    use chimere_core::{Colour, Square};

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    /// A neutral bishop on f8 (a dark square) captures for White from c1, White's
    /// dark-square bishop home, so it checks the black king on b2 with Black to move
    /// (for Black it would capture from f8 itself and see nothing of b2).
    #[test]
    fn a_neutral_unit_checks_from_the_checking_sides_square() {
        let mut pos = Position::empty();
        pos.setup_put(sq("e8"), Unit::new(Colour::White, KING));
        pos.setup_put(sq("b2"), Unit::new(Colour::Black, KING));
        pos.setup_put(sq("f8"), Unit::new(Colour::Shared, BISHOP));
        pos.setup_side(Colour::Black);
        let conds = crate::conditions::by_name("circe martien").unwrap();
        let mut g = crate::Game::new(crate::RuleSet::build(conds, &[]).unwrap(), pos);
        assert!(g.in_check(Colour::Black));
        assert!(!g.in_check(Colour::White));
    }
}
