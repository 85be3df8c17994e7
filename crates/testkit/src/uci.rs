//! UCI move tokens (`../shared/spec/uci-notation.md`) against the vchess harness of
//! `../shared/tools/vchess/`, and the spec's uniqueness rule.
//!
//! [`check_vchess_uci`] feeds the harness (`node moves.mjs <Variant> --batch --uci
//! [--chess960]`, one process per mode, both at once) the FEN of every record of an oracle file, of
//! one position after a turn of each record (chosen by a fixed seed) and of up to 150
//! positions after a turn with rare shapes of token (see [`harness_positions`]), and
//! compares, turn
//! by turn (matched by canonical form), our token with the harness's, `UCI_Chess960` off
//! and on. Without `node` it prints a notice and skips, unless `CHIMERE_REQUIRE_NODE` is
//! set, then it fails. [`check_uci_unique`] needs no harness: every legal turn of every
//! record and of the position after each of its turns has a token no other turn of that
//! position shares, in both modes, and [`Variant::parse_turn`] reads it back as that turn.
//! Both use the variant's [`Variant::uci`].

use crate::{Record, oracle_text, shared_dir};
use chimere_core::{Variant, rng::SplitMix64};
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::process::{Command, Stdio};

/// What [`check_vchess_uci`] compared (positions and turns of both modes added up).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct UciReport {
    /// Positions compared with `UCI_Chess960` off.
    pub positions: usize,
    /// Of which compared with `UCI_Chess960` on too.
    pub positions960: usize,
    /// Turns compared (each counted once per mode).
    pub turns: usize,
    /// Turns whose tokens differ, plus turns one side lists and the other does not.
    pub mismatches: usize,
    /// Turns compared whose token is not a plain `<from><to>`.
    pub rare: usize,
}

fn records(file: &str) -> Vec<Record> {
    oracle_text(&format!("vchess/{file}"))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| serde_json::from_str(l).unwrap_or_else(|e| panic!("{file}:{}: bad JSON: {e}", i + 1)))
        .collect()
}

