//! One game in play as a typed state machine, with no I/O: [`Round::apply`] takes a
//! [`Command`] and the time and answers the [`Event`]s to carry out (store, broadcast,
//! ask the computer, create a rematch) or a [`Refusal`]. The hub ([`crate::hub`]) is the
//! actor around it: it persists events through the writer, broadcasts views and runs the
//! timers the round asks for ([`Round::next_wake`]).
//!
//! A move is two-phase, since it must be stored before it counts: `apply(Move)` checks it
//! and plays it on the rules' game, answering [`Event::Store`]; the hub stores it and
//! calls [`Round::commit_move`] (or [`Round::cancel_move`] if the store refused it).

use crate::hub::{Limits, Refusal};
use crate::protocol::{
    Action, ActionsOut, ClockOut, OfferAction, OffersOut, PlayedOut, PlayerOut, PlayersOut, Side, StateMsg, TurnOut,
};
use crate::rules::{DynGame, TurnText};
use crate::setup::Setup;
use crate::store::{GameRecord, MoveRecord};
use chimere_core::{Colour, Status as RulesStatus};
use chimere_rules::{VariantKind, shape};

/// Where a game stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// A seat is open.
    Waiting,
    Playing,
    Finished,
    Aborted,
}

impl Status {
    pub fn parse(s: &str) -> Option<Status> {
        Some(match s {
            "waiting" => Status::Waiting,
            "playing" => Status::Playing,
            "finished" => Status::Finished,
            "aborted" => Status::Aborted,
            _ => return None,
        })
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Playing => "playing",
            Status::Finished => "finished",
            Status::Aborted => "aborted",
        }
    }
}

/// Who sits on a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    Open,
    Human { id: String, name: Option<String> },
    Computer { level: u8 },
}

impl Seat {
    /// The seat stored as `id` (the store writes the computer as `bot:N`).
    pub fn parse(id: Option<&str>, name: Option<String>) -> Result<Seat, String> {
        match id {
            None => Ok(Seat::Open),
            Some(p) => match p.strip_prefix("bot:") {
                Some(level) => match level.parse::<u8>() {
                    Ok(l) if (1..=8).contains(&l) => Ok(Seat::Computer { level: l }),
                    _ => Err(format!("computer seat `{p}`: the level is 1 to 8")),
                },
                None => Ok(Seat::Human { id: p.to_string(), name }),
            },
        }
    }
    /// The stored id and name.
    pub fn stored(&self) -> (Option<String>, Option<String>) {
        match self {
            Seat::Open => (None, None),
            Seat::Human { id, name } => (Some(id.clone()), name.clone()),
            Seat::Computer { level } => (Some(format!("bot:{level}")), None),
        }
    }
    pub fn is_computer(&self) -> bool {
        matches!(self, Seat::Computer { .. })
    }
    pub fn is_human(&self) -> bool {
        matches!(self, Seat::Human { .. })
    }
    /// The name shown.
    pub fn label(&self) -> String {
        match self {
            Seat::Open => "?".into(),
            Seat::Human { name, .. } => name.clone().unwrap_or_else(|| "Anonymous".into()),
            Seat::Computer { level } => format!("Computer level {level}"),
        }
    }
}

/// The kinds of offer (one mechanism for all three).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OfferKind {
    Draw,
    Takeback,
    Rematch,
}

impl OfferKind {
    fn index(self) -> usize {
        match self {
            OfferKind::Draw => 0,
            OfferKind::Takeback => 1,
            OfferKind::Rematch => 2,
        }
    }
    fn noun(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw offer",
            OfferKind::Takeback => "takeback request",
            OfferKind::Rematch => "rematch offer",
        }
    }
}

/// The clock's settings.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    pub initial_ms: i64,
    pub increment_ms: i64,
}

/// What a player or the server's timers ask of the round.
#[derive(Debug)]
pub enum Command<'a> {
    /// A turn by `by` in the position at `ply`.
    Move {
        by: Side,
        ply: u32,
        turn: &'a str,
    },
    /// `player` takes the open seat.
    Join {
        player: &'a str,
        name: Option<String>,
    },
    Resign(Side),
    Abort(Side),
    Offer {
        kind: OfferKind,
        by: Side,
        action: OfferAction,
    },
    /// The computer's answer to a draw offer.
    ComputerDraw {
        accept: bool,
    },
    /// A connection opened (`Some`: a seated player's).
    Connect(Option<Side>),
    /// A connection closed.
    Disconnect(Option<Side>),
    /// A timer fired: flag fall, abandonment, expiry, automatic abort.
    Tick,
}

/// What the hub must do after a command.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// Store this move (then [`Round::commit_move`]).
    Store(MoveRecord),
    /// The game's record changed (seats, status, result...): store it.
    Save,
    /// Store the takeback: the moves after `to_ply` go.
    TakeBack { from_ply: u32, to_ply: u32, white_ms: i64, black_ms: i64 },
    /// Everyone needs the whole state again.
    State,
    /// Only who is connected changed.
    Presence,
    /// The computer should answer a draw offer.
    AskComputerDraw,
    /// Both want a rematch: the hub creates it and calls [`Round::set_rematch`].
    CreateRematch,
}

/// One game.
pub struct Round {
    pub id: String,
    pub variant: VariantKind,
    pub setup: Setup,
    pub start_fen: String,
    /// `seek`, `private`, `computer` or `import`.
    pub kind: String,
    pub seats: [Seat; 2],
    pub status: Status,
    pub result: String,
    pub reason: String,
    pub clock: Option<Clock>,
    /// Each side's time after the last move.
    pub remaining: [i64; 2],
    pub ply: u32,
    pub created_ms: i64,
    pub updated_ms: i64,
    pub rematch_of: Option<String>,
    pub rematch: Option<String>,
    game: Box<dyn DynGame>,
    pub moves: Vec<MoveRecord>,
    played: Vec<PlayedOut>,
    /// The legal turns of the position, as sent (texts moved from the rules' list, not copied).
    legal_out: Vec<TurnOut>,
    offers: [Option<Side>; 3],
    /// When the side to move's turn began.
    pub turn_started: i64,
    /// Open connections of each seated player, and of everyone (spectators included).
    pub conns: [u32; 2],
    pub watchers: u32,
    /// Since when each seated human has had no connection.
    pub gone_since: [Option<i64>; 2],
    /// A move played on the game, waiting to be stored.
    pending: Option<(TurnText, Side)>,
    /// The side to move is in check (with the legal list).
    check: bool,
}

