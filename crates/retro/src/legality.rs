//! `proven_illegal`: tier 0 (static rules) and tier 1 (bounded retraction) of
//! `retro.md` §1. Every rule here only fires when no orthodox game can reach the position.

use crate::setup::{
    BLACK_KINGSIDE, BLACK_QUEENSIDE, Ep, Role, Setup, WHITE_KINGSIDE, WHITE_QUEENSIDE, forward, rel_rank,
};
use chimere_core::{Bitboard, Colour, Square, attacks};

/// The answer of [`proven_illegal`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Legality {
    /// A proof of unreachability exists; the reason names the rule that gave it.
    Illegal(&'static str),
    /// No proof found: treated as legal.
    NotProven,
}

impl Legality {
    pub fn is_illegal(self) -> bool {
        matches!(self, Legality::Illegal(_))
    }
}

/// How hard [`proven_illegal_with`] tries.
#[derive(Copy, Clone, Debug)]
pub struct RetroConfig {
    /// The game started from the orthodox array (cages and castling squares are judged);
    /// `false` for Chess960 games: only the array-independent rules apply.
    pub orthodox_array: bool,
    /// Tier 1 on/off.
    pub retract: bool,
    /// Retraction depth cap (plies taken back along forced lines).
    pub depth: u8,
    /// Recurse only when at most this many predecessors survive tier 0.
    pub forced_width: usize,
}

impl Default for RetroConfig {
    fn default() -> Self {
        RetroConfig { orthodox_array: true, retract: true, depth: 4, forced_width: 2 }
    }
}

/// [`proven_illegal_with`] with the default configuration (orthodox array, tiers 0-1).
pub fn proven_illegal(p: &Setup) -> Legality {
    proven_illegal_with(p, &RetroConfig::default())
}

/// Tier 0 then, if it finds nothing, tier 1.
pub fn proven_illegal_with(p: &Setup, cfg: &RetroConfig) -> Legality {
    if let Some(r) = static_illegal(p, cfg) {
        return Legality::Illegal(r);
    }
    if cfg.retract && !is_array_like(p) && retract_illegal(p, cfg, cfg.depth) {
        return Legality::Illegal("no legal last move (retraction)");
    }
    Legality::NotProven
}

/// A position that may be a game's first position (every pawn and piece on its first two
/// ranks, White to move): it needs no predecessor.
fn is_array_like(p: &Setup) -> bool {
    p.turn == Colour::White
        && (0..8).all(|f| {
            p.is(Square::from_coords(f, 1), Colour::White, Role::Pawn)
                && p.is(Square::from_coords(f, 6), Colour::Black, Role::Pawn)
                && matches!(p.get(Square::from_coords(f, 0)), Some((Colour::White, r)) if r != Role::Pawn)
                && matches!(p.get(Square::from_coords(f, 7)), Some((Colour::Black, r)) if r != Role::Pawn)
        })
}

/// Tier 0: the static rules 1-7 of `retro.md` §1. `Some(reason)` = proven illegal.
pub fn static_illegal(p: &Setup, cfg: &RetroConfig) -> Option<&'static str> {
    if let Some(r) = kings_and_checks(p) {
        return Some(r);
    }
    for c in Colour::PLAYERS {
        if let Some(r) = material(p, c, cfg) {
            return Some(r);
        }
    }
    if cfg.orthodox_array {
        if let Some(r) = cages(p) {
            return Some(r);
        }
        if let Some(r) = castling(p) {
            return Some(r);
        }
    }
    en_passant(p)
}

/// Rules 1 and 2: units, kings, pawns off the edge ranks, checks.
fn kings_and_checks(p: &Setup) -> Option<&'static str> {
    if p.foreign > 0 {
        return Some("a unit that is not orthodox");
    }
    for c in Colour::PLAYERS {
        if p.pieces(c, Role::King).count() != 1 {
            return Some("not exactly one king per side");
        }
    }
    let pawns = p.pieces(Colour::White, Role::Pawn) | p.pieces(Colour::Black, Role::Pawn);
    if (pawns & (Bitboard::rank(0) | Bitboard::rank(7))).any() {
        return Some("a pawn on the first or last rank");
    }
    let (s, r) = (p.turn, p.turn.opponent());
    if p.in_check(r) {
        return Some("the side not to move is in check");
    }
    let k = p.king(s)?;
    let checkers = p.attackers(k, r);
    match checkers.count() {
        0 => None,
        1 => {
            let c = checkers.first()?;
            if p.is(c, r, Role::Pawn) && rel_rank(r, c) == 1 { Some("check by a pawn that never moved") } else { None }
        }
        2 => double_check(p, k, checkers),
        _ => Some("more than two checkers"),
    }
}

