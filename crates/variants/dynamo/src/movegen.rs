//! Turn generation: every part 1 (normal moves, exits, pushes of either colour), then the
//! part 2 that part 1's geometry allows (follow, pull), tested with the bitboard Dynamo
//! check. No allocation: turns go straight into the caller's list.

use crate::tables::{DIRS, KNIGHT_VECS, NO_DIR, T, is_orth, offset, opposite};
use crate::{ALONE, BISHOP, CASTLE, Dynamo, EXIT, KING, KNIGHT, Move, NO_FLAG, NO_PROMO, PASS, PAWN, QUEEN, ROOK, TWO};
use chimere_core::{Board, Colour, Piece, Square, attacks};

const PROMOTIONS: [u8; 4] = [QUEEN.0, ROOK.0, BISHOP.0, KNIGHT.0];

/// The nearest set square of `bb` seen from the origin of a ray in direction `d`.
#[inline]
fn nearest(d: u8, bb: u64) -> usize {
    if d < 4 { bb.trailing_zeros() as usize } else { 63 - bb.leading_zeros() as usize }
}

#[inline]
fn last_rank(c: Colour) -> usize {
    if c == Colour::White { 7 } else { 0 }
}

#[inline]
fn fwd_dir(c: Colour) -> u8 {
    if c == Colour::White { 2 } else { 6 }
}

/// Whether a king on `k` is in Dynamo check from the pieces of colour `by`.
pub fn attacked(b: &Board, k: usize, by: Colour) -> bool {
    let t = &*T;
    let them = b.colour(by).0;
    let occ = b.occupied().0;
    if t.knight_danger[k] & them & b.kind(KNIGHT).0 != 0 {
        return true;
    }
    if t.pawn_danger[by.index()][k] & them & b.kind(PAWN).0 != 0 {
        return true;
    }
    if t.king_danger[k] & them & b.kind(KING).0 != 0 {
        return true;
    }
    let queens = b.kind(QUEEN).0;
    let ksq = Square::new(k as u8);
    let rq = them & (b.kind(ROOK).0 | queens);
    if rq != 0 {
        let mut c = attacks::rook(ksq, chimere_core::Bitboard(occ)).0 & rq;
        while c != 0 {
            let s = c.trailing_zeros() as usize;
            c &= c - 1;
            let d = t.dir[k][s];
            if t.ray[d as usize][s] & occ == 0 || t.ray[opposite(d) as usize][k] & occ == 0 {
                return true;
            }
        }
    }
    let bq = them & (b.kind(BISHOP).0 | queens);
    if bq != 0 {
        let mut c = attacks::bishop(ksq, chimere_core::Bitboard(occ)).0 & bq;
        while c != 0 {
            let s = c.trailing_zeros() as usize;
            c &= c - 1;
            let d = t.dir[k][s];
            if t.ray[d as usize][s] & occ == 0 || t.ray[opposite(d) as usize][k] & occ == 0 {
                return true;
            }
        }
    }
    false
}

#[inline]
fn cheb(a: usize, b: usize) -> i8 {
    let df = ((a & 7) as i8 - (b & 7) as i8).abs();
    let dr = ((a >> 3) as i8 - (b >> 3) as i8).abs();
    df.max(dr)
}

#[inline]
fn delta(from: usize, to: usize) -> (i8, i8) {
    ((to & 7) as i8 - (from & 7) as i8, (to >> 3) as i8 - (from >> 3) as i8)
}

/// Context of one generation call.
struct Ctx {
    c: Colour,
    opp: Colour,
}

impl Dynamo {
    #[inline]
    fn get(&self, s: usize) -> Piece {
        self.board.get(Square::new(s as u8)).expect("occupied square")
    }

    #[inline]
    fn king_in_check(&self, ctx: &Ctx) -> bool {
        match self.board.pieces(Piece::new(ctx.c, KING)).first() {
            Some(k) => attacked(&self.board, k.index(), ctx.opp),
            None => false,
        }
    }

    /// Whether the turn with these removals and additions undoes the opponent's last turn
    /// (as sets). As in the oracle, this is asked of turns with a part 2 or a pass; a turn
    /// that ends by itself after part 1 (no safe part 2 exists, or castling) is not tested.
    #[inline]
    fn undoes(&self, vanish: &[(u8, Piece)], appear: &[(u8, Piece)]) -> bool {
        match &self.last {
            Some(l) => l.appear.same_set(vanish) && l.vanish.same_set(appear),
            None => false,
        }
    }

