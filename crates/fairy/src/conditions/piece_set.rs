//! Piece-set substitutions: the diagram's kinds are replaced, and pawns promote to the
//! replacing kinds instead of the replaced ones.
//!
//! - Cavalier majeur (Popeye `CavalierMajeur`): knights are nightriders.
//! - Rose (emulated in Popeye with rose pieces `RO`): knights are roses.
//! - Locusauteur (emulated with locusts): knights become nightrider-locusts, bishops
//!   bishop-locusts, rooks rook-locusts, queens locusts.
//!
//! Circe rebirth squares of a substituted kind are those of the kind it replaces (the spec
//! says so for the Cavalier majeur nightrider: the knight's squares; decided likewise for
//! roses and locusts); a chameleon change works on the replaced kinds (a Cavalier majeur
//! nightrider is reborn as a bishop). The rule set builder refuses combinations with a
//! capture-origin condition (Mars Circe), whose squares do not know the substitution.

use crate::rules::{Capabilities, Condition};
use crate::walk::{self, BISHOP, KNIGHT, QUEEN, ROOK};
use chimere_core::Kind;

#[derive(Clone, Debug)]
pub struct PieceSet {
    pub label: &'static str,
    /// (replaced, replacing) pairs.
    pub map: &'static [(Kind, Kind)],
}

impl PieceSet {
    pub fn cavalier_majeur() -> PieceSet {
        PieceSet { label: "Cavalier majeur", map: &[(KNIGHT, walk::NIGHTRIDER)] }
    }
    pub fn rose() -> PieceSet {
        PieceSet { label: "Rose", map: &[(KNIGHT, walk::ROSE)] }
    }
    pub fn locusauteur() -> PieceSet {
        PieceSet {
            label: "Locusauteur",
            map: &[
                (KNIGHT, walk::NIGHTRIDER_LOCUST),
                (BISHOP, walk::BISHOP_LOCUST),
                (ROOK, walk::ROOK_LOCUST),
                (QUEEN, walk::LOCUST),
            ],
        }
    }
}

impl Condition for PieceSet {
    fn name(&self) -> String {
        self.label.into()
    }
    fn capabilities(&self) -> Capabilities {
        let substitution = std::array::from_fn(|i| {
            let k = Kind(i as u8);
            self.map.iter().find(|(a, _)| *a == k).map_or(k, |(_, b)| *b)
        });
        Capabilities { substitution: Some(substitution), ..Capabilities::default() }
    }
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;

    fn moves(fen: &str, c: &str) -> Vec<String> {
        let mut g = game_from_fen(fen, &[c]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut out: Vec<String> = v.iter().map(|m| crate::notation::move_with_check(&mut g, m).unwrap()).collect();
        out.sort();
        out
    }

    #[test]
    fn knights_become_nightriders_and_promotions_follow() {
        // White Ke1 Nb1 Pa7, black Ke8: the b1 knight, now a nightrider, rides
        // b1-c3-d5-e7; the pawn promotes to nightrider, not to knight.
        let m = moves("4k3/P7/8/8/8/8/8/1N2K3 w - - 0 1", "cavalier majeur");
        assert!(m.contains(&"Nb1-d5".to_string()), "{m:?}");
        assert!(m.contains(&"Nb1-e7".to_string()), "{m:?}");
        assert!(m.contains(&"a7-a8=N".to_string()), "{m:?}");
        assert!(!m.iter().any(|x| x.ends_with("=S")), "{m:?}");
    }

    #[test]
    fn rose_and_locusauteur() {
        let m = moves("4k3/P7/8/8/8/8/8/1N2K3 w - - 0 1", "rose");
        assert!(m.contains(&"ROb1-a3".to_string()), "{m:?}");
        assert!(m.iter().any(|x| x.starts_with("a7-a8=RO")), "{m:?}");
        assert!(!m.iter().any(|x| x.ends_with("=S")), "{m:?}");
        // Locusts move only by capturing: the rook-locust a1 jumps over the black pawn a5 to
        // a6; the queen-locust d1 has nothing to take.
        let m = moves("4k3/P7/8/p7/8/8/8/R2QK3 w - - 0 1", "locusauteur");
        assert!(m.contains(&"LRa1*a5-a6".to_string()), "{m:?}");
        assert!(!m.iter().any(|x| x.starts_with("Ld1")), "{m:?}");
        // Promotions to the four locusts (the locust and the rook-locust on a8 check e8 by
        // jumping over it to the empty f8).
        for p in ["a7-a8=L +", "a7-a8=LR +", "a7-a8=LB", "a7-a8=LN"] {
            assert!(m.contains(&p.to_string()), "{p} {m:?}");
        }
    }

    #[test]
    fn circe_rebirth_on_the_knights_squares() {
        // Cavalier majeur + Circe, Black to move: the bishop a5 takes the white nightrider c3
        // (a dark square); it is reborn on the knight's dark home square g1, not on the
        // promotion square c8 of a fairy piece; the bishop on c3 then checks e1 over d2.
        let mut g = game_from_fen("4k3/8/8/b7/8/2N5/8/4K3 b - - 0 1", &["cavalier majeur", "circe"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let m: Vec<String> = v.iter().map(|m| crate::notation::move_with_check(&mut g, m).unwrap()).collect();
        assert!(m.contains(&"Ba5*c3[+wNg1] +".to_string()), "{m:?}");
        // Mars Circe (captures from the rebirth square) is refused.
        assert!(game_from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", &["cavalier majeur", "mars circe"]).is_err());
    }
}
