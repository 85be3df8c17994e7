//! Property tests on orthodox positions and under conditions built directly: every legal
//! move makes and unmakes exactly (hash included).

mod common;

use chimere_fairy::conditions::{Circe, Ghost, Occupied, RebirthSquare};
use chimere_fairy::{Condition, Game, Move, RuleSet, position_from_fen};
use common::{Mix, random_position, random_walk};
use proptest::prelude::*;
use std::sync::Arc;

fn rule_sets() -> Vec<(&'static str, Vec<Arc<dyn Condition>>)> {
    vec![
        ("orthodox", vec![]),
        ("circe", vec![Arc::new(Circe::plain())]),
        ("circe parachute", vec![Arc::new(Circe { occupied: Occupied::Parachute, ..Circe::plain() })]),
        ("circe volcanic", vec![Arc::new(Circe { occupied: Occupied::Volcanic, ..Circe::plain() })]),
        ("circe assassin", vec![Arc::new(Circe { occupied: Occupied::Assassin, ..Circe::plain() })]),
        ("anticirce", vec![Arc::new(Circe::anti("AntiCirce", RebirthSquare::Standard))]),
        ("fusil", vec![Arc::new(Circe::fusil())]),
        ("ghost", vec![Arc::new(Ghost)]),
    ]
}

/// Random legal moves from `g`: at every step each legal move makes and unmakes exactly
/// (the hash included), and unmaking the walk gives the start back.
fn make_unmake_walk(mut g: Game, name: &str, seed: u64, plies: usize) -> Result<(), TestCaseError> {
    let start = g.pos.clone();
    let made = random_walk(&mut g, seed, plies, |g| {
        let mut v: Vec<Move> = Vec::new();
        g.legal_moves(&mut v);
        for m in &v {
            let before = g.pos.clone();
            g.make(m).expect("legal");
            prop_assert_eq!(g.pos.hash(), g.pos.recomputed_hash(), "{} {:?}", name, m);
            g.unmake();
            prop_assert!(g.pos == before, "{} {:?}", name, m);
        }
        Ok(())
    })?;
    for _ in 0..made {
        g.unmake();
    }
    prop_assert!(g.pos == start, "{}", name);
    Ok(())
}

fn walk(fen: &str, conds: Vec<Arc<dyn Condition>>, seed: u64, plies: usize) -> Result<(), TestCaseError> {
    let g = Game::new(RuleSet::build(conds, &[]).unwrap(), position_from_fen(fen).unwrap());
    make_unmake_walk(g, fen, seed, plies)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]
    #[test]
    fn make_unmake_identity(seed in any::<u64>()) {
        for (_, conds) in rule_sets() {
            walk("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", conds.clone(), seed, 30)?;
            walk("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", conds, seed, 12)?;
        }
    }

    /// Royalty and obligation conditions: passes (Black checks), king placements
    /// (Republican, from a diagram without black king), several kings (Rex Multiplex,
    /// Rois siamois), MAFF: every legal move makes and unmakes exactly.
    #[test]
    fn make_unmake_identity_royalty(seed in any::<u64>()) {
        let by = |n: &str| chimere_fairy::conditions::by_name(n).unwrap();
        let cases: [(&str, &str, usize); 6] = [
            ("black checks", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 10),
            ("republican", "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", 8),
            ("republican type1", "8/4B3/K1R5/8/1P6/6p1/8/8 w - - 0 1", 4),
            ("rex multiplex", "k3k3/pppppppp/8/8/8/8/PPPPPPPP/R3K2K w Q - 0 1", 10),
            ("rois siamois", "k3k3/pppppppp/8/8/8/8/PPPPPPPP/R3K2K w Q - 0 1", 10),
            ("maff", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 8),
        ];
        for (name, fen, plies) in cases {
            walk(fen, by(name), seed, plies)?;
        }
    }

    #[test]
    fn fen_reader_never_panics(s in "\\PC{0,80}") {
        let _ = position_from_fen(&s);
    }
}

#[test]
fn fen_reader_rejects_long_ranks() {
    assert!(position_from_fen("99999999999999999999999999999999/8/8/8/8/8/8/8 w - - 0 1").is_err());
}

