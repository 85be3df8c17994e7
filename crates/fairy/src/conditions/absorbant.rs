//! Absorbant (seed 000; no Popeye equivalent — Chimère keyword `AbsorbantChess`): when a
//! non-royal unit captures, it permanently adds the movement powers of the captured unit to
//! its own. The unit becomes a compound, cumulatively: a captured unit that had itself
//! absorbed walks gives all of them ([`crate::Unit::powers`] is a bit set of walks, one bit
//! per kind; the captured unit gives its kind's bit and its own bits).
//!
//! Our reading (spec decisions, and ours where the spec is silent):
//! - kings (and units with the royal attribute) never absorb; they may be absorbed where
//!   they can be captured (then their walk, not their royalty, is gained);
//! - a pawn that absorbs keeps its pawn walk and still promotes; reaching its promotion
//!   rank by any of its walks, it promotes; the promoted unit keeps the absorbed powers;
//! - an absorbed pawn walk moves in the absorber's forward direction (double step from its
//!   second rank, en passant capture included) but a non-pawn never promotes, and its
//!   double step gives no en passant right (only pawns are taken en passant);
//! - an absorbing rook keeps its castling right: castling needs a rook (by kind) on its
//!   corner with the right, gained walks do not matter;
//! - the absorption applies to the unit standing on the arrival square after the capture
//!   (after a promotion). Conditions that remove or transfer the capturer
//!   (`CapturerVanishes`, `CapturerRebirth` slots: Kamikaze, Anticirce...) are refused in
//!   combination;
//! - moves are unchanged in notation (Popeye shows nothing for an absorption).
//!
//! Check is decided by playing the opponent's captures ([`Observation::KingCaptures`]):
//! the attack tables do not know gained walks.

use crate::rules::{Capabilities, Condition, Observation, Play, Reject, Role, Slot};
use crate::walk::KING;

#[derive(Clone, Debug, Default)]
pub struct Absorbant;

