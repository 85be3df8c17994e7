//! Both FEN dialects of orthodox chess. vchess FEN has a number in its third field (turns
//! played); standard FEN has castling rights there (`KQkq`, Shredder `HAha`, or `-`).

use crate::{BK, BQ, Chess, KING, NOTATION, PAWN, ROOK, WK, WQ, back_rank, state_key};
use chimere_core::{Board, Colour, Piece, RulesError, Square, fen};

fn piece_of(c: char) -> Option<Piece> {
    if !c.is_ascii_alphabetic() {
        return None;
    }
    let kind = NOTATION.kind_of(c)?;
    Some(Piece::new(if c.is_ascii_uppercase() { Colour::White } else { Colour::Black }, kind))
}

/// Reads either dialect.
pub(crate) fn parse(text: &str) -> Result<Chess, RulesError> {
    let f = fen::fields(text, 4, 6)?;
    let vchess = f.len() >= 3 && f[2].bytes().all(|c| c.is_ascii_digit());
    let squares = fen::parse_board(f[0], piece_of)?;
    let side = fen::parse_side(f[1])?;
    let mut board = Board::empty();
    for sq in Square::ALL {
        if let Some(p) = squares[sq.index()] {
            board.put(sq, p);
        }
    }
    let (castling, ep, halfmove, plies) = if vchess {
        if f.len() != 5 {
            return Err(RulesError::fen("fields", format!("vchess FEN has 5 fields, found {}", f.len())));
        }
        let plies = fen::parse_count(f[2], "turns played")?;
        let castling = fen::parse_vchess_castling(f[3])?;
        if f[3].len() != 4 {
            return Err(RulesError::fen("castling", format!("expected 4 letters, found `{}`", f[3])));
        }
        (castling, fen::parse_square_or_dash(f[4], "en passant")?, 0, plies)
    } else {
        let castling = parse_standard_castling(f[2], &board)?;
        let ep = match f.get(3) {
            Some(s) => fen::parse_square_or_dash(s, "en passant")?,
            None => None,
        };
        let halfmove = match f.get(4) {
            Some(s) => fen::parse_count(s, "half-move clock")?,
            None => 0,
        };
        let fullmove = match f.get(5) {
            Some(s) => fen::parse_count(s, "full-move number")?.max(1),
            None => 1,
        };
        let plies = (fullmove - 1).saturating_mul(2).saturating_add((side == Colour::Black) as u32);
        (castling, ep, halfmove, plies)
    };
    let pos = Chess { board, side, castling, ep, halfmove, plies, state_key: state_key(side, &castling, ep) };
    validate(&pos)?;
    Ok(pos)
}

fn parse_standard_castling(field: &str, board: &Board) -> Result<[Option<u8>; 4], RulesError> {
    let mut out = [None; 4];
    if field == "-" {
        return Ok(out);
    }
    for c in field.chars() {
        let colour = if c.is_ascii_uppercase() { Colour::White } else { Colour::Black };
        let rank = back_rank(colour);
        let king = board.pieces(Piece::new(colour, KING)) & chimere_core::Bitboard::rank(rank);
        let Some(ksq) = king.first() else {
            return Err(RulesError::fen("castling", format!("`{c}` but no {colour} king on its first rank")));
        };
        let rooks: Vec<u8> =
            (board.pieces(Piece::new(colour, ROOK)) & chimere_core::Bitboard::rank(rank)).map(|s| s.file()).collect();
        let file = match c.to_ascii_lowercase() {
            'k' => rooks.iter().copied().filter(|&f| f > ksq.file()).max(),
            'q' => rooks.iter().copied().filter(|&f| f < ksq.file()).min(),
            l @ 'a'..='h' => Some(l as u8 - b'a'),
            _ => return Err(RulesError::fen("castling", format!("letter `{c}` is not K, Q or a file"))),
        };
        let Some(file) = file else {
            return Err(RulesError::fen("castling", format!("`{c}` but no {colour} rook to castle with")));
        };
        let slot = match (colour, file > ksq.file()) {
            (Colour::White, false) => WQ,
            (Colour::White, true) => WK,
            (_, false) => BQ,
            (_, true) => BK,
        };
        out[slot] = Some(file);
    }
    Ok(out)
}