/// The FEN a person copies: for chess the standard FEN (X-FEN castling letters, which
/// Chess960 positions need), with the halfmove clock; other variants' own FEN.
pub fn copy_fen(variant: VariantKind, fen: &str, halfmove: u32) -> String {
    if variant != VariantKind::Chess {
        return fen.to_string();
    }
    match chimere_core::setup::Setup::parse(fen) {
        Ok(mut s) => {
            s.halfmove = halfmove;
            s.fen(chimere_core::setup::Dialect::Standard)
        }
        Err(_) => fen.to_string(),
    }
}

/// Whether a chess turn resets the fifty-move count: a pawn of the mover leaves a square
/// or an opponent unit is removed.
fn resets_fifty(canonical: &str, mover: char) -> bool {
    canonical.split_whitespace().any(|t| {
        t.starts_with('-')
            && t.split_once(':')
                .is_some_and(|(_, p)| (p.starts_with(mover) && p.ends_with('p')) || !p.starts_with(mover))
    })
}

fn colour_side(c: Colour) -> Side {
    if c == Colour::Black { Side::Black } else { Side::White }
}

impl Round {
    /// The round of a stored game and its moves. Anything that does not read back is an
    /// error naming the game: never a silent default.
    pub fn load(rec: GameRecord, moves: Vec<MoveRecord>, now: i64) -> Result<Round, String> {
        let bad = |what: String| format!("game {}: {what}", rec.id);
        let variant =
            VariantKind::from_name(&rec.variant).ok_or_else(|| bad(format!("unknown variant `{}`", rec.variant)))?;
        let setup: Setup =
            serde_json::from_str(&rec.setup).map_err(|e| bad(format!("stored options do not read back: {e}")))?;
        let status = Status::parse(&rec.status).ok_or_else(|| bad(format!("unknown status `{}`", rec.status)))?;
        let seats = [
            Seat::parse(rec.white.as_deref(), rec.white_name.clone()).map_err(&bad)?,
            Seat::parse(rec.black.as_deref(), rec.black_name.clone()).map_err(&bad)?,
        ];
        let mut game = crate::rules::create_kind(variant, setup.options(), Some(&rec.start_fen))
            .map_err(|e| bad(format!("the start position does not read back: {e}")))?;
        let mut played = Vec::with_capacity(moves.len());
        let mut number = 1;
        let mut last_side: Option<Side> = None;
        let mut halfmove = 0;
        for m in &moves {
            let side = colour_side(game.side_to_move());
            if last_side == Some(Side::Black) && side == Side::White {
                number += 1;
            }
            last_side = Some(side);
            let t = game
                .play(&m.canonical)
                .map_err(|e| bad(format!("stored move {} ({}) cannot be replayed: {e}", m.ply, m.notation)))?;
            let mover = if side == Side::White { 'w' } else { 'b' };
            halfmove = if resets_fifty(&t.canonical, mover) { 0 } else { halfmove + 1 };
            let fen = game.fen();
            played.push(PlayedOut {
                shape: shape(variant, &t, mover),
                uci: t.uci,
                notation: t.notation,
                canonical: t.canonical,
                copy_fen: copy_fen(variant, &fen, halfmove),
                fen,
                side,
                number,
            });
        }
        if moves.len() != rec.ply as usize {
            return Err(bad(format!("{} moves stored for ply {}", moves.len(), rec.ply)));
        }
        let mut r = Round {
            id: rec.id,
            variant,
            setup,
            start_fen: rec.start_fen,
            kind: rec.kind,
            seats,
            status,
            result: rec.result,
            reason: rec.reason,
            clock: rec.initial_ms.map(|initial_ms| Clock { initial_ms, increment_ms: rec.increment_ms }),
            remaining: [rec.white_ms, rec.black_ms],
            ply: rec.ply,
            created_ms: rec.created_ms,
            updated_ms: rec.updated_ms,
            rematch_of: rec.rematch_of,
            rematch: rec.rematch,
            game,
            moves,
            played,
            legal_out: Vec::new(),
            offers: [None; 3],
            turn_started: now,
            conns: [0, 0],
            watchers: 0,
            // Nobody is connected to a freshly loaded game: both seats count as away from
            // now, so a player who never comes back forfeits once the grace has passed.
            gone_since: [Some(now), Some(now)],
            pending: None,
            check: false,
        };
        r.refresh_legal();
        Ok(r)
    }

    /// The record to store.
    pub fn record(&self) -> GameRecord {
        let (white, white_name) = self.seats[0].stored();
        let (black, black_name) = self.seats[1].stored();
        GameRecord {
            id: self.id.clone(),
            variant: self.variant.name().to_string(),
            setup: serde_json::to_string(&self.setup).unwrap_or_default(),
            start_fen: self.start_fen.clone(),
            white,
            black,
            white_name,
            black_name,
            kind: self.kind.clone(),
            initial_ms: self.clock.map(|c| c.initial_ms),
            increment_ms: self.clock.map_or(0, |c| c.increment_ms),
            white_ms: self.remaining[0],
            black_ms: self.remaining[1],
            ply: self.ply,
            status: self.status.as_str().into(),
            result: self.result.clone(),
            reason: self.reason.clone(),
            created_ms: self.created_ms,
            updated_ms: self.updated_ms,
            rematch_of: self.rematch_of.clone(),
            rematch: self.rematch.clone(),
        }
    }

