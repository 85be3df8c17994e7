//! Rokagogo (Popeye `Rokagogo`): a king and a friendly rook may castle whenever they
//! stand on the same rank or file with at least two empty squares between them, even
//! after having moved (castling rights are ignored): the king moves two squares towards
//! the rook and the rook goes to the square the king crossed. The king's start, crossed
//! and arrival squares must not be attacked (the engine's castling test). Every castling,
//! the orthodox ones included, is written `Ke1-g1/wRh1-f1` (Popeye's notation). A hole
//! ends the line (no partner on or beyond it).
//!
//! Spec and Popeye differ: Popeye's Rokagogo (its Castling Chess filtered to rook
//! partners) looks along all eight queen lines and takes a rook of either colour at the
//! end of the line; the spec says a friendly rook on the same rank or file. The spec wins:
//! no diagonal castling, no castling with an enemy rook.

use crate::moves::{GenParams, Move};
use crate::position::Position;
use crate::rules::{Capabilities, Condition};
use crate::walk::{KING, ROOK, ROOK_DIRS};
use chimere_core::Colour;

#[derive(Clone, Debug, Default)]
pub struct Rokagogo;

impl Condition for Rokagogo {
    fn name(&self) -> String {
        "Rokagogo".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { castling_off: true, castling_long_notation: true, extra_moves: true, ..Capabilities::default() }
    }
    fn extra_moves(&self, pos: &Position, mover: Colour, gp: &GenParams, out: &mut Vec<Move>) {
        let b = pos.board();
        let mut kings = b.kind(KING) & b.colour(mover);
        if gp.any_unit {
            kings = b.kind(KING) & !b.colour(Colour::Shared);
        }
        // As for orthodox castling, the king must be free to move (paralysis, observation rules).
        for k in kings & gp.mobile {
            let side = pos.unit(k).expect("king").colour();
            for (df, dr) in ROOK_DIRS {
                let mut cur = k;
                let mut empty = 0;
                while let Some(n) = cur.offset(df, dr) {
                    match pos.unit(n) {
                        // A hole ends the line: no partner there, none beyond.
                        None if pos.is_hole(n) => break,
                        None => {
                            empty += 1;
                            cur = n;
                        }
                        Some(r) => {
                            if empty >= 2 && r.kind() == ROOK && r.colour() == side {
                                let crossed = k.offset(df, dr).expect("on board");
                                let to = crossed.offset(df, dr).expect("on board");
                                out.push(Move { castle: Some((n, crossed)), ..Move::quiet(k, to) });
                            }
                            break;
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;

    fn moves(fen: &str) -> Vec<String> {
        crate::testing::move_texts(fen, &["rokagogo"])
    }

    #[test]
    fn castling_on_files_without_rights() {
        // White Kd4 Ra4 Rh4 Rd1, black Kf8: Kd4 with Rd1 (two empty squares d3, d2): Kd4-d2/wRd1-d3;
        // Rh4 (e4, f4, g4 empty): Kd4-f4/wRh4-e4; Ra4 (c4, b4): Kd4-b4/wRa4-c4. No rights
        // are needed (the FEN gives none).
        let m = moves("5k2/8/8/8/R2K3R/8/8/3R4 w - - 0 1");
        for x in ["Kd4-d2/wRd1-d3", "Kd4-f4/wRh4-e4", "Kd4-b4/wRa4-c4"] {
            assert!(m.contains(&x.to_string()), "{x} {m:?}");
        }
        assert!(!m.iter().any(|x| x.starts_with("0-0")));
    }

    #[test]
    fn a_hole_ends_the_line() {
        // White Ke1 Rh1 Ra1, black Ke8, a hole on b1: the line e1-d1-c1-b1 ends at the
        // hole, so there is no castling Ke1-c1/wRa1-d1 (Popeye: the end of the line is a
        // blocked square, not a partner); Ke1-g1/wRh1-f1 stays. The rook a1 cannot go to
        // or over b1.
        let mut g = game_from_fen("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", &["rokagogo", "hole b1"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let m: Vec<String> = v.iter().map(|m| crate::notation::move_with_check(&mut g, m).unwrap()).collect();
        assert!(m.contains(&"Ke1-g1/wRh1-f1".to_string()), "{m:?}");
        assert!(!m.iter().any(|x| x.starts_with("Ke1-c1")), "{m:?}");
        let mut want: Vec<String> = vec!["Ke1-d1", "Ke1-d2", "Ke1-e2", "Ke1-f1", "Ke1-f2", "Ke1-g1/wRh1-f1"]
            .into_iter()
            .map(String::from)
            .collect();
        want.extend((2..=8).map(|r| format!("Ra1-a{r}{}", if r == 8 { " +" } else { "" })));
        want.extend((2..=8).map(|r| format!("Rh1-h{r}{}", if r == 8 { " +" } else { "" })));
        want.extend(["Rh1-f1".to_string(), "Rh1-g1".to_string()]);
        let mut m = m;
        m.sort();
        want.sort();
        assert_eq!(m, want);
    }
}
