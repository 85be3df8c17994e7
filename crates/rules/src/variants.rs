//! The one typed list of variants: [`VariantKind`] and its [`Descriptor`] (name, label,
//! aliases, options, pieces, notation, the interactions a board must offer). Everything
//! that lists variants — the registry ([`crate::visit`], [`crate::create`]), UCI, bench,
//! the load benchmark, the engine's evaluation dispatch ([`crate::with_rules!`]) and the
//! web app's `GET /api/variants` — reads it. Adding a variant is one arm in
//! [`VariantKind::descriptor`] and one in [`Rules`]'s dispatch: every `match` over them is
//! exhaustive, so forgetting one fails to compile.

use crate::setup::{self, FieldSpec};
use chimere_core::GameOptions;
use serde::Serialize;

/// A game Chimère plays (the variant; orthodox chess with fairy conditions is `Chess`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum VariantKind {
    Chess,
    Checkered,
    Interweave,
    Fugue,
    Dynamo,
}

impl VariantKind {
    /// The next kind in menu order (an exhaustive match: [`VariantKind::ALL`] is built from it).
    const fn next(self) -> Option<VariantKind> {
        match self {
            VariantKind::Chess => Some(VariantKind::Checkered),
            VariantKind::Checkered => Some(VariantKind::Interweave),
            VariantKind::Interweave => Some(VariantKind::Fugue),
            VariantKind::Fugue => Some(VariantKind::Dynamo),
            VariantKind::Dynamo => None,
        }
    }

    /// How many kinds there are (counted along [`VariantKind::next`]).
    pub const COUNT: usize = {
        let mut n = 1;
        let mut k = VariantKind::Chess;
        while let Some(next) = k.next() {
            k = next;
            n += 1;
        }
        n
    };

    /// Every kind, in menu order.
    pub const ALL: [VariantKind; VariantKind::COUNT] = {
        let mut all = [VariantKind::Chess; VariantKind::COUNT];
        let mut i = 0;
        let mut k = VariantKind::Chess;
        loop {
            all[i] = k;
            i += 1;
            match k.next() {
                Some(n) => k = n,
                None => break,
            }
        }
        all
    };

    /// The registry's name (`chess`, `checkered`...).
    pub fn name(self) -> &'static str {
        self.descriptor().name
    }

    /// The kind named `name` or one of its aliases (case-insensitive).
    pub fn from_name(name: &str) -> Option<VariantKind> {
        let n = name.trim().to_ascii_lowercase();
        VariantKind::ALL.into_iter().find(|k| {
            let d = k.descriptor();
            d.name == n || d.aliases.contains(&n.as_str())
        })
    }

    /// The kind named `name`, or an error listing the known names.
    pub fn parse(name: &str) -> Result<VariantKind, String> {
        VariantKind::from_name(name).ok_or_else(|| format!("unknown variant `{name}` (known: {})", names().join(", ")))
    }

    /// Everything known about the variant.
    pub fn descriptor(self) -> &'static Descriptor {
        match self {
            VariantKind::Chess => &CHESS,
            VariantKind::Checkered => &CHECKERED,
            VariantKind::Interweave => &INTERWEAVE,
            VariantKind::Fugue => &FUGUE,
            VariantKind::Dynamo => &DYNAMO,
        }
    }
}

impl std::fmt::Display for VariantKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Names of every variant, in menu order.
pub fn names() -> Vec<&'static str> {
    VariantKind::ALL.iter().map(|k| k.name()).collect()
}

/// The concrete rules a game runs on: the variant, and for chess whether fairy conditions
/// bring in the fairy engine. The registry and the engine dispatch on it ([`crate::with_rules!`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rules {
    /// Orthodox chess, the fast crate.
    Chess,
    /// Orthodox chess under fairy conditions: the fairy engine.
    FairyChess,
    Checkered,
    Interweave,
    Fugue,
    Dynamo,
}

impl Rules {
    /// The rules of `kind` under `opts`.
    pub fn of(kind: VariantKind, opts: &GameOptions) -> Rules {
        match kind {
            VariantKind::Chess if !opts.conditions.is_empty() => Rules::FairyChess,
            VariantKind::Chess => Rules::Chess,
            VariantKind::Checkered => Rules::Checkered,
            VariantKind::Interweave => Rules::Interweave,
            VariantKind::Fugue => Rules::Fugue,
            VariantKind::Dynamo => Rules::Dynamo,
        }
    }

    /// The variant these rules play.
    pub fn kind(self) -> VariantKind {
        match self {
            Rules::Chess | Rules::FairyChess => VariantKind::Chess,
            Rules::Checkered => VariantKind::Checkered,
            Rules::Interweave => VariantKind::Interweave,
            Rules::Fugue => VariantKind::Fugue,
            Rules::Dynamo => VariantKind::Dynamo,
        }
    }
}

