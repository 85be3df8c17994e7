//! Move generation: capture parts by piece, capture chains (depth-first on the board,
//! without allocation), and the fast path for positions where nothing can be captured.

use crate::tables::{DIAG_ADJ, DOUBLE_KNIGHT, LIGHT, NONE, ORTH_ADJ, STEP, east, sandwiches, west};
use crate::{BISHOP, FLAG_DOUBLE, Interweave, KING, KNIGHT, MAX_PARTS, Move, PAWN, ROOK, code, code_kind};
use arrayvec::ArrayVec;
use chimere_core::{Bitboard, Square, attacks};

/// One capture part: where the piece arrives, the promotion kind (0 = none) and the
/// squares of the enemy pieces it removes.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Part {
    pub to: u8,
    pub promo: u8,
    pub captured: u64,
}

/// A fixed-capacity list of parts (more than any piece can have from one square: at most
/// 16 for a Leaper, 14 for a pawn), on the stack and not zeroed when made: a chain makes
/// one per part played.
pub(crate) struct Parts(ArrayVec<Part, 32>);

impl Parts {
    #[inline]
    pub fn new() -> Parts {
        Parts(ArrayVec::new())
    }
    #[inline]
    fn push(&mut self, to: u8, promo: u8, captured: u64) {
        self.0.push(Part { to, promo, captured });
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    #[inline]
    fn clear(&mut self) {
        self.0.clear();
    }
    pub fn iter(&self) -> impl Iterator<Item = &Part> {
        self.0.iter()
    }
}

const RANK_1: u64 = 0xFF;

#[inline]
const fn rank_mask(r: u8) -> u64 {
    RANK_1 << (8 * r)
}

/// Rank of `s` seen from `colour`'s side (0 = its first rank).
#[inline]
const fn rel_rank(colour: u8, s: u8) -> u8 {
    if colour == 0 { s >> 3 } else { 7 - (s >> 3) }
}

/// Pawn geometry of a colour: forward direction and the two forward diagonals.
#[inline]
const fn pawn_dirs(colour: u8) -> (usize, [usize; 2]) {
    if colour == 0 { (1, [4, 5]) } else { (3, [6, 7]) }
}

/// Squares of the colour of `s` (where orthogonal moves of even length land).
#[inline]
const fn same_colour(s: u8) -> u64 {
    if LIGHT >> s & 1 != 0 { LIGHT } else { !LIGHT }
}

/// Shifts a set one step in diagonal direction `d` (4..8).
#[inline]
const fn shift_diag(b: u64, d: usize) -> u64 {
    match d {
        4 => east(b) << 8,
        5 => west(b) << 8,
        6 => west(b) >> 8,
        _ => east(b) >> 8,
    }
}

/// Signed square offset of diagonal direction `d`.
#[inline]
const fn diag_offset(d: usize) -> i8 {
    match d {
        4 => 9,
        5 => 7,
        6 => -9,
        _ => -7,
    }
}

/// Where quiet moves go: a move list, or a counter.
trait QuietSink {
    /// One quiet move to each square of `targets`, from `from(target)`.
    fn add(&mut self, targets: u64, from: impl Fn(u8) -> u8, promo: u8, flags: u8);
}

impl QuietSink for Vec<Move> {
    #[inline]
    fn add(&mut self, mut targets: u64, from: impl Fn(u8) -> u8, promo: u8, flags: u8) {
        while targets != 0 {
            let t = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            self.push(Move::quiet(from(t), t, promo, flags));
        }
    }
}

struct QuietCount(u64);

impl QuietSink for QuietCount {
    #[inline]
    fn add(&mut self, targets: u64, _: impl Fn(u8) -> u8, _: u8, _: u8) {
        self.0 += targets.count_ones() as u64;
    }
}

impl Interweave {
    /// Bits 1..=3: the kinds `colour` may promote into.
    #[inline]
    fn promotable(&self, colour: u8) -> u8 {
        let i = colour as usize * 3;
        (u8::from(self.count(i) > 0) << ROOK)
            | (u8::from(self.count(i + 1) > 0) << KNIGHT)
            | (u8::from(self.count(i + 2) > 0) << BISHOP)
    }

