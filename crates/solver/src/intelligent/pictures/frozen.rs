//! The journeys of the stalemated side while the stalemating side stands still: when the
//! stalemating side has one move left and it is the last move of the play (`ser-h=n`,
//! and `h=2` from the stalemated side's move), none of its units moves before the
//! stalemated side's last move, so its units are obstacles for every journey of the
//! stalemated side.
//!
//! **The bound.** Take a completion of a stalemate picture (see the parent module) and
//! its *survivors*: the stalemating king, and every stalemating unit the completion
//! commits to a final square (a guard, a holder). A survivor is never captured (it ends
//! on the board) and does not move before the stalemated side's last move, so during
//! all of the stalemated side's moves it stands on its square: no unit of the stalemated
//! side lands on it or crosses it, as on a hole. The other stalemating units stand on
//! their squares too until captured, and no other stalemating unit appears anywhere
//! (nothing of that side moves), so a pawn of the stalemated side captures only on the
//! squares where such a unit stands now; each may be captured and then the square
//! freed, so they are taken as empty squares otherwise. The stalemated king never
//! steps onto a square a surviving leaper (king, knight, pawn) attacks: the leaper's
//! attack cannot be blocked and its unit neither moves nor disappears. Every real move
//! of a stalemated unit is then a move of [`journeys`]' board, so its distances there
//! are lower bounds; each move moves one unit (castling moves the rook for free, as in
//! [`Tables::reach`]), so the sum over the stalemated units of their distances to their
//! committed ends is at most the side's moves, and a completion over it fits no
//! stalemate ([`Enumeration::frozen_fit`]).

use super::super::tables::{KINDS, KNIGHT_STEPS, leap, on_board, steps};
use super::*;

/// The distances of one stalemated unit on the board of the survivors (see the module
/// doc): `d[kind * 64 + to]`, the moves to stand on `to` as the kind of index `kind`.
pub(super) type Journeys = Vec<u8>;

/// The distances of a unit of colour index `c` and kind `k` on `from` to every square
/// and kind, moving on the board where `walls` (holes and survivors) are neither
/// landed on nor crossed, a pawn captures only onto `prey`, and a king never steps onto
/// `forbid`. Breadth-first over (square, kind).
pub(super) fn journeys(c: usize, k: usize, from: usize, walls: u64, prey: u64, forbid: u64) -> Journeys {
    let mut d = vec![INF; KINDS * 64];
    let mut queue: Vec<(usize, usize)> = Vec::with_capacity(64);
    d[k * 64 + from] = 0;
    queue.push((k, from));
    // The rook of a castling corner stands on its castling square with the king's move.
    if k == ROOK.index() {
        let home = if c == 0 { 0 } else { 56 };
        let seed = match from.checked_sub(home) {
            Some(0) => Some(home + 3),
            Some(7) => Some(home + 5),
            _ => None,
        };
        if let Some(s) = seed.filter(|&s| walls >> s & 1 == 0) {
            d[k * 64 + s] = 0;
            queue.push((k, s));
        }
    }
    let fwd: i32 = if c == 0 { 1 } else { -1 };
    let rel = |sq: usize| if c == 0 { sq / 8 } else { 7 - sq / 8 };
    let mut head = 0;
    while head < queue.len() {
        let (kk, x) = queue[head];
        head += 1;
        let n = d[kk * 64 + x] + 1;
        let mut push = |k2: usize, y: usize, queue: &mut Vec<(usize, usize)>| {
            if d[k2 * 64 + y] == INF {
                d[k2 * 64 + y] = n;
                queue.push((k2, y));
            }
        };
        if kk == PAWN.index() {
            let (f, r) = ((x % 8) as i32, (x / 8) as i32);
            // (square, a capture)
            let mut to = [(None, false); 4];
            to[0] = (on_board(f, r + fwd), false);
            to[1] = (on_board(f + 1, r + fwd), true);
            to[2] = (on_board(f - 1, r + fwd), true);
            if rel(x) == 1 && to[0].0.is_some_and(|y| walls >> y & 1 == 0) {
                to[3] = (on_board(f, r + 2 * fwd), false);
            }
            for (y, capture) in to {
                let Some(y) = y else { continue };
                if walls >> y & 1 == 1 || (capture && prey >> y & 1 == 0) {
                    continue;
                }
                if rel(y) == 7 {
                    for k2 in [KNIGHT, BISHOP, ROOK, QUEEN] {
                        push(k2.index(), y, &mut queue);
                    }
                } else {
                    push(kk, y, &mut queue);
                }
            }
        } else if kk == DUMMY_T {
            // Never moves.
        } else {
            let mut to = steps(kk, x, walls);
            if kk == KING.index() {
                to &= !forbid;
                // Castling: the king's first move, two squares along its rank.
                if n == 1 && (x == 4 || x == 60) {
                    to |= (1 << (x + 2) | 1 << (x - 2)) & !walls & !forbid;
                }
            }
            while to != 0 {
                let y = to.trailing_zeros() as usize;
                to &= to - 1;
                push(kk, y, &mut queue);
            }
        }
    }
    d
}

