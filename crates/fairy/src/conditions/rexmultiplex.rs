//! Rex Multiplex (no Popeye keyword; Chimère keyword `RexMultiplex`): a side may have
//! several kings (pawns may also promote to king). A side is in check when any of its
//! kings is attacked, and may not leave any of its kings attacked. It is mated only when
//! all its kings are mated at once: a check that cannot be parried is therefore illegal
//! unless it attacks every king of the checked side (the checked side must be able to
//! move without remaining in check).
//!
//! Our reading: after a move, if the opponent is in check but not every one of its kings
//! is attacked, the opponent must have a reply that leaves no king attacked; else the
//! move is illegal. That reply test plays the opponent's moves (castling excepted)
//! without applying this rule to the replies themselves (which keeps it finite). With one
//! king per side the rule is orthodox chess. Rex Multiplex defines check, so it is
//! refused with conditions that define check otherwise.

use crate::moves;
use crate::rules::{Capabilities, Condition, Ctx};
use crate::walk::KING;
use chimere_core::Colour;

#[derive(Clone, Debug, Default)]
pub struct RexMultiplex;

fn king_count(ctx: &Ctx, side: Colour) -> u32 {
    let b = ctx.pos().board();
    (b.kind(KING) & b.colour(side)).count()
}

/// With `side` to move: has it a move (castling excepted) after which it keeps all its
/// kings and is not in check?
pub(crate) fn can_escape(ctx: &mut Ctx, side: Colour) -> bool {
    let kings = king_count(ctx, side);
    let mut buf = ctx.take_buf();
    ctx.pseudo_moves(side, &mut buf);
    let mut found = false;
    for m in &buf {
        if m.castle.is_some() {
            continue;
        }
        if ctx.play(m, side).is_ok() {
            let ok = king_count(ctx, side) == kings && !ctx.in_check(side);
            ctx.pos_mut().rollback();
            if ok {
                found = true;
                break;
            }
        }
    }
    ctx.give_buf(buf);
    found
}

/// Is every king of `side` attacked by its opponent?
fn all_kings_attacked(ctx: &Ctx, side: Colour) -> bool {
    let b = ctx.pos().board();
    let kings = b.kind(KING) & b.colour(side);
    kings.into_iter().all(|k| moves::attacked_by(ctx.pos(), side.opponent(), k, ctx.rules().pawn_first_rank_immobile))
}

impl Condition for RexMultiplex {
    fn name(&self) -> String {
        "Rex Multiplex".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { king_promotion: true, check_rule: true, legality: true, ..Capabilities::default() }
    }
    // Check stays "any royal unit attacked" (the engine's rule); declaring a check rule
    // makes the builder refuse conditions that define check otherwise.
    fn legal_after(&self, ctx: &mut Ctx, mover: Colour) -> bool {
        let opp = mover.opponent();
        if !ctx.in_check(opp) || all_kings_attacked(ctx, opp) {
            return true;
        }
        can_escape(ctx, opp)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::conditions::registry::by_name;
    use crate::rules::RuleSet;

    pub(crate) fn texts(fen: &str, cond: &[&str]) -> Vec<String> {
        let mut g = crate::game_from_fen(fen, cond).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut t: Vec<String> = v.iter().filter_map(|m| crate::notation::move_with_check(&mut g, m)).collect();
        t.sort();
        t
    }

    #[test]
    fn builds_by_name() {
        for n in ["rex multiplex", "RexMultiplex"] {
            let c = by_name(n).unwrap_or_else(|e| panic!("{n}: {e}"));
            let r = RuleSet::build(c, &[]).unwrap();
            assert_eq!(r.legality.len(), 1);
            assert!(r.promotions.contains(&crate::walk::KING));
        }
        let mut both = by_name("rex multiplex").unwrap();
        both.extend(by_name("bicolores").unwrap());
        assert!(RuleSet::build(both, &[]).is_err());
    }

    /// Black kings a8 and h5, black pawns a7 b7; White Kf1, Rc2.
    /// Rc2-c8 attacks Ka8 only; Ka8 cannot parry (a7 b7 own pawns, b8 attacked, the rook
    /// cannot be taken or blocked): under Rex Multiplex the check is illegal because Kh5
    /// is not attacked; under Rois siamois (or orthodox rules with two kings) it is mate.
    #[test]
    fn an_unparriable_check_to_one_king_is_illegal() {
        let fen = "k7/pp6/8/7k/8/8/2R5/5K2 w - - 0 1";
        let rex = texts(fen, &["rex multiplex"]);
        assert!(!rex.iter().any(|t| t.starts_with("Rc2-c8")), "{rex:?}");
        // Every other orthodox move is kept: the checks Rc2-h2 + (Kh5 escapes) and
        // Rc2-c5 + (Kh5 is on the rank; it steps away) included.
        let orth = texts(fen, &[]);
        let want: Vec<String> = orth.iter().filter(|t| !t.starts_with("Rc2-c8")).cloned().collect();
        assert_eq!(rex, want);
        assert!(rex.contains(&"Rc2-h2 +".to_string()));
        assert!(orth.contains(&"Rc2-c8 +".to_string()));
    }

    /// White Kf1, Rc2, Rd7: Black kings a8 and h8, pawns a7 b7 g7 h7. Rc2-c8 attacks both
    /// kings (a8 via b8, h8 via d8-g8, the d7 rook guarding nothing in between): all kings
    /// are attacked and none can escape: mate, legal. Rd7-d8 likewise.
    #[test]
    fn a_mate_of_all_kings_is_legal() {
        let fen = "k6k/pp1R2pp/8/8/8/8/2R5/5K2 w - - 0 1";
        let rex = texts(fen, &["rex multiplex"]);
        assert!(rex.contains(&"Rc2-c8 +".to_string()), "{rex:?}");
        assert!(rex.contains(&"Rd7-d8 +".to_string()), "{rex:?}");
        let mut g = crate::game_from_fen(fen, &["rex multiplex"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let m = *v.iter().find(|m| m.from.to_string() == "c2" && m.to.to_string() == "c8").unwrap();
        g.make(&m).unwrap();
        let mut replies = Vec::new();
        g.legal_moves(&mut replies);
        assert!(replies.is_empty());
        assert_eq!(g.status(&replies), chimere_core::Status::WhiteWins);
    }

    /// A pawn may promote to a king.
    #[test]
    fn promotion_to_king() {
        let t = texts("7k/P7/8/8/8/8/8/K7 w - - 0 1", &["rex multiplex"]);
        assert!(t.contains(&"a7-a8=K".to_string()), "{t:?}");
    }
}
