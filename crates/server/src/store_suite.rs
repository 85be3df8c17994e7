//! The store test suite: every test runs on both backends — SQLite on a real file, and
//! PostgreSQL on a real server, each test in a fresh database of its own.
//!
//! PostgreSQL: the server is the one of `CHIMERE_TEST_DATABASE_URL` (a `postgres://` URL of
//! a role allowed to create databases; `.ci/run` starts a throwaway cluster with
//! `.ci/pg-cluster` and sets it). Without it the PostgreSQL half fails under CI (`CI` set)
//! and is skipped, loudly, elsewhere. The fault test (the server stopped and started again)
//! starts a cluster of its own with `.ci/pg-cluster`, so it needs Debian's `postgresql`.
//! The helpers are `tests/support/pg.rs`, shared with the server tests.

use crate::store::{Append, Database, Fence, GameFilter, GameRecord, MIGRATIONS, MoveRecord, Store, StoreError, open};
use std::sync::Arc;

#[path = "../tests/support/pg.rs"]
mod pg;

/// Where one test keeps its store.
struct Backend {
    db: Database,
    /// SQLite: the database file's own directory, removed with the backend.
    _dir: Option<tempfile::TempDir>,
}

impl Backend {
    fn sqlite(name: &str) -> Option<Backend> {
        let dir = tempfile::Builder::new().prefix(&format!("chimere-store-{name}-")).tempdir().unwrap();
        let p = dir.path().join("chimere.db");
        Some(Backend { db: Database::Sqlite(p), _dir: Some(dir) })
    }

    fn postgres(name: &str) -> Option<Backend> {
        pg::test_database(name).map(|url| Backend { db: Database::Postgres(url), _dir: None })
    }

    fn open(&self) -> Arc<dyn Store> {
        open(&self.db).unwrap_or_else(|e| panic!("{}: {e}", self.db.describe()))
    }

    /// Marks the database as migrated by a newer program (one schema step more).
    fn bump_schema(&self) {
        let newer = MIGRATIONS.len() + 1;
        match &self.db {
            Database::Sqlite(p) => {
                let c = rusqlite::Connection::open(p).unwrap();
                c.pragma_update(None, "user_version", newer).unwrap();
            }
            Database::Postgres(url) => pg::execute(url, &format!("UPDATE chimere_schema SET version = {newer}")),
        }
    }
}

/// Each test, once on SQLite and once on PostgreSQL.
macro_rules! on_both_backends {
    ($($test:ident),* $(,)?) => {
        mod sqlite {
            $(#[test]
            fn $test() {
                if let Some(b) = super::Backend::sqlite(stringify!($test)) {
                    super::$test(b)
                }
            })*
        }
        mod postgres {
            $(#[test]
            fn $test() {
                if let Some(b) = super::Backend::postgres(stringify!($test)) {
                    super::$test(b)
                }
            })*
        }
    };
}

on_both_backends!(
    the_ply_guard_refuses_duplicates_and_stale_moves,
    a_group_keeps_each_moves_guard_and_stores_the_others,
    reopening_keeps_games_moves_and_the_secret,
    a_newer_schema_is_refused_with_a_clear_message,
    processes_starting_together_migrate_once,
    games_are_updated_and_listed_by_status_kind_and_variant,
    racing_writers_store_each_ply_exactly_once,
    problems_are_stored_all_or_none_filtered_and_solved,
);

