//! Full-leaf perft timing from the start position (best of five runs, wall clock, and
//! the process CPU time when /proc is there):
//! `cargo run --release -p chimere-interweave --example bench [depth] [fen]`.

use chimere_core::{Perft, Variant};
use chimere_interweave::Interweave;
use std::time::Instant;

/// User + system CPU time of this process in seconds (Linux), if readable.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn main() {
    let depth: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(5);
    let fen =
        std::env::args().nth(2).unwrap_or_else(|| "rbnkknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNKKNBR w 0 - 000000".into());
    let mut pos = Interweave::from_fen(&fen).expect("FEN");
    // Warm up (builds the core's magic tables outside the timing).
    Perft::<Interweave>::default().count(&mut pos, 2, false);
    for bulk in [false, true] {
        let mut best = f64::MAX;
        let mut n = 0;
        let cpu0 = cpu_seconds();
        let runs = 5;
        for _ in 0..runs {
            let t = Instant::now();
            n = Perft::<Interweave>::default().count(&mut pos, depth, bulk);
            best = best.min(t.elapsed().as_secs_f64());
        }
        let cpu = cpu0.zip(cpu_seconds()).map(|(a, b)| (b - a) / runs as f64);
        let kind = if bulk { "bulk" } else { "full-leaf" };
        print!("perft({depth}) {kind} = {n}: best {best:.3} s, {:.1} M leaves/s", n as f64 / best / 1e6);
        if let Some(c) = cpu {
            print!(" (CPU time {c:.3} s/run: {:.1} M leaves/s)", n as f64 / c / 1e6);
        }
        println!();
    }
}
