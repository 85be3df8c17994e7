//! Kamikaze units (a piece attribute): a kamikaze unit that captures disappears together
//! with the captured unit. It becomes a victim the later slots (Circe) may bring back.

use crate::position::KAMIKAZE;
use crate::rules::{Capabilities, Condition, Play, Reject, Role, Slot, Victim};

#[derive(Clone, Debug, Default)]
pub struct Kamikaze {
    /// Another condition may bring the vanished capturer back (Circe): then a capturing
    /// kamikaze pawn still promotes.
    pub capturer_may_return: bool,
    /// Every unit counts as kamikaze, not only those with the attribute.
    pub every_unit: bool,
    /// With `every_unit`: kings too (Kamikaze Rex Inclusiv).
    pub kings_too: bool,
}

impl Kamikaze {
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
    fn promotes_by_capture(&self, _pos: &crate::Position, _to: chimere_core::Square, u: crate::Unit) -> bool {
        self.capturer_may_return || !self.applies(u)
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
