//! Perft speed of the fairy engine: `cargo run --release -p chimere-fairy --example speed
//! -- DEPTH "FEN" [CONDITION...]` (no condition: orthodox rules).

use chimere_fairy::{Game, RuleSet, conditions, position_from_fen};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args.first().and_then(|d| d.parse().ok()).expect("DEPTH");
    let fen = args.get(1).expect("FEN");
    let mut conds = Vec::new();
    for n in &args[2..] {
        conds.extend(conditions::by_name(n).expect("condition"));
    }
    let rules = RuleSet::build(conds, &[]).expect("rules");
    let mut g = Game::new(rules, position_from_fen(fen).expect("fen"));
    let t = Instant::now();
    let n = g.perft(depth);
    let s = t.elapsed().as_secs_f64();
    println!("{n} leaves in {s:.3} s: {:.2} M leaves/s", n as f64 / s / 1e6);
}
