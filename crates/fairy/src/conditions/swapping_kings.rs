//! Swapping Kings: after a move that gives check, the two kings exchange their squares;
//! whether the mover's own king is in check is judged after the exchange. "Gives check"
//! is judged by the attack tables (the opponent's king attacked by the mover's units),
//! so the rule set is refused with conditions that define check otherwise.
//!
//! The royal unit of a side is its king or a unit with the royal attribute (Popeye's
//! `Royal`). Decision: with more or fewer than one royal unit per side nothing is exchanged.
//!
//! Notation: `[Ke8<->Ke1]` after the move, the black royal unit's square first whoever
//! moved, both squares as they were after the move and before the exchange.

use crate::moves::attacked_by;
use crate::position::ROYAL;
use crate::rules::{Capabilities, Condition, Note, Observation, Play, Reject, RuleSet, RulesError, Slot};
use crate::walk::KING;
use chimere_core::{Colour, Square};

#[derive(Clone, Debug, Default)]
pub struct SwappingKings;

impl Condition for SwappingKings {
    fn name(&self) -> String {
        "SwappingKings".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { slots: vec![Slot::AfterMove], ..Capabilities::default() }
    }
    fn after_move(&self, play: &mut Play) -> Result<(), Reject> {
        // The royal unit of each side: a king, or a unit with the royal attribute.
        let royal = |pos: &crate::position::Position, c: Colour| -> Option<Square> {
            let b = pos.board();
            let candidates = if pos.has_royal_attrs() { b.colour(c) } else { b.colour(c) & b.kind(KING) };
            let mut found = None;
            for s in candidates {
                if pos.unit(s).is_some_and(|u| u.kind() == KING || u.has(ROYAL)) {
                    if found.is_some() {
                        return None;
                    }
                    found = Some(s);
                }
            }
            found
        };
        let (Some(m), Some(t)) = (royal(play.pos, play.mover), royal(play.pos, play.mover.opponent())) else {
            return Ok(());
        };
        if !attacked_by(play.pos, play.mover, t, false) {
            return Ok(());
        }
        let um = play.pos.remove(m).ok_or(Reject)?;
        let ut = play.pos.remove(t).ok_or(Reject)?;
        play.pos.add(t, um);
        play.pos.add(m, ut);
        // Written with the black royal unit's square first, whoever moved
        // (`../shared/spec/popeye-format.md`): the squares after the move, before the swap.
        let note = if play.mover == Colour::Black {
            Note::Swapped { a_sq: m, a: um, b_sq: t, b: ut }
        } else {
            Note::Swapped { a_sq: t, a: ut, b_sq: m, b: um }
        };
        play.note(note);
        Ok(())
    }
    fn check_combination(&self, rules: &RuleSet) -> Result<(), RulesError> {
        if rules.observation != Observation::Attack
            || rules.pawn_first_rank_immobile
            || rules.check_rule.is_some()
            || rules.kings_ordinary
        {
            return Err(RulesError(
                "SwappingKings cannot be combined with conditions that change what check is".into(),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;
    use crate::notation::move_with_check;

    #[test]
    fn a_check_swaps_the_kings() {
        // White Rh1-h8 checks the black king on e8: the kings swap (white king to e8, black
        // to e1), and the rook on h8 now guards... nothing of e1: no check mark.
        let mut g = game_from_fen("4k3/8/8/8/8/8/8/4K2R w - - 0 1", &["swapping kings"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let t: Vec<String> = v.iter().filter_map(|m| move_with_check(&mut g, m)).collect();
        assert!(t.contains(&"Rh1-h8[Ke8<->Ke1]".to_string()), "{t:?}");
        assert!(t.contains(&"Rh1-h7".to_string()), "{t:?}");
    }

    #[test]
    fn the_black_kings_square_is_written_first_whoever_moves() {
        // Black Rh8-h1 checks the white king on e1: the kings swap; the black king's square
        // (e8) is written first, as when White checks.
        let mut g = game_from_fen("4k2r/8/8/8/8/8/8/4K3 b - - 0 1", &["swapping kings"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let t: Vec<String> = v.iter().filter_map(|m| move_with_check(&mut g, m)).collect();
        assert!(t.contains(&"Rh8-h1[Ke8<->Ke1]".to_string()), "{t:?}");
        assert!(!t.iter().any(|m| m.contains("[Ke1<->")), "{t:?}");
    }

    #[test]
    fn legality_is_judged_after_the_exchange() {
        // White Kd1 (in check from the black rook d8) Rg1, black Kh8. Without a swap only
        // king moves off the d-file parry the check: Kc1, Ke1, Kc2, Ke2. Rg1-g8 checks h8:
        // the kings swap, the white king lands on h8, where the rook g8 shields it from d8:
        // legal although it did not parry the check on d1. Rg1-h1 also checks h8, but the
        // white king on h8 would then stand in the d8 rook's line: illegal. The other rook
        // moves leave the king in check.
        let mut g = game_from_fen("3r3k/8/8/8/8/8/8/3K2R1 w - - 0 1", &["swapping kings"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut t: Vec<String> = v.iter().filter_map(|m| move_with_check(&mut g, m)).collect();
        t.sort();
        assert_eq!(t, vec!["Kd1-c1", "Kd1-c2", "Kd1-e1", "Kd1-e2", "Rg1-g8[Kh8<->Kd1]"]);
    }

    #[test]
    fn a_royal_unit_swaps_like_a_king() {
        // White's royal unit is a queen with the royal attribute on e1 (no white king);
        // Rh1-h8 checks the black king e8: the royal queen and the black king exchange
        // their squares (queen to e8, king to e1).
        use crate::position::{ROYAL, Unit};
        use crate::walk::{KING, QUEEN};
        use chimere_core::{Colour, Square};
        let mut g = game_from_fen("4k3/8/8/8/8/8/8/4Q2R w - - 0 1", &["swapping kings"]).unwrap();
        g.pos.setup_attrs(Square::parse("e1").unwrap(), ROYAL);
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let m = *v.iter().find(|m| m.to == Square::parse("h8").unwrap()).unwrap();
        let text = move_with_check(&mut g, &m).unwrap();
        assert!(text.starts_with("Rh1-h8[Ke8<->"), "{text}");
        g.make(&m).unwrap();
        assert_eq!(g.pos.unit(Square::parse("e1").unwrap()), Some(Unit::new(Colour::Black, KING)));
        let q = g.pos.unit(Square::parse("e8").unwrap()).unwrap();
        assert!(q.kind() == QUEEN && q.colour() == Colour::White && q.has(ROYAL));
    }
}
