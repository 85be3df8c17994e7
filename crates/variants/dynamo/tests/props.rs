//! Property tests: random games keep make/unmake, hashes and FENs consistent; no input
//! string makes the FEN reader panic.

use chimere_core::{GameOptions, Variant};
use chimere_dynamo::Dynamo;
use chimere_testkit::random_walk;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_walks_from_random_starts(seed in any::<u64>(), randomness in 0u8..3) {
        let opts = GameOptions { randomness, seed, params: vec![], ..Default::default() };
        let fen = Dynamo::new_game(&opts).unwrap().fen();
        let played = random_walk::<Dynamo>(&fen, seed, 2, 80);
        prop_assert!(played > 0);
    }

    #[test]
    fn random_strings_never_panic(s in ".{0,120}") {
        let _ = Dynamo::from_fen(&s);
    }

    #[test]
    fn fen_like_strings_never_panic(
        board in "[pnbrqkPNBRQK1-9/]{0,80}",
        side in "[wbx-]{0,2}",
        count in "[0-9-]{0,4}",
        castle in "[a-ix]{0,5}",
        last in "[wbpnbrqk1-9a-i./-]{0,24}",
    ) {
        let fen = format!("{board} {side} {count} {castle} {last}");
        if let Ok(p) = Dynamo::from_fen(&fen) {
            // Whatever is accepted is written back and read again identically.
            let again = Dynamo::from_fen(&p.fen()).unwrap();
            prop_assert_eq!(again.fen(), p.fen());
            let mut q = p.clone();
            let mut list = Vec::new();
            q.legal_turns(&mut list);
        }
    }

    #[test]
    fn mutated_start_fens_never_panic(pos in 0usize..60, c in any::<char>()) {
        let mut fen: Vec<char> = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah wpe4.wnf3/wpe2.wng1".chars().collect();
        let i = pos % fen.len();
        fen[i] = c;
        let s: String = fen.into_iter().collect();
        let _ = Dynamo::from_fen(&s);
    }
}

#[test]
fn random_walks_from_oracle_positions() {
    let text = chimere_testkit::oracle_text("vchess/dynamo.jsonl");
    for (i, line) in text.lines().enumerate().step_by(15) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        random_walk::<Dynamo>(v["fen"].as_str().unwrap(), i as u64, 2, 40);
    }
}

/// A longer soak of random games (run with `--ignored`).
#[test]
#[ignore]
fn long_random_walks() {
    for seed in 0..200u64 {
        let opts = GameOptions { randomness: (seed % 3) as u8, seed, params: vec![], ..Default::default() };
        let fen = Dynamo::new_game(&opts).unwrap().fen();
        random_walk::<Dynamo>(&fen, seed, 3, 300);
    }
}
