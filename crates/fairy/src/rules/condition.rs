//! The condition contract: the hook slots and their order ([`RANKS`]), what a condition
//! declares ([`Capabilities`]) and the hooks it may fill ([`Condition`]).

use super::*;

/// The hook slots. Their order here is the order in which the play pipeline runs them.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Slot {
    /// Generation: where a unit must stand to capture.
    CaptureOrigin,
    /// Choices: alternatives of one move's consequences.
    Choices,
    /// Play: the moved unit changes on arriving, before any consequence of a capture
    /// (a chameleon's next kind, which a rebirth of the capturer then carries).
    Arrival,
    /// Play: the capturing unit disappears (and becomes a victim the next slots may treat).
    CapturerVanishes,
    /// Play: the capturing unit is transferred elsewhere.
    CapturerRebirth,
    /// Play: what becomes of the victims (rebirth, ghost...).
    CapturedFate,
    /// Generation: filters on pseudo-legal moves (the move is not available at all).
    Admit,
    /// Play: transformations after every move (colour or kind changes, additions...).
    AfterMove,
}

/// The one central rank list: the order of the play pipeline, and which slots admit only
/// one condition.
pub const RANKS: &[(Slot, bool)] = &[
    (Slot::CaptureOrigin, true),
    (Slot::Choices, false),
    (Slot::Arrival, false),
    (Slot::CapturerVanishes, false),
    (Slot::CapturerRebirth, true),
    (Slot::CapturedFate, true),
    (Slot::AfterMove, false),
    (Slot::Admit, false),
];

/// How check must be decided under a condition.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Observation {
    /// Orthodox attack tables suffice.
    Attack,
    /// Play the opponent's captures of the royal squares and see whether a royal unit is lost.
    KingCaptures,
    /// Play every capture of the opponent (a rebirth may hit a royal unit).
    AllCaptures,
}

/// Order in which hidden units come back when their square is vacated.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Release {
    /// Last hidden first.
    Lifo,
    /// First hidden first.
    Fifo,
}

/// A move was refused by a consequence (occupied rebirth square, unused choice...).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Reject;

/// What a condition playing a move itself ([`Condition::base_move`]) tells the engine.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct BaseMove {
    /// The moving unit as it stood before the move.
    pub moving: Unit,
    /// The moving unit (promoted if it promoted) is the unit on the board on `mv.to`
    /// after the move (a pawn's step of two squares then gives en passant).
    pub stands: bool,
}

