//! Move generation, make and unmake.
//!
//! Generation works on raw bitboards. Per position it computes once: the frozen pieces of
//! the side to move (next to an enemy immobilizer, immobilizers excepted), the enemy pieces
//! that may be captured (not next to one of their own shields), and, only if an archer may
//! shoot, the squares its side "spots". Nothing is allocated: turns go to a [`Sink`].

use crate::bits::{Bits, NEAR1, NEAR2, OFFSET, OPP, RANK_1, RANK_8, RAY, shift, spread};
use crate::{ARCHER, Fugue, IMMOBILIZER, KING, LEAPER, PAWN, PUSHME, QUEEN, SHIELD, SWAPPER};
use chimere_core::{Colour, Kind, Piece, Square, attacks};

/// No captured square.
pub const NO_SQ: u8 = 64;

/// What a turn does, besides moving a piece from `from` to `to`.
pub const NORMAL: u8 = 0;
/// The swapper on `from` exchanges places with the enemy on `to`.
pub const SWAP: u8 = 1;
/// The swapper on `from` and the enemy on `to` both leave the board.
pub const DESTROY: u8 = 2;
/// The archer on `from` stays and removes the enemy on `to`.
pub const SHOOT: u8 = 3;
/// A pawn move ending in a promotion to kind `flag - PROMO`.
pub const PROMO: u8 = 8;

/// A complete Fugue turn (all turns have one part).
///
/// `flag` is [`NORMAL`], [`SWAP`], [`DESTROY`], [`SHOOT`] or `PROMO + kind`; for normal
/// and promotion moves `cap` is the square of the captured piece ([`NO_SQ`] if none):
/// `to` for a replacement or a pawn leap, the jumped square for the long leaper, the
/// withdrawal or approach square for the pushme-pullyu.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub from: u8,
    pub to: u8,
    pub cap: u8,
    pub flag: u8,
}

impl Move {
    #[inline(always)]
    const fn new(from: u8, to: u8, cap: u8, flag: u8) -> Move {
        Move { from, to, cap, flag }
    }
    /// The promotion kind, if the move promotes.
    #[inline]
    pub fn promotion(self) -> Option<Kind> {
        (self.flag >= PROMO).then(|| Kind(self.flag - PROMO))
    }
}

/// Where generated turns go.
pub trait Sink {
    fn push(&mut self, m: Move);
    /// Moves without capture from `from` to each square of `targets`.
    #[inline(always)]
    fn quiet(&mut self, from: u8, targets: u64) {
        for to in Bits(targets) {
            self.push(Move::new(from, to, NO_SQ, NORMAL));
        }
    }
    /// Replacement moves (normal moves, capturing on the arrival square if occupied).
    #[inline(always)]
    fn replace(&mut self, from: u8, targets: u64, occ: u64) {
        for to in Bits(targets) {
            let cap = if occ >> to & 1 != 0 { to } else { NO_SQ };
            self.push(Move::new(from, to, cap, NORMAL));
        }
    }
}

impl Sink for Vec<Move> {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        Vec::push(self, m);
    }
}

/// Counts turns without storing them.
#[derive(Default)]
pub struct Counter(pub u64);

impl Sink for Counter {
    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn quiet(&mut self, _: u8, targets: u64) {
        self.0 += targets.count_ones() as u64;
    }
    #[inline(always)]
    fn replace(&mut self, _: u8, targets: u64, _: u64) {
        self.0 += targets.count_ones() as u64;
    }
}

#[inline(always)]
fn sq(s: u8) -> Square {
    Square::new(s)
}

#[inline(always)]
fn queen(s: u8, occ: u64) -> u64 {
    attacks::queen(sq(s), chimere_core::Bitboard(occ)).0
}

/// The per-position sets generation needs.
pub struct Context {
    pub own: u64,
    pub enemy: u64,
    pub occ: u64,
    /// Own pieces that may move (not immobilized).
    pub movers: u64,
    /// Enemy pieces that may be captured (not protected by a shield).
    pub capturable: u64,
}

impl Fugue {
    #[inline(always)]
    fn bb(&self, c: Colour, k: Kind) -> u64 {
        self.board.pieces(Piece::new(c, k)).0
    }

