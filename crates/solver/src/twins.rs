//! Twinning: each twin is the diagram (or, for `Continued`, the previous twin) changed by
//! its commands, with the label line Popeye prints (`b) wSd4-->e5`).

use chimere_core::{Colour, Square};
use chimere_fairy::notation::bracket_unit;
use chimere_fairy::position::Unit;
use chimere_fairy::walk;
use chimere_popeye::{ConditionSpec, PieceSpec, Problem, TwinCmd};

/// A unit as a twin's label names it: colour, attributes, walk (`wkSg3` is a white
/// kamikaze knight), as in the brackets of a move.
fn unit_text(p: &PieceSpec) -> String {
    bracket_unit(Unit { attrs: p.attrs, ..Unit::new(p.colour, p.kind) })
}

/// Moves the board's content by `f` (a rotation, mirror or shift): the units, and the
/// squares a condition takes off the board (`Hole`), which are part of the board as Popeye
/// sees it. Squares that name a rule rather than a place on the board, as
/// forced squares, stay where they are, as in Popeye.
fn map_all(p: &mut Problem, f: impl Fn(Square) -> Option<Square>) -> Result<(), String> {
    let mut out = Vec::with_capacity(p.pieces.len());
    for ps in &p.pieces {
        let to = f(ps.square).ok_or_else(|| format!("a unit would leave the board from {}", ps.square))?;
        out.push(PieceSpec { square: to, ..ps.clone() });
    }
    let mut conditions = p.conditions.clone();
    for c in conditions.iter_mut().filter(|c| c.board_squares) {
        for param in c.params.iter_mut() {
            let Some(squares) = square_list(param) else { continue };
            let mut moved = String::with_capacity(param.len());
            for s in squares {
                let to = f(s).ok_or_else(|| format!("a hole would leave the board from {s}"))?;
                moved.push_str(&to.to_string());
            }
            *param = moved;
        }
    }
    p.pieces = out;
    p.conditions = conditions;
    Ok(())
}

/// A condition parameter that lists squares (`d4e5`).
fn square_list(param: &str) -> Option<Vec<Square>> {
    if param.is_empty() || !param.is_ascii() || !param.len().is_multiple_of(2) {
        return None;
    }
    param.as_bytes().chunks(2).map(|c| Square::parse(&String::from_utf8_lossy(c).to_ascii_lowercase())).collect()
}

/// How Popeye writes a Circe keyword that names a variant in one word: as the family's
/// keyword and the variant's parameter (`SuperCirce` is written `Circe Super`).
fn popeye_spelling(name: &str) -> &str {
    match name {
        "SuperCirce" => "Circe Super",
        "MirrorCirce" => "Circe Mirror",
        "DiagramCirce" => "Circe Diagram",
        "CouscousCirce" => "Circe Couscous",
        "SymmetryCirce" => "Circe Symmetry",
        "EquipollentsCirce" => "Circe Equipollents",
        "AntipodeanCirce" => "Circe Antipodes",
        "ChameleonCirce" => "Circe Chameleon",
        "CirceClone" => "Circe Clone",
        "VerticalMirrorCirce" => "Circe VerticalMirror",
        "AntiSuperCirce" => "AntiCirce Super",
        "MarsMirrorCirce" => "MarsCirce Mirror",
        other => other,
    }
}

/// How Popeye writes one condition with its parameters (`Circe Super`, `Hole a1b2`): the
/// text of a header line, and a condition as input reads it back.
pub fn condition_text(c: &ConditionSpec) -> String {
    std::iter::once(popeye_spelling(c.name).to_string()).chain(c.params.iter().cloned()).collect::<Vec<_>>().join(" ")
}

/// The lines under Popeye's diagram naming the conditions, one a condition, in the order of
/// its condition table (not the input's); holes are drawn in the diagram, not named.
pub fn condition_lines(cs: &[ConditionSpec]) -> Vec<String> {
    let mut lines: Vec<String> = cs.iter().filter(|c| !c.board_squares).map(condition_text).collect();
    lines.sort_by_key(|t| chimere_popeye::condition_order::condition_rank(t));
    lines
}

/// How Popeye writes a condition set in a twin label: the header's lines, those after the
/// first indented under the label (`b) Circe`, then `   MonochromChess`).
pub fn conditions_label(cs: &[ConditionSpec]) -> String {
    condition_lines(cs).join("\n   ")
}

