//! Dead Reckoning (no Popeye keyword): a position that is neither mate nor stalemate and
//! from which no sequence of legal moves, under the problem's rules, leads to a mate by
//! either side ends the game: no side has a legal move there and the position satisfies no
//! goal (`conditions.md`). 50/75-move and repetition rules play no part.
//!
//! Implementation: a legal-move filter that empties the list of a proven-dead position,
//! and a status hook that calls such a position a draw (not a mate, even in check). "Dead"
//! is `chimere_retro::proven_dead`: the material rule (only when the other conditions are
//! the retro ones, i.e. orthodox rules), forced-line closure (depth 7, 10 000 nodes, positions with at most 32 moves) and an exhaustive
//! closure under a node limit, both run under the problem's own rules less this condition
//! (`Game::without`; leaving it out cannot change the answer, since a dead position holds
//! no mate). Cached by position hash (bounded).
//!
//! Goals: for a mate goal the condition changes nothing and is left out
//! ([`Condition::for_goal`]); for the others a dead position reached satisfies no goal
//! ([`Condition::voids_goals`], which the solver asks through `Game::goals_void`).
//!
//! Limits: a dead position that needs a deeper analysis (blocked pawn chains: CHA's
//! semi-static tier is not implemented; closures beyond the node limit) counts as alive, so
//! play may continue in it; an alive position is never stopped.

use crate::moves::Move;
use crate::rules::{Capabilities, Condition, Ctx, ForGoal, Game, Goal};
use chimere_core::Status;
use chimere_retro::{Cache, DeadConfig, orthodox_material_dead, proven_dead};

/// The Dead Reckoning condition.
#[derive(Debug)]
pub struct DeadReckoning {
    cache: Cache,
    config: DeadConfig,
}

impl Default for DeadReckoning {
    fn default() -> Self {
        DeadReckoning {
            cache: Cache::new(1 << 18),
            config: DeadConfig {
                forced_depth: 7,
                forced_nodes: 10_000,
                forced_max_moves: 32,
                closure_nodes: 10_000,
                closure_max_moves: 12,
            },
        }
    }
}

impl DeadReckoning {
    /// Whether the position of `game`, whose rules hold this condition, is proven dead. The
    /// search runs under the same rules without this condition ([`Ctx::without`]), which
    /// cannot change the answer (a dead position holds no mate).
    fn is_dead(&self, ctx: &Ctx) -> bool {
        let key = ctx.pos().hash();
        if let Some(v) = self.cache.get(key) {
            return v;
        }
        let mut rest = ctx.without(self);
        let orthodox = rest.rules.retro_orthodox();
        let material = |g: &Game| orthodox && orthodox_material_dead(g);
        let dead = proven_dead(&mut rest, &self.config, &material).is_dead();
        self.cache.insert(key, dead);
        dead
    }

    /// Whether an empty list of legal moves is one this condition emptied: the side to
    /// move has moves under the other rules.
    fn emptied(&self, ctx: &Ctx, legal: &[Move]) -> bool {
        if !legal.is_empty() {
            return false;
        }
        let mut all = Vec::new();
        ctx.without(self).legal_moves(&mut all);
        !all.is_empty()
    }
}

impl Condition for DeadReckoning {
    fn name(&self) -> String {
        "Dead Reckoning".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { filter: true, retro_orthodox: true, ..Capabilities::default() }
    }
    fn filter_legal(&self, ctx: &mut Ctx, out: &mut Vec<Move>, start: usize) {
        if out.len() > start && self.is_dead(ctx) {
            out.truncate(start);
        }
    }
    fn status(&self, ctx: &mut Ctx, legal: &[Move]) -> Option<Status> {
        // An empty list: a real mate or stalemate, or a dead position whose list we emptied.
        self.emptied(ctx, legal).then_some(Status::Draw)
    }
    fn voids_goals(&self, ctx: &mut Ctx, legal: &[Move]) -> bool {
        self.emptied(ctx, legal)
    }
    /// A dead position holds no mate, and a dead position in check must not pass for a
    /// mate: for a mate goal the condition changes nothing and is not evaluated.
    fn for_goal(&self, goal: Goal) -> Result<ForGoal, String> {
        Ok(if goal == Goal::Mate { ForGoal::Omitted } else { ForGoal::Same })
    }
}

#[cfg(test)]
mod tests {
    use crate::Condition;
    use crate::game_from_fen;
    use chimere_core::{Status, Variant};

    fn count(g: &mut crate::Game) -> usize {
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        v.len()
    }

