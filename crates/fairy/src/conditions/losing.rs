//! Qui perd gagne (Losing game, Popeye `LosingChess`): capturing is compulsory (any
//! capture may be chosen); the king is an ordinary unit (no check, it may be captured);
//! pawns may also promote to king. In studies a side that cannot move wins.
//!
//! Castling: the spec says the king cannot castle, and the spec wins. Popeye's LosingChess
//! (our oracle) lets a king castle when no capture is available: record 1 of
//! `no-check-losing` is listed as a known deviation in the Popeye oracle test.

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
    fn castling_off(&self) -> bool {
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

    /// White Ke1 Rh1 Pe2 Sf3, black Ke8 Sb8 Pd7 Bc5: no capture is available, so every
    /// move counts, the king may step into attack (f2, attacked by c5), but it cannot
    /// castle (the spec: the king is an ordinary unit).
    #[test]
    fn no_castling_king_may_walk_into_attack() {
        let mut g = crate::game_from_fen("1n2k3/3p4/8/2b5/8/5N2/4P3/4K2R w K - 0 1", &["losing game"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        assert!(v.iter().all(|m| m.castle.is_none()));
        assert!(v.iter().any(|m| m.from.to_string() == "e1" && m.to.to_string() == "f2"));
        assert!(v.iter().all(|m| m.capture.is_none()));
        assert_eq!(v.len(), 4 + 9 + 2 + 7, "king d1 d2 f1 f2, rook f1 g1 h2-h8, e3 e4, knight d2 d4 e5 g1 g5 h2 h4");
    }
}