impl Condition for Absorbant {
    fn name(&self) -> String {
        "Absorbant".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            slots: vec![Slot::AfterMove],
            observation: Observation::KingCaptures,
            gains_walks: true,
            excluded_slots: vec![Slot::CapturerVanishes, Slot::CapturerRebirth],
            ..Capabilities::default()
        }
    }
    fn after_move(&self, play: &mut Play) -> Result<(), Reject> {
        if play.mv.capture.is_none() {
            return Ok(());
        }
        let Some(victim) = play.victims.iter().find(|v| v.role == Role::Captured).map(|v| v.unit) else {
            return Ok(());
        };
        let to = play.mv.to;
        let Some(u) = play.pos.unit(to) else { return Ok(()) };
        if u.colour() != play.moving.colour()
            || u.kind() == KING
            || u.has(crate::position::ROYAL)
            || play.moving.kind() == KING
        {
            return Ok(());
        }
        // Gained walks are a bit set of the first sixteen kinds: the pieces of the table
        // beyond them neither gain nor give walks (a limit the README states).
        if u.kind().index() >= 16 || victim.kind().index() >= 16 {
            return Ok(());
        }
        let powers = u.powers | victim.powers | 1u16 << (victim.kind().0 & 15);
        if powers != u.powers {
            play.pos.remove(to);
            play.pos.add(to, crate::Unit { powers, ..u });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{ROYAL, Unit};
    use crate::walk::{self, BISHOP, KNIGHT, PAWN, QUEEN, ROOK};
    use crate::{Game, Move, RuleSet, position_from_fen};
    use chimere_core::{Colour, Kind, Square};
    use std::collections::BTreeSet;
    use std::sync::Arc;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }
    fn bit(k: Kind) -> u16 {
        1 << k.0
    }
    fn game(fen: &str) -> Game {
        let rules = RuleSet::build(vec![Arc::new(Absorbant)], &[]).unwrap();
        Game::new(rules, position_from_fen(fen).unwrap())
    }
    /// Gives the unit on `s` the gained walks `powers`.
    fn empower(g: &mut Game, s: &str, powers: u16) {
        let u = g.pos.unit(sq(s)).unwrap();
        g.pos.begin();
        g.pos.remove(sq(s));
        g.pos.add(sq(s), Unit { powers, ..u });
    }
    /// Legal moves as `d1d4`, `d1xd4`, `b6a8q`.
    fn moves(g: &mut Game) -> BTreeSet<String> {
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let set: BTreeSet<String> = v
            .iter()
            .map(|m| {
                let mut s = format!("{}{}{}", m.from, if m.is_capture() { "x" } else { "" }, m.to);
                if let Some(k) = m.promo {
                    s.push_str(&walk::letters(k).to_ascii_lowercase());
                }
                s
            })
            .collect();
        assert_eq!(set.len(), v.len(), "no duplicate moves");
        set
    }
    fn from(g: &mut Game, s: &str) -> BTreeSet<String> {
        moves(g).into_iter().filter(|m| m.starts_with(s)).collect()
    }
    fn set(s: &str) -> BTreeSet<String> {
        s.split_whitespace().map(str::to_string).collect()
    }
    fn play(g: &mut Game, f: &str, t: &str) {
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let m: Move = *v.iter().find(|m| m.from == sq(f) && m.to == sq(t)).expect("legal move");
        g.make(&m).expect("legal");
    }

    #[test]
    fn rook_capturing_a_knight_gains_the_knight_walk() {
        let mut g = game("4k3/8/8/8/3n4/8/8/K2R4 w - - 0 1");
        play(&mut g, "d1", "d4");
        let u = g.pos.unit(sq("d4")).unwrap();
        assert_eq!((u.kind(), u.powers), (ROOK, bit(KNIGHT)));
        assert!(g.pos.is_consistent());
        play(&mut g, "e8", "f8");
        // Rook walk from d4: d1 d2 d3 d5 d6 d7 d8 and a4 b4 c4 e4 f4 g4 h4 (board empty
        // but for the kings on a1 and f8); knight walk: b3 b5 c2 c6 e2 e6 f3 f5.
        assert_eq!(
            from(&mut g, "d4"),
            set("d4d1 d4d2 d4d3 d4d5 d4d6 d4d7 d4d8 d4a4 d4b4 d4c4 d4e4 d4f4 d4g4 d4h4 \
                 d4b3 d4b5 d4c2 d4c6 d4e2 d4e6 d4f3 d4f5")
        );
        // Take-back restores the plain rook and the hash.
        g.unmake();
        g.unmake();
        assert_eq!(g.pos.unit(sq("d1")).unwrap().powers, 0);
        assert!(g.pos.is_consistent());
    }

    #[test]
    fn absorbing_a_compound_adds_all_its_components() {
        // The black bishop on d4 had absorbed a knight: the rook gains bishop and knight.
        let mut g = game("4k3/8/8/8/3b4/8/8/K2R4 w - - 0 1");
        empower(&mut g, "d4", bit(KNIGHT));
        play(&mut g, "d1", "d4");
        assert_eq!(g.pos.unit(sq("d4")).unwrap().powers, bit(BISHOP) | bit(KNIGHT));
        // Cumulative: later captures add to what it has.
        g.pos.begin();
        g.pos.add(sq("d6"), Unit::new(Colour::Black, PAWN));
        g.pos.flip_side();
        play(&mut g, "d4", "d6");
        assert_eq!(g.pos.unit(sq("d6")).unwrap().powers, bit(BISHOP) | bit(KNIGHT) | bit(PAWN));
    }

    #[test]
    fn kings_and_royal_units_never_absorb() {
        let mut g = game("4k3/8/8/8/8/8/4n3/4K3 w - - 0 1");
        play(&mut g, "e1", "e2");
        assert_eq!(g.pos.unit(sq("e2")).unwrap().powers, 0);
        let mut g = game("4k3/8/8/8/8/8/4n3/K3R3 w - - 0 1");
        let r = g.pos.unit(sq("e1")).unwrap();
        g.pos.begin();
        g.pos.remove(sq("e1"));
        g.pos.add(sq("e1"), Unit { attrs: ROYAL, ..r });
        play(&mut g, "e1", "e2");
        assert_eq!(g.pos.unit(sq("e2")).unwrap().powers, 0);
    }

    #[test]
    fn pawn_keeps_its_walk_and_promotes_by_any_walk() {
        // A white pawn on b6 that absorbed a knight; kings on h1 and h8 out of the way.
        let mut g = game("7k/8/1P6/8/8/8/8/7K w - - 0 1");
        empower(&mut g, "b6", bit(KNIGHT));
        // Pawn walk: b7. Knight walk: a8 and c8 (promotion rank: the pawn promotes, four
        // choices each), a4, c4, d5, d7.
        assert_eq!(from(&mut g, "b6"), set("b6b7 b6a8q b6a8s b6a8r b6a8b b6c8q b6c8s b6c8r b6c8b b6a4 b6c4 b6d5 b6d7"));
        // The promoted unit keeps the absorbed walk.
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let m = *v.iter().find(|m| m.to == sq("c8") && m.promo == Some(ROOK)).unwrap();
        g.make(&m).unwrap();
        let u = g.pos.unit(sq("c8")).unwrap();
        assert_eq!((u.kind(), u.powers), (ROOK, bit(KNIGHT)));
    }

    #[test]
    fn pawn_capture_then_knight_walk() {
        // e4xd5 absorbs the knight; then (after ...Kh8-g8) the pawn on d5 has d6 (pawn)
        // and b4 b6 c3 c7 e3 e7 f4 f6 (knight).
        let mut g = game("7k/8/8/3n4/4P3/8/8/K7 w - - 0 1");
        play(&mut g, "e4", "d5");
        play(&mut g, "h8", "g8");
        assert_eq!(from(&mut g, "d5"), set("d5d6 d5b4 d5b6 d5c3 d5c7 d5e3 d5e7 d5f4 d5f6"));
    }

    #[test]
    fn gained_pawn_walk_moves_forward_without_promoting() {
        // Two white knights that absorbed pawns. Sg7: knight e8 e6 f5 h5, pawn step g8 (no
        // promotion: not a pawn); no pawn capture (f8, h8 empty). Sc2: knight a3 b4 d4 e1
        // e3 (a1 is the own king), pawn c3 and the double step c4 from its second rank.
        // King a1: a2 b1 b2. Black king a8: not attacked.
        let mut g = game("k7/6N1/8/8/8/8/2N5/K7 w - - 0 1");
        empower(&mut g, "g7", bit(PAWN));
        empower(&mut g, "c2", bit(PAWN));
        assert_eq!(moves(&mut g), set("a1a2 a1b1 a1b2 g7e8 g7e6 g7f5 g7h5 g7g8 c2a3 c2b4 c2d4 c2e1 c2e3 c2c3 c2c4"));
        // A black rook with a gained pawn walk moves down the board (h6-h5, h6xg5).
        let mut g = game("k7/8/7r/6P1/8/8/8/K7 b - - 0 1");
        empower(&mut g, "h6", bit(PAWN));
        let ms = from(&mut g, "h6");
        assert!(ms.contains("h6xg5") && ms.contains("h6h5"), "{ms:?}");
        assert!(!ms.contains("h6xg7"));
    }

    #[test]
    fn gained_walks_give_check() {
        // The white rook on a1 absorbed a knight: it attacks b3 (knight walk), so the black
        // king there is in check.
        let mut g = game("7K/8/8/8/8/1k6/8/R7 b - - 0 1");
        empower(&mut g, "a1", bit(KNIGHT));
        assert!(g.in_check(Colour::Black));
        // King b3 to a2 a3 a4 b2 b4 c2 c3 c4: the rook walk of a1 covers the a-file (a2 a3
        // a4) and rank 1, its knight walk b3 and c2. Legal: b2 b4 c3 c4.
        assert_eq!(from(&mut g, "b3"), set("b3b4 b3c3 b3c4 b3b2"));
    }

    #[test]
    fn duplicate_walks_give_one_move_each() {
        // A queen that absorbed a rook, a bishop and a queen moves like a plain queen: each
        // move once.
        let mut plain = game("7k/8/8/8/3Q4/8/8/K7 w - - 0 1");
        let want = from(&mut plain, "d4");
        let mut g = game("7k/8/8/8/3Q4/8/8/K7 w - - 0 1");
        empower(&mut g, "d4", bit(ROOK) | bit(BISHOP) | bit(QUEEN));
        assert_eq!(from(&mut g, "d4"), want);
    }

    #[test]
    fn absorbing_rook_keeps_castling() {
        // The h1 rook has gained a knight walk (without leaving h1): 0-0 is still possible.
        let mut g = game("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        empower(&mut g, "h1", bit(KNIGHT));
        assert!(moves(&mut g).contains("e1g1"));
    }

    #[test]
    fn refuses_capturer_removing_conditions() {
        let mut c = crate::conditions::by_name("absorbant").unwrap();
        c.extend(crate::conditions::by_name("kamikaze rex inclusiv").unwrap());
        assert!(RuleSet::build(c, &[]).is_err());
        let mut c = crate::conditions::by_name("absorbant").unwrap();
        c.extend(crate::conditions::by_name("circe").unwrap());
        assert!(RuleSet::build(c, &[]).is_ok());
    }
}
