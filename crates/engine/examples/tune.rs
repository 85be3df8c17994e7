//! Fits a variant's evaluation (`src/eval/<variant>.rs`) to game results, Texel's way:
//! the static evaluation `e` of a position (white's view) predicts white's score as
//! `1 / (1 + 10^(-K e / 400))`; the numbers minimise the mean squared difference between
//! that prediction and the results of the games the positions come from.
//!
//! Data: `tools/gen_games.py` writes `FEN;result` lines (quiet positions of Stockfish
//! self-play games from random openings, each labelled with its game's result).
//!
//! ```sh
//! python3 crates/engine/tools/gen_games.py --games 1300 --nodes 3000 --seed 1 --out games.txt
//! cargo run --release -p chimere-engine --example tune -- games.txt --passes 2 --ridge 0.00001
//! ```
//!
//! Method: `K` is fitted first to the starting numbers (golden-section search), then held;
//! every parameter is then moved by a step (16, 8, 4, 2, 1 in turn) up or down while that
//! lowers the loss (coordinate descent), over the whole set. Prints the loss before and
//! after and the fitted numbers as Rust items to paste into `eval/chess.rs`. The king's
//! value is fixed (0) and the evaluation's shape (which terms exist) is the engine's own.
//!
//! The last fifth of the positions is held out: its loss, printed beside the fitted one,
//! shows whether the numbers generalise. `--ridge R` adds `R` times the sum over the
//! parameters of the squared distance from the starting (hand-set) numbers, in units of
//! 10 cp, to the loss: numbers the games say little about stay near their start.
//!
//! The other variants' data come from the engine's own games (`examples/selfplay.rs`,
//! mode `games`), fitted with `--variant V`: their piece values (the king's and any unit
//! valued 0 by hand stay 0), square weights, mobility weights, tempo, and the feature's
//! weights the variant keeps in [`EvalData::terms`] (the non-zero ones: Checkered's); the
//! other features' numbers are constants of their code and stay as they are.
//!
//! Options: `--variant V` (default chess), `--limit N` (first N positions), `--threads T`
//! (default 2), `--passes P` (passes per step, default 3), `--ridge R` (default 0), `--from
//! current` (start from, and hold the ridge towards, the numbers the engine plays with
//! instead of the hand-set ones: a refit after new terms were added, whose weights start at
//! 0), `--first-term N` (fit only the feature's terms from index N on, the other numbers
//! held: new terms added to fitted numbers), `--held FILE` (hold out FILE's positions, all of
//! them, and fit on the whole of the first file instead of its first four fifths), `--quiet
//! leaf` (replace each position by the leaf of its quiescence search: see [`quiesce`]) or
//! `--quiet drop:CP` (drop the positions whose quiescence value differs from their static
//! value by more than CP centipawns); both use the starting numbers and apply to the fitted
//! and the held-out positions alike. `--numbers FILE` starts from the numbers a run of
//! this program printed (FILE is its output) instead: with `--passes 0`, the loss of those
//! numbers on other positions.

use chimere_core::{Board, Colour, Game, GameOptions};
use chimere_engine::eval::{self, EvalData, Tables, Walk, chess::term};
use chimere_engine::pos::Api;
use std::io::BufRead;

#[derive(Copy, Clone, Debug)]
enum P {
    ValueMg(usize),
    ValueEg(usize),
    /// End game?, kind, field (centre, advance, edge, home).
    Sq(bool, usize, usize),
    Mobility(usize),
    Tempo,
    Term(usize),
}

fn get(d: &EvalData, p: P) -> i32 {
    match p {
        P::ValueMg(k) => d.value_mg[k],
        P::ValueEg(k) => d.value_eg[k],
        P::Sq(eg, k, f) => {
            let s = if eg { &d.square_eg[k] } else { &d.square_mg[k] };
            [s.centre, s.advance, s.edge, s.home][f] as i32
        }
        P::Mobility(k) => d.mobility[k],
        P::Tempo => d.tempo,
        P::Term(i) => d.terms[i],
    }
}

fn set(d: &mut EvalData, p: P, v: i32) {
    match p {
        P::ValueMg(k) => d.value_mg[k] = v,
        P::ValueEg(k) => d.value_eg[k] = v,
        P::Sq(eg, k, f) => {
            let s = if eg { &mut d.square_eg[k] } else { &mut d.square_mg[k] };
            let v = v.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
            match f {
                0 => s.centre = v,
                1 => s.advance = v,
                2 => s.edge = v,
                _ => s.home = v,
            }
        }
        P::Mobility(k) => d.mobility[k] = v,
        P::Tempo => d.tempo = v,
        P::Term(i) => d.terms[i] = v,
    }
}

