//! HTTP: the pages (one HTML shell; the TypeScript app draws each page), the embedded
//! static assets, the JSON API of the lobby and archive, and the WebSocket endpoint of
//! live play (`/ws/{game}`), with the identity cookie on every request.

use crate::hub::{Hub, Refusal, now_ms};
use crate::identity::{COOKIE, Signer};
use crate::pgn;
use crate::protocol::{ClientMsg, ServerMsg};
use crate::rules;
use crate::setup::Setup;
use crate::store::{Append, Fence, GameFilter, GameRecord, MoveRecord};
use axum::Router;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{ConnectInfo, Path, Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json};
use chimere_rules::VariantKind;
use serde::Deserialize;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::{Arc, LazyLock};
use tokio::sync::watch;
use tower_http::compression::CompressionLayer;
use tower_http::set_header::SetResponseHeaderLayer;

/// What every handler shares.
#[derive(Clone)]
pub struct App {
    pub hub: Arc<Hub>,
    pub signer: Signer,
    /// Origins whose pages may open live connections besides the server's own host (a
    /// deployment behind a proxy that rewrites `Host`).
    pub origins: Arc<[Origin]>,
    /// The clean stop every live connection watches.
    pub stop: Stop,
}

/// A web origin (`https://chess.example.org`, `http://127.0.0.1:8080`): what a browser
/// sends as `Origin` with a WebSocket handshake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    scheme: String,
    host: String,
    port: u16,
}

impl std::str::FromStr for Origin {
    type Err = String;
    fn from_str(s: &str) -> Result<Origin, String> {
        let bad = || format!("`{s}` is not an origin such as https://chess.example.org");
        let (scheme, rest) = s.split_once("://").ok_or_else(bad)?;
        let scheme = scheme.to_ascii_lowercase();
        let default = match scheme.as_str() {
            "http" => 80,
            "https" => 443,
            _ => return Err(bad()),
        };
        let (host, port) = host_port(rest.strip_suffix('/').unwrap_or(rest), default).ok_or_else(bad)?;
        Ok(Origin { scheme, host, port })
    }
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}://{}:{}", self.scheme, self.host, self.port)
    }
}

/// The host (lower case) and port of an authority (`host`, `host:port`, `[v6]:port`).
fn host_port(authority: &str, default_port: u16) -> Option<(String, u16)> {
    if authority.is_empty() || authority.contains(['/', '@', '?', '#', ' ']) {
        return None;
    }
    let (host, port) = match authority.strip_prefix('[') {
        Some(v6) => {
            let (h, after) = v6.split_once(']')?;
            let port = if after.is_empty() { None } else { Some(after.strip_prefix(':')?) };
            (format!("[{h}]"), port)
        }
        None => match authority.rsplit_once(':') {
            Some((h, p)) => (h.to_string(), Some(p)),
            None => (authority.to_string(), None),
        },
    };
    let port = match port {
        Some(p) => p.parse().ok()?,
        None => default_port,
    };
    (!host.is_empty() && host != "[]").then(|| (host.to_ascii_lowercase(), port))
}

/// Whether a WebSocket handshake's `Origin` may open a live connection: none (not a
/// browser: no cookie of a visitor to ride on), the server's own host (`Host`), or one
/// of the configured origins. Refused otherwise (a page of another site opening a
/// connection with the visitor's cookie).
fn origin_allowed(headers: &HeaderMap, allowed: &[Origin]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else { return true };
    let Some(origin) = origin.to_str().ok().and_then(|o| o.parse::<Origin>().ok()) else { return false };
    let same_host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| host_port(h, origin.port_default()))
        .is_some_and(|(host, port)| host == origin.host && port == origin.port);
    same_host || allowed.contains(&origin)
}

impl Origin {
    /// The port a `Host` without one means, under this origin's scheme.
    fn port_default(&self) -> u16 {
        if self.scheme == "https" { 443 } else { 80 }
    }
}

/// The clean stop: a signal every live connection watches (it then tells its player and
/// closes), and the count of live connections still open.
#[derive(Clone)]
pub struct Stop(Arc<StopInner>);

struct StopInner {
    stopping: watch::Sender<bool>,
    open: watch::Sender<usize>,
}

/// Held by a live connection while it is open.
struct Open(Stop);

