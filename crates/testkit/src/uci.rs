//! UCI move tokens (`../shared/spec/uci-notation.md`) against the vchess harness of
//! `../shared/tools/vchess/`, and the spec's uniqueness rule.
//!
//! [`check_vchess_uci`] feeds the harness (`node moves.mjs <Variant> --batch --uci
//! [--chess960]`, one process per mode) the FEN of every record of an oracle file, of
//! one position after a turn of each record (chosen by a fixed seed) and of up to 150
//! positions after a turn with rare tokens (see [`harness_positions`]), and compares, turn
//! by turn (matched by canonical form), our token with the harness's, `UCI_Chess960` off
//! and on. Without `node` it prints a notice and skips, unless `CHIMERE_REQUIRE_NODE` is
//! set, then it fails. [`check_uci_unique`] needs no harness: every legal turn of every
//! record and of the position after each of its turns has a token no other turn of that
//! position shares, in both modes, and the token finds that turn back.

use crate::{Record, oracle_text, shared_dir};
use chimere_core::{Variant, rng::SplitMix64};
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::process::{Command, Stdio};

/// How a variant writes a turn's token: position before the turn, the turn, `UCI_Chess960`.
pub type TokenFn<V> = fn(&V, &<V as Variant>::Move, bool) -> String;

/// A token parser for [`check_uci_unique`]: the index of the turn in `legal_turns`' list.
pub type FindFn<'a, V> = &'a dyn Fn(&mut V, &str) -> Option<usize>;

/// What [`check_vchess_uci`] compared.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct UciReport {
    /// Positions compared (each counted once per `UCI_Chess960` mode).
    pub positions: usize,
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

/// Most positions [`harness_positions`] adds for their rare tokens.
const RARE_POSITIONS: usize = 150;

/// The positions compared with the harness: every record; for each record the position
/// after one of its detailed turns (seeded choice); and up to [`RARE_POSITIONS`] further
/// positions after a detailed turn where one of our tokens is not a plain `<from><to>`
/// (parts, passes, exits, letters, Remover and archer captures...), so that the rarer
/// rules are compared too.
fn harness_positions<V: Variant>(file: &str, token: TokenFn<V>) -> Vec<String> {
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
    let mut seen: std::collections::HashSet<String> = fens.iter().cloned().collect();
    let mut rare = Vec::new();
    let mut list = Vec::new();
    for fen in after {
        if rare.len() >= RARE_POSITIONS || seen.contains(&fen) {
            continue;
        }
        let Ok(mut pos) = V::from_fen(&fen) else { continue };
        list.clear();
        pos.legal_turns(&mut list);
        if list.iter().any(|m| !plain(&token(&pos, m, false))) {
            seen.insert(fen.clone());
            rare.push(fen);
        }
    }
    fens.extend(rare);
    fens
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
pub fn check_vchess_uci<V: Variant>(file: &str, variant: &str, token: TokenFn<V>) -> Option<UciReport> {
    let script = shared_dir().join("tools").join("vchess").join("moves.mjs");
    if !node_available() || !script.is_file() {
        let why = format!("node or {} not available", script.display());
        if std::env::var_os("CHIMERE_REQUIRE_NODE").is_some() {
            panic!("{why} (CHIMERE_REQUIRE_NODE is set)");
        }
        eprintln!("SKIPPED: UCI tokens of {file} not compared with the vchess harness: {why}");
        return None;
    }
    let fens = harness_positions::<V>(file, token);
    let mut report = UciReport::default();
    let mut bad = Vec::new();
    for chess960 in [false, true] {
        let answers = run_harness(variant, &fens, chess960);
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
                list.iter().map(|m| (pos.canonical(m), token(&pos, m, chess960))).collect();
            let theirs: BTreeMap<String, String> = ans["details"]
                .as_array()
                .expect("details")
                .iter()
                .map(|d| (d["move"].as_str().expect("move").to_string(), d["uci"].as_str().expect("uci").to_string()))
                .collect();
            report.positions += 1;
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
        "{file}: {} positions, {} turns ({} with a token other than <from><to>) compared with the harness \
         (both UCI_Chess960 modes), {} mismatches",
        report.positions, report.turns, report.rare, report.mismatches
    );
    assert!(
        bad.is_empty(),
        "{} UCI tokens differ from the harness:\n{}",
        bad.len(),
        bad[..bad.len().min(20)].join("\n")
    );
    Some(report)
}

/// Checks the tokens of one position: unique among its legal turns in both modes, and
/// `find` (a parser: token -> turn) gives back each turn. Returns the number of turns.
fn unique_in<V: Variant>(pos: &mut V, token: TokenFn<V>, find: Option<FindFn<V>>, bad: &mut Vec<String>) -> usize {
    let mut list = Vec::new();
    pos.legal_turns(&mut list);
    for chess960 in [false, true] {
        let mut seen: HashMap<String, usize> = HashMap::with_capacity(list.len());
        for (i, m) in list.iter().enumerate() {
            let t = token(pos, m, chess960);
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
            if let Some(find) = find.filter(|_| !chess960)
                && find(pos, &t) != Some(i)
            {
                bad.push(format!("{}: token {t} does not find back {}", pos.fen(), pos.canonical(m)));
            }
        }
    }
    list.len()
}

/// The spec's uniqueness rule on every record of `oracle/vchess/<file>` and on the
/// position after each legal turn of it; `find` parses a token back to the index of the
/// turn in `legal_turns`' list, checked on every turn of the records' positions (not of
/// the positions after a turn: a parser that lists the turns costs a square of their
/// number). Returns (positions, turns) checked.
pub fn check_uci_unique<V: Variant>(file: &str, token: TokenFn<V>, find: FindFn<V>) -> (usize, usize) {
    let mut bad = Vec::new();
    let (mut positions, mut turns) = (0, 0);
    for r in records(file) {
        let mut pos = V::from_fen(&r.fen).unwrap_or_else(|e| panic!("{}: {e}", r.fen));
        turns += unique_in(&mut pos, token, Some(find), &mut bad);
        positions += 1;
        let mut list = Vec::new();
        pos.legal_turns(&mut list);
        for m in &list {
            let u = pos.make(m);
            turns += unique_in(&mut pos, token, None, &mut bad);
            positions += 1;
            pos.unmake(m, u);
        }
    }
    eprintln!("{file}: {positions} positions, {turns} turns: tokens unique and parsed back");
    assert!(bad.is_empty(), "{} token problems:\n{}", bad.len(), bad[..bad.len().min(20)].join("\n"));
    (positions, turns)
}

/// A parser for [`check_uci_unique`] built on the token function alone: the index of the
/// one legal turn whose token (`UCI_Chess960` off) is `text`, `None` if none or several.
pub fn find_by_token<V: Variant>(token: TokenFn<V>) -> impl Fn(&mut V, &str) -> Option<usize> {
    move |pos: &mut V, text: &str| {
        let mut list = Vec::new();
        pos.legal_turns(&mut list);
        let mut found = list.iter().enumerate().filter(|(_, m)| token(pos, m, false) == text).map(|(i, _)| i);
        let first = found.next()?;
        if found.next().is_some() { None } else { Some(first) }
    }
}
