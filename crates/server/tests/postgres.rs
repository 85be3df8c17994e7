//! The server on PostgreSQL, as a real `chimere-server` process against a real cluster of
//! this test's own (`.ci/pg-cluster`): a game played over WebSocket; the database stopped
//! for a few seconds mid-game (moves refused with "try again", nothing half-written, the
//! same move accepted once the database is back); the process killed with SIGKILL and
//! started again (every accepted move still there, once). Needs Debian's `postgresql`:
//! without it the test fails under CI and is skipped, loudly, elsewhere.

#[path = "support/pg.rs"]
mod pg;
#[path = "support/process.rs"]
mod process;

use chimere_server::client::{self, Live};
use process::{ServerProcess, free_port, wait_up};
use serde_json::{Value, json};

async fn seated(addr: &str) -> (String, Live, Live, String, String) {
    let wc = client::identity(addr).await.unwrap();
    let bc = client::identity(addr).await.unwrap();
    let body = json!({"variant": "chess", "opponent": "private", "colour": "white", "minutes": 10, "increment": 0});
    let a = client::http(addr, "POST", "/api/games", Some(&wc), &body.to_string()).await.unwrap();
    assert_eq!(a.status, 200, "{}", a.body);
    let id = a.json()["id"].as_str().unwrap().to_string();
    let mut white = Live::connect(addr, &id, Some(&wc)).await.unwrap();
    white.recv_within(5000).await.unwrap();
    let mut black = Live::connect(addr, &id, Some(&bc)).await.unwrap();
    black.recv_within(5000).await.unwrap();
    black.send(&json!({"t": "join"})).await.unwrap();
    black.until(5000, |v| v["t"] == "state" && v["you"] == "black" && v["status"] == "playing").await.unwrap();
    white.until(5000, |v| v["t"] == "state" && v["status"] == "playing").await.unwrap();
    (id, white, black, wc, bc)
}

/// Sends the `n`-th legal turn at `ply` and returns the answer (the move or an error).
async fn play(p: &mut Live, ply: usize, legal: &[Value], n: usize) -> Value {
    let t = legal[n % legal.len()]["uci"].as_str().unwrap().to_string();
    p.send(&json!({"t": "move", "ply": ply, "turn": t})).await.unwrap();
    p.until(15_000, |v| (v["t"] == "move" && v["ply"] == ply + 1) || v["t"] == "error").await.unwrap()
}

