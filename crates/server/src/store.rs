//! Storage: every game, its moves and the players, behind one trait ([`Store`]) with two
//! backends: the embedded default [`SqliteStore`] (one file) and [`crate::store_pg::PgStore`]
//! (a PostgreSQL server, which several processes can share). [`open`] picks one from a
//! [`Database`]; the rest of the server knows only the trait.
//!
//! Both backends follow one migration story ([`MIGRATIONS`]: numbered steps, each written
//! in both dialects); on open a store applies the steps it has not yet applied, and refuses
//! a database of a newer schema than this program knows ([`StoreError::NewerSchema`]).
//!
//! Durability (SQLite): the file runs in WAL mode with `synchronous=NORMAL`, which keeps every
//! committed transaction when the *process* dies (kill -9); only a power cut can lose the
//! last transactions. A move is committed before anyone is told of it.
//!
//! Moves are appended in groups ([`Store::append_moves`]: many games' moves in one
//! transaction, each still under its own ply guard), by the server's one writer thread
//! ([`crate::writer`]). SQLite's checkpoints (copying the WAL into the database file, two
//! `fsync`s) run on a background thread of their own, never in a committing writer.

use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;
use std::sync::Mutex;

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The game's ply was not the one expected: the move is a duplicate or stale.
    #[error("stale: the game is at ply {actual}, not {expected}")]
    Conflict { expected: u32, actual: u32 },
    #[error("no such game `{0}`")]
    NotFound(String),
    /// The write was made under a lease that has changed hands since (several processes:
    /// another process serves the game now). Nothing was written; the writer must stop
    /// acting on the game.
    #[error("game `{0}` is served by another process now: nothing was stored, try again in a moment")]
    Fenced(String),
    #[error("database: {0}")]
    Db(String),
    /// The database cannot be reached (a server that is down or restarting, a broken
    /// connection): nothing was written, and the same request may succeed a moment later.
    #[error("the database is unreachable ({0}); nothing was stored, try again in a moment")]
    Unavailable(String),
    /// The database was migrated by a newer program: this one refuses to touch it.
    #[error(
        "the database is of schema version {found}, newer than this program's {known}: run a newer chimere against it"
    )]
    NewerSchema { found: usize, known: usize },
}

/// Where the games are kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// An SQLite file (created on first open).
    Sqlite(std::path::PathBuf),
    /// A PostgreSQL server, as a `postgres://` URL (the database must exist; its tables are
    /// created on first open).
    Postgres(String),
}

impl Database {
    /// `postgres://…` or `postgresql://…` is a PostgreSQL URL; anything else a file path.
    pub fn parse(s: &str) -> Database {
        if s.starts_with("postgres://") || s.starts_with("postgresql://") {
            Database::Postgres(s.to_string())
        } else {
            Database::Sqlite(s.into())
        }
    }

    /// For messages: the file, or the URL without its password.
    pub fn describe(&self) -> String {
        match self {
            Database::Sqlite(p) => p.display().to_string(),
            Database::Postgres(url) => crate::store_pg::redact(url),
        }
    }
}

impl Database {
    /// The database of the command line: `--db` (a file or a `postgres://` URL) or
    /// `--database-url` (a URL), else the environment's `DATABASE_URL`, else `chimere.db`.
    pub fn choose(db: Option<&str>, database_url: Option<&str>) -> Result<Database, String> {
        match (db, database_url) {
            (Some(_), Some(_)) => Err("give --db or --database-url, not both".into()),
            (Some(db), None) => Ok(Database::parse(db)),
            (None, Some(url)) => match Database::parse(url) {
                Database::Postgres(url) => Ok(Database::Postgres(url)),
                Database::Sqlite(_) => Err(format!("--database-url takes a postgres:// URL, not `{url}`")),
            },
            (None, None) => Ok(match std::env::var("DATABASE_URL") {
                Ok(url) if !url.is_empty() => Database::parse(&url),
                _ => Database::Sqlite("chimere.db".into()),
            }),
        }
    }
}

impl From<std::path::PathBuf> for Database {
    fn from(p: std::path::PathBuf) -> Self {
        Database::Sqlite(p)
    }
}

