//! Moves and pseudo-legal move generation by walk data, plus the orthodox-style
//! observation test (can a side capture on a square, ignoring consequences).

use crate::position::{B_KING, SLOT_BITS, W_KING};
use crate::position::{EnPassant, HURDLE_COLOUR_CHANGING, Position, ROYAL, UNCAPTURABLE, Unit};
use crate::walk::{self, KING, Land, PAWN, ROSE_CIRCLE, Step};
use chimere_core::{Bitboard, Colour, Kind, Square, attacks};

/// A move as the player chooses it. Consequences (rebirths, ...) are computed when it is
/// played; `choice` selects among alternative consequences (a Super-Circe rebirth square,
/// the promotion of a reborn pawn, the promotions of pawns going along in a stack...), 0
/// being the first/default one.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    /// Square of the captured unit (the arrival square, or another one for en passant
    /// and locusts).
    pub capture: Option<Square>,
    /// The capture was made from this square, where the unit was first transferred (Mars Circe).
    pub via: Option<Square>,
    pub promo: Option<Kind>,
    /// Castling: the partner's departure and arrival squares.
    pub castle: Option<(Square, Square)>,
    pub ep: bool,
    pub choice: u16,
    /// A second unit moved by the move (push/pull conditions), with `capture` = the
    /// object's square when it leaves the board.
    pub shift: Option<Shift>,
    /// Stacks (conditions where several units share a square): which unit of the
    /// departure square moves and which go along with it, encoded by the condition that
    /// makes stacks ([`crate::Condition::base_move`]); 0 = the unit on the board, alone.
    pub stack: u32,
    /// The hurdle a hop passed over (hoppers, lions, Chinese captures), for the units that
    /// change their hurdle's colour ([`crate::position::HURDLE_COLOUR_CHANGING`]).
    pub hurdle: Option<Square>,
}

/// The second unit a push/pull move displaces, and whether the mover leaves the board.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Shift {
    /// The object's square and its arrival (`None`: it leaves the board); `None`: no
    /// object (the mover alone leaves the board).
    pub object: Option<(Square, Option<Square>)>,
    /// The mover leaves the board (then `to` = `from`).
    pub mover_off: bool,
}

impl Move {
    pub const fn quiet(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            capture: None,
            via: None,
            promo: None,
            castle: None,
            ep: false,
            choice: 0,
            shift: None,
            stack: 0,
            hurdle: None,
        }
    }
    /// The null move (a pass): from = to, nothing moves; only the side to move changes.
    pub const NULL: Move = Move::quiet(Square::new(0), Square::new(0));
    /// Whether this is the null move ([`Move::NULL`]).
    #[inline]
    pub fn is_null(&self) -> bool {
        self.from == self.to
            && self.capture.is_none()
            && self.castle.is_none()
            && self.via.is_none()
            && self.shift.is_none()
            && self.stack == 0
    }
    #[inline]
    pub const fn is_capture(&self) -> bool {
        self.capture.is_some()
    }
}

/// What generation needs to know from the rules besides the position.
pub struct GenParams<'a> {
    /// Kinds a pawn may promote to.
    pub promotions: &'a [Kind],
    /// Whether a unit promotes when it captures onto its promotion rank.
    pub capture_promotes: &'a dyn Fn(&Position, Square, Unit) -> bool,
    /// Whether a unit may move at all.
    pub can_move: &'a dyn Fn(Unit) -> bool,
    /// Pawns on their own first rank cannot move.
    pub pawn_first_rank_immobile: bool,
    /// Where a unit starting on `from` must stand to capture (`None` = it cannot capture).
    pub capture_origin: &'a dyn Fn(&Position, Square, Unit) -> Option<Square>,
    /// The rank (relative to the mover, 0 = its first) on which a pawn arriving promotes;
    /// 8 or more = pawns never promote.
    pub promotion_rank: u8,
    /// How many squares a pawn on its own first rank may advance (each one a move).
    pub first_rank_steps: u8,
    /// Units may also capture non-royal units of their own colour.
    pub capture_own: bool,
    /// A side may move every unit, whatever its colour; each unit moves for its own colour.
    pub any_unit: bool,
    /// Orthodox castling is generated.
    pub castling: bool,
    /// The squares whose units may move at all (paralysis, observation rules).
    pub mobile: Bitboard,
    /// Only captures are wanted (check detection): the walks' quiet moves and castling
    /// are not generated (conditions adding moves may still add quiet ones).
    pub captures_only: bool,
}

/// May side `mover` capture the unit `u`?
#[inline]
pub fn capturable(mover: Colour, u: Unit) -> bool {
    (u.colour() == mover.opponent() || u.colour() == Colour::Shared) && !u.has(UNCAPTURABLE)
}

