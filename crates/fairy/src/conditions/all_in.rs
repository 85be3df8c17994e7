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
use crate::rules::{Capabilities, Condition, RuleSet, RulesError, Slot};
use chimere_core::Colour;

#[derive(Clone, Debug, Default)]
pub struct AllIn;

impl Condition for AllIn {
    fn name(&self) -> String {
        "All-in-Chess".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            slots: vec![Slot::Admit],
            any_unit: true,
            track_last_move: true,
            admit_quiet_only: true,
            ..Capabilities::default()
        }
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
    fn castling_the_opponents_king() {
        // White Ka1 Bc4, black Ke8 Rh8 with the black king-side right. The bishop c4 sees
        // b5, d5, e6, f7 and g8 (so not e8, f8).
        let all = |fen: &str| {
            let mut g = game_from_fen(fen, &["all-in-chess"]).unwrap();
            texts(&mut g)
        };
        let sorted = |v: &[&str]| {
            let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
            v.sort();
            v
        };
        // White to move may castle the black king (e8 and f8 unattacked) although it
        // lands on g8, attacked by the bishop: exposing the opponent's king is allowed
        // (0-0 +), as is Ke8-f7 +. White's own king a1: Ka1-a2, -b1, -b2. The bishop's
        // moves (b5 and f7 check e8). The black rook h8 down the file and to f8, g8, but
        // not to h1: that would check White's own king a1 along the first rank.
        let bishop = ["Bc4-a2", "Bc4-a6", "Bc4-b3", "Bc4-d3", "Bc4-d5", "Bc4-e2", "Bc4-e6", "Bc4-f1", "Bc4-g8"];
        let rook = ["Rh8-h2", "Rh8-h3", "Rh8-h4", "Rh8-h5", "Rh8-h6", "Rh8-h7", "Rh8-f8", "Rh8-g8"];
        let kings = ["Ka1-a2", "Ka1-b1", "Ka1-b2", "Ke8-d7", "Ke8-e7", "Ke8-d8", "Ke8-f8"];
        let mut w: Vec<&str> = [&bishop[..], &rook[..], &kings[..]].concat();
        w.extend(["Bc4-b5 +", "Bc4-f7 +", "Ke8-f7 +", "0-0 +"]);
        assert_eq!(all("4k2r/8/8/8/2B5/8/8/K7 w k - 0 1"), sorted(&w));
        // Black to move: its own king may not end attacked, so no 0-0, no Ke8-f7, and the
        // white bishop may not go to b5 or f7 (check to Black's own king); Rh8-h1 + now
        // checks the opponent: allowed.
        let mut b: Vec<&str> = [&bishop[..], &rook[..], &kings[..]].concat();
        b.push("Rh8-h1 +");
        assert_eq!(all("4k2r/8/8/8/2B5/8/8/K7 b k - 0 1"), sorted(&b));
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
