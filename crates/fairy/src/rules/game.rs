//! A position with its rules: generation glue (walks, extra moves, filters, choices),
//! legality (make/unmake), legal moves, status, perft.

use super::*;

/// A position together with its rules: move generation, legality, make/unmake.
#[derive(Clone, Debug)]
pub struct Game {
    pub rules: RuleSet,
    pub pos: Position,
    pub(super) pool: Vec<Vec<Move>>,
    /// The kinds each side (white, black) had in the diagram, one bit per kind index.
    pub diagram_kinds: [u128; 2],
    /// How many legality tests judging by the opponent's replies are running, one inside
    /// the other ([`Capabilities::judges_by_replies`]): the replies such a test weighs are
    /// judged by the same tests (a check's mate test looks at replies that may check back),
    /// down to [`MAX_REPLY_DEPTH`] nested tests; deeper replies skip them.
    pub(super) reply_depth: u8,
    /// Bit `i`: `rules.filters[i]` is judging a list now, and it is one that judges its
    /// nested lists itself ([`Capabilities::filter_unnested`]), so they skip it.
    pub(super) judging: u64,
}

/// The most legality tests judging by the replies that run one inside the other (see
/// [`Game::reply_depth`]). Popeye nests its Checkless mate tests without a practical bound;
/// chains of checks answered by checks are short in real problems.
pub const MAX_REPLY_DEPTH: u8 = 8;

/// Keeps the moves of `out[start..]` that satisfy `keep`, in order (in place).
pub(super) fn keep_from(out: &mut Vec<Move>, start: usize, keep: impl Fn(&Move) -> bool) {
    let mut w = start;
    for i in start..out.len() {
        let m = out[i];
        if keep(&m) {
            out[w] = m;
            w += 1;
        }
    }
    out.truncate(w);
}

impl Game {
    /// A game from a diagram: the conditions' diagram attributes are given to its units.
    pub fn new(rules: RuleSet, mut pos: Position) -> Game {
        if !rules.diagram_marks.is_empty() {
            for sq in pos.occupied() {
                let u = pos.unit(sq).expect("occupied");
                let attrs = rules.diagram_marks.iter().fold(u.attrs, |a, c| a | c.diagram_attrs(u));
                pos.setup_attrs(sq, attrs);
            }
        }
        if let Some(t) = rules.substitution {
            pos.setup_map_kinds(|k| t[k.index() % walk::KINDS]);
        }
        for c in &rules.conditions {
            c.setup(&mut pos);
        }
        // Under conditions every state field is hashed exactly; orthodox play keeps the
        // core's scheme (equal to the chess crate's hash).
        if !rules.conditions.is_empty() && !pos.exact_state() {
            pos.set_exact_state(true);
        }
        let mut diagram_kinds = [0u128; 2];
        for sq in pos.occupied() {
            let u = pos.unit(sq).expect("occupied");
            match u.colour() {
                Colour::White => diagram_kinds[0] |= 1 << u.kind().index(),
                Colour::Black => diagram_kinds[1] |= 1 << u.kind().index(),
                Colour::Shared => {}
            }
        }
        Game { rules, pos, pool: Vec::new(), diagram_kinds, reply_depth: 0, judging: 0 }
    }

    /// The units of `side` that may move (every unit unless a condition restricts them).
    #[inline]
    pub fn mobile_units(&self, side: Colour) -> Bitboard {
        let mut m = Bitboard::FULL;
        for c in &self.rules.mobility {
            m &= c.mobile_units(&self.pos, side);
        }
        m
    }

    /// A cleared move buffer from the game's pool (give it back with [`Game::give_buf`]):
    /// conditions that list moves in their hooks use it to avoid allocating per call.
    pub fn take_buf(&mut self) -> Vec<Move> {
        let mut v = self.pool.pop().unwrap_or_else(|| Vec::with_capacity(128));
        v.clear();
        v
    }
    /// Returns a buffer taken with [`Game::take_buf`] to the pool.
    pub fn give_buf(&mut self, v: Vec<Move>) {
        self.pool.push(v);
    }