fn is_slider(r: Role) -> bool {
    matches!(r, Role::Bishop | Role::Rook | Role::Queen)
}

/// Whether a double check on the king at `k` can come from one move of `r` (the side that
/// just moved): one checker moved (possibly promoting, castling or taking e.p.) off the line
/// of the other, or an e.p. capture opened both lines.
fn double_check(p: &Setup, k: Square, checkers: Bitboard) -> Option<&'static str> {
    let r = p.turn.opponent();
    let cs: Vec<Square> = checkers.collect();
    let occ = p.occupied();
    for (x, y) in [(cs[0], cs[1]), (cs[1], cs[0])] {
        let (_, yr) = p.get(y)?;
        let (_, xr) = p.get(x)?;
        if !is_slider(yr) {
            continue;
        }
        let line = attacks::between(k, y);
        // Squares X may have come from.
        let mut origins = Bitboard::EMPTY;
        match xr {
            Role::Knight => origins = attacks::knight(x),
            Role::Bishop => origins = attacks::bishop(x, occ),
            Role::Rook => origins = attacks::rook(x, occ),
            Role::Queen => origins = attacks::queen(x, occ),
            Role::King => {}
            Role::Pawn => {
                for n in [1, 2] {
                    if let Some(s) = forward(r, x, -n) {
                        origins.set(s);
                    }
                }
                origins |= attacks::pawn(r != Colour::White, x);
                // e.p.: the taken pawn's square is vacated too.
                if rel_rank(r, x) == 5
                    && let Some(s) = forward(r, x, -1)
                {
                    origins.set(s);
                }
            }
        }
        if xr != Role::Pawn && xr != Role::King && rel_rank(r, x) == 7 {
            // Promotion.
            if let Some(s) = forward(r, x, -1) {
                origins.set(s);
                origins |= attacks::king(s) & Bitboard::rank(s.rank());
            }
        }
        if xr == Role::Rook && rel_rank(r, x) == 0 && (x.file() == 3 || x.file() == 5) {
            // Castling: the king's and the rook's home squares are vacated.
            let home = if r == Colour::White { 0 } else { 7 };
            for f in [0, 4, 7] {
                origins.set(Square::from_coords(f, home));
            }
        }
        if (origins & line).any() {
            return None;
        }
    }
    // Both discovered by an e.p. capture: a pawn of `r` on its 6th rank vacates its
    // departure square and the taken pawn's square.
    let l0 = attacks::between(k, cs[0]);
    let l1 = attacks::between(k, cs[1]);
    for pw in p.pieces(r, Role::Pawn) {
        if rel_rank(r, pw) != 5 {
            continue;
        }
        let Some(taken) = forward(r, pw, -1) else { continue };
        let mut vac = Bitboard::from_square(taken);
        for df in [-1, 1] {
            if let Some(s) = taken.offset(df, 0) {
                vac.set(s);
            }
        }
        if (vac & l0).any() && (vac & l1).any() {
            return None;
        }
    }
    Some("a double check no single move can give")
}

/// Minimal number of captures needed to bring pawns on `files` (at most 8) from distinct
/// origin files: an optimal matching of points on a line never crosses, so with the
/// files sorted, `dp[i][j]` = cost of the first `i` pawns using origins below `j`.
fn pawn_file_cost(files: &mut [u8]) -> u32 {
    files.sort_unstable();
    let n = files.len();
    const INF: u32 = u32::MAX / 2;
    let mut dp = [[INF; 9]; 9];
    for row in dp.iter_mut().take(1) {
        row.fill(0);
    }
    for i in 1..=n {
        for j in 1..=8 {
            let skip = dp[i][j - 1];
            let take = dp[i - 1][j - 1] + (files[i - 1] as i32 - (j as i32 - 1)).unsigned_abs();
            dp[i][j] = skip.min(take);
        }
    }
    dp[n][8]
}

