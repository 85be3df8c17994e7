//! Conditions that only redefine check (with orthodox attack tables):
//!
//! - Bicolores (Popeye `Bicolores`): a king is in check when attacked by enemy units OR by
//!   units of its own side; a move may not leave the own king attacked by any unit.
//! - Vogtländer (Popeye `VogtlaenderChess`): a side is "in check" exactly when it attacks
//!   the opponent's king; a move is illegal if after it the mover attacks the enemy king.

use crate::moves;
use crate::rules::{Condition, Game, Slot};
use crate::walk::KING;
use chimere_core::Colour;

/// Does `by` attack a king of colour `side`?
fn king_attacked(game: &Game, side: Colour, by: Colour) -> bool {
    let b = game.pos.board();
    let kings = b.kind(KING) & b.colour(side);
    for s in kings {
        if moves::attacked_by(&game.pos, by, s, game.rules.pawn_first_rank_immobile) {
            return true;
        }
    }
    false
}

#[derive(Clone, Debug, Default)]
pub struct Bicolores;

impl Condition for Bicolores {
    fn name(&self) -> String {
        "Bicolores".into()
    }
    fn slots(&self) -> Vec<Slot> {
        Vec::new()
    }
    fn has_check_rule(&self) -> bool {
        true
    }
    fn check_rule(&self, game: &Game, side: Colour) -> Option<bool> {
        Some(king_attacked(game, side, side.opponent()) || king_attacked(game, side, side))
    }
}

#[derive(Clone, Debug, Default)]
pub struct Vogtlander;

impl Condition for Vogtlander {
    fn name(&self) -> String {
        "Vogtländer".into()
    }
    fn slots(&self) -> Vec<Slot> {
        Vec::new()
    }
    fn has_check_rule(&self) -> bool {
        true
    }
    fn check_rule(&self, game: &Game, side: Colour) -> Option<bool> {
        Some(king_attacked(game, side.opponent(), side))
    }
}

#[cfg(test)]
mod tests {
    use crate::conditions::registry::by_name;
    use crate::rules::RuleSet;

    #[test]
    fn builds_by_name() {
        for n in ["bicolores", "vogtlander", "VogtlaenderChess", "Vogtländer"] {
            let c = by_name(n).unwrap_or_else(|e| panic!("{n}: {e}"));
            let r = RuleSet::build(c, &[]).unwrap();
            assert!(r.check_rule.is_some());
        }
        let mut both = by_name("bicolores").unwrap();
        both.extend(by_name("vogtlander").unwrap());
        assert!(RuleSet::build(both, &[]).is_err());
    }
}
