//! The engine alone over UCI (as `chimere uci`), built without the rest of the command line:
//! a quick build for self-play tests of engine changes (`tools/sprt.py`).
//!
//! ```sh
//! cargo build --release -p chimere-engine --example uci && target/release/examples/uci
//! ```

fn main() {
    chimere_engine::uci::run_stdio();
}
