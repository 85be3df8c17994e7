//! Augsburg against the rules (spec: `### Augsburg` in conditions.md; decisions: the
//! module doc of `conditions/augsburg.rs`), written as an adversarial review, with an
//! independent model of the rule. Every expected move list below is worked out by
//! hand from the rules; stacks are reached by playing join moves.

use chimere_core::{Bitboard, Colour, Square};
use chimere_fairy::position::{EnPassant, rights_of_square};
use chimere_fairy::walk::{self, NIGHTRIDER};
use chimere_fairy::{Game, Move, Position, Unit, game_from_fen, notation};
use std::collections::{BTreeMap, BTreeSet};

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn game(fen: &str) -> Game {
    game_from_fen(fen, &["augsburg"]).unwrap()
}

fn legal(g: &mut Game) -> Vec<(Move, String)> {
    notation::legal_with_texts(g)
}

fn texts(g: &mut Game) -> Vec<String> {
    legal(g).into_iter().map(|(_, t)| t).collect()
}

/// Texts without check marks.
fn plain(g: &mut Game) -> Vec<String> {
    texts(g).into_iter().map(|t| t.trim_end_matches(" +").to_string()).collect()
}

/// Plays the legal move written `text` (check mark ignored).
fn play(g: &mut Game, text: &str) {
    let m = notation::find_legal(g, text).unwrap_or_else(|| panic!("{text}: {:?}", texts(g)));
    assert!(g.make(&m).is_some());
}

fn name(u: Unit) -> String {
    let c = if u.colour() == Colour::White { 'w' } else { 'b' };
    format!("{c}{}", walk::letters(u.kind()))
}

/// The units on `s`, board unit first, then the hidden ones.
fn on(g: &Game, s: &str) -> Vec<String> {
    let s = sq(s);
    g.pos.unit(s).into_iter().chain(g.pos.under(s).map(|(_, u)| u)).map(name).collect()
}

/// The units on `s` as a sorted multiset (stack order ignored).
fn set_on(g: &Game, s: Square) -> Vec<String> {
    let mut v: Vec<String> = g.pos.unit(s).into_iter().chain(g.pos.under(s).map(|(_, u)| u)).map(name).collect();
    v.sort();
    v
}

/// An order-free signature of the position: the multiset of units of every square, the
/// castling rights, the en passant state and the side to move. Two different moves
/// must never lead to the same signature (the same effect is one move).
fn signature(g: &Game) -> String {
    let mut s = String::new();
    for q in Square::ALL {
        let v = set_on(g, q);
        if !v.is_empty() {
            s.push_str(&format!("{q}:{};", v.join(",")));
        }
    }
    s.push_str(&format!("r{} ep{:?} {:?}", g.pos.rights(), g.pos.ep(), g.pos.side()));
    s
}

/// Asserts that no two legal moves have the same effect.
fn no_duplicates(g: &mut Game) {
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    let mut seen: BTreeMap<String, Move> = BTreeMap::new();
    for m in &v {
        assert!(g.make(m).is_some());
        let s = signature(g);
        g.unmake();
        if let Some(o) = seen.insert(s, *m) {
            let a = notation::move_with_check(g, &o);
            let b = notation::move_with_check(g, m);
            panic!("two moves with one effect: {a:?} and {b:?}");
        }
    }
}

fn count_white_black(g: &Game) -> (usize, usize) {
    let mut w = 0;
    let mut b = 0;
    for q in Square::ALL {
        for u in g.pos.unit(q).into_iter().chain(g.pos.under(q).map(|(_, u)| u)) {
            if u.colour() == Colour::White { w += 1 } else { b += 1 }
        }
    }
    (w, b)
}

// ----- 1. Black to move -----

#[test]
fn black_join_and_pawn_following_to_rank_1_promotes() {
    // White Ka8, black Kh1, Rd3, Pd2; Black to move. Rd3-d2 joins the pawn (the stack d2
    // = pawn on the board, rook under it). After Ka8-a7, the moves of the stack to d1
    // (empty): the pawn alone promoting (Q, R, B, S: 4), the pawn carrying the rook (4,
    // the rook cannot make the pawn's promotion choice, one move per kind), the rook alone
    // (1). "The rook carrying the pawn" has the same effect as the pawn carrying the rook
    // (same units from d2 to d1, the pawn promoting by its side's choice), so it must not
    // be a further move. Total 9. None checks the king a7.
    let mut g = game("K7/8/8/8/8/3r4/3p4/7k b - - 0 1");
    play(&mut g, "Rd3-d2");
    assert_eq!(on(&g, "d2"), ["bP", "bR"]);
    play(&mut g, "Ka8-a7");
    let m = texts(&mut g);
    let d1: Vec<&String> = m.iter().filter(|t| t.contains("d2-d1")).collect();
    let mut want = vec![
        "Rd2-d1".to_string(),
        "d2-d1=B".into(),
        "d2-d1=B[bRd2->d1]".into(),
        "d2-d1=Q".into(),
        "d2-d1=Q[bRd2->d1]".into(),
        "d2-d1=R".into(),
        "d2-d1=R[bRd2->d1]".into(),
        "d2-d1=S".into(),
        "d2-d1=S[bRd2->d1]".into(),
    ];
    want.sort();
    assert_eq!(d1, want.iter().collect::<Vec<_>>(), "{m:?}");
    no_duplicates(&mut g);
}

#[test]
fn black_pawn_carried_to_rank_8_is_immobile() {
    // Same start; the rook carries the pawn up the d-file to d8, the black pawn's first
    // rank, where it is immobile: afterwards nothing starts with "d8-" for the pawn and
    // the rook moves alone (the pawn may not go along: an immobile pawn stays).
    let mut g = game("K7/8/8/8/8/3r4/3p4/7k b - - 0 1");
    play(&mut g, "Rd3-d2");
    play(&mut g, "Ka8-a7");
    play(&mut g, "Rd2-d8[bPd2->d8]");
    assert_eq!(on(&g, "d8"), ["bR", "bP"]);
    play(&mut g, "Ka7-a6");
    let m = plain(&mut g);
    assert!(m.contains(&"Rd8-d5".to_string()), "{m:?}");
    assert!(!m.iter().any(|t| t.starts_with("d8") || t.contains("[bPd8")), "{m:?}");
    // Nor does the immobile pawn join: put a black unit on d7 (the rook goes there,
    // leaving the pawn alone on d8): the pawn d8 may not step onto d7.
    play(&mut g, "Rd8-d7");
    play(&mut g, "Ka6-a5");
    let m = plain(&mut g);
    assert!(!m.iter().any(|t| t.starts_with("d8")), "{m:?}");
}

