//! Orthodox chess under fairy conditions as a [`chimere_core::Variant`]: the fairy
//! [`Game`] (rules and position) is the variant's position type, so the one game API
//! (`chimere_core::Game`, `DynGame`), the search and the tools work on it as on any
//! variant. The rules come from [`GameOptions::conditions`] (names as
//! [`conditions::by_name`] takes them).
//!
//! Under multi-move turns (a condition decides when a turn ends) a "turn" of the API is
//! one move: the side to move may stay the same after it.
//!
//! Positions are read by [`crate::position_from_fen`] (the core's one orthodox reader)
//! and written by [`crate::Position::fen`] (vchess FEN, as the chess crate writes it). A
//! side without a royal unit is refused ([`crate::check_royals`]) unless the rules allow
//! it (Losing chess, Extinction) or the option `kings=optional` is given (a problem
//! played without a king).

use crate::{Game, Move, RuleSet, conditions, notation, position_from_fen};
use chimere_core::{Colour, GameOptions, GameRules, Kind, Piece, RulesError, Square, Status, Variant};
use std::sync::Arc;

/// The rule set of `names` (refuses unknown names and combinations the engine cannot
/// support).
pub fn rules_of(names: &[String]) -> Result<RuleSet, RulesError> {
    let mut conds: Vec<Arc<dyn crate::Condition>> = Vec::new();
    for n in names {
        conds.extend(conditions::by_name(n).map_err(|e| RulesError::Unsupported(e.to_string()))?);
    }
    RuleSet::build(conds, &[]).map_err(|e| RulesError::Unsupported(e.to_string()))
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const PAWN: Kind = Kind(0);

impl Variant for Game {
    type Move = Move;
    type Undo = ();
    const NAME: &'static str = "chess";
    const RULES: GameRules = GameRules::ORTHODOX;

    fn new_game(opts: &GameOptions) -> Result<Self, RulesError> {
        opts.check_params(&[])?;
        if opts.randomness != 0 {
            return Err(RulesError::Unsupported("random arrays under fairy conditions".into()));
        }
        Self::from_fen_with(opts, START)
    }
    fn from_fen(fen: &str) -> Result<Self, RulesError> {
        Self::from_fen_with(&GameOptions::default(), fen)
    }
    fn from_fen_with(opts: &GameOptions, fen: &str) -> Result<Self, RulesError> {
        opts.check_params(&["kings"])?;
        let allow_no_royal = match opts.param("kings") {
            None => false,
            Some("optional") => true,
            Some(v) => return Err(RulesError::Option(format!("kings={v}: the only value is `optional`"))),
        };
        let rules = rules_of(&opts.conditions)?;
        let pos = position_from_fen(fen)?;
        crate::check_royals(&rules, &pos, allow_no_royal)?;
        Ok(Game::new(rules, pos))
    }
    fn fen(&self) -> String {
        self.pos.fen()
    }
    fn legal_turns(&mut self, out: &mut Vec<Move>) {
        self.legal_moves(out);
    }
    fn make(&mut self, m: &Move) {
        let done = Game::make(self, m);
        debug_assert!(done.is_some(), "a legal move plays");
    }
    fn unmake(&mut self, _m: &Move, _undo: ()) {
        Game::unmake(self);
    }
    fn status(&mut self) -> Status {
        let mut v = self.take_buf();
        self.legal_moves(&mut v);
        let s = Game::status(self, &v);
        self.give_buf(v);
        s
    }
    fn canonical(&self, m: &Move) -> String {
        Game::canonical(&mut self.clone(), m).unwrap_or_default()
    }
    fn notation(&self, m: &Move) -> String {
        notation::move_with_check(&mut self.clone(), m).unwrap_or_default()
    }
    fn hash(&self) -> u64 {
        self.pos.hash()
    }
    fn recomputed_hash(&self) -> u64 {
        self.pos.recomputed_hash()
    }
    /// The fairy engine's own perft (pseudo-legal moves tested as they are played).
    fn perft_leaves(&mut self, depth: u32, _bulk: bool) -> u64 {
        Game::perft(self, depth)
    }
    fn side_to_move(&self) -> Colour {
        self.pos.side()
    }
    fn in_check(&mut self) -> bool {
        let side = self.pos.side();
        Game::in_check(self, side)
    }
    fn is_noisy(&self, m: &Move) -> bool {
        m.capture.is_some() || m.promo.is_some()
    }
    fn resets_fifty(&self, m: &Move) -> bool {
        self.is_noisy(m) || self.pos.unit(m.from).is_some_and(|u| u.kind() == PAWN)
    }
    // No `board()`: the fairy board holds the whole piece table (`position::Board`), not
    // the core's orthodox board; evaluation reads `for_each_piece`.
    fn for_each_piece(&self, f: &mut dyn FnMut(Square, Piece)) {
        for s in self.pos.occupied() {
            if let Some(u) = self.pos.unit(s) {
                f(s, u.piece);
            }
        }
    }
    /// The token of [`crate::uci`] (disambiguated among the legal moves; the base token
    /// for a move that is not legal here).
    fn uci_all(&mut self, moves: &[Move], chess960: bool) -> Vec<String> {
        self.uci_tokens(moves, chess960)
    }
    fn uci(&self, m: &Move, chess960: bool) -> String {
        self.uci_token(m, chess960).unwrap_or_else(|| self.uci_base(m, chess960))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chimere_core::{DynGame, Game as Play, GameOptions};

    fn opts(conds: &[&str]) -> GameOptions {
        GameOptions { conditions: conds.iter().map(|c| c.to_string()).collect(), ..Default::default() }
    }

    #[test]
    fn orthodox_and_circe_through_the_game_api() {
        let mut chess: Play<Game> = Play::new(opts(&[])).unwrap();
        assert_eq!(DynGame::perft(&mut chess, 3, false), 8902);
        let mut circe: Play<Game> = Play::from_fen(opts(&["circe"]), "4k3/3q4/8/8/3Q4/8/8/4K3 w - - 0 1").unwrap();
        let legal = DynGame::legal(&mut circe);
        assert!(legal.iter().any(|t| t.notation == "Qd4*d7[+bQd8] +" && t.canonical == "-d4:wq -d7:bq +d7:wq +d8:bq"));
        assert!(!circe.outcome().is_over());
        let played = DynGame::play(&mut circe, "Qd4*d7[+bQd8]").unwrap();
        assert_eq!(played.canonical, "-d4:wq -d7:bq +d7:wq +d8:bq");
        assert!(circe.in_check());
        assert!(Play::<Game>::new(opts(&["circe", "ghost"])).is_err());
        // Anticirce Cheylan: the king and the bishop both take d7 and are reborn where
        // they started; the two turns differ (the king loses its castling rights), so
        // their canonical forms must too, and each must read back as itself.
        let mut anti: Play<Game> =
            Play::from_fen(opts(&["anticirce cheylan"]), "r1b1k2r/3N4/8/8/8/8/8/4K3 b kq - 0 1").unwrap();
        let legal = DynGame::legal(&mut anti);
        let takes: Vec<&str> =
            legal.iter().filter(|t| t.canonical.contains("-d7:wn")).map(|t| t.canonical.as_str()).collect();
        assert!(takes.contains(&"-c8:bb -d7:wn +c8:bb") && takes.contains(&"-d7:wn -e8:bk +e8:bk"), "{takes:?}");
        for t in &legal {
            let back = DynGame::play(&mut anti, &t.canonical).unwrap();
            assert_eq!(back.canonical, t.canonical);
            anti.undo().unwrap();
        }
        assert!(Play::<Game>::new(opts(&["frobnicate"])).is_err());
        // Fool's mate: checkmate.
        let mut mate: Play<Game> =
            Play::from_fen(opts(&[]), "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3").unwrap();
        assert_eq!(
            mate.outcome(),
            chimere_core::Outcome { status: Status::BlackWins, reason: chimere_core::EndReason::Checkmate }
        );
    }
}