    /// Pseudo-legal moves of `mover`, with every choice expanded.
    pub fn pseudo_moves(&self, mover: Colour, out: &mut Vec<Move>) {
        self.pseudo_moves_from(mover, Bitboard::FULL, out)
    }

    /// [`Game::pseudo_moves`] of the units of `mover` standing on `from_mask`.
    pub fn pseudo_moves_from(&self, mover: Colour, from_mask: Bitboard, out: &mut Vec<Move>) {
        self.pseudo_moves_where(mover, from_mask, None, out)
    }

    /// [`Game::pseudo_moves_from`] keeping only the captures of a unit on `targets`
    /// (filtered before the admit tests and the choices: the same moves, found faster).
    pub fn pseudo_captures_from(&self, mover: Colour, from_mask: Bitboard, targets: Bitboard, out: &mut Vec<Move>) {
        self.pseudo_moves_where(mover, from_mask, Some(targets), out)
    }

    fn pseudo_moves_where(&self, mover: Colour, from_mask: Bitboard, targets: Option<Bitboard>, out: &mut Vec<Move>) {
        let origin_hook = &self.rules.capture_origin;
        // A neutral unit captures for the side moving it (Mars Circe: from that side's
        // rebirth square), also when that side is not the one to move (check tests).
        let origin = move |p: &Position, from: Square, u: Unit| match origin_hook {
            Some(c) => c.capture_origin(p, from, if u.colour() == Colour::Shared { u.with_colour(mover) } else { u }),
            None => Some(from),
        };
        let rules = &self.rules;
        let promo_ok =
            |p: &Position, to: Square, u: Unit| rules.conditions.iter().all(|c| c.promotes_by_capture(p, to, u, rules));
        let can_move = |u: Unit| rules.conditions.iter().all(|c| c.can_move(u));
        let gp = GenParams {
            capture_promotes: &promo_ok,
            can_move: &can_move,
            promotions: &self.rules.promotions,
            pawn_first_rank_immobile: self.rules.pawn_first_rank_immobile,
            capture_origin: &origin,
            promotion_rank: self.rules.promotion_rank,
            first_rank_steps: self.rules.pawn_first_rank_steps,
            capture_own: self.rules.capture_own,
            any_unit: self.rules.any_unit,
            castling: !self.rules.castling_off,
            mobile: self.mobile_units(mover),
            captures_only: targets.is_some(),
        };
        let start = out.len();
        moves::generate_from(&self.pos, mover, &gp, from_mask, out);
        for c in &self.rules.extra_moves {
            c.extra_moves(&self.pos, mover, &gp, out);
        }
        if let Some(t) = targets {
            keep_from(out, start, |m| m.capture.is_some_and(|c| t.has(c)));
        }
        if !self.rules.admit.is_empty() {
            let mut keep = start;
            for i in start..out.len() {
                let m = out[i];
                if self.rules.admit.iter().all(|c| c.admit(&self.pos, mover, &m)) {
                    out[keep] = m;
                    keep += 1;
                }
            }
            out.truncate(keep);
        }
        if !self.rules.choices.is_empty() {
            let end = out.len();
            for i in start..end {
                let m = out[i];
                for k in 1..self.rules.alternatives(&self.pos, &m) {
                    out.push(Move { choice: k, ..m });
                }
            }
        }
    }

    /// Plays `mv` for the side to move if it is legal (the frame stays open: call
    /// [`Game::unmake`]); returns `None` and leaves the position unchanged otherwise.
    pub fn make(&mut self, mv: &Move) -> Option<Notes> {
        let mut notes = Notes::new();
        self.make_into(mv, &mut notes).then_some(notes)
    }

    /// [`Game::make`] writing the notes into `notes`; `false`: the move is illegal (and
    /// the position unchanged).
    pub fn make_into(&mut self, mv: &Move, notes: &mut Notes) -> bool {
        self.make_inner(mv, notes).is_some()
    }