    /// The sets of [`Context`] for the side to move.
    #[inline(always)]
    pub fn context(&self) -> Context {
        let us = self.side;
        let them = us.opponent();
        let own = self.board.colour(us).0;
        let enemy = self.board.colour(them).0;
        let imm = self.board.kind(IMMOBILIZER).0;
        let frozen = spread(enemy & imm) & own & !imm;
        let capturable = enemy & !spread(self.bb(them, SHIELD));
        Context { own, enemy, occ: own | enemy, movers: own & !frozen, capturable }
    }

    /// Pieces of `c` next to an enemy immobilizer (immobilizers excepted).
    pub fn immobilized(&self, c: Colour) -> u64 {
        let imm = self.board.kind(IMMOBILIZER).0;
        spread(self.board.colour(c.opponent()).0 & imm) & self.board.colour(c).0 & !imm
    }

    /// Pieces of `c` protected by one of their shields.
    pub fn protected(&self, c: Colour) -> u64 {
        spread(self.bb(c, SHIELD)) & self.board.colour(c).0
    }

    /// Every legal turn of the side to move.
    pub fn generate<S: Sink>(&self, out: &mut S) {
        let us = self.side;
        let Context { own, enemy, occ, movers, capturable } = self.context();
        let empty = !occ;
        let mine = |k: Kind| self.bb(us, k) & movers;

        // Pawns (cannons): steps and leaps, set-wise by direction.
        let pawns = mine(PAWN);
        if pawns != 0 {
            let last = if us == Colour::White { RANK_8 } else { RANK_1 };
            let mut promos = [0u8; 7];
            let mut n = 0;
            for k in [QUEEN, IMMOBILIZER, PUSHME, ARCHER, SHIELD, LEAPER, SWAPPER] {
                if self.bb(us, k) == 0 {
                    promos[n] = PROMO + k.0;
                    n += 1;
                }
            }
            let promos = &promos[..n];
            for (d, &off) in OFFSET.iter().enumerate() {
                let s1 = shift(pawns, d);
                let steps = s1 & empty;
                let leaps = shift(s1 & occ, d) & (empty | capturable);
                for to in Bits(steps) {
                    let from = (to as i8 - off) as u8;
                    out.push(Move::new(from, to, NO_SQ, NORMAL));
                }
                for to in Bits(leaps) {
                    let from = (to as i8 - 2 * off) as u8;
                    let cap = if occ >> to & 1 != 0 { to } else { NO_SQ };
                    out.push(Move::new(from, to, cap, NORMAL));
                }
                let promo_steps = steps & last;
                let promo_leaps = leaps & last;
                if promo_steps | promo_leaps != 0 {
                    for to in Bits(promo_steps) {
                        let from = (to as i8 - off) as u8;
                        for &f in promos {
                            out.push(Move::new(from, to, NO_SQ, f));
                        }
                    }
                    for to in Bits(promo_leaps) {
                        let from = (to as i8 - 2 * off) as u8;
                        let cap = if occ >> to & 1 != 0 { to } else { NO_SQ };
                        for &f in promos {
                            out.push(Move::new(from, to, cap, f));
                        }
                    }
                }
            }
        }

        // King: one step, captures by replacement.
        for s in Bits(mine(KING)) {
            out.replace(s, NEAR1[s as usize] & (empty | capturable), occ);
        }
        // Queen: captures by replacement.
        for s in Bits(mine(QUEEN)) {
            out.replace(s, queen(s, occ) & (empty | capturable), occ);
        }
        // Immobilizer and shield: queen moves to empty squares only.
        for s in Bits(mine(IMMOBILIZER) | mine(SHIELD)) {
            out.quiet(s, queen(s, occ) & empty);
        }
        // Swapper: exchange with the first enemy on a line; mutual destruction if adjacent.
        for s in Bits(mine(SWAPPER)) {
            let att = queen(s, occ);
            out.quiet(s, att & empty);
            for t in Bits(att & enemy) {
                out.push(Move::new(s, t, NO_SQ, SWAP));
            }
            for t in Bits(att & capturable & NEAR1[s as usize]) {
                out.push(Move::new(s, t, NO_SQ, DESTROY));
            }
        }
        // Archer: shoots the first piece of a line if it is near or spotted.
        let archers = mine(ARCHER);
        if archers != 0 {
            let mut spotted = spread(own);
            for d in 0..8 {
                spotted |= shift(shift(own, d) & empty, d);
            }
            for s in Bits(archers) {
                let att = queen(s, occ);
                out.quiet(s, att & empty);
                for t in Bits(att & capturable & (NEAR2[s as usize] | spotted)) {
                    out.push(Move::new(s, t, NO_SQ, SHOOT));
                }
            }
        }
        // Long leaper: jumps the first piece of a line, landing on the empty squares after.
        for s in Bits(mine(LEAPER)) {
            let att = queen(s, occ);
            out.quiet(s, att & empty);
            let targets = att & capturable;
            if targets != 0 {
                for d in 0..8 {
                    let t = RAY[d][s as usize] & targets;
                    if t == 0 {
                        continue;
                    }
                    let ts = t.trailing_zeros() as u8;
                    let beyond = RAY[d][ts as usize];
                    let blockers = beyond & occ;
                    let land = if blockers == 0 {
                        beyond
                    } else {
                        let near =
                            if OFFSET[d] > 0 { blockers.trailing_zeros() } else { 63 - blockers.leading_zeros() };
                        beyond & !RAY[d][near as usize] & !(1u64 << near)
                    };
                    for to in Bits(land) {
                        out.push(Move::new(s, to, ts, NORMAL));
                    }
                }
            }
        }
        // Pushme-pullyu: withdrawal (S-d) or approach (E+d), never both.
        for s in Bits(mine(PUSHME)) {
            let att = queen(s, occ);
            for d in 0..8 {
                let ray = att & RAY[d][s as usize];
                let mut dest = ray & empty;
                if dest == 0 {
                    continue;
                }
                let back = shift(1u64 << s, OPP[d]) & capturable;
                let wcap = if back != 0 { back.trailing_zeros() as u8 } else { NO_SQ };
                let front = ray & capturable;
                if front != 0 {
                    // The last square before the capturable blocker approaches it.
                    let last = shift(front, OPP[d]) & dest;
                    dest &= !last;
                    if back == 0 && last != 0 {
                        out.push(Move::new(s, last.trailing_zeros() as u8, front.trailing_zeros() as u8, NORMAL));
                    }
                }
                for to in Bits(dest) {
                    out.push(Move::new(s, to, wcap, NORMAL));
                }
            }
        }
    }

