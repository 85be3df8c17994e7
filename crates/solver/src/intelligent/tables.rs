//! Distances and attacks on an empty board for the orthodox units, the lower bounds and
//! supersets every step of the intelligent mode prices journeys and guards with: every real
//! move is a move on the empty board (captures, promotions and castling counted as
//! possible), and every real attack one there. Under `Condition Hole` the board is empty
//! but for its holes ([`tables_for`]): no unit lands on a hole and no line crosses one,
//! so the paths go around them (a rook walled off by a file of holes needs more than two
//! moves) and every real move and attack is still one there.

use chimere_core::{Colour, Kind};
use chimere_fairy::walk::{BISHOP, DUMMY, KING, KNIGHT, PAWN, QUEEN, ROOK};
use std::sync::{Arc, Mutex, OnceLock};

/// "Unreachable" distance.
pub(super) const INF: u8 = 99;

/// No bound at all when the mating side has more moves left than this (everything is
/// reachable then, and the bound would only cost time).
pub(super) const BOUND_UP_TO: u32 = 4;

/// One way a unit of the mating side may end: the squares it attacks there, at a cost.
#[derive(Clone, Copy)]
pub(super) struct Opt {
    pub(super) att: u64,
    pub(super) cost: u8,
}

/// Kinds as table indices: the orthodox kinds are 0..=5 (P S B R Q K), the dummy 6.
pub(super) const KINDS: usize = 7;

/// The dummy's table index: a unit that never moves and attacks nothing (no square
/// reached but its own, no attack), which still blocks, occupies and can be captured.
pub(super) const DUMMY_T: usize = 6;

/// The table index of a kind the intelligent mode knows (the orthodox ones and the
/// dummy), `None` for any other.
pub(super) fn table_kind(k: Kind) -> Option<usize> {
    if k.index() <= KING.index() {
        Some(k.index())
    } else if k == DUMMY {
        Some(DUMMY_T)
    } else {
        None
    }
}

pub(super) struct Tables {
    /// `att[colour][kind][sq]`: squares attacked on an empty board.
    att: Vec<u64>,
    /// `dist[kind][from][to]`: moves on an empty board (pieces; the king with castling).
    dist: Vec<u8>,
    /// `pawn[colour][from][kind][to]`: moves of a pawn to stand on `to` as `kind` (pawn or
    /// promoted piece), captures counted as possible.
    pawn: Vec<u8>,
    /// `options[colour][kind][sq]`: where the unit may end within [`BOUND_UP_TO`] moves,
    /// as (attacked squares, cost), by cost, where it stands first.
    options: Vec<Vec<Opt>>,
    /// `unions[colour][kind][sq][cost]`: the squares attacked by the options up to cost.
    unions: Vec<u64>,
    /// `block[colour][kind][sq][to]`: moves to stand on `to` (any kind).
    block: Vec<u8>,
}

pub(super) fn colour_index(c: Colour) -> usize {
    if c == Colour::White { 0 } else { 1 }
}

impl Tables {
    pub(super) fn att(&self, c: usize, k: usize, sq: usize) -> u64 {
        self.att[(c * KINDS + k) * 64 + sq]
    }
    pub(super) fn dist(&self, k: usize, from: usize, to: usize) -> u8 {
        self.dist[(k * 64 + from) * 64 + to]
    }
    pub(super) fn pawn(&self, c: usize, from: usize, k: usize, to: usize) -> u8 {
        self.pawn[((c * 64 + from) * KINDS + k) * 64 + to]
    }
    pub(super) fn options(&self, c: usize, k: usize, sq: usize) -> &[Opt] {
        &self.options[self.options_index(c, k, sq)]
    }
    /// Where [`Tables::options`] of a unit are kept ([`Tables::options_at`]).
    pub(super) fn options_index(&self, c: usize, k: usize, sq: usize) -> usize {
        (c * KINDS + k) * 64 + sq
    }
    pub(super) fn options_at(&self, i: usize) -> &[Opt] {
        &self.options[i]
    }
    pub(super) fn reach_union(&self, c: usize, k: usize, sq: usize, m: u32) -> u64 {
        self.unions[((c * KINDS + k) * 64 + sq) * (BOUND_UP_TO as usize + 1) + m as usize]
    }
    pub(super) fn block(&self, c: usize, k: usize, sq: usize) -> &[u8] {
        let i = ((c * KINDS + k) * 64 + sq) * 64;
        &self.block[i..i + 64]
    }
    /// Moves for a unit of colour `c`, kind `k` on `from` to stand on `to` as kind `k2`.
    pub(super) fn reach(&self, c: usize, k: usize, from: usize, k2: usize, to: usize) -> u8 {
        if k == PAWN.index() {
            return self.pawn(c, from, k2, to);
        }
        if k2 != k {
            return INF;
        }
        let d = self.dist(k, from, to);
        // A rook on its corner may reach its castling square with the king's move.
        if k == ROOK.index()
            && let Some(s) = castling_square(c, from)
        {
            return d.min(self.dist(k, s, to));
        }
        d
    }
}

