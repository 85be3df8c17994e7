//! Property tests: make/unmake identity, incremental hash, FEN round trips, parser safety.

use chimere_chess::Chess;
use chimere_core::Variant;
use chimere_testkit::random_walk;
use proptest::prelude::*;

const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_games_keep_invariants(seed in any::<u64>(), start in 0..STARTS.len()) {
        random_walk::<Chess>(STARTS[start], seed, 1, 60);
    }

    #[test]
    fn random_chess960_starts(seed in any::<u64>(), randomness in 0u8..3) {
        let opts = chimere_core::GameOptions { randomness, seed, params: vec![], ..Default::default() };
        let pos = Chess::new_game(&opts).unwrap();
        let again = Chess::new_game(&opts).unwrap();
        prop_assert_eq!(pos.fen(), again.fen());
        random_walk::<Chess>(&pos.fen(), seed, 1, 40);
    }

    #[test]
    fn parser_never_panics(s in "\\PC{0,80}") {
        let _ = Chess::from_fen(&s);
    }

    #[test]
    fn parser_never_panics_on_near_fens(
        board in "[pnbrqkPNBRQK1-9/]{0,70}",
        side in "[wbx]",
        rest in "[ -9a-iKQkqA-H]{0,20}",
    ) {
        let _ = Chess::from_fen(&format!("{board} {side} {rest}"));
    }

    #[test]
    fn standard_fen_round_trips(seed in any::<u64>()) {
        let mut pos = Chess::from_fen(STARTS[1]).unwrap();
        let mut rng = chimere_core::rng::SplitMix64::new(seed);
        let mut list = Vec::new();
        for _ in 0..20 {
            list.clear();
            pos.legal_turns(&mut list);
            if list.is_empty() { break; }
            let m = list[rng.below(list.len() as u64) as usize];
            pos.make(&m);
            let again = Chess::from_fen(&pos.standard_fen()).unwrap();
            prop_assert_eq!(again.standard_fen(), pos.standard_fen());
            prop_assert_eq!(again.hash(), pos.hash());
        }
    }
}
