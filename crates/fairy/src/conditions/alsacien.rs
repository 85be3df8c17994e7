//! Alsacien (no Popeye keyword): a turn, with all its fairy side effects, is legal only if
//! the position it produces — board and side to move — is not proven unreachable by an
//! orthodox game from the game array (`conditions.md`, `retro.md` §1).
//!
//! Implementation: a legality test after every move (`Condition::legal_after`) asking
//! `chimere_retro::proven_illegal` (tier 0 static rules + tier 1 bounded retraction) on the
//! board and side to move, with no castling right and an unknown e.p. state (a right that
//! would make the position illegal is dropped, never a reason to forbid the turn). Answers
//! are cached by position hash (bounded). Check and observation stay those of the other
//! rules; mate and stalemate are judged on the filtered lists because the filter is part of
//! move legality.
//!
//! Limits: only what tiers 0-1 prove is rejected, so an illegal position needing a deeper
//! proof is accepted (possible extra solutions); a legal position is never rejected.
//! Positions with non-orthodox units (fairy kinds, neutral units, units in the underworld,
//! holes) are illegal, so every turn producing one is refused. The diagram itself is not
//! judged by the move filter: a solver asks [`diagram_illegal`] first and reports an
//! illegal diagram.

use crate::position::Position;
use crate::rules::{Capabilities, Condition, Ctx, RuleSet, RulesError};
use chimere_core::Colour;
use chimere_retro::{Cache, Ep, Legality, Setup, proven_illegal};

/// The orthodox view of a fairy position: board, side to move, no castling right, e.p.
/// unknown. Units that are not orthodox (fairy kinds, neutral units, buried units, holes)
/// count as foreign.
pub fn retro_setup(pos: &Position) -> Setup {
    let mut s = Setup::empty();
    for (sq, p) in pos.board().iter() {
        s.put_kind(sq, p.colour, p.kind);
    }
    let extra = pos.underworld().len() + pos.holes().count() as usize;
    s.foreign = s.foreign.saturating_add(extra.min(255) as u8);
    s.turn = pos.side();
    s.castling = 0;
    s.ep = Ep::Any;
    s
}

/// Whether the diagram (board and side to move) is proven illegal, with the reason.
pub fn diagram_illegal(pos: &Position) -> Option<&'static str> {
    match proven_illegal(&retro_setup(pos)) {
        Legality::Illegal(r) => Some(r),
        Legality::NotProven => None,
    }
}

/// The Alsacien condition (one bounded cache of answers per rule set).
#[derive(Debug)]
pub struct Alsacien {
    cache: Cache,
}

impl Default for Alsacien {
    fn default() -> Self {
        Alsacien { cache: Cache::new(1 << 18) }
    }
}

impl Alsacien {
    /// Whether the current position is not proven illegal (cached by position hash).
    pub fn admits(&self, pos: &Position) -> bool {
        self.cache.get_or(pos.hash(), || !proven_illegal(&retro_setup(pos)).is_illegal())
    }
}

