//! Times full-leaf perft: `cargo run --release --example perft -- [depth] [fen]`.

use chimere_checkered::Checkered;
use chimere_core::{Perft, Variant};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(5);
    let fen = args
        .get(2)
        .cloned()
        .unwrap_or_else(|| "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah1111111111111111 - - 1".into());
    let mut pos = Checkered::from_fen(&fen).expect("FEN");
    // Warm up: builds the attack tables once, outside the timing.
    Perft::<Checkered>::default().count(&mut pos, 2, false);
    for bulk in [false, true] {
        let t = Instant::now();
        let n = Perft::<Checkered>::default().count(&mut pos, depth, bulk);
        let s = t.elapsed().as_secs_f64();
        println!(
            "perft({depth}) = {n} in {s:.3} s: {:.2} M leaves/s ({})",
            n as f64 / s / 1e6,
            if bulk { "bulk" } else { "full-leaf" }
        );
    }
}
