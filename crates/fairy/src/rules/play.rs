//! The play pipeline: the base move, the capture consequences by slot rank, the
//! after-move transformations, the underworld release and the state fields.

use super::*;

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

/// What a pawn that a condition places on its promotion rank becomes (a reborn pawn under
/// the Circe family): a kind, and attributes the promotee takes beside it (a chameleon, while
/// chameleons are in play: `[+wPa8=Q=c]`).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Promotee {
    pub kind: Kind,
    pub attrs: u8,
}

impl Promotee {
    /// A promotee of kind `kind` with no attribute of its own.
    pub fn plain(kind: Kind) -> Promotee {
        Promotee { kind, attrs: 0 }
    }
    /// `u` promoted: its kind replaced, the promotee's attributes added.
    pub fn applied_to(self, u: Unit) -> Unit {
        let k = u.with_kind(self.kind);
        Unit { attrs: k.attrs | self.attrs, ..k }
    }
}

/// What the notation shows of the consequences, in the order they happened.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Note {
    /// A unit (re)appears: `[+bQd8]`, `[+bPd1=S]`.
    Reborn { sq: Square, unit: Unit, promo: Option<Promotee> },
    /// A unit changes colour: `=b`, `=w` after the move.
    Recoloured { sq: Square, unit: Unit, colour: Colour },
    /// A unit changes kind: `=R` after the move.
    Rekinded { sq: Square, unit: Unit, kind: Kind },
    /// A unit is put under an occupant: `[+bRa8->v]`.
    RebornUnder { sq: Square, unit: Unit, promo: Option<Promotee> },
    /// A unit is transferred: `[wRh4->h1]`, `[wPd3->a8=Q]`.
    Transfer { from: Square, to: Square, unit: Unit, promo: Option<Promotee> },
    /// A unit disappears: `[-wkBg5]`.
    Vanished { sq: Square, unit: Unit },
    /// A hidden unit comes back: `[+bSg8]`.
    Reappeared { sq: Square, unit: Unit },
    /// Two units exchange their squares: `[Ke8<->Ke1]` (`a` stood on `a_sq`).
    Swapped { a_sq: Square, a: Unit, b_sq: Square, b: Unit },
    /// A unit gains attributes: `=c` (a promotee made a chameleon) after the move; `unit`
    /// is the unit with them.
    Attributed { sq: Square, unit: Unit },
    /// A unit the move did not move changes colour: `[f2=w]` (a hurdle of a
    /// hurdle-colour-changing unit).
    Turned { sq: Square, unit: Unit, colour: Colour },
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
    /// What a pawn placed on its promotion rank by a condition may become
    /// ([`RuleSet::placed_promotions`]).
    pub promotions: &'a [Promotee],
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

/// Result of playing a move: whether the rules accepted it, and its notes.
pub type Notes = ArrayVec<Note, 8>;

impl Game {
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
        // Several conditions choosing: each one's own alternative, read before the move.
        let digits = if rules.choices.len() > 1 { rules.choice_digits(pos, mv) } else { ArrayVec::new() };
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
            promotions: &rules.placed_promotions,
            regain: 0,
            substitution: rules.substitution,
            promotion_rank: rules.promotion_rank,
        };
        // The alternative condition `c` plays (the move's own with at most one choosing).
        let own = |c: &Arc<dyn Condition>| {
            if digits.is_empty() {
                mv.choice
            } else {
                rules.choices.iter().position(|x| Arc::ptr_eq(x, c)).map_or(0, |i| digits[i])
            }
        };
        for c in &rules.arrival {
            play.mv.choice = own(c);
            c.on_arrival(&mut play)?;
        }
        if mv.capture.is_some() {
            for c in &rules.on_capture {
                play.mv.choice = own(c);
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
            play.mv.choice = own(c);
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
                    let (sq, hidden) = pos.unbury(pick);
                    pos.add(sq, Unit { attrs: hidden.attrs | rules.released_attrs, ..hidden });
                    // Written as it was hidden (Popeye: a captured ghost carries its `u`
                    // from the capture on, a ghost of the diagram comes back written bare).
                    let _ = notes.try_push(Note::Reappeared { sq, unit: hidden });
                    i = 0;
                    continue;
                }
                i += 1;
            }
        }
        // Castling rights: lost when a unit leaves or is taken from its square; regained by rebirths.
        let lost = if old_rights != 0 { pos.rights_lost_in_frame() } else { 0 };
        let regained = if regain != 0 { regain & pos.unit_rights() } else { 0 };
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
        pos.set_rights(old_rights & !pos.rights_lost_in_frame());
        pos.set_ep(None);
        pos.flip_side_clock(sh.object.is_some_and(|(_, to)| to.is_none()) || moving.kind() == PAWN);
        Ok(())
    }
}
