//! Exclusif — Exclusive (Popeye `ExclusiveChess`): the moves reaching the stipulation's
//! goal are illegal when they are not unique (`conditions.md`).
//!
//! Rule: let G be the goal (mate or stalemate). A turn "reaches G" when the position after
//! it satisfies G, judged under this same rule. When the side to move has two or more
//! legal turns reaching G, all of them are illegal; its other turns are unaffected. Both
//! sides, every ply; each distinct turn counts (each promotion piece, castling, e.p., each
//! rebirth or placement choice: the engine's moves are already distinct).
//!
//! The goal depends on the stipulation: `Condition::for_goal` takes the stipulation's goal
//! as the condition's (a parameter: `Mate`, the default and Popeye's only goal, or
//! `Stalemate`; a stipulation without a goal position is refused); `--condition exclusif`
//! (move lists) uses mate.
//!
//! Implementation: a legal-move filter. For each legal move it plays the move and asks
//! whether the opponent is mated (stalemated) under this rule; that needs the opponent's
//! legal moves under the rule, so the test recurses: a side has a legal move iff it has a
//! move (the only one, or one not reaching G, or — when fewer than two reach G — any).
//! Only the moves that give check (mate) or do not (stalemate) recurse, so for mate the
//! recursion follows checks. While the filter judges, the engine's nested move lists are
//! generated without this filter (the recursion applies the rule itself:
//! `Capabilities::filter_unnested`, kept by the game).
//!
//! Limits (as Popeye): the recursion looks at most [`HORIZON`] plies below the judged
//! position. A move whose verdict needs a deeper look is *undecided*; an undecided move
//! counts as reaching G (illegal when the count of reaching and undecided moves exceeds
//! one), and a position whose answer hangs on undecided moves is itself undecided. Popeye
//! then prints "Can't decide whether this move is refuted" beside such a move; the solver
//! does not print that note (the move is simply illegal).

use crate::moves::Move;
use crate::rules::{Capabilities, Condition, Ctx, ForGoal, Goal};
use std::sync::Arc;

/// How many plies below the judged position the goal test may look.
pub const HORIZON: u32 = 6;

/// The goal whose reaching moves must be unique.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExclusiveGoal {
    /// Mate (Popeye's ExclusiveChess; the default).
    #[default]
    Mate,
    /// Stalemate (the seed's rule for `=` stipulations; Popeye has no such mode).
    Stalemate,
}

/// The Exclusif condition for one goal.
#[derive(Clone, Debug, Default)]
pub struct Exclusif {
    pub goal: ExclusiveGoal,
}

/// A move's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reach {
    Yes,
    No,
    Undecided,
}

impl Exclusif {
    /// Whether the legal move `m` of the side to move reaches the goal; `depth`: plies
    /// already below the judged position.
    fn reach(&self, ctx: &mut Ctx, m: &Move, depth: u32) -> Reach {
        if ctx.make(m).is_none() {
            return Reach::No;
        }
        let side = ctx.pos().side();
        let check = ctx.in_check(side);
        let r = match (self.goal, check) {
            (ExclusiveGoal::Mate, false) | (ExclusiveGoal::Stalemate, true) => Reach::No,
            _ if depth + 1 > HORIZON => Reach::Undecided,
            _ => match self.has_move(ctx, depth + 1) {
                Some(true) => Reach::No,
                Some(false) => Reach::Yes,
                None => Reach::Undecided,
            },
        };
        ctx.unmake();
        r
    }

    /// Whether the side to move has a legal move under the rule (`None`: undecided).
    fn has_move(&self, ctx: &mut Ctx, depth: u32) -> Option<bool> {
        let mut moves = ctx.take_buf();
        ctx.legal_moves(&mut moves);
        let answer = if moves.len() <= 1 {
            Some(!moves.is_empty())
        } else {
            let mut yes = 0;
            let mut answer = None;
            for m in &moves {
                match self.reach(ctx, m, depth) {
                    Reach::No => {
                        answer = Some(true);
                        break;
                    }
                    Reach::Yes => yes += 1,
                    Reach::Undecided => {}
                }
            }
            // No move avoids the goal: all of them (two or more) reach it or are undecided.
            answer.or(if yes >= 2 { Some(false) } else { None })
        };
        ctx.give_buf(moves);
        answer
    }
}

