//! `chimere bench`: perft speed on the fixed positions of the registry, full-leaf (every
//! leaf turn played and taken back) and bulk (last ply counted), as a table.

use crate::Failure;
use chimere_rules::BENCH;
use std::time::Instant;

fn rate(leaves: u64, secs: f64) -> String {
    format!("{:.2}", leaves as f64 / secs.max(1e-9) / 1e6)
}

pub fn run(only: Option<&str>, quick: bool) -> Result<(), Failure> {
    if let Some(v) = only {
        crate::game_at(v, &chimere_core::GameOptions::default(), None)?;
    }
    println!(
        "{:<24} {:<9} {:>5} {:>13} {:>10} {:>12} {:>10} {:>12}",
        "variant", "position", "depth", "leaves", "full s", "full M/s", "bulk s", "bulk M/s"
    );
    for b in BENCH.iter().filter(|b| only.is_none_or(|v| v == b.variant)) {
        let conditions = crate::ConditionArgs { conditions: b.conditions.iter().map(|c| c.to_string()).collect() };
        let opts = crate::rules_with(b.variant, &conditions)?;
        let name = if b.conditions.is_empty() {
            b.variant.to_string()
        } else {
            format!("{}+{}", b.variant, b.conditions.join("+"))
        };
        let depth = if quick { b.depth.saturating_sub(1).max(1) } else { b.depth };
        let t = Instant::now();
        let full = match crate::game_at(b.variant, &opts, Some(b.fen)) {
            Ok(mut g) => g.perft(depth, false),
            Err(Failure(e)) => {
                println!("{name:<24} {:<9} {:>5} {}", b.label, depth, e);
                continue;
            }
        };
        let full_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let bulk = crate::game_at(b.variant, &opts, Some(b.fen))?.perft(depth, true);
        let bulk_s = t.elapsed().as_secs_f64();
        if bulk != full {
            return Err(Failure(format!("{name} {}: bulk count {bulk} differs from full-leaf {full}", b.label)));
        }
        println!(
            "{name:<24} {:<9} {:>5} {:>13} {:>10.3} {:>12} {:>10.3} {:>12}",
            b.label,
            depth,
            full,
            full_s,
            rate(full, full_s),
            bulk_s,
            rate(bulk, bulk_s)
        );
    }
    Ok(())
}
