//! The PostgreSQL backend of [`Store`]: the same tables as SQLite's, in a server database
//! that several `chimere serve` processes can share.
//!
//! Client: `tokio-postgres` with a `deadpool-postgres` pool ([`POOL_SIZE`] connections). The
//! [`Store`] trait is synchronous (the writer thread and the blocking sections of the hub
//! call it), so the store owns a small tokio runtime of its own on which the pool's
//! connections live; a call sends its query there and waits for the answer. That works from
//! any thread — the writer thread, a `spawn_blocking` section, or a handler of the server's
//! runtime — and never nests one runtime's `block_on` inside another.
//!
//! The per-move guarantee: a move is stored by `chimere_append` (a PL/pgSQL function created
//! by the migration) which bumps the game's ply only if it is the one expected and inserts
//! the move in the same statement; a group of moves ([`Store::append_moves`]) is one
//! statement (`unnest` of arrays, the function called for each row in order), so one round
//! trip and one commit store many games' moves, each under its own guard. A statement is
//! all or nothing: a connection lost mid-way leaves nothing written.
//!
//! Faults: a database that cannot be reached (down, restarting, a broken connection, no
//! free connection within [`WAIT`]) is [`StoreError::Unavailable`], whose message tells the
//! player to try again; the pool drops broken connections and opens new ones when the
//! server is back, with no restart of the process.

use crate::store::{Append, Fence, GameFilter, GameRecord, MIGRATIONS, MoveRecord, Store, StoreError, StoreResult};
use deadpool_postgres::{Manager, ManagerConfig, Pool, PoolError, RecyclingMethod, Runtime};
use std::future::Future;
use std::time::Duration;
use tokio_postgres::{NoTls, Row};

/// Connections in the pool (PostgreSQL's default `max_connections` is 100: a few processes
/// of this size fit).
pub const POOL_SIZE: usize = 16;

/// Longest wait for a connection (from the pool, or a new one) before a call gives up with
/// [`StoreError::Unavailable`].
pub const WAIT: Duration = Duration::from_secs(3);

/// Longest time one call may take, end to end.
const CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// The advisory lock that serialises migrations when several processes start together.
const MIGRATION_LOCK: i64 = 0x0063_6869_6d65_7265; // "chimere"

