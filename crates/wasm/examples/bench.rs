//! The native half of the WebAssembly speed comparison (`web/wasm/bench.mjs` is the
//! browser half): the same code of this crate on the same positions — perft of every bench
//! position (full leaves) and the analysis's search speed (nodes per second over slices
//! for a fixed time). `cargo run --release -p chimere-wasm --example bench [SECONDS]`.
//! Prints JSON lines `{"label","perft_ms","leaves","search_nps","depth"}`.

use chimere_wasm::analysis::Analysis;
use chimere_wasm::session::{Options, Session};

fn main() {
    let secs: f64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(3.0);
    for b in chimere_rules::BENCH {
        let options =
            Options { conditions: b.conditions.iter().map(|c| c.to_string()).collect(), ..Default::default() };
        let label = format!("{} {} {}", b.variant.name(), b.conditions.join("+"), b.label);
        let depth = chimere_wasm::bench_depth(b.variant.name(), b.depth);
        let mut s = Session::new(b.variant.name(), &options, Some(b.fen)).unwrap();
        let t = std::time::Instant::now();
        let leaves = s.perft(depth, false).unwrap();
        let perft_ms = t.elapsed().as_secs_f64() * 1000.0;
        let mut a = Analysis::new(b.variant.name(), options, Some(b.fen), Vec::new(), 1, 32).unwrap();
        let (mut nodes, mut ms, mut reached) = (0u64, 0u64, 0u32);
        let t = std::time::Instant::now();
        while t.elapsed().as_secs_f64() < secs {
            let st = a.step(40);
            nodes += st.nodes;
            ms += st.ms;
            reached = st.depth;
            if st.done {
                break;
            }
        }
        let nps = nodes as f64 * 1000.0 / (ms.max(1) as f64);
        println!(
            "{{\"label\":\"{label}\",\"perft_depth\":{depth},\"leaves\":{leaves},\"perft_ms\":{perft_ms:.1},\"search_nps\":{nps:.0},\"depth\":{reached}}}"
        );
    }
}
