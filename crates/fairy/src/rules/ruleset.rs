//! Rule sets: conditions composed once ([`RuleSet::build`]), combinations refused with a
//! reason, per-hook lists and generic switches precomputed.

use super::*;

/// Composed rules with per-hook lists precomputed.
#[derive(Clone, Debug)]
pub struct RuleSet {
    pub(super) conditions: Vec<Arc<dyn Condition>>,
    /// The conditions' capabilities, in the same order.
    pub(super) caps: Vec<Capabilities>,
    pub(super) capture_origin: Option<Arc<dyn Condition>>,
    /// The conditions splitting a move into alternatives ([`Condition::choices`]). With
    /// several, [`Move::choice`] numbers their combinations in mixed radix, the first
    /// condition's alternative the lowest digit; each reads its own ([`RuleSet::own_choice`]).
    pub(super) choices: Vec<Arc<dyn Condition>>,
    pub(super) on_capture: Vec<Arc<dyn Condition>>,
    pub(super) arrival: Vec<Arc<dyn Condition>>,
    pub(super) after_move: Vec<Arc<dyn Condition>>,
    pub(super) admit: Vec<Arc<dyn Condition>>,
    pub observation: Observation,
    pub pawn_first_rank_immobile: bool,
    pub release: Release,
    pub released_attrs: u8,
    pub promotions: Vec<Kind>,
    /// What a pawn that a condition places on its promotion rank may become: each of
    /// [`RuleSet::promotions`], and with the attributes of [`Capabilities::promotee_attrs`].
    pub placed_promotions: Vec<Promotee>,
    pub choices_all_or_nothing: bool,
    /// Kings are ordinary units (Qui perd gagne).
    pub kings_ordinary: bool,
    /// Capturing is compulsory (Qui perd gagne).
    pub must_capture: bool,
    /// The condition deciding check on its own ([`Capabilities::check_rule`]).
    pub check_rule: Option<Arc<dyn Condition>>,
    /// With a check rule: moves may capture the opponent's royal units.
    pub royals_capturable: bool,
    /// Conditions with a legality test after each move ([`Condition::legal_after`]); those
    /// from `first_reply_test` on judge by the opponent's replies.
    pub legality: Vec<Arc<dyn Condition>>,
    /// Index in `legality` of the first test judging by the opponent's replies.
    pub first_reply_test: usize,
    /// Conditions recomputing the rights after each legal move ([`Condition::recompute_rights`]).
    pub rights: Vec<Arc<dyn Condition>>,
    /// Conditions filtering the legal moves (obligations).
    pub filters: Vec<Arc<dyn Condition>>,
    /// Bit `i`: `filters[i]` is not applied to the lists generated inside its own judging
    /// ([`Capabilities::filter_unnested`]).
    pub(super) filters_unnested: u64,
    /// Bit `i`: `filters[i]` takes no part in judging goals
    /// ([`Capabilities::filter_outside_goals`]).
    pub(super) filters_outside_goals: u64,
    /// The fairy kinds the rule set was built with ([`RuleSet::without`] rebuilds it).
    fairy_kinds: Vec<Kind>,
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
    pub(super) royal_capture: Option<Arc<dyn Condition>>,
    /// Units may move by walks other than their kind's (so a capture may come from anywhere).
    pub gained_walks: bool,
    /// The condition playing some moves itself (stacks), if any ([`Condition::base_move`]).
    pub base_move: Option<Arc<dyn Condition>>,
    /// The most units a square may hold when a condition stacks units (None: one).
    pub stack_limit: Option<usize>,
    /// Some condition hides units under a square (an underworld with a release order).
    pub underworld: bool,
}

impl Default for RuleSet {
    fn default() -> Self {
        RuleSet::orthodox()
    }
}

/// The conditions with each pair that is one condition given in parts merged
/// ([`Condition::merged_with`]), in the order of their first part.
fn merged(conditions: Vec<Arc<dyn Condition>>) -> Vec<Arc<dyn Condition>> {
    let mut out: Vec<Arc<dyn Condition>> = Vec::with_capacity(conditions.len());
    for c in conditions {
        match out.iter().enumerate().find_map(|(i, o)| o.merged_with(&*c).map(|m| (i, m))) {
            Some((i, m)) => out[i] = m,
            None => out.push(c),
        }
    }
    out
}

