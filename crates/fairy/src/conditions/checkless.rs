//! Sans échec (Checkless chess, Popeye `ChecklessChess`): a move that gives check without
//! mating is illegal, for both sides.
//!
//! Our reading: after a move that is otherwise legal, if the opponent is in check, the move
//! stands only if the opponent has no legal reply. The replies of that mate test are judged
//! by the same rule (as in Popeye): a reply that checks back without mating is no reply, so
//! `Qa6` mates `Kf1` when the king's only flights uncover a non-mating check of the other
//! king. The nesting stops at `MAX_REPLY_DEPTH` (8) levels, below which
//! replies are judged without the rule.

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
        !ctx.has_legal_reply()
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

    /// A check whose only escapes uncover a non-mating check of the other king mates: the
    /// mate test judges the replies by the same rule (Popeye's `exklohne` h#6, final move).
    #[test]
    fn escapes_that_check_back_are_no_escapes() {
        // White Kd1 Qa8, Black Kf1 and a rook or queen on g1: Kf1-f2 or -g2 would uncover
        // a check of d1 along the first rank, which White escapes, so it is illegal.
        let rook = crate::testing::move_texts("Q7/8/8/8/8/8/8/3K1kr1 w - - 0 1", &["checkless"]);
        for mate in ["Qa8-a6 +", "Qa8-f3 +", "Qa8-f8 +"] {
            assert!(rook.iter().any(|t| t == mate), "{mate} missing from {rook:?}");
        }
        let queen = crate::testing::move_texts("Q7/8/8/8/8/8/8/3K1kq1 w - - 0 1", &["checkless"]);
        assert!(queen.iter().any(|t| t == "Qa8-a6 +"), "{queen:?}");
        // A check the king escapes is still illegal.
        assert!(!queen.iter().any(|t| t.starts_with("Qa8-f8")), "{queen:?}");
    }
}