impl Drop for Open {
    fn drop(&mut self) {
        self.0.0.open.send_modify(|n| *n -= 1);
    }
}

impl Default for Stop {
    fn default() -> Self {
        Stop(Arc::new(StopInner { stopping: watch::Sender::new(false), open: watch::Sender::new(0) }))
    }
}

impl Stop {
    /// Starts the stop: new requests are no longer accepted, live connections close.
    pub fn begin(&self) {
        self.0.stopping.send_replace(true);
    }

    /// Resolves once the stop has begun.
    pub async fn begun(&self) {
        let mut rx = self.0.stopping.subscribe();
        let _ = rx.wait_for(|s| *s).await;
    }

    /// Resolves once every live connection has closed.
    pub async fn all_closed(&self) {
        let mut rx = self.0.open.subscribe();
        let _ = rx.wait_for(|n| *n == 0).await;
    }

    fn open(&self) -> Open {
        self.0.open.send_modify(|n| *n += 1);
        Open(self.clone())
    }
}

/// The player behind a request (from the signed cookie, or newly issued).
#[derive(Clone, Debug)]
pub struct Player(pub String);

/// The whole router, with the headers of every answer and compression around it.
pub fn router(app: App) -> Router {
    hardened(routes(app))
}

/// What a page may load: scripts, workers, styles and WebAssembly from this server only
/// (`'wasm-unsafe-eval'` compiles the rules module; style attributes are set by the board),
/// pictures inline (`data:`), connections (fetch, WebSocket) to this server; no framing.
const CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; \
style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; \
connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The security headers on every answer (unless a handler set its own) and compression
/// (gzip or brotli, as the client accepts; small answers and upgrades stay as they are).
fn hardened(router: Router) -> Router {
    let fixed = |name: header::HeaderName, value: &'static str| {
        SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
    };
    router
        .layer(fixed(header::CONTENT_SECURITY_POLICY, CSP))
        .layer(fixed(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(fixed(header::X_FRAME_OPTIONS, "DENY"))
        .layer(fixed(header::REFERRER_POLICY, "same-origin"))
        .layer(CompressionLayer::new())
}

fn routes(app: App) -> Router {
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
    ([(header::CACHE_CONTROL, "no-cache")], Html(html)).into_response()
}

/// The built front end, embedded in the binary (see ARCHITECTURE.md: built assets are
/// checked in, made by `npm ci && npm run build` in `web/`), and the rules and engine for
/// the browser (crates/wasm, built by `web/wasm/build.sh`) under `wasm/`.
const ASSETS: &[(&str, &str, &[u8])] = &[
    ("app.js", "text/javascript; charset=utf-8", include_bytes!("../assets/app.js")),
    ("app.css", "text/css; charset=utf-8", include_bytes!("../assets/app.css")),
    ("analysis.js", "text/javascript; charset=utf-8", include_bytes!("../assets/analysis.js")),
    ("analysis-worker.js", "text/javascript; charset=utf-8", include_bytes!("../assets/analysis-worker.js")),
    ("pieces.css", "text/css; charset=utf-8", include_bytes!("../assets/pieces.css")),
    ("problems.js", "text/javascript; charset=utf-8", include_bytes!("../assets/problems.js")),
    ("problems-worker.js", "text/javascript; charset=utf-8", include_bytes!("../assets/problems-worker.js")),
    ("wasm/chimere_wasm.js", "text/javascript; charset=utf-8", include_bytes!("../assets/wasm/chimere_wasm.js")),
    ("wasm/chimere_wasm_bg.wasm", "application/wasm", include_bytes!("../assets/wasm/chimere_wasm_bg.wasm")),
];

/// Each asset's validator: a weak entity tag from its content (weak: the compressed
/// forms carry the same one), computed once.
static ETAGS: LazyLock<Vec<HeaderValue>> = LazyLock::new(|| {
    use sha2::{Digest, Sha256};
    ASSETS
        .iter()
        .map(|(_, _, body)| {
            let hash = Sha256::digest(body);
            let hex: String = hash[..12].iter().map(|b| format!("{b:02x}")).collect();
            HeaderValue::from_str(&format!("W/\"{hex}\"")).unwrap_or(HeaderValue::from_static("W/\"0\""))
        })
        .collect()
});

/// Whether `If-None-Match` names `etag` (weak comparison) or `*`.
fn not_modified(headers: &HeaderMap, etag: &HeaderValue) -> bool {
    let bare = |t: &str| t.trim().trim_start_matches("W/").to_string();
    let ours = etag.to_str().map(bare).unwrap_or_default();
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|h| h.to_str().ok())
        .flat_map(|h| h.split(','))
        .any(|t| t.trim() == "*" || bare(t) == ours)
}