    /// The enemy pieces a pawn of the side to move arriving on `t` removes by custodian
    /// capture (on the board as it is).
    #[inline]
    fn custodian(&self, t: u8, us: u64, them: u64) -> u64 {
        let mut out = 0;
        for step in &STEP[..4] {
            let n = step[t as usize];
            if n != NONE && them >> n & 1 != 0 {
                let f = step[n as usize];
                if f != NONE && us >> f & 1 != 0 {
                    out |= 1 << n;
                }
            }
        }
        out
    }

    /// Pushes a pawn part to `t` once per promotion choice that rank allows.
    #[inline]
    fn push_pawn_part(parts: &mut Parts, colour: u8, t: u8, promotable: u8, captured: u64) {
        let rr = rel_rank(colour, t);
        if rr < 6 {
            parts.push(t, 0, captured);
            return;
        }
        if rr == 6 {
            parts.push(t, 0, captured);
        }
        for k in ROOK..=BISHOP {
            if promotable >> k & 1 != 0 {
                parts.push(t, k, captured);
            }
        }
    }

    /// Every capture part of the piece of the side to move standing on `s`. `first`: the
    /// part opens the turn (en passant is possible only then).
    pub(crate) fn capture_parts(&self, s: u8, first: bool, parts: &mut Parts) {
        let me = self.side as u8;
        let us = self.colour[me as usize];
        let them = self.colour[(me ^ 1) as usize];
        let occ = us | them;
        let si = s as usize;
        match code_kind(self.sq[si]) {
            KING => {
                if ORTH_ADJ[si] & them == 0 {
                    return;
                }
                for step in &STEP[..4] {
                    let m = step[si];
                    if m != NONE && them >> m & 1 != 0 {
                        let t = step[m as usize];
                        if t != NONE && occ >> t & 1 == 0 {
                            parts.push(t, 0, 1 << m);
                        }
                    }
                }
            }
            BISHOP => {
                let a = ORTH_ADJ[si] & them;
                if a != 0 {
                    parts.push(s, 0, a);
                }
            }
            ROOK => {
                let rays = attacks::rook(Square::new(s), Bitboard(occ)).0;
                // First pieces of each line: enemies at an odd distance of at least 3.
                if rays & them & !same_colour(s) & !ORTH_ADJ[si] == 0 {
                    return;
                }
                for step in &STEP[..4] {
                    let mut prev = s;
                    let mut t = step[si];
                    let mut k = 1;
                    while t != NONE && occ >> t & 1 == 0 {
                        prev = t;
                        t = step[t as usize];
                        k += 1;
                    }
                    if t != NONE && k >= 3 && k % 2 == 1 && them >> t & 1 != 0 {
                        parts.push(prev, 0, 1 << t);
                    }
                }
            }
            KNIGHT => {
                if attacks::knight(Square::new(s)).0 & them != 0 {
                    for &(m, t) in &DOUBLE_KNIGHT[si] {
                        if m == NONE {
                            break;
                        }
                        if them >> m & 1 != 0 && occ >> t & 1 == 0 {
                            parts.push(t, 0, 1 << m);
                        }
                    }
                }
                let rays = attacks::rook(Square::new(s), Bitboard(occ)).0;
                if rays & them & !same_colour(s) == 0 {
                    return;
                }
                for step in &STEP[..4] {
                    let mut t = step[si];
                    let mut k = 1;
                    while t != NONE && occ >> t & 1 == 0 {
                        t = step[t as usize];
                        k += 1;
                    }
                    if t == NONE || k % 2 == 0 || them >> t & 1 == 0 {
                        continue;
                    }
                    let victim = t;
                    let mut u = step[t as usize];
                    k += 1;
                    while u != NONE && occ >> u & 1 == 0 {
                        if k % 2 == 0 {
                            parts.push(u, 0, 1 << victim);
                        }
                        u = step[u as usize];
                        k += 1;
                    }
                }
            }
            _ => self.pawn_capture_parts(s, first, parts, us, them),
        }
    }

