//! The Circe family as one module with parameters: who is reborn (the captured units, or
//! the capturer: Anticirce), where (the rebirth-square rule), what changes on the way
//! (chameleon, clone), and what if the square is occupied (vanish, illegal, assassin,
//! parachute, volcanic). Plain Circe, its variants, Super-Circe, Anticirce and its
//! variants, Anti-Super-Circe and Fusil are all values of [`Circe`].
//!
//! A pawn reborn (or transferred) onto its promotion rank promotes there, the mover
//! choosing the kind; the promotion rank is the rule set's (Glasgow: the 7th rank;
//! Einstein: none, the pawn stays a pawn).

use crate::moves::Move;
use crate::position::{Position, Unit};
use crate::rules::{
    Capabilities, Condition, Note, Observation, Play, Promotee, Reject, Release, Role, RuleSet, Slot, home_kind,
    substituted_kind,
};
use crate::walk::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
use chimere_core::{Colour, Kind, Square};

/// Who is reborn.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Who {
    /// The captured unit(s) (Circe).
    Captured,
    /// The capturing unit (Anticirce).
    Capturer,
}

/// Where a unit is reborn.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum RebirthSquare {
    /// Standard Circe square ("modalités Circé").
    Standard,
    /// Standard square mirrored between the d and e files (Circé inversé).
    VerticalMirror,
    /// Four files and four ranks away from the capture square.
    Antipodes,
    /// Symmetric to the capture square through the centre of the board.
    Symmetry,
    /// Capture square + the vector of the capturing move.
    Equipollents,
    /// The unit's square in the diagram.
    Diagram,
    /// The standard square of the capturing unit (kind and colour).
    Couscous,
    /// Capture file, rank of the standard square (Anticirce colonne).
    File,
    /// Capture rank, file of the standard square for a capture on the unit's home rank in
    /// the capture file (Popeye's Rank Circe).
    Rank,
    /// The standard square turned through the centre of the board.
    Diametral,
    /// The capture square itself (Anticirce échange).
    CaptureSquare,
    /// The departure square of the move (Fusil).
    Departure,
    /// Any empty square, chosen by the mover (Super-Circe).
    Any,
}

/// What happens when the rebirth square is occupied.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Occupied {
    /// The unit is not reborn.
    Vanish,
    /// The capture is illegal (strict, Anticirce).
    Illegal,
    /// The occupant is removed.
    Assassin,
    /// The reborn unit lands on top, the occupant hidden under it.
    Parachute,
    /// The reborn unit is hidden under the occupant.
    Volcanic,
}

/// Change of kind on the way to the rebirth square.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Change {
    None,
    /// S -> B -> R -> Q -> S.
    Chameleon,
    /// The captured unit takes the capturer's kind (unless the capturer is a king).
    Clone,
}

/// A member of the Circe family.
#[derive(Clone, Debug)]
pub struct Circe {
    pub label: String,
    pub who: Who,
    pub square: RebirthSquare,
    pub occupied: Occupied,
    pub change: Change,
    /// Kings are reborn too.
    pub rex_inclusive: bool,
    /// A capture on the rebirth square itself is illegal (Anticirce Cheylan).
    pub cheylan: bool,
    /// The squares of the opposite colour are used (Mirror / maléfique), with the Standard,
    /// File, VerticalMirror and Couscous rules.
    pub mirror: bool,
    /// Only white units are reborn (Circé diagramme blanc).
    pub white_only: bool,
    /// With [`RebirthSquare::Any`]: the rebirth may also be declined.
    pub optional: bool,
    /// With [`RebirthSquare::Any`]: a bishop only on its own square colour, a pawn never on
    /// its first or last rank (Optional Replacement).
    pub restricted_any: bool,
    /// A move's alternatives (promotions of a reborn pawn) stand or fall together: if one
    /// would leave the mover in check, the capture is illegal (Circé coucou).
    pub all_or_nothing: bool,
    /// Anticirce-like: an occupied rebirth square leaves the capturer where it captured;
    /// a pawn that would be reborn does not promote first; kings do not move (Para-circé).
    pub para: bool,
}

