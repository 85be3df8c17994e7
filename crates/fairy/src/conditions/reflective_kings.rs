//! Rois réflecteurs (Popeye `ReflectiveKings`): a king attacked by enemy units may, in
//! addition to its own moves, move, capture and give check like any of the attacking
//! units' kinds. A royal unit of another kind (the `Royal` attribute) reflects in the
//! same way, keeping its own walk.
//!
//! Our reading (as Popeye's): the kinds a king reflects are those of the enemy units that
//! attack it by their own walks (an enemy king counts with its king walk, which adds
//! nothing; reflected powers do not reflect again). A king reflecting a pawn moves like a
//! pawn of its own colour (its double step from its second rank is the only new move) and
//! never promotes. Check: a side is in check when an enemy unit attacks its king, or when
//! the enemy king, moving like one of the kinds it reflects, could capture it. That
//! check is judged apart from the attack tables, so conditions restricting which units
//! may move or capture (paralysis, observation rules, chromatic masks) are refused.
//!
//! Reflected powers always give check (`../shared/spec/conditions.md`). **Popeye differs**:
//! it counts a reflected walk for check only when the reflecting king's side owns a unit
//! of that walk; the spec wins (no `moves` record of the Popeye oracle shows the
//! difference; the test below does).

use crate::moves::{self, GenParams, Move};
use crate::position::Position;
use crate::position::ROYAL;
use crate::rules::{Capabilities, Condition, RuleSet, RulesError};
use crate::walk::KING;
use chimere_core::{Bitboard, Colour, Kind, Square};

/// The royal units of `side` (kings, and units with the royal attribute).
pub(crate) fn royal_squares(pos: &Position, side: Colour) -> Bitboard {
    let b = pos.board();
    let own = b.colour(side);
    let mut r = b.kind(KING) & own;
    if pos.has_royal_attrs() {
        for s in own & !r {
            if pos.unit(s).is_some_and(|u| u.has(ROYAL)) {
                r.set(s);
            }
        }
    }
    r
}

/// The kinds (bit per kind index, the king excluded) of the enemy units attacking the
/// king on `k`, of colour `side`.
pub(crate) fn reflected(pos: &Position, side: Colour, k: Square, pfri: bool) -> u128 {
    moves::attacker_kinds(pos, side.opponent(), k, pfri) & !(1 << KING.index())
}

/// Appends the moves of the king on `k` (moving for `mover`) as every kind in `mask`;
/// promotions are dropped and moves already in `out` are not repeated.
pub(crate) fn push_moves_as(pos: &Position, k: Square, mask: u128, mover: Colour, gp: &GenParams, out: &mut Vec<Move>) {
    let u = pos.unit(k).expect("king");
    let first = out.iter().position(|m| m.from == k).unwrap_or(out.len());
    for i in 0..crate::walk::KINDS as u8 {
        if mask & (1 << i) == 0 {
            continue;
        }
        let start = out.len();
        moves::generate_unit(pos, k, u.with_kind(Kind(i)), mover, gp, out);
        let mut keep = start;
        for j in start..out.len() {
            let m = Move { promo: None, ..out[j] };
            if m.castle.is_none() && !out[first..keep].contains(&m) {
                out[keep] = m;
                keep += 1;
            }
        }
        out.truncate(keep);
    }
}

#[derive(Clone, Debug, Default)]
pub struct ReflectiveKings;

