//! Property tests: make/unmake is the identity (hash included) under every implemented
//! condition, from the oracle diagrams; random input never panics the parser.

mod support;

use chimere_core::rng::SplitMix64;
use chimere_fairy::Move;
use chimere_testkit::oracle_text;
use proptest::prelude::*;

const SLUGS: &[&str] = &[
    "circe-plain",
    "circe-antipode",
    "circe-chameleon",
    "circe-clone",
    "circe-couscous",
    "circe-diagramme",
    "circe-equipollent",
    "circe-inverse",
    "circe-kamikaze",
    "circe-malefique-martien",
    "circe-symetrique",
    "super-circe",
    "circe-assassin",
    "circe-parachute",
    "circe-volcanic",
    "circe-strict",
    "circe-rex-inclusiv",
    "anticirce-colonne",
    "anticirce-echange",
    "anticirce-equipollent",
    "anticirce-malefique",
    "anti-super-circe",
    "fusil",
    "ghost",
    "kamikaze-rex-inclusiv",
    "rose",
    "locusauteur",
    "checkless",
    "no-check-losing",
    "extinction",
    "bicolores",
    "vogtlander",
    "brunner",
    "isardam",
    "isardam-b",
    "sat",
    "black-checks",
    "forced-square-consequent",
    "forced-square-consequent-white",
    "forced-square-consequent-black",
    "anti-andernach",
    "einstein",
    "volage",
    "glasgow",
    "sentinelles-pion-adverse",
    "sentinelles-totalmax",
    "swapping-kings",
    "bicaptures",
    "all-in-chess",
    "cavalier-majeur",
    "rokagogo",
    "reflective-kings",
];

fn inputs() -> Vec<(String, String)> {
    let mut v = Vec::new();
    for slug in SLUGS {
        for line in oracle_text(&format!("popeye/{slug}.jsonl")).lines().filter(|l| !l.trim().is_empty()) {
            let rec: serde_json::Value = serde_json::from_str(line).expect("JSON");
            if rec["kind"] == "moves" {
                v.push((slug.to_string(), rec["input"].as_str().expect("input").to_string()));
            }
        }
    }
    v
}

/// Random game from a diagram: every legal move is made and unmade at each step (the
/// position and its hash must come back), the incremental hash must equal the
/// recomputed one, and unwinding the whole game restores the diagram.
fn walk(slug: &str, input: &str, seed: u64, plies: usize) {
    let problems = chimere_popeye::parse(input).expect("parse");
    let mut game = chimere_popeye::build_game(&problems[0]).expect("build");
    let start = game.pos.clone();
    let mut rng = SplitMix64::new(seed);
    let mut made = 0;
    for _ in 0..plies {
        let mut moves: Vec<Move> = Vec::new();
        game.legal_moves(&mut moves);
        for m in &moves {
            let before = game.pos.clone();
            let h = game.pos.hash();
            assert!(game.make(m).is_some(), "{slug}: legal move refused: {m:?}");
            assert_eq!(game.pos.hash(), game.pos.recomputed_hash(), "{slug}: hash after {m:?}");
            assert!(game.pos.is_consistent(), "{slug}: inconsistent after {m:?}");
            game.unmake();
            assert_eq!(game.pos, before, "{slug}: make/unmake of {m:?} changed the position");
            assert_eq!(game.pos.hash(), h);
        }
        if moves.is_empty() {
            break;
        }
        let (r, n) = rng.step();
        rng = n;
        let m = moves[(r % moves.len() as u64) as usize];
        game.make(&m).expect("legal");
        made += 1;
    }
    for _ in 0..made {
        game.unmake();
    }
    assert_eq!(game.pos, start, "{slug}: unwinding the game did not restore the diagram");
    assert_eq!(game.pos.hash(), game.pos.recomputed_hash());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn make_unmake_identity_under_every_condition(seed in any::<u64>()) {
        for (slug, input) in inputs() {
            walk(&slug, &input, seed, 10);
        }
    }

    #[test]
    fn random_strings_never_panic_the_parser(s in "\\PC{0,200}") {
        let _ = support::first_moves_text(&s);
    }

    #[test]
    fn random_keyword_soup_never_panics(words in proptest::collection::vec(
        prop::sample::select(vec![
            "BeginProblem", "beginp", "EndProblem", "NextProblem", "Pieces", "White", "Black", "Neutral",
            "Kamikaze", "Royal", "Ke1", "Ke8", "Qd4", "Pa2b2", "ROb1", "LNc3", "Sg8", "Bg8", "DUd5", "Pe2e4",
            "Condition", "Circe", "AntiCirce", "Cheylan", "Super", "Parachute", "Volcanic", "Assassin",
            "RexInclusive", "GhostChess", "MarsMirrorCirce", "SuperCirce", "Stipulation", "~1", "#2",
            "Option", "NoBoard", "HalfDuplex", "EnPassant", "d7d6d5", "NoCastling", "a1h1", "Forsyth",
            "8/8/8/8/8/8/8/8", "4k3/8/8/8/8/8/8/4K3", "Title", "x", "\n", "Twin", "C", "S",
        ]), 0..40)) {
        let text = words.join(" ");
        let _ = support::first_moves_text(&text);
    }
}

#[test]
fn errors_name_the_line() {
    let e = support::first_moves_text("BeginProblem\nPieces White Ke1 Xz9\nStipulation ~1\nEndProblem\n").unwrap_err();
    assert_eq!(e.line, 2, "{e}");
    let e = support::first_moves_text("BeginProblem\nPieces White Ke1\nCondition Frobnicate\nEndProblem").unwrap_err();
    assert_eq!(e.line, 3, "{e}");
    let e = support::first_moves_text(
        "BeginProblem\nCondition Circe\n CouscousCirce\nPieces White Ke1 Black Ke8\nStipulation ~1\nEndProblem",
    )
    .unwrap_err();
    assert!(e.message.contains("cannot be combined"), "{e}");
}
