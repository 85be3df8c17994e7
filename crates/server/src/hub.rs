//! The hub: a thin actor around each game's [`Round`] (the typed state machine of
//! [`crate::round`]). It loads rounds from the store (outside the table's lock), hands
//! them the messages of players and timers, carries out the events they answer — every
//! write through the writer thread ([`crate::writer`]), never on an async worker — and
//! broadcasts the views.
//!
//! A move is stored (ply guard) before it is broadcast. Clocks are the server's; the side
//! to move's clock runs once both sides have moved once. Server down time is not charged:
//! after a restart the side to move's clock restarts from the time stored with the last
//! move.

use crate::bot::Bot;
use crate::cluster::{Answer, Ask, Cluster, EXPIRY_SECS, Incoming, Lease, RemoteGame};
use crate::protocol::{ClientMsg, OfferAction, ServerMsg, Side};
use crate::round::{Command, Event, OfferKind, Round, Seat, Status};
use crate::setup::Setup;
use crate::store::{Append, Fence, GameFilter, GameRecord, Store, StoreError};
use crate::writer::{MoveWriter, Other};
use axum::extract::ws::Utf8Bytes;
use serde_json::{Value, json};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, Instant};
use tokio::sync::{Mutex, broadcast, watch};

/// Limits and timings (tests shorten them).
#[derive(Clone, Debug)]
pub struct Limits {
    /// Largest message answered normally (bytes); larger ones get an error.
    pub max_message: usize,
    /// Messages per second a connection may send (sustained), and the burst.
    pub rate_per_sec: f64,
    pub rate_burst: f64,
    /// Grace period of a disconnected player in a timed game (`spec/play.md` §4: 30 s).
    pub abandon_ms: i64,
    /// How often idle rooms are dropped from memory (finished or aborted games nobody
    /// holds); their records stay in the store and are loaded again when opened.
    pub sweep_ms: u64,
    /// A side that has not made its first move this long after its turn began: the game
    /// is aborted.
    pub first_move_ms: i64,
    /// A waiting game whose creator has had no connection this long expires.
    pub seek_grace_ms: i64,
    /// A waiting game expires this long after its creation in any case.
    pub seek_max_ms: i64,
    /// Games one identity may create per minute, and one address.
    pub create_per_min_identity: u32,
    pub create_per_min_address: u32,
    /// The shortest clock accepted (initial time, ms).
    pub min_clock_ms: i64,
    /// Count creations from loopback addresses too (off by default: local tools such as
    /// `chimere load` create thousands; behind a proxy on this machine the proxy's
    /// `X-Forwarded-For` address is counted instead).
    pub limit_loopback: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_message: 4096,
            rate_per_sec: 10.0,
            rate_burst: 30.0,
            abandon_ms: 30_000,
            sweep_ms: 60_000,
            first_move_ms: 120_000,
            seek_grace_ms: 60_000,
            seek_max_ms: 2 * 3_600_000,
            create_per_min_identity: 10,
            create_per_min_address: 30,
            min_clock_ms: 15_000,
            limit_loopback: false,
        }
    }
}

/// Milliseconds since the epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

/// A refused message: a short code and a one-line explanation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub code: Cow<'static, str>,
    pub message: String,
}

impl Refusal {
    pub fn new(code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal { code: Cow::Borrowed(code), message: message.into() }
    }
    pub fn json(&self) -> String {
        ServerMsg::Error { code: self.code.to_string(), message: self.message.clone() }.json()
    }
    /// The refusal an `error` message says (one relayed from the game's owner).
    fn of_json(text: &str) -> Refusal {
        let v: Value = serde_json::from_str(text).unwrap_or(Value::Null);
        Refusal {
            code: Cow::Owned(v["code"].as_str().unwrap_or("refused").to_string()),
            message: v["message"].as_str().unwrap_or("refused by the game's server").to_string(),
        }
    }
    /// The game is changing servers (several processes: its lease is not held here now).
    fn moving() -> Refusal {
        Refusal::new("unavailable", "the game is moving to another server: try again in a moment")
    }
}

/// One live game: its round, its broadcast channel and its timer.
pub struct Room {
    pub round: Round,
    /// Broadcast messages: `Utf8Bytes` are shared (reference-counted), not copied, per receiver.
    tx: broadcast::Sender<Utf8Bytes>,
    timer_gen: u64,
    /// Found idle by the last sweep (see [`Hub::sweep`]).
    idle: bool,
    /// Several processes: the clients other processes hold, (process, connection) → seat.
    remote: HashMap<(String, u64), Option<Side>>,
    /// Set when the game leaves this process (its lease lost): its clients here close and
    /// reconnect.
    moved: watch::Sender<bool>,
    /// When this process asked for the game's lease (several processes), or loaded it:
    /// the lease runs from no earlier than this (see [`Cluster::holds`]).
    acquired: Instant,
    /// When the taking of the lease was answered: a renewal sent before it may have run
    /// before the lease was taken (the renewals have a connection of their own) and not
    /// list the game, which is still ours (see [`Hub::drop_lost`]).
    taken: Instant,
    /// The lease's fencing token, carried by every write of the game (`Alone`: one process).
    fence: Fence,
    cluster: Option<Arc<Cluster>>,
}

impl Room {
    /// The seat of `player`, if any.
    pub fn rec_seat(&self, player: &str) -> Option<Side> {
        self.round.seat_of(player)
    }

    /// The full state for a receiver at `you`.
    pub fn state_json(&self, you: Option<Side>) -> String {
        ServerMsg::State(Box::new(self.round.state(you, now_ms()))).json()
    }

    fn broadcast(&self, text: String) {
        if let Some(c) = &self.cluster
            && !self.remote.is_empty()
        {
            let mut processes: Vec<&str> = self.remote.keys().map(|k| k.0.as_str()).collect();
            processes.sort_unstable();
            processes.dedup();
            c.broadcast(&processes, &self.round.id, &text);
        }
        let _ = self.tx.send(Utf8Bytes::from(text));
    }

