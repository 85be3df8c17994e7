//! Hand-made positions for the rules of the spec, each with its exact set of turns.

use chimere_core::{Status, Variant};
use chimere_interweave::Interweave;
use std::collections::BTreeSet;

fn turns(fen: &str) -> BTreeSet<String> {
    let mut pos = Interweave::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut list = Vec::new();
    pos.legal_turns(&mut list);
    let set: BTreeSet<String> = list.iter().map(|m| pos.canonical(m)).collect();
    assert_eq!(set.len(), list.len(), "duplicate turns in {fen}");
    set
}

fn set(v: &[&str]) -> BTreeSet<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// Plays the turn written `canonical` and returns the FEN after it, and its notation.
fn play(fen: &str, canonical: &str) -> (String, String) {
    let mut pos = Interweave::from_fen(fen).unwrap();
    let mut list = Vec::new();
    pos.legal_turns(&mut list);
    let m = *list.iter().find(|m| pos.canonical(m) == canonical).unwrap_or_else(|| panic!("no {canonical}"));
    let notation = pos.notation(&m);
    let undo = pos.make(&m);
    let after = pos.fen();
    assert_eq!(pos.hash(), pos.recomputed_hash());
    pos.unmake(&m, undo);
    assert_eq!(pos.fen(), fen);
    (after, notation)
}

#[test]
fn remover_takes_every_adjacent_enemy_at_once() {
    let fen = "8/8/8/4p3/4Bp2/8/8/8 w 0 - 000000";
    assert_eq!(turns(fen), set(&["-e5:bp -f4:bp"]));
    let (after, notation) = play(fen, "-e5:bp -f4:bp");
    assert_eq!(notation, "e4R");
    assert_eq!(after, "8/8/8/8/4B3/8/8/8 b 1 - 000000");
}

#[test]
fn smasher_captures_by_approach_and_captures_are_compulsory() {
    // The white king on h8 has quiet moves, but a capture exists.
    let fen = "7K/1p6/8/8/8/8/1R4p1/8 w 0 - 000000";
    assert_eq!(turns(fen), set(&["-b2:wr -b7:bp +b6:wr", "-b2:wr -g2:bp +f2:wr"]));
    // Without captures: diagonal slides, orthogonal slides of even length only.
    let quiet = turns("8/8/8/8/8/8/8/R7 w 0 - 000000");
    assert_eq!(
        quiet,
        set(&[
            "-a1:wr +a3:wr",
            "-a1:wr +a5:wr",
            "-a1:wr +a7:wr",
            "-a1:wr +c1:wr",
            "-a1:wr +e1:wr",
            "-a1:wr +g1:wr",
            "-a1:wr +b2:wr",
            "-a1:wr +c3:wr",
            "-a1:wr +d4:wr",
            "-a1:wr +e5:wr",
            "-a1:wr +f6:wr",
            "-a1:wr +g7:wr",
            "-a1:wr +h8:wr",
        ])
    );
    // An enemy right beside the Smasher (distance 1) cannot be captured.
    assert!(!turns("8/8/8/8/8/8/8/Rn6 w 0 - 000000").iter().any(|t| t.contains("-b1:bn")));
}

#[test]
fn leaper_jumps_over_an_enemy() {
    let fen = "8/8/8/8/p7/8/2p5/N6b w 0 - 000000";
    assert_eq!(turns(fen), set(&["-a1:wn -a4:bp +a5:wn", "-a1:wn -a4:bp +a7:wn", "-a1:wn -c2:bp +e3:wn"]));
    let (after, notation) = play(fen, "-a1:wn -c2:bp +e3:wn");
    assert_eq!(notation, "Ne3X");
    assert_eq!(after, "8/8/8/8/p7/4N3/8/7b b 1 - 000000");
    // A friendly midpoint blocks the double knight jump; an empty one does not.
    let quiet = turns("8/8/8/8/8/8/2P5/N7 w 0 - 000000");
    assert!(!quiet.contains("-a1:wn +e3:wn"));
    assert!(quiet.contains("-a1:wn +c5:wn"));
}

#[test]
fn king_steps_diagonally_and_captures_by_short_leap() {
    assert_eq!(
        turns("8/8/8/4K3/8/8/8/8 w 0 - 000000"),
        set(&["-e5:wk +d4:wk", "-e5:wk +d6:wk", "-e5:wk +f4:wk", "-e5:wk +f6:wk"])
    );
    assert_eq!(turns("8/8/4b3/3nK3/8/8/8/8 w 0 - 000000"), set(&["-d5:bn -e5:wk +c5:wk", "-e5:wk -e6:bb +e7:wk"]));
}

#[test]
fn two_chains_to_the_same_position_are_two_turns() {
    let fen = "8/8/8/3p4/2p1p3/2Kp4/8/8 w 0 - 000000";
    let a = "-c3:wk -c4:bp +c5:wk ; -c5:wk -d5:bp +e5:wk ; -e4:bp -e5:wk +e3:wk ; -d3:bp -e3:wk +c3:wk";
    let b = "-c3:wk -d3:bp +e3:wk ; -e3:wk -e4:bp +e5:wk ; -d5:bp -e5:wk +c5:wk ; -c4:bp -c5:wk +c3:wk";
    assert_eq!(turns(fen), set(&[a, b]));
    let (fa, na) = play(fen, a);
    let (fb, nb) = play(fen, b);
    assert_eq!(fa, fb);
    assert_eq!(fa, "8/8/8/8/8/2K5/8/8 b 1 - 000000");
    assert_eq!(na, "Kc5X,Ke5X,Ke3X,Kc3X");
    assert_eq!(nb, "Ke3X,Ke5X,Kc5X,Kc3X");
}

