//! The problems' collection in the store: one table (schema step 2 of
//! [`crate::store::MIGRATIONS`], in both dialects), written and read through
//! [`ProblemStore`], which both backends implement here (a supertrait of
//! [`crate::store::Store`], so the server reaches it through the same handle).
//!
//! A problem keeps its Popeye input (one problem, its twins included), what the
//! collection filters on (conditions, stipulation, pieces, words), and the solution the
//! server's own solver printed for it ([`crate::problems`]'s queue): a client never
//! writes a solution.

use crate::store::{SqliteStore, StoreResult};
use crate::store_pg::{PgStore, from_pg};
use rusqlite::{OptionalExtension, params};

pub const SCHEMA_SQLITE: &str = "CREATE TABLE problems (
    id TEXT PRIMARY KEY, created_ms INTEGER NOT NULL, owner TEXT NOT NULL, author TEXT NOT NULL,
    origin TEXT NOT NULL, title TEXT NOT NULL, date TEXT NOT NULL, stipulation TEXT NOT NULL,
    conditions TEXT NOT NULL, pieces TEXT NOT NULL, input TEXT NOT NULL, status TEXT NOT NULL,
    solution TEXT NOT NULL, solve_ms INTEGER NOT NULL, error TEXT NOT NULL);
  CREATE INDEX problems_status ON problems(status, created_ms);
  CREATE INDEX problems_created ON problems(created_ms);";

pub const SCHEMA_POSTGRES: &str = "CREATE TABLE problems (
    id TEXT PRIMARY KEY, created_ms BIGINT NOT NULL, owner TEXT NOT NULL, author TEXT NOT NULL,
    origin TEXT NOT NULL, title TEXT NOT NULL, date TEXT NOT NULL, stipulation TEXT NOT NULL,
    conditions TEXT NOT NULL, pieces TEXT NOT NULL, input TEXT NOT NULL, status TEXT NOT NULL,
    solution TEXT NOT NULL, solve_ms BIGINT NOT NULL, error TEXT NOT NULL);
  CREATE INDEX problems_status ON problems(status, created_ms);
  CREATE INDEX problems_created ON problems(created_ms);";

/// Where a problem's solution stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SolveStatus {
    /// Waiting for the server's solver.
    Queued,
    /// Solved to the end.
    Solved,
    /// Stopped by the server's time limit: the solution is partial.
    Stopped,
    /// The solver refused it (the error says why, naming the line).
    Refused,
}

impl SolveStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            SolveStatus::Queued => "queued",
            SolveStatus::Solved => "solved",
            SolveStatus::Stopped => "stopped",
            SolveStatus::Refused => "refused",
        }
    }
    pub fn parse(s: &str) -> Option<SolveStatus> {
        [SolveStatus::Queued, SolveStatus::Solved, SolveStatus::Stopped, SolveStatus::Refused]
            .into_iter()
            .find(|x| x.as_str() == s)
    }
}

/// One problem of the collection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProblemRecord {
    pub id: String,
    pub created_ms: i64,
    /// The identity that saved it.
    pub owner: String,
    pub author: String,
    pub origin: String,
    pub title: String,
    /// The date given with it (`Origin` often has it; else the day it was saved).
    pub date: String,
    pub stipulation: String,
    /// The conditions' Popeye words, `; `-separated.
    pub conditions: String,
    /// The kinds of units, as ` K Q G ` (Popeye letters, space-delimited, for the filter).
    pub pieces: String,
    /// The problem as Popeye input.
    pub input: String,
    pub status: SolveStatus,
    /// What the server's solver printed (empty until solved).
    pub solution: String,
    pub solve_ms: i64,
    pub error: String,
}

/// What the collection page asks for: each given field must match (case-insensitive).
#[derive(Clone, Debug, Default)]
pub struct ProblemFilter {
    /// A word of the conditions (`circe`, `hole`).
    pub condition: Option<String>,
    /// Part of the stipulation (`h#`, `#2`).
    pub stipulation: Option<String>,
    /// A kind of unit, by its Popeye letters (`G`, `N`).
    pub piece: Option<String>,
    /// Words in the author, source, title or input.
    pub text: Option<String>,
    pub limit: u32,
}

/// The filter as LIKE patterns (lower case; `%` and `_` of the words taken literally).
fn patterns(f: &ProblemFilter) -> [Option<String>; 4] {
    let like = |s: &str| {
        let esc: String = s
            .to_lowercase()
            .chars()
            .flat_map(|c| if matches!(c, '%' | '_' | '\\') { vec!['\\', c] } else { vec![c] })
            .collect();
        format!("%{esc}%")
    };
    let clean = |o: &Option<String>| o.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
    [
        clean(&f.condition).map(|s| like(&s)),
        clean(&f.stipulation).map(|s| like(&s)),
        clean(&f.piece).map(|s| like(&format!(" {s} "))),
        clean(&f.text).map(|s| like(&s)),
    ]
}

