//! The structure of a turn for a board and a person: each part's real squares (origin and
//! destination, a unit leaving the board, a capture made in place, an empty part), the
//! squares whose units are captured, the squares where units appear that did not travel
//! (rebirths, promotions elsewhere), and a label in words. Derived from the rules' own
//! texts of the turn ([`TurnText`]): the UCI token names each part's travelling unit
//! (`spec/uci-notation.md`), the canonical form what each part removes and adds. The web
//! client reads this and parses no turn text itself.

use crate::VariantKind;
use chimere_core::TurnText;
use serde::{Deserialize, Serialize};

/// One part of a turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum TurnPart {
    /// A unit travels from `from` to `to` (`promotion`: the FEN letter of the kind it
    /// becomes, when that differs).
    Move {
        from: String,
        to: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        promotion: Option<char>,
    },
    /// The unit on `from` leaves the board.
    Exit { from: String },
    /// The unit on `from` captures on `target` without moving (Interweave's Remover,
    /// Fugue's archer; `both`: the actor is destroyed too, Fugue's swapper).
    Act { from: String, target: String, both: bool },
    /// An empty part: a pass, or Checkered's switch (`switch`).
    Empty { switch: bool },
}

/// A turn for a board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnShape {
    /// The parts, in play order.
    pub parts: Vec<TurnPart>,
    /// Squares of opponent units the turn removes from the board (captures).
    pub captures: Vec<String>,
    /// Squares where a unit appears that no part moved there (rebirths, units added by
    /// a condition).
    pub appears: Vec<String>,
    /// The turn in words, for a person (the variant's notation, or a sentence for an
    /// empty or exit part).
    pub label: String,
}

impl TurnShape {
    /// Every square the turn's parts start from and arrive on, in order (for the
    /// last-move highlight).
    pub fn squares(&self) -> Vec<&str> {
        let mut v = Vec::new();
        for p in &self.parts {
            match p {
                TurnPart::Move { from, to, .. } => v.extend([from.as_str(), to.as_str()]),
                TurnPart::Exit { from } => v.push(from.as_str()),
                TurnPart::Act { from, target, .. } => v.extend([from.as_str(), target.as_str()]),
                TurnPart::Empty { .. } => {}
            }
        }
        v
    }
}

/// One `-sq:cp` / `+sq:cp` token of the canonical form.
struct Unit<'a> {
    add: bool,
    square: &'a str,
    colour: char,
    kind: &'a str,
}

fn units(part: &str) -> Vec<Unit<'_>> {
    part.split_whitespace()
        .filter_map(|t| {
            let add = t.starts_with('+');
            if !add && !t.starts_with('-') {
                return None;
            }
            let (square, piece) = t[1..].split_once(':')?;
            let mut chars = piece.chars();
            let colour = chars.next()?;
            Some(Unit { add, square, colour, kind: chars.as_str() })
        })
        .collect()
}

fn is_square(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1])
}

/// The structure of `turn` of `kind`, played by the side whose canonical colour letter is
/// `mover` (`w` or `b`).
pub fn shape(kind: VariantKind, turn: &TurnText, mover: char) -> TurnShape {
    let canon_parts: Vec<&str> = turn.canonical.split(" ; ").collect();
    // Fairy tokens carry a disambiguating suffix after `/`, `~`, `#` or `@`.
    let base = turn.uci.split(['/', '~', '#', '@']).next().unwrap_or("");
    let tokens: Vec<&str> = base.split(',').collect();
    let mut parts = Vec::with_capacity(tokens.len());
    let mut captures = Vec::new();
    let mut appears = Vec::new();
    for (i, tok) in tokens.iter().enumerate() {
        let canon = canon_parts.get(i).copied().unwrap_or("");
        let us = units(canon);
        let part = if *tok == "0000" || tok.is_empty() {
            TurnPart::Empty { switch: canon.trim() == "SWITCH" }
        } else if let Some(from) = tok.strip_suffix("--") {
            TurnPart::Exit { from: from.to_string() }
        } else if tok.len() >= 4 && is_square(&tok[..2]) && is_square(&tok[2..4]) {
            let (from, to, rest) = (&tok[..2], &tok[2..4], &tok[4..]);
            let leaves = us.iter().any(|u| !u.add && u.square == from && u.colour != opponent(mover));
            if !leaves || rest == "x" {
                TurnPart::Act { from: from.into(), target: to.into(), both: rest == "x" }
            } else {
                TurnPart::Move { from: from.into(), to: to.into(), promotion: rest.chars().next() }
            }
        } else {
            TurnPart::Empty { switch: false }
        };
        // Captures: opponent units removed and not put back anywhere in this part
        // (Dynamo pushes move them: not a capture). Appearances: additions on squares no
        // part travels to.
        let travel: Vec<&str> = match &part {
            TurnPart::Move { from, to, .. } => vec![from, to],
            TurnPart::Exit { from } => vec![from],
            _ => vec![],
        };
        for u in &us {
            if !u.add && u.colour == opponent(mover) {
                let back = us.iter().any(|a| a.add && a.colour == u.colour && a.kind == u.kind && a.square != u.square);
                let exits = matches!(&part, TurnPart::Exit { from } if from == u.square);
                if !back && !exits {
                    captures.push(u.square.to_string());
                }
            }
            if u.add && !travel.contains(&u.square) {
                let moved_there = us.iter().any(|r| !r.add && r.square == u.square);
                if !moved_there && !appears.iter().any(|a: &String| a == u.square) {
                    appears.push(u.square.to_string());
                }
            }
        }
        parts.push(part);
    }
    // A pushed enemy that did not travel by the token (Dynamo part 2) is not "appearing".
    if kind == VariantKind::Dynamo {
        appears.clear();
    }
    let label = label(kind, turn, &parts);
    TurnShape { parts, captures, appears, label }
}