    pub(crate) fn generate(&mut self, out: &mut Vec<Move>) {
        let ctx = Ctx { c: self.side, opp: self.side.opponent() };
        let mut all = self.board.occupied().0;
        while all != 0 {
            let x = all.trailing_zeros() as usize;
            all &= all - 1;
            let xp = self.get(x);
            let (dests, exit) = self.part1_targets(&ctx, x, xp);
            let mut d = dests;
            let promo_rank = xp.kind == PAWN;
            while d != 0 {
                let e = d.trailing_zeros() as usize;
                d &= d - 1;
                if promo_rank && e >> 3 == last_rank(xp.colour) {
                    for p in PROMOTIONS {
                        self.complete(&ctx, x, xp, e as u8, p, out);
                    }
                } else {
                    self.complete(&ctx, x, xp, e as u8, NO_PROMO, out);
                }
            }
            if exit && xp.kind != KING {
                self.complete(&ctx, x, xp, EXIT, NO_PROMO, out);
            }
        }
        self.castles(&ctx, out);
    }

    /// Squares where part 1 can take the piece `xp` on `x`, and whether it can exit.
    fn part1_targets(&self, ctx: &Ctx, x: usize, xp: Piece) -> (u64, bool) {
        let t = &*T;
        let b = &self.board;
        let occ = b.occupied().0;
        let own = b.colour(ctx.c).0;
        let xs = Square::new(x as u8);
        let mut dests = 0u64;
        let mut exit = false;
        if xp.colour == ctx.c {
            match xp.kind {
                PAWN => {
                    let f = ctx.c.forward();
                    if let Some(one) = offset(x, 0, f)
                        && occ >> one & 1 == 0
                    {
                        dests |= 1 << one;
                        // As on vchess, pawns on the first rank may also step twice.
                        let rank = if ctx.c == Colour::White { x >> 3 } else { 7 - (x >> 3) };
                        if rank <= 1
                            && let Some(two) = offset(one, 0, f)
                            && occ >> two & 1 == 0
                        {
                            dests |= 1 << two;
                        }
                    }
                }
                KNIGHT => {
                    dests |= attacks::knight(xs).0 & !occ;
                    exit |= t.knight_exit[x];
                }
                KING => dests |= attacks::king(xs).0 & !occ,
                k => {
                    let (lo, step) = match k {
                        ROOK => (0, 2),
                        BISHOP => (1, 2),
                        _ => (0, 1),
                    };
                    let bb = chimere_core::Bitboard(occ);
                    dests |= match k {
                        ROOK => attacks::rook(xs, bb).0,
                        BISHOP => attacks::bishop(xs, bb).0,
                        _ => attacks::queen(xs, bb).0,
                    } & !occ;
                    let mut d = lo;
                    while d < 8 {
                        if t.ray[d][x] & occ == 0 {
                            exit = true;
                            break;
                        }
                        d += step;
                    }
                }
            }
        }
        // Pushes by the mover's knights.
        let mut kn = attacks::knight(xs).0 & own & b.kind(KNIGHT).0;
        while kn != 0 {
            let q = kn.trailing_zeros() as usize;
            kn &= kn - 1;
            let (df, dr) = delta(q, x);
            match offset(x, df, dr) {
                Some(to) => {
                    if occ >> to & 1 == 0 {
                        dests |= 1 << to;
                    }
                }
                None => exit = true,
            }
        }
        // Pushes along lines (sliders, king, pawns).
        for d in 0..8u8 {
            let r = t.ray[d as usize][x] & occ;
            if r == 0 {
                continue;
            }
            let q = nearest(d, r);
            if own >> q & 1 == 0 {
                continue;
            }
            let qp = self.get(q);
            let pd = opposite(d);
            let steps: u8 = match qp.kind {
                ROOK if is_orth(d) => 8,
                BISHOP if !is_orth(d) => 8,
                QUEEN => 8,
                KING => u8::from(cheb(q, x) == 1),
                PAWN => {
                    let dist = cheb(q, x);
                    if xp.colour == ctx.c {
                        let start = if ctx.c == Colour::White { 1 } else { 6 };
                        if pd != fwd_dir(ctx.c) || dist > 2 {
                            0
                        } else if dist == 1 && q >> 3 == start {
                            2
                        } else {
                            1
                        }
                    } else {
                        let f = fwd_dir(ctx.c);
                        u8::from(dist == 1 && (pd == (f + 1) & 7 || pd == (f + 7) & 7))
                    }
                }
                _ => 0,
            };
            if steps == 0 {
                continue;
            }
            if steps == 8 {
                let path = t.ray[pd as usize][x];
                let blockers = path & occ;
                if blockers == 0 {
                    dests |= path;
                    exit = true;
                } else {
                    let f = nearest(pd, blockers);
                    dests |= path & !t.ray[pd as usize][f] & !(1u64 << f);
                }
            } else {
                let (df, dr) = DIRS[pd as usize];
                let mut cur = x;
                for _ in 0..steps {
                    match offset(cur, df, dr) {
                        None => {
                            exit = true;
                            break;
                        }
                        Some(n) => {
                            if occ >> n & 1 != 0 {
                                break;
                            }
                            dests |= 1 << n;
                            cur = n;
                        }
                    }
                }
            }
        }
        (dests, exit)
    }

