//! The fast check paths (capture candidates by walk, the `royal_capture` shortcut of a
//! condition) against the reference that plays every capture of the opponent
//! ([`Game::in_check_reference`]): random walks from set positions and random fairy
//! positions (neutral and royal units too), under plain rules, Circe and Anticirce variants.

mod common;

use chimere_core::Colour;
use chimere_fairy::conditions::{Circe, Occupied, RebirthSquare, by_name};
use chimere_fairy::{Condition, Game, Move, RuleSet, position_from_fen};
use common::{Mix, named_rule_sets, random_position, random_walk};
use proptest::prelude::*;
use std::sync::Arc;

fn rule_sets() -> Vec<(String, Vec<Arc<dyn Condition>>)> {
    let names = [
        "circe",
        "circe rex inclusiv",
        "circe strict rex inclusiv",
        "circe antipode rex inclusiv",
        "circe chameleon rex inclusiv",
        "circe clone rex inclusiv",
        "circe couscous rex inclusiv",
        "circe diagramme rex inclusiv",
        "circe diagramme blanc rex inclusiv",
        "circe equipollent rex inclusiv",
        "circe inverse rex inclusiv",
        "circe malefique rex inclusiv",
        "circe symetrique rex inclusiv",
        "circe parachute rex inclusiv",
        "circe volcanique rex inclusiv",
        "circe assassin",
        "circe kamikaze rex inclusiv",
        "circe malefique martien",
        "anticirce",
        "anticirce cheylan",
        "anticirce calvet",
        "anticirce colonne",
        "anticirce colonne calvet",
        "anticirce echange",
        "anticirce equipollent",
        "anticirce equipollent calvet",
        "anticirce malefique",
        "anticirce pwc",
        "anti-super-circe",
        "para-circe",
        "fusil",
        "kamikaze rex inclusiv",
        "ghost",
    ];
    let mut out = named_rule_sets(&names);
    // Variants the registry has no name for.
    let extra = [
        ("anticirce symmetry", Circe::anti("Anticirce symmetry", RebirthSquare::Symmetry)),
        ("anticirce antipodes calvet", Circe { cheylan: false, ..Circe::anti("Anticirce", RebirthSquare::Antipodes) }),
        ("anticirce diametral", Circe::anti("Anticirce diametral", RebirthSquare::Diametral)),
        ("anticirce rank", Circe::anti("Anticirce rank", RebirthSquare::Rank)),
        ("anticirce couscous", Circe::anti("Anticirce couscous", RebirthSquare::Couscous)),
        ("anticirce diagram", Circe::anti("Anticirce diagram", RebirthSquare::Diagram)),
        ("anticirce vanish", Circe { occupied: Occupied::Vanish, ..Circe::anti("Anticirce", RebirthSquare::Standard) }),
        ("super-circe rex inclusiv", Circe { rex_inclusive: true, ..Circe::with_square("Super", RebirthSquare::Any) }),
    ];
    for (n, c) in extra {
        out.push((n.into(), vec![Arc::new(c)]));
    }
    // The movement and transformation conditions, alone and with Anticirce / Circe Rex
    // Inclusiv (the shortcut must see holes, substituted kinds, gained walks, extra moves).
    let others = [
        "absorbant",
        "haan",
        "hole d4 e5 c3",
        "eiffel",
        "ultra-patrouille",
        "central",
        "monochromatique",
        "bichromatique",
        "rokagogo",
        "reflective kings",
        "rois strictement transmutes",
        "all-in-chess",
        "bicaptures",
        "einstein",
        "glasgow",
        "rose",
        "cavalier majeur",
        "locusauteur",
        "dynamo",
    ];
    for n in others {
        out.push((n.into(), by_name(n).unwrap_or_else(|e| panic!("{n}: {e}"))));
        for base in ["anticirce cheylan", "circe rex inclusiv"] {
            let mut c = by_name(base).unwrap();
            c.extend(by_name(n).unwrap());
            if chimere_fairy::RuleSet::build(c.clone(), &[]).is_ok() {
                out.push((format!("{base} + {n}"), c));
            }
        }
    }
    out
}

/// Both check paths agree for both sides, here and after every legal move.
fn agree(g: &mut Game, name: &str) -> Result<(), TestCaseError> {
    for side in [Colour::White, Colour::Black] {
        let fast = g.in_check(side);
        let slow = g.in_check_reference(side);
        prop_assert_eq!(fast, slow, "{}: side {:?} in {:?}", name, side, g.pos.board());
    }
    let mut v: Vec<Move> = Vec::new();
    g.pseudo_moves(g.pos.side(), &mut v);
    for m in &v {
        // Played without the legality test: positions with a side in check matter most.
        if g.play(m, g.pos.side()).is_ok() {
            for side in [Colour::White, Colour::Black] {
                let fast = g.in_check(side);
                let slow = g.in_check_reference(side);
                prop_assert_eq!(fast, slow, "{}: side {:?} after {:?} in {:?}", name, side, m, g.pos.board());
            }
            g.unmake();
        }
    }
    Ok(())
}

/// Random fairy positions: every walk, kings and royal units among them.
const MIX: Mix = Mix { min: 6, spread: 14, kinds: &[], extra_kings: true, royal_one_in: 8, either_side: true };

/// A random walk checking [`agree`] at every step.
fn walk_agree(g: &mut Game, name: &str, seed: u64, plies: usize) -> Result<(), TestCaseError> {
    random_walk(g, seed, plies, |g| agree(g, name)).map(|_| ())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    #[test]
    fn fast_check_agrees_on_random_walks(seed in any::<u64>()) {
        for (name, conds) in rule_sets() {
            let rules = RuleSet::build(conds, &[]).unwrap();
            for (fen, plies) in [
                ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 40),
                ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 20),
                ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 20),
            ] {
                let mut g = Game::new(rules.clone(), position_from_fen(fen).unwrap());
                walk_agree(&mut g, &name, seed, plies)?;
            }
        }
    }

    #[test]
    fn fast_check_agrees_on_random_fairy_positions(seed in any::<u64>()) {
        for (name, conds) in rule_sets() {
            let rules = RuleSet::build(conds, &[]).unwrap();
            for k in 0..8 {
                let mut g = Game::new(rules.clone(), random_position(seed.wrapping_add(k), &MIX));
                walk_agree(&mut g, &name, seed, 3)?;
            }
        }
    }
}