/// May a unit moving for `mover` capture `t` under these generation parameters?
#[inline]
fn takes(gp: &GenParams, mover: Colour, t: Unit) -> bool {
    capturable(mover, t) || (gp.capture_own && t.colour() == mover && t.kind() != KING && !t.has(UNCAPTURABLE | ROYAL))
}

/// Board access for generation with one square considered empty (a lifted unit).
#[derive(Copy, Clone)]
struct View<'a> {
    pos: &'a Position,
    lifted: Option<Square>,
    /// A unit imagined on a square (the observation test of the generic kinds).
    phantom: Option<(Square, Unit)>,
}

impl View<'_> {
    #[inline]
    fn get(&self, s: Square) -> Option<Unit> {
        if let Some((p, u)) = self.phantom
            && p == s
        {
            return Some(u);
        }
        if Some(s) == self.lifted { None } else { self.pos.unit(s) }
    }
    /// An empty square that is not a hole (a unit may stop on it or pass over it).
    #[inline]
    fn free(&self, s: Square) -> bool {
        self.get(s).is_none() && !self.pos.is_hole(s)
    }
}

/// Appends every pseudo-legal move of side `mover` (consequences not yet applied).
pub fn generate(pos: &Position, mover: Colour, gp: &GenParams, out: &mut Vec<Move>) {
    generate_from(pos, mover, gp, Bitboard::FULL, out)
}

/// [`generate`] for the units standing on `from_mask` only.
pub fn generate_from(pos: &Position, mover: Colour, gp: &GenParams, from_mask: Bitboard, out: &mut Vec<Move>) {
    let units = if gp.any_unit { pos.occupied() } else { pos.movable(mover) };
    for from in units & gp.mobile & from_mask {
        let u = pos.unit(from).expect("occupied");
        if !(gp.can_move)(u) {
            continue;
        }
        // Under `any_unit` a unit of either colour moves for its own colour.
        let mover = if gp.any_unit && u.colour() != Colour::Shared { u.colour() } else { mover };
        let unit_start = out.len();
        gen_walk(pos, from, u, u, mover, gp, out);
        if u.extra_powers() != 0 {
            gen_gained(pos, from, u, mover, gp, out, unit_start);
        }
        if gp.castling && !gp.captures_only && u.kind() == KING && u.colour() == mover {
            gen_castling(pos, from, mover, out);
        }
    }
}

/// Appends the moves (quiet and captures, from where it stands) of unit `u` on `from`
/// moving for `mover` — `u` may carry another kind than the unit on the board (a king
/// moving like another walk).
pub fn generate_unit(pos: &Position, from: Square, u: Unit, mover: Colour, gp: &GenParams, out: &mut Vec<Move>) {
    let plain = View { pos, lifted: None, phantom: None };
    if !gp.captures_only {
        gen_unit(plain, from, from, u, mover, gp, Mode::Quiet, out);
    }
    gen_unit(plain, from, from, u, mover, gp, Mode::Capture, out);
}

/// Appends the moves by which the unit `u` on `from`, moving for `mover`, would join a
/// unit of its own colour (stacks): its non-capturing moves (a pawn's steps forward, a
/// rider's line up to the first unit, a hopper's landing...) ending on a square held by a
/// unit of colour `mover` instead of an empty one. Written as quiet moves.
pub fn generate_joins(pos: &Position, from: Square, u: Unit, mover: Colour, gp: &GenParams, out: &mut Vec<Move>) {
    gen_unit(View { pos, lifted: None, phantom: None }, from, from, u, mover, gp, Mode::Join, out);
}

/// The quiet moves and captures of the unit `u` on `from` by the walk of `w.kind()`.
fn gen_walk(pos: &Position, from: Square, u: Unit, w: Unit, mover: Colour, gp: &GenParams, out: &mut Vec<Move>) {
    let plain = View { pos, lifted: None, phantom: None };
    if !gp.captures_only {
        gen_unit(plain, from, from, w, mover, gp, Mode::Quiet, out);
    }
    if let Some(origin) = (gp.capture_origin)(pos, from, u) {
        if origin == from {
            gen_unit(plain, from, from, w, mover, gp, Mode::Capture, out);
        } else {
            let lifted = View { pos, lifted: Some(from), phantom: None };
            let start = out.len();
            gen_unit(lifted, from, origin, w, mover, gp, Mode::Capture, out);
            for m in &mut out[start..] {
                m.via = Some(origin);
            }
        }
    }
}

