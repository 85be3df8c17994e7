//! chimere-retro: the two one-sided predicates behind the conditions Alsacien, Amnésie and
//! Dead Reckoning (`../shared/spec/retro.md`).
//!
//! # `proven_illegal(&Setup) -> Legality`
//!
//! A [`Setup`] is an orthodox position: board, side to move, castling rights and what is
//! known of the e.p. right ([`Ep::Any`] = unknown, [`Ep::No`], [`Ep::At`]). The answer is
//! `Illegal(reason)` only when a proof exists that **no orthodox game from the game array**
//! reaches it with these rights; otherwise `NotProven`, which callers treat as legal.
//!
//! - Tier 0 (static, microseconds): one king per side, orthodox units only, no pawn on rank
//!   1/8; the side not to move is not in check; at most two checkers, a double check that one
//!   move can give (discovery by the other checker's last move, promotion, castling, e.p. on
//!   one or two lines), no check by a pawn on its own 2nd rank; ≤16 units, ≤8 pawns,
//!   promoted excess ≤ missing pawns (an original bishop walled in at home by its two unmoved
//!   neighbour pawns and gone counts as taken there); the minimal number of pawn captures
//!   (pawns matched to distinct origin files) ≤ missing enemy units; a bishop in a corner
//!   behind its own unmoved knight's-file pawn; castling rights need king and rook at home;
//!   an e.p. square needs the double-stepped pawn, the two empty squares it crossed and a
//!   position before the step passing the king/check rules.
//! - Tier 1 (bounded retraction): every un-move of the side that just moved (uncaptures of
//!   each kind, unpromotions, un-castling, un-e.p.); illegal if every predecessor fails
//!   tier 0, recursing (depth cap [`RetroConfig::depth`]) only where at most
//!   [`RetroConfig::forced_width`] predecessors survive. A predecessor that may be the game
//!   array ends the search (legal).
//!
//! **How it errs**: every rule is a necessary condition of reachability, so a legal position
//! is never called illegal; an illegal position whose proof needs deeper analysis (frozen
//! regions, parity, long retro lines, the Sherlock-style tiers 2-3) is `NotProven` and so
//! accepted. Not implemented from the tier-0 list: Hwa's "frozen region" cages beyond the
//! corner bishop and the walled-in home bishop.
//!
//! # `proven_dead(&mut V, cfg, material) -> Deadness`
//!
//! `Dead(reason)` only when no sequence of legal moves under the position's rules leads to a
//! mate (any win its status declares) by either side: tier 1 material (orthodox only: no
//! pawns and bare kings, one minor piece, or bishops all on one square colour), tier 2
//! forced closure (full-width depth-first search with a memo of positions, giving up at the
//! first open position at depth [`DeadConfig::forced_depth`]), tier 4 exhaustive closure
//! of the reachable set under [`DeadConfig::closure_nodes`]. Generic over
//! [`chimere_core::Variant`] (legal moves, make/unmake, status, hash), so it runs under
//! fairy rules; the material tier is passed in (orthodox only).
//!
//! **How it errs**: a dead position whose closure is too large and whose material is not
//! dead (blocked pawn chains: tier 3 is not implemented) is `NotProven`, so play goes on in
//! it; an alive position is never called dead (a mate met anywhere stops the search, and the
//! search gives up rather than guessing). Hash collisions of the memo could in principle
//! hide a line (64-bit Zobrist keys).
//!
//! Both predicates are cached by position key in a bounded [`Cache`].

mod dead;
mod legality;
mod setup;

pub use dead::{DeadConfig, Deadness, material_dead, material_dead_setup, orthodox_material_dead, proven_dead};
pub use legality::{Legality, RetroConfig, proven_illegal, proven_illegal_with, static_illegal, unmoves};
pub use setup::{BLACK_KINGSIDE, BLACK_QUEENSIDE, Ep, Role, Setup, WHITE_KINGSIDE, WHITE_QUEENSIDE, forward, rel_rank};

use std::collections::HashMap;
use std::sync::Mutex;

/// A bounded cache of boolean answers by position key (cleared when full).
pub struct Cache {
    map: Mutex<HashMap<u64, bool>>,
    capacity: usize,
}

impl Cache {
    pub fn new(capacity: usize) -> Cache {
        Cache { map: Mutex::new(HashMap::new()), capacity: capacity.max(1) }
    }

    pub fn get(&self, key: u64) -> Option<bool> {
        self.map.lock().ok()?.get(&key).copied()
    }

    pub fn insert(&self, key: u64, value: bool) {
        if let Ok(mut m) = self.map.lock() {
            if m.len() >= self.capacity {
                m.clear();
            }
            m.insert(key, value);
        }
    }

    /// The cached answer for `key`, computing it with `f` if absent.
    pub fn get_or(&self, key: u64, f: impl FnOnce() -> bool) -> bool {
        if let Some(v) = self.get(key) {
            return v;
        }
        let v = f();
        self.insert(key, v);
        v
    }
}

impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Cache({})", self.capacity)
    }
}
