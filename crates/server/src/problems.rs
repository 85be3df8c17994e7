//! The problems' collection over HTTP, and the server's solving queue.
//!
//! - `POST /api/problems` (a Popeye input, one problem or a whole file): each problem is
//!   read and checked against the [limits](Limits); the accepted ones are stored together
//!   (one transaction: all or none) and queued for the server's solver; the answer is a
//!   report per problem (its permalink, or why it was refused, naming the line).
//! - `GET /api/problems?condition=&stipulation=&piece=&text=` lists (newest first),
//!   `GET /api/problems/{id}` gives one, `GET /api/problems/export?ids=a,b` (or the same
//!   filters) and `GET /api/problems/{id}/popeye` give Popeye input.
//! - The queue ([`spawn_queue`]): one background thread solves the queued problems one at
//!   a time with the solver (`chimere_solver::solve_input`, one thread, a time limit) and
//!   stores what it printed. A solution stored with a problem is always the server's: a
//!   client sends only the input.

use crate::hub::{new_id, now_ms};
use crate::problem_store::{ProblemFilter, ProblemRecord, SolveStatus};
use crate::store::Store;
use crate::web::{App, Player};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Json, Router};
use chimere_popeye::Problem;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;

/// What one import and the queue accept.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Bytes of one import.
    pub max_bytes: usize,
    /// Problems in one import.
    pub max_problems: usize,
    /// Moves of a stipulation (`h#99` has 99).
    pub max_moves: u32,
    /// Twins of one problem.
    pub max_twins: usize,
    /// Problems waiting for the solver, all imports together.
    pub max_queued: u64,
    /// The solver's time for one problem (a longer one is stored as stopped, partial).
    pub solve_seconds: u64,
}

pub const LIMITS: Limits = Limits {
    max_bytes: 1 << 20,
    max_problems: 500,
    max_moves: 30,
    max_twins: 26,
    max_queued: 5_000,
    solve_seconds: 20,
};

/// The routes (merged into [`crate::web::router`]).
pub fn routes() -> Router<App> {
    Router::new()
        .route("/api/problems", get(list).post(import))
        .route("/api/problems/export", get(export))
        .route("/api/problems/{id}", get(one))
        .route("/api/problems/{id}/popeye", get(one_popeye))
        // Larger than the limit, so that an input over it gets our message naming it.
        .layer(DefaultBodyLimit::max(64 << 20))
}

fn refused(status: StatusCode, msg: impl Into<String>) -> Response {
    (status, Json(json!({"error": msg.into(), "code": "refused"}))).into_response()
}

fn size_text(n: usize) -> String {
    if n >= 1 << 20 { format!("{:.1} MB", n as f64 / (1 << 20) as f64) } else { format!("{} KB", n.div_ceil(1024)) }
}

/// The lines where a problem starts or ends (`BeginProblem`, `NextProblem`, `EndProblem`,
/// abbreviated to four letters or more), 1-based.
fn delimiters(input: &str) -> Vec<usize> {
    input
        .lines()
        .enumerate()
        .filter(|(_, l)| {
            let w = l.split_whitespace().next().unwrap_or("").to_ascii_lowercase();
            w.len() >= 4 && ["beginproblem", "nextproblem", "endproblem"].iter().any(|k| k.starts_with(&w))
        })
        .map(|(i, _)| i + 1)
        .collect()
}

/// One problem's own text: the lines after its first line up to the next delimiter.
fn problem_text(lines: &[&str], delims: &[usize], p: &Problem) -> String {
    let end = delims.iter().copied().find(|&d| d > p.line).unwrap_or(lines.len() + 1);
    let body = lines.get(p.line..end.saturating_sub(1)).unwrap_or(&[]).join("\n");
    format!("BeginProblem\n{}\nEndProblem\n", body.trim_end())
}

