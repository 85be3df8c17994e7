//! `chimere load`: a load benchmark of a running server. Plays many concurrent games (the
//! five variants in turn) between scripted WebSocket clients, measures each move's round
//! trip (sent → its broadcast received by the mover), then checks through the HTTP API
//! that every accepted move is stored. Bounded: every game stops after `plies` turns or
//! at its end, and the whole run after 15 minutes.
//!
//! The players think before each move: a time drawn uniformly between half and one and a
//! half times `think_ms` (see [`DEFAULT_THINK_MS`]). With `think_ms` 0 they move the
//! instant they may: a saturation test, where the round trip is mostly queueing (moves in
//! flight / throughput), not what a player waits in play.

use crate::client::{self, Live};
use serde::Deserialize;
use serde_json::json;
use std::time::{Duration, Instant};

/// The default mean think time (ms) per move: fast play. Human blitz players take a few
/// seconds a move on average and bullet players about one; one second (each move drawn
/// between 0.5 s and 1.5 s) is bullet or fast-bot pace, so 1 000 games send about 1 000
/// moves a second — several times what as many real blitz games would.
pub const DEFAULT_THINK_MS: u64 = 1000;

/// What the benchmark reads of a server message (the rest of it is skipped unparsed).
#[derive(Deserialize)]
struct Msg {
    t: String,
    #[serde(default)]
    ply: u64,
    #[serde(default)]
    side: String,
    #[serde(default)]
    status: String,
    #[serde(default)]
    legal: Vec<Token>,
    #[serde(default)]
    message: String,
}

#[derive(Deserialize)]
struct Token {
    uci: String,
}

/// What one game's clients saw.
#[derive(Default)]
struct GameRun {
    id: String,
    /// Each move's round trip (µs) and when it was sent (ms since the start of the run).
    rtts: Vec<(u64, u64)>,
    /// When both players of the game were seated and connected (ms since the start).
    ready_ms: u64,
    accepted: u32,
    errors: Vec<String>,
}

/// Runs the benchmark and prints the figures.
pub fn run(server: &str, games: usize, plies: usize, variant: Option<&str>, think_ms: u64) -> Result<(), String> {
    let variants: Vec<String> = match variant {
        Some(v) => vec![v.to_string()],
        None => chimere_rules::names().iter().map(|v| v.to_string()).collect(),
    };
    if !(server.starts_with("127.") || server.starts_with("localhost") || server.starts_with("[::1]")) {
        return Err("the load benchmark only targets a server on this machine (127.x, localhost, [::1])".into());
    }
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    rt.block_on(async move {
        let started = Instant::now();
        let mut tasks = Vec::new();
        for i in 0..games {
            let addr = server.to_string();
            let variant = variants[i % variants.len()].clone();
            tasks.push(tokio::spawn(async move {
                let game = one_game(&addr, &variant, plies, i as u64, think_ms, started);
                match tokio::time::timeout(Duration::from_secs(900), game).await {
                    Ok(Ok(r)) => r,
                    Ok(Err(e)) => GameRun { errors: vec![e], ..GameRun::default() },
                    Err(_) => GameRun { errors: vec!["timed out".into()], ..GameRun::default() },
                }
            }));
        }
        let mut runs = Vec::new();
        for t in tasks {
            runs.push(t.await.map_err(|e| e.to_string())?);
        }
        let elapsed = started.elapsed();
        // Every accepted move stored?
        let mut lost = 0u32;
        let mut checked = 0;
        for r in &runs {
            if r.id.is_empty() {
                continue;
            }
            let a = client::http(server, "GET", &format!("/api/games/{}", r.id), None, "").await?;
            let stored = a.json()["moves"].as_array().map_or(0, |m| m.len()) as u32;
            checked += 1;
            if stored != r.accepted {
                lost += r.accepted.abs_diff(stored);
            }
        }
        let mut all: Vec<u64> = runs.iter().flat_map(|r| r.rtts.iter().map(|m| m.0)).collect();
        all.sort_unstable();
        // The set-up (identities, creating, joining, connecting: HTTP and WebSocket
        // handshakes) of the later games overlaps the first moves of the earlier ones.
        let set_up_ms = runs.iter().map(|r| r.ready_ms).max().unwrap_or(0);
        let mut after: Vec<u64> =
            runs.iter().flat_map(|r| r.rtts.iter().filter(|m| m.1 > set_up_ms).map(|m| m.0)).collect();
        after.sort_unstable();
        let errors: Vec<&String> = runs.iter().flat_map(|r| r.errors.iter()).collect();
        let pct = |all: &[u64], p: f64| -> f64 {
            if all.is_empty() {
                return 0.0;
            }
            all[((all.len() as f64 * p).ceil() as usize).clamp(1, all.len()) - 1] as f64 / 1000.0
        };
        let line = |all: &[u64]| {
            format!(
                "p50 {:.2}  p90 {:.2}  p95 {:.2}  p99 {:.2}  max {:.2}",
                pct(all, 0.50),
                pct(all, 0.90),
                pct(all, 0.95),
                pct(all, 0.99),
                pct(all, 1.0)
            )
        };
        let think = if think_ms == 0 {
            "no think time: saturation test".to_string()
        } else {
            format!("think time {} to {} ms a move (mean {think_ms})", think_ms / 2, think_ms + think_ms / 2)
        };
        println!("games: {games} concurrent ({} in turn), {plies} turns at most each; {think}", variants.join(", "));
        println!(
            "throughput: {} moves accepted in {:.1} s: {:.0} moves/s",
            all.len(),
            elapsed.as_secs_f64(),
            all.len() as f64 / elapsed.as_secs_f64()
        );
        println!("round trip ms, every move: {}", line(&all));
        let steady_s = (elapsed.as_millis() as u64).saturating_sub(set_up_ms) as f64 / 1000.0;
        println!(
            "set-up: every game seated and connected after {:.1} s; the {} moves sent after it: {} ({:.0} moves/s)",
            set_up_ms as f64 / 1000.0,
            after.len(),
            line(&after),
            after.len() as f64 / steady_s.max(0.001)
        );
        println!("stored: {checked} games checked, {lost} moves missing");
        println!("errors: {}", errors.len());
        for e in errors.iter().take(10) {
            println!("  {e}");
        }
        if errors.is_empty() && lost == 0 { Ok(()) } else { Err(format!("{} errors, {lost} moves lost", errors.len())) }
    })
}