#[test]
fn black_pawn_joins_onto_its_promotion_rank() {
    // Black Pd2, Sd1; the pawn's step onto its own knight d1 is a join onto the
    // promotion rank: it promotes (4 kinds) and is hidden under the knight.
    let mut g = game("K7/8/8/8/8/8/3p4/3n3k b - - 0 1");
    let m = plain(&mut g);
    for k in ["Q", "R", "B", "S"] {
        assert!(m.contains(&format!("d2-d1={k}")), "{k} {m:?}");
    }
    play(&mut g, "d2-d1=Q");
    assert_eq!(on(&g, "d1"), ["bS", "bQ"]);
    assert!(g.pos.is_consistent());
}

// ----- 2. Stacks of 3+ units, promotions together -----

/// Plays 1. d6-d7 (join) Kh6-h5 2. Rd1-d7 (join) Kh5-h6: d7 = P, P, R (white).
fn three_stack() -> Game {
    let mut g = game("8/3P4/3P3k/8/8/8/8/K2R4 w - - 0 1");
    play(&mut g, "d6-d7");
    play(&mut g, "Kh6-h5");
    play(&mut g, "Rd1-d7");
    play(&mut g, "Kh5-h6");
    assert_eq!(set_on(&g, sq("d7")), ["wP", "wP", "wR"]);
    g
}

#[test]
fn three_units_to_the_promotion_square() {
    // The stack d7 = {P, P, R}. Moves to d8 (empty), by the set of units going there
    // (identical pawns interchangeable, promotions into Q/R/B/S chosen by White; two
    // identical pawns promoting to {x, y} is one move whatever pawn takes which):
    //   {P}: 4 · {P,P}: multisets of 2 of 4 kinds = 10 · {R}: 1 · {P,R}: 4 · {P,P,R}: 10
    // = 29 moves, each with a different result on d8/d7.
    let mut g = three_stack();
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    let kinds = ["wQ", "wR", "wB", "wS"];
    let mut want: BTreeSet<(Vec<String>, Vec<String>)> = BTreeSet::new();
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    for a in 0..4 {
        // {P}
        want.insert((sorted(vec!["wP".into(), "wR".into()]), vec![kinds[a].into()]));
        // {P,R}
        want.insert((vec!["wP".into()], sorted(vec![kinds[a].into(), "wR".into()])));
        for b in a..4 {
            want.insert((vec!["wR".into()], sorted(vec![kinds[a].into(), kinds[b].into()])));
            want.insert((vec![], sorted(vec![kinds[a].into(), kinds[b].into(), "wR".into()])));
        }
    }
    want.insert((vec!["wP".into(), "wP".into()], vec!["wR".into()]));
    assert_eq!(want.len(), 29);
    let mut got = Vec::new();
    for m in v.iter().filter(|m| m.from == sq("d7") && m.to == sq("d8")) {
        assert!(g.make(m).is_some());
        got.push((set_on(&g, sq("d7")), set_on(&g, sq("d8"))));
        g.unmake();
    }
    let got_set: BTreeSet<_> = got.iter().cloned().collect();
    assert_eq!(got.len(), got_set.len(), "duplicates: {got:?}");
    assert_eq!(got_set, want);
    no_duplicates(&mut g);
}

#[test]
fn three_stack_moves_elsewhere() {
    // From d7 = {P, P, R}, the rook's other moves: down the d-file d6..d1 (6; d1 is
    // empty since the rook came from there), along rank 7 a7 b7 c7 e7 f7 g7 h7 (7; the
    // king h6 does not matter to White's legality). Each with the pawns going along or
    // not: none, one, both (identical pawns): 3 ways. Pawns carried to d1 (their first
    // rank) are allowed. 13 x 3 = 39 moves from d7 other than to d8.
    let mut g = three_stack();
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    let n = v.iter().filter(|m| m.from == sq("d7") && m.to != sq("d8")).count();
    assert_eq!(n, 39, "{:?}", plain(&mut g));
}

// ----- 3. Duplicates -----

#[test]
fn queen_and_rook_along_a_file_once() {
    // White Ka1, Qd4, Rd1; black Kh8. Rd1-d4 hides the rook under the queen. Then to d5:
    // Q alone, R alone, Q and R together (once). To d2, d3: same, 3 each. Along rank 4
    // the queen and rook both reach a4..c4, e4..h4: 3 each. On diagonals only the queen
    // (alone or carrying the rook): 2 each.
    let mut g = game("7k/8/8/8/3Q4/8/8/K2R4 w - - 0 1");
    play(&mut g, "Rd1-d4");
    play(&mut g, "Kh8-g8");
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    let from_d4: Vec<&Move> = v.iter().filter(|m| m.from == sq("d4")).collect();
    let mut per_sq: BTreeMap<String, usize> = BTreeMap::new();
    for m in &from_d4 {
        *per_sq.entry(m.to.to_string()).or_default() += 1;
    }
    // d-file: d1 (empty now), d2, d3, d5, d6, d7, d8 -> 3 each; rank 4 -> 3 each.
    for s in ["d1", "d2", "d3", "d5", "d6", "d7", "d8", "a4", "b4", "c4", "e4", "f4", "g4", "h4"] {
        assert_eq!(per_sq.get(s), Some(&3), "{s} {per_sq:?}");
    }
    // Diagonals: a7 b6 c5 e3 f2 g1 / a1 is the king: b2 c3 is own king? no, K a1 is
    // on the diagonal: b2 and c3 empty, a1 held by the king (queen may join it: 1 move
    // alone + 1 carrying the rook? the rook joins too, non-royal) -> a1 2; e5 f6 g7 h8
    // (g7 next to the king g8, fine); c5 b6 a7; e3 f2 g1.
    for s in ["a7", "b6", "c5", "e3", "f2", "g1", "b2", "c3", "e5", "f6", "g7", "h8", "a1"] {
        assert_eq!(per_sq.get(s), Some(&2), "{s} {per_sq:?}");
    }
    no_duplicates(&mut g);
}

