//! The full commitment of a stalemate picture: a fate for every unit of the stalemated
//! side, captured or immobile on a final square, and the holders the other side must
//! provide (see the parent module).

use super::*;

impl Enumeration<'_> {
    /// Full commitment (see the module doc): the blockers chosen (their squares spent
    /// `spent` of the stalemated side's budget), gives every other stalemated unit a fate.
    pub(super) fn fates(&mut self, spent: u8) {
        self.commit.occ = 1 << self.king.kq;
        self.commit.foreign = 0;
        self.commit.checks.clear();
        for u in &self.pic.chosen[1..] {
            let Some(to) = u.to() else { continue };
            if u.mater {
                self.commit.foreign |= 1 << to;
            } else {
                self.commit.occ |= 1 << to;
                // A blocker keeps its kind unless it is a pawn (accepted as any kind).
                let k = self.fixed.blockers.iter().find(|b| b.0 == u.square()).map_or(PAWN.index(), |b| b.1);
                if k != PAWN.index() {
                    self.commit.checks.push((k as u8, to));
                }
            }
        }
        self.commit.order.clear();
        // Pieces first (the immobility checks cut early), pawns last.
        for pawns in [false, true] {
            for (b, &(_, k)) in self.fixed.blockers.iter().enumerate() {
                if b < 32 && self.pic.used >> b & 1 == 0 && (k == PAWN.index()) == pawns {
                    self.commit.order.push(b);
                }
            }
        }
        if self.fixed.blockers.len() > 16 || self.fixed.maters.len() > 16 {
            return;
        }
        self.commit.via.fill(u8::MAX);
        self.fate_dfs(0, spent, 0);
    }

    /// Whether every placed stalemated unit may still be immobile with `rem` units
    /// still to place: blocked by its own side, or held by units of the stalemating
    /// side (pinners, a unit in front of a pawn) whose distances, with its committed
    /// ones, fit within its moves (see [`Enumeration::ways`]).
    pub(super) fn pins_possible(&mut self, rem: u32) -> bool {
        let mut reqs = ReqList::default();
        match self.requirements(rem, &mut reqs) {
            Holding::Never => false,
            Holding::Unbounded => true,
            Holding::Needs => {
                let mut out = std::mem::take(&mut self.commit.ways);
                out.clear();
                self.ways(reqs.as_slice(), 1, rem, &mut out);
                let found = !out.is_empty();
                self.commit.ways = out;
                found
            }
        }
    }

    /// The stalemating side's units needed to hold the placed stalemated units: one
    /// [`Req`] per unit that cannot be blocked by its own side, written to `reqs`
    /// ([`Holding::Needs`]). [`Holding::Never`]: some unit can be held by nothing;
    /// [`Holding::Unbounded`]: no requirement, or too many to use (no bound).
    ///
    /// With `rem` units still to place, a placed pawn whose front square is still empty
    /// may have it taken by one of them, or be held as at the end (a unit of the other
    /// side in front of it or pinning it): its requirement is *optional*. The units to
    /// place end on `rem` squares at most, one front square each (two pawns have two
    /// front squares), so at most `rem` optional requirements go unmet ([`Enumeration::ways`]).
    /// When the optional ones are at most `rem`, they are all left out.
    pub(super) fn requirements(&self, rem: u32, reqs: &mut ReqList) -> Holding {
        use super::super::stalemate::{Immobile, immobility};
        // A hole blocks a stalemated unit as its own units do: nothing stands on it or
        // crosses it (see [`immobility`]).
        let (kq, occ, foreign) = (self.king.kq, self.commit.occ | self.fixed.holes, self.commit.foreign);
        let down = self.fixed.dc == 1;
        let (orth, diag) = (1u8 << ROOK.index() | 1 << QUEEN.index(), 1u8 << BISHOP.index() | 1 << QUEEN.index());
        reqs.len = 0;
        let mut optional = 0u32;
        for &(k, t) in &self.commit.checks {
            let (k, t) = (k as usize, t as usize);
            let line = |t: usize| if kq % 8 == t % 8 || kq / 8 == t / 8 { orth } else { diag };
            // A pawn with units still to place: judged as at the end (`immobility` with
            // none left), its requirement optional.
            let pawn_early = k == PAWN.index() && rem > 0;
            if pawn_early && (occ | foreign) >> (if down { t - 8 } else { t + 8 }) & 1 == 1 {
                continue;
            }
            let req = match immobility(k, t, kq, occ, foreign, if pawn_early { 0 } else { rem }, down) {
                Immobile::Blocked => continue,
                Immobile::Never => return Holding::Never,
                Immobile::Pinned(seg) => Req { alts: [(seg, line(t)), (0, 0)], optional: pawn_early },
                Immobile::Front { sq, pin } => {
                    Req { alts: [(1 << sq, ANY_KIND), (pin, line(t))], optional: pawn_early }
                }
            };
            optional += u32::from(req.optional);
            reqs.push(req);
        }
        if optional > 0 && optional <= rem {
            reqs.retain_required();
        }
        if reqs.len == 0 || reqs.len > 6 { Holding::Unbounded } else { Holding::Needs }
    }

    /// Whether a stalemated unit of kind `k` (not a pawn) placed on `to` would be judged
    /// [`Immobile::Never`] by [`Enumeration::requirements`] with `rem` units still to place
    /// after it (the same call, `to` added to the stalemated side's squares): the
    /// requirements of the node that places it would then fail at once.
    fn never_immobile(&self, k: usize, to: usize, rem: u32) -> bool {
        use super::super::stalemate::{Immobile, immobility};
        let occ = self.commit.occ | 1 << to | self.fixed.holes;
        k != PAWN.index()
            && immobility(k, to, self.king.kq, occ, self.commit.foreign, rem, self.fixed.dc == 1) == Immobile::Never
    }

    /// Whether the placed stalemated pieces that cannot be pinned can still all be
    /// blocked by their own side, the units `order[i..]` still to place within `left`
    /// moves of their side: the squares they leave open ([`open_unpinnable`]) must each
    /// hold one of those units at the end (every other final square of the side is in
    /// `occ`), so they are at most as many as those units and each within reach of one.
    fn blocks_fit(&self, i: usize, left: u8) -> bool {
        use super::super::stalemate::open_unpinnable;
        let occ = self.commit.occ | self.fixed.holes;
        let mut need = 0u64;
        for &(k, t) in &self.commit.checks {
            if k as usize != PAWN.index() {
                need |= open_unpinnable(k as usize, t as usize, self.king.kq, occ, self.commit.foreign);
            }
        }
        if need == 0 {
            return true;
        }
        let rest = &self.commit.order[i..];
        if need.count_ones() as usize > rest.len() {
            return false;
        }
        let mut reach = 0u64;
        for &b in rest {
            let r = &self.fixed.fate_reach[b];
            reach |= r.get(left as usize).or(r.last()).copied().unwrap_or(0);
        }
        need & !reach == 0
    }

    /// Counts one node of [`Enumeration::fate_dfs`] against the work bound.
    fn count_node(&mut self) {
        self.found.work += 1;
        if self.found.work > self.fixed.work_cap {
            self.found.overflow = true;
        }
    }

    /// Ways to meet the requirements `reqs` (each by one of its alternatives: a unit of
    /// the stalemating side ending on one of the squares as one of the kinds), up to
    /// `max` of them: per uncommitted unit of that side (index in `maters`) the squares
    /// and kinds it must end on (0: nothing). A committed unit meets an alternative at
    /// no cost when its final square and kind are in it; one unit may meet several when
    /// it can end on a square and kind common to them. A way is kept when the side's
    /// committed distances plus each assigned unit's distance to its squares fit within
    /// its moves (each move moves one unit; a unit ends on one square as one kind). Up to
    /// `skips` optional requirements may go unmet (see [`Enumeration::requirements`]).
    pub(super) fn ways(&self, reqs: &[Req], max: usize, skips: u32, out: &mut Vec<[(u64, u8); 16]>) {
        struct Ctx<'a> {
            e: &'a Enumeration<'a>,
            reqs: &'a [Req],
            max: usize,
            left: u8,
            committed: [Option<(u8, u8)>; 16],
        }
        fn dist(e: &Enumeration<'_>, w: usize, set: u64, kinds: u8) -> u8 {
            let t = e.fixed.t;
            let (sq, k) = e.fixed.maters[w];
            let mut best = INF;
            let mut b = set;
            while b != 0 {
                let x = b.trailing_zeros() as usize;
                b &= b - 1;
                if kinds == ANY_KIND {
                    best = best.min(t.block(e.fixed.mc, k, sq)[x]);
                } else {
                    for k2 in 0..KING.index() + 1 {
                        if kinds >> k2 & 1 == 1 {
                            best = best.min(t.reach(e.fixed.mc, k, sq, k2, x));
                        }
                    }
                }
            }
            best
        }
        fn go(c: &Ctx<'_>, r: usize, cur: &mut [(u64, u8); 16], spent: u8, skips: u32, out: &mut Vec<[(u64, u8); 16]>) {
            if out.len() >= c.max {
                return;
            }
            if r == c.reqs.len() {
                out.push(*cur);
                return;
            }
            if c.reqs[r].optional && skips > 0 {
                go(c, r + 1, cur, spent, skips - 1, out);
                if out.len() >= c.max {
                    return;
                }
            }
            for &(set, kinds) in &c.reqs[r].alts {
                if set == 0 {
                    continue;
                }
                for w in 0..c.e.fixed.maters.len() {
                    if let Some((to, kind)) = c.committed[w] {
                        if set >> to & 1 == 1 && kinds >> kind & 1 == 1 {
                            go(c, r + 1, cur, spent, skips, out);
                            if out.len() >= c.max {
                                return;
                            }
                        }
                        continue;
                    }
                    let (s0, k0) = cur[w];
                    let (s1, k1) = if s0 == 0 { (set, kinds) } else { (s0 & set, k0 & kinds) };
                    if s1 == 0 || k1 == 0 {
                        continue;
                    }
                    let before = if s0 == 0 { 0 } else { dist(c.e, w, s0, k0) };
                    let after = dist(c.e, w, s1, k1);
                    if after >= INF || spent + after - before > c.left {
                        continue;
                    }
                    cur[w] = (s1, k1);
                    go(c, r + 1, cur, spent + after - before, skips, out);
                    cur[w] = (s0, k0);
                    if out.len() >= c.max {
                        return;
                    }
                }
            }
        }
        let mut committed = [None; 16];
        for (w, &(sq, _)) in self.fixed.maters.iter().enumerate().take(16) {
            committed[w] = self
                .pic
                .chosen
                .iter()
                .find(|u| u.mater && u.square() == sq)
                .and_then(Tracked::kind_to)
                .map(|(k, to)| (to as u8, k as u8));
        }
        let c = Ctx { e: self, reqs, max, left: self.fixed.m.saturating_sub(self.pic.wspent), committed };
        go(&c, 0, &mut [(0, 0); 16], 0, skips, out);
    }

    /// Moves stalemating unit `w` needs to capture stalemated unit `b` (index in
    /// `blockers`) and then reach its committed target if any, the stalemated side
    /// having `slack` moves to spare (b is taken where it stands after at most `slack`
    /// moves of its own; a pawn also by en passant, its taker landing behind it).
    pub(super) fn via(&mut self, w: usize, b: usize, slack: u8) -> u8 {
        let i = (w * 16 + b) * 16 + slack.min(15) as usize;
        if self.commit.via[i] != u8::MAX {
            return self.commit.via[i];
        }
        let t = self.fixed.t;
        let (bsq, bk) = self.fixed.blockers[b];
        let mut at = 0u64;
        for (x, &d) in t.block(self.fixed.dc, bk, bsq).iter().enumerate() {
            if d <= slack {
                at |= 1 << x;
            }
        }
        if bk == PAWN.index() {
            // En passant: White takes on the square behind (Black's pawns move down);
            // Black takes on the square below.
            at |= if self.fixed.dc == 1 { at << 8 } else { at >> 8 };
        }
        let (wsq, wk) = self.fixed.maters[w];
        let committed = self.pic.chosen.iter().find(|u| u.mater && u.square() == wsq).and_then(Tracked::kind_to);
        let kinds: &[usize] = if wk == PAWN.index() { &[0, 1, 2, 3, 4] } else { std::slice::from_ref(&wk) };
        let mut best = INF;
        let mut bb = at;
        while bb != 0 {
            let x = bb.trailing_zeros() as usize;
            bb &= bb - 1;
            match committed {
                None => best = best.min(t.block(self.fixed.mc, wk, wsq)[x]),
                Some((uk, uto)) => {
                    for &k2 in kinds {
                        let a = t.reach(self.fixed.mc, wk, wsq, k2, x);
                        if a < INF {
                            let b2 = t.reach(self.fixed.mc, k2, x, uk, uto);
                            best = best.min(a.saturating_add(b2).min(INF));
                        }
                    }
                }
            }
        }
        self.commit.via[i] = best;
        best
    }

    /// Whether the stalemating side can make the captures of the chosen units to be
    /// captured besides its committed units' journeys, the stalemated side having
    /// `slack` moves to spare: a lower bound on its moves is, for the best assignment
    /// of each captured unit to a distinct capturing move of some unit w, the sum over
    /// its units of the largest of w's committed distance, the number of captures w
    /// makes (one a move) and, for each capture, w's moves through the capture square
    /// (to its committed target if any); it must fit within its moves.
    pub(super) fn captures_possible(&mut self, slack: u8) -> bool {
        let mut caught = [0usize; 16];
        let mut n = 0;
        for u in &self.pic.chosen {
            if u.end == End::Captured {
                caught[n] = self.fixed.blockers.iter().position(|b| b.0 == u.square()).expect("a stalemated unit");
                n += 1;
            }
        }
        let nw = self.fixed.maters.len();
        let mut via = [[INF; 16]; 16];
        for (c, &b) in caught[..n].iter().enumerate() {
            for (w, v) in via[c].iter_mut().enumerate().take(nw) {
                *v = self.via(w, b, slack);
            }
        }
        // Committed distances per stalemating unit.
        let mut own = [0u8; 16];
        let t = self.fixed.t;
        for (w, &(sq, k)) in self.fixed.maters.iter().enumerate() {
            if let Some((uk, to)) =
                self.pic.chosen.iter().find(|u| u.mater && u.square() == sq).and_then(Tracked::kind_to)
            {
                own[w] = t.reach(self.fixed.mc, k, sq, uk, to);
            }
        }
        struct St<'a> {
            via: &'a [[u8; 16]; 16],
            n: usize,
            nw: usize,
            limit: u32,
            steps: u32,
        }
        /// Per unit: (captures so far, moves needed so far).
        fn go(st: &mut St<'_>, c: usize, load: &mut [(u8, u8); 16], total: u32) -> bool {
            st.steps += 1;
            if c == st.n || st.steps > 20_000 {
                return true;
            }
            for w in 0..st.nw {
                let v = st.via[c][w];
                if v >= INF {
                    continue;
                }
                let (k, need) = load[w];
                let need2 = need.max(k + 1).max(v);
                let total2 = total + need2 as u32 - need as u32;
                if total2 > st.limit {
                    continue;
                }
                load[w] = (k + 1, need2);
                let ok = go(st, c + 1, load, total2);
                load[w] = (k, need);
                if ok {
                    return true;
                }
            }
            false
        }
        let mut load = [(0u8, 0u8); 16];
        let mut total = 0u32;
        for w in 0..nw {
            load[w] = (0, own[w]);
            total += own[w] as u32;
        }
        let mut st = St { via: &via, n, nw, limit: self.fixed.m as u32, steps: 0 };
        go(&mut st, 0, &mut load, total)
    }

    pub(super) fn fate_dfs(&mut self, i: usize, spent: u8, caps: u8) {
        self.count_node();
        if self.found.overflow {
            return;
        }
        let rem = (self.commit.order.len() - i) as u32;
        if !self.blocks_fit(i, self.king.budget - spent) || !self.pins_possible(rem) {
            return;
        }
        if rem == 0 {
            // One completion per way to meet the requirements (at most 8: beyond, one
            // without commitment, which only weakens the search).
            let mut reqs = ReqList::default();
            let mut ways = Vec::new();
            match self.requirements(0, &mut reqs) {
                Holding::Needs => self.ways(reqs.as_slice(), 9, 0, &mut ways),
                Holding::Unbounded => {}
                Holding::Never => unreachable!("checked above"),
            }
            if ways.is_empty() || ways.len() > 8 {
                ways = vec![[(0, 0); 16]];
            }
            for way in ways {
                if !self.frozen_fit(&way) || !self.stalemate_placeable(&way) {
                    continue;
                }
                // Every unit in the order of [`Enumeration::canon`].
                for ci in 0..self.fixed.canon.len() {
                    let c = self.fixed.canon[ci];
                    if let Some(u) = self.pic.chosen.iter().find(|u| u.sq == c.sq && u.mater == c.mater) {
                        self.found.fates.push(Entry::of(u.end));
                        continue;
                    }
                    let w = self.fixed.maters.iter().position(|m| m.0 == c.square()).expect("a stalemating unit");
                    let entry = match way[w] {
                        (0, _) => Entry::Free,
                        (set, kinds) => {
                            self.found.segs.push(set);
                            Entry::Hold { kinds, seg: (self.found.segs.len() - 1) as u32 }
                        }
                    };
                    self.found.fates.push(entry);
                }
            }
            if self.found.fates.len() > MAX_COMPLETIONS * self.fixed.canon.len() {
                self.found.overflow = true;
            }
            return;
        }
        let b = self.commit.order[i];
        let sq = self.fixed.blockers[b].0;
        // Captured: by a move of the stalemating side, one capture each.
        if caps < self.fixed.m {
            self.pic.chosen.push(Tracked::on(sq, false, End::Captured));
            if self.captures_possible(self.king.budget - spent) {
                self.fate_dfs(i + 1, spent, caps + 1);
            }
            self.pic.chosen.pop();
        }
        for j in 0..self.fixed.fate_opts[b].len() {
            let Target { to, kind: k2, cost: c } = self.fixed.fate_opts[b][j];
            if spent + c > self.king.budget {
                break;
            }
            if (self.commit.occ | self.commit.foreign) >> to & 1 == 1 {
                continue;
            }
            // A unit that can never be immobile there: the node placing it would stop
            // at once (counted as it would be).
            if self.never_immobile(k2 as usize, to as usize, rem - 1) {
                self.count_node();
                if self.found.overflow {
                    return;
                }
                continue;
            }
            self.pic.chosen.push(Tracked::on(sq, false, End::As { kind: k2, to }));
            self.commit.occ |= 1 << to;
            let checked = true;
            if checked {
                self.commit.checks.push((k2, to));
            }
            self.fate_dfs(i + 1, spent + c, caps);
            if checked {
                self.commit.checks.pop();
            }
            self.commit.occ &= !(1 << to);
            self.pic.chosen.pop();
            if self.found.overflow {
                return;
            }
        }
    }
}