/// Schema step 1 in PostgreSQL's dialect (see [`crate::store::MIGRATIONS`]): SQLite's
/// tables, numbers as BIGINT, and the move-append function.
pub const SCHEMA_1: &str = "
CREATE TABLE meta (key TEXT PRIMARY KEY, value BYTEA NOT NULL);
CREATE TABLE players (id TEXT PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE games (
   id TEXT PRIMARY KEY, variant TEXT NOT NULL, setup TEXT NOT NULL, start_fen TEXT NOT NULL,
   white TEXT, black TEXT, white_name TEXT, black_name TEXT, kind TEXT NOT NULL,
   initial_ms BIGINT, increment_ms BIGINT NOT NULL, white_ms BIGINT NOT NULL,
   black_ms BIGINT NOT NULL, ply BIGINT NOT NULL, status TEXT NOT NULL,
   result TEXT NOT NULL, reason TEXT NOT NULL, created_ms BIGINT NOT NULL,
   updated_ms BIGINT NOT NULL, rematch_of TEXT, rematch TEXT);
CREATE INDEX games_status ON games(status, updated_ms);
CREATE TABLE moves (
   game_id TEXT NOT NULL REFERENCES games(id), ply BIGINT NOT NULL, uci TEXT NOT NULL,
   canonical TEXT NOT NULL, notation TEXT NOT NULL, white_ms BIGINT NOT NULL,
   black_ms BIGINT NOT NULL, at_ms BIGINT NOT NULL, PRIMARY KEY (game_id, ply));
-- One move under the ply guard: stored (and the game's ply bumped) only if the game is at
-- p_expected. `stored` says whether it was; `actual` is the game's ply when it was not
-- (NULL: no such game).
CREATE FUNCTION chimere_append(p_game TEXT, p_expected BIGINT, p_uci TEXT, p_canonical TEXT,
    p_notation TEXT, p_white_ms BIGINT, p_black_ms BIGINT, p_at_ms BIGINT,
    OUT stored BOOLEAN, OUT actual BIGINT) LANGUAGE plpgsql AS $$
BEGIN
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

const GAME_COLUMNS: &str = "id, variant, setup, start_fen, white, black, white_name, black_name, kind, \
     initial_ms, increment_ms, white_ms, black_ms, ply, status, result, reason, created_ms, updated_ms, \
     rematch_of, rematch";

// The append of schema step 5 (`crate::cluster::SCHEMA_5`): the ply guard and the fence.
const APPEND_ONE: &str =
    "SELECT stored, actual, fenced FROM chimere_append($1, $2, $3, $4, $5, $6, $7, $8, $9::bigint)";

const APPEND_MANY: &str = "SELECT r.stored, r.actual, r.fenced FROM unnest($1::text[], $2::bigint[], $3::text[], \
     $4::text[], $5::text[], $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[]) WITH ORDINALITY \
     AS i(game, expected, uci, canonical, notation, white_ms, black_ms, at_ms, epoch, n) \
     CROSS JOIN LATERAL chimere_append(i.game, i.expected, i.uci, i.canonical, i.notation, i.white_ms, \
     i.black_ms, i.at_ms, i.epoch) AS r ORDER BY i.n";

/// Holds the lease row of a game at an epoch for the rest of the transaction (`FOR KEY
/// SHARE`: the renewals, which change only the expiry, go on; a takeover, which changes
/// the epoch — a key column — waits for this transaction, and this one, coming after a
/// takeover, no longer finds the row). No row: the fence does not hold.
const FENCE: &str = "SELECT 1 FROM chimere_leases WHERE game = $1 AND epoch = $2 FOR KEY SHARE";

/// The PostgreSQL store (see the module's documentation).
pub struct PgStore {
    pool: Pool,
    handle: tokio::runtime::Handle,
    /// Owned so that it lives as long as the store; shut down (without blocking) on drop.
    runtime: Option<tokio::runtime::Runtime>,
}

impl Drop for PgStore {
    fn drop(&mut self) {
        self.pool.close();
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}

/// `url` with its password (if any) hidden, for messages and logs.
pub fn redact(url: &str) -> String {
    let Some(scheme_end) = url.find("://").map(|i| i + 3) else { return url.to_string() };
    let rest = &url[scheme_end..];
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let Some(at) = rest[..authority_end].rfind('@') else { return url.to_string() };
    match rest[..at].find(':') {
        Some(colon) => format!("{}{}:***{}", &url[..scheme_end], &rest[..colon], &rest[at..]),
        None => url.to_string(),
    }
}

/// Is this failure one of reaching the database (try again) rather than of the request?
pub(crate) fn from_pg(e: tokio_postgres::Error) -> StoreError {
    if let Some(db) = e.as_db_error() {
        let code = db.code().code();
        // 08: connection exceptions; 53: out of resources (too many connections…);
        // 57P01-57P03: the server is shutting down or starting up.
        if code.starts_with("08") || code.starts_with("53") || matches!(code, "57P01" | "57P02" | "57P03") {
            return StoreError::Unavailable(db.message().to_string());
        }
        return StoreError::Db(db.message().to_string());
    }
    let source = std::error::Error::source(&e);
    let io = source.is_some_and(|s| s.is::<std::io::Error>());
    // The cause ("connection refused", ...) says more than tokio-postgres's summary.
    let text = match source {
        Some(s) => format!("{e}: {s}"),
        None => e.to_string(),
    };
    if e.is_closed() || io || text.contains("timeout") || text.contains("connection") {
        StoreError::Unavailable(text)
    } else {
        StoreError::Db(e.to_string())
    }
}

fn from_pool(e: PoolError) -> StoreError {
    match e {
        PoolError::Backend(e) => from_pg(e),
        PoolError::Timeout(_) => StoreError::Unavailable("no connection to the database".into()),
        other => StoreError::Unavailable(other.to_string()),
    }
}

fn ply_of(v: i64) -> StoreResult<u32> {
    u32::try_from(v).map_err(|_| StoreError::Db(format!("a ply out of range: {v}")))
}

fn read_game(r: &Row) -> StoreResult<GameRecord> {
    let g = || -> Result<GameRecord, tokio_postgres::Error> {
        Ok(GameRecord {
            id: r.try_get(0)?,
            variant: r.try_get(1)?,
            setup: r.try_get(2)?,
            start_fen: r.try_get(3)?,
            white: r.try_get(4)?,
            black: r.try_get(5)?,
            white_name: r.try_get(6)?,
            black_name: r.try_get(7)?,
            kind: r.try_get(8)?,
            initial_ms: r.try_get(9)?,
            increment_ms: r.try_get(10)?,
            white_ms: r.try_get(11)?,
            black_ms: r.try_get(12)?,
            ply: 0,
            status: r.try_get(14)?,
            result: r.try_get(15)?,
            reason: r.try_get(16)?,
            created_ms: r.try_get(17)?,
            updated_ms: r.try_get(18)?,
            rematch_of: r.try_get(19)?,
            rematch: r.try_get(20)?,
        })
    };
    let mut game = g().map_err(from_pg)?;
    game.ply = ply_of(r.try_get(13).map_err(from_pg)?)?;
    Ok(game)
}

/// The answer of `chimere_append` for one move.
fn append_result(r: &Row, game: &str, expected: u32) -> StoreResult<()> {
    let stored: bool = r.try_get(0).map_err(from_pg)?;
    let actual: Option<i64> = r.try_get(1).map_err(from_pg)?;
    let fenced: bool = r.try_get(2).map_err(from_pg)?;
    match (stored, actual) {
        (true, _) => Ok(()),
        (false, _) if fenced => Err(StoreError::Fenced(game.to_string())),
        (false, None) => Err(StoreError::NotFound(game.to_string())),
        (false, Some(actual)) => Err(StoreError::Conflict { expected, actual: ply_of(actual)? }),
    }
}

/// Applies the steps of [`MIGRATIONS`] not yet applied, under an advisory lock (several
/// processes may start at once), each step and the new version in one transaction.
async fn migrate(pool: &Pool) -> StoreResult<()> {
    let mut client = pool.get().await.map_err(from_pool)?;
    let tx = client.transaction().await.map_err(from_pg)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).await.map_err(from_pg)?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS chimere_schema (version BIGINT NOT NULL)").await.map_err(from_pg)?;
    let found: Option<i64> =
        tx.query_opt("SELECT version FROM chimere_schema", &[]).await.map_err(from_pg)?.map(|r| r.get(0));
    let found = match found {
        Some(v) => usize::try_from(v).map_err(|_| StoreError::Db(format!("a schema version out of range: {v}")))?,
        None => {
            tx.execute("INSERT INTO chimere_schema (version) VALUES (0)", &[]).await.map_err(from_pg)?;
            0
        }
    };
    if found > MIGRATIONS.len() {
        return Err(StoreError::NewerSchema { found, known: MIGRATIONS.len() });
    }
    for (i, step) in MIGRATIONS.iter().enumerate().skip(found) {
        tx.batch_execute(step.postgres).await.map_err(from_pg)?;
        let version = (i + 1) as i64;
        tx.execute("UPDATE chimere_schema SET version = $1", &[&version]).await.map_err(from_pg)?;
    }
    tx.commit().await.map_err(from_pg)
}

impl PgStore {
    /// Connects to `url` (`postgres://user:password@host:port/database`), creates or
    /// migrates the tables, and refuses a database of a newer schema.
    pub fn open(url: &str) -> StoreResult<PgStore> {
        let mut config: tokio_postgres::Config =
            url.parse().map_err(|e| StoreError::Db(format!("not a PostgreSQL URL ({}): {e}", redact(url))))?;
        config.connect_timeout(WAIT);
        config.application_name("chimere");
        let manager = Manager::from_config(config, NoTls, ManagerConfig { recycling_method: RecyclingMethod::Fast });
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("chimere-pg")
            .enable_all()
            .build()
            .map_err(|e| StoreError::Db(format!("cannot start the database runtime: {e}")))?;
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .wait_timeout(Some(WAIT))
            .create_timeout(Some(WAIT))
            .recycle_timeout(Some(WAIT))
            .runtime(Runtime::Tokio1)
            .build()
            .map_err(|e| StoreError::Db(format!("cannot build the connection pool: {e}")))?;
        let store = PgStore { pool, handle: runtime.handle().clone(), runtime: Some(runtime) };
        let pool = store.pool.clone();
        store.run(async move { migrate(&pool).await })?;
        Ok(store)
    }

    /// Runs `fut` on the store's runtime and waits for its answer (from any thread).
    fn run<T: Send + 'static>(&self, fut: impl Future<Output = StoreResult<T>> + Send + 'static) -> StoreResult<T> {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        self.handle.spawn(async move {
            let answer = match tokio::time::timeout(CALL_TIMEOUT, fut).await {
                Ok(a) => a,
                Err(_) => Err(StoreError::Unavailable("the database did not answer in time".into())),
            };
            let _ = tx.send(answer);
        });
        rx.recv().map_err(|_| StoreError::Unavailable("the database runtime has stopped".into()))?
    }

    /// Runs `f` with a pooled connection.
    pub(crate) fn with<T, F, Fut>(&self, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnOnce(deadpool_postgres::Object) -> Fut + Send + 'static,
        Fut: Future<Output = StoreResult<T>> + Send,
    {
        let pool = self.pool.clone();
        self.run(async move {
            let client = pool.get().await.map_err(from_pool)?;
            f(client).await
        })
    }
}

impl Store for PgStore {
    fn secret(&self) -> StoreResult<Vec<u8>> {
        let mut fresh = vec![0u8; 32];
        getrandom::fill(&mut fresh).map_err(|e| StoreError::Db(format!("no randomness: {e}")))?;
        self.with(move |c| async move {
            // The first process to ask stores it; every other keeps the stored one.
            c.execute("INSERT INTO meta (key, value) VALUES ('secret', $1) ON CONFLICT (key) DO NOTHING", &[&fresh])
                .await
                .map_err(from_pg)?;
            let row = c.query_one("SELECT value FROM meta WHERE key = 'secret'", &[]).await.map_err(from_pg)?;
            row.try_get(0).map_err(from_pg)
        })
    }

    fn player_name(&self, player: &str) -> StoreResult<Option<String>> {
        let player = player.to_string();
        self.with(move |c| async move {
            let st = c.prepare_cached("SELECT name FROM players WHERE id = $1").await.map_err(from_pg)?;
            let row = c.query_opt(&st, &[&player]).await.map_err(from_pg)?;
            row.map(|r| r.try_get(0).map_err(from_pg)).transpose()
        })
    }

    fn set_player_name(&self, player: &str, name: &str) -> StoreResult<()> {
        let (player, name) = (player.to_string(), name.to_string());
        self.with(move |c| async move {
            c.execute(
                "INSERT INTO players (id, name) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name",
                &[&player, &name],
            )
            .await
            .map_err(from_pg)?;
            Ok(())
        })
    }

    fn create_game(&self, g: &GameRecord) -> StoreResult<()> {
        let g = g.clone();
        self.with(move |c| async move {
            let ply = i64::from(g.ply);
            c.execute(
                &format!(
                    "INSERT INTO games ({GAME_COLUMNS}) VALUES \
                     ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21)"
                ),
                &[
                    &g.id,
                    &g.variant,
                    &g.setup,
                    &g.start_fen,
                    &g.white,
                    &g.black,
                    &g.white_name,
                    &g.black_name,
                    &g.kind,
                    &g.initial_ms,
                    &g.increment_ms,
                    &g.white_ms,
                    &g.black_ms,
                    &ply,
                    &g.status,
                    &g.result,
                    &g.reason,
                    &g.created_ms,
                    &g.updated_ms,
                    &g.rematch_of,
                    &g.rematch,
                ],
            )
            .await
            .map_err(from_pg)?;
            Ok(())
        })
    }

    fn game(&self, id: &str) -> StoreResult<Option<GameRecord>> {
        let id = id.to_string();
        self.with(move |c| async move {
            let st =
                c.prepare_cached(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1")).await.map_err(from_pg)?;
            let row = c.query_opt(&st, &[&id]).await.map_err(from_pg)?;
            row.as_ref().map(read_game).transpose()
        })
    }

    fn moves(&self, id: &str) -> StoreResult<Vec<MoveRecord>> {
        let id = id.to_string();
        self.with(move |c| async move {
            let st = c
                .prepare_cached(
                    "SELECT ply, uci, canonical, notation, white_ms, black_ms, at_ms FROM moves \
                     WHERE game_id = $1 ORDER BY ply",
                )
                .await
                .map_err(from_pg)?;
            let rows = c.query(&st, &[&id]).await.map_err(from_pg)?;
            rows.iter()
                .map(|r| {
                    Ok(MoveRecord {
                        ply: ply_of(r.try_get(0).map_err(from_pg)?)?,
                        uci: r.try_get(1).map_err(from_pg)?,
                        canonical: r.try_get(2).map_err(from_pg)?,
                        notation: r.try_get(3).map_err(from_pg)?,
                        white_ms: r.try_get(4).map_err(from_pg)?,
                        black_ms: r.try_get(5).map_err(from_pg)?,
                        at_ms: r.try_get(6).map_err(from_pg)?,
                    })
                })
                .collect()
        })
    }

    fn append_move(&self, id: &str, expected_ply: u32, m: &MoveRecord, fence: Fence) -> StoreResult<()> {
        let (id, m) = (id.to_string(), m.clone());
        self.with(move |c| async move {
            let st = c.prepare_cached(APPEND_ONE).await.map_err(from_pg)?;
            let expected = i64::from(expected_ply);
            let epoch = fence.epoch();
            let row = c
                .query_one(
                    &st,
                    &[&id, &expected, &m.uci, &m.canonical, &m.notation, &m.white_ms, &m.black_ms, &m.at_ms, &epoch],
                )
                .await
                .map_err(from_pg)?;
            append_result(&row, &id, expected_ply)
        })
    }

    fn append_moves(&self, batch: &[Append]) -> Vec<StoreResult<()>> {
        if batch.is_empty() {
            return Vec::new();
        }
        let games: Vec<String> = batch.iter().map(|a| a.game.clone()).collect();
        let expected: Vec<i64> = batch.iter().map(|a| i64::from(a.expected_ply)).collect();
        let column = |f: fn(&MoveRecord) -> &String| batch.iter().map(|a| f(&a.rec).clone()).collect::<Vec<_>>();
        let (uci, canonical, notation) = (column(|m| &m.uci), column(|m| &m.canonical), column(|m| &m.notation));
        let number = |f: fn(&MoveRecord) -> i64| batch.iter().map(|a| f(&a.rec)).collect::<Vec<_>>();
        let (white, black, at) = (number(|m| m.white_ms), number(|m| m.black_ms), number(|m| m.at_ms));
        let epochs: Vec<Option<i64>> = batch.iter().map(|a| a.fence.epoch()).collect();
        let rows = self.with(move |c| async move {
            let st = c.prepare_cached(APPEND_MANY).await.map_err(from_pg)?;
            c.query(&st, &[&games, &expected, &uci, &canonical, &notation, &white, &black, &at, &epochs])
                .await
                .map_err(from_pg)
        });
        match rows {
            Ok(rows) if rows.len() == batch.len() => {
                rows.iter().zip(batch).map(|(r, a)| append_result(r, &a.game, a.expected_ply)).collect()
            }
            Ok(rows) => {
                let msg = format!("{} answers for {} moves", rows.len(), batch.len());
                batch.iter().map(|_| Err(StoreError::Db(msg.clone()))).collect()
            }
            // Nothing of the group was written (one statement): unreachable, every move
            // may be tried again.
            Err(StoreError::Unavailable(msg)) => {
                batch.iter().map(|_| Err(StoreError::Unavailable(msg.clone()))).collect()
            }
            // A move the database refused (one statement: the whole group was rolled back):
            // each move alone, so that the others are still stored.
            Err(_) => batch.iter().map(|a| self.append_move(&a.game, a.expected_ply, &a.rec, a.fence)).collect(),
        }
    }

    fn truncate(&self, id: &str, expected_ply: u32, new_ply: u32, clocks: (i64, i64), fence: Fence) -> StoreResult<()> {
        let id = id.to_string();
        let (white_ms, black_ms) = clocks;
        self.with(move |mut c| async move {
            let tx = c.transaction().await.map_err(from_pg)?;
            if let Some(epoch) = fence.epoch()
                && tx.query_opt(FENCE, &[&id, &epoch]).await.map_err(from_pg)?.is_none()
            {
                return Err(StoreError::Fenced(id));
            }
            let (expected, new) = (i64::from(expected_ply), i64::from(new_ply));
            let changed = tx
                .execute(
                    "UPDATE games SET ply = $3, white_ms = $4, black_ms = $5 WHERE id = $1 AND ply = $2",
                    &[&id, &expected, &new, &white_ms, &black_ms],
                )
                .await
                .map_err(from_pg)?;
            if changed != 1 {
                let row = tx.query_opt("SELECT ply FROM games WHERE id = $1", &[&id]).await.map_err(from_pg)?;
                return match row {
                    None => Err(StoreError::NotFound(id)),
                    Some(r) => Err(StoreError::Conflict {
                        expected: expected_ply,
                        actual: ply_of(r.try_get(0).map_err(from_pg)?)?,
                    }),
                };
            }
            tx.execute("DELETE FROM moves WHERE game_id = $1 AND ply > $2", &[&id, &new]).await.map_err(from_pg)?;
            tx.commit().await.map_err(from_pg)
        })
    }

    fn update_game(&self, g: &GameRecord, fence: Fence) -> StoreResult<()> {
        let g = g.clone();
        self.with(move |c| async move {
            let epoch = fence.epoch();
            // One statement: the lease held at the epoch (see FENCE) and the update.
            let changed = c
                .execute(
                    "WITH fence AS (SELECT 1 FROM chimere_leases WHERE game = $1 AND epoch = $14 FOR KEY SHARE) \
                     UPDATE games SET white = $2, black = $3, white_name = $4, black_name = $5, white_ms = $6, \
                     black_ms = $7, status = $8, result = $9, reason = $10, updated_ms = $11, rematch_of = $12, \
                     rematch = $13 WHERE id = $1 AND ($14::bigint IS NULL OR EXISTS (SELECT 1 FROM fence))",
                    &[
                        &g.id,
                        &g.white,
                        &g.black,
                        &g.white_name,
                        &g.black_name,
                        &g.white_ms,
                        &g.black_ms,
                        &g.status,
                        &g.result,
                        &g.reason,
                        &g.updated_ms,
                        &g.rematch_of,
                        &g.rematch,
                        &epoch,
                    ],
                )
                .await
                .map_err(from_pg)?;
            if changed != 1 {
                let exists = c.query_opt("SELECT 1 FROM games WHERE id = $1", &[&g.id]).await.map_err(from_pg)?;
                return Err(if exists.is_some() { StoreError::Fenced(g.id) } else { StoreError::NotFound(g.id) });
            }
            Ok(())
        })
    }

    fn list_games(&self, f: &GameFilter) -> StoreResult<Vec<GameRecord>> {
        let f = f.clone();
        self.with(move |c| async move {
            let st = c
                .prepare_cached(&format!(
                    "SELECT {GAME_COLUMNS} FROM games WHERE (cardinality($1::text[]) = 0 OR status = ANY($1)) \
                     AND ($2::text IS NULL OR kind = $2) AND ($3::text IS NULL OR variant = $3) \
                     AND ($5::text IS NULL OR white = $5 OR black = $5) ORDER BY updated_ms DESC LIMIT $4"
                ))
                .await
                .map_err(from_pg)?;
            let limit = i64::from(f.limit.max(1));
            let rows = c.query(&st, &[&f.statuses, &f.kind, &f.variant, &limit, &f.player]).await.map_err(from_pg)?;
            rows.iter().map(read_game).collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn passwords_are_hidden_in_messages() {
        assert_eq!(redact("postgres://ann:secret@db:5432/chimere"), "postgres://ann:***@db:5432/chimere");
        assert_eq!(redact("postgres://ann@db/chimere"), "postgres://ann@db/chimere");
        assert_eq!(redact("postgres://db/chimere?user=a"), "postgres://db/chimere?user=a");
        assert_eq!(redact("not a url"), "not a url");
    }
}
