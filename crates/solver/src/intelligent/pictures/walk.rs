//! The search of the pictures: one walk over the help (series) moves keeping the
//! pictures, or their completions, still in reach at each node.

use super::*;

/// The keys of the sub-positions without a solution (already hashes: not hashed again).
pub(super) type Memo = HashSet<u64, std::hash::BuildHasherDefault<KeyHasher>>;

/// A hasher for keys that are hashes already.
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// A hasher for small keys that are not hashes (the packed entries of [`Demands`]): a
/// multiplication, its high half folded onto the low one (both feed the table).
#[derive(Default)]
pub(super) struct WordHasher(u64);

impl std::hash::Hasher for WordHasher {
    fn finish(&self) -> u64 {
        let h = self.0.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        h ^ h >> 32
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// Impossible, as a distance.
pub(super) const OUT: u16 = 1000;

/// A completion in reach: its index, and its sums (each side's committed distances, its
/// units to be captured still on the board, the leaper-checker's extra moves).
#[derive(Clone, Copy, Debug)]
pub(super) struct Reach {
    ci: u32,
    mater: u16,
    mated: u16,
    caps: u8,
    pen: u16,
}

/// The completions' entries, indexed per unit for [`Walk::step`]: unit `i`'s distinct
/// entries are `list[base[i] + j]` for `j` from 1 (0 stands for [`Entry::Free`]), and
/// completion `ci`'s entry for unit `i` is `pic[ci * n + i]`.
pub(super) struct Demands {
    n: usize,
    base: Vec<usize>,
    list: Vec<Entry>,
    pic: Vec<u16>,
    /// Per entry of `list`: the step that last computed its change, and the change of
    /// (distance, units to capture, extra moves).
    cache: Vec<(u32, i32, i32, i32)>,
    stamp: u32,
}

impl Demands {
    /// `fates`: an entry per unit for each completion (`n` units).
    pub(super) fn new(fates: &[Entry], n: usize) -> Demands {
        // (Keyed by the packed entries: one word to hash and compare.)
        type Index = std::collections::HashMap<u64, u16, std::hash::BuildHasherDefault<WordHasher>>;
        let mut per: Vec<Index> = vec![Default::default(); n];
        let mut lists: Vec<Vec<Entry>> = vec![vec![Entry::Free]; n];
        let mut pic = Vec::with_capacity(fates.len());
        for (x, &e) in fates.iter().enumerate() {
            let i = x % n;
            let key = e.packed();
            if key == Entry::Free.packed() {
                pic.push(0);
                continue;
            }
            let j = *per[i].entry(key).or_insert_with(|| {
                lists[i].push(e);
                (lists[i].len() - 1) as u16
            });
            pic.push(j);
        }
        let mut base = Vec::with_capacity(n + 1);
        let mut list = Vec::new();
        for l in lists {
            base.push(list.len());
            list.extend(l);
        }
        base.push(list.len());
        let cache = vec![(0, 0, 0, 0); list.len()];
        Demands { n, base, list, pic, cache, stamp: 0 }
    }
}

/// The search of one picture.
pub(super) struct Walk<'a> {
    /// The tables of the board with its holes ([`tables_for`]).
    t: &'a Tables,
    units: &'a mut [Tracked],
    /// The picture's completions: per completion an entry for each unit of `units` in
    /// order (none when the units are committed themselves).
    fates: &'a [Entry],
    /// The completions' entries per unit (with completions).
    demands: Option<Demands>,
    segs: &'a [u64],
    /// Full commitment: the completions still in reach with their sums, a range per
    /// node on the path (`live[live_start..]` the current node's).
    live: Vec<Reach>,
    live_start: usize,
    /// The live list is still to be made (at the walk's first node).
    fresh: bool,
    mater: Colour,
    /// Stalemate pictures: the stalemate filter on the last ply, none on the one before.
    stalemate: bool,
    memo: &'a mut Memo,
    found: &'a mut Lines,
    notes: Notes,
    /// The zones of the stalemated side's moves at the node being searched two plies
    /// from the end (help) or at its last series move (`ser-h=`).
    zones: Option<super::super::stalemate::Zones>,
    /// Per node on the path, by moves left: where it stands ([`Walk::possible`]).
    nodes: Vec<NodeInfo>,
    /// Per move entered on the path: the live range before it and the units it moved.
    trail: Vec<((usize, usize), [usize; 3])>,
    /// The moves entered on the path.
    path: Vec<Move>,
    /// When the walk finds every line from each node (its completions are all the
    /// pictures: see the module doc, *Searching pictures together*): the nodes with
    /// lines, by their table key, with their node in `found` (lent to the other paths to
    /// them, [`Lines::graft`]).
    solved: Option<Solved>,
}

/// The nodes with lines of a walk (see [`Walk::solved`]).
pub(super) type Solved = std::collections::HashMap<u64, At, std::hash::BuildHasherDefault<KeyHasher>>;

impl Walk<'_> {
    /// Each side's committed distance (mating side, mated side), and the number of units
    /// to be captured still on the board (each needs a move of the mating side).
    pub(super) fn sums(&self, game: &Game) -> (u32, u32, u32) {
        let (mc, dc) = (colour_index(self.mater), colour_index(self.mater.opponent()));
        let kq = self.units[0].to();
        let mut s = (0u32, 0u32, 0u32);
        for u in self.units.iter() {
            if u.end == End::Captured {
                s.2 += u32::from(u.sq.is_some());
                continue;
            }
            let k = kind_at(game, u.sq).map_or(0, |(_, k)| k);
            if u.mater {
                s.0 += cost(self.t, u, mc, k) as u32;
                // A leaper checking at the end makes the mating move: on its square
                // already, it must leave and come back (a pawn cannot).
                if u.sq.is_some_and(|sq| u.kind_to() == Some((k, sq as usize))) && leaper_checks(u, kq, mc) {
                    s.0 += if k == PAWN.index() { INF as u32 } else { 2 };
                }
            } else {
                s.1 += cost(self.t, u, dc, k) as u32;
            }
        }
        s
    }