/// Opens (creating and migrating if needed) the store of `db`.
pub fn open(db: &Database) -> StoreResult<std::sync::Arc<dyn Store>> {
    Ok(match db {
        Database::Sqlite(path) => std::sync::Arc::new(SqliteStore::open(path)?),
        Database::Postgres(url) => std::sync::Arc::new(crate::store_pg::PgStore::open(url)?),
    })
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Db(e.to_string())
    }
}

pub type StoreResult<T> = Result<T, StoreError>;

/// The fencing token a write of a live game carries: the lease under which its writer
/// serves the game.
///
/// Several processes on one PostgreSQL: each live game has one owner, by a lease row
/// (`crate::cluster`) whose `epoch` takes a new, larger value every time the lease changes
/// hands. An owner's writes carry the epoch it took the lease with, and the database
/// refuses them ([`StoreError::Fenced`]), in the same statement or transaction, once the
/// lease holds another epoch — so an old owner's delayed write can never overwrite the new
/// owner's state. `Alone` is a write with no lease to check: one process on its own file
/// (SQLite, whose stores ignore the fence), a game being created or imported.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Fence {
    #[default]
    Alone,
    Epoch(i64),
}

impl Fence {
    /// The epoch to check, as a nullable SQL parameter.
    pub fn epoch(self) -> Option<i64> {
        match self {
            Fence::Alone => None,
            Fence::Epoch(e) => Some(e),
        }
    }
}

/// One move to append: `rec` becomes ply `expected_ply + 1` of game `game`, written under
/// `fence`.
#[derive(Clone, Debug, PartialEq)]
pub struct Append {
    pub game: String,
    pub expected_ply: u32,
    pub rec: MoveRecord,
    pub fence: Fence,
}

/// One game as stored (everything but its moves).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameRecord {
    pub id: String,
    pub variant: String,
    /// The options as JSON ([`crate::setup::Setup`]).
    pub setup: String,
    pub start_fen: String,
    /// Player ids of each seat (`None` = open seat; `bot:N` = the computer at level N).
    pub white: Option<String>,
    pub black: Option<String>,
    pub white_name: Option<String>,
    pub black_name: Option<String>,
    /// `seek`, `private`, `computer` or `import`.
    pub kind: String,
    /// Clock: initial and increment in milliseconds; `None` = no clock.
    pub initial_ms: Option<i64>,
    pub increment_ms: i64,
    /// Remaining time of each side after the last stored move.
    pub white_ms: i64,
    pub black_ms: i64,
    pub ply: u32,
    /// `waiting` (a seat is open), `playing`, `finished`, `aborted`.
    pub status: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    pub reason: String,
    pub created_ms: i64,
    pub updated_ms: i64,
    /// The game this one is a rematch of, and the rematch of this one.
    pub rematch_of: Option<String>,
    pub rematch: Option<String>,
}

/// One stored turn.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRecord {
    pub ply: u32,
    pub uci: String,
    pub canonical: String,
    pub notation: String,
    /// Clocks after the move.
    pub white_ms: i64,
    pub black_ms: i64,
    pub at_ms: i64,
}

/// Which games to list.
#[derive(Clone, Debug, Default)]
pub struct GameFilter {
    /// Any of these statuses (empty: any).
    pub statuses: Vec<String>,
    pub kind: Option<String>,
    pub variant: Option<String>,
    /// Games in which this player holds a seat (white or black).
    pub player: Option<String>,
    pub limit: u32,
}

