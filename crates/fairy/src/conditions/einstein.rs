//! Einstein chess: after a move that captures nothing the moved unit steps down
//! (queen → rook → bishop → knight → pawn; a pawn stays a pawn); after a capture it steps
//! up (pawn → knight → bishop → rook → queen; a queen stays a queen). Kings never change.
//! Pawn exceptions: a pawn on its own first rank may advance one, two or three squares;
//! pawns never promote (a pawn reaching the last rank stays there, immobile). A pawn that
//! advanced three squares may be taken en passant on either square it passed (as in
//! Popeye; the engine's en passant handles any multi-square step).
//!
//! A unit that becomes a rook on its side's corner (a queen stepping down to a1/h1, a
//! bishop capturing there) gains the castling right of that corner, as Popeye has it
//! (the spec is silent; Anti-Andernach's rule for rooks changing colour is the model).
//!
//! Decisions: fairy units keep their kind (the seed's "or becomes a fairy piece" is left
//! open); the rook of a castling is a moved unit and steps down like any other (Popeye's
//! `0-0=B`); the unit considered is the one standing on the arrival square, and conditions
//! that move or remove the capturer (Anticirce, Kamikaze...) are refused. With Circe
//! variants that may put a reborn pawn on its last rank (Couscous...), the pawn stays a
//! pawn there (no promotion; the rule set's promotion rank is off the board and Circe
//! follows it), immobile. Conditions that keep pawns immobile on their first rank (Super,
//! Antipodes, Symmetry, Equipollents Circe) contradict the three-square step and are
//! refused.

use crate::rules::{Capabilities, Condition, Note, Play, Reject, RuleSet, RulesError, Slot};
use crate::walk::{BISHOP, KNIGHT, PAWN, QUEEN, ROOK};
use chimere_core::{Kind, Square};

#[derive(Clone, Debug, Default)]
pub struct Einstein;

fn down(k: Kind) -> Kind {
    match k {
        QUEEN => ROOK,
        ROOK => BISHOP,
        BISHOP => KNIGHT,
        KNIGHT => PAWN,
        k => k,
    }
}

fn up(k: Kind) -> Kind {
    match k {
        PAWN => KNIGHT,
        KNIGHT => BISHOP,
        BISHOP => ROOK,
        ROOK => QUEEN,
        k => k,
    }
}

fn change(play: &mut Play, sq: Square, f: fn(Kind) -> Kind) {
    let Some(u) = play.pos.unit(sq) else { return };
    let kind = f(u.kind());
    if kind == u.kind() {
        return;
    }
    play.pos.remove(sq);
    let changed = u.with_kind(kind);
    play.pos.add(sq, changed);
    play.regain_rights(sq, changed);
    play.note(Note::Rekinded { sq, unit: u, kind });
}