    pub(super) fn key(&self, game: &Game, plies: u32) -> u64 {
        let mut h = game.pos.hash() ^ (plies as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        for (i, u) in self.units.iter().enumerate() {
            h ^=
                u.sq.map_or(0, |sq| u64::from(sq) + 1)
                    .wrapping_mul(0xff51_afd7_ed55_8ccd)
                    .rotate_left(7 * i as u32 + 1);
        }
        h
    }

    /// The committed distance of the mover's side (`mater`: the mating side; colour
    /// index `c`; `sum` before) after `m`.
    pub(super) fn after(&self, game: &Game, m: &Move, mater: bool, c: usize, sum: u32) -> i32 {
        let mut sum = sum as i32;
        let from = Some(m.from.index() as u8);
        for u in self.units.iter() {
            if u.mater != mater {
                continue;
            }
            if u.sq == from {
                let k = kind_at(game, from).map_or(0, |(_, k)| k);
                let k2 = m.promo.map_or(k, |p| p.index());
                let moved = Tracked { sq: Some(m.to.index() as u8), ..*u };
                sum += cost(self.t, &moved, c, k2) as i32 - cost(self.t, u, c, k) as i32;
            } else if let Some((rf, rt)) = m.castle
                && u.sq == Some(rf.index() as u8)
            {
                let k = kind_at(game, u.sq).map_or(0, |(_, k)| k);
                let moved = Tracked { sq: Some(rt.index() as u8), ..*u };
                sum += cost(self.t, &moved, c, k) as i32 - cost(self.t, u, c, k) as i32;
            }
        }
        sum
    }

    /// What completion entry `e` asks of its unit, now on `sq` as kind `k` (of the mating
    /// side when `mater`): (moves of its side, whether it is a unit to be captured still
    /// on the board, the leaper-checker's extra moves while the mating side has moves
    /// left). A unit no longer on the board (`sq` none) that must stay on it: [`OUT`].
    pub(super) fn entry(&self, e: Entry, sq: Option<u8>, k: usize, mater: bool) -> (u16, u8, u16) {
        let t = self.t;
        let c = colour_index(if mater { self.mater } else { self.mater.opponent() });
        let sq = match e {
            Entry::Free => return (0, 0, 0),
            Entry::Captured => return (0, u8::from(sq.is_some()), 0),
            _ => match sq {
                Some(sq) => sq as usize,
                None => return (OUT, 0, 0),
            },
        };
        match e {
            Entry::Free | Entry::Captured => (0, 0, 0),
            Entry::Block { to } => (u16::from(t.block(c, k, sq)[to as usize]), 0, 0),
            Entry::As { kind, to } => (u16::from(t.reach(c, k, sq, kind as usize, to as usize)), 0, 0),
            Entry::Checker { kind, to } => {
                // A leaper checking at the end makes the mating move: on its target
                // already, it must leave and come back (a pawn cannot).
                let (kind, to) = (kind as usize, to as usize);
                let d = t.reach(c, k, sq, kind, to);
                let pen = if sq == to && k == kind { if kind == PAWN.index() { OUT } else { 2 } } else { 0 };
                (u16::from(d), 0, pen)
            }
            Entry::Hold { kinds, seg } => {
                let mut best = INF;
                let mut seg = self.segs[seg as usize];
                while seg != 0 {
                    let x = seg.trailing_zeros() as usize;
                    seg &= seg - 1;
                    if kinds == ANY_KIND {
                        best = best.min(t.block(c, k, sq)[x]);
                    } else {
                        for k2 in 0..=KING.index() {
                            if kinds >> k2 & 1 == 1 {
                                best = best.min(t.reach(c, k, sq, k2, x));
                            }
                        }
                    }
                }
                (u16::from(best), 0, 0)
            }
        }
    }

    /// Whether a completion with these sums is in reach with the moves left (the
    /// leaper-checker's extra moves count while the mating side has moves left).
    pub(super) fn in_reach(r: &Reach, mated_left: u32, mater_left: u32) -> bool {
        let pen = if mater_left > 0 { u32::from(r.pen) } else { 0 };
        u32::from(r.mated) <= mated_left && u32::from(r.mater) + pen <= mater_left && u32::from(r.caps) <= mater_left
    }

    /// The live list at the walk's first node: every completion in reach here, with its
    /// sums (see [`Walk::step`]). Without completions: `true`.
    pub(super) fn init_live(&mut self, game: &Game, mated_left: u32, mater_left: u32) -> bool {
        if self.fates.is_empty() || !self.fresh {
            return true;
        }
        self.fresh = false;
        let n = self.units.len();
        let mut here = [(None, 0usize, false); 32];
        for (h, u) in here.iter_mut().zip(self.units.iter()) {
            let k = kind_at(game, u.sq).map_or(0, |(_, k)| k);
            *h = (u.sq, k, u.mater);
        }
        let start = self.live.len();
        for ci in 0..self.fates.len() / n {
            let comp = &self.fates[ci * n..(ci + 1) * n];
            let mut r = Reach { ci: ci as u32, mater: 0, mated: 0, caps: 0, pen: 0 };
            for (&(sq, k, mater), &e) in here[..n].iter().zip(comp) {
                let (d, c, pen) = self.entry(e, sq, k, mater);
                if mater {
                    r.mater = r.mater.saturating_add(d);
                } else {
                    r.mated = r.mated.saturating_add(d);
                }
                r.caps += c;
                r.pen = r.pen.saturating_add(pen);
            }
            if Self::in_reach(&r, mated_left, mater_left) {
                self.live.push(r);
            }
        }
        self.live_start = start;
        self.live.len() > start
    }

    /// Full commitment: keeps, of the completions in reach at this node
    /// (`live[live_start..]`), those still in reach after `m` (played from `game`), with
    /// `mated_left` and `mater_left` moves left then, as the new live range; `false`
    /// when none is (the caller restores the range). A completion is in reach when
    /// none of its units that stay on the board has been captured, its units to be
    /// captured still on the board are at most the mating side's moves left, and each
    /// side's distances (its units to their final squares and kinds, a blocker to its
    /// square as any kind, a pinner to one of its pinning squares as a line piece, a
    /// leaper checking at the end on its final square already two more) fit within its
    /// moves left. The sums are kept per completion and changed by the units `m` moves
    /// (the mover, a castling rook, the captured unit). Without completions: `true`.
    pub(super) fn step(&mut self, game: &Game, m: &Move, mated_left: u32, mater_left: u32) -> bool {
        if self.fates.is_empty() {
            return true;
        }
        // (unit index, before (square, kind), after (square, kind))
        let mut mv = [(0usize, (None, 0usize), (None, 0usize)); 3];
        let mut nm = 0;
        let from = Some(m.from.index() as u8);
        if let Some(i) = self.units.iter().position(|u| u.sq == from) {
            let k = kind_at(game, from).map_or(0, |(_, k)| k);
            mv[nm] = (i, (from, k), (Some(m.to.index() as u8), m.promo.map_or(k, |p| p.index())));
            nm += 1;
        }
        if let Some((rf, rt)) = m.castle
            && let Some(i) = self.units.iter().position(|u| u.sq == Some(rf.index() as u8))
        {
            mv[nm] = (i, (Some(rf.index() as u8), ROOK.index()), (Some(rt.index() as u8), ROOK.index()));
            nm += 1;
        }
        if let Some(cs) = m.capture
            && let Some(i) = self.units.iter().position(|u| u.sq == Some(cs.index() as u8))
        {
            let cs = Some(cs.index() as u8);
            let k = kind_at(game, cs).map_or(0, |(_, k)| k);
            mv[nm] = (i, (cs, k), (None, 0));
            nm += 1;
        }
        let mut dm = self.demands.take().expect("completions indexed");
        dm.stamp = dm.stamp.wrapping_add(1);
        if dm.stamp == 0 {
            dm.cache.iter_mut().for_each(|c| c.0 = 0);
            dm.stamp = 1;
        }
        let n = dm.n;
        let (a, b) = (self.live_start, self.live.len());
        for li in a..b {
            let mut r = self.live[li];
            let row = r.ci as usize * n;
            for &(i, (s0, k0), (s1, k1)) in &mv[..nm] {
                let j = dm.pic[row + i] as usize;
                if j == 0 {
                    continue;
                }
                let g = dm.base[i] + j;
                if dm.cache[g].0 != dm.stamp {
                    let e = dm.list[g];
                    let mater = self.units[i].mater;
                    let (d0, c0, p0) = self.entry(e, s0, k0, mater);
                    let (d1, c1, p1) = self.entry(e, s1, k1, mater);
                    dm.cache[g] = (
                        dm.stamp,
                        i32::from(d1) - i32::from(d0),
                        i32::from(c1) - i32::from(c0),
                        i32::from(p1) - i32::from(p0),
                    );
                }
                let (_, dd, dc, dp) = dm.cache[g];
                if self.units[i].mater {
                    r.mater = (i32::from(r.mater) + dd) as u16;
                } else {
                    r.mated = (i32::from(r.mated) + dd) as u16;
                }
                r.caps = (i32::from(r.caps) + dc) as u8;
                r.pen = (i32::from(r.pen) + dp) as u16;
            }
            if Self::in_reach(&r, mated_left, mater_left) {
                self.live.push(r);
            }
        }
        self.demands = Some(dm);
        if self.live.len() == b {
            return false;
        }
        self.live_start = b;
        true
    }

    /// Moves the committed units along `m` (the mover, a castling rook, a captured unit
    /// taken off); returns which.
    pub(super) fn follow(&mut self, m: &Move) -> [usize; 3] {
        follow(self.units, m)
    }

    /// Undoes [`Walk::follow`].
    pub(super) fn unfollow(&mut self, m: &Move, moved: [usize; 3]) {
        if moved[2] != usize::MAX
            && let Some(cs) = m.capture
        {
            self.units[moved[2]].sq = Some(cs.index() as u8);
        }
        if moved[0] != usize::MAX {
            self.units[moved[0]].sq = Some(m.from.index() as u8);
        }
        if moved[1] != usize::MAX
            && let Some((rf, _)) = m.castle
        {
            self.units[moved[1]].sq = Some(rf.index() as u8);
        }
    }
}

impl Walk<'_> {
    /// Whether move `m` of the mover (`mater`: the mating side; its committed distance
    /// `sum`, `left` moves of its own left counting this one; `lefts`: the mating and the
    /// mated side's moves left before it) keeps a picture in reach. Without completions:
    /// it takes no committed unit of the other side, and the mover's committed distance
    /// still fits after it. Then [`Walk::step`]: some completion stays in reach after it
    /// (kept as the new live range, which the caller restores).
    pub(super) fn admits(
        &mut self,
        game: &Game,
        m: &Move,
        mater: bool,
        sum: u32,
        left: u32,
        lefts: (u32, u32),
    ) -> bool {
        if self.fates.is_empty() {
            if let Some(cs) = m.capture
                && self
                    .units
                    .iter()
                    .any(|u| u.mater != mater && u.sq == Some(cs.index() as u8) && u.end != End::Completed)
            {
                return false;
            }
            let c = colour_index(if mater { self.mater } else { self.mater.opponent() });
            if self.after(game, m, mater, c, sum) > left as i32 - 1 {
                return false;
            }
        }
        let (mater_left, mated_left) = lefts;
        let (mater_next, mated_next) = if mater { (mater_left - 1, mated_left) } else { (mater_left, mated_left - 1) };
        self.step(game, m, mated_next, mater_next)
    }
}