/// The moves stored in PostgreSQL for `game`, in order.
fn stored(url: &str, game: &str) -> Vec<String> {
    pg::query_text(url, &format!("SELECT canonical FROM moves WHERE game_id = '{game}' ORDER BY ply"))
        .into_iter()
        .map(|r| r[0].clone().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_a_game_survives_the_database_going_away_and_kill_9() {
    let Some(cluster) = pg::Cluster::start("server") else { return };
    let addr = format!("127.0.0.1:{}", free_port());
    let mut server = ServerProcess::spawn(&cluster.url, &addr);
    wait_up(&addr).await;
    let (id, mut white, mut black, wc, bc) = seated(&addr).await;
    let mut spectator = Live::connect(&addr, &id, None).await.unwrap();
    let first = spectator.recv_within(5000).await.unwrap();
    let mut legal = first["legal"].as_array().unwrap().clone();
    let mut accepted: Vec<String> = Vec::new();
    for ply in 0..4 {
        let p = if ply % 2 == 0 { &mut white } else { &mut black };
        let m = play(p, ply, &legal, ply * 7).await;
        assert_eq!(m["t"], "move", "{m}");
        accepted.push(m["move"]["canonical"].as_str().unwrap().to_string());
        legal = m["legal"].as_array().unwrap().clone();
        spectator.until(5000, |v| v["t"] == "move" && v["ply"] == ply + 1).await.unwrap();
    }
    assert_eq!(stored(&cluster.url, &id), accepted);

    // The database goes away: the move is refused with "try again", and nothing is stored.
    cluster.stop();
    let refused = play(&mut white, 4, &legal, 3).await;
    assert_eq!(refused["t"], "error", "{refused}");
    let msg = refused["message"].as_str().unwrap();
    assert!(msg.contains("try again"), "{msg}");
    // The spectator saw no move; the refusal went to the mover alone.
    assert!(spectator.until(300, |v| v["t"] == "move" || v["t"] == "error").await.is_err());
    assert!(black.until(100, |v| v["t"] == "error").await.is_err(), "the opponent is not told of the refusal");
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    cluster.restart();
    // Back: the same move at the same ply is accepted, once, and seen by the spectator.
    let m = play(&mut white, 4, &legal, 3).await;
    assert_eq!(m["t"], "move", "{m}");
    accepted.push(m["move"]["canonical"].as_str().unwrap().to_string());
    let seen = spectator.until(5000, |v| v["t"] == "move").await.unwrap();
    assert_eq!(seen["ply"], 5);
    let again = play(&mut white, 4, &legal, 3).await;
    assert_eq!(again["t"], "error", "a replayed ply is refused: {again}");
    assert_eq!(stored(&cluster.url, &id), accepted);
    legal = m["legal"].as_array().unwrap().clone();
    let m = play(&mut black, 5, &legal, 1).await;
    assert_eq!(m["t"], "move", "{m}");
    accepted.push(m["move"]["canonical"].as_str().unwrap().to_string());
    let clock_before = m["clock"].clone();

    // kill -9 of the server as soon as the move is acknowledged: nothing is lost.
    server.kill_9();
    drop((white, black, spectator));
    let mut server = ServerProcess::spawn(&cluster.url, &addr);
    wait_up(&addr).await;
    let mut white = Live::connect(&addr, &id, Some(&wc)).await.unwrap();
    // The killed process's lease on the game runs out first (a few seconds).
    let s = white.recv_within(10_000).await.unwrap();
    let moves: Vec<&str> = s["moves"].as_array().unwrap().iter().map(|m| m["canonical"].as_str().unwrap()).collect();
    assert_eq!(moves, accepted, "every accepted move is still there, once");
    assert_eq!(s["ply"], 6);
    assert_eq!(s["clock"]["black_ms"], clock_before["black_ms"]);
    let mut black = Live::connect(&addr, &id, Some(&bc)).await.unwrap();
    black.recv_within(5000).await.unwrap();
    let legal = s["legal"].as_array().unwrap().clone();
    let m = play(&mut white, 6, &legal, 0).await;
    assert_eq!(m["t"], "move", "{m}");
    accepted.push(m["move"]["canonical"].as_str().unwrap().to_string());
    assert_eq!(black.until(5000, |v| v["t"] == "move").await.unwrap()["ply"], 7);
    assert_eq!(stored(&cluster.url, &id), accepted);
    server.kill_9();
}

#[test]
fn a_server_started_against_a_newer_schema_refuses_with_a_clear_message() {
    let Some(url) = pg::test_database("newer") else { return };
    // A first start creates the schema; then a newer program "migrates" it one step further.
    let addr = format!("127.0.0.1:{}", free_port());
    let mut server = ServerProcess::spawn(&url, &addr);
    tokio::runtime::Runtime::new().unwrap().block_on(wait_up(&addr));
    server.kill_9();
    pg::execute(&url, "UPDATE chimere_schema SET version = version + 1");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chimere-server"))
        .args(["--db", &url, "--listen", &format!("127.0.0.1:{}", free_port())])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("newer than this program") && err.contains("run a newer chimere"), "{err}");
    // And a SQLite file the same.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("chimere.db");
    rusqlite::Connection::open(&db).unwrap().pragma_update(None, "user_version", 99).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chimere-server"))
        .args(["--db", db.to_str().unwrap(), "--listen", "127.0.0.1:0"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("schema version 99, newer than this program"), "{err}");
}

/// Fencing: two processes of one site (two `Cluster`s, each with its own id) and the
/// store. A takes a game's lease and writes; A's lease runs out (A paused, say) and B takes
/// the game (a new epoch) and writes its state; A's delayed writes — the record, a move, a
/// takeback — are refused (`Fenced`) and nothing of B's state changes. Then the lock
/// modes: a write holding the lease row (`FOR KEY SHARE`) does not hold up the owner's
/// renewal but holds up a takeover until it commits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_owner_that_lost_the_lease_has_its_writes_refused() {
    use chimere_server::cluster::{Cluster, Lease};
    use chimere_server::store::{Fence, GameRecord, MoveRecord, Store, StoreError};
    use chimere_server::store_pg::PgStore;
    let Some(url) = pg::test_database("fencing") else { return };
    let store = PgStore::open(&url).unwrap();
    let (a, _a_in) = Cluster::start(&url).await.unwrap();
    let (b, _b_in) = Cluster::start(&url).await.unwrap();
    let rec = GameRecord {
        id: "g".into(),
        variant: "chess".into(),
        setup: "{}".into(),
        start_fen: "x".into(),
        kind: "seek".into(),
        status: "playing".into(),
        result: "*".into(),
        white_ms: 60_000,
        black_ms: 60_000,
        ..GameRecord::default()
    };
    store.create_game(&rec).unwrap();
    let mv = |ply: u32, uci: &str| MoveRecord {
        ply,
        uci: uci.into(),
        canonical: uci.into(),
        notation: uci.into(),
        white_ms: 60_000 - i64::from(ply),
        black_ms: 60_000,
        at_ms: i64::from(ply),
    };
    let Lease::Ours(fa) = a.acquire("g").await.unwrap() else { panic!("A did not get the free lease") };
    assert!(matches!(fa, Fence::Epoch(_)));
    // Taken again by its owner: the same epoch (its room's writes still hold).
    assert_eq!(a.acquire("g").await.unwrap(), Lease::Ours(fa));
    store.append_move("g", 0, &mv(1, "e2e4"), fa).unwrap();
    let offered = GameRecord { reason: "draw offered".into(), ..rec.clone() };
    store.update_game(&offered, fa).unwrap();

    // A's lease runs out; B takes the game.
    pg::execute(&url, "UPDATE chimere_leases SET expires = now() - interval '1 second'");
    let Lease::Ours(fb) = b.acquire("g").await.unwrap() else { panic!("B did not get the expired lease") };
    let (Fence::Epoch(ea), Fence::Epoch(eb)) = (fa, fb) else { unreachable!() };
    assert!(eb > ea, "the epoch grows as the lease changes hands ({ea} then {eb})");
    assert!(matches!(a.acquire("g").await.unwrap(), Lease::Theirs(_)));
    assert!(!a.confirm("g", fa).await, "A's lease is gone");
    store.append_move("g", 1, &mv(2, "e7e5"), fb).unwrap();
    let won =
        GameRecord { status: "finished".into(), result: "1-0".into(), reason: "resignation".into(), ..rec.clone() };
    store.update_game(&won, fb).unwrap();
    let before = (store.game("g").unwrap().unwrap(), store.moves("g").unwrap());

    // A's delayed writes: every one refused, none changing anything.
    let aborted = GameRecord { status: "aborted".into(), result: "*".into(), reason: "abort".into(), ..rec.clone() };
    assert!(matches!(store.update_game(&aborted, fa), Err(StoreError::Fenced(_))));
    assert!(matches!(store.append_move("g", 2, &mv(3, "g1f3"), fa), Err(StoreError::Fenced(_))));
    let group = store.append_moves(&[chimere_server::store::Append {
        game: "g".into(),
        expected_ply: 2,
        rec: mv(3, "g1f3"),
        fence: fa,
    }]);
    assert!(matches!(group[..], [Err(StoreError::Fenced(_))]), "{group:?}");
    assert!(matches!(store.truncate("g", 2, 0, (1, 1), fa), Err(StoreError::Fenced(_))));
    assert_eq!((store.game("g").unwrap().unwrap(), store.moves("g").unwrap()), before);
    assert_eq!(before.0.status, "finished");
    assert_eq!(before.1.len(), 2);
    // The new owner's fence holds (and a game not there is still "not found").
    assert!(b.confirm("g", fb).await);
    assert!(matches!(
        store.update_game(&GameRecord { id: "zz".into(), ..won.clone() }, fb),
        Err(StoreError::NotFound(_))
    ));

    // Lock modes. B holds the lease row as its writes do, in an open transaction.
    let (mut raw, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(conn);
    let tx = raw.transaction().await.unwrap();
    let held =
        tx.query("SELECT 1 FROM chimere_leases WHERE game = 'g' AND epoch = $1 FOR KEY SHARE", &[&eb]).await.unwrap();
    assert_eq!(held.len(), 1);
    // B's renewal is not held up by it.
    let renewed = tokio::time::timeout(std::time::Duration::from_secs(2), b.renew("")).await;
    assert!(renewed.is_ok_and(|r| r.unwrap() == ["g"]), "a renewal waited for a write");
    // A takeover (the lease made expired, A taking it) waits for the write to commit.
    pg::execute(&url, "UPDATE chimere_leases SET expires = now() - interval '1 second'");
    let a2 = a.clone();
    let takeover = tokio::spawn(async move { a2.acquire("g").await });
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert!(!takeover.is_finished(), "a takeover went through a write in progress");
    tx.commit().await.unwrap();
    let taken = tokio::time::timeout(std::time::Duration::from_secs(5), takeover).await.unwrap().unwrap().unwrap();
    assert!(matches!(taken, Lease::Ours(Fence::Epoch(e)) if e > eb), "{taken:?}");
    assert!(matches!(store.update_game(&aborted, fb), Err(StoreError::Fenced(_))));
}

/// A forwarded command whose notification cannot be sent (the database stopped) is
/// answered at once, "try again" — not left to the owner's time-out — and the same
/// command goes through once the database is back (the control connection opened again).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_that_cannot_be_forwarded_is_answered_try_again() {
    use chimere_server::cluster::{ANSWER, Answer, Ask, Cluster, Lease};
    use std::time::{Duration, Instant};
    let Some(db) = pg::Cluster::start("notify") else { return };
    drop(chimere_server::store_pg::PgStore::open(&db.url).unwrap());
    let (a, _a_in) = Cluster::start(&db.url).await.unwrap();
    let (b, mut b_in) = Cluster::start(&db.url).await.unwrap();
    assert!(matches!(b.acquire("g").await.unwrap(), Lease::Ours(_)));
    // The owner answers every command it gets.
    let owner = b.clone();
    tokio::spawn(async move {
        while let Some(cmd) = b_in.recv().await {
            owner.answer(&cmd, &Answer::Done { seat: None, reply: Some("done".into()) });
        }
    });
    let ask = |a: std::sync::Arc<Cluster>, owner: String| async move {
        let game = a.remote_game("g", &owner);
        let asked = Instant::now();
        let answer = a.ask(&game, a.conn_id(), Some("p"), Ask::Msg("{\"t\":\"move\"}".into())).await;
        a.release_remote(&game);
        (answer.map(|x| x.0), asked.elapsed())
    };
    let (answer, _) = ask(a.clone(), b.me.clone()).await;
    assert!(matches!(answer, Some(Answer::Done { reply: Some(ref r), .. }) if r == "done"), "{answer:?}");

    db.stop();
    // The listeners see the connection go (questions then in flight fail on their own).
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (answer, took) = ask(a.clone(), b.me.clone()).await;
    match answer {
        Some(Answer::Refused(text)) => {
            assert!(text.contains("unavailable") && text.contains("try again"), "{text}");
        }
        other => panic!("not refused: {other:?}"),
    }
    assert!(took < ANSWER, "answered only after {took:?}");

    db.restart();
    let back = Instant::now();
    loop {
        let (answer, _) = ask(a.clone(), b.me.clone()).await;
        if matches!(answer, Some(Answer::Done { .. })) {
            break;
        }
        assert!(back.elapsed() < Duration::from_secs(20), "the database is back but commands are not forwarded");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The server's side of fencing, on a real process: the lease of a game it serves changes
/// epoch under it (as when another process took the game and gave it back before this one
/// noticed). Its next write — an abort, a record update — is refused by the database: the
/// player is told "try again", the process drops the game (both players' connections are
/// closed, to reconnect), nothing is stored. On reconnection the process takes the lease
/// at its current epoch, and the same abort goes through.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_whose_write_is_fenced_drops_the_game_and_stores_nothing() {
    let Some(url) = pg::test_database("fenced_server") else { return };
    let addr = format!("127.0.0.1:{}", free_port());
    let _server = ServerProcess::spawn(&url, &addr);
    wait_up(&addr).await;
    let (id, mut white, mut black, wc, _bc) = seated(&addr).await;
    let status = || pg::query_text(&url, &format!("SELECT status FROM games WHERE id = '{id}'"))[0][0].clone().unwrap();
    pg::execute(&url, &format!("UPDATE chimere_leases SET epoch = nextval('chimere_epochs') WHERE game = '{id}'"));
    white.send(&json!({"t": "abort"})).await.unwrap();
    let mut said = Vec::new();
    while let Ok(v) = white.recv_within(5000).await {
        said.push(v);
    }
    assert!(
        said.iter().any(|v| v["t"] == "error" && v["message"].as_str().is_some_and(|m| m.contains("try again"))),
        "white is told to try again: {said:?}"
    );
    assert!(said.iter().any(|v| v["t"] == "closing"), "white's connection is closed to reconnect: {said:?}");
    assert!(black.until(5000, |v| v["t"] == "closing").await.is_ok(), "black's connection is closed too");
    assert_eq!(status(), "playing", "the fenced abort was not stored");
    let mut white = Live::connect(&addr, &id, Some(&wc)).await.unwrap();
    let s = white.recv_within(10_000).await.unwrap();
    assert_eq!(s["status"], "playing", "{s}");
    white.send(&json!({"t": "abort"})).await.unwrap();
    white.until(5000, |v| v["t"] == "state" && v["status"] == "aborted").await.unwrap();
    assert_eq!(status(), "aborted");
}
