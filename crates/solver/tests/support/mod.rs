//! Shared by the solver's integration tests: solving an input as `chimere solve` does
//! (one thread, no banner), reading its output, and drawing random positions.
#![allow(dead_code)]

use chimere_solver::compare::trees;
use chimere_solver::{Settings, solve_input};

/// The output and error text of solving `input`.
fn run(input: &str) -> (String, String) {
    let settings = Settings { threads: 1, progress: false, hash_mb: 16, banner: false, ..Settings::default() };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    solve_input(input, &settings, &mut out, &mut err).expect("i/o");
    (String::from_utf8(out).expect("utf-8"), String::from_utf8(err).expect("utf-8"))
}

/// The output's lines (solutions and twin headers), sorted, the timing lines left out;
/// and the error text.
pub fn sorted_lines(input: &str) -> (Vec<String>, String) {
    let (text, err) = run(input);
    let mut lines: Vec<String> =
        text.lines().filter(|l| !l.contains("Time =") && !l.trim().is_empty()).map(str::to_string).collect();
    lines.sort();
    (lines, err)
}

/// The first moves of the solution tree (its top lines, as written), sorted.
pub fn top_moves(input: &str) -> Vec<String> {
    let (text, _) = run(input);
    let mut v: Vec<String> = trees(&text).remove("").unwrap_or_default().into_iter().map(|l| l.text).collect();
    v.sort();
    v
}

/// A small reproducible generator.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The name of square `i` (0 = a1, 63 = h8).
pub fn sq(i: u64) -> String {
    format!("{}{}", (b'a' + (i % 8) as u8) as char, i / 8 + 1)
}
