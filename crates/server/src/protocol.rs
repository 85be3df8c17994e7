//! Every message of the live protocol, both directions, as serde types: the one typed
//! place the web client's types are written from. JSON text frames over `/ws/{game}`.
//!
//! Client → server: [`ClientMsg`]. Server → client: [`ServerMsg`] (`state`, `move`,
//! `presence`, `error`, `pong`, `closing`). The `move` message is written by hand in the
//! hub for speed (its legal list serialised once for every receiver) but has exactly the
//! fields of [`MoveMsg`]; a test holds the two together.
//!
//! Compatibility: fields are only added. Old fields the client still reads (`uci`,
//! `canonical`, `notation` of every turn) stay.

use crate::setup::Setup;
use chimere_rules::TurnShape;
use serde::{Deserialize, Serialize};

/// What a client may send.
#[derive(Debug, Deserialize, Serialize, Clone, PartialEq, Eq)]
#[serde(tag = "t", rename_all = "lowercase", deny_unknown_fields)]
pub enum ClientMsg {
    /// Play a turn in the position at `ply`.
    Move {
        /// The ply the mover saw (the guard against stale and repeated moves).
        ply: u32,
        /// The turn: its UCI token from the legal list (canonical form and notation are
        /// accepted too).
        turn: String,
    },
    /// Take the open seat.
    Join,
    /// Give up the game.
    Resign,
    /// End a game in which a side has not moved yet, without a result.
    Abort,
    /// Offer, accept or decline a draw.
    Draw {
        /// What to do with the offer.
        action: OfferAction,
    },
    /// Ask for, accept or decline a takeback.
    Takeback {
        /// What to do with the request.
        action: OfferAction,
    },
    /// Offer, accept or decline a rematch (once the game is over).
    Rematch {
        /// What to do with the offer.
        action: OfferAction,
    },
    /// Ask for the full state again.
    Sync,
    /// Keep-alive; answered by `pong`.
    Ping,
}

/// What a player does with an offer.
#[derive(Debug, Deserialize, Serialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum OfferAction {
    /// Make the offer (accepts the opponent's pending one of the same kind).
    Offer,
    /// Accept the opponent's pending offer.
    Accept,
    /// Decline the opponent's offer or withdraw one's own.
    Decline,
}

/// A side of the board.
#[derive(Debug, Deserialize, Serialize, Clone, Copy, PartialEq, Eq, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

impl Side {
    /// 0 for White, 1 for Black.
    pub fn index(self) -> usize {
        match self {
            Side::White => 0,
            Side::Black => 1,
        }
    }
    /// The side of index 0 or 1.
    pub fn of(i: usize) -> Side {
        if i == 0 { Side::White } else { Side::Black }
    }
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
    /// `white` or `black`.
    pub fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }
    /// `White` or `Black`.
    pub fn label(self) -> &'static str {
        match self {
            Side::White => "White",
            Side::Black => "Black",
        }
    }
}

/// An action a player may take now (the client shows exactly these buttons).
#[derive(Debug, Serialize, Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// Take the open seat.
    Join,
    Resign,
    Abort,
    /// Offer a draw.
    OfferDraw,
    /// Accept / decline the opponent's draw offer.
    AcceptDraw,
    DeclineDraw,
    /// Withdraw one's own draw offer.
    WithdrawDraw,
    /// Ask for a takeback (a move of the asker's to take back exists; not against the computer).
    AskTakeback,
    AcceptTakeback,
    DeclineTakeback,
    WithdrawTakeback,
    /// Offer (or, against the computer, start) a rematch.
    OfferRematch,
    AcceptRematch,
    DeclineRematch,
    WithdrawRematch,
}

/// A legal turn, as sent.
#[derive(Debug, Serialize, Deserialize, Clone, PartialEq)]
pub struct TurnOut {
    /// The token to send back in a `move` (never shown to a person).
    pub uci: String,
    /// The variant's notation (as the move list shows it).
    pub notation: String,
    /// The canonical form (kept for older clients; never shown to a person).
    pub canonical: String,
    /// Each part's real squares, captures, appearances and a label in words.
    pub shape: TurnShape,
}

/// A played turn in the move list.
#[derive(Debug, Serialize, Deserialize, Clone, PartialEq)]
pub struct PlayedOut {
    pub uci: String,
    pub notation: String,
    pub canonical: String,
    /// The position after it (the variant's FEN; standard FEN for chess).
    pub fen: String,
    /// Real squares and label.
    pub shape: TurnShape,
    /// The side that played it.
    pub side: Side,
    /// The move number it belongs to (1, 2, ...: a number covers one turn of White and
    /// the following turn of Black; under multi-move-turn conditions a side's turn may
    /// hold several moves, all with the same number and side).
    pub number: u32,
}

