//! Self play: a defence that reaches the goal before the defender's last move fulfils the
//! stipulation (`s#2` asks White to force Black to mate within two moves; Black mating at
//! once is such a mate). It is no refutation and is not written.

use chimere_solver::solve_to_strings;

fn run(input: &str) -> String {
    solve_to_strings(input).0
}

/// s#2 under Anticirce Cheylan: White Ka1 Qb7 Rf4 Bc8 Bh6 Sa7 Se8 Pb2 d5 d6 f7 g4, Black
/// Ke5 Qd3 Rc2 Rg3 Bd4 Sg2 Pa2 c3 c4 e2 e4 f3. After 1.f7-f8=S Black can mate at once
/// (1...Rc2-c1, 1...Qd3-d1, 1...e2-e1=Q/R: the king's capture Ka1xa2 would put it back on
/// e1, which the rank-one checker sees); every other defence is met by a check that
/// forces a mate (the threat 2.Qb7-g7+ Qd3-d1#). So 1.f8=S solves, and the immediate
/// mates are neither refutations nor written lines.
#[test]
fn early_mate_by_the_defender_is_no_refutation() {
    let input = "BeginProblem\nStipulation s#2\nCondition AntiCirce Cheylan\nOption NoBoard Variation Try\n\
                 Pieces White Ka1 Qb7 Rf4 Bc8h6 Sa7e8 Pb2d5d6f7g4 \
                 Black Ke5 Qd3 Rc2g3 Bd4 Sg2 Pa2c3c4e2e4f3\nEndProblem\n";
    let out = run(input);
    assert!(out.contains("1.f7-f8=S ! threat:"), "{out}");
    let key = out.split("1.f7-f8=S !").nth(1).unwrap();
    let key = key.split("\n\n").next().unwrap();
    for mate in ["1...Rc2-c1", "1...Qd3-d1", "1...e2-e1=Q", "1...e2-e1=R"] {
        assert!(!key.contains(mate), "{mate} written under the key: {out}");
    }
    // Under the try 1.f7-f8=R the immediate mates are no refutations either.
    for l in out.lines() {
        let t = l.trim();
        assert!(!(t.starts_with("1...") && t.contains(" #") && t.ends_with(" !")), "a mate refutes: {out}");
    }
}

/// With `exact-` the shorter play is no solution: a defence reaching the goal before the
/// defender's last move refutes (Popeye's `stip` example "sofortiges Selbstmatt
/// vermeiden": exact-s#2, White Ka3 Qd1 Pa2 a4 b4 h2, Black Kc3 Pa5 c4 g6). 1.h2-h4 would
/// solve s#2 (1...g6-g5 2.h4*g5 a5*b4#) but 1...a5*b4# mates at once, so it is a try
/// refuted by that mate; 1.h2-h3, refuted by 1...g6-g5 as well, is no try.
#[test]
fn exact_self_play_early_mate_refutes() {
    let body = "Pieces White Ka3 Qd1 Pa2a4b4h2 Black Kc3 Pa5c4g6\nOption NoBoard Variation Try";
    let plain = run(&format!("BeginProblem\nStipulation s#2\n{body}\nEndProblem\n"));
    assert!(plain.contains("1.h2-h4 ! zugzwang."), "{plain}");
    let exact = run(&format!("BeginProblem\nStipulation exact-s#2\n{body}\nEndProblem\n"));
    assert!(exact.contains("1.h2-h4 ? zugzwang."), "{exact}");
    let try_ = exact.split("1.h2-h4 ?").nth(1).unwrap().split("\n\n").next().unwrap();
    assert!(try_.contains("    but\n      1...a5*b4 # !"), "{exact}");
    assert!(try_.contains("              2...a5*b4 #"), "{exact}");
    assert!(!exact.contains("1.h2-h3"), "{exact}");
}