/// Everything the server keeps. Implementations must make [`Store::append_move`] atomic
/// and guarded by the ply: it succeeds only when the stored ply is `expected_ply`. A call
/// that cannot reach the database fails with [`StoreError::Unavailable`] and has written
/// nothing.
/// (The problems' collection is [`crate::problem_store::ProblemStore`], on the same backends.)
pub trait Store: Send + Sync + crate::problem_store::ProblemStore {
    /// The server's signing secret (created on first call, then always the same).
    fn secret(&self) -> StoreResult<Vec<u8>>;
    fn player_name(&self, player: &str) -> StoreResult<Option<String>>;
    fn set_player_name(&self, player: &str, name: &str) -> StoreResult<()>;
    fn create_game(&self, g: &GameRecord) -> StoreResult<()>;
    fn game(&self, id: &str) -> StoreResult<Option<GameRecord>>;
    fn moves(&self, id: &str) -> StoreResult<Vec<MoveRecord>>;
    /// Stores `m` as ply `expected_ply + 1` and the clocks, if the game is at `expected_ply`
    /// and `fence` still holds ([`StoreError::Fenced`] otherwise; checked first).
    fn append_move(&self, id: &str, expected_ply: u32, m: &MoveRecord, fence: Fence) -> StoreResult<()>;
    /// Appends a group of moves, each under its own ply guard, with the same result per
    /// item as [`Store::append_move`] called on each in order; when it returns, every
    /// `Ok` item is durable. A store may commit the group as one transaction (the point:
    /// one commit for many games' moves); this default appends them one by one.
    fn append_moves(&self, batch: &[Append]) -> Vec<StoreResult<()>> {
        batch.iter().map(|a| self.append_move(&a.game, a.expected_ply, &a.rec, a.fence)).collect()
    }
    /// Removes the moves after `new_ply` (takeback), if the game is at `expected_ply` and
    /// `fence` still holds.
    fn truncate(&self, id: &str, expected_ply: u32, new_ply: u32, clocks: (i64, i64), fence: Fence) -> StoreResult<()>;
    /// Updates every field but the ply and the moves, if `fence` still holds.
    fn update_game(&self, g: &GameRecord, fence: Fence) -> StoreResult<()>;
    fn list_games(&self, f: &GameFilter) -> StoreResult<Vec<GameRecord>>;
    /// The clean stop, once every write is done: SQLite copies its WAL into the database
    /// file and removes it. Nothing is read or written after it.
    fn close(&self) -> StoreResult<()> {
        Ok(())
    }
}

/// The embedded default: one SQLite file, with a connection for writes and one for reads
/// (in WAL mode a reader never waits for a writer, so pages and lists are not held up by
/// a group commit), and a background thread that checkpoints the WAL.
pub struct SqliteStore {
    conn: Mutex<Connection>,
    read: Mutex<Connection>,
    checkpointer: Mutex<Option<Checkpointer>>,
}

