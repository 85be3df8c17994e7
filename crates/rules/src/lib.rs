//! The registry: every variant Chimère plays, by its lower-case name, plus the fixed
//! positions `chimere bench` measures. Adding a variant is one line in each list.

use chimere_core::{Game, VariantGame};

/// Every registered game, in menu order.
pub fn games() -> Vec<Box<dyn Game>> {
    vec![
        Box::new(VariantGame::<chimere_chess::Chess>::default()),
        Box::new(VariantGame::<chimere_checkered::Checkered>::default()),
        Box::new(VariantGame::<chimere_interweave::Interweave>::default()),
        Box::new(VariantGame::<chimere_fugue::Fugue>::default()),
        Box::new(VariantGame::<chimere_dynamo::Dynamo>::default()),
    ]
}

/// The game called `name` (lower case).
pub fn game(name: &str) -> Option<Box<dyn Game>> {
    games().into_iter().find(|g| g.name() == name)
}

/// Names of the registered games.
pub fn names() -> Vec<&'static str> {
    games().iter().map(|g| g.name()).collect()
}

/// A position `chimere bench` measures.
pub struct BenchPosition {
    pub variant: &'static str,
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
        variant: "chess",
        label: "start",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        depth: 6,
    },
    BenchPosition {
        conditions: &[],
        variant: "chess",
        label: "kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        depth: 5,
    },
    BenchPosition {
        conditions: &[],
        variant: "checkered",
        label: "start",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah1111111111111111 - - 1",
        depth: 5,
    },
    BenchPosition {
        conditions: &[],
        variant: "interweave",
        label: "start",
        fen: "rbnkknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNKKNBR w 0 - 000000",
        depth: 5,
    },
    BenchPosition {
        conditions: &[],
        variant: "fugue",
        label: "start",
        fen: "wlqksaui/pppppppp/8/8/8/8/PPPPPPPP/IUASKQLW w 0",
        depth: 5,
    },
    BenchPosition {
        conditions: &[],
        variant: "dynamo",
        label: "start",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah -",
        depth: 3,
    },
    BenchPosition {
        variant: "chess",
        conditions: &["circe"],
        label: "start",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        depth: 5,
    },
    BenchPosition {
        variant: "chess",
        conditions: &["anticirce cheylan"],
        label: "kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        depth: 4,
    },
];
