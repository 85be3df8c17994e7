//! Property tests: random games keep make/unmake, hashes and FEN consistent; `from_fen`
//! never panics; perft agrees with bulk counting.

use chimere_core::{GameOptions, Perft, Variant};
use chimere_fugue::{Fugue, START_FEN};
use chimere_testkit::random_walk;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Random games from the standard and from random arrays: make/unmake identity,
    /// incremental hash == recomputed, FEN round trip, bulk count == generated list.
    #[test]
    fn random_walks(seed in any::<u64>(), randomness in 0u8..3) {
        let start = Fugue::new_game(&GameOptions { randomness, seed, params: Vec::new(), ..Default::default() }).unwrap().fen();
        let played = random_walk::<Fugue>(&start, seed, 2, 120);
        prop_assert!(played > 0);
    }

    /// Any string: an error or a position, never a panic; a position read writes back
    /// a FEN that reads to the same position.
    #[test]
    fn random_strings_never_panic(s in "\\PC{0,80}") {
        if let Ok(p) = Fugue::from_fen(&s) {
            let again = Fugue::from_fen(&p.fen()).unwrap();
            prop_assert_eq!(again.fen(), p.fen());
        }
    }

    /// Strings made of FEN-like characters, which reach deeper into the parser.
    #[test]
    fn fen_like_strings_never_panic(s in "[pqkiuaslwPQKIUASLWxX0-9/ wb-]{0,90}") {
        if let Ok(p) = Fugue::from_fen(&s) {
            prop_assert_eq!(Fugue::from_fen(&p.fen()).unwrap().fen(), p.fen());
        }
    }

    /// One character of the start FEN replaced: never a panic.
    #[test]
    fn mutated_start_never_panics(i in 0usize..47, c in any::<char>()) {
        let mut chars: Vec<char> = START_FEN.chars().collect();
        chars[i] = c;
        let s: String = chars.into_iter().collect();
        let _ = Fugue::from_fen(&s);
    }
}

#[test]
fn bulk_perft_equals_full_leaf_perft() {
    let mut pos = Fugue::from_fen(START_FEN).unwrap();
    let full = Perft::<Fugue>::default().count(&mut pos, 3, false);
    let bulk = Perft::<Fugue>::default().count(&mut pos, 3, true);
    assert_eq!(full, bulk);
    assert_eq!(pos.fen(), START_FEN);
}
