//! Glasgow chess: pawns promote on reaching their 7th rank (White rank 7, Black rank 2)
//! instead of the last rank. A pawn already standing on its 7th rank moves on to the last
//! rank without promoting (and is then immobile), as Popeye has it.
//!
//! Decision (with Circe): the 7th rank is THE promotion rank, also for a reborn pawn: a
//! pawn reborn on its 7th rank (Mirror Circe: a white pawn goes to the 7th rank) promotes
//! there at once, the capturer choosing the kind (as Popeye does for Glasgow + mirror
//! Circe); a pawn reborn on its last rank (Couscous) does not promote and stays there,
//! immobile. Circe reads the promotion rank from the rule set, so nothing here is
//! Circe-specific.

use crate::rules::{Capabilities, Condition};

#[derive(Clone, Debug, Default)]
pub struct Glasgow;

impl Condition for Glasgow {
    fn name(&self) -> String {
        "GlasgowChess".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { promotion_rank: Some(6), ..Capabilities::default() }
    }
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;
    use crate::notation::move_with_check;

    #[test]
    fn promotion_on_the_seventh() {
        // White b6-b7 promotes (four kinds); black c3-c2 promotes too.
        let mut g = game_from_fen("7k/8/1P6/8/8/2p5/8/K7 w - - 0 1", &["glasgow"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let t: Vec<String> = v.iter().filter_map(|m| move_with_check(&mut g, m)).collect();
        for k in ["Q", "S", "R", "B"] {
            assert!(t.contains(&format!("b6-b7={k}")), "{t:?}");
        }
        assert!(!t.contains(&"b6-b7".to_string()));
    }

    fn captures(fen: &str, c: &[&str]) -> Vec<String> {
        let mut g = game_from_fen(fen, c).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut t: Vec<String> =
            v.iter().filter_map(|m| move_with_check(&mut g, m)).filter(|m| m.contains('*')).collect();
        t.sort();
        t
    }

    #[test]
    fn a_pawn_reborn_on_its_seventh_rank_promotes() {
        // Black Bg1 takes the white pawn d4 (white Ke1, black Ka8). Mirror Circe: the white
        // pawn is reborn on d7, White's 7th rank = the Glasgow promotion rank: it promotes
        // (four alternatives; no promoted piece on d7 checks a8). Plain Circe: reborn on d2,
        // no promotion.
        let fen = "k7/8/8/8/3P4/8/8/4K1b1 b - - 0 1";
        assert_eq!(
            captures(fen, &["glasgow", "circe malefique"]),
            vec!["Bg1*d4[+wPd7=B]", "Bg1*d4[+wPd7=Q]", "Bg1*d4[+wPd7=R]", "Bg1*d4[+wPd7=S]"]
        );
        assert_eq!(captures(fen, &["glasgow", "circe"]), vec!["Bg1*d4[+wPd2]"]);
    }

    #[test]
    fn a_pawn_reborn_on_its_last_rank_does_not_promote() {
        // White Rd1 Ke2 takes the black pawn d5 (light square): Circe couscous rebirths it on
        // the white rook's light home square h1, Black's last rank, which is not a promotion
        // rank under Glasgow: it stays a pawn (plain couscous would promote it).
        let fen = "k7/8/8/3p4/8/8/4K3/3R4 w - - 0 1";
        assert_eq!(captures(fen, &["glasgow", "circe couscous"]), vec!["Rd1*d5[+bPh1]"]);
    }

    /// A fairy piece's Circe square is the promotion square of the capture file: under
    /// Glasgow the 7th rank (Popeye 4.104 reborns a white zebra taken on g2 on g7).
    #[test]
    fn a_fairy_piece_is_reborn_on_the_glasgow_promotion_rank() {
        use crate::position::{Position, Unit};
        use crate::{Game, Move, RuleSet};
        use chimere_core::{Colour, Square};
        let reborn = |conds: &[&str]| {
            // White Rd1 Ke2 takes a black nightrider on d5; Black Ka8.
            let mut pos: Position = crate::position_from_fen("k7/8/8/8/8/8/4K3/3R4 w - - 0 1").expect("fen");
            pos.setup_put(Square::from_coords(3, 4), Unit::new(Colour::Black, crate::walk::NIGHTRIDER));
            let mut rules = Vec::new();
            for c in conds {
                rules.extend(crate::conditions::by_name(c).expect("condition"));
            }
            let mut g = Game::new(RuleSet::build(rules, &[]).expect("rules"), pos);
            let mut v: Vec<Move> = Vec::new();
            g.legal_moves(&mut v);
            v.iter().filter(|m| m.capture.is_some()).filter_map(|m| move_with_check(&mut g, m)).collect::<Vec<_>>()
        };
        assert_eq!(reborn(&["circe"]), vec!["Rd1*d5[+bNd1]"]);
        assert_eq!(reborn(&["glasgow", "circe"]), vec!["Rd1*d5[+bNd2]"]);
    }
}
