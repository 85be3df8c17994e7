//! [`DynGame`]: the object-safe face of [`Game`], so that tools and the server pick rules
//! at run time; and [`VariantVisitor`], for code that must be monomorphised per variant
//! (the search) to receive the concrete [`Game`].

use crate::{Colour, Game, GameOptions, Outcome, Perft, PlayError, Status, TurnText, Variant};

/// A game whose variant is chosen at run time.
pub trait DynGame: Send {
    /// The variant's name (`chess`, `checkered`...).
    fn variant(&self) -> &'static str;
    /// The rules the game was created with.
    fn options(&self) -> &GameOptions;
    /// The current position in the variant's FEN.
    fn fen(&self) -> String;
    /// The position the game started from.
    fn start_fen(&self) -> &str;
    fn side_to_move(&self) -> Colour;
    /// Turns played.
    fn ply(&self) -> usize;
    /// Hash of the current position.
    fn hash(&self) -> u64;
    fn in_check(&mut self) -> bool;
    /// The legal turns of the position, sorted by canonical form (listed even when a
    /// game-level rule has ended the game: see [`DynGame::outcome`]).
    fn legal(&mut self) -> Vec<TurnText>;
    /// The position's own status under the variant's rules (no game-level rule).
    fn position_status(&mut self) -> Status;
    /// Plays a turn given as canonical form, notation or UCI token.
    fn play(&mut self, text: &str) -> Result<TurnText, PlayError>;
    /// Takes back the last turn.
    fn undo(&mut self) -> Option<TurnText>;
    /// The turns played, written out.
    fn history(&mut self) -> Vec<TurnText>;
    fn outcome(&mut self) -> Outcome;
    /// Perft leaves from the current position (with `bulk`, the last ply is counted).
    fn perft(&mut self, depth: u32, bulk: bool) -> u64;
    /// Perft split by first turn: `each(canonical form, leaves)` per first turn.
    fn divide(&mut self, depth: u32, bulk: bool, each: &mut dyn FnMut(&str, u64)) -> u64;
    /// A copy of the game.
    fn clone_box(&self) -> Box<dyn DynGame>;
}

/// Receives a concrete [`Game`] from the registry (`chimere_rules::visit`).
pub trait VariantVisitor {
    type Output;
    fn visit<V: Variant>(self, game: Game<V>) -> Self::Output;
}

impl<V: Variant> DynGame for Game<V> {
    fn variant(&self) -> &'static str {
        V::NAME
    }
    fn options(&self) -> &GameOptions {
        Game::options(self)
    }
    fn fen(&self) -> String {
        Game::fen(self)
    }
    fn start_fen(&self) -> &str {
        Game::start_fen(self)
    }
    fn side_to_move(&self) -> Colour {
        Game::side_to_move(self)
    }
    fn ply(&self) -> usize {
        Game::ply(self)
    }
    fn hash(&self) -> u64 {
        self.position().hash()
    }
    fn in_check(&mut self) -> bool {
        Game::in_check(self)
    }
    fn legal(&mut self) -> Vec<TurnText> {
        let turns = self.legal_turns();
        let chess960 = self.options().chess960;
        let tokens = self.position_mut().uci_all(&turns, chess960);
        let pos = self.position();
        let mut v: Vec<TurnText> = turns
            .iter()
            .zip(tokens)
            .map(|(m, uci)| TurnText {
                canonical: pos.canonical(m),
                notation: pos.notation(m),
                uci,
                id: pos.move_id(m),
            })
            .collect();
        v.sort_by(|a, b| a.canonical.cmp(&b.canonical));
        v
    }
    fn play(&mut self, text: &str) -> Result<TurnText, PlayError> {
        Ok(self.play_with_texts(text)?.1)
    }
    fn undo(&mut self) -> Option<TurnText> {
        let m = Game::undo(self)?;
        Some(self.texts(&m))
    }
    fn history(&mut self) -> Vec<TurnText> {
        self.history_texts()
    }
    fn outcome(&mut self) -> Outcome {
        Game::outcome(self)
    }
    fn position_status(&mut self) -> Status {
        self.position_mut().status()
    }
    fn perft(&mut self, depth: u32, bulk: bool) -> u64 {
        self.position_mut().perft_leaves(depth, bulk)
    }
    fn divide(&mut self, depth: u32, bulk: bool, each: &mut dyn FnMut(&str, u64)) -> u64 {
        Perft::<V>::default().divide(self.position_mut(), depth, bulk, each)
    }
    fn clone_box(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }
}
