//! The registry: every game Chimère plays ([`VariantKind`], one typed list with its
//! [`Descriptor`]), plus the fixed positions `chimere bench` measures. A game is created
//! from a variant, its rules as a value ([`GameOptions`]: options and, for `chess`, fairy
//! conditions) and a FEN or the start position. `chess` with conditions is the fairy
//! engine's chess ([`chimere_fairy::Game`]); without, the fast chess crate. Adding a
//! variant is one [`VariantKind`] with its descriptor and one [`Rules`] arm: the
//! exhaustive matches make forgetting one a compile error.

pub mod setup;
pub mod texts;
pub mod turn;
pub mod variants;

pub use turn::{TurnPart, TurnShape, shape};
pub use variants::{
    CONDITION_INTERACTIONS, Descriptor, Interaction, NotationStyle, OptionSpec, OptionValue, PieceSpec, Rules,
    VariantKind, names,
};

use chimere_core::{DynGame, Game, GameOptions, RulesError, Variant, VariantVisitor};

/// The concrete rules types, for [`with_rules!`].
pub mod types {
    pub use chimere_checkered::Checkered;
    pub use chimere_chess::Chess;
    pub use chimere_dynamo::Dynamo;
    pub use chimere_fairy::Game as FairyChess;
    pub use chimere_fugue::Fugue;
    pub use chimere_interweave::Interweave;
}

/// Hands the game of `variant` under `opts`, at `fen` or the start, to `visitor` as a
/// concrete [`Game`] (for code monomorphised per variant).
pub fn visit<R>(
    variant: &str,
    opts: GameOptions,
    fen: Option<&str>,
    visitor: impl VariantVisitor<Output = R>,
) -> Result<R, RulesError> {
    let kind = VariantKind::parse(variant).map_err(RulesError::Option)?;
    visit_kind(kind, opts, fen, visitor)
}

/// [`visit`] for a typed variant.
pub fn visit_kind<R>(
    kind: VariantKind,
    opts: GameOptions,
    fen: Option<&str>,
    visitor: impl VariantVisitor<Output = R>,
) -> Result<R, RulesError> {
    let rules = Rules::of(kind, &opts);
    with_rules!(rules, V => {
        let game = match fen {
            Some(f) => Game::<V>::from_fen(opts, f)?,
            None => Game::<V>::new(opts)?,
        };
        Ok(visitor.visit(game))
    })
}

/// The game of `variant` under `opts`, at `fen` or the start, as a [`DynGame`].
pub fn create(variant: &str, opts: GameOptions, fen: Option<&str>) -> Result<Box<dyn DynGame>, RulesError> {
    let kind = VariantKind::parse(variant).map_err(RulesError::Option)?;
    create_kind(kind, opts, fen)
}

/// [`create`] for a typed variant.
pub fn create_kind(kind: VariantKind, opts: GameOptions, fen: Option<&str>) -> Result<Box<dyn DynGame>, RulesError> {
    struct Boxed;
    impl VariantVisitor for Boxed {
        type Output = Box<dyn DynGame>;
        fn visit<V: Variant>(self, game: Game<V>) -> Box<dyn DynGame> {
            Box::new(game)
        }
    }
    visit_kind(kind, opts, fen, Boxed)
}

/// A position `chimere bench` measures.
pub struct BenchPosition {
    pub variant: VariantKind,
    /// Fairy conditions applied (orthodox chess only; empty for the variant's own rules).
    pub conditions: &'static [&'static str],
    pub label: &'static str,
    pub fen: &'static str,
    pub depth: u32,
}