impl Condition for Einstein {
    fn name(&self) -> String {
        "EinsteinChess".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            slots: vec![Slot::AfterMove],
            promotion_rank: Some(8),
            pawn_first_rank_steps: Some(3),
            ..Capabilities::default()
        }
    }
    fn check_combination(&self, rules: &RuleSet) -> Result<(), RulesError> {
        if rules.uses_slot(Slot::CapturerRebirth) || rules.uses_slot(Slot::CapturerVanishes) {
            return Err(RulesError(format!(
                "{} cannot be combined with conditions that take the capturing unit off its arrival square",
                self.name()
            )));
        }
        if rules.pawn_first_rank_immobile {
            return Err(RulesError(format!(
                "{} (pawns advance up to three squares from their first rank) contradicts a condition that keeps pawns immobile on their first rank",
                self.name()
            )));
        }
        Ok(())
    }
    fn after_move(&self, play: &mut Play) -> Result<(), Reject> {
        let f = if play.mv.capture.is_some() { up } else { down };
        change(play, play.mv.to, f);
        if let Some((_, rook_to)) = play.mv.castle {
            change(play, rook_to, f);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;
    use crate::notation::move_with_check;

    fn moves(fen: &str) -> Vec<String> {
        crate::testing::move_texts(fen, &["einstein"])
    }

    /// Einstein + Circe: the capturer's change of kind is written right after the move,
    /// before the rebirth bracket (Popeye's order): c2*b3 turns the pawn into a knight, the
    /// black rook taken on b3 (light) is reborn on a8.
    #[test]
    fn change_of_kind_is_written_before_the_rebirth() {
        let m = crate::testing::move_texts("8/7k/8/8/8/1r6/2P5/7K w - - 0 1", &["einstein", "circe"]);
        assert!(m.contains(&"c2*b3=S[+bRa8]".to_string()), "{m:?}");
    }

    #[test]
    fn pawns_first_rank_three_steps_and_no_promotion() {
        // White a1 pawn: a2, a3, a4 (three steps from the first rank). White g7 pawn:
        // g7-g8 stays a pawn (no promotion). King h1: three moves. Black king a8 far away.
        let m = moves("k7/6P1/8/8/8/8/8/P6K w - - 0 1");
        assert_eq!(m, vec!["Kh1-g1", "Kh1-g2", "Kh1-h2", "a1-a2", "a1-a3", "a1-a4", "g7-g8"]);
    }

    #[test]
    fn a_pawn_capturing_on_the_last_rank_becomes_a_knight() {
        // g7*h8: a capture, so the pawn becomes a knight (it never promotes).
        let m = moves("k6r/6P1/8/8/8/8/8/K7 w - - 0 1");
        assert!(m.contains(&"g7*h8=S".to_string()), "{m:?}");
        assert!(m.contains(&"g7-g8".to_string()));
    }

    #[test]
    fn three_steps_en_passant_on_both_squares() {
        // a1-a4 passes a2 and a3: the black pawn b4 takes on a3, the black pawn b3 on a2,
        // both removing the pawn from a4 (and, capturing, becoming knights).
        let mut g = game_from_fen("k7/8/8/8/1p6/1p6/8/P6K w - - 0 1", &["einstein"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let m = *v.iter().find(|m| m.to.to_string() == "a4").unwrap();
        g.make(&m).unwrap();
        let mut w = Vec::new();
        g.legal_moves(&mut w);
        let t: Vec<String> = w.iter().filter_map(|m| move_with_check(&mut g, m)).collect();
        assert!(t.contains(&"b4*a3 ep.=S".to_string()), "{t:?}");
        assert!(t.contains(&"b3*a2 ep.=S".to_string()), "{t:?}");
    }

    #[test]
    fn a_pawn_reborn_on_its_last_rank_stays_a_pawn() {
        // White Rd1 Ke2, black Ka8 Pd5, Einstein + Circe couscous: Rd1*d5 rebirths the black
        // pawn on the white rook's square of the capture square's colour (d5 light: h1),
        // Black's last rank. Plain couscous promotes it there (four moves); Einstein has no
        // promotion, so there is one move: the pawn stays a pawn on h1, and the rook,
        // having captured, becomes a queen that checks a8 along the long diagonal.
        let fen = "k7/8/8/3p4/8/8/4K3/3R4 w - - 0 1";
        let captures = |c: &[&str]| {
            let mut g = game_from_fen(fen, c).unwrap();
            let mut v = Vec::new();
            g.legal_moves(&mut v);
            let mut t: Vec<String> =
                v.iter().filter_map(|m| move_with_check(&mut g, m)).filter(|m| m.contains('*')).collect();
            t.sort();
            t
        };
        assert_eq!(captures(&["einstein", "circe couscous"]), vec!["Rd1*d5=Q[+bPh1] +"]);
        assert_eq!(captures(&["circe couscous"]).len(), 4);
        // The reborn pawn on h1 is immobile: after 1.Rd1*d5 Black has king moves only.
        let mut g = game_from_fen(fen, &["einstein", "circe couscous"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let m = *v.iter().find(|m| m.capture.is_some()).unwrap();
        g.make(&m).unwrap();
        let mut w = Vec::new();
        g.legal_moves(&mut w);
        assert!(w.iter().all(|m| m.from.to_string() == "a8"), "{w:?}");
    }

    #[test]
    fn first_rank_pawns_immobile_under_circe_variants_refused() {
        // Super-Circe (and Antipodes, Symmetry, Equipollents Circe) keep pawns immobile on
        // their first rank; Einstein lets them advance three squares: contradictory.
        for c in ["super circe", "circe antipodes", "circe symetrique", "circe equipollents"] {
            let e = game_from_fen("k7/8/8/8/8/8/8/K7 w - - 0 1", &["einstein", c]).unwrap_err();
            assert!(e.contains("first rank"), "{c}: {e}");
        }
        assert!(game_from_fen("k7/8/8/8/8/8/8/K7 w - - 0 1", &["einstein", "circe"]).is_ok());
    }

    #[test]
    fn a_queen_stepping_down_to_a_rook_on_h1_gives_castling() {
        // White Ke1 (with its right) Qd5, black Ka7. Qd5-h1 captures nothing: the queen
        // becomes a rook on h1, White's kingside corner, which gains the h1 right (as in
        // Popeye). After Ka7-b8, White may castle 0-0 (f1, g1 empty; e1, f1, g1 not
        // attacked), and the castling rook steps down to a bishop (0-0=B).
        let mut g = game_from_fen("8/k7/8/3Q4/8/8/8/4K3 w K - 0 1", &["einstein"]).unwrap();
        assert_eq!(g.pos.rights() & crate::position::W_KINGSIDE, 0);
        let play = |g: &mut crate::Game, text: &str| {
            let mut v = Vec::new();
            g.legal_moves(&mut v);
            let m = *v.iter().find(|m| move_with_check(g, m).as_deref() == Some(text)).expect(text);
            g.make(&m).unwrap();
        };
        play(&mut g, "Qd5-h1=R");
        assert_ne!(g.pos.rights() & crate::position::W_KINGSIDE, 0);
        play(&mut g, "Ka7-b8");
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let t: Vec<String> = v.iter().filter_map(|m| move_with_check(&mut g, m)).collect();
        assert!(t.contains(&"0-0=B".to_string()), "{t:?}");
    }
}