    fn pawn_capture_parts(&self, s: u8, first: bool, parts: &mut Parts, us: u64, them: u64) {
        let me = self.side as u8;
        let occ = us | them;
        let si = s as usize;
        let rr = rel_rank(me, s);
        let promotable = self.promotable(me);
        if rr >= 7 || (rr == 6 && promotable == 0) {
            return;
        }
        let sandw = sandwiches(them, us);
        let (fwd, diags) = pawn_dirs(me);
        for d in diags {
            let t = STEP[d][si];
            if t == NONE || occ >> t & 1 != 0 {
                continue;
            }
            if sandw >> t & 1 != 0 {
                Self::push_pawn_part(parts, me, t, promotable, self.custodian(t, us, them));
            }
            if rr == 1 {
                let t2 = STEP[d][t as usize];
                if t2 != NONE && occ >> t2 & 1 == 0 && sandw >> t2 & 1 != 0 {
                    parts.push(t2, 0, self.custodian(t2, us, them));
                }
            }
        }
        let m = STEP[fwd][si];
        if m == NONE {
            return;
        }
        let t = STEP[fwd][m as usize];
        if t == NONE || occ >> t & 1 != 0 {
            return;
        }
        if them >> m & 1 != 0 {
            let mut cap = 1u64 << m;
            if sandw >> t & 1 != 0 {
                cap |= self.custodian(t, us, them);
            }
            Self::push_pawn_part(parts, me, t, promotable, cap);
        } else if first && self.ep() == m {
            let victim = (s & !7) | (self.ep_file() & 7);
            if self.sq[victim as usize] == code(me ^ 1, PAWN) {
                let mut cap = 1u64 << victim;
                if sandw >> t & 1 != 0 {
                    cap |= self.custodian(t, us, them);
                }
                Self::push_pawn_part(parts, me, t, promotable, cap);
            }
        }
    }

    /// Whether some pawn of the side to move has a capture (exact).
    fn pawns_can_capture(&self, us: u64, them: u64) -> bool {
        let me = self.side as u8;
        let occ = us | them;
        let empty = !occ;
        let promotable = self.promotable(me);
        let mut pawns = self.kind[PAWN as usize] & us;
        let (seventh, second) = if me == 0 { (rank_mask(6), rank_mask(1)) } else { (rank_mask(1), rank_mask(6)) };
        if promotable == 0 {
            pawns &= !seventh;
        }
        if pawns == 0 {
            return false;
        }
        // Leaps.
        let leap = if me == 0 { ((pawns << 8) & them) << 8 } else { ((pawns >> 8) & them) >> 8 };
        if leap & empty != 0 {
            return true;
        }
        // Custodian captures after a step or a double step.
        let sandw = sandwiches(them, us);
        let (_, diags) = pawn_dirs(me);
        for d in diags {
            let t = shift_diag(pawns, d) & empty;
            if t & sandw != 0 {
                return true;
            }
            let third = if me == 0 { second << 8 } else { second >> 8 };
            if shift_diag(t & third, d) & empty & sandw != 0 {
                return true;
            }
        }
        // En passant.
        if self.ep() != NONE {
            let (fwd, _) = pawn_dirs(me);
            let back = STEP[(fwd + 2) % 4][self.ep() as usize];
            if back != NONE && pawns >> back & 1 != 0 {
                let mut parts = Parts::new();
                self.pawn_capture_parts(back, true, &mut parts, us, them);
                return !parts.is_empty();
            }
        }
        false
    }

