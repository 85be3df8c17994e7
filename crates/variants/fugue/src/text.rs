//! Text forms: the vchess FEN, the canonical turn, the vchess notation.

use crate::moves::{DESTROY, Move, NO_SQ, SHOOT, SWAP};
use crate::{Fugue, KING, NOTATION, PAWN, QUEEN};
use chimere_core::{Board, Colour, Piece, RulesError, Square, canonical, fen};

fn letter(c: char) -> Option<Piece> {
    if !c.is_ascii_alphabetic() {
        return None;
    }
    let kind = NOTATION.kind_of(c)?;
    Some(Piece::new(if c.is_ascii_uppercase() { Colour::White } else { Colour::Black }, kind))
}

/// Reads `board side turns`.
pub fn parse_fen(text: &str) -> Result<Fugue, RulesError> {
    let f = fen::fields(text, 3, 3)?;
    let squares = fen::parse_board(f[0], letter)?;
    let side = fen::parse_side(f[1])?;
    let turns = fen::parse_count(f[2], "turns")?;
    let mut board = Board::empty();
    for s in Square::ALL {
        if let Some(p) = squares[s.index()] {
            board.put(s, p);
        }
    }
    for c in Colour::PLAYERS {
        if board.pieces(Piece::new(c, KING)).more_than_one() {
            return Err(RulesError::fen("board", format!("{c} has more than one king")));
        }
    }
    Ok(Fugue { board, side, turns })
}

/// Writes `board side turns`.
pub fn write_fen(pos: &Fugue) -> String {
    let board = fen::write_board(|s| pos.board.get(s), |p| NOTATION.fen_char(p));
    format!("{board} {} {}", pos.side.side_char(), pos.turns)
}

/// Pieces on squares.
type Placed = Vec<(Square, Piece)>;

/// What the turn removes and adds, from the position before it.
fn effects(pos: &Fugue, m: Move) -> (Placed, Placed) {
    let b = &pos.board;
    let from = Square::new(m.from);
    let to = Square::new(m.to);
    let mut removed = Vec::new();
    let mut added = Vec::new();
    let (Some(p), target) = (b.get(from), b.get(to)) else {
        return (removed, added);
    };
    match m.flag {
        SWAP => {
            if let Some(t) = target {
                removed.extend([(from, p), (to, t)]);
                added.extend([(from, t), (to, p)]);
            }
        }
        DESTROY => {
            removed.push((from, p));
            removed.extend(target.map(|t| (to, t)));
        }
        SHOOT => removed.extend(target.map(|t| (to, t))),
        _ => {
            removed.push((from, p));
            if m.cap != NO_SQ {
                let c = Square::new(m.cap);
                removed.extend(b.get(c).map(|t| (c, t)));
            }
            added.push((to, Piece::new(p.colour, m.promotion().unwrap_or(p.kind))));
        }
    }
    (removed, added)
}

/// The canonical form of a turn.
pub fn canonical(pos: &Fugue, m: Move) -> String {
    let (removed, added) = effects(pos, m);
    canonical::part(&removed, &added, &NOTATION, "PASS")
}

/// The vchess notation: `<from>S<to>` (archer shot), `<from>D<to>` (mutual destruction),
/// `P<from><to>` (pawn staying a pawn), `Q[x]<to>` / `K[x]<to>`, otherwise the arriving
/// piece's letter, the square, and `X` if two or more pieces vanished.
pub fn notation(pos: &Fugue, m: Move) -> String {
    let from = Square::new(m.from);
    let to = Square::new(m.to);
    match m.flag {
        SHOOT => return format!("{from}S{to}"),
        DESTROY => return format!("{from}D{to}"),
        _ => {}
    }
    let (removed, added) = effects(pos, m);
    let Some(&(_, arriving)) = added.iter().find(|(s, _)| *s == to) else {
        return format!("{from}{to}");
    };
    let symbol = NOTATION.kind_char(arriving.kind).to_ascii_uppercase();
    let capture = removed.len() > 1;
    if arriving.kind == PAWN {
        format!("P{from}{to}")
    } else if arriving.kind == QUEEN || arriving.kind == KING {
        format!("{symbol}{}{to}", if capture { "x" } else { "" })
    } else {
        format!("{symbol}{to}{}", if capture { "X" } else { "" })
    }
}
