//! A slow, direct reading of the spec (coordinates, no bitboards, post-move custodian
//! check, explicit chain search), compared with the engine on positions of random games:
//! same set of canonical turns, and the same FEN after each of them.

use chimere_core::Variant;
use chimere_core::rng::SplitMix64;
use chimere_interweave::Interweave;
use std::collections::{BTreeMap, BTreeSet};

type Sq = (i32, i32); // (file, rank)

#[derive(Clone)]
struct Ref {
    board: [[Option<(u8, char)>; 8]; 8], // [rank][file] = (colour 0 white / 1 black, kind letter)
    side: u8,
    turns: u32,
    ep: Option<(Sq, i32)>,
    counts: [u8; 6],
}

#[derive(Clone, Debug)]
struct Part {
    from: Sq,
    to: Sq,
    arrived: char,
    removed: Vec<Sq>,
    remover: bool,
    double: bool,
}

fn name(s: Sq) -> String {
    format!("{}{}", (b'a' + s.0 as u8) as char, s.1 + 1)
}

fn on(s: Sq) -> bool {
    (0..8).contains(&s.0) && (0..8).contains(&s.1)
}

const ORTH: [Sq; 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
const DIAG: [Sq; 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];
const KNIGHT: [Sq; 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

impl Ref {
    fn parse(fen: &str) -> Ref {
        let f: Vec<&str> = fen.split(' ').collect();
        let mut board = [[None; 8]; 8];
        for (i, row) in f[0].split('/').enumerate() {
            let rank = 7 - i;
            let mut file = 0;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as usize;
                } else {
                    board[rank][file] = Some((u8::from(c.is_ascii_lowercase()), c.to_ascii_lowercase()));
                    file += 1;
                }
            }
        }
        let ep = (f[3] != "-").then(|| {
            let b = f[3].as_bytes();
            (((b[0] - b'a') as i32, (b[1] - b'1') as i32), (b[3] - b'a') as i32)
        });
        let mut counts = [0; 6];
        for (i, c) in f[4].bytes().enumerate() {
            counts[i] = c - b'0';
        }
        Ref { board, side: u8::from(f[1] == "b"), turns: f[2].parse().unwrap(), ep, counts }
    }

    fn fen(&self) -> String {
        let mut s = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.board[rank][file] {
                    None => empty += 1,
                    Some((c, k)) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(if c == 0 { k.to_ascii_uppercase() } else { k });
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let ep = self.ep.map_or("-".to_string(), |(sq, f)| format!("{},{}", name(sq), (b'a' + f as u8) as char));
        let counts: String = self.counts.iter().map(|c| c.to_string()).collect();
        format!("{s} {} {} {ep} {counts}", if self.side == 0 { 'w' } else { 'b' }, self.turns)
    }

    fn at(&self, s: Sq) -> Option<(u8, char)> {
        if on(s) { self.board[s.1 as usize][s.0 as usize] } else { None }
    }
    fn set(&mut self, s: Sq, p: Option<(u8, char)>) {
        self.board[s.1 as usize][s.0 as usize] = p;
    }
    fn empty(&self, s: Sq) -> bool {
        on(s) && self.at(s).is_none()
    }
    fn enemy(&self, s: Sq) -> bool {
        self.at(s).is_some_and(|(c, _)| c != self.side)
    }
    fn friend(&self, s: Sq) -> bool {
        self.at(s).is_some_and(|(c, _)| c == self.side)
    }

    fn available(&self) -> Vec<char> {
        let base = self.side as usize * 3;
        ['r', 'n', 'b'].iter().enumerate().filter(|(i, _)| self.counts[base + i] > 0).map(|(_, &k)| k).collect()
    }

    /// Every part (quiet or capture) of the piece on `s`.
    fn parts_from(&self, s: Sq, first: bool) -> Vec<Part> {
        let (_, kind) = self.at(s).unwrap();
        let mut out = Vec::new();
        let simple =
            |to: Sq, removed: Vec<Sq>| Part { from: s, to, arrived: kind, removed, remover: false, double: false };
        let add = |a: Sq, b: Sq| (a.0 + b.0, a.1 + b.1);
        let diag_slides = |out: &mut Vec<Part>| {
            for d in DIAG {
                let mut t = add(s, d);
                while self.empty(t) {
                    out.push(simple(t, vec![]));
                    t = add(t, d);
                }
            }
        };
        match kind {
            'k' => {
                for d in DIAG {
                    if self.empty(add(s, d)) {
                        out.push(simple(add(s, d), vec![]));
                    }
                }
                for d in ORTH {
                    let m = add(s, d);
                    if self.enemy(m) && self.empty(add(m, d)) {
                        out.push(simple(add(m, d), vec![m]));
                    }
                }
            }
            'r' | 'n' => {
                diag_slides(&mut out);
                for d in ORTH {
                    let mut t = add(s, d);
                    let mut dist = 1;
                    while self.empty(t) {
                        if dist % 2 == 0 {
                            let beyond = add(t, d);
                            if kind == 'r' && self.enemy(beyond) {
                                out.push(simple(t, vec![beyond]));
                            } else {
                                out.push(simple(t, vec![]));
                            }
                        }
                        t = add(t, d);
                        dist += 1;
                    }
                    if kind == 'n' && self.enemy(t) && dist % 2 == 1 {
                        let victim = t;
                        let mut u = add(t, d);
                        let mut k = dist + 1;
                        while self.empty(u) {
                            if k % 2 == 0 {
                                out.push(simple(u, vec![victim]));
                            }
                            u = add(u, d);
                            k += 1;
                        }
                    }
                }
                if kind == 'n' {
                    for n in KNIGHT {
                        let m = add(s, n);
                        let t = add(m, n);
                        if self.empty(t) {
                            if self.empty(m) {
                                out.push(simple(t, vec![]));
                            } else if self.enemy(m) {
                                out.push(simple(t, vec![m]));
                            }
                        }
                    }
                }
            }
            'b' => {
                diag_slides(&mut out);
                let adj: Vec<Sq> = ORTH.iter().map(|&d| add(s, d)).filter(|&t| self.enemy(t)).collect();
                if !adj.is_empty() {
                    out.push(Part { from: s, to: s, arrived: 'b', removed: adj, remover: true, double: false });
                }
            }
            _ => {
                let fwd = if self.side == 0 { 1 } else { -1 };
                let rel = |r: i32| if self.side == 0 { r } else { 7 - r };
                let avail = self.available();
                if rel(s.1) == 6 && avail.is_empty() {
                    return out;
                }
                // (arrival, removed by the move itself, two-square step)
                let mut arrivals: Vec<(Sq, Vec<Sq>, bool)> = Vec::new();
                for df in [-1, 1] {
                    let t = (s.0 + df, s.1 + fwd);
                    if self.empty(t) {
                        arrivals.push((t, vec![], false));
                        let t2 = (s.0 + 2 * df, s.1 + 2 * fwd);
                        if rel(s.1) == 1 && self.empty(t2) {
                            arrivals.push((t2, vec![], true));
                        }
                    }
                }
                let m = (s.0, s.1 + fwd);
                let t = (s.0, s.1 + 2 * fwd);
                if self.enemy(m) && self.empty(t) {
                    arrivals.push((t, vec![m], false));
                }
                if let Some((skipped, file)) = self.ep.filter(|_| first) {
                    let victim = (file, s.1);
                    if skipped == m && self.empty(t) && self.at(victim) == Some((1 - self.side, 'p')) {
                        arrivals.push((t, vec![victim], false));
                    }
                }
                for (t, removed, double) in arrivals {
                    // Custodian captures, on the board after the move.
                    let mut after = self.clone();
                    after.set(s, None);
                    for &r in &removed {
                        after.set(r, None);
                    }
                    after.set(t, Some((self.side, 'p')));
                    let mut all = removed.clone();
                    for d in ORTH {
                        let n = add(t, d);
                        if after.enemy(n) && after.friend(add(n, d)) {
                            all.push(n);
                        }
                    }
                    let choices: Vec<char> = match rel(t.1) {
                        7 => avail.clone(),
                        6 => std::iter::once('p').chain(avail.iter().copied()).collect(),
                        _ => vec!['p'],
                    };
                    for k in choices {
                        let double = double && all.is_empty();
                        out.push(Part { from: s, to: t, arrived: k, removed: all.clone(), remover: false, double });
                    }
                }
            }
        }
        out
    }

    fn apply(&mut self, p: &Part) {
        let moved = self.at(p.from).unwrap();
        for &r in &p.removed {
            let (c, k) = self.at(r).unwrap();
            if let Some(i) = "rnb".find(k) {
                self.counts[c as usize * 3 + i] += 1;
            }
            self.set(r, None);
        }
        if !p.remover {
            self.set(p.from, None);
            if moved.1 == 'p' && p.arrived != 'p' {
                self.counts[self.side as usize * 3 + "rnb".find(p.arrived).unwrap()] -= 1;
            }
            self.set(p.to, Some((self.side, p.arrived)));
        }
    }

    fn canonical_part(&self, p: &Part) -> String {
        let colour = |c: u8| if c == 0 { 'w' } else { 'b' };
        let mut minus: Vec<String> = p
            .removed
            .iter()
            .map(|&r| {
                let (c, k) = self.at(r).unwrap();
                format!("-{}:{}{}", name(r), colour(c), k)
            })
            .collect();
        let mut plus = Vec::new();
        if !p.remover {
            let (c, k) = self.at(p.from).unwrap();
            minus.push(format!("-{}:{}{}", name(p.from), colour(c), k));
            plus.push(format!("+{}:{}{}", name(p.to), colour(c), p.arrived));
        }
        minus.sort();
        plus.sort();
        minus.extend(plus);
        minus.join(" ")
    }

    /// Every legal turn: canonical form and the FEN after it.
    fn turns(&self) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        let mine: Vec<Sq> = (0..8).flat_map(|r| (0..8).map(move |f| (f, r))).filter(|&s| self.friend(s)).collect();
        let all: Vec<Part> = mine.iter().flat_map(|&s| self.parts_from(s, true)).collect();
        let any_capture = all.iter().any(|p| !p.removed.is_empty());
        for p in all {
            if any_capture == p.removed.is_empty() {
                continue;
            }
            let mut b = self.clone();
            let text = b.canonical_part(&p);
            b.apply(&p);
            if any_capture {
                b.chain(&p, text, &mut out);
            } else {
                b.finish(p.double.then_some(&p), text, &mut out);
            }
        }
        out
    }

    fn chain(&self, last: &Part, text: String, out: &mut BTreeMap<String, String>) {
        let next: Vec<Part> = if last.remover {
            vec![]
        } else {
            self.parts_from(last.to, false).into_iter().filter(|p| !p.removed.is_empty()).collect()
        };
        if next.is_empty() {
            self.clone().finish(None, text.clone(), out);
        }
        for p in next {
            let mut b = self.clone();
            let t = format!("{text} ; {}", b.canonical_part(&p));
            b.apply(&p);
            b.chain(&p, t, out);
        }
    }

    fn finish(mut self, double: Option<&Part>, text: String, out: &mut BTreeMap<String, String>) {
        self.ep = double.map(|p| (((p.from.0 + p.to.0) / 2, (p.from.1 + p.to.1) / 2), p.to.0));
        self.side ^= 1;
        self.turns += 1;
        let fen = self.fen();
        assert!(out.insert(text.clone(), fen).is_none(), "reference produced {text} twice");
    }
}

