//! A slow, independent reference generator written square by square (every piece asks
//! "could I act after this part 1?"), compared with the engine's bitboard generator on
//! positions from random games. Castling turns are taken from the engine (the oracle and
//! the unit tests check them).

use chimere_core::{Colour, GameOptions, Square, Variant, rng::SplitMix64};
use chimere_dynamo::{CASTLE, Dynamo};
use std::collections::BTreeSet;

const P: u8 = 0;
const N: u8 = 1;
const B: u8 = 2;
const R: u8 = 3;
const Q: u8 = 4;
const K: u8 = 5;
const LETTERS: &[u8] = b"pnbrqk";

type Grid = [[Option<(Colour, u8)>; 8]; 8]; // [file][rank]
/// Tokens of a turn: (file, rank, piece).
type Toks = Vec<(i8, i8, Pc)>;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Pc {
    c: Colour,
    k: u8,
}

/// A part: piece `p` from `from` to `to` (None = off the board), arriving as `arrive`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Part {
    from: (i8, i8),
    to: Option<(i8, i8)>,
    p: Pc,
    arrive: Pc,
}

fn on(f: i8, r: i8) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

struct Ref {
    g: Grid,
    side: Colour,
    last: Option<(Toks, Toks)>,
}

fn name(f: i8, r: i8) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

fn tok(sign: char, f: i8, r: i8, p: Pc) -> String {
    format!("{sign}{}:{}{}", name(f, r), if p.c == Colour::White { 'w' } else { 'b' }, LETTERS[p.k as usize] as char)
}

fn part_str(pt: &Part) -> String {
    let mut s = tok('-', pt.from.0, pt.from.1, pt.p);
    if let Some((f, r)) = pt.to {
        s.push(' ');
        s.push_str(&tok('+', f, r, pt.arrive));
    }
    s
}

/// vchess's normalised direction, or None when it is not a whole step.
fn norm(dx: i8, dy: i8) -> Option<(i8, i8)> {
    let (ax, ay) = (dx.abs(), dy.abs());
    let div = if ax != 0 && ay != 0 && ax != ay { ax.min(ay) } else { ax.max(ay) };
    if div == 0 || dx % div != 0 || dy % div != 0 {
        return None;
    }
    Some((dx / div, dy / div))
}

impl Ref {
    fn from(pos: &Dynamo) -> Ref {
        let mut g: Grid = [[None; 8]; 8];
        for sq in Square::ALL {
            if let Some(p) = pos.board().get(sq) {
                g[sq.file() as usize][sq.rank() as usize] = Some((p.colour, p.kind.0));
            }
        }
        let fen = pos.fen();
        let lastf = fen.split(' ').nth(4).unwrap().to_string();
        let parse = |s: &str| -> Vec<(i8, i8, Pc)> {
            if s == "-" {
                return vec![];
            }
            s.split('.')
                .map(|t| {
                    let b = t.as_bytes();
                    let c = if b[0] == b'w' { Colour::White } else { Colour::Black };
                    let k = LETTERS.iter().position(|&x| x == b[1]).unwrap() as u8;
                    ((b[2] - b'a') as i8, (b[3] - b'1') as i8, Pc { c, k })
                })
                .collect()
        };
        let last = if lastf == "-" {
            None
        } else {
            let (a, v) = lastf.split_once('/').unwrap();
            Some((parse(a), parse(v)))
        };
        Ref { g, side: pos.side(), last }
    }