impl Circe {
    fn base(label: &str, who: Who, square: RebirthSquare) -> Circe {
        let anti = who == Who::Capturer;
        Circe {
            label: label.to_string(),
            who,
            square,
            occupied: if anti { Occupied::Illegal } else { Occupied::Vanish },
            change: Change::None,
            rex_inclusive: anti,
            cheylan: anti,
            mirror: false,
            white_only: false,
            optional: false,
            restricted_any: false,
            all_or_nothing: false,
            para: false,
        }
    }
    /// Plain Circe.
    pub fn plain() -> Circe {
        Circe::base("Circe", Who::Captured, RebirthSquare::Standard)
    }
    /// A Circe variant with another rebirth-square rule.
    pub fn with_square(label: &str, square: RebirthSquare) -> Circe {
        let mut c = Circe::base(label, Who::Captured, square);
        c.optional = square == RebirthSquare::Any;
        c
    }
    /// Anticirce (default type Cheylan) with this rebirth-square rule.
    pub fn anti(label: &str, square: RebirthSquare) -> Circe {
        let mut c = Circe::base(label, Who::Capturer, square);
        if matches!(square, RebirthSquare::CaptureSquare | RebirthSquare::Departure) {
            c.cheylan = false;
        }
        c
    }
    /// Circé coucou: Couscous where all promotions of a reborn pawn must be legal.
    pub fn coucou() -> Circe {
        Circe { all_or_nothing: true, ..Circe::with_square("Circe Coucou", RebirthSquare::Couscous) }
    }
    /// Optional Replacement: the captured unit may be put back on any empty square
    /// (bishops on their colour, pawns not on the first or last rank) or removed.
    pub fn optional_replacement() -> Circe {
        Circe { restricted_any: true, ..Circe::with_square("Optional Replacement", RebirthSquare::Any) }
    }
    /// Para-circé: the capturer (not a king) returns to its standard Circe square if it is
    /// empty, else stays; kings cannot move.
    pub fn para() -> Circe {
        let mut c = Circe::anti("Para-circe", RebirthSquare::Standard);
        c.cheylan = false;
        c.rex_inclusive = false;
        c.occupied = Occupied::Vanish;
        c.para = true;
        c
    }
    /// Fusil: the capturer returns to its departure square.
    pub fn fusil() -> Circe {
        Circe::anti("Fusil", RebirthSquare::Departure)
    }
}

/// [`standard_square`]'s promotion rank for the orthodox squares.
pub const ORTHODOX: u8 = 8;

/// The standard Circe square of a unit of `kind` and colour `c` captured on `at`, with the
/// rules' promotion rank (relative to the side, 8 or more: orthodox): a fairy piece goes
/// to the promotion square of the capture file (Glasgow's 7th rank, as in Popeye).
pub fn standard_square(c: Colour, kind: Kind, at: Square, promotion_rank: u8) -> Square {
    let white = c != Colour::Black;
    let home = if white { 0 } else { 7 };
    let pair = |a: u8, b: u8| {
        let s = Square::from_coords(a, home);
        if s.is_light() == at.is_light() { s } else { Square::from_coords(b, home) }
    };
    match kind {
        PAWN => Square::from_coords(at.file(), if white { 1 } else { 6 }),
        ROOK => pair(0, 7),
        KNIGHT => pair(1, 6),
        BISHOP => pair(2, 5),
        QUEEN => Square::from_coords(3, home),
        KING => Square::from_coords(4, home),
        _ => {
            let r = promotion_rank.min(7);
            Square::from_coords(at.file(), if white { r } else { 7 - r })
        }
    }
}

/// The absolute rank on which a pawn of colour `c` promotes, given the rule set's
/// promotion rank relative to the pawn's side (8 or more: never).
fn promotion_rank(c: Colour, relative: u8) -> Option<u8> {
    if relative > 7 {
        return None;
    }
    match c {
        Colour::White => Some(relative),
        Colour::Black => Some(7 - relative),
        Colour::Shared => None,
    }
}

/// The kind after a chameleon change.
pub fn chameleon(k: Kind) -> Kind {
    match k {
        KNIGHT => BISHOP,
        BISHOP => ROOK,
        ROOK => QUEEN,
        QUEEN => KNIGHT,
        other => other,
    }
}

/// Everything a rebirth depends on.
#[derive(Copy, Clone, Debug)]
struct Ctx {
    mv: Move,
    mover: Colour,
    /// The capturing unit as it stood before moving.
    moving: Unit,
    /// The captured unit (for Anticirce Couscous: the capturer goes to its square).
    captured: Option<Unit>,
    /// Piece-set substitution: substituted kinds use the squares of the kinds they replace.
    sub: Option<[Kind; crate::walk::KINDS]>,
    /// The rules' promotion rank, relative to the side (8: never).
    promotion_rank: u8,
}

