//! The transposition table, shared by every search thread without locks.
//!
//! An entry is two 64-bit atomics: the position key XOR the data, and the data. A reader
//! accepts an entry only if the two agree with its key, so a torn write (two threads
//! storing at once) reads as a miss, never as another position's data. The data packs the
//! best turn's `move_id` (32 bits), the score (16), the depth (8), the bound (2) and the
//! search generation (6).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// What a stored score says about the true value.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true value (a PV node).
    Exact,
    /// At least the score (a fail high).
    Lower,
    /// At most the score (a fail low).
    Upper,
}

/// One entry read back.
#[derive(Copy, Clone, Debug)]
pub struct Hit {
    /// `move_id` of the best turn found (0: none).
    pub move_id: u32,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The table: a power-of-two number of slots.
pub struct Tt {
    slots: Vec<Slot>,
    mask: usize,
    generation: AtomicU64,
}

const SLOT_BYTES: usize = 16;

impl Tt {
    /// A table of about `mb` megabytes (at least one slot).
    pub fn new(mb: usize) -> Tt {
        let want = (mb.max(1) * 1024 * 1024 / SLOT_BYTES).max(1);
        let n = if want.is_power_of_two() { want } else { want.next_power_of_two() / 2 };
        let slots = (0..n).map(|_| Slot { check: AtomicU64::new(0), data: AtomicU64::new(0) }).collect();
        Tt { slots, mask: n - 1, generation: AtomicU64::new(0) }
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for s in &self.slots {
            s.check.store(0, Relaxed);
            s.data.store(0, Relaxed);
        }
    }

    /// Starts a new search (older entries are replaced first).
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    fn current_generation(&self) -> u64 {
        self.generation.load(Relaxed) & 63
    }

    fn slot(&self, key: u64) -> &Slot {
        &self.slots[(key as usize) & self.mask]
    }

    /// The entry of `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let s = self.slot(key);
        let data = s.data.load(Relaxed);
        let check = s.check.load(Relaxed);
        if data == 0 || check ^ data != key {
            return None;
        }
        Some(unpack(data))
    }

    /// Stores a result; keeps a deeper entry of the same position from this search unless
    /// the new one is exact.
    pub fn store(&self, key: u64, move_id: u32, score: i32, depth: i32, bound: Bound) {
        let s = self.slot(key);
        let old = s.data.load(Relaxed);
        let age = self.current_generation();
        if old != 0 && s.check.load(Relaxed) ^ old == key {
            let o = unpack(old);
            let same_gen = (old >> 58) == age;
            if same_gen && o.depth > depth + 2 && bound != Bound::Exact {
                return;
            }
            let move_id = if move_id == 0 { o.move_id } else { move_id };
            let data = pack(move_id, score, depth, bound, age);
            s.data.store(data, Relaxed);
            s.check.store(key ^ data, Relaxed);
            return;
        }
        if old != 0 {
            let o = unpack(old);
            if (old >> 58) == age && o.depth > depth + 4 {
                return;
            }
        }
        let data = pack(move_id, score, depth, bound, age);
        s.data.store(data, Relaxed);
        s.check.store(key ^ data, Relaxed);
    }

    /// Per mille of the first thousand slots used in this search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(1000);
        let age = self.current_generation();
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s.data.load(Relaxed);
                d != 0 && d >> 58 == age
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

fn pack(move_id: u32, score: i32, depth: i32, bound: Bound, age: u64) -> u64 {
    let b = match bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    let score = (score.clamp(-32767, 32767) as i16 as u16) as u64;
    let depth = (depth.clamp(-1, 254) + 1) as u64;
    move_id as u64 | score << 32 | depth << 48 | b << 56 | age << 58
}

fn unpack(d: u64) -> Hit {
    let bound = match (d >> 56) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        _ => Bound::Upper,
    };
    Hit { move_id: d as u32, score: (d >> 32) as u16 as i16 as i32, depth: ((d >> 48) & 0xFF) as i32 - 1, bound }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_reads_back() {
        let tt = Tt::new(1);
        tt.store(0xDEAD_BEEF_1234, 77, -1234, 9, Bound::Lower);
        let h = tt.probe(0xDEAD_BEEF_1234).expect("stored");
        assert_eq!((h.move_id, h.score, h.depth, h.bound), (77, -1234, 9, Bound::Lower));
        assert!(tt.probe(0xDEAD_BEEF_1235).is_none());
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF_1234).is_none());
    }

    #[test]
    fn size_follows_megabytes() {
        assert_eq!(Tt::new(1).slots.len(), 65536);
        assert_eq!(Tt::new(3).slots.len(), 131072);
    }
}