impl RuleSet {
    /// The alternatives of `mv`, a move of `pos` not yet played (its `choice` ignored): the
    /// product of each choosing condition's count (see [`RuleSet::choices`]).
    pub(super) fn alternatives(&self, pos: &Position, mv: &Move) -> u16 {
        let plain = Move { choice: 0, ..*mv };
        let n: u32 = self
            .choices
            .iter()
            .map(|c| u32::from(c.choices(pos, &plain, &self.placed_promotions, self.promotion_rank).max(1)))
            .product();
        // At most two choosing conditions (`build`): a few thousand at most, unless dozens
        // of fairy kinds are promotion choices of two rebirths at once; past what
        // `Move::choice` holds the last alternatives are not offered rather than panicking.
        u16::try_from(n).unwrap_or(u16::MAX)
    }

    /// Each choosing condition's own alternative in `mv` (a move of `pos`, not yet played),
    /// in the order of [`RuleSet::choices`]: the digits of `mv.choice` in mixed radix, the
    /// first condition's the lowest.
    pub(super) fn choice_digits(&self, pos: &Position, mv: &Move) -> ArrayVec<u16, 8> {
        let plain = Move { choice: 0, ..*mv };
        let mut rest = mv.choice;
        let mut out = ArrayVec::new();
        for c in &self.choices {
            let n = c.choices(pos, &plain, &self.placed_promotions, self.promotion_rank).max(1);
            out.push(rest % n);
            rest /= n;
        }
        out
    }

    /// Which alternative of `mv` (a move of `pos`, not yet played) condition `c` is asked
    /// to play: `mv.choice` when `c` is the one choosing condition, its own digit when
    /// several choose ([`RuleSet::choice_digits`]), 0 when it does not choose.
    pub fn own_choice(&self, c: &dyn Condition, pos: &Position, mv: &Move) -> u16 {
        let is = |x: &Arc<dyn Condition>| std::ptr::addr_eq(Arc::as_ptr(x), c as *const dyn Condition);
        match &self.choices[..] {
            [one] => {
                if is(one) {
                    mv.choice
                } else {
                    0
                }
            }
            several => match several.iter().position(is) {
                Some(i) => self.choice_digits(pos, mv)[i],
                None => 0,
            },
        }
    }

    /// Orthodox chess.
    pub fn orthodox() -> RuleSet {
        RuleSet::build(Vec::new(), &[]).expect("no conditions")
    }

    /// The same rules without condition `c` (compared by identity): a condition that
    /// searches under the problem's other rules (Dead Reckoning's deadness test).
    pub fn without(&self, c: &dyn Condition) -> RuleSet {
        let rest: Vec<Arc<dyn Condition>> = self
            .conditions
            .iter()
            .filter(|x| !std::ptr::addr_eq(Arc::as_ptr(x), c as *const dyn Condition))
            .cloned()
            .collect();
        RuleSet::build(rest, &self.fairy_kinds).expect("a rule set less one condition composes")
    }

