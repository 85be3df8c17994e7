//! HTTP: the pages (one HTML shell; the TypeScript app draws each page), the embedded
//! static assets, the JSON API of the lobby and archive, and the WebSocket endpoint of
//! live play (`/ws/{game}`), with the identity cookie on every request.

use crate::hub::{ClientMsg, Hub, Refusal, now_ms};
use crate::identity::{COOKIE, Signer};
use crate::pgn;
use crate::rules;
use crate::setup::Setup;
use crate::store::{Append, GameFilter, GameRecord, MoveRecord};
use axum::Router;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json};
use chimere_rules::VariantKind;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;

/// What every handler shares.
#[derive(Clone)]
pub struct App {
    pub hub: Arc<Hub>,
    pub signer: Signer,
}

/// The player behind a request (from the signed cookie, or newly issued).
#[derive(Clone, Debug)]
pub struct Player(pub String);

/// The whole router.
pub fn router(app: App) -> Router {
    Router::new()
        .route("/", get(|| page("lobby", String::new())))
        .route("/game/{id}", get(|Path(id): Path<String>| page("game", id)))
        .route("/archive", get(|| page("archive", String::new())))
        .route("/rules", get(|| page("rules", String::new())))
        .route("/rules/{variant}", get(|Path(v): Path<String>| page("rules", v)))
        .route("/conditions", get(|| page("conditions", String::new())))
        .route("/analysis", get(|| page("analysis", String::new())))
        .route("/problems", get(|| page("problems", String::new())))
        .route("/problems/{id}", get(|Path(id): Path<String>| page("problems", id)))
        .route("/collection", get(|| page("collection", String::new())))
        .merge(crate::problems::routes())
        .route("/assets/{file}", get(asset))
        .route("/assets/wasm/{file}", get(wasm_asset))
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/api/me", get(me))
        .route("/api/name", post(set_name))
        .route("/api/games", post(create_game))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/pgn", get(game_pgn))
        .route("/api/lobby", get(lobby))
        .route("/api/archive", get(archive))
        .route("/api/import", post(import))
        .route("/api/variants", get(variants))
        .route("/api/conditions", get(conditions))
        .route("/api/stats", get(stats))
        .route("/ws/{id}", get(ws))
        .layer(middleware::from_fn_with_state(app.clone(), identity))
        .with_state(app)
}

async fn identity(State(app): State<App>, mut req: Request, next: Next) -> Response {
    let known = req
        .headers()
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|h| h.to_str().ok())
        .find_map(|h| app.signer.from_cookie_header(h));
    let (id, issued) = match known {
        Some(id) => (id, None),
        None => {
            let (id, value) = app.signer.issue();
            (id, Some(value))
        }
    };
    req.extensions_mut().insert(Player(id));
    let mut res = next.run(req).await;
    if let Some(v) = issued
        && let Ok(h) = HeaderValue::from_str(&format!("{COOKIE}={v}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax"))
    {
        res.headers_mut().append(header::SET_COOKIE, h);
    }
    res
}

fn valid_id(s: &str) -> bool {
    !s.is_empty() && s.len() <= 32 && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

async fn page(kind: &'static str, arg: String) -> Response {
    let arg = arg.as_str();
    if !arg.is_empty() && !valid_id(arg) {
        return (StatusCode::NOT_FOUND, "no such page").into_response();
    }
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>Chimère</title>\
<link rel=\"stylesheet\" href=\"/assets/app.css\"><link rel=\"stylesheet\" href=\"/assets/pieces.css\"></head>\
<body data-page=\"{kind}\" data-arg=\"{arg}\"><header class=\"top\"><a class=\"brand\" href=\"/\">Chimère</a>\
<nav><a href=\"/\">Play</a><a href=\"/archive\">Archive</a><a href=\"/rules\">Rules</a><a href=\"/conditions\">Conditions</a><a href=\"/analysis\">Analysis</a><a href=\"/problems\">Problems</a></nav>\
</header><main id=\"app\"><noscript>Chimère needs JavaScript to draw the board.</noscript></main>\
{script}</body></html>",
        // The analysis board is its own bundle (web/src/analysis/), an ES module.
        script = match kind {
            "analysis" => "<script type=\"module\" src=\"/assets/analysis.js\"></script>",
            // The problems page is its own bundle too (web/src/pages/problem.ts).
            "problems" | "collection" => "<script type=\"module\" src=\"/assets/problems.js\"></script>",
            _ => "<script src=\"/assets/app.js\"></script>",
        },
    );
    Html(html).into_response()
}