    /// Applies a capture part of the piece on `cur` (board only). Returns the codes of
    /// the moving piece and of the removed pieces (4 bits each).
    #[inline]
    fn apply_part(&mut self, cur: u8, p: &Part) -> (u8, u32) {
        let c = self.take_raw(cur);
        let mut codes = 0u32;
        let mut cap = p.captured;
        let mut shift = 0;
        while cap != 0 {
            let s = cap.trailing_zeros() as u8;
            cap &= cap - 1;
            codes |= (self.take_raw(s) as u32) << shift;
            shift += 4;
        }
        let arrived = if p.promo != 0 { code(self.side as u8, p.promo) } else { c };
        self.put_raw(p.to, arrived);
        (c, codes)
    }

    #[inline]
    fn revert_part(&mut self, cur: u8, p: &Part, c: u8, mut codes: u32) {
        self.take_raw(p.to);
        self.put_raw(cur, c);
        let mut cap = p.captured;
        while cap != 0 {
            let s = cap.trailing_zeros() as u8;
            cap &= cap - 1;
            self.put_raw(s, (codes & 15) as u8);
            codes >>= 4;
        }
    }

    /// Continues the chain `m` whose last part left the piece on `cur`: pushes every
    /// complete turn that extends it.
    fn chain(&mut self, m: &mut Move, cur: u8, out: &mut Vec<Move>) {
        let mut parts = Parts::new();
        if (m.len as usize) < MAX_PARTS {
            self.capture_parts(cur, false, &mut parts);
        }
        if parts.is_empty() {
            out.push(*m);
            return;
        }
        let (len, promo, captured) = (m.len, m.promo, m.captured);
        for p in parts.iter() {
            m.path[len as usize] = p.to;
            m.len = len + 1;
            m.last = p.to;
            m.captured = captured | p.captured;
            if p.promo != 0 {
                m.promo = p.promo | (len << 2);
            }
            let (c, codes) = self.apply_part(cur, p);
            self.chain(m, p.to, out);
            self.revert_part(cur, p, c, codes);
            m.promo = promo;
        }
        m.len = len;
        m.last = m.path[(len.wrapping_sub(1) & 15) as usize];
        m.captured = captured;
    }

    /// The pieces of the side to move that may have a capture (a superset, by bitboards).
    #[inline]
    fn capture_candidates(&self, us: u64, them: u64) -> u64 {
        let occ = us | them;
        let k = &self.kind;
        let adjacent_to_enemy = east(them) | west(them) | them << 8 | them >> 8;
        let mut cand = k[KING as usize] & us & sandwiches(them, !occ);
        cand |= k[BISHOP as usize] & us & adjacent_to_enemy;
        if self.pawns_can_capture(us, them) {
            cand |= k[PAWN as usize] & us;
        }
        let occ_bb = Bitboard(occ);
        let mut b = (k[ROOK as usize] | k[KNIGHT as usize]) & us;
        while b != 0 {
            let s = b.trailing_zeros() as u8;
            b &= b - 1;
            let sq = Square::new(s);
            let mut hit = attacks::rook(sq, occ_bb).0 & them & !same_colour(s);
            if k[KNIGHT as usize] >> s & 1 != 0 {
                hit |= attacks::knight(sq).0 & them;
            } else {
                hit &= !ORTH_ADJ[s as usize];
            }
            if hit != 0 {
                cand |= 1 << s;
            }
        }
        cand
    }

    /// Pushes every capturing turn; returns whether there was one.
    fn gen_captures(&mut self, out: &mut Vec<Move>) -> bool {
        let me = self.side as usize;
        let us = self.colour[me];
        let them = self.colour[me ^ 1];
        let start = out.len();
        let mut pieces = self.capture_candidates(us, them);
        if pieces == 0 {
            return false;
        }
        let mut parts = Parts::new();
        while pieces != 0 {
            let s = pieces.trailing_zeros() as u8;
            pieces &= pieces - 1;
            parts.clear();
            self.capture_parts(s, true, &mut parts);
            for p in parts.iter() {
                let mut m = Move::quiet(s, p.to, p.promo, 0);
                m.captured = p.captured;
                let (c, codes) = self.apply_part(s, p);
                self.chain(&mut m, p.to, out);
                self.revert_part(s, p, c, codes);
            }
        }
        out.len() > start
    }