fn opponent(mover: char) -> char {
    if mover == 'w' { 'b' } else { 'w' }
}

/// The turn in words: the variant's notation, unless a part has no readable notation of
/// its own (empty parts and exits, which some notations write with symbols).
fn label(kind: VariantKind, turn: &TurnText, parts: &[TurnPart]) -> String {
    let readable = |p: &TurnPart| match p {
        TurnPart::Empty { switch: true } => "switch".to_string(),
        TurnPart::Empty { switch: false } => "pass".to_string(),
        TurnPart::Exit { from } => format!("{from} off the board"),
        TurnPart::Move { from, to, promotion } => match promotion {
            Some(k) => format!("{from}–{to}={}", k.to_ascii_uppercase()),
            None => format!("{from}–{to}"),
        },
        TurnPart::Act { from, target, .. } => format!("{from}×{target}"),
    };
    let n = turn.notation.trim();
    let symbolic = n.is_empty() || n.contains("0000") || n.contains("--") || n.contains(':');
    if !symbolic {
        return n.to_string();
    }
    let _ = kind;
    parts.iter().map(readable).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::create;
    use chimere_core::GameOptions;

    fn find(variant: &str, fen: Option<&str>, uci: &str) -> (TurnShape, TurnText) {
        let opts = GameOptions::default();
        let mut g = create(variant, opts, fen).unwrap();
        let mover = if g.side_to_move() == chimere_core::Colour::White { 'w' } else { 'b' };
        let t = g.legal().into_iter().find(|t| t.uci == uci).unwrap_or_else(|| panic!("{variant}: no turn {uci}"));
        (shape(VariantKind::from_name(variant).unwrap(), &t, mover), t)
    }

    #[test]
    fn a_capture_lights_its_origin_and_the_captured_square() {
        let (s, _) = find("chess", Some("4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1"), "f3e5");
        assert_eq!(s.parts, vec![TurnPart::Move { from: "f3".into(), to: "e5".into(), promotion: None }]);
        assert_eq!(s.captures, vec!["e5"]);
        assert_eq!(s.label, "Nxe5");
        let (s, _) = find("chess", Some("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1"), "e7e8q");
        assert_eq!(s.parts, vec![TurnPart::Move { from: "e7".into(), to: "e8".into(), promotion: Some('q') }]);
    }

    #[test]
    fn castling_and_multi_part_turns_have_their_real_squares() {
        let (s, _) = find("chess", Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1"), "e1g1");
        assert_eq!(s.squares(), ["e1", "g1"]);
        let mut g = create("dynamo", GameOptions::default(), None).unwrap();
        let t = g.legal().into_iter().find(|t| t.uci.ends_with(",0000")).expect("a part 1 and a pass");
        let s = shape(VariantKind::Dynamo, &t, 'w');
        assert_eq!(s.parts.len(), 2, "{t:?}");
        assert_eq!(s.parts[1], TurnPart::Empty { switch: false });
        assert!(!s.label.contains("0000"), "{}", s.label);
    }

    #[test]
    fn every_legal_turn_of_every_start_has_a_shape_with_real_squares() {
        for k in VariantKind::ALL {
            let mut g = create(k.name(), GameOptions::default(), None).unwrap();
            for t in g.legal() {
                let s = shape(k, &t, 'w');
                assert!(!s.parts.is_empty());
                for sq in s.squares() {
                    assert!(is_square(sq), "{k}: {sq} in {t:?}");
                }
                assert!(!s.label.is_empty() && !s.label.contains(':') && !s.label.contains("0000"), "{k}: {}", s.label);
            }
        }
    }
}
