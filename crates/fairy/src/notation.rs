//! The readable notation of fairy moves, Popeye's: `Sb1-c3`, `Qd4*d7`, `e5*d6 ep.`, `0-0`, `b7-b8=Q`, attribute
//! prefixes (`n` neutral, `r` royal, `k` kamikaze, `u` uncapturable: a ghost), consequences in brackets
//! (`[+bQd8]`, `[wRh4->h1]`, `[-wkBg5]`, `[+bRa8->v]`), check ` +`.

use crate::position::{CHAMELEON, HURDLE_COLOUR_CHANGING, KAMIKAZE, ROYAL, UNCAPTURABLE, Unit};
use crate::rules::Promotee;
use crate::walk::{self, PAWN};
use crate::{Game, Move, Note};
use chimere_core::{Colour, Kind, Square};
use std::fmt::Write;

fn attrs_prefix(u: Unit, with_neutral: bool) -> String {
    let mut s = String::new();
    if with_neutral && u.colour() == Colour::Shared {
        s.push('n');
    }
    // Popeye's order of attributes: royal, kamikaze, ..., uncapturable (a ghost).
    if u.has(ROYAL) {
        s.push('r');
    }
    if u.has(KAMIKAZE) {
        s.push('k');
    }
    if u.has(CHAMELEON) {
        s.push('c');
    }
    if u.has(HURDLE_COLOUR_CHANGING) {
        s.push_str("hcc");
    }
    if u.has(UNCAPTURABLE) {
        s.push('u');
    }
    s
}

/// A unit as the move text shows it: prefixes and walk, the pawn letter omitted when bare.
fn mover_text(u: Unit) -> String {
    let pre = attrs_prefix(u, true);
    if u.kind() == PAWN && pre.is_empty() { String::new() } else { format!("{pre}{}", walk::letters(u.kind())) }
}

fn colour_letter(c: Colour) -> char {
    match c {
        Colour::White => 'w',
        Colour::Black => 'b',
        Colour::Shared => 'n',
    }
}

/// A unit inside brackets (and in a twin's label): colour letter, attributes, walk.
pub fn bracket_unit(u: Unit) -> String {
    format!("{}{}{}", colour_letter(u.colour()), attrs_prefix(u, false), walk::letters(u.kind()))
}

fn promo_text(u: Unit, k: Kind) -> String {
    format!("={}{}", attrs_prefix(u, true), walk::letters(k))
}

/// A promotion of a unit a condition placed: its attributes and new kind, then the
/// attributes the promotee took (`[+wPa8=Q=c]`, `[+bcPb1=cB]`, as Popeye writes them).
fn placed_promo_text(u: Unit, p: Promotee) -> String {
    let mut s = format!("={}{}", attrs_prefix(u, false), walk::letters(p.kind));
    let added = p.attrs & !u.attrs;
    if added != 0 {
        let _ = write!(s, "={}", attrs_prefix(Unit { attrs: added, ..u }, false));
    }
    s
}

