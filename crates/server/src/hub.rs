//! The referee: live games in memory (one [`Room`] each), the messages players and
//! spectators send, and what the server broadcasts.
//!
//! Every change goes through the room's lock: a move is checked by the rules, stored (ply
//! guard) and only then applied for good and broadcast. Clocks are the server's; the side
//! to move's clock runs once both sides have moved once (as on the big sites). Server
//! down time is not charged to anyone: after a restart the side to move's clock restarts
//! from the time stored with the last move.

use crate::bot::Bot;
use crate::rules::{self, DynGame, EndReason, TurnText};
use crate::setup::Setup;
use crate::store::{Append, GameFilter, GameRecord, MoveRecord, Store, StoreError};
use crate::writer::MoveWriter;
use axum::extract::ws::Utf8Bytes;
use chimere_core::{Colour, Status};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex as StdMutex};
use std::time::Duration;
use tokio::sync::{Mutex, broadcast};

/// Limits and timings.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Largest message answered normally (bytes); larger ones get an error.
    pub max_message: usize,
    /// Messages per second a connection may send (sustained), and the burst.
    pub rate_per_sec: f64,
    pub rate_burst: f64,
    /// Grace period of a disconnected player in a timed game.
    pub abandon_ms: i64,
    /// How often idle rooms are dropped from memory: a game not in play (finished,
    /// aborted, waiting) that nobody has been connected to since the previous sweep. Its
    /// record stays in the store and is loaded again when someone opens it.
    pub sweep_ms: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_message: 4096, rate_per_sec: 10.0, rate_burst: 30.0, abandon_ms: 30_000, sweep_ms: 60_000 }
    }
}

/// Milliseconds since the epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

/// A refused message: a short code and a one-line explanation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub code: &'static str,
    pub message: String,
}

impl Refusal {
    pub fn new(code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal { code, message: message.into() }
    }
    pub fn json(&self) -> String {
        json!({"t": "error", "code": self.code, "message": self.message}).to_string()
    }
}

/// What a client may send.
#[derive(Debug, Deserialize)]
#[serde(tag = "t", rename_all = "lowercase", deny_unknown_fields)]
pub enum ClientMsg {
    /// Play a turn (UCI token, canonical form or notation) in the position at `ply`.
    Move {
        ply: u32,
        turn: String,
    },
    /// Take the open seat.
    Join,
    Resign,
    Abort,
    Draw {
        action: Offer,
    },
    Takeback {
        action: Offer,
    },
    Rematch {
        action: Offer,
    },
    /// Ask for the full state again.
    Sync,
    Ping,
}

#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Offer {
    Offer,
    Accept,
    Decline,
}

fn side_name(s: usize) -> &'static str {
    if s == 0 { "white" } else { "black" }
}

fn side_index(c: Colour) -> usize {
    if c == Colour::Black { 1 } else { 0 }
}

fn turn_json(t: &TurnText) -> Value {
    json!({"uci": t.uci, "notation": t.notation, "canonical": t.canonical})
}

/// A turn as sent (serialised straight from the texts, without a `Value` in between).
#[derive(Serialize)]
struct TurnOut<'a> {
    uci: &'a str,
    notation: &'a str,
    canonical: &'a str,
}

impl<'a> From<&'a TurnText> for TurnOut<'a> {
    fn from(t: &'a TurnText) -> Self {
        TurnOut { uci: &t.uci, notation: &t.notation, canonical: &t.canonical }
    }
}

/// The legal list as sent.
struct LegalOut<'a>(&'a [TurnText]);

impl Serialize for LegalOut<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(TurnOut::from))
    }
}

/// Appends `v` as JSON to `out`.
fn push_json(out: &mut Vec<u8>, v: &impl Serialize) {
    // Serialising these values (strings, numbers, plain structs, a `Value`) into memory
    // cannot fail: no map with non-string keys, no failing writer.
    let _ = serde_json::to_writer(&mut *out, v);
}

/// One live game.
pub struct Room {
    pub rec: GameRecord,
    pub setup: Setup,
    game: Box<dyn DynGame>,
    pub moves: Vec<MoveRecord>,
    /// The position after each move (FEN), for the move list's "copy FEN".
    fens: Vec<String>,
    legal: Vec<TurnText>,
    /// Broadcast messages: `Utf8Bytes` are shared (reference-counted), not copied, per receiver.
    tx: broadcast::Sender<Utf8Bytes>,
    conns: [u32; 2],
    gone_since: [Option<i64>; 2],
    offers: [Option<usize>; 3],
    turn_started: i64,
    timer_gen: u64,
    /// Found idle by the last sweep (see [`Hub::sweep`]).
    idle: bool,
}

const DRAW: usize = 0;
const TAKEBACK: usize = 1;
const REMATCH: usize = 2;

