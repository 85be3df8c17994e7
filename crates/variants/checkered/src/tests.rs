//! Hand-made positions for the tricky rules of the spec.

use super::*;
use std::collections::BTreeSet;

fn pos(fen: &str) -> Checkered {
    Checkered::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn turns(fen: &str) -> BTreeSet<String> {
    let mut p = pos(fen);
    let mut list = Vec::new();
    p.legal_turns(&mut list);
    let set: BTreeSet<String> = list.iter().map(|m| p.canonical(m)).collect();
    assert_eq!(set.len(), list.len(), "duplicate turns at {fen}");
    set
}

fn set(moves: &[&str]) -> BTreeSet<String> {
    moves.iter().map(|s| s.to_string()).collect()
}

fn from_square(all: &BTreeSet<String>, token: &str) -> BTreeSet<String> {
    all.iter().filter(|m| m.contains(token)).cloned().collect()
}

fn play(fen: &str, canonical: &str) -> String {
    let mut p = pos(fen);
    let mut list = Vec::new();
    p.legal_turns(&mut list);
    let m = *list.iter().find(|m| p.canonical(m) == canonical).unwrap_or_else(|| panic!("{canonical} not legal"));
    p.make(&m);
    p.fen()
}

#[test]
fn capture_turns_checkered_with_choice_of_kind() {
    let all = turns("4k3/8/8/3b4/8/4N3/8/4K3 w 0 iiii0000000000000000 - - 1-");
    assert_eq!(
        from_square(&all, "+d5:"),
        set(&["-d5:bb -e3:wn +d5:cb", "-d5:bb -e3:wn +d5:cn"]),
        "knight takes bishop: checkered knight or checkered bishop"
    );
    assert_eq!(all.len(), 8 + 1 + 5);
}

#[test]
fn pawn_capture_on_last_rank_gives_the_four_checkered_promotions() {
    let all = turns("r3k3/1P6/8/8/8/8/8/4K3 w 0 iiii0000000000000000 - - 1-");
    assert_eq!(
        from_square(&all, "-b7:wp"),
        set(&[
            "-a8:br -b7:wp +a8:cb",
            "-a8:br -b7:wp +a8:cn",
            "-a8:br -b7:wp +a8:cq",
            "-a8:br -b7:wp +a8:cr",
            "-b7:wp +b8:wb",
            "-b7:wp +b8:wn",
            "-b7:wp +b8:wq",
            "-b7:wp +b8:wr",
        ])
    );
}

#[test]
fn king_captures_stay_white() {
    let all = turns("4k3/8/8/8/8/8/3p4/4K3 w 0 iiii0000000000000000 - - 1-");
    assert!(all.contains("-d2:bp -e1:wk +d2:wk"));
    assert!(!all.iter().any(|m| m.contains(":ck")));
}

#[test]
fn a_checkered_move_may_not_be_undone_at_once() {
    // The checkered knight on f3 (just played g1-f3 by black) checks the white king
    // on behalf of black; it may go anywhere but back to g1.
    let fen = "4k3/8/8/8/8/5o2/8/4K3 w 7 iiii0000000000000000 - g1f3 1-";
    let expected = set(&[
        "-e1:wk +d1:wk",
        "-e1:wk +e2:wk",
        "-e1:wk +f1:wk",
        "-e1:wk +f2:wk",
        "-f3:cn +d2:cn",
        "-f3:cn +d4:cn",
        "-f3:cn +e5:cn",
        "-f3:cn +g5:cn",
        "-f3:cn +h2:cn",
        "-f3:cn +h4:cn",
    ]);
    assert_eq!(turns(fen), expected);
    let mut without = expected.clone();
    without.insert("-f3:cn +g1:cn".to_string());
    assert_eq!(turns(&fen.replace("g1f3", "-")), without);
    // The non-capturing checkered move is recorded; any other move clears the record.
    assert_eq!(play(fen, "-f3:cn +d4:cn"), "4k3/8/8/8/3o4/8/8/4K3 b 8 iiii0000000000000000 - f3d4 1-");
    assert_eq!(play(fen, "-e1:wk +d1:wk"), "4k3/8/8/8/8/5o2/8/3K4 b 8 iiii0000000000000000 - - 1-");
}

#[test]
fn checkered_pawns_use_the_per_file_flags_and_make_no_en_passant() {
    let fen = "4k3/8/8/8/8/8/4s3/K7 w 0 iiii0000100000000000 - - 1-";
    assert_eq!(from_square(&turns(fen), "-e2:cp"), set(&["-e2:cp +e3:cp", "-e2:cp +e4:cp"]));
    assert_eq!(play(fen, "-e2:cp +e4:cp"), "4k3/8/8/8/4s3/8/8/K7 b 1 iiii0000000000000000 - e2e4 1-");
    let no_flag = fen.replace("0000100000000000", "0000000000000000");
    assert_eq!(from_square(&turns(&no_flag), "-e2:cp"), set(&["-e2:cp +e3:cp"]));
    // Black uses its own flags, downward from the seventh rank.
    let black = "k7/4s3/8/8/8/8/8/K7 b 0 iiii0000000000001000 - - 1-";
    assert_eq!(from_square(&turns(black), "-e7:cp"), set(&["-e7:cp +e5:cp", "-e7:cp +e6:cp"]));
}

#[test]
fn castling_path_is_tested_against_checkered_attackers() {
    let castle = "-e1:wk -h1:wr +f1:wr +g1:wk";
    assert!(turns("4k3/8/8/8/8/8/8/4K2R w 0 ihii0000000000000000 - - 1-").contains(castle));
    // A checkered bishop on a6 attacks f1 on behalf of black.
    assert!(!turns("4k3/8/c7/8/8/8/8/4K2R w 0 ihii0000000000000000 - - 1-").contains(castle));
    assert!(!turns("4k3/8/b7/8/8/8/8/4K2R w 0 ihii0000000000000000 - - 1-").contains(castle));
}

#[test]
fn checkered_pawns_check_in_the_opponents_direction() {
    // d5 acts for black (downward) and attacks e4: white must answer the check.
    let all = turns("4k3/8/8/3s4/4K3/8/P7/8 w 0 iiii0000000000000000 - - 1-");
    assert!(!all.contains("-a2:wp +a3:wp"));
    assert!(all.contains("-d5:cp +d6:cp"), "white moves it upward");
    assert!(pos("4k3/8/8/3s4/4K3/8/P7/8 w 0 iiii0000000000000000 - - 1-").stage1_in_check(Colour::White));
    // On d3 it attacks c2 and e2 for black: no check.
    assert!(turns("4k3/8/8/8/4K3/3s4/P7/8 w 0 iiii0000000000000000 - - 1-").contains("-a2:wp +a3:wp"));
}

#[test]
fn seed_diagram_is_mate_because_g2_g3_would_undo() {
    let fen = "7k/b5pp/8/8/8/8/6ss/7K w 10 iiii0000000000000000 - g3g2 1";
    assert!(turns(fen).is_empty());
    assert_eq!(pos(fen).status(), Status::BlackWins);
    let free = fen.replace("g3g2", "-");
    assert_eq!(turns(&free), set(&["-g2:cp +g3:cp"]));
    assert_eq!(pos(&free).status(), Status::Ongoing);
}

#[test]
fn stalemate_is_a_draw() {
    assert_eq!(pos("k7/8/1Q6/8/8/8/8/7K b 0 iiii0000000000000000 - - 1").status(), Status::Draw);
}

#[test]
fn switch_is_allowed_in_check_and_counts_for_the_status() {
    // White is mated by the rooks, but may switch and play the checkered knight.
    let fen = "rr5k/8/8/7o/8/8/8/K7 w 0 iiii0000000000000000 - - 1";
    assert_eq!(
        turns(fen),
        set(&["SWITCH ; -h5:cn +f4:cn", "SWITCH ; -h5:cn +f6:cn", "SWITCH ; -h5:cn +g3:cn", "SWITCH ; -h5:cn +g7:cn",])
    );
    assert_eq!(pos(fen).status(), Status::Ongoing);
    assert_eq!(play(fen, "SWITCH ; -h5:cn +g3:cn"), "rr5k/8/8/8/8/6o1/8/K7 b 1 iiii0000000000000000 - - 2w");
    let mut p = pos(fen);
    let mut list = Vec::new();
    p.legal_turns(&mut list);
    assert_eq!(p.notation(&list[0]).split(',').next(), Some("S"));
    // Without the switch option it is mate.
    let off = fen.replace(" 1", " 1-");
    assert!(turns(&off).is_empty());
    assert_eq!(pos(&off).status(), Status::BlackWins);
}

#[test]
fn switch_needs_no_king_attacked_by_checkered_pieces_either_way() {
    // d3 attacks e4 upward (stage-2 rules), though it does not check white in stage 1.
    assert!(!turns("4k3/8/8/8/4K3/3s4/8/8 w 0 iiii0000000000000000 - - 1").iter().any(|m| m.starts_with("SWITCH")));
    // From d2 it attacks neither king: switch, then the pawn moves up or down (promoting).
    let sw: BTreeSet<String> = turns("4k3/8/8/8/4K3/8/3s4/8 w 0 iiii0000000000000000 - - 1")
        .into_iter()
        .filter(|m| m.starts_with("SWITCH"))
        .collect();
    assert_eq!(
        sw,
        set(&[
            "SWITCH ; -d2:cp +d1:cb",
            "SWITCH ; -d2:cp +d1:cn",
            "SWITCH ; -d2:cp +d1:cq",
            "SWITCH ; -d2:cp +d1:cr",
            "SWITCH ; -d2:cp +d3:cp",
        ])
    );
}

#[test]
fn stage_two_checkered_pawns_go_both_ways_with_the_flag_of_their_direction() {
    let fen = "4k3/2s5/8/8/8/8/2s5/4K3 b 20 iiii0010000000100000 - - 2b";
    assert_eq!(
        turns(fen),
        set(&[
            "-c2:cp +c1:cb",
            "-c2:cp +c1:cn",
            "-c2:cp +c1:cq",
            "-c2:cp +c1:cr",
            "-c2:cp +c3:cp",
            "-c2:cp +c4:cp",
            "-c7:cp +c5:cp",
            "-c7:cp +c6:cp",
            "-c7:cp +c8:cb",
            "-c7:cp +c8:cn",
            "-c7:cp +c8:cq",
            "-c7:cp +c8:cr",
        ])
    );
    // Every two-square step makes an en-passant square in stage 2.
    assert_eq!(play(fen, "-c7:cp +c5:cp"), "4k3/8/8/2s5/8/8/2s5/4K3 w 21 iiii0010000000000000 c6 - 2b");
}

#[test]
fn stage_two_white_black_side_castles_with_either_colour() {
    let all = turns("r3k3/8/8/8/8/8/8/4K2R w 30 ihai0000000000000000 - - 2b");
    assert!(all.contains("-e1:wk -h1:wr +f1:wr +g1:wk"));
    assert!(all.contains("-a8:br -e8:bk +c8:bk +d8:br"));
    // ... and moves both colours, captures only checkered pieces.
    assert!(all.contains("-a8:br +a1:br"));
    assert!(!all.iter().any(|m| m.contains("-h1:wr -h8")));
}

#[test]
fn stage_two_end_of_game() {
    // The checkered side has no piece left: it loses.
    assert_eq!(pos("4k3/8/8/8/8/8/8/4K3 b 30 iiii0000000000000000 - - 2b").status(), Status::WhiteWins);
    // White/black mated by a checkered queen (defended by a checkered knight): loses,
    // though the black king could move (no move of his answers the check). With the
    // knight on f3, g2 is not defended: Kxg2.
    assert_eq!(pos("4k3/8/8/8/8/4o3/6t1/7K w 30 iiii0000000000000000 - - 2b").status(), Status::BlackWins);
    assert_eq!(pos("4k3/8/8/8/8/5o2/6t1/7K w 30 iiii0000000000000000 - - 2b").status(), Status::Ongoing);
    // The checkered side with pieces but no move: draw.
    assert_eq!(pos("4k3/8/8/8/8/5P2/5s2/5K2 b 30 iiii0000000000000000 - - 2b").status(), Status::Draw);
}

#[test]
fn fen_errors_name_the_field() {
    let bad = [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah1111111111111111 - -", "fields"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w 0 ahah1111111111111111 - - 1", "board"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x 0 ahah1111111111111111 - - 1", "side"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah111111111111111 - - 1", "flags"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah1111111111111112 - - 1", "flags"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah1111111111111111 e4 - 1", "en passant"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah1111111111111111 - e2 1", "cmove"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah1111111111111111 - - 3", "stage"),
    ];
    for (fen, field) in bad {
        match Checkered::from_fen(fen) {
            Err(RulesError::Fen { field: f, .. }) => assert!(f.contains(field), "{fen}: field {f}, want {field}"),
            other => panic!("{fen}: {other:?}"),
        }
    }
    // Upper-case checkered letters are accepted and written lower case.
    assert_eq!(
        pos("4k3/8/8/8/8/8/3S4/4K3 w 0 iiii0000000000000000 - - 1").fen(),
        "4k3/8/8/8/8/8/3s4/4K3 w 0 iiii0000000000000000 - - 1"
    );
}