/// The problems' collection (crate::problem_store): an import is stored whole or not at
/// all, filtered by condition, stipulation, piece and text, and solved by the queue's
/// calls; it survives reopening.
fn problems_are_stored_all_or_none_filtered_and_solved(b: Backend) {
    use crate::problem_store::{ProblemFilter, SolveStatus};
    let input = "BeginProblem\nAuthor Ann Composer\nCondition Circe\nPieces White Kd4 Bh8 Rg7 Black Ke1\n\
Stipulation #3\nOption NoBoard\nNextProblem\nCondition Hole e5\nPieces White Kf3 Pg5 Qh4 Black Kh6 Gg6\n\
Stipulation h=2\nOption NoBoard\nEndProblem\n";
    let (records, _) = crate::problems::read_import(input, "me", &crate::problems::LIMITS, 1_000).unwrap();
    let s = b.open();
    // A duplicate id in the group: nothing of it is stored.
    let mut bad = records.clone();
    bad[1].id = bad[0].id.clone();
    assert!(s.add_problems(&bad).is_err());
    assert_eq!(s.list_problems(&ProblemFilter { limit: 10, ..Default::default() }).unwrap().len(), 0);
    s.add_problems(&records).unwrap();
    let find = |f: ProblemFilter| -> Vec<String> {
        s.list_problems(&ProblemFilter { limit: 10, ..f }).unwrap().into_iter().map(|r| r.stipulation).collect()
    };
    assert_eq!(find(ProblemFilter { condition: Some("circe".into()), ..Default::default() }), vec!["#3"]);
    assert_eq!(find(ProblemFilter { condition: Some("HOLE".into()), ..Default::default() }), vec!["h=2"]);
    assert_eq!(find(ProblemFilter { stipulation: Some("h=".into()), ..Default::default() }), vec!["h=2"]);
    assert_eq!(find(ProblemFilter { piece: Some("g".into()), ..Default::default() }), vec!["h=2"]);
    assert_eq!(find(ProblemFilter { text: Some("ann comp".into()), ..Default::default() }), vec!["#3"]);
    assert_eq!(find(ProblemFilter { text: Some("100%".into()), ..Default::default() }), Vec::<String>::new());
    assert_eq!(s.queued_count().unwrap(), 2);
    let first = s.next_queued().unwrap().unwrap();
    let (status, text, ms, err) = crate::problems::solve_record(&first.input, &crate::problems::LIMITS);
    s.set_solution(&first.id, status, &text, ms, &err).unwrap();
    assert_eq!(s.queued_count().unwrap(), 1);
    drop(s);
    let s = b.open();
    let again = s.problem(&first.id).unwrap().unwrap();
    assert_eq!(again.status, SolveStatus::Solved);
    assert!(again.solution.contains("solution finished"), "{}", again.solution);
    assert_eq!(again.input, first.input);
}

fn game(id: &str) -> GameRecord {
    GameRecord {
        id: id.into(),
        variant: "chess".into(),
        setup: "{}".into(),
        start_fen: "x".into(),
        kind: "seek".into(),
        status: "playing".into(),
        result: "*".into(),
        ..GameRecord::default()
    }
}

fn mv(ply: u32, uci: &str) -> MoveRecord {
    MoveRecord {
        ply,
        uci: uci.into(),
        canonical: uci.into(),
        notation: uci.into(),
        white_ms: 1000 + i64::from(ply),
        black_ms: 2000 + i64::from(ply),
        at_ms: 3,
    }
}

fn ucis(s: &dyn Store, id: &str) -> Vec<String> {
    s.moves(id).unwrap().into_iter().map(|m| m.uci).collect()
}

fn the_ply_guard_refuses_duplicates_and_stale_moves(b: Backend) {
    let s = b.open();
    s.create_game(&game("g")).unwrap();
    s.append_move("g", 0, &mv(1, "e2e4"), Fence::Alone).unwrap();
    // The same move again (still believing the game at ply 0) is refused.
    assert!(matches!(
        s.append_move("g", 0, &mv(1, "e2e4"), Fence::Alone),
        Err(StoreError::Conflict { expected: 0, actual: 1 })
    ));
    s.append_move("g", 1, &mv(2, "e7e5"), Fence::Alone).unwrap();
    assert!(matches!(s.append_move("g", 5, &mv(6, "x"), Fence::Alone), Err(StoreError::Conflict { .. })));
    assert_eq!(ucis(s.as_ref(), "g"), ["e2e4", "e7e5"]);
    let stored = s.moves("g").unwrap();
    assert_eq!(stored[1], mv(2, "e7e5"));
    let g = s.game("g").unwrap().unwrap();
    assert_eq!((g.ply, g.white_ms, g.black_ms), (2, 1002, 2002));
    // Takeback: guarded by the ply too.
    assert!(matches!(
        s.truncate("g", 1, 0, (5, 6), Fence::Alone),
        Err(StoreError::Conflict { expected: 1, actual: 2 })
    ));
    s.truncate("g", 2, 1, (5, 6), Fence::Alone).unwrap();
    assert_eq!(ucis(s.as_ref(), "g"), ["e2e4"]);
    let g = s.game("g").unwrap().unwrap();
    assert_eq!((g.ply, g.white_ms, g.black_ms), (1, 5, 6));
    // The ply freed by the takeback takes a new move.
    s.append_move("g", 1, &mv(2, "c7c5"), Fence::Alone).unwrap();
    assert_eq!(ucis(s.as_ref(), "g"), ["e2e4", "c7c5"]);
    assert!(matches!(s.append_move("nope", 0, &mv(1, "a"), Fence::Alone), Err(StoreError::NotFound(_))));
    assert!(matches!(s.truncate("nope", 0, 0, (0, 0), Fence::Alone), Err(StoreError::NotFound(_))));
    assert!(s.game("nope").unwrap().is_none());
    assert!(s.moves("nope").unwrap().is_empty());
    // A game id taken twice is refused, and the first game is untouched.
    assert!(s.create_game(&game("g")).is_err());
    assert_eq!(s.game("g").unwrap().unwrap().ply, 2);
}