/// A deterministic mix of the game's seed and the ply.
fn mix(seed: u64, ply: u64) -> u64 {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ ply.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 29;
    x = x.wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 32)
}

/// A simple deterministic choice among the legal turns.
fn pick(legal: &[Token], seed: u64, ply: u64) -> Option<&str> {
    if legal.is_empty() {
        return None;
    }
    Some(&legal[(mix(seed, ply) % legal.len() as u64) as usize].uci)
}

/// The think time before the move at `ply`: uniform in [mean/2, 3·mean/2].
fn think(think_ms: u64, seed: u64, ply: u64) -> Duration {
    if think_ms == 0 {
        return Duration::ZERO;
    }
    let spread = think_ms + 1;
    Duration::from_millis(think_ms / 2 + mix(seed ^ 0x0074_6869_6E6B, ply) % spread)
}

async fn one_game(
    addr: &str,
    variant: &str,
    plies: usize,
    seed: u64,
    think_ms: u64,
    started: Instant,
) -> Result<GameRun, String> {
    let a = client::identity(addr).await?;
    let b = client::identity(addr).await?;
    let body = json!({"variant": variant, "opponent": "private", "colour": "white"}).to_string();
    let created = client::http(addr, "POST", "/api/games", Some(&a), &body).await?;
    let id = created.json()["id"].as_str().ok_or_else(|| format!("create: {}", created.body))?.to_string();
    let mut black = Live::connect(addr, &id, Some(&b)).await?;
    black.recv_within(10_000).await?;
    black.send(&json!({"t": "join"})).await?;
    black.until(10_000, |v| v["t"] == "state" && v["you"] == "black").await?;
    let white = Live::connect(addr, &id, Some(&a)).await?;
    let ready_ms = started.elapsed().as_millis() as u64;
    let (w, bl) = tokio::join!(
        side_loop(white, "white", plies, seed, think_ms, started),
        side_loop(black, "black", plies, seed, think_ms, started)
    );
    let mut run = GameRun { id, ready_ms, ..GameRun::default() };
    for r in [w, bl] {
        let (rtts, accepted, errs) = r;
        run.rtts.extend(rtts);
        run.accepted = run.accepted.max(accepted);
        run.errors.extend(errs);
    }
    Ok(run)
}

/// One player: thinks, then moves when it is its turn, until `plies` turns or the end.
async fn side_loop(
    mut live: Live,
    me: &str,
    plies: usize,
    seed: u64,
    think_ms: u64,
    started: Instant,
) -> (Vec<(u64, u64)>, u32, Vec<String>) {
    let mut rtts = Vec::new();
    let mut errors = Vec::new();
    let mut pending: Option<(u64, Instant)> = None;
    let mut ply = 0u64;
    loop {
        let text = match live.recv_text_within(60_000).await {
            Ok(t) => t,
            Err(e) => {
                errors.push(format!("{me}: {e}"));
                break;
            }
        };
        let m: Msg = match serde_json::from_str(&text) {
            Ok(m) => m,
            Err(e) => {
                errors.push(format!("{me}: unreadable message: {e}"));
                break;
            }
        };
        let playing = match m.t.as_str() {
            "state" => {
                ply = m.ply;
                m.status == "playing"
            }
            "move" => {
                ply = m.ply;
                if let Some((p, t)) = pending
                    && p + 1 == ply
                {
                    rtts.push((t.elapsed().as_micros() as u64, t.duration_since(started).as_millis() as u64));
                    pending = None;
                }
                true
            }
            "error" => {
                errors.push(format!("{me}: {}", m.message));
                break;
            }
            _ => continue,
        };
        if !playing || ply as usize >= plies {
            break;
        }
        if m.side == me
            && pending.is_none()
            && let Some(turn) = pick(&m.legal, seed, ply)
        {
            let wait = think(think_ms, seed, ply);
            if !wait.is_zero() {
                tokio::time::sleep(wait).await;
            }
            let msg = json!({"t": "move", "ply": ply, "turn": turn});
            pending = Some((ply, Instant::now()));
            if let Err(e) = live.send(&msg).await {
                errors.push(e);
                break;
            }
        }
    }
    live.close().await;
    (rtts, ply as u32, errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn think_times_spread_around_their_mean() {
        assert_eq!(think(0, 1, 1), Duration::ZERO);
        let times: Vec<u64> = (0..2000).map(|p| think(1000, 7, p).as_millis() as u64).collect();
        assert!(times.iter().all(|t| (500..=1500).contains(t)));
        let mean = times.iter().sum::<u64>() as f64 / times.len() as f64;
        assert!((mean - 1000.0).abs() < 30.0, "mean {mean}");
        assert!(times.iter().filter(|t| **t < 750).count() > 300 && times.iter().filter(|t| **t > 1250).count() > 300);
    }
}