    /// Plies since the last capture or pawn move (chess), read back from the last FEN.
    fn halfmove(&self) -> u32 {
        self.played.last().and_then(|p| p.copy_fen.split_whitespace().nth(4).and_then(|h| h.parse().ok())).unwrap_or(0)
    }

    /// The rules' game (read only).
    pub fn game(&self) -> &dyn DynGame {
        self.game.as_ref()
    }

    pub fn to_move(&self) -> Side {
        colour_side(self.game.side_to_move())
    }

    /// The seat of `player`.
    pub fn seat_of(&self, player: &str) -> Option<Side> {
        (0..2).find(|&i| matches!(&self.seats[i], Seat::Human { id, .. } if id == player)).map(Side::of)
    }

    pub fn playing(&self) -> bool {
        self.status == Status::Playing
    }

    /// Whether `side` has made a move in this game.
    pub fn has_moved(&self, side: Side) -> bool {
        self.played.iter().any(|p| p.side == side)
    }

    fn clock_running(&self) -> bool {
        self.clock.is_some() && self.playing() && self.has_moved(Side::White) && self.has_moved(Side::Black)
    }

    /// Each side's time now.
    pub fn remaining_at(&self, now: i64) -> [i64; 2] {
        let mut r = self.remaining;
        if self.clock_running() {
            r[self.to_move().index()] -= now - self.turn_started;
        }
        r
    }

    fn refresh_legal(&mut self) {
        let live = matches!(self.status, Status::Playing | Status::Waiting);
        let legal = if live { self.game.legal() } else { Vec::new() };
        self.check = self.status == Status::Playing && self.game.in_check();
        let mover = if self.to_move() == Side::White { 'w' } else { 'b' };
        let variant = self.variant;
        self.legal_out = legal
            .into_iter()
            .map(|t| {
                let shape = shape(variant, &t, mover);
                TurnOut { uci: t.uci, notation: t.notation, canonical: t.canonical, shape }
            })
            .collect();
    }

    fn finish(&mut self, status: RulesStatus, reason: String, now: i64) {
        self.status = Status::Finished;
        self.result = match status {
            RulesStatus::WhiteWins => "1-0",
            RulesStatus::BlackWins => "0-1",
            RulesStatus::Draw => "1/2-1/2",
            RulesStatus::Ongoing => "*",
        }
        .into();
        self.reason = reason;
        self.end(now);
    }

    fn abort(&mut self, reason: String, now: i64) {
        self.status = Status::Aborted;
        self.result = "*".into();
        self.reason = reason;
        self.end(now);
    }

    fn end(&mut self, now: i64) {
        self.remaining = self.remaining_at(now).map(|t| t.max(0));
        self.offers = [None; 3];
        self.updated_ms = now;
        self.refresh_legal();
    }

    fn ended(&self) -> bool {
        matches!(self.status, Status::Finished | Status::Aborted)
    }

    fn win_for(side: Side) -> RulesStatus {
        RulesStatus::win_for(if side == Side::White { Colour::White } else { Colour::Black })
    }

    /// Whether `side` can never win now, for a flag fall: orthodox chess by insufficient
    /// material (a lone king, or king and one minor piece); other games "never" (spec).
    fn cannot_win(&self, side: Side) -> bool {
        if self.variant != VariantKind::Chess || !self.setup.conditions.is_empty() {
            return false;
        }
        let fen = self.game.fen();
        let board = fen.split_whitespace().next().unwrap_or("");
        let own: Vec<char> = board
            .chars()
            .filter(|c| c.is_ascii_alphabetic() && (c.is_ascii_uppercase() == (side == Side::White)))
            .map(|c| c.to_ascii_lowercase())
            .filter(|c| *c != 'k')
            .collect();
        own.is_empty() || (own.len() == 1 && (own[0] == 'n' || own[0] == 'b'))
    }

    fn flag(&mut self, side: Side, now: i64) {
        let mut rem = self.remaining_at(now);
        rem[side.index()] = 0;
        self.remaining = rem;
        self.turn_started = now;
        let winner = side.other();
        let status = if self.cannot_win(winner) { RulesStatus::Draw } else { Round::win_for(winner) };
        let text = if status == RulesStatus::Draw {
            format!("{} ran out of time, but {} cannot win", side.label(), winner.label())
        } else {
            format!("{} ran out of time", side.label())
        };
        self.finish(status, text, now);
    }

    /// The actions `side` may take now.
    pub fn actions(&self, side: Side) -> Vec<Action> {
        let mut a = Vec::new();
        let me = side.index();
        let opp = &self.seats[1 - me];
        let offer = |k: OfferKind| self.offers[k.index()];
        match self.status {
            Status::Waiting => {
                if matches!(self.seats[me], Seat::Human { .. }) {
                    a.push(Action::Abort);
                }
            }
            Status::Playing => {
                if !self.has_moved(side) || !self.has_moved(side.other()) {
                    a.push(Action::Abort);
                } else {
                    a.push(Action::Resign);
                }
                match offer(OfferKind::Draw) {
                    Some(s) if s == side => a.push(Action::WithdrawDraw),
                    Some(_) => a.extend([Action::AcceptDraw, Action::DeclineDraw]),
                    None if self.has_moved(side) && self.has_moved(side.other()) => a.push(Action::OfferDraw),
                    None => {}
                }
                if !opp.is_computer() {
                    match offer(OfferKind::Takeback) {
                        Some(s) if s == side => a.push(Action::WithdrawTakeback),
                        Some(_) => a.extend([Action::AcceptTakeback, Action::DeclineTakeback]),
                        None if self.has_moved(side) => a.push(Action::AskTakeback),
                        None => {}
                    }
                }
            }
            Status::Finished | Status::Aborted => {
                if self.rematch.is_none() && !matches!(opp, Seat::Open) && self.kind != "import" {
                    match offer(OfferKind::Rematch) {
                        Some(s) if s == side => a.push(Action::WithdrawRematch),
                        Some(_) => a.extend([Action::AcceptRematch, Action::DeclineRematch]),
                        None => a.push(Action::OfferRematch),
                    }
                }
            }
        }
        a
    }

