//! Check is observation: whether the opponent could remove a royal unit, by attack
//! tables when every condition allows, else by playing the opponent's captures.

use super::*;

/// Number of set squares, for the few royal units a side has (one loop per unit: cheaper
/// than a software population count on targets without `popcnt`).
#[inline]
pub(super) fn sparse_count(b: Bitboard) -> u32 {
    let (mut x, mut n) = (b.0, 0);
    while x != 0 {
        x &= x - 1;
        n += 1;
    }
    n
}

/// The royal units of `side`. A royal unit hidden below another (Circe Parachute: a king that captures on the
/// captured unit's rebirth square is covered by it) still counts: it is not lost, and it
/// comes back when the square is vacated.
/// The squares whose royal units are `side`'s: its own units and the neutral ones (a
/// neutral king is the king of both sides: a side is in check when the opponent, its
/// units and the neutral ones, could take it).
#[inline]
fn royal_colours(pos: &Position, side: Colour) -> Bitboard {
    pos.board().colour(side) | pos.board().colour(Colour::Shared)
}

/// Whether a royal unit of colour `unit` is a royal unit of `side`.
#[inline]
fn owns_royal(unit: Colour, side: Colour) -> bool {
    unit == side || unit == Colour::Shared
}

/// Whether a neutral unit is royal (a neutral king, or a neutral unit with the attribute).
fn neutral_royals(pos: &Position) -> bool {
    let b = pos.board();
    let shared = b.colour(Colour::Shared);
    (shared & b.kind(KING)).any()
        || (pos.has_royal_attrs()
            && Iterator::any(&mut shared.into_iter(), |s| pos.unit(s).is_some_and(|u| u.has(ROYAL))))
}

pub(super) fn count_royals(pos: &Position, side: Colour) -> u32 {
    let b = pos.board();
    let own = royal_colours(pos, side);
    let mut n = sparse_count(b.kind(KING) & own);
    for (_, u) in pos.underworld() {
        if owns_royal(u.colour(), side) && (u.kind() == KING || u.has(ROYAL)) {
            n += 1;
        }
    }
    if !pos.has_royal_attrs() {
        return n;
    }
    for s in own & !b.kind(KING) {
        if pos.unit(s).is_some_and(|u| u.has(ROYAL)) {
            n += 1;
        }
    }
    n
}

impl Game {
    /// Is side `side` in check (could the opponent remove one of its royal units)?
    pub fn in_check(&mut self, side: Colour) -> bool {
        if self.rules.kings_ordinary {
            return false;
        }
        if self.rules.check_rule.is_some()
            && let Some(c) = self.rules.check_rule.clone()
            && let Some(b) = c.check_rule(&mut Ctx(self), side)
        {
            return b;
        }
        let by = side.opponent();
        if self.rules.observation == Observation::Attack {
            let mobile = self.mobile_units(by);
            let b = self.pos.board();
            let own = royal_colours(&self.pos, side);
            let candidates = if self.pos.has_royal_attrs() { own } else { own & b.kind(KING) };
            let pfri = self.rules.pawn_first_rank_immobile;
            for s in candidates {
                let u = self.pos.unit(s).expect("occupied");
                let mut from = mobile;
                for c in &self.rules.capture_masks {
                    from &= c.capture_squares(s);
                }
                if (u.kind() == KING || u.has(ROYAL))
                    && (moves::attacked_from(&self.pos, by, s, pfri, from)
                        || self.rules.observers.iter().any(|c| c.extra_observation(&mut self.pos, by, s, pfri)))
                {
                    return true;
                }
            }
            return false;
        }
        let all = self.rules.observation == Observation::AllCaptures;
        // Only units reaching a royal square by their walks can capture a royal unit (a
        // royal pawn may also be taken en passant; capture origins move the walks).
        let mut from_mask = Bitboard::FULL;
        if !all {
            let b = self.pos.board();
            let own = royal_colours(&self.pos, side);
            let mut royal = own & b.kind(KING);
            if self.pos.has_royal_attrs() {
                for s in own & !b.kind(KING) {
                    if self.pos.unit(s).is_some_and(|u| u.has(ROYAL)) {
                        royal.set(s);
                    }
                }
            }
            from_mask = self.capture_candidates(by, royal);
            if from_mask.is_empty() {
                return false;
            }
        }
        let shortcut =
            self.rules.royal_capture.is_some() && self.pos.underworld().is_empty() && self.pos.holes().is_empty();
        self.captures_remove_royal(side, from_mask, shortcut)
    }