/// The parameters fitted: every number of the evaluation that a position can show.
fn params(start: &EvalData, chess: bool) -> Vec<P> {
    if !chess {
        return variant_params(start);
    }
    let mut v = Vec::new();
    for k in 0..5 {
        v.push(P::ValueMg(k));
        v.push(P::ValueEg(k));
    }
    for eg in [false, true] {
        for k in 0..6 {
            for f in 0..4 {
                // A pawn is never on its first rank.
                if !(k == 0 && f == 3) {
                    v.push(P::Sq(eg, k, f));
                }
            }
        }
    }
    for k in 1..5 {
        v.push(P::Mobility(k));
    }
    v.push(P::Tempo);
    for i in 0..term::USED {
        let rank = i % 8;
        let passed = i < term::PASSED_EG + 8;
        if passed && !(1..7).contains(&rank) {
            continue;
        }
        v.push(P::Term(i));
    }
    v
}

/// The numbers of a variant other than chess: values of the kinds valued by hand, the
/// square weights and mobility of every kind it uses, the tempo.
fn variant_params(start: &EvalData) -> Vec<P> {
    let mut v = Vec::new();
    for k in 0..start.kinds {
        if start.value_mg[k] != 0 || start.value_eg[k] != 0 {
            v.push(P::ValueMg(k));
            v.push(P::ValueEg(k));
        }
    }
    for eg in [false, true] {
        for k in 0..start.kinds {
            for f in 0..4 {
                v.push(P::Sq(eg, k, f));
            }
        }
    }
    for k in 0..start.kinds {
        if start.walk[k] != Walk::None {
            v.push(P::Mobility(k));
        }
    }
    v.push(P::Tempo);
    // The feature's weights that the variant keeps in its data (Checkered's; the others
    // hold theirs as constants of their code and leave the terms at 0).
    for (i, &w) in start.terms.iter().enumerate() {
        if w != 0 {
            v.push(P::Term(i));
        }
    }
    v
}

struct Sample<V> {
    pos: V,
    result: f64,
}

fn white_eval<V: Api>(s: &Sample<V>, t: &Tables, scratch: &mut Board) -> i32 {
    let b = chimere_engine::pos::board(&s.pos, scratch);
    let e = eval::evaluate(&s.pos, b, t);
    if s.pos.side_to_move() == Colour::Black { -e } else { e }
}

/// Value given to a side mated inside the quiescence search (it has no legal turn while in
/// check); above every static value.
const MATED: i32 = 30_000;

/// Plies of captures the quiescence search looks at, at most.
const QUIESCE_PLIES: usize = 12;

/// The quiescence value of `pos` for the side to move: the static value as a floor (stand
/// pat), else the best noisy turn (captures, promotions) searched the same way, with
/// alpha-beta; the turns are tried by victim's value, most valuable first, then by the
/// capturer's, least valuable first. `line` receives the turns from `pos` to the leaf whose
/// static value the result is (empty: `pos` itself). No check evasion: a side in check
/// may stand pat, as the positions fitted are not in check and captures rarely give one.
fn quiesce<V: Api>(pos: &mut V, t: &Tables, mut alpha: i32, beta: i32, ply: usize, line: &mut Vec<V::Move>) -> i32 {
    line.clear();
    let mut scratch = Board::empty();
    let stand = eval::evaluate(pos, chimere_engine::pos::board(pos, &mut scratch), t);
    if stand >= beta || ply >= QUIESCE_PLIES {
        return stand;
    }
    alpha = alpha.max(stand);
    let mut best = stand;
    let mut turns = Vec::new();
    if !pos.noisy_turns(&mut turns) {
        return if pos.in_check() { -MATED } else { 0 };
    }
    // Victim first, then the capturer (from the board, where the rules keep one).
    let b = chimere_engine::pos::board(pos, &mut scratch);
    let value = |sq| b.get(sq).map_or(0, |p: chimere_core::Piece| t.data.value_mg[p.kind.index()]);
    turns.sort_by_cached_key(|m| {
        pos.displacement(m).map_or(0, |d| -16 * d.captured.map_or(0, value) + value(d.from) / 64)
    });
    let mut child = Vec::new();
    for m in turns {
        let undo = pos.make(&m);
        let v = -quiesce(pos, t, -beta, -alpha, ply + 1, &mut child);
        pos.unmake(&m, undo);
        if v > best {
            best = v;
            line.clear();
            line.push(m);
            line.extend_from_slice(&child);
            if v >= beta {
                break;
            }
            alpha = alpha.max(v);
        }
    }
    best
}