/// Runs `$body` with the type alias `$V` bound to the concrete rules type of `$rules`
/// (a [`Rules`]): one exhaustive `match`, so code generic over the rules type (the search,
/// which needs more than `Variant`: its evaluation) is dispatched without `Any`.
#[macro_export]
macro_rules! with_rules {
    ($rules:expr, $V:ident => $body:expr) => {
        match $rules {
            $crate::Rules::Chess => {
                type $V = $crate::types::Chess;
                $body
            }
            $crate::Rules::FairyChess => {
                type $V = $crate::types::FairyChess;
                $body
            }
            $crate::Rules::Checkered => {
                type $V = $crate::types::Checkered;
                $body
            }
            $crate::Rules::Interweave => {
                type $V = $crate::types::Interweave;
                $body
            }
            $crate::Rules::Fugue => {
                type $V = $crate::types::Fugue;
                $body
            }
            $crate::Rules::Dynamo => {
                type $V = $crate::types::Dynamo;
                $body
            }
        }
    };
}

/// What a variant tells a player and a board.
#[derive(Debug, Serialize)]
pub struct Descriptor {
    pub kind: VariantKind,
    /// The registry's name.
    pub name: &'static str,
    /// The name shown to people.
    pub label: &'static str,
    /// Other names accepted for it (PGN `Variant` tags, UCI).
    pub aliases: &'static [&'static str],
    /// One sentence: what the game is.
    pub summary: &'static str,
    /// The `[Variant "…"]` tag our PGN writes.
    pub pgn_variant: &'static str,
    /// The options a game of it can be created with.
    pub options: &'static [OptionSpec],
    /// Whether fairy conditions can be added.
    pub conditions: bool,
    /// The piece kinds, by FEN letter.
    pub pieces: &'static [PieceSpec],
    /// How its turns are written.
    pub notation: NotationStyle,
    /// What a board must let a player do to enter every turn.
    pub interactions: &'static [Interaction],
    /// A turn may have several parts (entered one after the other).
    pub multi_part: bool,
    /// The state fields a position set up by hand gives beyond its board (side to move,
    /// castling, en passant, the variant's own state), as form controls
    /// ([`crate::setup`]).
    pub setup: &'static [FieldSpec],
    /// Its rules page: sections of text with diagrams ([`crate::texts`]).
    pub rules: &'static [crate::texts::Section],
}

/// A game option.
#[derive(Debug, Serialize)]
pub struct OptionSpec {
    /// The key the lobby sends (`chess960`, `randomness`, `switch`).
    pub key: &'static str,
    pub label: &'static str,
    #[serde(flatten)]
    pub value: OptionValue,
}

/// The values of an option.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum OptionValue {
    /// On or off.
    Bool { default: bool },
    /// One of several values.
    Choice { default: u8, choices: &'static [(u8, &'static str)] },
}

/// A piece kind of a variant.
#[derive(Debug, Serialize)]
pub struct PieceSpec {
    /// FEN letter (lower case).
    pub letter: char,
    pub name: &'static str,
    /// The FEN letter of its checkered (shared) form, if it has one.
    pub shared: Option<char>,
}

/// How turns are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NotationStyle {
    /// Standard algebraic notation.
    San,
    /// vchess's notation for the variant.
    Vchess,
    /// Popeye's notation (chess under fairy conditions).
    Popeye,
}

/// Something the board must offer to enter some turns.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Interaction {
    /// A pawn reaching the end chooses a kind.
    Promotion,
    /// The king castles (moved onto its destination or its rook).
    Castling,
    /// A piece leaves the board (Dynamo exits and pushes off).
    Exit,
    /// A turn ends without its optional part (Dynamo's part 2).
    Pass,
    /// The checkered switch (Checkered).
    Switch,
    /// The capturer's kind is chosen (Checkered: keep own kind or take the captured one).
    KindChoice,
    /// Captures go on in a chain (Interweave).
    CaptureChain,
    /// A capture made without moving: the acting piece is moved onto its target
    /// (Interweave's Remover, Fugue's archer).
    CaptureInPlace,
    /// Several ways to capture on one move (Fugue's long leaper landing squares, pushme-pullyu).
    LandingChoice,
    /// A piece pushes or pulls another (Dynamo).
    PushPull,
    /// Under fairy conditions: a rebirth square or other consequence chosen by the mover.
    RebirthChoice,
    /// Under fairy conditions: several moves a turn (Progressif...).
    MultiMoveTurn,
}

const STANDARD_ARRAYS: OptionValue = OptionValue::Choice {
    default: 0,
    choices: &[(0, "standard"), (1, "random, mirrored"), (2, "random, independent")],
};

