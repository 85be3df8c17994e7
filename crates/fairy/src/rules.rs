//! Rule sets: conditions composed through a few pipelines whose order is written once in
//! [`RANKS`]. The engine calls only the hooks a rule set registered (lists built once by
//! [`RuleSet::build`]); it names no condition.
//!
//! Pipelines:
//! - **generate**: walks (data) + the `CaptureOrigin` slot (where a unit captures from),
//!   then the `Admit` filters (a pseudo-legal move the condition forbids);
//! - **choices**: one condition may split a move into alternatives (rebirth square, promotion
//!   of a reborn pawn...), carried in [`Move::choice`];
//! - **play**: the base move (removal, arrival, promotion, castling partner), then the
//!   capture consequences by slot rank (`CapturerVanishes`, `CapturerRebirth`,
//!   `CapturedFate`), the `AfterMove` transformations (every move), then the underworld
//!   release and the state fields (castling, en passant);
//! - **observe**: check is "could the opponent remove a royal unit": by attack tables when
//!   every condition allows it, else by playing the opponent's captures of the royal units
//!   — only those of the units that reach a royal square by their walks
//!   ([`Game::capture_candidates`]), and without playing when the condition with the play
//!   consequences can tell the outcome ([`Condition::royal_capture`]).
//!   [`Game::in_check_reference`] keeps the plain "play every capture" as the reference.

pub use crate::moves::GenParams;
use crate::moves::{self, Move};
use crate::position::{B_KING, B_KINGSIDE, B_QUEENSIDE, W_KING, W_KINGSIDE, W_QUEENSIDE};
use crate::position::{EnPassant, LastMove, Position, ROYAL, Unit};
use crate::walk::{self, KING, PAWN, ROOK};
use arrayvec::ArrayVec;
use chimere_core::{Bitboard, Colour, Kind, Square};
use std::fmt;
use std::sync::Arc;

/// The hook slots. Their order here is the order in which the play pipeline runs them.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Slot {
    /// Generation: where a unit must stand to capture.
    CaptureOrigin,
    /// Choices: alternatives of one move's consequences.
    Choices,
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
    (Slot::Choices, true),
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

/// Role of a victim of a capture.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Role {
    Captured,
    Capturer,
}

/// A unit removed by the move, waiting for its fate.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Victim {
    pub sq: Square,
    pub unit: Unit,
    pub role: Role,
    pub handled: bool,
}

/// What the notation shows of the consequences, in the order they happened.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Note {
    /// A unit (re)appears: `[+bQd8]`, `[+bPd1=S]`.
    Reborn { sq: Square, unit: Unit, promo: Option<Kind> },
    /// A unit changes colour: `=b`, `=w` after the move.
    Recoloured { sq: Square, unit: Unit, colour: Colour },
    /// A unit changes kind: `=R` after the move.
    Rekinded { sq: Square, unit: Unit, kind: Kind },
    /// A unit is put under an occupant: `[+bRa8->v]`.
    RebornUnder { sq: Square, unit: Unit, promo: Option<Kind> },
    /// A unit is transferred: `[wRh4->h1]`, `[wPd3->a8=Q]`.
    Transfer { from: Square, to: Square, unit: Unit, promo: Option<Kind> },
    /// A unit disappears: `[-wkBg5]`.
    Vanished { sq: Square, unit: Unit },
    /// A hidden unit comes back: `[+bSg8]`.
    Reappeared { sq: Square, unit: Unit },
    /// Two units exchange their squares: `[Ke8<->Ke1]` (`a` stood on `a_sq`).
    Swapped { a_sq: Square, a: Unit, b_sq: Square, b: Unit },
}

/// The state of one move being played, handed to the consequence hooks.
pub struct Play<'a> {
    pub pos: &'a mut Position,
    pub mv: Move,
    pub mover: Colour,
    /// The moving unit as it stood before the move.
    pub moving: Unit,
    pub victims: ArrayVec<Victim, 4>,
    /// The notes so far (the caller's buffer, moved nowhere: copying it per move is slow).
    pub notes: &'a mut ArrayVec<Note, 8>,
    pub promotions: &'a [Kind],
    /// Castling rights given back by rebirths.
    pub regain: u8,
    /// The rule set's piece-set substitution, if any ([`RuleSet::substitution`]).
    pub substitution: Option<[Kind; walk::KINDS]>,
    /// The rank (relative to a pawn's side, 0 = its first; 8 = never) on which a pawn
    /// promotes, also when a condition places it there ([`RuleSet::promotion_rank`]).
    pub promotion_rank: u8,
}

/// The kind whose home squares (Circe rebirth squares) a unit of kind `k` uses: under a
/// piece-set substitution, the kind it replaces (a Cavalier majeur nightrider uses the
/// knight's squares); otherwise `k` itself.
pub fn home_kind(substitution: Option<&[Kind; walk::KINDS]>, k: Kind) -> Kind {
    match substitution {
        Some(t) => t.iter().enumerate().find(|(i, r)| **r == k && *i != k.index()).map_or(k, |(i, _)| Kind(i as u8)),
        None => k,
    }
}

/// The kind replacing `k` under a piece-set substitution (`k` itself without one).
pub fn substituted_kind(substitution: Option<&[Kind; walk::KINDS]>, k: Kind) -> Kind {
    substitution.map_or(k, |t| t[k.index() % walk::KINDS])
}