/// The text of a move (before it is played) with its notes, without check mark.
pub fn move_text(game: &Game, mv: &Move, notes: &[Note]) -> String {
    let pos = &game.pos;
    let mut s = String::new();
    if mv.is_null() {
        // Popeye writes a pass as `...`.
        return "...".into();
    }
    let Some(u) = game.rules.moving_unit(pos, mv) else { return "?".into() };
    if let Some(sh) = mv.shift {
        // A push/pull move: the mover's part (`Rd1` staying put, `Rd1-d3`, `Rd1-R` leaving
        // the board), then the object's displacement in brackets (`[bPd5->d7]`, `[bPd7->R]`).
        let _ = write!(s, "{}{}", mover_text(u), mv.from);
        if sh.mover_off {
            s.push_str("-R");
        } else if mv.to != mv.from {
            let _ = write!(s, "-{}", mv.to);
        }
        if let Some(k) = mv.promo {
            s.push_str(&promo_text(u, k));
        }
        if let Some((of, ot)) = sh.object {
            let obj = pos.unit(of).map_or_else(String::new, bracket_unit);
            match ot {
                Some(t) => {
                    let _ = write!(s, "[{obj}{of}->{t}]");
                }
                None => {
                    let _ = write!(s, "[{obj}{of}->R]");
                }
            }
        }
        // Push/pull moves have no other consequences (no notes).
        return s;
    }
    if let Some((rf, rt)) = mv.castle
        && game.rules.castling_long_notation
    {
        let partner = pos.unit(rf).map_or_else(String::new, bracket_unit);
        let _ = write!(s, "{}{}-{}/{partner}{rf}-{rt}", mover_text(u), mv.from, mv.to);
    } else if let Some((rf, _)) = mv.castle {
        s.push_str(if rf.file() > mv.from.file() { "0-0" } else { "0-0-0" });
    } else {
        s.push_str(&mover_text(u));
        let _ = write!(s, "{}", mv.from);
        if let Some(via) = mv.via {
            let _ = write!(s, "-{via}");
        }
        match mv.capture {
            Some(c) if c != mv.to && !mv.ep => {
                let _ = write!(s, "*{c}-{}", mv.to);
            }
            Some(_) => {
                let _ = write!(s, "*{}", mv.to);
            }
            None => {
                let _ = write!(s, "-{}", mv.to);
            }
        }
        if let Some(k) = mv.promo {
            s.push_str(&promo_text(u, k));
        }
        if mv.ep {
            s.push_str(" ep.");
        }
    }
    // Popeye writes the mover's colour change right after the move, before the capture's
    // brackets, and a reborn unit's inside its bracket (`Ra8*a7=w[+wPa2=b]`).
    let recoloured = |at: Square| {
        notes.iter().find_map(|n| match *n {
            Note::Recoloured { sq, colour, .. } if sq == at => Some(colour),
            _ => None,
        })
    };
    // The same for its change of kind (Einstein: `c2*b3=S[+bRa8]`).
    for n in notes {
        match *n {
            Note::Recoloured { sq, colour, .. } if sq == mv.to => {
                let _ = write!(s, "={}", colour_letter(colour));
            }
            Note::Rekinded { sq, unit, kind } if sq == mv.to => {
                let _ = write!(s, "={}{}", attrs_prefix(unit, true), walk::letters(kind));
            }
            Note::Attributed { sq, unit } if sq == mv.to => {
                let _ = write!(s, "={}", attrs_prefix(unit, true));
            }
            _ => {}
        }
    }
    let in_bracket = |at: Square| notes.iter().any(|n| matches!(*n, Note::Reborn { sq, .. } if sq == at));
    // A turned hurdle first, as Popeye writes it (`hccGh6*h8[h7=w][+bSh1]`).
    for n in notes {
        if let Note::Turned { sq, colour, .. } = *n {
            let _ = write!(s, "[{sq}={}]", colour_letter(colour));
        }
    }
    for n in notes {
        match *n {
            Note::Recoloured { sq, .. } if sq == mv.to || in_bracket(sq) => {}
            Note::Rekinded { sq, .. } | Note::Attributed { sq, .. } if sq == mv.to => {}
            Note::Recoloured { colour, .. } => {
                let _ = write!(s, "={}", colour_letter(colour));
            }
            Note::Rekinded { unit, kind, .. } => {
                let _ = write!(s, "={}{}", attrs_prefix(unit, true), walk::letters(kind));
            }
            Note::Reborn { sq, unit, promo } => {
                let _ = write!(s, "[+{}{sq}", bracket_unit(unit));
                if let Some(p) = promo {
                    s.push_str(&placed_promo_text(unit, p));
                }
                if let Some(c) = recoloured(sq) {
                    let _ = write!(s, "={}", colour_letter(c));
                }
                s.push(']');
            }
            Note::RebornUnder { sq, unit, promo } => {
                let _ = write!(s, "[+{}{sq}", bracket_unit(unit));
                if let Some(p) = promo {
                    s.push_str(&placed_promo_text(unit, p));
                }
                s.push_str("->v]");
            }
            Note::Transfer { from, to, unit, promo } => {
                let _ = write!(s, "[{}{from}->{to}", bracket_unit(unit));
                if let Some(p) = promo {
                    s.push_str(&placed_promo_text(unit, p));
                }
                s.push(']');
            }
            Note::Vanished { sq, unit } => {
                let _ = write!(s, "[-{}{sq}]", bracket_unit(unit));
            }
            Note::Reappeared { sq, unit } => {
                let _ = write!(s, "[+{}{sq}]", bracket_unit(unit));
            }
            Note::Swapped { a_sq, a, b_sq, b } => {
                let _ = write!(s, "[{}{a_sq}<->{}{b_sq}]", walk::letters(a.kind()), walk::letters(b.kind()));
            }
            Note::Attributed { unit, .. } => {
                let _ = write!(s, "={}", attrs_prefix(unit, true));
            }
            Note::Turned { .. } => {}
        }
    }
    s
}

/// Plays a legal move, writes it with ` +` if it checks, and takes it back. `None` if the
/// move is not legal.
pub fn move_with_check(game: &mut Game, mv: &Move) -> Option<String> {
    let before = game.pos.side();
    if !mv.is_null() {
        game.rules.moving_unit(&game.pos, mv)?;
    }
    let notes = game.make(mv)?;
    game.unmake();
    let mut s = move_text(game, mv, &notes);
    game.make(mv)?;
    if game.in_check(before.opponent()) {
        s.push_str(" +");
    }
    game.unmake();
    Some(s)
}

/// Every legal move of the side to move with its text (check marks included), sorted by
/// text.
pub fn legal_with_texts(game: &mut Game) -> Vec<(Move, String)> {
    let mut v = Vec::new();
    game.legal_moves(&mut v);
    let mut out: Vec<(Move, String)> =
        v.iter().map(|m| (*m, move_with_check(game, m).expect("a legal move can be played"))).collect();
    out.sort_by(|a, b| a.1.cmp(&b.1));
    out
}

/// The legal move of the side to move written `text` (a check mark ` +` optional).
pub fn find_legal(game: &mut Game, text: &str) -> Option<Move> {
    let text = text.trim_end_matches(" +");
    legal_with_texts(game).into_iter().find(|(_, t)| t.trim_end_matches(" +") == text).map(|(m, _)| m)
}
