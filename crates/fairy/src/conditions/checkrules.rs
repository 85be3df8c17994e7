//! Conditions that only redefine check (with orthodox attack tables):
//!
//! - Bicolores (Popeye `Bicolores`): a king is in check when attacked by enemy units OR by
//!   units of its own side; a move may not leave the own king attacked by any unit.
//! - Vogtländer (Popeye `VogtlaenderChess`): a side is "in check" exactly when it attacks
//!   the opponent's king; a move is illegal if after it the mover attacks the enemy king.
//!
//! The tests that list moves (Brunner, Isardam) borrow their buffers from the ctx's pool
//! ([`Ctx::take_buf`](crate::Ctx::take_buf)): no allocation per call once the pool is warm.

use crate::moves::{self, Move};
use crate::rules::{Capabilities, Condition, Ctx};
use crate::walk::KING;
use chimere_core::{Bitboard, Colour, Kind};

/// Does `by` attack a king of colour `side`?
fn king_attacked(ctx: &Ctx, side: Colour, by: Colour) -> bool {
    let b = ctx.pos().board();
    let kings = b.kind(KING) & b.colour(side);
    for s in kings {
        if moves::attacked_by(ctx.pos(), by, s, ctx.rules().pawn_first_rank_immobile) {
            return true;
        }
    }
    false
}

#[derive(Clone, Debug, Default)]
pub struct Bicolores;

impl Condition for Bicolores {
    fn name(&self) -> String {
        "Bicolores".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { check_rule: true, ..Capabilities::default() }
    }
    fn check_rule(&self, ctx: &mut Ctx, side: Colour) -> Option<bool> {
        Some(king_attacked(ctx, side, side.opponent()) || king_attacked(ctx, side, side))
    }
}

#[derive(Clone, Debug, Default)]
pub struct Vogtlander;

impl Condition for Vogtlander {
    fn name(&self) -> String {
        "Vogtländer".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { check_rule: true, ..Capabilities::default() }
    }
    fn check_rule(&self, ctx: &mut Ctx, side: Colour) -> Option<bool> {
        Some(king_attacked(ctx, side.opponent(), side))
    }
}

/// Plays every pseudo-legal capture of a king of `side` by its opponent and asks `ok` of
/// the position after it: is there one for which `ok` holds?
fn some_king_capture(ctx: &mut Ctx, side: Colour, ok: impl Fn(&mut Ctx) -> bool) -> bool {
    let by = side.opponent();
    let b = ctx.pos().board();
    let kings = b.kind(KING) & b.colour(side);
    let from = ctx.capture_candidates(by, kings);
    if from.is_empty() {
        return false;
    }
    let mut buf = ctx.take_buf();
    ctx.pseudo_moves_from(by, from, &mut buf);
    let mut notes = crate::rules::Notes::new();
    let mut found = false;
    for m in &buf {
        let Some(c) = m.capture else { continue };
        if !ctx.pos().unit(c).is_some_and(|u| u.kind() == KING && u.colour() == side) {
            continue;
        }
        if ctx.play_into(m, by, &mut notes).is_ok() {
            let good = ok(ctx);
            ctx.pos_mut().rollback();
            if good {
                found = true;
                break;
            }
        }
    }
    ctx.give_buf(buf);
    found
}

/// Brunner (Popeye `BrunnerChess`): a king is in check only if the enemy's capture of it
/// would itself be legal (would not leave the capturer's own king in check, recursively).
#[derive(Clone, Debug, Default)]
pub struct Brunner;

impl Condition for Brunner {
    fn name(&self) -> String {
        "Brunner".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { check_rule: true, ..Capabilities::default() }
    }
    fn check_rule(&self, ctx: &mut Ctx, side: Colour) -> Option<bool> {
        Some(some_king_capture(ctx, side, |g| !g.in_check(side.opponent())))
    }
}

/// Does any unit other than a king observe (could capture) an enemy unit of its own kind?
/// Kings are left out, as in Madrasi without Rex Inclusive (the paralysis Isardam
/// forbids): two kings side by side are judged by the check rule alone.
fn same_kind_observation(ctx: &mut Ctx) -> bool {
    let mut buf = ctx.take_buf();
    let found = same_kind_observation_in(ctx, &mut buf);
    ctx.give_buf(buf);
    found
}

fn same_kind_observation_in(ctx: &mut Ctx, buf: &mut Vec<Move>) -> bool {
    // Only the kinds with units of two colours (neutral counting as one) can observe their
    // own kind: gather them, then generate only those units' captures of that kind (the
    // same moves as a full generation filtered afterwards, found faster).
    let mut kinds: [(Kind, u8, Bitboard); 16] = [(KING, 0, Bitboard::EMPTY); 16];
    let mut n = 0;
    let b = ctx.pos().board();
    for s in b.occupied() & !b.kind(KING) {
        let Some(u) = ctx.pos().unit(s) else { continue };
        let bit = match u.colour() {
            Colour::White => 1,
            Colour::Black => 2,
            Colour::Shared => 4,
        };
        match kinds[..n].iter_mut().find(|(k, _, _)| *k == u.kind()) {
            Some(e) => {
                e.1 |= bit;
                e.2.set(s);
            }
            None if n < 16 => {
                kinds[n] = (u.kind(), bit, Bitboard::from_square(s));
                n += 1;
            }
            // More kinds than the table holds: judge every unit.
            None => return same_kind_capture(ctx, buf, b.occupied() & !b.kind(KING)),
        }
    }
    kinds[..n].iter().any(|&(_, colours, squares)| colours.count_ones() >= 2 && same_kind_capture(ctx, buf, squares))
}

