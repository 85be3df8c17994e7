//! The checker of `../shared/spec/solver.md` §1: an output is split into twins at the
//! label lines (`a) `, `+c) `...); within a twin only solution lines count (text starting
//! with a move number, and `but`), nested by indentation within blocks separated by blank
//! lines; siblings compare as unordered multisets, runs of spaces collapsed, indentation
//! exact. Everything else (header, board, messages, timing) is ignored.

use std::collections::BTreeMap;

/// A solution line with the lines nested under it (children kept sorted).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Line {
    pub indent: usize,
    pub text: String,
    pub children: Vec<Line>,
}

/// A twin label: `a) `, `+c) `, and after `z) ` Popeye's `z1) `, `z2) `...
fn is_label(l: &str) -> bool {
    let b = l.as_bytes();
    let b = if b.first() == Some(&b'+') { &b[1..] } else { b };
    let Some((&first, rest)) = b.split_first() else { return false };
    let digits = if first == b'z' { rest.iter().take_while(|c| c.is_ascii_digit()).count() } else { 0 };
    first.is_ascii_lowercase() && rest[digits..].starts_with(b") ")
}

fn is_solution_line(t: &str) -> bool {
    if t == "but" {
        return true;
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && t.as_bytes().get(digits) == Some(&b'.')
}

fn canonical(mut l: Line) -> Line {
    l.children = l.children.into_iter().map(canonical).collect();
    l.children.sort();
    l
}

/// The header lines of an output: the author, origin and title lines written just above
/// each diagram (the non-blank lines right before its top edge, blank lines between them
/// and the edge skipped). A title such as `1.Prize` or `a) diagram` would otherwise read as
/// a solution or twin line.
fn header_lines(lines: &[&str]) -> Vec<bool> {
    let mut header = vec![false; lines.len()];
    let mut in_board = false;
    for (i, l) in lines.iter().enumerate() {
        if !l.starts_with("+---a---b") {
            continue;
        }
        in_board = !in_board;
        if !in_board {
            continue;
        }
        let mut j = i;
        while j > 0 && lines[j - 1].trim().is_empty() {
            j -= 1;
        }
        while j > 0 && !lines[j - 1].trim().is_empty() {
            j -= 1;
            header[j] = true;
        }
    }
    header
}

/// The solution trees of an output, by twin label (spaces collapsed; `""` without twins).
pub fn trees(output: &str) -> BTreeMap<String, Vec<Line>> {
    let mut out: BTreeMap<String, Vec<Line>> = BTreeMap::new();
    let mut label = String::new();
    // Path of open lines: indices into the current twin's forest.
    let mut path: Vec<(usize, Vec<usize>)> = Vec::new();
    let lines: Vec<&str> = output.lines().collect();
    let header = header_lines(&lines);
    for (raw, _) in lines.iter().zip(header).filter(|(_, h)| !h) {
        let raw = *raw;
        if is_label(raw) {
            label = raw.split_whitespace().collect::<Vec<_>>().join(" ");
            out.entry(label.clone()).or_default();
            path.clear();
            continue;
        }
        let t = raw.trim();
        if t.is_empty() {
            path.clear();
            continue;
        }
        if !is_solution_line(t) {
            continue;
        }
        let indent = raw.len() - raw.trim_start_matches(' ').len();
        let text = t.split_whitespace().collect::<Vec<_>>().join(" ");
        let forest = out.entry(label.clone()).or_default();
        while path.last().is_some_and(|(i, _)| *i >= indent) {
            path.pop();
        }
        let line = Line { indent, text, children: Vec::new() };
        let idx_path: Vec<usize> = match path.last() {
            None => {
                forest.push(line);
                vec![forest.len() - 1]
            }
            Some((_, p)) => {
                let mut node = &mut forest[p[0]];
                for &k in &p[1..] {
                    node = &mut node.children[k];
                }
                node.children.push(line);
                let mut q = p.clone();
                q.push(node.children.len() - 1);
                q
            }
        };
        path.push((indent, idx_path));
    }
    out.into_iter()
        .map(|(k, v)| {
            let mut v: Vec<Line> = v.into_iter().map(canonical).collect();
            v.sort();
            (k, v)
        })
        .collect()
}

/// Every line of a forest with the lines above it (`parent / child`, indentation kept on
/// the last), so a line found under another parent or a different number of times shows.
fn paths(forest: &[Line]) -> Vec<String> {
    fn walk(l: &Line, above: &str, out: &mut Vec<String>) {
        let here = format!("{}{}", " ".repeat(l.indent), l.text);
        let full = if above.is_empty() { here } else { format!("{above} / {}", here.trim_start()) };
        out.push(full.clone());
        for c in &l.children {
            walk(c, &full, out);
        }
    }
    let mut out = Vec::new();
    for l in forest {
        walk(l, "", &mut out);
    }
    out
}

/// The entries of `a` left after taking out those of `b`, one for one.
fn multiset_minus<'a>(a: &'a [String], b: &[String]) -> Vec<&'a String> {
    let mut left: Vec<Option<&String>> = b.iter().map(Some).collect();
    a.iter()
        .filter(|x| {
            let hit = left.iter_mut().find(|y| y.is_some_and(|y| y == *x));
            match hit {
                Some(slot) => {
                    *slot = None;
                    false
                }
                None => true,
            }
        })
        .collect()
}

