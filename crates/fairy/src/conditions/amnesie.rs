//! Amnésie (no Popeye keyword): after every turn the castling rights and the e.p. right are
//! recomputed from the new position alone, as for a diagram, ignoring the turns played
//! (`conditions.md`). The side to move and all fairy bookkeeping are kept; the diagram's
//! own rights are unchanged (ply 0).
//!
//! - Under orthodox rules (no condition besides Amnésie, Alsacien and Dead Reckoning):
//!   castling right r ⇔ king and that rook on their array squares ∧ not
//!   `proven_illegal(P with r)`; e.p. over square s ⇔ `proven_illegal(P without e.p.)` ∧
//!   not `proven_illegal(P with e.p. at s)` (`chimere_retro`, tiers 0-1), granted only when
//!   exactly one double step is so proven. Rights are judged one by one (mutually dependent
//!   rights are not analysed together).
//! - Under other fairy rules: castling ⇔ king and rook at home, e.p. never.
//!
//! Implementation: the rights hook (`Condition::recompute_rights`, called after every
//! legal move) rewrites the rights inside the move's journal frame, so unmake restores
//! them.
//!
//! Limits: may grant a castling right a full analysis would refuse (the predicate is
//! one-sided); never grants an e.p. capture whose double step is not proven.

use super::alsacien::retro_setup;
use crate::position::{B_KING, B_KINGSIDE, B_QUEENSIDE, EnPassant, Position, W_KING, W_KINGSIDE, W_QUEENSIDE};
use crate::rules::{Capabilities, Condition, Ctx};
use chimere_core::{Colour, Square};
use chimere_retro::{
    BLACK_KINGSIDE, BLACK_QUEENSIDE, Ep, Role, WHITE_KINGSIDE, WHITE_QUEENSIDE, forward, proven_illegal, rel_rank,
};
use std::collections::HashMap;
use std::sync::Mutex;

/// The Amnésie condition, with a bounded cache of recomputed rights by position.
#[derive(Debug, Default)]
pub struct Amnesie {
    cache: Mutex<HashMap<u64, (u8, Option<EnPassant>)>>,
}

const CACHE_MAX: usize = 1 << 17;

/// The rights of `pos` recomputed from the position alone (`orthodox`: with retro-analysis).
pub fn recompute(pos: &Position, orthodox: bool) -> (u8, Option<EnPassant>) {
    let implied = pos.implied_rights();
    if !orthodox {
        return (implied, None);
    }
    let base = retro_setup(pos);
    let mut rights = 0u8;
    for (bit, retro_bit, king_bit) in [
        (W_QUEENSIDE, WHITE_QUEENSIDE, W_KING),
        (W_KINGSIDE, WHITE_KINGSIDE, W_KING),
        (B_QUEENSIDE, BLACK_QUEENSIDE, B_KING),
        (B_KINGSIDE, BLACK_KINGSIDE, B_KING),
    ] {
        if implied & bit != 0 && implied & king_bit != 0 {
            let mut p = base.clone();
            p.castling = retro_bit;
            if !proven_illegal(&p).is_illegal() {
                rights |= bit | king_bit;
            }
        }
    }
    // e.p.: a double step of the side that just moved, next to a pawn of the side to move.
    let mover = pos.side().opponent();
    let stm = pos.side();
    let mut candidates: Vec<(Square, Square)> = Vec::new();
    for sq in base.pieces(mover, Role::Pawn) {
        if rel_rank(mover, sq) != 3 {
            continue;
        }
        let (Some(skipped), Some(start)) = (forward(mover, sq, -1), forward(mover, sq, -2)) else { continue };
        if base.get(skipped).is_some() || base.get(start).is_some() {
            continue;
        }
        let beside = [-1i8, 1].iter().any(|&df| sq.offset(df, 0).is_some_and(|s| base.is(s, stm, Role::Pawn)));
        if beside {
            candidates.push((skipped, sq));
        }
    }
    let mut ep = None;
    if !candidates.is_empty() {
        let mut no = base.clone();
        no.ep = Ep::No;
        if proven_illegal(&no).is_illegal() {
            let proven: Vec<(Square, Square)> = candidates
                .into_iter()
                .filter(|&(target, _)| {
                    let mut at = base.clone();
                    at.ep = Ep::At(target);
                    !proven_illegal(&at).is_illegal()
                })
                .collect();
            if let [(target, pawn)] = proven[..] {
                ep = Some(EnPassant::new(target, pawn, None));
            }
        }
    }
    (rights, ep)
}

impl Condition for Amnesie {
    fn name(&self) -> String {
        "Amnésie".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { rights: true, retro_orthodox: true, ..Capabilities::default() }
    }
    fn recompute_rights(&self, ctx: &mut Ctx) {
        let key = ctx.pos().board().hash() ^ (ctx.pos().side() == Colour::Black) as u64;
        let cached = self.cache.lock().ok().and_then(|m| m.get(&key).copied());
        let (rights, ep) = match cached {
            Some(v) => v,
            None => {
                let v = recompute(ctx.pos(), ctx.rules().retro_orthodox());
                if let Ok(mut m) = self.cache.lock() {
                    if m.len() >= CACHE_MAX {
                        m.clear();
                    }
                    m.insert(key, v);
                }
                v
            }
        };
        ctx.pos_mut().set_rights(rights);
        ctx.pos_mut().set_ep(ep);
    }
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;
    use chimere_core::Variant;