fn a_group_keeps_each_moves_guard_and_stores_the_others(b: Backend) {
    let s = b.open();
    s.create_game(&game("a")).unwrap();
    s.create_game(&game("b")).unwrap();
    let ap = |g: &str, ply: u32, uci: &str| Append {
        game: g.into(),
        expected_ply: ply,
        rec: mv(ply + 1, uci),
        fence: Fence::Alone,
    };
    let results = s.append_moves(&[
        ap("a", 0, "e2e4"),
        ap("b", 0, "d2d4"),
        ap("a", 0, "e2e4"), // duplicate: refused, the rest goes on
        ap("a", 1, "e7e5"),
        ap("zz", 0, "a2a3"), // no such game
        ap("b", 3, "x"),     // stale
    ]);
    assert!(results[0].is_ok() && results[1].is_ok() && results[3].is_ok(), "{results:?}");
    assert!(matches!(results[2], Err(StoreError::Conflict { expected: 0, actual: 1 })));
    assert!(matches!(results[4], Err(StoreError::NotFound(_))));
    assert!(matches!(results[5], Err(StoreError::Conflict { expected: 3, actual: 1 })));
    assert!(s.append_moves(&[]).is_empty());
    // Committed: a fresh store sees them.
    drop(s);
    let s = b.open();
    assert_eq!(ucis(s.as_ref(), "a"), ["e2e4", "e7e5"]);
    assert_eq!(ucis(s.as_ref(), "b"), ["d2d4"]);
    assert_eq!(s.game("a").unwrap().unwrap().ply, 2);
    assert_eq!(s.game("b").unwrap().unwrap().ply, 1);
}

fn reopening_keeps_games_moves_and_the_secret(b: Backend) {
    let secret = {
        let s = b.open();
        s.create_game(&game("a")).unwrap();
        s.append_move("a", 0, &mv(1, "e2e4"), Fence::Alone).unwrap();
        s.set_player_name("p1", "Ann").unwrap();
        s.set_player_name("p1", "Anne").unwrap();
        let secret = s.secret().unwrap();
        assert_eq!(secret.len(), 32);
        assert_eq!(s.secret().unwrap(), secret);
        secret
    };
    let s = b.open();
    assert_eq!(s.secret().unwrap(), secret);
    assert_eq!(s.moves("a").unwrap().len(), 1);
    assert_eq!(s.player_name("p1").unwrap().as_deref(), Some("Anne"));
    assert_eq!(s.player_name("p2").unwrap(), None);
    let list =
        s.list_games(&GameFilter { statuses: vec!["playing".into()], limit: 10, ..GameFilter::default() }).unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0], GameRecord { ply: 1, white_ms: 1001, black_ms: 2001, updated_ms: 3, ..game("a") });
}

fn a_newer_schema_is_refused_with_a_clear_message(b: Backend) {
    let s = b.open();
    s.create_game(&game("a")).unwrap();
    drop(s);
    b.bump_schema();
    let known = MIGRATIONS.len();
    match open(&b.db) {
        Err(e @ StoreError::NewerSchema { found, known: k }) => {
            assert_eq!((found, k), (known + 1, known));
            let msg = e.to_string();
            assert!(msg.contains("newer than this program") && msg.contains("run a newer chimere"), "{msg}");
        }
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("a database of a newer schema was opened"),
    }
}

