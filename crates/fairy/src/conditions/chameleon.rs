//! Chameleon units (a piece attribute, Popeye's `Chameleon`): after each of its moves a
//! chameleon unit changes kind, knight to bishop to rook to queen to knight; other kinds
//! stay. The change is written after the move with the unit's attributes, as Popeye writes
//! it: `cBd6-e7=cR`. As in Popeye, while chameleon units are in play a promotion into a
//! kind of the sequence may also make the promotee a chameleon (a second move of the same
//! squares: `c7-c8=Q=c`), and so may a pawn that a condition places on its promotion rank
//! (a Super-Circe rebirth: `[+wPa8=Q=c]`).

use crate::moves::Move;
use crate::position::{CHAMELEON, Position, Unit};
use crate::rules::{Capabilities, Condition, Note, Play, Promotee, Reject, Slot};
use crate::walk::{BISHOP, KNIGHT, QUEEN, ROOK};
use chimere_core::Kind;
use std::sync::Arc;

/// The attribute: only the units that carry [`CHAMELEON`] change.
#[derive(Clone, Debug, Default)]
pub struct ChameleonUnits;

/// The kinds a chameleon unit goes through, each becoming the next after a move.
const SEQUENCE: [Kind; 4] = [KNIGHT, BISHOP, ROOK, QUEEN];

/// The kind a chameleon unit of kind `k` becomes after a move.
fn next(k: Kind) -> Option<Kind> {
    SEQUENCE.iter().position(|&s| s == k).map(|i| SEQUENCE[(i + 1) % SEQUENCE.len()])
}

