//! Sans échec (Checkless chess, Popeye `ChecklessChess`): a move that gives check without
//! mating is illegal, for both sides.
//!
//! Our reading: after a move that is otherwise legal, if the opponent is in check, the move
//! stands only if the opponent has no legal reply. The replies of that mate test are judged
//! without the checkless restriction itself (a reply that escapes the check is a reply,
//! whether or not it checks back), which keeps the test finite.

use crate::rules::{Capabilities, Condition, Ctx};
use chimere_core::Colour;

#[derive(Clone, Debug, Default)]
pub struct Checkless;

impl Condition for Checkless {
    fn name(&self) -> String {
        "Checkless".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { legality: true, judges_by_replies: true, ..Capabilities::default() }
    }
    /// With the move just played (side already flipped): a check stands only if it mates.
    fn legal_after(&self, ctx: &mut Ctx, _mover: Colour) -> bool {
        let opp = ctx.pos().side();
        if !ctx.in_check(opp) {
            return true;
        }
        let mut replies = ctx.take_buf();
        ctx.legal_replies(&mut replies);
        let mate = replies.is_empty();
        ctx.give_buf(replies);
        mate
    }
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
            assert_eq!((r.legality.len(), r.first_reply_test), (1, 0));
        }
    }
}
