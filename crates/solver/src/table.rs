//! The table of solved sub-positions: (position hash, question, length) → yes/no, shared
//! by every thread of a solve without locks.
//!
//! A fixed number of buckets of four entries (one cache line each); an entry is two
//! atomic words, `key ^ data` and `data`, so a read torn by a concurrent write fails the
//! key check and is a miss, never a wrong answer. `data` holds the answer, the length
//! (deeper answers cost more to find again, so a full bucket gives up its shallowest
//! entry) and the job's generation (entries of earlier jobs go first).
//!
//! Memory is taken as the table fills: it starts at one segment and doubles (up to the
//! size asked for) when the stores outnumber three quarters of its entries, so a small
//! problem does not pay for clearing a large table. Entries stored before a doubling are
//! still found when the new index bit of their key is zero: a cache may lose entries.
//!
//! Each job (a twin solved for one side) takes its own handle ([`Table::job`]): a salt
//! mixed into every key keeps the answers of one rule set or goal from serving another.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

/// Entries per bucket.
const WAYS: usize = 4;
/// Words per bucket (two per entry).
const BUCKET_WORDS: usize = 2 * WAYS;
/// log2 of the buckets of one segment (2^14 buckets of 64 bytes: 1 MB).
const SEG_BITS: u32 = 14;
/// Stores counted locally before they are added to the shared count.
const FLUSH: u32 = 256;

struct Inner {
    segments: Box<[OnceLock<Box<[AtomicU64]>>]>,
    /// log2 of the buckets that may be used at most.
    max_bits: u32,
    /// log2 of the buckets in use now.
    bits: AtomicU32,
    /// Stores so far (in steps of [`FLUSH`]), for growing.
    stored: AtomicU64,
    /// Jobs started (salt and generation of the next one).
    jobs: AtomicU32,
}

/// log2 of the entries of a handle's own small cache.
const LOCAL_BITS: u32 = 15;

/// A handle on the shared table for one job (cheap to clone: every thread of the job
/// holds one). `Table::new(0)` is a disabled table: nothing is stored.
///
/// Each handle also keeps the latest answers in a small direct-mapped cache of its own
/// (512 KB, made on the first store): most transpositions meet within a small subtree,
/// and this cache answers them without a trip to main memory.
pub struct Table {
    inner: Option<Arc<Inner>>,
    salt: u64,
    generation: u64,
    pending: u32,
    /// (key, data) pairs, indexed by key bits the shared table does not use first.
    local: Vec<[u64; 2]>,
}

impl Clone for Table {
    /// Another handle on the same job's table, with an empty cache of its own.
    fn clone(&self) -> Table {
        Table { inner: self.inner.clone(), salt: self.salt, generation: self.generation, pending: 0, local: Vec::new() }
    }
}

/// Kinds of memoised question (part of the table key).
#[derive(Clone, Copy)]
#[repr(u8)]
pub enum Q {
    DirectAttack = 1,
    SelfAttack = 2,
    Help = 3,
    Series = 4,
    /// Bounds of a question monotone in its length ([`Bounds`]).
    Bounds = 5,
    /// Direct play, the defender to move (in [`Bounds`]).
    DirectDefence = 6,
    /// Plain self play, the defender to move (in [`Bounds`]).
    SelfDefence = 7,
    /// Reflex play without `exact-`, the defender to move (in [`Bounds`]).
    ReflexDefence = 8,
}

/// What is known of a question whose answer is monotone in its length `n` (no in `n`
/// implies no in every shorter length, yes in `n` yes in every longer one): the shortest
/// length known to succeed and the longest known to fail.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bounds {
    /// The shortest length known to succeed (`None`: none known).
    pub yes: Option<u32>,
    /// The longest length known to fail (0: none known; a length is at least 1).
    pub no: u32,
}

impl Bounds {
    /// The answer for length `n`, if these bounds decide it.
    pub fn answer(&self, n: u32) -> Option<bool> {
        if self.yes.is_some_and(|y| y <= n) {
            Some(true)
        } else if self.no >= n {
            Some(false)
        } else {
            None
        }
    }

    /// These bounds with the answer `v` for length `n` added.
    pub fn with(self, n: u32, v: bool) -> Bounds {
        if v {
            Bounds { yes: Some(self.yes.map_or(n, |y| y.min(n))), ..self }
        } else {
            Bounds { no: self.no.max(n), ..self }
        }
    }

    /// Packed in 16 bits: `yes` (0: none) and `no`, each capped at 255 (a cap only loses
    /// knowledge: a `yes` beyond it is not kept, a `no` is lowered to it).
    fn pack(self) -> u64 {
        let yes = self.yes.filter(|&y| y <= 0xff).unwrap_or(0) as u64;
        yes | (self.no.min(0xff) as u64) << 8
    }

