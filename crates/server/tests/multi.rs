//! Several processes, one site: two real `chimere-server` processes on one PostgreSQL (a
//! fresh database), and Debian's nginx in front of them with `deploy/nginx.conf` (its
//! addresses replaced by the test's). Players on different processes play one game; a
//! spectator through the front door sees it; the process that owns the game is killed
//! with SIGKILL mid-game; the other takes the game over, the clients reconnect and play
//! on; every stored move is checked against what each client saw. Needs PostgreSQL (and
//! nginx): without them the test fails under CI and is skipped, loudly, elsewhere.

#[path = "support/browser.rs"]
mod browser;
#[path = "support/pg.rs"]
mod pg;
#[path = "support/process.rs"]
mod process;
#[path = "support/site.rs"]
mod site;

use chimere_server::client::{self, Live};
use serde_json::{Value, json};
use site::{Site, lease_owner};
use std::time::{Duration, Instant};

/// A client of the game that reconnects (to the same address) when its connection
/// closes, and keeps the moves it saw, checking that they follow each other.
struct Player {
    name: &'static str,
    addr: String,
    game: String,
    cookie: Option<String>,
    live: Option<Live>,
    seen: Vec<String>,
    legal: Vec<Value>,
    status: String,
    reconnections: usize,
}

impl Player {
    fn new(name: &'static str, addr: &str, game: &str, cookie: Option<&str>) -> Player {
        Player {
            name,
            addr: addr.to_string(),
            game: game.to_string(),
            cookie: cookie.map(str::to_string),
            live: None,
            seen: Vec::new(),
            legal: Vec::new(),
            status: String::new(),
            reconnections: 0,
        }
    }

    /// Takes in a message: a state replaces what was seen (it must extend it: nothing seen
    /// is ever taken back here), a move must be the next one.
    fn absorb(&mut self, v: &Value) {
        match v["t"].as_str() {
            Some("state") => {
                let moves: Vec<String> =
                    v["moves"].as_array().unwrap().iter().map(|m| m["uci"].as_str().unwrap().to_string()).collect();
                assert!(
                    moves.starts_with(&self.seen),
                    "{}: a state forgot moves seen: {moves:?} / {:?}",
                    self.name,
                    self.seen
                );
                self.seen = moves;
                self.legal = v["legal"].as_array().unwrap().clone();
                self.status = v["status"].as_str().unwrap().to_string();
            }
            Some("move") => {
                let ply = v["ply"].as_u64().unwrap() as usize;
                if ply <= self.seen.len() {
                    return; // already in a state read since
                }
                assert_eq!(ply, self.seen.len() + 1, "{}: a move skipped: {v}", self.name);
                self.seen.push(v["move"]["uci"].as_str().unwrap().to_string());
                self.legal = v["legal"].as_array().unwrap().clone();
            }
            _ => {}
        }
    }