/// A placed stalemated unit that its own side cannot block: a unit of the stalemating
/// side must end on one of the squares as one of the kinds (a bit per kind index) of
/// one alternative (squares 0: no alternative).
#[derive(Clone, Copy)]
pub(super) struct Req {
    alts: [(u64, u8); 2],
    /// Placed with units still to place: one of those may block it instead (see
    /// [`Enumeration::requirements`]).
    optional: bool,
}

/// The requirements of [`Enumeration::requirements`], one per placed stalemated unit at
/// most (at most 16: the full commitment takes no more).
#[derive(Clone, Copy)]
pub(super) struct ReqList {
    items: [Req; 16],
    len: usize,
}

impl Default for ReqList {
    fn default() -> ReqList {
        ReqList { items: [Req { alts: [(0, 0); 2], optional: false }; 16], len: 0 }
    }
}

impl ReqList {
    fn push(&mut self, r: Req) {
        self.items[self.len] = r;
        self.len += 1;
    }

    /// Drops the optional requirements, keeping the order of the others.
    fn retain_required(&mut self) {
        let mut w = 0;
        for i in 0..self.len {
            if !self.items[i].optional {
                self.items[w] = self.items[i];
                w += 1;
            }
        }
        self.len = w;
    }

    fn as_slice(&self) -> &[Req] {
        &self.items[..self.len]
    }
}

/// What [`Enumeration::requirements`] found.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Holding {
    /// Some placed unit can be held by nothing.
    Never,
    /// No requirement, or too many to use (no bound).
    Unbounded,
    /// The requirements written.
    Needs,
}

/// Every kind (a bit per kind index), as the kinds of a [`Req`] alternative.
pub(super) const ANY_KIND: u8 = (1 << super::super::tables::KINDS) - 1;
