//! Obligations on the choice among legal moves.
//!
//! - Les Noirs ne jouent que pour donner échec (Popeye `BlackChecks`): every black move
//!   must give check. If Black has no checking move he passes (a null move) in Popeye; the
//!   engine has no null move yet, so Black then has no move (left to do).

use crate::moves::Move;
use crate::rules::{Condition, Game, Slot};
use chimere_core::Colour;

#[derive(Clone, Debug, Default)]
pub struct BlackChecks;

impl Condition for BlackChecks {
    fn name(&self) -> String {
        "Black checks".into()
    }
    fn slots(&self) -> Vec<Slot> {
        Vec::new()
    }
    fn has_filter(&self) -> bool {
        true
    }
    fn filter_legal(&self, game: &mut Game, out: &mut Vec<Move>, start: usize) {
        if game.pos.side() != Colour::Black {
            return;
        }
        let mut i = start;
        while i < out.len() {
            let m = out[i];
            let checks = game.make(&m).is_some() && {
                let c = game.in_check(Colour::White);
                game.unmake();
                c
            };
            if checks {
                i += 1;
            } else {
                out.remove(i);
            }
        }
    }
}

/// Case obligatoire conséquente (Popeye `WhiteConsequentForcedSquare <sqs>`,
/// `BlackConsequentForcedSquare <sqs>`), one instance per colour: if `colour` has a legal
/// move ending on one of `squares` it must play one of those.
///
/// Not yet done: the "consequent" part (a unit gives check only by a king capture that
/// would itself satisfy the obligation); check is orthodox here.
#[derive(Clone, Debug)]
pub struct ForcedSquares {
    pub colour: Colour,
    pub squares: Vec<chimere_core::Square>,
}

impl Condition for ForcedSquares {
    fn name(&self) -> String {
        format!("Forced squares ({:?})", self.colour)
    }
    fn slots(&self) -> Vec<Slot> {
        Vec::new()
    }
    fn has_filter(&self) -> bool {
        true
    }
    fn filter_legal(&self, game: &mut Game, out: &mut Vec<Move>, start: usize) {
        if game.pos.side() != self.colour || !out[start..].iter().any(|m| self.squares.contains(&m.to)) {
            return;
        }
        let mut i = start;
        while i < out.len() {
            if self.squares.contains(&out[i].to) {
                i += 1;
            } else {
                out.remove(i);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::conditions::registry::by_name;
    use crate::rules::RuleSet;

    #[test]
    fn builds_by_name() {
        for n in ["black checks", "BlackChecks", "les noirs ne jouent que pour donner echec"] {
            let c = by_name(n).unwrap_or_else(|e| panic!("{n}: {e}"));
            let r = RuleSet::build(c, &[]).unwrap();
            assert_eq!(r.filters.len(), 1);
        }
    }
}
