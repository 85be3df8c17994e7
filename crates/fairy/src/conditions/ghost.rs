//! Ghost chess (Fantômes): a captured unit is hidden under the capture square and comes
//! back as soon as the square is empty, after which it cannot be captured.

use crate::position::UNCAPTURABLE;
use crate::rules::{Condition, Play, Reject, Release, Role, Slot};

#[derive(Clone, Debug, Default)]
pub struct Ghost;

impl Condition for Ghost {
    fn name(&self) -> String {
        "GhostChess".into()
    }
    fn slots(&self) -> Vec<Slot> {
        vec![Slot::CapturedFate]
    }
    fn on_capture(&self, play: &mut Play) -> Result<(), Reject> {
        for i in 0..play.victims.len() {
            let v = play.victims[i];
            if v.handled || v.role != Role::Captured {
                continue;
            }
            play.victims[i].handled = true;
            // A captured king is lost, not a ghost.
            if v.unit.kind() == crate::walk::KING || v.unit.has(crate::position::ROYAL) {
                continue;
            }
            if !play.pos.bury(v.sq, v.unit, true) {
                return Err(Reject);
            }
        }
        Ok(())
    }
    fn release(&self) -> Option<Release> {
        Some(Release::Lifo)
    }
    fn released_attrs(&self) -> u8 {
        UNCAPTURABLE
    }
}
