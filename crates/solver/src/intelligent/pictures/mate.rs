//! The mate pictures: their enumeration within both sides' moves, the parries that
//! refute some, and their union as completions over one list of units (see the parent
//! module).

use super::*;

/// Every picture of a mate by `mater` with `m` moves of its own while the other side
/// makes `bmoves`. `None` when the method does not apply
/// (not exactly one mated king, too many pictures, more work than `work_cap`).
pub(super) fn enumerate(
    game: &Game,
    mater: Colour,
    budgets: (u32, u32),
    stalemate: bool,
    full: bool,
    work_cap: u64,
) -> Option<Pictures> {
    enumerate_all(game, mater, budgets, stalemate, full, work_cap, false).map(|(p, _)| p)
}

/// [`enumerate`], and the number of mate pictures refuted by [`Enumeration::defended`]; these
/// are kept too when `keep_refuted` (for the tests).
pub(super) fn enumerate_all(
    game: &Game,
    mater: Colour,
    (m, bmoves): (u32, u32),
    stalemate: bool,
    full: bool,
    work_cap: u64,
    keep_refuted: bool,
) -> Option<(Pictures, usize)> {
    let holes = game.pos.holes().0;
    // (Distances around the holes.)
    let kept = tables_for(holes);
    let t: &Tables = &kept;
    let mated = mater.opponent();
    let board = game.pos.board();
    let kings = board.colour(mated).0 & board.kind(KING).0;
    if kings.count_ones() != 1 {
        return None;
    }
    let dk = kings.trailing_zeros() as usize;
    let (mc, dc) = (colour_index(mater), colour_index(mated));
    let maters: Vec<(usize, usize)> = units(game, mater).collect();
    let blockers: Vec<(usize, usize)> = units(game, mated).filter(|&(_, k)| k != KING.index()).collect();
    // Full commitment: each stalemated unit's final (square, kind) options within its
    // side's moves, by cost.
    let full = full && stalemate;
    let mut fate_opts = Vec::new();
    let mut fate_reach = Vec::new();
    if full {
        for &(sq, k) in &blockers {
            let kinds: &[usize] = if k == PAWN.index() { &[0, 1, 2, 3, 4] } else { std::slice::from_ref(&k) };
            let mut list = Vec::new();
            for &k2 in kinds {
                for to in 0..64 {
                    let cost = t.reach(dc, k, sq, k2, to);
                    if cost as u32 <= bmoves && holes >> to & 1 == 0 {
                        list.push(Target { to: to as u8, kind: k2 as u8, cost });
                    }
                }
            }
            list.sort_by_key(|o| o.cost);
            let mut reach = vec![0u64; bmoves as usize + 1];
            for o in &list {
                for r in &mut reach[o.cost as usize..] {
                    *r |= 1 << o.to;
                }
            }
            fate_reach.push(reach);
            fate_opts.push(list);
        }
    }
    let mut canon = Vec::new();
    if full {
        canon.push(Tracked::on(dk, false, End::Completed));
        for &(sq, _) in &blockers {
            canon.push(Tracked::on(sq, false, End::Completed));
        }
        for &(sq, _) in &maters {
            canon.push(Tracked::on(sq, true, End::Completed));
        }
        if canon.len() > 32 {
            return None;
        }
    }
    let mut e = Enumeration {
        fixed: Fixed {
            t,
            stalemate,
            full,
            maters: &maters,
            blockers: &blockers,
            m: m as u8,
            bmoves: bmoves.min(u32::from(u8::MAX)) as u8,
            frozen: stalemate && m == 1 && game.pos.side() == mated,
            ep: game.pos.ep().map_or(0, |e| 1 << e.target.index() | e.also.map_or(0, |a| 1 << a.index())),
            mc,
            dc,
            holes,
            fate_opts,
            fate_reach,
            canon,
            work_cap,
            keep_refuted,
        },
        king: KingSquare { kq: 0, flights: 0, budget: 0, opts: Vec::new() },
        pic: Building::default(),
        commit: Commitment {
            order: Vec::new(),
            checks: Vec::new(),
            occ: 0,
            foreign: 0,
            via: vec![u8::MAX; 16 * 16 * 16],
            scratch: if full { Some(super::place::empty_scratch(game, mated)) } else { None },
            moves: Vec::new(),
            ways: Vec::new(),
            journeys: Default::default(),
        },
        found: Found::default(),
    };
    // Holes (`Condition Hole`): no unit ends there, and a hole is no flight.
    for kq in 0..64 {
        let kd = t.dist(KING.index(), dk, kq);
        if kd as u32 > bmoves || holes >> kq & 1 == 1 {
            continue;
        }
        let flights = t.att(0, KING.index(), kq) & !holes;
        // A stalemate needs only the flights guarded.
        let need = if stalemate { flights } else { flights | 1 << kq };
        e.king.kq = kq;
        e.king.flights = flights;
        e.king.budget = (bmoves - kd as u32) as u8;
        // Each mating unit's options: (target, kind, cost, attacked squares of K's).
        e.king.opts.clear();
        for &(sq, k) in &maters {
            let kinds: &[usize] = if k == PAWN.index() { &[0, 1, 2, 3, 4] } else { std::slice::from_ref(&k) };
            let mut list = Vec::new();
            for &k2 in kinds {
                for to in 0..64 {
                    let c = t.reach(mc, k, sq, k2, to);
                    if c as u32 > m
                        || to == kq
                        || holes >> to & 1 == 1
                        || (k2 == KING.index() && super::super::cheb(to, kq) <= 1)
                    {
                        continue;
                    }
                    // A leaper never checks the stalemated king, nor a unit next to it.
                    if stalemate && contact_or_leaper(mc, k2, to, kq) {
                        continue;
                    }
                    let att = t.att(mc, k2, to) & need;
                    if att != 0 {
                        list.push(Guard { target: Target { to: to as u8, kind: k2 as u8, cost: c }, att });
                    }
                }
            }
            list.sort_by_key(|o| o.target.cost);
            e.king.opts.push(list);
        }
        let king = Tracked::on(dk, false, End::As { kind: KING.index() as u8, to: kq as u8 });
        e.pic.chosen.clear();
        e.pic.chosen.push(king);
        e.mater_dfs(0, 0, 0);
        if e.found.overflow {
            return None;
        }
    }
    if full {
        // One search over every complete picture (none: no stalemate, nothing to search).
        let n = e.fixed.canon.len();
        let ranges = if e.found.fates.is_empty() { Vec::new() } else { vec![(0, n, 0, e.found.fates.len())] };
        return Some((Pictures { units: e.fixed.canon, ranges, fates: e.found.fates, segs: e.found.segs }, 0));
    }
    Some((
        Pictures { units: e.found.all, ranges: e.found.ranges, fates: e.found.fates, segs: e.found.segs },
        e.found.refuted,
    ))
}