/// Applies one twin's commands to `p`; returns the label's descriptions.
pub fn apply(p: &mut Problem, cmds: &[TwinCmd]) -> Result<Vec<String>, String> {
    let mut desc = Vec::new();
    for c in cmds {
        match c {
            TwinCmd::Move(a, b) => {
                let i = p.pieces.iter().position(|x| x.square == *a).ok_or_else(|| format!("Move: no unit on {a}"))?;
                // A unit on the target square is removed, and Popeye says so first.
                if let Some(t) = p.pieces.iter().find(|x| x.square == *b && a != b) {
                    desc.push(format!("-{}{b}", unit_text(t)));
                }
                desc.push(format!("{}{a}-->{b}", unit_text(&p.pieces[i])));
                p.pieces.retain(|x| x.square != *b);
                let i = p.pieces.iter().position(|x| x.square == *a).expect("still there");
                p.pieces[i].square = *b;
            }
            TwinCmd::Exchange(a, b) => {
                let ia =
                    p.pieces.iter().position(|x| x.square == *a).ok_or_else(|| format!("Exchange: no unit on {a}"))?;
                let ib =
                    p.pieces.iter().position(|x| x.square == *b).ok_or_else(|| format!("Exchange: no unit on {b}"))?;
                desc.push(format!("{}{a}<-->{}{b}", unit_text(&p.pieces[ia]), unit_text(&p.pieces[ib])));
                p.pieces[ia].square = *b;
                p.pieces[ib].square = *a;
            }
            TwinCmd::Remove(a) => {
                let i =
                    p.pieces.iter().position(|x| x.square == *a).ok_or_else(|| format!("Remove: no unit on {a}"))?;
                desc.push(format!("-{}{a}", unit_text(&p.pieces[i])));
                p.pieces.remove(i);
            }
            TwinCmd::Add(units) => {
                for u in units {
                    let replaced = p.pieces.iter().any(|x| x.square == u.square);
                    p.pieces.retain(|x| x.square != u.square);
                    p.pieces.push(u.clone());
                    desc.push(format!("{}{}{}", if replaced { "" } else { "+" }, unit_text(u), u.square));
                }
            }
            TwinCmd::Substitute(a, b) => {
                for x in p.pieces.iter_mut().filter(|x| x.kind == *a) {
                    x.kind = *b;
                }
                desc.push(format!("{} ==> {}", walk::letters(*a), walk::letters(*b)));
            }
            TwinCmd::Rotate(deg) => {
                let f = |s: Square| {
                    let (x, y) = (s.file(), s.rank());
                    Some(match deg {
                        90 => Square::from_coords(7 - y, x),
                        180 => Square::from_coords(7 - x, 7 - y),
                        _ => Square::from_coords(y, 7 - x),
                    })
                };
                map_all(p, f)?;
                desc.push(format!("rotate {deg}"));
            }
            TwinCmd::Mirror(how) => {
                let h = how.clone();
                let f = move |s: Square| {
                    let (x, y) = (s.file(), s.rank());
                    Some(match h.as_str() {
                        "a1<-->h1" => Square::from_coords(7 - x, y),
                        "a1<-->a8" => Square::from_coords(x, 7 - y),
                        "a1<-->h8" => Square::from_coords(7 - y, 7 - x),
                        _ => Square::from_coords(y, x),
                    })
                };
                map_all(p, f)?;
                desc.push(format!("mirror {how}"));
            }
            TwinCmd::Shift(a, b) => {
                let df = b.file() as i8 - a.file() as i8;
                let dr = b.rank() as i8 - a.rank() as i8;
                map_all(p, |s| s.offset(df, dr))?;
                desc.push(format!("shift {a} ==> {b}"));
            }
            TwinCmd::PolishType => {
                for x in p.pieces.iter_mut() {
                    x.colour = match x.colour {
                        Colour::White => Colour::Black,
                        Colour::Black => Colour::White,
                        c => c,
                    };
                }
                desc.push("PolishType".into());
            }
            TwinCmd::Condition(cs) => {
                p.conditions = cs.clone();
                desc.push(conditions_label(cs));
            }
            TwinCmd::Stipulation(s) => {
                let line = p.stipulation.as_ref().map_or(p.line, |x| x.1);
                p.stipulation = Some((*s, line));
                desc.push(s.to_string());
            }
        }
    }
    Ok(desc)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    /// The problem of `input` with its first twin applied, and that twin's label parts.
    fn first_twin(input: &str) -> (Problem, Vec<String>) {
        let mut p = chimere_popeye::parse(input).unwrap().remove(0);
        let cmds = p.twins[0].cmds.clone();
        let d = apply(&mut p, &cmds).unwrap();
        (p, d)
    }

    /// A one-word Circe keyword is written as its family and variant in a twin label.
    #[test]
    fn condition_twin_label_uses_popeye_spelling() {
        let p = chimere_popeye::parse(
            "BeginProblem\nPieces White Kf3 Black Kh6\nStipulation h=2\nCondition Circe\n\
             Twin Condition AntiSuperCirce Cheylan\nTwin Condition SuperCirce\nEndProblem\n",
        )
        .unwrap()
        .remove(0);
        let labels: Vec<String> = p
            .twins
            .iter()
            .map(|t| match &t.cmds[0] {
                TwinCmd::Condition(cs) => conditions_label(cs),
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(labels, vec!["AntiCirce Super Cheylan".to_string(), "Circe Super".to_string()]);
    }

    /// `Move` onto an occupied square removes its unit, named first in the label.
    #[test]
    fn move_onto_a_unit_names_its_removal() {
        let (p, d) = first_twin(
            "BeginProblem\nPieces White Pa3 Pb3 Ka1 Black Kh8\nStipulation ~1\nTwin Move a3 b3\nEndProblem\n",
        );
        assert_eq!(d, vec!["-wPb3".to_string(), "wPa3-->b3".to_string()]);
        assert_eq!(p.pieces.iter().filter(|x| x.square == sq("b3")).count(), 1);
        assert!(!p.pieces.iter().any(|x| x.square == sq("a3")));
    }

    #[test]
    fn rotation_and_mirrors_move_units_as_popeye_does() {
        let (p, d) =
            first_twin("BeginProblem\nPieces White Kf3 Black Kh6\nStipulation h=2\nTwin Rotate 90\nEndProblem\n");
        assert_eq!(d, vec!["rotate 90".to_string()]);
        // Rotating 90 degrees to the left: h6 goes to c8, f3 to f6.
        assert!(p.pieces.iter().any(|x| x.square == sq("c8") && x.colour == Colour::Black));
        assert!(p.pieces.iter().any(|x| x.square == sq("f6") && x.colour == Colour::White));
        let mut q = p.clone();
        apply(&mut q, &[TwinCmd::Mirror("a1<-->h1".into())]).unwrap();
        assert!(q.pieces.iter().any(|x| x.square == sq("f8")));
        assert!(apply(&mut q, &[TwinCmd::Shift(sq("a1"), sq("a2"))]).is_err(), "a unit on rank 8 leaves the board");
    }

    /// An added unit's attributes are named in the label as in a move's brackets:
    /// `+wkSg3` for a white kamikaze knight.
    #[test]
    fn an_added_units_attributes_are_named() {
        let (p, d) = first_twin(
            "BeginProblem\nPieces White Ke1 Black Ke8\nStipulation ~1\n\
             Twin Add White Kamikaze Sg3\nEndProblem\n",
        );
        assert_eq!(d, vec!["+wkSg3".to_string()]);
        assert!(p.pieces.iter().any(|x| x.square == sq("g3") && x.attrs != 0));
    }

    /// Rotating, mirroring and shifting move the holes with the units (a hole is a
    /// square off the board); forced squares stay (Popeye 4.104 keeps them).
    #[test]
    fn board_twins_move_the_holes() {
        let input = |twin: &str| {
            format!(
                "BeginProblem\nPieces White Ka1 Qb3 Black Kd5\nStipulation #1\n\
                 Condition Hole a7b7 WhiteConsequentForcedSquare h2\nTwin {twin}\nEndProblem\n"
            )
        };
        let holes = |p: &Problem| {
            let c = p.conditions.iter().find(|c| c.board_squares).expect("holes");
            c.params.iter().flat_map(|x| square_list(x).unwrap()).collect::<Vec<_>>()
        };
        let forced =
            |p: &Problem| p.conditions.iter().find(|c| !c.board_squares).expect("forced squares").params.clone();
        let (p, _) = first_twin(&input("Rotate 90"));
        // Rotating 90 degrees to the left: a7 goes to b1, b7 to b2; the queen b3 to f2.
        assert_eq!(holes(&p), vec![sq("b1"), sq("b2")]);
        assert!(p.pieces.iter().any(|x| x.square == sq("f2")));
        assert_eq!(forced(&p), vec!["h2".to_string()]);
        let (p, _) = first_twin(&input("Mirror a1<-->h1"));
        assert_eq!(holes(&p), vec![sq("h7"), sq("g7")]);
        let (p, _) = first_twin(&input("Shift a1 a2"));
        assert_eq!(holes(&p), vec![sq("a8"), sq("b8")]);
        let mut q = chimere_popeye::parse(&input("Shift a1 a2")).unwrap().remove(0);
        assert!(apply(&mut q, &[TwinCmd::Shift(sq("a1"), sq("a3"))]).is_err(), "a hole on rank 7 leaves the board");
    }

    #[test]
    fn labels() {
        let mut p = chimere_popeye::parse(
            "BeginProblem\nPieces White Ke1 Sd4 Rb6 Black Ke8 Pc3 Re5\nStipulation #2\nEndProblem\n",
        )
        .unwrap()
        .remove(0);
        let d = apply(
            &mut p,
            &[
                TwinCmd::Move(sq("d4"), sq("e5")),
                TwinCmd::Exchange(sq("e5"), sq("b6")),
                TwinCmd::Remove(sq("c3")),
                TwinCmd::Substitute(walk::ROOK, walk::BISHOP),
            ],
        )
        .unwrap();
        // Popeye 4.104 writes `-bRe5  wSd4-->e5  wSe5<-->wBb6  -bPc3  R ==> B`: it names
        // the exchanged rook by the walk the later Substitute gives it (not followed here).
        assert_eq!(d, vec!["-bRe5", "wSd4-->e5", "wSe5<-->wRb6", "-bPc3", "R ==> B"]);
        assert_eq!(p.pieces.len(), 4, "the black rook on e5 was taken off by the move, the pawn c3 removed");
    }
}
