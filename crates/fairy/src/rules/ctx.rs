//! What a condition's judging hooks may do with a game ([`Ctx`]).

use super::*;
use std::ops::ControlFlow;

/// What a condition's judging hooks ([`Condition::check_rule`], [`Condition::legal_after`],
/// [`Condition::filter_legal`], [`Condition::end_of_move`], [`Condition::status`]) may do
/// with the game: read the position and the rules, change the position through its journal
/// (undone before returning, except the turn state [`Condition::end_of_move`] records),
/// generate, play and take back moves, ask check. The rules cannot be changed.
pub struct Ctx<'a>(pub(super) &'a mut Game);

impl Ctx<'_> {
    pub fn pos(&self) -> &Position {
        &self.0.pos
    }
    /// The position, to change through its journal ([`Position::begin`] /
    /// [`Position::rollback`]).
    pub fn pos_mut(&mut self) -> &mut Position {
        &mut self.0.pos
    }
    pub fn rules(&self) -> &RuleSet {
        &self.0.rules
    }
    /// The kinds `side` had in the diagram, one bit per kind index (none for neutrals).
    pub fn diagram_kinds(&self, side: Colour) -> u128 {
        match side {
            Colour::White => self.0.diagram_kinds[0],
            Colour::Black => self.0.diagram_kinds[1],
            Colour::Shared => 0,
        }
    }
    /// See [`Game::in_check`].
    pub fn in_check(&mut self, side: Colour) -> bool {
        self.0.in_check(side)
    }
    /// See [`Game::pseudo_moves`].
    pub fn pseudo_moves(&self, mover: Colour, out: &mut Vec<Move>) {
        self.0.pseudo_moves(mover, out)
    }
    /// See [`Game::pseudo_moves_from`].
    pub fn pseudo_moves_from(&self, mover: Colour, from_mask: Bitboard, out: &mut Vec<Move>) {
        self.0.pseudo_moves_from(mover, from_mask, out)
    }
    /// See [`Game::pseudo_captures_from`].
    pub fn pseudo_captures_from(&self, mover: Colour, from_mask: Bitboard, targets: Bitboard, out: &mut Vec<Move>) {
        self.0.pseudo_captures_from(mover, from_mask, targets, out)
    }
    /// See [`Game::capture_candidates`].
    pub fn capture_candidates(&self, by: Colour, targets: Bitboard) -> Bitboard {
        self.0.capture_candidates(by, targets)
    }
    /// See [`Game::play`] (roll back with [`Position::rollback`]).
    pub fn play(&mut self, mv: &Move, mover: Colour) -> Result<Notes, Reject> {
        self.0.play(mv, mover)
    }
    /// See [`Game::play_into`] (roll back with [`Position::rollback`]).
    pub fn play_into(&mut self, mv: &Move, mover: Colour, notes: &mut Notes) -> Result<(), Reject> {
        self.0.play_into(mv, mover, notes)
    }
    /// See [`Game::make`] (take back with [`Ctx::unmake`]).
    pub fn make(&mut self, mv: &Move) -> Option<Notes> {
        self.0.make(mv)
    }
    pub fn unmake(&mut self) {
        self.0.unmake()
    }
    /// The legal moves of the side to move, for a legality test that looks at the replies
    /// (the replies it weighs): they are judged by the same tests, one level deeper, and
    /// without them below `MAX_REPLY_DEPTH` nested levels.
    pub fn legal_replies(&mut self, out: &mut Vec<Move>) {
        self.0.reply_depth += 1;
        self.0.legal_moves(out);
        self.0.reply_depth -= 1;
    }
    /// Whether the side to move has a legal move, for a legality test that looks at the
    /// replies (as [`Ctx::legal_replies`], one level deeper); stops at the first one found
    /// when no condition filters the whole list.
    pub fn has_legal_reply(&mut self) -> bool {
        let r = &self.0.rules;
        if !r.filters.is_empty() || r.must_capture || r.choices_all_or_nothing {
            let mut replies = self.take_buf();
            self.legal_replies(&mut replies);
            let any = !replies.is_empty();
            self.give_buf(replies);
            return any;
        }
        self.0.reply_depth += 1;
        let mut buf = self.take_buf();
        self.0.pseudo_moves(self.0.pos.side(), &mut buf);
        let mut notes = Notes::new();
        let mut any = false;
        for m in &buf {
            if self.0.make_into(m, &mut notes) {
                self.0.unmake();
                any = true;
                break;
            }
        }
        self.give_buf(buf);
        self.0.reply_depth -= 1;
        any
    }
    /// Visits the legal moves of the side to move (every filter included, as
    /// [`Ctx::legal_moves`]), each one made: `visit` sees the position after it, which is
    /// taken back after the call. Stops when `visit` breaks, and says whether it did. When no
    /// condition filters the whole list (or only ones judging their lists now), the moves
    /// are made as they are generated, so breaking early spares the rest.
    pub fn visit_legal(&mut self, mut visit: impl FnMut(&mut Ctx, &Move) -> ControlFlow<()>) -> bool {
        let g = &mut *self.0;
        let r = &g.rules;
        let all_filters = if r.filters.len() >= 64 { u64::MAX } else { (1u64 << r.filters.len()) - 1 };
        let whole_list = (all_filters & !g.judging) != 0 || r.must_capture || r.choices_all_or_nothing;
        let mut buf = self.take_buf();
        if whole_list {
            self.legal_moves(&mut buf);
        } else {
            self.0.pseudo_moves(self.0.pos.side(), &mut buf);
        }
        let mut notes = Notes::new();
        let mut stopped = false;
        for m in &buf {
            if !self.0.make_into(m, &mut notes) {
                continue;
            }
            stopped = visit(self, m).is_break();
            self.0.unmake();
            if stopped {
                break;
            }
        }
        self.give_buf(buf);
        stopped
    }
    /// Every legal move of the side to move, every filter included (see
    /// [`Game::legal_moves`]) except a judging filter that judges its nested lists itself
    /// ([`Capabilities::filter_unnested`]: Exclusif).
    pub fn legal_moves(&mut self, out: &mut Vec<Move>) {
        self.0.legal_moves(out);
    }
    /// The position under the rules without condition `c` (see [`Game::without`]): Dead
    /// Reckoning's deadness test searches under the problem's other rules.
    pub fn without(&self, c: &dyn Condition) -> Game {
        self.0.without(c)
    }
    /// See [`Game::take_buf`].
    pub fn take_buf(&mut self) -> Vec<Move> {
        self.0.take_buf()
    }
    /// See [`Game::give_buf`].
    pub fn give_buf(&mut self, v: Vec<Move>) {
        self.0.give_buf(v)
    }
}