    fn list(g: &mut crate::Game) -> Vec<String> {
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut out: Vec<String> = v.iter().map(|m| Variant::canonical(g, m)).collect();
        out.sort();
        out
    }

    fn play(g: &mut crate::Game, from: &str, to: &str) {
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let f = chimere_core::Square::parse(from).unwrap();
        let t = chimere_core::Square::parse(to).unwrap();
        let m = *v.iter().find(|m| m.from == f && m.to == t).unwrap_or_else(|| panic!("{from}-{to}"));
        assert!(g.make(&m).is_some());
    }

    fn castles(g: &mut crate::Game) -> bool {
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        v.iter().any(|m| m.castle.is_some())
    }

    fn ep_captures(g: &mut crate::Game) -> usize {
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        v.iter().filter(|m| m.ep).count()
    }

    /// Castling is regained after Ke1-d1-e1 (the position alone shows K and R at home).
    #[test]
    fn castling_regained() {
        for (conds, regained) in [(&["amnesie"][..], true), (&[][..], false)] {
            let mut g = game_from_fen("4k2r/8/8/8/8/8/8/4K2R w Kk - 0 1", conds).unwrap();
            play(&mut g, "e1", "d1");
            play(&mut g, "e8", "d8");
            play(&mut g, "d1", "e1");
            play(&mut g, "d8", "e8");
            assert_eq!(castles(&mut g), regained, "{conds:?}");
        }
    }

    /// A normal 1.e2-e4 from the array: the position does not prove the double step (the
    /// pawn may have come from e3... or any other last move), so ...d4xe3 is not allowed.
    #[test]
    fn normal_double_step_gives_no_ep() {
        let fen = "rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let mut plain = game_from_fen(fen, &[]).unwrap();
        let mut amn = game_from_fen(fen, &["amnesie"]).unwrap();
        play(&mut plain, "e2", "e4");
        play(&mut amn, "e2", "e4");
        assert_eq!(ep_captures(&mut plain), 1);
        assert_eq!(ep_captures(&mut amn), 0);
    }

    /// conditions.md: 8/8/8/8/3p1k2/3p1p2/pn2P3/Kn6 w, 1.e2-e4: the position proves the
    /// double step, so ...d4xe3 e.p. stays legal; with a white rook on h1 it is forbidden.
    #[test]
    fn provable_double_step() {
        let mut g = game_from_fen("8/8/8/8/3p1k2/3p1p2/pn2P3/Kn6 w - - 0 1", &["amnesie"]).unwrap();
        play(&mut g, "e2", "e4");
        assert_eq!(ep_captures(&mut g), 1, "{:?}", list(&mut g));
        let mut g = game_from_fen("8/8/8/8/3p1k2/3p1p2/pn2P3/Kn5R w - - 0 1", &["amnesie"]).unwrap();
        play(&mut g, "e2", "e4");
        assert_eq!(ep_captures(&mut g), 0);
    }

    /// Under another fairy condition castling follows the home squares and e.p. never.
    #[test]
    fn fairy_rules_home_squares_only() {
        let mut g = game_from_fen("8/8/8/8/3p1k2/3p1p2/pn2P3/Kn6 w - - 0 1", &["amnesie", "circe"]).unwrap();
        play(&mut g, "e2", "e4");
        assert_eq!(ep_captures(&mut g), 0);
    }

    /// Along random orthodox games, Amnésie never grants an e.p. capture the game itself
    /// does not have (it never grants an unprovable e.p.).
    #[test]
    fn never_grants_a_false_ep() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let mut granted = 0;
        for seed in 0..16u64 {
            let mut rng = chimere_core::rng::SplitMix64::new(seed);
            let mut a = game_from_fen(start, &[]).unwrap();
            let mut b = game_from_fen(start, &["amnesie"]).unwrap();
            for _ in 0..100 {
                let mut va = Vec::new();
                a.legal_moves(&mut va);
                let mut vb = Vec::new();
                b.legal_moves(&mut vb);
                for m in vb.iter().filter(|m| m.ep) {
                    assert!(va.contains(m), "false e.p. in {}", b.pos.fen());
                    granted += 1;
                }
                // Continue with a move both games have (castling may differ).
                let common: Vec<_> = va.iter().filter(|m| vb.contains(m)).copied().collect();
                if common.is_empty() {
                    break;
                }
                let m = common[rng.below(common.len() as u64) as usize];
                assert!(a.make(&m).is_some() && b.make(&m).is_some());
            }
        }
        let _ = granted;
    }
}