impl Condition for ReflectiveKings {
    fn name(&self) -> String {
        "Rois réflecteurs".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { extra_moves: true, extra_observation: true, ..Capabilities::default() }
    }
    fn extra_moves(&self, pos: &Position, mover: Colour, gp: &GenParams, out: &mut Vec<Move>) {
        // A royal unit that may not move (paralysis, observation rules) gains nothing.
        for k in royal_squares(pos, mover) & gp.mobile {
            let mask = reflected(pos, mover, k, gp.pawn_first_rank_immobile);
            if mask != 0 {
                push_moves_as(pos, k, mask, mover, gp, out);
            }
        }
    }
    fn check_combination(&self, rules: &RuleSet) -> Result<(), RulesError> {
        // Check by a reflecting king is judged apart from the attack tables, without the
        // masks of units that may move or capture: refuse rather than miscount.
        if !rules.mobility.is_empty() || !rules.capture_masks.is_empty() {
            return Err(RulesError(
                "Rois réflecteurs cannot be combined with conditions restricting which units may move or capture"
                    .into(),
            ));
        }
        Ok(())
    }
    fn extra_observation(&self, pos: &mut Position, by: Colour, target: Square, pfri: bool) -> bool {
        for k in royal_squares(pos, by) {
            let mask = reflected(pos, by, k, pfri);
            if mask == 0 {
                continue;
            }
            pos.begin();
            let u = pos.remove(k).expect("king");
            let mut hit = false;
            for i in 0..32u8 {
                if mask & (1 << i) == 0 {
                    continue;
                }
                pos.add(k, u.with_kind(Kind(i)));
                // Only the king itself, moving as kind i, counts (another unit of that
                // kind is the attack tables' business).
                hit = moves::attacked_from(pos, by, target, pfri, Bitboard::from_square(k));
                pos.remove(k);
                if hit {
                    break;
                }
            }
            pos.rollback();
            if hit {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;

    fn moves(fen: &str) -> Vec<String> {
        crate::testing::move_texts(fen, &["rois reflecteurs"])
    }

    #[test]
    fn king_attacked_by_a_bishop_moves_like_it() {
        // White Ke1 attacked by the black bishop b4 (over c3, d2): besides its own moves,
        // bishop moves e1-f2-g3-h4 and the capture e1*b4 (the b4 bishop then no longer
        // attacks; d2 and c3 stay attacked by it).
        let m = moves("4k3/8/8/8/1b6/8/8/4K3 w - - 0 1");
        for x in ["Ke1*b4", "Ke1-g3", "Ke1-h4", "Ke1-f2"] {
            assert!(m.contains(&x.to_string()), "{x} {m:?}");
        }
        assert!(!m.contains(&"Ke1-c3".to_string()));
    }

    #[test]
    fn refused_with_movement_restrictions() {
        // Check by a reflecting king ignores which units may move: the combination is
        // refused.
        let e = game_from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", &["reflective kings", "ultrapatrol"]);
        assert!(e.is_err());
    }

    #[test]
    fn reflected_powers_give_check() {
        // White Ke1, attacked by the black rook a1, reflects a rook: moving like a rook
        // along the open e-file it checks the black king e8. Black to move: Ke8-e7 stays
        // on the file (illegal), Ke8-d8 leaves it (White stays in check from the rook a1:
        // ` +`).
        let m = {
            let mut g = game_from_fen("4k3/8/8/8/8/8/8/r3K3 b - - 0 1", &["reflective kings"]).unwrap();
            let mut v = Vec::new();
            g.legal_moves(&mut v);
            v.iter().map(|m| crate::notation::move_with_check(&mut g, m).unwrap()).collect::<Vec<_>>()
        };
        assert!(!m.contains(&"Ke8-e7".to_string()), "{m:?}");
        assert!(m.contains(&"Ke8-d8 +".to_string()), "{m:?}");
    }

    /// The spec's example of the Popeye difference: White Kd4 Qd1, Black Kd7 Sf6 Rh4,
    /// White to move, in check from the rook h4. Only Qd1-g4 blocks the rook, but it
    /// attacks the black king d7, which then reflects a queen and checks d4 down the
    /// d-file: illegal by the spec (Popeye allows it, Black owning no queen). So no queen
    /// move is legal; the king steps off the rank.
    #[test]
    fn a_reflected_walk_checks_even_without_such_a_unit() {
        let m = moves("8/3k4/5n2/8/3K3r/8/8/3Q4 w - - 0 1");
        assert!(!m.iter().any(|x| x.starts_with("Q")), "{m:?}");
        assert!(m.iter().any(|x| x.starts_with("Kd4-c3")), "{m:?}");
    }
}
