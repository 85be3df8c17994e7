//! `chimere`: list legal moves, count perft, benchmark the rules of every variant.
//!
//! Exit status 0 on success, 2 on bad input (with a one-line error on standard error).

use chimere_core::{DynGame, GameOptions, RulesError};
use clap::{Args, Parser, Subcommand};
use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

mod bench;

/// Chimère: a rules engine for chess variants and fairy chess.
#[derive(Parser)]
#[command(
    name = "chimere",
    version,
    about = "Chimère: rules engine for chess variants and fairy chess",
    disable_help_subcommand = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the legal turns of a position (readable notation, canonical form, or JSON lines).
    Moves(MovesArgs),
    /// Count the leaves of the tree of legal turns to a depth.
    Perft(PerftArgs),
    /// Measure perft speed (leaves/s) on fixed positions of every variant.
    Bench(BenchArgs),
    /// Print the starting position (FEN) of a variant.
    Start(StartArgs),
    /// Solve the fairy problems of a Popeye input file and print their solutions as Popeye does.
    Solve(SolveArgs),
    /// List the variants.
    Variants,
    /// List the fairy conditions: a name `--condition` accepts, and the Popeye keyword.
    Conditions,
    /// Start the web app (pages, live play over WebSocket, games stored in SQLite or PostgreSQL).
    Serve(ServeArgs),
    /// Load benchmark of a running server: many concurrent games between scripted clients.
    Load(LoadArgs),
    /// Play through the UCI protocol on standard input and output (the computer opponent).
    Uci,
}

#[derive(Args)]
struct ServeArgs {
    /// Where the games are kept: an SQLite file (created and migrated on first start) or a
    /// `postgres://` URL. Default: the environment's DATABASE_URL, else `chimere.db`.
    #[arg(long)]
    db: Option<String>,
    /// A PostgreSQL database (`postgres://user:password@host:port/database`), its tables
    /// created and migrated on start.
    #[arg(long)]
    database_url: Option<String>,
    /// Address and port to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: String,
    /// An origin (`https://chess.example.org`) whose pages may open live connections besides
    /// the server's own host: the public address behind a proxy that rewrites `Host`
    /// (repeatable).
    #[arg(long, value_name = "ORIGIN")]
    allow_origin: Vec<chimere_server::web::Origin>,
}

#[derive(Args)]
struct LoadArgs {
    /// The server's address (a `chimere serve` running on this machine).
    #[arg(long, default_value = "127.0.0.1:8080")]
    server: String,
    /// Concurrent games.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Turns per game (each side moves half of them).
    #[arg(long, default_value_t = 40)]
    plies: usize,
    /// Only this variant (default: the five in turn).
    #[arg(long)]
    variant: Option<String>,
    /// Mean think time of a player before each move, in ms: each move waits a time drawn
    /// uniformly between half and one and a half times it. The default, 1000, is bullet
    /// or fast-bot pace (human blitz averages several seconds a move), so 1000 games send
    /// about 1000 moves a second. 0: move at once, a saturation test whose round trips are
    /// mostly queueing. Round trips never include the think time.
    #[arg(long, default_value_t = chimere_server::load::DEFAULT_THINK_MS)]
    think_ms: u64,
}

#[derive(Args)]
struct VariantArg {
    /// Variant name (lower case): chess, checkered, interweave, fugue, dynamo.
    #[arg(long, short = 'v', default_value = "chess")]
    variant: String,
}

#[derive(Args)]
struct ConditionArgs {
    /// A fairy condition on orthodox chess (`circe`, "anticirce cheylan", ...); repeatable,
    /// the conditions compose. Only with `--variant chess`.
    #[arg(long = "condition", short = 'c', value_name = "NAME")]
    conditions: Vec<String>,
}

#[derive(Args)]
struct SolveArgs {
    /// The Popeye input file (`-` for standard input).
    file: std::path::PathBuf,
    /// Size of the table of solved sub-positions, in megabytes.
    #[arg(long, default_value_t = 256)]
    hash: usize,
    /// Stop each problem after this many seconds (`Partial solution`).
    #[arg(long = "max-time", value_name = "SECONDS")]
    max_time: Option<f64>,
    /// Print each problem's solutions as one JSON document (a tree for programs).
    #[arg(long)]
    json: bool,
    /// Threads searching first moves in parallel (default: the machine's cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Print the input as it is read, Popeye's German or French words put in English, and
    /// solve nothing.
    #[arg(long, conflicts_with_all = ["json", "max_time", "threads"])]
    english: bool,
}

#[derive(Args)]
struct MovesArgs {
    #[command(flatten)]
    variant: VariantArg,
    #[command(flatten)]
    conditions: ConditionArgs,
    /// Position in the variant's FEN (chess also takes standard FEN); default: the start.
    #[arg(long, conflicts_with = "jsonl")]
    fen: Option<String>,
    /// Print only the canonical turns, sorted, one per line.
    #[arg(long)]
    canonical: bool,
    /// Read FENs from standard input, one per line; write one JSON object per line.
    #[arg(long)]
    jsonl: bool,
}

