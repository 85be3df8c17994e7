//! `chimere uci` driven through pipes, as a GUI would.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chimere"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("chimere starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, lines }
    }

    fn send(&mut self, s: &str) {
        self.stdin.write_all(s.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str, within: Duration) -> Vec<String> {
        let end = Instant::now() + within;
        let mut seen = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let hit = l.starts_with(prefix);
                    seen.push(l);
                    if hit {
                        return seen;
                    }
                }
                Err(_) => panic!("no `{prefix}` within {within:?}; seen {seen:?}"),
            }
        }
    }

    fn bestmove(&mut self, within: Duration) -> (String, Vec<String>) {
        let lines = self.until("bestmove", within);
        let best = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
        (best, lines)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.stdin.write_all(b"quit\n");
        let _ = self.child.wait();
    }
}

const S: Duration = Duration::from_secs(10);

#[test]
fn handshake_lists_the_options() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok", S);
    for opt in [
        "UCI_Variant",
        "Conditions",
        "UCI_Chess960",
        "Hash",
        "Threads",
        "Level",
        "UCI_LimitStrength",
        "UCI_Elo",
        "MultiPV",
        "Move Overhead",
        "Evaluation",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(&format!("option name {opt} type"))), "{opt} missing: {lines:?}");
    }
    e.send("isready");
    e.until("readyok", S);
}

#[test]
fn mate_in_one_and_multipv() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 3");
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    e.send("go depth 3");
    let (best, lines) = e.bestmove(S);
    assert_eq!(best, "d1d8");
    assert!(lines.iter().any(|l| l.starts_with("info depth 3 ") && l.contains("multipv 1 score mate 1 ")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info depth 3 ") && l.contains("multipv 3 ")), "{lines:?}");
}

#[test]
fn chess960_castling_is_king_takes_rook() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Chess960 value true");
    // King e1, rook h1: castling is e1h1; then black's king is in check along the f-file only
    // if the rook really went to f1.
    e.send("position fen 5k2/8/8/8/8/8/8/4K2R w K - 0 1 moves e1h1");
    e.send("go depth 2");
    let (best, _) = e.bestmove(S);
    assert!(!best.starts_with("f8f"), "black king stays on the f-file: {best}");
}

#[test]
fn moves_are_played_and_answered_legally() {
    let mut e = Engine::start();
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1");
    e.send("go depth 4");
    let (best, lines) = e.bestmove(S);
    assert!(lines.iter().any(|l| l.starts_with("info depth 4 ")), "{lines:?}");
    assert_eq!(best.len(), 4, "{best}");
}

#[test]
fn mated_side_answers_none_and_garbage_is_ignored() {
    let mut e = Engine::start();
    e.send("position fen R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1");
    e.send("go movetime 200");
    let (best, _) = e.bestmove(S);
    assert_eq!(best, "(none)");
    e.send("this is not uci");
    e.send("position fen not a fen");
    e.send("go depth x nodes");
    let (best, _) = e.bestmove(S);
    assert_ne!(best, "");
    e.send("isready");
    e.until("readyok", S);
}

#[test]
fn infinite_waits_for_stop_which_is_prompt() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(500));
    e.send("isready");
    let lines = e.until("readyok", Duration::from_millis(500));
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "{lines:?}");
    let t = Instant::now();
    e.send("stop");
    e.bestmove(Duration::from_millis(500));
    assert!(t.elapsed() < Duration::from_millis(300), "{:?}", t.elapsed());
}

#[test]
fn movetime_is_kept() {
    let mut e = Engine::start();
    e.send("position startpos");
    let t = Instant::now();
    e.send("go movetime 300");
    e.bestmove(S);
    let took = t.elapsed();
    assert!(took >= Duration::from_millis(150) && took < Duration::from_millis(1000), "{took:?}");
}

#[test]
fn every_variant_and_conditions_get_a_legal_answer() {
    use chimere_core::GameOptions;
    let cases: [(&str, &[&str]); 6] = [
        ("chess", &[]),
        ("checkered", &[]),
        ("interweave", &[]),
        ("fugue", &[]),
        ("dynamo", &[]),
        ("chess", &["circe"]),
    ];
    for (variant, conditions) in cases {
        let mut e = Engine::start();
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.send(&format!("setoption name Conditions value {}", conditions.join(",")));
        e.send("position startpos");
        e.send("go depth 3");
        let (first, _) = e.bestmove(S);
        e.send(&format!("position startpos moves {first}"));
        e.send("go depth 2");
        let (second, _) = e.bestmove(S);
        let opts =
            GameOptions { conditions: conditions.iter().map(|c| c.to_string()).collect(), ..GameOptions::default() };
        let mut game = chimere_rules::create(variant, opts, None).unwrap();
        game.play(&first).unwrap_or_else(|err| panic!("{variant} {conditions:?}: {first}: {err}"));
        game.play(&second).unwrap_or_else(|err| panic!("{variant} {conditions:?}: {second}: {err}"));
    }
}