    /// (Re)connects until the game's state arrives.
    async fn connect(&mut self, within: Duration) {
        let deadline = Instant::now() + within;
        loop {
            assert!(Instant::now() < deadline, "{}: no state from {} in {within:?}", self.name, self.addr);
            let Ok(mut live) = Live::connect(&self.addr, &self.game, self.cookie.as_deref()).await else {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            };
            match live.recv_within(12_000).await {
                Ok(v) if v["t"] == "state" => {
                    self.absorb(&v);
                    self.live = Some(live);
                    return;
                }
                _ => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    }

    /// The next message within `ms`; a closed connection is reconnected (and its state
    /// returned). `None` on silence.
    async fn next(&mut self, ms: u64) -> Option<Value> {
        let live = self.live.as_mut()?;
        match live.recv_within(ms).await {
            Ok(v) => {
                self.absorb(&v);
                Some(v)
            }
            Err(e) if e == "timeout" => None,
            Err(_) => {
                self.live = None;
                self.reconnections += 1;
                self.connect(Duration::from_secs(15)).await;
                Some(json!({"t": "reconnected"}))
            }
        }
    }

    /// Reads until the game has `n` moves.
    async fn until_moves(&mut self, n: usize, within: Duration) {
        let deadline = Instant::now() + within;
        while self.seen.len() < n {
            assert!(Instant::now() < deadline, "{}: saw {} moves, waiting for {n}", self.name, self.seen.len());
            self.next(500).await;
        }
    }

    /// Plays the `k`-th legal turn at the current ply until the server takes it: a refusal
    /// that says "try again" (the game changing process) or a lost connection is tried
    /// again; returns the time it took.
    async fn play(&mut self, k: usize, within: Duration) -> Duration {
        let start = Instant::now();
        let ply = self.seen.len();
        loop {
            assert!(start.elapsed() < within, "{}: move {} not accepted in {within:?}", self.name, ply + 1);
            if self.seen.len() > ply {
                return start.elapsed(); // taken (the answer was lost with a connection)
            }
            let turn = self.legal[k % self.legal.len()]["uci"].as_str().unwrap().to_string();
            let sent = match self.live.as_mut() {
                Some(l) => l.send(&json!({"t": "move", "ply": ply, "turn": turn})).await.is_ok(),
                None => false,
            };
            if !sent {
                self.live = None;
                self.reconnections += 1;
                self.connect(within.saturating_sub(start.elapsed())).await;
                continue;
            }
            loop {
                let Some(v) = self.next(4_000).await else { break };
                if v["t"] == "move" && self.seen.len() > ply {
                    return start.elapsed();
                }
                if v["t"] == "reconnected" {
                    break;
                }
                if v["t"] == "error" {
                    let msg = v["message"].as_str().unwrap_or("");
                    assert!(msg.contains("try again"), "{}: move refused: {v}", self.name);
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    break;
                }
            }
        }
    }
}

/// The moves stored for `game`, in order (UCI tokens).
fn stored(url: &str, game: &str) -> Vec<String> {
    pg::query_text(url, &format!("SELECT uci FROM moves WHERE game_id = '{game}' ORDER BY ply"))
        .into_iter()
        .map(|r| r[0].clone().unwrap())
        .collect()
}

fn plies(url: &str, game: &str) -> Vec<String> {
    pg::query_text(url, &format!("SELECT ply::text FROM moves m WHERE game_id = '{game}' ORDER BY m.ply"))
        .into_iter()
        .map(|r| r[0].clone().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_share_a_game_and_the_owner_killed_loses_nothing() {
    let Some(site) = Site::start("multi").await else { return };
    let Site { url, addrs: [a_addr, b_addr], ids: [a_id, b_id], procs: [mut a, _b], door, front, .. } = site;
    let url = url.as_str();

    // A game created on A; White plays on A (A takes the game), Black on B (served
    // through A), a spectator through the front door.
    let wc = client::identity(&a_addr).await.unwrap();
    let bc = client::identity(&b_addr).await.unwrap();
    let body = json!({"variant": "chess", "opponent": "private", "colour": "white", "minutes": 10, "increment": 0});
    let made = client::http(&a_addr, "POST", "/api/games", Some(&wc), &body.to_string()).await.unwrap();
    assert_eq!(made.status, 200, "{}", made.body);
    let game = made.json()["id"].as_str().unwrap().to_string();
    assert_eq!(lease_owner(url, &game), None, "a new game is taken by the process of its first connection");
    let mut white = Player::new("white", &a_addr, &game, Some(&wc));
    let mut black = Player::new("black", &b_addr, &game, Some(&bc));
    let mut watcher = Player::new("spectator", &door, &game, None);
    white.connect(Duration::from_secs(10)).await;
    assert_eq!(lease_owner(url, &game).as_deref(), Some(a_id.as_str()), "A owns the game");
    black.connect(Duration::from_secs(10)).await;
    black.live.as_mut().unwrap().send(&json!({"t": "join"})).await.unwrap();
    let joined = Instant::now();
    while black.status != "playing" {
        assert!(joined.elapsed() < Duration::from_secs(10), "black did not get the seat");
        black.next(500).await;
    }
    watcher.connect(Duration::from_secs(10)).await;
    // The state through B (from A) says who sits where.
    let s = client::http(&b_addr, "GET", &format!("/api/games/{game}"), Some(&bc), "").await.unwrap();
    assert_eq!(s.status, 200, "{}", s.body);
    assert_eq!(s.json()["you"], "black", "{}", s.body);

    // Six moves across the two processes: each seen by all three.
    for ply in 0..6 {
        let mover = if ply % 2 == 0 { &mut white } else { &mut black };
        mover.play(ply * 5 + 1, Duration::from_secs(10)).await;
        for p in [&mut white, &mut black, &mut watcher] {
            p.until_moves(ply + 1, Duration::from_secs(5)).await;
        }
    }
    assert_eq!(stored(url, &game), white.seen);

    // The lobby of either process lists the game being played (A's part read by B).
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let l = client::http(&b_addr, "GET", "/api/lobby", Some(&bc), "").await.unwrap().json();
        if l["live"].as_array().is_some_and(|v| v.iter().any(|g| g["id"] == game.as_str())) {
            break;
        }
        assert!(Instant::now() < deadline, "B's lobby never listed A's game: {l}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // SIGKILL of the owner, White to move. White's connection (on A) is gone: it
    // reconnects through the front door (or to B). The move is accepted once B holds the
    // game; Black's and the spectator's connections follow it.
    a.kill_9();
    let killed = Instant::now();
    white.addr = door.clone();
    let took = white.play(3, Duration::from_secs(20)).await;
    let failover = killed.elapsed();
    eprintln!("failover: the first move after SIGKILL accepted {failover:?} after it ({took:?} of trying)");
    assert!(failover < Duration::from_secs(12), "failover took {failover:?}");
    assert_eq!(lease_owner(url, &game).as_deref(), Some(b_id.as_str()), "B took the game over");
    for p in [&mut black, &mut watcher] {
        p.until_moves(7, Duration::from_secs(15)).await;
    }
    // And play goes on, on B.
    for ply in 7..10 {
        let mover = if ply % 2 == 0 { &mut white } else { &mut black };
        mover.play(ply + 2, Duration::from_secs(10)).await;
        for p in [&mut white, &mut black, &mut watcher] {
            p.until_moves(ply + 1, Duration::from_secs(5)).await;
        }
    }

    // Every stored move is what every client saw, each once, in order.
    let kept = stored(url, &game);
    assert_eq!(kept.len(), 10);
    assert_eq!(plies(url, &game), (1..=10).map(|p| p.to_string()).collect::<Vec<_>>());
    for p in [&white, &black, &watcher] {
        assert_eq!(p.seen, kept, "{} saw other moves than were stored", p.name);
    }
    assert!(white.reconnections >= 1, "white's process was killed: it reconnected");
    drop(front);
}

/// The web app's own reconnection across a failover, in a real browser (Debian's
/// Chromium driven by playwright-core, `web/tests/failover.mjs`): two pages play a game
/// through nginx; when the script says so, the process that owns the game is killed with
/// SIGKILL; both pages say they are reconnecting, in words, reconnect by themselves and
/// the game goes on by clicks. Needs PostgreSQL, nginx, node, `web/node_modules` and
/// Chromium: without them the test fails under CI and is skipped, loudly, elsewhere.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_web_app_reconnects_by_itself_across_a_failover() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let Some(web) = browser::web_or_skip("the failover browser test") else { return };
    let Some(mut site) = Site::start("failover").await else { return };
    if site.front.is_none() {
        return; // said above (nginx missing)
    }
    let mut script = tokio::process::Command::new("node")
        .arg("tests/failover.mjs")
        .arg(format!("http://{}", site.door))
        .current_dir(&web)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut to_script = script.stdin.take().unwrap();
    let mut lines = BufReader::new(script.stdout.take().unwrap()).lines();
    let mut said = Vec::new();
    // The script asks for the kill of the owner of its game: `kill GAME`.
    while let Some(line) = tokio::time::timeout(Duration::from_secs(60), lines.next_line()).await.unwrap().unwrap() {
        println!("{line}");
        if let Some(game) = line.strip_prefix("kill ") {
            let owner = site.owner_of(game).expect("the game has an owner");
            site.procs[owner].kill_9();
            to_script.write_all(b"killed\n").await.unwrap();
        }
        said.push(line);
    }
    let status = script.wait().await.unwrap();
    assert!(status.success(), "the failover browser test failed:\n{}", said.join("\n"));
}