impl Room {
    /// The seat of `player`, if any.
    pub fn rec_seat(&self, player: &str) -> Option<usize> {
        self.seat_of(player)
    }

    fn seat_of(&self, player: &str) -> Option<usize> {
        if self.rec.white.as_deref() == Some(player) {
            Some(0)
        } else if self.rec.black.as_deref() == Some(player) {
            Some(1)
        } else {
            None
        }
    }

    fn seat_player(&self, s: usize) -> Option<&str> {
        if s == 0 { self.rec.white.as_deref() } else { self.rec.black.as_deref() }
    }

    fn is_bot(&self, s: usize) -> bool {
        self.seat_player(s).is_some_and(|p| p.starts_with("bot:"))
    }

    fn to_move(&self) -> usize {
        side_index(self.game.side_to_move())
    }

    fn playing(&self) -> bool {
        self.rec.status == "playing"
    }

    fn clock_running(&self) -> bool {
        self.rec.initial_ms.is_some() && self.playing() && self.rec.ply >= 2
    }

    /// Remaining time of each side now.
    fn remaining(&self, now: i64) -> [i64; 2] {
        let mut r = [self.rec.white_ms, self.rec.black_ms];
        if self.clock_running() {
            r[self.to_move()] -= now - self.turn_started;
        }
        r
    }

    fn clock_json(&self, now: i64) -> Value {
        match self.rec.initial_ms {
            None => Value::Null,
            Some(initial) => {
                let r = self.remaining(now);
                json!({
                    "initial_ms": initial, "increment_ms": self.rec.increment_ms,
                    "white_ms": r[0].max(0), "black_ms": r[1].max(0),
                    "running": if self.clock_running() { Value::from(side_name(self.to_move())) } else { Value::Null },
                })
            }
        }
    }

    fn player_json(&self, s: usize) -> Value {
        let id = self.seat_player(s);
        let name = if s == 0 { &self.rec.white_name } else { &self.rec.black_name };
        match id {
            None => Value::Null,
            Some(p) if p.starts_with("bot:") => json!({"name": format!("Computer level {}", &p[4..]), "bot": true}),
            Some(_) => json!({"name": name.clone().unwrap_or_else(|| "Anonymous".into()), "bot": false,
                              "online": self.conns[s] > 0}),
        }
    }

    /// The full state, as sent on connection and resync (`you`: the receiver's seat).
    pub fn state_json(&self, you: Option<usize>) -> Value {
        let now = now_ms();
        let offer = |k: usize| self.offers[k].map(side_name);
        json!({
            "t": "state",
            "id": self.rec.id,
            "variant": self.rec.variant,
            "kind": self.rec.kind,
            "setup": self.setup,
            "describe": self.setup.describe(),
            "start_fen": self.rec.start_fen,
            "fen": self.game.fen(),
            "ply": self.rec.ply,
            "side": side_name(self.to_move()),
            "moves": self.moves.iter().zip(&self.fens).map(|(m, fen)| json!({"uci": m.uci, "notation": m.notation, "canonical": m.canonical, "fen": fen})).collect::<Vec<_>>(),
            "legal": self.legal.iter().map(turn_json).collect::<Vec<_>>(),
            "players": {"white": self.player_json(0), "black": self.player_json(1)},
            "you": you.map(side_name),
            "status": self.rec.status,
            "result": self.rec.result,
            "reason": self.rec.reason,
            "clock": self.clock_json(now),
            "offers": {"draw": offer(DRAW), "takeback": offer(TAKEBACK), "rematch": offer(REMATCH)},
            "rematch": self.rec.rematch,
        })
    }

    /// A player came or went: only who is online changes, so only the players are sent
    /// (a room with many spectators does not get the whole game each time).
    fn broadcast_presence(&self) {
        let msg = json!({"t": "presence", "players": {"white": self.player_json(0), "black": self.player_json(1)}});
        let _ = self.tx.send(Utf8Bytes::from(msg.to_string()));
    }

    fn broadcast_state(&self) {
        let _ = self.tx.send(Utf8Bytes::from(self.state_json(None).to_string()));
    }

