//! `chimere bench`: perft speed on the fixed positions of the registry, full-leaf (every
//! leaf turn played and taken back) and bulk (last ply counted), as a table; then the
//! engine's search speed, one row per variant.

use crate::Failure;
use chimere_rules::{BENCH, VariantKind};
use std::io::Write;
use std::time::Instant;

fn rate(leaves: u64, secs: f64) -> String {
    format!("{:.2}", leaves as f64 / secs.max(1e-9) / 1e6)
}

pub fn run(only: Option<&str>, quick: bool, search_only: bool) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    if let Some(v) = only {
        crate::game_at(v, &chimere_core::GameOptions::default(), None)?;
    }
    if search_only {
        return search_rows(&mut out, only, quick);
    }
    writeln!(
        out,
        "{:<24} {:<9} {:>5} {:>13} {:>10} {:>12} {:>10} {:>12}",
        "variant", "position", "depth", "leaves", "full s", "full M/s", "bulk s", "bulk M/s"
    )?;
    for b in BENCH.iter().filter(|b| only.is_none_or(|v| v == b.variant.name())) {
        let conditions = crate::ConditionArgs { conditions: b.conditions.iter().map(|c| c.to_string()).collect() };
        let opts = crate::rules_with(b.variant.name(), &conditions)?;
        let name = if b.conditions.is_empty() {
            b.variant.name().to_string()
        } else {
            format!("{}+{}", b.variant.name(), b.conditions.join("+"))
        };
        let depth = if quick { b.depth.saturating_sub(1).max(1) } else { b.depth };
        let t = Instant::now();
        let full = match crate::game_at(b.variant.name(), &opts, Some(b.fen)) {
            Ok(mut g) => g.perft(depth, false),
            Err(e) => {
                writeln!(out, "{name:<24} {:<9} {:>5} {}", b.label, depth, e)?;
                continue;
            }
        };
        let full_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let bulk = crate::game_at(b.variant.name(), &opts, Some(b.fen))?.perft(depth, true);
        let bulk_s = t.elapsed().as_secs_f64();
        if bulk != full {
            return Err(Failure::Message(format!(
                "{name} {}: bulk count {bulk} differs from full-leaf {full}",
                b.label
            )));
        }
        writeln!(
            out,
            "{name:<24} {:<9} {:>5} {:>13} {:>10.3} {:>12} {:>10.3} {:>12}",
            b.label,
            depth,
            full,
            full_s,
            rate(full, full_s),
            bulk_s,
            rate(bulk, bulk_s)
        )?;
    }
    search_rows(&mut out, only, quick)
}

/// Search depth of the search rows, per variant (turns).
fn search_depth(variant: VariantKind) -> u32 {
    match variant {
        VariantKind::Chess => 10,
        VariantKind::Checkered => 7,
        VariantKind::Interweave => 7,
        VariantKind::Fugue => 7,
        VariantKind::Dynamo => 4,
    }
}

/// One search row per variant: nodes per second of a fixed-depth search of its first
/// bench position (one thread, 16 MB table; CPU time of the searching thread).
fn search_rows(out: &mut impl Write, only: Option<&str>, quick: bool) -> Result<(), Failure> {
    writeln!(out)?;
    writeln!(
        out,
        "{:<24} {:<9} {:>5} {:>13} {:>10} {:>12}",
        "search", "position", "depth", "nodes", "cpu s", "knodes/s"
    )?;
    let mut done: Vec<&str> = Vec::new();
    for b in BENCH.iter().filter(|b| only.is_none_or(|v| v == b.variant.name()) && b.conditions.is_empty()) {
        if done.contains(&b.variant.name()) {
            continue;
        }
        done.push(b.variant.name());
        let depth = search_depth(b.variant) - u32::from(quick) * 2;
        match chimere_engine::uci::bench_search(b.variant.name(), b.fen, depth) {
            Ok((nodes, secs)) => writeln!(
                out,
                "{:<24} {:<9} {:>5} {:>13} {:>10.3} {:>12.0}",
                b.variant.name(),
                b.label,
                depth,
                nodes,
                secs,
                nodes as f64 / secs.max(1e-9) / 1e3
            )?,
            Err(e) => writeln!(out, "{:<24} {:<9} {:>5} {e}", b.variant.name(), b.label, depth)?,
        }
    }
    Ok(())
}
