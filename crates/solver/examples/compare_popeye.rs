//! Side-by-side comparison of `chimere solve` with Popeye on a corpus of problems.
//!
//! ```sh
//! cargo build --release -p chimere-cli
//! cargo run --release -p chimere-solver --example compare_popeye -- \
//!     --popeye /path/to/py --chimere target/release/chimere --time 20 FILE.inp...
//! ```
//!
//! Every input file is split into its problems (`NextProblem` / `EndProblem`); each
//! problem is written to its own file and solved by both programs with the time limit
//! (`-maxtime` for Popeye, `--max-time` for chimere, and a hard kill 10 s later). The
//! outputs are compared with the solver's checker ([`chimere_solver::compare`]: solution
//! trees, sibling order free, board, messages and timing ignored). Each problem gets one
//! line; the totals are printed at the end:
//!
//! - `identical`: same solution trees;
//! - `identical-nohash`: the trees differ, but Popeye run again with its hash table off
//!   (`-maxmem 0`) prints exactly ours: Popeye's hash keys leave out state some conditions
//!   need (the last move under All-in-Chess, for one), so its table drops or adds lines;
//! - `differ`: both finished and the trees differ (the first difference is shown);
//! - `refused`: chimere refused the problem (its one-line reason is shown);
//! - `timeout`: one of the programs did not finish within the limit;
//! - `popeye-error`: Popeye rejected the input (nothing to compare).
//!
//! Options: `--keep DIR` keeps each problem and both outputs there; `--only N` solves
//! only the N-th problem (1-based) of the run.
//! Input in German or French (Popeye's `BEISPIEL` examples) is first put in English by the
//! reader's own translation ([`chimere_popeye::lang::to_english`]).

use chimere_solver::compare::same_solutions;
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

struct Args {
    popeye: PathBuf,
    chimere: PathBuf,
    time: u64,
    keep: Option<PathBuf>,
    only: Option<usize>,
    files: Vec<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        popeye: PathBuf::from("py"),
        chimere: PathBuf::from("target/release/chimere"),
        time: 20,
        keep: None,
        only: None,
        files: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(x) = it.next() {
        let mut val = || it.next().ok_or_else(|| format!("{x} needs a value"));
        match x.as_str() {
            "--popeye" => a.popeye = PathBuf::from(val()?),
            "--chimere" => a.chimere = PathBuf::from(val()?),
            "--time" => a.time = val()?.parse().map_err(|_| "--time: seconds".to_string())?,
            "--keep" => a.keep = Some(PathBuf::from(val()?)),
            "--only" => a.only = Some(val()?.parse().map_err(|_| "--only: a number".to_string())?),
            _ if x.starts_with("--") => return Err(format!("unknown option {x}")),
            _ => a.files.push(PathBuf::from(x)),
        }
    }
    if a.files.is_empty() {
        return Err("no input file".into());
    }
    Ok(a)
}

/// Whether `word` is a prefix (at least 3 letters, or the whole word) of `keyword`: Popeye
/// takes any unique prefix, and its examples write `beg`, `end`, `next` (no other
/// problem-level keyword shares their first three letters).
fn is_kw(word: &str, keyword: &str) -> bool {
    let w = word.to_ascii_lowercase();
    let k = keyword.to_ascii_lowercase();
    (w.len() >= 3 || w == k) && k.starts_with(&w)
}

/// The problems of a Popeye input, each as a complete input of its own.
fn split(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Vec<&str> = Vec::new();
    let mut started = false;
    for line in text.lines() {
        let first = line.split_whitespace().next().unwrap_or("");
        if is_kw(first, "BeginProblem") {
            started = true;
            cur.clear();
            continue;
        }
        if !started {
            continue;
        }
        let next = is_kw(first, "NextProblem");
        let end = is_kw(first, "EndProblem");
        if next || end {
            if cur.iter().any(|l| !l.trim().is_empty()) {
                out.push(format!("BeginProblem\n{}\nEndProblem\n", cur.join("\n")));
            }
            cur.clear();
            if end {
                started = false;
            }
            continue;
        }
        cur.push(line);
    }
    if started && cur.iter().any(|l| !l.trim().is_empty()) {
        out.push(format!("BeginProblem\n{}\nEndProblem\n", cur.join("\n")));
    }
    out
}

/// Runs a command with a hard time limit: (stdout, stderr, exit code, killed).
fn run(cmd: &mut Command, limit: Duration) -> (String, String, Option<i32>, bool) {
    let mut child = match cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).stdin(Stdio::null()).spawn() {
        Ok(c) => c,
        Err(e) => return (String::new(), format!("cannot run: {e}"), None, false),
    };
    let mut so = child.stdout.take().expect("piped");
    let mut se = child.stderr.take().expect("piped");
    let t_out = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = so.read_to_end(&mut s);
        String::from_utf8_lossy(&s).into_owned()
    });
    let t_err = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = se.read_to_end(&mut s);
        String::from_utf8_lossy(&s).into_owned()
    });
    let start = Instant::now();
    let mut killed = false;
    let code = loop {
        match child.try_wait() {
            Ok(Some(st)) => break st.code(),
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                killed = true;
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(_) => break None,
        }
    };
    (t_out.join().unwrap_or_default(), t_err.join().unwrap_or_default(), code, killed)
}

#[derive(Default)]
struct Counts {
    identical: usize,
    /// Identical to Popeye's answer with its hash table off (`-maxmem 0`), not with it on.
    nohash: usize,
    differ: usize,
    refused: usize,
    timeout: usize,
    popeye_error: usize,
}