#[test]
fn identical_knights_once() {
    // Two white knights stacked on c3 (Sa2-c3 joins Sc3... the one on the board stays
    // first). Each knight square is reached by "one knight" or "both": 2 moves per
    // square, not 3 or 4.
    let mut g = game("7k/8/8/8/8/2N5/N7/K7 w - - 0 1");
    play(&mut g, "Sa2-c3");
    play(&mut g, "Kh8-g8");
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    // Knight squares from c3: a4 b5 d5 e4 e2 d1 b1 (a2 empty now) : 8 squares.
    let mut per_sq: BTreeMap<String, usize> = BTreeMap::new();
    for m in v.iter().filter(|m| m.from == sq("c3")) {
        *per_sq.entry(m.to.to_string()).or_default() += 1;
    }
    assert_eq!(per_sq.len(), 8, "{per_sq:?}");
    assert!(per_sq.values().all(|&n| n == 2), "{per_sq:?}");
    no_duplicates(&mut g);
}

// ----- 4. Check and legality -----

#[test]
fn black_hidden_rook_checks() {
    // Mirror of the white case: Black Ra8, Sb8, Kg8; White Kb1. Ra8-b8 hides the rook
    // under the knight: the rook checks b1 along the b-file. White's king must leave the
    // b-file: a1, a2, c1, c2 (all free, none attacked: the knight b8 covers a6, c6, d7).
    let mut g = game("rn4k1/8/8/8/8/8/8/1K6 b - - 0 1");
    play(&mut g, "Ra8-b8");
    assert!(g.in_check(Colour::White));
    assert_eq!(texts(&mut g), ["Kb1-a1", "Kb1-a2", "Kb1-c1", "Kb1-c2"]);
}

#[test]
fn castling_through_a_square_seen_by_a_hidden_unit() {
    // White Ke1 Rh1 (right K); black Rf7, Sf8, Kb8. Rf7-f8 hides the rook under the
    // knight: it sees f1 (f2..f7 empty), so 0-0 is illegal (the king crosses f1).
    let mut g = game("1k3n2/5r2/8/8/8/8/8/4K2R b K - 0 1");
    play(&mut g, "Rf7-f8");
    let m = plain(&mut g);
    assert!(!m.contains(&"0-0".to_string()), "{m:?}");
    assert!(!m.iter().any(|t| t.starts_with("Ke1-f")), "{m:?}");
}

#[test]
fn pinned_stack_unit_may_leave_if_another_stays() {
    // White Ke1, Be2 with Sg1-e2 hidden under it; black Re8, Ka8. The e-file stays shut
    // as long as one unit stays on e2: the bishop alone may go (d1 d3 c4 b5 a6 f3 g4 h5
    // f1; d1 and f1 are empty), the knight alone (c1 c3 d4 f4 g3 g1), but no move taking
    // both away (no square of both on the e-file).
    let mut g = game("k3r3/8/8/8/8/8/4B3/4K1N1 w - - 0 1");
    play(&mut g, "Sg1-e2");
    play(&mut g, "Ka8-b8");
    let m = plain(&mut g);
    let from_e2: Vec<&String> = m.iter().filter(|t| t[1..].starts_with("e2")).collect();
    assert!(!from_e2.iter().any(|t| t.contains('[')), "{from_e2:?}");
    let mut want: Vec<String> = ["d1", "d3", "c4", "b5", "a6", "f3", "g4", "h5", "f1"]
        .iter()
        .map(|s| format!("Be2-{s}"))
        .chain(["c1", "c3", "d4", "f4", "g3", "g1"].iter().map(|s| format!("Se2-{s}")))
        .collect();
    // Joins: the bishop or the knight onto the king e1? Not reachable (e1 is next to e2
    // orthogonally: neither bishop nor knight). None.
    want.sort();
    let mut got: Vec<String> = from_e2.into_iter().cloned().collect();
    got.sort();
    assert_eq!(got, want);
}

#[test]
fn discovered_check_only_when_the_square_empties() {
    // White Ka1, Ra4, Sd4, Bb2; black Kh4 (rank 4 shut by d4). Bb2-d4 hides the
    // bishop under the knight (no check: the bishop's diagonals from d4 miss h4).
    // Moves from d4 then: the knight alone (the bishop stays and shuts rank 4): check
    // only from f3/f5 (knight squares next to h4: f3 f5 g2 g6); the bishop alone (the
    // knight stays): check only from f6 (g5 empty) and f2 (g3 empty); the two together:
    // d4 empties and Ra4 checks h4 along rank 4 (no arrival square is on rank 4).
    let mut g = game("8/8/8/8/R2N3k/8/1B6/K7 w - - 0 1");
    play(&mut g, "Bb2-d4");
    play(&mut g, "Kh4-h3");
    play(&mut g, "Ka1-b1");
    play(&mut g, "Kh3-h4");
    for (_, t) in legal(&mut g) {
        let from_d4 = t[1..].starts_with("d4");
        if !from_d4 {
            continue;
        }
        let both = t.contains('[');
        let k = t.split('[').next().unwrap().trim_end_matches(" +").to_string();
        let to = &k[k.len() - 2..];
        let bishop_to = if t.starts_with('B') || both { Some(to) } else { None };
        let knight_to = if t.starts_with('S') || both { Some(to) } else { None };
        let by_bishop = bishop_to.is_some_and(|s| ["f2", "f6"].contains(&s));
        let by_knight = knight_to.is_some_and(|s| ["f3", "f5"].contains(&s));
        let expect = both || by_bishop || by_knight;
        assert_eq!(t.ends_with(" +"), expect, "{t}");
    }
}

#[test]
fn king_carried_into_check_is_illegal() {
    // White Ke1, Sc2; black Rf8, Ka8. Sc2-e1 hides the knight under the king. The knight
    // carrying the king to f3 puts the king on the f-file (seen by Rf8): illegal; to d3
    // or g2? g2: f-file no -> legal; d3 legal; c2 legal. The king carrying the knight to
    // f1/f2: illegal (f-file); d1, d2, e2: legal.
    let mut g = game("k4r2/8/8/8/8/8/2N5/4K3 w - - 0 1");
    play(&mut g, "Sc2-e1");
    play(&mut g, "Ka8-b8");
    let m = plain(&mut g);
    for t in ["Se1-f3[wKe1->f3]", "Ke1-f1[wSe1->f1]", "Ke1-f2[wSe1->f2]", "Ke1-f1", "Ke1-f2"] {
        assert!(!m.contains(&t.to_string()), "{t} {m:?}");
    }
    for t in ["Se1-d3[wKe1->d3]", "Se1-g2[wKe1->g2]", "Se1-c2[wKe1->c2]", "Ke1-d2[wSe1->d2]", "Ke1-e2[wSe1->e2]"] {
        assert!(m.contains(&t.to_string()), "{t} {m:?}");
    }
}

