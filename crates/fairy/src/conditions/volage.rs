//! Volage: a unit other than a king (or a royal unit of another kind) changes colour (white ↔ black) the first time it
//! moves, capturing or not, to a square of the other colour than the one it left; it
//! then keeps its new colour for good. The volage property is a unit attribute
//! ([`VOLAGE`]) the condition gives every non-king unit of the diagram and the unit loses
//! when it changes colour. Without the condition, the attribute may be given to single
//! units (Popeye's piece attribute `Volage`, as in `Pieces White Volage Rd1`): then only
//! those units change colour ([`Volage::attribute_only`]).
//!
//! A rook that turns white on a1/h1 (black on a8/h8) gains the castling right of its
//! corner (as in Anti-Andernach; Popeye gives the right to any rook changing colour there).
//!
//! Decisions: the rook of a castling is not "the unit that moves" (Popeye's output: `0-0-0`
//! without colour change); a neutral unit has no other colour and is not affected; only the
//! unit standing on the arrival square is considered, and conditions that move or remove
//! the capturer (Anticirce, Kamikaze...) are refused.

use crate::position::{ROYAL, Unit, VOLAGE};
use crate::rules::{Capabilities, Condition, Note, Play, Reject, RuleSet, RulesError, Slot};
use crate::walk::KING;
use chimere_core::{Colour, Square};

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
    fn capabilities(&self) -> Capabilities {
        Capabilities { slots: vec![Slot::AfterMove], diagram_attrs: self.every_unit, ..Capabilities::default() }
    }
    fn merged_with(&self, other: &dyn Condition) -> Option<std::sync::Arc<dyn Condition>> {
        let o = (other as &dyn std::any::Any).downcast_ref::<Volage>()?;
        Some(std::sync::Arc::new(Volage { every_unit: self.every_unit || o.every_unit }))
    }
    fn diagram_attrs(&self, u: Unit) -> u8 {
        if u.kind() == KING || u.has(ROYAL) || !self.every_unit { 0 } else { VOLAGE }
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
        if from.is_light() != to.is_light() {
            recolour(play, to);
        }
        // A unit reborn (Circe) moved from the capture square to its rebirth square: it
        // changes colour too when the two squares differ in colour (Popeye:
        // `Ra8*a7=w[+wPa2=b]`).
        if let Some(c) = play.mv.capture {
            let reborn: arrayvec::ArrayVec<Square, 4> = play
                .notes
                .iter()
                .filter_map(|n| match *n {
                    Note::Reborn { sq, .. } if sq.is_light() != c.is_light() => Some(sq),
                    _ => None,
                })
                .collect();
            for sq in reborn {
                recolour(play, sq);
            }
        }
        Ok(())
    }
}