/// An asset with its validator: the browser keeps it and asks again each time
/// (`no-cache`: the names carry no version), answered `304 Not Modified` while unchanged.
fn send_asset(name: &str, headers: &HeaderMap) -> Response {
    let Some(i) = ASSETS.iter().position(|(n, _, _)| *n == name) else {
        return (StatusCode::NOT_FOUND, "no such asset").into_response();
    };
    let (_, mime, body) = ASSETS[i];
    let etag = ETAGS[i].clone();
    let cache = (header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if not_modified(headers, &etag) {
        return (StatusCode::NOT_MODIFIED, [(header::ETAG, etag), cache]).into_response();
    }
    ([(header::CONTENT_TYPE, HeaderValue::from_static(mime)), (header::ETAG, etag), cache], body).into_response()
}

async fn wasm_asset(Path(file): Path<String>, headers: HeaderMap) -> Response {
    send_asset(&format!("wasm/{file}"), &headers)
}

async fn asset(Path(file): Path<String>, headers: HeaderMap) -> Response {
    if file.starts_with("wasm/") {
        return (StatusCode::NOT_FOUND, "no such asset").into_response();
    }
    send_asset(&file, &headers)
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

/// A character a name may not hold: a control, or an invisible format character that
/// reorders or hides the text around it (bidirectional embeddings, overrides, isolates and
/// marks; zero-width space, word joiners and invisible operators; byte-order mark; line
/// and paragraph separators; soft hyphen; interlinear annotations). Zero-width joiners
/// stay: scripts and emoji need them.
pub fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{00AD}' | '\u{061C}' | '\u{180E}' | '\u{200B}' | '\u{200E}' | '\u{200F}'
            | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}')
}

/// A name from elsewhere (a PGN's tags) with its [`hidden`] characters removed.
fn visible(name: &str) -> String {
    name.chars().filter(|c| !hidden(*c)).collect::<String>().trim().to_string()
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
    if name.is_empty() || name.chars().count() > 24 || name.chars().any(hidden) {
        return bad("a name is 1 to 24 visible characters, without control or text-direction characters");
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

/// The address a request counts for: the peer, or for a proxy on this machine the first
/// `X-Forwarded-For` address; `None` for local tools (loopback, unless the limits say).
fn client_address(app: &App, peer: Option<SocketAddr>, headers: &HeaderMap) -> Option<String> {
    let peer = peer?;
    if peer.ip().is_loopback() {
        if let Some(f) = headers.get("x-forwarded-for").and_then(|h| h.to_str().ok()) {
            let first = f.split(',').next().map(|a| a.trim().to_string())?;
            // A local tool behind a proxy on this machine is a local tool.
            let local = first.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback());
            return (!local || app.hub.limits.limit_loopback).then_some(first);
        }
        if !app.hub.limits.limit_loopback {
            return None;
        }
    }
    Some(peer.ip().to_string())
}

async fn create_game(
    State(app): State<App>,
    Extension(p): Extension<Player>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    body: String,
) -> Response {
    if body.len() > 16 * 1024 {
        return bad("request too large");
    }
    if let Some(addr) = client_address(&app, peer.map(|c| c.0.0), &headers)
        && let Err(r) = app.hub.may_create(&p.0, &addr)
    {
        return refuse(StatusCode::TOO_MANY_REQUESTS, r);
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
        Some(m) if m.is_finite() && m * 60_000.0 >= app.hub.limits.min_clock_ms as f64 && m <= 180.0 => {
            Some((m * 60_000.0) as i64)
        }
        Some(_) => {
            return bad(format!("the clock is {} seconds to 180 minutes", app.hub.limits.min_clock_ms / 1000));
        }
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
            // Its timers run from now (a seek expires; the computer may have the first turn).
            let _ = app.hub.start_room(&id).await;
            Json(json!({"id": id, "url": format!("/game/{id}")})).into_response()
        }
        Err(r) => refuse(StatusCode::BAD_REQUEST, r),
    }
}