impl Ctx {
    /// The context of a move being played.
    fn of_play(play: &Play) -> Ctx {
        Ctx {
            mv: play.mv,
            mover: play.mover,
            moving: play.moving,
            captured: play.victims.iter().find(|v| v.role == Role::Captured).map(|v| v.unit),
            sub: play.substitution,
            promotion_rank: play.promotion_rank,
        }
    }
}

impl Circe {
    /// The unit as it will be reborn (before promotion), or `None` if it is not reborn.
    fn reborn_unit(&self, ctx: &Ctx, victim: Unit, role: Role) -> Option<Unit> {
        if victim.kind() == KING && !self.rex_inclusive {
            return None;
        }
        if self.white_only && victim.colour() != Colour::White {
            return None;
        }
        let kind = match (self.change, role) {
            (Change::Chameleon, _) => {
                let sub = ctx.sub.as_ref();
                substituted_kind(sub, chameleon(home_kind(sub, victim.kind())))
            }
            (Change::Clone, Role::Captured) if ctx.moving.kind() != KING && victim.kind() != KING => ctx.moving.kind(),
            _ => victim.kind(),
        };
        Some(victim.with_kind(kind))
    }

    /// The colour whose squares a unit uses (neutral units: the side that lost them).
    fn side_of(u: Unit, ctx: &Ctx, role: Role) -> Colour {
        match u.colour() {
            Colour::Shared => match role {
                Role::Captured => ctx.mover.opponent(),
                Role::Capturer => ctx.mover,
            },
            c => c,
        }
    }

    /// Geometric rebirth square (`None`: off the board or no square); `Any` gives `None`.
    fn square_for(&self, ctx: &Ctx, u: Unit, role: Role, capsq: Square) -> Option<Square> {
        let own = Circe::side_of(u, ctx, role);
        let side = if self.mirror { own.opponent() } else { own };
        let from = ctx.mv.via.unwrap_or(ctx.mv.from);
        let u = u.with_kind(home_kind(ctx.sub.as_ref(), u.kind()));
        // Only the standard squares follow a moved promotion rank (Popeye's Glasgow
        // adjustment is of its regular rebirth square alone).
        let prom = ctx.promotion_rank;
        match self.square {
            RebirthSquare::Standard => Some(standard_square(side, u.kind(), capsq, prom)),
            RebirthSquare::VerticalMirror => {
                let s = standard_square(side, u.kind(), capsq, ORTHODOX);
                Some(Square::from_coords(7 - s.file(), s.rank()))
            }
            RebirthSquare::Antipodes => {
                let f = if capsq.file() < 4 { capsq.file() + 4 } else { capsq.file() - 4 };
                let r = if capsq.rank() < 4 { capsq.rank() + 4 } else { capsq.rank() - 4 };
                Some(Square::from_coords(f, r))
            }
            RebirthSquare::Symmetry => Some(Square::new(63 - capsq.index() as u8)),
            RebirthSquare::Equipollents => {
                capsq.offset(ctx.mv.to.file() as i8 - from.file() as i8, ctx.mv.to.rank() as i8 - from.rank() as i8)
            }
            RebirthSquare::Diagram => u.origin_square(),
            RebirthSquare::Couscous => {
                // Circe: the capturer's square; Anticirce: the captured unit's square.
                let (cap, r) = match (role, ctx.captured) {
                    (Role::Capturer, Some(v)) if self.who == Who::Capturer => (v, Role::Captured),
                    _ => (ctx.moving, Role::Capturer),
                };
                let c = Circe::side_of(cap, ctx, r);
                let k = home_kind(ctx.sub.as_ref(), cap.kind());
                Some(standard_square(if self.mirror { c.opponent() } else { c }, k, capsq, prom))
            }
            RebirthSquare::File => {
                let s = standard_square(side, u.kind(), capsq, ORTHODOX);
                Some(Square::from_coords(capsq.file(), s.rank()))
            }
            RebirthSquare::Rank => {
                let home = if side == Colour::Black { 7 } else { 0 };
                let s = standard_square(side, u.kind(), Square::from_coords(capsq.file(), home), ORTHODOX);
                Some(Square::from_coords(s.file(), capsq.rank()))
            }
            RebirthSquare::Diametral => {
                Some(Square::new(63 - standard_square(side, u.kind(), capsq, ORTHODOX).index() as u8))
            }
            RebirthSquare::CaptureSquare => Some(capsq),
            RebirthSquare::Departure => Some(ctx.mv.from),
            RebirthSquare::Any => None,
        }
    }

