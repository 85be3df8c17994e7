//! Property tests on orthodox positions and under conditions built directly: every legal
//! move makes and unmakes exactly (hash included).

use chimere_core::rng::SplitMix64;
use chimere_fairy::conditions::{Circe, Ghost, Occupied, RebirthSquare};
use chimere_fairy::{Condition, Game, Move, RuleSet, position_from_fen};
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

fn walk(fen: &str, conds: Vec<Arc<dyn Condition>>, seed: u64, plies: usize) -> Result<(), TestCaseError> {
    let mut g = Game::new(RuleSet::build(conds, &[]).unwrap(), position_from_fen(fen).unwrap());
    let start = g.pos.clone();
    let mut rng = SplitMix64::new(seed);
    let mut made = 0;
    for _ in 0..plies {
        let mut v: Vec<Move> = Vec::new();
        g.legal_moves(&mut v);
        if v.is_empty() {
            break;
        }
        for m in &v {
            let before = g.pos.clone();
            g.make(m).expect("legal");
            prop_assert_eq!(g.pos.hash(), g.pos.recomputed_hash());
            g.unmake();
            prop_assert!(g.pos == before);
        }
        let (r, n) = rng.step();
        rng = n;
        g.make(&v[(r % v.len() as u64) as usize]).expect("legal");
        made += 1;
    }
    for _ in 0..made {
        g.unmake();
    }
    prop_assert!(g.pos == start);
    Ok(())
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

    #[test]
    fn fen_reader_never_panics(s in "\\PC{0,80}") {
        let _ = position_from_fen(&s);
    }
}

#[test]
fn fen_reader_rejects_long_ranks() {
    assert!(position_from_fen("99999999999999999999999999999999/8/8/8/8/8/8/8 w - - 0 1").is_err());
}