#[test]
fn king_in_a_stack_is_checked_through_its_square() {
    // White Ke1, Sc2; black Qh5, Ka8. Sc2-e1 hides the knight under the king; Qh5-e8
    // checks the stack e1 (e2..e7 empty). White: the knight cannot block (its squares
    // d3 f3 c2 g2 are off the e-file) nor take; the knight alone leaving leaves the king
    // in check. So: the king alone to d1 d2 f1 f2 (e2 is on the file), the king carrying
    // the knight there (4), the knight carrying the king to d3 f3 c2 g2 (none seen by
    // the queen e8: 4). 12 moves.
    let mut g = game("k7/8/8/7q/8/8/2N5/4K3 w - - 0 1");
    play(&mut g, "Sc2-e1");
    play(&mut g, "Qh5-e8");
    assert!(g.in_check(Colour::White));
    let mut want: Vec<String> = Vec::new();
    for s in ["d1", "d2", "f1", "f2"] {
        want.push(format!("Ke1-{s}"));
        want.push(format!("Ke1-{s}[wSe1->{s}]"));
    }
    for s in ["d3", "f3", "c2", "g2"] {
        want.push(format!("Se1-{s}[wKe1->{s}]"));
    }
    want.sort();
    assert_eq!(plain(&mut g), want);
}

// ----- 5. Captures, en passant, castling rights, hash, perft -----

#[test]
fn capture_of_a_black_stack_takes_all() {
    // Black Rd8, Sd5; Rd8-d5 hides the rook under the knight. White Bb3 takes d5: both
    // black units go; notation names the hidden one.
    let mut g = game("3r3k/8/8/3n4/8/1B6/8/K7 b - - 0 1");
    play(&mut g, "Rd8-d5");
    let before = count_white_black(&g);
    let m = plain(&mut g);
    assert!(m.contains(&"Bb3*d5[-bRd5]".to_string()), "{m:?}");
    play(&mut g, "Bb3*d5[-bRd5]");
    assert_eq!(count_white_black(&g), (before.0, before.1 - 2));
    assert_eq!(on(&g, "d5"), ["wB"]);
    assert!(g.pos.underworld().is_empty());
    assert!(g.pos.is_consistent());
}

#[test]
fn hidden_pawn_takes_en_passant() {
    // White Se5, Pe4; e4-e5 joins the knight (the pawn is hidden). Black d7-d5: the
    // hidden pawn e5 may take en passant on d6, alone or carrying the knight.
    let mut g = game("7k/3p4/8/4N3/4P3/8/8/K7 w - - 0 1");
    play(&mut g, "e4-e5");
    assert_eq!(on(&g, "e5"), ["wS", "wP"]);
    play(&mut g, "d7-d5");
    let m = plain(&mut g);
    assert!(m.contains(&"e5*d6 ep.".to_string()), "{m:?}");
    assert!(m.contains(&"e5*d6 ep.[wSe5->d6]".to_string()), "{m:?}");
    play(&mut g, "e5*d6 ep.");
    assert_eq!(on(&g, "e5"), ["wS"]);
    assert_eq!(on(&g, "d6"), ["wP"]);
    assert!(on(&g, "d5").is_empty());
}

#[test]
fn black_stack_double_step_gives_en_passant() {
    // Black Pd7 with Sb8-d7 hidden under it; d7-d5 carrying the knight: the pawn is the
    // unit on d5 and passed d6: White's e5 pawn may take en passant, taking both.
    let mut g = game("1n5k/3p4/8/4P3/8/8/8/K7 b - - 0 1");
    play(&mut g, "Sb8-d7");
    play(&mut g, "Ka1-b1");
    play(&mut g, "d7-d5[bSd7->d5]");
    let m = plain(&mut g);
    assert!(m.contains(&"e5*d6 ep.[-bSd5]".to_string()), "{m:?}");
    play(&mut g, "e5*d6 ep.[-bSd5]");
    assert!(g.pos.underworld().is_empty());
    assert!(on(&g, "d5").is_empty());
}

#[test]
fn en_passant_does_not_depend_on_the_stack_order() {
    // The same position (white pawn + white rook together on d2, White to move) must give
    // the same moves whichever unit arrived first (an earlier version dropped one).
    // A: pawn d2, rook joins it (d2 = P, R).
    // B: pawn d3, rook joins it, then the rook carries the pawn to d2 (d2 = R, P).
    // In both, the pawn may make its double step d2-d4 with the rook going along (spec:
    // "when one unit of a stack moves, any of the others may move along"); the pawn
    // having advanced two squares, Black's e4 pawn may take it en passant (default
    // rules). The rook-led Rd2-d4[wPd2->d4] carries the pawn (no en passant): a
    // different move. Both exist in A and in B.
    let ep_after_both = |g: &mut Game| -> Vec<bool> {
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut r = Vec::new();
        for m in v.iter().filter(|m| m.from == sq("d2") && m.to == sq("d4")) {
            g.make(m).unwrap();
            if set_on(g, sq("d4")) == ["wP", "wR"] {
                r.push(g.pos.ep().is_some());
            }
            g.unmake();
        }
        r.sort();
        r
    };
    // A
    let mut a = game("7k/8/8/8/4p3/8/3P4/K2R4 w - - 0 1");
    play(&mut a, "Rd1-d2");
    play(&mut a, "Kh8-g8");
    play(&mut a, "Ka1-b1");
    play(&mut a, "Kg8-h8");
    assert_eq!(set_on(&a, sq("d2")), ["wP", "wR"]);
    // B
    let mut b = game("7k/8/8/8/4p3/3P4/8/K2R4 w - - 0 1");
    play(&mut b, "Rd1-d3");
    play(&mut b, "Kh8-g8");
    play(&mut b, "Rd3-d2[wPd3->d2]");
    play(&mut b, "Kg8-h8");
    assert_eq!(set_on(&b, sq("d2")), ["wP", "wR"]);
    let ea = ep_after_both(&mut a);
    let eb = ep_after_both(&mut b);
    assert!(ea.contains(&true), "A: {ea:?} {:?}", plain(&mut a));
    assert_eq!(ea, eb, "A {:?} / B {:?}", plain(&mut a), plain(&mut b));
}

