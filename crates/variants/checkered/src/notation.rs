//! Canonical form and vchess notation of a turn.

use crate::moves::{F_CAPTURE, F_CASTLE, F_SWITCH, Move};
use crate::{Checkered, KING, NOTATION, PAWN, ROOK};
use chimere_core::{Effect, Piece, canonical};

/// The board effects of the move part of `m` (position before the turn).
fn effects(pos: &Checkered, m: &Move) -> Vec<Effect> {
    if m.is(F_CASTLE) {
        let (kd, rd) = m.castle_squares();
        let king = Piece::new(m.colour, KING);
        let rook = Piece::new(m.colour, ROOK);
        return vec![
            Effect::Remove(m.from, king),
            Effect::Remove(m.to, rook),
            Effect::Add(kd, king),
            Effect::Add(rd, rook),
        ];
    }
    let mut e = Vec::with_capacity(3);
    if let Some(p) = pos.board.get(m.from) {
        e.push(Effect::Remove(m.from, p));
    }
    if m.is(F_CAPTURE) {
        let cs = m.capture_square();
        if let Some(p) = pos.board.get(cs) {
            e.push(Effect::Remove(cs, p));
        }
    }
    e.push(Effect::Add(m.to, Piece::new(m.colour, m.kind)));
    e
}

/// The canonical string: the move part, after `SWITCH ; ` for a switch turn.
pub(crate) fn canonical(pos: &Checkered, m: &Move) -> String {
    let part = if m.is(F_CASTLE) {
        // Castling lists both units, even one ending where it started (spec README).
        let (kd, rd) = m.castle_squares();
        let king = Piece::new(m.colour, KING);
        let rook = Piece::new(m.colour, ROOK);
        canonical::part(&[(m.from, king), (m.to, rook)], &[(kd, king), (rd, rook)], &NOTATION, "SWITCH")
    } else {
        canonical::part_from_effects(&effects(pos, m), &NOTATION, "SWITCH")
    };
    if m.is(F_SWITCH) { canonical::turn(&["SWITCH", part.as_str()]) } else { part }
}

fn upper(k: chimere_core::Kind) -> char {
    NOTATION.kind_char(k).to_ascii_uppercase()
}

/// vchess notation: `Nxe5=P`, `exd6`, `e8=Q`, `0-0`, `S,Nf3`.
pub(crate) fn notation(pos: &Checkered, m: &Move) -> String {
    let body = if m.is(F_CASTLE) {
        if m.to.file() < m.from.file() { "0-0-0".to_string() } else { "0-0".to_string() }
    } else {
        let moving = pos.board.get(m.from).map_or(m.kind, |p| p.kind);
        let capture = m.is(F_CAPTURE);
        let mut s = if moving == PAWN {
            if capture { format!("{}x{}", m.from.file_char(), m.to) } else { m.to.to_string() }
        } else {
            format!("{}{}{}", upper(moving), if capture { "x" } else { "" }, m.to)
        };
        if m.kind != moving {
            s.push('=');
            s.push(upper(m.kind));
        }
        s
    };
    if m.is(F_SWITCH) { format!("S,{body}") } else { body }
}
