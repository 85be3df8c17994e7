//! Search speed on a few fixed positions (one thread, 16 MB table, fixed depth): nodes,
//! CPU seconds and nodes per second, per position and in total. The node counts are the
//! search's signature: a change meant only to speed the search up must leave them equal.
//!
//! ```sh
//! cargo run --release -p chimere-engine --example nps -- [--variant chess] [--depth D]
//! ```

const CHESS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let get = |k: &str| args.iter().position(|a| a == k).and_then(|i| args.get(i + 1)).cloned();
    let variant = get("--variant").unwrap_or_else(|| "chess".into());
    let depth: u32 = get("--depth").and_then(|d| d.parse().ok()).unwrap_or(10);
    let fens: Vec<String> = if variant == "chess" {
        CHESS.iter().map(|s| s.to_string()).collect()
    } else {
        match chimere_rules::create(&variant, Default::default(), None) {
            Ok(g) => vec![g.fen()],
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        }
    };
    let (mut nodes, mut secs) = (0u64, 0f64);
    for fen in &fens {
        match chimere_engine::uci::bench_search(&variant, fen, depth) {
            Ok((n, s)) => {
                println!("{n:>10} nodes {s:>8.3} s {:>8.0} knodes/s  {fen}", n as f64 / s.max(1e-9) / 1e3);
                nodes += n;
                secs += s;
            }
            Err(e) => println!("error {e}: {fen}"),
        }
    }
    println!("total {nodes} nodes {secs:.3} s {:.0} knodes/s", nodes as f64 / secs.max(1e-9) / 1e3);
}
