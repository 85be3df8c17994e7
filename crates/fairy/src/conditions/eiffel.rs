//! Eiffel (Popeye `EiffelChess`): a unit is paralysed (cannot move, capture or give check)
//! while it is observed by a free ENEMY unit of the kind preceding its own in the cycle
//! P -> S -> B -> R -> Q -> P: a knight by a pawn, a bishop by a knight, a rook by a
//! bishop, a queen by a rook, a pawn by a queen. Kings (and fairy kinds) are never
//! paralysed. A paralysing unit must itself be free (observation by a paralysed unit does
//! not count), which is recursive.
//!
//! Decision: the recursion is cut at depth [`MAX_DEPTH`] (a paralysis cycle needs ten
//! units alternating in colour); a unit reached that deep counts as free.

use crate::moves;
use crate::position::Position;
use crate::rules::{Capabilities, Condition};
use crate::walk::{BISHOP, KNIGHT, PAWN, QUEEN, ROOK};
use chimere_core::{Bitboard, Colour, Kind, Square};

/// Depth at which the "paralyser must be free" recursion stops.
pub const MAX_DEPTH: u32 = 10;

#[derive(Clone, Debug, Default)]
pub struct Eiffel;

/// The kind that paralyses `k`.
fn paralyser(k: Kind) -> Option<Kind> {
    match k {
        PAWN => Some(QUEEN),
        KNIGHT => Some(PAWN),
        BISHOP => Some(KNIGHT),
        ROOK => Some(BISHOP),
        QUEEN => Some(ROOK),
        _ => None,
    }
}

/// The side a unit on `sq` belongs to for the paralysis (neutral units: `side`).
fn owner(pos: &Position, sq: Square, side: Colour) -> Colour {
    match pos.unit(sq).map(|u| u.colour()) {
        Some(Colour::Shared) | None => side,
        Some(c) => c,
    }
}

/// Is the unit of `side` on `sq` paralysed?
fn paralysed(pos: &Position, sq: Square, side: Colour, depth: u32) -> bool {
    if depth >= MAX_DEPTH {
        return false;
    }
    let Some(u) = pos.unit(sq) else { return false };
    let Some(p) = paralyser(u.kind()) else { return false };
    let enemy = side.opponent();
    let candidates = pos.movable(enemy) & pos.board().kind(p);
    for e in candidates {
        if moves::attacked_from(pos, enemy, sq, false, Bitboard::from_square(e))
            && !paralysed(pos, e, owner(pos, e, enemy), depth + 1)
        {
            return true;
        }
    }
    false
}