const ORTHODOX_PIECES: &[PieceSpec] = &[
    PieceSpec { letter: 'p', name: "pawn", shared: None },
    PieceSpec { letter: 'n', name: "knight", shared: None },
    PieceSpec { letter: 'b', name: "bishop", shared: None },
    PieceSpec { letter: 'r', name: "rook", shared: None },
    PieceSpec { letter: 'q', name: "queen", shared: None },
    PieceSpec { letter: 'k', name: "king", shared: None },
];

static CHESS: Descriptor = Descriptor {
    kind: VariantKind::Chess,
    name: "chess",
    label: "Chess",
    aliases: &["standard", "chess960", "fischerandom", "from position", "orthodox", "fairy chess"],
    summary: "orthodox chess, also Chess960, random arrays and the fairy conditions of the problemists.",
    pgn_variant: "Standard",
    options: &[
        OptionSpec { key: "chess960", label: "Chess960", value: OptionValue::Bool { default: false } },
        OptionSpec { key: "randomness", label: "Starting array", value: STANDARD_ARRAYS },
    ],
    conditions: true,
    pieces: ORTHODOX_PIECES,
    notation: NotationStyle::San,
    interactions: &[Interaction::Promotion, Interaction::Castling],
    multi_part: false,
    setup: setup::CHESS_FIELDS,
    rules: crate::texts::CHESS,
};

static CHECKERED: Descriptor = Descriptor {
    kind: VariantKind::Checkered,
    name: "checkered",
    label: "Checkered chess",
    aliases: &["checkered chess", "checkered1", "checkered2", "echiquete"],
    summary: "captures create checkered pieces that both players may move.",
    pgn_variant: "Checkered",
    options: &[
        OptionSpec { key: "switch", label: "Switch allowed", value: OptionValue::Bool { default: true } },
        OptionSpec { key: "randomness", label: "Starting array", value: STANDARD_ARRAYS },
    ],
    conditions: false,
    pieces: &[
        PieceSpec { letter: 'p', name: "pawn", shared: Some('s') },
        PieceSpec { letter: 'n', name: "knight", shared: Some('o') },
        PieceSpec { letter: 'b', name: "bishop", shared: Some('c') },
        PieceSpec { letter: 'r', name: "rook", shared: Some('u') },
        PieceSpec { letter: 'q', name: "queen", shared: Some('t') },
        PieceSpec { letter: 'k', name: "king", shared: None },
    ],
    notation: NotationStyle::Vchess,
    interactions: &[Interaction::Promotion, Interaction::Castling, Interaction::KindChoice, Interaction::Switch],
    multi_part: true,
    setup: setup::CHECKERED_FIELDS,
    rules: crate::texts::CHECKERED,
};

static INTERWEAVE: Descriptor = Descriptor {
    kind: VariantKind::Interweave,
    name: "interweave",
    label: "Interweave",
    aliases: &[],
    summary: "two kings each, pieces bound to one square colour, chains of compulsory captures.",
    pgn_variant: "Interweave",
    options: &[OptionSpec { key: "randomness", label: "Starting array", value: STANDARD_ARRAYS }],
    conditions: false,
    pieces: &[
        PieceSpec { letter: 'p', name: "pawn", shared: None },
        PieceSpec { letter: 'n', name: "leaper", shared: None },
        PieceSpec { letter: 'b', name: "remover", shared: None },
        PieceSpec { letter: 'r', name: "smasher", shared: None },
        PieceSpec { letter: 'k', name: "king", shared: None },
    ],
    notation: NotationStyle::Vchess,
    interactions: &[Interaction::Promotion, Interaction::CaptureChain, Interaction::CaptureInPlace],
    multi_part: true,
    setup: setup::INTERWEAVE_FIELDS,
    rules: crate::texts::INTERWEAVE,
};

static FUGUE: Descriptor = Descriptor {
    kind: VariantKind::Fugue,
    name: "fugue",
    label: "Fugue",
    aliases: &[],
    summary: "an Ultima-like game: pieces that capture by approach, withdrawal, leaping, shooting and swapping.",
    pgn_variant: "Fugue",
    options: &[OptionSpec { key: "randomness", label: "Starting array", value: STANDARD_ARRAYS }],
    conditions: false,
    pieces: &[
        PieceSpec { letter: 'p', name: "pawn", shared: None },
        PieceSpec { letter: 'q', name: "queen", shared: None },
        PieceSpec { letter: 'k', name: "king", shared: None },
        PieceSpec { letter: 'i', name: "immobilizer", shared: None },
        PieceSpec { letter: 'u', name: "pushme-pullyu", shared: None },
        PieceSpec { letter: 'a', name: "archer", shared: None },
        PieceSpec { letter: 's', name: "shield", shared: None },
        PieceSpec { letter: 'l', name: "long leaper", shared: None },
        PieceSpec { letter: 'w', name: "swapper", shared: None },
    ],
    notation: NotationStyle::Vchess,
    interactions: &[Interaction::Promotion, Interaction::CaptureInPlace, Interaction::LandingChoice],
    multi_part: false,
    setup: setup::FUGUE_FIELDS,
    rules: crate::texts::FUGUE,
};