impl Condition for ChameleonUnits {
    fn name(&self) -> String {
        "Chameleon".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            slots: vec![Slot::Choices, Slot::Arrival, Slot::AfterMove],
            // A pawn a condition places on its promotion rank may promote into a chameleon
            // too (Popeye 4.104 under Super-Circe: `[+wPa8=Q=c]`).
            promotee_attrs: Some((CHAMELEON, &SEQUENCE)),
            ..Capabilities::default()
        }
    }
    /// A promotion into a kind of the sequence: plain, or into a chameleon (choice 1).
    /// A chameleon pawn's promotee stays a chameleon: no second move (`cPb7-b8=cB`).
    fn choices(&self, pos: &Position, mv: &Move, _promotions: &[Promotee], _promotion_rank: u8) -> u16 {
        let chameleon_mover = pos.unit(mv.from).is_some_and(|u| u.has(CHAMELEON));
        if !chameleon_mover && mv.promo.is_some_and(|k| next(k).is_some()) { 2 } else { 1 }
    }
    fn merged_with(&self, other: &dyn Condition) -> Option<Arc<dyn Condition>> {
        (other as &dyn std::any::Any)
            .downcast_ref::<ChameleonUnits>()
            .map(|_| Arc::new(ChameleonUnits) as Arc<dyn Condition>)
    }
    /// The change comes before a capture's consequences: a chameleon reborn as the
    /// capturer (Anticirce) is reborn as its next kind, as in Popeye (`cBa2*f7=cR[wcRf7->h1]`).
    fn on_arrival(&self, play: &mut Play) -> Result<(), Reject> {
        let sq = play.mv.to;
        let Some(u) = play.pos.unit(sq) else { return Ok(()) };
        if play.mv.choice == 1 && play.mv.promo.is_some() {
            // The promotee becomes a chameleon; it changes from its next move on.
            let made = Unit { attrs: u.attrs | CHAMELEON, ..u };
            play.pos.remove(sq);
            play.pos.add(sq, made);
            play.note(Note::Attributed { sq, unit: made });
            return Ok(());
        }
        if !u.has(CHAMELEON) {
            return Ok(());
        }
        // A chameleon pawn's promotee arrives as it was chosen (Popeye 4.104: `cPb7-b8=cB`).
        if play.mv.promo.is_some() {
            return Ok(());
        }
        let Some(kind) = next(u.kind()) else { return Ok(()) };
        play.pos.remove(sq);
        let changed = u.with_kind(kind);
        play.pos.add(sq, changed);
        play.regain_rights(sq, changed);
        play.note(Note::Rekinded { sq, unit: u, kind });
        Ok(())
    }
    /// A promotee taken away from its promotion square by the capture's consequences (an
    /// Anticirce rebirth) is not made a chameleon: Popeye decides the change on that square
    /// once the move is played, and offers no `a7*b8=Q=c[wcQb8->d1]`.
    fn after_move(&self, play: &mut Play) -> Result<(), Reject> {
        let made_chameleon = play.mv.choice == 1 && play.mv.promo.is_some();
        if made_chameleon && play.pos.unit(play.mv.to).is_none_or(|u| !u.has(CHAMELEON)) {
            return Err(Reject);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::move_with_check;
    use crate::{Game, Move, RuleSet};
    use chimere_core::Square;

    /// White chameleon bishop d6 and rook e7 (Ka1, Black Kh8): each move changes the mover,
    /// bishop to rook, rook to queen, and the text says so as Popeye writes it.
    #[test]
    fn each_move_changes_the_mover() {
        let mut pos = crate::position_from_fen("7k/4R3/3B4/8/8/8/8/K7 w - - 0 1").expect("fen");
        for sq in [Square::from_coords(3, 5), Square::from_coords(4, 6)] {
            pos.setup_attrs(sq, CHAMELEON);
        }
        let rules = RuleSet::build(vec![Arc::new(ChameleonUnits)], &[]).expect("rules");
        let mut g = Game::new(rules, pos);
        let mut v: Vec<Move> = Vec::new();
        g.legal_moves(&mut v);
        let texts: Vec<String> = v.iter().filter_map(|m| move_with_check(&mut g, m)).collect();
        for t in ["cBd6-c5=cR", "cRe7-e1=cQ", "Ka1-b1"] {
            assert!(texts.iter().any(|x| x == t), "{t} in {texts:?}");
        }
        // Played and taken back: the rook e7 became a queen on e1, then a rook on e7 again.
        let m = *v.iter().find(|m| move_with_check(&mut g, m).as_deref() == Some("cRe7-e1=cQ")).expect("move");
        let before = g.pos.hash();
        g.make(&m).expect("legal");
        assert_eq!(g.pos.unit(Square::from_coords(4, 0)).map(|u| (u.kind(), u.has(CHAMELEON))), Some((QUEEN, true)));
        g.unmake();
        assert_eq!(g.pos.hash(), before);
    }

    /// A pawn promotes plainly or into a chameleon (Popeye 4.104: `c7-c8=Q=c`); the
    /// chameleon queen then changes on its move.
    #[test]
    fn a_promotion_may_make_a_chameleon() {
        let pos = crate::position_from_fen("7k/2P5/8/8/8/8/8/K7 w - - 0 1").expect("fen");
        let rules = RuleSet::build(vec![Arc::new(ChameleonUnits)], &[]).expect("rules");
        let mut g = Game::new(rules, pos);
        let mut v: Vec<Move> = Vec::new();
        g.legal_moves(&mut v);
        let mut texts: Vec<String> =
            v.iter().filter_map(|m| move_with_check(&mut g, m)).filter(|t| t.starts_with("c7")).collect();
        texts.sort();
        assert_eq!(
            texts,
            ["c7-c8=B", "c7-c8=B=c", "c7-c8=Q +", "c7-c8=Q=c +", "c7-c8=R +", "c7-c8=R=c +", "c7-c8=S", "c7-c8=S=c"]
        );
        let m = *v.iter().find(|m| move_with_check(&mut g, m).as_deref() == Some("c7-c8=Q=c +")).expect("move");
        g.make(&m).expect("legal");
        let q = g.pos.unit(Square::from_coords(2, 7)).expect("queen");
        assert!(q.kind() == QUEEN && q.has(CHAMELEON));
    }

    /// The moves' texts from `fen` with chameleon units on `chameleons`, under the named
    /// condition (if any) beside the attribute.
    fn texts_with(fen: &str, chameleons: &[Square], condition: Option<&str>) -> Vec<String> {
        let mut g = game_with(fen, chameleons, condition);
        let mut v: Vec<Move> = Vec::new();
        g.legal_moves(&mut v);
        v.iter().filter_map(|m| move_with_check(&mut g, m)).map(|t| t.trim_end_matches(" +").to_string()).collect()
    }

    /// Under Anticirce a capturing chameleon changes first and is reborn as its next kind
    /// (Popeye 4.104: `cBa2*f7=cR[wcRf7->h1]`, not a bishop reborn on f1), and a promotee
    /// a rebirth takes away from its square is not made a chameleon.
    #[test]
    fn a_capturer_is_reborn_as_its_next_kind() {
        let t = texts_with("r6k/1P3p2/8/8/8/8/B7/K7 w - - 0 1", &[Square::from_coords(0, 1)], Some("anticirce"));
        assert!(t.iter().any(|x| x == "cBa2*f7=cR[wcRf7->h1]"), "{t:?}");
        assert!(t.iter().any(|x| x == "b7*a8=Q[wQa8->d1]"), "{t:?}");
        assert!(!t.iter().any(|x| x.starts_with("b7*a8") && x.contains("=c")), "{t:?}");
        // Without a rebirth, the same promotion may make a chameleon.
        assert!(t.iter().any(|x| x == "b7*a8=Q[wQa8->d1]") && t.iter().any(|x| x == "b7-b8=Q=c"), "{t:?}");
    }

    /// Beside Super-Circe, which chooses the victim's rebirth square, every rebirth square
    /// combines with both promotions, plain and into a chameleon, each once.
    #[test]
    fn alternatives_combine_with_a_circe_choosing_squares() {
        let t = texts_with("r6k/1P6/8/8/8/8/8/K7 w - - 0 1", &[], Some("super circe"));
        let of = |promo: &str| -> Vec<&String> { t.iter().filter(|x| x.starts_with(promo)).collect() };
        let (plain, chameleon) = (of("b7*a8=Q["), of("b7*a8=Q=c["));
        assert!(plain.len() > 40, "{plain:?}");
        assert_eq!(plain.len(), chameleon.len());
        assert!(plain.iter().any(|x| *x == "b7*a8=Q[+bRh2]") && chameleon.iter().any(|x| *x == "b7*a8=Q=c[+bRh2]"));
        let mut all = t.clone();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), t.len(), "an alternative twice");
    }

    /// The game from `fen` with chameleon units on `chameleons`, under the named condition
    /// (if any) beside the attribute.
    fn game_with(fen: &str, chameleons: &[Square], condition: Option<&str>) -> Game {
        let mut pos = crate::position_from_fen(fen).expect("fen");
        for &sq in chameleons {
            pos.setup_attrs(sq, CHAMELEON);
        }
        let mut conditions = match condition {
            Some(name) => crate::conditions::registry::by_name(name).expect("condition"),
            None => Vec::new(),
        };
        conditions.push(Arc::new(ChameleonUnits));
        Game::new(RuleSet::build(conditions, &[]).expect("rules"), pos)
    }

    /// A pawn reborn on its promotion rank (Super-Circe) promotes into each kind, plain or a
    /// chameleon where the kind is in the sequence, and the promotee is what the text says
    /// (Popeye 4.104: `cQc2*c5=cS[+wPa8=Q=c]`).
    #[test]
    fn a_reborn_pawn_may_promote_into_a_chameleon() {
        let fen = "8/8/4K3/2P5/8/1k6/2q5/8 b - - 0 1";
        let t = texts_with(fen, &[Square::from_coords(2, 1)], Some("super circe"));
        let mut on_a8: Vec<&str> =
            t.iter().filter_map(|x| x.strip_prefix("cQc2*c5=cS[+wPa8")).filter_map(|x| x.strip_suffix(']')).collect();
        on_a8.sort();
        assert_eq!(on_a8, ["=B", "=B=c", "=Q", "=Q=c", "=R", "=R=c", "=S", "=S=c"]);
        let mut g = game_with(fen, &[Square::from_coords(2, 1)], Some("super circe"));
        let m = crate::notation::find_legal(&mut g, "cQc2*c5=cS[+wPa8=R=c]").expect("the move");
        g.make(&m).expect("legal");
        let r = g.pos.unit(Square::from_coords(0, 7)).expect("the promotee");
        assert!(r.kind() == ROOK && r.has(CHAMELEON), "{r:?}");
    }

    /// A chameleon pawn's promotee is a chameleon of the chosen kind, once (no plain
    /// alternative, no change on arriving), on the board and when a rebirth places it
    /// (Popeye 4.104: `cPb7-b8=cB`, `Kg4*f3[+bcPb1=cB]`).
    #[test]
    fn a_chameleon_pawn_promotes_into_chameleons() {
        let t = texts_with("8/1P6/8/8/3K4/2p5/8/k7 w - - 0 1", &[Square::from_coords(1, 6)], None);
        let mut on_b8: Vec<&String> = t.iter().filter(|x| x.starts_with("cPb7")).collect();
        on_b8.sort();
        assert_eq!(on_b8, ["cPb7-b8=cB", "cPb7-b8=cQ", "cPb7-b8=cR", "cPb7-b8=cS"]);
        let t = texts_with("8/8/8/8/6K1/5p2/8/k7 w - - 0 1", &[Square::from_coords(5, 2)], Some("super circe"));
        let mut on_b1: Vec<&str> = t.iter().filter_map(|x| x.strip_prefix("Kg4*f3[+bcPb1")).collect();
        on_b1.sort();
        assert_eq!(on_b1, ["=cB]", "=cQ]", "=cR]", "=cS]"]);
    }

    /// A third condition choosing among the alternatives is refused with the reason.
    #[test]
    fn at_most_two_conditions_choose() {
        let mut three = crate::conditions::registry::by_name("super circe").expect("condition");
        three.extend(crate::conditions::registry::by_name("republican").expect("condition"));
        three.push(Arc::new(ChameleonUnits));
        let e = RuleSet::build(three.clone(), &[]).expect_err("three choosers");
        assert!(e.to_string().contains("at most two may choose"), "{e}");
        three.pop();
        assert!(RuleSet::build(three, &[]).is_ok());
    }
}
