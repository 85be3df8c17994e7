//! Property tests: random walks (make/unmake identity, incremental hash, FEN round trip,
//! bulk count) and FEN reading that never panics.

use chimere_checkered::Checkered;
use chimere_core::{GameOptions, Variant};
use chimere_testkit::random_walk;
use proptest::prelude::*;

const STARTS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah1111111111111111 - - 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah1111111111111111 - - 1-",
    "r1bqkbnr/pppppp1p/2n5/6o1/8/2P5/PP1PPPPP/RNBQKB1R b 5 ahah1111111111111101 - - 1",
    "rnbqkbnr/ppppppp1/8/8/4P3/8/PPPP1PP1/RNB1KBtR b 5 ahah1111011111111110 - - 2w",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_walks_keep_invariants(seed in any::<u64>(), start in 0usize..4) {
        let played = random_walk::<Checkered>(STARTS[start], seed, 2, 120);
        prop_assert!(played > 0);
    }

    #[test]
    fn random_starting_arrays_walk(seed in any::<u64>(), randomness in 0u8..3) {
        let fen = Checkered::new_game(&GameOptions { randomness, seed, params: vec![], ..Default::default() }).unwrap().fen();
        random_walk::<Checkered>(&fen, seed ^ 0x55, 1, 80);
    }

    #[test]
    fn random_strings_never_panic(s in "\\PC{0,90}") {
        let _ = Checkered::from_fen(&s);
    }

    #[test]
    fn fen_like_strings_never_panic(s in "[1-9pnbrqkPNBRQKsoucStOUCT/]{0,70} [wbx-]{1,2} [0-9]{1,3} [a-i01]{0,22} [a-h1-8-]{1,3} [a-h1-8-]{1,5} [12wb-]{1,3}") {
        if let Ok(mut p) = Checkered::from_fen(&s) {
            // Whatever it accepted must be usable: generation, status, FEN round trip.
            let mut list = Vec::new();
            p.legal_turns(&mut list);
            for m in &list {
                let _ = p.canonical(m);
                let _ = p.notation(m);
            }
            let _ = p.status();
            let fen = p.fen();
            prop_assert_eq!(Checkered::from_fen(&fen).unwrap().fen(), fen);
        }
    }

    #[test]
    fn mutated_fens_never_panic(start in 0usize..4, edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..4)) {
        let alphabet = b"12345678pnbrqkPNBRQKsoucSOUCTt/ wb-0123456789abcdefghi";
        let mut bytes = STARTS[start].as_bytes().to_vec();
        for (at, c) in edits {
            let i = at % bytes.len();
            bytes[i] = alphabet[c as usize % alphabet.len()];
        }
        let text = String::from_utf8(bytes).unwrap();
        if let Ok(mut p) = Checkered::from_fen(&text) {
            let mut list = Vec::new();
            p.legal_turns(&mut list);
            for m in &list {
                let _ = p.canonical(m);
                let _ = p.notation(m);
                let h = p.hash();
                let u = p.make(m);
                prop_assert_eq!(p.hash(), p.recomputed_hash());
                p.unmake(m, u);
                prop_assert_eq!(p.hash(), h);
            }
            let _ = p.status();
            let fen = p.fen();
            prop_assert_eq!(Checkered::from_fen(&fen).unwrap().fen(), fen);
        }
    }
}