/// The built front end, embedded in the binary (see ARCHITECTURE.md: built assets are
/// checked in, made by `npm ci && npm run build` in `web/`).
const ASSETS: &[(&str, &str, &str)] = &[
    ("app.js", "text/javascript; charset=utf-8", include_str!("../assets/app.js")),
    ("app.css", "text/css; charset=utf-8", include_str!("../assets/app.css")),
    ("analysis.js", "text/javascript; charset=utf-8", include_str!("../assets/analysis.js")),
    ("analysis-worker.js", "text/javascript; charset=utf-8", include_str!("../assets/analysis-worker.js")),
    ("pieces.css", "text/css; charset=utf-8", include_str!("../assets/pieces.css")),
    ("problems.js", "text/javascript; charset=utf-8", include_str!("../assets/problems.js")),
    ("problems-worker.js", "text/javascript; charset=utf-8", include_str!("../assets/problems-worker.js")),
];

/// The rules and engine for the browser (crates/wasm, built by `web/wasm/build.sh`).
const WASM_ASSETS: &[(&str, &str, &[u8])] = &[
    ("chimere_wasm.js", "text/javascript; charset=utf-8", include_bytes!("../assets/wasm/chimere_wasm.js")),
    ("chimere_wasm_bg.wasm", "application/wasm", include_bytes!("../assets/wasm/chimere_wasm_bg.wasm")),
];

async fn wasm_asset(Path(file): Path<String>) -> Response {
    match WASM_ASSETS.iter().find(|(n, _, _)| *n == file) {
        Some((_, mime, body)) => {
            ([(header::CONTENT_TYPE, *mime), (header::CACHE_CONTROL, "no-cache")], *body).into_response()
        }
        None => (StatusCode::NOT_FOUND, "no such asset").into_response(),
    }
}

async fn asset(Path(file): Path<String>) -> Response {
    match ASSETS.iter().find(|(n, _, _)| *n == file) {
        Some((_, mime, body)) => {
            ([(header::CONTENT_TYPE, *mime), (header::CACHE_CONTROL, "no-cache")], *body).into_response()
        }
        None => (StatusCode::NOT_FOUND, "no such asset").into_response(),
    }
}

fn refuse(status: StatusCode, r: Refusal) -> Response {
    (status, Json(json!({"error": r.message, "code": r.code}))).into_response()
}

fn bad(msg: impl Into<String>) -> Response {
    refuse(StatusCode::BAD_REQUEST, Refusal::new("bad-request", msg))
}

async fn me(State(app): State<App>, Extension(p): Extension<Player>) -> Response {
    let name = app.hub.store.player_name(&p.0).ok().flatten();
    Json(json!({"id": p.0, "name": name})).into_response()
}

#[derive(Deserialize)]
struct NameReq {
    name: String,
}

async fn set_name(State(app): State<App>, Extension(p): Extension<Player>, body: String) -> Response {
    let req: NameReq = match serde_json::from_str(&body) {
        Ok(r) => r,
        Err(e) => return bad(format!("malformed request: {e}")),
    };
    let name = req.name.trim();
    if name.is_empty() || name.chars().count() > 24 || name.chars().any(|c| c.is_control()) {
        return bad("a name is 1 to 24 printable characters");
    }
    let (id, owned) = (p.0.clone(), name.to_string());
    match app.hub.blocking(move |store| store.set_player_name(&id, &owned)).await {
        Ok(()) => Json(json!({"id": p.0, "name": name})).into_response(),
        Err(r) => refuse(StatusCode::INTERNAL_SERVER_ERROR, r),
    }
}

/// A new game from the lobby.
#[derive(Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
struct CreateReq {
    variant: String,
    randomness: u8,
    seed: Option<u64>,
    /// Checkered: the switch allowed (default true).
    switch: Option<bool>,
    chess960: bool,
    conditions: Vec<String>,
    /// Clock: minutes and increment seconds; none = no clock.
    minutes: Option<f64>,
    increment: Option<u32>,
    /// `white`, `black` or `random`.
    colour: String,
    /// `seek`, `private` or `computer`.
    opponent: String,
    level: u8,
    fen: Option<String>,
}

fn random_u64() -> u64 {
    let mut b = [0u8; 8];
    if getrandom::fill(&mut b).is_err() {
        return now_ms() as u64;
    }
    u64::from_le_bytes(b)
}