impl Condition for Exclusif {
    fn name(&self) -> String {
        match self.goal {
            ExclusiveGoal::Mate => "Exclusif".into(),
            ExclusiveGoal::Stalemate => "Exclusif (stalemate)".into(),
        }
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { filter: true, filter_unnested: true, ..Capabilities::default() }
    }
    fn for_goal(&self, goal: Goal) -> Result<ForGoal, String> {
        let goal = match goal {
            Goal::Mate => ExclusiveGoal::Mate,
            Goal::Stalemate => ExclusiveGoal::Stalemate,
            Goal::Any => return Err("Exclusif needs a stipulation whose goal is mate or stalemate".to_string()),
        };
        Ok(if goal == self.goal { ForGoal::Same } else { ForGoal::As(Arc::new(Exclusif { goal })) })
    }
    fn filter_legal(&self, ctx: &mut Ctx, out: &mut Vec<Move>, start: usize) {
        if out.len() < start + 2 {
            return;
        }
        let mut verdicts = Vec::with_capacity(out.len() - start);
        for m in &out[start..] {
            verdicts.push(self.reach(ctx, m, 0));
        }
        if verdicts.iter().filter(|r| **r != Reach::No).count() > 1 {
            let mut k = start;
            for (i, r) in verdicts.iter().enumerate() {
                if *r == Reach::No {
                    out[k] = out[start + i];
                    k += 1;
                }
            }
            out.truncate(k);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::Condition;
    use crate::game_from_fen;
    use crate::notation;
    use chimere_core::Colour;

    /// The legal moves in Popeye's notation, sorted.
    fn moves(fen: &str, conds: &[&str]) -> Vec<String> {
        let mut g = game_from_fen(fen, conds).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut out: Vec<String> = v
            .iter()
            .map(|m| {
                let notes = g.make(m).unwrap();
                g.unmake();
                notation::move_text(&g, m, &notes)
            })
            .collect();
        out.sort();
        out
    }

    fn without(all: &[String], gone: &[&str]) -> Vec<String> {
        all.iter().filter(|m| !gone.contains(&m.as_str())).cloned().collect()
    }

    /// White Kc6 Qa7, Black Kc8: Qa7-a8 and Qa7-c7 (protected by the king) both mate, so
    /// both are illegal; every other move stays.
    #[test]
    fn two_mates_are_both_illegal() {
        let fen = "2k5/Q7/2K5/8/8/8/8/8 w - - 0 1";
        let plain = moves(fen, &[]);
        assert!(plain.contains(&"Qa7-a8".to_string()) && plain.contains(&"Qa7-c7".to_string()));
        assert_eq!(moves(fen, &["exclusif"]), without(&plain, &["Qa7-a8", "Qa7-c7"]));
    }

    /// The stipulation's goal becomes the condition's: mate keeps it, stalemate makes the
    /// stalemate rule, a goal-less stipulation is refused.
    #[test]
    fn bound_to_the_goal() {
        use super::{Exclusif, ExclusiveGoal};
        use crate::rules::{ForGoal, Goal};
        let c = Exclusif::default();
        assert!(matches!(c.for_goal(Goal::Mate), Ok(ForGoal::Same)));
        match c.for_goal(Goal::Stalemate) {
            Ok(ForGoal::As(d)) => assert_eq!(d.name(), Exclusif { goal: ExclusiveGoal::Stalemate }.name()),
            other => panic!("{other:?}"),
        }
        assert!(c.for_goal(Goal::Any).unwrap_err().contains("mate or stalemate"));
        // Bound twice (twins), the goal stays one.
        let s = Exclusif { goal: ExclusiveGoal::Stalemate };
        assert!(matches!(s.for_goal(Goal::Stalemate), Ok(ForGoal::Same)));
    }

    /// White Kb6 Rh1, Black Kb8: Rh1-h8 is the only mate, so it stays legal.
    #[test]
    fn a_unique_mate_stays() {
        let fen = "1k6/8/1K6/8/8/8/8/7R w - - 0 1";
        assert!(moves(fen, &[]).contains(&"Rh1-h8".to_string()));
        assert_eq!(moves(fen, &["exclusif"]), moves(fen, &[]));
    }

    /// The goal judged under the rule itself. White Ka1 Pa2 Pb2 Se3 Rg3 Bc6, Black Kh2 Rf8
    /// Qh3: 1.Se3-f1+ leaves Black two replies, Rf8xf1 and Qh3xf1, and each mates White
    /// on the first rank. Two mating moves: both illegal, so Black has no move and is
    /// mated — Se3-f1 is a mate under Exclusif though not in plain chess.
    #[test]
    fn mate_by_exclusivity() {
        let fen = "5r2/8/2B5/8/8/4N1Rq/PP5k/K7 w - - 0 1";
        let after = |conds: &[&str]| {
            let mut g = game_from_fen(fen, conds).unwrap();
            let mut v = Vec::new();
            g.legal_moves(&mut v);
            let m = *v.iter().find(|m| m.from.index() == 20 && m.to.index() == 5).expect("Se3-f1 legal");
            g.make(&m).unwrap();
            let mut r = Vec::new();
            g.legal_moves(&mut r);
            (g.in_check(Colour::Black), r.len())
        };
        assert_eq!(after(&[]), (true, 2));
        assert_eq!(after(&["exclusif"]), (true, 0));
    }

    /// Goal stalemate (`conditions.md`'s divergence test, White Kc7 Rb1 Bg1, Black Ka8):
    /// many White moves keep Black stalemated, so all of them are illegal; exactly the
    /// non-stalemating moves stay.
    #[test]
    fn stalemate_goal() {
        let fen = "k7/2K5/8/8/8/8/8/1R4B1 w - - 0 1";
        let mut g = game_from_fen(fen, &[]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut keep = Vec::new();
        for m in &v {
            let notes = g.make(m).unwrap();
            let mut r = Vec::new();
            g.legal_moves(&mut r);
            let stalemate = r.is_empty() && !g.in_check(Colour::Black);
            g.unmake();
            if !stalemate {
                keep.push(notation::move_text(&g, m, &notes));
            }
        }
        keep.sort();
        assert!(v.len() - keep.len() >= 2, "several stalemating moves");
        assert_eq!(moves(fen, &["exclusif stalemate"]), keep);
        // Mate as the goal: Rb1-a1 and Rb1-b8 (protected by the king) both mate, so those
        // two go and the stalemating moves stay.
        assert_eq!(moves(fen, &["exclusif"]), without(&moves(fen, &[]), &["Rb1-a1", "Rb1-b8"]));
    }
}