    /// The alternatives for one reborn unit: `(square, promotion)`; `(None, _)` = declined.
    fn alternatives(
        &self,
        ctx: &Ctx,
        u: Unit,
        role: Role,
        capsq: Square,
        promo: (&[Promotee], u8),
        mut f: impl FnMut(Option<Square>, Option<Promotee>) -> bool,
    ) {
        let (promotions, rank) = promo;
        let promo_rank = if u.kind() == PAWN { promotion_rank(Circe::side_of(u, ctx, role), rank) } else { None };
        let each_square = |s: Square, f: &mut dyn FnMut(Option<Square>, Option<Promotee>) -> bool| -> bool {
            if Some(s.rank()) == promo_rank {
                // An attribute the unit already carries adds no alternative.
                for &p in promotions.iter().filter(|p| p.attrs == 0 || p.attrs & !u.attrs != 0) {
                    if !f(Some(s), Some(p)) {
                        return false;
                    }
                }
                true
            } else {
                f(Some(s), None)
            }
        };
        if self.square == RebirthSquare::Any {
            if self.optional && !f(None, None) {
                return;
            }
            for s in Square::ALL {
                if self.restricted_any {
                    let rel = if Circe::side_of(u, ctx, role) == Colour::Black { 7 - s.rank() } else { s.rank() };
                    if (u.kind() == BISHOP && s.is_light() != capsq.is_light())
                        || (u.kind() == PAWN && (rel == 0 || rel == 7))
                    {
                        continue;
                    }
                }
                if !each_square(s, &mut f) {
                    return;
                }
            }
        } else if let Some(s) = self.square_for(ctx, u, role, capsq) {
            each_square(s, &mut f);
        }
    }

    fn count(&self, ctx: &Ctx, u: Unit, role: Role, capsq: Square, promo: (&[Promotee], u8)) -> u16 {
        let mut n = 0u16;
        self.alternatives(ctx, u, role, capsq, promo, |_, _| {
            n += 1;
            true
        });
        n.max(1)
    }

    fn pick(
        &self,
        ctx: &Ctx,
        u: Unit,
        role: Role,
        capsq: Square,
        promo: (&[Promotee], u8),
        choice: u16,
    ) -> Option<(Option<Square>, Option<Promotee>)> {
        let mut i = 0u16;
        let mut got = None;
        self.alternatives(ctx, u, role, capsq, promo, |s, k| {
            if i == choice {
                got = Some((s, k));
                return false;
            }
            i += 1;
            true
        });
        got
    }

    /// Puts `u` back on `sq` per the occupancy rule. `Ok(false)`: not reborn.
    fn place(
        &self,
        play: &mut Play,
        sq: Square,
        u: Unit,
        role: Role,
        from: Square,
        promo: Option<Promotee>,
    ) -> Result<bool, Reject> {
        let placed = match promo {
            Some(p) => p.applied_to(u),
            None => u,
        };
        let note_plain = |play: &mut Play| match role {
            Role::Captured => play.note(Note::Reborn { sq, unit: u, promo }),
            Role::Capturer => play.note(Note::Transfer { from, to: sq, unit: u, promo }),
        };
        // A hole (Trou, Haan) takes no unit: as an occupied square, with nothing to remove.
        if play.pos.is_hole(sq) {
            return if self.occupied == Occupied::Illegal { Err(Reject) } else { Ok(false) };
        }
        if play.pos.unit(sq).is_some() {
            match self.occupied {
                Occupied::Vanish => return Ok(false),
                Occupied::Illegal => return Err(Reject),
                Occupied::Assassin => {
                    play.pos.remove(sq);
                }
                Occupied::Parachute => {
                    let occ = play.pos.remove(sq).expect("occupied");
                    if !play.pos.bury(sq, occ, true) {
                        return Err(Reject);
                    }
                }
                Occupied::Volcanic => {
                    if !play.pos.bury(sq, placed, true) {
                        return Err(Reject);
                    }
                    play.note(Note::RebornUnder { sq, unit: u, promo });
                    return Ok(true);
                }
            }
        }
        play.pos.add(sq, placed);
        play.regain_rights(sq, placed);
        note_plain(play);
        Ok(true)
    }