async fn create_game(State(app): State<App>, Extension(p): Extension<Player>, body: String) -> Response {
    if body.len() > 16 * 1024 {
        return bad("request too large");
    }
    let req: CreateReq = match serde_json::from_str(&body) {
        Ok(r) => r,
        Err(e) => return bad(format!("malformed request: {e}")),
    };
    let variant = match VariantKind::parse(&req.variant) {
        Ok(k) => k,
        Err(e) => return bad(e),
    };
    if !req.conditions.is_empty() && !variant.descriptor().conditions {
        return bad(format!("fairy conditions do not apply to {}", variant.descriptor().label));
    }
    if req.conditions.len() > 8 || req.conditions.iter().any(|c| c.len() > 64) {
        return bad("at most 8 conditions of at most 64 characters");
    }
    if req.randomness > 2 {
        return bad("randomness is 0, 1 or 2");
    }
    let mut setup = Setup {
        randomness: req.randomness,
        seed: req.seed.unwrap_or_else(random_u64),
        params: Vec::new(),
        conditions: req.conditions.clone(),
        chess960: req.chess960,
    };
    if req.chess960 && setup.randomness == 0 {
        setup.randomness = 1;
    }
    if variant == VariantKind::Checkered && req.switch == Some(false) {
        setup.params.push(("switch".into(), "off".into()));
    }
    let initial_ms = match req.minutes {
        None => None,
        Some(m) if m > 0.0 && m <= 180.0 => Some((m * 60_000.0) as i64),
        Some(_) => return bad("minutes must be above 0 and at most 180"),
    };
    let increment_ms = i64::from(req.increment.unwrap_or(0)) * 1000;
    if increment_ms > 180_000 {
        return bad("increment is at most 180 seconds");
    }
    let white_first = match req.colour.as_str() {
        "white" => true,
        "black" => false,
        "random" | "" => random_u64() & 1 == 0,
        other => return bad(format!("colour `{other}`: white, black or random")),
    };
    let (kind, other) = match req.opponent.as_str() {
        "seek" | "" => ("seek", None),
        "private" => ("private", None),
        "computer" => {
            if app.hub.bot.is_none() {
                return refuse(
                    StatusCode::SERVICE_UNAVAILABLE,
                    Refusal::new("no-engine", "the computer opponent is not available in this build yet"),
                );
            }
            if !(1..=8).contains(&req.level) {
                return bad("level is 1 to 8");
            }
            ("computer", Some(format!("bot:{}", req.level)))
        }
        o => return bad(format!("opponent `{o}`: seek, private or computer")),
    };
    let name = app.hub.store.player_name(&p.0).ok().flatten();
    let now = now_ms();
    let (white, black, white_name, black_name) = if white_first {
        (Some(p.0.clone()), other.clone(), name, None)
    } else {
        (other.clone(), Some(p.0.clone()), None, name)
    };
    let rec = GameRecord {
        id: crate::hub::new_id(),
        variant: variant.name().to_string(),
        setup: serde_json::to_string(&setup).unwrap_or_default(),
        start_fen: req.fen.clone().unwrap_or_default(),
        white,
        black,
        white_name,
        black_name,
        kind: kind.into(),
        initial_ms,
        increment_ms,
        white_ms: initial_ms.unwrap_or(0),
        black_ms: initial_ms.unwrap_or(0),
        ply: 0,
        status: if other.is_some() { "playing" } else { "waiting" }.into(),
        result: "*".into(),
        reason: String::new(),
        created_ms: now,
        updated_ms: now,
        rematch_of: None,
        rematch: None,
    };
    match app.hub.create(rec).await {
        Ok(id) => {
            if other.is_some() {
                // Start the computer if it has the first turn.
                let _ = app.hub.start_room(&id).await;
            }
            Json(json!({"id": id, "url": format!("/game/{id}")})).into_response()
        }
        Err(r) => refuse(StatusCode::BAD_REQUEST, r),
    }
}

async fn game_state(State(app): State<App>, Extension(p): Extension<Player>, Path(id): Path<String>) -> Response {
    match app.hub.room(&id) {
        Ok(room) => {
            let r = room.lock().await;
            let seat = if r.rec.white.as_deref() == Some(&p.0) {
                Some(0)
            } else if r.rec.black.as_deref() == Some(&p.0) {
                Some(1)
            } else {
                None
            };
            Json(r.state_json(seat)).into_response()
        }
        Err(r) => refuse(StatusCode::NOT_FOUND, r),
    }
}

async fn game_pgn(State(app): State<App>, Path(id): Path<String>) -> Response {
    let store = &app.hub.store;
    let rec = match store.game(&id) {
        Ok(Some(g)) => g,
        Ok(None) => return refuse(StatusCode::NOT_FOUND, Refusal::new("unknown-game", format!("no game `{id}`"))),
        Err(e) => return refuse(StatusCode::INTERNAL_SERVER_ERROR, Refusal::new("storage", e.to_string())),
    };
    let moves = store.moves(&id).unwrap_or_default();
    let setup: Setup = serde_json::from_str(&rec.setup).unwrap_or_default();
    let text = pgn::export(&rec, &setup, &moves);
    (
        [
            (header::CONTENT_TYPE, "application/x-chess-pgn; charset=utf-8".to_string()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"chimere-{id}.pgn\"")),
        ],
        text,
    )
        .into_response()
}