/// Whether the original bishop of `c` starting on file `f` (2 or 5) is walled in at home
/// by its two unmoved neighbour pawns and is not there: it was taken at home.
fn bishop_lost_at_home(p: &Setup, c: Colour, f: u8) -> bool {
    let home = if c == Colour::White { 0 } else { 7 };
    let second = if c == Colour::White { 1 } else { 6 };
    p.is(Square::from_coords(f - 1, second), c, Role::Pawn)
        && p.is(Square::from_coords(f + 1, second), c, Role::Pawn)
        && !p.is(Square::from_coords(f, home), c, Role::Bishop)
}

/// Rules 3 and 4: unit counts, promoted excess, pawn captures against missing enemy units.
fn material(p: &Setup, c: Colour, cfg: &RetroConfig) -> Option<&'static str> {
    let n = |r| p.pieces(c, r).count() as i32;
    let total = p.colour(c).count() as i32;
    if total > 16 {
        return Some("more than 16 units of one side");
    }
    let pawns = n(Role::Pawn);
    if pawns > 8 {
        return Some("more than 8 pawns of one side");
    }
    let bishops = p.pieces(c, Role::Bishop);
    let light = (bishops & Bitboard::LIGHT).count() as i32;
    let dark = (bishops & Bitboard::DARK).count() as i32;
    // Original bishops (c1/f1 or c8/f8), unless walled in at home and taken there.
    let mut orig_light = 0;
    let mut orig_dark = 0;
    for f in [2u8, 5] {
        if !(cfg.orthodox_array && bishop_lost_at_home(p, c, f)) {
            if Square::from_coords(f, if c == Colour::White { 0 } else { 7 }).is_light() {
                orig_light += 1;
            } else {
                orig_dark += 1;
            }
        }
    }
    let excess = (n(Role::Queen) - 1).max(0)
        + (n(Role::Rook) - 2).max(0)
        + (n(Role::Knight) - 2).max(0)
        + (light - orig_light).max(0)
        + (dark - orig_dark).max(0);
    if excess > 8 - pawns {
        return Some("more promoted units than missing pawns");
    }
    let mut files = [0u8; 8];
    let mut k = 0;
    for s in p.pieces(c, Role::Pawn) {
        files[k] = s.file();
        k += 1;
    }
    let missing_enemy = 16 - p.colour(c.opponent()).count() as i32;
    if pawn_file_cost(&mut files[..k]) as i32 > missing_enemy {
        return Some("pawn captures exceed the missing enemy units");
    }
    None
}

/// Rule 5: bishops shut in a corner behind an unmoved pawn.
fn cages(p: &Setup) -> Option<&'static str> {
    for (c, home, second) in [(Colour::White, 0u8, 1u8), (Colour::Black, 7, 6)] {
        for (corner, pawn) in [(0u8, 1u8), (7, 6)] {
            if p.is(Square::from_coords(corner, home), c, Role::Bishop)
                && p.is(Square::from_coords(pawn, second), c, Role::Pawn)
            {
                return Some("a bishop in a corner behind its unmoved pawn");
            }
        }
    }
    None
}

/// Rule 6: a castling right needs the king and that rook on their array squares.
fn castling(p: &Setup) -> Option<&'static str> {
    for (bit, c, rank, rook_file) in [
        (WHITE_KINGSIDE, Colour::White, 0u8, 7u8),
        (WHITE_QUEENSIDE, Colour::White, 0, 0),
        (BLACK_KINGSIDE, Colour::Black, 7, 7),
        (BLACK_QUEENSIDE, Colour::Black, 7, 0),
    ] {
        if p.castling & bit != 0
            && !(p.is(Square::from_coords(4, rank), c, Role::King)
                && p.is(Square::from_coords(rook_file, rank), c, Role::Rook))
        {
            return Some("a castling right without king and rook at home");
        }
    }
    None
}

