//! Property tests: random games keep make/unmake, the hash and the FEN consistent, and
//! no string makes the FEN reader panic.

use chimere_core::{GameOptions, Variant};
use chimere_interweave::Interweave;
use chimere_testkit::random_walk;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_walks_from_the_start(seed in any::<u64>()) {
        let fen = "rbnkknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNKKNBR w 0 - 000000";
        random_walk::<Interweave>(fen, seed, 1, 120);
    }

    #[test]
    fn random_walks_from_random_arrays(seed in any::<u64>(), randomness in 1u8..=2) {
        let pos = Interweave::new_game(&GameOptions { randomness, seed, params: vec![], ..Default::default() }).unwrap();
        random_walk::<Interweave>(&pos.fen(), seed ^ 0x55, 1, 120);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn any_string_never_panics(s in any::<String>()) {
        let _ = Interweave::from_fen(&s);
    }

    #[test]
    fn fen_like_strings_never_panic_and_round_trip(
        s in "[rnbkpRNBKP1-9/]{0,72} [wbx] [0-9]{1,3} (-|[a-i][0-9],[a-i]|[a-h][1-8]) [0-9]{5,7}"
    ) {
        if let Ok(pos) = Interweave::from_fen(&s) {
            let again = Interweave::from_fen(&pos.fen()).unwrap();
            prop_assert_eq!(again.fen(), pos.fen());
            prop_assert_eq!(again.hash(), pos.hash());
        }
    }
}

#[test]
fn random_walks_from_oracle_positions() {
    // Middle-game positions with captures, chains and promotions pending.
    for (i, fen) in [
        "rb1kk1br/p1p1p2p/2p1n2p/1p3N2/P1P1p2P/P3P2P/P4B1P/RBNKK2R b 15 - 000010",
        "nrbk2k1/p1R3pp/2pp4/6pp/8/2P3P1/PP4PP/KNNB2BK b 13 - 100101",
        "k6k/8/1P4P1/8/8/8/8/K6K w 0 - 100000",
    ]
    .iter()
    .enumerate()
    {
        random_walk::<Interweave>(fen, 1000 + i as u64, 8, 80);
    }
}
