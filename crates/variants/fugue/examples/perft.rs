//! Full-leaf perft timing from a position: `cargo run --release --example perft -- [depth] [fen]`.

use chimere_core::{Perft, Variant};
use chimere_fugue::{Fugue, START_FEN};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(5);
    let fen = args.get(2).map_or(START_FEN, |s| s.as_str());
    let mut pos = Fugue::from_fen(fen).expect("FEN");
    // Warm up: the slider tables are built on first use.
    Perft::<Fugue>::default().count(&mut pos, 2, false);
    for bulk in [false, true] {
        let t = Instant::now();
        let n = Perft::<Fugue>::default().count(&mut pos, depth, bulk);
        let s = t.elapsed().as_secs_f64();
        let kind = if bulk { "bulk" } else { "full-leaf" };
        println!("perft({depth}) {kind}: {n} leaves in {s:.3} s = {:.1} M leaves/s", n as f64 / s / 1e6);
    }
}