    /// A superset of the units of `by` that may capture a unit on one of the `targets`
    /// squares by a pseudo-legal move (every unit when capture origins move the walks or a
    /// target holds a pawn, which may be taken en passant).
    pub fn capture_candidates(&self, by: Colour, targets: Bitboard) -> Bitboard {
        if self.rules.capture_origin.is_some()
            || self.rules.any_unit
            || self.rules.gained_walks
            || !self.rules.extra_moves.is_empty()
            || (targets & self.pos.board().kind(PAWN)).any()
        {
            return Bitboard::FULL;
        }
        let mut mask = Bitboard::EMPTY;
        for s in targets {
            mask |= moves::capture_candidates(&self.pos, by, s);
        }
        mask
    }

    /// The reference (slow) check detection for rules that observe by playing captures:
    /// every pseudo-legal capture of the opponent is generated and played through the
    /// pipeline. [`Game::in_check`] must agree with it.
    pub fn in_check_reference(&mut self, side: Colour) -> bool {
        if self.rules.kings_ordinary || self.rules.observation == Observation::Attack {
            return self.in_check(side);
        }
        if let Some(c) = self.rules.check_rule.clone()
            && let Some(b) = c.check_rule(&mut Ctx(self), side)
        {
            return b;
        }
        self.captures_remove_royal(side, Bitboard::FULL, false)
    }

    /// Whether a capture by the opponent of `side` from `from_mask` removes a royal unit of
    /// `side` (with `shortcut`: asking [`Condition::royal_capture`] before playing).
    fn captures_remove_royal(&mut self, side: Colour, from_mask: Bitboard, shortcut: bool) -> bool {
        let royals = count_royals(&self.pos, side);
        if royals == 0 {
            return false;
        }
        let by = side.opponent();
        let all = self.rules.observation == Observation::AllCaptures;
        let mut buf = self.take_buf();
        let mut notes = Notes::new();
        let b = self.pos.board();
        let targets = if all {
            Bitboard::FULL
        } else if self.pos.has_royal_attrs() {
            royal_colours(&self.pos, side)
        } else {
            royal_colours(&self.pos, side) & b.kind(KING)
        };
        self.pseudo_captures_from(by, from_mask, targets, &mut buf);
        let mut found = false;
        for m in &buf {
            let Some(c) = m.capture else { continue };
            if !all {
                let Some(u) = self.pos.unit(c) else { continue };
                if !(u.kind() == KING || u.has(ROYAL)) || !owns_royal(u.colour(), side) {
                    continue;
                }
                if shortcut
                    && let Some(rc) = &self.rules.royal_capture
                    && let Some(lost) = rc.royal_capture(&self.pos, by, m, &self.rules)
                {
                    if lost {
                        found = true;
                        break;
                    }
                    continue;
                }
            }
            if self.play_into(m, by, &mut notes).is_ok() {
                let lost = count_royals(&self.pos, side) < royals;
                self.pos.rollback();
                if lost {
                    found = true;
                    break;
                }
            }
        }
        self.give_buf(buf);
        found
    }
}

