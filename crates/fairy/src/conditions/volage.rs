//! Volage: a unit other than a king changes colour (white ↔ black) the first time it
//! moves, capturing or not, to a square of the other colour than the one it left; it
//! then keeps its new colour for good. The volage property is a unit attribute
//! ([`VOLAGE`]) the condition gives every non-king unit of the diagram and the unit loses
//! when it changes colour. Without the condition, the attribute may be given to single
//! units (Popeye's piece attribute `Volage`, as in `Pieces White Volage Rd1`): then only
//! those units change colour ([`Volage::attribute_only`]).
//!
//! Decisions: the rook of a castling is not "the unit that moves" (Popeye's output: `0-0-0`
//! without colour change); a neutral unit has no other colour and is not affected; only the
//! unit standing on the arrival square is considered, and conditions that move or remove
//! the capturer (Anticirce, Kamikaze...) are refused.

use crate::position::{Unit, VOLAGE};
use crate::rules::{Condition, Note, Play, Reject, RuleSet, RulesError, Slot};
use crate::walk::KING;
use chimere_core::Colour;

#[derive(Clone, Debug)]
pub struct Volage {
    /// The condition: every non-king unit of the diagram is volage. Otherwise only the
    /// units that carry the attribute in the diagram are.
    pub every_unit: bool,
}

impl Volage {
    /// The condition Volage: every non-king unit of the diagram is volage.
    pub fn condition() -> Volage {
        Volage { every_unit: true }
    }
    /// Only the units with the [`VOLAGE`] attribute in the diagram are volage.
    pub fn attribute_only() -> Volage {
        Volage { every_unit: false }
    }
}

impl Condition for Volage {
    fn name(&self) -> String {
        "Volage".into()
    }
    fn slots(&self) -> Vec<Slot> {
        vec![Slot::AfterMove]
    }
    fn diagram_attrs(&self, u: Unit) -> u8 {
        if u.kind() == KING || !self.every_unit { 0 } else { VOLAGE }
    }
    fn has_diagram_attrs(&self) -> bool {
        self.every_unit
    }
    fn check_combination(&self, rules: &RuleSet) -> Result<(), RulesError> {
        if rules.uses_slot(Slot::CapturerRebirth) || rules.uses_slot(Slot::CapturerVanishes) {
            return Err(RulesError(format!(
                "{} cannot be combined with conditions that take the capturing unit off its arrival square",
                self.name()
            )));
        }
        Ok(())
    }
    fn after_move(&self, play: &mut Play) -> Result<(), Reject> {
        let (from, to) = (play.mv.from, play.mv.to);
        if from.is_light() == to.is_light() {
            return Ok(());
        }
        let Some(u) = play.pos.unit(to) else { return Ok(()) };
        if !u.has(VOLAGE) || u.kind() == KING {
            return Ok(());
        }
        let colour = match u.colour() {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
            Colour::Shared => return Ok(()),
        };
        play.pos.remove(to);
        play.pos.add(to, Unit { attrs: u.attrs & !VOLAGE, ..u.with_colour(colour) });
        play.note(Note::Recoloured { sq: to, unit: u, colour });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;
    use crate::notation::move_with_check;

    #[test]
    fn the_change_happens_once() {
        // White Sb1-c3 (light to dark) turns black; the black knight then moves c3-e4
        // (dark to light) and keeps its colour: the property is spent.
        let mut g = game_from_fen("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", &["volage"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let m = *v.iter().find(|m| m.to.to_string() == "c3").unwrap();
        assert_eq!(move_with_check(&mut g, &m).unwrap(), "Sb1-c3=b");
        g.make(&m).unwrap();
        let mut w = Vec::new();
        g.legal_moves(&mut w);
        let m2 = *w.iter().find(|m| m.to.to_string() == "e4").unwrap();
        assert_eq!(move_with_check(&mut g, &m2).unwrap(), "Sc3-e4");
    }
}
