//! The pieces of the walk table against a slow reference written apart from it: each
//! piece's movement restated here by its family (leaper, rider, hopper, lion, Chinese,
//! marine, lame leaper, turning hopper) over plain coordinates, compared move by move on
//! random positions; and move counts on the empty board that follow from the definitions.

use chimere_core::rng::SplitMix64;
use chimere_core::{Colour, Square};
use chimere_fairy::{Game, Move, Position, RuleSet, Unit, walk};
use std::collections::BTreeSet;

type V = (i32, i32);

fn sym(a: i32, b: i32) -> Vec<V> {
    let mut v = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                if !v.contains(&(x * sx, y * sy)) {
                    v.push((x * sx, y * sy));
                }
            }
        }
    }
    v
}
fn cat(parts: &[Vec<V>]) -> Vec<V> {
    parts.concat()
}
fn rook() -> Vec<V> {
    sym(0, 1)
}
fn bishop() -> Vec<V> {
    sym(1, 1)
}
fn queen() -> Vec<V> {
    cat(&[rook(), bishop()])
}
fn knight() -> Vec<V> {
    sym(1, 2)
}

/// How a piece moves, restated.
enum Ref {
    Leap(Vec<V>),
    Ride(Vec<V>),
    /// hurdles, first hurdle adjacent only, landing distance beyond the last hurdle.
    Hop(Vec<V>, usize, bool, i32),
    Lion(Vec<V>, usize),
    Chinese(Vec<V>),
    Marine(Vec<V>),
    /// orthogonal first (Mao) or diagonal first (Moa).
    Lame(bool),
    /// turn in multiples of 45 degrees.
    Turn(Vec<V>, i32),
    /// over the first unit on the line, as far again beyond it (the squares between empty).
    Mirror(Vec<V>),
    /// to twice the vector over a unit on the vector's square, nothing else looked at.
    Jump(Vec<V>),
    /// back to the square before the first unit on the line (not the start), no capture.
    Hamster,
    /// over a unit on the very next square, then as a rider.
    Contra(Vec<V>),
    /// Mao (orthogonal first) or Moa leaps repeated in one direction.
    LameRide(bool),
    /// Mao or Moa leap over a unit standing on the lame step's square.
    LameHop(bool),
    /// a lion on the Mao (or Moa) rider's path, read square by square (lame square, then
    /// arrival): over the first unit on it to any arrival beyond, up to the next unit.
    LameRideLion(bool),
    Both(Box<Ref>, Box<Ref>),
}