/// Whether two outputs have the same solutions in the sense of the checker; `Err` tells
/// the first difference.
pub fn same_solutions(expected: &str, got: &str) -> Result<(), String> {
    let a = trees(expected);
    let b = trees(got);
    if a == b {
        return Ok(());
    }
    for (k, v) in &a {
        match b.get(k) {
            None => return Err(format!("twin `{k}` missing")),
            Some(w) if w != v => {
                let (fv, fw) = (paths(v), paths(w));
                let missing: Vec<_> = multiset_minus(&fv, &fw).into_iter().take(3).collect();
                let extra: Vec<_> = multiset_minus(&fw, &fv).into_iter().take(3).collect();
                return Err(format!("twin `{k}`: missing {missing:?}, extra {extra:?}"));
            }
            _ => {}
        }
    }
    Err(format!("extra twins: {:?}", b.keys().filter(|k| !a.contains_key(*k)).collect::<Vec<_>>()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "Popeye v4.104\n\na) \n\n   1.Rb1-h1 + !\n      1...Bc8-h3\n          2.Qa2-a8 #\n          2.Rh1*h3 #\n\n   1.Qa2-a8 ! threat:\n          2.Qa8*c8 #\n\n\nsolution finished. Time = 0.015 s\n";

    #[test]
    fn sibling_order_is_free_and_nesting_counts() {
        let b =
            A.replace("          2.Qa2-a8 #\n          2.Rh1*h3 #\n", "          2.Rh1*h3 #\n          2.Qa2-a8 #\n");
        assert!(same_solutions(A, &b).is_ok());
        let swapped_blocks = "a) \n\n   1.Qa2-a8 ! threat:\n          2.Qa8*c8 #\n\n   1.Rb1-h1 + !\n      1...Bc8-h3\n          2.Qa2-a8 #\n          2.Rh1*h3 #\n";
        assert!(same_solutions(A, swapped_blocks).is_ok());
        // A continuation moved under another parent differs.
        let moved = A
            .replace("          2.Qa8*c8 #\n", "")
            .replace("          2.Rh1*h3 #\n", "          2.Rh1*h3 #\n          2.Qa8*c8 #\n");
        let e = same_solutions(A, &moved).unwrap_err();
        // The message names the moved line with its parents on both sides.
        assert!(e.contains("1.Qa2-a8 ! threat: / 2.Qa8*c8 #"), "{e}");
        assert!(e.contains("1...Bc8-h3 / 2.Qa8*c8 #"), "{e}");
        // A line printed twice where once was expected shows too.
        let twice = A.replace("          2.Qa8*c8 #\n", "          2.Qa8*c8 #\n          2.Qa8*c8 #\n");
        assert!(same_solutions(A, &twice).unwrap_err().contains("extra [\"   1.Qa2-a8 ! threat: / 2.Qa8*c8 #\"]"));
        // Indentation is exact.
        let shifted = A.replace("      1...Bc8-h3", "     1...Bc8-h3");
        assert!(same_solutions(A, &shifted).is_err());
        // Timing and header lines do not count.
        let timing = A.replace("0.015", "9.999").replace("Popeye v4.104", "Other");
        assert!(same_solutions(A, &timing).is_ok());
    }

    /// Author, origin and title lines above the diagram do not count, even when they look
    /// like a move (`1.Prize`) or a twin label (`a) diagram`).
    #[test]
    fn header_lines_above_the_board_do_not_count() {
        let board = "+---a---b---c---d---e---f---g---h---+\n8   .   .   8\n+---a---b---c---d---e---f---g---h---+\n  h#1   1 + 1\n\n";
        let sol = "  1.Ke8-d8 Qd1*d8 #\n\nsolution finished.\n";
        let x = format!("Popeye\n\n   A. Author\n      1.Prize\n    a) diagram\n\n{board}{sol}");
        let y = format!("Chimere\n\nA. Author\n\n{board}{sol}");
        assert!(same_solutions(&x, &y).is_ok());
        // Below the board a different line still counts.
        let z = y.replace("Qd1*d8", "Qd1-d8");
        assert!(same_solutions(&x, &z).is_err());
    }

    #[test]
    fn labels_after_z_are_numbered() {
        let x =
            "z) \n\n  1.Kd3-e4 g7-g8=Q   2.Ke4-f5 Qg8-g4 #\n\nz1) +wSa7  \n\n  1.Kc8-b7 d7-d8=Q   2.Kb7-a6 Qd8*c7 =\n";
        let t = trees(x);
        assert_eq!(t.keys().cloned().collect::<Vec<_>>(), vec!["z)".to_string(), "z1) +wSa7".to_string()]);
        assert!(!is_label("1.Kd3-e4") && !is_label("z12x) ") && is_label("+z3) "));
    }

    #[test]
    fn twins_are_compared_apart() {
        let x = "a) \n\n  1.Kd3-e4 g7-g8=Q   2.Ke4-f5 Qg8-g4 #\n\nb) rotate 90  \n\n  1.Kc8-b7 d7-d8=Q   2.Kb7-a6 Qd8*c7 =\n";
        let y = "a) \n\n  1.Kc8-b7 d7-d8=Q   2.Kb7-a6 Qd8*c7 =\n\nb) rotate 90  \n\n  1.Kd3-e4 g7-g8=Q   2.Ke4-f5 Qg8-g4 #\n";
        assert!(same_solutions(x, y).is_err());
        assert_eq!(trees(x).len(), 2);
    }
}