impl Play<'_> {
    /// The square a captured unit stood on.
    pub fn capture_square(&self) -> Option<Square> {
        self.mv.capture
    }
    /// Records the rights regained by a unit placed on `sq` (a rook on its castling home,
    /// the king on its home square; [`Position::homes`]).
    pub fn regain_rights(&mut self, sq: Square, u: Unit) {
        let homes = self.pos.rights_of_square(sq);
        let (king_bit, rook_bits) = match u.colour() {
            Colour::White => (W_KING, W_QUEENSIDE | W_KINGSIDE),
            Colour::Black => (B_KING, B_QUEENSIDE | B_KINGSIDE),
            Colour::Shared => (0, 0),
        };
        let bit = if u.kind() == KING {
            homes & king_bit
        } else if u.kind() == ROOK {
            homes & rook_bits
        } else {
            0
        };
        self.regain |= bit;
    }
    pub fn note(&mut self, n: Note) {
        let _ = self.notes.try_push(n);
    }
}

/// What a condition playing a move itself ([`Condition::base_move`]) tells the engine.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct BaseMove {
    /// The moving unit as it stood before the move.
    pub moving: Unit,
    /// The moving unit (promoted if it promoted) is the unit on the board on `mv.to`
    /// after the move (a pawn's step of two squares then gives en passant).
    pub stands: bool,
}