fn processes_starting_together_migrate_once(b: Backend) {
    // Several stores opening a new database at once (as several server processes would):
    // each migrates or waits for the one migrating, and all then work on the same tables.
    let stores: Vec<Arc<dyn Store>> = std::thread::scope(|scope| {
        let opening: Vec<_> = (0..3).map(|_| scope.spawn(|| b.open())).collect();
        opening.into_iter().map(|t| t.join().unwrap()).collect()
    });
    stores[0].create_game(&game("a")).unwrap();
    stores[1].append_move("a", 0, &mv(1, "e2e4"), Fence::Alone).unwrap();
    assert_eq!(ucis(stores[2].as_ref(), "a"), ["e2e4"]);
    // One secret for all of them (the first to ask creates it).
    let secrets: Vec<Vec<u8>> = stores.iter().map(|s| s.secret().unwrap()).collect();
    assert!(secrets.iter().all(|s| *s == secrets[0]));
}

fn games_are_updated_and_listed_by_status_kind_and_variant(b: Backend) {
    let s = b.open();
    for (i, (id, status, kind, variant)) in [
        ("a", "playing", "seek", "chess"),
        ("b", "waiting", "seek", "chess"),
        ("c", "finished", "computer", "fugue"),
        ("d", "playing", "private", "fugue"),
    ]
    .into_iter()
    .enumerate()
    {
        let g = GameRecord {
            status: status.into(),
            kind: kind.into(),
            variant: variant.into(),
            // Ann plays white in the first two, black in the last.
            white: (i < 2).then(|| "ann".to_string()),
            black: (i == 3).then(|| "ann".to_string()),
            updated_ms: i as i64,
            initial_ms: (i % 2 == 0).then_some(60_000),
            ..game(id)
        };
        s.create_game(&g).unwrap();
        assert_eq!(s.game(id).unwrap().unwrap(), g);
    }
    let ids = |f: GameFilter| s.list_games(&f).unwrap().into_iter().map(|g| g.id).collect::<Vec<_>>();
    let all = GameFilter { limit: 100, ..GameFilter::default() };
    // Newest first.
    assert_eq!(ids(all.clone()), ["d", "c", "b", "a"]);
    assert_eq!(ids(GameFilter { limit: 2, ..all.clone() }), ["d", "c"]);
    assert_eq!(ids(GameFilter { statuses: vec!["playing".into(), "waiting".into()], ..all.clone() }), ["d", "b", "a"]);
    assert_eq!(ids(GameFilter { kind: Some("seek".into()), ..all.clone() }), ["b", "a"]);
    assert_eq!(ids(GameFilter { variant: Some("fugue".into()), ..all.clone() }), ["d", "c"]);
    assert_eq!(ids(GameFilter { player: Some("ann".into()), ..all.clone() }), ["d", "b", "a"]);
    assert!(ids(GameFilter { player: Some("bob".into()), ..all.clone() }).is_empty());
    assert_eq!(
        ids(GameFilter { statuses: vec!["playing".into()], variant: Some("fugue".into()), ..all.clone() }),
        ["d"]
    );
    // Everything but the ply and the moves is updated.
    let mut a = s.game("a").unwrap().unwrap();
    a.black = Some("p2".into());
    a.black_name = Some("Bea".into());
    a.status = "finished".into();
    a.result = "1-0".into();
    a.reason = "resign".into();
    a.rematch = Some("e".into());
    a.updated_ms = 99;
    a.ply = 7; // not stored by update_game
    s.update_game(&a, Fence::Alone).unwrap();
    let stored = s.game("a").unwrap().unwrap();
    assert_eq!(stored, GameRecord { ply: 0, ..a });
    assert_eq!(ids(GameFilter { statuses: vec!["finished".into()], ..all }), ["a", "c"]);
    assert!(matches!(s.update_game(&game("zz"), Fence::Alone), Err(StoreError::NotFound(_))));
}

