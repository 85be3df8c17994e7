//! The rules as the server sees them: one object-safe game per variant.
//!
//! TEMPORARY: a stand-in with the names of the common game API (`DynGame`, `TurnText`,
//! `create`) until that API lands on main; then this module becomes re-exports of
//! `chimere_core` and `chimere_rules`.

use chimere_core::{Colour, GameOptions, RulesError, Status, Variant};

/// One turn written out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnText {
    pub canonical: String,
    pub notation: String,
    pub uci: String,
    pub id: u32,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    Ongoing,
    Checkmate,
    NoLegalTurn,
    Rules,
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
}

/// Status and reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub status: Status,
    pub reason: EndReason,
}

/// A refused turn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("cannot read turn: {0}")]
    Unparsable(String),
    #[error("illegal turn: {0}")]
    Illegal(String),
    #[error("the game is over")]
    GameOver,
}

/// A game of any variant.
pub trait DynGame: Send {
    fn variant(&self) -> &'static str;
    fn options(&self) -> &GameOptions;
    fn fen(&self) -> String;
    fn start_fen(&self) -> &str;
    fn side_to_move(&self) -> Colour;
    fn ply(&self) -> usize;
    fn legal(&mut self) -> Vec<TurnText>;
    fn play(&mut self, text: &str) -> Result<TurnText, PlayError>;
    fn undo(&mut self) -> Option<TurnText>;
    fn history(&self) -> Vec<TurnText>;
    fn outcome(&mut self) -> Outcome;
}

struct Stand<V: Variant> {
    opts: GameOptions,
    start: String,
    pos: V,
    history: Vec<(TurnText, String)>,
}

fn side_of(fen: &str) -> Colour {
    match fen.split_whitespace().nth(1) {
        Some("b") => Colour::Black,
        _ => Colour::White,
    }
}

fn rough_uci(canonical: &str) -> String {
    canonical
        .split(" ; ")
        .map(|part| {
            let toks: Vec<&str> = part.split(' ').collect();
            let from = toks.iter().find(|t| t.starts_with('-')).map(|t| &t[1..3]);
            let to = toks.iter().find(|t| t.starts_with('+')).map(|t| &t[1..3]);
            match (from, to) {
                (Some(f), Some(t)) => format!("{f}{t}"),
                (Some(f), None) => format!("{f}--"),
                _ => "0000".to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

impl<V: Variant> Stand<V> {
    fn texts(&mut self) -> Vec<(V::Move, TurnText)> {
        let mut list = Vec::new();
        self.pos.legal_turns(&mut list);
        let mut out: Vec<(V::Move, TurnText)> = list
            .into_iter()
            .enumerate()
            .map(|(i, m)| {
                let canonical = self.pos.canonical(&m);
                let uci = rough_uci(&canonical);
                (m, TurnText { notation: self.pos.notation(&m), canonical, uci, id: i as u32 })
            })
            .collect();
        out.sort_by(|a, b| a.1.canonical.cmp(&b.1.canonical));
        out
    }
}

impl<V: Variant> DynGame for Stand<V>
where
    V::Undo: Send,
{
    fn variant(&self) -> &'static str {
        V::NAME
    }
    fn options(&self) -> &GameOptions {
        &self.opts
    }
    fn fen(&self) -> String {
        self.pos.fen()
    }
    fn start_fen(&self) -> &str {
        &self.start
    }
    fn side_to_move(&self) -> Colour {
        side_of(&self.pos.fen())
    }
    fn ply(&self) -> usize {
        self.history.len()
    }
    fn legal(&mut self) -> Vec<TurnText> {
        if self.pos.status() != Status::Ongoing {
            return Vec::new();
        }
        self.texts().into_iter().map(|t| t.1).collect()
    }
    fn play(&mut self, text: &str) -> Result<TurnText, PlayError> {
        if self.pos.status() != Status::Ongoing {
            return Err(PlayError::GameOver);
        }
        let before = self.pos.fen();
        let found = self.texts().into_iter().find(|(_, t)| t.canonical == text || t.notation == text || t.uci == text);
        match found {
            Some((m, t)) => {
                let _ = self.pos.make(&m);
                self.history.push((t.clone(), before));
                Ok(t)
            }
            None => Err(PlayError::Illegal(text.to_string())),
        }
    }
    fn undo(&mut self) -> Option<TurnText> {
        let (t, before) = self.history.pop()?;
        self.pos = V::from_fen(&before).ok()?;
        Some(t)
    }
    fn history(&self) -> Vec<TurnText> {
        self.history.iter().map(|h| h.0.clone()).collect()
    }
    fn outcome(&mut self) -> Outcome {
        let status = self.pos.status();
        let reason = if status == Status::Ongoing { EndReason::Ongoing } else { EndReason::Rules };
        Outcome { status, reason }
    }
}

fn stand<V: Variant>(opts: GameOptions, fen: Option<&str>) -> Result<Box<dyn DynGame>, RulesError>
where
    V::Undo: Send,
{
    let pos = match fen {
        Some(f) => V::from_fen(f)?,
        None => V::new_game(&opts)?,
    };
    let start = pos.fen();
    Ok(Box::new(Stand { opts, start, pos, history: Vec::new() }))
}

/// Whether fairy conditions can be played (they need the common game API).
pub const CONDITIONS: bool = false;

/// The variant names.
pub fn names() -> Vec<&'static str> {
    vec!["chess", "checkered", "interweave", "fugue", "dynamo"]
}

/// A game of `variant` from its start position or from `fen`.
pub fn create(variant: &str, opts: GameOptions, fen: Option<&str>) -> Result<Box<dyn DynGame>, RulesError> {
    match variant {
        "chess" => stand::<chimere_chess::Chess>(opts, fen),
        "checkered" => stand::<chimere_checkered::Checkered>(opts, fen),
        "interweave" => stand::<chimere_interweave::Interweave>(opts, fen),
        "fugue" => stand::<chimere_fugue::Fugue>(opts, fen),
        "dynamo" => stand::<chimere_dynamo::Dynamo>(opts, fen),
        other => Err(RulesError::Option(format!("unknown variant `{other}`"))),
    }
}
