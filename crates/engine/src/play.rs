//! The computer's turn in a game held elsewhere (the web server): the game is given as the
//! registry gives it — variant, rules, start position and the turns played — rebuilt as a
//! concrete `Game<V>` (so the search sees its history for repetition) and searched at a
//! playing level within a time.

use crate::pos::Api;
use crate::search::{self, History, Settings, Shared};
use crate::{Limits, Tt};
use chimere_core::{Game, GameOptions};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Size of the table a single move search uses (the server runs many games at once).
const TABLE_MB: usize = 16;

/// The turn the engine chooses at `level` (1-8) within `budget`, as a UCI token, in the
/// game of `variant` under `opts` that started at `start_fen` and went on with `moves`
/// (any text `Game::play` accepts); `None` when the side to move has no legal turn.
pub fn choose(
    variant: &str,
    opts: GameOptions,
    start_fen: &str,
    moves: &[String],
    level: u8,
    budget: Duration,
) -> Result<Option<String>, String> {
    struct Choose<'a> {
        moves: &'a [String],
        level: u8,
        budget: Duration,
    }
    impl Choose<'_> {
        fn run<V: Api>(self, mut game: Game<V>) -> Result<Option<String>, String> {
            for m in self.moves {
                game.play(m).map_err(|e| format!("turn `{m}`: {e}"))?;
            }
            let h = game.hashes();
            let history = History { hashes: h[..h.len().saturating_sub(1)].to_vec(), halfmove: game.fifty_count() };
            let chess960 = game.options().chess960;
            let settings =
                Settings { level: self.level.clamp(1, 8), chess960, seed: h.len() as u64, ..Settings::default() };
            let limits = Limits { movetime: Some(self.budget.as_millis().max(1) as u64), ..Limits::default() };
            let shared = Shared::new(Arc::new(Tt::new(TABLE_MB)), Arc::new(AtomicBool::new(false)));
            let pos = game.position().clone();
            let o = search::search(&pos, &history, &limits, &settings, &shared, &mut |_| {});
            Ok(o.best.map(|m| game.position().uci(&m, chess960)))
        }
    }
    let kind = chimere_rules::VariantKind::parse(variant)?;
    let rules = chimere_rules::Rules::of(kind, &opts);
    let job = Choose { moves, level, budget };
    chimere_rules::with_rules!(rules, V => {
        let game = Game::<V>::from_fen(opts, start_fen).map_err(|e| e.to_string())?;
        job.run(game)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chooses_a_legal_turn_and_takes_a_mate() {
        let opts = GameOptions::default();
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let moves: Vec<String> = ["f3", "e5", "g4"].iter().map(|s| s.to_string()).collect();
        let t = choose("chess", opts.clone(), start, &moves, 8, Duration::from_millis(200)).unwrap();
        assert_eq!(t.as_deref(), Some("d8h4"), "Qh4 mates");
        let mut g = chimere_rules::create("dynamo", opts.clone(), None).unwrap();
        let fen = g.fen();
        let t = choose("dynamo", opts.clone(), &fen, &[], 1, Duration::from_millis(50)).unwrap().unwrap();
        assert!(g.play(&t).is_ok(), "{t} is legal");
        let mated = ["f3", "e5", "g4", "Qh4"].iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(choose("chess", opts.clone(), start, &mated, 4, Duration::from_millis(50)).unwrap(), None);
        assert!(choose("chess", opts, start, &["e5".to_string()], 4, Duration::from_millis(50)).is_err());
    }
}
