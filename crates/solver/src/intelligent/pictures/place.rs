//! The completion test of a stalemate picture: some final position fitting it, set up
//! on a scratch game, is a real stalemate.

use super::*;
use chimere_fairy::walk::DUMMY;

/// At most this many final positions are set up for one completion
/// ([`Enumeration::stalemate_placeable`]); beyond, the completion is kept untested.
pub(super) const MAX_PLACEMENTS: u32 = 2048;

/// At most this many units are placed in all (partial positions included) while one
/// completion is tested; beyond, it is kept untested.
pub(super) const MAX_PLACE_STEPS: u32 = 16 * MAX_PLACEMENTS;

/// The kinds by table index (P S B R Q K, the dummy).
pub(super) const KIND_OF: [Kind; super::super::tables::KINDS] = [PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, DUMMY];

/// A unit's possible final states while a completion is tested: (square, none for a unit
/// taken off the board; kind index; moves of its side).
pub(super) type Options = Vec<(Option<u8>, u8, u8)>;

impl Enumeration<'_> {
    /// Whether some final position fits the completion now chosen and is a real
    /// stalemate. Every unit gets a final square and kind: the stalemated king its square;
    /// a placed stalemated unit its own; a blocker its kind, a pawn blocker any kind it
    /// can stand there as; a committed stalemating unit its own; a holder (`way`) one of
    /// its squares and kinds; any other stalemating unit but the king is captured, stays,
    /// or stands on any square as any kind it reaches; the stalemating side's distances
    /// within its moves, no two units on one square. Each such position, with the
    /// stalemated side to move, no castling right and no en passant capture, is set up on
    /// the scratch game: one where the stalemating side is in check is no final position
    /// (it has just moved); one where the stalemated side is not in check and has no
    /// legal move is a stalemate. The real final position of a stalemate that fits the
    /// completion is among those set up, and without its castling rights and en passant
    /// state (which only add moves) it is still a stalemate; so a completion without any
    /// is dropped. When more than [`MAX_PLACEMENTS`] positions would be set up, the
    /// completion is kept untested.
    pub(super) fn stalemate_placeable(&mut self, way: &[(u64, u8); 16]) -> bool {
        let Some(mut g) = self.commit.scratch.take() else {
            return true;
        };
        let t = self.fixed.t;
        let (mc, dc) = (self.fixed.mc, self.fixed.dc);
        let mut opts: Vec<(Colour, Options)> = Vec::new();
        let (mater, mated) = if mc == 0 { (Colour::White, Colour::Black) } else { (Colour::Black, Colour::White) };
        opts.push((mated, vec![(Some(self.king.kq as u8), KING.index() as u8, 0)]));
        for u in self.pic.chosen[1..].iter().filter(|u| !u.mater) {
            let k = self.fixed.blockers.iter().find(|b| b.0 == u.square()).map_or(PAWN.index(), |b| b.1);
            let cost = |k2: usize, to: u8| t.reach(dc, k, u.square(), k2, to as usize);
            match u.end {
                End::Captured | End::Completed => {}
                End::Block { to } => {
                    let kinds: Options = if k == PAWN.index() {
                        (0..KING.index())
                            .map(|k2| (Some(to), k2 as u8, cost(k2, to)))
                            .filter(|o| o.2 <= self.king.budget)
                            .collect()
                    } else {
                        vec![(Some(to), k as u8, cost(k, to))]
                    };
                    opts.push((mated, kinds));
                }
                End::As { kind: k2, to } => opts.push((mated, vec![(Some(to), k2, cost(k2 as usize, to))])),
            }
        }
        let m = self.fixed.m;
        for (w, &(sq, k)) in self.fixed.maters.iter().enumerate() {
            let mut list: Options = Vec::new();
            if let Some((uk, to)) =
                self.pic.chosen.iter().find(|u| u.mater && u.square() == sq).and_then(Tracked::kind_to)
            {
                list.push((Some(to as u8), uk as u8, t.reach(mc, k, sq, uk, to)));
            } else {
                let (set, kinds) = if w < 16 { way[w] } else { (0, 0) };
                if set == 0 {
                    list.push((Some(sq as u8), k as u8, 0));
                    if k != KING.index() {
                        list.push((None, k as u8, 0));
                    }
                }
                let kinds = if set == 0 { ANY_KIND } else { kinds };
                let set = if set == 0 { u64::MAX } else { set };
                for to in 0..64 {
                    for k2 in 0..KIND_OF.len() {
                        if set >> to & 1 == 0 || kinds >> k2 & 1 == 0 || (to == sq && k2 == k && way[w].0 == 0) {
                            continue;
                        }
                        let c = t.reach(mc, k, sq, k2, to);
                        if c <= m {
                            list.push((Some(to as u8), k2 as u8, c));
                        }
                    }
                }
            }
            opts.push((mater, list));
        }
        let budgets = [m, self.king.budget];
        let mated_n = opts.iter().take_while(|o| o.0 == mated).count();
        let mut st = Place {
            opts: &opts,
            mater,
            budgets,
            tried: 0,
            steps: 0,
            moves: std::mem::take(&mut self.commit.moves),
            mated_n,
            kq: self.king.kq,
            holes: self.fixed.holes,
        };
        g.pos.begin();
        // No unit stands on a hole.
        let found = st.go(&mut g, 0, self.fixed.holes, [0, 0]);
        self.found.work += 4 * u64::from(st.steps) + 40 * u64::from(st.tried);
        g.pos.rollback();
        self.commit.moves = st.moves;
        self.commit.scratch = Some(g);
        found != Some(false)
    }
}

