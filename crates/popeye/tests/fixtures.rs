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

/// Absorbant (Chimère keyword `Absorbant`). White Kh1 Sc3, Black Kd8 Rd5.
/// - Kh1: g1 g2 h2 (the rook on d5 covers rank 5 and the d-file only).
/// - Sc3: a2 a4 b1 b5 d1 e2 e4 (none attacks d8) and Sc3*d5, which absorbs the rook walk:
///   from d5 it now sees d6 d7 d8, hence the check.
#[test]
fn absorbant_knight_takes_rook_walk() {
    let input = "BeginProblem\nCondition Absorbant\nPieces White Kh1 Sc3 Black Kd8 Rd5\n\
                 Stipulation ~1\nEndProblem\n";
    let want: BTreeSet<String> = [
        "Kh1-g1", "Kh1-g2", "Kh1-h2", "Sc3-a2", "Sc3-a4", "Sc3-b1", "Sc3-b5", "Sc3-d1", "Sc3-e2", "Sc3-e4", "Sc3*d5 +",
    ]
    .into_iter()
    .map(str::to_string)
    .collect();
    let ours = solve(input);
    assert_eq!(ours, want, "{}", diff(&ours, &want));
}

/// Absorbant, an absorbed pawn walk. White Kh1 Rd1, Black Ke7 Pd6.
/// - Kh1: g1 g2 h2.
/// - Rd1 along rank 1: a1 b1 c1 f1 g1, and e1 checking along the e-file.
/// - Rd1 up the d-file: d2 d3 d4 d5, and Rd1*d6, which gains the white pawn walk: from d6
///   it captures on c7 and e7, hence the check (the rook walk alone does not reach e7).
#[test]
fn absorbant_rook_takes_pawn_walk() {
    let input = "BeginProblem\nCondition Absorbant\nPieces White Kh1 Rd1 Black Ke7 Pd6\n\
                 Stipulation ~1\nEndProblem\n";
    let want: BTreeSet<String> = [
        "Kh1-g1", "Kh1-g2", "Kh1-h2", "Rd1-a1", "Rd1-b1", "Rd1-c1", "Rd1-e1 +", "Rd1-f1", "Rd1-g1", "Rd1-d2", "Rd1-d3",
        "Rd1-d4", "Rd1-d5", "Rd1*d6 +",
    ]
    .into_iter()
    .map(str::to_string)
    .collect();
    let ours = solve(input);
    assert_eq!(ours, want, "{}", diff(&ours, &want));
}