    fn at(&self, f: i8, r: i8) -> Option<Pc> {
        if !on(f, r) {
            return None;
        }
        self.g[f as usize][r as usize].map(|(c, k)| Pc { c, k })
    }
    fn empty(&self, f: i8, r: i8) -> bool {
        on(f, r) && self.g[f as usize][r as usize].is_none()
    }
    fn set(&mut self, f: i8, r: i8, p: Option<Pc>) {
        self.g[f as usize][r as usize] = p.map(|p| (p.c, p.k));
    }
    fn apply(&mut self, pt: &Part) {
        self.set(pt.from.0, pt.from.1, None);
        if let Some((f, r)) = pt.to {
            self.set(f, r, Some(pt.arrive));
        }
    }
    fn revert(&mut self, pt: &Part) {
        if let Some((f, r)) = pt.to {
            self.set(f, r, None);
        }
        self.set(pt.from.0, pt.from.1, Some(pt.p));
    }
    fn last_rank(c: Colour) -> i8 {
        if c == Colour::White { 7 } else { 0 }
    }
    fn fwd(c: Colour) -> i8 {
        if c == Colour::White { 1 } else { -1 }
    }

    /// vchess getMovesInDirection: slide through empty squares, promoting pawns, exiting
    /// (not kings) when the board ends.
    fn in_direction(&self, f: i8, r: i8, (dx, dy): (i8, i8), steps: u32, out: &mut Vec<Part>) {
        let p = self.at(f, r).unwrap();
        let (mut i, mut j) = (f + dx, r + dy);
        let mut count = 1;
        while self.empty(i, j) {
            if p.k == P && j == Self::last_rank(p.c) {
                for k in [N, B, R, Q] {
                    out.push(Part { from: (f, r), to: Some((i, j)), p, arrive: Pc { c: p.c, k } });
                }
            } else {
                out.push(Part { from: (f, r), to: Some((i, j)), p, arrive: p });
            }
            count += 1;
            if count > steps {
                break;
            }
            i += dx;
            j += dy;
        }
        if !on(i, j) && p.k != K {
            out.push(Part { from: (f, r), to: None, p, arrive: p });
        }
    }

    fn part1(&self) -> BTreeSet<Part> {
        let c = self.side;
        let mut out = Vec::new();
        let kings = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
        let knights = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
        for f in 0..8 {
            for r in 0..8 {
                let Some(p) = self.at(f, r) else { continue };
                if p.c != c {
                    continue;
                }
                // Normal moves.
                match p.k {
                    P => {
                        let fw = Self::fwd(c);
                        let rel = if c == Colour::White { r } else { 7 - r };
                        let mut v = Vec::new();
                        if self.empty(f, r + fw) {
                            v.push((f, r + fw));
                            if rel <= 1 && self.empty(f, r + 2 * fw) {
                                v.push((f, r + 2 * fw));
                            }
                        }
                        for (i, j) in v {
                            if j == Self::last_rank(c) {
                                for k in [N, B, R, Q] {
                                    out.push(Part { from: (f, r), to: Some((i, j)), p, arrive: Pc { c, k } });
                                }
                            } else {
                                out.push(Part { from: (f, r), to: Some((i, j)), p, arrive: p });
                            }
                        }
                    }
                    N | K => {
                        let steps: &[(i8, i8)] = if p.k == N { &knights } else { &kings };
                        for &(dx, dy) in steps {
                            if self.empty(f + dx, r + dy) {
                                out.push(Part { from: (f, r), to: Some((f + dx, r + dy)), p, arrive: p });
                            } else if !on(f + dx, r + dy) && p.k == N {
                                out.push(Part { from: (f, r), to: None, p, arrive: p });
                            }
                        }
                    }
                    _ => {
                        for (i, &d) in kings.iter().enumerate() {
                            let orth = i % 2 == 0;
                            if (p.k == R && !orth) || (p.k == B && orth) {
                                continue;
                            }
                            self.in_direction(f, r, d, 8, &mut out);
                        }
                    }
                }
                // Pushes by this piece.
                match p.k {
                    N => {
                        for &(dx, dy) in &knights {
                            if self.at(f + dx, r + dy).is_some() {
                                self.in_direction(f + dx, r + dy, (dx, dy), 1, &mut out);
                            }
                        }
                    }
                    P => {
                        let fw = Self::fwd(c);
                        let start = if c == Colour::White { 1 } else { 6 };
                        if let Some(x) = self.at(f, r + fw)
                            && x.c == c
                        {
                            self.in_direction(f, r + fw, (0, fw), if r == start { 2 } else { 1 }, &mut out);
                        } else if self.empty(f, r + fw)
                            && let Some(x) = self.at(f, r + 2 * fw)
                            && x.c == c
                        {
                            self.in_direction(f, r + 2 * fw, (0, fw), 1, &mut out);
                        }
                        for dx in [-1, 1] {
                            if let Some(x) = self.at(f + dx, r + fw)
                                && x.c != c
                            {
                                self.in_direction(f + dx, r + fw, (dx, fw), 1, &mut out);
                            }
                        }
                    }
                    _ => {
                        for (i, &(dx, dy)) in kings.iter().enumerate() {
                            let orth = i % 2 == 0;
                            if (p.k == R && !orth) || (p.k == B && orth) {
                                continue;
                            }
                            let (mut a, mut b) = (f + dx, r + dy);
                            while self.empty(a, b) && p.k != K {
                                a += dx;
                                b += dy;
                            }
                            if self.at(a, b).is_some() {
                                self.in_direction(a, b, (dx, dy), if p.k == K { 1 } else { 8 }, &mut out);
                            }
                        }
                    }
                }
            }
        }
        out.into_iter().collect()
    }

