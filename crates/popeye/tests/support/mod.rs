//! Test support: the answer to the stipulation `~1` of a Popeye input — every legal first
//! move, one `   1.X !` line each, as Popeye prints them (Duplex: the other side's after an
//! empty line). The condition oracle and the fixtures compare move lists through it; the
//! solver (`chimere solve`) answers every stipulation.

use chimere_popeye::{OptionKind, PopeyeError, Problem, build_game, first_moves, parse};

/// The `~1` answer of every problem of `input` (separated by an empty line); any other
/// stipulation is refused, naming its line.
pub fn first_moves_text(input: &str) -> Result<String, PopeyeError> {
    let problems = parse(input)?;
    let mut out = String::new();
    for (i, p) in problems.iter().enumerate() {
        let (stip, line) = p
            .stipulation
            .ok_or_else(|| PopeyeError { line: p.line, message: "problem without a stipulation".into() })?;
        if stip.to_string() != "~1" {
            return Err(PopeyeError { line, message: format!("this harness answers ~1 only, not {stip}") });
        }
        if i > 0 {
            out.push('\n');
        }
        // The move lists of the conditions as written, not bound to a goal (Exclusif
        // judging mate, as in Popeye's `~1` lists).
        let unbound = Problem { stipulation: None, ..p.clone() };
        let mut sides = vec![unbound.clone()];
        if p.has(OptionKind::Duplex) {
            let mut other = unbound.clone();
            other.half_duplex = !p.half_duplex;
            sides.push(other);
        }
        for (k, q) in sides.iter().enumerate() {
            let mut game = build_game(q)?;
            if k > 0 {
                out.push('\n');
            }
            for m in first_moves(&mut game) {
                out.push_str("   1.");
                out.push_str(&m);
                out.push_str(" !\n");
            }
        }
    }
    Ok(out)
}