/// The thread that checkpoints the WAL every [`CHECKPOINT_EVERY`]; stopped with the store.
struct Checkpointer {
    stop: std::sync::mpsc::Sender<()>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Checkpointer {
    fn stop(mut self) {
        let _ = self.stop.send(());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for SqliteStore {
    fn drop(&mut self) {
        if let Some(c) = self.checkpointer.get_mut().unwrap_or_else(|p| p.into_inner()).take() {
            c.stop();
        }
    }
}

/// How often the background thread checkpoints the WAL (PASSIVE: it never blocks a
/// writer or a reader; the WAL restarts from its beginning once fully copied).
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(500);

/// WAL size (frames of a 4 KiB page) above which a checkpoint waits for the writer.
const WAL_RESTART_FRAMES: i64 = 16_384;

/// One checkpoint. PASSIVE never waits, but under a steady stream of commits it never
/// catches up with the writer either, and the WAL only restarts from its beginning
/// once a checkpoint has caught up: past [`WAL_RESTART_FRAMES`] (64 MiB) the checkpoint
/// is RESTART, which holds the next commit back until it has finished (most of the WAL
/// is already copied by then) so that the WAL starts again from its beginning.
fn checkpoint(conn: &Connection) -> rusqlite::Result<()> {
    let frames: i64 = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| r.get(1))?;
    if frames > WAL_RESTART_FRAMES {
        conn.query_row("PRAGMA wal_checkpoint(RESTART)", [], |_| Ok(()))?;
    }
    Ok(())
}

/// The database holds the secret that signs every player's cookie: it is readable by
/// its owner only. A new file is created `0600` (SQLite then creates its `-wal` and `-shm`
/// with the same mode); an existing one, and its `-wal` and `-shm`, lose any group and
/// other permission.
fn keep_private(path: &Path) -> StoreResult<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        if path.as_os_str().is_empty() || path == Path::new(":memory:") {
            return Ok(());
        }
        let private = |e: std::io::Error| StoreError::Db(format!("cannot make {} private: {e}", path.display()));
        match std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(path) {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(private(e)),
        }
        for ext in ["", "-wal", "-shm"] {
            let file = std::path::PathBuf::from(format!("{}{ext}", path.display()));
            if let Ok(meta) = std::fs::metadata(&file) {
                let mode = meta.permissions().mode();
                if mode & 0o077 != 0 {
                    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode & 0o700)).map_err(private)?;
                }
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

fn connect(path: &Path) -> StoreResult<Connection> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // Checkpoints are the background thread's: a commit never waits for their fsyncs.
    conn.pragma_update(None, "wal_autocheckpoint", 0)?;
    Ok(conn)
}

/// One step of the schema, in each backend's dialect. The schema version of a database is
/// the number of steps applied (SQLite: `PRAGMA user_version`; PostgreSQL: the table
/// `chimere_schema`). A step is never edited once released: a change is a new step, in
/// both dialects.
pub struct Migration {
    pub sqlite: &'static str,
    pub postgres: &'static str,
}

/// Every step, in order.
pub const MIGRATIONS: &[Migration] = &[
    // 1: the first schema.
    Migration {
        sqlite: "CREATE TABLE meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
     CREATE TABLE players (id TEXT PRIMARY KEY, name TEXT NOT NULL);
     CREATE TABLE games (
        id TEXT PRIMARY KEY, variant TEXT NOT NULL, setup TEXT NOT NULL, start_fen TEXT NOT NULL,
        white TEXT, black TEXT, white_name TEXT, black_name TEXT, kind TEXT NOT NULL,
        initial_ms INTEGER, increment_ms INTEGER NOT NULL, white_ms INTEGER NOT NULL,
        black_ms INTEGER NOT NULL, ply INTEGER NOT NULL, status TEXT NOT NULL,
        result TEXT NOT NULL, reason TEXT NOT NULL, created_ms INTEGER NOT NULL,
        updated_ms INTEGER NOT NULL, rematch_of TEXT, rematch TEXT);
     CREATE INDEX games_status ON games(status, updated_ms);
     CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL, uci TEXT NOT NULL,
        canonical TEXT NOT NULL, notation TEXT NOT NULL, white_ms INTEGER NOT NULL,
        black_ms INTEGER NOT NULL, at_ms INTEGER NOT NULL, PRIMARY KEY (game_id, ply));",
        postgres: crate::store_pg::SCHEMA_1,
    },
    // 2: the problems' collection (crate::problem_store).
    Migration { sqlite: crate::problem_store::SCHEMA_SQLITE, postgres: crate::problem_store::SCHEMA_POSTGRES },
    // 3: a player's games, newest first (the lobby's "your games", asked at every refresh).
    Migration { sqlite: GAMES_BY_PLAYER, postgres: GAMES_BY_PLAYER },
    // 4: several processes on one PostgreSQL (crate::cluster): leases, processes, relayed
    // messages. An SQLite file has one process: nothing to add.
    Migration { sqlite: "-- nothing: one process per SQLite file", postgres: crate::cluster::SCHEMA_4 },
    // 5: fencing (crate::store::Fence): the leases' epochs, and the move append checking
    // them. An SQLite file has one process: nothing to add.
    Migration { sqlite: "-- nothing: one process per SQLite file", postgres: crate::cluster::SCHEMA_5 },
];

/// Step 3, the same in both dialects.
const GAMES_BY_PLAYER: &str = "CREATE INDEX games_white ON games(white, updated_ms);
     CREATE INDEX games_black ON games(black, updated_ms);";

const GAME_COLUMNS: &str = "id, variant, setup, start_fen, white, black, white_name, black_name, kind, \
     initial_ms, increment_ms, white_ms, black_ms, ply, status, result, reason, created_ms, updated_ms, \
     rematch_of, rematch";

