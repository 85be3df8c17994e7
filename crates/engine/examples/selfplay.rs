//! The engine against itself in any variant, at a fixed number of nodes a move (the same
//! work whatever the machine's load), from seeded random openings. Two uses:
//!
//! - `games`: labelled positions for fitting a variant's evaluation (`examples/tune.rs`):
//!   one `FEN;result` line (white's score: 1, 0.5, 0) per quiet position (past the opening,
//!   side to move not in check, the engine's move changing no unit: no capture, promotion
//!   or conversion), the engine playing its current numbers on both sides (`--numbers
//!   hand-set`: the hand-set ones, as the committed fits were made).
//! - `match`: the current numbers against the hand-set ones ([`Numbers`]): openings in
//!   pairs, each played once with each colour; prints the score of the current numbers,
//!   the pair counts and the Elo difference with its 95 % interval (from the pairs'
//!   variance, so an opening's bias counts once).
//!
//! ```sh
//! cargo run --release -p chimere-engine --example selfplay -- games --variant dynamo --games 700 --nodes 2000 --seed 1 --numbers hand-set --out dynamo.txt
//! cargo run --release -p chimere-engine --example selfplay -- match --variant dynamo --pairs 100 --nodes 4000 --seed 1001
//! ```
//!
//! Games end by the rules (the game's outcome: status, repetition, the fifty-move rule
//! where the variant has one), by adjudication when the search's score has stayed beyond
//! 1000 cp for the same side over 6 plies, or drawn after `--max-plies` (300). Options:
//! `--random-plies N` (8), `--threads T` (2). Same arguments, same output.

use chimere_core::rng::SplitMix64;
use chimere_core::{Colour, Game, GameOptions, Status, Variant};
use chimere_engine::pos::Api;
use chimere_engine::search::{self, History, Numbers, Settings, Shared};
use chimere_engine::time::Limits;
use chimere_engine::tt::Tt;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

#[derive(Clone)]
struct Args {
    variant: String,
    count: usize,
    nodes: u64,
    seed: u64,
    random_plies: usize,
    max_plies: usize,
    threads: usize,
    out: Option<String>,
    /// The numbers both sides play with in `games`.
    numbers: Numbers,
}

/// A finished game: white's score and the positions recorded on the way.
struct Played {
    white: f64,
    positions: Vec<String>,
}

/// The units on the board by colour and kind, sorted: a turn that leaves it unchanged
/// captured, promoted and converted nothing.
fn material<V: Variant>(pos: &V) -> Vec<(u8, usize)> {
    let mut v = Vec::with_capacity(32);
    pos.for_each_piece(&mut |_, p| v.push((p.colour as u8, p.kind.index())));
    v.sort_unstable();
    v
}

/// A start position `random_plies` uniformly random legal turns from the variant's start
/// (drawn again while the game ends on the way).
fn opening<V: Api>(opts: &GameOptions, rng: &mut SplitMix64, plies: usize) -> Game<V> {
    loop {
        let mut g = Game::<V>::new(opts.clone()).expect("the start position");
        let mut ok = true;
        for _ in 0..plies {
            let legal = g.legal_turns();
            if legal.is_empty() || g.outcome().is_over() {
                ok = false;
                break;
            }
            let m = legal[rng.below(legal.len() as u64) as usize];
            g.play_move(m).expect("a legal turn");
        }
        if ok && !g.outcome().is_over() {
            return g;
        }
    }
}

fn play<V: Api>(mut g: Game<V>, numbers: [Numbers; 2], a: &Args, record: bool) -> Played {
    let tts = [Arc::new(Tt::new(16)), Arc::new(Tt::new(16))];
    let limits = Limits { nodes: Some(a.nodes), ..Limits::default() };
    let mut positions = Vec::new();
    let mut streak: (Option<Colour>, u32) = (None, 0);
    let start = g.ply();
    let white = loop {
        let out = g.outcome();
        if out.is_over() {
            break match out.status {
                Status::WhiteWins => 1.0,
                Status::BlackWins => 0.0,
                _ => 0.5,
            };
        }
        if g.ply() - start >= a.max_plies {
            break 0.5;
        }
        let stm = g.side_to_move();
        let side = if stm == Colour::White { 0 } else { 1 };
        let settings = Settings { numbers: numbers[side], ..Settings::default() };
        let shared = Shared::new(tts[side].clone(), Arc::new(AtomicBool::new(false)));
        let history = History { hashes: g.hashes().to_vec(), halfmove: g.fifty_count() };
        let o = search::search(g.position(), &history, &limits, &settings, &shared, &mut |_| {});
        let Some(best) = o.best else { break 0.5 };
        let leader = if o.score >= 1000 {
            Some(stm)
        } else if o.score <= -1000 {
            Some(stm.opponent())
        } else {
            None
        };
        streak = if leader.is_some() && leader == streak.0 { (leader, streak.1 + 1) } else { (leader, 1) };
        if let (Some(c), 6..) = streak {
            break if c == Colour::White { 1.0 } else { 0.0 };
        }
        let quiet_before = record && !g.in_check();
        let before = if quiet_before { material(g.position()) } else { Vec::new() };
        let fen = if quiet_before { g.fen() } else { String::new() };
        g.play_move(best).expect("the engine's turn is legal");
        if quiet_before && material(g.position()) == before {
            positions.push(fen);
        }
    };
    Played { white, positions }
}