/// Popeye finished the problem (a line `solution finished`), not cut by its time limit.
fn popeye_finished(out: &str) -> bool {
    out.contains("solution finished") && !out.contains("Partial solution")
}

/// Popeye refused the input (nothing solved).
fn popeye_error(out: &str, err: &str) -> Option<String> {
    // Popeye goes on after an input error (solving without the item it did not read) or
    // prints `problem ignored`: nothing to compare.
    let ignored = ["problem ignored", "input-error"].iter().any(|m| out.contains(m) || err.contains(m));
    if !ignored && (out.contains("solution finished") || out.contains("Partial solution")) {
        return None;
    }
    let msg = err.lines().chain(out.lines()).map(str::trim).find(|l| !l.is_empty() && !l.starts_with("Popeye"));
    let msg = msg.map(|m| m.to_string() + err.lines().nth(1).map_or("", |l| l.trim()));
    Some(msg.unwrap_or_else(|| "no output".to_string()))
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("compare_popeye: {e}");
            std::process::exit(2);
        }
    };
    let dir = args.keep.clone().unwrap_or_else(|| std::env::temp_dir().join(format!("cmp-{}", std::process::id())));
    std::fs::create_dir_all(&dir).expect("work directory");
    // Popeye runs in the work directory: a `Protocol FILE` line makes it write FILE in its
    // current directory, which must not be the caller's (a checkout). Paths made absolute.
    let dir = dir.canonicalize().expect("work directory");
    let popeye = if args.popeye.components().count() > 1 {
        args.popeye.canonicalize().unwrap_or_else(|_| args.popeye.clone())
    } else {
        args.popeye.clone()
    };
    let mut counts = Counts::default();
    let mut index = 0;
    let limit = Duration::from_secs(args.time + 10);
    for file in &args.files {
        // German and French input is put in English as `chimere solve` reads it, so that
        // it splits into problems here and both programs read the same words.
        let text = match std::fs::read(file) {
            Ok(b) => chimere_popeye::lang::to_english(&String::from_utf8_lossy(&b)).into_owned(),
            Err(e) => {
                eprintln!("{}: {e}", file.display());
                continue;
            }
        };
        let stem = file.file_stem().map_or("p".into(), |s| s.to_string_lossy().into_owned());
        for (k, problem) in split(&text).iter().enumerate() {
            index += 1;
            if args.only.is_some_and(|o| o != index) {
                continue;
            }
            let name = format!("{stem}-{:03}", k + 1);
            let path = dir.join(format!("{name}.inp"));
            std::fs::write(&path, problem).expect("write problem");
            let (py_out, py_err, _, py_killed) = run(
                Command::new(&popeye).current_dir(&dir).arg("-maxtime").arg(args.time.to_string()).arg(&path),
                limit,
            );
            let t = Instant::now();
            let (ch_out, ch_err, ch_code, ch_killed) = run(
                Command::new(&args.chimere)
                    .arg("solve")
                    .arg(&path)
                    .arg("--max-time")
                    .arg(args.time.to_string())
                    .arg("--threads")
                    .arg("1"),
                limit,
            );
            let ch_secs = t.elapsed().as_secs_f64();
            if args.keep.is_some() {
                let _ = std::fs::write(dir.join(format!("{name}.py.out")), &py_out);
                let _ = std::fs::write(dir.join(format!("{name}.ch.out")), format!("{ch_out}{ch_err}"));
            }
            let verdict = if ch_code == Some(2) && !ch_err.trim().is_empty() {
                counts.refused += 1;
                format!("refused    {}", ch_err.lines().next().unwrap_or("").trim())
            } else if let Some(e) = popeye_error(&py_out, &py_err).filter(|_| !py_killed) {
                counts.popeye_error += 1;
                format!("popeye-error {e}")
            } else if py_killed || !popeye_finished(&py_out) {
                counts.timeout += 1;
                "timeout    popeye".to_string()
            } else if ch_killed || ch_out.contains("Partial solution") && !problem.to_lowercase().contains("maxsol") {
                counts.timeout += 1;
                "timeout    chimere".to_string()
            } else {
                match same_solutions(&py_out, &ch_out) {
                    Ok(()) => {
                        counts.identical += 1;
                        "identical".to_string()
                    }
                    Err(e) => {
                        // Popeye's own answer may depend on its hash table (its keys leave
                        // out state some conditions need): ask it again with the table off.
                        let (py0, _, _, py0_killed) = run(
                            Command::new(&popeye)
                                .current_dir(&dir)
                                .arg("-maxmem")
                                .arg("0")
                                .arg("-maxtime")
                                .arg(args.time.to_string())
                                .arg(&path),
                            limit,
                        );
                        if args.keep.is_some() {
                            let _ = std::fs::write(dir.join(format!("{name}.py0.out")), &py0);
                        }
                        if !py0_killed && popeye_finished(&py0) && same_solutions(&py0, &ch_out).is_ok() {
                            counts.nohash += 1;
                            "identical-nohash (Popeye with -maxmem 0 prints ours; its hash table drops or adds lines)"
                                .to_string()
                        } else {
                            counts.differ += 1;
                            format!("DIFFER     {e}")
                        }
                    }
                }
            };
            println!("{index:4} {name:<24} {ch_secs:6.2}s  {verdict}");
        }
    }
    if args.keep.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    let total =
        counts.identical + counts.nohash + counts.differ + counts.refused + counts.timeout + counts.popeye_error;
    println!(
        "\n{total} problems: {} identical, {} identical to Popeye without its hash table, {} differ, \
         {} refused by chimere, {} timeout, {} rejected by Popeye",
        counts.identical, counts.nohash, counts.differ, counts.refused, counts.timeout, counts.popeye_error
    );
}
