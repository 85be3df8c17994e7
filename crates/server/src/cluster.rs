//! Several processes, one site (PostgreSQL only): which process owns each live game, and
//! the messages between processes, all through PostgreSQL itself — a lease row per game
//! (`chimere_leases`, with an expiry), a row per process (`chimere_processes`: its
//! heartbeat and its part of the lobby), and `LISTEN/NOTIFY` for the messages. No bus is
//! written here: a message is a `pg_notify` on the receiver's channel, and the database
//! delivers it.
//!
//! - **Leases.** The process that loads a game takes its lease (an upsert that succeeds
//!   only if the row is free, expired, or already its own) and renews all its leases with
//!   one `UPDATE` every [`RENEW`]; a lease not renewed for [`EXPIRY`] may be taken by any
//!   process. The owner stops acting on a game ([`Cluster::holds`]) once [`TRUST`] has
//!   passed since its last successful renewal, before the lease can expire in the
//!   database; a renewal that no longer returns a game means the game was taken over, and
//!   the owner drops it.
//! - **Messages** ([`Note`]): a process holding a client of a game owned elsewhere sends
//!   the client's commands to the owner's channel (`chimere_p_<id>`) and gets one answer
//!   each; the owner sends the game's broadcasts to the channels of the processes that
//!   hold its clients. The notifier sends every queued message in one statement
//!   (`chimere_publish`), in order; a message longer than NOTIFY's payload limit goes
//!   through the table `chimere_relay` and only its id is notified (the receiver reads
//!   the row). Ownership changes are told on `chimere_all`.
//!
//! What a message says is text: a header line of space-separated words, then the body.

use crate::protocol::Side;
use crate::store::Fence;
use axum::extract::ws::Utf8Bytes;
use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, mpsc, oneshot, watch};
use tokio_postgres::{AsyncMessage, Client, NoTls};

/// How often an owner renews its leases (and its process row).
pub const RENEW: Duration = Duration::from_secs(1);
/// A lease's life in the database after a renewal: another process may take the game
/// once it has passed.
pub const EXPIRY_SECS: f64 = 3.0;
/// How long after its last successful renewal an owner still acts on its games: well
/// inside [`EXPIRY_SECS`], so that an owner cut off from the database stops before another
/// process may take over.
pub const TRUST: Duration = Duration::from_millis(2_000);
/// How long a process waits for the owner's answer to a forwarded command.
pub const ANSWER: Duration = Duration::from_millis(2_500);

/// A game in play or waiting with no lease (a new game nobody connected to, or a site's
/// first start) is taken by any process once it has not changed for this long.
pub const UNCLAIMED_SECS: i64 = 30;

/// How long the notifier tries a batch again when it could not be sent and trying again is
/// safe (nothing of it reached the database); past that, the batch is given up and said
/// (see [`Cluster::notifier`]). Well inside [`ANSWER`].
pub const PUBLISH_RETRY: Duration = Duration::from_millis(1_000);

/// The channel every process listens to (ownership changes).
const ALL: &str = "chimere_all";

/// A command forwarded to a game's owner.
#[derive(Debug, Clone)]
pub enum Ask {
    /// A client connected (the owner counts it, answers the state for its seat).
    Connect,
    /// It left, from this seat.
    Disconnect(Option<Side>),
    /// The state for the asker (HTTP `GET /api/games/{id}`).
    State,
    /// A client's message (the protocol's JSON, as received).
    Msg(String),
}

/// A command for this process's games, from another process.
#[derive(Debug)]
pub struct Incoming {
    pub from: String,
    pub conn: u64,
    pub req: u64,
    pub game: String,
    pub player: Option<String>,
    pub ask: Ask,
}

/// The owner's answer to a forwarded command.
#[derive(Debug, Clone)]
pub enum Answer {
    /// Done: the asker's seat now, and a reply for the client alone, if any.
    Done { seat: Option<Side>, reply: Option<String> },
    /// Refused (a protocol `error` message, for the client).
    Refused(String),
    /// This process does not own the game (any more): ask again where it is now.
    Moved,
}

/// Who holds a game's lease, after [`Cluster::acquire`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lease {
    /// This process, with the fence its writes of the game carry.
    Ours(Fence),
    /// Another process (its id).
    Theirs(String),
}

