//! Obligations on the choice among legal moves.
//!
//! - Les Noirs ne jouent que pour donner échec (Popeye `BlackChecks`): every black move
//!   must give check. If Black has no checking move he passes: his only move is then the
//!   null move ([`Move::NULL`], written `...` as Popeye writes a pass), legal when it does
//!   not leave Black in check (Black with no move at all and not in check passes too).
//!   Black in check with no checking parry has no move. Goals are judged as Popeye judges
//!   them, without the obligation ([`Capabilities::filter_outside_goals`]): Black is mated
//!   when in check with no legal move at all, stalemated when not in check with none; so
//!   Black in check with an ordinary parry but no checking one is neither.

use crate::moves::Move;
use crate::rules::{Capabilities, Condition, Ctx};
use chimere_core::Colour;

#[derive(Clone, Debug, Default)]
pub struct BlackChecks;

impl Condition for BlackChecks {
    fn name(&self) -> String {
        "Black checks".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { filter: true, filter_outside_goals: true, ..Capabilities::default() }
    }
    fn filter_legal(&self, ctx: &mut Ctx, out: &mut Vec<Move>, start: usize) {
        if ctx.pos().side() != Colour::Black {
            return;
        }
        let mut keep = start;
        for i in start..out.len() {
            let m = out[i];
            let checks = ctx.make(&m).is_some() && {
                let c = ctx.in_check(Colour::White);
                ctx.unmake();
                c
            };
            if checks {
                out[keep] = m;
                keep += 1;
            }
        }
        out.truncate(keep);
        if out.len() == start && ctx.make(&Move::NULL).is_some() {
            ctx.unmake();
            out.push(Move::NULL);
        }
    }
}

