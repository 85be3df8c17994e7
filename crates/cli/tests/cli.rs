//! The `chimere` command as other tools drive it: forms, outputs, exit statuses.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah -";

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chimere"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chimere starts");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn canonical_moves_are_sorted_and_bare() {
    let o = run(&["moves", "--variant", "chess", "--fen", START, "--canonical"], "");
    assert!(o.status.success());
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines.len(), 20);
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted);
    assert!(lines.contains(&"-g1:wn +f3:wn".to_string()));
}

#[test]
fn standard_fen_is_accepted_and_readable_notation_printed() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let o = run(&["moves", "--fen", fen], "");
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.lines().any(|l| l == "O-O"), "{text}");
    assert!(text.lines().any(|l| l == "O-O-O"), "{text}");
    assert!(text.lines().any(|l| l == "Rxa8+"), "{text}");
}

#[test]
fn jsonl_reports_each_line_and_goes_on_after_errors() {
    let input = format!("{START}\nnot a fen\n\n7k/5QQ1/8/8/8/8/8/K7 b - - 0 1\n");
    let o = run(&["moves", "--variant", "chess", "--jsonl"], &input);
    assert!(o.status.success());
    let lines: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["fen"], START);
    assert_eq!(lines[0]["status"], "*");
    assert_eq!(lines[0]["moves"].as_array().unwrap().len(), 20);
    assert_eq!(lines[1]["fen"], "not a fen");
    assert!(lines[1]["error"].as_str().unwrap().contains("fields"));
    assert_eq!(lines[2]["status"], "1-0");
    assert_eq!(lines[2]["moves"].as_array().unwrap().len(), 0);
}