#[test]
fn new_game_options() {
    let start = Checkered::new_game(&GameOptions::default()).unwrap();
    assert_eq!(start.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah1111111111111111 - - 1");
    let off = GameOptions { params: vec![("switch".into(), "off".into())], ..Default::default() };
    assert!(Checkered::new_game(&off).unwrap().fen().ends_with(" - - 1-"));
    let on = GameOptions { params: vec![("switch".into(), "on".into())], ..Default::default() };
    assert!(Checkered::new_game(&on).unwrap().fen().ends_with(" - - 1"));
    let bad = GameOptions { params: vec![("switch".into(), "maybe".into())], ..Default::default() };
    assert!(Checkered::new_game(&bad).is_err());
    let unknown = GameOptions { params: vec![("speed".into(), "1".into())], ..Default::default() };
    assert!(Checkered::new_game(&unknown).is_err());
    for randomness in [1, 2] {
        for seed in 0..20 {
            let opts = GameOptions { randomness, seed, params: vec![], ..Default::default() };
            let a = Checkered::new_game(&opts).unwrap();
            assert_eq!(a.fen(), Checkered::new_game(&opts).unwrap().fen(), "same seed, same position");
            let text = a.fen();
            let f: Vec<&str> = text.split(' ').collect();
            let ranks: Vec<&str> = f[0].split('/').collect();
            if randomness == 1 {
                assert_eq!(ranks[0], ranks[7].to_ascii_lowercase());
            }
            // The castling letters name the rooks.
            let flags = f[3].as_bytes();
            for (i, rank) in [(0, ranks[7]), (2, ranks[0])] {
                for j in 0..2 {
                    let file = (flags[i + j] - b'a') as usize;
                    assert_eq!(rank.as_bytes()[file].to_ascii_lowercase(), b'r', "{}", a.fen());
                }
            }
            let mut p = a.clone();
            let mut list = Vec::new();
            p.legal_turns(&mut list);
            assert!(!list.is_empty());
        }
    }
}

#[test]
fn fast_legality_agrees_with_the_full_test_on_random_games() {
    use chimere_core::rng::SplitMix64;
    let mut rng = SplitMix64::new(2024);
    let starts = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah1111111111111111 - - 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah1111111111111111 - - 1-",
    ];
    let mut positions = 0;
    let mut stage_two = 0;
    for game in 0..300 {
        let mut p = pos(starts[game % 2]);
        for _ in 0..200 {
            let mut fast = Vec::new();
            let mut slow = Vec::new();
            p.generate_with(&mut fast, false);
            p.generate_with(&mut slow, true);
            assert_eq!(fast, slow, "at {}", p.fen());
            positions += 1;
            if !p.stage.is_one() {
                stage_two += 1;
            }
            if fast.is_empty() {
                break;
            }
            let m = fast[rng.below(fast.len() as u64) as usize];
            p.make(&m);
        }
    }
    assert!(positions > 10_000);
    assert!(stage_two > 1_000, "{stage_two} stage-2 positions");
}

