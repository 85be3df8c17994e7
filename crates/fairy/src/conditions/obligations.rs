//! Obligations on the choice among legal moves.
//!
//! - Les Noirs ne jouent que pour donner échec (Popeye `BlackChecks`): every black move
//!   must give check. If Black has no checking move he passes (a null move) in Popeye; the
//!   engine has no null move yet, so Black then has no move (left to do).

use crate::moves::Move;
use crate::rules::{Condition, Game, Slot};
use chimere_core::Colour;

#[derive(Clone, Debug, Default)]
pub struct BlackChecks;

impl Condition for BlackChecks {
    fn name(&self) -> String {
        "Black checks".into()
    }
    fn slots(&self) -> Vec<Slot> {
        Vec::new()
    }
    fn has_filter(&self) -> bool {
        true
    }
    fn filter_legal(&self, game: &mut Game, out: &mut Vec<Move>, start: usize) {
        if game.pos.side() != Colour::Black {
            return;
        }
        let mut i = start;
        while i < out.len() {
            let m = out[i];
            let checks = game.make(&m).is_some() && {
                let c = game.in_check(Colour::White);
                game.unmake();
                c
            };
            if checks {
                i += 1;
            } else {
                out.remove(i);
            }
        }
    }
}

/// Case obligatoire conséquente (Popeye `WhiteConsequentForcedSquare <sqs>`,
/// `BlackConsequentForcedSquare <sqs>`): if a side has a legal move ending on one of its
/// forced squares it must play one of those. Consequent: a unit gives check only by a king
/// capture that would itself satisfy the obligation (the king stands on a forced square of
/// the attacker, or the attacker has no move to a forced square; we judge the latter on
/// pseudo-legal moves).
#[derive(Clone, Debug, Default)]
pub struct ForcedSquares {
    pub white: Vec<chimere_core::Square>,
    pub black: Vec<chimere_core::Square>,
}

impl ForcedSquares {
    fn of(&self, c: Colour) -> &[chimere_core::Square] {
        if c == Colour::White { &self.white } else { &self.black }
    }
}

impl Condition for ForcedSquares {
    fn name(&self) -> String {
        "Forced squares".into()
    }
    fn slots(&self) -> Vec<Slot> {
        Vec::new()
    }
    fn has_filter(&self) -> bool {
        true
    }
    fn filter_legal(&self, game: &mut Game, out: &mut Vec<Move>, start: usize) {
        let sq = self.of(game.pos.side());
        if !out[start..].iter().any(|m| sq.contains(&m.to)) {
            return;
        }
        let mut i = start;
        while i < out.len() {
            if sq.contains(&out[i].to) {
                i += 1;
            } else {
                out.remove(i);
            }
        }
    }
    fn has_check_rule(&self) -> bool {
        true
    }
    fn check_rule(&self, game: &mut Game, side: Colour) -> Option<bool> {
        let by = side.opponent();
        let sq = self.of(by);
        let b = game.pos.board();
        let kings = b.kind(crate::walk::KING) & b.colour(side);
        let mut attacked = chimere_core::Bitboard::EMPTY;
        for k in kings {
            if crate::moves::attacked_by(&game.pos, by, k, game.rules.pawn_first_rank_immobile) {
                attacked.set(k);
            }
        }
        if attacked.is_empty() {
            return Some(false);
        }
        if sq.is_empty() || Iterator::any(&mut attacked.into_iter(), |k| sq.contains(&k)) {
            return Some(true);
        }
        let mut buf = game.take_buf();
        game.pseudo_moves(by, &mut buf);
        let free = !buf.iter().any(|m| sq.contains(&m.to));
        game.give_buf(buf);
        Some(free)
    }
}

#[cfg(test)]
mod tests {
    use crate::conditions::registry::by_name;
    use crate::rules::RuleSet;

    #[test]
    fn builds_by_name() {
        for n in ["black checks", "BlackChecks", "les noirs ne jouent que pour donner echec"] {
            let c = by_name(n).unwrap_or_else(|e| panic!("{n}: {e}"));
            let r = RuleSet::build(c, &[]).unwrap();
            assert_eq!(r.filters.len(), 1);
        }
    }
}