/// What the server holds in memory (for operators and the tests).
async fn stats(State(app): State<App>) -> Response {
    Json(serde_json::json!({ "live_rooms": app.hub.live_rooms() })).into_response()
}

async fn lobby(State(app): State<App>) -> Response {
    match app.hub.lobby() {
        Ok(v) => Json(v).into_response(),
        Err(r) => refuse(StatusCode::INTERNAL_SERVER_ERROR, r),
    }
}

#[derive(Deserialize)]
struct ArchiveQuery {
    variant: Option<String>,
}

async fn archive(State(app): State<App>, Query(q): Query<ArchiveQuery>) -> Response {
    let filter = GameFilter {
        statuses: vec!["finished".into()],
        kind: None,
        variant: q.variant.filter(|v| !v.is_empty()),
        limit: 200,
    };
    match app.hub.store.list_games(&filter) {
        Ok(list) => {
            Json(json!({"games": list.iter().map(crate::hub::summary).collect::<Vec<Value>>()})).into_response()
        }
        Err(e) => refuse(StatusCode::INTERNAL_SERVER_ERROR, Refusal::new("storage", e.to_string())),
    }
}

async fn import(State(app): State<App>, body: String) -> Response {
    if body.len() > 256 * 1024 {
        return bad("PGN too large (256 KiB at most)");
    }
    let mut imp = match pgn::import(&body) {
        Ok(i) => i,
        Err(e) => return bad(e),
    };
    let now = now_ms();
    let history = imp.game.history();
    let start_fen = imp.game.start_fen().to_string();
    let outcome = imp.game.outcome();
    let result = if imp.result != "*" {
        imp.result.clone()
    } else {
        match outcome.status {
            chimere_core::Status::WhiteWins => "1-0".into(),
            chimere_core::Status::BlackWins => "0-1".into(),
            chimere_core::Status::Draw => "1/2-1/2".into(),
            chimere_core::Status::Ongoing => "*".into(),
        }
    };
    let rec = GameRecord {
        id: crate::hub::new_id(),
        variant: imp.variant.clone(),
        setup: serde_json::to_string(&imp.setup).unwrap_or_default(),
        start_fen,
        white: Some("import".into()),
        black: Some("import".into()),
        white_name: imp.tag("White").map(str::to_string),
        black_name: imp.tag("Black").map(str::to_string),
        kind: "import".into(),
        initial_ms: None,
        increment_ms: 0,
        white_ms: 0,
        black_ms: 0,
        ply: 0,
        status: "finished".into(),
        result,
        reason: imp.tag("Termination").unwrap_or("imported").to_string(),
        created_ms: now,
        updated_ms: now,
        rematch_of: None,
        rematch: None,
    };
    let store = &app.hub.store;
    if let Err(e) = store.create_game(&rec) {
        return refuse(StatusCode::INTERNAL_SERVER_ERROR, Refusal::new("storage", e.to_string()));
    }
    // The whole game in one group (one transaction).
    let group: Vec<Append> = history
        .iter()
        .enumerate()
        .map(|(i, t)| Append {
            game: rec.id.clone(),
            expected_ply: i as u32,
            rec: MoveRecord {
                ply: i as u32 + 1,
                uci: t.uci.clone(),
                canonical: t.canonical.clone(),
                notation: t.notation.clone(),
                white_ms: 0,
                black_ms: 0,
                at_ms: now,
            },
        })
        .collect();
    if let Some(Err(e)) = store.append_moves(&group).into_iter().find(Result::is_err) {
        return refuse(StatusCode::INTERNAL_SERVER_ERROR, Refusal::new("storage", e.to_string()));
    }
    Json(json!({"id": rec.id, "url": format!("/game/{}", rec.id), "plies": history.len()})).into_response()
}