static DYNAMO: Descriptor = Descriptor {
    kind: VariantKind::Dynamo,
    name: "dynamo",
    label: "Dynamo",
    aliases: &[],
    summary: "nothing is captured: pieces push and pull each other, possibly off the board.",
    pgn_variant: "Dynamo",
    options: &[OptionSpec { key: "randomness", label: "Starting array", value: STANDARD_ARRAYS }],
    conditions: false,
    pieces: ORTHODOX_PIECES,
    notation: NotationStyle::Vchess,
    interactions: &[
        Interaction::Promotion,
        Interaction::Castling,
        Interaction::Exit,
        Interaction::Pass,
        Interaction::PushPull,
    ],
    multi_part: true,
    setup: setup::DYNAMO_FIELDS,
    rules: crate::texts::DYNAMO,
};

/// What ended a game by the rules, in a sentence for a person, per variant. `loser` is the
/// side that lost (`None`: a draw), `loser_has_king` whether it still has a king on the
/// board (the position after the last turn).
pub fn end_sentence(
    kind: VariantKind,
    reason: chimere_core::EndReason,
    loser: Option<&str>,
    loser_has_king: bool,
) -> String {
    use chimere_core::EndReason as R;
    let l = loser.unwrap_or("the side to move");
    match (kind, reason) {
        (_, R::Ongoing) => String::new(),
        (_, R::Repetition) if loser.is_some() => format!("{l} completed a threefold repetition, which loses in Fugue"),
        (_, R::Repetition) => "the same position occurred three times".into(),
        (_, R::FiftyMoves) => "fifty moves passed without a capture or a pawn move".into(),
        (_, R::InsufficientMaterial) => "neither side has enough material to mate".into(),
        (VariantKind::Fugue, R::NoLegalTurn | R::Rules | R::Checkmate) if !loser_has_king => {
            format!("{l}'s king was captured")
        }
        (VariantKind::Fugue, _) if loser.is_some() => format!("{l} has no legal turn, which loses in Fugue"),
        (VariantKind::Interweave, R::Rules | R::NoLegalTurn) if loser.is_some() && !loser_has_king => {
            format!("{l} has fewer than two kings left")
        }
        (VariantKind::Interweave, R::Rules) => format!("{l} has fewer than two kings left"),
        (VariantKind::Interweave, _) if loser.is_some() => format!("{l} has no legal turn, which loses in Interweave"),
        (VariantKind::Dynamo, R::Checkmate) => format!("{l} is checkmated"),
        (VariantKind::Dynamo, R::Rules) if !loser_has_king => format!("{l}'s king was pushed off the board"),
        (_, R::Checkmate) => format!("{l} is checkmated"),
        (_, R::NoLegalTurn) if loser.is_none() => format!("stalemate: {l} has no legal move"),
        (_, R::NoLegalTurn) => format!("{l} has no legal move, which loses under these rules"),
        (_, R::Rules) if loser.is_none() => "a draw by the rules of the game".into(),
        (_, R::Rules) => format!("{l} lost by the rules of the game"),
    }
}

/// The interactions fairy conditions can need on the board (chess under conditions).
pub const CONDITION_INTERACTIONS: &[Interaction] = &[
    Interaction::Promotion,
    Interaction::Castling,
    Interaction::RebirthChoice,
    Interaction::MultiMoveTurn,
    Interaction::Pass,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_complete_and_names_are_unique() {
        assert_eq!(VariantKind::ALL.len(), 5);
        let mut seen = std::collections::HashSet::new();
        for k in VariantKind::ALL {
            let d = k.descriptor();
            assert_eq!(d.kind, k);
            assert_eq!(VariantKind::from_name(d.name), Some(k));
            for a in d.aliases.iter().chain([&d.name]) {
                assert!(seen.insert(*a), "`{a}` names two variants");
                assert_eq!(VariantKind::from_name(a), Some(k));
            }
            assert!(!d.pieces.is_empty() && !d.label.is_empty());
        }
        assert_eq!(VariantKind::from_name("Chess960"), Some(VariantKind::Chess));
        assert!(VariantKind::parse("shogi").unwrap_err().contains("known: chess, checkered"));
    }
}