/// Checks one problem against the limits and the solver's reading of its position.
fn check(p: &Problem, limits: &Limits) -> Result<(), (usize, String)> {
    let (stip, line) = p.stipulation.ok_or((p.line, "the problem has no stipulation".to_string()))?;
    let n = stip.moves();
    if n > limits.max_moves {
        return Err((line, format!("the stipulation {stip} has {n} moves, over the limit of {}", limits.max_moves)));
    }
    if p.twins.len() > limits.max_twins {
        let l = p.twins[limits.max_twins].line;
        return Err((l, format!("{} twins, over the limit of {}", p.twins.len(), limits.max_twins)));
    }
    for tw in &p.twins {
        for c in &tw.cmds {
            if let chimere_popeye::TwinCmd::Stipulation(s) = c {
                let n = s.moves();
                if n > limits.max_moves {
                    return Err((
                        tw.line,
                        format!("the twin's stipulation {s} has {n} moves, over the limit of {}", limits.max_moves),
                    ));
                }
            }
        }
    }
    chimere_popeye::build_game(p).map_err(|e| (e.line, e.message))?;
    Ok(())
}

/// The kinds of units, as the filter reads them: ` K Q G `.
fn pieces_of(p: &Problem) -> String {
    let mut kinds: Vec<&str> = p.pieces.iter().map(|u| chimere_fairy::walk::letters(u.kind)).collect();
    kinds.sort_unstable();
    kinds.dedup();
    format!(" {} ", kinds.join(" "))
}

/// One problem's line of the import report.
fn report_line(index: usize, line: usize, outcome: Result<&ProblemRecord, String>) -> Value {
    match outcome {
        Ok(r) => json!({"index": index, "line": line, "id": r.id, "stipulation": r.stipulation}),
        Err(e) => json!({"index": index, "line": line, "error": e}),
    }
}

/// Reads an import: the records to store and the report (or a refusal of the whole).
pub fn read_import(
    input: &str,
    owner: &str,
    limits: &Limits,
    now: i64,
) -> Result<(Vec<ProblemRecord>, Vec<Value>), String> {
    if input.len() > limits.max_bytes {
        return Err(format!(
            "the input is {}, over the limit of {}",
            size_text(input.len()),
            size_text(limits.max_bytes)
        ));
    }
    let delims = delimiters(input);
    let problems = chimere_popeye::parse_all(input);
    if problems.len() > limits.max_problems {
        // The line where the first problem over the limit starts.
        let line = delims.get(limits.max_problems).copied().unwrap_or(0);
        return Err(format!(
            "line {line}: problem {} is over the limit of {} problems in one import ({} given)",
            limits.max_problems + 1,
            limits.max_problems,
            problems.len()
        ));
    }
    let lines: Vec<&str> = input.lines().collect();
    let day = {
        let days = now / 86_400_000;
        crate::pgn::civil(days, '-')
    };
    let (mut records, mut report) = (Vec::new(), Vec::new());
    for (i, parsed) in problems.iter().enumerate() {
        let p = match parsed {
            Ok(p) => p,
            Err(e) => {
                report.push(report_line(i + 1, e.line, Err(e.message.clone())));
                continue;
            }
        };
        if let Err((line, m)) = check(p, limits) {
            report.push(report_line(i + 1, line, Err(m)));
            continue;
        }
        let text = problem_text(&lines, &delims, p);
        // The text kept must read back as this one problem.
        match chimere_popeye::parse(&text) {
            Ok(again) if again.len() == 1 => {}
            _ => {
                report.push(report_line(i + 1, p.line, Err("this problem cannot be cut out of the file".into())));
                continue;
            }
        }
        let stip = p.stipulation.map(|(s, _)| s.to_string()).unwrap_or_default();
        let conditions: Vec<String> = p.conditions.iter().map(chimere_solver::twins::condition_text).collect();
        let date = year_of(&p.origin).unwrap_or_else(|| day.clone());
        let r = ProblemRecord {
            id: new_id(),
            created_ms: now,
            owner: owner.to_string(),
            author: p.author.clone(),
            origin: p.origin.clone(),
            title: p.title.clone(),
            date,
            stipulation: stip,
            conditions: conditions.join("; "),
            pieces: pieces_of(p),
            input: text,
            status: SolveStatus::Queued,
            solution: String::new(),
            solve_ms: 0,
            error: String::new(),
        };
        report.push(report_line(i + 1, p.line, Ok(&r)));
        records.push(r);
    }
    Ok((records, report))
}