    fn seated_playing(&self, by: Side) -> Result<(), Refusal> {
        if !self.playing() {
            return Err(Refusal::new("not-playing", "the game is not in play"));
        }
        let _ = by;
        Ok(())
    }

    /// Carries out `cmd` at `now`.
    pub fn apply(&mut self, cmd: Command<'_>, now: i64, limits: &Limits) -> Result<Vec<Event>, Refusal> {
        match cmd {
            Command::Move { by, ply, turn } => self.check_move(by, ply, turn, now),
            Command::Join { player, name } => {
                if self.status != Status::Waiting {
                    return Err(Refusal::new("not-open", "this game has no open seat"));
                }
                if self.seat_of(player).is_some() {
                    return Err(Refusal::new(
                        "not-open",
                        "you already sit at this game: send the link to your opponent",
                    ));
                }
                let open = if self.seats[0] == Seat::Open { 0 } else { 1 };
                self.seats[open] = Seat::Human { id: player.to_string(), name };
                self.status = Status::Playing;
                self.updated_ms = now;
                self.turn_started = now;
                self.gone_since[open] = Some(now);
                self.refresh_legal();
                Ok(vec![Event::Save, Event::State])
            }
            Command::Resign(by) => {
                self.seated_playing(by)?;
                if !(self.has_moved(by) && self.has_moved(by.other())) {
                    return Err(Refusal::new(
                        "not-allowed",
                        "no move played yet on both sides: abort the game instead",
                    ));
                }
                self.finish(Round::win_for(by.other()), format!("{} resigned", by.label()), now);
                Ok(vec![Event::Save, Event::State])
            }
            Command::Abort(by) => {
                let allowed = self.status == Status::Waiting
                    || (self.playing() && !(self.has_moved(Side::White) && self.has_moved(Side::Black)));
                if !allowed {
                    return Err(Refusal::new("too-late", "a game can be aborted only before both sides have moved"));
                }
                self.abort(format!("aborted by {}", by.label()), now);
                Ok(vec![Event::Save, Event::State])
            }
            Command::Offer { kind, by, action } => self.offer(kind, by, action, now),
            Command::ComputerDraw { accept } => {
                let human = (0..2).map(Side::of).find(|s| self.offers[0] == Some(*s));
                match human {
                    Some(_) if accept && self.playing() => {
                        self.finish(RulesStatus::Draw, "draw agreed".into(), now);
                        Ok(vec![Event::Save, Event::State])
                    }
                    Some(_) => {
                        self.offers[0] = None;
                        Ok(vec![Event::State])
                    }
                    None => Ok(vec![]),
                }
            }
            Command::Connect(seat) => {
                self.watchers += 1;
                if let Some(s) = seat {
                    self.conns[s.index()] += 1;
                    self.gone_since[s.index()] = None;
                }
                Ok(vec![Event::Presence])
            }
            Command::Disconnect(seat) => {
                self.watchers = self.watchers.saturating_sub(1);
                if let Some(s) = seat {
                    let c = &mut self.conns[s.index()];
                    *c = c.saturating_sub(1);
                    if *c == 0 {
                        self.gone_since[s.index()] = Some(now);
                    }
                }
                Ok(vec![Event::Presence])
            }
            Command::Tick => Ok(self.tick(now, limits)),
        }
    }

    fn check_move(&mut self, by: Side, ply: u32, turn: &str, now: i64) -> Result<Vec<Event>, Refusal> {
        match self.status {
            Status::Playing => {}
            Status::Waiting => return Err(Refusal::new("not-playing", "waiting for an opponent")),
            _ => return Err(Refusal::new("not-playing", "the game is over")),
        }
        if self.pending.is_some() {
            return Err(Refusal::new("stale", "a move is being stored: resync"));
        }
        if self.to_move() != by {
            return Err(Refusal::new("not-your-turn", format!("it is {}'s turn", self.to_move().label())));
        }
        if ply != self.ply {
            return Err(Refusal::new(
                "stale",
                format!("the move is for ply {ply} but the game is at ply {}: resync", self.ply),
            ));
        }
        if turn.len() > 200 {
            return Err(Refusal::new("illegal", "turn text too long"));
        }
        let mut clocks = self.remaining_at(now);
        if self.clock_running() && clocks[by.index()] <= 0 {
            return Err(Refusal::new("time", "your time is up"));
        }
        // The token is looked up in the legal list made for this position, and the turn
        // played by its canonical form: the form the rules find first.
        let text =
            self.legal_out.iter().find(|t| t.uci == turn || t.canonical == turn).map_or(turn, |t| t.canonical.as_str());
        let played = self.game.play(text).map_err(|e| Refusal::new("illegal", e.to_string()))?;
        if self.clock_running() {
            clocks[by.index()] += self.clock.map_or(0, |c| c.increment_ms);
        }
        let rec = MoveRecord {
            ply: ply + 1,
            uci: played.uci.clone(),
            canonical: played.canonical.clone(),
            notation: played.notation.clone(),
            white_ms: clocks[0],
            black_ms: clocks[1],
            at_ms: now,
        };
        self.pending = Some((played, by));
        Ok(vec![Event::Store(rec)])
    }

