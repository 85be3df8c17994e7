//! Qui perd gagne (Losing ctx, Popeye `LosingChess`): capturing is compulsory (any
//! capture may be chosen); the king is an ordinary unit (no check, it may be captured);
//! pawns may also promote to king. In studies a side that cannot move wins.
//!
//! Castling: the spec says the king cannot castle, and the spec wins. Popeye's LosingChess
//! (our oracle) lets a king castle when no capture is available: record 1 of
//! `no-check-losing` is listed as a known deviation in the Popeye oracle test.
//!
//! Game status: nothing is check, so there is no mate; a side to move that cannot move
//! (stalemated, or with no unit left) WINS.

use crate::moves::Move;
use crate::rules::{Capabilities, Condition, Ctx};
use chimere_core::Status;

#[derive(Clone, Debug, Default)]
pub struct Losing;

impl Condition for Losing {
    fn name(&self) -> String {
        "Losing ctx".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { kings_ordinary: true, must_capture: true, castling_off: true, ..Capabilities::default() }
    }
    fn status(&self, ctx: &mut Ctx, legal: &[Move]) -> Option<Status> {
        Some(if legal.is_empty() { Status::win_for(ctx.pos().side()) } else { Status::Ongoing })
    }
}

#[cfg(test)]
mod tests {
    use crate::conditions::registry::by_name;
    use crate::rules::RuleSet;

    #[test]
    fn builds_by_name() {
        for n in ["qui perd gagne", "losing game", "LosingChess"] {
            let c = by_name(n).unwrap_or_else(|e| panic!("{n}: {e}"));
            let r = RuleSet::build(c, &[]).unwrap();
            assert!(r.must_capture && r.kings_ordinary);
        }
    }

    /// White Ke1 Rh1 Pe2 Sf3, black Ke8 Sb8 Pd7 Bc5: no capture is available, so every
    /// move counts, the king may step into attack (f2, attacked by c5), but it cannot
    /// castle (the spec: the king is an ordinary unit).
    #[test]
    fn no_castling_king_may_walk_into_attack() {
        let mut g = crate::game_from_fen("1n2k3/3p4/8/2b5/8/5N2/4P3/4K2R w K - 0 1", &["losing game"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        assert!(v.iter().all(|m| m.castle.is_none()));
        assert!(v.iter().any(|m| m.from.to_string() == "e1" && m.to.to_string() == "f2"));
        assert!(v.iter().all(|m| m.capture.is_none()));
        assert_eq!(v.len(), 4 + 9 + 2 + 7, "king d1 d2 f1 f2, rook f1 g1 h2-h8, e3 e4, knight d2 d4 e5 g1 g5 h2 h4");
    }

    #[test]
    fn a_side_that_cannot_move_wins() {
        use chimere_core::Status;
        // Black to move: his pawn a7 is blocked by the white pawn a6, no capture, no other
        // unit: Black cannot move and wins.
        let mut g = crate::game_from_fen("8/p7/P7/8/8/8/8/7K b - - 0 1", &["losing game"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        assert!(v.is_empty());
        assert_eq!(g.status(&v), Status::BlackWins);
        // A side with no unit left cannot move: it wins too.
        let mut g = crate::game_from_fen("8/8/8/8/8/8/8/7K b - - 0 1", &["losing game"]).unwrap();
        assert_eq!(g.status(&[]), Status::BlackWins);
        // Kings are ordinary: a king "attacked" with no move left is no mate.
        let mut g = crate::game_from_fen("k7/P7/1K6/8/8/8/8/8 b - - 0 1", &["losing game"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        // a7 is protected by Kb6, but kings are ordinary: Ka8*a7 is legal and, being the
        // only capture, compulsory.
        assert_eq!(v.len(), 1);
        assert_eq!(g.status(&v), Status::Ongoing);
    }
}
