//! Sentinelles: when a unit other than a pawn moves (kings included), a pawn appears on the
//! square it left, unless that square is on the first or last rank, or the pawns that
//! count already reach the maximum (counted after the move, so a capture of a pawn makes
//! room). The variants differ by the new pawn's colour and what counts:
//! - en Pion adverse (Popeye `Sentinelles PionAdvers`): a pawn of the opponent of the side
//!   that moved; at most 8 pawns of that colour;
//! - Totalmax=n (Popeye `Sentinelles MaximumTotal n`): a pawn of the moving side; at most
//!   n pawns of both colours together;
//! - en Pion neutre (seed's rule; Popeye's differs): a neutral pawn; at most 8 neutral
//!   pawns;
//! - plain (Popeye `Sentinelles`): a pawn of the moving side; at most 8 of that colour.
//!
//! Decisions: the pawn appears only if the square is still empty after the move's other
//! consequences; a pawn that moved (promoting or not) leaves nothing.

use crate::position::Unit;
use crate::rules::{Condition, Note, Play, Reject, Slot};
use crate::walk::PAWN;
use chimere_core::Colour;

/// Whose pawn appears.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Sentinel {
    /// The side that moved.
    Mover,
    /// The other side.
    Opponent,
    /// A neutral pawn.
    Neutral,
}

#[derive(Clone, Debug)]
pub struct Sentinelles {
    pub sentinel: Sentinel,
    /// The most pawns allowed.
    pub max: u32,
    /// Count the pawns of both colours (Totalmax), not only the sentinel's colour.
    pub total: bool,
}

impl Sentinelles {
    pub fn pion_adverse() -> Sentinelles {
        Sentinelles { sentinel: Sentinel::Opponent, max: 8, total: false }
    }
    pub fn pion_neutre() -> Sentinelles {
        Sentinelles { sentinel: Sentinel::Neutral, max: 8, total: false }
    }
    pub fn totalmax(n: u32) -> Sentinelles {
        Sentinelles { sentinel: Sentinel::Mover, max: n, total: true }
    }
    pub fn plain() -> Sentinelles {
        Sentinelles { sentinel: Sentinel::Mover, max: 8, total: false }
    }
}

impl Condition for Sentinelles {
    fn name(&self) -> String {
        "Sentinelles".into()
    }
    fn slots(&self) -> Vec<Slot> {
        vec![Slot::AfterMove]
    }
    fn after_move(&self, play: &mut Play) -> Result<(), Reject> {
        let from = play.mv.from;
        if play.moving.kind() == PAWN || from.rank() == 0 || from.rank() == 7 || play.pos.unit(from).is_some() {
            return Ok(());
        }
        let colour = match self.sentinel {
            Sentinel::Mover => play.mover,
            Sentinel::Opponent => play.mover.opponent(),
            Sentinel::Neutral => Colour::Shared,
        };
        let b = play.pos.board();
        let pawns = if self.total { b.kind(PAWN).count() } else { (b.kind(PAWN) & b.colour(colour)).count() };
        if pawns >= self.max {
            return Ok(());
        }
        let u = Unit::new(colour, PAWN);
        play.pos.add(from, u);
        play.note(Note::Reborn { sq: from, unit: u, promo: None });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::move_with_check;
    use crate::{Game, RuleSet, position_from_fen};
    use std::sync::Arc;

    fn moves(fen: &str, c: Sentinelles) -> Vec<String> {
        let rules = RuleSet::build(vec![Arc::new(c)], &[]).unwrap();
        let mut g = Game::new(rules, position_from_fen(fen).unwrap());
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut out: Vec<String> = v.iter().filter_map(|m| move_with_check(&mut g, m)).collect();
        out.sort();
        out
    }

    #[test]
    fn pion_neutre() {
        // White Kh1, Sd4 ; black Ka8. Every knight move leaves a neutral pawn on d4 (rank 4,
        // no neutral pawn yet). The king on h1 (first rank) leaves nothing: Kg1, Kg2, Kh2.
        let m = moves("k7/8/8/8/3N4/8/8/7K w - - 0 1", Sentinelles::pion_neutre());
        let mut expected: Vec<String> = ["b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"]
            .iter()
            .map(|t| format!("Sd4-{t}[+nPd4]"))
            .chain(["Kh1-g1", "Kh1-g2", "Kh1-h2"].iter().map(|s| s.to_string()))
            .collect();
        expected.sort();
        assert_eq!(m, expected);
    }

    #[test]
    fn pion_neutre_eight_neutral_pawns_is_the_limit() {
        // Eight neutral pawns on rank 3 (a3-h3): a quiet knight move leaves nothing
        // (Sd4-f5), but a capture of a neutral pawn (Sd4*b3) makes room for one.
        let pos = "k7/8/8/8/3N4/8/8/7K w - - 0 1";
        let mut p = position_from_fen(pos).unwrap();
        for f in 0..8 {
            p.setup_put(chimere_core::Square::from_coords(f, 2), Unit::new(Colour::Shared, PAWN));
        }
        let rules = RuleSet::build(vec![Arc::new(Sentinelles::pion_neutre())], &[]).unwrap();
        let mut g = Game::new(rules, p);
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let t: Vec<String> = v.iter().filter_map(|m| move_with_check(&mut g, m)).collect();
        assert!(t.contains(&"Sd4-f5".to_string()), "{t:?}");
        assert!(t.contains(&"Sd4*b3[+nPd4]".to_string()), "{t:?}");
        assert!(!t.iter().any(|m| m.starts_with("Sd4-") && m.contains('[')), "{t:?}");
    }
}