async fn game_state(State(app): State<App>, Extension(p): Extension<Player>, Path(id): Path<String>) -> Response {
    match app.hub.state(&id, Some(&p.0)).await {
        Ok(state) => ([(header::CONTENT_TYPE, "application/json")], state).into_response(),
        Err(r) if r.code == "unknown-game" => refuse(StatusCode::NOT_FOUND, r),
        Err(r) => refuse(StatusCode::INTERNAL_SERVER_ERROR, r),
    }
}

async fn game_pgn(State(app): State<App>, Path(id): Path<String>) -> Response {
    let owned = id.clone();
    let found = app.hub.blocking(move |store| Ok((store.game(&owned)?, store.moves(&owned)?))).await;
    let (rec, moves) = match found {
        Ok((Some(g), moves)) => (g, moves),
        Ok((None, _)) => return refuse(StatusCode::NOT_FOUND, Refusal::new("unknown-game", format!("no game `{id}`"))),
        Err(r) => return refuse(StatusCode::INTERNAL_SERVER_ERROR, r),
    };
    let text = serde_json::from_str::<Setup>(&rec.setup)
        .map_err(|e| format!("game {id}: stored options do not read back: {e}"))
        .and_then(|setup| pgn::export(&rec, &setup, &moves));
    match text {
        Ok(text) => (
            [
                (header::CONTENT_TYPE, "application/x-chess-pgn; charset=utf-8".to_string()),
                (header::CONTENT_DISPOSITION, format!("attachment; filename=\"chimere-{id}.pgn\"")),
            ],
            text,
        )
            .into_response(),
        Err(e) => refuse(StatusCode::INTERNAL_SERVER_ERROR, Refusal::new("corrupt", e)),
    }
}

/// What the server holds in memory (for operators and the tests).
async fn stats(State(app): State<App>) -> Response {
    let process = app.hub.cluster.as_ref().map(|c| c.me.clone());
    Json(serde_json::json!({ "live_rooms": app.hub.live_rooms(), "process": process })).into_response()
}

/// The open seeks, the games being played, and the asker's own games not yet over (an
/// untimed game left by its players is resumed from there; it is not "being played").
async fn lobby(State(app): State<App>, Extension(p): Extension<Player>) -> Response {
    let mut lobby = app.hub.lobby().await;
    let filter = GameFilter {
        statuses: vec!["waiting".into(), "playing".into()],
        player: Some(p.0),
        limit: 20,
        ..GameFilter::default()
    };
    let mine = match app.hub.store.list_games(&filter) {
        Ok(list) => list.iter().map(crate::hub::summary).collect::<Vec<Value>>(),
        Err(e) => return refuse(StatusCode::SERVICE_UNAVAILABLE, Refusal::new("storage", e.to_string())),
    };
    lobby["mine"] = Value::Array(mine);
    Json(lobby).into_response()
}

#[derive(Deserialize)]
struct ArchiveQuery {
    variant: Option<String>,
}

async fn archive(State(app): State<App>, Query(q): Query<ArchiveQuery>) -> Response {
    let filter = GameFilter {
        statuses: vec!["finished".into()],
        variant: q.variant.filter(|v| !v.is_empty()),
        limit: 200,
        ..GameFilter::default()
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
        white_name: imp.tag("White").map(visible),
        black_name: imp.tag("Black").map(visible),
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
    // The whole game through the writer: the record, then its moves.
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
            // A new game, finished: no lease.
            fence: Fence::Alone,
        })
        .collect();
    if let Err(e) = app.hub.import(rec.clone(), group).await {
        return refuse(StatusCode::INTERNAL_SERVER_ERROR, e);
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
        "levels": chimere_engine::levels::LEVELS
            .iter()
            .map(|l| json!({"level": l.level, "strength": chimere_engine::levels::label(l.level)}))
            .collect::<Vec<_>>(),
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
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    if !valid_id(&id) {
        return bad("bad game id");
    }
    if !origin_allowed(&headers, &app.origins) {
        let origin = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()).unwrap_or("?");
        return refuse(
            StatusCode::FORBIDDEN,
            Refusal::new("origin", format!("live play is not open to pages of {origin}")),
        );
    }
    // Hard cap well above the answered limit: a message up to it gets an error and the
    // connection goes on; a larger one gets an error and the connection closes (1009).
    let hard = (app.hub.limits.max_message * 16).max(64 * 1024);
    upgrade.max_message_size(hard).max_frame_size(hard).on_upgrade(move |socket| live(app, p.0, id, socket))
}