/// Every variant's descriptor (`chimere_rules::Descriptor`: name, label, options, pieces,
/// notation, the interactions a board must offer) with its start position, and the
/// interactions fairy conditions may need: the client hard-codes no variant.
async fn variants(State(app): State<App>) -> Response {
    let list: Vec<Value> = VariantKind::ALL
        .iter()
        .map(|k| {
            let fen = rules::create_kind(*k, Setup::default().options(), None).map(|g| g.fen()).unwrap_or_default();
            let mut d = serde_json::to_value(k.descriptor()).unwrap_or(Value::Null);
            if let Value::Object(m) = &mut d {
                m.insert("start_fen".into(), Value::from(fen));
            }
            d
        })
        .collect();
    Json(json!({
        "variants": list,
        "condition_interactions": chimere_rules::CONDITION_INTERACTIONS,
        "conditions_available": true,
        "computer_available": app.hub.bot.is_some(),
    }))
    .into_response()
}

/// Every fairy condition a game may use: its name (what the lobby sends), the Popeye
/// form, the parameters, and its sentence, from the condition registry.
async fn conditions() -> Response {
    let list: Vec<Value> = chimere_fairy::conditions::registry::DESCRIPTIONS
        .iter()
        .map(|d| {
            let line = d.catalogue_line();
            let mut f = line.split('\t');
            let (_, popeye, params) = (f.next(), f.next().unwrap_or(""), f.next().unwrap_or(""));
            json!({"name": d.name, "popeye": popeye, "params": params, "summary": d.summary})
        })
        .collect();
    Json(json!({"conditions": list})).into_response()
}

/// Token bucket of one connection.
struct Bucket {
    tokens: f64,
    last: std::time::Instant,
}

async fn ws(
    State(app): State<App>,
    Extension(p): Extension<Player>,
    Path(id): Path<String>,
    upgrade: WebSocketUpgrade,
) -> Response {
    if !valid_id(&id) {
        return bad("bad game id");
    }
    // Hard cap well above the answered limit, so that a too-large message still gets a
    // clear error instead of a closed socket.
    let hard = (app.hub.limits.max_message * 16).max(64 * 1024);
    upgrade.max_message_size(hard).max_frame_size(hard).on_upgrade(move |socket| live(app, p.0, id, socket))
}

async fn live(app: App, player: String, id: String, mut socket: WebSocket) {
    let hub = app.hub.clone();
    let (room, mut rx, seat, state) = match hub.connect(&id, Some(&player)).await {
        Ok(x) => x,
        Err(r) => {
            let _ = socket.send(Message::Text(r.json().into())).await;
            let _ = socket.send(Message::Close(None)).await;
            return;
        }
    };
    let mut seat = seat;
    if socket.send(Message::Text(state.into())).await.is_err() {
        hub.disconnect(&room, seat).await;
        return;
    }
    let limits = hub.limits.clone();
    let mut bucket = Bucket { tokens: limits.rate_burst, last: std::time::Instant::now() };
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let Some(Ok(msg)) = incoming else { break };
                let text = match msg {
                    Message::Text(t) => t,
                    Message::Binary(_) => {
                        let r = Refusal::new("malformed", "binary messages are not understood: send JSON text");
                        if socket.send(Message::Text(r.json().into())).await.is_err() { break }
                        continue;
                    }
                    Message::Close(_) => break,
                    _ => continue,
                };
                let now = std::time::Instant::now();
                bucket.tokens = (bucket.tokens + now.duration_since(bucket.last).as_secs_f64() * limits.rate_per_sec).min(limits.rate_burst);
                bucket.last = now;
                let reply = if bucket.tokens < 1.0 {
                    Some(Refusal::new("rate", format!("too many messages: at most {} a second", limits.rate_per_sec)).json())
                } else if text.len() > limits.max_message {
                    bucket.tokens -= 1.0;
                    Some(Refusal::new("too-large", format!("message of {} bytes: at most {}", text.len(), limits.max_message)).json())
                } else {
                    bucket.tokens -= 1.0;
                    match serde_json::from_str::<ClientMsg>(&text) {
                        Err(e) => Some(Refusal::new("malformed", format!("malformed message: {e}")).json()),
                        Ok(m) => {
                            let joining = matches!(m, ClientMsg::Join);
                            match hub.handle(&room, Some(&player), m).await {
                                Ok(reply) => {
                                    if joining { seat = room.lock().await.rec_seat(&player); }
                                    reply
                                }
                                Err(r) => Some(r.json()),
                            }
                        }
                    }
                };
                if let Some(t) = reply
                    && socket.send(Message::Text(t.into())).await.is_err()
                {
                    break;
                }
            }
            out = rx.recv() => {
                let text: Utf8Bytes = match out {
                    Ok(t) => t,
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                        let r = room.lock().await;
                        r.state_json(seat).to_string().into()
                    }
                    Err(_) => break,
                };
                if socket.send(Message::Text(text)).await.is_err() { break }
            }
        }
    }
    hub.disconnect(&room, seat).await;
}
