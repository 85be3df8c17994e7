//! Anti-Andernach (Popeye `AntiAndernachChess`): after a move that captures nothing, the
//! moved unit (not a king, nor a royal unit of another kind, as in Popeye) takes the colour of the side that did not move (a neutral unit
//! moved by White becomes black, by Black white). Captures change nothing. A rook that
//! turns white on a1/h1 (black on a8/h8) gains the castling right of its corner, so the
//! side may castle with it if its king still has its right.
//!
//! Decision (Popeye's output): castling is a king move; the rook of a castling keeps its
//! colour.

use crate::position::ROYAL;
use crate::rules::{Capabilities, Condition, Note, Play, Reject, Slot};
use crate::walk::KING;

#[derive(Clone, Debug, Default)]
pub struct AntiAndernach;

impl Condition for AntiAndernach {
    fn name(&self) -> String {
        "AntiAndernachChess".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { slots: vec![Slot::AfterMove], ..Capabilities::default() }
    }
    fn after_move(&self, play: &mut Play) -> Result<(), Reject> {
        if play.mv.capture.is_some() || play.mv.castle.is_some() {
            return Ok(());
        }
        let to = play.mv.to;
        let Some(u) = play.pos.unit(to) else { return Ok(()) };
        let colour = play.mover.opponent();
        if u.kind() == KING || u.has(ROYAL) || u.colour() == colour {
            return Ok(());
        }
        play.pos.remove(to);
        let turned = u.with_colour(colour);
        play.pos.add(to, turned);
        play.regain_rights(to, turned);
        play.note(Note::Recoloured { sq: to, unit: u, colour });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;
    use crate::notation::move_with_check;

    fn moves(fen: &str) -> Vec<String> {
        crate::testing::move_texts(fen, &["anti-andernach"])
    }

    #[test]
    fn a_rook_turned_white_on_its_corner_may_castle() {
        // Black Ra2 to a1 becomes a white rook on a1; the white king on e1 kept its right
        // (the FEN grants it), so White may then castle queenside.
        let mut g = game_from_fen("4k3/8/8/8/8/8/r7/4K3 b Q - 0 1", &["anti-andernach"]).unwrap();
        assert_eq!(g.pos.rights() & crate::position::W_QUEENSIDE, 0);
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let m = v.iter().find(|m| m.to.to_string() == "a1").copied().unwrap();
        g.make(&m).unwrap();
        let mut w = Vec::new();
        g.legal_moves(&mut w);
        assert!(w.iter().any(|m| m.castle.is_some()));
    }

    #[test]
    fn quiet_moves_change_colour_captures_do_not() {
        // White Rd1: quiet moves turn it black (=b); the capture on d8 keeps it white.
        // The white king never changes colour.
        let m = moves("3r3k/8/8/8/8/8/8/K2R4 w - - 0 1");
        assert!(m.contains(&"Rd1-d5=b".to_string()));
        assert!(m.contains(&"Rd1*d8 +".to_string()), "{m:?}");
        assert!(m.contains(&"Ka1-b1".to_string()));
    }

    #[test]
    fn a_unit_turned_black_may_not_check_its_former_king() {
        // White Ke1 Rd4, black Ka8. Every quiet rook move turns it black, so self-check is
        // judged with a black rook on the arrival square: Rd4-e4 (e-file onto e1) and
        // Rd4-d1 (rank 1, next to e1) are illegal. The others: d2, d3, d5-d8 and a4-c4,
        // f4-h4 (=b each, none attacking e1 or giving check: the rook is black); the king's
        // five moves, none onto a square the black rook then attacks.
        let m = moves("k7/8/8/8/3R4/8/8/4K3 w - - 0 1");
        let mut expected: Vec<String> = ["d2", "d3", "d5", "d6", "d7", "d8", "a4", "b4", "c4", "f4", "g4", "h4"]
            .iter()
            .map(|s| format!("Rd4-{s}=b"))
            .collect();
        expected.extend(["Ke1-d1", "Ke1-d2", "Ke1-e2", "Ke1-f1", "Ke1-f2"].map(String::from));
        expected.sort();
        assert_eq!(m, expected);
    }

    #[test]
    fn a_neutral_unit_takes_the_colour_of_the_side_that_did_not_move_it() {
        // Spec: a neutral unit moved by White becomes black, by Black white (Popeye leaves
        // neutral units neutral: the spec wins). Neutral rook d4, white Ke1, black Ka8.
        use crate::position::Unit;
        use crate::walk::ROOK;
        use chimere_core::{Colour, Square};
        let mut g = game_from_fen("k7/8/8/8/8/8/8/4K3 w - - 0 1", &["anti-andernach"]).unwrap();
        g.pos.setup_put(Square::parse("d4").unwrap(), Unit::new(Colour::Shared, ROOK));
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let t: Vec<String> = v.iter().filter_map(|m| move_with_check(&mut g, m)).collect();
        // The neutral rook attacks d1 (Ke1-d1 illegal) and, turned black on e4, would check
        // e1 (illegal); on d5 it is a black rook.
        assert!(t.contains(&"nRd4-d5=b".to_string()), "{t:?}");
        assert!(!t.iter().any(|m| m.starts_with("nRd4-e4") || m == "Ke1-d1"), "{t:?}");
        let m = *v.iter().find(|m| m.to == Square::parse("d5").unwrap()).unwrap();
        g.make(&m).unwrap();
        assert_eq!(g.pos.unit(Square::parse("d5").unwrap()), Some(Unit::new(Colour::Black, ROOK)));
        // Black to move: the same with a neutral rook moved by Black turns it white.
        let mut g = game_from_fen("k7/8/8/8/8/8/8/4K3 b - - 0 1", &["anti-andernach"]).unwrap();
        g.pos.setup_put(Square::parse("d4").unwrap(), Unit::new(Colour::Shared, ROOK));
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let m = *v.iter().find(|m| m.to == Square::parse("d5").unwrap()).unwrap();
        assert_eq!(move_with_check(&mut g, &m).unwrap(), "nRd4-d5=w");
    }

    #[test]
    fn a_royal_unit_keeps_its_colour() {
        // A royal queen (Popeye's Royal attribute) on e1 is White's king: its quiet moves
        // do not change its colour (Popeye tests the Royal flag), so e.g. rQe1-e2 stays
        // white; a plain queen would turn black.
        use crate::position::ROYAL;
        use chimere_core::Square;
        let mut g = game_from_fen("k7/8/8/8/8/8/8/4Q3 w - - 0 1", &["anti-andernach"]).unwrap();
        g.pos.setup_attrs(Square::parse("e1").unwrap(), ROYAL);
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let t: Vec<String> = v.iter().filter_map(|m| move_with_check(&mut g, m)).collect();
        assert!(t.contains(&"rQe1-e2".to_string()), "{t:?}");
        assert!(!t.iter().any(|m| m.contains("=b")), "{t:?}");
    }
}
