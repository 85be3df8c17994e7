//! Sans échec (Checkless chess, Popeye `ChecklessChess`): a move that gives check without
//! mating is illegal, for both sides.
//!
//! Our reading: after a move that is otherwise legal, if the opponent is in check, the move
//! stands only if the opponent has no legal reply. The replies of that mate test are judged
//! without the checkless restriction itself (a reply that escapes the check is a reply,
//! whether or not it checks back), which keeps the test finite.

use crate::rules::{Condition, Game, Slot};

#[derive(Clone, Debug, Default)]
pub struct Checkless;

impl Condition for Checkless {
    fn name(&self) -> String {
        "Checkless".into()
    }
    fn slots(&self) -> Vec<Slot> {
        Vec::new()
    }
    fn checkless(&self) -> bool {
        true
    }
}

/// With the move just played (side already flipped): whether the checkless rule admits it.
pub(crate) fn admits(game: &mut Game) -> bool {
    let opp = game.pos.side();
    if !game.in_check(opp) {
        return true;
    }
    game.rules.checkless = false;
    let mut replies = game.take_buf();
    game.legal_moves(&mut replies);
    game.rules.checkless = true;
    let mate = replies.is_empty();
    game.give_buf(replies);
    mate
}

#[cfg(test)]
mod tests {
    use crate::conditions::registry::by_name;
    use crate::rules::RuleSet;

    #[test]
    fn builds_by_name() {
        for n in ["checkless", "sans echec", "Sans échec", "ChecklessChess"] {
            let c = by_name(n).unwrap_or_else(|e| panic!("{n}: {e}"));
            let r = RuleSet::build(c, &[]).unwrap();
            assert!(r.checkless);
        }
    }
}