/// The moves by the walks a unit has gained ([`Unit::powers`]), merged with those of its
/// own walk (`out[unit_start..]`) without duplicates. Only a pawn promotes: a pawn
/// reaching its promotion rank by a gained walk promotes; another unit moving by a gained
/// pawn walk does not.
fn gen_gained(
    pos: &Position,
    from: Square,
    u: Unit,
    mover: Colour,
    gp: &GenParams,
    out: &mut Vec<Move>,
    unit_start: usize,
) {
    let last_rank = if mover.forward() > 0 { 7 } else { 0 };
    let mut bits = u.extra_powers();
    while bits != 0 {
        let k = Kind(bits.trailing_zeros() as u8);
        bits &= bits - 1;
        let start = out.len();
        gen_walk(pos, from, u, u.with_kind(k), mover, gp, out);
        let end = out.len();
        for i in start..end {
            let m = out[i];
            if u.kind() == PAWN {
                if m.promo.is_none()
                    && m.to.rank() == last_rank
                    && mover.forward() != 0
                    && (m.capture.is_none() || (gp.capture_promotes)(pos, m.to, u))
                {
                    out[i].promo = gp.promotions.first().copied();
                    for &p in gp.promotions.iter().skip(1) {
                        out.push(Move { promo: Some(p), ..m });
                    }
                }
            } else {
                out[i].promo = None;
            }
        }
    }
    // Remove duplicates (the same move by two walks), keeping the first.
    let mut keep = unit_start;
    for i in unit_start..out.len() {
        let m = out[i];
        if !out[unit_start..keep].contains(&m) {
            out[keep] = m;
            keep += 1;
        }
    }
    out.truncate(keep);
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Mode {
    Quiet,
    Capture,
    /// Non-capturing moves onto a unit of the mover's own colour ([`generate_joins`]).
    Join,
}

#[allow(clippy::too_many_arguments)]
fn gen_unit(
    v: View,
    from: Square,
    at: Square,
    u: Unit,
    mover: Colour,
    gp: &GenParams,
    mode: Mode,
    out: &mut Vec<Move>,
) {
    // Fast path for the orthodox walks: attack tables.
    // Holes stop riders like units and cannot be landed on.
    let occ = match v.lifted {
        Some(l) => v.pos.obstacles() & !Bitboard::from_square(l),
        None => v.pos.obstacles(),
    };
    let table = match u.kind() {
        walk::KNIGHT => Some(attacks::knight(at)),
        walk::KING => Some(attacks::king(at)),
        walk::ROOK => Some(attacks::rook(at, occ)),
        walk::BISHOP => Some(attacks::bishop(at, occ)),
        walk::QUEEN => Some(attacks::queen(at, occ)),
        _ => None,
    };
    if let Some(atk) = table {
        match mode {
            Mode::Quiet => {
                for to in atk & !occ {
                    if to != from {
                        out.push(Move::quiet(from, to));
                    }
                }
            }
            Mode::Join => {
                for to in atk & v.pos.colour(mover) {
                    if to != from {
                        out.push(Move::quiet(from, to));
                    }
                }
            }
            Mode::Capture => {
                for to in atk & occ {
                    if let Some(t) = v.get(to)
                        && takes(gp, mover, t)
                    {
                        out.push(Move { capture: Some(to), ..Move::quiet(from, to) });
                    }
                }
            }
        }
        return;
    }
    let w = walk::walk(u.kind());
    let mut seen = Bitboard::EMPTY;
    // Two hops onto one square over different hurdles are different moves for a unit that
    // turns its hurdles (Popeye lists both); otherwise one square is one move.
    let one_per_square = !u.has(HURDLE_COLOUR_CHANGING);
    let joins = |t: Unit| mode == Mode::Join && t.colour() == mover;
    let emit = |to: Square, cap: Option<Square>, seen: &mut Bitboard, out: &mut Vec<Move>| {
        // A unit that returns to its own square by a (Mars) capture path is fine; a quiet
        // move must change squares.
        if cap.is_none() && to == from {
            return;
        }
        if seen.has(to) && one_per_square {
            return;
        }
        seen.set(to);
        out.push(Move { capture: cap, ..Move::quiet(from, to) });
    };
    // One square of a ride (rider or rose): emits the move the mode wants there and says
    // whether the ride goes on (the square is empty).
    let ray_cell = |to: Square, seen: &mut Bitboard, out: &mut Vec<Move>| match v.get(to) {
        None if v.pos.is_hole(to) => false,
        None => {
            if mode == Mode::Quiet {
                emit(to, None, seen, out)
            }
            true
        }
        Some(t) => {
            if mode == Mode::Capture && takes(gp, mover, t) {
                emit(to, Some(to), seen, out)
            } else if joins(t) {
                emit(to, None, seen, out)
            }
            false
        }
    };
    // A leap's (or a hop's) arrival: a quiet move onto an empty square, a capture, a join.
    // No walk ends where it started (a hamster turning back at a hurdle next to it; a
    // neutral mover would otherwise take itself).
    let land_on = |to: Square, seen: &mut Bitboard, out: &mut Vec<Move>| match v.get(to) {
        _ if to == at => {}
        None if mode == Mode::Quiet && !v.pos.is_hole(to) => emit(to, None, seen, out),
        Some(t) if mode == Mode::Capture && takes(gp, mover, t) => emit(to, Some(to), seen, out),
        Some(t) if joins(t) => emit(to, None, seen, out),
        _ => {}
    };
    for step in w.steps {
        match *step {
            Step::Leap(offs) => {
                for &(df, dr) in offs {
                    if let Some(to) = at.offset(df, dr) {
                        land_on(to, &mut seen, out);
                    }
                }
            }
            Step::Ride(offs) => {
                for &(df, dr) in offs {
                    let mut cur = at;
                    while let Some(to) = cur.offset(df, dr) {
                        if !ray_cell(to, &mut seen, out) {
                            break;
                        }
                        cur = to;
                    }
                }
            }
            Step::Rose => {
                for start in 0..8 {
                    for dir in [1i32, 7] {
                        let mut cur = at;
                        for k in 0..7 {
                            let (df, dr) = ROSE_CIRCLE[((start + dir * k) % 8) as usize];
                            let Some(to) = cur.offset(df, dr) else { break };
                            if to == at {
                                break;
                            }
                            if !ray_cell(to, &mut seen, out) {
                                break;
                            }
                            cur = to;
                        }
                    }
                }
            }
            Step::Locust(offs, ride) => {
                if mode != Mode::Capture {
                    continue;
                }
                for &(df, dr) in offs {
                    let mut cur = at;
                    while let Some(next) = cur.offset(df, dr) {
                        match v.get(next) {
                            None => {
                                if !ride || v.pos.is_hole(next) {
                                    break;
                                }
                                cur = next;
                            }
                            Some(t) => {
                                if takes(gp, mover, t)
                                    && let Some(land) = next.offset(df, dr)
                                    && v.free(land)
                                {
                                    out.push(Move { capture: Some(next), ..Move::quiet(from, land) });
                                }
                                break;
                            }
                        }
                    }
                }
            }
            Step::Hop(offs) => {
                for &(df, dr) in offs {
                    let mut cur = at;
                    while let Some(next) = cur.offset(df, dr) {
                        if v.pos.is_hole(next) {
                            break;
                        }
                        if v.get(next).is_some() {
                            let n = out.len();
                            if let Some(land) = next.offset(df, dr) {
                                match v.get(land) {
                                    None if mode == Mode::Quiet && !v.pos.is_hole(land) => {
                                        emit(land, None, &mut seen, out)
                                    }
                                    Some(t) if mode == Mode::Capture && takes(gp, mover, t) => {
                                        emit(land, Some(land), &mut seen, out)
                                    }
                                    Some(t) if joins(t) => emit(land, None, &mut seen, out),
                                    _ => {}
                                }
                            }
                            over(out, n, next);
                            break;
                        }
                        cur = next;
                    }
                }
            }
            Step::Pawn => gen_pawn(v, from, at, u, mover, gp, mode, out),
            Step::RideQuiet(offs) => {
                if mode == Mode::Capture {
                    continue;
                }
                for &(df, dr) in offs {
                    let mut cur = at;
                    while let Some(to) = cur.offset(df, dr) {
                        match v.get(to) {
                            None if v.pos.is_hole(to) => break,
                            None => {
                                if mode == Mode::Quiet {
                                    emit(to, None, &mut seen, out)
                                }
                            }
                            Some(t) => {
                                if joins(t) {
                                    emit(to, None, &mut seen, out)
                                }
                                break;
                            }
                        }
                        cur = to;
                    }
                }
            }
            Step::Lame(pairs) => {
                for &((vf, vr), (df, dr)) in pairs {
                    if let (Some(via), Some(to)) = (at.offset(vf, vr), at.offset(df, dr))
                        && v.free(via)
                    {
                        land_on(to, &mut seen, out);
                    }
                }
            }
            Step::LameRide(pairs) => {
                for &((vf, vr), (df, dr)) in pairs {
                    let (mut via, mut to) = (at.offset(vf, vr), at.offset(df, dr));
                    while let (Some(p), Some(t)) = (via, to)
                        && v.free(p)
                    {
                        land_on(t, &mut seen, out);
                        if !v.free(t) {
                            break;
                        }
                        (via, to) = (p.offset(df, dr), t.offset(df, dr));
                    }
                }
            }
            Step::LameRideLion(pairs) => {
                for &((vf, vr), (df, dr)) in pairs {
                    let mut hurdle = false;
                    let (mut via, mut to) = (at.offset(vf, vr), at.offset(df, dr));
                    'path: while let (Some(p), Some(t)) = (via, to) {
                        for (sq, arrival) in [(p, false), (t, true)] {
                            if v.pos.is_hole(sq) {
                                break 'path;
                            }
                            let occupied = v.get(sq).is_some();
                            if !hurdle {
                                hurdle = occupied;
                                continue;
                            }
                            if arrival {
                                land_on(sq, &mut seen, out);
                            }
                            if occupied {
                                break 'path;
                            }
                        }
                        (via, to) = (p.offset(df, dr), t.offset(df, dr));
                    }
                }
            }
            Step::LameHop(pairs) => {
                for &((vf, vr), (df, dr)) in pairs {
                    if let (Some(via), Some(to)) = (at.offset(vf, vr), at.offset(df, dr))
                        && !v.free(via)
                    {
                        let n = out.len();
                        land_on(to, &mut seen, out);
                        over(out, n, via);
                    }
                }
            }
            Step::Equi { halves, over_holes } => {
                for &(hf, hr) in halves {
                    if let (Some(hurdle), Some(to)) = (at.offset(hf, hr), at.offset(2 * hf, 2 * hr))
                        && (v.get(hurdle).is_some() || (over_holes && v.pos.is_hole(hurdle)))
                    {
                        let n = out.len();
                        land_on(to, &mut seen, out);
                        over(out, n, hurdle);
                    }
                }
            }
            Step::Hopper(h) => {
                for &(df, dr) in h.dirs {
                    let Some(last) = hurdles(v, at, (df, dr), h.far, h.hurdles) else { continue };
                    let n = out.len();
                    match h.land {
                        Land::Beyond(n) => {
                            let mut sq = Some(last);
                            for _ in 1..n {
                                sq = sq.and_then(|s| s.offset(df, dr)).filter(|&s| v.free(s));
                            }
                            if let Some(to) = sq.and_then(|s| s.offset(df, dr)) {
                                land_on(to, &mut seen, out);
                            }
                        }
                        Land::Lion | Land::Capture => {
                            let lion = h.land == Land::Lion;
                            let mut cur = last;
                            while let Some(to) = cur.offset(df, dr) {
                                match v.get(to) {
                                    None if v.pos.is_hole(to) => break,
                                    None => {
                                        if lion && mode == Mode::Quiet {
                                            emit(to, None, &mut seen, out)
                                        }
                                    }
                                    Some(t) => {
                                        if mode == Mode::Capture && takes(gp, mover, t) {
                                            emit(to, Some(to), &mut seen, out)
                                        } else if lion && joins(t) {
                                            emit(to, None, &mut seen, out)
                                        }
                                        break;
                                    }
                                }
                                cur = to;
                            }
                        }
                        Land::Mirror => {
                            // The hurdle's distance in steps, then as many beyond it.
                            let n = if df != 0 {
                                (i32::from(last.file()) - i32::from(at.file())) / i32::from(df)
                            } else {
                                (i32::from(last.rank()) - i32::from(at.rank())) / i32::from(dr)
                            };
                            let mut sq = Some(last);
                            for _ in 1..n {
                                sq = sq.and_then(|s| s.offset(df, dr)).filter(|&s| v.free(s));
                            }
                            if let Some(to) = sq.and_then(|s| s.offset(df, dr)) {
                                land_on(to, &mut seen, out);
                            }
                        }
                        Land::Turn(k) => {
                            let i = COMPASS.iter().position(|&c| c == (df.signum(), dr.signum())).unwrap_or(0);
                            for j in [i + usize::from(k), i + 8 - usize::from(k)] {
                                let (tf, tr) = COMPASS[j % 8];
                                if let Some(to) = last.offset(tf, tr) {
                                    land_on(to, &mut seen, out);
                                }
                            }
                        }
                    }
                    over(out, n, last);
                }
            }
        }
    }
}

