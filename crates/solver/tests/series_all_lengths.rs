//! A series problem prints its solutions of every length up to n, even those that repeat a
//! position. The fixture is the oracle record `popeye-solve/ultra-patrouille.jsonl` line 2,
//! whose recorded Popeye output lacks the six-move lines: Popeye's hash table drops them.
//! The expected lines below are Popeye 4.104's own with its hash table off (`py -maxmem 0`).

use chimere_solver::{Settings, solve_input};

fn lines(input: &str) -> Vec<String> {
    let settings = Settings { threads: 1, progress: false, banner: false, ..Settings::default() };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    solve_input(input, &settings, &mut out, &mut err).expect("i/o");
    let mut v: Vec<String> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| l.starts_with("1."))
        .collect();
    v.sort();
    v
}

#[test]
fn ultra_patrol_ser_h6_prints_every_length() {
    let input = "BeginProblem\nCondition UltraPatrol\nPieces White Ka5 Pb2 Rf3 Pe3 Black Ke4 Pb7 Qh2 Pf5\n\
                 Stipulation ser-h#6\nOption NoBoard\nEndProblem\n";
    let mut expected: Vec<String> = [
        "1.Ke4-e5 2.f5-f4 e3*f4 #",
        "1.Ke4-e5 2.Ke5-d6 3.Kd6-e5 4.f5-f4 e3*f4 #",
        "1.Ke4-e5 2.Ke5-e4 3.Ke4-e5 4.f5-f4 e3*f4 #",
        "1.Ke4-e5 2.Ke5-d6 3.Kd6-e5 4.Ke5-d6 5.Kd6-e5 6.f5-f4 e3*f4 #",
        "1.Ke4-e5 2.Ke5-d6 3.Kd6-e5 4.Ke5-e4 5.Ke4-e5 6.f5-f4 e3*f4 #",
        "1.Ke4-e5 2.Ke5-d6 3.Kd6-c7 4.Kc7-d6 5.Kd6-e5 6.f5-f4 e3*f4 #",
        "1.Ke4-e5 2.Ke5-d6 3.Kd6-c6 4.Kc6-d6 5.Kd6-e5 6.f5-f4 e3*f4 #",
        "1.Ke4-e5 2.Ke5-e4 3.Ke4-e5 4.Ke5-d6 5.Kd6-e5 6.f5-f4 e3*f4 #",
        "1.Ke4-e5 2.Ke5-e4 3.Ke4-e5 4.Ke5-e4 5.Ke4-e5 6.f5-f4 e3*f4 #",
    ]
    .map(String::from)
    .to_vec();
    expected.sort();
    assert_eq!(lines(input), expected);
}
