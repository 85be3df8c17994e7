//! Writing turns: the canonical form (parts joined by ` ; `) and the vchess notation
//! (parts joined by `,`). Both replay the turn part by part on a copy of the position.

use crate::movegen::Parts;
use crate::{BISHOP, Interweave, Move, NOTATION, code, code_kind, piece_of};
use chimere_core::{Piece, Square, canonical};

/// One part of a turn, as played.
pub(crate) struct PartView {
    pub(crate) from: u8,
    pub(crate) to: u8,
    /// The piece that arrives (after promotion).
    pub(crate) arrived: u8,
    /// The piece that moved (before promotion).
    pub(crate) moved: u8,
    /// Removed enemy pieces.
    pub(crate) removed: Vec<(u8, u8)>,
    /// A Remover capture: the piece stays, only the removed pieces change.
    pub(crate) remover: bool,
}

/// The parts of a turn, replayed on a copy of the position.
pub(crate) fn parts(pos: &Interweave, m: &Move) -> Vec<PartView> {
    let mut b = pos.clone();
    let mut cur = m.from;
    let mut out = Vec::new();
    for i in 0..m.len as usize {
        let to = m.path[i];
        let promo = m.promo_at(i);
        let moved = b.sq[cur as usize];
        let captured = if m.captured == 0 {
            0
        } else {
            let mut list = Parts::new();
            b.capture_parts(cur, i == 0, &mut list);
            list.iter().find(|p| p.to == to && p.promo == promo).map_or(0, |p| p.captured)
        };
        let mut removed = Vec::new();
        let mut cap = captured;
        while cap != 0 {
            let s = cap.trailing_zeros() as u8;
            cap &= cap - 1;
            removed.push((s, b.take_raw(s)));
        }
        let arrived = if promo != 0 { code(b.side as u8, promo) } else { moved };
        if moved != 0 {
            b.take_raw(cur);
            b.put_raw(to, arrived);
        }
        let remover = code_kind(moved) == BISHOP && to == cur && captured != 0;
        out.push(PartView { from: cur, to, arrived, moved, removed, remover });
        cur = to;
    }
    out
}

fn sp(s: u8, c: u8) -> (Square, Piece) {
    (Square::new(s), piece_of(c))
}

/// The canonical form of a turn.
pub(crate) fn canonical(pos: &Interweave, m: &Move) -> String {
    let texts: Vec<String> = parts(pos, m)
        .iter()
        .map(|p| {
            let mut removed: Vec<(Square, Piece)> = p.removed.iter().map(|&(s, c)| sp(s, c)).collect();
            let mut added = Vec::new();
            if !p.remover && p.moved != 0 {
                removed.push(sp(p.from, p.moved));
                added.push(sp(p.to, p.arrived));
            }
            canonical::part(&removed, &added, &NOTATION, "")
        })
        .collect();
    canonical::turn(&texts)
}

/// The vchess notation of a turn.
pub(crate) fn notation(pos: &Interweave, m: &Move) -> String {
    let texts: Vec<String> = parts(pos, m)
        .iter()
        .map(|p| {
            if p.remover {
                format!("{}R", Square::new(p.from))
            } else {
                let letter = NOTATION.kind_char(piece_of(p.arrived.max(1)).kind).to_ascii_uppercase();
                let x = if p.removed.is_empty() { "" } else { "X" };
                format!("{letter}{}{x}", Square::new(p.to))
            }
        })
        .collect();
    texts.join(",")
}