impl Enumeration<'_> {
    pub(super) fn mater_dfs(&mut self, i: usize, covered: u64, spent: u8) {
        if self.found.overflow {
            return;
        }
        if i == self.fixed.maters.len() {
            if !self.fixed.stalemate && covered >> self.king.kq & 1 == 0 {
                return;
            }
            // A leaper (pawn, knight) that checks at the end made the mating move:
            // there is at most one.
            let leapers = self
                .pic
                .chosen
                .iter()
                .filter(|u| u.mater && leaper_checks(u, Some(self.king.kq as u8), self.fixed.mc))
                .count();
            if leapers > 1 {
                return;
            }
            let open = self.king.flights & !covered;
            // A committed mating unit on an unguarded flight would be taken.
            if self.pic.chosen.iter().filter(|u| u.mater).filter_map(Tracked::to).any(|to| open >> to & 1 == 1) {
                return;
            }
            self.pic.used = 0;
            self.pic.wspent = spent;
            self.block_dfs(open, 0);
            return;
        }
        self.mater_dfs(i + 1, covered, spent);
        for j in 0..self.king.opts[i].len() {
            let Guard { target: Target { to, kind: k2, cost: c }, att: a } = self.king.opts[i][j];
            if spent + c > self.fixed.m {
                break;
            }
            if a & !covered == 0 || self.pic.chosen.iter().any(|u| u.mater && u.to() == Some(to)) {
                continue;
            }
            let (sq, _) = self.fixed.maters[i];
            self.pic.chosen.push(Tracked::on(sq, true, End::As { kind: k2, to }));
            self.mater_dfs(i + 1, covered | a, spent + c);
            self.pic.chosen.pop();
        }
    }

    /// Whether a complete mate picture (`occ`: its final squares) is no mate whatever
    /// else stands on the board: every mating unit but the king is committed, exactly
    /// one committed unit checks K with nothing between in the picture, and a blocker
    /// can take that checker or step between in one move no unit can obstruct (see
    /// [`Enumeration::parries`]) as every kind it may stand on its flight as (a pawn: a pawn,
    /// or a piece it can promote to within the moves of its side). In
    /// a final position R fitting the picture, the mating side's units are the committed
    /// ones and perhaps its king (which neither checks nor pins); R holds the picture's
    /// units on their squares and perhaps more, so each check of R is one of the
    /// picture's (a line empty in R is empty in the picture): R's only check is that
    /// checker's. The blocker stands on a flight next to K that no committed unit
    /// attacks on an empty board (else no blocker is put there), so no committed line
    /// piece pins it: its parry is legal in R, and R is no mate.
    pub(super) fn defended(&self, occ: u64) -> bool {
        let committed = |sq: usize| self.pic.chosen.iter().any(|u| u.mater && u.square() == sq);
        // (The king and a dummy neither check nor pin.)
        if self.fixed.maters.iter().any(|&(sq, k)| k != KING.index() && k != DUMMY_T && !committed(sq)) {
            return false;
        }
        let t = self.fixed.t;
        let kq = self.king.kq;
        let mut checker = None;
        for (k, to) in self.pic.chosen.iter().filter(|u| u.mater).filter_map(Tracked::kind_to) {
            if t.att(self.fixed.mc, k, to) >> kq & 1 == 1 && between_sq(to, kq) & occ == 0 {
                if checker.is_some() {
                    return false;
                }
                checker = Some(to);
            }
        }
        let Some(c) = checker else {
            return false;
        };
        // (No unit steps onto a hole.)
        let line = between_sq(c, kq) & !self.fixed.holes;
        for u in self.pic.chosen.iter().filter(|u| !u.mater) {
            let End::Block { to } = u.end else {
                continue;
            };
            let Some(&(_, k)) = self.fixed.blockers.iter().find(|b| b.0 == u.square()) else {
                continue;
            };
            let f = to as usize;
            // A pawn may end as a pawn or as any piece it can promote to in time: each
            // kind it may stand there as must have the parry.
            let may_be = |k2: usize| {
                if k == PAWN.index() {
                    t.reach(self.fixed.dc, k, u.square(), k2, f) <= self.king.budget
                } else {
                    k2 == k
                }
            };
            let mut kinds = (PAWN.index()..KING.index()).filter(|&k2| may_be(k2)).peekable();
            if kinds.peek().is_some() && kinds.all(|k2| self.parries(k2, f, c, line)) {
                return true;
            }
        }
        false
    }

    /// Whether a unit of the mated side, kind `k` on `f`, can take the checker on `c`
    /// or step onto a square of `line` (empty) in a move that no unit can obstruct: a
    /// knight's jump, a step to a square next to it, a pawn's capture or single step.
    pub(super) fn parries(&self, k: usize, f: usize, c: usize, line: u64) -> bool {
        let t = self.fixed.t;
        if k == PAWN.index() {
            let ahead = if self.fixed.dc == 0 { f + 8 } else { f.wrapping_sub(8) };
            return t.att(self.fixed.dc, k, f) >> c & 1 == 1 || ahead < 64 && line >> ahead & 1 == 1;
        }
        let mut sq = (line | 1 << c) & t.att(self.fixed.dc, k, f);
        while sq != 0 {
            let d = sq.trailing_zeros() as usize;
            sq &= sq - 1;
            if between_sq(f, d) == 0 {
                return true;
            }
        }
        false
    }

    /// Assigns distinct mated units to the flights in `open`, within the budget.
    pub(super) fn block_dfs(&mut self, open: u64, spent: u8) {
        if open == 0 {
            if self.fixed.full {
                self.fates(spent);
            } else if self.fixed.stalemate {
                self.record();
            } else {
                let refuted =
                    self.defended(self.pic.chosen.iter().filter_map(Tracked::to).fold(0, |o, to| o | 1 << to));
                self.found.refuted += usize::from(refuted);
                if !refuted || self.fixed.keep_refuted {
                    self.record();
                }
            }
            return;
        }
        let f = open.trailing_zeros() as usize;
        let t = self.fixed.t;
        for (b, &(sq, k)) in self.fixed.blockers.iter().enumerate() {
            if b >= 32 || self.pic.used >> b & 1 == 1 {
                continue;
            }
            let c = t.block(self.fixed.dc, k, sq)[f];
            if c == INF || spent + c > self.king.budget {
                continue;
            }
            self.pic.used |= 1 << b;
            self.pic.chosen.push(Tracked::on(sq, false, End::Block { to: f as u8 }));
            self.block_dfs(open & (open - 1), spent + c);
            self.pic.chosen.pop();
            self.pic.used &= !(1 << b);
            if self.found.overflow {
                return;
            }
        }
    }
}