/// The size of a message over the hard cap, from the error of reading it.
fn too_long(e: axum::Error) -> Option<(usize, usize)> {
    use tokio_tungstenite::tungstenite::error::{CapacityError, Error};
    match e.into_inner().downcast_ref::<Error>() {
        Some(Error::Capacity(CapacityError::MessageTooLong { size, max_size })) => Some((*size, *max_size)),
        _ => None,
    }
}

/// Sends `msg` then a close frame; the socket stays a moment so that the peer reads both
/// before the connection goes (a close with unread input resets it).
async fn close_with(socket: &mut WebSocket, msg: String, code: u16, reason: &'static str) {
    let _ = socket.send(Message::Text(msg.into())).await;
    let _ = socket.send(Message::Close(Some(CloseFrame { code, reason: reason.into() }))).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
}

fn closing() -> String {
    ServerMsg::Closing { message: "The server is stopping: reconnecting when it is back…".into() }.json()
}

async fn live(app: App, player: String, id: String, mut socket: WebSocket) {
    let _open = app.stop.open();
    let mut stopping = app.stop.0.stopping.subscribe();
    let stopped = *stopping.borrow();
    if stopped {
        close_with(&mut socket, closing(), close_code::AWAY, "the server is stopping").await;
        return;
    }
    let hub = app.hub.clone();
    let (conn, mut rx, seat, state) = match hub.connect(&id, Some(&player)).await {
        Ok(x) => x,
        Err(r) => {
            let _ = socket.send(Message::Text(r.json().into())).await;
            let _ = socket.send(Message::Close(None)).await;
            return;
        }
    };
    let mut seat = seat;
    if socket.send(Message::Text(state.into())).await.is_err() {
        hub.disconnect(&conn, seat).await;
        return;
    }
    let mut moved = conn.moved();
    let limits = hub.limits.clone();
    let mut bucket = Bucket { tokens: limits.rate_burst, last: std::time::Instant::now() };
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let msg = match incoming {
                    Some(Ok(m)) => m,
                    Some(Err(e)) => {
                        if let Some((size, max)) = too_long(e) {
                            let r = Refusal::new("too-large", format!("message of {size} bytes: at most {max} (the connection closes)"));
                            close_with(&mut socket, r.json(), close_code::SIZE, "message too large").await;
                        }
                        break;
                    }
                    None => break,
                };
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
                            match hub.handle(&conn, Some(&player), m).await {
                                Ok(reply) => {
                                    if joining { seat = hub.seat_of(&conn, &player).await; }
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
                        match hub.handle(&conn, Some(&player), ClientMsg::Sync).await {
                            Ok(Some(state)) => state.into(),
                            _ => break,
                        }
                    }
                    Err(_) => break,
                };
                if socket.send(Message::Text(text)).await.is_err() { break }
            }
            () = async { drop(stopping.wait_for(|s| *s).await) } => {
                // What the room broadcast before the stop, then the notice.
                while let Ok(text) = rx.try_recv() {
                    if socket.send(Message::Text(text)).await.is_err() { break }
                }
                close_with(&mut socket, closing(), close_code::AWAY, "the server is stopping").await;
                break;
            }
            // Several processes: the game changed process (its owner stopped or was cut
            // off). What was broadcast, then a notice; the client reconnects.
            () = async { drop(moved.wait_for(|m| *m).await) } => {
                while let Ok(text) = rx.try_recv() {
                    if socket.send(Message::Text(text)).await.is_err() { break }
                }
                let msg = ServerMsg::Closing { message: "The game is moving to another server: reconnecting…".into() }.json();
                close_with(&mut socket, msg, close_code::RESTART, "the game moved").await;
                break;
            }
        }
    }
    hub.disconnect(&conn, seat).await;
}