/// The squares a leaper (king, knight, pawn) of colour index `c` and kind `k` on `sq`
/// attacks (none for the other kinds).
fn leaper_attacks(c: usize, k: usize, sq: usize) -> u64 {
    let fwd = if c == 0 { 1 } else { -1 };
    if k == KING.index() {
        leap(sq, &super::super::tables::KING_STEPS)
    } else if k == KNIGHT.index() {
        leap(sq, &KNIGHT_STEPS)
    } else if k == PAWN.index() {
        leap(sq, &[(1, fwd), (-1, fwd)])
    } else {
        0
    }
}

impl Enumeration<'_> {
    /// Whether the completion now chosen, with the holders of `way`, passes the bound of
    /// the module doc: the stalemated units' distances on the board of its survivors add
    /// up to at most the stalemated side's moves. Only when [`Fixed::frozen`]; the
    /// distances are kept per unit and set of survivors ([`Commitment::journeys`]).
    pub(super) fn frozen_fit(&mut self, way: &[(u64, u8); 16]) -> bool {
        if !self.fixed.frozen {
            return true;
        }
        let maters = self.fixed.maters;
        let mut survivors = 0u32;
        for (w, &(sq, k)) in maters.iter().enumerate() {
            let committed = self.pic.chosen.iter().any(|u| u.mater && u.square() == sq && u.to().is_some());
            if k == KING.index() || committed || (w < 16 && way[w].0 != 0) {
                survivors |= 1 << w;
            }
        }
        let (mut walls, mut prey, mut forbid) = (self.fixed.holes, 0u64, 0u64);
        for (w, &(sq, k)) in maters.iter().enumerate() {
            if survivors >> w & 1 == 1 {
                walls |= 1 << sq;
                forbid |= leaper_attacks(self.fixed.mc, k, sq);
            } else {
                prey |= 1 << sq;
            }
        }
        let dc = self.fixed.dc;
        let mut total = 0u32;
        for i in 0..self.pic.chosen.len() {
            let u = self.pic.chosen[i];
            if u.mater || u.end == End::Captured {
                continue;
            }
            let from = u.square();
            let (unit, k) = match self.fixed.blockers.iter().position(|b| b.0 == from) {
                Some(b) => (b + 1, self.fixed.blockers[b].1),
                None => (0, KING.index()),
            };
            let key = (survivors, unit as u8);
            let d = self
                .commit
                .journeys
                .entry(key)
                .or_insert_with(|| journeys(dc, k, from, walls, prey, forbid));
            let cost = match u.end {
                End::As { kind, to } => d[kind as usize * 64 + to as usize],
                End::Block { to } if k == PAWN.index() => {
                    (0..KING.index()).map(|k2| d[k2 * 64 + to as usize]).min().unwrap_or(INF)
                }
                End::Block { to } => d[k * 64 + to as usize],
                End::Captured | End::Completed => 0,
            };
            total += u32::from(cost);
            if total > u32::from(self.fixed.bmoves) {
                return false;
            }
        }
        true
    }
}