/// Rule 7: an e.p. square needs the double-stepped pawn, the empty squares it crossed, and
/// a position before the step passing rules 1-2.
fn en_passant(p: &Setup) -> Option<&'static str> {
    let Ep::At(s) = p.ep else { return None };
    let mover = p.turn.opponent();
    const BAD: &str = "an e.p. square no double step explains";
    if rel_rank(mover, s) != 2 {
        return Some(BAD);
    }
    let (Some(pawn), Some(start)) = (forward(mover, s, 1), forward(mover, s, -1)) else { return Some(BAD) };
    if !p.is(pawn, mover, Role::Pawn) || p.get(s).is_some() || p.get(start).is_some() {
        return Some(BAD);
    }
    let mut q = p.clone();
    q.set(pawn, None);
    q.set(start, Some((mover, Role::Pawn)));
    q.turn = mover;
    q.ep = Ep::Any;
    if kings_and_checks(&q).is_some() {
        return Some(BAD);
    }
    None
}

/// Tier 1: true if every predecessor fails tier 0 (recursing along forced lines).
fn retract_illegal(p: &Setup, cfg: &RetroConfig, depth: u8) -> bool {
    let mut survivors: Vec<Setup> = Vec::new();
    let mut open = false;
    for_each_unmove(p, &mut |q| {
        if static_illegal(&q, cfg).is_none() {
            if is_array_like(&q) || survivors.len() >= cfg.forced_width {
                open = true;
                return false;
            }
            survivors.push(q);
        }
        true
    });
    if open {
        return false;
    }
    if survivors.is_empty() {
        return true;
    }
    if depth == 0 {
        return false;
    }
    survivors.iter().all(|q| retract_illegal(q, cfg, depth - 1))
}

/// The kinds of `s` a retraction may put back on `t` (uncapture), `None` first (no capture).
fn uncaptures(p: &Setup, s: Colour, t: Square) -> impl Iterator<Item = Option<Role>> {
    let room = p.colour(s).count() < 16;
    let pawn_ok = t.rank() != 0 && t.rank() != 7;
    std::iter::once(None).chain(
        [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .into_iter()
            .filter(move |r| room && (*r != Role::Pawn || pawn_ok))
            .map(Some),
    )
}

/// Whether, after the double step of `r`'s pawn now on `t`, the side to move could take it
/// en passant legally.
fn ep_capture_available(p: &Setup, t: Square) -> bool {
    let s = p.turn;
    let Some((r, _)) = p.get(t) else { return false };
    let Some(skipped) = forward(r, t, -1) else { return false };
    for df in [-1, 1] {
        let Some(from) = t.offset(df, 0) else { continue };
        if p.is(from, s, Role::Pawn) {
            let mut q = p.clone();
            q.set(from, None);
            q.set(t, None);
            q.set(skipped, Some((s, Role::Pawn)));
            if !q.in_check(s) {
                return true;
            }
        }
    }
    false
}

/// Every position before the last move (by the side not to move), with the castling
/// rights the position keeps and an unknown e.p. state.
pub fn unmoves(p: &Setup, out: &mut Vec<Setup>) {
    for_each_unmove(p, &mut |q| {
        out.push(q);
        true
    });
}

/// Collects predecessors until the consumer returns `false`.
struct Sink<'a> {
    f: &'a mut dyn FnMut(Setup) -> bool,
    stopped: bool,
}

impl Sink<'_> {
    fn push(&mut self, q: Setup) {
        if !self.stopped {
            self.stopped = !(self.f)(q);
        }
    }
}

