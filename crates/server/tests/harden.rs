//! Hardening, over real HTTP and WebSocket clients: the security headers of every answer,
//! assets with validators and compression, a WebSocket message over the hard cap, the
//! Origin check, names without control or text-direction characters, the shortest clock,
//! and the clean stop of the real server process (SIGTERM, Ctrl-C): players told, writes
//! stored, WAL checkpointed, exit 0, the database readable by its owner only.

#[path = "support/process.rs"]
mod process;

use chimere_server::client::{self, Live};
use futures_util::{SinkExt, StreamExt};
use process::{ServerProcess, free_port, wait_up};
use serde_json::{Value, json};
use std::io::Read;
use std::path::{Path, PathBuf};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// A database file in a directory of its own, removed (with the WAL files) with the guard.
fn temp_db(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::Builder::new().prefix(&format!("chimere-harden-{name}-")).tempdir().unwrap();
    let p = dir.path().join("chimere.db");
    (dir, p)
}

fn side_file(db: &Path, ext: &str) -> PathBuf {
    PathBuf::from(format!("{}{ext}", db.display()))
}

/// A server on a fresh database: its address, and the database's directory (kept while
/// the test runs).
async fn start(name: &str, allowed_origins: Vec<chimere_server::web::Origin>) -> (String, tempfile::TempDir) {
    let (dir, db) = temp_db(name);
    let config =
        chimere_server::Config { db: db.into(), listen: "127.0.0.1:0".into(), allowed_origins, ..Default::default() };
    let (addr, _task) = chimere_server::start(config).await.unwrap();
    (addr.to_string(), dir)
}

