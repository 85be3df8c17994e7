//! Extinction (Popeye `ExtinctionChess`): every kind the side had in the diagram of which
//! it has exactly one unit is royal for that side (the spec's decision: only the diagram's
//! kinds count; Popeye also counts a kind first made by promotion — such records were
//! removed from the oracle). A side is in check when such a last unit is attacked; such
//! attacks must be parried, and a side that cannot avoid losing a kind is mated. Pawns may
//! promote to king (a second king makes the king kind non-royal).
//!
//! Check is decided with orthodox attack tables; combinations that change what a capture
//! does are refused when the rule set is built.
//!
//! Game status: a side to move that cannot move while a last unit of a kind is attacked
//! (it cannot avoid losing a kind) loses; with no move otherwise it is stalemate (draw).
//! A side that has lost a kind it had in the diagram has lost: legal play never reaches
//! that (such attacks must be parried), and a position given alone (a FEN) is its own
//! diagram, so the status needs no memory of the diagram.

use crate::moves::{self, Move};
use crate::rules::{Capabilities, Condition, Ctx};
use crate::walk::PAWN;
use chimere_core::{Colour, Status};

#[derive(Clone, Debug, Default)]
pub struct Extinction;

impl Condition for Extinction {
    fn name(&self) -> String {
        "Extinction".into()
    }
    fn capabilities(&self) -> Capabilities {
        // Check is this condition's (the last units of the diagram's kinds), decided by the
        // attack tables; kings may be captured (a second king makes the kind non-royal);
        // pawns may promote to king.
        Capabilities { check_rule: true, royals_capturable: true, king_promotion: true, ..Capabilities::default() }
    }
    fn check_rule(&self, ctx: &mut Ctx, side: Colour) -> Option<bool> {
        Some(last_of_a_kind_attacked(ctx, side))
    }
    fn status(&self, ctx: &mut Ctx, legal: &[Move]) -> Option<Status> {
        if !legal.is_empty() {
            return Some(Status::Ongoing);
        }
        let side = ctx.pos().side();
        Some(if ctx.in_check(side) { Status::win_for(side.opponent()) } else { Status::Draw })
    }
}

/// Is a last unit of a kind `side` had in the diagram attacked?
fn last_of_a_kind_attacked(ctx: &Ctx, side: Colour) -> bool {
    let b = ctx.pos().board();
    let own = b.colour(side);
    let had = ctx.diagram_kinds(side);
    if side == Colour::Shared {
        return false;
    }
    for s in own {
        let u = ctx.pos().unit(s).expect("occupied");
        if had >> u.kind().index() & 1 != 0
            && (b.kind(u.kind()) & own).count() == 1
            && (moves::attacked_by(ctx.pos(), side.opponent(), s, ctx.rules().pawn_first_rank_immobile)
                || en_passant_threat(ctx, side, s))
        {
            return true;
        }
    }
    false
}

/// Whether the opponent of `side`, to move, may take the pawn on `s` en passant (it has
/// just made a double step): a last pawn is then threatened like any attacked unit (the
/// attack tables do not see en passant).
fn en_passant_threat(ctx: &Ctx, side: Colour, s: chimere_core::Square) -> bool {
    let pos = ctx.pos();
    let opp = side.opponent();
    let Some(ep) = pos.ep().filter(|e| e.pawn == s && pos.side() == opp) else { return false };
    let b = pos.board();
    let pawns = b.kind(PAWN) & b.colour(opp);
    [Some(ep.target), ep.also]
        .into_iter()
        .flatten()
        .any(|t| (chimere_core::attacks::pawn(opp == Colour::Black, t) & pawns).any())
}

#[cfg(test)]
mod tests {
    use crate::conditions::registry::by_name;
    use crate::rules::RuleSet;

    #[test]
    fn builds_by_name() {
        for n in ["extinction", "ExtinctionChess"] {
            let c = by_name(n).unwrap_or_else(|e| panic!("{n}: {e}"));
            let r = RuleSet::build(c, &[]).unwrap();
            assert!(r.check_rule.is_some() && r.royals_capturable && r.promotions.contains(&crate::walk::KING));
        }
        let mut both = by_name("extinction").unwrap();
        both.extend(by_name("losing game").unwrap());
        assert!(RuleSet::build(both, &[]).is_err());
    }

    #[test]
    fn mate_is_being_unable_to_save_a_kind() {
        use chimere_core::Status;
        // Black Ka8 and his only pawn a7, blocked by the white pawn a6; Rb1 guards b8, the
        // pawn a6 guards b7. Black to move has no move and nothing is attacked: stalemate.
        let mut g = crate::game_from_fen("k7/p7/P7/8/8/8/8/1R5K b - - 0 1", &["extinction"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        assert!(v.is_empty());
        assert_eq!(g.status(&v), Status::Draw);
        // The same with a white knight b5 attacking a7, Black's last pawn: no move saves
        // it, so Black loses.
        let mut g = crate::game_from_fen("k7/p7/P7/1N6/8/8/8/1R5K b - - 0 1", &["extinction"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        assert!(v.is_empty());
        assert_eq!(g.status(&v), Status::WhiteWins);
    }

    /// A last pawn that may be taken en passant is threatened (Popeye agrees): Black's only
    /// pawn e7 may not go to e5 beside the white pawn d5 (d5xe6 e.p. would take it) nor to
    /// e6 (attacked); after e7-e5 has been played Black is in check.
    #[test]
    fn en_passant_threatens_a_last_pawn() {
        let mut g = crate::game_from_fen("7k/4p3/8/3P4/8/8/8/7K b - - 0 1", &["extinction"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        assert!(v.iter().all(|m| m.from.to_string() != "e7"), "{v:?}");
        assert_eq!(v.len(), 3);
        let mut g = crate::game_from_fen("7k/8/8/3Pp3/8/8/8/7K w - e6 0 1", &["extinction"]).unwrap();
        assert!(g.in_check(chimere_core::Colour::Black));
        let mut g = crate::game_from_fen("7k/8/8/3Pp3/8/8/8/7K w - - 0 1", &["extinction"]).unwrap();
        assert!(!g.in_check(chimere_core::Colour::Black));
    }

    /// White Ke1 Pb7, black Ke8 Ra8 Pa7, White to move. White had kings and pawns in the
    /// diagram, no queen, rook, bishop or knight: a new queen on b8, attacked by the rook
    /// a8, is not royal (the spec counts the diagram's kinds only), so b7-b8=Q/R/B/S are
    /// legal, and so is b8=K (two kings: the king kind is no longer royal); b7*a8 with each
    /// promotion captures the rook. The king moves d1, d2, e2, f1, f2 (nothing attacks
    /// them; d7/f7 are Black's).
    #[test]
    fn only_the_diagrams_kinds_are_royal() {
        let mut g = crate::game_from_fen("r3k3/pP6/8/8/8/8/8/4K3 w - - 0 1", &["extinction"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let promo_b8 = v.iter().filter(|m| m.to.to_string() == "b8" && m.promo.is_some()).count();
        let promo_a8 = v.iter().filter(|m| m.to.to_string() == "a8" && m.promo.is_some()).count();
        let king = v.iter().filter(|m| m.from.to_string() == "e1").count();
        assert_eq!((promo_b8, promo_a8, king, v.len()), (5, 5, 5, 15));
    }
}
