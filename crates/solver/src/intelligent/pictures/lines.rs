//! The lines the walks of the pictures find, kept as a tree of their moves (one node per
//! distinct prefix), so that a line found by several pictures is kept once and the lines
//! are given out in the normal search's order by one walk of the legal moves along the
//! tree: no line or prefix is hashed (with tens of thousands of solutions, hashing every
//! prefix of every line took a quarter of the time).
//!
//! A node whose lines are all known (the walk of the completions finds every line from a
//! position: see the parent module, *Searching pictures together*) can lend them to
//! another path to the same position with the same moves left ([`Lines::graft`]): its
//! moves are then shared, not searched again, and the tree becomes a graph whose every
//! path from the root is a line.

use chimere_fairy::Move;

/// No node (the end of a list of siblings).
const NONE: u32 = u32::MAX;

/// One move of a line after its parent node's.
#[derive(Clone, Copy, Debug)]
struct Node {
    mv: Move,
    first_child: u32,
    next_sibling: u32,
}

/// The lines found from a node of the search (each given whole from the root, with the
/// same first `base` moves): a tree whose root is the node's position.
#[derive(Debug)]
pub(super) struct Lines {
    base: usize,
    /// The root's first child.
    first: u32,
    nodes: Vec<Node>,
    /// Lines kept (distinct).
    count: usize,
}

/// A node of [`Lines`]: the root, or one after a move.
#[derive(Clone, Copy, Debug)]
pub(super) struct At(u32);

impl Lines {
    /// No line yet; each line given will start with the same `base` moves.
    pub(super) fn new(base: usize) -> Lines {
        Lines { base, first: NONE, nodes: Vec::new(), count: 0 }
    }

    /// The node after `path` (moves after the first `base`), if a line goes that way.
    pub(super) fn node_at(&self, path: &[Move]) -> Option<At> {
        path.iter().try_fold(self.root(), |at, m| self.child(at, m))
    }

    /// Makes the lines after `path` those after `from`, a node whose lines are all known:
    /// `path` gets `from`'s moves (shared, never added to again) and has none of its own.
    pub(super) fn graft(&mut self, path: &[Move], from: At) {
        let mut at = self.root();
        for m in path {
            at = self.child_or_new(at, m).0;
        }
        debug_assert_eq!(self.first_slot(at), NONE, "a node grafted has no moves of its own");
        let first = self.first_slot(from);
        self.set_first(at, first);
    }

    /// The node after `m` from `at`, made if new (appended after its siblings), and
    /// whether it is new.
    fn child_or_new(&mut self, at: At, m: &Move) -> (At, bool) {
        let mut c = self.first_slot(at);
        let mut last = NONE;
        while c != NONE && self.nodes[c as usize].mv != *m {
            last = c;
            c = self.nodes[c as usize].next_sibling;
        }
        if c != NONE {
            return (At(c), false);
        }
        c = self.nodes.len() as u32;
        self.nodes.push(Node { mv: *m, first_child: NONE, next_sibling: NONE });
        if last == NONE {
            self.set_first(at, c);
        } else {
            self.nodes[last as usize].next_sibling = c;
        }
        (At(c), true)
    }

    /// Keeps `line` (its moves after the first `base`), once; the moves after a node keep
    /// the order in which they were first given.
    pub(super) fn insert(&mut self, line: &[Move]) {
        self.insert_then(line, None);
    }

    /// [`Lines::insert`] of `line` followed by `then` (a series line's answer), if any.
    pub(super) fn insert_then(&mut self, line: &[Move], then: Option<Move>) {
        let mut at = At(NONE);
        let mut new = false;
        for m in line[self.base..].iter().chain(then.as_ref()) {
            let (next, fresh) = self.child_or_new(at, m);
            at = next;
            new |= fresh;
        }
        self.count += usize::from(new);
    }

    /// The number of distinct lines kept.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.count
    }

    /// The root (the position the lines start from, after `base` moves).
    pub(super) fn root(&self) -> At {
        At(NONE)
    }

    /// The node after move `m` from `at`, if a line goes that way.
    pub(super) fn child(&self, at: At, m: &Move) -> Option<At> {
        let mut c = self.first_slot(at);
        while c != NONE {
            let n = &self.nodes[c as usize];
            if n.mv == *m {
                return Some(At(c));
            }
            c = n.next_sibling;
        }
        None
    }

    /// The moves after `at`, in the order they were first given, with their nodes.
    pub(super) fn children(&self, at: At) -> impl Iterator<Item = (Move, At)> + '_ {
        let mut c = self.first_slot(at);
        std::iter::from_fn(move || {
            if c == NONE {
                return None;
            }
            let n = &self.nodes[c as usize];
            let out = (n.mv, At(c));
            c = n.next_sibling;
            Some(out)
        })
    }

    /// Whether more than one move goes on from `at`.
    pub(super) fn branches(&self, at: At) -> bool {
        let c = self.first_slot(at);
        c != NONE && self.nodes[c as usize].next_sibling != NONE
    }

    fn first_slot(&self, at: At) -> u32 {
        if at.0 == NONE { self.first } else { self.nodes[at.0 as usize].first_child }
    }

    fn set_first(&mut self, at: At, i: u32) {
        if at.0 == NONE {
            self.first = i;
        } else {
            self.nodes[at.0 as usize].first_child = i;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chimere_core::Square;

    fn mv(a: u8, b: u8) -> Move {
        Move { from: Square::new(a), to: Square::new(b), ..Move::NULL }
    }

    #[test]
    fn lines_are_kept_once_and_followed_move_by_move() {
        let (a, b, c) = (mv(1, 2), mv(3, 4), mv(5, 6));
        let mut l = Lines::new(1);
        l.insert(&[c, a, b]);
        l.insert(&[c, a, c]);
        l.insert(&[c, a, b]);
        l.insert(&[c, b, b]);
        assert_eq!(l.len(), 3);
        let r = l.root();
        let after_a = l.child(r, &a).expect("a line starts with a");
        assert!(l.child(after_a, &b).is_some() && l.child(after_a, &c).is_some());
        assert!(l.child(after_a, &a).is_none());
        assert!(l.child(r, &c).is_none(), "the base move is not part of the tree");
        let order: Vec<Move> = l.children(after_a).map(|(m, _)| m).collect();
        assert_eq!(order, [b, c], "in the order first given");
        assert!(l.branches(after_a) && l.branches(r));
        assert!(!l.branches(l.child(after_a, &b).expect("a b")));
        // Another path to a node whose lines are known shares them.
        let (d, e) = (mv(7, 8), mv(9, 10));
        l.insert(&[c, b, b]);
        l.graft(&[d, e], after_a);
        let grafted = l.node_at(&[d, e]).expect("the grafted path");
        let order: Vec<Move> = l.children(grafted).map(|(m, _)| m).collect();
        assert_eq!(order, [b, c]);
        assert!(l.node_at(&[d, e, c]).is_some() && l.node_at(&[d, c]).is_none());
    }
}
