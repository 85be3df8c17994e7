//! Trou / Hole (Popeye `Hole <squares>`, e.g. `Hole d4e5`): the given squares are holes. No
//! unit may stand on, move to or pass over them: riders stop before them, hoppers cannot
//! hop over them nor cross them on the way to their hurdle, pawns cannot step two squares
//! over them, castling cannot cross them, and no rebirth lands on them (a Circe rebirth
//! there is as on an occupied square; an Anticirce capture is illegal). Leapers (knight,
//! king) jump as usual, to squares that are not holes.
//!
//! The engine capability is the holes bitboard of [`crate::Position`] (shared with Haan);
//! this condition puts the holes in when the game starts. Decision: a unit standing on a
//! given square in the start position fills it: that square is not a hole (no unit may stand
//! on a hole, so the position names an ordinary square there; Popeye too replaces the hole
//! by a unit placed on it).

use crate::position::Position;
use crate::rules::Condition;
use chimere_core::Square;

#[derive(Clone, Debug, Default)]
pub struct Hole {
    pub squares: Vec<Square>,
}

impl Hole {
    /// From square lists such as `d4e5` or `d4 e5`.
    pub fn parse(words: &[&str]) -> Option<Hole> {
        let mut squares = Vec::new();
        for w in words {
            let b = w.as_bytes();
            if b.is_empty() || b.len() % 2 != 0 {
                return None;
            }
            for c in b.chunks(2) {
                squares.push(Square::parse(std::str::from_utf8(c).ok()?)?);
            }
        }
        (!squares.is_empty()).then_some(Hole { squares })
    }
}