#[test]
fn castling_rights_after_joins_and_departures() {
    // Black Ke8 Rh8 (right k), Sg6. Sg6-h8 joins the rook (hidden): right kept. The
    // knight leaves alone (Sh8-g6): right kept, 0-0 legal. Then the rook leaves h8
    // carrying nothing while the knight is hidden again: right lost (a rook leaving).
    let mut g = game("4k2r/8/6n1/8/8/8/8/K7 b k - 0 1");
    play(&mut g, "Sg6-h8");
    play(&mut g, "Ka1-b1");
    assert!(plain(&mut g).contains(&"0-0".to_string()));
    play(&mut g, "Sh8-g6");
    play(&mut g, "Kb1-a1");
    assert!(plain(&mut g).contains(&"0-0".to_string()));
    play(&mut g, "Sg6-h8");
    play(&mut g, "Ka1-b1");
    play(&mut g, "Rh8-h5");
    assert_eq!(on(&g, "h8"), ["bS"]);
    play(&mut g, "Kb1-a1");
    play(&mut g, "Rh5-h8");
    play(&mut g, "Ka1-b1");
    assert!(!plain(&mut g).contains(&"0-0".to_string()));
    // A knight joining the king e8 keeps the king's right: 0-0-0 then moves king and
    // rook alone, the knight stays on e8. The king carrying the knight loses the right.
    let mut g = game("r3k3/2n5/8/8/8/8/8/K7 b q - 0 1");
    play(&mut g, "Sc7-e8");
    play(&mut g, "Ka1-b1");
    let mut g2 = Game::new(g.rules.clone(), g.pos.clone());
    play(&mut g, "0-0-0");
    assert_eq!(
        (on(&g, "c8"), on(&g, "d8"), on(&g, "e8")),
        (vec!["bK".to_string()], vec!["bR".to_string()], vec!["bS".to_string()])
    );
    play(&mut g2, "Ke8-f8[bSe8->f8]");
    assert_eq!(g2.pos.rights() & chimere_fairy::position::B_KING, 0);
}

#[test]
fn second_rook_leaving_keeps_the_right() {
    // (Identical units are interchangeable, but not the one holding a castling right.)
    // White Ke1, Rh1 (right K), Rh5, black
    // Ka8. Rh5-h1 joins: h1 = the rook with the right, and a second rook under it. The
    // two rooks are identical, so the engine keeps one move "Rh1-h3" in which the first
    // (board) rook leaves, losing the right. But the rooks are not interchangeable here:
    // the rook that just came may leave and the original one stays with its right
    // (module doc: "a unit joining a king or rook does not take the right; a king or rook
    // leaving does"). Expected: after some move "one rook h1 -> h3", White keeps K.
    let mut g = game("k7/8/8/7R/8/8/8/4K2R w K - 0 1");
    play(&mut g, "Rh5-h1");
    play(&mut g, "Ka8-b8");
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    let mut rights = Vec::new();
    for m in v.iter().filter(|m| m.from == sq("h1") && m.to == sq("h3")) {
        g.make(m).unwrap();
        if set_on(&g, sq("h3")) == ["wR"] {
            rights.push(g.pos.rights());
        }
        g.unmake();
    }
    let k = chimere_fairy::position::W_KINGSIDE;
    assert!(rights.iter().any(|&r| r & k != 0), "one rook to h3: rights after = {rights:?}");
}