    fn make_inner(&mut self, mv: &Move, notes: &mut Notes) -> Option<()> {
        let mover = self.pos.side();
        if let Some(u) = self.pos.turn_unit()
            && mv.from != u
        {
            // A multi-move turn: only this unit may move.
            return None;
        }
        let board_before = if self.rules.turns.is_some() { self.pos.board().hash() } else { 0 };
        let royals = count_royals(&self.pos, mover);
        if let Some((rook_from, _)) = mv.castle {
            // The castling king's side (under `any_unit`, possibly the opponent's king).
            let side = match self.pos.unit(mv.from).map(|u| u.colour()) {
                Some(c) if c != Colour::Shared => c,
                _ => mover,
            };
            if self.in_check(side) {
                return None;
            }
            // The king may not cross an observed square: stand it on each square strictly
            // between its start and its destination and look (its destination is checked
            // after the move). The rook stays where it is unless the king must stand on
            // its square (Chess960).
            let step = |a: u8, b: u8| (b as i8 - a as i8).signum();
            let (df, dr) = (step(mv.from.file(), mv.to.file()), step(mv.from.rank(), mv.to.rank()));
            let mut sq = mv.from;
            while let Some(next) = sq.offset(df, dr)
                && next != mv.to
                && (df, dr) != (0, 0)
            {
                sq = next;
                self.pos.begin();
                let k = self.pos.remove(mv.from).expect("king");
                if sq == rook_from {
                    self.pos.remove(rook_from);
                }
                let crossed_ok = !self.pos.blocked(sq) && {
                    self.pos.add(sq, k);
                    !self.in_check(side)
                };
                self.pos.rollback();
                if !crossed_ok {
                    return None;
                }
            }
        }
        let their_royals = if self.rules.check_rule.is_some() { count_royals(&self.pos, mover.opponent()) } else { 0 };
        self.play_into(mv, mover, notes).ok()?;
        if self.rules.check_rule.is_some()
            && !self.rules.royals_capturable
            && count_royals(&self.pos, mover.opponent()) < their_royals
        {
            // Kings are never captured when a condition redefines check.
            self.pos.rollback();
            return None;
        }
        if (!self.rules.kings_ordinary && count_royals(&self.pos, mover) < royals)
            || (!self.rules.self_check_allowed && self.in_check(mover))
        {
            self.pos.rollback();
            return None;
        }
        // Too deep inside tests judging by the replies, the replies skip such tests.
        let tests =
            if self.reply_depth >= MAX_REPLY_DEPTH { self.rules.first_reply_test } else { self.rules.legality.len() };
        for i in 0..tests {
            let c = self.rules.legality[i].clone();
            if !c.legal_after(&mut Ctx(self), mover) {
                self.pos.rollback();
                return None;
            }
        }
        for i in 0..self.rules.rights.len() {
            let c = self.rules.rights[i].clone();
            c.recompute_rights(&mut Ctx(self));
        }
        if let Some(c) = self.rules.turns.clone()
            && !c.end_of_move(&mut Ctx(self), mover, mv, board_before)
        {
            self.pos.rollback();
            return None;
        }
        Some(())
    }

    /// Takes back the last move made.
    pub fn unmake(&mut self) {
        self.pos.rollback();
    }

    /// Every legal move of the side to move.
    pub fn legal_moves(&mut self, out: &mut Vec<Move>) {
        let mut buf = self.take_buf();
        let mut notes = Notes::new();
        self.pseudo_moves(self.pos.side(), &mut buf);
        let start = out.len();
        let mut refused: Vec<Move> = Vec::new();
        for m in &buf {
            if self.make_into(m, &mut notes) {
                self.unmake();
                out.push(*m);
            } else if self.rules.choices_all_or_nothing {
                refused.push(*m);
            }
        }
        if !refused.is_empty() {
            let same = |a: &Move, b: &Move| Move { choice: 0, ..*a } == Move { choice: 0, ..*b };
            keep_from(out, start, |m| !refused.iter().any(|r| same(r, m)));
        }
        if self.rules.must_capture && out[start..].iter().any(|m| m.capture.is_some()) {
            keep_from(out, start, |m| m.capture.is_some());
        }
        for i in 0..self.rules.filters.len() {
            let bit = 1u64 << i;
            if self.judging & bit != 0 {
                continue;
            }
            let c = self.rules.filters[i].clone();
            self.judging |= bit & self.rules.filters_unnested;
            c.filter_legal(&mut Ctx(self), out, start);
            self.judging &= !bit;
        }
        self.give_buf(buf);
    }