fn read_game(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRecord> {
    Ok(GameRecord {
        id: r.get(0)?,
        variant: r.get(1)?,
        setup: r.get(2)?,
        start_fen: r.get(3)?,
        white: r.get(4)?,
        black: r.get(5)?,
        white_name: r.get(6)?,
        black_name: r.get(7)?,
        kind: r.get(8)?,
        initial_ms: r.get(9)?,
        increment_ms: r.get(10)?,
        white_ms: r.get(11)?,
        black_ms: r.get(12)?,
        ply: r.get(13)?,
        status: r.get(14)?,
        result: r.get(15)?,
        reason: r.get(16)?,
        created_ms: r.get(17)?,
        updated_ms: r.get(18)?,
        rematch_of: r.get(19)?,
        rematch: r.get(20)?,
    })
}

impl SqliteStore {
    /// Opens (creating and migrating if needed) the database file at `path`.
    pub fn open(path: &Path) -> StoreResult<SqliteStore> {
        keep_private(path)?;
        let mut conn = connect(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        // A WAL grown under load is cut back to this size once it restarts.
        conn.pragma_update(None, "journal_size_limit", 64 * 1024 * 1024)?;
        // The version is read and the steps applied in one IMMEDIATE transaction (the
        // write lock taken first): two processes opening a new file together migrate it
        // once, the second waiting for the first and then finding nothing to do.
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let version: usize = tx.pragma_query_value(None, "user_version", |r| r.get(0))?;
        if version > MIGRATIONS.len() {
            return Err(StoreError::NewerSchema { found: version, known: MIGRATIONS.len() });
        }
        for step in &MIGRATIONS[version..] {
            tx.execute_batch(step.sqlite)?;
        }
        tx.pragma_update(None, "user_version", MIGRATIONS.len())?;
        tx.commit()?;
        let read = connect(path)?;
        let checkpoints = connect(path)?;
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("chimere-checkpoint".into())
            .spawn(move || {
                while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(CHECKPOINT_EVERY) {
                    if let Err(e) = checkpoint(&checkpoints) {
                        eprintln!("database checkpoint: {e}");
                    }
                }
                // The last one on the way out, so a cleanly stopped server leaves a short WAL.
                let _ = checkpoints.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
            })
            .map_err(|e| StoreError::Db(format!("cannot start the checkpoint thread: {e}")))?;
        Ok(SqliteStore {
            conn: Mutex::new(conn),
            read: Mutex::new(read),
            checkpointer: Mutex::new(Some(Checkpointer { stop, thread: Some(thread) })),
        })
    }

    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave SQLite half-written (transactions),
        // so a poisoned lock is still usable.
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(crate) fn lock_read(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.read.lock().unwrap_or_else(|p| p.into_inner())
    }
}

const UPDATE_PLY: &str =
    "UPDATE games SET ply = ply + 1, white_ms = ?3, black_ms = ?4, updated_ms = ?5 WHERE id = ?1 AND ply = ?2";
const INSERT_MOVE: &str = "INSERT INTO moves (game_id, ply, uci, canonical, notation, white_ms, black_ms, at_ms) \
     VALUES (?1,?2,?3,?4,?5,?6,?7,?8)";

/// Runs `f` inside a savepoint (its statements prepared once per connection): on error,
/// whatever `f` wrote is rolled back and the enclosing transaction goes on.
fn in_savepoint(tx: &Connection, f: impl FnOnce() -> StoreResult<()>) -> StoreResult<()> {
    let run = |sql: &str| tx.prepare_cached(sql).and_then(|mut st| st.execute([])).map(|_| ());
    run("SAVEPOINT one_move")?;
    match f() {
        Ok(()) => Ok(run("RELEASE one_move")?),
        Err(e) => {
            let _ = run("ROLLBACK TO one_move");
            let _ = run("RELEASE one_move");
            Err(e)
        }
    }
}

/// One move under the ply guard, inside the caller's transaction (nothing written on error).
fn append_in(tx: &Connection, id: &str, expected_ply: u32, m: &MoveRecord) -> StoreResult<()> {
    let changed = tx.prepare_cached(UPDATE_PLY)?.execute(params![id, expected_ply, m.white_ms, m.black_ms, m.at_ms])?;
    if changed != 1 {
        let actual = current_ply(tx, id)?;
        return Err(StoreError::Conflict { expected: expected_ply, actual });
    }
    tx.prepare_cached(INSERT_MOVE)?.execute(params![
        id,
        expected_ply + 1,
        m.uci,
        m.canonical,
        m.notation,
        m.white_ms,
        m.black_ms,
        m.at_ms
    ])?;
    Ok(())
}

fn current_ply(tx: &Connection, id: &str) -> StoreResult<u32> {
    tx.query_row("SELECT ply FROM games WHERE id = ?1", [id], |r| r.get(0))
        .optional()?
        .ok_or_else(|| StoreError::NotFound(id.to_string()))
}

impl Store for SqliteStore {
    fn secret(&self) -> StoreResult<Vec<u8>> {
        let conn = self.lock_read();
        let found: Option<Vec<u8>> =
            conn.query_row("SELECT value FROM meta WHERE key = 'secret'", [], |r| r.get(0)).optional()?;
        if let Some(s) = found {
            return Ok(s);
        }
        let mut s = vec![0u8; 32];
        getrandom::fill(&mut s).map_err(|e| StoreError::Db(format!("no randomness: {e}")))?;
        conn.execute("INSERT INTO meta (key, value) VALUES ('secret', ?1)", [&s])?;
        Ok(s)
    }

    fn close(&self) -> StoreResult<()> {
        let checkpointer = self.checkpointer.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(c) = checkpointer {
            c.stop();
        }
        let mut read = self.lock_read();
        let mut conn = self.lock();
        let busy: i64 = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get(0))?;
        if busy != 0 {
            return Err(StoreError::Db("the WAL could not be checkpointed: the database is busy".into()));
        }
        // The file's connections are closed (the last one removes the WAL); what is left
        // holds nothing.
        let gone = |c: &mut Connection| -> StoreResult<()> {
            std::mem::replace(c, Connection::open_in_memory()?).close().map_err(|(_, e)| StoreError::from(e))
        };
        gone(&mut read)?;
        gone(&mut conn)
    }

    fn player_name(&self, player: &str) -> StoreResult<Option<String>> {
        let conn = self.lock_read();
        Ok(conn.query_row("SELECT name FROM players WHERE id = ?1", [player], |r| r.get(0)).optional()?)
    }

    fn set_player_name(&self, player: &str, name: &str) -> StoreResult<()> {
        let conn = self.lock_read();
        conn.execute(
            "INSERT INTO players (id, name) VALUES (?1, ?2) ON CONFLICT(id) DO UPDATE SET name = ?2",
            params![player, name],
        )?;
        Ok(())
    }

    fn create_game(&self, g: &GameRecord) -> StoreResult<()> {
        let conn = self.lock_read();
        conn.execute(
            &format!("INSERT INTO games ({GAME_COLUMNS}) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,?20,?21)"),
            params![
                g.id, g.variant, g.setup, g.start_fen, g.white, g.black, g.white_name, g.black_name, g.kind,
                g.initial_ms, g.increment_ms, g.white_ms, g.black_ms, g.ply, g.status, g.result, g.reason,
                g.created_ms, g.updated_ms, g.rematch_of, g.rematch
            ],
        )?;
        Ok(())
    }

    fn game(&self, id: &str) -> StoreResult<Option<GameRecord>> {
        let conn = self.lock();
        let mut st = conn.prepare_cached(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"))?;
        Ok(st.query_row([id], read_game).optional()?)
    }

    fn moves(&self, id: &str) -> StoreResult<Vec<MoveRecord>> {
        let conn = self.lock();
        let mut st = conn.prepare_cached(
            "SELECT ply, uci, canonical, notation, white_ms, black_ms, at_ms FROM moves WHERE game_id = ?1 ORDER BY ply",
        )?;
        let rows = st.query_map([id], |r| {
            Ok(MoveRecord {
                ply: r.get(0)?,
                uci: r.get(1)?,
                canonical: r.get(2)?,
                notation: r.get(3)?,
                white_ms: r.get(4)?,
                black_ms: r.get(5)?,
                at_ms: r.get(6)?,
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    fn append_move(&self, id: &str, expected_ply: u32, m: &MoveRecord, _fence: Fence) -> StoreResult<()> {
        let mut conn = self.lock();
        let tx = conn.transaction()?;
        append_in(&tx, id, expected_ply, m)?;
        tx.commit()?;
        Ok(())
    }

    fn append_moves(&self, batch: &[Append]) -> Vec<StoreResult<()>> {
        let mut conn = self.lock();
        let tx = match conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate) {
            Ok(tx) => tx,
            Err(e) => {
                let msg = e.to_string();
                return batch.iter().map(|_| Err(StoreError::Db(msg.clone()))).collect();
            }
        };
        let mut out = Vec::with_capacity(batch.len());
        for a in batch {
            // A savepoint per move: a move that fails half-way leaves nothing behind, and
            // the others of the group are still committed.
            out.push(in_savepoint(&tx, || append_in(&tx, &a.game, a.expected_ply, &a.rec)));
        }
        if let Err(e) = tx.commit() {
            let msg = e.to_string();
            for r in out.iter_mut() {
                if r.is_ok() {
                    *r = Err(StoreError::Db(format!("group commit: {msg}")));
                }
            }
        }
        out
    }

    fn truncate(
        &self,
        id: &str,
        expected_ply: u32,
        new_ply: u32,
        clocks: (i64, i64),
        _fence: Fence,
    ) -> StoreResult<()> {
        let (white_ms, black_ms) = clocks;
        let mut conn = self.lock();
        let tx = conn.transaction()?;
        let changed = tx.execute(
            "UPDATE games SET ply = ?3, white_ms = ?4, black_ms = ?5 WHERE id = ?1 AND ply = ?2",
            params![id, expected_ply, new_ply, white_ms, black_ms],
        )?;
        if changed != 1 {
            let actual = current_ply(&tx, id)?;
            return Err(StoreError::Conflict { expected: expected_ply, actual });
        }
        tx.execute("DELETE FROM moves WHERE game_id = ?1 AND ply > ?2", params![id, new_ply])?;
        tx.commit()?;
        Ok(())
    }

    fn update_game(&self, g: &GameRecord, _fence: Fence) -> StoreResult<()> {
        let conn = self.lock();
        let changed = conn.execute(
            "UPDATE games SET white = ?2, black = ?3, white_name = ?4, black_name = ?5, white_ms = ?6, black_ms = ?7,
             status = ?8, result = ?9, reason = ?10, updated_ms = ?11, rematch_of = ?12, rematch = ?13 WHERE id = ?1",
            params![
                g.id,
                g.white,
                g.black,
                g.white_name,
                g.black_name,
                g.white_ms,
                g.black_ms,
                g.status,
                g.result,
                g.reason,
                g.updated_ms,
                g.rematch_of,
                g.rematch
            ],
        )?;
        if changed != 1 {
            return Err(StoreError::NotFound(g.id.clone()));
        }
        Ok(())
    }

    fn list_games(&self, f: &GameFilter) -> StoreResult<Vec<GameRecord>> {
        let conn = self.lock();
        let mut sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE 1=1");
        let mut args: Vec<String> = Vec::new();
        if !f.statuses.is_empty() {
            let marks: Vec<String> = f
                .statuses
                .iter()
                .map(|s| {
                    args.push(s.clone());
                    format!("?{}", args.len())
                })
                .collect();
            sql += &format!(" AND status IN ({})", marks.join(","));
        }
        if let Some(k) = &f.kind {
            args.push(k.clone());
            sql += &format!(" AND kind = ?{}", args.len());
        }
        if let Some(v) = &f.variant {
            args.push(v.clone());
            sql += &format!(" AND variant = ?{}", args.len());
        }
        if let Some(p) = &f.player {
            args.push(p.clone());
            sql += &format!(" AND (white = ?{n} OR black = ?{n})", n = args.len());
        }
        sql += &format!(" ORDER BY updated_ms DESC LIMIT {}", f.limit.max(1));
        let mut st = conn.prepare(&sql)?;
        let rows = st.query_map(rusqlite::params_from_iter(args.iter()), read_game)?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }
}
