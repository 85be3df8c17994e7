//! Conditions whose rules depend on the stipulation's goal (`conditions.md`): the solver
//! binds the goal into them before building a position's game.
//!
//! - Exclusif (`ExclusiveChess`): its moves reaching the goal must be unique; the goal
//!   (mate or stalemate) is handed to the condition as a parameter. A `~` stipulation has
//!   no goal to be exclusive about and is refused.
//! - Dead Reckoning (`DeadReckoning`): for goals involving mate it changes nothing and is
//!   not evaluated (removed from the rules: a dead position holds no mate, and a dead
//!   position in check must not pass for a mate). For the other goals it stays a filter on
//!   every node — a dead position has no move, so no line goes on through it (in help
//!   play: a solution through a dead position is rejected) — and a dead position reached
//!   satisfies no goal: [`dead_not_stalemate`] tells an emptied list from a stalemate.

use crate::stip::{Goal, Stipulation};
use chimere_fairy::Game;
use chimere_fairy::conditions::dead_reckoning::without_dead_reckoning;
use chimere_popeye::{PopeyeError, Problem};

/// Popeye-style keyword of Dead Reckoning (not a Popeye condition).
const DEAD_RECKONING: &str = "DeadReckoning";

/// Whether the side to move, without a legal move and not in check, has moves that Dead
/// Reckoning took away (a dead position, which is no stalemate).
pub fn dead_not_stalemate(game: &mut Game) -> bool {
    if !game.rules.filters.iter().any(|c| c.name() == "Dead Reckoning") {
        return false;
    }
    without_dead_reckoning(|| {
        let mut v = Vec::new();
        game.legal_moves(&mut v);
        !v.is_empty()
    })
}

/// Popeye's keyword of Exclusif.
const EXCLUSIVE: &str = "ExclusiveChess";

/// Gives the goal of `stip` to the goal-dependent conditions of `p`; `line` names the
/// stipulation in an error.
pub fn bind_goal(p: &mut Problem, stip: &Stipulation, line: usize) -> Result<(), PopeyeError> {
    if stip.goal == Goal::Mate {
        p.conditions.retain(|c| c.name != DEAD_RECKONING);
    }
    for c in p.conditions.iter_mut().filter(|c| c.name == EXCLUSIVE) {
        let word = match stip.goal {
            Goal::Mate => "Mate",
            Goal::Stalemate => "Stalemate",
            Goal::Any => {
                return Err(PopeyeError {
                    line,
                    message: format!("ExclusiveChess needs a mate or stalemate goal (stipulation `{}`)", stip.text),
                });
            }
        };
        c.params.retain(|w| !w.eq_ignore_ascii_case("mate") && !w.eq_ignore_ascii_case("stalemate"));
        c.params.push(word.to_string());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stip::parse_stipulation;

    fn problem(stip: &str) -> Problem {
        let text = format!(
            "BeginProblem\nStipulation {stip}\nCondition ExclusiveChess\nPieces White Kc6 Qa7 Black Kc8\nEndProblem\n"
        );
        chimere_popeye::parse_all(&text).into_iter().next().unwrap().unwrap()
    }

    #[test]
    fn goal_reaches_the_condition() {
        for (stip, word) in [("#1", "Mate"), ("h=2", "Stalemate"), ("s#2", "Mate")] {
            let mut p = problem(stip);
            bind_goal(&mut p, &parse_stipulation(stip).unwrap(), 2).unwrap();
            assert_eq!(p.conditions[0].params, vec![word.to_string()], "{stip}");
            // Binding twice (twins) keeps one goal word.
            bind_goal(&mut p, &parse_stipulation(stip).unwrap(), 2).unwrap();
            assert_eq!(p.conditions[0].params.len(), 1);
        }
        let mut p = problem("~1");
        let e = bind_goal(&mut p, &parse_stipulation("~1").unwrap(), 2).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("ExclusiveChess"));
    }
}