/// Whether a token is a plain `<from><to>`.
fn plain(t: &str) -> bool {
    t.len() == 4 && t.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The shapes of token a turn shows, one bit each: several parts, an empty part, a unit
/// leaving the board, a letter (promotion, kind change), a mutual destruction, a token
/// that depends on `UCI_Chess960` (castling), a part removing units without adding any
/// (a capture without moving; in Dynamo, two units leaving the board).
fn shapes<V: Variant>(pos: &V, m: &V::Move) -> u32 {
    let t = pos.uci(m, false);
    let mut bits = 0;
    for part in t.split(',') {
        bits |= match part.len() {
            _ if part == "0000" => 2,
            4 if part.ends_with("--") => 4,
            5 if part.ends_with('x') => 16,
            5 => 8,
            _ => 0,
        };
    }
    if t.contains(',') {
        bits |= 1;
    }
    if t != pos.uci(m, true) {
        bits |= 32;
    }
    // A capture without moving (Remover, archer): a part that removes two or more units
    // and adds none.
    if pos.canonical(m).split(" ; ").any(|p| !p.contains('+') && p.matches('-').count() >= 2) {
        bits |= 64;
    }
    bits
}

/// Most positions [`harness_positions`] adds for their rare tokens.
const RARE_POSITIONS: usize = 150;
/// A shape of token is rare while fewer positions than this show it.
const RARE_BELOW: usize = 30;

/// The positions compared with the harness: every record; for each record the position
/// after one of its detailed turns (seeded choice); and up to [`RARE_POSITIONS`] further
/// positions after a detailed turn that show a shape of token (see [`shapes`]) fewer than
/// [`RARE_BELOW`] of the positions chosen so far show, so that the rarer rules are
/// compared too.
fn harness_positions<V: Variant>(file: &str) -> Vec<String> {
    let mut rng = SplitMix64::new(0x5543_4920_746f_6b65);
    let mut fens = Vec::new();
    let mut after = Vec::new();
    for r in records(file) {
        fens.push(r.fen.clone());
        if !r.details.is_empty() {
            let pick = rng.below(r.details.len() as u64) as usize;
            fens.push(r.details[pick].fen_after.clone());
            after.extend(r.details.iter().enumerate().filter(|(i, _)| *i != pick).map(|(_, d)| d.fen_after.clone()));
        }
    }
    let mut list = Vec::new();
    let mut shapes_of = |fen: &str| {
        let Ok(mut pos) = V::from_fen(fen) else { return 0 };
        list.clear();
        pos.legal_turns(&mut list);
        list.iter().fold(0, |b, m| b | shapes(&pos, m))
    };
    let mut counts = [0usize; 7];
    let count = |bits: u32, counts: &mut [usize; 7]| {
        for (i, c) in counts.iter_mut().enumerate() {
            *c += usize::from(bits >> i & 1 != 0);
        }
    };
    for fen in &fens {
        count(shapes_of(fen), &mut counts);
    }
    let mut seen: std::collections::HashSet<String> = fens.iter().cloned().collect();
    let mut rare = Vec::new();
    for fen in after {
        if rare.len() >= RARE_POSITIONS || seen.contains(&fen) {
            continue;
        }
        let bits = shapes_of(&fen);
        if (0..7).any(|i| bits >> i & 1 != 0 && counts[i] < RARE_BELOW) {
            count(bits, &mut counts);
            seen.insert(fen.clone());
            rare.push(fen);
        }
    }
    fens.extend(rare);
    fens
}

/// The positions compared with `UCI_Chess960` on: those where one of our tokens depends
/// on the mode (castling), and one in four of the others (seeded), since the mode changes
/// nothing else.
fn chess960_positions<V: Variant>(fens: &[String]) -> Vec<String> {
    let mut rng = SplitMix64::new(0x3936_3020_6d6f_6465);
    let mut list = Vec::new();
    fens.iter()
        .filter(|fen| {
            let sampled = rng.below(4) == 0;
            let Ok(mut pos) = V::from_fen(fen) else { return true };
            list.clear();
            pos.legal_turns(&mut list);
            sampled || list.iter().any(|m| pos.uci(m, false) != pos.uci(m, true))
        })
        .cloned()
        .collect()
}

fn node_available() -> bool {
    Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Runs the harness in batch mode on `fens`; one JSON value per FEN, in order.
fn run_harness(variant: &str, fens: &[String], chess960: bool) -> Vec<serde_json::Value> {
    let script = shared_dir().join("tools").join("vchess").join("moves.mjs");
    let mut cmd = Command::new("node");
    cmd.arg(&script).arg(variant).arg("--batch").arg("--uci");
    if chess960 {
        cmd.arg("--chess960");
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start node {}: {e}", script.display()));
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input: String = fens.iter().map(|f| format!("{f}\n")).collect();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("harness output");
    writer.join().expect("writer thread");
    assert!(out.status.success(), "harness {} {variant} failed: {}", script.display(), out.status);
    let text = String::from_utf8(out.stdout).expect("UTF-8 harness output");
    let values: Vec<serde_json::Value> =
        text.lines().map(|l| serde_json::from_str(l).expect("harness JSON line")).collect();
    assert_eq!(values.len(), fens.len(), "harness answered {} of {} FENs", values.len(), fens.len());
    values
}

/// Compares our tokens with the harness's on the positions of `oracle/vchess/<file>` (see
/// the module doc); `variant` is the harness's name (`Chess`, `Dynamo`...). Panics on any
/// mismatch, listing the first ones; returns what was compared, or `None` (after printing
/// a notice) when `node` or the harness is missing and `CHIMERE_REQUIRE_NODE` is unset.
pub fn check_vchess_uci<V: Variant>(file: &str, variant: &str) -> Option<UciReport> {
    let script = shared_dir().join("tools").join("vchess").join("moves.mjs");
    if !node_available() || !script.is_file() {
        let why = format!("node or {} not available", script.display());
        if std::env::var_os("CHIMERE_REQUIRE_NODE").is_some() {
            panic!("{why} (CHIMERE_REQUIRE_NODE is set)");
        }
        // Written to stderr directly, not through `eprintln!`, which the test harness
        // captures and hides for a passing test: the skip must show.
        let _ =
            writeln!(std::io::stderr(), "SKIPPED: UCI tokens of {file} not compared with the vchess harness: {why}");
        return None;
    }
    let fens = harness_positions::<V>(file);
    let fens960 = chess960_positions::<V>(&fens);
    let mut report = UciReport::default();
    let mut bad = Vec::new();
    // Both modes at once (two node processes).
    let (plain_answers, c960_answers) = std::thread::scope(|s| {
        let other = s.spawn(|| run_harness(variant, &fens960, true));
        let plain = run_harness(variant, &fens, false);
        (plain, other.join().expect("harness thread"))
    });
    for (chess960, fens, answers) in [(false, &fens, plain_answers), (true, &fens960, c960_answers)] {
        for (fen, ans) in fens.iter().zip(&answers) {
            if let Some(e) = ans.get("error") {
                bad.push(format!("{fen}: harness error {e}"));
                report.mismatches += 1;
                continue;
            }
            let mut pos = V::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let mut list = Vec::new();
            pos.legal_turns(&mut list);
            let ours: BTreeMap<String, String> =
                list.iter().map(|m| (pos.canonical(m), pos.uci(m, chess960))).collect();
            let theirs: BTreeMap<String, String> = ans["details"]
                .as_array()
                .expect("details")
                .iter()
                .map(|d| (d["move"].as_str().expect("move").to_string(), d["uci"].as_str().expect("uci").to_string()))
                .collect();
            if chess960 {
                report.positions960 += 1;
            } else {
                report.positions += 1;
            }
            for (canon, want) in &theirs {
                report.turns += 1;
                report.rare += usize::from(!plain(want));
                match ours.get(canon) {
                    Some(got) if got == want => {}
                    Some(got) => {
                        report.mismatches += 1;
                        bad.push(format!("{fen} (chess960 {chess960}): {canon}: ours {got}, harness {want}"));
                    }
                    None => {
                        report.mismatches += 1;
                        bad.push(format!("{fen}: {canon} (harness {want}) is not one of our turns"));
                    }
                }
            }
            for canon in ours.keys().filter(|c| !theirs.contains_key(*c)) {
                report.mismatches += 1;
                bad.push(format!("{fen}: our turn {canon} is not the harness's"));
            }
        }
    }
    eprintln!(
        "{file}: {} positions ({} also with UCI_Chess960), {} turns ({} with a token other than <from><to>) \
         compared with the harness, {} mismatches",
        report.positions, report.positions960, report.turns, report.rare, report.mismatches
    );
    assert!(
        bad.is_empty(),
        "{} UCI tokens differ from the harness:\n{}",
        bad.len(),
        bad[..bad.len().min(20)].join("\n")
    );
    Some(report)
}

/// Checks the tokens of one position: unique among its legal turns in both modes, and,
/// with `parse`, [`Variant::parse_turn`] gives back each turn from its token. Returns the
/// number of turns.
fn unique_in<V: Variant>(pos: &mut V, parse: bool, bad: &mut Vec<String>) -> usize {
    let mut list = Vec::new();
    pos.legal_turns(&mut list);
    for chess960 in [false, true] {
        let mut seen: HashMap<String, usize> = HashMap::with_capacity(list.len());
        for (i, m) in list.iter().enumerate() {
            let t = pos.uci(m, chess960);
            if t.is_empty() || t.contains(char::is_whitespace) {
                bad.push(format!("{}: {} has the bad token `{t}`", pos.fen(), pos.canonical(m)));
            }
            if let Some(&j) = seen.get(&t) {
                bad.push(format!(
                    "{} (chess960 {chess960}): {} and {} share the token {t}",
                    pos.fen(),
                    pos.canonical(&list[j]),
                    pos.canonical(m)
                ));
            }
            seen.insert(t.clone(), i);
            if parse && pos.parse_turn(&t).ok() != Some(*m) {
                bad.push(format!(
                    "{} (chess960 {chess960}): token {t} does not read back as {}",
                    pos.fen(),
                    pos.canonical(m)
                ));
            }
        }
    }
    list.len()
}

/// The spec's uniqueness rule on every record of `oracle/vchess/<file>` and on the
/// position after each legal turn of it, `UCI_Chess960` off and on; on the records'
/// positions, every token is also read back with [`Variant::parse_turn`] (not after each
/// turn: the parser lists the turns, so reading them all costs a square of their number).
/// Returns (positions, turns) checked.
pub fn check_uci_unique<V: Variant>(file: &str) -> (usize, usize) {
    let mut bad = Vec::new();
    let (mut positions, mut turns) = (0, 0);
    for r in records(file) {
        let mut pos = V::from_fen(&r.fen).unwrap_or_else(|e| panic!("{}: {e}", r.fen));
        turns += unique_in(&mut pos, true, &mut bad);
        positions += 1;
        let mut list = Vec::new();
        pos.legal_turns(&mut list);
        for m in &list {
            let u = pos.make(m);
            turns += unique_in(&mut pos, false, &mut bad);
            positions += 1;
            pos.unmake(m, u);
        }
    }
    eprintln!("{file}: {positions} positions, {turns} turns: tokens unique and parsed back");
    assert!(bad.is_empty(), "{} token problems:\n{}", bad.len(), bad[..bad.len().min(20)].join("\n"));
    (positions, turns)
}