fn reference(letters: &str) -> Option<Ref> {
    use Ref::*;
    let both = |a, b| Both(Box::new(a), Box::new(b));
    Some(match letters {
        "Z" => Leap(sym(2, 3)),
        "CA" => Leap(sym(1, 3)),
        "GI" => Leap(sym(1, 4)),
        "AN" => Leap(sym(3, 4)),
        "BU" => Leap(cat(&[sym(3, 4), sym(0, 5)])),
        "RF" => Leap(cat(&[sym(1, 7), sym(5, 5)])),
        "WE" => Leap(rook()),
        "FE" => Leap(bishop()),
        "AL" => Leap(sym(2, 2)),
        "DA" => Leap(sym(0, 2)),
        "GN" => Leap(cat(&[sym(1, 3), knight()])),
        "OK" => Leap(cat(&[sym(2, 3), knight()])),
        "BI" => Leap(cat(&[sym(1, 3), sym(2, 3)])),
        "ZE" => Leap(cat(&[sym(1, 3), sym(1, 4)])),
        "SQ" => Leap(cat(&[sym(0, 2), sym(2, 2), knight()])),
        "15" | "16" | "24" | "25" | "35" | "36" | "37" => {
            let b = letters.as_bytes();
            Leap(sym((b[0] - b'0') as i32, (b[1] - b'0') as i32))
        }
        "CR" => Ride(sym(1, 3)),
        "ZR" => Ride(sym(2, 3)),
        "GR" => Ride(cat(&[sym(1, 3), knight()])),
        "ET" => Ride(cat(&[queen(), knight()])),
        "AM" => both(Ride(queen()), Leap(knight())),
        "EM" => both(Ride(rook()), Leap(knight())),
        "PR" => both(Ride(bishop()), Leap(knight())),
        "WA" => both(Ride(knight()), Ride(rook())),
        "RH" => Hop(rook(), 1, false, 1),
        "BH" => Hop(bishop(), 1, false, 1),
        "NH" => Hop(knight(), 1, false, 1),
        "CH" => Hop(sym(1, 3), 1, false, 1),
        "ZH" => Hop(sym(2, 3), 1, false, 1),
        "GH" => Hop(cat(&[sym(1, 3), knight()]), 1, false, 1),
        "G2" => Hop(queen(), 1, false, 2),
        "G3" => Hop(queen(), 1, false, 3),
        "KH" => Hop(queen(), 1, true, 1),
        "KA" => Hop(queen(), 2, false, 1),
        "KL" => Lion(queen(), 2),
        "DO" => both(Hop(queen(), 2, false, 1), Hop(queen(), 1, false, 1)),
        "SO" => both(Leap(queen()), Hop(queen(), 1, false, 1)),
        "GL" => both(Leap(sym(2, 2)), Hop(rook(), 1, false, 1)),
        "LI" => Lion(queen(), 1),
        "RL" => Lion(rook(), 1),
        "BL" => Lion(bishop(), 1),
        "NL" => Lion(knight(), 1),
        "M" => Turn(queen(), 1),
        "EA" => Turn(queen(), 2),
        "SW" => Turn(queen(), 3),
        "RM" => Turn(rook(), 1),
        "RE" => Turn(rook(), 2),
        "RW" => Turn(rook(), 3),
        "BM" => Turn(bishop(), 1),
        "BE" => Turn(bishop(), 2),
        "BW" => Turn(bishop(), 3),
        "PA" => Chinese(rook()),
        "VA" => Chinese(bishop()),
        "LE" => Chinese(queen()),
        "NA" => Chinese(knight()),
        "MA" => Lame(true),
        "MO" => Lame(false),
        "EQ" => both(Mirror(queen()), Jump(cat(&[knight(), sym(1, 3), sym(2, 3)]))),
        "OR" => Mirror(queen()),
        "NE" => Jump((-3..=3).flat_map(|x| (-3..=3).map(move |y| (x, y))).filter(|&v| v != (0, 0)).collect()),
        "NO" => Jump((1..=3).flat_map(|k| queen().into_iter().map(move |(x, y)| (k * x, k * y))).collect()),
        "HA" => Hamster,
        "CG" => Contra(queen()),
        "KP" => Hop(knight(), 1, true, 1),
        "AO" => LameRide(true),
        "OA" => LameRide(false),
        "AH" => LameHop(true),
        "OH" => LameHop(false),
        "ML" => LameRideLion(true),
        "MM" => LameRideLion(false),
        "SI" => Marine(queen()),
        "TR" => Marine(rook()),
        "ND" => Marine(bishop()),
        _ => return None,
    })
}

/// A board of colours: `Some(true)` White.
type Board = [[Option<bool>; 8]; 8];

fn at(b: &Board, (x, y): V) -> Option<Option<bool>> {
    if (0..8).contains(&x) && (0..8).contains(&y) { Some(b[x as usize][y as usize]) } else { None }
}

