//! Qui perd gagne (Losing game, Popeye `LosingChess`): capturing is compulsory (any
//! capture may be chosen); the king is an ordinary unit (no check, it may be captured);
//! pawns may also promote to king. In studies a side that cannot move wins.
//!
//! Castling: the spec says kings cannot castle, but Popeye's LosingChess (our oracle) lets
//! a king castle when no capture is available; we follow the oracle (castling through or
//! out of "check" is then unrestricted, as nothing is check).

use crate::rules::{Condition, Slot};

#[derive(Clone, Debug, Default)]
pub struct Losing;

impl Condition for Losing {
    fn name(&self) -> String {
        "Losing game".into()
    }
    fn slots(&self) -> Vec<Slot> {
        Vec::new()
    }
    fn kings_ordinary(&self) -> bool {
        true
    }
    fn must_capture(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use crate::conditions::registry::by_name;
    use crate::rules::RuleSet;

    #[test]
    fn builds_by_name() {
        for n in ["qui perd gagne", "losing game", "LosingChess"] {
            let c = by_name(n).unwrap_or_else(|e| panic!("{n}: {e}"));
            let r = RuleSet::build(c, &[]).unwrap();
            assert!(r.must_capture && r.kings_ordinary);
        }
    }
}
