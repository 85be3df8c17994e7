//! The fast legal generator against a slow, obviously-correct one: every pseudo-legal
//! move (walked square by square), kept if the mover's king is not attacked afterwards.

use chimere_chess::{Chess, Flag, Move};
use chimere_core::{Colour, Square, Variant, attacks};
use proptest::prelude::*;
use std::collections::BTreeSet;

fn key(m: &Move) -> (u8, u8, String) {
    (m.from.index() as u8, m.to.index() as u8, format!("{:?}", m.flag))
}

/// Whether `sq` is attacked by `by`, found by walking from `sq` outward.
fn attacked_slow(pos: &Chess, sq: Square, by: Colour) -> bool {
    let b = pos.board();
    let is = |s: Square, letters: &[u8]| {
        b.get(s)
            .is_some_and(|p| p.colour == by && letters.contains(&chimere_chess::NOTATION.kind_letters[p.kind.index()]))
    };
    for (df, dr) in attacks::KNIGHT_STEPS {
        if sq.offset(df, dr).is_some_and(|s| is(s, b"n")) {
            return true;
        }
    }
    for (df, dr) in attacks::KING_STEPS {
        if sq.offset(df, dr).is_some_and(|s| is(s, b"k")) {
            return true;
        }
    }
    let back = -by.forward();
    for df in [-1, 1] {
        if sq.offset(df, back).is_some_and(|s| is(s, b"p")) {
            return true;
        }
    }
    for (dirs, letters) in [(attacks::ROOK_DIRS, b"rq"), (attacks::BISHOP_DIRS, b"bq")] {
        for (df, dr) in dirs {
            let mut cur = sq;
            while let Some(n) = cur.offset(df, dr) {
                if b.get(n).is_some() {
                    if is(n, letters) {
                        return true;
                    }
                    break;
                }
                cur = n;
            }
        }
    }
    false
}

/// Legal moves except castling, the slow way.
fn slow_moves(pos: &Chess) -> BTreeSet<(u8, u8, String)> {
    let b = pos.board();
    let us = pos.side();
    let mut cands = Vec::new();
    for (from, p) in b.iter().filter(|(_, p)| p.colour == us) {
        let letter = chimere_chess::NOTATION.kind_letters[p.kind.index()];
        let mut add = |to: Square, flag: Flag| cands.push(Move { from, to, flag });
        let free_or_enemy = |s: Square| b.get(s).is_none_or(|q| q.colour != us);
        match letter {
            b'n' | b'k' => {
                let steps = if letter == b'n' { attacks::KNIGHT_STEPS } else { attacks::KING_STEPS };
                for (df, dr) in steps {
                    if let Some(to) = from.offset(df, dr).filter(|&s| free_or_enemy(s)) {
                        add(to, Flag::Normal);
                    }
                }
            }
            b'b' | b'r' | b'q' => {
                let dirs: Vec<(i8, i8)> = match letter {
                    b'b' => attacks::BISHOP_DIRS.to_vec(),
                    b'r' => attacks::ROOK_DIRS.to_vec(),
                    _ => [attacks::ROOK_DIRS, attacks::BISHOP_DIRS].concat(),
                };
                for (df, dr) in dirs {
                    let mut cur = from;
                    while let Some(n) = cur.offset(df, dr) {
                        if free_or_enemy(n) {
                            add(n, Flag::Normal);
                        }
                        if b.get(n).is_some() {
                            break;
                        }
                        cur = n;
                    }
                }
            }
            _ => {
                let f = us.forward();
                let last = if us == Colour::White { 7 } else { 0 };
                let mut targets = Vec::new();
                if let Some(one) = from.offset(0, f).filter(|&s| b.get(s).is_none()) {
                    targets.push(one);
                    let start = if us == Colour::White { 1 } else { 6 };
                    if from.rank() == start
                        && let Some(two) = one.offset(0, f).filter(|&s| b.get(s).is_none())
                    {
                        add(two, Flag::DoublePush);
                    }
                }
                for df in [-1, 1] {
                    if let Some(c) = from.offset(df, f)
                        && b.get(c).is_some_and(|q| q.colour != us)
                    {
                        targets.push(c);
                    }
                }
                for to in targets {
                    if to.rank() == last {
                        for k in
                            [chimere_chess::QUEEN, chimere_chess::ROOK, chimere_chess::BISHOP, chimere_chess::KNIGHT]
                        {
                            add(to, Flag::Promote(k));
                        }
                    } else {
                        add(to, Flag::Normal);
                    }
                }
            }
        }
    }
    // En passant from the FEN's square.
    let fen = pos.fen();
    let ep = fen.split(' ').nth(4).and_then(Square::parse);
    if let Some(ep) = ep {
        for df in [-1, 1] {
            if let Some(from) = ep.offset(df, -us.forward())
                && b.get(from).is_some_and(|p| p.colour == us && p.kind == chimere_chess::PAWN)
            {
                cands.push(Move { from, to: ep, flag: Flag::EnPassant });
            }
        }
    }
    let mut out = BTreeSet::new();
    for m in cands {
        let mut after = pos.clone();
        after.make(&m);
        let king = after.board().iter().find(|(_, p)| p.colour == us && p.kind == chimere_chess::KING).unwrap().0;
        if !attacked_slow(&after, king, us.opponent()) {
            out.insert(key(&m));
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn fast_generator_equals_slow_one(seed in any::<u64>()) {
        let starts = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ];
        let mut rng = chimere_core::rng::SplitMix64::new(seed);
        let mut pos = Chess::from_fen(starts[rng.below(3) as usize]).unwrap();
        let mut list = Vec::new();
        for _ in 0..80 {
            list.clear();
            pos.legal_turns(&mut list);
            let fast: BTreeSet<_> = list.iter().filter(|m| m.flag != Flag::Castle).map(key).collect();
            prop_assert_eq!(&fast, &slow_moves(&pos), "{}", pos.fen());
            if list.is_empty() {
                break;
            }
            let m = list[rng.below(list.len() as u64) as usize];
            pos.make(&m);
        }
    }
}