/// The moves (to, captured square) of a white unit on `p`.
fn ref_moves(r: &Ref, b: &Board, p: V, out: &mut BTreeSet<(V, Option<V>)>) {
    let add = |t: V, out: &mut BTreeSet<(V, Option<V>)>| match at(b, t) {
        Some(None) => {
            out.insert((t, None));
        }
        Some(Some(false)) => {
            out.insert((t, Some(t)));
        }
        _ => {}
    };
    let step = |a: V, d: V| (a.0 + d.0, a.1 + d.1);
    // The next occupied square along d from a (None: the edge).
    let next_unit = |mut a: V, d: V| loop {
        a = step(a, d);
        match at(b, a) {
            None => return None,
            Some(Some(_)) => return Some(a),
            Some(None) => {}
        }
    };
    match r {
        Ref::Leap(vs) => vs.iter().for_each(|&d| add(step(p, d), out)),
        Ref::Ride(vs) => {
            for &d in vs {
                let mut a = step(p, d);
                while at(b, a) == Some(None) {
                    add(a, out);
                    a = step(a, d);
                }
                add(a, out);
            }
        }
        Ref::Hop(vs, n, adjacent, dist) => {
            for &d in vs {
                let mut h = Some(p);
                for i in 0..*n {
                    h = h.and_then(|a| next_unit(a, d));
                    if i == 0 && *adjacent && h != Some(step(p, d)) {
                        h = None;
                    }
                }
                let Some(mut t) = h else { continue };
                let mut clear = true;
                for k in 0..*dist {
                    t = step(t, d);
                    if k + 1 < *dist && at(b, t) != Some(None) {
                        clear = false;
                    }
                }
                if clear {
                    add(t, out);
                }
            }
        }
        Ref::Lion(vs, n) => {
            for &d in vs {
                let mut h = Some(p);
                for _ in 0..*n {
                    h = h.and_then(|a| next_unit(a, d));
                }
                let Some(h) = h else { continue };
                let mut a = step(h, d);
                while at(b, a) == Some(None) {
                    add(a, out);
                    a = step(a, d);
                }
                add(a, out);
            }
        }
        Ref::Chinese(vs) => {
            for &d in vs {
                let mut a = step(p, d);
                while at(b, a) == Some(None) {
                    add(a, out);
                    a = step(a, d);
                }
                if let Some(h) = next_unit(p, d)
                    && let Some(t) = next_unit(h, d)
                    && at(b, t) == Some(Some(false))
                {
                    add(t, out);
                }
            }
        }
        Ref::Marine(vs) => {
            for &d in vs {
                let mut a = step(p, d);
                while at(b, a) == Some(None) {
                    add(a, out);
                    a = step(a, d);
                }
                if at(b, a) == Some(Some(false)) && at(b, step(a, d)) == Some(None) {
                    out.insert((step(a, d), Some(a)));
                }
            }
        }
        Ref::Mirror(vs) => {
            for &d in vs {
                let Some(h) = next_unit(p, d) else { continue };
                let k = (h.0 - p.0).abs().max((h.1 - p.1).abs());
                let t = (h.0 + k * d.0, h.1 + k * d.1);
                if (1..k).all(|i| at(b, (h.0 + i * d.0, h.1 + i * d.1)) == Some(None)) {
                    add(t, out);
                }
            }
        }
        Ref::Jump(vs) => {
            for &d in vs {
                if let Some(Some(_)) = at(b, step(p, d)) {
                    add(step(step(p, d), d), out);
                }
            }
        }
        Ref::Hamster => {
            for d in queen() {
                if let Some(h) = next_unit(p, d)
                    && (h.0 - d.0, h.1 - d.1) != p
                {
                    out.insert(((h.0 - d.0, h.1 - d.1), None));
                }
            }
        }
        Ref::Contra(vs) => {
            for &d in vs {
                if let Some(Some(_)) = at(b, step(p, d)) {
                    let mut a = step(step(p, d), d);
                    while at(b, a) == Some(None) {
                        add(a, out);
                        a = step(a, d);
                    }
                    add(a, out);
                }
            }
        }
        Ref::LameRide(orth) | Ref::LameHop(orth) => {
            let ride = matches!(r, Ref::LameRide(_));
            for (dx, dy) in knight() {
                let via = lame_step(*orth, (dx, dy));
                let (mut v, mut t) = (step(p, via), step(p, (dx, dy)));
                if !ride {
                    if let Some(Some(_)) = at(b, v) {
                        add(t, out);
                    }
                    continue;
                }
                while at(b, v) == Some(None) {
                    add(t, out);
                    if at(b, t) != Some(None) {
                        break;
                    }
                    (v, t) = (step(v, (dx, dy)), step(t, (dx, dy)));
                }
            }
        }
        Ref::LameRideLion(orth) => {
            for d in knight() {
                let via = lame_step(*orth, d);
                let mut path = Vec::new();
                for i in 0..8 {
                    let node = (p.0 + i * d.0, p.1 + i * d.1);
                    path.push((step(node, via), false));
                    path.push((step(node, d), true));
                }
                let path: Vec<(V, bool)> = path.into_iter().take_while(|&(sq, _)| at(b, sq).is_some()).collect();
                let Some(h) = path.iter().position(|&(sq, _)| matches!(at(b, sq), Some(Some(_)))) else {
                    continue;
                };
                for &(sq, arrival) in &path[h + 1..] {
                    if arrival {
                        add(sq, out);
                    }
                    if at(b, sq) != Some(None) {
                        break;
                    }
                }
            }
        }
        Ref::Lame(orth) => {
            for (dx, dy) in knight() {
                let via = if *orth && dx.abs() == 2 {
                    (dx / 2, 0)
                } else if *orth {
                    (0, dy / 2)
                } else {
                    (dx.signum(), dy.signum())
                };
                if at(b, step(p, via)) == Some(None) {
                    add(step(p, (dx, dy)), out);
                }
            }
        }
        Ref::Turn(vs, k) => {
            let ring: [V; 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];
            for &d in vs {
                let Some(h) = next_unit(p, d) else { continue };
                let i = ring.iter().position(|&r| r == d).unwrap() as i32;
                for j in [i + k, i - k] {
                    add(step(h, ring[j.rem_euclid(8) as usize]), out);
                }
            }
        }
        Ref::Both(a, c) => {
            ref_moves(a, b, p, out);
            ref_moves(c, b, p, out);
        }
    }
}