    fn valid_exit(&self, (x1, y1): (i8, i8), (x2, y2): (i8, i8), c2: Colour, piece2: Option<u8>) -> bool {
        let c1 = self.at(x1, y1).unwrap().c;
        let (dx, dy) = ((x1 - x2).abs(), (y1 - y2).abs());
        let slider = || {
            let Some((a, b)) = norm(x2 - x1, y2 - y1) else { return false };
            let (mut i, mut j) = (x1 + a, y1 + b);
            while self.empty(i, j) {
                i += a;
                j += b;
            }
            !on(i, j)
        };
        match piece2.unwrap_or(self.at(x1, y1).unwrap().k) {
            P => {
                y1 + Self::fwd(c1) == y2
                    && ((c1 == c2 && y2 == Self::last_rank(c1) && x1 == x2)
                        || (c1 != c2 && dx == 1 && !on(2 * x2 - x1, 2 * y2 - y1)))
            }
            R => (dx == 0 || dy == 0) && slider(),
            N => dx + dy == 3 && (dx == 1 || dy == 1) && !on(2 * x2 - x1, 2 * y2 - y1),
            B => dx == dy && slider(),
            Q => (dx == 0 || dy == 0 || dx == dy) && slider(),
            _ => dx <= 1 && dy <= 1 && !on(2 * x2 - x1, 2 * y2 - y1),
        }
    }

    fn clear_to(&self, (x, y): (i8, i8), d: (i8, i8), s: (i8, i8)) -> bool {
        let (mut i, mut j) = (x + d.0, y + d.1);
        while (i, j) != s && self.empty(i, j) {
            i += d.0;
            j += d.1;
        }
        (i, j) == s
    }