impl Condition for Eiffel {
    fn name(&self) -> String {
        "EiffelChess".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { mobility: true, ..Capabilities::default() }
    }
    fn mobile_units(&self, pos: &Position, side: Colour) -> Bitboard {
        let mut m = Bitboard::EMPTY;
        for s in pos.movable(side) {
            if !paralysed(pos, s, side, 0) {
                m.set(s);
            }
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;

    fn moves(fen: &str, conds: &[&str]) -> Vec<String> {
        let mut g = game_from_fen(fen, conds).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut s: Vec<String> = v.iter().map(|m| format!("{}{}", m.from, m.to)).collect();
        s.sort();
        s
    }
    use chimere_core::Colour;

    #[test]
    fn paralysed_units_neither_move_nor_check() {
        // White Ke1 Qd1; Black Ke8 Rd8 (paralyses the queen on the d-file) and Sc3.
        // The queen cannot move and does not check; but the black rook is itself
        // paralysed by no white bishop, so it is free.
        let mut g = game_from_fen("3rk3/8/8/8/8/2n5/8/3QK3 w - - 0 1", &["eiffel"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        assert!(!v.iter().any(|m| m.from.to_string() == "d1"));
        // A free paralyser: a white bishop on a5 paralyses the rook d8, freeing the queen.
        let mut g = game_from_fen("3rk3/8/8/B7/8/2n5/8/3QK3 w - - 0 1", &["eiffel"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        assert!(v.iter().any(|m| m.from.to_string() == "d1"));
        // A paralysed queen gives no check: Black Ke8, White Qe1 on the file, Black Re4?
        // (the rook on the line blocks); use a rook on h1 paralysing a queen h4 that
        // "attacks" e7... keep it simple: Qa4 checks e8 unless paralysed by Ra1.
        let mut g = game_from_fen("4k3/8/8/8/Q7/8/8/r3K3 b - - 0 1", &["eiffel"]).unwrap();
        assert!(!g.in_check(Colour::Black));
        let mut g = game_from_fen("4k3/8/8/8/Q7/8/8/4K3 b - - 0 1", &["eiffel"]).unwrap();
        assert!(g.in_check(Colour::Black));
    }

    use crate::testing::PlayCaptures;

    /// The mobility mask in the attack tables gives the same check as playing the
    /// opponent's captures (Eiffel, Ultra-Patrouille, Central).
    #[test]
    fn mobility_mask_agrees_with_played_captures() {
        let fen = "r3k2r/pp1n1ppp/2b5/2pPp3/1q6/2N2N2/PPP1QPPP/R3K2R w KQkq e6 0 1";
        for name in ["eiffel", "ultra-patrouille", "central"] {
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
    fn paralysers_must_be_free() {
        // Popeye oracle eiffel:1 (White Kh1 Sd4 Bf4 Rb2 Qg6 Pa2, Black Ka8 Pe5 Sg2 Bd2 Rg5
        // Qb3). The queen b3 would paralyse the pawn a2, but the free rook b2 paralyses
        // the queen, so (spec: paralysers must be free) the pawn moves: a2-a3, a2-a4,
        // a2*b3. Popeye paralyses by geometry only and lists no pawn move: a known deviation.
        let mut g = game_from_fen("k7/8/6Q1/4p1r1/3N1B2/1q6/PR1b2n1/7K w - - 0 1", &["eiffel"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut s: Vec<String> = v.iter().map(|m| format!("{}{}", m.from, m.to)).collect();
        s.sort();
        // Sd4 (pawn e5), Bf4 (knight g2), Qg6 (rook g5) are paralysed; Rb2 is free.
        let expected = ["a2a3", "a2a4", "a2b3", "b2b1", "b2b3", "b2c2", "b2d2", "h1g1", "h1g2", "h1h2"];
        assert_eq!(s, expected);
    }

    #[test]
    fn black_to_move_unpins_by_paralysis() {
        // Popeye record eiffel:7 with Black to move: White Ke1 Qd1, Black Ke8 Rd8 Sc3.
        // The rook paralyses the queen. Sc3: all eight moves (b1 a2 e2 a4 e4 b5 d5, *d1);
        // Rd8: d7..d2, *d1 (check), a8/b8/c8 (leaving the file frees the queen, which does
        // not reach e8). Ke8: e7, f7, f8 — not d7, which would screen the rook's file, free
        // the queen, and stand on that file.
        let m = moves("3rk3/8/8/8/8/2n5/8/3QK3 b - - 0 1", &["eiffel"]);
        let expected = [
            "c3a2", "c3a4", "c3b1", "c3b5", "c3d1", "c3d5", "c3e2", "c3e4", "d8a8", "d8b8", "d8c8", "d8d1", "d8d2",
            "d8d3", "d8d4", "d8d5", "d8d6", "d8d7", "e8e7", "e8f7", "e8f8",
        ];
        assert_eq!(m, expected);
    }

    #[test]
    fn castling_across_a_square_attacked_by_a_paralysed_unit() {
        // White Ke1 Rh1 Bh2, Black Ka8 Rf4. The free bishop h2 paralyses the rook f4, which
        // then attacks neither f1 nor f2: Ke1-d1/f1/d2/e2/f2, 0-0, Rh1-f1/g1, Bh2-g1/g3/*f4.
        let m = moves("k7/8/8/8/5r2/8/7B/4K2R w K - 0 1", &["eiffel"]);
        let expected = ["e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1", "h1f1", "h1g1", "h2f4", "h2g1", "h2g3"];
        assert_eq!(m, expected);
        // Orthodox: the rook bars f1 and f2 (no 0-0, no Ke1-f1/f2).
        let o = moves("k7/8/8/8/5r2/8/7B/4K2R w K - 0 1", &[]);
        assert!(!o.contains(&"e1g1".to_string()) && !o.contains(&"e1f2".to_string()));
    }
}
