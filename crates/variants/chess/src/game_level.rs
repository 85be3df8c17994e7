//! Game-level draws of orthodox chess, which depend on the game's history or are rules of
//! play rather than of the position: threefold repetition, the fifty-move rule and
//! insufficient material. The game layer (play, server, PGN) applies them after each turn.

use crate::{BISHOP, Chess, KNIGHT};
use chimere_core::Bitboard;

/// Whether `history` (hashes of the positions of the game so far, oldest first, the
/// current one last) holds the current position three times.
pub fn threefold(history: &[u64]) -> bool {
    history.last().is_some_and(|&now| history.iter().filter(|&&h| h == now).count() >= 3)
}

/// Whether 100 plies have passed without a capture or a pawn move.
pub fn fifty_moves(pos: &Chess) -> bool {
    pos.halfmove_clock() >= 100
}

/// Whether neither side can ever mate: K v K, K+minor v K, or kings with bishops all on
/// squares of one colour.
pub fn insufficient_material(pos: &Chess) -> bool {
    let b = pos.board();
    let occ = b.occupied();
    let kings_and_minors = b.kind(crate::KING) | b.kind(KNIGHT) | b.kind(BISHOP);
    if (occ & !kings_and_minors).any() {
        return false;
    }
    let minors = occ.count() - 2;
    if minors <= 1 {
        return true;
    }
    let knights = b.kind(KNIGHT).any();
    let bishops = b.kind(BISHOP);
    !knights && ((bishops & Bitboard::LIGHT).is_empty() || (bishops & Bitboard::DARK).is_empty())
}

/// Whether the game is drawn by a game-level rule.
pub fn is_draw(pos: &Chess, history: &[u64]) -> bool {
    threefold(history) || fifty_moves(pos) || insufficient_material(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chimere_core::Variant;

    fn pos(fen: &str) -> Chess {
        Chess::from_fen(fen).unwrap()
    }

    #[test]
    fn material() {
        assert!(insufficient_material(&pos("8/8/8/4k3/8/8/8/4K3 w - - 0 1")));
        assert!(insufficient_material(&pos("8/8/8/4k3/8/8/8/4KN2 w - - 0 1")));
        // Bishops on f5 and f1 are both on light squares; g5 is dark.
        assert!(insufficient_material(&pos("8/8/8/4kb2/8/8/8/4KB2 w - - 0 1")));
        assert!(!insufficient_material(&pos("8/8/8/4k1b1/8/8/8/4KB2 w - - 0 1")));
        assert!(!insufficient_material(&pos("8/8/8/4k3/8/8/8/3NKN2 w - - 0 1")));
        assert!(!insufficient_material(&pos("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1")));
    }

    #[test]
    fn repetition_and_fifty() {
        assert!(threefold(&[1, 2, 1, 2, 1]));
        assert!(!threefold(&[1, 2, 1, 2]));
        assert!(fifty_moves(&pos("8/8/8/4k3/8/8/8/4K2R w - - 100 80")));
        assert!(!fifty_moves(&pos("8/8/8/4k3/8/8/8/4K2R w - - 99 80")));
    }
}