    /// The move answered by [`Event::Store`] was stored: it counts. Answers whether the
    /// game ended with it.
    pub fn commit_move(&mut self, rec: MoveRecord, now: i64) -> Vec<Event> {
        let Some((played, by)) = self.pending.take() else { return vec![] };
        let number = match self.played.last() {
            None => 1,
            Some(last) if last.side == Side::Black && by == Side::White => last.number + 1,
            Some(last) => last.number,
        };
        let mover = if by == Side::White { 'w' } else { 'b' };
        let halfmove = if resets_fifty(&played.canonical, mover) { 0 } else { self.halfmove() + 1 };
        let fen = self.game.fen();
        self.played.push(PlayedOut {
            shape: shape(self.variant, &played, mover),
            uci: played.uci,
            notation: played.notation,
            canonical: played.canonical,
            copy_fen: copy_fen(self.variant, &fen, halfmove),
            fen,
            side: by,
            number,
        });
        self.ply = rec.ply;
        self.remaining = [rec.white_ms, rec.black_ms];
        self.updated_ms = now;
        self.turn_started = now;
        self.moves.push(rec);
        if self.offers[0] != Some(by) {
            self.offers[0] = None;
        }
        self.offers[1] = None;
        let outcome = self.game.outcome();
        if outcome.status != RulesStatus::Ongoing {
            let loser = match outcome.status {
                RulesStatus::WhiteWins => Some(Side::Black),
                RulesStatus::BlackWins => Some(Side::White),
                _ => None,
            };
            let has_king = loser.is_none_or(|l| {
                let fen = self.game.fen();
                let board = fen.split_whitespace().next().unwrap_or("").to_string();
                board.contains(if l == Side::White { 'K' } else { 'k' })
            });
            let text =
                chimere_rules::variants::end_sentence(self.variant, outcome.reason, loser.map(Side::label), has_king);
            self.finish(outcome.status, text, now);
            vec![Event::Save]
        } else {
            self.refresh_legal();
            vec![]
        }
    }

    /// The move answered by [`Event::Store`] was not stored: it is taken back.
    pub fn cancel_move(&mut self) {
        if self.pending.take().is_some() {
            self.game.undo();
        }
    }

    fn offer(&mut self, kind: OfferKind, by: Side, action: OfferAction, now: i64) -> Result<Vec<Event>, Refusal> {
        let k = kind.index();
        let theirs = self.offers[k] == Some(by.other());
        let opp_computer = self.seats[by.other().index()].is_computer();
        match kind {
            OfferKind::Draw | OfferKind::Takeback => self.seated_playing(by)?,
            OfferKind::Rematch => {
                if !self.ended() {
                    return Err(Refusal::new("not-allowed", "the game is not over"));
                }
                if self.rematch.is_some() {
                    return Err(Refusal::new("not-allowed", "the rematch already exists"));
                }
                if self.kind == "import" || self.seats[by.other().index()] == Seat::Open {
                    return Err(Refusal::new("not-allowed", "this game has no opponent for a rematch"));
                }
            }
        }
        if kind == OfferKind::Takeback && (opp_computer || self.seats[by.index()].is_computer()) {
            return Err(Refusal::new("not-allowed", "no takebacks against the computer"));
        }
        match action {
            OfferAction::Offer | OfferAction::Accept if theirs || (kind == OfferKind::Rematch && opp_computer) => {
                self.offers[k] = None;
                match kind {
                    OfferKind::Draw => {
                        self.finish(RulesStatus::Draw, "draw agreed".into(), now);
                        Ok(vec![Event::Save, Event::State])
                    }
                    OfferKind::Takeback => self.take_back(by.other(), now),
                    OfferKind::Rematch => Ok(vec![Event::CreateRematch]),
                }
            }
            OfferAction::Offer => {
                if self.offers[k] == Some(by) {
                    return Ok(vec![]);
                }
                match kind {
                    OfferKind::Draw if !(self.has_moved(by) && self.has_moved(by.other())) => {
                        return Err(Refusal::new("not-allowed", "a draw can be offered once both sides have moved"));
                    }
                    OfferKind::Takeback if !self.has_moved(by) => {
                        return Err(Refusal::new("not-allowed", "you have no move to take back"));
                    }
                    _ => {}
                }
                self.offers[k] = Some(by);
                let mut ev = vec![Event::State];
                if kind == OfferKind::Draw && opp_computer {
                    ev.push(Event::AskComputerDraw);
                }
                Ok(ev)
            }
            OfferAction::Accept => Err(Refusal::new("no-offer", format!("there is no {} to accept", kind.noun()))),
            OfferAction::Decline => {
                if self.offers[k].is_none() {
                    return Err(Refusal::new("no-offer", format!("there is no {} to decline", kind.noun())));
                }
                self.offers[k] = None;
                Ok(vec![Event::State])
            }
        }
    }

    /// Back to `proposer`'s turn, before its last move.
    fn take_back(&mut self, proposer: Side, now: i64) -> Result<Vec<Event>, Refusal> {
        let Some(last) = self.played.iter().rposition(|p| p.side == proposer) else {
            return Err(Refusal::new("not-allowed", "no move to take back"));
        };
        let to_ply = last as u32;
        let from_ply = self.ply;
        let (w, b) = match to_ply {
            0 => {
                let i = self.clock.map_or(0, |c| c.initial_ms);
                (i, i)
            }
            p => (self.moves[p as usize - 1].white_ms, self.moves[p as usize - 1].black_ms),
        };
        while self.ply > to_ply {
            self.game.undo();
            self.moves.pop();
            self.played.pop();
            self.ply -= 1;
        }
        self.remaining = [w, b];
        self.offers = [None; 3];
        self.turn_started = now;
        self.updated_ms = now;
        self.refresh_legal();
        Ok(vec![Event::TakeBack { from_ply, to_ply, white_ms: w, black_ms: b }, Event::State])
    }

    /// The rematch was created.
    pub fn set_rematch(&mut self, id: String, now: i64) -> Vec<Event> {
        self.rematch = Some(id);
        self.offers = [None; 3];
        self.updated_ms = now;
        vec![Event::Save, Event::State]
    }

    /// The next time a timer must fire (ms since the epoch), if any.
    pub fn next_wake(&self, now: i64, limits: &Limits) -> Option<i64> {
        let mut wake: Option<i64> = None;
        let mut at = |t: i64| wake = Some(wake.map_or(t, |w: i64| w.min(t)));
        match self.status {
            Status::Waiting => {
                at(self.created_ms + limits.seek_max_ms);
                if let Some(s) = self.creator()
                    && let Some(since) = self.gone_since[s.index()]
                {
                    at(since + limits.seek_grace_ms);
                }
            }
            Status::Playing => {
                if self.clock_running() {
                    at(now + self.remaining_at(now)[self.to_move().index()].max(0));
                }
                if !self.has_moved(self.to_move()) && !self.seats[self.to_move().index()].is_computer() {
                    at(self.turn_started + limits.first_move_ms);
                }
                if self.clock.is_some() {
                    for s in 0..2 {
                        if let Some(since) = self.gone_since[s]
                            && self.seats[s].is_human()
                        {
                            at(since + limits.abandon_ms);
                        }
                    }
                }
            }
            Status::Finished | Status::Aborted => {}
        }
        wake
    }