#[derive(Default, Debug)]
struct Seen {
    chains: usize,
    promotions: usize,
    en_passant: usize,
    removers: usize,
}

fn compare(fen: &str, seen: &mut Seen) -> usize {
    let mut pos = Interweave::from_fen(fen).unwrap();
    let reference = Ref::parse(fen);
    assert_eq!(reference.fen(), fen, "reference FEN round trip");
    let theirs = reference.turns();
    let mut list = Vec::new();
    pos.legal_turns(&mut list);
    let mut ours = BTreeMap::new();
    for m in &list {
        let u = pos.make(m);
        let after = pos.fen();
        pos.unmake(m, u);
        ours.insert(pos.canonical(m), after);
    }
    assert_eq!(ours.len(), list.len(), "duplicate turns at {fen}");
    for t in ours.keys() {
        seen.chains += usize::from(t.contains(" ; "));
        seen.promotions += usize::from(promoted(t));
        seen.removers += usize::from(t.split(" ; ").any(|p| !p.contains('+')));
    }
    if fen.split(' ').nth(3) != Some("-") {
        // En passant: the first part removes the moving pawn and an enemy pawn on its rank.
        let side = if fen.split(' ').nth(1) == Some("w") { "w" } else { "b" };
        seen.en_passant += ours
            .keys()
            .filter(|t| {
                let first: Vec<&str> = t.split(" ; ").next().unwrap().split(' ').collect();
                let mover = first.iter().find(|x| x.starts_with('-') && x.ends_with(&format!("{side}p")));
                mover.is_some_and(|m| {
                    first.iter().any(|x| x.starts_with('-') && x.ends_with('p') && x != m && x[2..3] == m[2..3])
                })
            })
            .count();
    }
    if ours != theirs {
        let a: BTreeSet<_> = ours.iter().collect();
        let b: BTreeSet<_> = theirs.iter().collect();
        panic!(
            "{fen}\n engine only: {:?}\n reference only: {:?}",
            a.difference(&b).collect::<Vec<_>>(),
            b.difference(&a).collect::<Vec<_>>()
        );
    }
    list.len()
}

