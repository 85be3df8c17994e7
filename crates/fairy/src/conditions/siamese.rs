//! Rois siamois (Siamese kings; no Popeye keyword, Chimère keyword `SiameseKings`): a side
//! has two kings; it is in check as soon as ANY of them is attacked, may not leave either
//! attacked, and is mated when it cannot parry all checks.
//!
//! This is the engine's own rule for several royal units (check = a royal unit attacked),
//! so the condition adds no hook of its own; it declares a check rule so that conditions
//! defining check otherwise are refused with it. No promotion to king (the spec gives
//! none).

use crate::rules::{Capabilities, Condition};

#[derive(Clone, Debug, Default)]
pub struct SiameseKings;

impl Condition for SiameseKings {
    fn name(&self) -> String {
        "Rois siamois".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { check_rule: true, ..Capabilities::default() }
    }
}

#[cfg(test)]
mod tests {
    use crate::conditions::registry::by_name;
    use crate::conditions::rexmultiplex::tests::texts;
    use crate::rules::RuleSet;

    #[test]
    fn builds_by_name() {
        for n in ["rois siamois", "SiameseKings", "siamese kings"] {
            let c = by_name(n).unwrap_or_else(|e| panic!("{n}: {e}"));
            RuleSet::build(c, &[]).unwrap();
        }
        let mut both = by_name("rois siamois").unwrap();
        both.extend(by_name("sat").unwrap());
        assert!(RuleSet::build(both, &[]).is_err());
    }

    /// Black kings a8 and h5, pawns a7 b7; White Kf1 Rc2. Rc2-c8 attacks Ka8, which cannot
    /// parry: Black is mated although Kh5 is free (contrast Rex Multiplex, where that
    /// check is illegal).
    #[test]
    fn a_check_to_either_king_must_be_parried() {
        let fen = "k7/pp6/8/7k/8/8/2R5/5K2 w - - 0 1";
        let t = texts(fen, &["rois siamois"]);
        assert!(t.contains(&"Rc2-c8 +".to_string()));
        let mut g = crate::game_from_fen(fen, &["rois siamois"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let m = *v.iter().find(|m| m.from.to_string() == "c2" && m.to.to_string() == "c8").unwrap();
        g.make(&m).unwrap();
        let mut replies = Vec::new();
        g.legal_moves(&mut replies);
        assert!(replies.is_empty(), "the free king h5 may not move while a8 is attacked");
        assert_eq!(g.status(&replies), chimere_core::Status::WhiteWins);
        // Black to move, Kh5 in check from Rh2 (White Kf1): only Kh5 stepping off the
        // h-file parries (g4, g5, g6); Ka8's moves and the pawn moves leave the check.
        let t = texts("k7/pp6/8/7k/8/8/7R/5K2 b - - 0 1", &["rois siamois"]);
        assert!(t.iter().all(|m| m.starts_with("Kh5")), "{t:?}");
        assert_eq!(t, vec!["Kh5-g4", "Kh5-g5", "Kh5-g6"]);
    }
}
