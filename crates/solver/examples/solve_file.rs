//! The solver alone on a Popeye input file, without the command line program's other
//! parts: quicker to build while measuring the search (`callgrind`, `perf`).
//!
//! ```sh
//! cargo run --release -p chimere-solver --example solve_file -- FILE.inp [THREADS]
//! ```

use chimere_solver::{Settings, solve_input};
use std::io::Write;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: solve_file FILE.inp [THREADS]");
        std::process::exit(2);
    };
    let input = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let mut settings = Settings { progress: false, ..Settings::default() };
    if let Some(t) = args.next().and_then(|t| t.parse().ok()) {
        settings.threads = t;
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut err = std::io::stderr();
    let _ = solve_input(&input, &settings, &mut out, &mut err);
    let _ = out.flush();
}
