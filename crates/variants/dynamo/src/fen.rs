//! The vchess FEN of Dynamo: `board side turns castling last-turn`, the last field being
//! `-` or `<appear>/<vanish>` of the opponent's last complete turn.

use crate::{Dynamo, KING, LastTurn, NO_FLAG, NOTATION, ROOK, Tokens};
use chimere_core::fen::{fields, parse_board, parse_count, parse_side, write_board};
use chimere_core::{Board, Colour, Piece, RulesError, Square};

fn letter(c: char) -> Option<Piece> {
    if !c.is_ascii_alphabetic() {
        return None;
    }
    let kind = NOTATION.kind_of(c)?;
    Some(Piece::new(if c.is_ascii_uppercase() { Colour::White } else { Colour::Black }, kind))
}

fn parse_tokens(s: &str) -> Result<Tokens, RulesError> {
    let mut t = Tokens::default();
    if s == "-" {
        return Ok(t);
    }
    for tok in s.split('.') {
        let b = tok.as_bytes();
        let bad = || RulesError::fen("last turn", format!("bad token `{tok}` (expected e.g. `wpe4`)"));
        if b.len() != 4 {
            return Err(bad());
        }
        let colour = match b[0] {
            b'w' => Colour::White,
            b'b' => Colour::Black,
            _ => return Err(bad()),
        };
        let kind = NOTATION.kind_of(b[1] as char).filter(|_| b[1].is_ascii_lowercase()).ok_or_else(bad)?;
        let sq = Square::parse(&tok[2..]).ok_or_else(bad)?;
        if t.n as usize >= t.t.len() {
            return Err(RulesError::fen("last turn", "too many tokens"));
        }
        t.push(sq.index() as u8, Piece::new(colour, kind));
    }
    Ok(t)
}

fn write_tokens(out: &mut String, t: &Tokens) {
    if t.n == 0 {
        out.push('-');
        return;
    }
    for (i, &(sq, p)) in t.iter().enumerate() {
        if i > 0 {
            out.push('.');
        }
        out.push(NOTATION.colour_char(p.colour));
        out.push(NOTATION.kind_char(p.kind));
        out.push_str(&Square::new(sq).to_string());
    }
}

pub fn read(fen: &str) -> Result<Dynamo, RulesError> {
    let f = fields(fen, 5, 5)?;
    let squares = parse_board(f[0], letter)?;
    let side = parse_side(f[1])?;
    let turns = parse_count(f[2], "turns")?;
    let cb = f[3].as_bytes();
    if cb.len() != 4 {
        return Err(RulesError::fen("castling", format!("expected 4 letters a..h or i, found `{}`", f[3])));
    }
    let mut castle = [NO_FLAG; 4];
    for (i, &c) in cb.iter().enumerate() {
        castle[i] = match c {
            b'a'..=b'h' => c - b'a',
            b'i' => NO_FLAG,
            _ => return Err(RulesError::fen("castling", format!("letter `{}` is not a..h or i", c as char))),
        };
    }
    let mut board = Board::empty();
    for sq in Square::ALL {
        if let Some(p) = squares[sq.index()] {
            board.put(sq, p);
        }
    }
    for colour in Colour::PLAYERS {
        let kings = board.pieces(Piece::new(colour, KING));
        if kings.count() != 1 {
            return Err(RulesError::fen(
                "board",
                format!("{colour} must have exactly one king, found {}", kings.count()),
            ));
        }
    }
    for (i, &file) in castle.iter().enumerate() {
        if file == NO_FLAG {
            continue;
        }
        let colour = if i < 2 { Colour::White } else { Colour::Black };
        let rank = if i < 2 { 0 } else { 7 };
        let sq = Square::from_coords(file, rank);
        if board.get(sq) != Some(Piece::new(colour, ROOK)) {
            return Err(RulesError::fen(
                "castling",
                format!("no {colour} rook on {sq} for flag `{}`", (b'a' + file) as char),
            ));
        }
        let k = board.pieces(Piece::new(colour, KING)).first().unwrap_or(sq);
        if k.rank() != rank {
            return Err(RulesError::fen("castling", format!("{colour} king is not on its first rank")));
        }
        let queen_side = i % 2 == 0;
        if (file < k.file()) != queen_side {
            let which = if queen_side { "queen" } else { "king" };
            return Err(RulesError::fen(
                "castling",
                format!("{colour} {which}-side rook must be on the {which} side of the king"),
            ));
        }
    }
    let last = if f[4] == "-" {
        None
    } else {
        let (a, v) = f[4].split_once('/').ok_or_else(|| {
            RulesError::fen("last turn", format!("expected `-` or `appear/vanish`, found `{}`", f[4]))
        })?;
        let last = LastTurn { appear: parse_tokens(a)?, vanish: parse_tokens(v)? };
        if last.appear.n == 0 && last.vanish.n == 0 {
            return Err(RulesError::fen("last turn", "a turn removes or adds something"));
        }
        Some(last)
    };
    Ok(Dynamo { board, side, turns, castle, last })
}

pub fn write(pos: &Dynamo) -> String {
    let mut s = write_board(|sq| pos.board.get(sq), |p| NOTATION.fen_char(p));
    s.push(' ');
    s.push(pos.side.side_char());
    s.push(' ');
    s.push_str(&pos.turns.to_string());
    s.push(' ');
    for &f in &pos.castle {
        s.push(if f == NO_FLAG { 'i' } else { (b'a' + f) as char });
    }
    s.push(' ');
    match &pos.last {
        None => s.push('-'),
        Some(l) => {
            write_tokens(&mut s, &l.appear);
            s.push('/');
            write_tokens(&mut s, &l.vanish);
        }
    }
    s
}