    fn unpack(w: u64) -> Bounds {
        let yes = (w & 0xff) as u32;
        Bounds { yes: (yes != 0).then_some(yes), no: ((w >> 8) & 0xff) as u32 }
    }
}

impl Table {
    /// A table of at most about `mb` megabytes (0: no table).
    pub fn new(mb: usize) -> Table {
        let buckets = mb.saturating_mul(1 << 20) / (BUCKET_WORDS * 8);
        if buckets == 0 {
            return Table { inner: None, salt: 0, generation: 0, pending: 0, local: Vec::new() };
        }
        // The largest power of two of buckets within the size, at least one segment.
        let max_bits = (usize::BITS - 1 - buckets.leading_zeros()).max(SEG_BITS);
        let seg_count = 1usize << (max_bits - SEG_BITS);
        let segments = (0..seg_count).map(|_| OnceLock::new()).collect();
        let inner = Inner {
            segments,
            max_bits,
            bits: AtomicU32::new(SEG_BITS),
            stored: AtomicU64::new(0),
            jobs: AtomicU32::new(0),
        };
        Table { inner: Some(Arc::new(inner)), salt: 0, generation: 0, pending: 0, local: Vec::new() }
    }

    /// Whether answers are stored at all.
    pub fn enabled(&self) -> bool {
        self.inner.is_some()
    }

    /// A handle for a new job: its keys never meet those of another job.
    pub fn job(&self) -> Table {
        let Some(inner) = &self.inner else { return self.clone() };
        let j = inner.jobs.fetch_add(1, Ordering::Relaxed) as u64 + 1;
        Table {
            inner: self.inner.clone(),
            salt: j.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(17) ^ 0x5851_f42d_4c95_7f2d,
            generation: j & 0xff,
            pending: 0,
            local: Vec::new(),
        }
    }