    fn rebirth_victims(&self, play: &mut Play) -> Result<(), Reject> {
        let ctx = Ctx::of_play(play);
        for i in 0..play.victims.len() {
            let v = play.victims[i];
            if v.handled {
                continue;
            }
            play.victims[i].handled = true;
            let Some(u) = self.reborn_unit(&ctx, v.unit, v.role) else { continue };
            let capsq = play.mv.capture.unwrap_or(v.sq);
            let choice = if v.role == Role::Captured { play.mv.choice } else { 0 };
            let Some((sq, promo)) = self.pick(&ctx, u, v.role, capsq, (play.promotions, play.promotion_rank), choice)
            else {
                if choice != 0 {
                    return Err(Reject);
                }
                continue;
            };
            let Some(sq) = sq else { continue };
            if self.square == RebirthSquare::Any && play.pos.blocked(sq) {
                return Err(Reject);
            }
            // A unit that is not reborn (occupied square or hole) has one fate whatever the
            // promotion alternative: only the first alternative stands for it (no duplicates).
            if !self.place(play, sq, u, v.role, v.sq, promo)? && choice != 0 {
                return Err(Reject);
            }
        }
        Ok(())
    }

    fn rebirth_capturer(&self, play: &mut Play) -> Result<(), Reject> {
        let ctx = Ctx::of_play(play);
        let to = play.mv.to;
        let Some(u) = play.pos.unit(to) else { return Ok(()) };
        let capsq = play.mv.capture.unwrap_or(to);
        let Some(u2) = self.reborn_unit(&ctx, u, Role::Capturer) else { return Ok(()) };
        let Some((sq, promo)) =
            self.pick(&ctx, u2, Role::Capturer, capsq, (play.promotions, play.promotion_rank), play.mv.choice)
        else {
            return Err(Reject);
        };
        let Some(sq) = sq else { return Err(Reject) };
        // Para-circé: a pawn that promoted could not be reborn (its square was occupied).
        let promoted_pawn = play.moving.kind() == PAWN && play.mv.promo.is_some();
        if self.para && (sq == to || promoted_pawn || play.pos.blocked(sq)) {
            return Ok(());
        }
        if sq == to {
            if self.cheylan {
                return Err(Reject);
            }
            play.note(Note::Transfer { from: to, to: sq, unit: u, promo });
            if let Some(p) = promo {
                play.pos.remove(to);
                play.pos.add(to, p.applied_to(u));
            }
            return Ok(());
        }
        if play.pos.is_hole(sq) {
            return Err(Reject);
        }
        if play.pos.unit(sq).is_some() {
            if self.occupied != Occupied::Assassin {
                return Err(Reject);
            }
            play.pos.remove(sq);
        }
        play.pos.remove(to);
        let placed = match promo {
            Some(p) => p.applied_to(u2),
            None => u2,
        };
        play.pos.add(sq, placed);
        play.regain_rights(sq, placed);
        play.note(Note::Transfer { from: to, to: sq, unit: u, promo });
        Ok(())
    }
}