/// Which moves of the side to move may give check, told without playing them: a
/// conservative test ([`CheckFilter::may_check`] is true for every move after which the
/// opponent is in check; it may also be true for others). Built by
/// [`Game::check_filter`] only for rule sets where a move's effect on the board and the
/// check test are simple enough for the test to be exact in that sense:
///
/// - check is the attack of a royal unit by the walks (no check rule, no extra
///   observation, no restriction of which units may move, no gained walks, kings royal),
///   or a capture of a royal unit the rules accept when no unit attacks one by its walks
///   before the move (no other moves, no unit of either side moved);
/// - a non-capturing move changes only its departure, arrival and castling partner's
///   squares (no `AfterMove` transformation, no stacks, no multi-move turns, no hidden
///   unit waiting, no hole); a capture is "maybe" unless no condition has capture
///   consequences;
/// - the attacking units walk as leapers, pawns, riders or grasshoppers (no rose, no
///   locust);
/// - the opponent is not in check before the move.
///
/// Then a new attack on a royal square `r` needs, on some line from `r`: the first
/// obstacle leaving (the second too when a grasshopper may use the first as its hurdle),
/// a rider of that line arriving up to the first obstacle, a grasshopper arriving up to
/// the second, or a unit arriving next to `r` (a new hurdle); or a unit arriving where
/// its leap or pawn capture reaches `r`.
#[derive(Clone, Copy, Debug)]
pub struct CheckFilter {
    /// The opponent's royal squares.
    royals: Bitboard,
    /// The first obstacles on the lines from the royal squares.
    first: Bitboard,
    /// A unit leaving one of these squares may open a line onto a royal square: a first
    /// obstacle with a rider of that line behind it (or any obstacle up to the second
    /// when a grasshopper may hop).
    vacate: Bitboard,
    /// Rook, bishop and knight lines from the royal squares up to the first obstacle,
    /// and up to the second (for a unit leaving the first obstacle).
    rook1: Bitboard,
    bishop1: Bitboard,
    knight1: Bitboard,
    rook2: Bitboard,
    bishop2: Bitboard,
    knight2: Bitboard,
    /// A unit arriving here becomes a hurdle a grasshopper may use (empty without one).
    hurdles: Bitboard,
    /// Squares from which a knight, a king, a pawn (either direction) attacks a royal.
    knight_from: Bitboard,
    king_from: Bitboard,
    pawn_from: Bitboard,
    /// Captures change nothing but the captured square (no capture consequences).
    plain_captures: bool,
    /// The opponent (the side that would be in check).
    them: Colour,
}

/// The squares from `r` stepping by `(df, dr)` up to and including the first obstacle
/// and up to the second, and these obstacles (if any).
fn segment(r: Square, df: i8, dr: i8, occ: Bitboard) -> (Bitboard, Bitboard, Option<Square>, Option<Square>) {
    let mut b = Bitboard::EMPTY;
    let mut b2 = Bitboard::EMPTY;
    let mut cur = r;
    let mut first = None;
    while let Some(s) = cur.offset(df, dr) {
        if first.is_none() {
            b.set(s);
        }
        b2.set(s);
        if occ.has(s) {
            if first.is_some() {
                return (b, b2, first, Some(s));
            }
            first = Some(s);
        }
        cur = s;
    }
    (b, b2, first, None)
}

impl CheckFilter {
    /// Whether `mv` (pseudo-legal for the side to move of `pos`, the position the filter
    /// was built for) may leave the opponent in check.
    #[inline]
    pub fn may_check(&self, pos: &Position, mv: &Move) -> bool {
        if mv.shift.is_some() || mv.stack != 0 || mv.via.is_some() || mv.castle.is_some() {
            return true;
        }
        if let Some(c) = mv.capture
            && (c != mv.to || !self.plain_captures)
        {
            // En passant (two squares left), capture consequences.
            return true;
        }
        if (self.vacate | self.royals).has(mv.from) {
            return true;
        }
        let Some(u) = pos.unit(mv.from) else { return true };
        let kind = mv.promo.unwrap_or(u.kind());
        let t = mv.to;
        if self.hurdles.has(t) {
            return true;
        }
        if u.colour() == self.them {
            // The opponent's unit moved by this side (any unit may move): it attacks
            // nothing of its own side, unless it becomes royal.
            return kind == KING || u.has(ROYAL);
        }
        // Leaving a first obstacle, the unit may arrive up to the second on that line.
        let (rook, bishop, knight) = if self.first.has(mv.from) {
            (self.rook2, self.bishop2, self.knight2)
        } else {
            (self.rook1, self.bishop1, self.knight1)
        };
        match kind {
            k if k == PAWN => self.pawn_from.has(t),
            k if k == walk::KNIGHT => self.knight_from.has(t),
            k if k == KING => self.king_from.has(t),
            k if k == walk::BISHOP => bishop.has(t),
            k if k == walk::ROOK => rook.has(t),
            k if k == walk::QUEEN => (rook | bishop).has(t),
            k if k == walk::GRASSHOPPER => (self.rook2 | self.bishop2).has(t),
            k if k == walk::NIGHTRIDER => knight.has(t),
            k if k == walk::DUMMY => false,
            _ => true,
        }
    }
}