/// How the positions are made quiet before the fit (`--quiet`).
#[derive(Copy, Clone, PartialEq, Debug)]
enum Quiet {
    /// As they are in the file.
    AsRead,
    /// Each replaced by the leaf of its quiescence search.
    Leaf,
    /// Dropped when the quiescence value is more than this many centipawns from the static one.
    Drop(i32),
}

/// Applies `quiet` to `samples` with the numbers `d` (in `threads` threads); prints how many
/// positions it changed or dropped.
fn make_quiet<V: Api + Sync>(samples: &mut Vec<Sample<V>>, d: &EvalData, quiet: Quiet, threads: usize) {
    if quiet == Quiet::AsRead {
        return;
    }
    let t = Tables::new(d);
    let chunk = samples.len().div_ceil(threads.max(1)).max(1);
    // Per sample: keep it, and whether it changed.
    let marks: Vec<(bool, bool)> = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks_mut(chunk)
            .map(|part| {
                let t = &t;
                scope.spawn(move || {
                    let mut line = Vec::new();
                    part.iter_mut()
                        .map(|s| {
                            let mut scratch = Board::empty();
                            let stand = eval::evaluate(&s.pos, chimere_engine::pos::board(&s.pos, &mut scratch), t);
                            let q = quiesce(&mut s.pos, t, -MATED - 1, MATED + 1, 0, &mut line);
                            match quiet {
                                Quiet::Drop(cp) => ((q - stand).abs() <= cp, false),
                                _ => {
                                    for m in &line {
                                        s.pos.make(m);
                                    }
                                    (true, !line.is_empty())
                                }
                            }
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("a quiescence thread")).collect()
    });
    let changed = marks.iter().filter(|m| m.1).count();
    let mut keep = marks.iter().map(|m| m.0);
    samples.retain(|_| keep.next().unwrap_or(true));
    eprintln!("{quiet:?}: {changed} positions replaced by their leaf, {} kept", samples.len());
}

fn loss<V: Api + Sync>(samples: &[Sample<V>], d: &EvalData, k: f64, threads: usize) -> f64 {
    let t = Tables::new(d);
    let chunk = samples.len().div_ceil(threads.max(1)).max(1);
    let total: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                let t = &t;
                scope.spawn(move || {
                    let mut scratch = Board::empty();
                    part.iter()
                        .map(|s| {
                            let e = white_eval(s, t, &mut scratch) as f64;
                            let p = 1.0 / (1.0 + 10f64.powf(-k * e / 400.0));
                            (s.result - p) * (s.result - p)
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a loss thread")).sum()
    });
    total / samples.len() as f64
}

fn fit_k<V: Api + Sync>(samples: &[Sample<V>], d: &EvalData, threads: usize) -> f64 {
    let (mut a, mut b) = (0.02f64, 3.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..30 {
        let c = b - g * (b - a);
        let e = a + g * (b - a);
        if loss(samples, d, c, threads) < loss(samples, d, e, threads) {
            b = e;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

fn print_data(d: &EvalData, chess: bool) {
    let names = if chess { ["pawn", "knight", "bishop", "rook", "queen", "king"] } else { [""; 6] };
    println!("    value_mg: {:?},", &d.value_mg);
    println!("    value_eg: {:?},", &d.value_eg);
    for (label, sq) in [("square_mg", &d.square_mg), ("square_eg", &d.square_eg)] {
        println!("    {label}: [");
        for (k, s) in sq.iter().enumerate() {
            if k < 6 && chess {
                println!(
                    "        Square2 {{ centre: {}, advance: {}, edge: {}, home: {} }}, // {}",
                    s.centre, s.advance, s.edge, s.home, names[k]
                );
            } else {
                println!(
                    "        Square2 {{ centre: {}, advance: {}, edge: {}, home: {} }},",
                    s.centre, s.advance, s.edge, s.home
                );
            }
        }
        println!("    ],");
    }
    println!("    mobility: {:?},", &d.mobility);
    println!("    tempo: {},", d.tempo);
    println!("    terms: {:?},", &d.terms);
}

/// The fit's settings (the command line's options).
#[derive(Clone)]
struct Fit {
    limit: usize,
    threads: usize,
    passes: usize,
    ridge: f64,
    /// Start from the numbers played, not the hand-set ones.
    current: bool,
    /// Fit only the feature's terms from this index on.
    first_term: Option<usize>,
    /// Held-out positions from this file (else the last fifth of the first).
    held: Option<String>,
    quiet: Quiet,
    /// Start from the numbers printed in this file (an earlier run's output).
    numbers: Option<String>,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut file = None;
    let mut variant = "chess".to_string();
    let mut o = Fit {
        limit: usize::MAX,
        threads: 2,
        passes: 3,
        ridge: 0.0,
        current: false,
        first_term: None,
        held: None,
        quiet: Quiet::AsRead,
        numbers: None,
    };
    let mut i = 0;
    while i < args.len() {
        let num = |j: usize| -> usize {
            args.get(j).and_then(|x| x.parse().ok()).unwrap_or_else(|| {
                eprintln!("tune: {} needs a number", args[j - 1]);
                std::process::exit(2)
            })
        };
        match args[i].as_str() {
            "--limit" => o.limit = num(i + 1),
            "--threads" => o.threads = num(i + 1),
            "--passes" => o.passes = num(i + 1),
            "--first-term" => o.first_term = Some(num(i + 1)),
            "--variant" => variant = args.get(i + 1).cloned().unwrap_or_default(),
            "--held" => o.held = args.get(i + 1).cloned(),
            "--numbers" => o.numbers = args.get(i + 1).cloned(),
            "--quiet" => {
                o.quiet = match args.get(i + 1).map(String::as_str) {
                    Some("leaf") => Quiet::Leaf,
                    Some(x) if x.starts_with("drop:") => match x[5..].parse() {
                        Ok(cp) => Quiet::Drop(cp),
                        Err(_) => {
                            eprintln!("tune: --quiet drop:CP needs a number of centipawns");
                            std::process::exit(2)
                        }
                    },
                    _ => {
                        eprintln!("tune: --quiet takes leaf or drop:CP");
                        std::process::exit(2)
                    }
                }
            }
            "--from" => match args.get(i + 1).map(String::as_str) {
                Some("current") => o.current = true,
                Some("hand-set") => o.current = false,
                _ => {
                    eprintln!("tune: --from takes current or hand-set");
                    std::process::exit(2)
                }
            },
            "--ridge" => {
                o.ridge = args.get(i + 1).and_then(|x| x.parse().ok()).unwrap_or_else(|| {
                    eprintln!("tune: --ridge needs a number");
                    std::process::exit(2)
                })
            }
            f => {
                file = Some(f.to_string());
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    let Some(file) = file else {
        eprintln!(
            "usage: tune FILE [--variant V] [--limit N] [--threads T] [--passes P] [--ridge R] [--from current|hand-set] [--first-term N] [--held FILE] [--quiet leaf|drop:CP] [--numbers FILE]"
        );
        std::process::exit(2)
    };
    let opts = GameOptions::default();
    let rules = chimere_rules::VariantKind::parse(&variant).map(|kind| chimere_rules::Rules::of(kind, &opts));
    let rules = rules.unwrap_or_else(|e| {
        eprintln!("tune: {e}");
        std::process::exit(2)
    });
    let chess = variant.eq_ignore_ascii_case("chess");
    chimere_rules::with_rules!(rules, V => fit::<V>(&file, chess, &o));
}

/// Reads the numbers [`print_data`] wrote (in `file`, among other lines) into `d`.
fn read_numbers(file: &str, d: &mut EvalData) {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| {
        eprintln!("tune: {file}: {e}");
        std::process::exit(2)
    });
    let ints = |s: &str| -> Vec<i32> {
        s.split(|c: char| !(c.is_ascii_digit() || c == '-')).filter_map(|x| x.parse().ok()).collect()
    };
    let fill = |to: &mut [i32], from: &[i32]| {
        if to.len() != from.len() {
            eprintln!("tune: {file}: {} numbers where {} are expected", from.len(), to.len());
            std::process::exit(2)
        }
        to.copy_from_slice(from)
    };
    // Square2 rows, in order: the middle game's 16, then the end game's.
    let mut squares = Vec::new();
    for line in text.lines().map(str::trim) {
        let (key, rest) = line.split_once(':').unwrap_or(("", ""));
        match key {
            "value_mg" => fill(&mut d.value_mg, &ints(rest)),
            "value_eg" => fill(&mut d.value_eg, &ints(rest)),
            "mobility" => fill(&mut d.mobility, &ints(rest)),
            "tempo" => d.tempo = ints(rest).first().copied().unwrap_or(d.tempo),
            "terms" => fill(&mut d.terms, &ints(rest)),
            _ if line.starts_with("Square2") => {
                // The numbers between the braces (the name has a digit).
                let row = ints(line.split(['{', '}']).nth(1).unwrap_or(""));
                if let [centre, advance, edge, home] = row[..] {
                    squares.push(eval::Square2 {
                        centre: centre as i16,
                        advance: advance as i16,
                        edge: edge as i16,
                        home: home as i16,
                    });
                }
            }
            _ => {}
        }
    }
    if squares.len() != 32 {
        eprintln!("tune: {file}: {} square rows where 32 are expected", squares.len());
        std::process::exit(2)
    }
    d.square_mg.copy_from_slice(&squares[..16]);
    d.square_eg.copy_from_slice(&squares[16..]);
}

/// The first `limit` positions of `file` (`FEN;result` lines).
fn read_samples<V: Api>(file: &str, limit: usize) -> Vec<Sample<V>> {
    let f = std::fs::File::open(file).unwrap_or_else(|e| {
        eprintln!("tune: {file}: {e}");
        std::process::exit(2)
    });
    let mut samples = Vec::new();
    for (n, line) in std::io::BufReader::new(f).lines().enumerate() {
        if samples.len() >= limit {
            break;
        }
        let Ok(line) = line else { break };
        let Some((fen, r)) = line.rsplit_once(';') else { continue };
        match (Game::<V>::from_fen(GameOptions::default(), fen), r.trim().parse::<f64>()) {
            (Ok(g), Ok(result)) => samples.push(Sample { pos: g.position().clone(), result }),
            _ => eprintln!("tune: line {} skipped: {line}", n + 1),
        }
    }
    if samples.len() < 10 {
        eprintln!("tune: fewer than 10 positions in {file}");
        std::process::exit(2);
    }
    samples
}

fn fit<V: Api + Sync>(file: &str, chess: bool, o: &Fit) {
    let Fit { limit, threads, passes, ridge, current, first_term, .. } = *o;
    let mut samples = read_samples::<V>(file, limit);
    let mut held_samples = o.held.as_deref().map(|h| read_samples::<V>(h, usize::MAX));
    let mut d = if current { V::eval_data() } else { V::hand_set_data() }.clone();
    if let Some(n) = &o.numbers {
        read_numbers(n, &mut d);
    }
    let start_data = d.clone();
    make_quiet(&mut samples, &d, o.quiet, threads);
    if let Some(h) = held_samples.as_mut() {
        make_quiet(h, &d, o.quiet, threads);
    }
    // The held-out file, else the last fifth (whole games, but for the one cut), measures
    // the fit.
    let (train, held) = match &held_samples {
        Some(h) => (&samples[..], &h[..]),
        None => samples.split_at(samples.len() - samples.len() / 5),
    };
    let k = fit_k(train, &d, threads);
    let mut ps = params(&start_data, chess);
    if let Some(first) = first_term {
        ps.retain(|p| matches!(p, P::Term(i) if *i >= first));
    }
    // Ridge: a penalty per parameter on its squared distance (in units of 10 cp) from the
    // starting numbers, so that numbers the games say little about stay near them.
    let penalty = |d: &EvalData| -> f64 {
        ridge * ps.iter().map(|&p| ((get(d, p) - get(&start_data, p)) as f64 / 10.0).powi(2)).sum::<f64>()
    };
    let objective = |d: &EvalData| loss(train, d, k, threads) + penalty(d);
    let start = loss(train, &d, k, threads);
    let start_held = loss(held, &d, k, threads);
    eprintln!(
        "{} positions ({} fitted, {} held out), K = {k:.4}, ridge {ridge}, starting loss {start:.6} (held out {start_held:.6})",
        samples.len(),
        train.len(),
        held.len()
    );
    let mut best = objective(&d);
    for step in [16, 8, 4, 2, 1] {
        for pass in 0..passes {
            let mut improved = 0;
            for &p in &ps {
                let v = get(&d, p);
                for dir in [step, -step] {
                    let mut moved = false;
                    loop {
                        let cur = get(&d, p);
                        set(&mut d, p, cur + dir);
                        let l = objective(&d);
                        if l < best {
                            best = l;
                            moved = true;
                        } else {
                            set(&mut d, p, cur);
                            break;
                        }
                    }
                    if moved {
                        break;
                    }
                }
                if get(&d, p) != v {
                    improved += 1;
                }
            }
            eprintln!(
                "step {step} pass {}: {improved} numbers moved, loss {:.6} (held out {:.6})",
                pass + 1,
                loss(train, &d, k, threads),
                loss(held, &d, k, threads)
            );
            if improved == 0 {
                break;
            }
        }
    }
    println!(
        "// {} positions of {file} ({} fitted), K = {k:.4}, ridge {ridge}: loss {start:.6} -> {:.6}, held out {start_held:.6} -> {:.6}",
        samples.len(),
        train.len(),
        loss(train, &d, k, threads),
        loss(held, &d, k, threads)
    );
    print_data(&d, chess);
}
