//! Perft timing from the start position:
//! `cargo run --release -p chimere-dynamo --example perft_bench [depth] [bulk]`
//! (full-leaf unless `bulk`: every leaf turn is made and unmade).
use chimere_core::{GameOptions, Perft, Variant};
use chimere_dynamo::Dynamo;
use std::time::Instant;

fn main() {
    let depth: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(3);
    let bulk = std::env::args().nth(2).is_some_and(|s| s == "bulk");
    let mut pos = Dynamo::new_game(&GameOptions::default()).expect("start position");
    let mut perft = Perft::<Dynamo>::default();
    for d in 1..=depth {
        let t = Instant::now();
        let n = perft.count(&mut pos, d, bulk);
        let s = t.elapsed().as_secs_f64();
        println!(
            "perft({d}) = {n} in {s:.3} s: {:.2} M leaves/s ({})",
            n as f64 / s / 1e6,
            if bulk { "bulk" } else { "full-leaf" }
        );
    }
}
