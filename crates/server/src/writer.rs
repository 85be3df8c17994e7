//! The moves' writer: one thread that appends the moves of every live game to the store in
//! groups (group commit).
//!
//! A room hands its move to [`MoveWriter::append`] and waits (asynchronously, holding only
//! its own room's lock) for the answer. The thread takes every move waiting in its queue,
//! up to [`MAX_GROUP`], and stores them with one [`Store::append_moves`] call — one
//! transaction, one commit, for many games; each move keeps its own ply guard and its own
//! answer. A move is answered only once the transaction holding it has committed, so the
//! room broadcasts nothing that is not stored. No waiting is added to gather a group: while
//! one commit runs, the moves that arrive meanwhile form the next group, so a quiet server
//! commits each move alone and a busy one commits fewer, larger groups.
//!
//! Running on its own thread, the store's blocking calls never hold up the async runtime's
//! worker threads. The writer knows only the [`Store`] trait: any store can sit behind it.

use crate::store::{Append, Fence, GameRecord, Store, StoreError, StoreResult};
use std::sync::Arc;
use std::sync::mpsc;
use tokio::sync::oneshot;

/// Most moves stored in one transaction.
pub const MAX_GROUP: usize = 512;

/// A write other than a move: a game's record, a takeback (each under the fence of the
/// room that writes it), a new game. Run by the same thread in arrival order, so a game's
/// writes are never reordered and no async worker waits on the database.
pub enum Other {
    Update(GameRecord, Fence),
    Create(GameRecord),
    Truncate { game: String, expected_ply: u32, new_ply: u32, clocks: (i64, i64), fence: Fence },
}

enum Job {
    Append {
        append: Append,
        reply: oneshot::Sender<StoreResult<Append>>,
    },
    Other {
        write: Box<Other>,
        reply: oneshot::Sender<StoreResult<()>>,
    },
    /// Answered once every write queued before it is done.
    Flush(oneshot::Sender<()>),
    /// As `Flush`, then the thread stops: later writes are refused.
    Close(oneshot::Sender<()>),
}

/// The handle to the writer thread (the thread stops when the last handle is dropped).
pub struct MoveWriter {
    jobs: mpsc::Sender<Job>,
}

impl MoveWriter {
    /// Starts the writer thread over `store`.
    pub fn start(store: Arc<dyn Store>) -> Result<MoveWriter, String> {
        let (jobs, queue) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("chimere-writer".into())
            .spawn(move || run(store.as_ref(), &queue))
            .map_err(|e| format!("cannot start the writer thread: {e}"))?;
        Ok(MoveWriter { jobs })
    }

    /// Stores `append` (in the next group) and answers once it is committed, handing the
    /// move back.
    pub async fn append(&self, append: Append) -> StoreResult<Append> {
        let (reply, answer) = oneshot::channel();
        self.jobs.send(Job::Append { append, reply }).map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }

    /// Runs `write` on the writer thread, after every write queued before it.
    pub async fn write(&self, write: Other) -> StoreResult<()> {
        let (reply, answer) = oneshot::channel();
        self.jobs.send(Job::Other { write: Box::new(write), reply }).map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }

    /// Waits until every write queued so far is done.
    pub async fn flush(&self) {
        let (reply, answer) = oneshot::channel();
        if self.jobs.send(Job::Flush(reply)).is_ok() {
            let _ = answer.await;
        }
    }

    /// The clean stop: waits until every write queued so far is done, and stops the
    /// thread; a write asked for later fails (`the writer thread has stopped`), so that
    /// nothing is stored after the store is closed.
    pub async fn close(&self) {
        let (reply, answer) = oneshot::channel();
        if self.jobs.send(Job::Close(reply)).is_ok() {
            let _ = answer.await;
        }
    }
}

fn stopped() -> StoreError {
    StoreError::Db("the writer thread has stopped".into())
}

fn run(store: &dyn Store, queue: &mpsc::Receiver<Job>) {
    let mut appends = Vec::with_capacity(MAX_GROUP);
    let mut replies = Vec::with_capacity(MAX_GROUP);
    let mut held: Option<Job> = None;
    loop {
        let first = match held.take() {
            Some(j) => j,
            None => match queue.recv() {
                Ok(j) => j,
                Err(_) => return,
            },
        };
        let mut next = Some(first);
        // Moves in a row form one group; another write ends the group and runs after it.
        while let Some(job) = next {
            match job {
                Job::Append { append, reply } => {
                    appends.push(append);
                    replies.push(reply);
                }
                other => {
                    held = Some(other);
                    break;
                }
            }
            next = if appends.len() < MAX_GROUP { queue.try_recv().ok() } else { None };
        }
        if !appends.is_empty() {
            let results = store.append_moves(&appends);
            for ((reply, result), append) in replies.drain(..).zip(results).zip(appends.drain(..)) {
                // A room that stopped waiting (its connection closed) needs no answer.
                let _ = reply.send(result.map(|()| append));
            }
        }
        match held.take() {
            Some(Job::Other { write, reply }) => {
                let r = match *write {
                    Other::Update(g, fence) => store.update_game(&g, fence),
                    Other::Create(g) => store.create_game(&g),
                    Other::Truncate { game, expected_ply, new_ply, clocks, fence } => {
                        store.truncate(&game, expected_ply, new_ply, clocks, fence)
                    }
                };
                let _ = reply.send(r);
            }
            Some(Job::Flush(reply)) => {
                let _ = reply.send(());
            }
            Some(Job::Close(reply)) => {
                let _ = reply.send(());
                return;
            }
            Some(j @ Job::Append { .. }) => held = Some(j),
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{MoveRecord, SqliteStore};

    fn mv(ply: u32) -> MoveRecord {
        MoveRecord {
            ply,
            uci: format!("m{ply}"),
            canonical: format!("m{ply}"),
            notation: format!("m{ply}"),
            white_ms: 0,
            black_ms: 0,
            at_ms: 0,
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn concurrent_games_are_stored_in_groups_each_under_its_ply_guard() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("chimere.db");
        let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&path).unwrap());
        let games: Vec<String> = (0..50).map(|i| format!("g{i}")).collect();
        for g in &games {
            store
                .create_game(&GameRecord {
                    id: g.clone(),
                    variant: "chess".into(),
                    status: "playing".into(),
                    ..GameRecord::default()
                })
                .unwrap();
        }
        let writer = Arc::new(MoveWriter::start(store.clone()).unwrap());
        let mut tasks = Vec::new();
        for g in games.clone() {
            let w = writer.clone();
            tasks.push(tokio::spawn(async move {
                for ply in 0..10u32 {
                    let back = w.append(Append { game: g.clone(), expected_ply: ply, rec: mv(ply + 1), fence: Fence::Alone }).await.unwrap();
                    assert_eq!(back.rec, mv(ply + 1));
                    // The same move again is refused (stale), and nothing is written for it.
                    let again = w.append(Append { game: g.clone(), expected_ply: ply, rec: mv(ply + 1), fence: Fence::Alone }).await;
                    assert!(matches!(again, Err(StoreError::Conflict { expected, actual }) if expected == ply && actual == ply + 1));
                }
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        for g in &games {
            let moves = store.moves(g).unwrap();
            assert_eq!(moves.iter().map(|m| m.ply).collect::<Vec<_>>(), (1..=10).collect::<Vec<_>>());
            assert_eq!(store.game(g).unwrap().unwrap().ply, 10);
        }
        let unknown =
            writer.append(Append { game: "nope".into(), expected_ply: 0, rec: mv(1), fence: Fence::Alone }).await;
        assert!(matches!(unknown, Err(StoreError::NotFound(_))));
    }
}