    /// The part 2 moves of the piece on (x, y) after part 1 `fm` (vchess, square by square).
    fn part2_from(&self, fm: &Part, (x, y): (i8, i8), out: &mut Vec<Part>) {
        let c = self.side;
        let sq = self.at(x, y).unwrap();
        if fm.p.c == sq.c && sq.c != c {
            return;
        }
        let s = fm.from;
        let push_exit = |out: &mut Vec<Part>| {
            if self.valid_exit((x, y), s, fm.p.c, None) {
                let d = norm(s.0 - x, s.1 - y).unwrap();
                self.in_direction(x, y, d, if [P, K, N].contains(&sq.k) { 1 } else { 8 }, out);
            }
        };
        let pull_exit = |out: &mut Vec<Part>| {
            if fm.p.k != P && self.valid_exit((x, y), s, fm.p.c, Some(fm.p.k)) {
                let d = norm(s.0 - x, s.1 - y).unwrap();
                self.in_direction(x, y, d, if fm.p.k == N { 1 } else { 8 }, out);
            }
        };
        let push_moves = |out: &mut Vec<Part>| {
            let e = fm.to.unwrap();
            let (Some(dm), Some(d)) = (norm(e.0 - s.0, e.1 - s.1), norm(s.0 - x, s.1 - y)) else { return };
            if dm != d {
                return;
            }
            // vchess coordinates: row = 7 - rank, so shifts change sign.
            let (ddx, ddy) = ((s.1 - y).abs(), (s.0 - x).abs()); // deltaX = rows, deltaY = files
            let fw = Self::fwd(c);
            let start = if c == Colour::White { 1 } else { 6 };
            let own = fm.p.c == c;
            let (er, ef) = (e.1 - s.1, e.0 - s.0);
            let ok = match sq.k {
                P => {
                    if y == start {
                        !((s.1 - y) * fw < 0
                            || ddx >= 3
                            || ddy >= 2
                            || (own && ddy > 0)
                            || (!own && ddy == 0)
                            || er.abs() > ddx
                            || ef != s.0 - x)
                    } else {
                        !(s.1 - y != fw
                            || ddy >= 2
                            || (own && ddy == 1)
                            || (!own && ddy == 0)
                            || er != fw
                            || ef != s.0 - x)
                    }
                }
                N => !((ddx + ddy != 3 || (ddx == 0 && ddy == 0)) || er != s.1 - y || ef != s.0 - x),
                K => !((ddx >= 2 || ddy >= 2) || er != s.1 - y || ef != s.0 - x),
                B => ddx == ddy,
                R => ddx == 0 || ddy == 0,
                _ => ddx == ddy || ddx == 0 || ddy == 0,
            };
            if ok && self.clear_to((x, y), d, s) {
                self.in_direction(x, y, d, 8, out);
            }
        };
        let pull_moves = |out: &mut Vec<Part>| {
            if fm.p.k == P {
                return;
            }
            let e = fm.to.unwrap();
            let (Some(dm), Some(d)) = (norm(e.0 - s.0, e.1 - s.1), norm(s.0 - x, s.1 - y)) else { return };
            if dm != d {
                return;
            }
            let (dx, dy) = ((x - s.0).abs(), (y - s.1).abs());
            if (fm.p.k == K && (dx > 1 || dy > 1)) || (fm.p.k == N && (dx + dy != 3 || dx == 0 || dy == 0)) {
                return;
            }
            if self.clear_to((x, y), d, s) {
                self.in_direction(x, y, d, 8, out);
            }
        };
        let exit = fm.to.is_none();
        if fm.p.c != c {
            if exit { push_exit(out) } else { push_moves(out) }
        } else if sq.c != c {
            if exit { pull_exit(out) } else { pull_moves(out) }
        } else if exit {
            push_exit(out);
            pull_exit(out);
        } else {
            push_moves(out);
            pull_moves(out);
        }
    }

    fn in_check(&self) -> bool {
        // Delegate the check test to a Dynamo position built from the grid.
        let mut rows = Vec::new();
        for r in (0..8).rev() {
            let mut s = String::new();
            let mut run = 0;
            for f in 0..8 {
                match self.at(f, r) {
                    None => run += 1,
                    Some(p) => {
                        if run > 0 {
                            s.push_str(&run.to_string());
                            run = 0;
                        }
                        let l = LETTERS[p.k as usize] as char;
                        s.push(if p.c == Colour::White { l.to_ascii_uppercase() } else { l });
                    }
                }
            }
            if run > 0 {
                s.push_str(&run.to_string());
            }
            rows.push(s);
        }
        let fen = format!("{} {} 0 iiii -", rows.join("/"), if self.side == Colour::White { 'w' } else { 'b' });
        Dynamo::from_fen(&fen).unwrap().in_check(self.side)
    }