/// The square a Mao (orthogonal first) or Moa leap passes.
fn lame_step(orth: bool, (dx, dy): V) -> V {
    if orth && dx.abs() == 2 {
        (dx / 2, 0)
    } else if orth {
        (0, dy / 2)
    } else {
        (dx.signum(), dy.signum())
    }
}

fn sq(v: V) -> Square {
    Square::from_coords(v.0 as u8, v.1 as u8)
}

/// The engine's moves of the unit on `p` (no kings: every pseudo-legal move is legal).
fn engine_moves(pos: Position, p: V) -> BTreeSet<(V, Option<V>)> {
    let mut g = Game::new(RuleSet::build(vec![], &[]).unwrap(), pos);
    let mut v: Vec<Move> = Vec::new();
    g.legal_moves(&mut v);
    let co = |s: Square| (s.file() as i32, s.rank() as i32);
    v.iter().filter(|m| m.from == sq(p)).map(|m| (co(m.to), m.capture.map(co))).collect()
}

#[test]
fn every_generic_piece_matches_the_reference_on_random_positions() {
    let mut rng = SplitMix64::new(30);
    let mut checked = 0;
    for (i, w) in walk::WALKS.iter().enumerate().skip(walk::FIRST_GENERIC.index()) {
        let r = reference(w.letters).unwrap_or_else(|| panic!("no reference for {}", w.name));
        let kind = chimere_core::Kind(i as u8);
        for _ in 0..60 {
            let mut b: Board = [[None; 8]; 8];
            let mut pos = Position::empty();
            let p = (rng.below(8) as i32, rng.below(8) as i32);
            pos.setup_put(sq(p), Unit::new(Colour::White, kind));
            b[p.0 as usize][p.1 as usize] = Some(true);
            for _ in 0..rng.below(14) {
                let s = (rng.below(8) as i32, rng.below(8) as i32);
                if b[s.0 as usize][s.1 as usize].is_none() {
                    let white = rng.below(2) == 0;
                    b[s.0 as usize][s.1 as usize] = Some(white);
                    let c = if white { Colour::White } else { Colour::Black };
                    pos.setup_put(sq(s), Unit::new(c, walk::ROOK));
                }
            }
            let mut want = BTreeSet::new();
            ref_moves(&r, &b, p, &mut want);
            assert_eq!(engine_moves(pos, p), want, "{} on {:?}", w.name, p);
            checked += 1;
        }
    }
    assert!(checked > 3000);
}