/// A game owned by another process, with clients here.
pub struct RemoteGame {
    pub game: String,
    pub owner: String,
    /// The owner's broadcasts, for the clients here.
    pub tx: broadcast::Sender<Utf8Bytes>,
    /// Set when the game has left its owner (taken over, or the owner no longer answers):
    /// the clients here are closed and reconnect.
    pub moved: watch::Sender<bool>,
    /// Clients here.
    conns: AtomicU64,
}

/// A message queued for the notifier: its channel, its payload, and what it is for (what
/// to do if it cannot be sent).
struct Note {
    channel: String,
    payload: String,
    purpose: Purpose,
}

enum Purpose {
    /// A command of a client here to a game's owner (question `req`): if it cannot be
    /// sent, the question is answered at once, "try again".
    Ask(u64),
    /// A broadcast of a game of ours to the processes with clients of it: if it cannot be
    /// sent, those clients are told to reconnect (and read the state) once the database
    /// answers again.
    Broadcast(String),
    /// An answer, an ownership change: the receiver's own time-out covers its loss.
    Other,
}

struct Pending {
    /// For a connection: the game's broadcasts, subscribed when the answer is read (so
    /// that the client gets exactly the broadcasts after its state).
    subscribe: Option<Arc<RemoteGame>>,
    answer: oneshot::Sender<(Answer, Option<broadcast::Receiver<Utf8Bytes>>)>,
}

/// This process in a site of several.
pub struct Cluster {
    /// This process's id (its channel is `chimere_p_<id>`).
    pub me: String,
    config: tokio_postgres::Config,
    client: tokio::sync::Mutex<Option<Arc<Client>>>,
    /// The renewals' own connection: a connection runs its statements one after another,
    /// and on the shared one a renewal waited behind the queued notifications, lease
    /// takings and searches for orphans — long enough, under load, for the leases to
    /// expire under a live owner.
    renewals: tokio::sync::Mutex<Option<Arc<Client>>>,
    notes: mpsc::UnboundedSender<Note>,
    seq: AtomicU64,
    next: AtomicU64,
    started: Instant,
    /// Milliseconds after `started` at which the last successful renewal was sent.
    renewed: AtomicI64,
    pending: StdMutex<HashMap<u64, Pending>>,
    remote: StdMutex<HashMap<String, Arc<RemoteGame>>>,
}

fn lock<T>(m: &StdMutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn channel_of(process: &str) -> String {
    format!("chimere_p_{process}")
}

fn seat_word(s: Option<Side>) -> &'static str {
    match s {
        Some(Side::White) => "w",
        Some(Side::Black) => "b",
        None => "-",
    }
}

fn word_seat(w: &str) -> Option<Side> {
    match w {
        "w" => Some(Side::White),
        "b" => Some(Side::Black),
        _ => None,
    }
}

/// A new process id: 16 lowercase hex digits (a channel name needs no quoting).
fn process_id() -> String {
    let mut raw = [0u8; 8];
    if getrandom::fill(&mut raw).is_err() {
        raw = (crate::hub::now_ms() as u64 ^ u64::from(std::process::id())).to_le_bytes();
    }
    raw.iter().map(|b| format!("{b:02x}")).collect()
}

impl Cluster {
    /// Joins the site of the database at `url`: opens the connections, listens on this
    /// process's channel, and starts the notifier. The commands other processes send for
    /// this process's games arrive on the returned receiver.
    pub async fn start(url: &str) -> Result<(Arc<Cluster>, mpsc::UnboundedReceiver<Incoming>), String> {
        let mut config: tokio_postgres::Config =
            url.parse().map_err(|e| format!("not a PostgreSQL URL ({}): {e}", crate::store_pg::redact(url)))?;
        config.connect_timeout(Duration::from_secs(3));
        config.application_name("chimere-cluster");
        let (notes, queue) = mpsc::unbounded_channel();
        let cluster = Arc::new(Cluster {
            me: process_id(),
            config,
            client: tokio::sync::Mutex::new(None),
            renewals: tokio::sync::Mutex::new(None),
            notes,
            seq: AtomicU64::new(0),
            next: AtomicU64::new(1),
            started: Instant::now(),
            renewed: AtomicI64::new(i64::MIN / 2),
            pending: StdMutex::new(HashMap::new()),
            remote: StdMutex::new(HashMap::new()),
        });
        cluster.client().await?;
        let (incoming_tx, incoming) = mpsc::unbounded_channel();
        let (ready_tx, ready) = oneshot::channel();
        tokio::spawn(cluster.clone().listen(incoming_tx, Some(ready_tx)));
        ready.await.map_err(|_| "the database listener did not start".to_string())??;
        tokio::spawn(cluster.clone().notifier(queue));
        Ok((cluster, incoming))
    }