    fn undoes(&self, v: &[(i8, i8, Pc)], a: &[(i8, i8, Pc)]) -> bool {
        let Some((la, lv)) = &self.last else { return false };
        let same = |x: &[(i8, i8, Pc)], y: &[(i8, i8, Pc)]| x.len() == y.len() && x.iter().all(|t| y.contains(t));
        same(la, v) && same(lv, a)
    }

    fn tokens(parts: &[&Part]) -> (Toks, Toks) {
        let v = parts.iter().map(|p| (p.from.0, p.from.1, p.p)).collect();
        let a = parts.iter().filter_map(|p| p.to.map(|t| (t.0, t.1, p.arrive))).collect();
        (v, a)
    }

    fn turns(&mut self) -> BTreeSet<String> {
        let mut res = BTreeSet::new();
        for p1 in self.part1() {
            self.apply(&p1);
            let check1 = self.in_check();
            let mut cands = Vec::new();
            for f in 0..8 {
                for r in 0..8 {
                    if self.at(f, r).is_some() {
                        self.part2_from(&p1, (f, r), &mut cands);
                    }
                }
            }
            let cands: BTreeSet<Part> = cands.into_iter().collect();
            let mut any_safe = false;
            for p2 in &cands {
                self.apply(p2);
                let safe = !self.in_check();
                self.revert(p2);
                if safe {
                    any_safe = true;
                    let (v, a) = Self::tokens(&[&p1, p2]);
                    if !self.undoes(&v, &a) {
                        res.insert(format!("{} ; {}", part_str(&p1), part_str(p2)));
                    }
                }
            }
            if !check1 {
                if !any_safe {
                    res.insert(part_str(&p1));
                } else {
                    let (v, a) = Self::tokens(&[&p1]);
                    if !self.undoes(&v, &a) {
                        res.insert(format!("{} ; PASS", part_str(&p1)));
                    }
                }
            }
            self.revert(&p1);
        }
        res
    }
}

fn compare(pos: &mut Dynamo) -> Result<usize, String> {
    let mut list = Vec::new();
    pos.legal_turns(&mut list);
    let mut ours: BTreeSet<String> = BTreeSet::new();
    let mut castles = BTreeSet::new();
    for m in &list {
        if m.kind == CASTLE {
            castles.insert(pos.canonical(m));
        } else {
            ours.insert(pos.canonical(m));
        }
    }
    if ours.len() + castles.len() != list.len() {
        return Err(format!("{}: the engine lists a turn twice", pos.fen()));
    }
    let theirs = Ref::from(pos).turns();
    if ours != theirs {
        let missing: Vec<_> = theirs.difference(&ours).take(6).collect();
        let extra: Vec<_> = ours.difference(&theirs).take(6).collect();
        return Err(format!("{}: engine lacks {missing:?}, has extra {extra:?}", pos.fen()));
    }
    Ok(ours.len() + castles.len())
}

#[test]
fn engine_agrees_with_the_square_by_square_reference() {
    let mut rng = SplitMix64::new(2024);
    let mut positions = 0;
    for game in 0..40u64 {
        let opts = GameOptions { randomness: (game % 3) as u8, seed: game, params: vec![], ..Default::default() };
        let mut pos = Dynamo::new_game(&opts).unwrap();
        for _ply in 0..60 {
            compare(&mut pos).unwrap_or_else(|e| panic!("{e}"));
            positions += 1;
            let mut list = Vec::new();
            pos.legal_turns(&mut list);
            if list.is_empty() {
                break;
            }
            let m = list[rng.below(list.len() as u64) as usize];
            pos.make(&m);
        }
    }
    assert!(positions > 500);
}

#[test]
fn engine_agrees_with_the_reference_on_oracle_positions() {
    let text = chimere_testkit::oracle_text("vchess/dynamo.jsonl");
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let mut pos = Dynamo::from_fen(v["fen"].as_str().unwrap()).unwrap();
        compare(&mut pos).unwrap_or_else(|e| panic!("{e}"));
    }
}