/// A fairy condition: implements only the hooks of the slots it declares.
pub trait Condition: fmt::Debug + Send + Sync {
    /// Name (for messages).
    fn name(&self) -> String;
    /// Slots this condition fills.
    fn slots(&self) -> Vec<Slot>;
    /// `CaptureOrigin`: the square from which a unit on `from` captures (`None`: it cannot).
    fn capture_origin(&self, _pos: &Position, from: Square, _u: Unit) -> Option<Square> {
        Some(from)
    }
    /// `Choices`: number of alternatives for this (pseudo-legal) move (at least 1).
    /// `promotions`: the kinds a pawn may promote to; `promotion_rank`: the rank (relative
    /// to the pawn's side, 8 = never) on which a pawn placed by the condition promotes.
    fn choices(&self, _pos: &Position, _mv: &Move, _promotions: &[Kind], _promotion_rank: u8) -> u16 {
        1
    }
    /// Play slots: apply this condition's consequences of a capture.
    fn on_capture(&self, _play: &mut Play) -> Result<(), Reject> {
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
    /// What check detection this condition needs.
    fn observation(&self) -> Observation {
        Observation::Attack
    }
    /// Pawns on their own first rank are immobile under this condition.
    fn pawn_first_rank_immobile(&self) -> bool {
        false
    }
    /// Whether unit `u` promotes when it captures onto its promotion rank (a kamikaze pawn
    /// that vanishes does not, unless something brings it back).
    fn promotes_by_capture(&self, _pos: &Position, _to: Square, _u: Unit) -> bool {
        true
    }
    /// Whether unit `u` may move at all (Para-circé: kings may not).
    fn can_move(&self, _u: Unit) -> bool {
        true
    }
    /// The alternatives of a move stand or fall together: if one is illegal, all are
    /// (Circé coucou).
    fn choices_all_or_nothing(&self) -> bool {
        false
    }
    /// Release order of hidden units, if this condition has an opinion.
    fn release(&self) -> Option<Release> {
        None
    }
    /// Attributes given to a unit coming back from under a square.
    fn released_attrs(&self) -> u8 {
        0
    }
    /// Checkless chess: a move that checks without mating is illegal.
    fn checkless(&self) -> bool {
        false
    }
    /// Kings are ordinary units: no check, they may be captured, pawns may promote to king.
    fn kings_ordinary(&self) -> bool {
        false
    }
    /// Capturing is compulsory (any capture may be chosen).
    fn must_capture(&self) -> bool {
        false
    }
    /// Extinction: the last unit of each kind a side has is royal.
    fn extinction(&self) -> bool {
        false
    }
    /// A check rule of its own: whether `side` is in check (None: not this condition's say).
    fn check_rule(&self, _game: &mut Game, _side: Colour) -> Option<bool> {
        None
    }
    /// Whether this condition has a check rule of its own ([`Condition::check_rule`]).
    fn has_check_rule(&self) -> bool {
        false
    }
    /// With a move of `mover` just played (side flipped): whether the position is legal
    /// under this condition (Isardam).
    fn legal_after(&self, _game: &mut Game, _mover: Colour) -> bool {
        true
    }
    /// Whether this condition has a legality test ([`Condition::legal_after`]).
    fn has_legality(&self) -> bool {
        false
    }
    /// Obligations: filters the legal moves `out[start..]` of the side to move (must check,
    /// forced squares).
    fn filter_legal(&self, _game: &mut Game, _out: &mut Vec<Move>, _start: usize) {}
    /// Whether this condition filters legal moves ([`Condition::filter_legal`]).
    fn has_filter(&self) -> bool {
        false
    }
    /// The rank (relative to the pawn's side, 0 = its first) on which pawns promote, if
    /// this condition moves it (Glasgow: 6); 8 = pawns never promote (Einstein).
    fn promotion_rank(&self) -> Option<u8> {
        None
    }
    /// How many squares a pawn on its own first rank may advance, if this condition says
    /// (Einstein: 3; the default is 1).
    fn pawn_first_rank_steps(&self) -> Option<u8> {
        None
    }
    /// Attributes this condition gives unit `u` of the diagram (Volage), applied when a
    /// [`Game`] is created.
    fn diagram_attrs(&self, _u: Unit) -> u8 {
        0
    }
    /// Whether this condition marks diagram units ([`Condition::diagram_attrs`]).
    fn has_diagram_attrs(&self) -> bool {
        false
    }
    /// Refuses the composed rules if this condition cannot work with them (called once the
    /// rule set is complete).
    fn check_combination(&self, _rules: &RuleSet) -> Result<(), RulesError> {
        Ok(())
    }
    /// Multi-move turns: called by [`Game::make`] after every otherwise legal move of
    /// `mover` (played, side flipped, its journal frame still open; `board_before` = the
    /// board hash before the move). The condition records the new turn state
    /// ([`Position::set_turn`]) and, if the turn goes on, gives the move back to `mover`
    /// ([`Position::flip_side`]). `false`: the move is illegal after all (the engine rolls
    /// it back).
    fn end_of_move(&self, _game: &mut Game, _mover: Colour, _mv: &Move, _board_before: u64) -> bool {
        true
    }
    /// Whether this condition decides when a turn ends ([`Condition::end_of_move`]).
    fn has_turns(&self) -> bool {
        false
    }
    /// A move may leave the mover's own royal units attacked (self-check allowed).
    fn self_check_allowed(&self) -> bool {
        false
    }
    /// Piece-set substitution: the kind that replaces `k`, in the diagram and in promotions.
    fn substitute(&self, k: Kind) -> Kind {
        k
    }
    /// Units may also capture non-royal units of their own colour.
    fn capture_own(&self) -> bool {
        false
    }
    /// Orthodox castling is not generated (forbidden, or replaced by the condition's own).
    fn castling_off(&self) -> bool {
        false
    }
    /// Castling is written as the king's move and the partner's: `Ke1-g1/wRh1-f1`.
    fn castling_long_notation(&self) -> bool {
        false
    }
    /// Moves this condition adds to the pseudo-legal moves of `mover`.
    fn extra_moves(&self, _pos: &Position, _mover: Colour, _gp: &GenParams, _out: &mut Vec<Move>) {}
    /// Whether this condition adds moves ([`Condition::extra_moves`]).
    fn has_extra_moves(&self) -> bool {
        false
    }
    /// Observation beyond the walks' (attack tables): may `by` capture on `target` in a way
    /// only this condition knows? The position is restored before returning.
    fn extra_observation(
        &self,
        _pos: &mut Position,
        _by: Colour,
        _target: Square,
        _pawn_first_rank_immobile: bool,
    ) -> bool {
        false
    }
    /// Whether this condition observes beyond the walks ([`Condition::extra_observation`]).
    fn has_extra_observation(&self) -> bool {
        false
    }
    /// A side may move every unit of either colour (each moving for its own colour).
    fn any_unit(&self) -> bool {
        false
    }
    /// The position keeps the last move played ([`Position::last_move`]).
    fn tracks_last_move(&self) -> bool {
        false
    }
    /// This condition's `Admit` filter never refuses a capture, so check by attack tables
    /// stays exact.
    fn admit_quiet_only(&self) -> bool {
        false
    }
    /// The units of `side` that may move at all in `pos` (and so capture and give check):
    /// paralysis, observation rules. Only called when [`Condition::has_mobility`].
    fn mobile_units(&self, pos: &Position, side: Colour) -> Bitboard {
        pos.movable(side)
    }
    /// Whether this condition restricts which units may move ([`Condition::mobile_units`]).
    fn has_mobility(&self) -> bool {
        false
    }
    /// Prepares the diagram once, when a game starts (static holes).
    fn setup(&self, _pos: &mut Position) {}
    /// With [`Condition::admit_by_squares`]: the squares from which a unit may capture a
    /// unit standing on `target` (all that this condition's `Admit` says of captures).
    fn capture_squares(&self, _target: Square) -> Bitboard {
        Bitboard::FULL
    }
    /// Whether this condition's `Admit` filter restricts captures only by their departure
    /// and capture squares ([`Condition::capture_squares`]), so that check detection may
    /// keep the attack tables (with a mask) instead of playing the opponent's captures.
    fn admit_by_squares(&self) -> bool {
        false
    }
    /// The game status of the side to move with these legal moves, if this condition
    /// decides it (None: the orthodox rule, mate loses and stalemate draws).
    fn status(&self, _game: &mut Game, _legal: &[Move]) -> Option<chimere_core::Status> {
        None
    }
    /// Pawns may also promote to king under this condition.
    fn king_promotion(&self) -> bool {
        false
    }
    /// Slots this condition cannot share with another condition (the rule set is refused).
    fn excluded_slots(&self) -> Vec<Slot> {
        Vec::new()
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
    /// Units may move by walks other than their own kind's (Absorbant): check detection
    /// must then consider every unit as a possible capturer.
    fn units_gain_walks(&self) -> bool {
        false
    }
    /// Stacks: plays the base part of `mv` (units leaving, captured, arriving) itself when
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
    /// Whether this condition plays some moves itself ([`Condition::base_move`]).
    fn has_base_move(&self) -> bool {
        false
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

/// Composed rules with per-hook lists precomputed.
#[derive(Clone, Debug)]
pub struct RuleSet {
    conditions: Vec<Arc<dyn Condition>>,
    capture_origin: Option<Arc<dyn Condition>>,
    choices: Option<Arc<dyn Condition>>,
    on_capture: Vec<Arc<dyn Condition>>,
    after_move: Vec<Arc<dyn Condition>>,
    admit: Vec<Arc<dyn Condition>>,
    pub observation: Observation,
    pub pawn_first_rank_immobile: bool,
    pub release: Release,
    pub released_attrs: u8,
    pub promotions: Vec<Kind>,
    pub choices_all_or_nothing: bool,
    /// Some condition forbids checks that do not mate (Sans échec).
    pub checkless: bool,
    /// Kings are ordinary units (Qui perd gagne).
    pub kings_ordinary: bool,
    /// Capturing is compulsory (Qui perd gagne).
    pub must_capture: bool,
    /// The last unit of each kind is royal (Extinction).
    pub extinction: bool,
    /// The condition deciding check on its own (Bicolores, Vogtländer).
    pub check_rule: Option<Arc<dyn Condition>>,
    /// Conditions with a legality test after each move (Isardam).
    pub legality: Vec<Arc<dyn Condition>>,
    /// Conditions filtering the legal moves (obligations).
    pub filters: Vec<Arc<dyn Condition>>,
    /// Relative rank on which pawns promote (7 orthodox; 8 = never).
    pub promotion_rank: u8,
    /// Squares a pawn on its first rank may advance (1 by default).
    pub pawn_first_rank_steps: u8,
    /// Conditions giving attributes to the diagram's units.
    pub diagram_marks: Vec<Arc<dyn Condition>>,
    /// The condition deciding when a turn ends (multi-move turns), if any.
    pub turns: Option<Arc<dyn Condition>>,
    /// Moves may leave the mover's own royal units attacked.
    pub self_check_allowed: bool,
    /// Piece-set substitution: the kind that replaces each kind (index = kind).
    pub substitution: Option<[Kind; walk::KINDS]>,
    /// Units may capture non-royal units of their own colour.
    pub capture_own: bool,
    /// Orthodox castling is not generated.
    pub castling_off: bool,
    /// Castling written `Ke1-g1/wRh1-f1`.
    pub castling_long_notation: bool,
    /// Conditions adding moves.
    pub extra_moves: Vec<Arc<dyn Condition>>,
    /// Conditions observing beyond the walks.
    pub observers: Vec<Arc<dyn Condition>>,
    /// A side may move units of either colour.
    pub any_unit: bool,
    /// The position keeps the last move.
    pub track_last_move: bool,
    /// Conditions restricting which units may move (paralysis, observation rules).
    pub mobility: Vec<Arc<dyn Condition>>,
    /// `Admit` conditions whose restriction of captures is a mask of departure squares
    /// ([`Condition::capture_squares`]): check keeps the attack tables.
    pub capture_masks: Vec<Arc<dyn Condition>>,
    /// The condition asked by [`Game::in_check`] whether a capture of a royal unit removes
    /// it ([`Condition::royal_capture`]), when the rule set allows that shortcut.
    royal_capture: Option<Arc<dyn Condition>>,
    /// Units may move by walks other than their kind's (so a capture may come from anywhere).
    pub gained_walks: bool,
    /// The condition playing some moves itself (stacks), if any ([`Condition::base_move`]).
    pub base_move: Option<Arc<dyn Condition>>,
}

impl Default for RuleSet {
    fn default() -> Self {
        RuleSet::orthodox()
    }
}

impl RuleSet {
    /// Orthodox chess.
    pub fn orthodox() -> RuleSet {
        RuleSet::build(Vec::new(), &[]).expect("no conditions")
    }

    /// Composes conditions; `fairy_kinds` are the fairy kinds a pawn may also promote to.
    pub fn build(conditions: Vec<Arc<dyn Condition>>, fairy_kinds: &[Kind]) -> Result<RuleSet, RulesError> {
        let mut capture_origin = None;
        let mut choices = None;
        let mut on_capture: Vec<(usize, Arc<dyn Condition>)> = Vec::new();
        let mut after_move: Vec<Arc<dyn Condition>> = Vec::new();
        let mut admit: Vec<Arc<dyn Condition>> = Vec::new();
        let mut taken: Vec<(Slot, String)> = Vec::new();
        let mut release: Option<(Release, String)> = None;
        for c in &conditions {
            for slot in c.slots() {
                let (rank, exclusive) = RANKS
                    .iter()
                    .enumerate()
                    .find(|(_, (s, _))| *s == slot)
                    .map(|(i, (_, e))| (i, *e))
                    .expect("every slot is ranked");
                if exclusive && let Some((_, other)) = taken.iter().find(|(s, _)| *s == slot) {
                    return Err(RulesError(format!(
                        "conditions {} and {} cannot be combined: both decide {:?}",
                        other,
                        c.name(),
                        slot
                    )));
                }
                taken.push((slot, c.name()));
                match slot {
                    Slot::CaptureOrigin => capture_origin = Some(c.clone()),
                    Slot::Choices => choices = Some(c.clone()),
                    Slot::AfterMove => after_move.push(c.clone()),
                    Slot::Admit => admit.push(c.clone()),
                    _ => on_capture.push((rank, c.clone())),
                }
            }
            if let Some(r) = c.release() {
                if let Some((old, who)) = &release
                    && *old != r
                {
                    return Err(RulesError(format!(
                        "conditions {who} and {} cannot be combined: they release hidden units in different orders",
                        c.name()
                    )));
                }
                release = Some((r, c.name()));
            }
        }
        for c in &conditions {
            for slot in c.excluded_slots() {
                if let Some((_, other)) = taken.iter().find(|(s, n)| *s == slot && *n != c.name()) {
                    return Err(RulesError(format!(
                        "conditions {} and {} cannot be combined ({:?})",
                        c.name(),
                        other,
                        slot
                    )));
                }
            }
        }
        on_capture.sort_by_key(|(r, _)| *r);
        let mut promotions = vec![walk::QUEEN, walk::KNIGHT, walk::ROOK, walk::BISHOP];
        for &k in fairy_kinds {
            if !promotions.contains(&k) && k != walk::KING && k != walk::PAWN && k != walk::DUMMY {
                promotions.push(k);
            }
        }
        let observation = conditions.iter().map(|c| c.observation()).max().unwrap_or(Observation::Attack);
        // Admit filters that restrict captures by their squares only keep the attack tables
        // (with a mask of departure squares), unless a locust may capture elsewhere than
        // where it lands.
        let locusts =
            fairy_kinds.iter().any(|&k| walk::walk(k).steps.iter().any(|s| matches!(s, walk::Step::Locust(..))));
        let capture_masks: Vec<Arc<dyn Condition>> =
            if locusts { Vec::new() } else { admit.iter().filter(|c| c.admit_by_squares()).cloned().collect() };
        // Filters that never refuse a capture, or whose refusals the masks express, leave
        // check to the attack tables.
        let exact = |c: &Arc<dyn Condition>| c.admit_quiet_only() || (!locusts && c.admit_by_squares());
        let observation = if capture_origin.is_some() || !admit.iter().all(exact) {
            observation.max(Observation::KingCaptures)
        } else {
            observation
        };
        let conditions_checkless = conditions.iter().any(|c| c.checkless());
        let kings_ordinary = conditions.iter().any(|c| c.kings_ordinary());
        let must_capture = conditions.iter().any(|c| c.must_capture());
        if kings_ordinary || conditions.iter().any(|c| c.king_promotion()) {
            promotions.insert(0, KING);
        }
        let extinction = conditions.iter().any(|c| c.extinction());
        let rulers: Vec<&Arc<dyn Condition>> = conditions.iter().filter(|c| c.has_check_rule()).collect();
        if rulers.len() > 1
            || (!rulers.is_empty() && (extinction || kings_ordinary || observation != Observation::Attack))
        {
            return Err(RulesError("these conditions define check in incompatible ways".into()));
        }
        let check_rule = rulers.first().map(|c| (*c).clone());
        let legality: Vec<Arc<dyn Condition>> = conditions.iter().filter(|c| c.has_legality()).cloned().collect();
        let filters: Vec<Arc<dyn Condition>> = conditions.iter().filter(|c| c.has_filter()).cloned().collect();
        let mobility: Vec<Arc<dyn Condition>> = conditions.iter().filter(|c| c.has_mobility()).cloned().collect();
        if (!mobility.is_empty() || !capture_masks.is_empty()) && (check_rule.is_some() || extinction) {
            return Err(RulesError(
                "a condition restricting which units may move cannot be combined with a condition redefining check"
                    .into(),
            ));
        }
        if extinction {
            if !promotions.contains(&KING) {
                promotions.insert(0, KING);
            }
            if observation != Observation::Attack || kings_ordinary {
                return Err(RulesError("Extinction cannot be combined with these conditions".into()));
            }
        }
        let mut promotion_rank = None;
        let mut pawn_first_rank_steps = None;
        for c in &conditions {
            for (mine, theirs) in
                [(&mut promotion_rank, c.promotion_rank()), (&mut pawn_first_rank_steps, c.pawn_first_rank_steps())]
            {
                if let Some(r) = theirs {
                    if mine.is_some_and(|m| m != r) {
                        return Err(RulesError(format!(
                            "condition {} changes pawn moves in a way the others contradict",
                            c.name()
                        )));
                    }
                    *mine = Some(r);
                }
            }
        }
        let diagram_marks: Vec<Arc<dyn Condition>> =
            conditions.iter().filter(|c| c.has_diagram_attrs()).cloned().collect();
        let turners: Vec<&Arc<dyn Condition>> = conditions.iter().filter(|c| c.has_turns()).collect();
        if turners.len() > 1 {
            return Err(RulesError(format!(
                "conditions {} and {} cannot be combined: both decide when a turn ends",
                turners[0].name(),
                turners[1].name()
            )));
        }
        let turns = turners.first().map(|c| (*c).clone());
        if let Some(t) = &turns
            && (!legality.is_empty() || !filters.is_empty() || conditions_checkless || must_capture)
        {
            return Err(RulesError(format!(
                "{} (multi-move turns) cannot be combined with conditions that judge a move by the opponent's reply or oblige moves",
                t.name()
            )));
        }
        let self_check_allowed = conditions.iter().any(|c| c.self_check_allowed());
        let mut substitution = None;
        let mut substituting: Vec<String> = Vec::new();
        for c in &conditions {
            let t: [Kind; walk::KINDS] = std::array::from_fn(|i| c.substitute(Kind(i as u8)));
            if t.iter().enumerate().any(|(i, k)| k.index() != i) {
                substituting.push(c.name());
                substitution = Some(t);
            }
        }
        if substituting.len() > 1 {
            return Err(RulesError(format!(
                "conditions {} cannot be combined: each substitutes piece kinds",
                substituting.join(" and ")
            )));
        }
        if let Some(t) = &substitution {
            if capture_origin.is_some() {
                return Err(RulesError(format!(
                    "{} cannot be combined with a condition moving captures elsewhere (rebirth squares of substituted kinds)",
                    substituting[0]
                )));
            }
            let mut p: Vec<Kind> = Vec::new();
            for k in promotions.iter().map(|k| t[k.index() % walk::KINDS]) {
                if !p.contains(&k) {
                    p.push(k);
                }
            }
            promotions = p;
        }
        let extra_moves: Vec<Arc<dyn Condition>> = conditions.iter().filter(|c| c.has_extra_moves()).cloned().collect();
        let observers: Vec<Arc<dyn Condition>> =
            conditions.iter().filter(|c| c.has_extra_observation()).cloned().collect();
        if !observers.is_empty() && (check_rule.is_some() || extinction || kings_ordinary) {
            return Err(RulesError(format!(
                "{} cannot be combined with conditions that define check otherwise",
                observers[0].name()
            )));
        }
        let capture_own = conditions.iter().any(|c| c.capture_own());
        let castling_off = conditions.iter().any(|c| c.castling_off());
        let castling_long_notation = conditions.iter().any(|c| c.castling_long_notation());
        let any_unit = conditions.iter().any(|c| c.any_unit());
        let track_last_move = conditions.iter().any(|c| c.tracks_last_move());
        let gained_walks = conditions.iter().any(|c| c.units_gain_walks());
        let base_movers: Vec<&Arc<dyn Condition>> = conditions.iter().filter(|c| c.has_base_move()).collect();
        if base_movers.len() > 1 {
            return Err(RulesError(format!(
                "conditions {} and {} cannot be combined: both play moves of their own",
                base_movers[0].name(),
                base_movers[1].name()
            )));
        }
        let base_move = base_movers.first().map(|c| (*c).clone());
        // The check shortcut: one condition has all the play consequences (and the choices,
        // the capture origins), the others only filter moves.
        let consequential: Vec<&Arc<dyn Condition>> =
            conditions.iter().filter(|c| c.slots().iter().any(|s| *s != Slot::Admit)).collect();
        let royal_capture = match consequential[..] {
            [c] if observation == Observation::KingCaptures && c.observation() == Observation::KingCaptures => {
                Some(c.clone())
            }
            _ => None,
        };
        let rules = RuleSet {
            pawn_first_rank_immobile: conditions.iter().any(|c| c.pawn_first_rank_immobile()),
            choices_all_or_nothing: conditions.iter().any(|c| c.choices_all_or_nothing()),
            released_attrs: conditions.iter().fold(0, |a, c| a | c.released_attrs()),
            conditions,
            capture_origin,
            choices,
            on_capture: on_capture.into_iter().map(|(_, c)| c).collect(),
            after_move,
            admit,
            observation,
            release: release.map_or(Release::Lifo, |(r, _)| r),
            promotions,
            checkless: conditions_checkless,
            kings_ordinary,
            must_capture,
            extinction,
            check_rule,
            legality,
            filters,
            promotion_rank: promotion_rank.unwrap_or(7),
            pawn_first_rank_steps: pawn_first_rank_steps.unwrap_or(1),
            diagram_marks,
            turns,
            self_check_allowed,
            substitution,
            capture_own,
            castling_off,
            castling_long_notation,
            extra_moves,
            observers,
            any_unit,
            track_last_move,
            mobility,
            capture_masks,
            royal_capture,
            gained_walks,
            base_move,
        };
        for c in &rules.conditions {
            c.check_combination(&rules)?;
        }
        Ok(rules)
    }

    pub fn conditions(&self) -> &[Arc<dyn Condition>] {
        &self.conditions
    }

    /// The unit `mv` moves in `pos` (the one on its departure square unless a condition
    /// with stacks says otherwise).
    pub fn moving_unit(&self, pos: &Position, mv: &Move) -> Option<Unit> {
        self.base_move.as_ref().and_then(|c| c.moving_unit(pos, mv)).or_else(|| pos.unit(mv.from))
    }

    /// Whether some condition fills `slot` (for [`Condition::check_combination`]).
    pub fn uses_slot(&self, slot: Slot) -> bool {
        self.conditions.iter().any(|c| c.slots().contains(&slot))
    }
}

/// A position together with its rules: move generation, legality, make/unmake.
#[derive(Clone, Debug)]
pub struct Game {
    pub rules: RuleSet,
    pub pos: Position,
    pool: Vec<Vec<Move>>,
    /// The kinds each side (white, black) had in the diagram, one bit per kind index.
    pub diagram_kinds: [u32; 2],
}

/// Result of playing a move: whether the rules accepted it, and its notes.
pub type Notes = ArrayVec<Note, 8>;

/// Number of set squares, for the few royal units a side has (one loop per unit: cheaper
/// than a software population count on targets without `popcnt`).
#[inline]
fn sparse_count(b: Bitboard) -> u32 {
    let (mut x, mut n) = (b.0, 0);
    while x != 0 {
        x &= x - 1;
        n += 1;
    }
    n
}

fn count_royals(pos: &Position, side: Colour) -> u32 {
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

/// The castling rights of the squares a unit left or was taken from in the current frame.
fn rights_lost(pos: &Position) -> u8 {
    let mut lost = 0;
    for fx in pos.frame() {
        if let crate::position::Fx::Remove(s, _) = fx {
            lost |= pos.rights_of_square(*s);
        }
    }
    lost
}

/// Keeps the moves of `out[start..]` that satisfy `keep`, in order (in place).
fn keep_from(out: &mut Vec<Move>, start: usize, keep: impl Fn(&Move) -> bool) {
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
        let mut diagram_kinds = [0u32; 2];
        for sq in pos.occupied() {
            let u = pos.unit(sq).expect("occupied");
            match u.colour() {
                Colour::White => diagram_kinds[0] |= 1 << u.kind().index(),
                Colour::Black => diagram_kinds[1] |= 1 << u.kind().index(),
                Colour::Shared => {}
            }
        }
        Game { rules, pos, pool: Vec::new(), diagram_kinds }
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
        let origin_hook = &self.rules.capture_origin;
        let origin = move |p: &Position, from: Square, u: Unit| match origin_hook {
            Some(c) => c.capture_origin(p, from, u),
            None => Some(from),
        };
        let conds = &self.rules.conditions;
        let promo_ok = |p: &Position, to: Square, u: Unit| conds.iter().all(|c| c.promotes_by_capture(p, to, u));
        let can_move = |u: Unit| conds.iter().all(|c| c.can_move(u));
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
        };
        let start = out.len();
        moves::generate_from(&self.pos, mover, &gp, from_mask, out);
        for c in &self.rules.extra_moves {
            c.extra_moves(&self.pos, mover, &gp, out);
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
        if let Some(c) = &self.rules.choices {
            let end = out.len();
            for i in start..end {
                let m = out[i];
                let n = c.choices(&self.pos, &m, &self.rules.promotions, self.rules.promotion_rank);
                for k in 1..n {
                    out.push(Move { choice: k, ..m });
                }
            }
        }
    }

    /// Plays `mv` for `mover` inside a new journal frame; on `Err` the frame is already
    /// rolled back.
    pub fn play(&mut self, mv: &Move, mover: Colour) -> Result<Notes, Reject> {
        let mut notes = Notes::new();
        self.play_into(mv, mover, &mut notes)?;
        Ok(notes)
    }

    /// [`Game::play`] writing the notes into `notes` (cleared first).
    pub fn play_into(&mut self, mv: &Move, mover: Colour, notes: &mut Notes) -> Result<(), Reject> {
        notes.clear();
        self.pos.begin();
        match self.play_inner(mv, mover, notes) {
            Ok(()) => Ok(()),
            Err(e) => {
                self.pos.rollback();
                Err(e)
            }
        }
    }

    fn play_inner(&mut self, mv: &Move, mover: Colour, notes: &mut Notes) -> Result<(), Reject> {
        let rules = &self.rules;
        let pos = &mut self.pos;
        if mv.is_null() {
            // A pass: nothing moves, no en passant, the other side to move.
            pos.set_ep(None);
            pos.flip_side();
            return Ok(());
        }
        let old_rights = pos.rights();
        let mut victims = ArrayVec::new();
        let (moving, arrived, stands) = match rules.base_move.as_ref().and_then(|c| c.base_move(pos, mv, rules, notes))
        {
            Some(played) => {
                let BaseMove { moving, stands } = played?;
                (moving, mv.promo.map_or(moving, |k| moving.with_kind(k)), Some(stands))
            }
            None => {
                let moving = pos.remove(mv.from).ok_or(Reject)?;
                if mv.shift.is_some() {
                    return Self::play_shift(pos, mv, moving, old_rights);
                }
                if let Some(c) = mv.capture {
                    let u = pos.remove(c).ok_or(Reject)?;
                    victims.push(Victim { sq: c, unit: u, role: Role::Captured, handled: false });
                }
                // Castling lifts king and rook before either lands (Chess960: the king
                // may land on the rook's square or stay on its own).
                let rook = match mv.castle {
                    Some((rf, _)) => Some(pos.remove(rf).ok_or(Reject)?),
                    None => None,
                };
                if pos.unit(mv.to).is_some() {
                    return Err(Reject);
                }
                let arrived = match mv.promo {
                    Some(k) => moving.with_kind(k),
                    None => moving,
                };
                pos.add(mv.to, arrived);
                if let (Some((_, rt)), Some(rook)) = (mv.castle, rook) {
                    if pos.unit(rt).is_some() {
                        return Err(Reject);
                    }
                    pos.add(rt, rook);
                }
                (moving, arrived, None)
            }
        };
        let mut play = Play {
            pos,
            mv: *mv,
            mover,
            moving,
            victims,
            notes: &mut *notes,
            promotions: &rules.promotions,
            regain: 0,
            substitution: rules.substitution,
            promotion_rank: rules.promotion_rank,
        };
        if mv.capture.is_some() {
            for c in &rules.on_capture {
                c.on_capture(&mut play)?;
            }
            for i in 0..play.victims.len() {
                let v = play.victims[i];
                if v.role == Role::Capturer && !v.handled {
                    play.note(Note::Vanished { sq: v.sq, unit: v.unit });
                }
            }
        }
        for c in &rules.after_move {
            c.after_move(&mut play)?;
        }
        let regain = play.regain;
        // Nothing may be put on a hole.
        if pos.holes().any()
            && pos
                .frame()
                .iter()
                .any(|fx| matches!(fx, crate::position::Fx::Add(s, _) if pos.is_hole(*s) && pos.unit(*s).is_some()))
        {
            return Err(Reject);
        }
        // Underworld: a vacated square lets one hidden unit come back.
        if !pos.underworld().is_empty() {
            let mut i = 0;
            while i < pos.underworld().len() {
                let (sq, _) = pos.underworld()[i];
                if pos.unit(sq).is_none() {
                    let pick = match rules.release {
                        Release::Fifo => pos.under(sq).next().map(|(j, _)| j),
                        Release::Lifo => pos.under(sq).last().map(|(j, _)| j),
                    }
                    .expect("a hidden unit");
                    let (sq, u) = pos.unbury(pick);
                    let u = Unit { attrs: u.attrs | rules.released_attrs, ..u };
                    pos.add(sq, u);
                    let _ = notes.try_push(Note::Reappeared { sq, unit: u });
                    i = 0;
                    continue;
                }
                i += 1;
            }
        }
        // Castling rights: lost when a unit leaves or is taken from its square; regained by rebirths.
        let lost = rights_lost(pos);
        let regained = if regain != 0 { regain & pos.implied_rights() } else { 0 };
        pos.set_rights((old_rights & !lost) | regained);
        // En passant: a pawn that advanced two (or three) squares may be taken on each
        // square it passed over.
        let mut ep = None;
        let steps = mv.from.rank().abs_diff(mv.to.rank());
        if moving.kind() == PAWN
            && mv.capture.is_none()
            && mv.from.file() == mv.to.file()
            && (steps == 2 || steps == 3)
            && stands.unwrap_or_else(|| pos.unit(mv.to) == Some(arrived))
        {
            let toward = if mv.to.rank() > mv.from.rank() { 1 } else { -1 };
            let first = mv.from.offset(0, toward).expect("on the board");
            let second = first.offset(0, toward).expect("on the board");
            ep = Some(if steps == 2 {
                EnPassant::new(first, mv.to, None)
            } else {
                EnPassant::new(second, mv.to, Some(first))
            });
        }
        let ep_before = pos.ep().is_some();
        pos.set_ep(ep);
        if rules.track_last_move {
            pos.set_last_move(Some(LastMove {
                from: mv.from,
                to: mv.to,
                capture: mv.capture.is_some(),
                same_unit: pos.unit(mv.to) == Some(moving),
                ep_before,
            }));
        }
        pos.flip_side_clock(mv.capture.is_some() || moving.kind() == PAWN);
        Ok(())
    }

    /// The base part of a push/pull move (see [`Move::shift`]): the object is displaced
    /// (or leaves the board), then the mover arrives (unless it leaves the board). No
    /// other consequences: the conditions generating such moves refuse combinations.
    fn play_shift(pos: &mut Position, mv: &Move, moving: Unit, old_rights: u8) -> Result<(), Reject> {
        let sh = mv.shift.expect("a push/pull move");
        if let Some((of, ot)) = sh.object {
            let obj = pos.remove(of).ok_or(Reject)?;
            if let Some(t) = ot {
                if pos.unit(t).is_some() {
                    return Err(Reject);
                }
                pos.add(t, obj);
            }
        }
        if !sh.mover_off {
            if pos.unit(mv.to).is_some() {
                return Err(Reject);
            }
            pos.add(mv.to, mv.promo.map_or(moving, |k| moving.with_kind(k)));
        }
        pos.set_rights(old_rights & !rights_lost(pos));
        pos.set_ep(None);
        pos.flip_side_clock(sh.object.is_some_and(|(_, to)| to.is_none()) || moving.kind() == PAWN);
        Ok(())
    }

    /// Is side `side` in check (could the opponent remove one of its royal units)?
    pub fn in_check(&mut self, side: Colour) -> bool {
        if self.rules.kings_ordinary {
            return false;
        }
        if self.rules.extinction {
            return crate::conditions::extinction::in_check(self, side);
        }
        if self.rules.check_rule.is_some()
            && let Some(c) = self.rules.check_rule.clone()
            && let Some(b) = c.check_rule(self, side)
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
        if self.rules.kings_ordinary || self.rules.extinction || self.rules.observation == Observation::Attack {
            return self.in_check(side);
        }
        if let Some(c) = self.rules.check_rule.clone()
            && let Some(b) = c.check_rule(self, side)
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
        if self.rules.check_rule.is_some() && count_royals(&self.pos, mover.opponent()) < their_royals {
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
        for i in 0..self.rules.legality.len() {
            let c = self.rules.legality[i].clone();
            if !c.legal_after(self, mover) {
                self.pos.rollback();
                return None;
            }
        }
        if self.rules.checkless && !crate::conditions::checkless::admits(self) {
            self.pos.rollback();
            return None;
        }
        if let Some(c) = self.rules.turns.clone()
            && !c.end_of_move(self, mover, mv, board_before)
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
            let c = self.rules.filters[i].clone();
            c.filter_legal(self, out, start);
        }
        self.give_buf(buf);
    }

    /// The status of the side to move, whose legal moves are `legal`: a condition may
    /// decide it ([`Condition::status`]); else no move and in check loses, no move
    /// otherwise draws.
    pub fn status(&mut self, legal: &[Move]) -> chimere_core::Status {
        for i in 0..self.rules.conditions.len() {
            let c = self.rules.conditions[i].clone();
            if let Some(s) = c.status(self, legal) {
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
