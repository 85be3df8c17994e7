//! Full-leaf perft timing from the start position:
//! `cargo run --release -p chimere-interweave --example bench [depth]`.

use chimere_core::{Perft, Variant};
use chimere_interweave::Interweave;
use std::time::Instant;

fn main() {
    let depth: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(5);
    let fen =
        std::env::args().nth(2).unwrap_or_else(|| "rbnkknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNKKNBR w 0 - 000000".into());
    let mut pos = Interweave::from_fen(&fen).expect("FEN");
    // Warm up (builds the core's magic tables outside the timing).
    Perft::<Interweave>::default().count(&mut pos, 2, false);
    for bulk in [false, true] {
        let t = Instant::now();
        let n = Perft::<Interweave>::default().count(&mut pos, depth, bulk);
        let s = t.elapsed().as_secs_f64();
        let kind = if bulk { "bulk" } else { "full-leaf" };
        println!("perft({depth}) {kind} = {n} in {s:.3} s: {:.1} M leaves/s", n as f64 / s / 1e6);
    }
}
