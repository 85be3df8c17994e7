use chimere_fairy::{Move, notation};
fn main() {
    let input = std::fs::read_to_string(std::env::args().nth(1).unwrap()).unwrap();
    let p = chimere_popeye::parse(&input).unwrap().remove(0);
    let mut g = chimere_popeye::build_game(&p).unwrap();
    let path: Vec<String> = std::env::args().skip(2).collect();
    for t in &path {
        if t == "pass" {
            println!("pass {:?}", g.make(&Move::NULL).is_some());
            continue;
        }
        let m = notation::find_legal(&mut g, t).expect(t);
        g.make(&m);
    }
    println!("side {:?} in_check {}", g.pos.side(), g.in_check(g.pos.side()));
    for (m, t) in notation::legal_with_texts(&mut g) {
        let _ = m;
        println!("{t}");
    }
}
