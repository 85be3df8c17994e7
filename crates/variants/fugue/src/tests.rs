//! Hand-made positions for the tricky rules.

use super::*;
use std::collections::BTreeSet;

fn pos(fen: &str) -> Fugue {
    Fugue::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn all(fen: &str) -> BTreeSet<String> {
    let mut p = pos(fen);
    let mut list = Vec::new();
    p.legal_turns(&mut list);
    list.iter().map(|m| p.canonical(m)).collect()
}

/// The turns whose first removal token is the piece on `square` moving (or acting).
fn from(fen: &str, square: &str) -> BTreeSet<String> {
    let mut p = pos(fen);
    let mut list = Vec::new();
    p.legal_turns(&mut list);
    let s = chimere_core::Square::parse(square).unwrap().index() as u8;
    list.iter().filter(|m| m.from == s).map(|m| p.canonical(m)).collect()
}

fn set(v: &[&str]) -> BTreeSet<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn start_position() {
    let mut p = Fugue::new_game(&GameOptions::default()).unwrap();
    assert_eq!(p.fen(), START_FEN);
    assert_eq!(p.status(), Status::Ongoing);
    assert_eq!(all(START_FEN).len(), 22);
}

#[test]
fn immobilized_pieces_have_no_move_but_immobilizers_do() {
    // The white queen d3 and pawn e3 stand next to the black immobilizer d4; the white
    // immobilizer c4 does too, but is not frozen, and neither is the black one.
    let fen = "4k3/8/8/8/2Ii4/3QP3/8/4K3 w 0";
    assert!(from(fen, "d3").is_empty());
    assert!(from(fen, "e3").is_empty());
    assert!(!from(fen, "c4").is_empty());
    assert!(!from(fen, "e1").is_empty());
    let black = "4k3/8/8/8/2Ii4/3QP3/8/4K3 b 0";
    assert!(!from(black, "d4").is_empty());
}

#[test]
fn shield_protects_even_when_immobilized() {
    // The black pawn d2 is next to its shield d3, itself frozen by the white immobilizer
    // c4: the queen d1 cannot take d2, but still moves.
    let fen = "k7/8/8/8/2I5/3s4/3p4/3Q3K w 0";
    assert!(all(fen).iter().all(|t| !t.contains("-d2:bp")));
    assert!(!from(fen, "d1").is_empty());
    // Without the shield the queen takes.
    let open = "k7/8/8/8/2I5/8/3p4/3Q3K w 0";
    assert!(all(open).contains("-d1:wq -d2:bp +d2:wq"));
}

#[test]
fn swapper_swaps_protected_pieces_but_destroys_only_unprotected() {
    // Swapper d3; black pawn d4 protected by the shield c4; the shield is unprotected.
    let fen = "4k3/8/8/8/2sp4/3W4/8/4K3 w 0";
    let specials: BTreeSet<String> = from(fen, "d3").into_iter().filter(|t| t.contains(":b")).collect();
    assert_eq!(specials, set(&["-c4:bs -d3:ww", "-c4:bs -d3:ww +c4:ww +d3:bs", "-d3:ww -d4:bp +d3:bp +d4:ww",]));
}

#[test]
fn swapper_swaps_with_the_king_at_a_distance() {
    let fen = "4k3/8/8/8/8/8/8/K3W3 w 0";
    let specials: BTreeSet<String> = from(fen, "e1").into_iter().filter(|t| t.contains(":b")).collect();
    assert_eq!(specials, set(&["-e1:ww -e8:bk +e1:bk +e8:ww"]));
}

#[test]
fn pushme_pullyu_withdraws_or_approaches_but_not_both() {
    // U d4: black pawn c3 behind it (south-west), black pawn g7 ahead (north-east), black
    // pawn h4 to the east.
    let fen = "k7/6p1/8/8/3U3p/2p5/8/7K w 0";
    let turns = from(fen, "d4");
    // North-east: e5 withdraws from c3; f6 would also approach g7, so it is not allowed.
    assert!(turns.contains("-c3:bp -d4:wu +e5:wu"));
    assert!(turns.iter().all(|t| !t.contains("+f6:wu")));
    // East: g4 approaches h4, the other squares capture nothing.
    assert!(turns.contains("-d4:wu -h4:bp +g4:wu"));
    assert!(turns.contains("-d4:wu +e4:wu"));
    // South-west is blocked at once.
    assert!(turns.iter().all(|t| !t.contains("+c3:wu")));
    assert_eq!(turns.iter().filter(|t| t.contains(":bp")).count(), 2);
}

#[test]
fn archer_shoots_near_or_spotted_targets_only() {
    let shots = |fen: &str| -> BTreeSet<String> {
        from(fen, "a1").into_iter().filter(|t| !t.contains("+")).collect::<BTreeSet<_>>()
    };
    // e1 four squares away, nothing near it: no shot.
    assert!(shots("k7/8/8/8/8/8/8/A3p2K w 0").is_empty());
    // The king two squares beyond, an empty square between: spotted.
    assert_eq!(shots("k7/8/8/8/8/8/8/A3p1K1 w 0"), set(&["-e1:bp"]));
    // A white pawn right next to the target: spotted.
    assert_eq!(shots("k7/8/8/8/8/8/8/A3pP1K w 0"), set(&["-e1:bp"]));
    // The king two squares beyond, but a black piece between: not spotted.
    assert!(shots("k7/8/8/8/8/8/8/A3ppK1 w 0").is_empty());
    // Two squares from the archer: always.
    assert_eq!(shots("k7/8/8/8/8/8/8/A1p4K w 0"), set(&["-c1:bp"]));
    // ... unless protected by a shield.
    assert!(shots("k7/8/8/8/8/8/8/A1ps3K w 0").is_empty());
    // An own piece next to the target but frozen still spots it.
    assert_eq!(shots("k7/8/8/8/8/8/5i2/A3pP1K w 0"), set(&["-e1:bp"]));
}

#[test]
fn long_leaper_lands_on_the_empty_squares_after_its_victim() {
    let caps = |fen: &str| -> BTreeSet<String> {
        from(fen, "a1").into_iter().filter(|t| t.contains(":b")).collect::<BTreeSet<_>>()
    };
    assert_eq!(caps("k7/8/8/8/8/8/8/L2p1p1K w 0"), set(&["-a1:wl -d1:bp +e1:wl"]));
    assert_eq!(
        caps("k7/8/8/8/8/8/8/L2p3K w 0"),
        set(&["-a1:wl -d1:bp +e1:wl", "-a1:wl -d1:bp +f1:wl", "-a1:wl -d1:bp +g1:wl"])
    );
    // No empty square right after: no capture.
    assert!(caps("k7/8/8/8/8/8/8/L2pp2K w 0").is_empty());
    // A white piece first on the line: no capture beyond it.
    assert!(caps("k7/8/8/8/8/8/8/L1Pp3K w 0").is_empty());
}

#[test]
fn cannon_pawn_steps_and_leaps() {
    // Pawn c2; black pawns c3, d3; black pawn c4 protected by the shield d4; white queen
    // b2 with an unprotected black pawn a2 behind it.
    let fen = "4k3/8/8/8/2ps4/2pp4/pQP5/4K3 w 0";
    assert_eq!(
        from(fen, "c2"),
        set(&[
            "-a2:bp -c2:wp +a2:wp",
            "-c2:wp +b1:wp",
            "-c2:wp +b3:wp",
            "-c2:wp +c1:wp",
            "-c2:wp +d1:wp",
            "-c2:wp +d2:wp",
            "-c2:wp +e4:wp",
        ])
    );
}

#[test]
fn promotion_only_into_pieces_absent_from_the_board() {
    // White has a queen and a swapper: promotions into i, u, a, s, l, or staying a pawn.
    let fen = "4k3/1P6/8/8/8/8/8/Q3K2W w 0";
    let to_b8: BTreeSet<String> = from(fen, "b7").into_iter().filter(|t| t.contains("+b8")).collect();
    assert_eq!(
        to_b8,
        set(&["-b7:wp +b8:wa", "-b7:wp +b8:wi", "-b7:wp +b8:wl", "-b7:wp +b8:wp", "-b7:wp +b8:ws", "-b7:wp +b8:wu",])
    );
    assert_eq!(from(fen, "b7").len(), 3 * 6 + 5);
    // Black (king only) promotes on its last rank, the first, leaping over b1 along the
    // rank and capturing the queen c1: stays a pawn or takes any of the seven kinds.
    let fen = "4k3/8/8/8/8/8/8/pPQ1K3 b 0";
    let turns = from(fen, "a1");
    let leaps: BTreeSet<String> = turns.iter().filter(|t| t.contains("-c1:wq")).cloned().collect();
    let want: BTreeSet<String> = "pqiuaslw".chars().map(|k| format!("-a1:bp -c1:wq +c1:b{k}")).collect();
    assert_eq!(leaps, want);
    assert_eq!(turns.len(), 2 + 8);
}

#[test]
fn promotion_by_leap_along_the_last_rank() {
    // White pawn a8 leaps over b8 to c8 (its last rank): may promote.
    let fen = "Pq6/8/8/8/8/8/8/4K2k w 0";
    let turns = from(fen, "a8");
    assert!(turns.contains("-a8:wp +c8:wp"));
    assert!(turns.contains("-a8:wp +c8:wq"));
    assert!(turns.contains("-a8:wp +b7:wp"));
    assert!(turns.iter().all(|t| !t.contains("+b7:wq")));
}

#[test]
fn king_can_be_captured_and_the_game_ends() {
    // The queen takes the king: no check, no legality filter.
    let fen = "4k3/8/8/8/8/8/8/4Q2K w 0";
    assert!(all(fen).contains("-e1:wq -e8:bk +e8:wq"));
    let mut p = pos(fen);
    let mut list = Vec::new();
    p.legal_turns(&mut list);
    let m = list.iter().find(|m| p.canonical(m) == "-e1:wq -e8:bk +e8:wq").copied().unwrap();
    assert_eq!(p.notation(&m), "Qxe8");
    p.make(&m);
    assert_eq!(p.status(), Status::WhiteWins);
    // Side to move without a king, even with moves: loses.
    assert_eq!(pos("4k3/8/8/8/8/8/8/Q7 w 0").status(), Status::BlackWins);
    // Side to move whose only piece is frozen: no move, loses.
    assert_eq!(pos("7k/8/8/8/8/8/1i6/K7 w 0").status(), Status::BlackWins);
    assert_eq!(pos("7k/8/8/8/8/8/1i6/K7 b 0").status(), Status::Ongoing);
}

#[test]
fn notation_forms() {
    let name = |fen: &str, canonical: &str| -> String {
        let mut p = pos(fen);
        let mut list = Vec::new();
        p.legal_turns(&mut list);
        let m = list.iter().find(|m| p.canonical(m) == canonical).unwrap_or_else(|| panic!("{canonical}"));
        p.notation(m)
    };
    let fen = "4k3/8/8/8/2sp4/3W4/8/4K3 w 0";
    assert_eq!(name(fen, "-c4:bs -d3:ww"), "d3Dc4");
    assert_eq!(name("4k3/8/8/8/8/8/8/pPQ1K3 b 0", "-a1:bp -c1:wq +c1:bq"), "Qxc1");
    assert_eq!(name("4k3/8/8/8/8/8/8/pPQ1K3 b 0", "-a1:bp -c1:wq +c1:bl"), "Lc1X");
    assert_eq!(name("4k3/8/8/8/8/8/8/pPQ1K3 b 0", "-a1:bp -c1:wq +c1:bp"), "Pa1c1");
    assert_eq!(name(fen, "-c4:bs -d3:ww +c4:ww +d3:bs"), "Wc4X");
    assert_eq!(name(fen, "-d3:ww +d2:ww"), "Wd2");
    assert_eq!(name("k7/8/8/8/8/8/8/A1p4K w 0", "-c1:bp"), "a1Sc1");
    assert_eq!(name("4k3/1P6/8/8/8/8/8/Q3K2W w 0", "-b7:wp +b8:wi"), "Ib8");
    assert_eq!(name("4k3/1P6/8/8/8/8/8/Q3K2W w 0", "-b7:wp +b8:wp"), "Pb7b8");
    assert_eq!(name("k7/8/8/8/8/8/8/L2p3K w 0", "-a1:wl -d1:bp +f1:wl"), "Lf1X");
    assert_eq!(name("k7/8/8/8/8/8/8/L2p3K w 0", "-h1:wk +h2:wk"), "Kh2");
}

#[test]
fn fen_errors_name_the_field() {
    let err = |fen: &str| Fugue::from_fen(fen).unwrap_err().to_string();
    assert!(err("wlqksaui/pppppppp/8/8/8/8/PPPPPPPP/IUASKQLW w").contains("fields"));
    assert!(err("wlqksaui/pppppppp/8/8/8/8/PPPPPPPP/IUASKQLN w 0").contains("board"));
    assert!(err("wlqksaui/pppppppp/8/8/8/8/PPPPPPPP/IUASKQLW x 0").contains("side"));
    assert!(err("wlqksaui/pppppppp/8/8/8/8/PPPPPPPP/IUASKQLW w -1").contains("turns"));
    assert!(err("kk6/8/8/8/8/8/8/K7 w 0").contains("board"));
    // A position without kings is readable (the game is over).
    assert!(Fugue::from_fen("8/8/8/8/8/8/8/8 b 7").is_ok());
}

#[test]
fn random_arrays() {
    let game = |randomness, seed| {
        Fugue::new_game(&GameOptions { randomness, seed, params: Vec::new(), ..Default::default() }).unwrap().fen()
    };
    assert_eq!(game(0, 9), START_FEN);
    let mut differ = false;
    for seed in 0..40 {
        for level in [1, 2] {
            let fen = game(level, seed);
            assert_eq!(fen, game(level, seed), "same seed, same array");
            let ranks: Vec<&str> = fen.split(['/', ' ']).collect();
            let mut black: Vec<char> = ranks[0].chars().collect();
            let mut white: Vec<char> = ranks[7].chars().map(|c| c.to_ascii_lowercase()).collect();
            if level == 1 {
                assert_eq!(black, white, "{fen}");
            } else {
                differ |= black != white;
            }
            black.sort();
            white.sort();
            assert_eq!(black.iter().collect::<String>(), "aiklqsuw");
            assert_eq!(white.iter().collect::<String>(), "aiklqsuw");
            assert_eq!(&ranks[1..7], &["pppppppp", "8", "8", "8", "8", "PPPPPPPP"]);
        }
    }
    assert!(differ);
    assert!(
        Fugue::new_game(&GameOptions { randomness: 3, seed: 0, params: Vec::new(), ..Default::default() }).is_err()
    );
    let p = vec![("x".to_string(), "y".to_string())];
    assert!(Fugue::new_game(&GameOptions { randomness: 0, seed: 0, params: p, ..Default::default() }).is_err());
}

/// A slow, square-by-square reading of the rules, written independently of the bitboard
/// generator, to compare with it on many positions.
mod reference {
    use super::*;
    use chimere_core::{Square, canonical};

    const DIRS: [(i8, i8); 8] = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)];

    fn at(p: &Fugue, f: i8, r: i8) -> Option<Piece> {
        Square::checked(f, r).and_then(|s| p.board.get(s))
    }
    fn on(f: i8, r: i8) -> bool {
        Square::checked(f, r).is_some()
    }
    fn name(f: i8, r: i8) -> Square {
        Square::checked(f, r).unwrap()
    }
    fn protected(p: &Fugue, f: i8, r: i8) -> bool {
        let c = at(p, f, r).unwrap().colour;
        DIRS.iter().any(|&(df, dr)| at(p, f + df, r + dr) == Some(Piece::new(c, SHIELD)))
    }
    fn frozen(p: &Fugue, f: i8, r: i8) -> bool {
        let me = at(p, f, r).unwrap();
        me.kind != IMMOBILIZER
            && DIRS.iter().any(|&(df, dr)| at(p, f + df, r + dr) == Some(Piece::new(me.colour.opponent(), IMMOBILIZER)))
    }
    /// An enemy of the side to move that may be captured.
    fn victim(p: &Fugue, f: i8, r: i8) -> bool {
        at(p, f, r).is_some_and(|x| x.colour != p.side) && !protected(p, f, r)
    }
    fn empty(p: &Fugue, f: i8, r: i8) -> bool {
        on(f, r) && at(p, f, r).is_none()
    }

    pub fn turns(p: &Fugue) -> Vec<String> {
        let mut out = Vec::new();
        let us = p.side;
        let mut emit = |removed: Vec<(Square, Piece)>, added: Vec<(Square, Piece)>| {
            out.push(canonical::part(&removed, &added, &NOTATION, "PASS"));
        };
        let promos: Vec<Kind> = [QUEEN, IMMOBILIZER, PUSHME, ARCHER, SHIELD, LEAPER, SWAPPER]
            .into_iter()
            .filter(|&k| p.board.pieces(Piece::new(us, k)).is_empty())
            .collect();
        for s in Square::ALL {
            let Some(me) = p.board.get(s) else { continue };
            let (f, r) = (s.file() as i8, s.rank() as i8);
            if me.colour != us || frozen(p, f, r) {
                continue;
            }
            let last_rank = if us == Colour::White { 7 } else { 0 };
            for (df, dr) in DIRS {
                let go = |to: (i8, i8), cap: Option<(i8, i8)>, kind: Kind| {
                    let mut removed = vec![(s, me)];
                    if let Some((cf, cr)) = cap {
                        removed.push((name(cf, cr), at(p, cf, cr).unwrap()));
                    }
                    (removed, vec![(name(to.0, to.1), Piece::new(us, kind))])
                };
                match me.kind {
                    PAWN => {
                        let (nf, nr) = (f + df, r + dr);
                        if !on(nf, nr) {
                            continue;
                        }
                        let to = if at(p, nf, nr).is_none() {
                            Some((nf, nr))
                        } else {
                            let (jf, jr) = (nf + df, nr + dr);
                            (empty(p, jf, jr) || (on(jf, jr) && victim(p, jf, jr))).then_some((jf, jr))
                        };
                        if let Some(to) = to {
                            let cap = at(p, to.0, to.1).map(|_| to);
                            let (a, b) = go(to, cap, PAWN);
                            emit(a, b);
                            if to.1 == last_rank {
                                for &k in &promos {
                                    let (a, b) = go(to, cap, k);
                                    emit(a, b);
                                }
                            }
                        }
                    }
                    KING => {
                        let to = (f + df, r + dr);
                        if empty(p, to.0, to.1) || (on(to.0, to.1) && victim(p, to.0, to.1)) {
                            let cap = at(p, to.0, to.1).map(|_| to);
                            let (a, b) = go(to, cap, KING);
                            emit(a, b);
                        }
                    }
                    kind => {
                        // Walk the line.
                        let mut n = 1;
                        while empty(p, f + n * df, r + n * dr) {
                            let e = (f + n * df, r + n * dr);
                            if kind == PUSHME {
                                let back = (f - df, r - dr);
                                let front = (e.0 + df, e.1 + dr);
                                let w = on(back.0, back.1) && victim(p, back.0, back.1);
                                let a = on(front.0, front.1) && victim(p, front.0, front.1);
                                if !(w && a) {
                                    let cap = if w {
                                        Some(back)
                                    } else if a {
                                        Some(front)
                                    } else {
                                        None
                                    };
                                    let (x, y) = go(e, cap, kind);
                                    emit(x, y);
                                }
                            } else {
                                let (x, y) = go(e, None, kind);
                                emit(x, y);
                            }
                            n += 1;
                        }
                        let t = (f + n * df, r + n * dr);
                        if !on(t.0, t.1) {
                            continue;
                        }
                        let target = at(p, t.0, t.1).unwrap();
                        if target.colour == us {
                            continue;
                        }
                        let free = !protected(p, t.0, t.1);
                        match kind {
                            QUEEN if free => {
                                let (x, y) = go(t, Some(t), QUEEN);
                                emit(x, y);
                            }
                            SWAPPER => {
                                emit(vec![(s, me), (name(t.0, t.1), target)], vec![(s, target), (name(t.0, t.1), me)]);
                                if n == 1 && free {
                                    emit(vec![(s, me), (name(t.0, t.1), target)], vec![]);
                                }
                            }
                            LEAPER if free => {
                                let mut m = 1;
                                while empty(p, t.0 + m * df, t.1 + m * dr) {
                                    let (x, y) = go((t.0 + m * df, t.1 + m * dr), Some(t), LEAPER);
                                    emit(x, y);
                                    m += 1;
                                }
                            }
                            ARCHER if free => {
                                let spotted = DIRS.iter().any(|&(sf, sr)| {
                                    let n1 = (t.0 + sf, t.1 + sr);
                                    let n2 = (t.0 + 2 * sf, t.1 + 2 * sr);
                                    match at(p, n1.0, n1.1) {
                                        Some(x) => x.colour == us,
                                        None => on(n1.0, n1.1) && at(p, n2.0, n2.1).is_some_and(|x| x.colour == us),
                                    }
                                });
                                if n <= 2 || spotted {
                                    emit(vec![(name(t.0, t.1), target)], vec![]);
                                }
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
        out
    }
}

#[test]
fn bitboard_generator_matches_the_reference_reading() {
    let mut rng = chimere_core::rng::SplitMix64::new(0xF06E);
    let mut positions = 0;
    for game in 0..60u64 {
        let opts = GameOptions { randomness: (game % 3) as u8, seed: game, params: Vec::new(), ..Default::default() };
        let mut p = Fugue::new_game(&opts).unwrap();
        let mut list = Vec::new();
        for _ in 0..160 {
            list.clear();
            p.legal_turns(&mut list);
            let mut ours: Vec<String> = list.iter().map(|m| p.canonical(m)).collect();
            let mut theirs = reference::turns(&p);
            ours.sort();
            theirs.sort();
            assert_eq!(ours, theirs, "at {}", p.fen());
            positions += 1;
            if list.is_empty() {
                break;
            }
            let m = list[rng.below(list.len() as u64) as usize];
            p.make(&m);
        }
    }
    assert!(positions > 3000);
}
