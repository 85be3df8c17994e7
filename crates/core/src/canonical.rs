//! The canonical move format of the specification: a part is its removal tokens sorted,
//! then its addition tokens sorted (`-e2:wp +e4:wp`); an empty part is written by a word
//! the variant chooses (`SWITCH`, `PASS`); parts join with ` ; `.

use crate::{Effect, Notation, Piece, Square};
use std::fmt::Write;

fn token(out: &mut String, sign: char, sq: Square, p: Piece, n: &Notation) {
    let _ = write!(out, "{sign}{sq}:{}{}", n.colour_char(p.colour), n.kind_char(p.kind));
}

/// Writes one part given its removals and additions. Tokens are sorted and de-duplicated;
/// `empty` is written when both lists are empty.
pub fn part(removed: &[(Square, Piece)], added: &[(Square, Piece)], n: &Notation, empty: &str) -> String {
    if removed.is_empty() && added.is_empty() {
        return empty.to_string();
    }
    let mut tokens: Vec<String> = Vec::with_capacity(removed.len() + added.len());
    let mut minus: Vec<String> = removed
        .iter()
        .map(|&(s, p)| {
            let mut t = String::new();
            token(&mut t, '-', s, p, n);
            t
        })
        .collect();
    let mut plus: Vec<String> = added
        .iter()
        .map(|&(s, p)| {
            let mut t = String::new();
            token(&mut t, '+', s, p, n);
            t
        })
        .collect();
    minus.sort();
    minus.dedup();
    plus.sort();
    plus.dedup();
    tokens.extend(minus);
    tokens.extend(plus);
    tokens.join(" ")
}

/// Writes one part from an effect list: the pieces it removes from the initial board and
/// the pieces it leaves on the final board (a piece put and later removed within the same
/// part, or removed and put back, cancels out).
pub fn part_from_effects(effects: &[Effect], n: &Notation, empty: &str) -> String {
    let mut removed: Vec<(Square, Piece)> = Vec::new();
    let mut added: Vec<(Square, Piece)> = Vec::new();
    for &e in effects {
        match e {
            Effect::Remove(s, p) => {
                if let Some(i) = added.iter().position(|&x| x == (s, p)) {
                    added.swap_remove(i);
                } else {
                    removed.push((s, p));
                }
            }
            Effect::Add(s, p) => {
                if let Some(i) = removed.iter().position(|&x| x == (s, p)) {
                    removed.swap_remove(i);
                } else {
                    added.push((s, p));
                }
            }
        }
    }
    part(&removed, &added, n, empty)
}

/// Joins parts into a complete turn.
pub fn turn<S: AsRef<str>>(parts: &[S]) -> String {
    parts.iter().map(|s| s.as_ref()).collect::<Vec<_>>().join(" ; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Colour, Kind};

    const N: Notation = Notation { kind_letters: b"pnbrqk", shared_colour: 'c' };

    #[test]
    fn castling_is_sorted() {
        let k = Piece::new(Colour::White, Kind(5));
        let r = Piece::new(Colour::White, Kind(3));
        let sq = |s| Square::parse(s).unwrap();
        let effects = [
            Effect::Remove(sq("e1"), k),
            Effect::Remove(sq("h1"), r),
            Effect::Add(sq("g1"), k),
            Effect::Add(sq("f1"), r),
        ];
        assert_eq!(part_from_effects(&effects, &N, "PASS"), "-e1:wk -h1:wr +f1:wr +g1:wk");
        assert_eq!(part_from_effects(&[], &N, "PASS"), "PASS");
        let cp = Piece::new(Colour::Shared, Kind(0));
        assert_eq!(part(&[], &[(sq("e6"), cp)], &N, ""), "+e6:cp");
        assert_eq!(turn(&["a", "b"]), "a ; b");
    }
}