    /// Plays part 1 (`xp` from `x` to `e`), then emits every legal turn starting with it.
    fn complete(&mut self, ctx: &Ctx, x: usize, xp: Piece, e: u8, promo: u8, out: &mut Vec<Move>) {
        let xs = Square::new(x as u8);
        let x2 = crate::promoted(xp, promo);
        self.board.take(xs);
        if e != EXIT {
            self.board.put(Square::new(e), x2);
        }
        let in_check1 = self.king_in_check(ctx);
        let mut any_safe = false;
        let base = Move { from1: x as u8, to1: e, promo1: promo, from2: 0, to2: 0, promo2: NO_PROMO, kind: ALONE };
        if e != EXIT {
            self.part2_on_board(ctx, x, xp, x2, e as usize, base, &mut any_safe, out);
        } else {
            self.part2_exit(ctx, x, xp, base, &mut any_safe, out);
        }
        if !in_check1 {
            let v = [(x as u8, xp)];
            let a = [(e, x2)];
            let a: &[(u8, Piece)] = if e == EXIT { &[] } else { &a };
            if !any_safe {
                out.push(Move { kind: ALONE, ..base });
            } else if !self.undoes(&v, a) {
                out.push(Move { kind: PASS, ..base });
            }
        }
        if e != EXIT {
            self.board.take(Square::new(e));
        }
        self.board.put(xs, xp);
    }