/// A year named in a source line (`Die Schwalbe 1987`), as the problem's date.
fn year_of(origin: &str) -> Option<String> {
    origin
        .split(|c: char| !c.is_ascii_digit())
        .find(|w| w.len() == 4 && (w.starts_with("18") || w.starts_with("19") || w.starts_with("20")))
        .map(str::to_string)
}

async fn import(State(app): State<App>, Extension(p): Extension<Player>, body: String) -> Response {
    let store = app.hub.store.clone();
    let owner = p.0.clone();
    let answer = tokio::task::spawn_blocking(move || -> Result<Value, (StatusCode, String)> {
        let (records, report) =
            read_import(&body, &owner, &LIMITS, now_ms()).map_err(|m| (StatusCode::PAYLOAD_TOO_LARGE, m))?;
        let queued = store.queued_count().map_err(|e| (StatusCode::SERVICE_UNAVAILABLE, e.to_string()))?;
        if queued + records.len() as u64 > LIMITS.max_queued {
            return Err((
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the solving queue holds {queued} problems; {} more would pass its limit of {}: try again later",
                    records.len(),
                    LIMITS.max_queued
                ),
            ));
        }
        store.add_problems(&records).map_err(|e| (StatusCode::SERVICE_UNAVAILABLE, e.to_string()))?;
        Ok(json!({"saved": records.len(), "report": report}))
    })
    .await;
    match answer {
        Ok(Ok(v)) => Json(v).into_response(),
        Ok(Err((status, m))) => refused(status, m),
        Err(_) => refused(StatusCode::INTERNAL_SERVER_ERROR, "the import stopped"),
    }
}

#[derive(Deserialize, Default)]
struct ListQuery {
    condition: Option<String>,
    stipulation: Option<String>,
    piece: Option<String>,
    text: Option<String>,
    ids: Option<String>,
    limit: Option<u32>,
}

impl ListQuery {
    fn filter(&self) -> ProblemFilter {
        ProblemFilter {
            condition: self.condition.clone(),
            stipulation: self.stipulation.clone(),
            piece: self.piece.clone(),
            text: self.text.clone(),
            limit: self.limit.unwrap_or(100).clamp(1, 1000),
        }
    }
}

fn summary(r: &ProblemRecord) -> Value {
    json!({
        "id": r.id, "author": r.author, "origin": r.origin, "title": r.title, "date": r.date,
        "stipulation": r.stipulation, "conditions": r.conditions, "pieces": r.pieces.trim(),
        "status": r.status.as_str(), "solve_ms": r.solve_ms,
    })
}

fn full(r: &ProblemRecord) -> Value {
    let mut v = summary(r);
    v["input"] = json!(r.input);
    v["solution"] = json!(r.solution);
    v["error"] = json!(r.error);
    v
}

async fn blocking<T: Send + 'static>(f: impl FnOnce() -> Result<T, String> + Send + 'static) -> Result<T, Response> {
    match tokio::task::spawn_blocking(f).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(m)) => Err(refused(StatusCode::SERVICE_UNAVAILABLE, m)),
        Err(_) => Err(refused(StatusCode::INTERNAL_SERVER_ERROR, "the request stopped")),
    }
}

async fn list(State(app): State<App>, Query(q): Query<ListQuery>) -> Response {
    let store = app.hub.store.clone();
    match blocking(move || store.list_problems(&q.filter()).map_err(|e| e.to_string())).await {
        Ok(rs) => Json(json!({"problems": rs.iter().map(summary).collect::<Vec<_>>()})).into_response(),
        Err(r) => r,
    }
}

fn valid_id(s: &str) -> bool {
    !s.is_empty() && s.len() <= 32 && s.bytes().all(|b| b.is_ascii_alphanumeric())
}

async fn fetch(store: Arc<dyn Store>, id: String) -> Result<ProblemRecord, Response> {
    if !valid_id(&id) {
        return Err(refused(StatusCode::NOT_FOUND, "no such problem"));
    }
    match blocking(move || store.problem(&id).map_err(|e| e.to_string())).await? {
        Some(r) => Ok(r),
        None => Err(refused(StatusCode::NOT_FOUND, "no such problem")),
    }
}

