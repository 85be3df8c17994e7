//! Orthodox chess with no condition must give the known perft numbers.

use chimere_fairy::{Game, RuleSet, position_from_fen};

fn perft(fen: &str, depth: u32) -> u64 {
    let pos = position_from_fen(fen).expect("FEN");
    let mut g = Game::new(RuleSet::orthodox(), pos);
    let before = g.pos.clone();
    let n = g.perft(depth);
    assert_eq!(g.pos, before, "perft left the position changed");
    n
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn start_position_depth_4() {
    assert_eq!(perft(START, 1), 20);
    assert_eq!(perft(START, 2), 400);
    assert_eq!(perft(START, 3), 8902);
    assert_eq!(perft(START, 4), 197281);
}

#[test]
fn kiwipete_depth_3() {
    assert_eq!(perft(KIWIPETE, 1), 48);
    assert_eq!(perft(KIWIPETE, 2), 2039);
    assert_eq!(perft(KIWIPETE, 3), 97862);
}

#[test]
fn position_3_and_5() {
    assert_eq!(perft("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4), 43238);
    assert_eq!(perft("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3), 62379);
}

#[test]
#[ignore]
fn start_position_depth_5() {
    assert_eq!(perft(START, 5), 4865609);
}