    /// The key of a question about the position of hash `hash`.
    pub fn key(hash: u64, q: Q, n: u32, extra: u32) -> u64 {
        hash ^ ((q as u64) << 56).wrapping_mul(0x2545_f491_4f6c_dd1d)
            ^ (n as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ (extra as u64 + 7).wrapping_mul(0xbf58_476d_1ce4_e5b9)
    }

    /// The bucket's words for `key`, if its segment exists (`create`: make it).
    fn bucket(inner: &Inner, key: u64, create: bool) -> Option<&[AtomicU64]> {
        let bits = inner.bits.load(Ordering::Relaxed);
        let b = (key as usize) & ((1usize << bits) - 1);
        let seg = &inner.segments[b >> SEG_BITS];
        let words = match seg.get() {
            Some(w) => w,
            None if create => seg.get_or_init(|| (0..(BUCKET_WORDS << SEG_BITS)).map(|_| AtomicU64::new(0)).collect()),
            None => return None,
        };
        let at = (b & ((1 << SEG_BITS) - 1)) * BUCKET_WORDS;
        Some(&words[at..at + BUCKET_WORDS])
    }

    /// The slot of `key` in a handle's own cache.
    fn local_index(key: u64) -> usize {
        (key >> (64 - LOCAL_BITS)) as usize
    }

    /// The stored answer for `key`, if any.
    pub fn get(&self, key: u64) -> Option<bool> {
        self.word(key).map(|d| d & 1 == 1)
    }

    /// The bounds stored for `key` (a key of [`Q::Bounds`], made with length 0).
    pub fn bounds(&self, key: u64) -> Bounds {
        self.word(key).map_or(Bounds::default(), |d| Bounds::unpack(d >> 17))
    }

    /// Stores the bounds `b` for `key` (the caller merges them with what it read).
    pub fn put_bounds(&mut self, key: u64, b: Bounds) {
        let depth = b.no.max(b.yes.unwrap_or(0));
        self.store(key, depth, b.pack() << 17);
    }

    /// The data word stored for `key`, if any.
    fn word(&self, key: u64) -> Option<u64> {
        let inner = self.inner.as_deref()?;
        let key = key ^ self.salt;
        if let Some(&[k, data]) = self.local.get(Table::local_index(key))
            && k == key
            && data != 0
        {
            return Some(data);
        }
        let words = Table::bucket(inner, key, false)?;
        for w in words.chunks_exact(2) {
            let data = w[1].load(Ordering::Relaxed);
            if data != 0 && w[0].load(Ordering::Relaxed) ^ data == key {
                return Some(data);
            }
        }
        None
    }

    /// Stores the answer `v` for `key`, a question of length `depth`.
    pub fn put(&mut self, key: u64, depth: u32, v: bool) {
        self.store(key, depth, v as u64);
    }

    /// Stores `payload` (bit 0, or bits 17 and up) for `key`, a question of length `depth`.
    fn store(&mut self, key: u64, depth: u32, payload: u64) {
        let Some(inner) = self.inner.as_deref() else { return };
        let key = key ^ self.salt;
        let words = Table::bucket(inner, key, true).expect("segment made");
        let data = payload | ((depth.min(0xfe) as u64 + 1) << 1) | (self.generation << 9);
        // The entry of this key, else an empty one, else one of an earlier job, else the
        // shallowest.
        let mut slot = 0;
        let mut worst = u64::MAX;
        for (i, w) in words.chunks_exact(2).enumerate() {
            let d = w[1].load(Ordering::Relaxed);
            if d == 0 || w[0].load(Ordering::Relaxed) ^ d == key {
                slot = i;
                break;
            }
            let rank = if (d >> 9) & 0xff != self.generation { 0 } else { (d >> 1) & 0xff };
            if rank < worst {
                worst = rank;
                slot = i;
            }
        }
        words[2 * slot].store(key ^ data, Ordering::Relaxed);
        words[2 * slot + 1].store(data, Ordering::Relaxed);
        if self.local.is_empty() {
            self.local = vec![[0, 0]; 1 << LOCAL_BITS];
        }
        self.local[Table::local_index(key)] = [key, data];
        self.pending += 1;
        if self.pending >= FLUSH {
            self.pending = 0;
            let stored = inner.stored.fetch_add(FLUSH as u64, Ordering::Relaxed) + FLUSH as u64;
            let bits = inner.bits.load(Ordering::Relaxed);
            if bits < inner.max_bits && stored > ((WAYS as u64) << bits) * 3 / 4 {
                let _ = inner.bits.compare_exchange(bits, bits + 1, Ordering::Relaxed, Ordering::Relaxed);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_answers_per_job() {
        let t = Table::new(4);
        let mut a = t.job();
        let mut b = t.job();
        let k = Table::key(0x1234_5678_9abc_def0, Q::Help, 3, 0);
        assert_eq!(a.get(k), None);
        a.put(k, 3, true);
        assert_eq!(a.get(k), Some(true));
        // Another job does not see it; its own answer lives beside.
        assert_eq!(b.get(k), None);
        b.put(k, 3, false);
        assert_eq!(b.get(k), Some(false));
        assert_eq!(a.get(k), Some(true));
        // Another length is another question.
        assert_eq!(a.get(Table::key(0x1234_5678_9abc_def0, Q::Help, 2, 0)), None);
    }

    #[test]
    fn grows_and_keeps_answering_right() {
        let t = Table::new(8);
        let mut h = t.job();
        let n = 400_000u64;
        let key = |i: u64| Table::key(i.wrapping_mul(0xd6e8_feb8_6659_fd93), Q::Series, (i % 5) as u32, 0);
        for i in 0..n {
            h.put(key(i), (i % 5) as u32, i % 3 == 0);
        }
        let inner = t.inner.as_deref().unwrap();
        assert!(inner.bits.load(Ordering::Relaxed) > SEG_BITS, "the table grew");
        let mut found = 0;
        for i in 0..n {
            if let Some(v) = h.get(key(i)) {
                assert_eq!(v, i % 3 == 0);
                found += 1;
            }
        }
        assert!(found > n / 4, "found {found}");
    }

    #[test]
    fn bounds_answer_every_length_they_decide() {
        let t = Table::new(4);
        let mut h = t.job();
        let k = Table::key(0xfeed_beef, Q::Bounds, 0, 1);
        assert_eq!(h.bounds(k), Bounds::default());
        let b = h.bounds(k).with(3, false);
        h.put_bounds(k, b);
        let b = h.bounds(k).with(6, true);
        h.put_bounds(k, b);
        let b = h.bounds(k);
        assert_eq!((b.yes, b.no), (Some(6), 3));
        assert_eq!(
            (1..=8).map(|n| b.answer(n)).collect::<Vec<_>>(),
            [Some(false), Some(false), Some(false), None, None, Some(true), Some(true), Some(true)]
        );
        // A shorter success and a longer failure narrow them; weaker facts change nothing.
        let b = b.with(5, true).with(4, false).with(7, true).with(2, false);
        assert_eq!((b.yes, b.no), (Some(5), 4));
        // Plain answers and bounds live side by side.
        h.put(Table::key(0xfeed_beef, Q::DirectAttack, 3, 0), 3, true);
        assert_eq!(h.bounds(k).no, 3);
    }

    #[test]
    fn disabled_table_stores_nothing() {
        let mut t = Table::new(0).job();
        assert!(!t.enabled());
        let k = Table::key(42, Q::DirectAttack, 1, 0);
        t.put(k, 1, true);
        assert_eq!(t.get(k), None);
    }
}