    /// The shared control connection (opened again if it was lost).
    pub async fn client(&self) -> Result<Arc<Client>, String> {
        self.connection(&self.client).await
    }

    /// The connection in `slot`, opened (again) if there is none or it was lost.
    async fn connection(&self, slot: &tokio::sync::Mutex<Option<Arc<Client>>>) -> Result<Arc<Client>, String> {
        let mut slot = slot.lock().await;
        if let Some(c) = slot.as_ref()
            && !c.is_closed()
        {
            return Ok(c.clone());
        }
        let (client, connection) =
            self.config.connect(NoTls).await.map_err(|e| format!("the database is unreachable: {e}"))?;
        tokio::spawn(connection);
        let client = Arc::new(client);
        *slot = Some(client.clone());
        Ok(client)
    }

    fn note(&self, channel: String, header: String, body: &str, purpose: Purpose) {
        let seq = self.seq.fetch_add(1, Ordering::Relaxed);
        // The sequence number keeps two equal messages of one batch apart (NOTIFY folds
        // identical payloads of one transaction into one).
        let payload = format!("{header} {seq}\n{body}");
        let _ = self.notes.send(Note { channel, payload, purpose });
    }

    /// Sends the queued messages, in order, as one statement per batch.
    ///
    /// A batch that cannot be sent is tried again for [`PUBLISH_RETRY`] when that is safe
    /// — no connection could be had, or the database refused the statement (it rolled
    /// back: nothing was sent) — but not when the connection broke during the statement
    /// (it may have committed: sending again could deliver twice). A batch given up is
    /// made visible: the questions of clients here in it are answered at once, "try
    /// again" (a forwarded move is refused as when the store is down); the games whose
    /// broadcasts were in it are named on `chimere_all` as soon as the database answers
    /// again, and the processes with clients of them close those clients, which reconnect
    /// and read the state (the broadcasts they missed are in it).
    async fn notifier(self: Arc<Cluster>, mut queue: mpsc::UnboundedReceiver<Note>) {
        let mut batch: Vec<Note> = Vec::new();
        let mut lost: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
        loop {
            if lost.is_empty() {
                if queue.recv_many(&mut batch, 512).await == 0 {
                    return;
                }
            } else {
                // Tell the others about the lost broadcasts as soon as possible, with or
                // without new messages.
                let _ = tokio::time::timeout(Duration::from_millis(500), queue.recv_many(&mut batch, 512)).await;
            }
            let resync = lost.iter().map(|g| (ALL.to_string(), format!("x {g} {}\n", self.me)));
            let (channels, payloads): (Vec<String>, Vec<String>) =
                resync.chain(batch.iter().map(|n| (n.channel.clone(), n.payload.clone()))).unzip();
            if channels.is_empty() {
                continue;
            }
            match self.publish(&channels, &payloads).await {
                Ok(()) => lost.clear(),
                Err(e) => {
                    eprintln!("cluster: {} messages not sent: {e}", channels.len());
                    for note in &batch {
                        match &note.purpose {
                            Purpose::Ask(req) => self.refuse_pending(*req, &e),
                            Purpose::Broadcast(game) => {
                                lost.insert(game.clone());
                            }
                            Purpose::Other => {}
                        }
                    }
                }
            }
            batch.clear();
        }
    }