async fn one(State(app): State<App>, Path(id): Path<String>) -> Response {
    match fetch(app.hub.store.clone(), id).await {
        Ok(r) => Json(full(&r)).into_response(),
        Err(r) => r,
    }
}

fn popeye_file(texts: &[&str]) -> String {
    // One file: each problem's EndProblem but the last becomes NextProblem.
    let mut out = String::new();
    for (i, t) in texts.iter().enumerate() {
        let mut body = t.trim();
        body = body.strip_prefix("BeginProblem").unwrap_or(body).trim();
        body = body.strip_suffix("EndProblem").unwrap_or(body).trim();
        out.push_str(if i == 0 { "BeginProblem\n" } else { "NextProblem\n" });
        out.push_str(body);
        out.push('\n');
    }
    if !texts.is_empty() {
        out.push_str("EndProblem\n");
    }
    out
}

fn popeye_response(text: String) -> Response {
    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response()
}

async fn one_popeye(State(app): State<App>, Path(id): Path<String>) -> Response {
    match fetch(app.hub.store.clone(), id).await {
        Ok(r) => popeye_response(popeye_file(&[&r.input])),
        Err(r) => r,
    }
}

async fn export(State(app): State<App>, Query(q): Query<ListQuery>) -> Response {
    let store = app.hub.store.clone();
    let got = blocking(move || -> Result<Vec<ProblemRecord>, String> {
        match &q.ids {
            Some(ids) => {
                let mut out = Vec::new();
                for id in ids.split(',').map(str::trim).filter(|s| valid_id(s)).take(1000) {
                    if let Some(r) = store.problem(id).map_err(|e| e.to_string())? {
                        out.push(r);
                    }
                }
                Ok(out)
            }
            None => {
                let mut rs = store.list_problems(&q.filter()).map_err(|e| e.to_string())?;
                rs.reverse();
                Ok(rs)
            }
        }
    })
    .await;
    match got {
        Ok(rs) => popeye_response(popeye_file(&rs.iter().map(|r| r.input.as_str()).collect::<Vec<_>>())),
        Err(r) => r,
    }
}