#[derive(Args)]
struct PerftArgs {
    #[command(flatten)]
    variant: VariantArg,
    #[command(flatten)]
    conditions: ConditionArgs,
    /// Position in the variant's FEN; default: the start.
    #[arg(long)]
    fen: Option<String>,
    /// Depth in complete turns, at most 64 (chimere_core::MAX_PERFT_DEPTH: deeper trees
    /// cannot be counted in practice).
    #[arg(long, short = 'd', value_parser = clap::value_parser!(u32).range(0..=chimere_core::MAX_PERFT_DEPTH as i64))]
    depth: u32,
    /// Also print the leaves below each first turn (canonical form, sorted).
    #[arg(long)]
    divide: bool,
    /// Count the last ply without playing it.
    #[arg(long)]
    bulk: bool,
}

#[derive(Args)]
struct BenchArgs {
    /// Only this variant.
    #[arg(long, short = 'v')]
    variant: Option<String>,
    /// One ply less than the standard depths (a quick smoke run).
    #[arg(long)]
    quick: bool,
    /// Only the search rows (nodes/s of the engine's search), not perft.
    #[arg(long)]
    search: bool,
}

#[derive(Args)]
struct StartArgs {
    #[command(flatten)]
    variant: VariantArg,
    /// 0 = standard array, 1 = random symmetric, 2 = random independent arrays.
    #[arg(long, default_value_t = 0)]
    randomness: u8,
    /// Seed of the random arrays.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Variant parameter `key=value` (e.g. `switch=off` for checkered); repeatable.
    #[arg(long = "param", value_name = "KEY=VALUE")]
    params: Vec<String>,
}

/// A bad input: reported on one line, exit status 2.
enum Failure {
    /// A one-line message for the user.
    Message(String),
    /// The reader of the output closed it (`chimere conditions | head`): the command
    /// ends quietly, as other command-line tools do.
    OutputClosed,
}

impl From<RulesError> for Failure {
    fn from(e: RulesError) -> Self {
        Failure::Message(e.to_string())
    }
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            Failure::OutputClosed
        } else {
            Failure::Message(format!("i/o error: {e}"))
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            let text = e.to_string();
            let line = text.lines().next().unwrap_or("bad arguments").trim_start_matches("error: ");
            eprintln!("chimere: {line} (try --help)");
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Uci => {
            chimere_engine::uci::run_stdio();
            Ok(())
        }
        Command::Moves(a) => moves(a),
        Command::Perft(a) => perft(a),
        Command::Bench(a) => bench::run(a.variant.as_deref(), a.quick, a.search),
        Command::Start(a) => start(a),
        Command::Solve(a) => solve(a),
        Command::Variants => variants(),
        Command::Conditions => conditions(),
        Command::Serve(a) => chimere_server::store::Database::choose(a.db.as_deref(), a.database_url.as_deref())
            .and_then(|db| {
                chimere_server::run(chimere_server::Config {
                    db,
                    listen: a.listen,
                    allowed_origins: a.allow_origin,
                    ..chimere_server::Config::default()
                })
            })
            .map_err(Failure::Message),
        Command::Load(a) => chimere_server::load::run(&a.server, a.games, a.plies, a.variant.as_deref(), a.think_ms)
            .map_err(Failure::Message),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::OutputClosed) => ExitCode::SUCCESS,
        Err(Failure::Message(msg)) => {
            eprintln!("chimere: {msg}");
            ExitCode::from(2)
        }
    }
}

fn variants() -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    for n in chimere_rules::names() {
        writeln!(out, "{n}")?;
    }
    Ok(())
}

fn conditions() -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    // One line per condition: the seed's name, the Popeye form, the parameters
    // (seed|Popeye spellings).
    for line in chimere_fairy::conditions::registry::catalogue() {
        let mut f = line.split('\t');
        let (name, popeye, params) = (f.next().unwrap_or(""), f.next().unwrap_or(""), f.next().unwrap_or(""));
        let params = if params.is_empty() { String::new() } else { format!("  [{params}]") };
        writeln!(out, "{name:<42}  {popeye}{params}")?;
    }
    writeln!(out, "\nCirce parameters: {}", chimere_fairy::conditions::registry::circe_parameters())?;
    Ok(())
}

/// The rules of `--variant` under the given fairy conditions (checked by creating the
/// start position).
fn rules_with(name: &str, conditions: &ConditionArgs) -> Result<GameOptions, Failure> {
    let opts = GameOptions { conditions: conditions.conditions.clone(), ..Default::default() };
    if !opts.conditions.is_empty() && name != "chess" {
        return Err(Failure::Message(format!("conditions apply to --variant chess only, not `{name}`")));
    }
    chimere_rules::create(name, opts.clone(), None)?;
    Ok(opts)
}

/// The game of `name` under `opts` at `fen`, or at the start.
fn game_at(name: &str, opts: &GameOptions, fen: Option<&str>) -> Result<Box<dyn DynGame>, RulesError> {
    chimere_rules::create(name, opts.clone(), fen)
}

/// One line of `moves --jsonl` output.
#[derive(serde::Serialize)]
struct JsonMoves<'a> {
    fen: &'a str,
    status: &'a str,
    moves: Vec<&'a str>,
}