/// Where a node of the walk stands (see [`Walk::possible`]).
#[derive(Clone, Copy, Default)]
pub(super) struct NodeInfo {
    /// The node's key in the memo.
    key: u64,
    /// The side to move is the mating side.
    mover_is_mater: bool,
    /// Its committed distance (without completions).
    sum: u32,
    /// Its moves left, counting the one to make.
    left: u32,
    /// The mating side's moves left, and the mated side's.
    lefts: (u32, u32),
}

impl Walk<'_> {
    /// The node with `n` plies (series moves) left on the path.
    pub(super) fn at(&mut self, n: u32) -> &mut NodeInfo {
        let n = n as usize;
        if self.nodes.len() <= n {
            self.nodes.resize(n + 1, NodeInfo::default());
        }
        &mut self.nodes[n]
    }
}

/// The key of a node in the searcher's table (help play: mate in exactly `n` plies;
/// series play: in exactly `n` series moves), as the normal search keeps it.
pub(super) fn table_key(game: &Game, play: Play, n: u32) -> u64 {
    match play {
        Play::Help => Table::key(game.pos.hash(), Q::Help, n, 0),
        _ => Table::key(game.pos.hash(), Q::Series, n, play as u32),
    }
}

/// The walk as the hooks of the help and series driver ([`Searcher::help_node`],
/// [`Searcher::series_node`]): every line is searched, the nodes and moves outside the
/// pictures (completions) in reach left out.
impl Hooks for Walk<'_> {
    const ALL: bool = true;

    fn known(&mut self, s: &mut Searcher, play: Play, n: u32) -> Option<bool> {
        let key = self.key(&s.game, if play == Play::Help { n } else { n + 1000 });
        self.at(n).key = key;
        if self.memo.contains(&key) {
            return Some(false);
        }
        // Completions: the answer is the position's (see the module doc, *Searching
        // pictures together*).
        if !self.fates.is_empty() && n >= 2 && s.table.get(table_key(&s.game, play, n)) == Some(false) {
            return Some(false);
        }
        // Its lines found by another path: shared.
        let from = self.solved.as_ref().and_then(|solved| solved.get(&table_key(&s.game, play, n)).copied())?;
        self.found.graft(&self.path, from);
        Some(true)
    }

    /// Each side's committed distances within its moves left, the units to capture
    /// within the mating side's moves, and (with completions) some completion in reach
    /// ([`Walk::init_live`]); the node is kept as [`NodeInfo`] for its moves.
    fn possible(&mut self, s: &mut Searcher, play: Play, n: u32) -> bool {
        let mover_is_mater = s.game.pos.side() == self.mater;
        // (With completions every unit is [`End::Completed`]: the sums are the live list's.)
        let (sm, sd, cap) = if self.fates.is_empty() { self.sums(&s.game) } else { (0, 0, 0) };
        let (mine, other) = if mover_is_mater { (sm, sd) } else { (sd, sm) };
        let (left, other_left) = match play {
            Play::Help => (n.div_ceil(2), n / 2),
            _ => (n, u32::from(play == Play::SeriesHelp)),
        };
        let (mater_left, mated_left) = if mover_is_mater { (left, other_left) } else { (other_left, left) };
        if mine > left || other > other_left || cap > mater_left || !self.init_live(&s.game, mated_left, mater_left) {
            let key = self.at(n).key;
            self.memo.insert(key);
            return false;
        }
        let at = self.at(n);
        (at.mover_is_mater, at.sum, at.left, at.lefts) = (mover_is_mater, mine, left, (mater_left, mated_left));
        true
    }

    /// Help play: the last-two-ply filters of the mate or of the stalemate; `ser-h=`: the
    /// zones at the last series move (with the stalemating answer, the last two plies).
    fn filter(&mut self, game: &mut Game, play: Play, n: u32, moves: &mut Vec<Move>) -> bool {
        let zones = match play {
            Play::Help if self.stalemate => {
                if n == 1 {
                    super::super::stalemate::filter_last(game, moves, &mut self.notes);
                }
                n == 2
            }
            Play::Help => {
                if n == 1 {
                    filter_last(game, moves);
                } else if n == 2 {
                    filter_second_last(game, moves);
                }
                false
            }
            _ => self.stalemate && n == 1 && play == Play::SeriesHelp,
        };
        if !zones {
            return false;
        }
        self.zones = super::super::stalemate::zones(game, &mut self.notes);
        self.zones.is_some()
    }

    fn keeps(&mut self, game: &mut Game, _play: Play, _n: u32, m: &Move) -> bool {
        self.zones.as_ref().is_none_or(|zs| super::super::stalemate::second_last_ok(game, zs, m))
    }

    /// [`Walk::admits`]: some picture (completion) stays in reach after `m`; the
    /// committed units are then followed through it.
    fn enter(&mut self, game: &Game, _play: Play, n: u32, m: &Move) -> bool {
        let saved = (self.live_start, self.live.len());
        let at = self.nodes[n as usize];
        if !self.admits(game, m, at.mover_is_mater, at.sum, at.left, at.lefts) {
            return false;
        }
        // (From the last move on nothing reads the units' squares.)
        let moved = if n > 1 { self.follow(m) } else { [usize::MAX; 3] };
        self.trail.push((saved, moved));
        self.path.push(*m);
        true
    }

    fn leave(&mut self, m: &Move) {
        let Some(((start, len), moved)) = self.trail.pop() else {
            return;
        };
        self.path.pop();
        self.unfollow(m, moved);
        self.live_start = start;
        self.live.truncate(len);
    }

    fn found(&mut self, line: &[Move]) {
        self.found.insert(line);
    }

    fn last(&mut self, s: &mut Searcher, play: Play, m: &Move, prefix: &mut Vec<Move>) -> Result<bool, Interrupted> {
        let found = &mut *self.found;
        let mut hit = false;
        s.series_last(play, m, prefix, &mut |_, line: &[Move], answer| {
            found.insert_then(line, answer);
            hit = true;
            true
        })?;
        Ok(hit)
    }

    /// A node without a line goes to the walk's memo; with completions its answer goes to
    /// the searcher's table too (a fact of the position: see the module doc).
    fn record(&mut self, s: &mut Searcher, play: Play, n: u32, res: bool) {
        if !res {
            let key = self.nodes[n as usize].key;
            self.memo.insert(key);
        } else if self.solved.is_some()
            && let Some(at) = self.found.node_at(&self.path)
            && let Some(solved) = &mut self.solved
        {
            solved.insert(table_key(&s.game, play, n), at);
        }
        if !self.fates.is_empty() && n >= 2 {
            s.table.put(table_key(&s.game, play, n), n, res);
        }
    }
}