    /// Sends one batch (see [`Cluster::notifier`]): tried again while that is safe, for
    /// at most [`PUBLISH_RETRY`].
    async fn publish(&self, channels: &[String], payloads: &[String]) -> Result<(), String> {
        let deadline = Instant::now() + PUBLISH_RETRY;
        loop {
            let (error, safe) = match self.client().await {
                Ok(c) => match c.execute("SELECT chimere_publish($1, $2)", &[&channels, &payloads]).await {
                    Ok(_) => return Ok(()),
                    // Refused by the database (rolled back) or never sent: nothing was
                    // published. A connection that broke mid-way: perhaps it was.
                    Err(e) => {
                        let safe = e.as_db_error().is_some() || (!e.is_closed() && !c.is_closed());
                        (e.to_string(), safe)
                    }
                },
                Err(e) => (e, true),
            };
            if !safe || Instant::now() + Duration::from_millis(200) > deadline {
                return Err(error);
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// Answers question `req` of a client here "try again": its command never left.
    fn refuse_pending(&self, req: u64, why: &str) {
        let Some(p) = lock(&self.pending).remove(&req) else { return };
        let message = format!("the game's server could not be reached ({why}): try again in a moment");
        let refusal = crate::protocol::ServerMsg::Error { code: "unavailable".into(), message }.json();
        let _ = p.answer.send((Answer::Refused(refusal), None));
    }

    /// The listener: reads this process's channel and `chimere_all` (reconnecting when
    /// the connection is lost: the games of other processes with clients here are then
    /// closed, since their broadcasts may have been missed).
    async fn listen(
        self: Arc<Cluster>,
        incoming: mpsc::UnboundedSender<Incoming>,
        mut ready: Option<oneshot::Sender<Result<(), String>>>,
    ) {
        loop {
            let (client, mut connection) = match self.config.connect(NoTls).await {
                Ok(x) => x,
                Err(e) => {
                    if let Some(r) = ready.take() {
                        let _ = r.send(Err(format!("the database is unreachable: {e}")));
                        return;
                    }
                    tokio::time::sleep(Duration::from_millis(500)).await;
                    continue;
                }
            };
            let (ntx, mut nrx) = mpsc::unbounded_channel();
            tokio::spawn(async move {
                loop {
                    match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                        Some(Ok(AsyncMessage::Notification(n))) => {
                            if ntx.send(n.payload().to_string()).is_err() {
                                return;
                            }
                        }
                        Some(Ok(_)) => {}
                        Some(Err(_)) | None => return,
                    }
                }
            });
            let listening = client.batch_execute(&format!("LISTEN {}; LISTEN {ALL}", channel_of(&self.me))).await;
            match (listening, ready.take()) {
                (Ok(()), Some(r)) => {
                    let _ = r.send(Ok(()));
                }
                (Err(e), Some(r)) => {
                    let _ = r.send(Err(format!("cannot listen: {e}")));
                    return;
                }
                (Err(_), None) => {}
                (Ok(()), None) => {}
            }
            while let Some(payload) = nrx.recv().await {
                let payload = match payload.strip_prefix('@') {
                    Some(id) => match self.relayed(id).await {
                        Ok(p) => p,
                        Err(e) => {
                            eprintln!("cluster: relayed message {id} unread: {e}");
                            continue;
                        }
                    },
                    None => payload,
                };
                self.dispatch(&payload, &incoming);
            }
            drop(client);
            // Messages may have been lost while cut off: every game of another process
            // with clients here is closed (they reconnect and read the state again), and
            // every question waiting for an answer fails.
            self.lost_contact();
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// Forgets every game of other processes and every question in flight.
    fn lost_contact(&self) {
        for (_, g) in lock(&self.remote).drain() {
            let _ = g.moved.send(true);
        }
        lock(&self.pending).clear();
    }

    async fn relayed(&self, id: &str) -> Result<String, String> {
        let id: i64 = id.trim().parse().map_err(|_| format!("bad relay id {id}"))?;
        let c = self.client().await?;
        let row =
            c.query_one("SELECT body FROM chimere_relay WHERE id = $1", &[&id]).await.map_err(|e| e.to_string())?;
        Ok(row.get(0))
    }

    fn dispatch(&self, payload: &str, incoming: &mpsc::UnboundedSender<Incoming>) {
        let (head, body) = payload.split_once('\n').unwrap_or((payload, ""));
        let words: Vec<&str> = head.split(' ').collect();
        match words.as_slice() {
            // A command for a game of ours: c FROM CONN REQ GAME PLAYER KIND SEQ
            ["c", from, conn, req, game, player, kind, _] => {
                let ask = match *kind {
                    "connect" => Ask::Connect,
                    "state" => Ask::State,
                    "msg" => Ask::Msg(body.to_string()),
                    k => match k.strip_prefix("disconnect-") {
                        Some(s) => Ask::Disconnect(word_seat(s)),
                        None => return,
                    },
                };
                let (Ok(conn), Ok(req)) = (conn.parse(), req.parse()) else { return };
                let _ = incoming.send(Incoming {
                    from: from.to_string(),
                    conn,
                    req,
                    game: game.to_string(),
                    player: (*player != "-").then(|| player.to_string()),
                    ask,
                });
            }
            // An answer to one of our commands: r REQ KIND SEAT SEQ
            ["r", req, kind, seat, _] => {
                let Ok(req) = req.parse::<u64>() else { return };
                let answer = match *kind {
                    "done" => Answer::Done { seat: word_seat(seat), reply: None },
                    "reply" => Answer::Done { seat: word_seat(seat), reply: Some(body.to_string()) },
                    "refused" => Answer::Refused(body.to_string()),
                    _ => Answer::Moved,
                };
                let Some(p) = lock(&self.pending).remove(&req) else { return };
                let rx = match (&answer, p.subscribe) {
                    (Answer::Done { .. }, Some(g)) => Some(g.tx.subscribe()),
                    _ => None,
                };
                let _ = p.answer.send((answer, rx));
            }
            // A broadcast of a game owned elsewhere: b GAME SEQ
            ["b", game, _] => {
                if let Some(g) = lock(&self.remote).get(*game) {
                    let _ = g.tx.send(Utf8Bytes::from(body.to_string()));
                }
            }
            // A game changed owner: o GAME OWNER SEQ
            ["o", game, owner, _] => {
                let mut remote = lock(&self.remote);
                if remote.get(*game).is_some_and(|g| g.owner != *owner)
                    && let Some(g) = remote.remove(*game)
                {
                    let _ = g.moved.send(true);
                }
            }
            // Broadcasts of a game were lost on their way here: x GAME OWNER. Its clients
            // here reconnect and read the state.
            ["x", game, owner] => {
                let mut remote = lock(&self.remote);
                if remote.get(*game).is_some_and(|g| g.owner == *owner)
                    && let Some(g) = remote.remove(*game)
                {
                    let _ = g.moved.send(true);
                }
            }
            _ => eprintln!("cluster: a message not understood: {head}"),
        }
    }

    /// Asks `owner` to do `ask` for a client of this process; `None` if no answer came
    /// within [`ANSWER`] (the game is then closed here: its clients reconnect). A
    /// connection's answer comes with the game's broadcast receiver.
    pub async fn ask(
        &self,
        game: &Arc<RemoteGame>,
        conn: u64,
        player: Option<&str>,
        ask: Ask,
    ) -> Option<(Answer, Option<broadcast::Receiver<Utf8Bytes>>)> {
        let req = self.next.fetch_add(1, Ordering::Relaxed);
        let (answer, answered) = oneshot::channel();
        let subscribe = matches!(ask, Ask::Connect).then(|| game.clone());
        lock(&self.pending).insert(req, Pending { subscribe, answer });
        let (kind, body) = match ask {
            Ask::Connect => ("connect".to_string(), String::new()),
            Ask::State => ("state".to_string(), String::new()),
            Ask::Msg(m) => ("msg".to_string(), m),
            Ask::Disconnect(s) => (format!("disconnect-{}", seat_word(s)), String::new()),
        };
        let header = format!("c {} {conn} {req} {} {} {kind}", self.me, game.game, player.unwrap_or("-"));
        self.note(channel_of(&game.owner), header, &body, Purpose::Ask(req));
        match tokio::time::timeout(ANSWER, answered).await {
            Ok(Ok(a)) => Some(a),
            _ => {
                lock(&self.pending).remove(&req);
                self.forget(game);
                None
            }
        }
    }

    /// Answers a command of another process.
    pub fn answer(&self, to: &Incoming, answer: &Answer) {
        let (kind, seat, body) = match answer {
            Answer::Done { seat, reply: None } => ("done", *seat, ""),
            Answer::Done { seat, reply: Some(r) } => ("reply", *seat, r.as_str()),
            Answer::Refused(r) => ("refused", None, r.as_str()),
            Answer::Moved => ("moved", None, ""),
        };
        self.note(channel_of(&to.from), format!("r {} {kind} {}", to.req, seat_word(seat)), body, Purpose::Other);
    }

    /// Sends a broadcast of `game` to the clients of other processes.
    pub fn broadcast(&self, processes: &[&str], game: &str, text: &str) {
        for p in processes {
            self.note(channel_of(p), format!("b {game}"), text, Purpose::Broadcast(game.to_string()));
        }
    }

    /// The game `game` of `owner`, for a new client here.
    pub fn remote_game(&self, game: &str, owner: &str) -> Arc<RemoteGame> {
        let mut remote = lock(&self.remote);
        if let Some(g) = remote.get(game) {
            if g.owner == owner && !*g.moved.borrow() {
                g.conns.fetch_add(1, Ordering::Relaxed);
                return g.clone();
            }
            let _ = g.moved.send(true);
        }
        let (tx, _) = broadcast::channel(64);
        let g = Arc::new(RemoteGame {
            game: game.to_string(),
            owner: owner.to_string(),
            tx,
            moved: watch::channel(false).0,
            conns: AtomicU64::new(1),
        });
        remote.insert(game.to_string(), g.clone());
        g
    }

    /// A client here of a game owned elsewhere left.
    pub fn release_remote(&self, g: &Arc<RemoteGame>) {
        if g.conns.fetch_sub(1, Ordering::Relaxed) == 1 {
            let mut remote = lock(&self.remote);
            if remote.get(&g.game).is_some_and(|x| Arc::ptr_eq(x, g)) {
                remote.remove(&g.game);
            }
        }
    }

    /// Closes the clients here of a game owned elsewhere (they reconnect).
    pub fn forget(&self, g: &Arc<RemoteGame>) {
        let _ = g.moved.send(true);
        let mut remote = lock(&self.remote);
        if remote.get(&g.game).is_some_and(|x| Arc::ptr_eq(x, g)) {
            remote.remove(&g.game);
        }
    }

    /// A fresh connection id for a client here.
    pub fn conn_id(&self) -> u64 {
        self.next.fetch_add(1, Ordering::Relaxed)
    }

    /// Takes the lease of `game` if it is free, expired or already ours:
    /// [`Lease::Ours`] with the epoch to fence this process's writes of the game with (a
    /// new one when the lease changes hands, the same when it was already ours), or
    /// [`Lease::Theirs`] with the process that holds it.
    pub async fn acquire(&self, game: &str) -> Result<Lease, String> {
        let c = self.client().await?;
        let row = c
            .query_opt(
                "INSERT INTO chimere_leases (game, owner, expires, epoch)
                 VALUES ($1, $2, now() + $3 * interval '1 second', nextval('chimere_epochs'))
                 ON CONFLICT (game) DO UPDATE SET owner = excluded.owner, expires = excluded.expires,
                   epoch = CASE WHEN chimere_leases.owner = excluded.owner THEN chimere_leases.epoch
                           ELSE excluded.epoch END
                 WHERE chimere_leases.owner = excluded.owner OR chimere_leases.expires < now()
                 RETURNING epoch",
                &[&game, &self.me, &EXPIRY_SECS],
            )
            .await
            .map_err(|e| format!("the database is unreachable: {e}"))?;
        if let Some(row) = row {
            // Whoever had clients of it elsewhere reconnects them here.
            self.note(ALL.into(), format!("o {game} {}", self.me), "", Purpose::Other);
            if let Some(g) = lock(&self.remote).remove(game) {
                let _ = g.moved.send(true);
            }
            return Ok(Lease::Ours(Fence::Epoch(row.get(0))));
        }
        let owner = c
            .query_opt("SELECT owner FROM chimere_leases WHERE game = $1", &[&game])
            .await
            .map_err(|e| format!("the database is unreachable: {e}"))?;
        match owner {
            Some(r) => Ok(Lease::Theirs(r.get(0))),
            // Released meanwhile: try again once.
            None => Box::pin(self.acquire(game)).await,
        }
    }

    /// Gives up the leases of `games` (dropped from memory, over).
    pub async fn release(&self, games: &[String]) {
        if games.is_empty() {
            return;
        }
        if let Ok(c) = self.client().await {
            let _ =
                c.execute("DELETE FROM chimere_leases WHERE owner = $1 AND game = ANY($2)", &[&self.me, &games]).await;
        }
    }

    /// The clean stop: every lease of this process expires now, for the others to take.
    pub async fn resign_all(&self) {
        if let Ok(c) = self.client().await {
            let _ = c
                .execute(
                    "UPDATE chimere_leases SET expires = now() - interval '1 second' WHERE owner = $1",
                    &[&self.me],
                )
                .await;
            let _ = c.execute("DELETE FROM chimere_processes WHERE id = $1", &[&self.me]).await;
        }
        self.renewed.store(i64::MIN / 2, Ordering::Relaxed);
    }

    fn since_start(&self) -> i64 {
        self.started.elapsed().as_millis() as i64
    }

    /// Renews every lease of this process and its process row (with its part of the
    /// lobby); returns the games it still holds.
    pub async fn renew(&self, lobby: &str) -> Result<Vec<String>, String> {
        let c = self.connection(&self.renewals).await?;
        let sent = self.since_start();
        let rows = c
            .query(
                "UPDATE chimere_leases SET expires = now() + $2 * interval '1 second' WHERE owner = $1 RETURNING game",
                &[&self.me, &EXPIRY_SECS],
            )
            .await
            .map_err(|e| e.to_string())?;
        self.renewed.store(sent, Ordering::Relaxed);
        c.execute(
            "INSERT INTO chimere_processes (id, expires, lobby) VALUES ($1, now() + $2 * interval '1 second', $3)
             ON CONFLICT (id) DO UPDATE SET expires = excluded.expires, lobby = excluded.lobby",
            &[&self.me, &EXPIRY_SECS, &lobby],
        )
        .await
        .map_err(|e| e.to_string())?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// Renews the lease of one game now (its owner found the last renewal too old):
    /// whether this process still holds it, at the epoch of `fence`.
    pub async fn confirm(&self, game: &str, fence: Fence) -> bool {
        let Ok(c) = self.connection(&self.renewals).await else { return false };
        c.query_opt(
            "UPDATE chimere_leases SET expires = now() + $3 * interval '1 second'
             WHERE game = $1 AND owner = $2 AND ($4::bigint IS NULL OR epoch = $4) RETURNING 1",
            &[&game, &self.me, &EXPIRY_SECS, &fence.epoch()],
        )
        .await
        .is_ok_and(|r| r.is_some())
    }

    /// Whether this process may act on a game whose lease it took at `acquired`: the
    /// lease was taken or renewed less than [`TRUST`] ago.
    pub fn holds(&self, acquired: Instant) -> bool {
        let renewed = self.renewed.load(Ordering::Relaxed);
        let since_renewal = self.since_start() - renewed;
        since_renewal < TRUST.as_millis() as i64 || acquired.elapsed() < TRUST
    }

    /// Games whose lease has expired, and games in play or waiting with no lease at all
    /// that have not changed for [`UNCLAIMED_SECS`] (a site's first start, a new game
    /// nobody connected to).
    pub async fn orphans(&self, with_unleased: bool) -> Result<Vec<String>, String> {
        let c = self.client().await?;
        let mut games: Vec<String> = c
            .query("SELECT game FROM chimere_leases WHERE expires < now() LIMIT 5000", &[])
            .await
            .map_err(|e| e.to_string())?
            .iter()
            .map(|r| r.get(0))
            .collect();
        if with_unleased {
            let rows = c
                .query(
                    "SELECT id FROM games g WHERE status IN ('playing', 'waiting')
                     AND updated_ms < (extract(epoch FROM now()) * 1000)::bigint - $1::bigint * 1000
                     AND NOT EXISTS (SELECT 1 FROM chimere_leases l WHERE l.game = g.id) LIMIT 5000",
                    &[&UNCLAIMED_SECS],
                )
                .await
                .map_err(|e| e.to_string())?;
            games.extend(rows.iter().map(|r| r.get::<_, String>(0)));
        }
        Ok(games)
    }

    /// The processes alive now (their row renewed within the expiry), with their lobby
    /// parts (read on the renewals' connection, between two renewals).
    pub async fn processes(&self) -> Result<Vec<(String, String)>, String> {
        let c = self.connection(&self.renewals).await?;
        let rows = c
            .query("SELECT id, lobby FROM chimere_processes WHERE expires > now()", &[])
            .await
            .map_err(|e| e.to_string())?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    /// Removes relayed messages older than a minute and the rows of processes gone.
    pub async fn tidy(&self) {
        if let Ok(c) = self.client().await {
            let _ = c.execute("DELETE FROM chimere_relay WHERE created < now() - interval '1 minute'", &[]).await;
            let _ = c.execute("DELETE FROM chimere_processes WHERE expires < now() - interval '1 minute'", &[]).await;
        }
    }
}

/// Schema step 4 in PostgreSQL's dialect (see [`crate::store::MIGRATIONS`]): leases,
/// processes, relayed messages and the publishing function.
pub const SCHEMA_4: &str = "
CREATE TABLE chimere_leases (game TEXT PRIMARY KEY, owner TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL);
CREATE INDEX chimere_leases_owner ON chimere_leases(owner);
CREATE TABLE chimere_processes (id TEXT PRIMARY KEY, expires TIMESTAMPTZ NOT NULL, lobby TEXT NOT NULL);
CREATE TABLE chimere_relay (id BIGSERIAL PRIMARY KEY, body TEXT NOT NULL, created TIMESTAMPTZ NOT NULL DEFAULT now());
-- Sends each payload on its channel, in order; one too long for NOTIFY (8000 bytes) is
-- stored in chimere_relay and its id sent instead, as '@id'.
CREATE FUNCTION chimere_publish(channels TEXT[], payloads TEXT[]) RETURNS void AS $$
DECLARE
  i INT;
  rid BIGINT;
BEGIN
  FOR i IN 1 .. coalesce(array_length(channels, 1), 0) LOOP
    IF octet_length(payloads[i]) > 7800 THEN
      INSERT INTO chimere_relay (body) VALUES (payloads[i]) RETURNING id INTO rid;
      PERFORM pg_notify(channels[i], '@' || rid);
    ELSE
      PERFORM pg_notify(channels[i], payloads[i]);
    END IF;
  END LOOP;
END $$ LANGUAGE plpgsql;
";

/// Schema step 5 in PostgreSQL's dialect (see [`crate::store::MIGRATIONS`]): fencing
/// ([`crate::store::Fence`]). Every lease gets an epoch, a new value of one sequence each
/// time the lease changes hands; the unique index makes the epoch a key column, so that a
/// takeover (which changes it) waits for the writes holding the row `FOR KEY SHARE` while
/// the renewals (which change only the expiry) do not. The move append gains the epoch
/// (the step-1 function stays for processes of the previous version still running).
pub const SCHEMA_5: &str = "
CREATE SEQUENCE chimere_epochs;
ALTER TABLE chimere_leases ADD COLUMN epoch BIGINT NOT NULL DEFAULT nextval('chimere_epochs');
CREATE UNIQUE INDEX chimere_leases_epoch ON chimere_leases(game, epoch);
-- chimere_append of step 1, under the fence: with p_epoch, stored only while the game's
-- lease holds that epoch (the row held FOR KEY SHARE to the commit); `fenced` says it did not.
CREATE FUNCTION chimere_append(p_game TEXT, p_expected BIGINT, p_uci TEXT, p_canonical TEXT,
    p_notation TEXT, p_white_ms BIGINT, p_black_ms BIGINT, p_at_ms BIGINT, p_epoch BIGINT,
    OUT stored BOOLEAN, OUT actual BIGINT, OUT fenced BOOLEAN) LANGUAGE plpgsql AS $$
BEGIN
  fenced := FALSE;
  IF p_epoch IS NOT NULL THEN
    PERFORM 1 FROM chimere_leases WHERE game = p_game AND epoch = p_epoch FOR KEY SHARE;
    IF NOT FOUND THEN
      stored := FALSE;
      fenced := TRUE;
      SELECT ply INTO actual FROM games WHERE id = p_game;
      RETURN;
    END IF;
  END IF;
  UPDATE games SET ply = ply + 1, white_ms = p_white_ms, black_ms = p_black_ms, updated_ms = p_at_ms
    WHERE id = p_game AND ply = p_expected;
  IF FOUND THEN
    INSERT INTO moves (game_id, ply, uci, canonical, notation, white_ms, black_ms, at_ms)
      VALUES (p_game, p_expected + 1, p_uci, p_canonical, p_notation, p_white_ms, p_black_ms, p_at_ms);
    stored := TRUE;
    actual := p_expected + 1;
  ELSE
    stored := FALSE;
    SELECT ply INTO actual FROM games WHERE id = p_game;
  END IF;
END $$;
";
