//! `chimere load`: a load benchmark of a running server. Plays many concurrent games (the
//! five variants in turn) between scripted WebSocket clients, measures each move's round
//! trip (sent → its broadcast received by the mover), then checks through the HTTP API
//! that every accepted move is stored. Bounded: every game stops after `plies` turns or
//! at its end, and the whole run after 15 minutes.

use crate::client::{self, Live};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// What one game's clients saw.
#[derive(Default)]
struct GameRun {
    id: String,
    rtts_us: Vec<u64>,
    accepted: u32,
    errors: Vec<String>,
}

const VARIANTS: [&str; 5] = ["chess", "checkered", "interweave", "fugue", "dynamo"];

/// Runs the benchmark and prints the figures.
pub fn run(server: &str, games: usize, plies: usize, variant: Option<&str>) -> Result<(), String> {
    let variants: Vec<String> = match variant {
        Some(v) => vec![v.to_string()],
        None => VARIANTS.iter().map(|v| v.to_string()).collect(),
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
                match tokio::time::timeout(Duration::from_secs(900), one_game(&addr, &variant, plies, i as u64)).await {
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
        let mut all: Vec<u64> = runs.iter().flat_map(|r| r.rtts_us.iter().copied()).collect();
        all.sort_unstable();
        let errors: Vec<&String> = runs.iter().flat_map(|r| r.errors.iter()).collect();
        let pct = |p: f64| -> f64 {
            if all.is_empty() {
                return 0.0;
            }
            all[((all.len() as f64 * p).ceil() as usize).clamp(1, all.len()) - 1] as f64 / 1000.0
        };
        println!("games: {games} concurrent ({} in turn), {plies} turns at most each", variants.join(", "));
        println!(
            "moves: {} accepted in {:.1} s ({:.0} moves/s)",
            all.len(),
            elapsed.as_secs_f64(),
            all.len() as f64 / elapsed.as_secs_f64()
        );
        println!(
            "round trip ms: p50 {:.2}  p90 {:.2}  p99 {:.2}  max {:.2}",
            pct(0.50),
            pct(0.90),
            pct(0.99),
            pct(1.0)
        );
        println!("stored: {checked} games checked, {lost} moves missing");
        println!("errors: {}", errors.len());
        for e in errors.iter().take(10) {
            println!("  {e}");
        }
        if errors.is_empty() && lost == 0 { Ok(()) } else { Err(format!("{} errors, {lost} moves lost", errors.len())) }
    })
}

/// A simple deterministic choice among the legal turns.
fn pick(legal: &[Value], seed: u64, ply: u64) -> Option<String> {
    if legal.is_empty() {
        return None;
    }
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ ply.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 29;
    let t = &legal[(x % legal.len() as u64) as usize];
    t["uci"].as_str().map(str::to_string)
}

async fn one_game(addr: &str, variant: &str, plies: usize, seed: u64) -> Result<GameRun, String> {
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
    let (w, bl) = tokio::join!(side_loop(white, "white", plies, seed), side_loop(black, "black", plies, seed));
    let mut run = GameRun { id, ..GameRun::default() };
    for r in [w, bl] {
        let (rtts, accepted, errs) = r;
        run.rtts_us.extend(rtts);
        run.accepted = run.accepted.max(accepted);
        run.errors.extend(errs);
    }
    Ok(run)
}

/// One player: moves when it is its turn, until `plies` turns or the end.
async fn side_loop(mut live: Live, me: &str, plies: usize, seed: u64) -> (Vec<u64>, u32, Vec<String>) {
    let mut rtts = Vec::new();
    let mut errors = Vec::new();
    let mut pending: Option<(u64, Instant)> = None;
    let mut ply = 0u64;
    loop {
        let v = match live.recv_within(60_000).await {
            Ok(v) => v,
            Err(e) => {
                errors.push(format!("{me}: {e}"));
                break;
            }
        };
        let (side, legal, playing) = match v["t"].as_str() {
            Some("state") => {
                ply = v["ply"].as_u64().unwrap_or(0);
                (v["side"].as_str().unwrap_or("").to_string(), v["legal"].clone(), v["status"] == "playing")
            }
            Some("move") => {
                ply = v["ply"].as_u64().unwrap_or(0);
                if let Some((p, t)) = pending
                    && p + 1 == ply
                {
                    rtts.push(t.elapsed().as_micros() as u64);
                    pending = None;
                }
                (v["side"].as_str().unwrap_or("").to_string(), v["legal"].clone(), true)
            }
            Some("error") => {
                errors.push(format!("{me}: {}", v["message"]));
                break;
            }
            _ => continue,
        };
        let legal = legal.as_array().cloned().unwrap_or_default();
        if !playing || ply as usize >= plies || legal.is_empty() {
            if ply as usize >= plies || !playing {
                break;
            }
            continue;
        }
        if side == me
            && pending.is_none()
            && let Some(turn) = pick(&legal, seed, ply)
        {
            pending = Some((ply, Instant::now()));
            if let Err(e) = live.send(&json!({"t": "move", "ply": ply, "turn": turn})).await {
                errors.push(e);
                break;
            }
        }
    }
    live.close().await;
    (rtts, ply as u32, errors)
}