    /// conditions.md, Buchanan (Problemas 2017) 8/p7/8/P2p4/Pp1p4/kP1Pp3/p1KpP3/NQ1B4 w:
    /// after 1.a5-a6 a2xb1=Q the check forces Kxb1 and stalemate, so the position is dead
    /// and has no move under DR (=B the same; =N too, by forced closure); after a2xb1=R play goes on (the solution
    /// 2.a2xb1=R Kc2xb1 =). The diagram itself is alive.
    #[test]
    fn buchanan() {
        let dr = &["dead reckoning"];
        let mut g = game_from_fen("8/p7/8/P2p4/Pp1p4/kP1Pp3/p1KpP3/NQ1B4 w - - 0 1", dr).unwrap();
        assert!(count(&mut g) > 0);
        for (p, dead) in [('q', true), ('b', true), ('n', true), ('r', false)] {
            let fen = format!("8/p7/P7/3p4/Pp1p4/kP1Pp3/2KpP3/N{p}1B4 w - - 0 1");
            let mut g = game_from_fen(&fen, dr).unwrap();
            let mut plain = game_from_fen(&fen, &[]).unwrap();
            assert_eq!(count(&mut g) == 0, dead, "{fen}");
            assert!(count(&mut plain) > 0);
            let st = Variant::status(&mut g);
            assert_eq!(st, if dead { Status::Draw } else { Status::Ongoing }, "{fen}");
        }
    }

    /// Left out for a mate goal, kept for the others; a dead position's emptied list voids
    /// every goal, a real stalemate does not; the rules less the condition give the moves.
    #[test]
    fn goals() {
        use crate::rules::{ForGoal, Goal};
        let dr = super::DeadReckoning::default();
        assert!(matches!(dr.for_goal(Goal::Mate), Ok(ForGoal::Omitted)));
        assert!(matches!(dr.for_goal(Goal::Stalemate), Ok(ForGoal::Same)));
        assert!(matches!(dr.for_goal(Goal::Any), Ok(ForGoal::Same)));
        // K+B v K: dead, its list emptied.
        let mut g = game_from_fen("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", &["dead reckoning"]).unwrap();
        assert_eq!(count(&mut g), 0);
        assert!(g.goals_void(&[]));
        let dead_reckoning = g.rules.conditions()[0].clone();
        let mut rest = g.without(dead_reckoning.as_ref());
        assert!(rest.rules.conditions().is_empty());
        assert!(count(&mut rest) > 0);
        // A real stalemate (Black Ka8, White Kc7 Qb6... here Kb6 Qc7) voids nothing.
        let mut g = game_from_fen("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", &["dead reckoning"]).unwrap();
        assert_eq!(count(&mut g), 0);
        assert!(!g.goals_void(&[]));
    }

    /// Material: K+B v K is dead (empty list, draw even though moves exist); K+R v K is
    /// alive (list unchanged).
    #[test]
    fn material() {
        let dr = &["dead reckoning"];
        let mut g = game_from_fen("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", dr).unwrap();
        assert_eq!(count(&mut g), 0);
        assert_eq!(Variant::status(&mut g), Status::Draw);
        let mut g = game_from_fen("4k3/8/8/8/8/8/8/4KR2 w - - 0 1", dr).unwrap();
        let mut plain = game_from_fen("4k3/8/8/8/8/8/8/4KR2 w - - 0 1", &[]).unwrap();
        assert_eq!(count(&mut g), count(&mut plain));
        // A real mate stays a mate.
        let mut g = game_from_fen("R3k3/8/4K3/8/8/8/8/8 b - - 0 1", dr).unwrap();
        assert_eq!(Variant::status(&mut g), Status::WhiteWins);
    }

    /// CHA's test vectors (data: crates/retro/tests/data, source in its header): under DR
    /// an alive position keeps its orthodox move list; dead ones proven dead have none.
    #[test]
    fn cha_vectors_lists() {
        let text = include_str!("../../../retro/tests/data/cha-test-vector.txt");
        let (mut emptied, mut dead) = (0, 0);
        for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            let (tag, fen) = line.split_at(2);
            let fen = format!("{} 0 1", fen.trim());
            let (Ok(mut g), Ok(mut plain)) = (game_from_fen(&fen, &["dead reckoning"]), game_from_fen(&fen, &[]))
            else {
                continue;
            };
            let (n, m) = (count(&mut g), count(&mut plain));
            if tag == "--" {
                dead += 1;
                emptied += (n == 0 && m > 0) as u32;
            } else {
                assert_eq!(n, m, "alive position lost moves: {fen}");
            }
        }
        eprintln!("DR on CHA vectors: {emptied} of {dead} dead positions emptied");
        assert!(emptied > 0);
    }

    /// Speed figure (run with `--ignored --nocapture`): perft 3 of a middlegame and of a
    /// blocked ending with and without Dead Reckoning (every node's list is filtered).
    #[test]
    #[ignore]
    fn speed() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/5k1p/8/5p1P/p1p2PpP/P1P1p1P1/4P3/K7 b - - 0 1",
        ] {
            for conds in [&[][..], &["dead reckoning"][..]] {
                let mut g = game_from_fen(fen, conds).unwrap();
                let t = std::time::Instant::now();
                let n = g.perft(3);
                eprintln!("{conds:?}: perft 3 = {n} in {:?} ({fen})", t.elapsed());
            }
        }
    }
}