/// One line of `moves --jsonl` output for a position that could not be read.
#[derive(serde::Serialize)]
struct JsonError<'a> {
    fen: &'a str,
    error: String,
}

fn moves(a: MovesArgs) -> Result<(), Failure> {
    let name = a.variant.variant.as_str();
    let opts = rules_with(name, &a.conditions)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if a.jsonl {
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            let line = line?;
            let fen = line.trim();
            if fen.is_empty() {
                continue;
            }
            let value = match game_at(name, &opts, Some(fen)) {
                Ok(mut g) => {
                    let turns = g.legal();
                    serde_json::to_string(&JsonMoves {
                        fen,
                        status: g.position_status().as_str(),
                        moves: turns.iter().map(|t| t.canonical.as_str()).collect(),
                    })
                }
                Err(e) => serde_json::to_string(&JsonError { fen, error: e.to_string() }),
            }
            .map_err(|e| Failure::Message(format!("cannot write JSON: {e}")))?;
            writeln!(out, "{value}")?;
            out.flush()?;
        }
        return Ok(());
    }
    let mut g = game_at(name, &opts, a.fen.as_deref())?;
    let turns = g.legal();
    if a.canonical {
        for t in &turns {
            writeln!(out, "{}", t.canonical)?;
        }
    } else {
        let mut names: Vec<&str> = turns.iter().map(|t| t.notation.as_str()).collect();
        names.sort_unstable();
        writeln!(out, "{} ({})", g.fen(), g.variant())?;
        writeln!(out, "status {}; {} legal turns:", g.position_status(), names.len())?;
        for n in names {
            writeln!(out, "{n}")?;
        }
    }
    out.flush()?;
    Ok(())
}

fn perft(a: PerftArgs) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    let name = a.variant.variant.as_str();
    let opts = rules_with(name, &a.conditions)?;
    let mut g = game_at(name, &opts, a.fen.as_deref())?;
    let t = Instant::now();
    let total = if a.divide {
        let mut lines = Vec::new();
        let total = g.divide(a.depth, a.bulk, &mut |m, n| lines.push(format!("{m}: {n}")));
        lines.sort();
        for l in lines {
            writeln!(out, "{l}")?;
        }
        total
    } else if std::io::stderr().is_terminal() && a.depth >= 5 {
        // Long run at a terminal: show progress per first turn.
        let mut done = 0;
        let total = g.divide(a.depth, a.bulk, &mut |_, _| {
            done += 1;
            eprint!("\r{done} first turns counted");
        });
        eprintln!();
        total
    } else {
        g.perft(a.depth, a.bulk)
    };
    let secs = t.elapsed().as_secs_f64();
    eprintln!(
        "perft {} depth {}{}: {total} leaves in {secs:.3} s ({:.2} M leaves/s)",
        g.variant(),
        a.depth,
        if a.bulk { " (bulk)" } else { "" },
        total as f64 / secs.max(1e-9) / 1e6
    );
    writeln!(out, "{total}")?;
    Ok(())
}

fn start(a: StartArgs) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    let mut params = Vec::new();
    for p in &a.params {
        let (k, v) = p.split_once('=').ok_or_else(|| Failure::Message(format!("parameter `{p}` is not KEY=VALUE")))?;
        params.push((k.to_string(), v.to_string()));
    }
    let opts = GameOptions { randomness: a.randomness, seed: a.seed, params, ..Default::default() };
    writeln!(out, "{}", game_at(&a.variant.variant, &opts, None)?.fen())?;
    Ok(())
}

fn solve(a: SolveArgs) -> Result<(), Failure> {
    let name = a.file.display().to_string();
    let input = if name == "-" {
        std::io::read_to_string(std::io::stdin())?
    } else {
        let bytes = std::fs::read(&a.file).map_err(|e| Failure::Message(format!("cannot read {name}: {e}")))?;
        // Problem files are often Latin-1; read what is not UTF-8 byte by byte.
        String::from_utf8(bytes).unwrap_or_else(|e| e.into_bytes().iter().map(|&b| b as char).collect())
    };
    if a.english {
        print!("{}", chimere_popeye::lang::to_english(&input));
        return Ok(());
    }
    let mut settings = chimere_solver::Settings { hash_mb: a.hash, json: a.json, ..Default::default() };
    if let Some(t) = a.threads {
        settings.threads = t.max(1);
    }
    if let Some(s) = a.max_time {
        if !(s.is_finite() && s > 0.0) {
            return Err(Failure::Message(format!("--max-time: `{s}` is not a positive number of seconds")));
        }
        settings.max_time = Some(std::time::Duration::from_secs_f64(s));
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut err_text: Vec<u8> = Vec::new();
    let errors = chimere_solver::solve_input(&input, &settings, &mut out, &mut err_text)?;
    if errors > 0 {
        let text = String::from_utf8_lossy(&err_text);
        let lines: Vec<String> = text.lines().map(|l| format!("{name}: {l}")).collect();
        return Err(Failure::Message(lines.join("\nchimere: ")));
    }
    Ok(())
}
