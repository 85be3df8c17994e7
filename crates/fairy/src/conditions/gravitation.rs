//! Gravitation (no Popeye equivalent): after any move of a unit other than a king or a
//! pawn, that unit falls back one square towards its own side (White: one rank down,
//! Black: one rank up). If that square is occupied, the unit standing there is captured,
//! friend or foe (so a move may capture two units) — except a king: a unit cannot fall onto
//! a king, it stays where it landed. A unit already on its own first rank does not fall;
//! after castling the rook does not fall (it stands on its first rank).
//!
//! Decisions: "a unit other than a king or pawn" is judged on the unit that moved, so a
//! pawn promoting does not fall, and a royal unit of any kind counts as a king; a neutral
//! unit falls towards the side that moved it; the
//! unit considered is the one standing on the arrival square. The fall is written
//! `[wRd5->d4]`, a unit it captures `[-bPd4]` before it. The fall never captures a king,
//! so check stays a matter of attack tables. Refused combinations: conditions that move or
//! remove the capturer (Anticirce, Kamikaze...) and conditions that decide the fate of
//! captured units (Circe, Ghost...: they would not see the fall's capture).

use crate::rules::{Capabilities, Condition, Note, Play, Reject, RuleSet, RulesError, Slot};
use crate::walk::{KING, PAWN};
use chimere_core::Colour;

#[derive(Clone, Debug, Default)]
pub struct Gravitation;

impl Condition for Gravitation {
    fn name(&self) -> String {
        "Gravitation".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { slots: vec![Slot::AfterMove], ..Capabilities::default() }
    }
    fn check_combination(&self, rules: &RuleSet) -> Result<(), RulesError> {
        if rules.uses_slot(Slot::CapturerRebirth) || rules.uses_slot(Slot::CapturerVanishes) {
            return Err(RulesError(format!(
                "{} cannot be combined with conditions that take the capturing unit off its arrival square",
                self.name()
            )));
        }
        if rules.uses_slot(Slot::CapturedFate) {
            return Err(RulesError(format!(
                "{} cannot be combined with conditions deciding a captured unit's fate (a fall's capture would escape them)",
                self.name()
            )));
        }
        Ok(())
    }
    fn after_move(&self, play: &mut Play) -> Result<(), Reject> {
        let k = play.moving.kind();
        if k == KING || k == PAWN || play.moving.has(crate::position::ROYAL) || play.mv.castle.is_some() {
            return Ok(());
        }
        let to = play.mv.to;
        let Some(u) = play.pos.unit(to) else { return Ok(()) };
        let side = if u.colour() == Colour::Shared { play.mover } else { u.colour() };
        let Some(below) = to.offset(0, -side.forward()) else { return Ok(()) };
        if let Some(t) = play.pos.unit(below) {
            if t.kind() == KING || t.has(crate::position::ROYAL) {
                return Ok(());
            }
            play.pos.remove(below);
            play.note(Note::Vanished { sq: below, unit: t });
        }
        play.pos.remove(to);
        play.pos.add(below, u);
        play.note(Note::Transfer { from: to, to: below, unit: u, promo: None });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;
    use crate::notation::move_with_check;
    use chimere_core::Square;

    #[test]
    fn a_royal_unit_does_not_fall() {
        // White's royal unit is a queen with the royal attribute on d4 (no white king),
        // black Ka8. Like a king it does not fall: rQd4-d5 ends on d5 (checking a8 along
        // the diagonal). A plain queen (white Kh1 added) falls back to d4.
        let mut g = game_from_fen("k7/8/8/8/3Q4/8/8/8 w - - 0 1", &["gravitation"]).unwrap();
        g.pos.setup_attrs(Square::parse("d4").unwrap(), crate::position::ROYAL);
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let m = *v.iter().find(|m| m.to == Square::parse("d5").unwrap()).unwrap();
        assert_eq!(move_with_check(&mut g, &m).unwrap(), "rQd4-d5 +");
        let mut g = game_from_fen("k7/8/8/8/3Q4/8/8/7K w - - 0 1", &["gravitation"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let m = *v.iter().find(|m| m.to == Square::parse("d5").unwrap()).unwrap();
        assert_eq!(move_with_check(&mut g, &m).unwrap(), "Qd4-d5[wQd5->d4]");
    }
}