/// The scratch game of [`Enumeration::stalemate_placeable`]: `game` emptied of its
/// units (its holes kept), without castling rights or en passant state, `mated` to move.
pub(super) fn empty_scratch(game: &Game, mated: Colour) -> Game {
    let mut g = game.clone();
    let mut bb = g.pos.occupied().0;
    while bb != 0 {
        let sq = bb.trailing_zeros() as u8;
        bb &= bb - 1;
        g.pos.remove(chimere_core::Square::new(sq));
    }
    g.pos.set_rights(0);
    g.pos.set_ep(None);
    if g.pos.side() != mated {
        g.pos.flip_side();
    }
    g
}

/// The search of [`Enumeration::stalemate_placeable`] (see there).
pub(super) struct Place<'a> {
    opts: &'a [(Colour, Options)],
    mater: Colour,
    /// Moves of the stalemating side, and of the stalemated side besides its king's.
    budgets: [u8; 2],
    tried: u32,
    /// Units placed so far (partial positions included).
    steps: u32,
    moves: Vec<Move>,
    /// The stalemated side's units are `opts[..mated_n]`, its king on `kq`.
    mated_n: usize,
    kq: usize,
    holes: u64,
}

impl Place<'_> {
    /// Places unit `i` on, `occ` the squares taken, `spent` each side's moves (as
    /// [`Place::budgets`]): `Some(true)` a stalemate found, `Some(false)` none, `None`
    /// too many tried.
    pub(super) fn go(&mut self, g: &mut Game, i: usize, occ: u64, spent: [u8; 2]) -> Option<bool> {
        self.steps += 1;
        if self.steps > MAX_PLACE_STEPS {
            return None;
        }
        if i == self.mated_n && !self.may_be_immobile(g, occ) {
            return Some(false);
        }
        if i == self.opts.len() {
            self.tried += 1;
            if self.tried > MAX_PLACEMENTS {
                return None;
            }
            return Some(self.stalemate(g));
        }
        let (colour, ref list) = self.opts[i];
        let side = usize::from(colour != self.mater);
        for &(sq, k, c) in list {
            let mut spent = spent;
            spent[side] += c;
            if spent[side] > self.budgets[side] || sq.is_some_and(|sq| occ >> sq & 1 == 1) {
                continue;
            }
            let Some(sq) = sq else {
                // Taken off the board.
                match self.go(g, i + 1, occ, spent) {
                    Some(false) => continue,
                    r => return r,
                }
            };
            let at = chimere_core::Square::new(sq);
            g.pos.begin();
            g.pos.add(at, Unit::new(colour, KIND_OF[k as usize]));
            let r = self.go(g, i + 1, occ | 1 << sq, spent);
            g.pos.rollback();
            if r != Some(false) {
                return r;
            }
        }
        Some(false)
    }

    /// With the stalemated side's units set up on `g` (`occ`: their squares and the
    /// holes), whether each of its pieces but the king may still have no legal move
    /// once the other side's units are added: by `stalemate::immobility` with every
    /// final square of the side known (no square to add) and none of the other side's
    /// given, a piece judged `Never` has a legal move in every final position fitting
    /// this one (the proof there: its other side's squares only narrow the pins).
    fn may_be_immobile(&self, g: &Game, occ: u64) -> bool {
        use super::super::stalemate::{Immobile, immobility};
        let mated = self.mater.opponent();
        let b = g.pos.board();
        let mut bb = b.colour(mated).0;
        while bb != 0 {
            let sq = bb.trailing_zeros() as usize;
            bb &= bb - 1;
            let Some(k) = b.get(chimere_core::Square::new(sq as u8)).and_then(|p| super::super::table_kind(p.kind))
            else {
                continue;
            };
            if k == KING.index() || k == PAWN.index() {
                continue;
            }
            if immobility(k, sq, self.kq, occ | self.holes, 0, 0, mated == Colour::Black) == Immobile::Never {
                return false;
            }
        }
        true
    }

    /// Whether the position set up on `g` (the stalemated side to move) is a final
    /// position of a stalemate.
    pub(super) fn stalemate(&mut self, g: &mut Game) -> bool {
        let mated = self.mater.opponent();
        if g.in_check(self.mater) || g.in_check(mated) {
            return false;
        }
        let mut notes = Notes::new();
        self.moves.clear();
        g.pseudo_moves(mated, &mut self.moves);
        for m in &self.moves {
            if g.make_into(m, &mut notes) {
                g.unmake();
                return false;
            }
        }
        true
    }
}
