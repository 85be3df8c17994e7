//! Perft: counting the leaves of the tree of complete turns.

use crate::{RulesError, Variant};

/// The deepest perft the tools accept. No tree this deep can be counted in practice (the
/// start position has about 10^20 leaves at depth 14), so a larger depth is a mistake:
/// refused with a clear error instead of recursing or allocating per ply without end.
pub const MAX_PERFT_DEPTH: u32 = 64;

/// Refuses a perft depth above [`MAX_PERFT_DEPTH`].
pub fn check_perft_depth(depth: u32) -> Result<(), RulesError> {
    if depth > MAX_PERFT_DEPTH {
        return Err(RulesError::Option(format!("perft depth {depth} is above the maximum {MAX_PERFT_DEPTH}")));
    }
    Ok(())
}

/// Reusable move lists, one per ply, so counting allocates only while warming up.
pub struct Perft<V: Variant> {
    lists: Vec<Vec<V::Move>>,
}

impl<V: Variant> Default for Perft<V> {
    fn default() -> Self {
        Perft { lists: Vec::new() }
    }
}

impl<V: Variant> Perft<V> {
    /// Leaves at `depth`. With `bulk`, the last ply is counted without being played.
    /// Move lists are allocated per ply as the recursion reaches it; callers taking a
    /// depth from users check it first ([`check_perft_depth`]).
    pub fn count(&mut self, pos: &mut V, depth: u32, bulk: bool) -> u64 {
        self.rec(pos, depth, bulk, 0)
    }

    fn rec(&mut self, pos: &mut V, depth: u32, bulk: bool, ply: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.lists.len() <= ply {
            self.lists.push(Vec::with_capacity(256));
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        if bulk && depth == 1 {
            let n = pos.count_turns(&mut list);
            self.lists[ply] = list;
            return n;
        }
        list.clear();
        pos.legal_turns(&mut list);
        let mut n = 0;
        if depth == 1 {
            for m in &list {
                let u = pos.make(m);
                pos.unmake(m, u);
                n += 1;
            }
        } else {
            for m in &list {
                let u = pos.make(m);
                n += self.rec(pos, depth - 1, bulk, ply + 1);
                pos.unmake(m, u);
            }
        }
        self.lists[ply] = list;
        n
    }

    /// Calls `each(canonical form, leaves)` for every first turn, in generation order,
    /// and returns the total. Depth 0 has no first turns and counts 1.
    pub fn divide(&mut self, pos: &mut V, depth: u32, bulk: bool, each: &mut dyn FnMut(&str, u64)) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut list = Vec::new();
        pos.legal_turns(&mut list);
        let mut total = 0;
        for m in &list {
            let name = pos.canonical(m);
            let u = pos.make(m);
            let n = self.count(pos, depth - 1, bulk);
            pos.unmake(m, u);
            each(&name, n);
            total += n;
        }
        total
    }
}

/// Leaves at `depth` from `pos` (full-leaf unless `bulk`).
pub fn perft<V: Variant>(pos: &mut V, depth: u32, bulk: bool) -> u64 {
    Perft::<V>::default().count(pos, depth, bulk)
}
