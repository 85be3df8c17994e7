//! The check filter ([`Game::check_filter`]) never rules out a move that gives check, and
//! the captures-only generation ([`Game::pseudo_captures_from`]) gives the captures the
//! full generation gives: random walks from set positions and random fairy positions
//! (neutral and royal units, every walk), under plain rules and the conditions the filter
//! is built for or refused under.

mod common;

use chimere_core::Colour;
use chimere_fairy::{Condition, Game, Move, RuleSet, position_from_fen, walk};
use common::{Mix, named_rule_sets, random_position, random_walk};
use proptest::prelude::*;
use std::sync::Arc;

fn rule_sets() -> Vec<(String, Vec<Arc<dyn Condition>>)> {
    let names = [
        "circe",
        "circe rex inclusiv",
        "circe chameleon",
        "circe couscous",
        "circe equipollent",
        "circe parachute",
        "circe kamikaze",
        "anticirce",
        "anticirce cheylan",
        "anticirce equipollent",
        "anticirce malefique",
        "anticirce colonne",
        "circe equipollent rex inclusiv",
        "kamikaze rex inclusiv",
        "anti-super-circe",
        "all-in-chess",
        "cavalier majeur",
        "hole d4 e5 c3",
        "haan",
        "einstein",
        "rose",
        "locusauteur",
        "monochromatique",
        "reflective kings",
        "bicaptures",
        "glasgow",
        "sentinelles",
        "augsburg",
        "dynamo",
        "mars circe",
        "ultra-patrouille",
    ];
    named_rule_sets(&names)
}

/// Every pseudo-legal move of the side to move after which the opponent is in check
/// passes the filter (when there is one); the captures-only generation agrees with the
/// full one for both sides.
fn sound(g: &mut Game, name: &str) -> Result<u32, TestCaseError> {
    for side in [Colour::White, Colour::Black] {
        let targets = g.pos.board().colour(side.opponent()) | g.pos.board().colour(Colour::Shared);
        let mut all: Vec<Move> = Vec::new();
        g.pseudo_moves(side, &mut all);
        all.retain(|m| m.capture.is_some_and(|c| targets.has(c)));
        let mut caps: Vec<Move> = Vec::new();
        g.pseudo_captures_from(side, chimere_core::Bitboard::FULL, targets, &mut caps);
        prop_assert_eq!(&all, &caps, "{}: captures of {:?} in {:?}", name, side, g.pos.board());
    }
    let Some(f) = g.check_filter() else { return Ok(0) };
    let us = g.pos.side();
    let mut v: Vec<Move> = Vec::new();
    g.pseudo_moves(us, &mut v);
    let mut cut = 0;
    for m in &v {
        let maybe = f.may_check(&g.pos, m);
        if g.play(m, us).is_ok() {
            let check = g.in_check(us.opponent());
            g.unmake();
            prop_assert!(maybe || !check, "{}: {:?} gives check in {:?}", name, m, g.pos.board());
            cut += !maybe as u32;
        }
    }
    Ok(cut)
}

/// Random fairy positions: mostly the walks the filter follows, sometimes the others
/// (then there is no filter); some units royal.
const MIX: Mix = Mix {
    min: 6,
    spread: 14,
    kinds: &[walk::PAWN, walk::KNIGHT, walk::BISHOP, walk::ROOK, walk::QUEEN, walk::NIGHTRIDER, walk::GRASSHOPPER],
    extra_kings: true,
    royal_one_in: 8,
    either_side: true,
};

/// A random walk checking [`sound`] at every step; how many moves the filter ruled out.
fn walk_sound(g: &mut Game, name: &str, seed: u64, plies: usize) -> Result<u32, TestCaseError> {
    let mut cut = 0;
    random_walk(g, seed, plies, |g| {
        cut += sound(g, name)?;
        Ok(())
    })?;
    Ok(cut)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]
    #[test]
    fn filter_keeps_every_checking_move(seed in any::<u64>()) {
        let mut cut = 0;
        for (name, conds) in rule_sets() {
            let rules = RuleSet::build(conds, &[]).unwrap();
            for (fen, plies) in [
                ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 40),
                ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 20),
                ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 20),
                ("4k3/1P6/8/3pP3/8/8/6p1/R3K2R w KQ d6 0 1", 10),
            ] {
                let mut g = Game::new(rules.clone(), position_from_fen(fen).unwrap());
                cut += walk_sound(&mut g, &name, seed, plies)?;
            }
            for k in 0..8 {
                let mut g = Game::new(rules.clone(), random_position(seed.wrapping_add(k), &MIX));
                cut += walk_sound(&mut g, &name, seed, 4)?;
            }
        }
        // The filter does rule moves out (a filter passing everything would be useless).
        prop_assert!(cut > 0);
    }
}