    /// The `move` message of the turn just played (`fen`: the position after it): written
    /// straight into one string, the legal list serialised once for every receiver.
    fn move_message(&self, played: &TurnText, fen: &str, now: i64) -> String {
        let mut out = Vec::with_capacity(160 + self.legal.len() * 48);
        out.extend_from_slice(br#"{"t":"move","ply":"#);
        push_json(&mut out, &self.rec.ply);
        out.extend_from_slice(br#","move":"#);
        push_json(&mut out, &TurnOut::from(played));
        out.extend_from_slice(br#","fen":"#);
        push_json(&mut out, &fen);
        out.extend_from_slice(br#","side":""#);
        out.extend_from_slice(side_name(self.to_move()).as_bytes());
        out.extend_from_slice(br#"","legal":"#);
        push_json(&mut out, &LegalOut(&self.legal));
        out.extend_from_slice(br#","clock":"#);
        push_json(&mut out, &self.clock_json(now));
        out.push(b'}');
        // Only JSON text (UTF-8) was written.
        String::from_utf8(out).unwrap_or_default()
    }

    fn refresh_legal(&mut self) {
        self.legal = if self.playing() || self.rec.status == "waiting" { self.game.legal() } else { Vec::new() };
    }
}

/// The server's shared state: the store, the live rooms, the computer player.
pub struct Hub {
    pub store: Arc<dyn Store>,
    /// The moves' writer thread (group commit): every move is stored through it.
    writer: MoveWriter,
    rooms: StdMutex<HashMap<String, Arc<Mutex<Room>>>>,
    pub bot: Option<Arc<dyn Bot>>,
    pub limits: Limits,
}

/// Creates the game of a stored record (start position and options).
pub fn new_game(rec: &GameRecord, setup: &Setup) -> Result<Box<dyn DynGame>, String> {
    rules::create(&rec.variant, setup.options(), Some(&rec.start_fen)).map_err(|e| e.to_string())
}

/// Ends the game (status, result, reason) in the record.
fn finish(rec: &mut GameRecord, status: Status, reason: &str) {
    rec.status = "finished".into();
    rec.result = match status {
        Status::WhiteWins => "1-0",
        Status::BlackWins => "0-1",
        Status::Draw => "1/2-1/2",
        Status::Ongoing => "*",
    }
    .into();
    rec.reason = reason.into();
    rec.updated_ms = now_ms();
}

fn reason_text(r: EndReason) -> &'static str {
    match r {
        EndReason::Ongoing => "",
        EndReason::Checkmate => "checkmate",
        EndReason::NoLegalTurn => "no legal turn",
        EndReason::Rules => "the variant's rules",
        EndReason::Repetition => "threefold repetition",
        EndReason::FiftyMoves => "fifty-move rule",
        EndReason::InsufficientMaterial => "insufficient material",
    }
}

/// Whether the side `s` can never win in this position, for a flag fall: orthodox chess
/// uses insufficient material (a lone king, or king and one minor piece); every other
/// game uses "never" (a win is always thought possible), as the spec says.
fn cannot_win(variant: &str, setup: &Setup, fen: &str, s: usize) -> bool {
    if variant != "chess" || !setup.conditions.is_empty() {
        return false;
    }
    let board = fen.split_whitespace().next().unwrap_or("");
    let own: Vec<char> = board
        .chars()
        .filter(|c| c.is_ascii_alphabetic() && (c.is_ascii_uppercase() == (s == 0)))
        .map(|c| c.to_ascii_lowercase())
        .filter(|c| *c != 'k')
        .collect();
    own.is_empty() || (own.len() == 1 && (own[0] == 'n' || own[0] == 'b'))
}

impl Hub {
    pub fn new(store: Arc<dyn Store>, bot: Option<Arc<dyn Bot>>, limits: Limits) -> Result<Arc<Hub>, String> {
        let writer = MoveWriter::start(store.clone())?;
        Ok(Arc::new(Hub { store, writer, rooms: StdMutex::new(HashMap::new()), bot, limits }))
    }

    fn rooms(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Mutex<Room>>>> {
        self.rooms.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// How many rooms are live in memory.
    pub fn live_rooms(&self) -> usize {
        self.rooms().len()
    }

    /// Drops from memory the rooms found idle by this sweep and the previous one: not in
    /// play, and held by nothing but the table (no connection, no timer, no request in
    /// flight holds its `Arc`). A room busy or locked now is left for a later sweep.
    /// Returns how many were dropped.
    pub fn sweep(&self) -> usize {
        let mut rooms = self.rooms();
        let before = rooms.len();
        rooms.retain(|_, arc| {
            if Arc::strong_count(arc) > 1 {
                return true;
            }
            let Ok(mut r) = arc.try_lock() else { return true };
            if r.playing() {
                return true;
            }
            let drop_now = r.idle;
            r.idle = true;
            !drop_now
        });
        before - rooms.len()
    }

    /// Loads every game in play (after a start): clocks and timers resume.
    pub async fn resume_all(self: &Arc<Hub>) -> Result<usize, String> {
        let list = self
            .store
            .list_games(&GameFilter { statuses: vec!["playing".into()], limit: 1_000_000, ..GameFilter::default() })
            .map_err(|e| e.to_string())?;
        let mut n = 0;
        for g in list {
            match self.room(&g.id) {
                Ok(room) => {
                    let mut r = room.lock().await;
                    self.schedule(&room, &mut r);
                    n += 1;
                }
                Err(e) => eprintln!("game {}: not resumed: {}", g.id, e.message),
            }
        }
        Ok(n)
    }

    /// The live room of game `id`, loaded from the store if needed.
    pub fn room(&self, id: &str) -> Result<Arc<Mutex<Room>>, Refusal> {
        let mut rooms = self.rooms();
        if let Some(r) = rooms.get(id) {
            if let Ok(mut room) = r.try_lock() {
                room.idle = false;
            }
            return Ok(r.clone());
        }
        let rec = self
            .store
            .game(id)
            .map_err(|e| Refusal::new("storage", e.to_string()))?
            .ok_or_else(|| Refusal::new("unknown-game", format!("no game `{id}`")))?;
        let moves = self.store.moves(id).map_err(|e| Refusal::new("storage", e.to_string()))?;
        let setup: Setup = serde_json::from_str(&rec.setup).unwrap_or_default();
        let mut game = new_game(&rec, &setup).map_err(|e| Refusal::new("storage", e))?;
        let mut fens = Vec::with_capacity(moves.len());
        for m in &moves {
            game.play(&m.canonical).map_err(|e| {
                Refusal::new("storage", format!("stored move {} ({}) cannot be replayed: {e}", m.ply, m.notation))
            })?;
            fens.push(game.fen());
        }
        let (tx, _) = broadcast::channel(64);
        let mut room = Room {
            rec,
            setup,
            game,
            moves,
            fens,
            legal: Vec::new(),
            tx,
            conns: [0, 0],
            // Nobody is connected to a freshly loaded game (e.g. after a restart): both
            // seats count as away from now, so a player who never comes back forfeits
            // once the opponent is there and the grace period has passed.
            gone_since: [Some(now_ms()), Some(now_ms())],
            offers: [None; 3],
            turn_started: now_ms(),
            timer_gen: 0,
            idle: false,
        };
        room.refresh_legal();
        let arc = Arc::new(Mutex::new(room));
        rooms.insert(id.to_string(), arc.clone());
        Ok(arc)
    }

    /// Runs a store call on the blocking pool, not on an async worker thread: a write
    /// waits for the write connection, which the moves' writer holds during each group
    /// commit, and a worker thread blocked there would hold up every game it serves.
    pub async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, Refusal> {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || f(store.as_ref()))
            .await
            .map_err(|e| Refusal::new("storage", e.to_string()))?
            .map_err(|e| Refusal::new("storage", e.to_string()))
    }

    /// Creates a stored game and returns its id.
    pub async fn create(&self, mut rec: GameRecord) -> Result<String, Refusal> {
        let setup: Setup = serde_json::from_str(&rec.setup).unwrap_or_default();
        if rec.start_fen.is_empty() {
            let g = rules::create(&rec.variant, setup.options(), None)
                .map_err(|e| Refusal::new("bad-request", e.to_string()))?;
            rec.start_fen = g.fen();
        } else {
            new_game(&rec, &setup).map_err(|e| Refusal::new("bad-request", e))?;
        }
        self.blocking(move |store| {
            store.create_game(&rec)?;
            Ok(rec.id)
        })
        .await
    }

    /// A new connection to game `id` by `player` (None: no identity): its room, the
    /// broadcast receiver, its seat and the first state message.
    pub async fn connect(
        self: &Arc<Hub>,
        id: &str,
        player: Option<&str>,
    ) -> Result<(Arc<Mutex<Room>>, broadcast::Receiver<Utf8Bytes>, Option<usize>, String), Refusal> {
        let room = self.room(id)?;
        let mut r = room.lock().await;
        r.idle = false;
        let seat = player.and_then(|p| r.seat_of(p));
        if let Some(s) = seat {
            r.conns[s] += 1;
            r.gone_since[s] = None;
        }
        let rx = r.tx.subscribe();
        let state = r.state_json(seat).to_string();
        if seat.is_some() {
            r.broadcast_presence();
            // The opponent may have left while this player was away.
            self.schedule(&room, &mut r);
        }
        drop(r);
        Ok((room, rx, seat, state))
    }

    /// Loads a room and starts its timers (and the computer, if it moves first).
    pub async fn start_room(self: &Arc<Hub>, id: &str) -> Result<(), Refusal> {
        let room = self.room(id)?;
        let mut r = room.lock().await;
        self.schedule(&room, &mut r);
        Ok(())
    }

    /// A connection closed.
    pub async fn disconnect(self: &Arc<Hub>, room: &Arc<Mutex<Room>>, seat: Option<usize>) {
        let Some(s) = seat else { return };
        let mut r = room.lock().await;
        r.conns[s] = r.conns[s].saturating_sub(1);
        if r.conns[s] == 0 {
            r.gone_since[s] = Some(now_ms());
            r.broadcast_presence();
            self.schedule(room, &mut r);
        }
    }

    /// (Re)starts the timers of a room: flag fall, abandonment, the computer's turn.
    fn schedule(self: &Arc<Hub>, room: &Arc<Mutex<Room>>, r: &mut Room) {
        if !r.playing() {
            return;
        }
        r.timer_gen += 1;
        let generation = r.timer_gen;
        let now = now_ms();
        let mut wake: Option<i64> = None;
        if r.clock_running() {
            wake = Some(r.remaining(now)[r.to_move()].max(0) + 5);
        }
        if r.rec.initial_ms.is_some() {
            for s in 0..2 {
                if let Some(since) = r.gone_since[s]
                    && !r.is_bot(s)
                {
                    let left = (since + self.limits.abandon_ms - now).max(0) + 5;
                    wake = Some(wake.map_or(left, |w| w.min(left)));
                }
            }
        }
        if let Some(ms) = wake {
            let hub = self.clone();
            let room = room.clone();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(ms as u64)).await;
                let mut r = room.lock().await;
                if r.timer_gen == generation {
                    hub.check_timers(&room, &mut r);
                }
            });
        }
        let stm = r.to_move();
        if r.is_bot(stm) {
            self.bot_turn(room, r);
        }
    }

    /// Flag fall and abandonment, at a timer's wake.
    fn check_timers(self: &Arc<Hub>, room: &Arc<Mutex<Room>>, r: &mut Room) {
        if !r.playing() {
            return;
        }
        let now = now_ms();
        if r.clock_running() {
            let s = r.to_move();
            if r.remaining(now)[s] <= 0 {
                self.flag(r, s, now);
                return;
            }
        }
        if r.rec.initial_ms.is_some() {
            for s in 0..2 {
                let opponent_here = r.conns[1 - s] > 0 || r.is_bot(1 - s);
                if let Some(since) = r.gone_since[s]
                    && !r.is_bot(s)
                    && r.conns[s] == 0
                    && opponent_here
                    && now - since >= self.limits.abandon_ms
                {
                    if r.rec.ply < 2 {
                        r.rec.status = "aborted".into();
                        r.rec.result = "*".into();
                        r.rec.reason = format!("{} left before the game started", side_name(s));
                    } else {
                        finish(
                            &mut r.rec,
                            Status::win_for(if s == 0 { Colour::Black } else { Colour::White }),
                            "abandoned",
                        );
                    }
                    self.save_end(r);
                    return;
                }
            }
        }
        self.schedule(room, r);
    }

    fn flag(&self, r: &mut Room, s: usize, now: i64) {
        let mut rem = r.remaining(now);
        rem[s] = 0;
        r.rec.white_ms = rem[0];
        r.rec.black_ms = rem[1];
        let winner = 1 - s;
        let status = if cannot_win(&r.rec.variant, &r.setup, &r.game.fen(), winner) {
            Status::Draw
        } else {
            Status::win_for(if winner == 0 { Colour::White } else { Colour::Black })
        };
        finish(&mut r.rec, status, "time");
        self.save_end(r);
    }

    fn save_end(&self, r: &mut Room) {
        r.offers = [None; 3];
        r.timer_gen += 1;
        r.rec.updated_ms = now_ms();
        if let Err(e) = self.store.update_game(&r.rec) {
            eprintln!("game {}: end not stored: {e}", r.rec.id);
        }
        r.refresh_legal();
        r.broadcast_state();
    }

    /// The computer's turn (the engine chooses within the level's time, off the runtime).
    fn bot_turn(self: &Arc<Hub>, room: &Arc<Mutex<Room>>, r: &mut Room) {
        let Some(bot) = self.bot.clone() else { return };
        let stm = r.to_move();
        let level: u8 = r.seat_player(stm).and_then(|p| p[4..].parse().ok()).unwrap_or(1);
        let ply = r.rec.ply;
        let fen = r.game.fen();
        let history: Vec<String> = r.moves.iter().map(|m| m.canonical.clone()).collect();
        let rec = r.rec.clone();
        let setup = r.setup.clone();
        let budget = bot_budget(r, stm);
        let hub = self.clone();
        let room = room.clone();
        tokio::spawn(async move {
            let chosen = tokio::task::spawn_blocking(move || {
                let mut g = new_game(&rec, &setup).ok()?;
                for m in &history {
                    g.play(m).ok()?;
                }
                debug_assert_eq!(g.fen(), fen);
                bot.choose(g.as_mut(), level, budget)
            })
            .await
            .ok()
            .flatten();
            let Some(turn) = chosen else { return };
            let mut r = room.lock().await;
            let Some(bot_id) = r.seat_player(stm).map(str::to_string) else { return };
            if r.rec.ply == ply
                && let Err(e) = hub.play_move(&room, &mut r, &bot_id, ply, &turn).await
            {
                eprintln!("game {}: the computer's turn {turn} refused: {}", r.rec.id, e.message);
            }
        });
    }

    /// Handles one message from a client; `Ok(Some(text))` is a reply for that client alone.
    pub async fn handle(
        self: &Arc<Hub>,
        room: &Arc<Mutex<Room>>,
        player: Option<&str>,
        msg: ClientMsg,
    ) -> Result<Option<String>, Refusal> {
        let mut r = room.lock().await;
        let seat = player.and_then(|p| r.seat_of(p));
        match msg {
            ClientMsg::Ping => Ok(Some(json!({"t": "pong", "ms": now_ms()}).to_string())),
            ClientMsg::Sync => Ok(Some(r.state_json(seat).to_string())),
            ClientMsg::Move { ply, turn } => {
                let p = player.ok_or_else(|| Refusal::new("spectator", "spectators cannot move"))?;
                self.play_move(room, &mut r, p, ply, &turn).await?;
                Ok(None)
            }
            ClientMsg::Join => {
                let p = player.ok_or_else(|| Refusal::new("no-identity", "no identity cookie: reload the page"))?;
                if r.rec.status != "waiting" {
                    return Err(Refusal::new("not-open", "this game has no open seat"));
                }
                if seat.is_some() {
                    return Err(Refusal::new(
                        "not-open",
                        "you already sit at this game: send the link to your opponent",
                    ));
                }
                let name = self.store.player_name(p).ok().flatten();
                if r.rec.white.is_none() {
                    r.rec.white = Some(p.to_string());
                    r.rec.white_name = name;
                } else {
                    r.rec.black = Some(p.to_string());
                    r.rec.black_name = name;
                }
                r.rec.status = "playing".into();
                r.rec.updated_ms = now_ms();
                let rec = r.rec.clone();
                self.blocking(move |store| store.update_game(&rec)).await?;
                let s = r.seat_of(p).unwrap_or(0);
                r.conns[s] += 1;
                r.gone_since[s] = None;
                r.turn_started = now_ms();
                r.refresh_legal();
                r.broadcast_state();
                self.schedule(room, &mut r);
                Ok(Some(r.state_json(Some(s)).to_string()))
            }
            ClientMsg::Resign => {
                let s = self.seated(&r, seat)?;
                let winner = if s == 0 { Colour::Black } else { Colour::White };
                finish(&mut r.rec, Status::win_for(winner), &format!("{} resigned", side_name(s)));
                self.save_end(&mut r);
                Ok(None)
            }
            ClientMsg::Abort => {
                let s = seat.ok_or_else(|| Refusal::new("spectator", "only a player can abort"))?;
                if !(r.rec.status == "waiting" || (r.playing() && r.rec.ply < 2)) {
                    return Err(Refusal::new("too-late", "a game can be aborted only before both sides have moved"));
                }
                r.rec.status = "aborted".into();
                r.rec.result = "*".into();
                r.rec.reason = format!("aborted by {}", side_name(s));
                self.save_end(&mut r);
                Ok(None)
            }
            ClientMsg::Draw { action } => {
                let s = self.seated(&r, seat)?;
                match action {
                    Offer::Offer | Offer::Accept if r.offers[DRAW] == Some(1 - s) => {
                        finish(&mut r.rec, Status::Draw, "agreement");
                        self.save_end(&mut r);
                    }
                    Offer::Offer => {
                        r.offers[DRAW] = Some(s);
                        r.broadcast_state();
                    }
                    Offer::Accept => return Err(Refusal::new("no-offer", "there is no draw offer to accept")),
                    Offer::Decline => {
                        r.offers[DRAW] = None;
                        r.broadcast_state();
                    }
                }
                Ok(None)
            }
            ClientMsg::Takeback { action } => {
                let s = self.seated(&r, seat)?;
                if r.is_bot(1 - s) || r.is_bot(s) {
                    return Err(Refusal::new("not-allowed", "no takebacks against the computer"));
                }
                match action {
                    Offer::Offer | Offer::Accept if r.offers[TAKEBACK] == Some(1 - s) => {
                        let proposer = 1 - s;
                        self.take_back(room, &mut r, proposer)?;
                    }
                    Offer::Offer => {
                        if r.rec.ply == 0 {
                            return Err(Refusal::new("not-allowed", "no move to take back"));
                        }
                        r.offers[TAKEBACK] = Some(s);
                        r.broadcast_state();
                    }
                    Offer::Accept => return Err(Refusal::new("no-offer", "there is no takeback request to accept")),
                    Offer::Decline => {
                        r.offers[TAKEBACK] = None;
                        r.broadcast_state();
                    }
                }
                Ok(None)
            }
            ClientMsg::Rematch { action } => {
                let s = seat.ok_or_else(|| Refusal::new("spectator", "only a player can ask for a rematch"))?;
                if r.rec.status != "finished" && r.rec.status != "aborted" {
                    return Err(Refusal::new("not-allowed", "the game is not over"));
                }
                if r.rec.rematch.is_some() {
                    return Err(Refusal::new("not-allowed", "the rematch already exists"));
                }
                match action {
                    Offer::Offer | Offer::Accept if r.offers[REMATCH] == Some(1 - s) || r.is_bot(1 - s) => {
                        let id = self.rematch(&mut r).await?;
                        r.rec.rematch = Some(id);
                        let rec = r.rec.clone();
                        self.blocking(move |store| store.update_game(&rec)).await?;
                        r.offers[REMATCH] = None;
                        r.broadcast_state();
                    }
                    Offer::Offer => {
                        r.offers[REMATCH] = Some(s);
                        r.broadcast_state();
                    }
                    Offer::Accept => return Err(Refusal::new("no-offer", "there is no rematch offer to accept")),
                    Offer::Decline => {
                        r.offers[REMATCH] = None;
                        r.broadcast_state();
                    }
                }
                Ok(None)
            }
        }
    }

    fn seated(&self, r: &Room, seat: Option<usize>) -> Result<usize, Refusal> {
        let s = seat.ok_or_else(|| Refusal::new("spectator", "spectators cannot do that"))?;
        if !r.playing() {
            return Err(Refusal::new("not-playing", "the game is not in play"));
        }
        Ok(s)
    }

    async fn rematch(&self, r: &mut Room) -> Result<String, Refusal> {
        let now = now_ms();
        let mut setup = r.setup.clone();
        if setup.randomness > 0 {
            setup.seed = setup.seed.wrapping_add(1);
        }
        let rec = GameRecord {
            id: new_id(),
            variant: r.rec.variant.clone(),
            setup: serde_json::to_string(&setup).unwrap_or_default(),
            start_fen: String::new(),
            white: r.rec.black.clone(),
            black: r.rec.white.clone(),
            white_name: r.rec.black_name.clone(),
            black_name: r.rec.white_name.clone(),
            kind: r.rec.kind.clone(),
            initial_ms: r.rec.initial_ms,
            increment_ms: r.rec.increment_ms,
            white_ms: r.rec.initial_ms.unwrap_or(0),
            black_ms: r.rec.initial_ms.unwrap_or(0),
            ply: 0,
            status: "playing".into(),
            result: "*".into(),
            reason: String::new(),
            created_ms: now,
            updated_ms: now,
            rematch_of: Some(r.rec.id.clone()),
            rematch: None,
        };
        self.create(rec).await
    }

    fn take_back(self: &Arc<Hub>, room: &Arc<Mutex<Room>>, r: &mut Room, proposer: usize) -> Result<(), Refusal> {
        if !r.playing() {
            return Err(Refusal::new("not-playing", "the game is not in play"));
        }
        // Back to the proposer's turn: one ply if the proposer just moved, else two.
        let n: u32 = if r.to_move() != proposer { 1 } else { 2 };
        if r.rec.ply < n {
            return Err(Refusal::new("not-allowed", "not enough moves to take back"));
        }
        let new_ply = r.rec.ply - n;
        let (w, b) = match new_ply {
            0 => (r.rec.initial_ms.unwrap_or(0), r.rec.initial_ms.unwrap_or(0)),
            p => (r.moves[p as usize - 1].white_ms, r.moves[p as usize - 1].black_ms),
        };
        self.store.truncate(&r.rec.id, r.rec.ply, new_ply, w, b).map_err(|e| Refusal::new("storage", e.to_string()))?;
        for _ in 0..n {
            r.game.undo();
            r.moves.pop();
            r.fens.pop();
        }
        r.rec.ply = new_ply;
        r.rec.white_ms = w;
        r.rec.black_ms = b;
        r.offers = [None; 3];
        r.turn_started = now_ms();
        r.refresh_legal();
        r.broadcast_state();
        self.schedule(room, r);
        Ok(())
    }

    /// Checks, stores, applies and broadcasts one turn. The caller holds the room's lock
    /// throughout, also while the move waits for its group commit: nothing else happens in
    /// this game until the move is stored (or refused), then it is broadcast. Callers run
    /// it to completion (never cancelled half-way: the turn is applied before the commit).
    pub async fn play_move(
        self: &Arc<Hub>,
        room: &Arc<Mutex<Room>>,
        r: &mut Room,
        player: &str,
        ply: u32,
        turn: &str,
    ) -> Result<(), Refusal> {
        match r.rec.status.as_str() {
            "playing" => {}
            "waiting" => return Err(Refusal::new("not-playing", "waiting for an opponent")),
            _ => return Err(Refusal::new("not-playing", "the game is over")),
        }
        let s = r.seat_of(player).ok_or_else(|| Refusal::new("spectator", "you do not play in this game"))?;
        if r.to_move() != s {
            return Err(Refusal::new("not-your-turn", format!("it is {}'s turn", side_name(r.to_move()))));
        }
        if ply != r.rec.ply {
            return Err(Refusal::new(
                "stale",
                format!("the move is for ply {ply} but the game is at ply {}: resync", r.rec.ply),
            ));
        }
        if turn.len() > 200 {
            return Err(Refusal::new("illegal", "turn text too long"));
        }
        let now = now_ms();
        let mut clocks = r.remaining(now);
        if r.clock_running() && clocks[s] <= 0 {
            self.flag(r, s, now);
            return Err(Refusal::new("time", "your time is up"));
        }
        // The token is looked up in the legal list already made for this position, and the
        // turn played by its canonical form: the form the rules find first.
        let Room { legal, game, .. } = &mut *r;
        let text = legal.iter().find(|t| t.uci == turn || t.canonical == turn).map_or(turn, |t| t.canonical.as_str());
        let played = game.play(text).map_err(|e| Refusal::new("illegal", e.to_string()))?;
        if r.clock_running() {
            clocks[s] += r.rec.increment_ms;
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
        let rec = match self.writer.append(Append { game: r.rec.id.clone(), expected_ply: ply, rec }).await {
            Ok(stored) => stored.rec,
            Err(e) => {
                r.game.undo();
                return Err(match e {
                    StoreError::Conflict { .. } => Refusal::new("stale", e.to_string()),
                    other => Refusal::new("storage", other.to_string()),
                });
            }
        };
        r.rec.ply = ply + 1;
        r.rec.white_ms = clocks[0];
        r.rec.black_ms = clocks[1];
        r.rec.updated_ms = now;
        r.moves.push(rec);
        r.turn_started = now;
        if r.offers[DRAW] != Some(s) {
            r.offers[DRAW] = None;
        }
        r.offers[TAKEBACK] = None;
        let outcome = r.game.outcome();
        if outcome.status != Status::Ongoing {
            finish(&mut r.rec, outcome.status, reason_text(outcome.reason));
        }
        r.refresh_legal();
        let fen = r.game.fen();
        let msg = r.move_message(&played, &fen, now);
        r.fens.push(fen);
        let _ = r.tx.send(Utf8Bytes::from(msg));
        if outcome.status != Status::Ongoing {
            self.save_end(r);
        } else {
            self.schedule(room, r);
        }
        Ok(())
    }

    /// Games for the lobby: open seeks and games being played.
    pub fn lobby(&self) -> Result<Value, Refusal> {
        let err = |e: StoreError| Refusal::new("storage", e.to_string());
        let seeks = self
            .store
            .list_games(&GameFilter {
                statuses: vec!["waiting".into()],
                kind: Some("seek".into()),
                limit: 50,
                ..GameFilter::default()
            })
            .map_err(err)?;
        let live = self
            .store
            .list_games(&GameFilter { statuses: vec!["playing".into()], limit: 50, ..GameFilter::default() })
            .map_err(err)?;
        Ok(
            json!({"seeks": seeks.iter().map(summary).collect::<Vec<_>>(), "live": live.iter().map(summary).collect::<Vec<_>>()}),
        )
    }
}

fn bot_budget(r: &Room, s: usize) -> Duration {
    match r.rec.initial_ms {
        None => Duration::from_millis(1500),
        Some(_) => {
            let left = r.remaining(now_ms())[s].max(0);
            Duration::from_millis(((left / 30) + r.rec.increment_ms / 2).clamp(50, 5000) as u64)
        }
    }
}

/// A game in a list.
pub fn summary(g: &GameRecord) -> Value {
    let setup: Setup = serde_json::from_str(&g.setup).unwrap_or_default();
    let name = |id: &Option<String>, n: &Option<String>| match id {
        None => "?".to_string(),
        Some(p) if p.starts_with("bot:") => format!("Computer level {}", &p[4..]),
        Some(_) => n.clone().unwrap_or_else(|| "Anonymous".into()),
    };
    json!({
        "id": g.id, "variant": g.variant, "describe": setup.describe(),
        "white": name(&g.white, &g.white_name), "black": name(&g.black, &g.black_name),
        "open": if g.white.is_none() { "white" } else if g.black.is_none() { "black" } else { "" },
        "time": g.initial_ms.map(|i| format!("{}+{}", i / 60_000, g.increment_ms / 1000)),
        "status": g.status, "result": g.result, "reason": g.reason, "ply": g.ply, "updated_ms": g.updated_ms,
    })
}

/// A new random game id (10 characters).
pub fn new_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut raw = [0u8; 10];
    if getrandom::fill(&mut raw).is_err() {
        let t = now_ms().to_le_bytes();
        raw[..8].copy_from_slice(&t);
    }
    raw.iter().map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char).collect()
}