    fn broadcast_state(&self) {
        self.broadcast(self.state_json(None));
    }

    fn broadcast_presence(&self) {
        self.broadcast(ServerMsg::Presence { players: self.round.players(), watchers: self.round.watchers }.json());
    }
}

/// A sliding count of creations in the last minute.
#[derive(Default)]
struct Recent(Vec<i64>);

impl Recent {
    fn allow(&mut self, now: i64, per_min: u32) -> bool {
        self.0.retain(|t| now - t < 60_000);
        if self.0.len() as u32 >= per_min {
            return false;
        }
        self.0.push(now);
        true
    }
}

/// The server's shared state: the store, the live rooms, the computer player.
pub struct Hub {
    pub store: Arc<dyn Store>,
    /// The writer thread: every write of a game goes through it.
    pub writer: MoveWriter,
    rooms: StdMutex<HashMap<String, Arc<Mutex<Room>>>>,
    pub bot: Option<Arc<dyn Bot>>,
    pub limits: Limits,
    creations: StdMutex<HashMap<String, Recent>>,
    /// Several processes on one PostgreSQL: this process's place among them.
    pub cluster: Option<Arc<Cluster>>,
    /// The other processes' parts of the lobby (read with the leases' renewal).
    lobby_parts: StdMutex<Vec<String>>,
}

/// Where a game lives: here (its room), or in another process.
enum Place {
    Here(Arc<Mutex<Room>>),
    There(String),
}

/// A client's link to its game: the room here, or the game's owner elsewhere.
pub struct Conn {
    link: Link,
    moved: watch::Receiver<bool>,
}

enum Link {
    Local(Arc<Mutex<Room>>),
    Remote { game: Arc<RemoteGame>, id: u64, seat: StdMutex<Option<Side>> },
}

impl Conn {
    /// Becomes true when the game leaves the process that served this client: the
    /// connection is then closed (the client reconnects and finds where it is now).
    pub fn moved(&self) -> watch::Receiver<bool> {
        self.moved.clone()
    }
}

impl Hub {
    pub fn new(store: Arc<dyn Store>, bot: Option<Arc<dyn Bot>>, limits: Limits) -> Result<Arc<Hub>, String> {
        Hub::new_in(store, bot, limits, None)
    }

    /// A hub that is one of several processes of a site (`cluster`), or alone (`None`).
    pub fn new_in(
        store: Arc<dyn Store>,
        bot: Option<Arc<dyn Bot>>,
        limits: Limits,
        cluster: Option<Arc<Cluster>>,
    ) -> Result<Arc<Hub>, String> {
        let writer = MoveWriter::start(store.clone())?;
        Ok(Arc::new(Hub {
            store,
            writer,
            rooms: StdMutex::new(HashMap::new()),
            bot,
            limits,
            creations: StdMutex::new(HashMap::new()),
            cluster,
            lobby_parts: StdMutex::new(Vec::new()),
        }))
    }

    /// Whether this process may act on the room now (always, alone; several processes:
    /// while its lease is held).
    fn holds(&self, r: &Room) -> bool {
        self.cluster.as_ref().is_none_or(|c| c.holds(r.acquired))
    }