/// Whether some part of the turn turns a pawn into another piece.
fn promoted(turn: &str) -> bool {
    turn.split(" ; ").any(|p| {
        let toks: Vec<&str> = p.split(' ').collect();
        toks.iter().any(|m| {
            m.starts_with('-') && m.ends_with('p') && {
                let colour = &m[m.len() - 2..m.len() - 1];
                toks.iter().any(|a| a.starts_with('+') && a[a.len() - 2..].starts_with(colour) && !a.ends_with('p'))
            }
        })
    })
}

#[test]
fn engine_agrees_with_a_direct_reading_of_the_rules() {
    let starts = [
        "rbnkknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNKKNBR w 0 - 000000",
        "rb1kk1br/p1p1p2p/2p1n2p/1p3N2/P1P1p2P/P3P2P/P4B1P/RBNKK2R b 15 - 000010",
        "nrbk2k1/p1R3pp/2pp4/6pp/8/2P3P1/PP4PP/KNNB2BK b 13 - 100101",
        "k6k/8/1P4P1/8/8/8/8/K6K w 0 - 100000",
    ];
    let mut rng = SplitMix64::new(2002);
    let mut positions = 0;
    let mut seen = Seen::default();
    for game in 0..160 {
        let mut pos = Interweave::from_fen(starts[game % starts.len()]).unwrap();
        for _ in 0..150 {
            let fen = pos.fen();
            let n = compare(&fen, &mut seen);
            positions += 1;
            if n == 0 {
                break;
            }
            let mut list = Vec::new();
            pos.legal_turns(&mut list);
            let m = list[rng.below(list.len() as u64) as usize];
            pos.make(&m);
        }
    }
    assert!(positions > 1000);
    eprintln!("{positions} positions, {seen:?}");
    assert!(seen.chains > 0 && seen.promotions > 0 && seen.en_passant > 0 && seen.removers > 0, "{seen:?}");
}
