//! Helpers shared by the FEN dialects: fields, the board field, side, squares, and the
//! vchess castling flags. Every error names its field; nothing here panics on any input.

use crate::{Colour, Piece, RulesError, Square};

/// Splits a FEN into whitespace-separated fields, requiring `min..=max` of them.
pub fn fields(fen: &str, min: usize, max: usize) -> Result<Vec<&str>, RulesError> {
    let f: Vec<&str> = fen.split_whitespace().collect();
    if f.len() < min || f.len() > max {
        let want = if min == max { format!("{min}") } else { format!("{min} to {max}") };
        return Err(RulesError::fen("fields", format!("expected {want} fields, found {}", f.len())));
    }
    Ok(f)
}

/// Reads the board field (rank 8 first, `/` between ranks, digits for empty runs).
/// `piece` maps a letter to a piece, or `None` if the letter is not one.
pub fn parse_board(field: &str, piece: impl Fn(char) -> Option<Piece>) -> Result<[Option<Piece>; 64], RulesError> {
    let mut squares = [None; 64];
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(RulesError::fen("board", format!("expected 8 ranks, found {}", ranks.len())));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file: u32 = 0;
        let mut chars = rank_text.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                // vchess writes runs as plain numbers; accept multi-digit runs too.
                let mut run = d;
                while let Some(n) = chars.peek().and_then(|c| c.to_digit(10)) {
                    run = run * 10 + n;
                    chars.next();
                    if run > 8 {
                        break;
                    }
                }
                if run == 0 {
                    return Err(RulesError::fen("board", format!("rank {}: empty run of 0", rank + 1)));
                }
                file += run;
            } else {
                let p = piece(c).ok_or_else(|| {
                    RulesError::fen("board", format!("rank {}: unknown piece letter `{c}`", rank + 1))
                })?;
                if file < 8 {
                    squares[Square::from_coords(file as u8, rank).index()] = Some(p);
                }
                file += 1;
            }
            if file > 8 {
                return Err(RulesError::fen("board", format!("rank {} has more than 8 squares", rank + 1)));
            }
        }
        if file != 8 {
            return Err(RulesError::fen("board", format!("rank {} has {file} squares, not 8", rank + 1)));
        }
    }
    Ok(squares)
}

/// Writes the board field; `letter` gives each piece's letter.
pub fn write_board(get: impl Fn(Square) -> Option<Piece>, letter: impl Fn(Piece) -> char) -> String {
    let mut s = String::with_capacity(72);
    for rank in (0..8u8).rev() {
        let mut empty = 0;
        for file in 0..8u8 {
            match get(Square::from_coords(file, rank)) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(letter(p));
                }
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

/// Reads the side to move, `w` or `b`.
pub fn parse_side(field: &str) -> Result<Colour, RulesError> {
    match field {
        "w" => Ok(Colour::White),
        "b" => Ok(Colour::Black),
        _ => Err(RulesError::fen("side to move", format!("expected `w` or `b`, found `{field}`"))),
    }
}

/// Reads a square or `-`.
pub fn parse_square_or_dash(field: &str, name: &'static str) -> Result<Option<Square>, RulesError> {
    if field == "-" {
        return Ok(None);
    }
    Square::parse(field)
        .map(Some)
        .ok_or_else(|| RulesError::fen(name, format!("expected a square or `-`, found `{field}`")))
}

/// Reads a non-negative counter.
pub fn parse_count(field: &str, name: &'static str) -> Result<u32, RulesError> {
    field.parse::<u32>().map_err(|_| RulesError::fen(name, format!("expected a non-negative number, found `{field}`")))
}

/// vchess castling flags: for white queen side, white king side, black queen side, black
/// king side, the rook's file (`a`..`h`) or `None` when the right is lost (`i`).
pub type CastlingFiles = [Option<u8>; 4];

/// Reads the four vchess castling letters (exactly the first four characters of `field`).
pub fn parse_vchess_castling(field: &str) -> Result<CastlingFiles, RulesError> {
    let b = field.as_bytes();
    if b.len() < 4 {
        return Err(RulesError::fen("castling", format!("expected 4 letters a..h or i, found `{field}`")));
    }
    let mut out = [None; 4];
    for (i, &c) in b[..4].iter().enumerate() {
        out[i] = match c {
            b'a'..=b'h' => Some(c - b'a'),
            b'i' => None,
            _ => {
                return Err(RulesError::fen("castling", format!("letter `{}` is not a..h or i", c as char)));
            }
        };
    }
    Ok(out)
}

/// Writes the four vchess castling letters.
pub fn write_vchess_castling(files: &CastlingFiles) -> String {
    files.iter().map(|f| f.map_or('i', |f| (b'a' + f) as char)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Kind, Notation};

    const N: Notation = Notation { kind_letters: b"pnbrqk", shared_colour: 'c' };

    fn letter(c: char) -> Option<Piece> {
        let kind = N.kind_of(c)?;
        Some(Piece::new(if c.is_ascii_uppercase() { Colour::White } else { Colour::Black }, kind))
    }

    #[test]
    fn board_round_trip_and_errors() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
        let sq = parse_board(start, letter).unwrap();
        assert_eq!(sq[0], Some(Piece::new(Colour::White, Kind(3))));
        assert_eq!(write_board(|s| sq[s.index()], |p| N.fen_char(p)), start);
        assert!(parse_board("8/8/8/8/8/8/8", letter).is_err());
        assert!(parse_board("9/8/8/8/8/8/8/8", letter).is_err());
        assert!(parse_board("7/8/8/8/8/8/8/8", letter).is_err());
        assert!(parse_board("ppppppppp/8/8/8/8/8/8/8", letter).is_err());
        assert!(parse_board("x7/8/8/8/8/8/8/8", letter).is_err());
        assert!(parse_board("0p7/8/8/8/8/8/8/8", letter).is_err());
        assert_eq!(parse_vchess_castling("ahai").unwrap(), [Some(0), Some(7), Some(0), None]);
        assert_eq!(write_vchess_castling(&[Some(0), Some(7), Some(0), None]), "ahai");
        assert!(parse_vchess_castling("ahz").is_err());
    }
}