/// Case obligatoire conséquente (Popeye `WhiteConsequentForcedSquare <sqs>`,
/// `BlackConsequentForcedSquare <sqs>`): if a side has a move ending on one of its forced
/// squares it must play one of those. The obligation is judged on the pseudo-legal moves
/// (as Popeye 4.104): a move onto a forced square that would leave the mover's king in
/// check still binds; only the legal moves onto forced squares may then be played, and
/// when there is none the side has no move (mated in check, else stalemated). Consequent: a unit gives check only by a king
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
    /// White's and Black's squares, given apart (Popeye's two keywords), are one condition.
    fn merged_with(&self, other: &dyn Condition) -> Option<std::sync::Arc<dyn Condition>> {
        let o = (other as &dyn std::any::Any).downcast_ref::<ForcedSquares>()?;
        let join = |a: &[chimere_core::Square], b: &[chimere_core::Square]| {
            let mut v = a.to_vec();
            v.extend(b.iter().filter(|s| !a.contains(s)));
            v
        };
        Some(std::sync::Arc::new(ForcedSquares {
            white: join(&self.white, &o.white),
            black: join(&self.black, &o.black),
        }))
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { filter: true, check_rule: true, ..Capabilities::default() }
    }
    fn filter_legal(&self, ctx: &mut Ctx, out: &mut Vec<Move>, start: usize) {
        let side = ctx.pos().side();
        let sq = self.of(side);
        if sq.is_empty() {
            return;
        }
        if !out[start..].iter().any(|m| sq.contains(&m.to)) {
            // The obligation is judged on the pseudo-legal moves (as Popeye does): a move
            // onto a forced square that would leave the king in check still binds, and
            // then no move is left.
            let mut buf = ctx.take_buf();
            ctx.pseudo_moves(side, &mut buf);
            let bound = buf.iter().any(|m| sq.contains(&m.to));
            ctx.give_buf(buf);
            if bound {
                out.truncate(start);
            }
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
    fn check_rule(&self, ctx: &mut Ctx, side: Colour) -> Option<bool> {
        let by = side.opponent();
        let sq = self.of(by);
        let b = ctx.pos().board();
        let kings = b.kind(crate::walk::KING) & b.colour(side);
        let (mut attacked, mut on_forced) = (false, false);
        for k in kings {
            if crate::moves::attacked_by(ctx.pos(), by, k, ctx.rules().pawn_first_rank_immobile) {
                attacked = true;
                on_forced |= sq.contains(&k);
            }
        }
        if !attacked {
            return Some(false);
        }
        if sq.is_empty() || on_forced {
            return Some(true);
        }
        let mut buf = ctx.take_buf();
        ctx.pseudo_moves(by, &mut buf);
        let none = !buf.iter().any(|m| sq.contains(&m.to));
        ctx.give_buf(buf);
        Some(none)
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

    fn moves(fen: &str) -> (crate::Game, Vec<crate::Move>) {
        let mut g = crate::game_from_fen(fen, &["black checks"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        (g, v)
    }

    #[test]
    fn black_passes_without_a_checking_move() {
        use crate::Move;
        // Black Kh8 and Pa7 against White's lone Ka1: none of Kg8, Kg7, Kh7, a6, a5
        // checks, so Black's only move is the pass.
        let (mut g, v) = moves("7k/p7/8/8/8/8/8/K7 b - - 0 1");
        assert_eq!(v, vec![Move::NULL]);
        assert_eq!(crate::notation::move_with_check(&mut g, &v[0]).as_deref(), Some("..."));
        assert_eq!(g.canonical(&v[0]).as_deref(), Some("PASS"));
        // The pass is journalled: made and unmade it restores the position (hash included).
        let (before, hash) = (g.pos.clone(), g.pos.hash());
        g.make(&v[0]).unwrap();
        assert_eq!(g.pos.side(), chimere_core::Colour::White);
        assert_ne!(g.pos.hash(), hash);
        g.unmake();
        assert_eq!(g.pos.hash(), hash);
        assert_eq!(format!("{:?}", g.pos), format!("{before:?}"));
        // Perft counts the pass: 1 black move, then White's 3 king moves.
        assert_eq!(g.perft(2), 3);
        // Black Ka8 in check from Ra1: Kb7 and Kb8 parry but give no check (refused), the
        // pass would leave him in check (illegal): no move, mate.
        let (mut g, v) = moves("k7/8/8/8/8/8/8/R6K b - - 0 1");
        assert!(v.is_empty());
        assert_eq!(g.status(&v), chimere_core::Status::WhiteWins);
        // A checking move exists (Rd8-d1+ against Kh1): no pass.
        let (_, v) = moves("3rk3/8/8/8/8/8/8/7K b - - 0 1");
        assert!(!v.contains(&Move::NULL));
        assert!(!v.is_empty());
    }

    /// Popeye's White and Black forced squares, two keywords, are one condition: both
    /// sides' obligations and check rules hold, as when given at once.
    #[test]
    fn white_and_black_squares_given_apart_are_one_condition() {
        use super::ForcedSquares;
        use crate::{Condition, Game, Move};
        use chimere_core::Square;
        use std::sync::Arc;
        let sq = |s: &str| Square::from_coords(s.as_bytes()[0] - b'a', s.as_bytes()[1] - b'1');
        let white = ForcedSquares { white: vec![sq("d4"), sq("e5")], black: vec![] };
        let black = ForcedSquares { white: vec![sq("e5")], black: vec![sq("d5")] };
        let whole = ForcedSquares { white: vec![sq("d4"), sq("e5")], black: vec![sq("d5")] };
        let apart: Vec<Arc<dyn Condition>> = vec![Arc::new(white), Arc::new(black)];
        let apart = RuleSet::build(apart, &[]).expect("rules");
        assert_eq!(apart.conditions().len(), 1);
        let whole = RuleSet::build(vec![Arc::new(whole)], &[]).expect("rules");
        // Both sides bound: White must play to d4 (Qd1-d4), then Black to d5 (Qd8-d5), and a
        // queen on d5 checks Kd1 only by a capture that obeys Black's obligation.
        for fen in
            ["3qk3/8/8/8/8/8/8/3QK3 w - - 0 1", "3qk3/8/8/8/3Q4/8/8/4K3 b - - 0 1", "4k3/8/8/3q4/8/8/8/3K4 w - - 0 1"]
        {
            let moves = |rules: &RuleSet| {
                let mut g = Game::new(rules.clone(), crate::position_from_fen(fen).expect("fen"));
                let mut v: Vec<Move> = Vec::new();
                g.legal_moves(&mut v);
                (v, g.in_check(g.pos.side()))
            };
            assert_eq!(moves(&apart), moves(&whole), "{fen}");
        }
    }
}
