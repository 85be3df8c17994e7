//! Random positions and random walks shared by the fairy engine's property tests.
//!
//! Each test file includes this module (`mod common;`) and uses what it needs.
#![allow(dead_code)]

use chimere_core::rng::SplitMix64;
use chimere_core::{Colour, Kind, Square};
use chimere_fairy::conditions::by_name;
use chimere_fairy::position::ROYAL;
use chimere_fairy::{Condition, Game, Move, Position, Unit, walk};
use proptest::prelude::TestCaseError;
use std::sync::Arc;

/// What a random position holds besides the two kings.
pub struct Mix {
    /// How many further units: `min + below(spread)`.
    pub min: u64,
    pub spread: u64,
    /// The kinds drawn: every kind of the engine when empty, otherwise these mostly (and
    /// one time in six any kind, so that walks outside the list still turn up).
    pub kinds: &'static [Kind],
    /// Kings among the further units are allowed.
    pub extra_kings: bool,
    /// One unit in `royal_one_in` is made royal (0: none).
    pub royal_one_in: u64,
    /// Black to move half of the time.
    pub either_side: bool,
}

/// A random position: the two kings, then the further units of `mix` (every colour,
/// neutral included) on random empty squares.
pub fn random_position(seed: u64, mix: &Mix) -> Position {
    let mut rng = SplitMix64::new(seed);
    let mut pos = Position::empty();
    let mut used = 0u64;
    let mut place = |pos: &mut Position, u: Unit, rng: &mut SplitMix64| loop {
        let s = rng.below(64) as u8;
        if used >> s & 1 == 0 {
            used |= 1 << s;
            pos.setup_put(Square::new(s), u);
            break;
        }
    };
    place(&mut pos, Unit::new(Colour::White, walk::KING), &mut rng);
    place(&mut pos, Unit::new(Colour::Black, walk::KING), &mut rng);
    let n = mix.min + rng.below(mix.spread);
    for _ in 0..n {
        let kind = if mix.kinds.is_empty() || rng.below(6) == 0 {
            Kind(rng.below(walk::KINDS as u64) as u8)
        } else {
            mix.kinds[rng.below(mix.kinds.len() as u64) as usize]
        };
        if kind == walk::KING && !mix.extra_kings {
            continue;
        }
        let colour = [Colour::White, Colour::Black, Colour::Shared][rng.below(3) as usize];
        let mut u = Unit::new(colour, kind);
        if mix.royal_one_in > 0 && rng.below(mix.royal_one_in) == 0 {
            u.attrs |= ROYAL;
        }
        place(&mut pos, u, &mut rng);
    }
    if mix.either_side && rng.below(2) == 1 {
        pos.setup_side(Colour::Black);
    }
    pos
}

/// Plays up to `plies` random legal moves, calling `visit` on the position before each
/// move; stops early where no move is left. Returns how many moves were made (they stay
/// made).
pub fn random_walk(
    g: &mut Game,
    seed: u64,
    plies: usize,
    mut visit: impl FnMut(&mut Game) -> Result<(), TestCaseError>,
) -> Result<usize, TestCaseError> {
    let mut rng = SplitMix64::new(seed);
    let mut v: Vec<Move> = Vec::new();
    for made in 0..plies {
        visit(g)?;
        v.clear();
        g.legal_moves(&mut v);
        if v.is_empty() {
            return Ok(made);
        }
        g.make(&v[rng.below(v.len() as u64) as usize]).expect("legal");
    }
    Ok(plies)
}

/// Orthodox rules, then each named rule set of the registry (an unknown name fails the
/// test: a misspelt name would otherwise test nothing).
pub fn named_rule_sets(names: &[&str]) -> Vec<(String, Vec<Arc<dyn Condition>>)> {
    let mut out: Vec<(String, Vec<Arc<dyn Condition>>)> = vec![("orthodox".into(), vec![])];
    for &n in names {
        out.push((n.into(), by_name(n).unwrap_or_else(|e| panic!("{n}: {e}"))));
    }
    out
}
