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

pub(super) fn count_royals(pos: &Position, side: Colour) -> u32 {
    let b = pos.board();
    let mut n = sparse_count(b.kind(KING) & b.colour(side));
    if !pos.has_royal_attrs() {
        return n;
    }
    for s in b.colour(side) & !b.kind(KING) {
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
            let candidates = if self.pos.has_royal_attrs() { b.colour(side) } else { b.colour(side) & b.kind(KING) };
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
            let mut royal = b.colour(side) & b.kind(KING);
            if self.pos.has_royal_attrs() {
                for s in b.colour(side) & !b.kind(KING) {
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
        self.pseudo_moves_from(by, from_mask, &mut buf);
        let mut found = false;
        for m in &buf {
            let Some(c) = m.capture else { continue };
            if !all {
                let Some(u) = self.pos.unit(c) else { continue };
                if !(u.kind() == KING || u.has(ROYAL)) || u.colour() != side {
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