/// Whether a unit on `squares` (either side moving) can capture an enemy unit of its own
/// kind standing on `squares`.
fn same_kind_capture(ctx: &mut Ctx, buf: &mut Vec<Move>, squares: Bitboard) -> bool {
    for by in [Colour::White, Colour::Black] {
        buf.clear();
        ctx.pseudo_captures_from(by, squares, squares, buf);
        for m in buf.iter() {
            let Some(c) = m.capture else { continue };
            if m.castle.is_some() {
                continue;
            }
            if let (Some(a), Some(v)) = (ctx.pos().unit(m.from), ctx.pos().unit(c))
                && a.kind() == v.kind()
                && a.kind() != KING
                && a.colour() != v.colour()
            {
                return true;
            }
        }
    }
    false
}

/// Isardam (Popeye `Isardam`, `Isardam TypeB`): a move is illegal if after it any unit
/// (kings excepted) observes (could capture) an enemy unit of the same kind. Type A: a king is in check
/// only if the king capture itself would be Isardam-legal; type B: check is orthodox.
#[derive(Clone, Debug, Default)]
pub struct Isardam {
    pub type_b: bool,
}

impl Condition for Isardam {
    fn name(&self) -> String {
        if self.type_b { "Isardam type B".into() } else { "Isardam".into() }
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { check_rule: !self.type_b, legality: true, ..Capabilities::default() }
    }
    fn check_rule(&self, ctx: &mut Ctx, side: Colour) -> Option<bool> {
        if self.type_b {
            return None;
        }
        Some(some_king_capture(ctx, side, |g| !same_kind_observation(g)))
    }
    fn legal_after(&self, ctx: &mut Ctx, _mover: Colour) -> bool {
        !same_kind_observation(ctx)
    }
}

/// SAT (Popeye `SAT`): a king is in check if and only if it has at least one flight (a
/// king move to an empty or enemy-occupied square not attacked in the orthodox sense, the
/// king standing there; the enemy king's square is none). A move may not leave the own
/// king with a flight.
#[derive(Clone, Debug, Default)]
pub struct Sat;

impl Condition for Sat {
    fn name(&self) -> String {
        "SAT".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { check_rule: true, ..Capabilities::default() }
    }
    fn check_rule(&self, ctx: &mut Ctx, side: Colour) -> Option<bool> {
        let b = ctx.pos().board();
        let kings = b.kind(KING) & b.colour(side);
        let own = b.colour(side);
        // Taking the enemy king is no king move, so its square is no flight.
        let enemy_kings = b.kind(KING) & b.colour(side.opponent());
        for k in kings {
            for t in chimere_core::attacks::king(k) {
                if own.has(t) || enemy_kings.has(t) {
                    continue;
                }
                ctx.pos_mut().begin();
                let u = ctx.pos_mut().remove(k).expect("king");
                ctx.pos_mut().remove(t);
                ctx.pos_mut().add(t, u);
                let attacked = moves::attacked_by(ctx.pos(), side.opponent(), t, ctx.rules().pawn_first_rank_immobile);
                ctx.pos_mut().rollback();
                if !attacked {
                    return Some(true);
                }
            }
        }
        Some(false)
    }
}

#[cfg(test)]
mod tests {
    use crate::conditions::registry::by_name;
    use crate::rules::RuleSet;

    #[test]
    fn builds_by_name() {
        for n in ["bicolores", "vogtlander", "VogtlaenderChess", "Vogtländer", "brunner", "isardam", "sat"] {
            let c = by_name(n).unwrap_or_else(|e| panic!("{n}: {e}"));
            let r = RuleSet::build(c, &[]).unwrap();
            assert!(r.check_rule.is_some());
        }
        let mut both = by_name("bicolores").unwrap();
        both.extend(by_name("vogtlander").unwrap());
        assert!(RuleSet::build(both, &[]).is_err());
    }

    /// Isardam: two kings side by side are no same-kind observation; the check rule
    /// decides. White Kc6 Rd4, black Kc4 Rb4: after Kc6-c5 the capture Kc4xc5 would
    /// let the rooks observe each other, so it gives no check and the move is legal.
    #[test]
    fn isardam_leaves_kings_out() {
        let m = crate::testing::move_texts("8/8/2K5/8/1rkR4/8/8/8 w - - 0 1", &["isardam"]);
        assert!(m.iter().any(|t| t.starts_with("Kc6-c5")), "{m:?}");
        // With the white rook on d3 the capture Kc4xc5 is Isardam-legal: check, so the
        // king may not go there.
        let m = crate::testing::move_texts("8/8/2K5/8/1rk5/3R4/8/8 w - - 0 1", &["isardam"]);
        assert!(!m.iter().any(|t| t.starts_with("Kc6-c5")), "{m:?}");
        assert!(m.iter().any(|t| t.starts_with("Kc6-d6")), "{m:?}");
    }

    /// SAT: White Ka1, black Kb1 Bc1 Bc2: each king's free squares (a2, b2) are guarded
    /// by the other king, and taking the other king is no flight, so neither side is in
    /// check (before, Black counted Kb1xa1 as a flight and the diagram was illegal).
    #[test]
    fn sat_king_square_is_no_flight() {
        let mut g = crate::game_from_fen("8/8/8/8/8/8/2b5/Kkb5 w - - 0 1", &["sat"]).unwrap();
        assert!(!g.in_check(chimere_core::Colour::Black));
        assert!(!g.in_check(chimere_core::Colour::White));
    }
}
