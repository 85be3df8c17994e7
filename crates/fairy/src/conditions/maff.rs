//! MAFF (the seed's rule; Popeye's `MAFF` differs and gives no data): a check to the
//! black king that leaves it with no flight square is illegal; the black king may not
//! move if it has exactly one flight square. So Black is mated when in check with exactly
//! one (unusable) flight and no other defence.
//!
//! Our reading: a flight of a black king is a square it may legally move to (castling is
//! not a flight), counted for each black king. After a white move that checks Black, a
//! black king with no flight makes the move illegal. When Black is to move, a king with
//! exactly one flight may not move at all (castling included). White's king is not
//! concerned.

use crate::moves::Move;
use crate::rules::{Capabilities, Condition, Ctx};
use crate::walk::KING;
use chimere_core::{Colour, Square};

#[derive(Clone, Debug, Default)]
pub struct Maff;

/// With Black to move: the number of flights of the black king on `k`.
fn flights(ctx: &mut Ctx, k: Square) -> u32 {
    let mut buf = ctx.take_buf();
    ctx.pseudo_moves(Colour::Black, &mut buf);
    let mut n = 0;
    let mut seen = 0u64;
    for m in &buf {
        if m.from != k || m.castle.is_some() || seen & (1 << m.to.index()) != 0 {
            continue;
        }
        if ctx.make(m).is_some() {
            ctx.unmake();
            seen |= 1 << m.to.index();
            n += 1;
        }
    }
    ctx.give_buf(buf);
    n
}

impl Condition for Maff {
    fn name(&self) -> String {
        "MAFF".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { check_rule: true, legality: true, filter: true, ..Capabilities::default() }
    }
    // Check is orthodox; declaring a check rule makes the builder refuse conditions that
    // define check otherwise.
    fn legal_after(&self, ctx: &mut Ctx, mover: Colour) -> bool {
        if mover != Colour::White || !ctx.in_check(Colour::Black) {
            return true;
        }
        let b = ctx.pos().board();
        let kings = b.kind(KING) & b.colour(Colour::Black);
        kings.into_iter().all(|k| flights(ctx, k) > 0)
    }
    fn filter_legal(&self, ctx: &mut Ctx, out: &mut Vec<Move>, start: usize) {
        if ctx.pos().side() != Colour::Black {
            return;
        }
        let b = ctx.pos().board();
        for k in b.kind(KING) & b.colour(Colour::Black) {
            let mut seen = 0u64;
            for m in &out[start..] {
                if m.from == k && m.castle.is_none() {
                    seen |= 1 << m.to.index();
                }
            }
            if seen.count_ones() == 1 {
                let mut i = start;
                while i < out.len() {
                    if out[i].from == k {
                        out.remove(i);
                    } else {
                        i += 1;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::conditions::registry::by_name;
    use crate::conditions::rexmultiplex::tests::texts;
    use crate::rules::RuleSet;

    #[test]
    fn builds_by_name() {
        for n in ["maff", "MAFF"] {
            let c = by_name(n).unwrap_or_else(|e| panic!("{n}: {e}"));
            RuleSet::build(c, &[]).unwrap();
        }
    }

    /// White Kb6, Rh1; Black Ka8. Rh1-h8 checks Ka8 with no flight
    /// (a7 b7 guarded by Kb6, b8 by the rook): illegal under MAFF (orthodox mate).
    /// Rh1-a1 checks with the flight b8: legal.
    #[test]
    fn a_check_leaving_no_flight_is_illegal() {
        let fen = "k7/8/1K6/8/8/8/8/7R w - - 0 1";
        let orth = texts(fen, &[]);
        let maff = texts(fen, &["maff"]);
        assert!(orth.contains(&"Rh1-h8 +".to_string()));
        // Exactly the orthodox moves minus the no-flight check Rh1-h8.
        let want: Vec<String> = orth.iter().filter(|t| *t != "Rh1-h8 +").cloned().collect();
        assert_eq!(maff, want);
        assert!(maff.contains(&"Rh1-a1 +".to_string()));
    }

    /// Black to move, Ka8 after Rh1-a1+ (White Kb6): the only flight is b8, so the king
    /// may not move; Black has no other unit: mated.
    #[test]
    fn one_flight_king_may_not_move() {
        let fen = "k7/8/1K6/8/8/8/8/R7 b - - 0 1";
        assert!(texts(fen, &[]) == vec!["Ka8-b8"]);
        let mut g = crate::game_from_fen(fen, &["maff"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        assert!(v.is_empty());
        assert_eq!(g.status(&v), chimere_core::Status::WhiteWins);
        // Not in check, one flight: the king may not move, the pawn h7 may.
        // Black Ka8, Ph7; White Kb6 guards a7 and b7, Rc1 is idle: the only flight is b8.
        let t = texts("k7/7p/1K6/8/8/8/8/2R5 b - - 0 1", &["maff"]);
        assert_eq!(t, vec!["h7-h5", "h7-h6"]);
        // Two flights: the king moves freely (White Kc6 guards only b7: a7 and b8 free).
        let t = texts("k7/7p/2K5/8/8/8/8/8 b - - 0 1", &["maff"]);
        assert_eq!(t, vec!["Ka8-a7", "Ka8-b8", "h7-h5", "h7-h6"]);
    }
}