/// What a condition declares about itself, once, when a rule set is built: the hook slots
/// it fills, which optional hooks it implements, and the generic switches it turns on.
/// The engine reads only this data and the hooks; it never asks which condition it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// Slots this condition fills (their hooks are called in [`RANKS`] order).
    pub slots: Vec<Slot>,
    /// Slots this condition cannot share with another condition (the rule set is refused).
    pub excluded_slots: Vec<Slot>,
    /// What check detection this condition needs.
    pub observation: Observation,
    /// Pawns on their own first rank are immobile.
    pub pawn_first_rank_immobile: bool,
    /// The alternatives of a move stand or fall together: if one is illegal, all are.
    pub choices_all_or_nothing: bool,
    /// Release order of units hidden under a square (the condition has an underworld).
    pub release: Option<Release>,
    /// Attributes given to a unit coming back from under a square.
    pub released_attrs: u8,
    /// Kings are ordinary units: no check, they may be captured, pawns may promote to king.
    pub kings_ordinary: bool,
    /// Capturing is compulsory (any capture may be chosen).
    pub must_capture: bool,
    /// Pawns may also promote to king.
    pub king_promotion: bool,
    /// A move may leave the mover's own royal units attacked.
    pub self_check_allowed: bool,
    /// Units may also capture non-royal units of their own colour.
    pub capture_own: bool,
    /// Orthodox castling is not generated (forbidden, or replaced by the condition's own).
    pub castling_off: bool,
    /// Castling is written as the king's move and the partner's: `Ke1-g1/wRh1-f1`.
    pub castling_long_notation: bool,
    /// A side may move every unit of either colour (each moving for its own colour).
    pub any_unit: bool,
    /// The position keeps the last move played ([`Position::last_move`]).
    pub track_last_move: bool,
    /// The `Admit` filter never refuses a capture, so check by attack tables stays exact.
    pub admit_quiet_only: bool,
    /// The `Admit` filter restricts captures only by their departure and capture squares
    /// ([`Condition::capture_squares`]): check may keep the attack tables with a mask.
    pub admit_by_squares: bool,
    /// Units may move by walks other than their own kind's: check detection must then
    /// consider every unit as a possible capturer.
    pub gains_walks: bool,
    /// The rank (relative to the pawn's side, 0 = its first) on which pawns promote, if
    /// this condition moves it; 8 = pawns never promote.
    pub promotion_rank: Option<u8>,
    /// How many squares a pawn on its own first rank may advance, if this condition says
    /// (the default is 1).
    pub pawn_first_rank_steps: Option<u8>,
    /// Piece-set substitution: the kind that replaces each kind (index = kind), in the
    /// diagram and in promotions.
    pub substitution: Option<[Kind; walk::KINDS]>,
    /// Stacks: the most units one square may hold (a diagram may give a square several).
    pub stack_limit: Option<usize>,
    /// The condition decides check itself ([`Condition::check_rule`]).
    pub check_rule: bool,
    /// With [`Capabilities::check_rule`]: a move may capture a royal unit of the opponent
    /// (otherwise the engine refuses such moves: kings are never captured).
    pub royals_capturable: bool,
    /// The condition tests a move's legality after it is played ([`Condition::legal_after`]).
    pub legality: bool,
    /// That legality test looks at the opponent's replies: the replies it generates are
    /// judged without the reply tests (so the test stays finite).
    pub judges_by_replies: bool,
    /// The condition recomputes castling and e.p. rights after every legal move
    /// ([`Condition::recompute_rights`]).
    pub rights: bool,
    /// The condition filters the legal moves ([`Condition::filter_legal`]).
    pub filter: bool,
    /// The condition keeps the orthodox game's positions: it only forbids moves or
    /// recomputes rights from what retro-analysis of the position proves, or ends the game
    /// (Alsacien, Amnésie, Dead Reckoning). Rules made only of such conditions are
    /// orthodox for retro-analysis ([`RuleSet::retro_orthodox`]).
    pub retro_orthodox: bool,
    /// With [`Capabilities::filter`]: while this filter judges a list, the move lists
    /// generated inside its judging are not filtered by it again (the judging applies the
    /// rule itself: Exclusif's recursive goal test). The game keeps which filters are
    /// judging.
    pub filter_unnested: bool,
    /// With [`Capabilities::filter`]: the filter rules the moves played, not the goals:
    /// mate and stalemate are judged on the legal moves without it
    /// ([`crate::Game::has_move_for_goals`]; Black Checks, as Popeye judges them).
    pub filter_outside_goals: bool,
    /// The condition marks the diagram's units ([`Condition::diagram_attrs`]).
    pub diagram_attrs: bool,
    /// The condition decides when a turn ends ([`Condition::end_of_move`]).
    pub turns: bool,
    /// The condition adds moves ([`Condition::extra_moves`]).
    pub extra_moves: bool,
    /// The condition observes beyond the walks ([`Condition::extra_observation`]).
    pub extra_observation: bool,
    /// The condition restricts which units may move ([`Condition::mobile_units`]).
    pub mobility: bool,
    /// The condition plays some moves itself ([`Condition::base_move`]).
    pub base_move: bool,
    /// An attribute a pawn promoting on a square a condition placed it on may also take,
    /// and the kinds that may take it (Chameleon: a reborn pawn may promote into a
    /// chameleon of its sequence, `[+wPa8=Q=c]`, as in Popeye).
    pub promotee_attrs: Option<(u8, &'static [Kind])>,
}

impl Default for Capabilities {
    fn default() -> Self {
        Capabilities {
            slots: Vec::new(),
            excluded_slots: Vec::new(),
            observation: Observation::Attack,
            pawn_first_rank_immobile: false,
            choices_all_or_nothing: false,
            release: None,
            released_attrs: 0,
            kings_ordinary: false,
            must_capture: false,
            king_promotion: false,
            self_check_allowed: false,
            capture_own: false,
            castling_off: false,
            castling_long_notation: false,
            any_unit: false,
            track_last_move: false,
            admit_quiet_only: false,
            admit_by_squares: false,
            gains_walks: false,
            promotion_rank: None,
            pawn_first_rank_steps: None,
            substitution: None,
            stack_limit: None,
            check_rule: false,
            royals_capturable: false,
            legality: false,
            judges_by_replies: false,
            rights: false,
            filter: false,
            retro_orthodox: false,
            filter_unnested: false,
            filter_outside_goals: false,
            diagram_attrs: false,
            turns: false,
            extra_moves: false,
            extra_observation: false,
            mobility: false,
            base_move: false,
            promotee_attrs: None,
        }
    }
}

/// What a problem's stipulation asks of the position its play ends in: the goal some
/// conditions' rules depend on ([`Condition::for_goal`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    Mate,
    Stalemate,
    /// No goal position (`~`: any move).
    Any,
}

/// How a condition reads under a stipulation's goal ([`Condition::for_goal`]).
#[derive(Clone, Debug)]
pub enum ForGoal {
    /// Unchanged.
    Same,
    /// It changes nothing for this goal and is left out of the rules.
    Omitted,
    /// It becomes this condition.
    As(Arc<dyn Condition>),
}