#[test]
fn perft_is_consistent_with_stacks() {
    let mut g = three_stack();
    for d in 1..=2u32 {
        let total = g.perft(d);
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut sum = 0;
        for m in &v {
            g.make(m).unwrap();
            sum += g.perft(d - 1);
            g.unmake();
        }
        assert_eq!(total, sum, "depth {d}");
    }
    // From the opening after a few joins.
    let mut g = game("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    play(&mut g, "Qd1-d2");
    play(&mut g, "Sg8-e7");
    play(&mut g, "Bf1-e2");
    play(&mut g, "Qd8-e7");
    let total = g.perft(3);
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    let mut sum = 0;
    for m in &v {
        g.make(m).unwrap();
        sum += g.perft(2);
        g.unmake();
    }
    assert_eq!(total, sum);
    assert_eq!(g.perft(1), v.len() as u64);
}

// ----- 6. Fairy pieces, combinations -----

#[test]
fn grasshopper_joins_and_checks_from_under() {
    // White Gd1, Pd2 (hurdle), Sd3; black Pd5, Kd6; White Ka1. The grasshopper hops
    // over d2 and lands on its own knight d3: a join. From under the knight it hops over
    // the black pawn d5 (d4 empty) onto d6: check.
    let mut g = game("8/8/3k4/3p4/8/3N4/3P4/K2G4 w - - 0 1");
    let t = texts(&mut g);
    assert!(t.contains(&"Gd1-d3 +".to_string()), "{t:?}");
    play(&mut g, "Gd1-d3");
    assert_eq!(on(&g, "d3"), ["wS", "wG"]);
    assert!(g.in_check(Colour::Black));
    // Black may answer d5-d4 (the hurdle moves: the grasshopper now lands on d5, empty).
    assert!(plain(&mut g).contains(&"d5-d4".to_string()));
}

#[test]
fn nightrider_joins_along_its_line() {
    // White nightrider a1, white pawn c5 (on the a1-b3-c5-d7 line), Ka8? no: White Kh1,
    // black Kh8. The nightrider rides b3 (empty) then c5 (own pawn): join c5; d7 is not
    // reached (the ride stops at c5).
    let g0 = game("7k/8/8/2P5/8/8/8/7K w - - 0 1");
    let mut pos = g0.pos.clone();
    pos.setup_put(sq("a1"), Unit::new(Colour::White, NIGHTRIDER));
    let mut g = Game::new(g0.rules.clone(), pos);
    let m = plain(&mut g);
    assert!(m.contains(&"Na1-c5".to_string()), "{m:?}");
    assert!(!m.contains(&"Na1-d7".to_string()), "{m:?}");
    play(&mut g, "Na1-c5");
    assert_eq!(on(&g, "c5"), ["wP", "wN"]);
    play(&mut g, "Kh8-g8");
    // The nightrider rides from under the pawn: c5-e6-g7 (g7 next to the king g8), ...
    let m = plain(&mut g);
    assert!(m.contains(&"Nc5-e6".to_string()), "{m:?}");
    assert!(m.contains(&"c5-c6[wNc5->c6]".to_string()), "{m:?}");
    no_duplicates(&mut g);
}

#[test]
fn combinations_refused_or_accepted_without_panic() {
    let fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    for c in [
        "circe",
        "anticirce",
        "supercirce",
        "ghost",
        "eiffel",
        "haan",
        "einstein",
        "antiandernach",
        "volage",
        "absorbant",
        "bicaptures",
        "allinchess",
        "sentinelles",
        "monochromatique",
        "isardam",
        "brunner",
        "extinction",
        "rexmultiplex",
        "central",
        "dynamo",
        "progressif",
        "republic",
        "anneciens",
    ] {
        let r = std::panic::catch_unwind(|| game_from_fen(fen, &["augsburg", c]).map(|_| ()));
        let r = r.unwrap_or_else(|_| panic!("{c}: panic"));
        let e = r.expect_err(c);
        assert!(e.contains("Augsburg"), "{c}: {e}");
    }
    for c in ["glasgow", "sansechec"] {
        assert!(game_from_fen(fen, &["augsburg", c]).is_ok(), "{c}");
    }
}

#[test]
fn glasgow_pawns_following_promote_on_rank_7() {
    // Augsburg + Glasgow: promotion on the 7th rank. White Rd5, Pd6 (rook joins the pawn);
    // the rook carries the pawn to d7: the pawn promotes (4 kinds).
    let mut g = game_from_fen("7k/8/3P4/3R4/8/8/8/K7 w - - 0 1", &["augsburg", "glasgow"]).unwrap();
    play(&mut g, "Rd5-d6");
    play(&mut g, "Kh8-g8");
    let m = plain(&mut g);
    let to_d7: Vec<&String> = m.iter().filter(|t| t.contains("d6-d7")).collect();
    // Pawn alone 4, pawn with rook 4, rook alone 1 = 9.
    assert_eq!(to_d7.len(), 9, "{to_d7:?}");
}

// ----- 7. Random playouts -----

fn xorshift(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

fn playouts(fen: &str, conds: &[&str], games: usize, plies: usize, seed: u64, dup_every: usize) -> usize {
    let mut seed = seed;
    let mut stacked = 0;
    for gi in 0..games {
        let mut g = game_from_fen(fen, conds).unwrap();
        for ply in 0..plies {
            let mut v = Vec::new();
            g.legal_moves(&mut v);
            if v.is_empty() {
                break;
            }
            let hash = g.pos.hash();
            assert!(g.pos.is_consistent());
            if (gi + ply) % dup_every == 0 {
                for m in &v {
                    assert!(notation::move_with_check(&mut g, m).is_some());
                }
                no_duplicates(&mut g);
                let side = g.pos.side();
                let mut p = Vec::new();
                g.pseudo_moves(side, &mut p);
                // Check agrees with "a pseudo-legal capture of the opponent takes a king".
                let mut q = Vec::new();
                g.pseudo_moves(side.opponent(), &mut q);
                let kings = g.pos.board().kind(walk::KING) & g.pos.board().colour(side);
                let brute = q.iter().any(|m| m.capture.is_some_and(|c| kings.has(c)));
                assert_eq!(g.in_check(side), brute);
            }
            let m = v[(xorshift(&mut seed) % v.len() as u64) as usize];
            assert!(g.make(&m).is_some());
            assert!(g.pos.is_consistent());
            // Every stack is of one colour and never has a hidden unit under an empty square.
            for &(s, u) in g.pos.underworld() {
                let top = g.pos.unit(s).expect("a hidden unit under an empty square");
                assert_eq!(top.colour(), u.colour());
                assert!(u.kind() != walk::KING);
            }
            stacked += !g.pos.underworld().is_empty() as usize;
            g.unmake();
            assert_eq!(g.pos.hash(), hash);
            g.make(&m);
        }
    }
    stacked
}

#[test]
fn random_playouts_from_start_and_middlegames() {
    let n = playouts("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &["augsburg"], 40, 80, 7, 11);
    assert!(n > 500, "{n}");
    playouts("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8", &["augsburg"], 25, 80, 99, 13);
    playouts("8/2P1k3/8/8/8/8/1p2K3/8 w - - 0 1", &["augsburg"], 20, 60, 3, 7);
    playouts("r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PpPBBPPP/R3K2R w KQkq - 0 1", &["augsburg"], 25, 60, 5, 13);
    playouts("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", &["augsburg", "glasgow"], 20, 80, 11, 13);
}

#[test]
fn hidden_pawn_checks_but_not_from_its_first_rank() {
    // White Pe4, Se5, Ka1; black Kf6. e4-e5 joins the knight: the hidden pawn e5 attacks
    // d6 and f6: check (the knight e5 does not attack f6).
    let mut g = game("8/8/5k2/4N3/4P3/8/8/K7 w - - 0 1");
    assert!(texts(&mut g).contains(&"e4-e5 +".to_string()));
    // White Ka8, Rd5, Pd3; black Kf3. Rd5-d3 joins the pawn; Kf3-f2; the rook carries
    // the pawn to d1 (the pawn's first rank: immobile, so it attacks nothing). The black
    // king may then step to e2 (seen by neither the rook d1 nor the pawn d1) but not e1.
    let mut g = game("K7/8/8/3R4/8/3P1k2/8/8 w - - 0 1");
    play(&mut g, "Rd5-d3");
    play(&mut g, "Kf3-f2");
    play(&mut g, "Rd3-d1[wPd3->d1]");
    let m = plain(&mut g);
    assert!(m.contains(&"Kf2-e2".to_string()), "{m:?}");
    assert!(!m.contains(&"Kf2-e1".to_string()), "{m:?}");
}

#[test]
fn opening_perft_2() {
    // 35 moves for White (20 + 15 joins, see the unit test); none of them changes
    // Black's 35 (no contact, no check, no blocked square): 35 x 35.
    let mut g = game("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(g.perft(1), 35);
    assert_eq!(g.perft(2), 35 * 35);
}

#[test]
fn eight_pawns_promote_together() {
    // Any of the others may move along, all eight pawns promoting (an earlier version
    // could not count the promotion choices of more than six pawns). White Ra8, pawns
    // a7..h7, Ka1; black pawns a6..h6 (they shut the files), Ke4. The rook joins a7, then
    // sweeps rank 7 carrying every pawn (Ra7-b7 with the pawn, ..., g7-h7): h7 = 8 pawns
    // + rook. Now one pawn may step to h8 with the seven others (and the rook) going
    // along, all eight promoting: all to queens is exactly one move.
    let mut g = game("R7/PPPPPPPP/pppppppp/8/4k3/8/8/K7 w - - 0 1");
    play(&mut g, "Ra8-a7");
    let files = ["a", "b", "c", "d", "e", "f", "g", "h"];
    let mut black = ["Ke4-e3", "Ke3-e4"].iter().cycle();
    play(&mut g, black.next().unwrap());
    for w in files.windows(2) {
        let (from, to) = (sq(&format!("{}7", w[0])), sq(&format!("{}7", w[1])));
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut found = None;
        for m in v.iter().filter(|m| m.from == from && m.to == to) {
            g.make(m).unwrap();
            let empty = g.pos.unit(from).is_none();
            g.unmake();
            if empty {
                assert!(found.is_none(), "two moves carrying everything");
                found = Some(*m);
            }
        }
        g.make(&found.expect("the rook carries every unit")).unwrap();
        play(&mut g, black.next().unwrap());
    }
    assert_eq!(set_on(&g, sq("h7")).len(), 9);
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    let mut all_queens = 0;
    for m in v.iter().filter(|m| m.from == sq("h7") && m.to == sq("h8")) {
        g.make(m).unwrap();
        if g.pos.unit(sq("h7")).is_none() && set_on(&g, sq("h8")).iter().filter(|u| *u == "wQ").count() == 8 {
            all_queens += 1;
        }
        g.unmake();
    }
    assert_eq!(all_queens, 1, "the eight pawns and the rook to h8, all pawns promoting to queens");
}

// ----- 8. An independent model, stack order -----

fn sigs(g: &mut Game, ignore_ep: bool) -> (usize, BTreeSet<String>, Vec<(String, String)>) {
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    let mut set = BTreeSet::new();
    let mut named = Vec::new();
    for m in &v {
        let t = notation::move_with_check(g, m).unwrap();
        g.make(m).unwrap();
        let mut s = signature(g);
        if ignore_ep {
            s = s.split(" ep").next().unwrap().to_string();
        }
        g.unmake();
        set.insert(s.clone());
        named.push((s, t));
    }
    (v.len(), set, named)
}
fn rebuild(g: &Game, permute: bool) -> Game {
    let mut p = Position::empty();
    for q in Square::ALL {
        let Some(b) = g.pos.unit(q) else { continue };
        let mut st: Vec<Unit> = vec![b];
        st.extend(g.pos.under(q).map(|(_, u)| u));
        if permute
            && st.len() > 1
            && chimere_fairy::position::rights_of_square(q) & g.pos.rights() == 0
            && g.pos.ep().is_none_or(|e| e.pawn != q)
        {
            if st[0].kind() == walk::KING {
                st[1..].reverse();
            } else {
                st.reverse();
            }
        }
        // board st[0], hidden st[1..] in order: put st[1], st[2], ..., then st[0]
        for u in st[1..].iter() {
            p.setup_put(q, *u);
        }
        p.setup_put(q, st[0]);
    }
    p.setup_side(g.pos.side());
    p.setup_rights(g.pos.rights());
    p.setup_ep(g.pos.ep());
    Game::new(g.rules.clone(), p)
}
type Model = BTreeMap<Square, Vec<Unit>>;
fn model(g: &Game) -> Model {
    let mut m = Model::new();
    for q in Square::ALL {
        if let Some(b) = g.pos.unit(q) {
            let mut v = vec![b];
            v.extend(g.pos.under(q).map(|(_, u)| u));
            m.insert(q, v);
        }
    }
    m
}
fn build(g: &Game, m: &Model, side: Colour, rights: u8, ep: Option<EnPassant>) -> Game {
    let mut p = Position::empty();
    for (q, st) in m {
        if st.is_empty() {
            continue;
        }
        let mut st = st.clone();
        if let Some(k) = st.iter().position(|u| u.kind() == walk::KING) {
            let ku = st.remove(k);
            st.insert(0, ku);
        }
        for u in st[1..].iter() {
            p.setup_put(*q, *u);
        }
        p.setup_put(*q, st[0]);
    }
    p.setup_side(side);
    p.setup_rights(rights);
    p.setup_ep(ep);
    Game::new(g.rules.clone(), p)
}
fn reference(g: &mut Game) -> BTreeMap<String, String> {
    let mover = g.pos.side();
    let md = model(g);
    let rights = g.pos.rights();
    let in_check_now = g.in_check(mover);
    let mut out = BTreeMap::new();
    for (&s, st) in md.iter() {
        if st[0].colour() != mover {
            continue;
        }
        for (ui, &u) in st.iter().enumerate() {
            let immobile = |v: Unit| {
                v.kind() == walk::PAWN && (if v.colour() == Colour::White { s.rank() == 0 } else { s.rank() == 7 })
            };
            if immobile(u) {
                continue;
            }
            let mut m1 = md.clone();
            m1.insert(s, vec![u]);
            let g1 = build(g, &m1, mover, rights, g.pos.ep());
            let mut pm = Vec::new();
            g1.pseudo_moves_from(mover, Bitboard::from_square(s), &mut pm);
            let others: Vec<usize> = (0..st.len()).filter(|&j| j != ui && !immobile(st[j])).collect();
            for m in pm.iter().filter(|m| m.from == s) {
                let join = m.capture.is_none() && m.castle.is_none() && md.contains_key(&m.to);
                let nsub = if m.castle.is_some() { 1 } else { 1usize << others.len() };
                for mask in 0..nsub {
                    let set: Vec<usize> =
                        others.iter().enumerate().filter(|(b, _)| mask >> b & 1 != 0).map(|(_, &j)| j).collect();
                    if join && set.iter().any(|&j| st[j].kind() == walk::KING) {
                        continue;
                    }
                    if u.kind() == walk::KING && join {
                        continue;
                    }
                    // promotions of the followers
                    let promo_rank = g.rules.promotion_rank;
                    let rel = |c: Colour, q: Square| if c == Colour::Black { 7 - q.rank() } else { q.rank() };
                    let pawns: Vec<usize> = set
                        .iter()
                        .copied()
                        .filter(|&j| st[j].kind() == walk::PAWN && rel(st[j].colour(), m.to) == promo_rank)
                        .collect();
                    let kinds = &g.rules.promotions;
                    let combos = kinds.len().max(1).pow(pawns.len() as u32);
                    for code in 0..combos {
                        let mut arr = vec![m.promo.map_or(u, |k| u.with_kind(k))];
                        let mut c = code;
                        for &j in &set {
                            let v = st[j];
                            if pawns.contains(&j) {
                                arr.push(v.with_kind(kinds[c % kinds.len()]));
                                c /= kinds.len();
                            } else {
                                arr.push(v);
                            }
                        }
                        let mut r = md.clone();
                        let mut lost = 0u8;
                        let leaving: Vec<usize> = std::iter::once(ui).chain(set.iter().copied()).collect();
                        if leaving.contains(&0) {
                            lost |= rights_of_square(s);
                        }
                        let rest: Vec<Unit> = (0..st.len()).filter(|j| !leaving.contains(j)).map(|j| st[j]).collect();
                        r.insert(s, rest);
                        if let Some(cq) = m.capture {
                            r.insert(cq, vec![]);
                            lost |= rights_of_square(cq);
                        }
                        if let Some((rf, rt)) = m.castle {
                            let mut v = r[&rf].clone();
                            let rook = v.remove(0);
                            r.insert(rf, v);
                            r.insert(rt, vec![rook]);
                            lost |= rights_of_square(rf);
                        }
                        let was_empty = r.get(&m.to).is_none_or(|v| v.is_empty());
                        r.entry(m.to).or_default().extend(arr.iter().copied());
                        let ep = if u.kind() == walk::PAWN
                            && m.capture.is_none()
                            && m.from.file() == m.to.file()
                            && m.from.rank().abs_diff(m.to.rank()) == 2
                            && was_empty
                            && !arr.iter().any(|a| a.kind() == walk::KING)
                        {
                            let mid = Square::from_coords(m.to.file(), (m.from.rank() + m.to.rank()) / 2);
                            Some(EnPassant::new(mid, m.to, None))
                        } else {
                            None
                        };
                        let mut gr = build(g, &r, mover.opponent(), rights & !lost, ep);
                        if gr.in_check(mover) {
                            continue;
                        }
                        if let Some((_, rt)) = m.castle {
                            if in_check_now {
                                continue;
                            }
                            let mut mc = md.clone();
                            let mut v = mc[&s].clone();
                            let k = v.remove(0);
                            mc.insert(s, v);
                            mc.insert(rt, vec![k]);
                            let mut gc = build(g, &mc, mover.opponent(), rights, None);
                            if gc.in_check(mover) {
                                continue;
                            }
                        }
                        let desc = format!(
                            "{} {}{} set{:?} code{}",
                            name(u),
                            m.from,
                            m.to,
                            set.iter().map(|&j| name(st[j])).collect::<Vec<_>>(),
                            code
                        );
                        out.entry(signature(&gr)).or_insert(desc);
                    }
                }
            }
        }
    }
    out
}

/// An independent model of the rule: for every unit u of a stack of the side to move
/// (u not an immobile first-rank pawn), every move of u standing alone on its square
/// (the engine's single-unit generation, joins included), and every subset of the other
/// mobile units going along (no king when joining), every choice of promotion for the
/// followers reaching the promotion rank; the move is legal when the mover's king is not
/// attacked afterwards (castling: not in check, not crossing an attacked square); castling
/// rights are lost from a square whose board unit leaves or is taken; en passant after a
/// pawn's double step onto an empty square (the pawn moving, its king not going along).
/// The engine's legal moves must give exactly the same set of results (en passant
/// included), each once.
#[test]
fn engine_matches_an_independent_model() {
    let mut seed = 4242u64;
    let mut checked = 0;
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PpPBBPPP/R3K2R w KQkq - 0 1",
        "8/2P1k3/8/8/8/8/1p2K3/8 w - - 0 1",
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
    ] {
        for _ in 0..8 {
            let mut g = game(fen);
            for _ in 0..40 {
                let mut v = Vec::new();
                g.legal_moves(&mut v);
                if v.is_empty() {
                    break;
                }
                let (n, e, named) = sigs(&mut g, false);
                let r: BTreeMap<String, String> = reference(&mut g);
                let rk: BTreeSet<String> = r.keys().cloned().collect();
                let only_e: Vec<_> = named.iter().filter(|(s, _)| !rk.contains(s)).map(|x| &x.1).collect();
                let only_r: Vec<_> = r.iter().filter(|(s, _)| !e.contains(*s)).map(|x| x.1).collect();
                assert!(rk == e && n == e.len(), "{}\n engine only {only_e:?}\n model only {only_r:?}", signature(&g));
                checked += 1;
                let m = v[(xorshift(&mut seed) % v.len() as u64) as usize];
                g.make(&m).unwrap();
            }
        }
    }
    assert!(checked > 1000);
}

/// Reversing the order of every stack (the king and the castling rook staying on the
/// board, the en passant pawn too) must not change the set of results of the legal moves
/// (en passant left out, see `en_passant_does_not_depend_on_the_stack_order`).
#[test]
fn stack_order_does_not_matter() {
    let mut seed = 77u64;
    for fen in ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "8/2P1k3/8/8/8/8/1p2K3/8 w - - 0 1"] {
        for _ in 0..10 {
            let mut g = game(fen);
            for _ in 0..50 {
                let mut v = Vec::new();
                g.legal_moves(&mut v);
                if v.is_empty() {
                    break;
                }
                if !g.pos.underworld().is_empty() {
                    let a = sigs(&mut g, true);
                    let c = sigs(&mut rebuild(&g, true), true);
                    assert_eq!(a.0, c.0, "{}", signature(&g));
                    assert_eq!(a.1, c.1, "{}", signature(&g));
                }
                let m = v[(xorshift(&mut seed) % v.len() as u64) as usize];
                g.make(&m).unwrap();
            }
        }
    }
}
