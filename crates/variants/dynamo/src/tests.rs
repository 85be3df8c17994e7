//! Hand-made positions for the tricky rules of the spec.

use super::*;

fn pos(fen: &str) -> Dynamo {
    Dynamo::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn turns(p: &mut Dynamo) -> Vec<String> {
    let mut list = Vec::new();
    p.legal_turns(&mut list);
    let mut v: Vec<String> = list.iter().map(|m| p.canonical(m)).collect();
    v.sort();
    v
}

fn play(p: &mut Dynamo, canonical: &str) {
    let mut list = Vec::new();
    p.legal_turns(&mut list);
    let m = list.iter().find(|m| p.canonical(m) == canonical).unwrap_or_else(|| panic!("no turn {canonical}"));
    p.make(m);
}

#[test]
fn start_position_parts() {
    let mut p = Dynamo::new_game(&GameOptions::default()).unwrap();
    assert_eq!(p.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah -");
    let t = turns(&mut p);
    assert_eq!(t.len(), 174);
    // A pawn step with nothing able to follow ends the turn after part 1.
    assert!(t.contains(&"-b2:wp +b3:wp".to_string()));
    assert!(!t.iter().any(|s| s.starts_with("-b2:wp +b3:wp ;")));
    // The rook exits from a1 and pulls the a2 pawn behind it, to a1 or off the board.
    for s in ["-a1:wr ; -a2:wp", "-a1:wr ; -a2:wp +a1:wp", "-a1:wr ; PASS"] {
        assert!(t.contains(&s.to_string()), "{s}");
    }
    // The knight pushes d2 one knight step further and may follow; a knight pulls one step.
    for s in ["-d2:wp +f3:wp ; -b1:wn +d2:wn", "-d2:wp +f3:wp ; PASS", "-b1:wn ; -d2:wp +b1:wp"] {
        assert!(t.contains(&s.to_string()), "{s}");
    }
    assert!(!t.contains(&"-b1:wn ; -d2:wp".to_string()));
    // The bishop pushes b2 through a3 off the board, then follows anywhere, off the board too.
    let b2: Vec<&String> = t.iter().filter(|s| s.starts_with("-b2:wp ;")).collect();
    assert_eq!(b2, ["-b2:wp ; -c1:wb", "-b2:wp ; -c1:wb +a3:wb", "-b2:wp ; -c1:wb +b2:wb", "-b2:wp ; PASS"]);
}

#[test]
fn notation_and_fen_after() {
    let mut p = Dynamo::new_game(&GameOptions::default()).unwrap();
    let mut list = Vec::new();
    p.legal_turns(&mut list);
    let m = *list.iter().find(|m| p.canonical(m) == "-e2:wp +c3:wp ; -g1:wn +e2:wn").unwrap();
    assert_eq!(p.notation(&m), "Pe2c3,Ng1e2");
    p.make(&m);
    assert_eq!(p.fen(), "rnbqkbnr/pppppppp/8/8/8/2P5/PPPPNPPP/RNBQKB1R b 1 ahah wpc3.wne2/wpe2.wng1");
    let mut p = Dynamo::new_game(&GameOptions::default()).unwrap();
    p.legal_turns(&mut list);
    let m = *list.iter().find(|m| p.canonical(m) == "-c1:wb ; PASS").unwrap();
    assert_eq!(p.notation(&m), "c1R,-");
    p.make(&m);
    assert_eq!(p.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RN1QKBNR b 1 ahah -/wbc1");
}

#[test]
fn dynamo_check_by_a_queen_pull() {
    // Seed diagram: the queen on a4 threatens to pull the king off along a4-e8.
    let p = pos("rnb1qbnr/pppkpppp/3p4/8/Q1P5/5NP1/PP1PPP1P/RNB1KB1R b 5 iiii -");
    assert!(p.in_check(Colour::Black));
    assert!(!p.in_check(Colour::White));
}

#[test]
fn dynamat() {
    // Seed diagram: Dynamo checkmate; pushing the queen from g4 to f4 does not help.
    let mut p = pos("8/4B3/8/8/6Qk/8/4N3/K7 b 30 iiii -");
    assert!(p.in_check(Colour::Black));
    assert!(turns(&mut p).is_empty());
    assert_eq!(p.status(), Status::WhiteWins);
}

#[test]
fn king_check_needs_an_edge_king_and_an_inner_attacker() {
    // Kings on e6 and d7: no edge king, no check.
    assert!(!pos("8/3k4/4K3/8/8/8/8/8 w 1 iiii -").in_check(Colour::White));
    // King on h1, enemy king on g2 (not an edge square): check.
    assert!(pos("8/8/8/8/8/8/6K1/7k b 1 iiii -").in_check(Colour::Black));
    // King on a1, enemy king on b1 (an edge square): no check.
    assert!(!pos("8/8/8/8/8/8/8/kK6 b 1 iiii -").in_check(Colour::Black));
}

#[test]
fn pawn_and_knight_checks() {
    // A white pawn on b7 could push the king on a8 off diagonally; on b6 it could not.
    assert!(pos("k7/1P6/8/8/8/8/8/7K b 1 iiii -").in_check(Colour::Black));
    assert!(!pos("k7/8/1P6/8/8/8/8/7K b 1 iiii -").in_check(Colour::Black));
    // On the side file too: a white pawn on b4 pushes a king on a5 off.
    assert!(pos("8/8/8/k7/1P6/8/8/7K b 1 iiii -").in_check(Colour::Black));
    // A knight pushes an edge king off (c2 -> a1 -> off), not a central one.
    assert!(pos("8/8/8/8/8/8/2n5/K6k w 1 iiii -").in_check(Colour::White));
    assert!(!pos("8/8/2n5/8/3K4/8/8/7k w 1 iiii -").in_check(Colour::White));
    // ...but a king on the second rank is pushed off downwards (d2 -> e0).
    assert!(pos("8/8/8/8/2n5/8/3K4/7k w 1 iiii -").in_check(Colour::White));
}

#[test]
fn pushing_the_enemy_king_counts_for_the_game_end() {
    // Every move of the black king stays in check; pushing the white king saves black.
    let mut p = pos("8/8/8/8/8/8/6K1/7k b 85 iiii wkg2/wkf2");
    let t = turns(&mut p);
    assert!(!t.is_empty());
    assert!(t.iter().all(|s| s.starts_with("-g2:wk ")), "{t:?}");
    assert_eq!(p.status(), Status::Ongoing);
}

#[test]
fn no_undo_of_the_opponents_last_turn() {
    // Seed diagram: black pushed the bishop from d4 to b2 and followed to d4. White may push
    // the black bishop back to g7, but not follow back to d4.
    let mut p = pos("rnbqk1nr/pppppp1p/6p1/8/3b4/1P6/PBPPPPPP/RN1QKBNR w 2 ahah wbb2.bbd4/wbd4.bbg7");
    let t = turns(&mut p);
    assert!(t.contains(&"-d4:bb +g7:bb ; -b2:wb +c3:wb".to_string()));
    assert!(t.contains(&"-d4:bb +g7:bb ; PASS".to_string()));
    assert!(!t.contains(&"-d4:bb +g7:bb ; -b2:wb +d4:wb".to_string()));
    // Without that last turn, the same turn is legal.
    let mut q = pos("rnbqk1nr/pppppp1p/6p1/8/3b4/1P6/PBPPPPPP/RN1QKBNR w 2 ahah -");
    assert!(turns(&mut q).contains(&"-d4:bb +g7:bb ; -b2:wb +d4:wb".to_string()));
}

#[test]
fn castling_rights_lost_when_pushed() {
    // The black rook on g1 pushes the white king along the first rank: both rights go.
    let mut p = pos("4k3/8/8/8/8/8/8/R3K1rR b 3 ahii -");
    play(&mut p, "-e1:wk +c1:wk ; PASS");
    assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/R1K3rR w 4 iiii wkc1/wke1");
    // A rook pushed off its square loses its own right only.
    let mut p = pos("4k2q/8/8/8/8/8/8/R3K2R b 3 ahii -");
    play(&mut p, "-h1:wr ; PASS");
    assert_eq!(p.fen(), "4k2q/8/8/8/8/8/8/R3K3 w 4 aiii -/wrh1");
}

#[test]
fn castling_moves() {
    let mut p = pos("4k3/8/8/8/8/8/8/R3K2R w 3 ahii -");
    let t = turns(&mut p);
    assert!(t.contains(&"-e1:wk -h1:wr +f1:wr +g1:wk".to_string()));
    assert!(t.contains(&"-a1:wr -e1:wk +c1:wk +d1:wr".to_string()));
    let mut list = Vec::new();
    p.legal_turns(&mut list);
    let m = *list.iter().find(|m| m.kind == CASTLE && m.to1 == 7).unwrap();
    assert_eq!(p.notation(&m), "Ke1g1");
    p.make(&m);
    assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/R4RK1 b 4 iiii wkg1.wrf1/wke1.wrh1");
    // A black queen on f8 threatens to push a king on f1 off: no king-side castling.
    let mut p = pos("4kq2/8/8/8/8/8/8/R3K2R w 3 ahii -");
    let t = turns(&mut p);
    assert!(!t.contains(&"-e1:wk -h1:wr +f1:wr +g1:wk".to_string()));
    assert!(t.contains(&"-a1:wr -e1:wk +c1:wk +d1:wr".to_string()));
}

#[test]
fn promotion_by_push() {
    // The rook pushes its own pawn from a6 to a7 or a8 (promoting) or off the board.
    let mut p = pos("4k3/8/P7/8/8/8/8/R3K3 w 3 iiii -");
    let t = turns(&mut p);
    for s in
        ["-a6:wp +a8:wq ; PASS", "-a6:wp +a8:wn ; -a1:wr +a7:wr", "-a6:wp ; -a1:wr", "-a6:wp +a7:wp ; -a1:wr +a6:wr"]
    {
        assert!(t.contains(&s.to_string()), "{s}");
    }
    // The white rook pushes a black pawn onto black's last rank: it promotes (mover's
    // choice, black piece), or off the board.
    let mut p = pos("4k3/1R6/8/8/8/1p2K3/8/8 w 3 iiii -");
    let t = turns(&mut p);
    for s in [
        "-b3:bp +b1:bq ; PASS",
        "-b3:bp +b1:bn ; -b7:wr +b2:wr",
        "-b3:bp +b2:bp ; -b7:wr +b3:wr",
        "-b3:bp ; -b7:wr +b1:wr",
    ] {
        assert!(t.contains(&s.to_string()), "{s}");
    }
    assert_eq!(t.iter().filter(|s| s.starts_with("-b3:bp +b1:")).count(), 4 * 6);
}

#[test]
fn bad_fens_are_refused() {
    for fen in [
        "",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x 0 ahah -",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w -1 ahah -",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahaz -",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 bhah -",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 haah -",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w 0 iiah -",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah wpe4",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah xpe4/-",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah wpe9/-",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah -/-",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah wpa1.wpa2.wpa3.wpa4.wpa5/-",
    ] {
        assert!(Dynamo::from_fen(fen).is_err(), "{fen}");
    }
}

#[test]
fn random_starts() {
    for r in 0..3u8 {
        for seed in 0..20 {
            let opts = GameOptions { randomness: r, seed, params: vec![], ..Default::default() };
            let p = Dynamo::new_game(&opts).unwrap();
            assert_eq!(Dynamo::from_fen(&p.fen()).unwrap().fen(), p.fen());
            assert_eq!(p.fen(), Dynamo::new_game(&opts).unwrap().fen());
            let mut q = p.clone();
            assert!(!turns(&mut q).is_empty());
        }
    }
    let sym =
        Dynamo::new_game(&GameOptions { randomness: 1, seed: 3, params: vec![], ..Default::default() }).unwrap().fen();
    let ranks: Vec<&str> = sym.split(' ').next().unwrap().split('/').collect();
    assert_eq!(ranks[0].to_ascii_uppercase(), ranks[7]);
    assert!(Dynamo::new_game(&GameOptions { randomness: 3, seed: 0, params: vec![], ..Default::default() }).is_err());
}