    /// Plays `m`; returns the piece it captured (or destroyed), if any.
    #[inline(always)]
    pub fn play(&mut self, m: Move) -> Option<Piece> {
        let b = &mut self.board;
        let captured = match m.flag {
            NORMAL => {
                // The captured piece goes first: it may stand on the arrival square.
                let c = if m.cap != NO_SQ { b.take(sq(m.cap)) } else { None };
                b.relocate(sq(m.from), sq(m.to));
                c
            }
            SWAP => {
                let a = b.take(sq(m.from));
                let t = b.take(sq(m.to));
                if let (Some(a), Some(t)) = (a, t) {
                    b.put(sq(m.from), t);
                    b.put(sq(m.to), a);
                }
                None
            }
            DESTROY => {
                b.take(sq(m.from));
                b.take(sq(m.to))
            }
            SHOOT => b.take(sq(m.to)),
            _ => {
                b.take(sq(m.from));
                let c = if m.cap != NO_SQ { b.take(sq(m.cap)) } else { None };
                b.put(sq(m.to), Piece::new(self.side, Kind(m.flag - PROMO)));
                c
            }
        };
        self.side = self.side.opponent();
        self.turns = self.turns.wrapping_add(1);
        captured
    }

    /// Takes back `m`, played by [`Fugue::play`] which returned `captured`.
    #[inline(always)]
    pub fn unplay(&mut self, m: Move, captured: Option<Piece>) {
        self.side = self.side.opponent();
        self.turns = self.turns.wrapping_sub(1);
        let us = self.side;
        let b = &mut self.board;
        match m.flag {
            NORMAL => {
                b.relocate(sq(m.to), sq(m.from));
                if let Some(c) = captured {
                    b.put(sq(m.cap), c);
                }
            }
            SWAP => {
                let t = b.take(sq(m.from));
                let a = b.take(sq(m.to));
                if let (Some(a), Some(t)) = (a, t) {
                    b.put(sq(m.from), a);
                    b.put(sq(m.to), t);
                }
            }
            DESTROY => {
                b.put(sq(m.from), Piece::new(us, SWAPPER));
                if let Some(c) = captured {
                    b.put(sq(m.to), c);
                }
            }
            SHOOT => {
                if let Some(c) = captured {
                    b.put(sq(m.to), c);
                }
            }
            _ => {
                b.take(sq(m.to));
                b.put(sq(m.from), Piece::new(us, PAWN));
                if let Some(c) = captured {
                    b.put(sq(m.cap), c);
                }
            }
        }
    }
}