impl Game {
    /// A [`CheckFilter`] for the moves of the side to move, if the rule set and the
    /// position allow one (see there).
    pub fn check_filter(&mut self) -> Option<CheckFilter> {
        let r = &self.rules;
        if r.kings_ordinary
            || r.check_rule.is_some()
            || r.observation == Observation::AllCaptures
            || !r.observers.is_empty()
            || !r.mobility.is_empty()
            || r.gained_walks
            || !r.after_move.is_empty()
            || !r.arrival.is_empty()
            || r.base_move.is_some()
            || r.turns.is_some()
            || r.capture_origin.is_some()
        {
            return None;
        }
        let plain_captures = r.on_capture.is_empty() && r.choices.is_empty();
        let pos = &self.pos;
        if !pos.underworld().is_empty() || pos.holes().any() || neutral_royals(pos) {
            return None;
        }
        let us = pos.side();
        let them = us.opponent();
        let b = pos.board();
        let mine = pos.movable(us);
        use walk::*;
        let simple = [PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, NIGHTRIDER, GRASSHOPPER, DUMMY];
        let mut known = Bitboard::EMPTY;
        for k in simple {
            known |= b.kind(k);
        }
        if (mine & !known).any() {
            return None;
        }
        let mut royals = b.colour(them) & b.kind(KING);
        if pos.has_royal_attrs() {
            for s in b.colour(them) & !b.kind(KING) {
                if pos.unit(s).is_some_and(|u| u.has(ROYAL)) {
                    royals.set(s);
                }
            }
        }
        if self.rules.observation == Observation::KingCaptures {
            // Check is a capture of a royal unit the rules accept: it needs a capture by
            // the walks (no other moves, no royal pawn taken en passant), and none may
            // exist now (whether it would be accepted may change with any square).
            if self.rules.any_unit
                || !self.rules.extra_moves.is_empty()
                || (royals & b.kind(PAWN)).any()
                || Iterator::any(&mut royals.clone(), |s| moves::attacked_from(pos, us, s, false, Bitboard::FULL))
            {
                return None;
            }
        } else if self.in_check(them) {
            return None;
        }
        let pos = &self.pos;
        let occ = pos.board().occupied();
        let hoppers = (mine & pos.board().kind(GRASSHOPPER)).any();
        let nightriders = (mine & pos.board().kind(NIGHTRIDER)).any();
        let board = pos.board();
        let riders = |s: Square, kinds: [Kind; 2]| {
            mine.has(s) && board.get(s).is_some_and(|p| p.kind == kinds[0] || p.kind == kinds[1])
        };
        let mut f = CheckFilter {
            royals,
            first: Bitboard::EMPTY,
            vacate: Bitboard::EMPTY,
            rook1: Bitboard::EMPTY,
            bishop1: Bitboard::EMPTY,
            knight1: Bitboard::EMPTY,
            rook2: Bitboard::EMPTY,
            bishop2: Bitboard::EMPTY,
            knight2: Bitboard::EMPTY,
            hurdles: Bitboard::EMPTY,
            knight_from: Bitboard::EMPTY,
            king_from: Bitboard::EMPTY,
            pawn_from: Bitboard::EMPTY,
            plain_captures,
            them,
        };
        for r in royals {
            for (df, dr) in QUEEN_DIRS {
                let (seg1, seg2, first, second) = segment(r, df, dr, occ);
                let straight = df == 0 || dr == 0;
                if straight {
                    f.rook1 |= seg1;
                    f.rook2 |= seg2;
                } else {
                    f.bishop1 |= seg1;
                    f.bishop2 |= seg2;
                }
                if let Some(o1) = first {
                    f.first.set(o1);
                    let line = if straight { [ROOK, QUEEN] } else { [BISHOP, QUEEN] };
                    if second.is_some_and(|o2| riders(o2, line)) {
                        f.vacate.set(o1);
                    }
                    if hoppers && let Some(o2) = second {
                        f.vacate.set(o2);
                    }
                }
            }
            for (df, dr) in KNIGHT_STEPS {
                let (seg1, seg2, first, second) = segment(r, df, dr, occ);
                f.knight1 |= seg1;
                f.knight2 |= seg2;
                if let Some(o1) = first {
                    f.first.set(o1);
                    if nightriders && second.is_some_and(|o2| riders(o2, [NIGHTRIDER, NIGHTRIDER])) {
                        f.vacate.set(o1);
                    }
                }
            }
            f.knight_from |= chimere_core::attacks::knight(r);
            f.king_from |= chimere_core::attacks::king(r);
            f.pawn_from |= chimere_core::attacks::pawn(true, r) | chimere_core::attacks::pawn(false, r);
        }
        if hoppers {
            f.hurdles = f.king_from;
        }
        Some(f)
    }
}
