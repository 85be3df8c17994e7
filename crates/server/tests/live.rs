//! The server over real HTTP and WebSocket clients, against a real SQLite file: whole
//! games of every variant with a spectator, refused moves that change nothing, bad
//! messages, reconnection, clocks, abandonment, and kill -9 of the real server process.

#[path = "support/process.rs"]
mod process;

use chimere_server::client::{self, Live};
use chimere_server::rules;
use chimere_server::setup::Setup;
use process::{ServerProcess, free_port, wait_up};
use serde_json::{Value, json};
use std::path::PathBuf;

/// A database file in a directory of its own, removed (with the WAL files) with the guard.
fn temp_db(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::Builder::new().prefix(&format!("chimere-live-{name}-")).tempdir().unwrap();
    let p = dir.path().join("chimere.db");
    (dir, p)
}

/// A server on a fresh database: its address, and the database's directory (kept while
/// the test runs).
async fn start(name: &str, limits: chimere_server::hub::Limits) -> (String, tempfile::TempDir) {
    let (dir, db) = temp_db(name);
    let config = chimere_server::Config { db: db.into(), listen: "127.0.0.1:0".into(), limits, ..Default::default() };
    let (addr, _task) = chimere_server::start(config).await.unwrap();
    (addr.to_string(), dir)
}

async fn new_game(addr: &str, cookie: &str, body: Value) -> String {
    let a = client::http(addr, "POST", "/api/games", Some(cookie), &body.to_string()).await.unwrap();
    assert_eq!(a.status, 200, "{}", a.body);
    a.json()["id"].as_str().unwrap().to_string()
}

/// White and black seated in a new private game, with their first states read.
async fn two_players(addr: &str, variant: &str, extra: Value) -> (String, Live, Live, String, String) {
    let wc = client::identity(addr).await.unwrap();
    let bc = client::identity(addr).await.unwrap();
    let mut body = json!({"variant": variant, "opponent": "private", "colour": "white"});
    if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            b.insert(k.clone(), v.clone());
        }
    }
    let id = new_game(addr, &wc, body).await;
    let mut white = Live::connect(addr, &id, Some(&wc)).await.unwrap();
    let first = white.recv_within(5000).await.unwrap();
    assert_eq!(first["you"], "white");
    assert_eq!(first["status"], "waiting");
    let mut black = Live::connect(addr, &id, Some(&bc)).await.unwrap();
    let s = black.recv_within(5000).await.unwrap();
    assert_eq!(s["you"], Value::Null, "not seated before joining");
    black.send(&json!({"t": "join"})).await.unwrap();
    black.until(5000, |v| v["t"] == "state" && v["you"] == "black" && v["status"] == "playing").await.unwrap();
    white.until(5000, |v| v["t"] == "state" && v["status"] == "playing").await.unwrap();
    (id, white, black, wc, bc)
}

async fn api_state(addr: &str, id: &str) -> Value {
    client::http(addr, "GET", &format!("/api/games/{id}"), None, "").await.unwrap().json()
}

