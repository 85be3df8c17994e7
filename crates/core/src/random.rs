//! Random starting arrays, as the vchess "randomness" option: 0 = the given array,
//! 1 = one random Chess960-like array for both sides, 2 = independent arrays.

use crate::rng::SplitMix64;

/// A Chess960-like back rank of the letters `r n b q k`: bishops on squares of opposite
/// colours, the king between the two rooks.
pub fn chess960_rank(rng: &mut SplitMix64) -> [u8; 8] {
    let mut rank = [0u8; 8];
    // Bishops: one on an even file (dark for white's first rank), one on an odd file.
    let dark = 2 * rng.below(4) as usize;
    let light = 2 * rng.below(4) as usize + 1;
    rank[dark] = b'b';
    rank[light] = b'b';
    let mut free: Vec<usize> = (0..8).filter(|&f| rank[f] == 0).collect();
    let q = free.remove(rng.below(free.len() as u64) as usize);
    rank[q] = b'q';
    for _ in 0..2 {
        let n = free.remove(rng.below(free.len() as u64) as usize);
        rank[n] = b'n';
    }
    // Three squares remain, in file order: rook, king, rook.
    rank[free[0]] = b'r';
    rank[free[1]] = b'k';
    rank[free[2]] = b'r';
    rank
}

/// White's and black's back ranks (as seen from white: index = file) for a randomness
/// level. `standard` is the level-0 array; `random` draws one array.
pub fn arrays(
    randomness: u8,
    seed: u64,
    standard: [u8; 8],
    mut random: impl FnMut(&mut SplitMix64) -> [u8; 8],
) -> ([u8; 8], [u8; 8]) {
    let mut rng = SplitMix64::new(seed);
    match randomness {
        0 => (standard, standard),
        1 => {
            let r = random(&mut rng);
            (r, r)
        }
        _ => {
            let w = random(&mut rng);
            (w, random(&mut rng))
        }
    }
}

/// A chess-like starting position (the orthodox array at level 0, Chess960-like arrays
/// above): its FEN board field, and its four vchess castling letters (each side's rook
/// files, queen side first; see [`crate::fen::write_vchess_castling`]).
pub fn chess_like_start(randomness: u8, seed: u64) -> (String, String) {
    let (white, black) = arrays(randomness, seed, *b"rnbqkbnr", chess960_rank);
    let rank = |a: &[u8; 8], white: bool| -> String {
        a.iter().map(|&c| if white { c.to_ascii_uppercase() as char } else { c as char }).collect()
    };
    let rook_files = |a: &[u8; 8]| -> String {
        a.iter().enumerate().filter(|(_, c)| **c == b'r').map(|(i, _)| (b'a' + i as u8) as char).collect()
    };
    let board = format!("{}/pppppppp/8/8/8/8/PPPPPPPP/{}", rank(&black, false), rank(&white, true));
    (board, rook_files(&white) + &rook_files(&black))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess960_arrays_are_valid_and_seeded() {
        for seed in 0..500 {
            let r = chess960_rank(&mut SplitMix64::new(seed));
            let pos = |c: u8| r.iter().enumerate().filter(|(_, x)| **x == c).map(|(i, _)| i).collect::<Vec<_>>();
            let b = pos(b'b');
            assert_eq!(b.len(), 2);
            assert_ne!(b[0] % 2, b[1] % 2);
            let rooks = pos(b'r');
            let k = pos(b'k')[0];
            assert!(rooks[0] < k && k < rooks[1]);
            assert_eq!(pos(b'n').len(), 2);
            assert_eq!(pos(b'q').len(), 1);
        }
        let a = arrays(2, 5, *b"rnbqkbnr", chess960_rank);
        assert_eq!(a, arrays(2, 5, *b"rnbqkbnr", chess960_rank));
        assert_eq!(arrays(0, 5, *b"rnbqkbnr", chess960_rank).0, *b"rnbqkbnr");
        assert_eq!(
            chess_like_start(0, 9),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR".to_string(), "ahah".to_string())
        );
    }
}