    /// Gives every quiet turn to `sink` (called when nothing can be captured).
    fn gen_quiet<S: QuietSink>(&self, sink: &mut S) {
        let me = self.side as u8;
        let us = self.colour[me as usize];
        let occ = self.occupied();
        let empty = !occ;
        let occ_bb = Bitboard(occ);
        // Kings: one diagonal step.
        let mut b = self.kind[KING as usize] & us;
        while b != 0 {
            let s = b.trailing_zeros() as u8;
            b &= b - 1;
            sink.add(DIAG_ADJ[s as usize] & empty, |_| s, 0, 0);
        }
        // Removers: diagonal slides.
        let mut b = self.kind[BISHOP as usize] & us;
        while b != 0 {
            let s = b.trailing_zeros() as u8;
            b &= b - 1;
            sink.add(attacks::bishop(Square::new(s), occ_bb).0 & empty, |_| s, 0, 0);
        }
        // Smashers and Leapers: diagonal slides, orthogonal slides of even length; Leapers
        // also double knight jumps over an empty midpoint.
        let mut b = (self.kind[ROOK as usize] | self.kind[KNIGHT as usize]) & us;
        while b != 0 {
            let s = b.trailing_zeros() as u8;
            b &= b - 1;
            let sq = Square::new(s);
            let mut t = (attacks::bishop(sq, occ_bb).0 | (attacks::rook(sq, occ_bb).0 & same_colour(s))) & empty;
            if self.kind[KNIGHT as usize] >> s & 1 != 0 {
                for &(m, to) in &DOUBLE_KNIGHT[s as usize] {
                    if m == NONE {
                        break;
                    }
                    if (occ >> m | occ >> to) & 1 == 0 {
                        t |= 1 << to;
                    }
                }
            }
            sink.add(t, |_| s, 0, 0);
        }
        // Pawns.
        let mut pawns = self.kind[PAWN as usize] & us;
        if pawns == 0 {
            return;
        }
        let promotable = self.promotable(me);
        let rel = |r: u8| if me == 0 { rank_mask(r) } else { rank_mask(7 - r) };
        if promotable == 0 {
            pawns &= !rel(6);
        }
        let (_, diags) = pawn_dirs(me);
        for d in diags {
            let off = diag_offset(d);
            let targets = shift_diag(pawns, d) & empty;
            sink.add(targets & !rel(7), |t| (t as i8 - off) as u8, 0, 0);
            let promo = targets & (rel(6) | rel(7));
            if promo != 0 {
                for k in ROOK..=BISHOP {
                    if promotable >> k & 1 != 0 {
                        sink.add(promo, |t| (t as i8 - off) as u8, k, 0);
                    }
                }
            }
            let doubles = shift_diag(targets & rel(2), d) & empty;
            sink.add(doubles, |t| (t as i8 - 2 * off) as u8, 0, FLAG_DOUBLE);
        }
    }

    /// Number of legal turns (quiet ones counted without being listed).
    pub(crate) fn count_legal(&mut self, scratch: &mut Vec<Move>) -> u64 {
        scratch.clear();
        if self.gen_captures(scratch) {
            return scratch.len() as u64;
        }
        let mut n = QuietCount(0);
        self.gen_quiet(&mut n);
        n.0
    }

    /// Appends every legal turn.
    pub(crate) fn generate(&mut self, out: &mut Vec<Move>) {
        if !self.gen_captures(out) {
            self.gen_quiet(out);
        }
    }

    /// Whether the side to move has a legal turn.
    pub(crate) fn has_turn(&mut self) -> bool {
        let mut v = Vec::new();
        self.generate(&mut v);
        !v.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn shifts() {
        assert_eq!(shift_diag(1, 4), 1 << 9);
        assert_eq!(shift_diag(1, 5), 0);
        assert_eq!(shift_diag(1 << 63, 6), 1 << 54);
        assert_eq!(shift_diag(0x8080_8080_8080_8080, 4), 0);
        assert_eq!(same_colour(0), !LIGHT);
    }
}
