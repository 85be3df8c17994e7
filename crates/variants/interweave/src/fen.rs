//! The vchess FEN of Interweave: `board side turns ep captured`.

use crate::tables::NONE;
use crate::{Interweave, KING, MAX_PIECES, NOTATION, PAWN, code};
use chimere_core::{Colour, Piece, RulesError, Square, fen};

fn letter(c: char) -> Option<Piece> {
    if !c.is_ascii_alphabetic() {
        return None;
    }
    let kind = NOTATION.kind_of(c)?;
    Some(Piece::new(if c.is_ascii_uppercase() { Colour::White } else { Colour::Black }, kind))
}

/// Reads a position; every error names its field.
pub(crate) fn parse(text: &str) -> Result<Interweave, RulesError> {
    let f = fen::fields(text, 5, 5)?;
    let squares = fen::parse_board(f[0], letter)?;
    let mut pos = Interweave::empty();
    for (i, p) in squares.iter().enumerate() {
        if let Some(p) = p {
            pos.put_raw(i as u8, code(p.colour.index() as u8, p.kind.0));
        }
    }
    for colour in 0..2u8 {
        let name = if colour == 0 { "white" } else { "black" };
        let mine = pos.colour[colour as usize];
        if mine.count_ones() > MAX_PIECES {
            return Err(RulesError::fen("board", format!("{name} has more than {MAX_PIECES} pieces")));
        }
        if (pos.kind[KING as usize] & mine).count_ones() > 2 {
            return Err(RulesError::fen("board", format!("{name} has more than two kings")));
        }
        let last = if colour == 0 { 0xFF00_0000_0000_0000u64 } else { 0xFF };
        if pos.kind[PAWN as usize] & mine & last != 0 {
            return Err(RulesError::fen("board", format!("a {name} pawn stands on its last rank")));
        }
    }
    pos.side = fen::parse_side(f[1])?.index() as u32;
    pos.turns = fen::parse_count(f[2], "turns")?;
    if f[3] != "-" {
        let bad = || RulesError::fen("en passant", format!("expected `-` or `<square>,<file>`, found `{}`", f[3]));
        let (sq, file) = f[3].split_once(',').ok_or_else(bad)?;
        let sq = Square::parse(sq).ok_or_else(bad)?;
        let fb = file.as_bytes();
        if fb.len() != 1 || !(b'a'..=b'h').contains(&fb[0]) {
            return Err(bad());
        }
        let file = fb[0] - b'a';
        // The pawn that skipped the square belongs to the side that just moved.
        let mover = (pos.side ^ 1) as u8;
        let want_rank = if mover == 0 { 2 } else { 5 };
        if sq.rank() != want_rank {
            return Err(RulesError::fen("en passant", format!("{sq} is not on the rank a pawn skips")));
        }
        if file.abs_diff(sq.file()) != 1 {
            return Err(RulesError::fen("en passant", format!("file {} is not beside {sq}", (b'a' + file) as char)));
        }
        let arrival = if mover == 0 { 24 + file } else { 32 + file };
        if pos.sq[arrival as usize] != code(mover, PAWN) {
            return Err(RulesError::fen("en passant", format!("no pawn that just moved on {}", Square::new(arrival))));
        }
        if pos.sq[sq.index()] != 0 {
            return Err(RulesError::fen("en passant", format!("the skipped square {sq} is not empty")));
        }
        pos.set_ep(sq.index() as u8, file);
    } else {
        pos.set_ep(NONE, 8);
    }
    let cb = f[4].as_bytes();
    if cb.len() != 6 || !cb.iter().all(u8::is_ascii_digit) {
        return Err(RulesError::fen("captured", format!("expected six digits, found `{}`", f[4])));
    }
    for (i, &d) in cb.iter().enumerate() {
        pos.set_count(i, d - b'0');
    }
    pos.hash = pos.full_hash();
    Ok(pos)
}

/// Writes the position exactly as vchess does.
pub(crate) fn write(pos: &Interweave) -> String {
    let board = fen::write_board(
        |s| {
            let c = pos.sq[s.index()];
            (c != 0).then(|| crate::piece_of(c))
        },
        |p| NOTATION.fen_char(p),
    );
    let ep = if pos.ep() == NONE {
        "-".to_string()
    } else {
        format!("{},{}", Square::new(pos.ep()), (b'a' + pos.ep_file()) as char)
    };
    let counts: String = (0..6).map(|i| char::from(b'0' + pos.count(i).min(9))).collect();
    format!("{board} {} {} {ep} {counts}", if pos.side == 0 { 'w' } else { 'b' }, pos.turns)
}