/// Runs `job(i)` for `i` in `0..n` on `threads` threads; the results in order of `i`.
fn run_all<T: Send>(n: usize, threads: usize, job: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let done = Mutex::new(Vec::with_capacity(n));
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Relaxed);
                    if i >= n {
                        break;
                    }
                    let r = job(i);
                    let mut d = done.lock().expect("results");
                    d.push((i, r));
                    if d.len() % 10 == 0 {
                        eprint!("\r{} of {n}", d.len());
                    }
                }
            });
        }
    });
    eprintln!();
    let mut d = done.into_inner().expect("results");
    d.sort_by_key(|(i, _)| *i);
    d.into_iter().map(|(_, r)| r).collect()
}

fn games<V: Api>(opts: GameOptions, a: &Args) -> Result<(), String> {
    let played = run_all(a.count, a.threads, |i| {
        let mut rng = SplitMix64::new(a.seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
        let g = opening::<V>(&opts, &mut rng, a.random_plies);
        play(g, [a.numbers; 2], a, true)
    });
    let path = a.out.as_deref().ok_or("games needs --out FILE")?;
    let f = std::fs::File::create(path).map_err(|e| format!("{path}: {e}"))?;
    let mut w = std::io::BufWriter::new(f);
    let (mut lines, mut score) = (0usize, [0usize; 3]);
    for p in &played {
        score[(p.white * 2.0) as usize] += 1;
        for fen in &p.positions {
            writeln!(w, "{fen};{}", p.white).map_err(|e| format!("{path}: {e}"))?;
            lines += 1;
        }
    }
    w.flush().map_err(|e| format!("{path}: {e}"))?;
    println!(
        "{} games (white won {}, drawn {}, black won {}), {lines} positions written to {path}",
        played.len(),
        score[2],
        score[1],
        score[0]
    );
    Ok(())
}

fn match_<V: Api>(opts: GameOptions, a: &Args) -> Result<(), String> {
    let (cur, hand) = (Numbers::Current, Numbers::HandSet);
    let pairs = run_all(a.count, a.threads, |i| {
        let mut rng = SplitMix64::new(a.seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
        let g = opening::<V>(&opts, &mut rng, a.random_plies);
        let first = play(g.clone(), [cur, hand], a, false).white;
        let second = 1.0 - play(g, [hand, cur], a, false).white;
        (first, second)
    });
    let n = pairs.len() as f64;
    let (mut w, mut d, mut l) = (0, 0, 0);
    let mut penta = [0usize; 5];
    for &(x, y) in &pairs {
        for s in [x, y] {
            match s {
                1.0 => w += 1,
                0.0 => l += 1,
                _ => d += 1,
            }
        }
        penta[((x + y) * 2.0) as usize] += 1;
    }
    let per_pair: Vec<f64> = pairs.iter().map(|(x, y)| (x + y) / 2.0).collect();
    let mean = per_pair.iter().sum::<f64>() / n;
    let var = per_pair.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let margin = 1.96 * (var / n).sqrt();
    let elo = |p: f64| -400.0 * (1.0 / p.clamp(1e-3, 1.0 - 1e-3) - 1.0).log10();
    println!(
        "{}: current numbers against hand-set, {} pairs at {} nodes a move: +{w} ={d} -{l}, score {:.1} %, pairs (0, 1/4, 1/2, 3/4, 1) {:?}, Elo {:+.0} [{:+.0}, {:+.0}] (95 %)",
        a.variant,
        pairs.len(),
        a.nodes,
        100.0 * mean,
        penta,
        elo(mean),
        elo(mean - margin),
        elo(mean + margin)
    );
    Ok(())
}

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: selfplay games|match --variant V [--games N | --pairs N] [--nodes N] [--seed S] [--random-plies N] [--max-plies N] [--threads T] [--out FILE] [--numbers current|hand-set]";
    let Some(mode) = argv.first().cloned() else {
        eprintln!("{usage}");
        std::process::exit(2)
    };
    let mut a = Args {
        variant: "chess".into(),
        count: 100,
        nodes: 2000,
        seed: 1,
        random_plies: 8,
        max_plies: 300,
        threads: 2,
        out: None,
        numbers: Numbers::Current,
    };
    let mut i = 1;
    while i < argv.len() {
        let val = argv.get(i + 1).cloned().unwrap_or_default();
        let num = || -> u64 {
            val.parse().unwrap_or_else(|_| {
                eprintln!("selfplay: {} needs a number", argv[i]);
                std::process::exit(2)
            })
        };
        match argv[i].as_str() {
            "--variant" => a.variant = val.clone(),
            "--games" | "--pairs" => a.count = num() as usize,
            "--nodes" => a.nodes = num(),
            "--seed" => a.seed = num(),
            "--random-plies" => a.random_plies = num() as usize,
            "--max-plies" => a.max_plies = num() as usize,
            "--threads" => a.threads = num() as usize,
            "--out" => a.out = Some(val.clone()),
            "--numbers" => {
                a.numbers = match val.as_str() {
                    "current" => Numbers::Current,
                    "hand-set" => Numbers::HandSet,
                    _ => {
                        eprintln!("selfplay: --numbers is current or hand-set");
                        std::process::exit(2)
                    }
                }
            }
            other => {
                eprintln!("selfplay: unknown argument `{other}`\n{usage}");
                std::process::exit(2)
            }
        }
        i += 2;
    }
    let opts = GameOptions::default();
    let result = chimere_rules::VariantKind::parse(&a.variant).and_then(|kind| {
        let rules = chimere_rules::Rules::of(kind, &opts);
        chimere_rules::with_rules!(rules, V => match mode.as_str() {
            "games" => games::<V>(opts.clone(), &a),
            "match" => match_::<V>(opts.clone(), &a),
            _ => Err(usage.to_string()),
        })
    });
    if let Err(e) = result {
        eprintln!("selfplay: {e}");
        std::process::exit(2);
    }
}