/// Turns the volage unit on `sq` (not a king, royal or neutral unit) to the other colour
/// for good, noting it.
fn recolour(play: &mut Play, sq: Square) {
    let Some(u) = play.pos.unit(sq) else { return };
    if !u.has(VOLAGE) || u.kind() == KING || u.has(ROYAL) {
        return;
    }
    let colour = match u.colour() {
        Colour::White => Colour::Black,
        Colour::Black => Colour::White,
        Colour::Shared => return,
    };
    play.pos.remove(sq);
    let turned = Unit { attrs: u.attrs & !VOLAGE, ..u.with_colour(colour) };
    play.pos.add(sq, turned);
    play.regain_rights(sq, turned);
    play.note(Note::Recoloured { sq, unit: u, colour });
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;
    use crate::notation::move_with_check;
    use chimere_core::Colour;

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

    fn moves(g: &mut crate::Game) -> Vec<String> {
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut t: Vec<String> = v.iter().filter_map(|m| move_with_check(g, m)).collect();
        t.sort();
        t
    }

    fn play(g: &mut crate::Game, text: &str) {
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let m = *v.iter().find(|m| move_with_check(g, m).as_deref() == Some(text)).expect(text);
        g.make(&m).unwrap();
    }

    #[test]
    fn a_promoted_unit_stays_volage() {
        // White Ka1 Pb7, black Ra8 Kh6. b7*a8=Q goes light to light: no change, and the
        // queen keeps the pawn's volage property (Popeye keeps the flags on promotion).
        // After Kh6-h5, the queen's first change of square colour turns it black:
        // Qa8-b8 (light to dark) =b, Qa8-a7 (light to dark) =b; Qa8-b7 (light to light)
        // stays white.
        let mut g = game_from_fen("r7/1P6/7k/8/8/8/8/K7 w - - 0 1", &["volage"]).unwrap();
        play(&mut g, "b7*a8=Q");
        play(&mut g, "Kh6-h5");
        let t = moves(&mut g);
        for m in ["Qa8-b8=b", "Qa8-b7"] {
            assert!(t.contains(&m.to_string()), "{m}: {t:?}");
        }
        assert!(!t.iter().any(|m| m.starts_with("Qa8-a7")), "{t:?}");
    }

    #[test]
    fn a_reborn_unit_stays_volage() {
        // Volage + Circe: White Rd1*d5 (light to light: the rook stays white) takes the
        // black knight, reborn on g8 (the knight's home square of d5's colour) still
        // volage. Black then has: the king's three moves, and every knight move, which
        // always changes square colour, so Sg8-e7, -f6, -h6 all turn the knight white.
        let mut g = game_from_fen("k7/8/8/3n4/8/8/8/3R3K w - - 0 1", &["volage", "circe"]).unwrap();
        play(&mut g, "Rd1*d5[+bSg8]");
        assert_eq!(moves(&mut g), vec!["Ka8-a7", "Ka8-b7", "Ka8-b8", "Sg8-e7=w", "Sg8-f6=w", "Sg8-h6=w"]);
    }

    #[test]
    fn a_unit_reborn_on_a_square_of_the_other_colour_turns() {
        // Volage + Circe: White Kb1 Pa7, black Ra8 Kh8. Ra8*a7 (light to dark) turns the
        // rook white; the white pawn taken on a7 (dark) is reborn on a2 (light): it moved
        // to a square of the other colour, so it turns black, and checks the white king.
        let mut g = game_from_fen("r6k/P7/8/8/8/8/8/1K6 b - - 0 1", &["volage", "circe"]).unwrap();
        let t = moves(&mut g);
        assert!(t.contains(&"Ra8*a7=w[+wPa2=b] +".to_string()), "{t:?}");
        play(&mut g, "Ra8*a7=w[+wPa2=b] +");
        assert_eq!(g.pos.unit(chimere_core::Square::parse("a2").unwrap()).map(|u| u.colour()), Some(Colour::Black));
    }

    #[test]
    fn a_rook_turned_black_on_h8_gives_black_castling() {
        // White Ka1 Rh7, black Ke8 (with its right, no rook on h8: no kingside right yet).
        // Rh7-h8 (light to dark) turns the rook black on h8: Black gains the h8 right
        // (Popeye enables the right of a rook changing colour on its corner) and may
        // castle 0-0 (f8, g8 empty and not attacked: the white king is on a1).
        let mut g = game_from_fen("4k3/7R/8/8/8/8/8/K7 w k - 0 1", &["volage"]).unwrap();
        assert_eq!(g.pos.rights() & crate::position::B_KINGSIDE, 0);
        play(&mut g, "Rh7-h8=b");
        assert_ne!(g.pos.rights() & crate::position::B_KINGSIDE, 0);
        assert!(moves(&mut g).contains(&"0-0".to_string()));
    }

    #[test]
    fn a_royal_unit_is_not_volage() {
        // A royal queen (Popeye's Royal attribute) on e1 is White's king: the condition
        // does not make it volage, so rQe1-e2 (dark to light) keeps it white.
        use chimere_core::Square;
        let mut pos = crate::position_from_fen("k7/8/8/8/8/8/8/4Q3 w - - 0 1").unwrap();
        pos.setup_attrs(Square::parse("e1").unwrap(), crate::position::ROYAL);
        let conds = crate::conditions::by_name("volage").unwrap();
        let rules = crate::RuleSet::build(conds, &[]).unwrap();
        let mut g = crate::Game::new(rules, pos);
        let t = moves(&mut g);
        assert!(t.contains(&"rQe1-e2".to_string()), "{t:?}");
        assert!(!t.iter().any(|m| m.contains("=b")), "{t:?}");
    }
}