/// The conditions of a problem bound to its stipulation's goal ([`Condition::for_goal`]),
/// or the first condition's reason for refusing that goal.
pub fn for_goal(conditions: Vec<Arc<dyn Condition>>, goal: Goal) -> Result<Vec<Arc<dyn Condition>>, RulesError> {
    let mut out = Vec::with_capacity(conditions.len());
    for c in conditions {
        match c.for_goal(goal).map_err(RulesError)? {
            ForGoal::Same => out.push(c),
            ForGoal::Omitted => {}
            ForGoal::As(d) => out.push(d),
        }
    }
    Ok(out)
}

/// A fairy condition: implements only the hooks of the slots it declares.
pub trait Condition: std::any::Any + fmt::Debug + Send + Sync {
    /// Name (for messages).
    fn name(&self) -> String;
    /// The one condition standing for this one and `other` when a problem gives the same
    /// condition twice in parts (Popeye's White and Black forced squares; a Volage or
    /// Kamikaze attribute beside the condition of the same name), or `None`: they stay two.
    /// [`RuleSet::build`] merges before it composes.
    fn merged_with(&self, _other: &dyn Condition) -> Option<Arc<dyn Condition>> {
        None
    }
    /// What this condition declares (asked once, when a rule set is built).
    fn capabilities(&self) -> Capabilities {
        Capabilities::default()
    }
    /// `CaptureOrigin`: the square from which a unit on `from` captures (`None`: it cannot).
    fn capture_origin(&self, _pos: &Position, from: Square, _u: Unit) -> Option<Square> {
        Some(from)
    }
    /// `Choices`: number of alternatives for this (pseudo-legal) move (at least 1).
    /// `promotions`: what a pawn placed by the condition on its promotion rank may become;
    /// `promotion_rank`: that rank (relative to the pawn's side, 8 = never).
    fn choices(&self, _pos: &Position, _mv: &Move, _promotions: &[Promotee], _promotion_rank: u8) -> u16 {
        1
    }
    /// Play slots: apply this condition's consequences of a capture.
    fn on_capture(&self, _play: &mut Play) -> Result<(), Reject> {
        Ok(())
    }
    /// `Arrival`: the moved unit's change on arriving, for every move, before the capture
    /// consequences.
    fn on_arrival(&self, _play: &mut Play) -> Result<(), Reject> {
        Ok(())
    }
    /// `AfterMove`: transformations after every move (capture or not).
    fn after_move(&self, _play: &mut Play) -> Result<(), Reject> {
        Ok(())
    }
    /// `Admit`: whether a pseudo-legal move of `mover` is available at all.
    fn admit(&self, _pos: &Position, _mover: Colour, _mv: &Move) -> bool {
        true
    }
    /// Whether unit `u` promotes when it captures onto its promotion rank (a kamikaze pawn
    /// that vanishes does not, unless something brings it back).
    fn promotes_by_capture(&self, _pos: &Position, _to: Square, _u: Unit, _rules: &RuleSet) -> bool {
        true
    }
    /// Whether unit `u` may move at all (Para-circé: kings may not).
    fn can_move(&self, _u: Unit) -> bool {
        true
    }
    /// With [`Capabilities::check_rule`]: whether `side` is in check (None: not this
    /// condition's say). The position must be as it was when the hook returns.
    fn check_rule(&self, _ctx: &mut Ctx, _side: Colour) -> Option<bool> {
        None
    }
    /// With [`Capabilities::legality`], a move of `mover` just played (side flipped):
    /// whether the position is legal under this condition. The position must be as it was
    /// when the hook returns.
    fn legal_after(&self, _ctx: &mut Ctx, _mover: Colour) -> bool {
        true
    }
    /// With [`Capabilities::rights`], a move just played and found legal (side flipped,
    /// its journal frame still open): sets the castling and e.p. rights of the new position
    /// through the journal ([`Position::set_rights`], [`Position::set_ep`]), which unmake
    /// undoes (Amnésie).
    fn recompute_rights(&self, _ctx: &mut Ctx) {}
    /// With [`Capabilities::filter`] (obligations): filters the legal moves `out[start..]`
    /// of the side to move.
    fn filter_legal(&self, _ctx: &mut Ctx, _out: &mut Vec<Move>, _start: usize) {}
    /// With [`Capabilities::filter`]: whether the side to move has a legal move once this
    /// filter has judged its list, when the condition can tell without judging the whole
    /// list (`None`: it cannot; the list is built). Asked only when this is the one filter.
    fn any_legal(&self, _ctx: &mut Ctx) -> Option<bool> {
        None
    }
    /// With [`Capabilities::diagram_attrs`]: attributes this condition gives unit `u` of
    /// the diagram, applied when a [`Game`] is created.
    fn diagram_attrs(&self, _u: Unit) -> u8 {
        0
    }
    /// Refuses the composed rules if this condition cannot work with them (called once the
    /// rule set is complete).
    fn check_combination(&self, _rules: &RuleSet) -> Result<(), RulesError> {
        Ok(())
    }
    /// With [`Capabilities::turns`] (multi-move turns): called by [`Game::make`] after every otherwise legal move of
    /// `mover` (played, side flipped, its journal frame still open; `board_before` = the
    /// board hash before the move). The condition records the new turn state
    /// ([`Position::set_turn`]) and, if the turn goes on, gives the move back to `mover`
    /// ([`Position::flip_side`]). `false`: the move is illegal after all (the engine rolls
    /// it back).
    fn end_of_move(&self, _ctx: &mut Ctx, _mover: Colour, _mv: &Move, _board_before: u64) -> bool {
        true
    }
    /// With [`Capabilities::extra_moves`]: moves this condition adds to the pseudo-legal
    /// moves of `mover`.
    fn extra_moves(&self, _pos: &Position, _mover: Colour, _gp: &GenParams, _out: &mut Vec<Move>) {}
    /// With [`Capabilities::extra_observation`], observation beyond the walks' (attack
    /// tables): may `by` capture on `target` in a way only this condition knows? The
    /// position is restored before returning.
    fn extra_observation(
        &self,
        _pos: &mut Position,
        _by: Colour,
        _target: Square,
        _pawn_first_rank_immobile: bool,
    ) -> bool {
        false
    }
    /// The units of `side` that may move at all in `pos` (and so capture and give check):
    /// paralysis, observation rules. Only called with [`Capabilities::mobility`].
    fn mobile_units(&self, pos: &Position, side: Colour) -> Bitboard {
        pos.movable(side)
    }
    /// Prepares the diagram once, when a game starts (static holes).
    fn setup(&self, _pos: &mut Position) {}
    /// With [`Capabilities::admit_by_squares`]: the squares from which a unit may capture a
    /// unit standing on `target` (all that this condition's `Admit` says of captures).
    fn capture_squares(&self, _target: Square) -> Bitboard {
        Bitboard::FULL
    }
    /// The game status of the side to move with these legal moves, if this condition
    /// decides it (None: the orthodox rule, mate loses and stalemate draws).
    fn status(&self, _ctx: &mut Ctx, _legal: &[Move]) -> Option<chimere_core::Status> {
        None
    }
    /// Whether this condition ended the game in the position of the side to move, whose
    /// legal moves are `legal`, so that the position satisfies no goal (Dead Reckoning: a
    /// dead position is neither mate nor stalemate). The solver asks it through
    /// [`Game::goals_void`].
    fn voids_goals(&self, _ctx: &mut Ctx, _legal: &[Move]) -> bool {
        false
    }
    /// This condition under a stipulation's goal (Exclusif takes the goal as its own;
    /// Dead Reckoning changes nothing when the goal is mate), or why it cannot be solved
    /// with that goal. Asked by [`for_goal`] before a problem's rules are built.
    fn for_goal(&self, _goal: Goal) -> Result<ForGoal, String> {
        Ok(ForGoal::Same)
    }
    /// Check without playing: for a pseudo-legal capture `mv` by side `by` of a royal unit
    /// (on `mv.capture`), whether [`Game::play`] would accept it AND the royal unit would
    /// then be gone (captured and not brought back). `None`: no cheap answer, the engine
    /// plays the capture. The engine asks only when this condition is the one with play
    /// consequences of the rule set (every other condition has at most `Admit`), it
    /// observes by `KingCaptures`, and the underworld is empty; `rules` is the rule set
    /// (promotions, promotion rank, piece-set substitution).
    fn royal_capture(&self, _pos: &Position, _by: Colour, _mv: &Move, _rules: &RuleSet) -> Option<bool> {
        None
    }
    /// With [`Capabilities::base_move`] (stacks): plays the base part of `mv` (units leaving, captured, arriving) itself when
    /// the move concerns several units of a square; `None`: the engine plays it. The engine
    /// then goes on as for any move (consequences, castling rights from the squares that
    /// lost a unit, en passant if [`BaseMove::stands`]). The condition must leave no hidden
    /// unit under an empty square. `notes` receives what the notation must show.
    fn base_move(
        &self,
        _pos: &mut Position,
        _mv: &Move,
        _rules: &RuleSet,
        _notes: &mut Notes,
    ) -> Option<Result<BaseMove, Reject>> {
        None
    }
    /// Stacks: the unit that `mv` moves, when it is not the one on the board at `mv.from`
    /// (see [`Condition::base_move`]).
    fn moving_unit(&self, _pos: &Position, _mv: &Move) -> Option<Unit> {
        None
    }
}

/// Why a rule set cannot be built.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RulesError(pub String);

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RulesError {}
