//! Standard algebraic notation (SAN): `Nf3`, `exd5`, `e8=Q`, `O-O`, with file/rank
//! disambiguation and `+`/`#` suffixes.

use crate::movegen::{Flag, ListSink, Move, generate};
use crate::{Chess, KING, NOTATION, PAWN};
use chimere_core::{Status, Variant};

/// The SAN of a legal move in `pos`.
pub fn san(pos: &Chess, m: &Move) -> String {
    let Some(moving) = pos.board.get(m.from) else { return "?".into() };
    let mut s = String::new();
    if m.flag == Flag::Castle {
        s.push_str(if m.to.file() > m.from.file() { "O-O" } else { "O-O-O" });
    } else {
        let capture = pos.board.get(m.to).is_some() || m.flag == Flag::EnPassant;
        if moving.kind == PAWN {
            if capture {
                s.push(m.from.file_char());
            }
        } else {
            s.push(NOTATION.kind_char(moving.kind).to_ascii_uppercase());
            if moving.kind != KING {
                let mut others = Vec::new();
                generate(pos, &mut ListSink(&mut others));
                let rivals: Vec<&Move> = others
                    .iter()
                    .filter(|o| o.to == m.to && o.from != m.from && pos.board.get(o.from) == Some(moving))
                    .collect();
                if !rivals.is_empty() {
                    if rivals.iter().all(|o| o.from.file() != m.from.file()) {
                        s.push(m.from.file_char());
                    } else if rivals.iter().all(|o| o.from.rank() != m.from.rank()) {
                        s.push((b'1' + m.from.rank()) as char);
                    } else {
                        s.push_str(&m.from.to_string());
                    }
                }
            }
        }
        if capture {
            s.push('x');
        }
        s.push_str(&m.to.to_string());
        if let Flag::Promote(k) = m.flag {
            s.push('=');
            s.push(NOTATION.kind_char(k).to_ascii_uppercase());
        }
    }
    let mut after = pos.clone();
    after.make(m);
    if after.in_check() {
        s.push(if after.status() == Status::Ongoing { '+' } else { '#' });
    }
    s
}
