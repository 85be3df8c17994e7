//! Popeye's output layout: the board diagram with its header, solution trees (direct,
//! self and reflex play) and solution lines (help and series play).

use crate::search::{Node, RootKind};
use chimere_core::{Colour, Square};
use chimere_fairy::walk;
use chimere_popeye::Problem;
use std::fmt::Write;

const BOARD_WIDTH: usize = 37;

/// A text centred on the board's width, as Popeye centres condition lines.
pub fn centred(text: &str) -> String {
    let pad = BOARD_WIDTH.saturating_sub(text.len()) / 2;
    format!("{}{text}", " ".repeat(pad))
}

/// The diagram as Popeye draws it, with the stipulation and piece-count line.
pub fn board(p: &Problem, stip: &str) -> String {
    let mut s = String::new();
    let border = "+---a---b---c---d---e---f---g---h---+\n";
    let blank = "|                                   |\n";
    s.push_str(border);
    s.push_str(blank);
    let holes = p.hole_squares();
    for rank in (0..8u8).rev() {
        let _ = write!(s, "{} ", rank + 1);
        for file in 0..8u8 {
            let sq = Square::from_coords(file, rank);
            let mut cell = [b' '; 4];
            match p.pieces.iter().rev().find(|x| x.square == sq) {
                // A hole is drawn as a blank square.
                None if holes.contains(&sq) => {}
                None => cell[2] = b'.',
                Some(u) => {
                    let l = walk::letters(u.kind).as_bytes();
                    let mut pos = 2usize;
                    for &c in l.iter().rev() {
                        cell[pos] = c;
                        pos = pos.saturating_sub(1);
                    }
                    match u.colour {
                        Colour::Black => cell[pos] = b'-',
                        Colour::Shared => cell[pos] = b'=',
                        Colour::White => {}
                    }
                }
            }
            s.push_str(std::str::from_utf8(&cell).unwrap_or("    "));
        }
        let _ = writeln!(s, "  {}", rank + 1);
        s.push_str(blank);
    }
    s.push_str(border);
    let (w, b, n) = p.pieces.iter().fold((0, 0, 0), |(w, b, n), x| match x.colour {
        Colour::White => (w + 1, b, n),
        Colour::Black => (w, b + 1, n),
        Colour::Shared => (w, b, n + 1),
    });
    let counts = if n > 0 { format!("{w} + {b} + {n}n") } else { format!("{w} + {b}") };
    let head = format!("  {stip}");
    let width = (8 * 4 + 4usize).saturating_sub(head.len());
    let _ = writeln!(s, "{head}{counts:>w$}", w = width.saturating_sub(1));
    s
}

/// Indentation of White's (attacker's) m-th move in a tree.
fn attack_indent(m: u32) -> usize {
    if m == 1 { 3 } else { (8 * m - 6) as usize }
}

/// Indentation of Black's (defender's) m-th move in a tree.
fn defence_indent(m: u32) -> usize {
    (8 * m - 2) as usize
}

fn suffix(node: &Node) -> &'static str {
    match node.threat {
        Some(true) => " threat:",
        Some(false) => " zugzwang.",
        None => "",
    }
}

/// Writes an attacker's move at move number `m` with its subtree.
pub fn write_attack(out: &mut String, node: &Node, m: u32) {
    let _ = writeln!(out, "{}{m}.{}{}", " ".repeat(attack_indent(m)), node.text, suffix(node));
    write_below_attack(out, node, m);
}

fn write_below_attack(out: &mut String, node: &Node, m: u32) {
    for t in &node.threats {
        write_attack(out, t, m + 1);
    }
    for d in &node.children {
        write_defence(out, d, m);
    }
}

/// Writes a defender's move at move number `m` with the attacker's answers.
pub fn write_defence(out: &mut String, node: &Node, m: u32) {
    let _ = writeln!(out, "{}{m}...{}", " ".repeat(defence_indent(m)), node.text);
    for c in &node.children {
        write_attack(out, c, m + 1);
    }
}