    /// Whether the side to move has a legal move, when the one condition filtering its list
    /// can tell without the list ([`Condition::any_legal`]); `None`: build the list.
    pub fn any_legal_by_filter(&mut self) -> Option<bool> {
        let r = &self.rules;
        if r.must_capture || r.choices_all_or_nothing {
            return None;
        }
        let mut active = (0..r.filters.len()).filter(|i| self.judging & (1u64 << i) == 0);
        let (Some(i), None) = (active.next(), active.next()) else { return None };
        let c = r.filters[i].clone();
        let bit = 1u64 << i;
        let saved = self.judging;
        self.judging |= bit & self.rules.filters_unnested;
        let any = c.any_legal(&mut Ctx(self));
        self.judging = saved;
        any
    }

    /// Whether the side to move has a legal move as its goals are judged: the filters that
    /// rule only the moves played ([`Capabilities::filter_outside_goals`]) left out. Without
    /// such filters, whether it has a legal move.
    pub fn has_move_for_goals(&mut self) -> bool {
        let saved = self.judging;
        self.judging |= self.rules.filters_outside_goals;
        let mut buf = self.take_buf();
        buf.clear();
        self.legal_moves(&mut buf);
        let any = !buf.is_empty();
        self.give_buf(buf);
        self.judging = saved;
        any
    }

    /// Whether the rules judge goals on other moves than the legal ones
    /// ([`Game::has_move_for_goals`]).
    pub fn goals_judged_apart(&self) -> bool {
        self.rules.filters_outside_goals != 0
    }

    /// Whether a condition ended the game in this position, whose legal moves are `legal`,
    /// so that it satisfies no goal ([`Condition::voids_goals`]: a dead position under
    /// Dead Reckoning is neither mate nor stalemate).
    pub fn goals_void(&mut self, legal: &[Move]) -> bool {
        for i in 0..self.rules.conditions.len() {
            let c = self.rules.conditions[i].clone();
            if c.voids_goals(&mut Ctx(self), legal) {
                return true;
            }
        }
        false
    }

    /// This position under the same rules without condition `c` (compared by identity):
    /// for a condition that searches under the problem's other rules.
    pub fn without(&self, c: &dyn Condition) -> Game {
        Game {
            rules: self.rules.without(c),
            pos: self.pos.clone(),
            pool: Vec::new(),
            diagram_kinds: self.diagram_kinds,
            reply_depth: 0,
            judging: 0,
        }
    }

    /// The status of the side to move, whose legal moves are `legal`: a condition may
    /// decide it ([`Condition::status`]); else no move and in check loses, no move
    /// otherwise draws.
    pub fn status(&mut self, legal: &[Move]) -> chimere_core::Status {
        for i in 0..self.rules.conditions.len() {
            let c = self.rules.conditions[i].clone();
            if let Some(s) = c.status(&mut Ctx(self), legal) {
                return s;
            }
        }
        if !legal.is_empty() {
            return chimere_core::Status::Ongoing;
        }
        let side = self.pos.side();
        if self.in_check(side) { chimere_core::Status::win_for(side.opponent()) } else { chimere_core::Status::Draw }
    }

    /// Leaf count to `depth` (every leaf made and unmade).
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut buf = self.take_buf();
        if self.rules.must_capture || !self.rules.filters.is_empty() {
            self.legal_moves(&mut buf);
        } else {
            self.pseudo_moves(self.pos.side(), &mut buf);
        }
        let mut n = 0;
        let mut notes = Notes::new();
        for m in &buf {
            if self.make_into(m, &mut notes) {
                n += self.perft(depth - 1);
                self.unmake();
            }
        }
        self.give_buf(buf);
        n
    }
}
