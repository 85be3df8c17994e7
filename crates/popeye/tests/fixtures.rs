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

fn set(v: &[&str]) -> BTreeSet<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// MAFF (the seed's rule; Popeye's MAFF differs, so this is a hand-made fixture). White
/// Kb6 Rh1, Black Ka8. Every orthodox move except Rh1-h8, which checks Ka8 with no flight
/// (a7 b7 guarded by Kb6, b8 by the rook): Kb6-a6/a5/b5/c5/c6/c7 (b7 and a7 are next to
/// Ka8: illegal), the rook's 13 other moves; Rh1-a1 checks but leaves the flight b8.
#[test]
fn maff_forbids_a_check_without_flight() {
    let input =
        "BeginProblem\nCondition MAFF\nPieces White Kb6 Rh1 Black Ka8\nStipulation ~1\nOption NoBoard\nEndProblem\n";
    let want = set(&[
        "Kb6-a6", "Kb6-a5", "Kb6-b5", "Kb6-c5", "Kb6-c6", "Kb6-c7", "Rh1-g1", "Rh1-f1", "Rh1-e1", "Rh1-d1", "Rh1-c1",
        "Rh1-b1", "Rh1-a1 +", "Rh1-h2", "Rh1-h3", "Rh1-h4", "Rh1-h5", "Rh1-h6", "Rh1-h7",
    ]);
    let ours = solve(input);
    assert_eq!(ours, want, "{}", diff(&ours, &want));
}

/// MAFF, Black to move: Ka8 (White Kb6 guards a7 b7, Rc1 idle) has exactly one flight,
/// b8, so it may not move; only the pawn h7 moves (h6, h5).
#[test]
fn maff_king_with_one_flight_is_immobile() {
    let input = "BeginProblem\nCondition MAFF\nPieces White Kb6 Rc1 Black Ka8 Ph7\nStipulation ~1\nOption NoBoard HalfDuplex\nEndProblem\n";
    let want = set(&["h7-h6", "h7-h5"]);
    let ours = solve(input);
    assert_eq!(ours, want, "{}", diff(&ours, &want));
}

/// Rex Multiplex (no Popeye keyword: Chimère's `RexMultiplex`). White Kf1 Rc2; Black kings
/// a8 and h5, pawns a7 b7. Rc2-c8 would attack Ka8 with no parry while Kh5 is free: illegal.
/// The others: Kf1 e1/e2/f2/g1/g2 (no black unit guards them), the rook on the c-file
/// c1, c3-c7 (c5 checks Kh5, which escapes), and on the 2nd rank a2, b2, d2-h2 (h2 checks
/// Kh5, which escapes).
#[test]
fn rex_multiplex_forbids_an_unparriable_check_to_one_king() {
    let input = "BeginProblem\nCondition RexMultiplex\nPieces White Kf1 Rc2 Black Ka8 Kh5 Pa7 Pb7\nStipulation ~1\nOption NoBoard\nEndProblem\n";
    let want = set(&[
        "Kf1-e1", "Kf1-e2", "Kf1-f2", "Kf1-g1", "Kf1-g2", "Rc2-c1", "Rc2-c3", "Rc2-c4", "Rc2-c5 +", "Rc2-c6", "Rc2-c7",
        "Rc2-a2", "Rc2-b2", "Rc2-d2", "Rc2-e2", "Rc2-f2", "Rc2-g2", "Rc2-h2 +",
    ]);
    let ours = solve(input);
    assert_eq!(ours, want, "{}", diff(&ours, &want));
    // Rois siamois: the same check is simply mate, and legal.
    let siamese = solve(&input.replace("RexMultiplex", "SiameseKings"));
    let mut want2 = want.clone();
    want2.insert("Rc2-c8 +".to_string());
    assert_eq!(siamese, want2, "{}", diff(&siamese, &want2));
}

/// RepublicanChess Type1 against the default Type2 (Popeye's "republican 6" after
/// 1.Rc3*c6 h4*g3): the same moves, except that a move with a mating placement of the
/// black king (`...[+bK..]`) loses its plain version, the placement being compulsory.
#[test]
fn republican_type1_placement_is_compulsory() {
    let input = "BeginProblem\nCondition RepublicanChess\nPieces White Ka6 Rc6 Be7 Pb4 Black Pg3\nStipulation ~1\nOption NoBoard\nEndProblem\n";
    let type2 = solve(input);
    let type1 = solve(&input.replace("RepublicanChess", "RepublicanChess Type1"));
    let placed: BTreeSet<String> =
        type2.iter().filter_map(|m| m.split_once("[+bK").map(|(p, _)| p.to_string())).collect();
    assert!(placed.contains("Rc6-c8"), "{type2:?}");
    let want: BTreeSet<String> = type2.iter().filter(|m| !placed.contains(*m)).cloned().collect();
    assert_eq!(type1, want, "{}", diff(&type1, &want));
}