/// Random positions with every walk (neutral units too): the attack-table check test must
/// agree with the fallback that plays the opponent's captures.
const MIX: Mix = Mix { min: 4, spread: 12, kinds: &[], extra_kings: false, royal_one_in: 0, either_side: false };

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn attack_tables_agree_with_played_captures(seed in any::<u64>()) {
        use chimere_core::Colour;
        use chimere_fairy::rules::Observation;
        let pos = random_position(seed, &MIX);
        // Every rule set whose conditions declare that attack tables suffice.
        let sets: Vec<Vec<Arc<dyn Condition>>> = vec![
            vec![],
            vec![Arc::new(Circe::plain())],
            vec![Arc::new(Circe { occupied: Occupied::Parachute, ..Circe::plain() })],
            vec![Arc::new(Circe { occupied: Occupied::Volcanic, ..Circe::plain() })],
            vec![Arc::new(Circe { occupied: Occupied::Illegal, ..Circe::plain() })],
            vec![Arc::new(Circe::with_square("SuperCirce", RebirthSquare::Any))],
            vec![Arc::new(Ghost)],
            chimere_fairy::conditions::by_name("circe kamikaze").unwrap(),
            chimere_fairy::conditions::by_name("kamikaze rex inclusiv").unwrap(),
        ];
        for (i, conds) in sets.into_iter().enumerate() {
            let fast = RuleSet::build(conds, &[]).unwrap();
            prop_assert_eq!(fast.observation, Observation::Attack);
            let mut slow = fast.clone();
            slow.observation = Observation::KingCaptures;
            let mut a = Game::new(fast, pos.clone());
            let mut b = Game::new(slow, pos.clone());
            for side in [Colour::White, Colour::Black] {
                prop_assert_eq!(a.in_check(side), b.in_check(side), "rule set {} side {:?} in {:?}", i, side, a.pos.board());
            }
            let (mut ma, mut mb): (Vec<Move>, Vec<Move>) = (Vec::new(), Vec::new());
            a.legal_moves(&mut ma);
            b.legal_moves(&mut mb);
            prop_assert_eq!(ma, mb, "rule set {}", i);
        }
    }
}

fn every_condition() -> Vec<(&'static str, Vec<Arc<dyn Condition>>)> {
    let names = [
        "circe",
        "circe antipode",
        "circe chameleon",
        "circe clone",
        "circe couscous",
        "circe coucou",
        "circe diagramme",
        "circe diagramme blanc",
        "circe equipollent",
        "circe inverse",
        "circe kamikaze",
        "circe malefique martien",
        "circe symetrique",
        "super-circe",
        "circe assassin",
        "circe parachute",
        "circe volcanique",
        "circe strict",
        "circe rex inclusiv",
        "anticirce",
        "anticirce colonne",
        "anticirce echange",
        "anticirce equipollent",
        "anticirce malefique",
        "anti-super-circe",
        "para-circe",
        "optional replacement",
        "fusil",
        "ghost",
        "kamikaze rex inclusiv",
        "checkless",
        "qui perd gagne",
        "extinction",
        "bicolores",
        "vogtlander",
        "brunner",
        "isardam",
        "isardam type b",
        "sat",
        "black checks",
        "anti-andernach",
        "einstein",
        "volage",
        "glasgow",
        "sentinelles en pion adverse",
        "sentinelles parasentinelles maximumwhite 3",
        "sentinelles en pion neutre",
        "sentinelles totalmax=4",
        "swapping kings",
        "gravitation",
        "bicaptures",
        "all-in-chess",
        "cavalier majeur",
        "rose",
        "locusauteur",
        "rokagogo",
        "rois reflecteurs",
        "rois strictement transmutes",
        "no double pawns",
    ];
    names.iter().map(|n| (*n, chimere_fairy::conditions::by_name(n).unwrap())).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]
    /// Random fairy positions under every condition: legal moves make and unmake exactly.
    #[test]
    fn random_fairy_positions_make_unmake(seed in any::<u64>()) {
        let pos = random_position(seed, &MIX);
        for (name, conds) in every_condition() {
            make_unmake_walk(Game::new(RuleSet::build(conds, &[]).unwrap(), pos.clone()), name, seed, 4)?;
        }
    }
}