#[test]
fn promotion_only_into_captured_pieces_and_it_uses_one_up() {
    // One white Leaper captured: the g7 pawn must promote into it.
    let fen = "k7/6P1/8/8/8/8/8/K7 w 0 - 010000";
    assert_eq!(turns(fen), set(&["-a1:wk +b2:wk", "-g7:wp +f8:wn", "-g7:wp +h8:wn"]));
    let (after, notation) = play(fen, "-g7:wp +h8:wn");
    assert_eq!(notation, "Nh8");
    assert_eq!(after, "k6N/8/8/8/8/8/8/K7 b 1 - 000000");
    // Nothing to promote into: the pawn on its seventh rank cannot move.
    assert_eq!(turns("k7/6P1/8/8/8/8/8/K7 w 0 - 000000"), set(&["-a1:wk +b2:wk"]));
    // On the seventh rank promotion is optional.
    assert_eq!(
        turns("k7/8/6P1/8/8/8/8/K7 w 0 - 100000"),
        set(&["-a1:wk +b2:wk", "-g6:wp +f7:wp", "-g6:wp +f7:wr", "-g6:wp +h7:wp", "-g6:wp +h7:wr"])
    );
}

#[test]
fn captured_counters_count_every_captured_piece() {
    // The Remover removes two knights at once: both count.
    let fen = "8/8/8/4n3/4Bn2/8/8/8 w 0 - 000000";
    let (after, _) = play(fen, "-e5:bn -f4:bn");
    assert_eq!(after, "8/8/8/8/4B3/8/8/8 b 1 - 000020");
}

#[test]
fn two_square_step_and_en_passant_by_leap() {
    let fen = "8/8/8/8/6p1/8/7P/8 w 0 - 000000";
    assert_eq!(turns(fen), set(&["-h2:wp +f4:wp", "-h2:wp +g3:wp"]));
    let (after, notation) = play(fen, "-h2:wp +f4:wp");
    assert_eq!(notation, "Pf4");
    assert_eq!(after, "8/8/8/8/5Pp1/8/8/8 b 1 g3,f 000000");
    // En passant is compulsory like every capture.
    assert_eq!(turns(&after), set(&["-f4:wp -g4:bp +g2:bp"]));
    let (after2, notation) = play(&after, "-f4:wp -g4:bp +g2:bp");
    assert_eq!(notation, "Pg2X");
    assert_eq!(after2, "8/8/8/8/8/8/6p1/8 w 2 - 000000");
}

#[test]
fn custodian_capture_after_a_pawn_step() {
    // d4-e5 puts the black Leaper on f5 between the pawn and the white Smasher on g5.
    let fen = "8/8/8/5nR1/3P4/8/8/8 w 0 - 000000";
    let t = turns(fen);
    assert!(t.contains("-d4:wp -f5:bn +e5:wp"), "{t:?}");
    // That is the only capture: the Smasher stands right next to the Leaper (distance 1).
    assert_eq!(t.len(), 1);
}

#[test]
fn status_kings_and_no_move() {
    // White is left with one king: black has won.
    let mut pos = Interweave::from_fen("k6k/8/8/8/8/8/8/K7 w 0 - 000000").unwrap();
    assert_eq!(pos.status(), Status::BlackWins);
    let mut pos = Interweave::from_fen("k7/8/8/8/8/8/8/K6K b 0 - 000000").unwrap();
    assert_eq!(pos.status(), Status::WhiteWins);
    // White cannot move at all (kings hemmed in by pawns that cannot promote): white loses.
    let fen = "K1K5/1P1P4/8/8/8/7k/8/7k w 0 - 000000";
    assert!(turns(fen).is_empty());
    assert_eq!(Interweave::from_fen(fen).unwrap().status(), Status::BlackWins);
    let mut start = Interweave::from_fen("rbnkknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNKKNBR w 0 - 000000").unwrap();
    assert_eq!(start.status(), Status::Ongoing);
}

#[test]
fn fen_errors_name_their_field() {
    let bad = [
        ("rbnkknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNKKNBR w 0 -", "fields"),
        ("rbnkknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNKKNBQ w 0 - 000000", "board"),
        ("rbnkknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNKKNBR x 0 - 000000", "side"),
        ("rbnkknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNKKNBR w -1 - 000000", "turns"),
        ("rbnkknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNKKNBR w 0 e3 000000", "en passant"),
        ("rbnkknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNKKNBR w 0 - 00000", "captured"),
        ("rbnkknbr/pppppppp/8/8/8/8/PPPPPPPP/RBKKKNBR w 0 - 000000", "board"),
        ("P7/8/8/8/8/8/8/8 w 0 - 000000", "board"),
    ];
    for (fen, field) in bad {
        let e = Interweave::from_fen(fen).expect_err(fen).to_string();
        assert!(e.contains(field), "{fen}: {e}");
    }
}
