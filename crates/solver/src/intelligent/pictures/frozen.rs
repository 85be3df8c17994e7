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
//! squares where such a unit stands now (or en passant, on the position's en passant
//! squares); each may be captured and then the square freed, so they are taken as
//! empty squares otherwise. The stalemated king never
//! steps onto a square a surviving leaper (king, knight, pawn) attacks: the leaper's
//! attack cannot be blocked and its unit neither moves nor disappears. Every real move
//! of a stalemated unit is then a move of [`journeys`]' board, so its distances there
//! are lower bounds; each move moves one unit (castling moves the rook for free, as in
//! [`Tables::reach`]), so the sum over the stalemated units of their distances to their
//! committed ends is at most the side's moves, and a completion over it fits no
//! stalemate ([`Enumeration::frozen_fit`]).

use super::super::tables::{KINDS, KNIGHT_STEPS, castling_square, leap, on_board, steps};
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
    if k == ROOK.index()
        && let Some(s) = castling_square(c, from).filter(|&s| walls >> s & 1 == 0)
    {
        d[k * 64 + s] = 0;
        queue.push((k, s));
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
        let (mut walls, mut prey, mut forbid) = (self.fixed.holes, self.fixed.ep, 0u64);
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
            let d = self.commit.journeys.entry(key).or_insert_with(|| journeys(dc, k, from, walls, prey, forbid));
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

#[cfg(test)]
mod tests {
    use super::super::super::tests::{Rng, random_game, with_dummies, with_holes};
    use super::super::mate::enumerate;
    use super::*;

    fn sq(s: &str) -> usize {
        chimere_core::Square::parse(s).expect("square").index()
    }

    /// A black pawn on e2 between survivors on e1 and d1 is stuck (no forward step, no
    /// capture); with the unit on d1 capturable it promotes there by the capture.
    #[test]
    fn a_pawn_between_survivors_is_stuck() {
        let walls = 1 << sq("e1") | 1 << sq("d1");
        let d = journeys(1, PAWN.index(), sq("e2"), walls, 0, 0);
        assert!(d.iter().enumerate().all(|(i, &v)| v == INF || i == PAWN.index() * 64 + sq("e2")));
        let d = journeys(1, PAWN.index(), sq("e2"), 1 << sq("e1"), 1 << sq("d1"), 0);
        assert_eq!(d[QUEEN.index() * 64 + sq("d1")], 1);
        assert_eq!(d[QUEEN.index() * 64 + sq("h5")], 2);
        // (Round the survivor on e1, through e2 the pawn has left.)
        assert_eq!(d[QUEEN.index() * 64 + sq("f1")], 3);
        // A rook cannot cross a survivor: round it.
        let d = journeys(1, ROOK.index(), sq("a1"), 1 << sq("d1"), 0, 0);
        assert_eq!(d[ROOK.index() * 64 + sq("h1")], 3);
        // The king never steps where a surviving knight attacks (g1, h2), nor onto a
        // survivor (g2).
        let walls = 1 << sq("f3") | 1 << sq("g2");
        let forbid = leaper_attacks(0, KNIGHT.index(), sq("f3"));
        assert_eq!(journeys(1, KING.index(), sq("h1"), walls, 0, 0)[KING.index() * 64 + sq("h3")], 2);
        assert_eq!(journeys(1, KING.index(), sq("h1"), walls, 0, forbid)[KING.index() * 64 + sq("h3")], INF);
    }

    /// The distances are lower bounds: from random positions (some with holes or
    /// dummies) Black plays random series of up to ten moves while White stands still;
    /// with the white units never captured as survivors and the captured ones as
    /// prey, every black unit's journey is at least its distance.
    #[test]
    fn the_journeys_are_lower_bounds() {
        let mut rng = Rng(0xf20e);
        let (mut series, mut checked, mut captures) = (0, 0u32, 0u32);
        while series < 1500 {
            let Some(g) = random_game(&mut rng) else { continue };
            let g = match rng.below(3) {
                0 => with_holes(&g, &mut rng),
                1 => with_dummies(&g, &mut rng),
                _ => Some(g),
            };
            let Some(mut g) = g else { continue };
            series += 1;
            let start = g.clone();
            let ep = g.pos.ep().map_or(0, |e| 1 << e.target.index() | e.also.map_or(0, |a| 1 << a.index()));
            // Per black unit: (start square, start kind, moves made); `at[sq]` the unit there.
            let mut units: Vec<(usize, usize, u8)> = Vec::new();
            let mut at = [usize::MAX; 64];
            for (s, k) in crate::intelligent::units(&g, Colour::Black) {
                at[s] = units.len();
                units.push((s, k, 0));
            }
            let mut captured = 0u64;
            let mut moves = Vec::new();
            for _ in 0..1 + rng.below(10) {
                moves.clear();
                g.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len() as u64) as usize];
                if let Some(cs) = m.capture {
                    captured |= 1 << cs.index();
                }
                let u = at[m.from.index()];
                at[m.from.index()] = usize::MAX;
                at[m.to.index()] = u;
                units[u].2 += 1;
                if let Some((rf, rt)) = m.castle {
                    let r = at[rf.index()];
                    at[rf.index()] = usize::MAX;
                    at[rt.index()] = r;
                }
                g.make(&m).expect("legal");
                if g.make(&Move::NULL).is_none() {
                    break;
                }
            }
            let holes = g.pos.holes().0;
            let (mut walls, mut prey, mut forbid) = (holes, ep, 0u64);
            for (s, k) in crate::intelligent::units(&start, Colour::White) {
                if captured >> s & 1 == 1 {
                    prey |= 1 << s;
                } else {
                    walls |= 1 << s;
                    forbid |= leaper_attacks(0, k, s);
                }
            }
            captures += captured.count_ones();
            for (s, k) in crate::intelligent::units(&g, Colour::Black) {
                let (from, k0, made) = units[at[s]];
                let d = journeys(1, k0, from, walls, prey, forbid);
                assert!(d[k * 64 + s] <= made, "{from} to {s} in {made}: {}", start.pos.fen());
                checked += 1;
            }
        }
        assert!(checked > 5000 && captures > 200, "{checked} journeys, {captures} captures");
    }

    /// `ser-h=12` under Hole (from `gen_intel_fairy.py 31 30 hole`, no solution): the
    /// pawn on e2 can leave only by taking the bishop on d1, which every stalemate picture
    /// needs to guard e2, and a lone piece on h2 beside the king on h1 always has a move;
    /// no completion is left for the walk.
    #[test]
    fn a_stuck_pawn_leaves_no_completion() {
        let g =
            chimere_fairy::game_from_fen("1K6/1p6/8/3P4/7k/8/1p2p1p1/3BN3 b - - 0 1", &["hole c4c5c6f2f3f4f5f6f7f8"])
                .expect("a position");
        let p = enumerate(&g, Colour::White, (1, 12), true, true, u64::MAX).expect("pictures");
        assert!(p.fates.is_empty(), "{} completions", p.fates.len() / p.units.len().max(1));
    }
}