fn validate(pos: &Chess) -> Result<(), RulesError> {
    let b = &pos.board;
    for c in Colour::PLAYERS {
        let kings = b.pieces(Piece::new(c, KING)).count();
        if kings != 1 {
            return Err(RulesError::fen("board", format!("{c} has {kings} kings, not 1")));
        }
    }
    if (b.kind(PAWN) & (chimere_core::Bitboard::rank(0) | chimere_core::Bitboard::rank(7))).any() {
        return Err(RulesError::fen("board", "a pawn stands on the first or last rank"));
    }
    for (slot, file) in pos.castling.iter().enumerate() {
        let Some(file) = *file else { continue };
        let colour = if slot < 2 { Colour::White } else { Colour::Black };
        let rank = back_rank(colour);
        let ksq = pos.king_square(colour).expect("checked above");
        let rook_ok = b.get(Square::from_coords(file, rank)) == Some(Piece::new(colour, ROOK));
        let side_ok = if slot % 2 == 1 { file > ksq.file() } else { file < ksq.file() };
        if ksq.rank() != rank || !rook_ok || !side_ok {
            return Err(RulesError::fen(
                "castling",
                format!(
                    "{colour} {} castling right without king and rook in place",
                    ["queen-side", "king-side"][slot % 2]
                ),
            ));
        }
    }
    if let Some(ep) = pos.ep {
        let want = if pos.side == Colour::White { 5 } else { 2 };
        if ep.rank() != want {
            return Err(RulesError::fen("en passant", format!("{ep} is not on rank {}", want + 1)));
        }
    }
    let them = pos.side.opponent();
    let their_king = pos.king_square(them).expect("checked above");
    if pos.attackers(their_king, pos.side, b.occupied()).any() {
        return Err(RulesError::fen("board", format!("the side not to move ({them}) is in check")));
    }
    Ok(())
}

/// vchess FEN: `board side turns castling ep`.
pub(crate) fn write_vchess(pos: &Chess) -> String {
    format!(
        "{} {} {} {} {}",
        fen::write_board(|s| pos.board.get(s), |p| NOTATION.fen_char(p)),
        pos.side.side_char(),
        pos.plies,
        fen::write_vchess_castling(&pos.castling),
        pos.ep.map_or("-".to_string(), |s| s.to_string())
    )
}

/// Standard FEN (X-FEN castling letters when the usual ones are ambiguous).
pub(crate) fn write_standard(pos: &Chess) -> String {
    let mut castling = String::new();
    for (slot, file) in pos.castling.iter().enumerate() {
        let Some(file) = *file else { continue };
        let colour = if slot < 2 { Colour::White } else { Colour::Black };
        let rank = back_rank(colour);
        let king_side = slot % 2 == 1;
        // Plain K/Q when the rook is the outermost one on that side.
        let outer = (pos.board.pieces(Piece::new(colour, ROOK)) & chimere_core::Bitboard::rank(rank))
            .map(|s| s.file())
            .filter(|&f| if king_side { f > file } else { f < file })
            .count()
            == 0;
        let c = if outer { if king_side { 'k' } else { 'q' } } else { (b'a' + file) as char };
        castling.push(if colour == Colour::White { c.to_ascii_uppercase() } else { c });
    }
    if castling.is_empty() {
        castling.push('-');
    }
    format!(
        "{} {} {} {} {} {}",
        fen::write_board(|s| pos.board.get(s), |p| NOTATION.fen_char(p)),
        pos.side.side_char(),
        castling,
        pos.ep.map_or("-".to_string(), |s| s.to_string()),
        pos.halfmove,
        pos.plies / 2 + 1
    )
}

impl Chess {
    /// The position in standard FEN.
    pub fn standard_fen(&self) -> String {
        write_standard(self)
    }
}
