//! Glasgow chess: pawns promote on reaching their 7th rank (White rank 7, Black rank 2)
//! instead of the last rank. A pawn already standing on its 7th rank moves on to the last
//! rank without promoting (and is then immobile), as Popeye has it.

use crate::rules::{Condition, Slot};

#[derive(Clone, Debug, Default)]
pub struct Glasgow;

impl Condition for Glasgow {
    fn name(&self) -> String {
        "GlasgowChess".into()
    }
    fn slots(&self) -> Vec<Slot> {
        Vec::new()
    }
    fn promotion_rank(&self) -> Option<u8> {
        Some(6)
    }
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;
    use crate::notation::move_with_check;

    #[test]
    fn promotion_on_the_seventh() {
        // White b6-b7 promotes (four kinds); black c3-c2 promotes too.
        let mut g = game_from_fen("7k/8/1P6/8/8/2p5/8/K7 w - - 0 1", &["glasgow"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let t: Vec<String> = v.iter().filter_map(|m| move_with_check(&mut g, m)).collect();
        for k in ["Q", "S", "R", "B"] {
            assert!(t.contains(&format!("b6-b7={k}")), "{t:?}");
        }
        assert!(!t.contains(&"b6-b7".to_string()));
    }
}
