//! Lists the legal turns of a position: `cargo run --example moves -- "<fen>"`.
use chimere_core::Variant;
use chimere_dynamo::Dynamo;

fn main() {
    let fen = std::env::args().nth(1).expect("a FEN");
    let mut pos = Dynamo::from_fen(&fen).expect("FEN");
    let mut list = Vec::new();
    pos.legal_turns(&mut list);
    let mut v: Vec<(String, String)> = list.iter().map(|m| (pos.canonical(m), pos.notation(m))).collect();
    v.sort();
    for (c, n) in &v {
        println!("{c}    {n}");
    }
    println!("{} turns, status {}", v.len(), pos.status());
}