/// An HTTP answer as bytes (compressed bodies are not text).
struct Raw {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Raw {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// `GET path` with extra header lines.
async fn get(addr: &str, path: &str, extra: &[(&str, &str)]) -> Raw {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in extra {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.unwrap();
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("an HTTP header");
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut lines = head.lines();
    let status = lines.next().and_then(|l| l.split_whitespace().nth(1)).unwrap().parse().unwrap();
    let headers: Vec<(String, String)> =
        lines.filter_map(|l| l.split_once(':')).map(|(k, v)| (k.trim().to_string(), v.trim().to_string())).collect();
    let mut rest = &raw[split + 4..];
    let chunked = headers.iter().any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    let body = if chunked {
        let mut out = Vec::new();
        loop {
            let end = rest.windows(2).position(|w| w == b"\r\n").unwrap();
            let size = usize::from_str_radix(std::str::from_utf8(&rest[..end]).unwrap().trim(), 16).unwrap();
            if size == 0 {
                break;
            }
            out.extend_from_slice(&rest[end + 2..end + 2 + size]);
            rest = &rest[end + 2 + size + 2..];
        }
        out
    } else {
        rest.to_vec()
    };
    Raw { status, headers, body }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_has_the_security_headers_and_assets_revalidate_and_compress() {
    let (addr, _db) = start("headers", Vec::new()).await;
    for path in ["/", "/game/abc", "/analysis", "/api/me", "/api/variants", "/assets/app.js", "/assets/nope.js"] {
        let a = get(&addr, path, &[]).await;
        let csp = a.header("content-security-policy").unwrap_or_else(|| panic!("{path}: no CSP"));
        for part in ["default-src 'self'", "'wasm-unsafe-eval'", "worker-src 'self'", "frame-ancestors 'none'"] {
            assert!(csp.contains(part), "{path}: {csp}");
        }
        assert!(!csp.contains("'unsafe-eval'") && !csp.contains("script-src 'self' 'unsafe-inline'"), "{csp}");
        assert_eq!(a.header("x-content-type-options"), Some("nosniff"), "{path}");
        assert_eq!(a.header("referrer-policy"), Some("same-origin"), "{path}");
        assert_eq!(a.header("x-frame-options"), Some("DENY"), "{path}");
    }
    for path in ["/assets/app.js", "/assets/pieces.css", "/assets/wasm/chimere_wasm_bg.wasm"] {
        let plain = get(&addr, path, &[]).await;
        assert_eq!(plain.status, 200);
        assert_eq!(plain.header("cache-control"), Some("no-cache"), "{path}");
        assert_eq!(plain.header("content-encoding"), None, "{path}: not asked for");
        let etag = plain.header("etag").unwrap_or_else(|| panic!("{path}: no validator")).to_string();
        // Unchanged: 304 with no body; another tag or none: the whole asset.
        let again = get(&addr, path, &[("If-None-Match", &etag)]).await;
        assert_eq!(again.status, 304, "{path}");
        assert!(again.body.is_empty());
        assert_eq!(again.header("etag"), Some(etag.as_str()));
        let list = format!("W/\"0000\", {}", etag.trim_start_matches("W/"));
        assert_eq!(get(&addr, path, &[("If-None-Match", &list)]).await.status, 304, "{path}: weak comparison");
        let other = get(&addr, path, &[("If-None-Match", "W/\"0000\"")]).await;
        assert_eq!((other.status, other.body.len()), (200, plain.body.len()), "{path}");
        // Compressed as asked, smaller, the same bytes once decompressed.
        let gz = get(&addr, path, &[("Accept-Encoding", "gzip")]).await;
        assert_eq!(gz.header("content-encoding"), Some("gzip"), "{path}");
        assert!(gz.header("vary").is_some_and(|v| v.to_ascii_lowercase().contains("accept-encoding")));
        assert_eq!(gz.header("etag"), Some(etag.as_str()));
        assert!(gz.body.len() < plain.body.len(), "{path}: {} ≥ {}", gz.body.len(), plain.body.len());
        let mut back = Vec::new();
        flate2::read::GzDecoder::new(gz.body.as_slice()).read_to_end(&mut back).unwrap();
        assert!(back == plain.body, "{path}: gzip round trip");
        let br = get(&addr, path, &[("Accept-Encoding", "br;q=1, gzip;q=0.5")]).await;
        assert_eq!(br.header("content-encoding"), Some("br"), "{path}");
        assert!(br.body.len() < plain.body.len());
    }
}

async fn ws_request(addr: &str, id: &str, origin: Option<&str>) -> Result<(), String> {
    let mut req = format!("ws://{addr}/ws/{id}").into_client_request().unwrap();
    if let Some(o) = origin {
        req.headers_mut().insert("Origin", o.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(req).await {
        Ok(_) => Ok(()),
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => Err(format!("HTTP {}", r.status().as_u16())),
        Err(e) => Err(e.to_string()),
    }
}

async fn new_game(addr: &str, cookie: &str, body: Value) -> String {
    let a = client::http(addr, "POST", "/api/games", Some(cookie), &body.to_string()).await.unwrap();
    assert_eq!(a.status, 200, "{}", a.body);
    a.json()["id"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_of_another_site_cannot_open_a_live_connection() {
    let allowed: chimere_server::web::Origin = "https://chess.example.org".parse().unwrap();
    let (addr, _db) = start("origin", vec![allowed]).await;
    let c = client::identity(&addr).await.unwrap();
    let id = new_game(&addr, &c, json!({"variant": "chess", "opponent": "private"})).await;
    let own = format!("http://{addr}");
    for ok in [None, Some(own.as_str()), Some("https://chess.example.org"), Some("https://CHESS.example.org:443")] {
        assert!(ws_request(&addr, &id, ok).await.is_ok(), "{ok:?} is allowed");
    }
    for refused in [
        "http://evil.example",
        "null",
        "https://chess.example.org:8443",
        "http://chess.example.org",
        "https://127.0.0.1",
        "not an origin",
    ] {
        assert_eq!(ws_request(&addr, &id, Some(refused)).await.err().as_deref(), Some("HTTP 403"), "{refused}");
    }
    assert!("ftp://example.org".parse::<chimere_server::web::Origin>().is_err());
    assert!("https://example.org/path".parse::<chimere_server::web::Origin>().is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_over_the_hard_cap_gets_an_error_before_the_close() {
    let (addr, _db) = start("oversize", Vec::new()).await;
    let c = client::identity(&addr).await.unwrap();
    let id = new_game(&addr, &c, json!({"variant": "chess", "opponent": "private"})).await;
    for size in [100_000, 5_000_000] {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws/{id}")).await.unwrap();
        let (mut tx, mut rx) = ws.split();
        let first = rx.next().await.unwrap().unwrap();
        assert!(first.to_text().unwrap().contains("\"t\":\"state\""));
        let huge = format!("{{\"t\":\"move\",\"ply\":0,\"turn\":\"{}\"}}", "x".repeat(size));
        let len = huge.len();
        // Sent on its own task: the server stops reading once it has seen the length.
        tokio::spawn(async move {
            let _ = tx.send(Message::Text(huge.into())).await;
        });
        // The first error (presence notices may come before it).
        let v: Value = loop {
            match tokio::time::timeout(std::time::Duration::from_secs(10), rx.next()).await.unwrap() {
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(t.as_str()).unwrap();
                    if v["t"] != "presence" {
                        break v;
                    }
                }
                other => panic!("{size} bytes: an error message first, not {other:?}"),
            }
        };
        assert_eq!((v["t"].as_str(), v["code"].as_str()), (Some("error"), Some("too-large")), "{v}");
        assert!(v["message"].as_str().unwrap().contains(&format!("message of {len} bytes")), "{v}");
        match tokio::time::timeout(std::time::Duration::from_secs(10), rx.next()).await.unwrap() {
            Some(Ok(Message::Close(Some(f)))) => assert_eq!(u16::from(f.code), 1009),
            other => panic!("then a close (1009), not {other:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_with_control_or_text_direction_characters_are_refused_or_stripped() {
    let (addr, _db) = start("names", Vec::new()).await;
    let c = client::identity(&addr).await.unwrap();
    for bad in
        ["\u{202E}dlrow", "a\u{2066}b\u{2069}", "ab\u{200F}", "\u{200B}", "a\u{0007}b", "line\u{2028}two", "x\u{FEFF}"]
    {
        let a = client::http(&addr, "POST", "/api/name", Some(&c), &json!({"name": bad}).to_string()).await.unwrap();
        assert_eq!(a.status, 400, "{bad:?} refused");
        assert!(a.json()["error"].as_str().is_some_and(|e| e.contains("text-direction")), "{}", a.body);
    }
    for good in ["Zoë", "نرگس", "👩\u{200D}💻 dev", "王 芳"] {
        let a = client::http(&addr, "POST", "/api/name", Some(&c), &json!({"name": good}).to_string()).await.unwrap();
        assert_eq!(a.status, 200, "{good:?} accepted: {}", a.body);
        let me = client::http(&addr, "GET", "/api/me", Some(&c), "").await.unwrap().json();
        assert_eq!(me["name"], good);
    }
    // Names from a PGN lose those characters.
    let pgn = "[White \"\u{202E}Bob\u{202C}\"]\n[Black \"Al\u{0001}ice\"]\n\n1. e4 e5 *\n";
    let a = client::http(&addr, "POST", "/api/import", None, pgn).await.unwrap();
    assert_eq!(a.status, 200, "{}", a.body);
    let id = a.json()["id"].as_str().unwrap().to_string();
    let st = client::http(&addr, "GET", &format!("/api/games/{id}"), None, "").await.unwrap().json();
    assert_eq!(
        (st["players"]["white"]["name"].as_str(), st["players"]["black"]["name"].as_str()),
        (Some("Bob"), Some("Alice"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_shortest_clock_is_fifteen_seconds() {
    let (addr, _db) = start("clock", Vec::new()).await;
    let c = client::identity(&addr).await.unwrap();
    for (minutes, status) in [(0.0001, 400), (0.2, 400), (0.0, 400), (0.25, 200), (1.0, 200)] {
        let body = json!({"variant": "chess", "opponent": "private", "minutes": minutes}).to_string();
        let a = client::http(&addr, "POST", "/api/games", Some(&c), &body).await.unwrap();
        assert_eq!(a.status, status, "{minutes} minutes: {}", a.body);
        if status == 400 {
            assert!(a.json()["error"].as_str().unwrap().contains("15 seconds"), "{}", a.body);
        }
    }
}

#[cfg(unix)]
fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

/// Nothing left in the WAL: the file removed, or empty.
fn no_wal(db: &Path) {
    let wal = side_file(db, "-wal");
    let len = std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0);
    assert_eq!(len, 0, "{} left behind", wal.display());
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_tells_the_players_stores_every_move_and_leaves_no_wal() {
    use std::os::unix::fs::PermissionsExt;
    let (_dir, db) = temp_db("sigterm");
    // A database made world-readable before (an older version made it 0644) is made private.
    std::fs::write(&db, b"").unwrap();
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o644)).unwrap();
    let addr = format!("127.0.0.1:{}", free_port());
    let mut server = ServerProcess::spawn(db.to_str().unwrap(), &addr);
    wait_up(&addr).await;
    let (wc, bc) = (client::identity(&addr).await.unwrap(), client::identity(&addr).await.unwrap());
    let id = new_game(&addr, &wc, json!({"variant": "chess", "opponent": "private", "colour": "white"})).await;
    let mut white = Live::connect(&addr, &id, Some(&wc)).await.unwrap();
    white.recv_within(5000).await.unwrap();
    let mut black = Live::connect(&addr, &id, Some(&bc)).await.unwrap();
    black.recv_within(5000).await.unwrap();
    black.send(&json!({"t": "join"})).await.unwrap();
    white.until(5000, |v| v["t"] == "state" && v["status"] == "playing").await.unwrap();
    let mut acknowledged = 0;
    for (ply, turn) in ["e2e4", "e7e5", "g1f3"].iter().enumerate() {
        let p = if ply % 2 == 0 { &mut white } else { &mut black };
        p.send(&json!({"t": "move", "ply": ply, "turn": turn})).await.unwrap();
        p.until(5000, |v| v["t"] == "move" && v["ply"] == ply + 1).await.unwrap();
        acknowledged += 1;
    }
    for ext in ["", "-wal", "-shm"] {
        assert_eq!(mode(&side_file(&db, ext)), 0o600, "{ext}: readable by its owner only");
    }
    // A move in flight when the signal comes: stored if answered, and the players told.
    black.send(&json!({"t": "move", "ply": 3, "turn": "b8c6"})).await.unwrap();
    server.signal("TERM");
    let mut saw_move = false;
    for p in [&mut white, &mut black] {
        loop {
            match p.recv_within(10_000).await {
                Ok(v) if v["t"] == "move" => saw_move = true,
                Ok(v) if v["t"] == "closing" => {
                    assert!(v["message"].as_str().is_some_and(|m| !m.is_empty()));
                    break;
                }
                Ok(_) => {}
                Err(e) => panic!("no closing message before the end: {e}"),
            }
        }
        assert!(p.recv_within(5000).await.is_err(), "then the connection closes");
    }
    let status = server.exit().await;
    assert_eq!(status.code(), Some(0), "a clean stop exits 0");
    no_wal(&db);
    assert_eq!(mode(&db), 0o600);
    let conn = rusqlite::Connection::open(&db).unwrap();
    let (ply, moves): (u32, u32) = conn
        .query_row("SELECT ply, (SELECT count(*) FROM moves WHERE game_id = ?1) FROM games WHERE id = ?1", [&id], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!(ply, moves);
    assert!(ply >= acknowledged + u32::from(saw_move), "every acknowledged move is stored: {ply}");
    drop(conn);

    // Ctrl-C (SIGINT) stops it the same way; the game is still there.
    let mut server = ServerProcess::spawn(db.to_str().unwrap(), &addr);
    wait_up(&addr).await;
    let st = client::http(&addr, "GET", &format!("/api/games/{id}"), None, "").await.unwrap().json();
    assert_eq!(st["ply"], ply);
    server.signal("INT");
    assert_eq!(server.exit().await.code(), Some(0));
    no_wal(&db);
}
