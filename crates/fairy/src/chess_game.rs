//! Orthodox chess under fairy conditions as a run-time [`chimere_core::Game`], for tools
//! such as `chimere moves --variant chess --condition circe --condition "anticirce cheylan"`.

use crate::{Game, Move, RuleSet, conditions, notation, position_from_fen};
use chimere_core::{Analysis, GameOptions, RulesError, Status, TurnInfo};
use std::sync::Arc;

/// Orthodox chess with a list of conditions (by name, see [`conditions::by_name`]).
///
/// Under multi-move turns (a condition decides when a turn ends),
/// a FEN is always the start of a turn; `analyse` lists the legal moves of the current
/// part of the turn (the first moves of the turn that can be completed), and `perft` and
/// `divide` count single moves (one ply = one part of a turn), whichever side makes them.
///
/// A FEN is read by [`crate::position_from_fen`]; a side without a royal unit is refused
/// unless the rules allow it or [`ConditionalChess::allow_no_royal`] says so.
#[derive(Clone, Debug)]
pub struct ConditionalChess {
    rules: RuleSet,
    allow_no_royal: bool,
}

impl ConditionalChess {
    /// Composes the named conditions; refuses unknown names and combinations the engine
    /// cannot support.
    pub fn new(names: &[&str]) -> Result<ConditionalChess, RulesError> {
        let mut conds: Vec<Arc<dyn crate::Condition>> = Vec::new();
        for n in names {
            conds.extend(conditions::by_name(n).map_err(|e| RulesError::Unsupported(e.to_string()))?);
        }
        let rules = RuleSet::build(conds, &[]).map_err(|e| RulesError::Unsupported(e.to_string()))?;
        Ok(ConditionalChess { rules, allow_no_royal: false })
    }

    /// Accept positions where a side has no royal unit even when the rules do not
    /// ([`crate::check_royals`]): for problem positions played without a king.
    pub fn allow_no_royal(mut self, allow: bool) -> ConditionalChess {
        self.allow_no_royal = allow;
        self
    }

    /// A game on this FEN (standard or vchess dialect).
    pub fn game(&self, fen: &str) -> Result<Game, RulesError> {
        let pos = position_from_fen(fen)?;
        crate::check_royals(&self.rules, &pos, self.allow_no_royal)?;
        Ok(Game::new(self.rules.clone(), pos))
    }
}

/// Status of the side to move (see [`Game::status`]: a condition may decide it).
pub fn status(g: &mut Game, legal: &[Move]) -> Status {
    g.status(legal)
}

/// Calls `each(canonical form, leaves)` per first move and returns the total.
fn divide(g: &mut Game, depth: u32, each: &mut dyn FnMut(&str, u64)) -> u64 {
    let mut v: Vec<Move> = Vec::new();
    g.legal_moves(&mut v);
    let mut total = 0;
    for m in &v {
        let c = g.canonical(m).unwrap_or_default();
        if g.make(m).is_none() {
            continue;
        }
        let n = if depth > 1 { g.perft(depth - 1) } else { 1 };
        g.unmake();
        each(&c, n);
        total += n;
    }
    total
}

impl chimere_core::Game for ConditionalChess {
    fn name(&self) -> &'static str {
        "chess"
    }
    fn start_fen(&self, opts: &GameOptions) -> Result<String, RulesError> {
        opts.check(&[])?;
        if opts.randomness != 0 {
            return Err(RulesError::Unsupported("random arrays under conditions".into()));
        }
        Ok("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah -".into())
    }
    fn analyse(&self, fen: &str) -> Result<Analysis, RulesError> {
        let mut g = self.game(fen)?;
        let mut v: Vec<Move> = Vec::new();
        g.legal_moves(&mut v);
        let mut turns: Vec<TurnInfo> = v
            .iter()
            .map(|m| TurnInfo {
                canonical: g.canonical(m).unwrap_or_default(),
                notation: notation::move_with_check(&mut g, m).unwrap_or_default(),
            })
            .collect();
        turns.sort_by(|a, b| a.canonical.cmp(&b.canonical));
        let status = status(&mut g, &v);
        Ok(Analysis { fen: g.fen(), status, turns })
    }
    fn perft(&self, fen: &str, depth: u32, _bulk: bool) -> Result<u64, RulesError> {
        chimere_core::check_perft_depth(depth)?;
        Ok(self.game(fen)?.perft(depth))
    }
    fn divide(&self, fen: &str, depth: u32, _bulk: bool, each: &mut dyn FnMut(&str, u64)) -> Result<u64, RulesError> {
        chimere_core::check_perft_depth(depth)?;
        let mut g = self.game(fen)?;
        Ok(if depth == 0 { 1 } else { divide(&mut g, depth, each) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chimere_core::Game as _;

    #[test]
    fn orthodox_and_circe_through_the_tool_interface() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah -";
        let chess = ConditionalChess::new(&[]).unwrap();
        assert_eq!(chess.perft(start, 3, false).unwrap(), 8902);
        let circe = ConditionalChess::new(&["circe"]).unwrap();
        let a = circe.analyse("4k3/3q4/8/8/3Q4/8/8/4K3 w 0 iiii -").unwrap();
        assert!(
            a.turns.iter().any(|t| t.notation == "Qd4*d7[+bQd8] +" && t.canonical == "-d4:wq -d7:bq +d7:wq +d8:bq")
        );
        assert_eq!(a.status, Status::Ongoing);
        let mut firsts = 0;
        let total = circe.divide(start, 2, false, &mut |_, _| firsts += 1).unwrap();
        assert_eq!((firsts, total), (20, 400));
        assert!(ConditionalChess::new(&["circe", "ghost"]).is_err());
        assert!(ConditionalChess::new(&["frobnicate"]).is_err());
        // Fool's mate: checkmate status.
        let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w 2 ahah -";
        assert_eq!(chess.analyse(mate).unwrap().status, Status::BlackWins);
    }
}