    /// The seated human of a waiting game.
    fn creator(&self) -> Option<Side> {
        (0..2).map(Side::of).find(|s| self.seats[s.index()].is_human())
    }

    fn tick(&mut self, now: i64, limits: &Limits) -> Vec<Event> {
        match self.status {
            Status::Waiting => {
                let gone = self.creator().and_then(|s| self.gone_since[s.index()]);
                if now >= self.created_ms + limits.seek_max_ms || gone.is_some_and(|g| now >= g + limits.seek_grace_ms)
                {
                    self.abort("nobody took the seat in time".into(), now);
                    return vec![Event::Save, Event::State];
                }
                vec![]
            }
            Status::Playing => {
                let s = self.to_move();
                if self.clock_running() && self.remaining_at(now)[s.index()] <= 0 {
                    self.flag(s, now);
                    return vec![Event::Save, Event::State];
                }
                if !self.has_moved(s)
                    && !self.seats[s.index()].is_computer()
                    && now >= self.turn_started + limits.first_move_ms
                {
                    self.abort(format!("{} did not make a first move in time", s.label()), now);
                    return vec![Event::Save, Event::State];
                }
                if self.clock.is_some() {
                    for i in 0..2 {
                        let side = Side::of(i);
                        let opponent_here = self.conns[1 - i] > 0 || self.seats[1 - i].is_computer();
                        if let Some(since) = self.gone_since[i]
                            && self.seats[i].is_human()
                            && self.conns[i] == 0
                            && opponent_here
                            && now - since >= limits.abandon_ms
                        {
                            if !(self.has_moved(Side::White) && self.has_moved(Side::Black)) {
                                self.abort(format!("{} left before the game started", side.label()), now);
                            } else {
                                self.finish(
                                    Round::win_for(side.other()),
                                    format!("{} left the game", side.label()),
                                    now,
                                );
                            }
                            return vec![Event::Save, Event::State];
                        }
                    }
                }
                vec![]
            }
            _ => vec![],
        }
    }

    /// The result in a sentence.
    pub fn result_text(&self) -> String {
        match self.status {
            Status::Waiting => "Waiting for an opponent.".into(),
            Status::Playing => String::new(),
            Status::Aborted => format!("Game aborted: {}.", self.reason),
            Status::Finished => {
                let head = match self.result.as_str() {
                    "1-0" => "White wins",
                    "0-1" => "Black wins",
                    "1/2-1/2" => "Draw",
                    _ => "Game over",
                };
                if self.reason.is_empty() { format!("{head}.") } else { format!("{head}: {}.", self.reason) }
            }
        }
    }

    fn player(&self, i: usize) -> Option<PlayerOut> {
        match &self.seats[i] {
            Seat::Open => None,
            Seat::Computer { .. } => Some(PlayerOut { name: self.seats[i].label(), bot: true, online: None }),
            Seat::Human { .. } => {
                Some(PlayerOut { name: self.seats[i].label(), bot: false, online: Some(self.conns[i] > 0) })
            }
        }
    }

    pub fn players(&self) -> PlayersOut {
        PlayersOut { white: self.player(0), black: self.player(1) }
    }

    pub fn clock_out(&self, now: i64) -> Option<ClockOut> {
        self.clock.map(|c| {
            let r = self.remaining_at(now);
            ClockOut {
                initial_ms: c.initial_ms,
                increment_ms: c.increment_ms,
                white_ms: r[0].max(0),
                black_ms: r[1].max(0),
                running: self.clock_running().then(|| self.to_move()),
            }
        })
    }

    pub fn actions_by_side(&self) -> ActionsOut {
        ActionsOut { white: self.actions(Side::White), black: self.actions(Side::Black) }
    }

    fn in_check(&self) -> bool {
        self.check
    }

    /// The whole state for a receiver seated at `you`.
    pub fn state(&self, you: Option<Side>, now: i64) -> StateMsg {
        StateMsg {
            id: self.id.clone(),
            variant: self.variant.name().into(),
            kind: self.kind.clone(),
            setup: self.setup.clone(),
            describe: self.setup.describe(),
            start_fen: self.start_fen.clone(),
            fen: self.game.fen(),
            copy_fen: copy_fen(self.variant, &self.game.fen(), self.halfmove()),
            ply: self.ply,
            side: self.to_move(),
            moves: self.played.clone(),
            legal: self.legal_out.clone(),
            players: self.players(),
            you,
            status: self.status.as_str().into(),
            result: self.result.clone(),
            reason: self.reason.clone(),
            result_text: self.result_text(),
            clock: self.clock_out(now),
            offers: OffersOut { draw: self.offers[0], takeback: self.offers[1], rematch: self.offers[2] },
            actions: match you {
                Some(s) => self.actions(s),
                // A visitor may take an open seat of a waiting game.
                None if self.status == Status::Waiting && self.seats.iter().any(|s| matches!(s, Seat::Open)) => {
                    vec![Action::Join]
                }
                None => Vec::new(),
            },
            actions_by_side: self.actions_by_side(),
            watchers: self.watchers,
            check: self.in_check(),
            rematch: self.rematch.clone(),
        }
    }