impl Condition for Alsacien {
    fn name(&self) -> String {
        "Alsacien".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { legality: true, retro_orthodox: true, ..Capabilities::default() }
    }
    fn legal_after(&self, ctx: &mut Ctx, _mover: Colour) -> bool {
        self.admits(ctx.pos())
    }
    fn check_combination(&self, rules: &RuleSet) -> Result<(), RulesError> {
        // Every position would hold non-orthodox units (or none would be orthodox-legal):
        // piece-set substitutions, ordinary kings, units of either colour moved by a side,
        // multi-move turns.
        for (c, k) in rules.conditions_with_capabilities() {
            if k.substitution.is_some() || k.kings_ordinary || k.any_unit || k.turns {
                return Err(RulesError(format!("Alsacien cannot be combined with {}", c.name())));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;
    use chimere_core::Variant;

    fn moves(g: &mut crate::Game) -> Vec<String> {
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut out: Vec<String> = v.iter().map(|m| Variant::canonical(g, m)).collect();
        out.sort();
        out
    }

    fn play(g: &mut crate::Game, canonical: &str) {
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let m = *v.iter().find(|m| Variant::canonical(g, m) == canonical).unwrap_or_else(|| panic!("{canonical}"));
        assert!(g.make(&m).is_some());
    }

    /// conditions.md, Alsacien (1): k7/8/1PN5/8/8/8/8/B6K w with Circe. After 1.b6-b7+ the
    /// capture Kxb7 would rebirth the pawn on b2, shutting the a1 bishop in (cage rule):
    /// refused under Alsacien, so Black has no move and it is mate; with Circe alone Kxb7
    /// is legal.
    #[test]
    fn zeller_circe_b7_mates_only_with_alsacien() {
        let fen = "k7/8/1PN5/8/8/8/8/B6K w - - 0 1";
        let mut plain = game_from_fen(fen, &["circe"]).unwrap();
        let mut with = game_from_fen(fen, &["circe", "alsacien"]).unwrap();
        let b7 = {
            let mut v = Vec::new();
            plain.legal_moves(&mut v);
            v.iter().map(|m| Variant::canonical(&plain, m)).find(|c| c.contains("b6") && c.contains("b7")).unwrap()
        };
        play(&mut plain, &b7);
        play(&mut with, &b7);
        assert_eq!(moves(&mut plain).len(), 1, "Circe alone: Kxb7 {:?}", moves(&mut plain));
        assert!(moves(&mut with).is_empty(), "{:?}", moves(&mut with));
        assert_eq!(Variant::status(&mut with), chimere_core::Status::WhiteWins);
        assert_eq!(Variant::status(&mut plain), chimere_core::Status::Ongoing);
    }

    /// Orthodox play: the lists from the array and after 1.e4 are unchanged by Alsacien.
    #[test]
    fn orthodox_lists_unchanged() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ] {
            let mut a = game_from_fen(fen, &[]).unwrap();
            let mut b = game_from_fen(fen, &["alsacien"]).unwrap();
            assert_eq!(moves(&mut a), moves(&mut b), "{fen}");
        }
    }

    /// Combinations where no position is orthodox are refused with a reason.
    #[test]
    fn refused_combinations() {
        for c in ["rose", "qui perd gagne"] {
            let e = game_from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", &["alsacien", c]).unwrap_err();
            assert!(e.contains("Alsacien"), "{c}: {e}");
        }
        assert!(game_from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", &["alsacien", "circe"]).is_ok());
    }

    /// A diagram with a bishop shut in on h1 behind g2 is reported illegal.
    #[test]
    fn illegal_diagram_reported() {
        let g = game_from_fen("4k3/8/8/8/8/8/6P1/4K2B w - - 0 1", &["alsacien"]).unwrap();
        assert!(super::diagram_illegal(&g.pos).is_some());
        let g = game_from_fen("4k3/8/8/8/8/6P1/8/4K2B w - - 0 1", &["alsacien"]).unwrap();
        assert!(super::diagram_illegal(&g.pos).is_none());
    }

    /// Invariance: along random orthodox games from the array, the move lists with
    /// Alsacien equal the orthodox ones (an orthodox game never reaches a position the
    /// predicate rejects).
    #[test]
    fn random_orthodox_games_unchanged() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let mut positions = 0;
        for seed in 0..12u64 {
            let mut rng = chimere_core::rng::SplitMix64::new(seed);
            let mut a = game_from_fen(start, &[]).unwrap();
            let mut b = game_from_fen(start, &["alsacien"]).unwrap();
            for _ in 0..120 {
                let (la, lb) = (moves(&mut a), moves(&mut b));
                assert_eq!(la, lb, "{}", a.pos.fen());
                positions += 1;
                if la.is_empty() {
                    break;
                }
                let pick = &la[rng.below(la.len() as u64) as usize];
                play(&mut a, pick);
                play(&mut b, pick);
            }
        }
        assert!(positions > 500);
    }

    /// Speed figure (run with `--ignored --nocapture`): perft 3 of a middlegame with and
    /// without Alsacien.
    #[test]
    #[ignore]
    fn speed() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        for conds in [&[][..], &["alsacien"][..]] {
            let mut g = game_from_fen(fen, conds).unwrap();
            let t = std::time::Instant::now();
            let n = g.perft(3);
            eprintln!("{conds:?}: perft 3 = {n} in {:?}", t.elapsed());
        }
    }
}