/// Solves one stored problem with the server's solver: (status, text, milliseconds, error).
pub fn solve_record(input: &str, limits: &Limits) -> (SolveStatus, String, i64, String) {
    let settings = chimere_solver::Settings {
        hash_mb: 64,
        max_time: Some(Duration::from_secs(limits.solve_seconds)),
        threads: 1,
        progress: false,
        json: false,
        banner: false,
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let t0 = std::time::Instant::now();
    let _ = chimere_solver::solve_input(input, &settings, &mut out, &mut err);
    let ms = t0.elapsed().as_millis() as i64;
    let (out, err) = (String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned());
    let status = if !err.trim().is_empty() {
        SolveStatus::Refused
    } else if out.lines().any(|l| l.starts_with("Partial solution")) {
        SolveStatus::Stopped
    } else {
        SolveStatus::Solved
    };
    (status, out, ms, err.trim().to_string())
}

/// The queue thread's nice value (the lowest priority): live play comes first.
pub const QUEUE_NICE: i32 = 19;

/// Lowers the calling thread's scheduling priority to [`QUEUE_NICE`] (Linux keeps a nice
/// value per thread; elsewhere this would lower the whole process, so it does nothing).
/// The nice value set, or why not.
pub fn lower_this_thread() -> Result<i32, String> {
    #[cfg(target_os = "linux")]
    {
        let tid = rustix::thread::gettid();
        rustix::process::setpriority_process(Some(tid), QUEUE_NICE).map_err(|e| e.to_string())?;
        rustix::process::getpriority_process(Some(tid)).map_err(|e| e.to_string())
    }
    #[cfg(not(target_os = "linux"))]
    {
        Err("per-thread priority is Linux only".into())
    }
}

/// Starts the solving queue: one background thread (off the async runtime, at the lowest
/// priority: [`lower_this_thread`]) solving the queued problems one by one, oldest first.
/// It holds no lock and no connection while it solves: a problem is read, solved, then
/// its solution written, each store call on its own.
pub fn spawn_queue(store: Arc<dyn Store>) {
    let _ = std::thread::Builder::new().name("chimere-problems".into()).spawn(move || {
        if let Err(e) = lower_this_thread() {
            eprintln!("chimere: the problems' queue runs at normal priority ({e})");
        }
        loop {
            match store.next_queued() {
                Ok(Some(r)) => {
                    let (status, text, ms, error) = solve_record(&r.input, &LIMITS);
                    if store.set_solution(&r.id, status, &text, ms, &error).is_err() {
                        std::thread::sleep(Duration::from_secs(1));
                    }
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(300)),
                Err(_) => std::thread::sleep(Duration::from_secs(1)),
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = "BeginProblem\nAuthor A. Composer\nOrigin Die Schwalbe 1987\nCondition Circe\n\
Pieces White Kd4 Bh8 Rg7 Black Ke1\nStipulation #3\nOption NoBoard Variation\nTwin Remove h8\nNextProblem\n\
Pieces White Kf3 Pg5 Qh4 Black Kh6 Gg6\nStipulation h=2\nNextProblem\nPieces White Ke1 Black Ke8\n\
Condition NoSuchThing\nStipulation #2\nNextProblem\nPieces White Ke1 Black Ke8\nStipulation h#99\nEndProblem\n";

    #[test]
    fn an_import_is_cut_into_problems_each_reported_with_its_line() {
        let (records, report) = read_import(TWO, "me", &LIMITS, 0).unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!(report.len(), 4);
        assert_eq!(records[0].date, "1987");
        assert_eq!(records[1].date, "1970-01-01");
        assert_eq!(records[0].conditions, "Circe");
        assert_eq!(records[1].pieces, " G K P Q ");
        assert!(records[0].input.contains("Twin Remove h8"));
        for r in &records {
            assert_eq!(chimere_popeye::parse(&r.input).unwrap().len(), 1, "{}", r.input);
        }
        assert_eq!(report[2]["line"], 14, "{report:?}");
        assert!(report[3]["error"].as_str().unwrap().contains("99 moves, over the limit of 30"), "{report:?}");
        assert_eq!(report[3]["line"], 18);
        // Export: one file Popeye reads again as the same problems.
        let file = popeye_file(&records.iter().map(|r| r.input.as_str()).collect::<Vec<_>>());
        let again: Vec<_> = chimere_popeye::parse(&file).unwrap();
        assert_eq!(again.len(), 2);
        assert_eq!(again[1].stipulation.unwrap().0.to_string(), "h=2");
    }

    /// The queue's thread runs at the lowest priority, and lowering it leaves the
    /// other threads (the live games') as they were.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_queue_thread_is_lowered_alone() {
        let me = rustix::process::getpriority_process(None).unwrap();
        let nice = std::thread::spawn(lower_this_thread).join().unwrap();
        assert_eq!(nice, Ok(QUEUE_NICE));
        assert_eq!(rustix::process::getpriority_process(None).unwrap(), me);
    }

    #[test]
    fn hostile_imports_are_refused_naming_the_limit() {
        let big = "x".repeat(LIMITS.max_bytes + 1);
        assert!(read_import(&big, "me", &LIMITS, 0).unwrap_err().contains("over the limit of 1.0 MB"));
        let many: String = std::iter::once("BeginProblem\n".to_string())
            .chain((0..600).map(|_| "Pieces White Ke1 Black Ke8\nStipulation #1\nNextProblem\n".to_string()))
            .collect::<String>()
            + "Pieces White Ke1 Black Ke8\nStipulation #1\nEndProblem\n";
        let e = read_import(&many, "me", &LIMITS, 0).unwrap_err();
        assert!(e.starts_with("line 1501: problem 501 is over the limit of 500"), "{e}");
    }

    #[test]
    fn the_server_solves_with_its_own_solver() {
        let (records, _) = read_import(TWO, "me", &LIMITS, 0).unwrap();
        let (status, text, _, err) = solve_record(&records[0].input, &LIMITS);
        assert_eq!(status, SolveStatus::Solved, "{err}");
        assert!(text.contains("1.Kd4-e3 ! threat:"), "{text}");
        assert_eq!(crate::pgn::civil(20_000, '-'), "2024-10-04");
    }
}