/// The collection's storage.
pub trait ProblemStore {
    /// Stores problems, all or none (one transaction).
    fn add_problems(&self, ps: &[ProblemRecord]) -> StoreResult<()>;
    fn problem(&self, id: &str) -> StoreResult<Option<ProblemRecord>>;
    /// The newest first.
    fn list_problems(&self, f: &ProblemFilter) -> StoreResult<Vec<ProblemRecord>>;
    /// The oldest problem waiting for the solver.
    fn next_queued(&self) -> StoreResult<Option<ProblemRecord>>;
    fn queued_count(&self) -> StoreResult<u64>;
    /// Stores the server's solution of a problem.
    fn set_solution(
        &self,
        id: &str,
        status: SolveStatus,
        solution: &str,
        solve_ms: i64,
        error: &str,
    ) -> StoreResult<()>;
}

const COLUMNS: &str = "id, created_ms, owner, author, origin, title, date, stipulation, conditions, pieces, input, \
     status, solution, solve_ms, error";

fn status_of(s: &str) -> SolveStatus {
    SolveStatus::parse(s).unwrap_or(SolveStatus::Queued)
}

fn read_sqlite(r: &rusqlite::Row<'_>) -> rusqlite::Result<ProblemRecord> {
    Ok(ProblemRecord {
        id: r.get(0)?,
        created_ms: r.get(1)?,
        owner: r.get(2)?,
        author: r.get(3)?,
        origin: r.get(4)?,
        title: r.get(5)?,
        date: r.get(6)?,
        stipulation: r.get(7)?,
        conditions: r.get(8)?,
        pieces: r.get(9)?,
        input: r.get(10)?,
        status: status_of(&r.get::<_, String>(11)?),
        solution: r.get(12)?,
        solve_ms: r.get(13)?,
        error: r.get(14)?,
    })
}