    /// Composes conditions; `fairy_kinds` are the fairy kinds a pawn may also promote to.
    pub fn build(conditions: Vec<Arc<dyn Condition>>, fairy_kinds: &[Kind]) -> Result<RuleSet, RulesError> {
        let conditions = merged(conditions);
        let caps: Vec<Capabilities> = conditions.iter().map(|c| c.capabilities()).collect();
        let with = |f: fn(&Capabilities) -> bool| -> Vec<Arc<dyn Condition>> {
            conditions.iter().zip(&caps).filter(|(_, k)| f(k)).map(|(c, _)| c.clone()).collect()
        };
        let any = |f: fn(&Capabilities) -> bool| caps.iter().any(f);
        let mut capture_origin = None;
        let mut choices = Vec::new();
        let mut on_capture: Vec<(usize, Arc<dyn Condition>)> = Vec::new();
        let mut arrival: Vec<Arc<dyn Condition>> = Vec::new();
        let mut after_move: Vec<Arc<dyn Condition>> = Vec::new();
        let mut admit: Vec<Arc<dyn Condition>> = Vec::new();
        let mut taken: Vec<(Slot, String)> = Vec::new();
        let mut release: Option<(Release, String)> = None;
        for (c, k) in conditions.iter().zip(&caps) {
            for &slot in &k.slots {
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
                    Slot::Choices => choices.push(c.clone()),
                    Slot::Arrival => arrival.push(c.clone()),
                    Slot::AfterMove => after_move.push(c.clone()),
                    Slot::Admit => admit.push(c.clone()),
                    _ => on_capture.push((rank, c.clone())),
                }
            }
            if let Some(r) = k.release {
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
        for (c, k) in conditions.iter().zip(&caps) {
            for &slot in &k.excluded_slots {
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
        let observation = caps.iter().map(|k| k.observation).max().unwrap_or(Observation::Attack);
        // Admit filters that restrict captures by their squares only keep the attack tables
        // (with a mask of departure squares), unless a locust may capture elsewhere than
        // where it lands.
        let locusts =
            fairy_kinds.iter().any(|&k| walk::walk(k).steps.iter().any(|s| matches!(s, walk::Step::Locust(..))));
        let capture_masks: Vec<Arc<dyn Condition>> =
            if locusts { Vec::new() } else { with(|k| k.slots.contains(&Slot::Admit) && k.admit_by_squares) };
        // Filters that never refuse a capture, or whose refusals the masks express, leave
        // check to the attack tables.
        let exact = |k: &Capabilities| k.admit_quiet_only || (!locusts && k.admit_by_squares);
        let observation =
            if capture_origin.is_some() || !caps.iter().filter(|k| k.slots.contains(&Slot::Admit)).all(exact) {
                observation.max(Observation::KingCaptures)
            } else {
                observation
            };
        let kings_ordinary = any(|k| k.kings_ordinary);
        let must_capture = any(|k| k.must_capture);
        if kings_ordinary || any(|k| k.king_promotion) {
            promotions.insert(0, KING);
        }
        let rulers = with(|k| k.check_rule);
        if rulers.len() > 1 || (!rulers.is_empty() && (kings_ordinary || observation != Observation::Attack)) {
            return Err(RulesError("these conditions define check in incompatible ways".into()));
        }
        let check_rule = rulers.first().cloned();
        let royals_capturable = any(|k| k.check_rule && k.royals_capturable);
        // The legality tests, those judging by the opponent's replies last (the dearest).
        let mut legality = with(|k| k.legality && !k.judges_by_replies);
        let reply_tests = with(|k| k.legality && k.judges_by_replies);
        let first_reply_test = legality.len();
        legality.extend(reply_tests);
        let filters = with(|k| k.filter);
        if filters.len() > 64 {
            return Err(RulesError(format!("{} conditions filter the legal moves: at most 64 can", filters.len())));
        }
        let filter_mask = |pick: fn(&Capabilities) -> bool| {
            caps.iter().filter(|k| k.filter).enumerate().filter(|(_, k)| pick(k)).fold(0u64, |m, (i, _)| m | 1 << i)
        };
        let filters_unnested = filter_mask(|k| k.filter_unnested);
        let filters_outside_goals = filter_mask(|k| k.filter_outside_goals);
        let rights = with(|k| k.rights);
        let mobility = with(|k| k.mobility);
        if (!mobility.is_empty() || !capture_masks.is_empty()) && check_rule.is_some() {
            return Err(RulesError(
                "a condition restricting which units may move cannot be combined with a condition redefining check"
                    .into(),
            ));
        }
        let mut promotion_rank = None;
        let mut pawn_first_rank_steps = None;
        for (c, k) in conditions.iter().zip(&caps) {
            for (mine, theirs) in
                [(&mut promotion_rank, k.promotion_rank), (&mut pawn_first_rank_steps, k.pawn_first_rank_steps)]
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
        let diagram_marks = with(|k| k.diagram_attrs);
        let turners = with(|k| k.turns);
        if turners.len() > 1 {
            return Err(RulesError(format!(
                "conditions {} and {} cannot be combined: both decide when a turn ends",
                turners[0].name(),
                turners[1].name()
            )));
        }
        let turns = turners.first().cloned();
        if let Some(t) = &turns
            && (!legality.is_empty() || !filters.is_empty() || must_capture)
        {
            return Err(RulesError(format!(
                "{} (multi-move turns) cannot be combined with conditions that judge a move by the opponent's reply or oblige moves",
                t.name()
            )));
        }
        let self_check_allowed = any(|k| k.self_check_allowed);
        let mut substitution = None;
        let mut substituting: Vec<String> = Vec::new();
        for (c, k) in conditions.iter().zip(&caps) {
            if let Some(t) = k.substitution
                && t.iter().enumerate().any(|(i, k)| k.index() != i)
            {
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
        let extra_moves = with(|k| k.extra_moves);
        let observers = with(|k| k.extra_observation);
        if !observers.is_empty() && (check_rule.is_some() || kings_ordinary) {
            return Err(RulesError(format!(
                "{} cannot be combined with conditions that define check otherwise",
                observers[0].name()
            )));
        }
        let capture_own = any(|k| k.capture_own);
        let castling_off = any(|k| k.castling_off);
        let castling_long_notation = any(|k| k.castling_long_notation);
        let any_unit = any(|k| k.any_unit);
        let track_last_move = any(|k| k.track_last_move);
        let gained_walks = any(|k| k.gains_walks);
        let base_movers = with(|k| k.base_move);
        if base_movers.len() > 1 {
            return Err(RulesError(format!(
                "conditions {} and {} cannot be combined: both play moves of their own",
                base_movers[0].name(),
                base_movers[1].name()
            )));
        }
        let base_move = base_movers.first().cloned();
        // Two choosing conditions number at most a few thousand alternatives of one move
        // (a rebirth square with its promotions, times a placement or another rebirth);
        // three could pass what `Move::choice` holds.
        if choices.len() > 2 {
            let names: Vec<String> = choices.iter().map(|c| c.name()).collect();
            return Err(RulesError(format!(
                "conditions {} cannot be combined: at most two may choose among a move's alternatives",
                names.join(", ")
            )));
        }
        let stack_limit = caps.iter().filter_map(|k| k.stack_limit).min();
        // The check shortcut: one condition has all the play consequences (and the choices,
        // the capture origins), the others only filter moves.
        let consequential: Vec<(&Arc<dyn Condition>, &Capabilities)> =
            conditions.iter().zip(&caps).filter(|(_, k)| k.slots.iter().any(|s| *s != Slot::Admit)).collect();
        let royal_capture = match consequential[..] {
            [(c, k)] if observation == Observation::KingCaptures && k.observation == Observation::KingCaptures => {
                Some(c.clone())
            }
            _ => None,
        };
        let has_underworld = release.is_some();
        let mut placed_promotions: Vec<Promotee> = promotions.iter().map(|&k| Promotee::plain(k)).collect();
        for (attrs, kinds) in caps.iter().filter_map(|k| k.promotee_attrs) {
            placed_promotions
                .extend(promotions.iter().filter(|k| kinds.contains(k)).map(|&kind| Promotee { kind, attrs }));
        }
        let rules = RuleSet {
            pawn_first_rank_immobile: any(|k| k.pawn_first_rank_immobile),
            choices_all_or_nothing: any(|k| k.choices_all_or_nothing),
            released_attrs: caps.iter().fold(0, |a, k| a | k.released_attrs),
            conditions,
            capture_origin,
            choices,
            on_capture: on_capture.into_iter().map(|(_, c)| c).collect(),
            arrival,
            after_move,
            admit,
            observation,
            release: release.map_or(Release::Lifo, |(r, _)| r),
            promotions,
            placed_promotions,
            kings_ordinary,
            must_capture,
            check_rule,
            legality,
            rights,
            filters,
            filters_unnested,
            filters_outside_goals,
            fairy_kinds: fairy_kinds.to_vec(),
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
            stack_limit,
            royals_capturable,
            first_reply_test,
            caps,
            underworld: has_underworld,
        };
        for c in &rules.conditions {
            c.check_combination(&rules)?;
        }
        Ok(rules)
    }

    /// Whether every condition keeps the orthodox game's positions
    /// ([`Capabilities::retro_orthodox`]): retro-analysis may assume orthodox play.
    pub fn retro_orthodox(&self) -> bool {
        self.caps.iter().all(|k| k.retro_orthodox)
    }

    pub fn conditions(&self) -> &[Arc<dyn Condition>] {
        &self.conditions
    }

    /// The unit `mv` moves in `pos` (the one on its departure square unless a condition
    /// with stacks says otherwise).
    pub fn moving_unit(&self, pos: &Position, mv: &Move) -> Option<Unit> {
        self.base_move.as_ref().and_then(|c| c.moving_unit(pos, mv)).or_else(|| pos.unit(mv.from))
    }

    /// The conditions with their capabilities (for [`Condition::check_combination`]).
    pub fn conditions_with_capabilities(&self) -> impl Iterator<Item = (&Arc<dyn Condition>, &Capabilities)> {
        self.conditions.iter().zip(&self.caps)
    }

    /// Whether some condition fills `slot` (for [`Condition::check_combination`]).
    pub fn uses_slot(&self, slot: Slot) -> bool {
        self.caps.iter().any(|k| k.slots.contains(&slot))
    }
}
