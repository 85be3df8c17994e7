//! Républicains (Republican chess, Popeye `RepublicanChess [Type1|Type2]`, default Type 2).
//!
//! A side may have no king on the board. After a move, if the mover can put the
//! opponent's missing king on a square where it stands legally checkmated, the king is
//! put there and the opponent is mated. Type 2: the mover MAY put it (the move without
//! placement stays legal); Type 1: when some placement mates, the move without placement
//! is illegal. Once put, the king stays. Both sides have the right (whoever lacks a king).
//!
//! Our mechanism: the placement is an explicit choice of the move (the `Choices` slot):
//! choice 0 = no placement, choice `1 + s` = the king put on square `s` (offered only
//! when the opponent has no king). The `AfterMove` hook puts the king (notation `[+bKa8]`,
//! as Popeye writes it), the legality test refuses a placement that does not mate.
//!
//! Type 1 is suspended once a king is placed: a side in check may not place a king (every
//! placement checks, so the side whose king was just placed cannot answer by placing the
//! mover's king; Popeye's title for it: "RepublicanChess is suspended when a side inserts
//! the king"). Under Type 2 such a counter-placement is a parry.
//!
//! Decisions: the mate test of a placed king looks for a reply that takes the king out of
//! check among the opponent's moves without placement of their own (a placement is no
//! parry) and without castling; conditions that decide legality otherwise are not
//! consulted there. Republican takes the `Choices` slot, so conditions with choices of
//! their own (Super-Circe...) cannot be combined with it.

use crate::moves::Move;
use crate::position::{Fx, Position, Unit};
use crate::rules::{Capabilities, Condition, Ctx, Play, Promotee, Reject, Slot};
use crate::walk::KING;
use chimere_core::{Colour, Square};

#[derive(Clone, Debug, Default)]
pub struct Republican {
    /// Type 1: a mating placement is compulsory.
    pub type1: bool,
}

fn has_king(pos: &Position, side: Colour) -> bool {
    let b = pos.board();
    !(b.kind(KING) & b.colour(side)).is_empty()
}

fn king_count(pos: &Position, side: Colour) -> u32 {
    let b = pos.board();
    (b.kind(KING) & b.colour(side)).count()
}

/// Whether `mover` was in check before the move being judged (the journal's open frame).
fn in_check_before_move(ctx: &mut Ctx, mover: Colour) -> bool {
    if !has_king(ctx.pos(), mover)
        && !ctx.pos().frame().iter().any(|fx| matches!(fx, Fx::Remove(_, u) if u.kind() == KING && u.colour() == mover))
    {
        return false;
    }
    let after = ctx.pos().clone();
    ctx.pos_mut().rollback();
    let check = ctx.in_check(mover);
    *ctx.pos_mut() = after;
    check
}

/// With `side` to move: is it checkmated (in check and no reply leaves it out of check)?
/// Placements of `republican` are left out of the replies.
fn mated(ctx: &mut Ctx, side: Colour, republican: &dyn Condition) -> bool {
    if !ctx.in_check(side) {
        return false;
    }
    let kings = king_count(ctx.pos(), side);
    let mut buf = ctx.take_buf();
    ctx.pseudo_moves(side, &mut buf);
    let mut mate = true;
    for m in &buf {
        if m.castle.is_some() || ctx.rules().own_choice(republican, ctx.pos(), m) != 0 {
            continue;
        }
        if ctx.play(m, side).is_ok() {
            let escaped = king_count(ctx.pos(), side) == kings && !ctx.in_check(side);
            ctx.pos_mut().rollback();
            if escaped {
                mate = false;
                break;
            }
        }
    }
    ctx.give_buf(buf);
    mate
}