fn racing_writers_store_each_ply_exactly_once(b: Backend) {
    // Four writers (threads, or processes sharing a PostgreSQL server) race for every ply
    // of one game: each ply is stored once, by exactly one of them.
    let stores: Vec<Arc<dyn Store>> = (0..2).map(|_| b.open()).collect();
    stores[0].create_game(&game("g")).unwrap();
    const PLIES: u32 = 30;
    let wins: Vec<Vec<u32>> = std::thread::scope(|scope| {
        let racers: Vec<_> = (0..4)
            .map(|w| {
                let s = stores[w % 2].clone();
                scope.spawn(move || {
                    let mut won = Vec::new();
                    loop {
                        let ply = s.game("g").unwrap().unwrap().ply;
                        if ply >= PLIES {
                            return won;
                        }
                        match s.append_move("g", ply, &mv(ply + 1, &format!("w{w}p{ply}")), Fence::Alone) {
                            Ok(()) => won.push(ply + 1),
                            Err(StoreError::Conflict { .. }) => {}
                            Err(e) => panic!("{e}"),
                        }
                    }
                })
            })
            .collect();
        racers.into_iter().map(|t| t.join().unwrap()).collect()
    });
    let mut all: Vec<u32> = wins.concat();
    all.sort_unstable();
    assert_eq!(all, (1..=PLIES).collect::<Vec<_>>());
    let stored = stores[1].moves("g").unwrap();
    assert_eq!(stored.iter().map(|m| m.ply).collect::<Vec<_>>(), (1..=PLIES).collect::<Vec<_>>());
    // Each stored move is the one its winner sent for that ply.
    for m in &stored {
        assert!(m.uci.ends_with(&format!("p{}", m.ply - 1)), "{m:?}");
    }
}

#[test]
fn postgres_going_away_refuses_moves_with_try_again_and_writes_nothing_half() {
    let Some(cluster) = pg::Cluster::start("fault") else { return };
    let s = open(&Database::Postgres(cluster.url.clone())).unwrap();
    s.create_game(&game("a")).unwrap();
    s.create_game(&game("b")).unwrap();
    s.append_move("a", 0, &mv(1, "e2e4"), Fence::Alone).unwrap();
    cluster.stop();
    let started = std::time::Instant::now();
    let refused = s.append_move("a", 1, &mv(2, "e7e5"), Fence::Alone);
    match &refused {
        Err(e @ StoreError::Unavailable(_)) => assert!(e.to_string().contains("try again"), "{e}"),
        other => panic!("a move while the database is down: {other:?}"),
    }
    let group = s.append_moves(&[
        Append { game: "a".into(), expected_ply: 1, rec: mv(2, "e7e5"), fence: Fence::Alone },
        Append { game: "b".into(), expected_ply: 0, rec: mv(1, "d2d4"), fence: Fence::Alone },
    ]);
    assert!(group.iter().all(|r| matches!(r, Err(StoreError::Unavailable(_)))), "{group:?}");
    assert!(matches!(s.game("a"), Err(StoreError::Unavailable(_))));
    // Refused promptly (the pool's connect timeout), not after a hang.
    assert!(started.elapsed() < std::time::Duration::from_secs(12), "{:?}", started.elapsed());
    cluster.restart();
    // The same store, with no restart of its own, works again; nothing was half-written:
    // every game is at the ply it had, and the refused moves are accepted now, once.
    assert_eq!(s.game("a").unwrap().unwrap().ply, 1);
    assert_eq!(s.game("b").unwrap().unwrap().ply, 0);
    let group = s.append_moves(&[
        Append { game: "a".into(), expected_ply: 1, rec: mv(2, "e7e5"), fence: Fence::Alone },
        Append { game: "b".into(), expected_ply: 0, rec: mv(1, "d2d4"), fence: Fence::Alone },
    ]);
    assert!(group.iter().all(Result::is_ok), "{group:?}");
    assert!(matches!(
        s.append_move("a", 1, &mv(2, "e7e5"), Fence::Alone),
        Err(StoreError::Conflict { expected: 1, actual: 2 })
    ));
    assert_eq!(ucis(s.as_ref(), "a"), ["e2e4", "e7e5"]);
    assert_eq!(ucis(s.as_ref(), "b"), ["d2d4"]);
}

#[test]
fn a_bad_postgres_url_or_an_unreachable_server_is_a_clear_error() {
    let e = crate::store_pg::PgStore::open("postgres://a:b@127.0.0.1:notaport/x").err().unwrap();
    let msg = e.to_string();
    assert!(msg.contains("not a PostgreSQL URL") && !msg.contains(":b@"), "{msg}");
    // Port 1 on this machine: nothing listens.
    let e = crate::store_pg::PgStore::open("postgres://a:secret@127.0.0.1:1/x").err().unwrap();
    assert!(matches!(e, StoreError::Unavailable(_)), "{e:?}");
    assert!(!e.to_string().contains("secret"), "{e}");
}
