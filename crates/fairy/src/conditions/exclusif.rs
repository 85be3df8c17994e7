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
//! recursion follows checks; the nested test visits the moves as they are generated and
//! stops at the first one that cannot reach G, and the solver's "has a legal move" asks
//! the same test ([`Condition::any_legal`]) instead of filtering the whole list. While the filter judges, the engine's nested move lists are
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
use std::ops::ControlFlow;
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
        let r = if !self.may_reach(ctx) {
            Reach::No
        } else if depth + 1 > HORIZON {
            Reach::Undecided
        } else {
            match self.has_move(ctx, depth + 1) {
                Some(true) => Reach::No,
                Some(false) => Reach::Yes,
                None => Reach::Undecided,
            }
        };
        ctx.unmake();
        r
    }

    /// Whether the position after a move could satisfy the goal: the side to move is in
    /// check (mate) or is not (stalemate). Only such moves need the deeper look.
    fn may_reach(&self, ctx: &mut Ctx) -> bool {
        let side = ctx.pos().side();
        ctx.in_check(side) == (self.goal == ExclusiveGoal::Mate)
    }

    /// Whether the side to move has a legal move under the rule (`None`: undecided). A
    /// move that cannot reach the goal is legal, so the first one found answers; the
    /// others are judged only when every legal move might reach it.
    fn has_move(&self, ctx: &mut Ctx, depth: u32) -> Option<bool> {
        let mut candidates = ctx.take_buf();
        let mut legal = 0;
        let avoids = ctx.visit_legal(|ctx, m| {
            legal += 1;
            if self.may_reach(ctx) {
                candidates.push(*m);
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        });
        let answer = if avoids || legal == 1 {
            Some(true)
        } else if legal == 0 {
            Some(false)
        } else {
            let mut yes = 0;
            let mut answer = None;
            for m in &candidates {
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
        candidates.clear();
        ctx.give_buf(candidates);
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
    /// The list is not empty iff a move avoids the goal or there is only one move: the
    /// same answer as the nested test's, an undecided one counting as none.
    fn any_legal(&self, ctx: &mut Ctx) -> Option<bool> {
        Some(self.has_move(ctx, 0) == Some(true))
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

    /// The rule written plainly over the moves of the game without the condition, as a
    /// reference: whether `m` reaches the goal (`None`: undecided).
    fn reference_reach(g: &mut crate::Game, m: &crate::moves::Move, mate: bool, depth: u32) -> Option<bool> {
        g.make(m).unwrap();
        let side = g.pos.side();
        let r = if g.in_check(side) != mate {
            Some(false)
        } else if depth + 1 > super::HORIZON {
            None
        } else {
            reference_has_move(g, mate, depth + 1).map(|any| !any)
        };
        g.unmake();
        r
    }

    /// Whether the side to move has a legal move under the rule (`None`: undecided).
    fn reference_has_move(g: &mut crate::Game, mate: bool, depth: u32) -> Option<bool> {
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        if v.len() <= 1 {
            return Some(v.len() == 1);
        }
        let mut reaching = 0;
        for m in &v {
            match reference_reach(g, m, mate, depth) {
                Some(false) => return Some(true),
                Some(true) => reaching += 1,
                None => {}
            }
        }
        if reaching >= 2 { Some(false) } else { None }
    }

    /// On positions of random games full of checks, the legal moves under the rule (each
    /// goal) are the reference's, and the quick answer to "is there a legal move" agrees
    /// with the list.
    #[test]
    fn agrees_with_the_reference_on_random_positions() {
        let fens = [
            "4k3/8/3q4/8/2Q1R3/8/4r3/4K3 w - - 0 1",
            "6k1/5ppp/8/8/1q6/8/1B3PPP/3R2K1 w - - 0 1",
            "k7/2Q5/8/8/8/8/6r1/K6r b - - 0 1",
            "2k5/Q7/2K5/8/8/8/8/8 w - - 0 1",
            "5r2/8/2B5/8/8/4N1Rq/PP5k/K7 w - - 0 1",
            "k7/2K5/8/8/8/8/8/1R4B1 w - - 0 1",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut checked = (0, 0);
        for (cond, mate) in [("exclusif", true), ("exclusif stalemate", false)] {
            for fen in fens {
                let mut g = game_from_fen(fen, &[cond]).unwrap();
                let mut plain = game_from_fen(fen, &[]).unwrap();
                for _ in 0..12 {
                    let mut got = Vec::new();
                    g.legal_moves(&mut got);
                    let mut all = Vec::new();
                    plain.legal_moves(&mut all);
                    let verdicts: Vec<_> = all.iter().map(|m| reference_reach(&mut plain, m, mate, 0)).collect();
                    let mut want = all.clone();
                    if verdicts.iter().filter(|r| **r != Some(false)).count() > 1 {
                        want = all.iter().zip(&verdicts).filter(|(_, r)| **r == Some(false)).map(|(m, _)| *m).collect();
                    }
                    assert_eq!(got, want, "{cond} at {}", g.fen());
                    assert_eq!(g.any_legal_by_filter(), Some(!got.is_empty()));
                    checked.0 += 1;
                    checked.1 += usize::from(got.len() < all.len());
                    if got.is_empty() {
                        break;
                    }
                    let m = got[next(got.len())];
                    g.make(&m).unwrap();
                    plain.make(&m).unwrap();
                }
            }
        }
        assert!(checked.0 > 40 && checked.1 > 0, "{checked:?}");
    }
}
