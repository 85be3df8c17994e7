//! Fixtures for conditions Popeye lacks (Chimère extension keywords), each with the
//! reason for its expected moves. Where the spec says how, the expected moves are derived
//! from Popeye's output for the nearest Popeye condition.

use chimere_testkit::oracle_text;
use std::collections::{BTreeMap, BTreeSet};

fn solve(input: &str) -> BTreeSet<String> {
    let out = chimere_popeye::solve_text(input).unwrap_or_else(|e| panic!("{e}\n{input}"));
    out.lines().filter_map(|l| l.trim().strip_prefix("1.")?.strip_suffix(" !").map(str::to_string)).collect()
}

fn records(slug: &str) -> Vec<(String, BTreeSet<String>)> {
    oracle_text(&format!("popeye/{slug}.jsonl"))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
        .filter(|r| r["kind"] == "moves")
        .map(|r| {
            (
                r["input"].as_str().unwrap().to_string(),
                r["expected_moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect(),
            )
        })
        .collect()
}

fn diff(ours: &BTreeSet<String>, expected: &BTreeSet<String>) -> String {
    format!(
        "missing {:?}\nextra {:?}",
        expected.difference(ours).collect::<Vec<_>>(),
        ours.difference(expected).collect::<Vec<_>>()
    )
}

/// Circé coucou, derived from Popeye's CouscousCirce output as conditions.md says: a pawn
/// capture whose reborn pawn promotes is kept only if all four promotions are listed
/// (Popeye silently drops the self-checking ones; coucou makes the capture illegal).
#[test]
fn circe_coucou_from_couscous() {
    for (input, expected) in records("circe-couscous") {
        let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut plain = BTreeSet::new();
        for m in &expected {
            if let Some(i) = m.find("[+").filter(|&i| m[i..].contains('=')) {
                let eq = i + m[i..].find('=').unwrap();
                groups.entry(m[..eq].to_string()).or_default().push(m.clone());
            } else {
                plain.insert(m.clone());
            }
        }
        let mut want = plain;
        for (_, g) in groups {
            if g.len() == 4 {
                want.extend(g);
            }
        }
        let ours = solve(&input.replace("CouscousCirce", "CoucouCirce"));
        assert_eq!(ours, want, "{input}\n{}", diff(&ours, &want));
    }
}

/// Optional Replacement, derived from Popeye's SuperCirce output: the same captures, the
/// captured bishop (d5, a light square) only back on light squares.
#[test]
fn optional_replacement_bishop_keeps_its_colour() {
    let (input, expected) = records("super-circe").into_iter().next().expect("record");
    let want: BTreeSet<String> = expected
        .into_iter()
        .filter(|m| match m.find("[+bB") {
            Some(i) => chimere_core::Square::parse(&m[i + 4..i + 6]).expect("square").is_light(),
            None => true,
        })
        .collect();
    let ours = solve(&input.replace("SuperCirce", "OptionalReplacement"));
    assert_eq!(ours, want, "{}", diff(&ours, &want));
}

/// Optional Replacement of a pawn: never on its first (rank 8) or last (rank 1) rank, so
/// ranks 2-7; not on d2/f2 (the pawn would check the white king on e1: self-check); not
/// on b5 (the capturing rook stands there); or not at all.
#[test]
fn optional_replacement_pawn_ranks() {
    let input = "BeginProblem\nCondition OptionalReplacement\nPieces White Ke1 Rb1 Black Ka8 Pb5\n\
                 Stipulation ~1\nEndProblem\n";
    let ours: BTreeSet<String> = solve(input).into_iter().filter(|m| m.starts_with("Rb1*b5")).collect();
    let mut want = BTreeSet::from(["Rb1*b5".to_string()]);
    for s in chimere_core::Square::ALL {
        let name = s.to_string();
        if (1..=6).contains(&s.rank()) && !["b5", "d2", "f2"].contains(&name.as_str()) {
            want.insert(format!("Rb1*b5[+bP{name}]"));
        }
    }
    assert_eq!(ours, want, "{}", diff(&ours, &want));
}

/// Para-circé. White: Kb1 (kings cannot move), Rd4, Pg7; Black Ka8 Qd7 Sh8.
/// - Rd4*d7: the rook returns to its Circe square for the light d7, h1 (empty).
/// - g7*h8: the pawn's square h2 is empty, so it is reborn there as a pawn (no promotion).
/// - g8=Q and g8=R check along the 8th rank; Rd4-a4 checks along the a-file (a king
///   capture would be followed by the capturer's return, the king is lost).
/// - No king moves at all.
#[test]
fn para_circe_returns_the_capturer() {
    let input = "BeginProblem\nCondition ParaCirce\nPieces White Kb1 Rd4 Pg7 Black Ka8 Qd7 Sh8\n\
                 Stipulation ~1\nEndProblem\n";
    let want: BTreeSet<String> = [
        "Rd4-e4",
        "Rd4-f4",
        "Rd4-g4",
        "Rd4-h4",
        "Rd4-d5",
        "Rd4-d6",
        "Rd4-c4",
        "Rd4-b4",
        "Rd4-a4 +",
        "Rd4-d3",
        "Rd4-d2",
        "Rd4-d1",
        "Rd4*d7[wRd7->h1]",
        "g7-g8=Q +",
        "g7-g8=S",
        "g7-g8=R +",
        "g7-g8=B",
        "g7*h8[wPh8->h2]",
    ]
    .into_iter()
    .map(str::to_string)
    .collect();
    let ours = solve(input);
    assert_eq!(ours, want, "{}", diff(&ours, &want));
}

/// Para-circé with the return squares occupied (Sh1, Ph2): the capturers stay where they
/// captured, and the pawn capturing on h8 therefore promotes there (Q and R check along
/// the 8th rank).
#[test]
fn para_circe_occupied_square_capturer_stays() {
    let input = "BeginProblem\nCondition ParaCirce\nPieces White Kb1 Rd4 Pg7 Sh1 Ph2 Black Ka8 Qd7 Sh8\n\
                 Stipulation ~1\nEndProblem\n";
    let ours = solve(input);
    for m in ["Rd4*d7", "g7*h8=Q +", "g7*h8=S", "g7*h8=R +", "g7*h8=B"] {
        assert!(ours.contains(m), "{m} missing from {ours:?}");
    }
    assert!(!ours.iter().any(|m| m.starts_with("Kb1")));
}

/// Para-circé: kings cannot move, hence cannot capture nor give check: adjacent kings are
/// legal and Black's only moves are the pawn's.
#[test]
fn para_circe_kings_immobile() {
    let input = "BeginProblem\nCondition ParaCirce\nPieces White Kd4 Black Kd5 Pa7\nStipulation ~1\n\
                 Option HalfDuplex\nEndProblem\n";
    let want: BTreeSet<String> = ["a7-a6", "a7-a5"].into_iter().map(str::to_string).collect();
    assert_eq!(solve(input), want);
}

/// Circé diagramme blanc, derived from Popeye's DiagramCirce output: only white units are
/// reborn, so the black rebirths `[+b..]` disappear (White captures black units in these
/// records).
#[test]
fn white_diagram_circe_from_diagram_circe() {
    for (input, expected) in records("circe-diagramme") {
        if input.contains("HalfDuplex") {
            continue;
        }
        let want: BTreeSet<String> = expected
            .iter()
            .map(|m| match m.find("[+b") {
                Some(i) => {
                    let j = i + m[i..].find(']').unwrap();
                    format!("{}{}", &m[..i], &m[j + 1..])
                }
                None => m.clone(),
            })
            .collect();
        let ours = solve(&input.replace("DiagramCirce", "WhiteDiagramCirce"));
        assert_eq!(ours, want, "{input}\n{}", diff(&ours, &want));
    }
}

fn set(moves: &[&str]) -> BTreeSet<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

/// Eiffel + Circe. White Ka7 Rc5 Sf3, Black Kh8 Qc7 Be5. The queen c7 is paralysed by the
/// free rook c5 (no black bishop observes c5), so it does not check the king a7 along the
/// 7th rank; the bishop e5 is paralysed by the knight f3 (irrelevant: it observes no white
/// rook).
/// - King: a8, b8, b7, b6, a6 are all safe (the queen stays paralysed; nothing else
///   reaches those squares).
/// - Rook: along the c-file it still observes c7 (c6, c4, c3, c2, c1): legal. Off the file
///   (b5, a5, d5) the queen is freed and checks a7 via b7: illegal. Rc5*e5 also leaves
///   the file: illegal. Rc5*c7 takes the queen, reborn on d8 (Circe), where no white rook
///   observes it but it checks nothing (d8-c7 is blocked by the rook, 8th rank misses a7):
///   legal.
/// - Knight: every quiet move is legal (g1, h2, h4, g5, d4, d2, e1). Sf3*e5 (orthodox-legal,
///   and legal under Eiffel alone) is illegal here: the bishop is reborn on f8 (e5 is
///   dark), from where it observes c5 (e7, d6 empty) and paralyses the rook; the queen is
///   freed and checks a7: the combination's point.
#[test]
fn eiffel_circe_rebirth_frees_a_checker() {
    let input = "BeginProblem\nCondition EiffelChess Circe\nPieces White Ka7 Rc5 Sf3 Black Kh8 Qc7 Be5\n\
                 Stipulation ~1\nOption NoBoard\nEndProblem\n";
    let want = set(&[
        "Ka7-a8",
        "Ka7-b8",
        "Ka7-b7",
        "Ka7-b6",
        "Ka7-a6",
        "Rc5-c6",
        "Rc5-c4",
        "Rc5-c3",
        "Rc5-c2",
        "Rc5-c1",
        "Rc5*c7[+bQd8]",
        "Sf3-g1",
        "Sf3-h2",
        "Sf3-h4",
        "Sf3-g5",
        "Sf3-d4",
        "Sf3-d2",
        "Sf3-e1",
    ]);
    let ours = solve(input);
    assert_eq!(ours, want, "{}", diff(&ours, &want));
    // Contrast: under Eiffel alone the knight capture is legal (nothing is reborn).
    let alone = solve(&input.replace(" Circe", ""));
    assert!(alone.contains("Sf3*e5"), "{alone:?}");
}

/// Haan + Anticirce (Cheylan). White Ke1 Sc3, Black Kg8 Re8 Pe4 Pd5. The pawn e4 shields
/// the white king from the rook e8 (whose capture Re8*e1 would be legal: the rook is
/// reborn on h8, the dark corner, which is empty).
/// - King: d1, d2, e2, f1, f2: no black unit reaches them (the pawns e4/d5 capture
///   towards d3/f3 and c4/e4; the e-file stays blocked by e4 for e2).
/// - Knight, quiet: a2, a4, b1, b5, d1, e2: the e-file stays blocked.
/// - Sc3*d5: d5 is light, the knight is reborn on b1 (empty): legal.
/// - Sc3*e4: e4 is light, the knight is reborn on b1. Under Anticirce alone e4 is then
///   empty and the rook e8 checks e1: illegal. Under Haan e4 was vacated by the move (the
///   captured pawn left it and the capturer was transferred away), so it is a hole, which
///   the rook cannot cross: legal. That is our reading of "every square vacated by a move"
///   (occupied before, empty after); c3 is a hole too.
#[test]
fn haan_anticirce_capture_square_becomes_a_hole() {
    let input = "BeginProblem\nCondition HaanerChess AntiCirce Cheylan\n\
                 Pieces White Ke1 Sc3 Black Kg8 Re8 Pe4 Pd5\nStipulation ~1\nOption NoBoard\nEndProblem\n";
    let want = set(&[
        "Ke1-d1",
        "Ke1-d2",
        "Ke1-e2",
        "Ke1-f1",
        "Ke1-f2",
        "Sc3-a2",
        "Sc3-a4",
        "Sc3-b1",
        "Sc3-b5",
        "Sc3-d1",
        "Sc3-e2",
        "Sc3*d5[wSd5->b1]",
        "Sc3*e4[wSe4->b1]",
    ]);
    let ours = solve(input);
    assert_eq!(ours, want, "{}", diff(&ours, &want));
    // Contrast: Anticirce alone refuses Sc3*e4 (the rook e8 would check e1).
    let alone = solve(&input.replace("HaanerChess ", ""));
    assert!(!alone.iter().any(|m| m.starts_with("Sc3*e4")), "{alone:?}");
    // After 1.Sc3*e4 the holes c3 and e4 stop Black: the rook cannot go down the e-file
    // past e5.
    let p = &chimere_popeye::parse(input).unwrap()[0];
    let mut g = chimere_popeye::build_game(p).unwrap();
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    let m = *v.iter().find(|m| m.from.to_string() == "c3" && m.to.to_string() == "e4").unwrap();
    g.make(&m).unwrap();
    for s in ["c3", "e4"] {
        assert!(g.pos.is_hole(chimere_core::Square::parse(s).unwrap()), "{s}");
    }
    let mut b = Vec::new();
    g.legal_moves(&mut b);
    let rook: BTreeSet<String> = b.iter().filter(|m| m.from.to_string() == "e8").map(|m| m.to.to_string()).collect();
    assert!(rook.contains("e5") && !rook.contains("e4") && !rook.contains("e3"), "{rook:?}");
}
