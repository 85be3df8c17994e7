//! All-in-Chess (Popeye `AllInChess`): on its turn a side may move one of its own units or
//! one of the opponent's. Moved units keep their colour: pawns move in their own
//! direction, capture units of the other colour than their own, promote into their own
//! colour; a side may castle the opponent's king with the opponent's rook. The mover must
//! not leave its OWN king in check (exposing the opponent's king is allowed). A move that
//! exactly reverses the previous move (same unit, back from its arrival to its departure
//! square, neither move a capture) is forbidden — Popeye's reading of "the position before
//! the last move may not be repeated". So, as in Popeye, a reversal that would not repeat
//! that position is allowed: after a promotion (`f2-f1=R`, then `Rf1-f2`: a rook, not the
//! pawn, stands on f2), or when the position before the last move had en passant rights
//! (they are gone now). The last move is part of the position state (journalled and
//! hashed); a diagram has no last move.

use crate::moves::Move;
use crate::position::Position;
use crate::rules::{Condition, RuleSet, RulesError, Slot};
use chimere_core::Colour;

#[derive(Clone, Debug, Default)]
pub struct AllIn;

impl Condition for AllIn {
    fn name(&self) -> String {
        "All-in-Chess".into()
    }
    fn slots(&self) -> Vec<Slot> {
        vec![Slot::Admit]
    }
    fn any_unit(&self) -> bool {
        true
    }
    fn tracks_last_move(&self) -> bool {
        true
    }
    fn admit_quiet_only(&self) -> bool {
        true
    }
    fn check_combination(&self, rules: &RuleSet) -> Result<(), RulesError> {
        // Which units may move is computed for the side to move only: the opponent's units
        // a side moves would be judged by the wrong side's restrictions.
        if !rules.mobility.is_empty() {
            return Err(RulesError(
                "All-in-Chess cannot be combined with conditions restricting which units may move".into(),
            ));
        }
        Ok(())
    }
    fn admit(&self, pos: &Position, _mover: Colour, mv: &Move) -> bool {
        if mv.capture.is_some() || mv.castle.is_some() {
            return true;
        }
        match pos.last_move() {
            Some(l) => l.capture || !l.same_unit || l.ep_before || l.from != mv.to || l.to != mv.from,
            None => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;
    use crate::rules::Game;

    fn texts(g: &mut Game) -> Vec<String> {
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut out: Vec<String> = v.iter().map(|m| crate::notation::move_with_check(g, m).unwrap()).collect();
        out.sort();
        out
    }

    #[test]
    fn no_exact_reversal() {
        // White Ke1 Rh1, black Ke8 Pd3 (Popeye record all-in-chess 8): after Black's
        // Ke8-d7, White may move the d7 king anywhere but back to e8.
        let mut g = game_from_fen("4k3/8/8/8/8/3p4/8/4K2R b K - 0 1", &["all-in-chess"]).unwrap();
        let h0 = g.pos.hash();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let m = *v.iter().find(|m| m.from.to_string() == "e8" && m.to.to_string() == "d7").unwrap();
        g.make(&m).unwrap();
        let t = texts(&mut g);
        assert!(!t.contains(&"Kd7-e8".to_string()), "{t:?}");
        assert!(t.contains(&"Kd7-c6".to_string()), "{t:?}");
        assert!(t.contains(&"0-0".to_string()), "{t:?}");
        assert!(g.pos.is_consistent());
        g.unmake();
        assert_eq!(g.pos.hash(), h0);
    }

    /// Plays the legal move `from`-`to` (promoting to `promo`, if given).
    fn play(g: &mut Game, from: &str, to: &str, promo: Option<chimere_core::Kind>) {
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let m = *v
            .iter()
            .find(|m| m.from.to_string() == from && m.to.to_string() == to && m.promo == promo)
            .unwrap_or_else(|| panic!("{from}-{to} {:?}", texts(g)));
        g.make(&m).unwrap();
    }

    #[test]
    fn reversal_after_a_promotion_is_allowed() {
        // White Kh3, black Ka8 Pf2. White promotes the black pawn: f2-f1=R (a black rook).
        // Black's Rf1-f2 goes back over the last move but does not repeat the position
        // before it (a rook, not the pawn, would stand on f2): legal, as in Popeye (the
        // moving kinds differ). Control: after Black's Ka8-b8, White's Kb8-a8 is the exact
        // reversal, forbidden.
        let mut g = game_from_fen("k7/8/8/8/8/7K/5p2/8 w - - 0 1", &["all-in-chess"]).unwrap();
        play(&mut g, "f2", "f1", Some(crate::walk::ROOK));
        let t = texts(&mut g);
        assert!(t.contains(&"Rf1-f2".to_string()), "{t:?}");
        g.unmake();
        play(&mut g, "h3", "g3", None);
        play(&mut g, "a8", "b8", None);
        let t = texts(&mut g);
        assert!(!t.contains(&"Kb8-a8".to_string()), "{t:?}");
        assert!(t.contains(&"Kb8-c8".to_string()), "{t:?}");
    }

    #[test]
    fn reversal_that_drops_en_passant_rights_is_allowed() {
        // White Kh1 Pd2, black Ka8 Pe4. After 1.d2-d4 (Black may take e.p. on d3) Black
        // moves the white king h1-g1; White's Kg1-h1 reverses it, but the position before
        // Black's move had the e.p. right, which is gone now: no repetition, legal (Popeye:
        // en passant modified). Control: after 1.d2-d3 Kh1-g1, Kg1-h1 is forbidden.
        let fen = "k7/8/8/8/4p3/8/3P4/7K w - - 0 1";
        let mut g = game_from_fen(fen, &["all-in-chess"]).unwrap();
        play(&mut g, "d2", "d4", None);
        play(&mut g, "h1", "g1", None);
        let t = texts(&mut g);
        assert!(t.contains(&"Kg1-h1".to_string()), "{t:?}");
        let mut g = game_from_fen(fen, &["all-in-chess"]).unwrap();
        play(&mut g, "d2", "d3", None);
        play(&mut g, "h1", "g1", None);
        let t = texts(&mut g);
        assert!(!t.contains(&"Kg1-h1".to_string()), "{t:?}");
        assert!(t.contains(&"Kg1-f1".to_string()), "{t:?}");
    }

    #[test]
    fn refused_with_movement_restrictions() {
        // Ultra-Patrouille would judge the opponent's units by the mover's observers.
        assert!(game_from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", &["all-in-chess", "ultrapatrol"]).is_err());
    }

    #[test]
    fn moving_the_opponents_units() {
        // White Kh1 Pb7, black Ka6 Pf2 Rc8 (Popeye record all-in-chess 5): White may move
        // the black pawn f2 to f1 and promote it (black) to B or S (Q and R would check
        // White's own king h1), and the black king and rook.
        let mut g = game_from_fen("2r5/1P6/k7/8/8/8/5p2/7K w - - 0 1", &["all-in-chess"]).unwrap();
        let t = texts(&mut g);
        for x in ["f2-f1=B", "f2-f1=S", "Ka6*b7", "Rc8-c2", "b7*c8=Q +"] {
            assert!(t.contains(&x.to_string()), "{x} {t:?}");
        }
        assert!(!t.contains(&"f2-f1=Q".to_string()));
    }
}
