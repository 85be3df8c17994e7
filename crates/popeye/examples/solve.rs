//! `cargo run -p chimere-popeye --example solve FILE.inp`: what `chimere solve` will print.
fn main() {
    let path = std::env::args().nth(1).expect("usage: solve FILE.inp");
    let text = std::fs::read_to_string(&path).expect("read");
    match chimere_popeye::solve_text(&text) {
        Ok(s) => print!("{s}"),
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    }
}
