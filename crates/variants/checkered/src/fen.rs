//! The vchess FEN of Checkered (7 fields) and new games.

use crate::{Checkered, KING, NO_CASTLE, NOTATION, Stage, fen_letter};
use chimere_core::{Board, Colour, GameOptions, Piece, RulesError, Square, fen, random};

/// The piece of a FEN letter: `PNBRQK` white, `pnbrqk` black, `s o c u t` (either case)
/// checkered pawn, knight, bishop, rook, queen.
fn piece_of(c: char) -> Option<Piece> {
    let shared = match c.to_ascii_lowercase() {
        's' => Some('p'),
        'o' => Some('n'),
        'c' => Some('b'),
        'u' => Some('r'),
        't' => Some('q'),
        _ => None,
    };
    if let Some(l) = shared {
        return NOTATION.kind_of(l).map(|k| Piece::new(Colour::Shared, k));
    }
    let kind = NOTATION.kind_of(c)?;
    Some(Piece::new(if c.is_ascii_uppercase() { Colour::White } else { Colour::Black }, kind))
}

/// Reads a vchess Checkered FEN.
pub(crate) fn parse(text: &str) -> Result<Checkered, RulesError> {
    let f = fen::fields(text, 7, 7)?;
    let squares = fen::parse_board(f[0], piece_of)?;
    let mut board = Board::empty();
    for sq in Square::ALL {
        if let Some(p) = squares[sq.index()] {
            board.put(sq, p);
        }
    }
    for c in Colour::PLAYERS {
        let n = board.pieces(Piece::new(c, KING)).count();
        if n != 1 {
            return Err(RulesError::fen("board", format!("{n} {c} kings, expected exactly one")));
        }
    }
    let side = fen::parse_side(f[1])?;
    let turns = fen::parse_count(f[2], "turns")?;
    let flags = f[3];
    if flags.len() != 20 || !flags.is_ascii() {
        return Err(RulesError::fen(
            "flags",
            format!("expected 4 castling letters and 16 pawn flags, found `{flags}`"),
        ));
    }
    let files = fen::parse_vchess_castling(&flags[..4])?;
    let mut castle = [NO_CASTLE; 4];
    for (i, f) in files.iter().enumerate() {
        castle[i] = f.unwrap_or(NO_CASTLE);
    }
    let mut pawn_flags = 0u16;
    for (i, b) in flags[4..].bytes().enumerate() {
        match b {
            b'1' => pawn_flags |= 1 << i,
            b'0' => {}
            _ => return Err(RulesError::fen("flags", format!("pawn flag `{}` is not 0 or 1", b as char))),
        }
    }
    let ep = fen::parse_square_or_dash(f[4], "en passant")?;
    if let Some(e) = ep.filter(|e| e.rank() != 2 && e.rank() != 5) {
        return Err(RulesError::fen("en passant", format!("{e} is not on the third or sixth rank")));
    }
    let cmove = match f[5] {
        "-" => None,
        s => {
            let bad = || RulesError::fen("cmove", format!("expected `-` or two squares such as `b5b4`, found `{s}`"));
            if s.len() != 4 || !s.is_ascii() {
                return Err(bad());
            }
            let a = Square::parse(&s[..2]).ok_or_else(bad)?;
            let b = Square::parse(&s[2..]).ok_or_else(bad)?;
            Some((a, b))
        }
    };
    let stage = match f[6] {
        "1" => Stage::One,
        "1-" => Stage::OneNoSwitch,
        "2w" => Stage::Two(Colour::White),
        "2b" => Stage::Two(Colour::Black),
        s => return Err(RulesError::fen("stage", format!("expected 1, 1-, 2w or 2b, found `{s}`"))),
    };
    Ok(Checkered { board, side, turns, castle, pawn_flags, ep, cmove, stage })
}

/// Writes the vchess FEN.
pub(crate) fn write(p: &Checkered) -> String {
    let mut s = fen::write_board(|sq| p.board.get(sq), fen_letter);
    s.push(' ');
    s.push(p.side.side_char());
    s.push(' ');
    s.push_str(&p.turns.to_string());
    s.push(' ');
    for &f in &p.castle {
        s.push((b'a' + f.min(8)) as char);
    }
    for i in 0..16 {
        s.push(if p.pawn_flags >> i & 1 != 0 { '1' } else { '0' });
    }
    s.push(' ');
    match p.ep {
        Some(e) => s.push_str(&e.to_string()),
        None => s.push('-'),
    }
    s.push(' ');
    match p.cmove {
        Some((a, b)) => {
            s.push_str(&a.to_string());
            s.push_str(&b.to_string());
        }
        None => s.push('-'),
    }
    s.push(' ');
    s.push_str(match p.stage {
        Stage::One => "1",
        Stage::OneNoSwitch => "1-",
        Stage::Two(Colour::White) => "2w",
        Stage::Two(_) => "2b",
    });
    s
}

/// The starting position: randomness 0/1/2 with its seed; parameter `switch` = `on`
/// (default) or `off`.
pub(crate) fn new_game(opts: &GameOptions) -> Result<Checkered, RulesError> {
    opts.check(&["switch"])?;
    let stage = match opts.param("switch") {
        None | Some("on") => "1",
        Some("off") => "1-",
        Some(v) => return Err(RulesError::Option(format!("switch must be `on` or `off`, not `{v}`"))),
    };
    let (board, castling) = random::chess_like_start(opts.randomness, opts.seed);
    let text = format!("{board} w 0 {castling}1111111111111111 - - {stage}");
    parse(&text)
}
