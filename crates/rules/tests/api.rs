//! The one game API over every registered game (and chess under conditions): random games
//! from the start positions check that every written form of every legal turn parses back
//! to that turn, that bad input is a typed error leaving the game unchanged, and that
//! undo restores the game exactly.

use chimere_core::{Colour, Game, GameOptions, PlayError, Variant, VariantVisitor};
use proptest::prelude::*;

/// Plays `plies` random turns (choices from `picks`), checking at every position.
struct Walk {
    picks: Vec<u16>,
    uci: bool,
}

impl VariantVisitor for Walk {
    type Output = Result<(), TestCaseError>;
    fn visit<V: Variant>(self, mut g: Game<V>) -> Self::Output {
        let start = (g.fen(), g.position().hash());
        for (ply, pick) in self.picks.iter().enumerate() {
            let turns = g.legal_turns();
            if turns.is_empty() || g.outcome().is_over() {
                break;
            }
            for m in &turns {
                let pos = g.position_mut();
                let canonical = pos.canonical(m);
                prop_assert_eq!(pos.parse_turn(&canonical).ok(), Some(*m), "canonical {} at ply {}", canonical, ply);
                if self.uci {
                    for chess960 in [false, true] {
                        let token = pos.uci(m, chess960);
                        prop_assert!(!token.contains(' '), "token {} has a space", token);
                        prop_assert_eq!(
                            pos.parse_turn(&token).ok(),
                            Some(*m),
                            "uci {} ({}) at ply {}",
                            token,
                            canonical,
                            ply
                        );
                    }
                }
                let id = pos.move_id(m);
                prop_assert_eq!(g.turn_by_id(id), Some(*m), "id of {}", canonical);
            }
            // Garbage and illegal input change nothing.
            let before = (g.fen(), g.position().hash(), g.ply());
            for bad in ["", "zz", "e9e4", "-a1:wk +a2:wk", "0000,0000,0000"] {
                let r = g.play(bad);
                prop_assert!(matches!(r, Err(PlayError::Unparsable(_))), "`{}` gave {:?}", bad, r);
                prop_assert_eq!(&(g.fen(), g.position().hash(), g.ply()), &before);
            }
            let m = turns[*pick as usize % turns.len()];
            let text = g.position().canonical(&m);
            prop_assert_eq!(g.play(&text).ok(), Some(m));
            prop_assert_eq!(g.position().hash(), g.position().recomputed_hash());
        }
        while g.undo().is_some() {}
        prop_assert_eq!((g.fen(), g.position().hash()), start);
        Ok(())
    }
}

fn walk(variant: &str, conditions: &[&str], picks: Vec<u16>, uci: bool) -> Result<(), TestCaseError> {
    let opts = GameOptions { conditions: conditions.iter().map(|c| c.to_string()).collect(), ..Default::default() };
    chimere_rules::visit(variant, opts, None, Walk { picks, uci }).expect("the start position")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, .. ProptestConfig::default() })]

    #[test]
    fn written_forms_parse_back(picks in proptest::collection::vec(any::<u16>(), 1..24)) {
        for v in chimere_rules::names() {
            walk(v, &[], picks.clone(), true)?;
        }
        walk("chess", &["circe"], picks.clone(), true)?;
        walk("chess", &["anticirce cheylan", "glasgow"], picks, true)?;
    }
}

#[test]
fn side_to_move_and_check_follow_the_game() {
    let mut g = chimere_rules::create("chess", GameOptions::default(), None).unwrap();
    assert_eq!(g.side_to_move(), Colour::White);
    for m in ["e4", "f5", "Qh5"] {
        g.play(m).unwrap();
    }
    assert_eq!(g.side_to_move(), Colour::Black);
    assert!(g.in_check());
    let mut d = chimere_rules::create("dynamo", GameOptions::default(), None).unwrap();
    assert!(!d.in_check());
    let first = d.legal().remove(0);
    assert_eq!(d.play(&first.uci).unwrap(), first);
    assert_eq!(d.side_to_move(), Colour::Black);
}