impl ProblemStore for SqliteStore {
    fn add_problems(&self, ps: &[ProblemRecord]) -> StoreResult<()> {
        let mut conn = self.lock();
        let tx = conn.transaction()?;
        {
            let mut st = tx.prepare_cached(&format!(
                "INSERT INTO problems ({COLUMNS}) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15)"
            ))?;
            for p in ps {
                st.execute(params![
                    p.id,
                    p.created_ms,
                    p.owner,
                    p.author,
                    p.origin,
                    p.title,
                    p.date,
                    p.stipulation,
                    p.conditions,
                    p.pieces,
                    p.input,
                    p.status.as_str(),
                    p.solution,
                    p.solve_ms,
                    p.error
                ])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    fn problem(&self, id: &str) -> StoreResult<Option<ProblemRecord>> {
        let conn = self.lock_read();
        Ok(conn.query_row(&format!("SELECT {COLUMNS} FROM problems WHERE id = ?1"), [id], read_sqlite).optional()?)
    }

    fn list_problems(&self, f: &ProblemFilter) -> StoreResult<Vec<ProblemRecord>> {
        let [c, s, p, t] = patterns(f);
        let conn = self.lock_read();
        let mut st = conn.prepare_cached(&format!(
            "SELECT {COLUMNS} FROM problems WHERE (?1 IS NULL OR lower(conditions) LIKE ?1 ESCAPE '\\') \
             AND (?2 IS NULL OR lower(stipulation) LIKE ?2 ESCAPE '\\') AND (?3 IS NULL OR lower(pieces) LIKE ?3 ESCAPE '\\') \
             AND (?4 IS NULL OR lower(author || ' ' || origin || ' ' || title || ' ' || input) LIKE ?4 ESCAPE '\\') \
             ORDER BY created_ms DESC, id LIMIT ?5"
        ))?;
        let rows = st.query_map(params![c, s, p, t, i64::from(f.limit.max(1))], read_sqlite)?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    fn next_queued(&self) -> StoreResult<Option<ProblemRecord>> {
        let conn = self.lock_read();
        Ok(conn
            .query_row(
                &format!("SELECT {COLUMNS} FROM problems WHERE status = 'queued' ORDER BY created_ms, id LIMIT 1"),
                [],
                read_sqlite,
            )
            .optional()?)
    }

    fn queued_count(&self) -> StoreResult<u64> {
        let conn = self.lock_read();
        let n: i64 = conn.query_row("SELECT count(*) FROM problems WHERE status = 'queued'", [], |r| r.get(0))?;
        Ok(n.max(0) as u64)
    }

    fn set_solution(
        &self,
        id: &str,
        status: SolveStatus,
        solution: &str,
        solve_ms: i64,
        error: &str,
    ) -> StoreResult<()> {
        let conn = self.lock();
        conn.execute(
            "UPDATE problems SET status = ?2, solution = ?3, solve_ms = ?4, error = ?5 WHERE id = ?1",
            params![id, status.as_str(), solution, solve_ms, error],
        )?;
        Ok(())
    }
}

fn read_pg(r: &tokio_postgres::Row) -> StoreResult<ProblemRecord> {
    let g = |i: usize| r.try_get::<_, String>(i).map_err(from_pg);
    let n = |i: usize| r.try_get::<_, i64>(i).map_err(from_pg);
    Ok(ProblemRecord {
        id: g(0)?,
        created_ms: n(1)?,
        owner: g(2)?,
        author: g(3)?,
        origin: g(4)?,
        title: g(5)?,
        date: g(6)?,
        stipulation: g(7)?,
        conditions: g(8)?,
        pieces: g(9)?,
        input: g(10)?,
        status: status_of(&g(11)?),
        solution: g(12)?,
        solve_ms: n(13)?,
        error: g(14)?,
    })
}

impl ProblemStore for PgStore {
    fn add_problems(&self, ps: &[ProblemRecord]) -> StoreResult<()> {
        let ps = ps.to_vec();
        self.with(move |mut c| async move {
            let tx = c.transaction().await.map_err(from_pg)?;
            let st = tx
                .prepare_cached(&format!(
                    "INSERT INTO problems ({COLUMNS}) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15)"
                ))
                .await
                .map_err(from_pg)?;
            for p in &ps {
                tx.execute(
                    &st,
                    &[
                        &p.id,
                        &p.created_ms,
                        &p.owner,
                        &p.author,
                        &p.origin,
                        &p.title,
                        &p.date,
                        &p.stipulation,
                        &p.conditions,
                        &p.pieces,
                        &p.input,
                        &p.status.as_str(),
                        &p.solution,
                        &p.solve_ms,
                        &p.error,
                    ],
                )
                .await
                .map_err(from_pg)?;
            }
            tx.commit().await.map_err(from_pg)
        })
    }

    fn problem(&self, id: &str) -> StoreResult<Option<ProblemRecord>> {
        let id = id.to_string();
        self.with(move |c| async move {
            let row =
                c.query_opt(&format!("SELECT {COLUMNS} FROM problems WHERE id = $1"), &[&id]).await.map_err(from_pg)?;
            row.as_ref().map(read_pg).transpose()
        })
    }

    fn list_problems(&self, f: &ProblemFilter) -> StoreResult<Vec<ProblemRecord>> {
        let [c1, s, p, t] = patterns(f);
        let limit = i64::from(f.limit.max(1));
        self.with(move |c| async move {
            let rows = c
                .query(
                    &format!(
                        "SELECT {COLUMNS} FROM problems WHERE ($1::text IS NULL OR lower(conditions) LIKE $1) \
                         AND ($2::text IS NULL OR lower(stipulation) LIKE $2) AND ($3::text IS NULL OR lower(pieces) LIKE $3) \
                         AND ($4::text IS NULL OR lower(author || ' ' || origin || ' ' || title || ' ' || input) LIKE $4) \
                         ORDER BY created_ms DESC, id LIMIT $5"
                    ),
                    &[&c1, &s, &p, &t, &limit],
                )
                .await
                .map_err(from_pg)?;
            rows.iter().map(read_pg).collect()
        })
    }

    fn next_queued(&self) -> StoreResult<Option<ProblemRecord>> {
        self.with(move |c| async move {
            let row = c
                .query_opt(
                    &format!("SELECT {COLUMNS} FROM problems WHERE status = 'queued' ORDER BY created_ms, id LIMIT 1"),
                    &[],
                )
                .await
                .map_err(from_pg)?;
            row.as_ref().map(read_pg).transpose()
        })
    }

    fn queued_count(&self) -> StoreResult<u64> {
        self.with(move |c| async move {
            let row =
                c.query_one("SELECT count(*) FROM problems WHERE status = 'queued'", &[]).await.map_err(from_pg)?;
            let n: i64 = row.try_get(0).map_err(from_pg)?;
            Ok(n.max(0) as u64)
        })
    }

    fn set_solution(
        &self,
        id: &str,
        status: SolveStatus,
        solution: &str,
        solve_ms: i64,
        error: &str,
    ) -> StoreResult<()> {
        let (id, solution, error) = (id.to_string(), solution.to_string(), error.to_string());
        self.with(move |c| async move {
            c.execute(
                "UPDATE problems SET status = $2, solution = $3, solve_ms = $4, error = $5 WHERE id = $1",
                &[&id, &status.as_str(), &solution, &solve_ms, &error],
            )
            .await
            .map_err(from_pg)?;
            Ok(())
        })
    }
}