/// The fixed benchmark positions of every variant.
pub const BENCH: &[BenchPosition] = &[
    BenchPosition {
        conditions: &[],
        variant: VariantKind::Chess,
        label: "start",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        depth: 6,
    },
    BenchPosition {
        conditions: &[],
        variant: VariantKind::Chess,
        label: "kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        depth: 5,
    },
    BenchPosition {
        conditions: &[],
        variant: VariantKind::Checkered,
        label: "start",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah1111111111111111 - - 1",
        depth: 5,
    },
    BenchPosition {
        conditions: &[],
        variant: VariantKind::Interweave,
        label: "start",
        fen: "rbnkknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNKKNBR w 0 - 000000",
        depth: 5,
    },
    BenchPosition {
        conditions: &[],
        variant: VariantKind::Fugue,
        label: "start",
        fen: "wlqksaui/pppppppp/8/8/8/8/PPPPPPPP/IUASKQLW w 0",
        depth: 5,
    },
    BenchPosition {
        conditions: &[],
        variant: VariantKind::Dynamo,
        label: "start",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah -",
        depth: 3,
    },
    BenchPosition {
        variant: VariantKind::Chess,
        conditions: &["circe"],
        label: "start",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        depth: 5,
    },
    BenchPosition {
        variant: VariantKind::Chess,
        conditions: &["anticirce cheylan"],
        label: "kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        depth: 4,
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use chimere_core::{EndReason, PlayError, Status};

    #[test]
    fn every_name_creates_its_game() {
        for name in names() {
            let mut g = create(name, GameOptions::default(), None).unwrap();
            assert_eq!(g.variant(), name);
            assert!(!g.legal().is_empty(), "{name}: the start has legal turns");
            assert_eq!(g.outcome().status, Status::Ongoing);
        }
        assert!(create("shogi", GameOptions::default(), None).is_err());
        let circe = GameOptions { conditions: vec!["circe".into()], ..Default::default() };
        assert!(create("dynamo", circe.clone(), None).is_err(), "conditions are for chess only");
        assert_eq!(create("chess", circe, None).unwrap().perft(2, false), 400);
    }

    #[test]
    fn play_checks_and_undo_restores() {
        let mut g = create("chess", GameOptions::default(), None).unwrap();
        let start = (g.fen(), g.hash());
        assert!(matches!(g.play("e2e5"), Err(PlayError::Unparsable(_))));
        assert!(matches!(g.play("garbage"), Err(PlayError::Unparsable(_))));
        assert_eq!((g.fen(), g.hash(), g.ply()), (start.0.clone(), start.1, 0));
        let t = g.play("e4").unwrap();
        assert_eq!((t.canonical.as_str(), t.uci.as_str()), ("-e2:wp +e4:wp", "e2e4"));
        g.play("-e7:bp +e5:bp").unwrap();
        g.play("g1f3").unwrap();
        assert_eq!(g.history().iter().map(|t| t.notation.as_str()).collect::<Vec<_>>(), ["e4", "e5", "Nf3"]);
        for _ in 0..3 {
            g.undo().unwrap();
        }
        assert!(g.undo().is_none());
        assert_eq!((g.fen(), g.hash()), start);
    }

    #[test]
    fn repetition_through_transposition_and_game_over() {
        let mut g = create("chess", GameOptions::default(), None).unwrap();
        for m in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"] {
            g.play(m).unwrap();
            assert_eq!(g.outcome().status, Status::Ongoing);
        }
        g.play("Ng8").unwrap();
        let o = g.outcome();
        assert_eq!((o.status, o.reason), (Status::Draw, EndReason::Repetition));
        assert!(matches!(g.play("e4"), Err(PlayError::GameOver(Status::Draw))));
        assert_eq!(g.legal().len(), 20, "the position's turns are still listed");
        assert_eq!(g.position_status(), Status::Ongoing);
    }

    #[test]
    fn fugue_repetition_loses_for_the_completer() {
        let mut g = create("fugue", GameOptions::default(), None).unwrap();
        // Fugue pawns step like kings: shuffle one pawn of each side forward and back.
        let cycle = ["-a2:wp +a3:wp", "-a7:bp +a6:bp", "-a3:wp +a2:wp", "-a6:bp +a7:bp"];
        for (i, m) in cycle.iter().chain(&cycle).enumerate() {
            assert_eq!(g.outcome().status, Status::Ongoing, "before turn {i}");
            g.play(m).unwrap();
        }
        // The start position has now occurred three times; Black's turn completed it.
        let o = g.outcome();
        assert_eq!((o.status, o.reason), (Status::WhiteWins, EndReason::Repetition));
    }
}
