//! Bicaptures (Popeye `Bicaptures`): every unit may capture units of its own side as well
//! as enemy units; capturing one's own king (or any royal unit) is never legal. Checks are
//! still given by enemy units only (attack tables unchanged).
//!
//! Decision (castling): the spec is silent; we follow Popeye (oracle record
//! `bicaptures` 3), where the squares the castling king stands on and crosses must not be
//! observed by any unit able to capture there — under Bicaptures that includes the
//! castling side's own units, and the castling rook itself always observes the king's
//! square. So castling is never possible under Bicaptures.

use crate::rules::{Capabilities, Condition};

#[derive(Clone, Debug, Default)]
pub struct Bicaptures;

impl Condition for Bicaptures {
    fn name(&self) -> String {
        "Bicaptures".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { capture_own: true, castling_off: true, ..Capabilities::default() }
    }
}

#[cfg(test)]
mod tests {

    fn moves(fen: &str) -> Vec<String> {
        crate::testing::move_texts(fen, &["bicaptures"])
    }

    #[test]
    fn own_units_but_not_the_own_king() {
        // White Ke1 Qd1 Rh1 Pd2, black Ke8: the queen and the king may take the own pawn
        // d2; nothing takes the own king (Rh1*e1 would); no castling although White has
        // the right and f1, g1 are free and unattacked by Black.
        let m = moves("4k3/8/8/8/8/8/3P4/3QK2R w K - 0 1");
        assert!(m.contains(&"Qd1*d2".to_string()));
        assert!(m.contains(&"Ke1*d2".to_string()));
        assert!(!m.iter().any(|x| x.contains("*e1")));
        assert!(!m.iter().any(|x| x.starts_with("0-0")));
    }
}