impl Condition for Hole {
    fn name(&self) -> String {
        let s: Vec<String> = self.squares.iter().map(|s| s.to_string()).collect();
        format!("Hole {}", s.join(""))
    }
    fn setup(&self, pos: &mut Position) {
        for &s in &self.squares {
            if pos.unit(s).is_none() {
                pos.setup_hole(s);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;

    fn moves(fen: &str, cond: &str) -> Vec<String> {
        crate::testing::move_squares(fen, &[cond])
    }

    use crate::testing::PlayCaptures;

    /// The attack tables with holes give the same check as playing the captures.
    #[test]
    fn attack_tables_agree_with_played_captures() {
        let fen = "r3k2r/pp1n1ppp/2b5/2pPp3/1q6/2N2N2/PPP1QPPP/R3K2R w KQkq e6 0 1";
        for name in ["hole d4e5c4", "haan"] {
            let fast = crate::RuleSet::build(crate::conditions::by_name(name).unwrap(), &[]).unwrap();
            let mut conds = crate::conditions::by_name(name).unwrap();
            conds.push(std::sync::Arc::new(PlayCaptures));
            let slow = crate::RuleSet::build(conds, &[]).unwrap();
            let pos = crate::position_from_fen(fen).unwrap();
            let a = crate::Game::new(fast, pos.clone()).perft(3);
            let b = crate::Game::new(slow, pos).perft(3);
            assert_eq!(a, b, "{name}");
        }
    }

    #[test]
    fn names() {
        use crate::conditions::by_name;
        for n in [
            "Trou d4e5",
            "hole d4 e5",
            "Trou - Hole d4",
            "monochromatique",
            "MonochromChess",
            "Bichromatique",
            "BichromChess",
            "Ultra-Patrouille",
            "UltraPatrol",
            "central",
            "CentralChess",
            "Eiffel",
            "EiffelChess",
            "Haan",
            "HaanerChess",
        ] {
            let c = by_name(n).unwrap_or_else(|e| panic!("{n}: {e}"));
            crate::RuleSet::build(c, &[]).unwrap_or_else(|e| panic!("{n}: {e}"));
        }
        assert!(by_name("hole").is_err());
        assert!(by_name("hole z9").is_err());
        // Restrictions of mobility do not combine with a check rule of another condition.
        let mut c = by_name("eiffel").unwrap();
        c.extend(by_name("bicolores").unwrap());
        assert!(crate::RuleSet::build(c, &[]).is_err());
    }

    #[test]
    fn holes_stop_lines_and_steps() {
        // White Ra4 (the rank stops before d4), Pd2 (d3 only: d4 is a hole), Sb3 (not to
        // d4), Ka1; Black Kh4 is not checked along the 4th rank.
        let m = moves("8/8/8/8/R6k/1N6/3P4/K7 w - - 0 1", "hole d4");
        assert!(m.contains(&"a4c4".to_string()));
        assert!(!m.contains(&"a4e4".to_string()));
        assert!(!m.contains(&"a4d4".to_string()));
        assert!(m.contains(&"d2d3".to_string()));
        assert!(!m.contains(&"b3d4".to_string()));
        assert!(m.contains(&"b3c5".to_string()));
        let mut g = game_from_fen("8/8/8/8/R6k/1N6/3P4/K7 b - - 0 1", &["hole d4"]).unwrap();
        assert!(!g.in_check(chimere_core::Colour::Black));
        // Double step over a hole: d2-d4 impossible with d3 a hole.
        let m = moves("8/8/8/8/7k/8/3P4/K7 w - - 0 1", "hole d3");
        assert!(!m.iter().any(|x| x.starts_with("d2")));
    }

    #[test]
    fn castling_cannot_cross_holes() {
        // Ke1 Ra1 Rh1 (both rights). A hole on b1 (crossed only by the rook) stops 0-0-0;
        // on f1 or g1 it stops 0-0; a hole elsewhere stops nothing.
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let castles = |h: &str| {
            let mut c: Vec<String> = moves(fen, h).into_iter().filter(|m| m == "e1g1" || m == "e1c1").collect();
            c.sort();
            c
        };
        assert_eq!(castles("hole b1"), ["e1g1"]);
        assert_eq!(castles("hole d1"), ["e1g1"]);
        assert_eq!(castles("hole f1"), ["e1c1"]);
        assert_eq!(castles("hole g1"), ["e1c1"]);
        assert_eq!(castles("hole e3"), ["e1c1", "e1g1"]);
    }

    #[test]
    fn pawns_and_kings_black_to_move() {
        // Holes c3 d3 e2. Black Ke8 Pd4 Pb4 to move: b4-b3; d4-d3 (hole) and d4*c3 (a hole
        // is empty, nothing to capture) impossible; the king's five steps.
        let m = moves("4k3/8/8/8/1p1p4/8/2PP4/1N2K3 b - - 0 1", "hole e2d3c3");
        assert_eq!(m, ["b4b3", "e8d7", "e8d8", "e8e7", "e8f7", "e8f8"]);
        // White: Sb1-a3 (c3 a hole, d2 own); pawns c2/d2 blocked (step onto or over a
        // hole); Ke1-d1/f1/f2 (e2 a hole, d2 own).
        let m = moves("4k3/8/8/8/1p1p4/8/2PP4/1N2K3 w - - 0 1", "hole e2d3c3");
        assert_eq!(m, ["b1a3", "e1d1", "e1f1", "e1f2"]);
    }

    #[test]
    fn a_unit_on_a_hole_square_fills_it() {
        // Holes d4 e5, a white queen given on d4: d4 is an ordinary square. The queen
        // moves from it and can come back; the rook can then pass d4 (but never e5).
        let sq = |s: &str| chimere_core::Square::parse(s).unwrap();
        let mut g = game_from_fen("k7/8/8/8/3Q4/8/8/K2R4 w - - 0 1", &["hole d4e5"]).unwrap();
        assert!(!g.pos.holes().has(sq("d4")) && g.pos.holes().has(sq("e5")));
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        assert!(!v.iter().any(|m| m.from == sq("d4") && m.to == sq("e5")), "e5 stays a hole");
        let m = *v.iter().find(|m| m.from == sq("d4") && m.to == sq("c4")).unwrap();
        g.make(&m).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let m = *v.iter().find(|m| m.to == sq("b8")).unwrap();
        g.make(&m).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        assert!(v.iter().any(|m| m.from == sq("c4") && m.to == sq("d4")), "the queen comes back");
        assert!(v.iter().any(|m| m.from == sq("d1") && m.to == sq("d8")), "the rook passes d4");
    }

    #[test]
    fn circe_rebirth_on_a_hole_fails() {
        // Bb2*g7 (a dark square): the black rook's rebirth square is h8. A hole there: the
        // rook vanishes; a hole elsewhere (h7): it is reborn on h8.
        let sq = |s: &str| chimere_core::Square::parse(s).unwrap();
        for (hole, reborn) in [("hole h8", false), ("hole h7", true)] {
            let mut g = game_from_fen("k7/6r1/8/8/8/8/1B6/K7 w - - 0 1", &["circe", hole]).unwrap();
            let mut v = Vec::new();
            g.legal_moves(&mut v);
            let m = *v.iter().find(|m| m.to == sq("g7")).unwrap();
            g.make(&m).unwrap();
            assert_eq!(g.pos.unit(sq("h8")).is_some(), reborn, "{hole}");
        }
    }

    /// The fast check (attack tables with mobility and colour masks, holes stopping lines)
    /// gives the same trees as playing the opponent's captures, for every condition of
    /// this family, on varied positions with either side to move (castling, promotions,
    /// en passant, paralysis chains, support chains).
    #[test]
    fn fast_check_agrees_on_varied_positions() {
        let fens = [
            "r3k2r/3p4/5n2/4p3/1bB1P3/2N5/3P4/R3K2R w KQkq - 0 1",
            "r3k2r/3p4/5n2/4p3/1bB1P3/2N5/3P4/R3K2R b KQkq - 0 1",
            "r2b3n/1P4P1/8/8/8/k7/2p1p2K/3R4 w - - 0 1",
            "r2b3n/1P4P1/8/8/8/k7/2p1p2K/3R4 b - - 0 1",
            "4k3/5p2/8/2PpP3/8/8/8/4K3 w - d6 0 1",
            "4k3/8/8/8/2pPp3/8/5P2/4K3 b - d3 0 1",
            "k7/8/6Q1/4p1r1/3N1B2/1q6/PR1b2n1/7K w - - 0 1",
            "k7/8/6Q1/4p1r1/3N1B2/1q6/PR1b2n1/7K b - - 0 1",
            "N6k/1P6/8/p7/6B1/5R2/1n2Q3/3K3r w - - 0 1",
            "N6k/1P6/8/p7/6B1/5R2/1n2Q3/3K3r b - - 0 1",
        ];
        let names = ["monochromatique", "bichromatique", "ultra-patrouille", "central", "eiffel", "hole d4e5", "haan"];
        for name in names {
            for fen in fens {
                let fast = crate::RuleSet::build(crate::conditions::by_name(name).unwrap(), &[]).unwrap();
                let mut conds = crate::conditions::by_name(name).unwrap();
                conds.push(std::sync::Arc::new(PlayCaptures));
                let slow = crate::RuleSet::build(conds, &[]).unwrap();
                let pos = crate::position_from_fen(fen).unwrap();
                let a = crate::Game::new(fast, pos.clone()).perft(3);
                let b = crate::Game::new(slow, pos).perft(3);
                assert_eq!(a, b, "{name} {fen}");
            }
        }
    }
}