impl Condition for Republican {
    fn name(&self) -> String {
        if self.type1 { "Republican type 1".into() } else { "Republican".into() }
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { slots: vec![Slot::Choices, Slot::AfterMove], legality: true, ..Capabilities::default() }
    }
    fn choices(&self, pos: &Position, mv: &Move, _promotions: &[Promotee], _promotion_rank: u8) -> u16 {
        if mv.is_null() {
            return 1;
        }
        let mover = match pos.unit(mv.from).map(|u| u.colour()) {
            Some(Colour::Shared) | None => pos.side(),
            Some(c) => c,
        };
        if has_king(pos, mover.opponent()) { 1 } else { 65 }
    }
    fn after_move(&self, play: &mut Play) -> Result<(), Reject> {
        if play.mv.choice == 0 {
            return Ok(());
        }
        let sq = Square::new((play.mv.choice - 1) as u8);
        let opp = play.mover.opponent();
        if play.pos.unit(sq).is_some() || has_king(play.pos, opp) {
            return Err(Reject);
        }
        let king = Unit::new(opp, KING);
        play.pos.add(sq, king);
        play.note(crate::Note::Reborn { sq, unit: king, promo: None });
        Ok(())
    }
    fn legal_after(&self, ctx: &mut Ctx, mover: Colour) -> bool {
        let opp = mover.opponent();
        // A placement adds a king of the opponent, who had none (a king reborn by some
        // other condition was removed first).
        let opp_king = |u: &Unit| u.kind() == KING && u.colour() == opp;
        let frame = ctx.pos().frame();
        let placed = frame.iter().any(|fx| matches!(fx, Fx::Add(_, u) if opp_king(u)))
            && !frame.iter().any(|fx| matches!(fx, Fx::Remove(_, u) if opp_king(u)));
        if placed {
            return !(self.type1 && in_check_before_move(ctx, mover)) && mated(ctx, opp, self);
        }
        if !self.type1 || has_king(ctx.pos(), opp) || in_check_before_move(ctx, mover) {
            return true;
        }
        // Type 1: the move without placement is illegal if some placement mates.
        for i in 0..64u8 {
            let sq = Square::new(i);
            if ctx.pos().unit(sq).is_some() {
                continue;
            }
            ctx.pos_mut().begin();
            ctx.pos_mut().add(sq, Unit::new(opp, KING));
            let mates = !ctx.in_check(mover) && mated(ctx, opp, self);
            ctx.pos_mut().rollback();
            if mates {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use crate::conditions::registry::by_name;
    use crate::rules::RuleSet;

    fn texts(fen: &str, cond: &str) -> Vec<String> {
        let mut g = crate::game_from_fen(fen, &[cond]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        v.iter().filter_map(|m| crate::notation::move_with_check(&mut g, m)).collect()
    }

    #[test]
    fn builds_by_name() {
        for n in ["republican", "Républicains", "RepublicanChess", "RepublicanChess Type1", "republicains type 2"] {
            let c = by_name(n).unwrap_or_else(|e| panic!("{n}: {e}"));
            RuleSet::build(c, &[]).unwrap();
        }
    }

    /// Republican beside a Circe choosing rebirth squares (Popeye accepts it): each move has
    /// one alternative a rebirth square, each placement a digit of its own, and a capture with
    /// the opponent's king on the board keeps Super-Circe's squares (Popeye 4.104 prints
    /// `1.Rd1*d7` and `1.Rd1*d7[+bQa2]` for White Ke1 Rd1 Bc4, Black Ke8 Qd7 Sf7).
    #[test]
    fn composes_with_a_circe_choosing_squares() {
        let t = texts("4k3/3q1n2/8/8/2B5/8/8/3RK3 w - - 0 1", "republican");
        assert!(!t.iter().any(|x| x.contains('[')), "{t:?}");
        let t = crate::testing::move_texts("4k3/3q1n2/8/8/2B5/8/8/3RK3 w - - 0 1", &["republican", "super circe"]);
        let captures: Vec<&String> = t.iter().filter(|x| x.starts_with("Rd1*d7")).collect();
        assert!(captures.iter().any(|x| *x == "Rd1*d7[+bQa2]"), "{captures:?}");
        assert!(captures.iter().any(|x| *x == "Rd1*d7"), "{captures:?}");
        // One alternative per empty square and the declined rebirth, none twice.
        let mut unique = captures.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), captures.len());
    }

    /// Popeye's "republican 6" after 1.Rc3*c6 h4*g3: White Ka6 Rc6 Be7 Pb4, Black Pg3, no
    /// black king. Rc6-c8 may put the black king on a8, where it is mated (a7, b7 guarded
    /// by Ka6, b8 by the rook).
    #[test]
    fn a_mating_placement_is_a_choice_of_the_move() {
        let fen = "8/4B3/K1R5/8/1P6/6p1/8/8 w - - 0 1";
        let t2 = texts(fen, "republican");
        assert!(t2.contains(&"Rc6-c8[+bKa8] +".to_string()), "{t2:?}");
        assert!(t2.contains(&"Rc6-c8".to_string()));
        // Every placement offered mates: the king placed is in check.
        assert!(t2.iter().filter(|t| t.contains("[+bK")).all(|t| t.ends_with(" +")));
        // A placement where the king could escape is not offered (c8 then a7 is free...).
        assert!(!t2.iter().any(|t| t.starts_with("Rc6-c7[")));
        // Type 1: the placement is compulsory, Rc6-c8 without it is illegal.
        let t1 = texts(fen, "republican type1");
        assert!(t1.contains(&"Rc6-c8[+bKa8] +".to_string()));
        assert!(!t1.contains(&"Rc6-c8".to_string()));
        // Moves that allow no mating placement stay legal under Type 1.
        assert!(t1.contains(&"b4-b5".to_string()));
    }

    /// Popeye's "republican 8" (h#2) before White's last move: White Kb4 Sf3 Bf7, Black
    /// Sg3 Sh5, no black king. Bf7-e6 may put the black king on h4: attacked by Sf3, its
    /// flights g4 and h3 guarded by Be6, g5 by Sf3, g3 and h5 its own knights: mate, as in
    /// Popeye's solution `Bf7-e6[+bKh4] #`.
    #[test]
    fn popeye_helpmate_final_move() {
        let t = texts("8/5B2/8/7n/1K6/5Nn1/8/8 w - - 0 1", "republican");
        assert!(t.contains(&"Bf7-e6[+bKh4] +".to_string()), "{t:?}");
    }

    /// Type 1 is suspended by a placement: White Ra1-h1 puts the black king on h3 (double
    /// check by Rh1 and Be6, flights covered); under Type 2 Black answers Kh3-h4 putting the
    /// white king on h2, where it blocks the rook and is itself mated by the rooks g2/g3;
    /// under Type 1 a side in check may not place, so Black is mated.
    #[test]
    fn type1_forbids_a_counter_placement_out_of_check() {
        let fen = "8/8/4B3/8/8/6rk/6r1/7R b - - 0 1";
        assert_eq!(texts(fen, "republican"), vec!["Kh3-h4[+wKh2] +".to_string()]);
        assert!(texts(fen, "republican type1").is_empty());
        // Not in check, Type 1 still places (and must, when a placement mates).
        let t1 = texts("8/8/4B3/8/8/6r1/6r1/1R6 w - - 0 1", "republican type1");
        assert!(t1.contains(&"Rb1-h1[+bKh3] +".to_string()), "{t1:?}");
        assert!(!t1.contains(&"Rb1-h1".to_string()));
    }

    /// With both kings on the board the condition changes nothing.
    #[test]
    fn with_both_kings_play_is_orthodox() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let mut a = texts(fen, "republican");
        let mut g = crate::game_from_fen(fen, &[]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut b: Vec<String> = v.iter().filter_map(|m| crate::notation::move_with_check(&mut g, m)).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
    }
}