/// [`unmoves`], handing each predecessor to `f` until it returns `false`.
pub fn for_each_unmove(p: &Setup, f: &mut dyn FnMut(Setup) -> bool) {
    let mut sink = Sink { f, stopped: false };
    let out = &mut sink;
    let s = p.turn;
    let r = s.opponent();
    let rights_r = p.castling
        & if r == Colour::White { WHITE_KINGSIDE | WHITE_QUEENSIDE } else { BLACK_KINGSIDE | BLACK_QUEENSIDE };
    let home = if r == Colour::White { 0u8 } else { 7 };
    let mut base = p.clone();
    base.turn = r;
    base.ep = Ep::Any;
    // The last move was the double step the e.p. square names.
    if let Ep::At(e) = p.ep {
        if let (Some(t), Some(start)) = (forward(r, e, 1), forward(r, e, -1)) {
            let mut q = base.clone();
            q.set(t, None);
            q.set(start, Some((r, Role::Pawn)));
            out.push(q);
        }
        return;
    }
    let occ = p.occupied();
    for t in p.colour(r) {
        if out.stopped {
            return;
        }
        let (_, role) = p.get(t).expect("unit");
        // Units tied to a castling right of r never moved.
        if rights_r != 0 && role == Role::King {
            continue;
        }
        if role == Role::Rook
            && t.rank() == home
            && ((t.file() == 7 && rights_r & (WHITE_KINGSIDE | BLACK_KINGSIDE) != 0)
                || (t.file() == 0 && rights_r & (WHITE_QUEENSIDE | BLACK_QUEENSIDE) != 0))
        {
            continue;
        }
        let add = |from: Square, pred_role: Role, capture_ok: bool, no_capture_ok: bool, out: &mut Sink| {
            for u in uncaptures(p, s, t) {
                if (u.is_none() && !no_capture_ok) || (u.is_some() && !capture_ok) {
                    continue;
                }
                let mut q = base.clone();
                q.set(t, u.map(|x| (s, x)));
                q.set(from, Some((r, pred_role)));
                out.push(q);
            }
        };
        let origins = match role {
            Role::Knight => attacks::knight(t),
            Role::Bishop => attacks::bishop(t, occ),
            Role::Rook => attacks::rook(t, occ),
            Role::Queen => attacks::queen(t, occ),
            Role::King => attacks::king(t),
            Role::Pawn => Bitboard::EMPTY,
        } & !occ;
        for from in origins {
            add(from, role, true, true, out);
        }
        if role != Role::Pawn && role != Role::King && rel_rank(r, t) == 7 {
            // Unpromotion, by a push or a capture.
            if let Some(b) = forward(r, t, -1) {
                if p.get(b).is_none() {
                    add(b, Role::Pawn, false, true, out);
                }
                for df in [-1, 1] {
                    if let Some(from) = b.offset(df, 0)
                        && p.get(from).is_none()
                    {
                        add(from, Role::Pawn, true, false, out);
                    }
                }
            }
        }
        if role == Role::Pawn {
            let rr = rel_rank(r, t);
            if let Some(b) = forward(r, t, -1)
                && rr >= 2
            {
                if p.get(b).is_none() {
                    add(b, Role::Pawn, false, true, out);
                    if rr == 3
                        && let Some(b2) = forward(r, t, -2)
                        && p.get(b2).is_none()
                        && (p.ep == Ep::Any || !ep_capture_available(p, t))
                    {
                        add(b2, Role::Pawn, false, true, out);
                    }
                }
                for df in [-1, 1] {
                    if let Some(from) = b.offset(df, 0)
                        && p.get(from).is_none()
                    {
                        add(from, Role::Pawn, true, false, out);
                        // En passant: the taken pawn stood beside the departure square.
                        if rr == 5
                            && let Some(taken) = forward(r, t, -1)
                            && p.get(taken).is_none()
                            && p.pieces(s, Role::Pawn).count() < 8
                            && p.colour(s).count() < 16
                        {
                            let mut q = base.clone();
                            q.set(t, None);
                            q.set(from, Some((r, Role::Pawn)));
                            q.set(taken, Some((s, Role::Pawn)));
                            q.ep = Ep::At(t);
                            out.push(q);
                        }
                    }
                }
            }
        }
    }
    // Un-castling.
    if rights_r == 0 {
        let sq = |f: u8| Square::from_coords(f, home);
        let (k_bit, q_bit) =
            if r == Colour::White { (WHITE_KINGSIDE, WHITE_QUEENSIDE) } else { (BLACK_KINGSIDE, BLACK_QUEENSIDE) };
        for (kf, rf, rook_home, bit, empty) in [(6u8, 5u8, 7u8, k_bit, &[4u8, 7][..]), (2, 3, 0, q_bit, &[0, 1, 4][..])]
        {
            if p.is(sq(kf), r, Role::King)
                && p.is(sq(rf), r, Role::Rook)
                && empty.iter().all(|f| p.get(sq(*f)).is_none())
            {
                let mut q = base.clone();
                q.set(sq(kf), None);
                q.set(sq(rf), None);
                q.set(sq(4), Some((r, Role::King)));
                q.set(sq(rook_home), Some((r, Role::Rook)));
                q.castling |= bit;
                // The king may not castle out of or through check.
                if q.attackers(sq(4), s).is_empty() && q.attackers(sq(rf), s).is_empty() {
                    out.push(q);
                }
            }
        }
    }
}
