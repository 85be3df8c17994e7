//! Extinction (Popeye `ExtinctionChess`): every kind of which a side has exactly one unit
//! is royal for that side. A side is in check when such a last unit is attacked; such
//! attacks must be parried, and a side that cannot avoid losing a kind is mated. Pawns may
//! promote to king (a second king makes the king kind non-royal).
//!
//! Check is decided with orthodox attack tables; combinations that change what a capture
//! does are refused when the rule set is built.

use crate::moves;
use crate::rules::{Condition, Game, Slot};
use chimere_core::Colour;

#[derive(Clone, Debug, Default)]
pub struct Extinction;

impl Condition for Extinction {
    fn name(&self) -> String {
        "Extinction".into()
    }
    fn slots(&self) -> Vec<Slot> {
        Vec::new()
    }
    fn extinction(&self) -> bool {
        true
    }
}

/// Is a last unit of its kind of `side` attacked?
pub(crate) fn in_check(game: &Game, side: Colour) -> bool {
    let b = game.pos.board();
    let own = b.colour(side);
    for s in own {
        let u = game.pos.unit(s).expect("occupied");
        if (b.kind(u.kind()) & own).count() == 1
            && moves::attacked_by(&game.pos, side.opponent(), s, game.rules.pawn_first_rank_immobile)
        {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use crate::conditions::registry::by_name;
    use crate::rules::RuleSet;

    #[test]
    fn builds_by_name() {
        for n in ["extinction", "ExtinctionChess"] {
            let c = by_name(n).unwrap_or_else(|e| panic!("{n}: {e}"));
            let r = RuleSet::build(c, &[]).unwrap();
            assert!(r.extinction);
        }
        let mut both = by_name("extinction").unwrap();
        both.extend(by_name("losing game").unwrap());
        assert!(RuleSet::build(both, &[]).is_err());
    }
}