/// On the empty board a leaper's moves from every square add up to twice the number of
/// pairs of squares one leap apart: for an `a:b` leap (a < b, both non-zero) 4·2·(8-a)(8-b).
#[test]
fn leaper_counts_on_the_empty_board() {
    for (letters, a, b) in [("Z", 2, 3), ("CA", 1, 3), ("GI", 1, 4), ("AN", 3, 4), ("15", 1, 5), ("37", 3, 7)] {
        let kind = walk::kind_of_letters(letters).unwrap();
        let mut total = 0;
        for s in 0..64u8 {
            let mut pos = Position::empty();
            pos.setup_put(Square::new(s), Unit::new(Colour::White, kind));
            let f = Square::new(s);
            total += engine_moves(pos, (f.file() as i32, f.rank() as i32)).len();
        }
        assert_eq!(total, 8 * (8 - a) * (8 - b), "{letters}");
    }
}

/// A lone hopper or Chinese piece has nothing to hop over: no move; a lone marine or
/// Chinese piece moves as its rider.
#[test]
fn hoppers_need_a_hurdle() {
    for letters in ["KA", "LI", "EA", "G2", "KH", "NH"] {
        let kind = walk::kind_of_letters(letters).unwrap();
        let mut pos = Position::empty();
        pos.setup_put(Square::from_coords(3, 3), Unit::new(Colour::White, kind));
        assert!(engine_moves(pos, (3, 3)).is_empty(), "{letters}");
    }
    for (letters, n) in [("PA", 14), ("VA", 13), ("LE", 27), ("SI", 27), ("TR", 14), ("ND", 13)] {
        let kind = walk::kind_of_letters(letters).unwrap();
        let mut pos = Position::empty();
        pos.setup_put(Square::from_coords(3, 3), Unit::new(Colour::White, kind));
        assert_eq!(engine_moves(pos, (3, 3)).len(), n, "{letters}");
    }
}

/// No walk ends on its own square: a neutral hamster next to its hurdle, which turns back
/// onto the square it left, has no move there (it would take itself). Found by the check
/// paths' random test: Circe Rex Inclusiv's shortcut took that move for a capture of the
/// royal hamster.
#[test]
fn a_neutral_hamster_next_to_its_hurdle_does_not_take_itself() {
    let kind = walk::kind_of_letters("HA").unwrap();
    let mut pos = Position::empty();
    pos.setup_put(Square::from_coords(5, 4), Unit::new(Colour::Shared, kind));
    pos.setup_put(Square::from_coords(4, 3), Unit::new(Colour::Black, walk::ROOK));
    pos.setup_put(Square::from_coords(0, 0), Unit::new(Colour::Black, walk::ROOK));
    for side in [Colour::White, Colour::Black] {
        let g = Game::new(RuleSet::build(vec![], &[]).unwrap(), pos.clone());
        let mut v: Vec<Move> = Vec::new();
        g.pseudo_moves(side, &mut v);
        assert!(!v.iter().any(|m| m.from == m.to), "{side:?}: {v:?}");
    }
}