/// A key, try or premature move with its tree; the block ends with a blank line.
pub fn write_root(out: &mut String, node: &Node, kind: RootKind) {
    let mark = match kind {
        RootKind::Key => " !",
        RootKind::Try => " ?",
        RootKind::Premature => " ?!?",
    };
    let _ = writeln!(out, "   1.{}{mark}{}", node.text, suffix(node));
    write_below_attack(out, node, 1);
    if kind == RootKind::Try {
        out.push_str("    but\n");
        for r in &node.refutations {
            let _ = writeln!(out, "      1...{}", r.text);
            for c in &r.children {
                write_attack(out, c, 2);
            }
        }
    }
    out.push('\n');
}

/// One help or series line: `texts` are the moves in order; `first_white` says the line
/// starts with the second half of move 1 (`1...X`); `series` numbers every move of the
/// series side and puts `answer` after the last one.
pub fn help_line(texts: &[String], starts_half: bool) -> String {
    help_line_from(texts, starts_half, 1)
}

/// Help set play of an `h#n.5` (the starting side passes first): `  1...  ...  2.X Y #`.
pub fn help_line_after_pass(texts: &[String]) -> String {
    let rest = help_line_from(texts, false, 2);
    format!("  1...  ...  {}", rest.trim_start())
}

/// [`help_line`] numbering from `first`.
pub fn help_line_from(texts: &[String], starts_half: bool, first: u32) -> String {
    let mut s = String::from(" ");
    let mut num = first;
    let mut i = 0;
    if starts_half {
        let _ = write!(s, " {num}...{}", texts[0]);
        i = 1;
        num += 1;
    }
    while i < texts.len() {
        let _ = write!(s, "{}{num}.{}", if i == 0 { " " } else { "   " }, texts[i]);
        if i + 1 < texts.len() {
            let _ = write!(s, " {}", texts[i + 1]);
        }
        i += 2;
        num += 1;
    }
    s
}

/// A series line: every series move numbered, the other side's answer after the last.
pub fn series_line(texts: &[String], answer: Option<&str>) -> String {
    let mut s = String::from(" ");
    for (i, t) in texts.iter().enumerate() {
        let _ = write!(s, "{}{}.{t}", if i == 0 { " " } else { "   " }, i + 1);
    }
    if let Some(a) = answer {
        let _ = write!(s, " {a}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_and_series_layout() {
        let t: Vec<String> = ["Kf8-f7", "Rb6-b7 +", "Kf7-g6", "Re5*g5 #"].iter().map(|x| x.to_string()).collect();
        assert_eq!(help_line(&t, false), "  1.Kf8-f7 Rb6-b7 +   2.Kf7-g6 Re5*g5 #");
        let t: Vec<String> =
            ["e7-e8=B", "Kd3-e2", "Be8-h5", "Bh7-d3", "Rg4-e4 #"].iter().map(|x| x.to_string()).collect();
        assert_eq!(help_line(&t, true), "  1...e7-e8=B   2.Kd3-e2 Be8-h5   3.Bh7-d3 Rg4-e4 #");
        let t: Vec<String> = ["Sa2-c1", "Sc1-a2"].iter().map(|x| x.to_string()).collect();
        assert_eq!(series_line(&t, Some("b3*a2 #")), "  1.Sa2-c1   2.Sc1-a2 b3*a2 #");
    }

    #[test]
    fn tree_indentation() {
        let mate =
            Node { text: "Qa8*c8 #".into(), threat: None, threats: vec![], children: vec![], refutations: vec![] };
        let key = Node {
            text: "Qa2-a8".into(),
            threat: Some(true),
            threats: vec![mate],
            children: vec![],
            refutations: vec![],
        };
        let mut s = String::new();
        write_root(&mut s, &key, RootKind::Key);
        assert_eq!(s, "   1.Qa2-a8 ! threat:\n          2.Qa8*c8 #\n\n");
    }
}