/// Marks the moves pushed from index `n` on as hops over `hurdle`.
#[inline]
fn over(out: &mut [Move], n: usize, hurdle: Square) {
    for m in &mut out[n..] {
        m.hurdle = Some(hurdle);
    }
}

/// The eight unit directions, turning clockwise from the north.
const COMPASS: [(i8, i8); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

/// The square of the last of `n` hurdles met from `at` stepping by `d` (the first one on
/// the very next square unless `far`); `None` when the line ends or meets a hole first.
fn hurdles(v: View, at: Square, (df, dr): (i8, i8), far: bool, n: u8) -> Option<Square> {
    let mut cur = at;
    for i in 0..n {
        loop {
            let next = cur.offset(df, dr)?;
            if v.pos.is_hole(next) {
                return None;
            }
            cur = next;
            if v.get(next).is_some() {
                break;
            }
            if i == 0 && !far {
                return None;
            }
        }
    }
    Some(cur)
}

fn push_promotions(m: Move, last_rank: bool, gp: &GenParams, out: &mut Vec<Move>) {
    if last_rank {
        for &k in gp.promotions {
            out.push(Move { promo: Some(k), ..m });
        }
    } else {
        out.push(m);
    }
}

#[allow(clippy::too_many_arguments)]
fn gen_pawn(
    v: View,
    from: Square,
    at: Square,
    u: Unit,
    mover: Colour,
    gp: &GenParams,
    mode: Mode,
    out: &mut Vec<Move>,
) {
    let dr = mover.forward();
    if dr == 0 {
        return;
    }
    let rel_rank = if dr > 0 { at.rank() } else { 7 - at.rank() };
    if rel_rank == 7 || (rel_rank == 0 && gp.pawn_first_rank_immobile) {
        return;
    }
    let last = |s: Square| (if dr > 0 { s.rank() } else { 7 - s.rank() }) == gp.promotion_rank;
    if mode == Mode::Join {
        // The steps forward, ending on an own unit instead of an empty square.
        let own = |s: Square| v.get(s).is_some_and(|t| t.colour() == mover);
        let reach = match rel_rank {
            0 => gp.first_rank_steps.max(1),
            1 => 2,
            _ => 1,
        };
        let mut cur = at;
        for _ in 0..reach {
            let Some(n) = cur.offset(0, dr) else { break };
            if own(n) {
                push_promotions(Move::quiet(from, n), last(n), gp, out);
            }
            if !v.free(n) {
                break;
            }
            cur = n;
        }
        return;
    }
    if mode == Mode::Quiet {
        if let Some(one) = at.offset(0, dr)
            && v.free(one)
        {
            push_promotions(Move::quiet(from, one), last(one), gp, out);
            if rel_rank == 1
                && let Some(two) = one.offset(0, dr)
                && v.free(two)
            {
                push_promotions(Move::quiet(from, two), last(two), gp, out);
            }
            if rel_rank == 0 && gp.first_rank_steps > 1 {
                let mut cur = one;
                for _ in 1..gp.first_rank_steps {
                    match cur.offset(0, dr) {
                        Some(n) if v.get(n).is_none() => {
                            push_promotions(Move::quiet(from, n), last(n), gp, out);
                            cur = n;
                        }
                        _ => break,
                    }
                }
            }
        }
        return;
    }
    for df in [-1, 1] {
        let Some(to) = at.offset(df, dr) else { continue };
        match v.get(to) {
            Some(t) if takes(gp, mover, t) => {
                let promotes = last(to) && (gp.capture_promotes)(v.pos, to, u);
                push_promotions(Move { capture: Some(to), ..Move::quiet(from, to) }, promotes, gp, out)
            }
            None => {
                if let Some(EnPassant { target, pawn, also, .. }) = v.pos.ep()
                    && (target == to || also == Some(to))
                    && !v.pos.is_hole(to)
                    && let Some(t) = v.get(pawn)
                    && t.kind() == PAWN
                    && takes(gp, mover, t)
                {
                    out.push(Move { capture: Some(pawn), ep: true, ..Move::quiet(from, to) });
                } else if v.pos.ep_pawns() != 0
                    && !v.pos.is_hole(to)
                    && let Some(pawn) = to.offset(0, -dr)
                    && v.pos.ep_pawns() >> pawn.index() & 1 != 0
                    && let Some(t) = v.get(pawn)
                    && t.kind() == PAWN
                    && capturable(mover, t)
                {
                    // More en passant pawns kept by a multi-move turn.
                    out.push(Move { capture: Some(pawn), ep: true, ..Move::quiet(from, to) });
                }
            }
            _ => {}
        }
    }
}

/// Castling, Chess960 rules: the king on its home square with its right, a rook of its
/// colour on the home square of a right held; the king goes to the c- or g-file, the rook
/// beside it (d- or f-file); every square between the king and its destination and
/// between the rook and its destination is empty (holes count as occupied) but for those
/// two units. Whether the king crosses an observed square is decided when it is played.
fn gen_castling(pos: &Position, from: Square, mover: Colour, out: &mut Vec<Move>) {
    let (king_bit, slots) = match mover {
        Colour::White => (W_KING, [0, 1]),
        Colour::Black => (B_KING, [2, 3]),
        Colour::Shared => return,
    };
    let homes = pos.homes();
    let rights = pos.rights();
    if rights & king_bit == 0 || from != homes.king_square(mover) {
        return;
    }
    let rank = from.rank();
    for slot in slots.into_iter().rev() {
        if rights & SLOT_BITS[slot] == 0 {
            continue;
        }
        let rf = homes.rook_square(slot);
        if !pos.unit(rf).is_some_and(|u| u.kind() == walk::ROOK && u.colour() == mover) {
            continue;
        }
        let (kt, rt) = if slot % 2 == 1 { (6, 5) } else { (2, 3) };
        let clear = |a: u8, b: u8| {
            (a.min(b)..=a.max(b)).all(|f| {
                let s = Square::from_coords(f, rank);
                s == from || s == rf || !pos.blocked(s)
            })
        };
        if clear(from.file(), kt) && clear(rf.file(), rt) {
            let (kt, rt) = (Square::from_coords(kt, rank), Square::from_coords(rt, rank));
            out.push(Move { castle: Some((rf, rt)), ..Move::quiet(from, kt) });
        }
    }
}

/// A superset of the units of side `by` that could capture (by their walks, from where
/// they stand) a unit on `target`: the orthodox units that attack it, and every unit of a
/// fairy kind. A unit not in this set cannot capture on `target` by any generated move,
/// en passant aside.
pub fn capture_candidates(pos: &Position, by: Colour, target: Square) -> Bitboard {
    let board = pos.board();
    let mine = pos.movable(by);
    let occ = pos.occupied();
    let of = |k: Kind| board.kind(k) & mine;
    use walk::*;
    let rq = of(ROOK) | of(QUEEN);
    let bq = of(BISHOP) | of(QUEEN);
    let orthodox = of(PAWN) | of(KNIGHT) | of(KING) | rq | bq;
    (attacks::pawn(by != Colour::White, target) & of(PAWN))
        | (attacks::knight(target) & of(KNIGHT))
        | (attacks::king(target) & of(KING))
        | (attacks::rook(target, occ) & rq)
        | (attacks::bishop(target, occ) & bq)
        | (mine & !orthodox)
}

/// Can side `by` capture (in the orthodox sense: by its walks, from where its units stand)
/// a unit standing on `target`? Neutral units count for both sides.
/// `pawn_first_rank_immobile`: pawns on their own first rank do not attack.
pub fn attacked_by(pos: &Position, by: Colour, target: Square, pawn_first_rank_immobile: bool) -> bool {
    observers::<true>(pos, by, target, pawn_first_rank_immobile, Bitboard::FULL) != 0
}

/// The kinds of the units of `by` that attack `target` (as [`attacked_by`]), one bit per
/// kind index.
pub fn attacker_kinds(pos: &Position, by: Colour, target: Square, pawn_first_rank_immobile: bool) -> u128 {
    observers::<false>(pos, by, target, pawn_first_rank_immobile, Bitboard::FULL)
}

/// [`attacked_by`] counting only the units of `by` standing on `from` (the units that may
/// move: paralysis, observation rules).
pub fn attacked_from(
    pos: &Position,
    by: Colour,
    target: Square,
    pawn_first_rank_immobile: bool,
    from: Bitboard,
) -> bool {
    observers::<true>(pos, by, target, pawn_first_rank_immobile, from) != 0
}

/// `FIRST`: stop at the first attacker found (any non-zero answer).
/// Only the units of `by` standing on `from` count (the units that may move: paralysis,
/// observation rules). Holes stop lines; a hole is never a hurdle.
fn observers<const FIRST: bool>(
    pos: &Position,
    by: Colour,
    target: Square,
    pawn_first_rank_immobile: bool,
    from: Bitboard,
) -> u128 {
    let mut found = 0u128;
    macro_rules! hit {
        ($k:expr) => {{
            found |= 1 << $k.index();
            if FIRST {
                return found;
            }
        }};
    }
    let board = pos.board();
    let mine = pos.movable(by) & from;
    let units = pos.occupied();
    let occ = pos.obstacles();
    let of = |k: Kind| board.kind(k) & mine;
    use walk::*;
    // Pawns of `by` (neutral pawns move in `by`'s direction).
    let mut pawns = of(PAWN);
    if pawn_first_rank_immobile {
        pawns &= !Bitboard::rank(if by == Colour::White { 0 } else { 7 });
    }
    if (attacks::pawn(by != Colour::White, target) & pawns).any() {
        hit!(PAWN);
    }
    if (attacks::knight(target) & of(KNIGHT)).any() {
        hit!(KNIGHT);
    }
    if (attacks::king(target) & of(KING)).any() {
        hit!(KING);
    }
    let rq = of(ROOK) | of(QUEEN);
    if rq.any() {
        let a = attacks::rook(target, occ);
        if (a & of(ROOK)).any() {
            hit!(ROOK);
        }
        if (a & of(QUEEN)).any() {
            hit!(QUEEN);
        }
    }
    let bq = of(BISHOP) | of(QUEEN);
    if bq.any() {
        let a = attacks::bishop(target, occ);
        if (a & of(BISHOP)).any() {
            hit!(BISHOP);
        }
        if (a & of(QUEEN)).any() {
            hit!(QUEEN);
        }
    }
    let fairy = mine & !(of(PAWN) | of(KNIGHT) | of(KING) | rq | bq);
    if fairy.is_empty() {
        return found;
    }
    let is = |s: Square, k: Kind| fairy.has(s) && board.get(s).is_some_and(|p| p.kind == k);
    if of(NIGHTRIDER).any() {
        for (df, dr) in KNIGHT_STEPS {
            if first_obstacle(target, df, dr, occ).is_some_and(|n| is(n, NIGHTRIDER)) {
                hit!(NIGHTRIDER);
            }
        }
    }
    if of(ROSE).any() {
        for start in 0..8 {
            for dir in [1i32, 7] {
                let mut cur = target;
                for k in 0..7 {
                    let (df, dr) = ROSE_CIRCLE[((start + dir * k) % 8) as usize];
                    let Some(n) = cur.offset(df, dr) else { break };
                    if n == target {
                        break;
                    }
                    if occ.has(n) {
                        if is(n, ROSE) {
                            hit!(ROSE);
                        }
                        break;
                    }
                    cur = n;
                }
            }
        }
    }
    let locusts = [
        (LOCUST, &QUEEN_DIRS[..]),
        (NIGHTRIDER_LOCUST, &KNIGHT_STEPS[..]),
        (BISHOP_LOCUST, &BISHOP_DIRS[..]),
        (ROOK_LOCUST, &ROOK_DIRS[..]),
    ];
    for (k, dirs) in locusts {
        if of(k).is_empty() {
            continue;
        }
        for &(df, dr) in dirs {
            // The locust comes from behind (-d) and lands on target + d.
            let Some(land) = target.offset(df, dr) else { continue };
            if occ.has(land) {
                continue;
            }
            if first_obstacle(target, -df, -dr, occ).is_some_and(|n| is(n, k)) {
                hit!(k);
            }
        }
    }
    if of(GRASSHOPPER).any() {
        for (df, dr) in QUEEN_DIRS {
            let Some(hurdle) = target.offset(-df, -dr) else { continue };
            if !units.has(hurdle) {
                continue;
            }
            if first_obstacle(hurdle, -df, -dr, occ).is_some_and(|n| is(n, GRASSHOPPER)) {
                hit!(GRASSHOPPER);
            }
        }
    }
    // The kinds of the table's generic rows: their captures, as generation finds them,
    // with a capturable unit standing on the target.
    for s in fairy {
        let Some(p) = board.get(s) else { continue };
        if p.kind.index() < FIRST_GENERIC.index() || found & (1 << p.kind.index()) != 0 {
            continue;
        }
        if reaches(pos, s, by, target) {
            hit!(p.kind);
        }
    }
    found
}

/// Whether the unit on `from` (of a generic kind), moving for `by`, could capture a unit
/// of the opponent standing on `target`.
fn reaches(pos: &Position, from: Square, by: Colour, target: Square) -> bool {
    thread_local! {
        static BUF: std::cell::RefCell<Vec<Move>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let Some(u) = pos.unit(from) else { return false };
    let gp = GenParams {
        promotions: &[],
        capture_promotes: &|_, _, _| false,
        can_move: &|_| true,
        pawn_first_rank_immobile: false,
        capture_origin: &|_, s, _| Some(s),
        promotion_rank: 8,
        first_rank_steps: 1,
        capture_own: false,
        any_unit: false,
        castling: false,
        mobile: Bitboard::FULL,
        captures_only: true,
    };
    let phantom = Unit::new(by.opponent(), PAWN);
    let view = View { pos, lifted: None, phantom: Some((target, phantom)) };
    BUF.with(|b| {
        let mut out = b.borrow_mut();
        out.clear();
        gen_unit(view, from, from, u, by, &gp, Mode::Capture, &mut out);
        out.iter().any(|m| m.capture == Some(target))
    })
}

/// The first square of `occ` met stepping from `from` by `(df, dr)` (not `from` itself).
#[inline]
fn first_obstacle(from: Square, df: i8, dr: i8, occ: Bitboard) -> Option<Square> {
    let mut cur = from;
    while let Some(n) = cur.offset(df, dr) {
        if occ.has(n) {
            return Some(n);
        }
        cur = n;
    }
    None
}