impl Enumeration<'_> {
    pub(super) fn record(&mut self) {
        let start = self.found.all.len();
        self.found.all.extend_from_slice(&self.pic.chosen);
        let f = self.found.fates.len();
        self.found.ranges.push((start, self.found.all.len(), f, f));
        if self.found.ranges.len() > MAX_PICTURES {
            self.found.overflow = true;
        }
    }
}

/// The mate pictures `p` (one per range) as completions over one canonical list of every
/// unit on the board (the mated king, the other units of the mated side, the mating
/// units, each [`End::Completed`]), to search them together: per picture, the mated
/// king's entry (its kind, K), a blocker's ([`Entry::Block`], its flight), a committed
/// mating unit's (kind, target), or [`Entry::Checker`] for a leaper that checks K from
/// its target, and [`Entry::Free`] for every uncommitted unit of either side.
pub(super) fn unite(game: &Game, mater: Colour, p: Pictures) -> Pictures {
    let mc = colour_index(mater);
    let mated = mater.opponent();
    let board = game.pos.board();
    let dk = (board.colour(mated).0 & board.kind(KING).0).trailing_zeros() as u8;
    let mut canon = vec![Tracked { sq: Some(dk), mater: false, end: End::Completed }];
    for (sq, k) in units(game, mated) {
        if k != KING.index() {
            canon.push(Tracked::on(sq, false, End::Completed));
        }
    }
    for (sq, _) in units(game, mater) {
        canon.push(Tracked::on(sq, true, End::Completed));
    }
    let n = canon.len();
    let mut fates = Vec::with_capacity(p.ranges.len() * n);
    for &(a, b, _, _) in &p.ranges {
        let pic = &p.units[a..b];
        let kq = pic[0].to();
        let start = fates.len();
        fates.resize(start + n, Entry::Free);
        for u in pic {
            let i = canon.iter().position(|c| c.sq == u.sq && c.mater == u.mater).expect("a unit on the board");
            fates[start + i] = match u.end {
                End::As { kind, to } if u.mater && leaper_checks(u, kq, mc) => Entry::Checker { kind, to },
                end => Entry::of(end),
            };
        }
    }
    let ranges = if fates.is_empty() { Vec::new() } else { vec![(0, n, 0, fates.len())] };
    Pictures { units: canon, ranges, fates, segs: Vec::new() }
}