pub(super) fn on_board(f: i32, r: i32) -> Option<usize> {
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as usize)
}

pub(super) const KNIGHT_STEPS: [(i32, i32); 8] =
    [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
pub(super) const KING_STEPS: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

pub(super) fn leap(sq: usize, steps: &[(i32, i32)]) -> u64 {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    steps.iter().filter_map(|&(df, dr)| on_board(f + df, r + dr)).fold(0, |bb, s| bb | 1 << s)
}

pub(super) fn cheb(a: usize, b: usize) -> u8 {
    let df = (a % 8).abs_diff(b % 8);
    let dr = (a / 8).abs_diff(b / 8);
    df.max(dr) as u8
}

/// The squares a unit of kind `k` (a piece: knight, bishop, rook, queen, king) reaches
/// from `sq` in one move on a board whose only obstacles are the `holes`: a leaper lands
/// on no hole, a rider stops before one (castling is not a move here).
pub(super) fn steps(k: usize, sq: usize, holes: u64) -> u64 {
    let diag = [(1, 1), (-1, 1), (-1, -1), (1, -1)];
    let orth = [(1, 0), (0, 1), (-1, 0), (0, -1)];
    let ride_to = |dirs: &[(i32, i32)]| {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut bb = 0u64;
        for &(df, dr) in dirs {
            let (mut x, mut y) = (f + df, r + dr);
            while let Some(s) = on_board(x, y) {
                if holes >> s & 1 == 1 {
                    break;
                }
                bb |= 1 << s;
                x += df;
                y += dr;
            }
        }
        bb
    };
    let (s, b, r, q) = (KNIGHT.index(), BISHOP.index(), ROOK.index(), QUEEN.index());
    let bb = match k {
        _ if k == s => leap(sq, &KNIGHT_STEPS),
        _ if k == b => ride_to(&diag),
        _ if k == r => ride_to(&orth),
        _ if k == q => ride_to(&diag) | ride_to(&orth),
        _ => leap(sq, &KING_STEPS),
    };
    bb & !holes
}

/// Moves of a unit of kind `k` from `from` to every square, breadth-first, on a board whose
/// only obstacles are the `holes` (a lower bound on the real moves: every real move is
/// one there); the king of a castling square may also castle with its first move.
fn distances(k: usize, from: usize, holes: u64) -> [u8; 64] {
    let mut d = [INF; 64];
    d[from] = 0;
    let mut frontier = 1u64 << from;
    let mut n = 0;
    while frontier != 0 {
        n += 1;
        let mut next = 0u64;
        let mut bb = frontier;
        while bb != 0 {
            let x = bb.trailing_zeros() as usize;
            bb &= bb - 1;
            let mut to = steps(k, x, holes);
            // Castling: the king's first move, two squares along its rank.
            if k == KING.index() && n == 1 && (from == 4 || from == 60) {
                to |= (1 << (from + 2) | 1 << (from - 2)) & !holes;
            }
            next |= to;
        }
        next &= !seen(&d);
        let mut bb = next;
        while bb != 0 {
            d[bb.trailing_zeros() as usize] = n;
            bb &= bb - 1;
        }
        frontier = next;
    }
    d
}

/// The squares with a finite distance in `d`.
fn seen(d: &[u8; 64]) -> u64 {
    d.iter().enumerate().filter(|&(_, &v)| v != INF).fold(0, |a, (i, _)| a | 1 << i)
}

/// The tables on a board whose only obstacles are the `holes` (`Condition Hole`: no unit
/// lands on a hole, no rider crosses one; castling counted as possible as on the empty
/// board). Distances there are lower bounds on the real ones as on the empty board, and
/// larger than the empty board's around the holes; the attacks are those of this board
/// (a rider's stop at a hole, no hole attacked), supersets of the real ones as on the
/// empty board (a hole stops every line and holds no unit).
pub(super) fn build(holes: u64) -> Tables {
    let (p, s, b, r, q, k) = (PAWN.index(), KNIGHT.index(), BISHOP.index(), ROOK.index(), QUEEN.index(), KING.index());
    let mut att = vec![0u64; 2 * KINDS * 64];
    for c in 0..2 {
        for sq in 0..64 {
            let fwd = if c == 0 { 1 } else { -1 };
            // (A piece attacks what it could move to: its attacks on this board.)
            let set = |kind: usize, bb: u64, att: &mut Vec<u64>| att[(c * KINDS + kind) * 64 + sq] = bb;
            set(p, leap(sq, &[(1, fwd), (-1, fwd)]) & !holes, &mut att);
            for kind in [s, b, r, q, k] {
                set(kind, steps(kind, sq, holes), &mut att);
            }
        }
    }
    let mut dist = vec![INF; KINDS * 64 * 64];
    for from in 0..64 {
        for kind in [s, b, r, q, k] {
            let d = distances(kind, from, holes);
            dist[(kind * 64 + from) * 64..(kind * 64 + from + 1) * 64].copy_from_slice(&d);
        }
        // The dummy stays where it is.
        dist[(DUMMY_T * 64 + from) * 64 + from] = 0;
    }
    let mut pawn = vec![INF; 2 * 64 * KINDS * 64];
    for c in 0..2 {
        let fwd: i32 = if c == 0 { 1 } else { -1 };
        let rel = |sq: usize| if c == 0 { sq / 8 } else { 7 - sq / 8 };
        for from in 0..64 {
            if rel(from) == 7 {
                continue;
            }
            // Pawn squares by breadth-first search; promotion squares by arrival cost.
            let mut d = [INF; 64];
            d[from] = 0;
            let mut frontier = vec![from];
            let mut n = 0;
            while !frontier.is_empty() {
                n += 1;
                let mut next = Vec::new();
                for &x in &frontier {
                    if rel(x) == 7 {
                        continue;
                    }
                    let (f, r) = ((x % 8) as i32, (x / 8) as i32);
                    let mut steps = vec![(0, fwd), (1, fwd), (-1, fwd)];
                    if rel(x) <= 1 {
                        steps.push((0, 2 * fwd));
                    }
                    for (df, dr) in steps {
                        // No landing on a hole, no double step over one.
                        if let Some(y) = on_board(f + df, r + dr)
                            && d[y] == INF
                            && holes >> y & 1 == 0
                            && (dr.abs() == 1 || holes >> (x as i32 + 8 * fwd) & 1 == 0)
                        {
                            d[y] = n;
                            next.push(y);
                        }
                    }
                }
                frontier = next;
            }
            let base = (c * 64 + from) * KINDS;
            for to in 0..64 {
                if rel(to) != 7 {
                    pawn[(base + p) * 64 + to] = d[to];
                }
            }
            for kind in [s, b, r, q] {
                for to in 0..64 {
                    let mut best = INF;
                    for prom in 0..64 {
                        if rel(prom) == 7 && d[prom] != INF {
                            let v = d[prom].saturating_add(dist[(kind * 64 + prom) * 64 + to]);
                            best = best.min(v);
                        }
                    }
                    pawn[(base + kind) * 64 + to] = best;
                }
            }
        }
    }
    let mut t = Tables { att, dist, pawn, options: Vec::new(), unions: Vec::new(), block: Vec::new() };
    let levels = BOUND_UP_TO as usize + 1;
    t.options = vec![Vec::new(); 2 * KINDS * 64];
    t.unions = vec![0; 2 * KINDS * 64 * levels];
    t.block = vec![INF; 2 * KINDS * 64 * 64];
    for c in 0..2 {
        for k in 0..KINDS {
            let kinds: &[usize] = if k == p { &[0, 1, 2, 3, 4] } else { std::slice::from_ref(&k) };
            for sq in 0..64 {
                let i = (c * KINDS + k) * 64 + sq;
                let mut opts = vec![Opt { att: t.att(c, k, sq), cost: 0 }];
                for cost in 0..levels as u8 {
                    for &k2 in kinds {
                        for to in 0..64 {
                            if (to != sq || k2 != k) && t.reach(c, k, sq, k2, to) == cost {
                                opts.push(Opt { att: t.att(c, k2, to), cost });
                            }
                        }
                    }
                }
                for (level, slot) in t.unions[i * levels..(i + 1) * levels].iter_mut().enumerate() {
                    *slot = opts.iter().filter(|o| o.cost as usize <= level).fold(0, |a, o| a | o.att);
                }
                t.options[i] = opts;
                for to in 0..64 {
                    let d = kinds.iter().map(|&k2| t.reach(c, k, sq, k2, to)).min().unwrap_or(INF);
                    t.block[i * 64 + to] = d;
                }
            }
        }
    }
    t
}

/// The tables of the empty board.
pub(super) fn tables() -> &'static Tables {
    empty()
}