#[test]
fn checkered_pawns_guard_the_castling_path_in_the_opponents_direction() {
    // g2 acts for black (downward) and attacks f1, which the king crosses.
    let all = turns("4k3/8/8/8/8/8/6s1/4K2R w 0 ihii0000000000000000 - - 1-");
    assert!(!all.contains("-e1:wk -h1:wr +f1:wr +g1:wk"));
    // On g3 it attacks f2 and h2 for black: castling is fine.
    assert!(turns("4k3/8/8/8/8/6s1/8/4K2R w 0 ihii0000000000000000 - - 1-").contains("-e1:wk -h1:wr +f1:wr +g1:wk"));
}

#[test]
fn stage_two_en_passant_both_ways() {
    // White/black steps d2-d4; the checkered pawn on c4 takes it downward en passant.
    let fen = "4k3/8/8/8/2s5/8/3P4/4K3 w 10 iiii0001000000000000 - - 2b";
    let after = play(fen, "-d2:wp +d4:wp");
    assert_eq!(after, "4k3/8/8/8/2sP4/8/8/4K3 b 11 iiii0000000000000000 d3 - 2b");
    assert!(turns(&after).contains("-c4:cp -d4:wp +d3:cp"));
    // The checkered pawn steps d7-d5 with black's flag; white's e5 pawn takes it.
    let fen = "4k3/3s4/8/4P3/8/8/8/4K3 b 10 iiii0000000000010000 - - 2b";
    let after = play(fen, "-d7:cp +d5:cp");
    assert_eq!(after, "4k3/8/8/3sP3/8/8/8/4K3 w 11 iiii0000000000000000 d6 - 2b");
    assert!(turns(&after).contains("-d5:cp -e5:wp +d6:wp"));
}