impl Condition for Circe {
    fn name(&self) -> String {
        self.label.clone()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            slots: {
                match self.who {
                    Who::Captured => vec![Slot::Choices, Slot::CapturedFate],
                    Who::Capturer => vec![Slot::Choices, Slot::CapturerRebirth],
                }
            },
            observation: {
                if self.occupied == Occupied::Assassin {
                    Observation::AllCaptures
                } else if self.who == Who::Capturer || self.rex_inclusive {
                    Observation::KingCaptures
                } else {
                    Observation::Attack
                }
            },
            choices_all_or_nothing: self.all_or_nothing,
            pawn_first_rank_immobile: {
                !self.restricted_any
                    && matches!(
                        self.square,
                        RebirthSquare::Any
                            | RebirthSquare::Antipodes
                            | RebirthSquare::Symmetry
                            | RebirthSquare::Equipollents
                    )
            },
            release: {
                match self.occupied {
                    Occupied::Parachute => Some(Release::Lifo),
                    Occupied::Volcanic => Some(Release::Fifo),
                    _ => None,
                }
            },
            ..Capabilities::default()
        }
    }
    fn choices(&self, pos: &Position, mv: &Move, promotions: &[Promotee], promotion_rank: u8) -> u16 {
        let promo = (promotions, promotion_rank);
        let Some(capsq) = mv.capture else { return 1 };
        let Some(moving) = pos.unit(mv.from) else { return 1 };
        let mover = match moving.colour() {
            Colour::Shared => pos.side(),
            c => c,
        };
        // Without the substitution: only pawns have alternatives at a fixed square.
        let ctx =
            Ctx { mv: *mv, mover, moving, captured: mv.capture.and_then(|c| pos.unit(c)), sub: None, promotion_rank };
        match self.who {
            Who::Captured => {
                let Some(v) = pos.unit(capsq) else { return 1 };
                match self.reborn_unit(&ctx, v, Role::Captured) {
                    Some(u) => self.count(&ctx, u, Role::Captured, capsq, promo),
                    None => 1,
                }
            }
            Who::Capturer => {
                let arrived = match mv.promo {
                    Some(k) => moving.with_kind(k),
                    None => moving,
                };
                match self.reborn_unit(&ctx, arrived, Role::Capturer) {
                    Some(u) => self.count(&ctx, u, Role::Capturer, capsq, promo),
                    None => 1,
                }
            }
        }
    }
    fn on_capture(&self, play: &mut Play) -> Result<(), Reject> {
        match self.who {
            Who::Captured => self.rebirth_victims(play),
            Who::Capturer => self.rebirth_capturer(play),
        }
    }
    fn can_move(&self, u: Unit) -> bool {
        !(self.para && u.kind() == KING)
    }
    fn promotes_by_capture(&self, pos: &Position, to: Square, u: Unit, _rules: &RuleSet) -> bool {
        if !self.para || u.kind() != PAWN {
            return true;
        }
        let side = if u.colour() == Colour::Shared { pos.side() } else { u.colour() };
        pos.unit(standard_square(side, PAWN, to, ORTHODOX)).is_some()
    }
    fn royal_capture(&self, pos: &Position, by: Colour, mv: &Move, rules: &RuleSet) -> Option<bool> {
        let promotions = (&rules.placed_promotions[..], rules.promotion_rank);
        // The board after the base move: `from` and the capture square emptied, the
        // capturer on `to` (as `rebirth_victims` / `rebirth_capturer` see it).
        let capsq = mv.capture?;
        let moving = pos.unit(mv.from)?;
        let captured = pos.unit(capsq)?;
        if mv.castle.is_some() || self.para || !matches!(self.occupied, Occupied::Vanish | Occupied::Illegal) {
            return None;
        }
        if pos.is_hole(mv.to) {
            // Nothing may land on a hole (a unit of the diagram standing on one cannot be taken).
            return Some(false);
        }
        // A hole counts as occupied (nothing may be put there).
        let occupied_after =
            |s: Square| s == mv.to || pos.is_hole(s) || (s != mv.from && s != capsq && pos.unit(s).is_some());
        let ctx = Ctx {
            mv: *mv,
            mover: by,
            moving,
            captured: Some(captured),
            sub: rules.substitution,
            promotion_rank: rules.promotion_rank,
        };
        match self.who {
            Who::Capturer => {
                let arrived = match mv.promo {
                    Some(k) => moving.with_kind(k),
                    None => moving,
                };
                let Some(u) = self.reborn_unit(&ctx, arrived, Role::Capturer) else { return Some(true) };
                let Some((Some(sq), _)) = self.pick(&ctx, u, Role::Capturer, capsq, promotions, mv.choice) else {
                    return Some(false);
                };
                if sq == mv.to {
                    return Some(!self.cheylan);
                }
                // An occupied rebirth square makes the capture illegal (not Assassin here).
                Some(!occupied_after(sq))
            }
            Who::Captured => {
                let Some(u) = self.reborn_unit(&ctx, captured, Role::Captured) else { return Some(true) };
                let Some((sq, _)) = self.pick(&ctx, u, Role::Captured, capsq, promotions, mv.choice) else {
                    return Some(mv.choice == 0);
                };
                // Declined (optional rebirth): the royal unit is gone.
                let Some(sq) = sq else { return Some(true) };
                if occupied_after(sq) {
                    // Any square must be empty; else the occupancy rule decides.
                    return Some(self.square != RebirthSquare::Any && self.occupied == Occupied::Vanish);
                }
                Some(false)
            }
        }
    }
}