/// The clock as sent.
#[derive(Debug, Serialize, Deserialize, Clone, PartialEq)]
pub struct ClockOut {
    pub initial_ms: i64,
    pub increment_ms: i64,
    /// Remaining time of each side at the moment the message was made.
    pub white_ms: i64,
    pub black_ms: i64,
    /// The side whose clock runs, if any.
    pub running: Option<Side>,
}

/// A seat as sent.
#[derive(Debug, Serialize, Deserialize, Clone, PartialEq)]
pub struct PlayerOut {
    /// Display name (the computer: `Computer level N`).
    pub name: String,
    /// The computer plays this seat.
    pub bot: bool,
    /// A human player connected now (absent for the computer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub online: Option<bool>,
}

/// Both seats.
#[derive(Debug, Serialize, Deserialize, Clone, PartialEq)]
pub struct PlayersOut {
    pub white: Option<PlayerOut>,
    pub black: Option<PlayerOut>,
}

/// Pending offers: the side that made each.
#[derive(Debug, Serialize, Deserialize, Clone, PartialEq, Default)]
pub struct OffersOut {
    pub draw: Option<Side>,
    pub takeback: Option<Side>,
    pub rematch: Option<Side>,
}

/// The actions each side may take now.
#[derive(Debug, Serialize, Deserialize, Clone, PartialEq, Default)]
pub struct ActionsOut {
    pub white: Vec<Action>,
    pub black: Vec<Action>,
}

/// The whole game, sent on connection, on `sync` and after changes other than a move.
#[derive(Debug, Serialize, Deserialize, Clone, PartialEq)]
pub struct StateMsg {
    pub id: String,
    /// The variant's registry name (its descriptor: `GET /api/variants`).
    pub variant: String,
    /// `seek`, `private`, `computer` or `import`.
    pub kind: String,
    /// The game's options.
    pub setup: Setup,
    /// The options in words (`Chess960, Circe`).
    pub describe: String,
    pub start_fen: String,
    /// The position now.
    pub fen: String,
    pub ply: u32,
    /// The side to move.
    pub side: Side,
    pub moves: Vec<PlayedOut>,
    /// The legal turns (empty when the game is not in play or waiting).
    pub legal: Vec<TurnOut>,
    pub players: PlayersOut,
    /// The receiver's seat.
    pub you: Option<Side>,
    /// `waiting`, `playing`, `finished`, `aborted`.
    pub status: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// Short reason (kept for older clients).
    pub reason: String,
    /// What happened, in a sentence (`White wins: Black's king was captured.`).
    pub result_text: String,
    pub clock: Option<ClockOut>,
    pub offers: OffersOut,
    /// The receiver's actions now (empty for spectators).
    pub actions: Vec<Action>,
    /// Both sides' actions (the client picks its own seat's).
    pub actions_by_side: ActionsOut,
    /// Connected spectators and players.
    pub watchers: u32,
    /// The side to move is in check.
    pub check: bool,
    /// The rematch's id, once created.
    pub rematch: Option<String>,
}

/// One new turn (broadcast).
#[derive(Debug, Serialize, Deserialize, Clone, PartialEq)]
pub struct MoveMsg {
    /// The ply after the turn.
    pub ply: u32,
    /// The turn played.
    #[serde(rename = "move")]
    pub played: PlayedOut,
    /// The position after it.
    pub fen: String,
    /// The side to move now.
    pub side: Side,
    /// The new legal list.
    pub legal: Vec<TurnOut>,
    pub clock: Option<ClockOut>,
    /// Both sides' actions now.
    pub actions_by_side: ActionsOut,
    /// The side to move is in check.
    pub check: bool,
}

/// What the server sends.
#[derive(Debug, Serialize, Deserialize, Clone, PartialEq)]
#[serde(tag = "t", rename_all = "lowercase")]
pub enum ServerMsg {
    State(Box<StateMsg>),
    Move(Box<MoveMsg>),
    /// A seated player came or went, or the watcher count changed.
    Presence {
        players: PlayersOut,
        watchers: u32,
    },
    /// A refused message: a short code and one line for the player.
    Error {
        code: String,
        message: String,
    },
    Pong {
        ms: i64,
    },
    /// The server is stopping; the client reconnects by itself.
    Closing {
        message: String,
    },
}

impl ServerMsg {
    /// The message as JSON text.
    pub fn json(&self) -> String {
        // Plain structs, string keys: serialising into memory cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}
