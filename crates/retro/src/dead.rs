//! `proven_dead`: no mate by either side reachable (`retro.md` §2), tiers 1 (material,
//! orthodox only), 2 (forced closure) and 4 (exhaustive closure under a node limit). The
//! closure tiers are generic over [`Variant`], so they run under fairy rules too.

use crate::setup::{Role, Setup};
use chimere_core::{Colour, Square, Status, Variant};
use std::collections::HashSet;

/// The answer of [`proven_dead`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Deadness {
    /// No sequence of legal moves leads to a mate; the reason names the tier.
    Dead(&'static str),
    /// No proof found (possibly a mate was met): treated as alive.
    NotProven,
}

impl Deadness {
    pub fn is_dead(self) -> bool {
        matches!(self, Deadness::Dead(_))
    }
}

/// Limits of the closure tiers.
#[derive(Copy, Clone, Debug)]
pub struct DeadConfig {
    /// Tier 2: plies of full-width search; gives up at the first open position deeper.
    pub forced_depth: u32,
    /// Tier 2: node budget.
    pub forced_nodes: u64,
    /// Tier 2 runs only when the side to move has at most this many legal moves (a wider
    /// tree cannot close within the budget).
    pub forced_max_moves: usize,
    /// Tier 4: node budget of the exhaustive closure (0 = tier 4 off).
    pub closure_nodes: u64,
    /// Tier 4 runs only when the side to move has at most this many legal moves (open
    /// positions are practically never dead and would spend the whole budget).
    pub closure_max_moves: usize,
}

impl Default for DeadConfig {
    fn default() -> Self {
        DeadConfig {
            forced_depth: 7,
            forced_nodes: 20_000,
            forced_max_moves: 40,
            closure_nodes: 50_000,
            closure_max_moves: 16,
        }
    }
}

/// Tier 1 on a list of units: no pawns, and only kings, or kings and one minor piece, or
/// kings and bishops all on squares of one colour. Any non-orthodox unit: `false`.
pub fn material_dead(units: impl IntoIterator<Item = (Square, Colour, Option<Role>)>) -> bool {
    let mut minors = 0;
    let mut knights = 0;
    let mut light = false;
    let mut dark = false;
    for (sq, c, r) in units {
        if c == Colour::Shared {
            return false;
        }
        match r {
            Some(Role::King) => {}
            Some(Role::Knight) => {
                minors += 1;
                knights += 1;
            }
            Some(Role::Bishop) => {
                minors += 1;
                if sq.is_light() {
                    light = true;
                } else {
                    dark = true;
                }
            }
            _ => return false,
        }
    }
    minors <= 1 || (knights == 0 && !(light && dark))
}

/// [`material_dead`] of a [`Setup`] (foreign units: `false`).
pub fn material_dead_setup(p: &Setup) -> bool {
    p.foreign == 0 && material_dead(p.units().map(|(sq, c, r)| (sq, c, Some(r))))
}

/// [`material_dead`] of any variant whose kinds are the chess crate's (0 = pawn .. 5 =
/// king): orthodox chess, or the fairy engine under rules that keep orthodox material
/// meaningful (the caller decides that).
pub fn orthodox_material_dead<V: Variant>(v: &V) -> bool {
    let mut units = Vec::with_capacity(32);
    v.for_each_piece(&mut |sq, p| units.push((sq, p.colour, Role::from_kind(p.kind))));
    material_dead(units)
}

enum Closure {
    Dead,
    Alive,
    GaveUp,
}

struct Frame<V: Variant> {
    moves: Vec<V::Move>,
    next: usize,
    made: Option<(V::Move, V::Undo)>,
}

fn unwind<V: Variant>(pos: &mut V, stack: &mut Vec<Frame<V>>) {
    while let Some(f) = stack.pop() {
        if let Some((m, u)) = f.made {
            pos.unmake(&m, u);
        }
    }
}

/// Depth-first closure of the positions reachable from `pos` (left unchanged): `Alive` at
/// the first mate (any win the rules' status declares), `GaveUp` at the first open position
/// at `max_depth` or past `max_nodes`, `Dead` when every line ends in a draw status, a
/// material-dead position or a position already searched.
fn closure<V: Variant>(pos: &mut V, max_depth: u32, max_nodes: u64, material: &dyn Fn(&V) -> bool) -> Closure {
    match pos.status() {
        Status::WhiteWins | Status::BlackWins => return Closure::Alive,
        Status::Draw => return Closure::Dead,
        Status::Ongoing => {}
    }
    if material(pos) {
        return Closure::Dead;
    }
    if max_depth == 0 {
        return Closure::GaveUp;
    }
    let mut seen: HashSet<u64> = HashSet::new();
    seen.insert(pos.hash());
    let mut moves = Vec::new();
    pos.legal_turns(&mut moves);
    let mut stack: Vec<Frame<V>> = vec![Frame { moves, next: 0, made: None }];
    let mut nodes = 1u64;
    while let Some(top) = stack.last_mut() {
        if top.next == top.moves.len() {
            let f = stack.pop().expect("frame");
            if let Some((m, u)) = f.made {
                pos.unmake(&m, u);
            }
            continue;
        }
        let m = top.moves[top.next];
        top.next += 1;
        let u = pos.make(&m);
        nodes += 1;
        let h = pos.hash();
        if seen.contains(&h) {
            pos.unmake(&m, u);
            continue;
        }
        let status = pos.status();
        let verdict = match status {
            Status::WhiteWins | Status::BlackWins => Some(Closure::Alive),
            Status::Draw => None,
            Status::Ongoing if material(pos) => None,
            Status::Ongoing if stack.len() as u32 >= max_depth || nodes > max_nodes => Some(Closure::GaveUp),
            Status::Ongoing => {
                seen.insert(h);
                let mut ms = Vec::new();
                pos.legal_turns(&mut ms);
                stack.push(Frame { moves: ms, next: 0, made: Some((m, u)) });
                continue;
            }
        };
        pos.unmake(&m, u);
        if let Some(v) = verdict {
            unwind(pos, &mut stack);
            return v;
        }
    }
    Closure::Dead
}

fn root_moves<V: Variant>(pos: &mut V) -> usize {
    let mut v = Vec::new();
    pos.legal_turns(&mut v);
    v.len()
}

/// Whether no mate by either side is reachable from `pos` (left unchanged). `material` is
/// tier 1 for these rules (pass [`orthodox_material_dead`] for orthodox chess, `|_| false`
/// under rules where orthodox material says nothing). Tier 2 then tier 4 (closures).
pub fn proven_dead<V: Variant>(pos: &mut V, cfg: &DeadConfig, material: &dyn Fn(&V) -> bool) -> Deadness {
    if pos.status() == Status::Ongoing && material(pos) {
        return Deadness::Dead("material");
    }
    let moves = root_moves(pos);
    if moves > cfg.forced_max_moves {
        return Deadness::NotProven;
    }
    match closure(pos, cfg.forced_depth, cfg.forced_nodes, material) {
        Closure::Dead => return Deadness::Dead("forced closure"),
        Closure::Alive => return Deadness::NotProven,
        Closure::GaveUp => {}
    }
    if cfg.closure_nodes > 0
        && moves <= cfg.closure_max_moves
        && let Closure::Dead = closure(pos, u32::MAX, cfg.closure_nodes, material)
    {
        return Deadness::Dead("exhaustive closure");
    }
    Deadness::NotProven
}