fn empty() -> &'static Arc<Tables> {
    static T: OnceLock<Arc<Tables>> = OnceLock::new();
    T.get_or_init(|| Arc::new(build(0)))
}

/// The tables of a board with these `holes` ([`build`]; the empty board's without), kept
/// for the last few hole sets asked.
pub(super) fn tables_for(holes: u64) -> Arc<Tables> {
    if holes == 0 {
        return empty().clone();
    }
    static KEPT: Mutex<Vec<(u64, Arc<Tables>)>> = Mutex::new(Vec::new());
    if let Some(t) = KEPT.lock().ok().and_then(|k| k.iter().find(|(h, _)| *h == holes).map(|(_, t)| t.clone())) {
        return t;
    }
    let t = Arc::new(build(holes));
    if let Ok(mut kept) = KEPT.lock() {
        if kept.len() >= KEPT_TABLES {
            kept.remove(0);
        }
        kept.push((holes, t.clone()));
    }
    t
}

/// How many hole sets [`tables_for`] keeps the tables of.
const KEPT_TABLES: usize = 4;

/// The square a rook of colour index `c` on its castling corner `from` stands on after
/// castling (the king's move carries it there), or `None` off the corners.
pub(super) fn castling_square(c: usize, from: usize) -> Option<usize> {
    let home = if c == 0 { 0 } else { 56 };
    match from.checked_sub(home) {
        Some(0) => Some(home + 3),
        Some(7) => Some(home + 5),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_board_distances() {
        let t = tables();
        let sq = |s: &str| chimere_core::Square::parse(s).expect("square").index();
        assert_eq!(t.dist(KNIGHT.index(), sq("a1"), sq("h8")), 6);
        assert_eq!(t.dist(BISHOP.index(), sq("a1"), sq("a2")), INF);
        assert_eq!(t.dist(KING.index(), sq("e1"), sq("h1")), 2);
        // A white pawn on b7 stands on a8 as a knight after one move (capture-promotion).
        assert_eq!(t.pawn(0, sq("b7"), KNIGHT.index(), sq("a8")), 1);
        assert_eq!(t.pawn(0, sq("b7"), KNIGHT.index(), sq("b6")), 2);
        assert_eq!(t.pawn(1, sq("e7"), PAWN.index(), sq("e5")), 1);
        assert_eq!(t.pawn(0, sq("e7"), PAWN.index(), sq("e5")), INF);
        // The rook of a castling corner stands on its castling square at no cost.
        assert_eq!(t.reach(0, ROOK.index(), sq("h1"), ROOK.index(), sq("f1")), 0);
    }

    /// Around holes (`Condition Hole`): no landing on a hole, no ride or double step over
    /// one, no attack through one; the distances still the shortest paths left.
    #[test]
    fn distances_around_holes() {
        let sq = |s: &str| chimere_core::Square::parse(s).expect("square").index();
        let holes = [sq("a4"), sq("b4"), sq("e3")].iter().fold(0u64, |h, &s| h | 1 << s);
        let t = tables_for(holes);
        assert_eq!(t.dist(ROOK.index(), sq("a1"), sq("a8")), 3);
        assert_eq!(t.dist(ROOK.index(), sq("a1"), sq("a4")), INF);
        assert_eq!(t.dist(QUEEN.index(), sq("a1"), sq("a8")), 2);
        assert_eq!(t.dist(KING.index(), sq("a3"), sq("a5")), 4);
        assert_eq!(t.dist(KNIGHT.index(), sq("c2"), sq("a4")), INF);
        // The white pawn on e2 can no longer double-step (e3 is a hole) nor reach e4.
        assert_eq!(t.pawn(0, sq("e2"), PAWN.index(), sq("e4")), 2);
        assert_eq!(t.pawn(0, sq("e2"), PAWN.index(), sq("e3")), INF);
        assert_eq!(t.att(0, ROOK.index(), sq("a1")) >> sq("a5") & 1, 0);
        assert_eq!(t.att(0, ROOK.index(), sq("a1")) >> sq("a3") & 1, 1);
        // Without holes, the empty board's.
        let e = tables();
        assert_eq!(e.dist(ROOK.index(), sq("a1"), sq("a8")), 1);
        assert_eq!(e.dist(KING.index(), sq("e1"), sq("g1")), 1);
        assert_eq!(e.dist(BISHOP.index(), sq("a1"), sq("g1")), 2);
    }
}