#[test]
fn perft_prints_the_count_last() {
    for extra in [&[][..], &["--bulk"][..], &["--divide"][..], &["--divide", "--bulk"][..]] {
        let mut args = vec!["perft", "--variant", "chess", "--depth", "3"];
        args.extend_from_slice(extra);
        let o = run(&args, "");
        assert!(o.status.success());
        let text = stdout(&o);
        assert_eq!(text.lines().last(), Some("8902"), "{extra:?}");
        if extra.contains(&"--divide") {
            assert_eq!(text.lines().count(), 21);
            assert!(text.contains("-e2:wp +e4:wp: 600"), "{text}");
        }
    }
    let o = run(&["perft", "--fen", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", "--depth", "4"], "");
    assert_eq!(stdout(&o).lines().last(), Some("43238"));
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let cases: &[&[&str]] = &[
        &["moves", "--variant", "nosuch"],
        &["moves", "--fen", "8/8/8 w"],
        &["moves", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"],
        &["perft", "--depth", "minus"],
        &["perft"],
        &["frobnicate"],
        &["start", "--randomness", "7"],
    ];
    for args in cases {
        let o = run(args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(o.stderr.clone()).unwrap();
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(stdout(&o).is_empty());
    }
}

#[test]
fn help_everywhere() {
    for cmd in [&["--help"][..], &["moves", "--help"], &["perft", "--help"], &["bench", "--help"], &["start", "--help"]]
    {
        let o = run(cmd, "");
        assert!(o.status.success(), "{cmd:?}");
        assert!(stdout(&o).contains("Usage"), "{cmd:?}");
    }
}

#[test]
fn random_starts_are_seeded() {
    let a = run(&["start", "--randomness", "1", "--seed", "42"], "");
    let b = run(&["start", "--randomness", "1", "--seed", "42"], "");
    assert!(a.status.success());
    assert_eq!(stdout(&a), stdout(&b));
    let fen = stdout(&a);
    let o = run(&["perft", "--fen", fen.trim(), "--depth", "2"], "");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn conditions_compose_or_are_refused() {
    let fen = "4k3/3q4/8/8/3Q4/8/8/4K3 w - - 0 1";
    let o = run(&["moves", "--fen", fen, "--condition", "circe", "--canonical"], "");
    assert!(o.status.success());
    // The black queen captured on d7 is reborn on d8.
    assert!(stdout(&o).lines().any(|l| l == "-d4:wq -d7:bq +d7:wq +d8:bq"), "{}", stdout(&o));
    let o = run(&["moves", "--fen", fen, "--canonical"], "");
    assert!(stdout(&o).lines().any(|l| l == "-d4:wq -d7:bq +d7:wq"));
    for args in [
        &["moves", "-c", "circe", "-c", "ghost"][..],
        &["moves", "-v", "fugue", "-c", "circe"],
        &["moves", "-c", "nosuch"],
    ] {
        let o = run(args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&o.stderr).trim_end().lines().count(), 1);
    }
}

#[test]
fn solve_prints_first_moves_and_names_bad_lines() {
    let dir = std::env::temp_dir().join(format!("chimere-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("p.inp");
    std::fs::write(
        &file,
        "BeginProblem\nCondition Circe\nPieces White Ke1 Qd4 Black Ke8 Qd7\nStipulation ~1\nOption NoBoard\nEndProblem\n",
    )
    .unwrap();
    let o = run(&["solve", file.to_str().unwrap()], "");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = stdout(&o);
    assert!(text.lines().any(|l| l == "   1.Qd4*d7[+bQd8] + !"), "{text}");
    let moves: Vec<&str> = text.lines().filter(|l| l.starts_with("   1.")).collect();
    assert!(moves.len() > 10 && moves.iter().all(|l| l.ends_with(" !")), "{text}");
    assert!(text.contains("solution finished."), "{text}");
    // A real stipulation, and a file going on after a bad problem (exit 2 at the end).
    let o = run(
        &["solve", "-"],
        "BeginProblem\nPieces White Kg6 Qa2 Rb1 Sd4 Black Kh8 Pg7 Bc8\nStipulation #2\nOption NoBoard\nNextProblem\n\
         Pieces White Ke1\nStipulation #9.5\nNextProblem\nPieces White Kh2 Pb7 Qe7 Black Ke4 Pe5\nStipulation h#2\n\
         Option NoBoard\nEndProblem\n",
    );
    assert_eq!(o.status.code(), Some(2));
    let text = stdout(&o);
    assert!(text.contains("   1.Qa2-a8 !") && text.contains("   1.Rb1-h1 + !"), "{text}");
    assert!(text.contains("  1.Ke4-d5 b7-b8=Q   2.Kd5-c6 Qe7-d6 #"), "{text}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("line 7"), "{}", String::from_utf8_lossy(&o.stderr));
    let o = run(&["solve", "-"], "BeginProblem\nPieces White Kz9\nEndProblem\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("line 2"));
    let o = run(&["solve", dir.join("missing.inp").to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `solve --english` prints a German input as it is read, and the English solves the same.
#[test]
fn solve_english_prints_the_translation() {
    let german = "AnfangProblem\nForderung #2\nSteine Weiss Kg6 Da2 Tb1 Sd4 Schwarz Kh8 Bg7 Lc8\nOption OhneBrett\nEndeProblem\n";
    let o = run(&["solve", "--english", "-"], german);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let english = stdout(&o);
    assert!(english.contains("Qa2") && english.contains("Pg7") && english.contains("Bc8"), "{english}");
    assert!(!english.contains("solution finished"), "{english}");
    let solved = |input: &str| {
        let o = run(&["solve", "-"], input);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        stdout(&o).lines().filter(|l| l.trim_start().starts_with("1.")).map(String::from).collect::<Vec<_>>()
    };
    let lines = solved(&english);
    assert!(lines.iter().any(|l| l.contains("1.Qa2-a8 !")), "{lines:?}");
    assert_eq!(lines, solved(german));
}

#[test]
fn multi_move_turns_moves_and_perft() {
    // Annéciens: White Ka1, Pa2; Black Ka8, Pa4: a2-a3 cannot be completed (the pawn would
    // be blocked), so only the king's first moves Ka1-b1 and Ka1-b2 are listed.
    let o = run(&["moves", "--fen", "k7/8/8/8/p7/8/P7/K7 w - - 0 1", "-c", "anneciens"], "");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout(&o).contains("status *; 2 legal turns"), "{}", stdout(&o));
    // perft counts single moves (parts of turns): Progressif from the array, White's 20
    // moves, then Black's first move of its two-move series (400).
    let o = run(&["perft", "--fen", START, "-c", "progressif", "--depth", "2"], "");
    assert_eq!(stdout(&o).trim(), "400");
    // Annéciens from the array: 20 first moves, 28 completed turns (see anneciens.rs).
    let o = run(&["perft", "--fen", START, "-c", "anneciens", "--depth", "2"], "");
    assert_eq!(stdout(&o).trim(), "28");
    // Two conditions deciding when a turn ends cannot be combined.
    let o = run(&["moves", "-c", "progressif 3", "-c", "anneciens"], "");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn status_follows_the_conditions() {
    let status = |fen: &str, cond: &str| {
        let o = run(&["moves", "--fen", fen, "-c", cond], "");
        assert!(o.status.success(), "{fen} {cond}");
        let out = stdout(&o);
        out.lines().find_map(|l| l.strip_prefix("status ")).map(|l| l.split(';').next().unwrap().to_string()).unwrap()
    };
    // Losing game: Black (pawn a7 blocked, no capture) cannot move and therefore wins.
    assert_eq!(status("8/p7/P7/8/8/8/8/7K b - - 0 1", "losing game"), "0-1");
    // Orthodox, the same position is stalemate.
    let o = run(&["moves", "--fen", "k7/p7/P7/8/8/8/8/1R5K b - - 0 1"], "");
    assert!(stdout(&o).contains("status 1/2"));
    // Extinction: Black's last pawn a7 is attacked by Nb5 and no move saves it: Black loses.
    assert_eq!(status("k7/p7/P7/1N6/8/8/8/1R5K b - - 0 1", "extinction"), "1-0");
    // Extinction without the knight: nothing attacked, no move: stalemate.
    assert_eq!(status("k7/p7/P7/8/8/8/8/1R5K b - - 0 1", "extinction"), "1/2");
}

#[test]
fn black_passes_under_black_checks() {
    // No black move checks White's lone king: Black's only turn is the pass, `...`.
    let fen = "7k/p7/8/8/8/8/8/K7 b - - 0 1";
    let o = run(&["moves", "--fen", fen, "-c", "black checks"], "");
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("status *; 1 legal turns"), "{out}");
    assert!(out.lines().any(|l| l.contains("...")), "{out}");
    let o = run(&["moves", "--fen", fen, "-c", "black checks", "--canonical"], "");
    assert_eq!(stdout(&o).trim(), "PASS");
}

#[test]
fn conditions_are_listed_and_each_listed_name_works() {
    let o = run(&["conditions"], "");
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.lines().count() > 60, "{out}");
    let table = out.split("\n\n").next().unwrap();
    assert!(out.contains("Circe parameters: ") && out.contains("malefique|Mirror"), "{out}");
    let names: Vec<&str> = table.lines().map(|l| l.split("  ").next().unwrap().trim()).collect();
    assert!(names.contains(&"circe") && names.contains(&"progressif"));
    let mut seen = std::collections::BTreeSet::new();
    assert!(names.iter().all(|n| seen.insert(*n)), "a condition listed twice");
    for (n, line) in names.iter().zip(table.lines()).step_by(7) {
        // Conditions that need squares are given some.
        let n = if line.contains("<squares>") { format!("{n} d4e5") } else { n.to_string() };
        let o = run(&["moves", "-c", &n], "");
        assert!(o.status.success(), "{n}: {}", String::from_utf8_lossy(&o.stderr));
    }
}

/// A perft depth beyond the maximum is a clear error (exit 2), never a crash.
#[test]
fn perft_depth_is_bounded() {
    for depth in ["30000", "4000000000"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_chimere"))
            .args(["perft", "--depth", depth])
            .output()
            .expect("run chimere");
        assert_eq!(out.status.code(), Some(2), "depth {depth}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("not in 0..=64"), "{err}");
    }
}

/// A reader that stops reading (`chimere conditions | head -1`) ends the listing
/// quietly: exit status 0, nothing on standard error (no panic on the closed pipe).
#[test]
fn a_closed_output_ends_the_listing_quietly() {
    for args in [&["conditions"][..], &["variants"], &["perft", "--variant", "chess", "--depth", "2", "--divide"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chimere"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        // Close the read end before the listing is written.
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("wait");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {:?} {err}", out.status);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