/// A turn for a quick game: one that ends the game at once if there is one, else a
/// capture if any, else a deterministic pseudo-random turn.
fn choose(variant: &str, start_fen: &str, history: &[String], legal: &[Value], ply: usize) -> String {
    let mut g = rules::create(variant, Setup::default().options(), Some(start_fen)).unwrap();
    for m in history {
        g.play(m).unwrap();
    }
    let mut captures = Vec::new();
    for t in legal {
        let c = t["canonical"].as_str().unwrap();
        g.play(c).unwrap();
        let over = g.outcome().status != chimere_core::Status::Ongoing;
        g.undo();
        if over {
            return c.to_string();
        }
        let removed = c.matches(" -").count() + usize::from(c.starts_with('-'));
        let added = c.matches('+').count();
        if removed > added {
            captures.push(c.to_string());
        }
    }
    let pool: Vec<String> = if !captures.is_empty() && ply % 3 != 2 {
        captures
    } else {
        legal.iter().map(|t| t["canonical"].as_str().unwrap().to_string()).collect()
    };
    pool[(ply * 7919 + 13) % pool.len()].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_of_every_variant_with_a_spectator() {
    // The scripted players move far faster than people: no rate limit here.
    let limits = chimere_server::hub::Limits { rate_per_sec: 1e6, rate_burst: 1e6, ..Default::default() };
    let (addr, _db) = start("whole", limits).await;
    for variant in rules::names() {
        let (id, mut white, mut black, _, _) = two_players(&addr, variant, json!({})).await;
        let mut spectator = Live::connect(&addr, &id, None).await.unwrap();
        let first = spectator.recv_within(5000).await.unwrap();
        assert_eq!(first["you"], Value::Null);
        let start_fen = first["start_fen"].as_str().unwrap().to_string();
        let mut legal = first["legal"].as_array().unwrap().clone();
        let mut side = first["side"].as_str().unwrap().to_string();
        let mut history: Vec<String> = Vec::new();
        let mut seen_by_spectator: Vec<String> = Vec::new();
        let mut finished = false;
        for ply in 0..400 {
            let turn = choose(variant, &start_fen, &history, &legal, ply);
            let mover = if side == "white" { &mut white } else { &mut black };
            mover.send(&json!({"t": "move", "ply": ply, "turn": turn})).await.unwrap();
            let m = spectator
                .until(5000, |v| v["t"] == "move")
                .await
                .unwrap_or_else(|e| panic!("{variant}: turn {turn} at ply {ply} not broadcast: {e}"));
            assert_eq!(m["ply"], ply + 1, "{variant}: spectator sees the move");
            assert_eq!(m["move"]["canonical"], turn.as_str());
            seen_by_spectator.push(m["move"]["canonical"].as_str().unwrap().to_string());
            history.push(turn);
            legal = m["legal"].as_array().unwrap().clone();
            side = m["side"].as_str().unwrap().to_string();
            if legal.is_empty() {
                let end = spectator.until(5000, |v| v["t"] == "state").await.unwrap();
                assert_eq!(end["status"], "finished", "{variant}: no legal turn means the end");
                assert_ne!(end["result"], "*");
                finished = true;
                break;
            }
        }
        if !finished {
            // No natural end within 400 turns: the side to move resigns.
            let mover = if side == "white" { &mut white } else { &mut black };
            mover.send(&json!({"t": "resign"})).await.unwrap();
            let end = spectator.until(5000, |v| v["t"] == "state" && v["status"] == "finished").await.unwrap();
            assert!(end["reason"].as_str().unwrap().contains("resigned"));
        }
        assert_eq!(seen_by_spectator, history);
        // Both players saw the same moves; the stored game has them all.
        for p in [&mut white, &mut black] {
            p.send(&json!({"t": "sync"})).await.unwrap();
            let n = history.len();
            let s = p.until(5000, |v| v["t"] == "state" && v["ply"] == n && v["status"] == "finished").await.unwrap();
            let moves: Vec<&str> =
                s["moves"].as_array().unwrap().iter().map(|m| m["canonical"].as_str().unwrap()).collect();
            assert_eq!(moves, history);
            assert_eq!(s["status"], "finished");
        }
        let pgn = client::http(&addr, "GET", &format!("/api/games/{id}/pgn"), None, "").await.unwrap();
        let kind = chimere_rules::VariantKind::from_name(variant).unwrap();
        if variant != "chess" {
            let tag = format!("[Variant \"{}\"]", kind.descriptor().pgn_variant);
            assert!(pgn.body.contains(&tag), "{}", pgn.body);
        } else {
            assert!(!pgn.body.contains("[Variant"), "{}", pgn.body);
        }
        // The PGN imports back into the archive as the same game.
        let imp = client::http(&addr, "POST", "/api/import", None, &pgn.body).await.unwrap();
        assert_eq!(imp.status, 200, "{variant}: {}", imp.body);
        let back = api_state(&addr, imp.json()["id"].as_str().unwrap()).await;
        let back_moves: Vec<&str> =
            back["moves"].as_array().unwrap().iter().map(|m| m["canonical"].as_str().unwrap()).collect();
        assert_eq!(back_moves, history, "{variant}: PGN round trip");
        println!("{variant}: {} turns, {}", history.len(), if finished { "natural end" } else { "resigned" });
    }
    let archive = client::http(&addr, "GET", "/api/archive", None, "").await.unwrap().json();
    assert!(archive["games"].as_array().unwrap().len() >= rules::names().len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_moves_are_refused_and_change_nothing() {
    let (addr, _db) = start("refuse", Default::default()).await;
    let (id, mut white, mut black, _, _) = two_players(&addr, "chess", json!({})).await;
    let legal = api_state(&addr, &id).await["legal"].as_array().unwrap().clone();
    let e4 = legal.iter().find(|t| t["notation"] == "e4").unwrap()["canonical"].as_str().unwrap().to_string();
    let before = api_state(&addr, &id).await;

    let cases: Vec<(bool, Value, &str)> = vec![
        (false, json!({"t": "move", "ply": 0, "turn": "e7e5"}), "not-your-turn"),
        (true, json!({"t": "move", "ply": 0, "turn": "e2e5"}), "illegal"),
        (true, json!({"t": "move", "ply": 3, "turn": e4}), "stale"),
    ];
    for (is_white, msg, code) in cases {
        let who = if is_white { &mut white } else { &mut black };
        who.send(&msg).await.unwrap();
        let r = who.until(5000, |v| v["t"] == "error").await.unwrap();
        assert_eq!(r["code"], code, "{msg}: {r}");
        assert!(!r["message"].as_str().unwrap().is_empty());
        let now = api_state(&addr, &id).await;
        assert_eq!(now["fen"], before["fen"]);
        assert_eq!(now["ply"], 0);
    }
    // A spectator with an identity of its own cannot move.
    let sc = client::identity(&addr).await.unwrap();
    let mut spectator = Live::connect(&addr, &id, Some(&sc)).await.unwrap();
    spectator.recv_within(5000).await.unwrap();
    spectator.send(&json!({"t": "move", "ply": 0, "turn": e4})).await.unwrap();
    let r = spectator.until(5000, |v| v["t"] == "error").await.unwrap();
    assert_eq!(r["code"], "spectator");
    assert_eq!(api_state(&addr, &id).await["ply"], 0);

    // The move, then the same move again: the copy is refused as stale, stored once.
    white.send(&json!({"t": "move", "ply": 0, "turn": e4})).await.unwrap();
    white.send(&json!({"t": "move", "ply": 0, "turn": e4})).await.unwrap();
    // The broadcast of the move and the refusal of the copy may come in either order.
    let (mut moved, mut refused) = (false, None);
    while !moved || refused.is_none() {
        let v = white.recv_within(5000).await.unwrap();
        moved |= v["t"] == "move";
        if v["t"] == "error" {
            refused = Some(v);
        }
    }
    let r = refused.unwrap();
    assert!(r["code"] == "stale" || r["code"] == "not-your-turn", "{r}");
    let now = api_state(&addr, &id).await;
    assert_eq!(now["ply"], 1);
    assert_eq!(now["moves"].as_array().unwrap().len(), 1);
    // White moving again (black's turn) is out of turn.
    white.send(&json!({"t": "move", "ply": 1, "turn": "d2d4"})).await.unwrap();
    let r = white.until(5000, |v| v["t"] == "error").await.unwrap();
    assert_eq!(r["code"], "not-your-turn");
    // Unknown game.
    let mut nobody = Live::connect(&addr, "nosuchgame", None).await.unwrap();
    let r = nobody.recv_within(5000).await.unwrap();
    assert_eq!(r["code"], "unknown-game");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_oversized_and_flooding_messages_get_errors() {
    let (addr, _db) = start("malformed", Default::default()).await;
    let (id, mut white, _black, _, _) = two_players(&addr, "dynamo", json!({})).await;
    for (text, code) in [
        ("{not json", "malformed"),
        ("{\"t\":\"fly\"}", "malformed"),
        ("{\"t\":\"move\",\"ply\":\"zero\",\"turn\":\"e2e4\"}", "malformed"),
        ("[]", "malformed"),
    ] {
        white.send_text(text).await.unwrap();
        let r = white.until(5000, |v| v["t"] == "error").await.unwrap();
        assert_eq!(r["code"], code, "{text}");
    }
    let huge = format!("{{\"t\":\"move\",\"ply\":0,\"turn\":\"{}\"}}", "x".repeat(10_000));
    white.send_text(&huge).await.unwrap();
    let r = white.until(5000, |v| v["t"] == "error").await.unwrap();
    assert_eq!(r["code"], "too-large");
    // Still connected and answered.
    white.send(&json!({"t": "ping"})).await.unwrap();
    white.until(5000, |v| v["t"] == "pong").await.unwrap();
    // A flood: some messages are refused for the rate.
    for _ in 0..80 {
        white.send(&json!({"t": "ping"})).await.unwrap();
    }
    let mut rate = 0;
    for _ in 0..80 {
        let v = white.recv_within(5000).await.unwrap();
        if v["code"] == "rate" {
            rate += 1;
        }
    }
    assert!(rate > 0, "a flood is limited");
    assert_eq!(api_state(&addr, &id).await["ply"], 0);
    // Bad HTTP requests get one-line errors too.
    let c = client::identity(&addr).await.unwrap();
    for body in [
        "{",
        "{\"variant\":\"go\"}",
        "{\"variant\":\"chess\",\"minutes\":-3}",
        "{\"variant\":\"chess\",\"colour\":\"green\"}",
    ] {
        let a = client::http(&addr, "POST", "/api/games", Some(&c), body).await.unwrap();
        assert_eq!(a.status, 400, "{body}");
        assert!(a.json()["error"].as_str().is_some_and(|e| !e.is_empty() && !e.contains('\n')), "{}", a.body);
    }
    let a = client::http(&addr, "POST", "/api/import", None, "1. e4 e4").await.unwrap();
    assert_eq!(a.status, 400);
    // Chess under fairy conditions is a game like the others; unknown conditions are refused.
    let body = json!({"variant": "chess", "conditions": ["circe"], "opponent": "private"}).to_string();
    let a = client::http(&addr, "POST", "/api/games", Some(&c), &body).await.unwrap();
    assert_eq!(a.status, 200, "{}", a.body);
    let st = api_state(&addr, a.json()["id"].as_str().unwrap()).await;
    assert_eq!(st["setup"]["conditions"][0], "circe");
    assert_eq!(st["legal"].as_array().unwrap().len(), 20);
    let body = json!({"variant": "chess", "conditions": ["no such condition"]}).to_string();
    let a = client::http(&addr, "POST", "/api/games", Some(&c), &body).await.unwrap();
    assert_eq!(a.status, 400, "{}", a.body);
    let body = json!({"variant": "dynamo", "conditions": ["circe"]}).to_string();
    let a = client::http(&addr, "POST", "/api/games", Some(&c), &body).await.unwrap();
    assert_eq!(a.status, 400, "{}", a.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_reconnects_gets_the_whole_state() {
    let (addr, _db) = start("resync", Default::default()).await;
    let (id, mut white, mut black, wc, _) = two_players(&addr, "fugue", json!({})).await;
    let legal = api_state(&addr, &id).await["legal"].as_array().unwrap().clone();
    white.send(&json!({"t": "move", "ply": 0, "turn": legal[0]["uci"]})).await.unwrap();
    let m = black.until(5000, |v| v["t"] == "move").await.unwrap();
    white.close().await;
    let legal = m["legal"].as_array().unwrap();
    black.send(&json!({"t": "move", "ply": 1, "turn": legal[legal.len() - 1]["uci"]})).await.unwrap();
    black.until(5000, |v| v["t"] == "move").await.unwrap();
    // A draw can be offered once both sides have moved.
    black.send(&json!({"t": "draw", "action": "offer"})).await.unwrap();
    black.until(5000, |v| v["t"] == "state" && v["offers"]["draw"] == "black").await.unwrap();
    let mut white = Live::connect(&addr, &id, Some(&wc)).await.unwrap();
    let s = white.recv_within(5000).await.unwrap();
    assert_eq!(s["t"], "state");
    assert_eq!(s["you"], "white");
    assert_eq!(s["ply"], 2);
    assert_eq!(s["moves"].as_array().unwrap().len(), 2);
    assert_eq!(s["offers"]["draw"], "black", "the mover's own draw offer stands");
    assert_eq!(s["side"], "white");
    // And carries on.
    let legal = s["legal"].as_array().unwrap();
    white.send(&json!({"t": "move", "ply": 2, "turn": legal[0]["uci"]})).await.unwrap();
    let m = black.until(5000, |v| v["t"] == "move").await.unwrap();
    assert_eq!(m["ply"], 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_leaving_and_coming_back_is_announced_to_the_room() {
    let (addr, _db) = start("presence", Default::default()).await;
    let (id, white, mut black, wc, _) = two_players(&addr, "chess", json!({})).await;
    let mut spectator = Live::connect(&addr, &id, None).await.unwrap();
    spectator.recv_within(5000).await.unwrap();
    white.close().await;
    for watcher in [&mut black, &mut spectator] {
        let p =
            watcher.until(5000, |v| v["t"] == "presence" && v["players"]["white"]["online"] == false).await.unwrap();
        assert_eq!(p["players"]["white"]["online"], false);
        assert_eq!(p["players"]["black"]["online"], true);
        assert!(p.get("moves").is_none(), "a presence message carries the players only");
    }
    let _white = Live::connect(&addr, &id, Some(&wc)).await.unwrap();
    let p = spectator.until(5000, |v| v["t"] == "presence").await.unwrap();
    assert_eq!(p["players"]["white"]["online"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_nobody_watches_leaves_memory_and_comes_back_whole() {
    let limits = chimere_server::hub::Limits { sweep_ms: 100, ..Default::default() };
    let (addr, _db) = start("sweep", limits).await;
    let live = |addr: String| async move {
        client::http(&addr, "GET", "/api/stats", None, "").await.unwrap().json()["live_rooms"].as_u64().unwrap()
    };
    let (id, mut white, mut black, wc, _) = two_players(&addr, "chess", json!({})).await;
    white.send(&json!({"t": "move", "ply": 0, "turn": "e2e4"})).await.unwrap();
    black.until(5000, |v| v["t"] == "move").await.unwrap();
    // In play: kept while nobody is connected (its clocks and offers live there).
    white.close().await;
    black.close().await;
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    assert_eq!(live(addr.clone()).await, 1, "a game in play stays in memory");
    let mut white = Live::connect(&addr, &id, Some(&wc)).await.unwrap();
    white.recv_within(5000).await.unwrap();
    // Black never moved: the game can only be aborted.
    white.send(&json!({"t": "abort"})).await.unwrap();
    white.until(5000, |v| v["t"] == "state" && v["status"] == "aborted").await.unwrap();
    // Over but watched: kept.
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    assert_eq!(live(addr.clone()).await, 1, "a watched room stays");
    white.close().await;
    let mut gone = false;
    for _ in 0..50 {
        if live(addr.clone()).await == 0 {
            gone = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(gone, "the idle finished room was not dropped");
    // Opened again: loaded whole from the store.
    let mut again = Live::connect(&addr, &id, Some(&wc)).await.unwrap();
    let s = again.recv_within(5000).await.unwrap();
    assert_eq!(s["status"], "aborted");
    assert_eq!(s["moves"].as_array().unwrap().len(), 1);
    assert_eq!(s["moves"][0]["uci"], "e2e4");
    assert_eq!(s["you"], "white");
    assert_eq!(live(addr.clone()).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flag_fall_and_abandonment_end_timed_games() {
    let limits = chimere_server::hub::Limits { abandon_ms: 800, min_clock_ms: 0, ..Default::default() };
    let (addr, _db) = start("clocks", limits).await;
    // 0.6 s each, no increment: the clock runs from the third turn.
    let (id, mut white, mut black, _, _) = two_players(&addr, "chess", json!({"minutes": 0.01})).await;
    for (ply, turn) in ["e2e4", "e7e5"].iter().enumerate() {
        let p = if ply == 0 { &mut white } else { &mut black };
        let legal = api_state(&addr, &id).await["legal"].as_array().unwrap().clone();
        let t =
            legal.iter().find(|t| t["uci"] == *turn || t["canonical"].as_str().unwrap().contains(&turn[2..])).unwrap();
        p.send(&json!({"t": "move", "ply": ply, "turn": t["canonical"]})).await.unwrap();
        p.until(5000, |v| v["t"] == "move").await.unwrap();
    }
    let end = black.until(5000, |v| v["t"] == "state" && v["status"] == "finished").await.unwrap();
    assert_eq!(end["reason"], "White ran out of time");
    assert_eq!(end["result_text"], "Black wins: White ran out of time.");
    assert_eq!(end["result"], "0-1");
    assert_eq!(end["clock"]["white_ms"], 0);

    // Abandonment: white leaves a timed game after both moved; black stays.
    let (id, mut white, mut black, _, _) = two_players(&addr, "chess", json!({"minutes": 5})).await;
    let legal = api_state(&addr, &id).await["legal"].as_array().unwrap().clone();
    white.send(&json!({"t": "move", "ply": 0, "turn": legal[0]["canonical"]})).await.unwrap();
    let m = black.until(5000, |v| v["t"] == "move").await.unwrap();
    black.send(&json!({"t": "move", "ply": 1, "turn": m["legal"][0]["canonical"]})).await.unwrap();
    white.until(5000, |v| v["t"] == "move").await.unwrap();
    white.close().await;
    let end = black.until(5000, |v| v["t"] == "state" && v["status"] == "finished").await.unwrap();
    assert_eq!(end["reason"], "White left the game");
    assert_eq!(end["result"], "0-1");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draw_takeback_abort_and_rematch() {
    let (addr, _db) = start("actions", Default::default()).await;
    let (id, mut white, mut black, _, _) = two_players(&addr, "checkered", json!({})).await;
    // Abort before both have moved.
    white.send(&json!({"t": "abort"})).await.unwrap();
    let s = black.until(5000, |v| v["t"] == "state" && v["status"] == "aborted").await.unwrap();
    assert!(s["reason"].as_str().unwrap().contains("aborted"));
    // Rematch: offered by one, accepted by the other; colours swapped.
    white.send(&json!({"t": "rematch", "action": "offer"})).await.unwrap();
    black.until(5000, |v| v["t"] == "state" && v["offers"]["rematch"] == "white").await.unwrap();
    black.send(&json!({"t": "rematch", "action": "accept"})).await.unwrap();
    let s = white.until(5000, |v| v["t"] == "state" && v["rematch"].is_string()).await.unwrap();
    let re = s["rematch"].as_str().unwrap().to_string();
    assert_ne!(re, id);
    white.close().await;
    black.close().await;
    let st = api_state(&addr, &re).await;
    assert_eq!(st["status"], "playing");
    assert_eq!(st["players"]["white"]["name"], "Anonymous");

    // Takeback and draw in a fresh game.
    let (id, mut white, mut black, _, _) = two_players(&addr, "interweave", json!({})).await;
    let legal = api_state(&addr, &id).await["legal"].as_array().unwrap().clone();
    white.send(&json!({"t": "move", "ply": 0, "turn": legal[0]["canonical"]})).await.unwrap();
    black.until(5000, |v| v["t"] == "move").await.unwrap();
    white.send(&json!({"t": "takeback", "action": "offer"})).await.unwrap();
    black.until(5000, |v| v["t"] == "state" && v["offers"]["takeback"] == "white").await.unwrap();
    black.send(&json!({"t": "takeback", "action": "accept"})).await.unwrap();
    let s = white.until(5000, |v| v["t"] == "state" && v["ply"] == 0).await.unwrap();
    assert_eq!(s["moves"].as_array().unwrap().len(), 0);
    assert_eq!(api_state(&addr, &id).await["ply"], 0);
    black.send(&json!({"t": "draw", "action": "accept"})).await.unwrap();
    let r = black.until(5000, |v| v["t"] == "error").await.unwrap();
    assert_eq!(r["code"], "no-offer");
    // A draw is offered once both sides have moved.
    let legal = api_state(&addr, &id).await["legal"].as_array().unwrap().clone();
    white.send(&json!({"t": "move", "ply": 0, "turn": legal[0]["uci"]})).await.unwrap();
    let m = black.until(5000, |v| v["t"] == "move").await.unwrap();
    black.send(&json!({"t": "move", "ply": 1, "turn": m["legal"][0]["uci"]})).await.unwrap();
    white.until(5000, |v| v["t"] == "move" && v["ply"] == 2).await.unwrap();
    white.send(&json!({"t": "draw", "action": "offer"})).await.unwrap();
    black.until(5000, |v| v["t"] == "state" && v["offers"]["draw"] == "white").await.unwrap();
    black.send(&json!({"t": "draw", "action": "accept"})).await.unwrap();
    let s = white.until(5000, |v| v["t"] == "state" && v["status"] == "finished").await.unwrap();
    assert_eq!(s["result"], "1/2-1/2");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_mid_game_loses_no_move_and_the_game_goes_on() {
    let (_dir, db) = temp_db("kill9");
    let addr = format!("127.0.0.1:{}", free_port());
    let mut server = ServerProcess::spawn(db.to_str().unwrap(), &addr);
    wait_up(&addr).await;
    let (id, mut white, mut black, wc, bc) = two_players(&addr, "dynamo", json!({"minutes": 10, "increment": 5})).await;
    let mut accepted: Vec<String> = Vec::new();
    let mut legal = api_state(&addr, &id).await["legal"].as_array().unwrap().clone();
    let mut clock_before = Value::Null;
    for ply in 0..6 {
        let p = if ply % 2 == 0 { &mut white } else { &mut black };
        let t = legal[(ply * 37) % legal.len()]["uci"].as_str().unwrap().to_string();
        p.send(&json!({"t": "move", "ply": ply, "turn": t})).await.unwrap();
        let m = p.until(5000, |v| (v["t"] == "move" && v["ply"] == ply + 1) || v["t"] == "error").await.unwrap();
        assert_eq!(m["t"], "move", "{m}");
        accepted.push(m["move"]["canonical"].as_str().unwrap().to_string());
        legal = m["legal"].as_array().unwrap().clone();
        clock_before = m["clock"].clone();
    }
    // The last move is sent and, as soon as it is acknowledged, the server is killed.
    server.kill_9();
    drop(white);
    drop(black);
    let mut server = ServerProcess::spawn(db.to_str().unwrap(), &addr);
    wait_up(&addr).await;
    let mut white = Live::connect(&addr, &id, Some(&wc)).await.unwrap();
    let s = white.recv_within(5000).await.unwrap();
    let moves: Vec<&str> = s["moves"].as_array().unwrap().iter().map(|m| m["canonical"].as_str().unwrap()).collect();
    assert_eq!(moves, accepted, "every accepted move is still there");
    assert_eq!(s["status"], "playing");
    assert_eq!(s["ply"], 6);
    // The clocks came back as stored with the last move (white to move: its time runs).
    assert_eq!(s["clock"]["black_ms"], clock_before["black_ms"]);
    let w = s["clock"]["white_ms"].as_i64().unwrap();
    assert!(w <= clock_before["white_ms"].as_i64().unwrap() && w > 590_000, "{}", s["clock"]);
    // The game goes on.
    let mut black = Live::connect(&addr, &id, Some(&bc)).await.unwrap();
    black.recv_within(5000).await.unwrap();
    let legal = s["legal"].as_array().unwrap();
    white.send(&json!({"t": "move", "ply": 6, "turn": legal[0]["uci"]})).await.unwrap();
    let m = black.until(5000, |v| v["t"] == "move").await.unwrap();
    assert_eq!(m["ply"], 7);
    server.kill_9();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_computer_in_every_variant() {
    let limits = chimere_server::hub::Limits { rate_per_sec: 1e6, rate_burst: 1e6, ..Default::default() };
    let (addr, _db) = start("computer", limits).await;
    for variant in rules::names() {
        let cookie = client::identity(&addr).await.unwrap();
        let body = json!({"variant": variant, "opponent": "computer", "level": 1, "colour": "white"});
        let id = new_game(&addr, &cookie, body).await;
        let mut me = Live::connect(&addr, &id, Some(&cookie)).await.unwrap();
        let first = me.until(5000, |v| v["t"] == "state" && v["status"] == "playing").await.unwrap();
        assert_eq!(first["you"], "white");
        let start_fen = first["start_fen"].as_str().unwrap().to_string();
        let mut legal = first["legal"].as_array().unwrap().clone();
        let mut history: Vec<String> = Vec::new();
        let mut ended = false;
        for ply in (0..40).step_by(2) {
            let turn = choose(variant, &start_fen, &history, &legal, ply);
            me.send(&json!({"t": "move", "ply": ply, "turn": turn})).await.unwrap();
            history.push(turn);
            let mine = me.until(5000, |v| v["t"] == "move" && v["ply"] == ply + 1).await.unwrap();
            if mine["legal"].as_array().unwrap().is_empty() {
                ended = true;
                break;
            }
            // The computer answers with a turn the server accepted and broadcast.
            let reply = me
                .until(15000, |v| v["t"] == "move" && v["ply"] == ply + 2)
                .await
                .unwrap_or_else(|e| panic!("{variant}: no computer turn at ply {}: {e}", ply + 1));
            history.push(reply["move"]["canonical"].as_str().unwrap().to_string());
            legal = reply["legal"].as_array().unwrap().clone();
            if legal.is_empty() {
                ended = true;
                break;
            }
        }
        // The stored game holds every turn, the computer's included, all legal.
        let s = api_state(&addr, &id).await;
        let stored: Vec<&str> =
            s["moves"].as_array().unwrap().iter().map(|m| m["canonical"].as_str().unwrap()).collect();
        assert_eq!(stored, history, "{variant}");
        let mut g = rules::create(variant, Setup::default().options(), Some(&start_fen)).unwrap();
        for m in &history {
            g.play(m).unwrap_or_else(|e| panic!("{variant}: stored turn {m}: {e}"));
        }
        println!("{variant}: {} turns against the computer{}", history.len(), if ended { ", game over" } else { "" });
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_describes_every_variant_and_every_condition() {
    let (addr, _db) = start("describe", Default::default()).await;
    let v = client::http(&addr, "GET", "/api/variants", None, "").await.unwrap().json();
    let list = v["variants"].as_array().unwrap();
    let names: Vec<&str> = list.iter().map(|d| d["name"].as_str().unwrap()).collect();
    assert_eq!(names, chimere_rules::names());
    for d in list {
        assert!(!d["label"].as_str().unwrap().is_empty() && !d["start_fen"].as_str().unwrap().is_empty());
        assert!(!d["pieces"].as_array().unwrap().is_empty(), "{d}");
        assert!(d["interactions"].is_array() && d["options"].is_array(), "{d}");
    }
    let dynamo = list.iter().find(|d| d["name"] == "dynamo").unwrap();
    assert!(dynamo["interactions"].as_array().unwrap().contains(&json!("exit")));
    let c = client::http(&addr, "GET", "/api/conditions", None, "").await.unwrap().json();
    let conds = c["conditions"].as_array().unwrap();
    assert!(conds.len() >= 70);
    let mut sentences = std::collections::HashSet::new();
    for d in conds {
        let s = d["summary"].as_str().unwrap();
        assert!(sentences.insert(s.to_string()), "{} repeats a sentence: {s}", d["name"]);
        // Every condition offered creates a game.
        let name = d["name"].as_str().unwrap();
        let opts = chimere_core::GameOptions { conditions: vec![name.into()], ..Default::default() };
        let _ = chimere_rules::create("chess", opts, None);
    }
    let couscous = conds.iter().find(|d| d["name"] == "circe couscous").unwrap();
    let plain = conds.iter().find(|d| d["name"] == "circe").unwrap();
    assert_ne!(couscous["summary"], plain["summary"]);
}