/// Searches every picture of a mate by `mater` with `walk` (`budgets`: as in
/// [`pictures_for`]), and returns the lines found (`None`: the method does not apply).
#[allow(clippy::too_many_arguments)]
pub(super) fn every_picture(
    s: &mut Searcher,
    cache: &mut Cache,
    mater: Colour,
    budgets: (u32, u32, u32, u32),
    cheap: bool,
    parent: Option<Parent>,
    prefix: &mut Vec<Move>,
    mut walk: impl FnMut(&mut Walk<'_>, &mut Searcher, &mut Vec<Move>) -> Result<bool, Interrupted>,
) -> Result<Option<Lines>, Interrupted> {
    let stalemate = match s.goal {
        Goal::Mate => false,
        Goal::Stalemate => true,
        Goal::Any => return Ok(None),
    };
    let from_parent = parent.and_then(|p| Some((parent_pictures(s, cache, mater, stalemate, &p, cheap)?, p.first)));
    let (pictures, first) = match from_parent {
        Some((pictures, first)) => (pictures, Some(first)),
        // (A cheap enumeration that failed for the parent is not tried again here.)
        None if cheap && parent.is_some() => return Ok(None),
        None => match pictures_for(cache, &s.game, mater, stalemate, budgets, cheap) {
            Some(pictures) => (pictures, None),
            None => return Ok(None),
        },
    };
    let Pictures { units, ranges, fates, segs } = &*pictures;
    let mut all = units.clone();
    if let Some(first) = &first {
        // Each picture's units, from the parent's squares to this position's.
        follow(&mut all, first);
    }
    let mut memo = Memo::default();
    let kept = tables_for(s.game.pos.holes().0);
    let base = prefix.len();
    let mut found = Lines::new(base);
    // One walk of every completion finds every line from each of its nodes.
    let whole = ranges.len() == 1 && !fates.is_empty();
    for &(a, b, c, d) in ranges {
        memo.clear();
        let mut w = Walk {
            t: &kept,
            units: &mut all[a..b],
            fates: &fates[c..d],
            demands: (d > c).then(|| Demands::new(&fates[c..d], b - a)),
            segs,
            live: Vec::new(),
            live_start: 0,
            fresh: true,
            mater,
            stalemate,
            memo: &mut memo,
            found: &mut found,
            notes: Notes::new(),
            zones: None,
            nodes: Vec::new(),
            trail: Vec::new(),
            path: Vec::new(),
            solved: whole.then(Solved::default),
        };
        walk(&mut w, s, prefix)?;
        debug_assert_eq!(prefix.len(), base);
    }

    Ok(Some(found))
}

/// Moves the units on the squares `m` moves along it (the mover, a castling rook, a
/// captured unit taken off); returns the index of the last of each.
pub(super) fn follow(units: &mut [Tracked], m: &Move) -> [usize; 3] {
    let mut moved = [usize::MAX; 3];
    let from = Some(m.from.index() as u8);
    let cs = m.capture.map(|c| c.index() as u8);
    for (i, u) in units.iter_mut().enumerate() {
        if u.sq.is_some() && u.sq == cs {
            u.sq = None;
            moved[2] = i;
        } else if u.sq == from {
            u.sq = Some(m.to.index() as u8);
            moved[0] = i;
        } else if let Some((rf, rt)) = m.castle
            && u.sq == Some(rf.index() as u8)
        {
            u.sq = Some(rt.index() as u8);
            moved[1] = i;
        }
    }
    moved
}