    /// The `move` message of the last turn: written straight into one string, the legal
    /// list serialised once for every receiver (fields of [`crate::protocol::MoveMsg`]).
    pub fn move_message(&self, now: i64) -> String {
        fn push(out: &mut Vec<u8>, v: &impl serde::Serialize) {
            let _ = serde_json::to_writer(&mut *out, v);
        }
        let mut out = Vec::with_capacity(256 + self.legal_out.len() * 160);
        out.extend_from_slice(br#"{"t":"move","ply":"#);
        push(&mut out, &self.ply);
        out.extend_from_slice(br#","move":"#);
        push(&mut out, &self.played.last());
        out.extend_from_slice(br#","fen":"#);
        push(&mut out, &self.played.last().map(|p| p.fen.as_str()));
        out.extend_from_slice(br#","side":"#);
        push(&mut out, &self.to_move());
        out.extend_from_slice(br#","legal":"#);
        push(&mut out, &self.legal_out);
        out.extend_from_slice(br#","clock":"#);
        push(&mut out, &self.clock_out(now));
        out.extend_from_slice(br#","actions_by_side":"#);
        push(&mut out, &self.actions_by_side());
        out.extend_from_slice(br#","check":"#);
        push(&mut out, &self.in_check());
        out.push(b'}');
        String::from_utf8(out).unwrap_or_default()
    }

    /// The computer's level if it has the move now.
    pub fn computer_to_move(&self) -> Option<u8> {
        match (&self.seats[self.to_move().index()], self.status) {
            (Seat::Computer { level }, Status::Playing) if self.pending.is_none() => Some(*level),
            _ => None,
        }
    }

    /// The level of the computer seat, if any.
    pub fn computer_level(&self) -> Option<u8> {
        self.seats.iter().find_map(|s| if let Seat::Computer { level } = s { Some(*level) } else { None })
    }

    /// The texts of the turns played (for the computer's copy of the game).
    pub fn history(&self) -> Vec<String> {
        self.moves.iter().map(|m| m.canonical.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::ServerMsg;

    fn limits() -> Limits {
        Limits { abandon_ms: 1000, first_move_ms: 5000, seek_grace_ms: 2000, seek_max_ms: 60_000, ..Limits::default() }
    }

    fn round(variant: &str, white: Option<&str>, black: Option<&str>, clock: Option<i64>) -> Round {
        let g = crate::rules::create(variant, Setup::default().options(), None).unwrap();
        let rec = GameRecord {
            id: "g1".into(),
            variant: variant.into(),
            setup: "{}".into(),
            start_fen: g.fen(),
            white: white.map(str::to_string),
            black: black.map(str::to_string),
            kind: "private".into(),
            initial_ms: clock,
            white_ms: clock.unwrap_or(0),
            black_ms: clock.unwrap_or(0),
            status: if white.is_some() && black.is_some() { "playing" } else { "waiting" }.into(),
            result: "*".into(),
            ..GameRecord::default()
        };
        Round::load(rec, Vec::new(), 0).unwrap()
    }

    /// Plays `turn` (UCI) and stores it at once.
    fn play(r: &mut Round, by: Side, turn: &str, now: i64) -> Vec<Event> {
        let ply = r.ply;
        let ev = r.apply(Command::Move { by, ply, turn }, now, &limits()).unwrap();
        let Event::Store(rec) = ev[0].clone() else { panic!("{ev:?}") };
        r.commit_move(rec, now)
    }

    #[test]
    fn moves_are_checked_and_numbered_by_turn() {
        let mut r = round("chess", Some("a"), Some("b"), None);
        let l = limits();
        assert_eq!(
            r.apply(Command::Move { by: Side::Black, ply: 0, turn: "e7e5" }, 0, &l).unwrap_err().code,
            "not-your-turn"
        );
        assert_eq!(r.apply(Command::Move { by: Side::White, ply: 3, turn: "e2e4" }, 0, &l).unwrap_err().code, "stale");
        assert_eq!(
            r.apply(Command::Move { by: Side::White, ply: 0, turn: "e2e5" }, 0, &l).unwrap_err().code,
            "illegal"
        );
        play(&mut r, Side::White, "e2e4", 1);
        play(&mut r, Side::Black, "e7e5", 2);
        play(&mut r, Side::White, "g1f3", 3);
        let s = r.state(Some(Side::White), 3);
        assert_eq!(
            s.moves.iter().map(|m| (m.number, m.side)).collect::<Vec<_>>(),
            [(1, Side::White), (1, Side::Black), (2, Side::White)]
        );
        assert_eq!(s.moves[2].shape.squares(), ["g1", "f3"]);
        // A move refused by the store leaves nothing behind.
        let ev = r.apply(Command::Move { by: Side::Black, ply: 3, turn: "b8c6" }, 4, &l).unwrap();
        assert!(matches!(ev[0], Event::Store(_)));
        r.cancel_move();
        assert_eq!((r.ply, r.game().fen()), (3, s.fen));
    }

    #[test]
    fn offers_are_one_mechanism_and_actions_follow_the_game() {
        let mut r = round("chess", Some("a"), Some("b"), None);
        let l = limits();
        assert_eq!(r.actions(Side::White), [Action::Abort], "nothing to take back or offer before a move");
        let offer = |kind, by, action| Command::Offer { kind, by, action };
        assert!(r.apply(offer(OfferKind::Takeback, Side::White, OfferAction::Offer), 0, &l).is_err());
        play(&mut r, Side::White, "e2e4", 1);
        assert!(r.actions(Side::White).contains(&Action::AskTakeback));
        assert!(!r.actions(Side::Black).contains(&Action::AskTakeback));
        play(&mut r, Side::Black, "e7e5", 2);
        r.apply(offer(OfferKind::Takeback, Side::Black, OfferAction::Offer), 3, &l).unwrap();
        assert_eq!(
            r.actions(Side::White),
            [Action::Resign, Action::OfferDraw, Action::AcceptTakeback, Action::DeclineTakeback]
        );
        let ev = r.apply(offer(OfferKind::Takeback, Side::White, OfferAction::Accept), 4, &l).unwrap();
        assert_eq!(ev[0], Event::TakeBack { from_ply: 2, to_ply: 1, white_ms: 0, black_ms: 0 });
        assert_eq!((r.ply, r.to_move()), (1, Side::Black));
        play(&mut r, Side::Black, "c7c5", 5);
        r.apply(offer(OfferKind::Draw, Side::White, OfferAction::Offer), 6, &l).unwrap();
        assert!(r.apply(offer(OfferKind::Draw, Side::White, OfferAction::Accept), 6, &l).is_err());
        r.apply(offer(OfferKind::Draw, Side::Black, OfferAction::Accept), 7, &l).unwrap();
        assert_eq!((r.status, r.result.as_str()), (Status::Finished, "1/2-1/2"));
        assert_eq!(r.result_text(), "Draw: draw agreed.");
        assert_eq!(r.actions(Side::Black), [Action::OfferRematch]);
        r.apply(offer(OfferKind::Rematch, Side::Black, OfferAction::Offer), 8, &l).unwrap();
        let ev = r.apply(offer(OfferKind::Rematch, Side::White, OfferAction::Accept), 9, &l).unwrap();
        assert_eq!(ev, [Event::CreateRematch]);
    }

    #[test]
    fn a_draw_offer_to_the_computer_asks_it_and_no_takebacks() {
        let mut r = round("chess", Some("a"), Some("bot:3"), None);
        let l = limits();
        play(&mut r, Side::White, "e2e4", 1);
        play(&mut r, Side::Black, "e7e5", 2);
        assert!(!r.actions(Side::White).contains(&Action::AskTakeback));
        let ev = r
            .apply(Command::Offer { kind: OfferKind::Draw, by: Side::White, action: OfferAction::Offer }, 3, &l)
            .unwrap();
        assert!(ev.contains(&Event::AskComputerDraw));
        r.apply(Command::ComputerDraw { accept: false }, 4, &l).unwrap();
        assert_eq!(r.state(None, 4).offers.draw, None, "declined at once");
        assert!(r.playing());
    }

    #[test]
    fn timers_flag_abort_and_expire() {
        let l = limits();
        // Flag fall once both have moved.
        let mut r = round("chess", Some("a"), Some("b"), Some(10_000));
        r.apply(Command::Connect(Some(Side::White)), 0, &l).unwrap();
        r.apply(Command::Connect(Some(Side::Black)), 0, &l).unwrap();
        play(&mut r, Side::White, "e2e4", 0);
        play(&mut r, Side::Black, "e7e5", 0);
        assert_eq!(r.next_wake(0, &l), Some(10_000));
        assert!(r.apply(Command::Tick, 9_000, &l).unwrap().is_empty());
        r.apply(Command::Tick, 10_001, &l).unwrap();
        assert_eq!((r.result.as_str(), r.result_text().as_str()), ("0-1", "Black wins: White ran out of time."));
        // A side that never moves: aborted.
        let mut r = round("chess", Some("a"), Some("b"), None);
        play(&mut r, Side::White, "e2e4", 0);
        assert_eq!(r.next_wake(0, &l), Some(5000));
        r.apply(Command::Tick, 5000, &l).unwrap();
        assert_eq!(r.status, Status::Aborted);
        // A seek whose creator left expires after the grace.
        let mut r = round("chess", Some("a"), None, None);
        r.apply(Command::Connect(Some(Side::White)), 0, &l).unwrap();
        r.apply(Command::Disconnect(Some(Side::White)), 100, &l).unwrap();
        assert_eq!(r.next_wake(100, &l), Some(2100));
        r.apply(Command::Tick, 2100, &l).unwrap();
        assert_eq!(r.status, Status::Aborted);
        // Abandonment of a timed game once both moved.
        let mut r = round("chess", Some("a"), Some("b"), Some(60_000));
        r.apply(Command::Connect(Some(Side::White)), 0, &l).unwrap();
        r.apply(Command::Connect(Some(Side::Black)), 0, &l).unwrap();
        play(&mut r, Side::White, "e2e4", 0);
        play(&mut r, Side::Black, "e7e5", 0);
        r.apply(Command::Disconnect(Some(Side::Black)), 10, &l).unwrap();
        r.apply(Command::Tick, 1010, &l).unwrap();
        assert_eq!((r.result.as_str(), r.reason.as_str()), ("1-0", "Black left the game"));
    }

    #[test]
    fn corrupt_records_are_errors_naming_the_game() {
        let good = round("chess", Some("a"), Some("b"), None).record();
        for bad in [
            GameRecord { setup: "{not json".into(), ..good.clone() },
            GameRecord { variant: "shogi".into(), ..good.clone() },
            GameRecord { status: "odd".into(), ..good.clone() },
            GameRecord { start_fen: "garbage".into(), ..good.clone() },
            GameRecord { black: Some("bot:99".into()), ..good.clone() },
        ] {
            let e = Round::load(bad, Vec::new(), 0).err().unwrap();
            assert!(e.starts_with("game g1: "), "{e}");
        }
    }

    #[test]
    fn end_reasons_are_sentences_per_variant() {
        let mut r = round("chess", Some("a"), Some("b"), None);
        for t in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            let by = r.to_move();
            play(&mut r, by, t, 0);
        }
        assert_eq!(r.result_text(), "Black wins: White is checkmated.");
        let ServerMsg::State(s) =
            serde_json::from_str::<ServerMsg>(&ServerMsg::State(Box::new(r.state(None, 0))).json()).unwrap()
        else {
            panic!()
        };
        assert_eq!(s.result, "0-1");
        assert_eq!(s.moves.len(), 4);
    }

    #[test]
    fn the_move_message_has_the_fields_of_its_type() {
        let mut r = round("dynamo", Some("a"), Some("b"), None);
        let two = r.legal_out.iter().find(|t| t.uci.contains(',')).unwrap().uci.clone();
        play(&mut r, Side::White, &two, 0);
        let m = r.move_message(0);
        let parsed: ServerMsg = serde_json::from_str(&m).unwrap_or_else(|e| panic!("{e}: {m}"));
        let ServerMsg::Move(mv) = parsed else { panic!() };
        assert_eq!(mv.ply, 1);
        assert_eq!(mv.played.shape.parts.len(), 2);
        assert!(!mv.legal.is_empty());
    }
}