    /// Tries part 2: `yp` from `y` to `dest` (or off the board), with promotion `promo2`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn try2(
        &mut self,
        ctx: &Ctx,
        base: Move,
        xp: Piece,
        x2: Piece,
        y: usize,
        yp: Piece,
        dest: u8,
        promo2: u8,
        any_safe: &mut bool,
        out: &mut Vec<Move>,
    ) {
        let ys = Square::new(y as u8);
        let y2 = crate::promoted(yp, promo2);
        self.board.take(ys);
        if dest != EXIT {
            self.board.put(Square::new(dest), y2);
        }
        let safe = !self.king_in_check(ctx);
        if dest != EXIT {
            self.board.take(Square::new(dest));
        }
        self.board.put(ys, yp);
        if !safe {
            return;
        }
        *any_safe = true;
        if self.last.is_some() {
            let v = [(base.from1, xp), (y as u8, yp)];
            let mut a = [(base.to1, x2), (dest, y2)];
            let mut n = 0;
            if base.to1 != EXIT {
                n += 1;
            }
            if dest != EXIT {
                a[n] = (dest, y2);
                n += 1;
            }
            if self.undoes(&v, &a[..n]) {
                return;
            }
        }
        out.push(Move { from2: y as u8, to2: dest, promo2, kind: TWO, ..base });
    }

    /// Emits part 2 moves of `yp` on `y` to each square of `dests` (promoting as needed)
    /// and off the board if `exit`.
    #[allow(clippy::too_many_arguments)]
    fn slide2(
        &mut self,
        ctx: &Ctx,
        base: Move,
        xp: Piece,
        x2: Piece,
        y: usize,
        yp: Piece,
        dests: u64,
        exit: bool,
        any_safe: &mut bool,
        out: &mut Vec<Move>,
    ) {
        let mut d = dests;
        while d != 0 {
            let s = d.trailing_zeros() as usize;
            d &= d - 1;
            if yp.kind == PAWN && s >> 3 == last_rank(yp.colour) {
                for p in PROMOTIONS {
                    self.try2(ctx, base, xp, x2, y, yp, s as u8, p, any_safe, out);
                }
            } else {
                self.try2(ctx, base, xp, x2, y, yp, s as u8, NO_PROMO, any_safe, out);
            }
        }
        if exit && yp.kind != KING {
            self.try2(ctx, base, xp, x2, y, yp, EXIT, NO_PROMO, any_safe, out);
        }
    }

    /// Part 2 after part 1 moved `xp` from `x` to `e` (now on the board as `x2`).
    #[allow(clippy::too_many_arguments)]
    fn part2_on_board(
        &mut self,
        ctx: &Ctx,
        x: usize,
        xp: Piece,
        x2: Piece,
        e: usize,
        base: Move,
        any_safe: &mut bool,
        out: &mut Vec<Move>,
    ) {
        let t = &*T;
        let occ = self.board.occupied().0;
        let dir = t.dir[x][e];
        let (y, range) = if dir != NO_DIR {
            let r = t.ray[opposite(dir) as usize][x] & occ;
            if r == 0 {
                return;
            }
            let y = nearest(opposite(dir), r);
            (y, attacks::between(Square::new(y as u8), Square::new(e as u8)).0)
        } else {
            let (df, dr) = delta(x, e);
            match offset(x, -df, -dr) {
                Some(y) if occ >> y & 1 != 0 => (y, 1u64 << x),
                _ => return,
            }
        };
        let yp = self.get(y);
        let own_x = xp.colour == ctx.c;
        let (dfy, dry) = delta(y, x);
        let (dfe, dre) = delta(x, e);
        let adjacent = dfy.abs() <= 1 && dry.abs() <= 1;
        let follow = yp.colour == ctx.c
            && match yp.kind {
                PAWN => {
                    let f = ctx.c.forward();
                    let start = if ctx.c == Colour::White { 1 } else { 6 };
                    if y >> 3 == start {
                        !(dry * f < 0
                            || dry.abs() >= 3
                            || dfy.abs() >= 2
                            || (own_x && dfy != 0)
                            || (!own_x && dfy == 0)
                            || dre.abs() > dry.abs()
                            || dfe != dfy)
                    } else {
                        dry == f && dfy.abs() < 2 && (own_x == (dfy == 0)) && dre == f && dfe == dfy
                    }
                }
                KNIGHT => dir == NO_DIR && (dfe, dre) == (dfy, dry),
                KING => adjacent && (dfe, dre) == (dfy, dry),
                BISHOP => dir != NO_DIR && !is_orth(dir),
                ROOK => dir != NO_DIR && is_orth(dir),
                QUEEN => dir != NO_DIR,
                _ => false,
            };
        let pull = own_x
            && match xp.kind {
                PAWN => false,
                KING => dir != NO_DIR && adjacent,
                KNIGHT => dir == NO_DIR,
                _ => true,
            };
        if follow || pull {
            self.slide2(ctx, base, xp, x2, y, yp, range, false, any_safe, out);
        }
    }

    /// Part 2 after part 1 took `xp` off the board from `x`.
    fn part2_exit(&mut self, ctx: &Ctx, x: usize, xp: Piece, base: Move, any_safe: &mut bool, out: &mut Vec<Move>) {
        let t = &*T;
        let occ = self.board.occupied().0;
        let own_x = xp.colour == ctx.c;
        for d in 0..8u8 {
            let beyond = t.ray[d as usize][x];
            if beyond & occ != 0 {
                continue;
            }
            let back = opposite(d);
            let r = t.ray[back as usize][x] & occ;
            if r == 0 {
                continue;
            }
            let y = nearest(back, r);
            let yp = self.get(y);
            let adjacent = cheb(x, y) == 1;
            let at_edge = beyond == 0;
            let follow: u8 = if yp.colour == ctx.c {
                match yp.kind {
                    ROOK if is_orth(d) => 8,
                    BISHOP if !is_orth(d) => 8,
                    QUEEN => 8,
                    KING => u8::from(adjacent && at_edge),
                    PAWN => {
                        let f = fwd_dir(ctx.c);
                        let ok = if own_x { d == f } else { d == (f + 1) & 7 || d == (f + 7) & 7 };
                        u8::from(adjacent && at_edge && ok)
                    }
                    _ => 0,
                }
            } else {
                0
            };
            let pull: u8 = if own_x {
                match xp.kind {
                    ROOK if is_orth(d) => 8,
                    BISHOP if !is_orth(d) => 8,
                    QUEEN => 8,
                    _ => 0,
                }
            } else {
                0
            };
            let steps = follow.max(pull);
            if steps == 0 {
                continue;
            }
            let xs = Square::new(x as u8);
            if steps == 1 {
                self.slide2(ctx, base, xp, xp, y, yp, 1 << x, false, any_safe, out);
            } else {
                let dests = attacks::between(Square::new(y as u8), xs).0 | 1 << x | beyond;
                self.slide2(ctx, base, xp, xp, y, yp, dests, true, any_safe, out);
            }
        }
        for &(df, dr) in &KNIGHT_VECS {
            if offset(x, df, dr).is_some() {
                continue;
            }
            let Some(y) = offset(x, -df, -dr) else { continue };
            if occ >> y & 1 == 0 {
                continue;
            }
            let yp = self.get(y);
            let follow = yp.colour == ctx.c && yp.kind == KNIGHT;
            let pull = own_x && xp.kind == KNIGHT;
            if follow || pull {
                self.slide2(ctx, base, xp, xp, y, yp, 1 << x, false, any_safe, out);
            }
        }
    }

    fn castles(&mut self, ctx: &Ctx, out: &mut Vec<Move>) {
        let ci = ctx.c.index() * 2;
        if self.castle[ci] == NO_FLAG && self.castle[ci + 1] == NO_FLAG {
            return;
        }
        let Some(k) = self.board.pieces(Piece::new(ctx.c, KING)).first() else { return };
        let rank = if ctx.c == Colour::White { 0u8 } else { 7 };
        if k.rank() != rank {
            return;
        }
        let occ = self.board.occupied().0;
        for side in 0..2 {
            let rf = self.castle[ci + side];
            if rf == NO_FLAG {
                continue;
            }
            let rsq = Square::from_coords(rf, rank);
            let Some(rp) = self.board.get(rsq) else { continue };
            if rp.colour != ctx.c {
                continue;
            }
            let (kdf, rdf) = if side == 0 { (2u8, 3u8) } else { (6, 5) };
            let kdest = Square::from_coords(kdf, rank);
            let rdest = Square::from_coords(rdf, rank);
            let kf = k.file() as i8;
            let step = (kdf as i8 - kf).signum();
            let mut i = kf;
            let mut ok = true;
            loop {
                let s = Square::from_coords(i as u8, rank);
                if attacked(&self.board, s.index(), ctx.opp) || (occ >> s.index() & 1 != 0 && s != k && s != rsq) {
                    ok = false;
                    break;
                }
                i += step;
                if i == kdf as i8 {
                    break;
                }
            }
            if !ok {
                continue;
            }
            if attacks::between(k, rsq).0 & occ != 0 {
                continue;
            }
            if [kdest, rdest].iter().any(|&s| s != rsq && s != k && occ >> s.index() & 1 != 0) {
                continue;
            }
            let kp = Piece::new(ctx.c, KING);
            self.board.take(k);
            self.board.take(rsq);
            self.board.put(kdest, kp);
            self.board.put(rdest, rp);
            let safe = !self.king_in_check(ctx);
            self.board.take(kdest);
            self.board.take(rdest);
            self.board.put(k, kp);
            self.board.put(rsq, rp);
            if !safe {
                continue;
            }
            out.push(Move {
                from1: k.index() as u8,
                to1: rsq.index() as u8,
                promo1: NO_PROMO,
                from2: kdest.index() as u8,
                to2: rdest.index() as u8,
                promo2: NO_PROMO,
                kind: CASTLE,
            });
        }
    }
}
