//! `Option Intelligent` with holes (`Condition Hole`, on a file or two) and with dummies
//! (`Du`: units that never move, which block, can be captured and never guard) prints
//! exactly the solutions of the normal search: random small problems (`h=2`, `h=3`,
//! `ser-h=4`, `ser-h=5`, `h#2`, `h#3`, `ser-h#4`) solved both ways, the sets of solution
//! lines compared.

mod support;
use support::sorted_lines as solve;
use support::{Rng, sq};

/// What a random problem carries besides the orthodox units.
#[derive(Clone, Copy)]
enum Extra {
    /// Holes on part of one or two files.
    Holes,
    /// One or two dummies of each side.
    Dummies,
}

/// A random problem: kings apart (the black one often on an edge), a few units of each
/// side, pawns off the first and last ranks, and the holes or dummies of `extra`.
fn problem(rng: &mut Rng, stip: &str, extra: Extra) -> String {
    let mut used = Vec::new();
    let (wk, bk) = loop {
        let wk = rng.below(64);
        let bk = if rng.below(2) == 0 { 56 + rng.below(8) } else { rng.below(64) };
        if (wk % 8).abs_diff(bk % 8) > 1 || (wk / 8).abs_diff(bk / 8) > 1 {
            break (wk, bk);
        }
    };
    used.push(wk);
    used.push(bk);
    let mut holes = String::new();
    if let Extra::Holes = extra {
        for _ in 0..1 + rng.below(2) {
            let file = rng.below(8);
            let low = rng.below(5);
            for rank in low..low + 2 + rng.below(3) {
                let s = rank.min(7) * 8 + file;
                if !used.contains(&s) {
                    used.push(s);
                    holes.push_str(&sq(s));
                }
            }
        }
    }
    let mut white = vec![format!("K{}", sq(wk))];
    let mut black = vec![format!("K{}", sq(bk))];
    let mut put = |rng: &mut Rng, kinds: &[&str], white_side: bool, used: &mut Vec<u64>| {
        let k = kinds[rng.below(kinds.len() as u64) as usize];
        let s = rng.below(64);
        if used.contains(&s) || (k == "P" && !(8..56).contains(&s)) {
            return;
        }
        used.push(s);
        if white_side { &mut white } else { &mut black }.push(format!("{k}{}", sq(s)));
    };
    for _ in 0..1 + rng.below(2) {
        put(rng, &["Q", "R", "B", "S", "P"], true, &mut used);
    }
    for _ in 0..1 + rng.below(3) {
        put(rng, &["R", "B", "S", "P", "P"], false, &mut used);
    }
    if let Extra::Dummies = extra {
        for white_side in [true, false] {
            for _ in 0..1 + rng.below(2) {
                put(rng, &["Du"], white_side, &mut used);
            }
        }
    }
    let condition = if holes.is_empty() { String::new() } else { format!("\nCondition Hole {holes}") };
    format!(
        "BeginProblem\nStipulation {stip}\nOption NoBoard\nPieces White {} Black {}{condition}\nEndProblem\n",
        white.join(" "),
        black.join(" ")
    )
}

/// Solves `count` random problems both ways; returns the number of solution lines
/// (ending in the goal's sign).
fn compare(seed: u64, count: usize, stips: &[&str], extra: Extra) -> usize {
    let mut rng = Rng(seed);
    let mut solutions = 0;
    for i in 0..count {
        let stip = stips[i % stips.len()];
        let normal = problem(&mut rng, stip, extra);
        let intelligent = normal.replace("Option NoBoard", "Option NoBoard Intelligent");
        let (a, ea) = solve(&normal);
        let (b, eb) = solve(&intelligent);
        assert_eq!(ea, eb, "errors differ for\n{normal}");
        assert!(ea.is_empty(), "{ea} for\n{normal}");
        assert_eq!(a, b, "solutions differ for\n{intelligent}");
        solutions += a.iter().filter(|l| l.ends_with('=') || l.ends_with('#')).count();
    }
    solutions
}

#[test]
fn intelligent_stalemates_with_holes_print_the_normal_solutions() {
    let found = compare(30, 12, &["h=2", "ser-h=4", "h=3", "ser-h=5"], Extra::Holes);
    eprintln!("{found} solutions");
    assert!(found >= 10, "only {found} solutions in the sample");
}

#[test]
fn intelligent_stalemates_with_dummies_print_the_normal_solutions() {
    let found = compare(35, 20, &["h=2", "ser-h=4", "h=3", "ser-h=5"], Extra::Dummies);
    eprintln!("{found} solutions");
    assert!(found >= 10, "only {found} solutions in the sample");
}

#[test]
fn intelligent_mates_with_dummies_print_the_normal_solutions() {
    let found = compare(32, 12, &["h#2", "ser-h#4", "h#3", "ser-h#5"], Extra::Dummies);
    eprintln!("{found} solutions");
    assert!(found >= 10, "only {found} solutions in the sample");
}

/// A series stalemate under Hole whose lines cross (the black king's walk and the pawns'
/// steps in any order reach the same positions): the walk lends a solved position's lines
/// to the other orders reaching it, and prints exactly the normal search's lines.
#[test]
fn intelligent_series_stalemates_share_the_lines_of_a_position_reached_twice() {
    let normal = "BeginProblem\nStipulation ser-h=7\nOption NoBoard\nPieces White Kc8 Qc5 \
                  Black Ke4 Pg5 Sg1 Ph3\nCondition Hole f4f5f6\nEndProblem\n";
    let intelligent = normal.replace("Option NoBoard", "Option NoBoard Intelligent");
    let (a, ea) = solve(normal);
    let (b, eb) = solve(&intelligent);
    assert!(ea.is_empty() && eb.is_empty(), "{ea}{eb}");
    assert_eq!(a, b, "solutions differ");
    let found = a.iter().filter(|l| l.ends_with('=')).count();
    assert!(found >= 2, "only {found} solutions");
}
