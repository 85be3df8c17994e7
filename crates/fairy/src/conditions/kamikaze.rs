//! Kamikaze units (a piece attribute): a kamikaze unit that captures disappears together
//! with the captured unit. It becomes a victim the later slots (Circe) may bring back.

//!
//! A capturing kamikaze pawn promotes only when another condition may bring the vanished
//! capturer back (a condition deciding the victims' or the capturer's fate: the Circe
//! family, Ghost chess); otherwise its promotions would be one and the same move.

use crate::position::KAMIKAZE;
use crate::rules::{Capabilities, Condition, Play, Reject, Role, RuleSet, Slot, Victim};
use std::sync::Arc;

#[derive(Clone, Debug, Default)]
pub struct Kamikaze {
    /// Every unit counts as kamikaze, not only those with the attribute.
    pub every_unit: bool,
    /// With `every_unit`: kings too (Kamikaze Rex Inclusiv).
    pub kings_too: bool,
}

impl Kamikaze {
    /// Popeye's piece attribute: only the units that carry [`KAMIKAZE`] in the diagram.
    pub fn attribute_only() -> Kamikaze {
        Kamikaze::default()
    }
    fn applies(&self, u: crate::Unit) -> bool {
        u.has(KAMIKAZE) || (self.every_unit && (self.kings_too || u.kind() != crate::walk::KING))
    }
}

impl Condition for Kamikaze {
    fn name(&self) -> String {
        "Kamikaze".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { slots: vec![Slot::CapturerVanishes], ..Capabilities::default() }
    }
    fn merged_with(&self, other: &dyn Condition) -> Option<Arc<dyn Condition>> {
        let o = (other as &dyn std::any::Any).downcast_ref::<Kamikaze>()?;
        Some(Arc::new(Kamikaze {
            every_unit: self.every_unit || o.every_unit,
            kings_too: self.kings_too || o.kings_too,
        }))
    }
    fn promotes_by_capture(
        &self,
        _pos: &crate::Position,
        _to: chimere_core::Square,
        u: crate::Unit,
        rules: &RuleSet,
    ) -> bool {
        !self.applies(u) || rules.uses_slot(Slot::CapturedFate) || rules.uses_slot(Slot::CapturerRebirth)
    }
    fn on_capture(&self, play: &mut Play) -> Result<(), Reject> {
        let to = play.mv.to;
        if let Some(u) = play.pos.unit(to)
            && self.applies(u)
        {
            play.pos.remove(to);
            let v = Victim { sq: to, unit: u, role: Role::Capturer, handled: false };
            if play.victims.is_full() {
                return Err(Reject);
            }
            play.victims.insert(0, v);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, Move};
    use chimere_core::Square;

    /// White's moves from b7 onto a8 with the kamikaze pawn on b7 and `extra` conditions
    /// beside the attribute.
    fn promotions_onto_a8(extra: &[&str]) -> usize {
        let mut pos = crate::position_from_fen("r6k/1P6/8/8/8/8/8/4K3 w - - 0 1").expect("fen");
        let b7 = Square::from_coords(1, 6);
        pos.setup_attrs(b7, KAMIKAZE);
        let mut conds: Vec<Arc<dyn Condition>> = vec![Arc::new(Kamikaze::attribute_only())];
        for c in extra {
            conds.extend(crate::conditions::by_name(c).expect("condition"));
        }
        let mut g = Game::new(RuleSet::build(conds, &[]).expect("rules"), pos);
        let mut v: Vec<Move> = Vec::new();
        g.legal_moves(&mut v);
        v.iter().filter(|m| m.from == b7 && m.to == Square::from_coords(0, 7)).count()
    }

    /// A capturing kamikaze pawn vanishes: its promotions are one move, unless a condition
    /// may bring it back (Circe reborn as the promoted piece, Anticirce).
    #[test]
    fn a_kamikaze_pawn_promotes_only_when_it_may_come_back() {
        assert_eq!(promotions_onto_a8(&[]), 1);
        assert_eq!(promotions_onto_a8(&["circe"]), 4);
        assert_eq!(promotions_onto_a8(&["anticirce"]), 4);
    }

    /// The attribute beside a condition of the same kind is one condition, the wider.
    #[test]
    fn the_attribute_merges_with_every_unit_kamikaze() {
        let conds: Vec<Arc<dyn Condition>> =
            vec![Arc::new(Kamikaze::attribute_only()), Arc::new(Kamikaze { every_unit: true, kings_too: true })];
        let rules = RuleSet::build(conds, &[]).expect("rules");
        assert_eq!(rules.conditions().len(), 1);
        let k = (&*rules.conditions()[0] as &dyn std::any::Any).downcast_ref::<Kamikaze>().expect("kamikaze");
        assert!(k.every_unit && k.kings_too);
    }
}