    fn rooms(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Mutex<Room>>>> {
        self.rooms.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// How many rooms are live in memory.
    pub fn live_rooms(&self) -> usize {
        self.rooms().len()
    }

    /// Whether `identity` and `address` may create a game now (both are counted: fresh
    /// identities from one address do not get around it).
    pub fn may_create(&self, identity: &str, address: &str) -> Result<(), Refusal> {
        let now = now_ms();
        let mut c = self.creations.lock().unwrap_or_else(|p| p.into_inner());
        if c.len() > 100_000 {
            c.retain(|_, r| r.0.iter().any(|t| now - t < 60_000));
        }
        let id_ok = c.entry(format!("id:{identity}")).or_default().allow(now, self.limits.create_per_min_identity);
        let addr_ok =
            id_ok && c.entry(format!("ip:{address}")).or_default().allow(now, self.limits.create_per_min_address);
        if !(id_ok && addr_ok) {
            return Err(Refusal::new("rate", "too many new games: wait a minute"));
        }
        Ok(())
    }

    /// Drops from memory the rooms found idle by this sweep and the previous one: over
    /// (finished, aborted), held by nothing but the table. Returns how many were dropped.
    pub fn sweep(&self) -> usize {
        let mut rooms = self.rooms();
        let mut dropped = Vec::new();
        rooms.retain(|id, arc| {
            if Arc::strong_count(arc) > 1 {
                return true;
            }
            let Ok(mut r) = arc.try_lock() else { return true };
            if matches!(r.round.status, Status::Playing | Status::Waiting) || !r.remote.is_empty() {
                return true;
            }
            let drop_now = r.idle;
            r.idle = true;
            if drop_now {
                dropped.push(id.clone());
            }
            !drop_now
        });
        drop(rooms);
        let n = dropped.len();
        if let Some(c) = self.cluster.clone() {
            tokio::spawn(async move { c.release(&dropped).await });
        }
        n
    }

    /// Loads every game in play or waiting (after a start): clocks and timers resume.
    pub async fn resume_all(self: &Arc<Hub>) -> Result<usize, String> {
        if self.cluster.is_some() {
            // Several processes: the games are taken as their leases are free
            // ([`Hub::keep_leases`]).
            return Ok(0);
        }
        let list = self
            .store
            .list_games(&GameFilter {
                statuses: vec!["playing".into(), "waiting".into()],
                limit: 1_000_000,
                ..GameFilter::default()
            })
            .map_err(|e| e.to_string())?;
        let mut n = 0;
        for g in list {
            match self.room(&g.id).await {
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

    /// The live room of game `id`, loaded from the store if needed. The store is read
    /// and the game replayed outside the table's lock (on the blocking pool).
    pub async fn room(&self, id: &str) -> Result<Arc<Mutex<Room>>, Refusal> {
        match self.place(id).await? {
            Place::Here(room) => Ok(room),
            Place::There(_) => Err(Refusal::new("elsewhere", "the game is served by another process")),
        }
    }

    /// Where game `id` lives: its room here (loaded if needed, after taking its lease when
    /// there are several processes), or the process that holds its lease.
    async fn place(&self, id: &str) -> Result<Place, Refusal> {
        if let Some(r) = self.rooms().get(id) {
            if let Ok(mut room) = r.try_lock() {
                room.idle = false;
            }
            return Ok(Place::Here(r.clone()));
        }
        let acquired = Instant::now();
        let mut fence = Fence::Alone;
        if let Some(c) = &self.cluster {
            match c.acquire(id).await {
                Ok(Lease::Ours(f)) => fence = f,
                Ok(Lease::Theirs(owner)) => return Ok(Place::There(owner)),
                Err(e) => return Err(Refusal::new("unavailable", format!("{e}: try again in a moment"))),
            }
        }
        match self.load(id, (acquired, Instant::now()), fence).await {
            Ok(room) => Ok(Place::Here(room)),
            Err(e) => {
                if let Some(c) = &self.cluster {
                    c.release(&[id.to_string()]).await;
                }
                Err(e)
            }
        }
    }

    /// Loads game `id` into a room; `(acquired, taken)`: when its lease was asked for and
    /// when that was answered (see [`Room`]).
    async fn load(
        &self,
        id: &str,
        (acquired, taken): (Instant, Instant),
        fence: Fence,
    ) -> Result<Arc<Mutex<Room>>, Refusal> {
        let store = self.store.clone();
        let owned = id.to_string();
        let round = tokio::task::spawn_blocking(move || -> Result<Round, Refusal> {
            let rec = store
                .game(&owned)
                .map_err(|e| Refusal::new("storage", e.to_string()))?
                .ok_or_else(|| Refusal::new("unknown-game", format!("no game `{owned}`")))?;
            let moves = store.moves(&owned).map_err(|e| Refusal::new("storage", e.to_string()))?;
            Round::load(rec, moves, now_ms()).map_err(|e| {
                eprintln!("{e}");
                Refusal::new("corrupt", e)
            })
        })
        .await
        .map_err(|e| Refusal::new("storage", e.to_string()))??;
        let (tx, _) = broadcast::channel(64);
        let fresh = Arc::new(Mutex::new(Room {
            round,
            tx,
            timer_gen: 0,
            idle: false,
            remote: HashMap::new(),
            moved: watch::channel(false).0,
            acquired,
            taken,
            fence,
            cluster: self.cluster.clone(),
        }));
        // Another request may have loaded it meanwhile: the first one in the table wins.
        Ok(self.rooms().entry(id.to_string()).or_insert(fresh).clone())
    }

    /// Runs a store read on the blocking pool, not on an async worker thread.
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

    /// Creates a stored game (through the writer) and returns its id.
    pub async fn create(&self, mut rec: GameRecord) -> Result<String, Refusal> {
        let setup: Setup = serde_json::from_str(&rec.setup).map_err(|e| Refusal::new("bad-request", e.to_string()))?;
        let fen = (!rec.start_fen.is_empty()).then_some(rec.start_fen.as_str());
        let g = crate::rules::create(&rec.variant, setup.options(), fen)
            .map_err(|e| Refusal::new("bad-request", e.to_string()))?;
        rec.start_fen = g.fen();
        let id = rec.id.clone();
        self.writer.write(Other::Create(rec)).await.map_err(|e| Refusal::new("storage", e.to_string()))?;
        Ok(id)
    }

    /// Stores a whole game at once (PGN import): the record and its moves in one group.
    pub async fn import(&self, rec: GameRecord, moves: Vec<Append>) -> Result<(), Refusal> {
        self.writer.write(Other::Create(rec)).await.map_err(|e| Refusal::new("storage", e.to_string()))?;
        for a in moves {
            self.writer.append(a).await.map_err(|e| Refusal::new("storage", e.to_string()))?;
        }
        Ok(())
    }

    /// A new connection to game `id` by `player`: its room, the broadcast receiver, its
    /// seat and the first state message.
    pub async fn connect(
        self: &Arc<Hub>,
        id: &str,
        player: Option<&str>,
    ) -> Result<(Conn, broadcast::Receiver<Utf8Bytes>, Option<Side>, String), Refusal> {
        // Several processes: while a game changes owner, its lease may still name a
        // process that does not answer; it is asked again until the lease is free.
        let deadline = Instant::now() + Duration::from_secs(8);
        // An owner that did not answer is not asked again while its lease may still run:
        // the lease is tried every 250 ms meanwhile.
        let mut silent: Option<(String, Instant)> = None;
        loop {
            let owner = match self.place(id).await? {
                Place::Here(room) => {
                    let mut r = room.lock().await;
                    r.idle = false;
                    let seat = player.and_then(|p| r.round.seat_of(p));
                    let rx = r.tx.subscribe();
                    let moved = r.moved.subscribe();
                    let events = r.round.apply(Command::Connect(seat), now_ms(), &self.limits)?;
                    let state = r.state_json(seat);
                    self.carry(&room, &mut r, events).await;
                    drop(r);
                    return Ok((Conn { link: Link::Local(room), moved }, rx, seat, state));
                }
                Place::There(owner) => owner,
            };
            let Some(cluster) = &self.cluster else { return Err(Refusal::moving()) };
            if Instant::now() > deadline {
                return Err(Refusal::new("unavailable", "the game's server does not answer: try again in a moment"));
            }
            if silent.as_ref().is_some_and(|(o, at)| *o == owner && at.elapsed().as_secs_f64() < EXPIRY_SECS) {
                tokio::time::sleep(Duration::from_millis(250)).await;
                continue;
            }
            let game = cluster.remote_game(id, &owner);
            let conn = cluster.conn_id();
            match cluster.ask(&game, conn, player, Ask::Connect).await {
                Some((Answer::Done { seat, reply: Some(state) }, Some(rx))) => {
                    let moved = game.moved.subscribe();
                    let link = Link::Remote { game, id: conn, seat: StdMutex::new(seat) };
                    return Ok((Conn { link, moved }, rx, seat, state));
                }
                Some((Answer::Refused(text), _)) => {
                    cluster.release_remote(&game);
                    return Err(Refusal::of_json(&text));
                }
                Some(_) => cluster.release_remote(&game),
                None => {
                    cluster.release_remote(&game);
                    silent = Some((owner, Instant::now()));
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The full state of game `id` for `player` (wherever the game lives).
    pub async fn state(&self, id: &str, player: Option<&str>) -> Result<String, Refusal> {
        let deadline = Instant::now() + Duration::from_secs(8);
        loop {
            let owner = match self.place(id).await? {
                Place::Here(room) => {
                    let r = room.lock().await;
                    return Ok(r.state_json(player.and_then(|p| r.rec_seat(p))));
                }
                Place::There(owner) => owner,
            };
            let Some(cluster) = &self.cluster else { return Err(Refusal::moving()) };
            let game = cluster.remote_game(id, &owner);
            let answer = cluster.ask(&game, cluster.conn_id(), player, Ask::State).await;
            cluster.release_remote(&game);
            match answer {
                Some((Answer::Done { reply: Some(state), .. }, _)) => return Ok(state),
                Some((Answer::Refused(text), _)) => return Err(Refusal::of_json(&text)),
                _ if Instant::now() > deadline => return Err(Refusal::moving()),
                _ => tokio::time::sleep(Duration::from_millis(200)).await,
            }
        }
    }

    /// The seat of `player` on the game of `conn`, now.
    pub async fn seat_of(&self, conn: &Conn, player: &str) -> Option<Side> {
        match &conn.link {
            Link::Local(room) => room.lock().await.rec_seat(player),
            Link::Remote { seat, .. } => *seat.lock().unwrap_or_else(|p| p.into_inner()),
        }
    }

    /// Loads a room and starts its timers (and the computer, if it moves first).
    /// Several processes: a new game is not taken here; the process its first connection
    /// reaches takes it (the front door sends every connection of a game to one process),
    /// or, if none comes, any process after [`crate::cluster::UNCLAIMED_SECS`].
    pub async fn start_room(self: &Arc<Hub>, id: &str) -> Result<(), Refusal> {
        if self.cluster.is_some() {
            return Ok(());
        }
        let room = self.room(id).await?;
        let mut r = room.lock().await;
        self.schedule(&room, &mut r);
        Ok(())
    }

    /// A connection closed.
    pub async fn disconnect(self: &Arc<Hub>, conn: &Conn, seat: Option<Side>) {
        match &conn.link {
            Link::Local(room) => {
                let mut r = room.lock().await;
                if let Ok(events) = r.round.apply(Command::Disconnect(seat), now_ms(), &self.limits) {
                    self.carry(room, &mut r, events).await;
                }
            }
            Link::Remote { game, id, .. } => {
                let Some(cluster) = &self.cluster else { return };
                if !*game.moved.borrow() {
                    cluster.ask(game, *id, None, Ask::Disconnect(seat)).await;
                }
                cluster.release_remote(game);
            }
        }
    }

    /// Tells every connection the server is stopping.
    pub async fn announce_stop(&self) {
        let rooms: Vec<_> = self.rooms().values().cloned().collect();
        let msg = ServerMsg::Closing { message: "the server is restarting: reconnecting…".into() }.json();
        for room in rooms {
            room.lock().await.broadcast(msg.clone());
        }
    }

    /// Applies `cmd` to the room's round and carries out its events; a move the store
    /// refused is answered to the one who sent `cmd`, not to the room.
    async fn run(self: &Arc<Hub>, room: &Arc<Mutex<Room>>, r: &mut Room, cmd: Command<'_>) -> Result<(), Refusal> {
        if !self.holds(r) {
            // Several processes, the last renewal too old (the database was away): the
            // lease is renewed for this game now, or the game is no longer ours.
            let asked = Instant::now();
            match &self.cluster {
                Some(c) if c.confirm(&r.round.id, r.fence).await => r.acquired = asked,
                _ => return Err(Refusal::moving()),
            }
        }
        let events = r.round.apply(cmd, now_ms(), &self.limits)?;
        self.carry(room, r, events).await.map_or(Ok(()), Err)
    }

    /// Carries out the round's events: writes through the writer, broadcasts, the
    /// computer's answers; then the timers again. Answers the refusal of a move the store
    /// did not take (the round has taken it back; nothing was broadcast).
    async fn carry(self: &Arc<Hub>, room: &Arc<Mutex<Room>>, r: &mut Room, events: Vec<Event>) -> Option<Refusal> {
        let mut refused = None;
        let mut queue: std::collections::VecDeque<Event> = events.into();
        while let Some(e) = queue.pop_front() {
            match e {
                Event::Store(rec) => {
                    let append = Append { game: r.round.id.clone(), expected_ply: rec.ply - 1, rec, fence: r.fence };
                    match self.writer.append(append).await {
                        Ok(stored) => {
                            let now = now_ms();
                            let more = r.round.commit_move(stored.rec, now);
                            r.broadcast(r.round.move_message(now));
                            queue.extend(more);
                            if !r.round.playing() {
                                queue.push_back(Event::State);
                            }
                        }
                        Err(err) => {
                            r.round.cancel_move();
                            let conflict = matches!(err, StoreError::Conflict { .. });
                            if matches!(err, StoreError::Fenced(_)) {
                                self.let_go(room, r, &err);
                                return Some(Refusal::moving());
                            }
                            if conflict && self.cluster.is_some() {
                                // Several processes: the store is ahead of this room (a
                                // previous owner's last write landed after this process
                                // loaded the game — the fence makes it impossible; kept
                                // as a guard). The room is dropped: its clients
                                // reconnect and the game is loaded again from the store.
                                eprintln!("game {}: the store is ahead of this room: loaded again", r.round.id);
                                self.unload(room, r);
                            }
                            let code = if conflict { "stale" } else { "storage" };
                            refused = Some(Refusal::new(code, format!("the move was not stored: {err}")));
                        }
                    }
                }
                Event::Save => {
                    if let Err(e) = self.writer.write(Other::Update(r.round.record(), r.fence)).await {
                        if matches!(e, StoreError::Fenced(_)) {
                            self.let_go(room, r, &e);
                            return Some(Refusal::moving());
                        }
                        eprintln!("game {}: not stored: {e}", r.round.id);
                    }
                }
                Event::TakeBack { from_ply, to_ply, white_ms, black_ms } => {
                    let w = Other::Truncate {
                        game: r.round.id.clone(),
                        expected_ply: from_ply,
                        new_ply: to_ply,
                        clocks: (white_ms, black_ms),
                        fence: r.fence,
                    };
                    if let Err(e) = self.writer.write(w).await {
                        if matches!(e, StoreError::Fenced(_)) {
                            self.let_go(room, r, &e);
                            return Some(Refusal::moving());
                        }
                        eprintln!("game {}: takeback not stored: {e}", r.round.id);
                    }
                }
                Event::State => r.broadcast_state(),
                Event::Presence => r.broadcast_presence(),
                Event::AskComputerDraw => self.ask_computer_draw(room, r),
                Event::CreateRematch => match self.create(rematch_record(&r.round)).await {
                    Ok(id) => {
                        let _ = self.start_room(&id).await;
                        queue.extend(r.round.set_rematch(id, now_ms()));
                    }
                    Err(e) => r.broadcast(e.json()),
                },
            }
        }
        self.schedule(room, r);
        refused
    }

    /// Drops the room from this process (its clients here close and reconnect, to the
    /// game's owner now), if it is still the one in the table.
    fn unload(&self, room: &Arc<Mutex<Room>>, r: &mut Room) {
        let _ = r.moved.send(true);
        r.timer_gen += 1;
        let mut rooms = self.rooms();
        if rooms.get(&r.round.id).is_some_and(|x| Arc::ptr_eq(x, room)) {
            rooms.remove(&r.round.id);
        }
    }

    /// A write of the room refused by the fence: another process took the game's lease
    /// since this one took it. This process stops acting on the game at once — its
    /// round (which may hold the refused change) is dropped, never written — and its
    /// clients reconnect to the new owner, which has the game as stored.
    fn let_go(&self, room: &Arc<Mutex<Room>>, r: &mut Room, e: &StoreError) {
        eprintln!("game {}: {e}: dropped here", r.round.id);
        self.unload(room, r);
    }

    /// (Re)starts the room's timer and the computer's turn.
    fn schedule(self: &Arc<Hub>, room: &Arc<Mutex<Room>>, r: &mut Room) {
        r.timer_gen += 1;
        let generation = r.timer_gen;
        let now = now_ms();
        if let Some(at) = r.round.next_wake(now, &self.limits) {
            let hub = self.clone();
            // A sleeping timer does not keep the room in memory (the sweep drops rooms
            // nothing else holds).
            let weak = Arc::downgrade(room);
            let ms = (at - now).max(0) + 5;
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(ms as u64)).await;
                loop {
                    let Some(room) = weak.upgrade() else { return };
                    let mut r = room.lock().await;
                    if r.timer_gen != generation || *r.moved.borrow() {
                        return;
                    }
                    match hub.run(&room, &mut r, Command::Tick).await {
                        // Several processes, the lease not renewed lately: again soon.
                        Err(e) if e.code == "unavailable" => {}
                        _ => return,
                    }
                    drop(r);
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
            });
        }
        if let Some(level) = r.round.computer_to_move() {
            self.bot_turn(room, r, level);
        }
    }

    /// The computer judges a draw offer (off the runtime) and answers at once.
    fn ask_computer_draw(self: &Arc<Hub>, room: &Arc<Mutex<Room>>, r: &Room) {
        let Some(bot) = self.bot.clone() else { return };
        let Some(level) = r.round.computer_level() else { return };
        let computer_white = r.round.seats[0].is_computer();
        let mut game = r.round.game().clone_box();
        let (hub, room) = (self.clone(), room.clone());
        tokio::spawn(async move {
            let accept = tokio::task::spawn_blocking(move || bot.accepts_draw(game.as_mut(), computer_white, level))
                .await
                .unwrap_or(false);
            let mut r = room.lock().await;
            let _ = hub.run(&room, &mut r, Command::ComputerDraw { accept }).await;
        });
    }

    /// The computer's turn (the engine chooses within the level's time, off the runtime).
    fn bot_turn(self: &Arc<Hub>, room: &Arc<Mutex<Room>>, r: &mut Room, level: u8) {
        let Some(bot) = self.bot.clone() else { return };
        let side = r.round.to_move();
        let ply = r.round.ply;
        let mut game = r.round.game().clone_box();
        let budget = match r.round.clock {
            None => Duration::from_millis(1500),
            Some(c) => {
                let left = r.round.remaining_at(now_ms())[side.index()].max(0);
                Duration::from_millis(((left / 30) + c.increment_ms / 2).clamp(50, 5000) as u64)
            }
        };
        let (hub, room) = (self.clone(), room.clone());
        tokio::spawn(async move {
            let chosen =
                tokio::task::spawn_blocking(move || bot.choose(game.as_mut(), level, budget)).await.ok().flatten();
            let Some(turn) = chosen else { return };
            let mut r = room.lock().await;
            if r.round.ply == ply
                && r.round.computer_to_move().is_some()
                && let Err(e) = hub.run(&room, &mut r, Command::Move { by: side, ply, turn: &turn }).await
            {
                eprintln!("game {}: the computer's turn {turn} refused: {}", r.round.id, e.message);
            }
        });
    }

    /// Handles one message from a client; `Ok(Some(text))` is a reply for that client alone.
    /// A client of a game owned by another process: the message is sent to the owner,
    /// and its answer returned.
    pub async fn handle(
        self: &Arc<Hub>,
        conn: &Conn,
        player: Option<&str>,
        msg: ClientMsg,
    ) -> Result<Option<String>, Refusal> {
        let (game, id, seat) = match &conn.link {
            Link::Local(room) => return self.handle_here(room, player, msg).await,
            Link::Remote { game, id, seat } => (game, *id, seat),
        };
        if let ClientMsg::Ping = msg {
            return Ok(Some(ServerMsg::Pong { ms: now_ms() }.json()));
        }
        let Some(cluster) = &self.cluster else { return Err(Refusal::moving()) };
        if *game.moved.borrow() {
            return Err(Refusal::moving());
        }
        let text = serde_json::to_string(&msg).map_err(|e| Refusal::new("malformed", e.to_string()))?;
        match cluster.ask(game, id, player, Ask::Msg(text)).await {
            Some((Answer::Done { seat: now, reply }, _)) => {
                *seat.lock().unwrap_or_else(|p| p.into_inner()) = now;
                Ok(reply)
            }
            Some((Answer::Refused(text), _)) => Err(Refusal::of_json(&text)),
            Some((Answer::Moved, _)) => {
                cluster.forget(game);
                Err(Refusal::moving())
            }
            None => Err(Refusal::new("unavailable", "the game's server did not answer: try again in a moment")),
        }
    }

    /// Handles one message for a room of this process.
    async fn handle_here(
        self: &Arc<Hub>,
        room: &Arc<Mutex<Room>>,
        player: Option<&str>,
        msg: ClientMsg,
    ) -> Result<Option<String>, Refusal> {
        let mut r = room.lock().await;
        let seat = player.and_then(|p| r.round.seat_of(p));
        let seated = || seat.ok_or_else(|| Refusal::new("spectator", "spectators cannot do that"));
        let offer = |kind, action: OfferAction| -> Result<Command<'static>, Refusal> {
            Ok(Command::Offer { kind, by: seated()?, action })
        };
        let cmd = match msg {
            ClientMsg::Ping => return Ok(Some(ServerMsg::Pong { ms: now_ms() }.json())),
            ClientMsg::Sync => return Ok(Some(r.state_json(seat))),
            ClientMsg::Move { ply, turn } => {
                let by = seat.ok_or_else(|| Refusal::new("spectator", "spectators cannot move"))?;
                self.run(room, &mut r, Command::Move { by, ply, turn: &turn }).await?;
                return Ok(None);
            }
            ClientMsg::Join => {
                let p = player.ok_or_else(|| Refusal::new("no-identity", "no identity cookie: reload the page"))?;
                let store = self.store.clone();
                let owned = p.to_string();
                let name =
                    tokio::task::spawn_blocking(move || store.player_name(&owned).ok().flatten()).await.ok().flatten();
                self.run(room, &mut r, Command::Join { player: p, name }).await?;
                // The new player's connection counts from now.
                let s = r.round.seat_of(p);
                let ev = r.round.apply(Command::Connect(s), now_ms(), &self.limits)?;
                r.round.watchers = r.round.watchers.saturating_sub(1);
                self.carry(room, &mut r, ev).await;
                return Ok(Some(r.state_json(s)));
            }
            ClientMsg::Resign => Command::Resign(seated()?),
            ClientMsg::Abort => {
                Command::Abort(seat.ok_or_else(|| Refusal::new("spectator", "only a player can abort"))?)
            }
            ClientMsg::Draw { action } => offer(OfferKind::Draw, action)?,
            ClientMsg::Takeback { action } => offer(OfferKind::Takeback, action)?,
            ClientMsg::Rematch { action } => offer(OfferKind::Rematch, action)?,
        };
        self.run(room, &mut r, cmd).await?;
        Ok(None)
    }
}

/// The record of the rematch of `old`: colours swapped.
fn rematch_record(old: &Round) -> GameRecord {
    {
        let now = now_ms();
        let mut setup = old.setup.clone();
        if setup.randomness > 0 {
            setup.seed = setup.seed.wrapping_add(1);
        }
        let (black, black_name) = old.seats[0].stored();
        let (white, white_name) = old.seats[1].stored();
        let initial = old.clock.map(|c| c.initial_ms);
        GameRecord {
            id: new_id(),
            variant: old.variant.name().into(),
            setup: serde_json::to_string(&setup).unwrap_or_default(),
            start_fen: String::new(),
            white,
            black,
            white_name,
            black_name,
            kind: old.kind.clone(),
            initial_ms: initial,
            increment_ms: old.clock.map_or(0, |c| c.increment_ms),
            white_ms: initial.unwrap_or(0),
            black_ms: initial.unwrap_or(0),
            ply: 0,
            status: "playing".into(),
            result: "*".into(),
            reason: String::new(),
            created_ms: now,
            updated_ms: now,
            rematch_of: Some(old.id.clone()),
            rematch: None,
        }
    }
}

impl Hub {
    /// The lobby: only live things — seeks whose creator is there (or within the grace),
    /// and games being played with a player connected.
    pub async fn lobby(&self) -> Value {
        let (mut seeks, mut live) = self.lobby_here().await;
        // Several processes: the others' parts, as they wrote them at their last renewal.
        let parts = self.lobby_parts.lock().unwrap_or_else(|p| p.into_inner()).clone();
        for part in parts {
            let v: Value = serde_json::from_str(&part).unwrap_or(Value::Null);
            for (key, list) in [("seeks", &mut seeks), ("live", &mut live)] {
                for e in v[key].as_array().into_iter().flatten() {
                    if let (Some(t), Some(g)) = (e[0].as_i64(), e.get(1)) {
                        list.push((t, g.clone()));
                    }
                }
            }
        }
        let mut seen = HashSet::new();
        seeks.retain(|s| seen.insert(s.1["id"].to_string()));
        live.retain(|s| seen.insert(s.1["id"].to_string()));
        seeks.sort_by_key(|s| -s.0);
        live.sort_by_key(|s| -s.0);
        let take = |v: Vec<(i64, Value)>| v.into_iter().take(50).map(|x| x.1).collect::<Vec<_>>();
        json!({"seeks": take(seeks), "live": take(live)})
    }

    /// This process's seeks and games being played, with their times.
    async fn lobby_here(&self) -> (Vec<(i64, Value)>, Vec<(i64, Value)>) {
        let rooms: Vec<_> = self.rooms().values().cloned().collect();
        let (mut seeks, mut live) = (Vec::new(), Vec::new());
        for room in rooms {
            let r = room.lock().await;
            let g = &r.round;
            match g.status {
                Status::Waiting if g.kind == "seek" => seeks.push((g.created_ms, summary(&g.record()))),
                Status::Playing if g.conns.iter().any(|c| *c > 0) => live.push((g.updated_ms, summary(&g.record()))),
                _ => {}
            }
        }
        (seeks, live)
    }
}

/// Several processes on one PostgreSQL (see [`crate::cluster`]): serving the other
/// processes' clients, and keeping the leases.
impl Hub {
    /// Serves the commands other processes send for the games of this one.
    pub fn serve_cluster(self: &Arc<Hub>, mut incoming: tokio::sync::mpsc::UnboundedReceiver<Incoming>) {
        let hub = self.clone();
        tokio::spawn(async move {
            while let Some(m) = incoming.recv().await {
                let hub = hub.clone();
                tokio::spawn(async move {
                    let answer = hub.serve(&m).await;
                    if let Some(c) = &hub.cluster {
                        c.answer(&m, &answer);
                    }
                });
            }
        });
        let hub = self.clone();
        tokio::spawn(async move { hub.keep_leases().await });
    }

    /// One command of a client held by another process.
    async fn serve(self: &Arc<Hub>, m: &Incoming) -> Answer {
        let found = self.rooms().get(&m.game).cloned();
        let room = match found {
            Some(r) => r,
            None if matches!(m.ask, Ask::Disconnect(_)) => return Answer::Done { seat: None, reply: None },
            None => match self.place(&m.game).await {
                Ok(Place::Here(r)) => r,
                Ok(Place::There(_)) => return Answer::Moved,
                Err(e) => return Answer::Refused(e.json()),
            },
        };
        let key = (m.from.clone(), m.conn);
        let player = m.player.as_deref();
        {
            let r = room.lock().await;
            if *r.moved.borrow() {
                return Answer::Moved;
            }
        }
        match &m.ask {
            Ask::Connect => {
                let mut r = room.lock().await;
                r.idle = false;
                let seat = player.and_then(|p| r.round.seat_of(p));
                let events = match r.round.apply(Command::Connect(seat), now_ms(), &self.limits) {
                    Ok(e) => e,
                    Err(e) => return Answer::Refused(e.json()),
                };
                r.remote.insert(key, seat);
                let state = r.state_json(seat);
                self.carry(&room, &mut r, events).await;
                Answer::Done { seat, reply: Some(state) }
            }
            Ask::Disconnect(seat) => {
                let mut r = room.lock().await;
                if r.remote.remove(&key).is_some()
                    && let Ok(events) = r.round.apply(Command::Disconnect(*seat), now_ms(), &self.limits)
                {
                    self.carry(&room, &mut r, events).await;
                }
                Answer::Done { seat: None, reply: None }
            }
            Ask::State => {
                let r = room.lock().await;
                let seat = player.and_then(|p| r.round.seat_of(p));
                Answer::Done { seat, reply: Some(r.state_json(seat)) }
            }
            Ask::Msg(text) => {
                let msg: ClientMsg = match serde_json::from_str(text) {
                    Ok(m) => m,
                    Err(e) => {
                        return Answer::Refused(Refusal::new("malformed", format!("malformed message: {e}")).json());
                    }
                };
                match self.handle_here(&room, player, msg).await {
                    Ok(reply) => {
                        let mut r = room.lock().await;
                        let seat = player.and_then(|p| r.round.seat_of(p));
                        if let Some(s) = r.remote.get_mut(&key) {
                            *s = seat;
                        }
                        Answer::Done { seat, reply }
                    }
                    Err(e) => Answer::Refused(e.json()),
                }
            }
        }
    }

    /// Every [`crate::cluster::RENEW`]: renews this process's leases (dropping the games
    /// taken over meanwhile), publishes its part of the lobby, reads the others', forgets
    /// the clients of processes gone, and takes over the games whose lease has expired.
    async fn keep_leases(self: Arc<Hub>) {
        let Some(cluster) = self.cluster.clone() else { return };
        let taking = Arc::new(tokio::sync::Mutex::new(()));
        let mut tick = tokio::time::interval(crate::cluster::RENEW);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut n: u64 = 0;
        let mut down = false;
        // The lobby's part and the clients of processes gone need the rooms' locks (held
        // while a move is written): they run beside the renewals, which must never wait.
        let part = Arc::new(StdMutex::new(String::from("{}")));
        let alive = Arc::new(StdMutex::new(None::<HashSet<String>>));
        {
            let (hub, part, alive) = (self.clone(), part.clone(), alive.clone());
            tokio::spawn(async move {
                let mut tick = tokio::time::interval(crate::cluster::RENEW);
                tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                loop {
                    tick.tick().await;
                    let (seeks, live) = hub.lobby_here().await;
                    let text = json!({"seeks": seeks.into_iter().take(50).collect::<Vec<_>>(),
                        "live": live.into_iter().take(50).collect::<Vec<_>>()})
                    .to_string();
                    *part.lock().unwrap_or_else(|p| p.into_inner()) = text;
                    let now_alive = alive.lock().unwrap_or_else(|p| p.into_inner()).take();
                    if let Some(a) = now_alive {
                        hub.forget_gone(&a).await;
                    }
                }
            });
        }
        loop {
            tick.tick().await;
            n += 1;
            let part = part.lock().unwrap_or_else(|p| p.into_inner()).clone();
            let sent = Instant::now();
            let held: HashSet<String> = match cluster.renew(&part).await {
                Ok(h) => {
                    if down {
                        eprintln!("cluster: the database answers again");
                        down = false;
                    }
                    h.into_iter().collect()
                }
                Err(e) => {
                    if !down {
                        eprintln!("cluster: leases not renewed: {e}");
                        down = true;
                    }
                    continue;
                }
            };
            {
                let hub = self.clone();
                tokio::spawn(async move { hub.drop_lost(&held, sent).await });
            }
            match cluster.processes().await {
                Ok(list) => {
                    let now_alive: HashSet<String> = list.iter().map(|p| p.0.clone()).collect();
                    let parts = list.into_iter().filter(|p| p.0 != cluster.me).map(|p| p.1).collect();
                    *self.lobby_parts.lock().unwrap_or_else(|p| p.into_inner()) = parts;
                    *alive.lock().unwrap_or_else(|p| p.into_inner()) = Some(now_alive);
                }
                Err(e) => eprintln!("cluster: processes unread: {e}"),
            }
            // Taking over runs beside the renewals (loading many games takes a while).
            if let Ok(guard) = taking.clone().try_lock_owned() {
                let hub = self.clone();
                let unleased = n % 5 == 1;
                tokio::spawn(async move {
                    hub.take_over(unleased).await;
                    drop(guard);
                });
            }
            if n.is_multiple_of(10) {
                let cluster = cluster.clone();
                tokio::spawn(async move { cluster.tidy().await });
            }
        }
    }

    /// Drops the rooms whose lease this process no longer holds (taken over while it was
    /// cut off): their clients here are closed and reconnect to the new owner.
    async fn drop_lost(&self, held: &HashSet<String>, sent: Instant) {
        let candidates: Vec<(String, Arc<Mutex<Room>>)> =
            self.rooms().iter().filter(|(id, _)| !held.contains(*id)).map(|(id, r)| (id.clone(), r.clone())).collect();
        for (id, room) in candidates {
            let r = room.lock().await;
            // Taken after the renewal was sent: not in its answer, still ours.
            if r.taken >= sent {
                continue;
            }
            eprintln!("game {id}: its lease was taken over: dropped here");
            let _ = r.moved.send(true);
            drop(r);
            let mut rooms = self.rooms();
            if rooms.get(&id).is_some_and(|x| Arc::ptr_eq(x, &room)) {
                rooms.remove(&id);
            }
        }
    }

    /// Forgets the clients of processes that are gone (their rows expired): for the
    /// clocks, their players have left.
    async fn forget_gone(self: &Arc<Hub>, alive: &HashSet<String>) {
        let rooms: Vec<_> = self.rooms().values().cloned().collect();
        for room in rooms {
            let mut r = room.lock().await;
            let gone: Vec<_> = r.remote.keys().filter(|k| !alive.contains(&k.0)).cloned().collect();
            for key in gone {
                if let Some(seat) = r.remote.remove(&key)
                    && let Ok(events) = r.round.apply(Command::Disconnect(seat), now_ms(), &self.limits)
                {
                    self.carry(&room, &mut r, events).await;
                }
            }
        }
    }

    /// Loads the games whose lease has expired (and, `unleased`, the games in play with
    /// none), a few at a time; their clocks and timers resume from the stored state.
    async fn take_over(self: &Arc<Hub>, unleased: bool) {
        let Some(cluster) = &self.cluster else { return };
        let games = match cluster.orphans(unleased).await {
            Ok(g) => g,
            Err(e) => {
                eprintln!("cluster: expired leases unread: {e}");
                return;
            }
        };
        use futures_util::StreamExt;
        futures_util::stream::iter(games)
            .for_each_concurrent(8, |id| async move {
                if self.rooms().contains_key(&id) {
                    return;
                }
                if let Ok(Place::Here(room)) = self.place(&id).await {
                    let mut r = room.lock().await;
                    self.schedule(&room, &mut r);
                }
            })
            .await;
    }

    /// The clean stop, after the last write: this process's leases expire now, for the
    /// others to take.
    pub async fn resign(&self) {
        if let Some(c) = &self.cluster {
            c.resign_all().await;
        }
    }
}

/// A game in a list.
pub fn summary(g: &GameRecord) -> Value {
    let setup: Setup = serde_json::from_str(&g.setup).unwrap_or_default();
    let name = |id: &Option<String>, n: &Option<String>| {
        Seat::parse(id.as_deref(), n.clone()).map(|s| s.label()).unwrap_or_else(|_| "?".into())
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
