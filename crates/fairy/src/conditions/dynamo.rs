//! Dynamo (the fairy condition of seed 000; not the Dynamo ctx of `crates/variants/dynamo`).
//!
//! Rule (spec "### Dynamo"): no ordinary captures. A unit moves as in orthodox chess to an
//! empty square, or it pushes or pulls exactly ONE other unit (friend or foe) along one of
//! its lines, moving itself in the same direction or staying put; a unit pushed or pulled
//! off the board is captured; a non-king may move itself off the board (suicide).
//!
//! Our reading, with the geometry of the Dynamo ctx (spec dynamo.md) where the condition
//! is silent:
//! - **Rider push** (R, B, Q along a line `d`): the first unit met on the line (the
//!   object, any colour) slides `m >= 1` empty squares further along `d`, or off the board
//!   when every square beyond it is empty. The rider stays put or slides along `d` through
//!   empty squares up to the square before the object's arrival; when the object left the
//!   board the rider may also go to the edge, or off the board (not a king).
//! - **Rider pull** (along `d`): the object is the first unit met on the opposite line
//!   (`-d`). The rider stays put or slides along `d` through empty squares (or off the
//!   board, not a king); the object slides along `d` up to the square before the rider's
//!   arrival (off the board too when the rider left it). The object moves at least one
//!   square.
//! - **Leapers** (S, K) the same, limited to one step: push the unit one step away one step
//!   further (or off the board when that is off), the leaper staying put or taking its
//!   square; pull the unit one step behind onto the leaper's square, the leaper stepping
//!   one step forward (or off the board when that is off: a knight only).
//! - **Pawns** push only, one square, with no pull: a FRIENDLY unit straight ahead, an
//!   ENEMY unit diagonally forward, by one more square in the same direction (off the
//!   board if that is off). The pawn stays put or takes the object's square (promoting
//!   there on its promotion rank). No double-step push. Pawns still make their orthodox
//!   non-capturing moves (one step, two from the second rank).
//! - **Suicide**: a non-king whose line (rider: through empty squares) or step leads off
//!   the board may leave the board alone (one move per unit, written `Rd1-R`).
//! - A move in which both the mover and the object leave the board is one move, however
//!   reached (push or pull, along any line): the position after it is the same.
//! - A king is never pushed or pulled off the board by its own side. A pushed or pulled
//!   pawn never promotes (decided; the spec is silent) and may stand on either edge rank.
//! - **Check**: a king is in check when the opponent could push or pull it off the board
//!   by one of its moves (the engine's "could the opponent remove a royal unit" view: a
//!   move sending the object off the board is a capture of it). Castling is orthodox
//!   (not from, through or into such a check).
//! - "A move must change the position": every move generated does (the object, or the
//!   mover, changes square).
//! - **En passant** "only on the board edge" (our reading): right after an enemy pawn's
//!   double step, a pawn diagonally behind the square it passed over may push it as if it
//!   stood there, diagonally forward; this is possible only when that push sends it off
//!   the board, i.e. for a pawn on the a- or h-file (black b4 pushes a white a2-a4 pawn
//!   from a3 off the board: `b4[wPa4->R]`, `b4-a3[wPa4->R]`). Orthodox en passant
//!   captures do not exist.
//!
//! Notation: the mover's part (`Rd1-d3`, `Rd1` when it stays put, `Rd1-R` when it leaves
//! the board), then the object's displacement in brackets: `Rd1-d3[bPd5->d7]`,
//! `Rd6[bPd7->R]` (final `R`: it leaves the board).
//!
//! Scope: orthodox kinds only (a rule set with fairy kinds, i.e. a Popeye diagram with
//! fairy pieces, is refused); neutral units push and pull
//! for the side moving them, except neutral pawns (which only make their orthodox
//! non-capturing moves); a side never drops its own king off the board. Dynamo cannot be
//! combined with any other condition (refused).

use crate::moves::{GenParams, Move, Shift};
use crate::position::{Position, ROYAL, Unit};
use crate::rules::{Capabilities, Condition, RuleSet, RulesError, Slot};
use crate::walk::{self, KING, PAWN, Step};
use chimere_core::{Colour, Square};

#[derive(Clone, Debug, Default)]
pub struct Dynamo;

fn is_royal(u: Unit) -> bool {
    u.kind() == KING || u.has(ROYAL)
}

/// `sq + n * d`, if on the board.
fn along(sq: Square, d: (i8, i8), n: i8) -> Option<Square> {
    sq.offset(d.0 * n, d.1 * n)
}

/// The first unit met from `a` along `d`: (its distance, its square), or the number of
/// empty squares to the edge.
fn first_unit(pos: &Position, a: Square, d: (i8, i8)) -> Result<(i8, Square), i8> {
    let mut k = 1;
    while let Some(s) = along(a, d, k) {
        if pos.unit(s).is_some() {
            return Ok((k, s));
        }
        k += 1;
    }
    Err(k - 1)
}

/// Empty squares beyond `sq` along `d` before the next unit or the edge, and whether the
/// edge is reached (every square beyond is empty).
fn free_run(pos: &Position, sq: Square, d: (i8, i8)) -> (i8, bool) {
    match first_unit(pos, sq, d) {
        Ok((k, _)) => (k - 1, false),
        Err(n) => (n, true),
    }
}

fn shift_move(from: Square, to: Option<Square>, object: Option<(Square, Option<Square>)>) -> Move {
    let capture = match object {
        Some((o, None)) => Some(o),
        _ => None,
    };
    Move { capture, shift: Some(Shift { object, mover_off: to.is_none() }), ..Move::quiet(from, to.unwrap_or(from)) }
}

/// The mover on `a` and the object on `o` both leave the board: the same move whether
/// reached by a push or by a pull, along whichever line; listed once (the moves of the
/// unit on `a` are the last ones of `out`).
fn both_off(a: Square, o: Square, out: &mut Vec<Move>) {
    let m = shift_move(a, None, Some((o, None)));
    if !out.iter().rev().take_while(|x| x.from == a).any(|x| *x == m) {
        out.push(m);
    }
}

impl Dynamo {
    /// Push and pull moves of the rider (or leaper) on `a` along `d`, for `mover`.
    fn line_moves(pos: &Position, mover: Colour, a: Square, u: Unit, d: (i8, i8), leaper: bool, out: &mut Vec<Move>) {
        let royal = is_royal(u);
        let may_drop = |o: Square| pos.unit(o).is_some_and(|x| !(is_royal(x) && x.colour() == mover));
        // Push: the object ahead.
        let ahead = first_unit(pos, a, d);
        if let Ok((k, o)) = ahead
            && (!leaper || k == 1)
        {
            let (run, edge) = free_run(pos, o, d);
            let run = if leaper { run.min(1) } else { run };
            let off = edge && (!leaper || run == 0);
            // Arrivals of the object: o + m*d (m = 1..=run), or off the board.
            for m in 1..=run {
                let t = along(o, d, m).expect("on the board");
                // The mover: stays, or up to t - d (leaper: at most one step).
                let last = if leaper { 1 } else { k + m - 1 };
                for j in 0..=last {
                    let to = if j == 0 { Some(a) } else { along(a, d, j) };
                    out.push(shift_move(a, to, Some((o, Some(t)))));
                }
            }
            if off && may_drop(o) {
                let last = if leaper { 1 } else { k + run };
                for j in 0..=last {
                    let to = if j == 0 { Some(a) } else { along(a, d, j) };
                    out.push(shift_move(a, to, Some((o, None))));
                }
                if !leaper && !royal {
                    both_off(a, o, out);
                }
            }
        }
        // Pull: the object behind, moving along d toward (and past) the mover's square.
        let back = (-d.0, -d.1);
        if let Ok((k, o)) = first_unit(pos, a, back)
            && (!leaper || k == 1)
        {
            // The mover's run ahead: `free` empty squares, the edge reached or not.
            let (free, edge) = match ahead {
                Ok((ka, _)) => (ka - 1, false),
                Err(n) => (n, true),
            };
            let free = if leaper { free.min(1) } else { free };
            let edge = edge && (!leaper || free == 0);
            // The mover to a + j*d (j = 0..=free): the object to o + m*d, m = 1..k+j-1
            // (leaper: exactly onto a, j = 1).
            for j in 0..=free {
                let to = if j == 0 { a } else { along(a, d, j).expect("on the board") };
                for m in 1..k + j {
                    if leaper && (j != 1 || m != k) {
                        continue;
                    }
                    let t = along(o, d, m).expect("on the board");
                    out.push(shift_move(a, Some(to), Some((o, Some(t)))));
                }
            }
            if edge && !royal {
                // The mover leaves the board; the object may follow to any square up to
                // the edge (k - 1 squares before a, a itself, `free` beyond), or off the
                // board too (rider).
                let reach = k + free;
                for m in 1..=reach {
                    if leaper && m != k {
                        continue;
                    }
                    let t = along(o, d, m).expect("on the board");
                    out.push(shift_move(a, None, Some((o, Some(t)))));
                }
                if !leaper && may_drop(o) {
                    both_off(a, o, out);
                }
            }
        }
    }

    /// Pushes by the pawn on `a`.
    fn pawn_moves(pos: &Position, a: Square, u: Unit, gp: &GenParams, out: &mut Vec<Move>) {
        let f: i8 = if u.colour() == Colour::White { 1 } else { -1 };
        for (df, friendly) in [(0i8, true), (-1, false), (1, false)] {
            let d = (df, f);
            let Some(o) = along(a, d, 1) else { continue };
            if !friendly
                && let Some(ep) = pos.ep()
                && ep.target == o
                && along(o, d, 1).is_none()
                && let Some(x) = pos.unit(ep.pawn)
                && x.colour() != u.colour()
                && x.colour() != Colour::Shared
            {
                // En passant on the board edge: the pawn that just passed `o` is pushed
                // from there off the board; the pusher stays or takes `o`.
                for to in [a, o] {
                    out.push(Move { ep: true, ..shift_move(a, Some(to), Some((ep.pawn, None))) });
                }
                continue;
            }
            let Some(x) = pos.unit(o) else { continue };
            if x.colour() == Colour::Shared || (x.colour() == u.colour()) != friendly {
                continue;
            }
            let t = match along(o, d, 1) {
                Some(t) if pos.unit(t).is_some() => continue,
                Some(t) => Some(t),
                None if is_royal(x) && x.colour() == u.colour() => continue,
                None => None,
            };
            out.push(shift_move(a, Some(a), Some((o, t))));
            let rel = if u.colour() == Colour::White { o.rank() } else { 7 - o.rank() };
            let m = shift_move(a, Some(o), Some((o, t)));
            if rel == gp.promotion_rank {
                for &k in gp.promotions {
                    out.push(Move { promo: Some(k), ..m });
                }
            } else {
                out.push(m);
            }
        }
    }
}

impl Condition for Dynamo {
    fn name(&self) -> String {
        "Dynamo".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { slots: vec![Slot::Admit], extra_moves: true, ..Capabilities::default() }
    }
    /// No ordinary captures (en passant included): only this condition's moves capture.
    fn admit(&self, _pos: &Position, _mover: Colour, mv: &Move) -> bool {
        mv.capture.is_none() || mv.shift.is_some()
    }
    fn extra_moves(&self, pos: &Position, mover: Colour, gp: &GenParams, out: &mut Vec<Move>) {
        for a in pos.board().colour(mover) | pos.board().colour(Colour::Shared) {
            let Some(u) = pos.unit(a) else { continue };
            let neutral = u.colour() == Colour::Shared;
            if (u.colour() != mover && !neutral) || !(gp.can_move)(u) || !gp.mobile.has(a) {
                continue;
            }
            let mut suicide = false;
            for step in walk::walk(u.kind()).steps {
                match *step {
                    Step::Ride(dirs) => {
                        for &d in dirs {
                            Self::line_moves(pos, mover, a, u, d, false, out);
                            suicide |= first_unit(pos, a, d).is_err();
                        }
                    }
                    Step::Leap(dirs) => {
                        for &d in dirs {
                            Self::line_moves(pos, mover, a, u, d, true, out);
                            suicide |= along(a, d, 1).is_none();
                        }
                    }
                    Step::Pawn if !neutral => Self::pawn_moves(pos, a, u, gp, out),
                    _ => {}
                }
            }
            if suicide && !is_royal(u) && u.kind() != PAWN {
                out.push(shift_move(a, None, None));
            }
        }
    }
    fn check_combination(&self, rules: &RuleSet) -> Result<(), RulesError> {
        if rules.conditions().len() > 1 {
            return Err(RulesError("Dynamo cannot be combined with other conditions".into()));
        }
        if rules.promotions.iter().any(|&k| walk::walk(k).fairy) {
            return Err(RulesError("Dynamo supports orthodox units only (K Q R B S P)".into()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;
    use crate::rules::Game;

    fn texts(g: &mut Game) -> Vec<String> {
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut out: Vec<String> = v.iter().map(|m| crate::notation::move_with_check(g, m).unwrap()).collect();
        out.sort();
        out
    }

    fn sorted(mut v: Vec<String>) -> Vec<String> {
        v.sort();
        v
    }

    fn g(fen: &str) -> Game {
        game_from_fen(fen, &["dynamo"]).unwrap()
    }

    #[test]
    fn rook_pushes_pulls_and_leaves_the_board() {
        // White Ra1, black Pa3, no kings (no check to care about).
        let mut game = g("8/8/8/8/8/p7/8/R7 w - - 0 1");
        let mut want: Vec<String> = Vec::new();
        // Orthodox non-capturing moves: a2 and the first rank.
        for t in ["a2", "b1", "c1", "d1", "e1", "f1", "g1", "h1"] {
            want.push(format!("Ra1-{t}"));
        }
        // Push up the a-file: the pawn slides to a4..a8 (m squares); the rook stays or
        // follows up to the square before the pawn's arrival.
        let files = ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8"];
        for m in 1..=5 {
            let t = files[2 + m];
            want.push(format!("Ra1[bPa3->{t}]"));
            for r in &files[1..2 + m] {
                want.push(format!("Ra1-{r}[bPa3->{t}]"));
            }
        }
        // Push off the board (a4..a8 empty): the rook stays, follows up to a8, or leaves
        // the board too.
        want.push("Ra1[bPa3->R]".into());
        for r in &files[1..] {
            want.push(format!("Ra1-{r}[bPa3->R]"));
        }
        want.push("Ra1-R[bPa3->R]".into());
        // Pull down: the rook stays and draws the pawn to a2; or it leaves the board
        // downwards and the pawn follows to a2, a1 (or off the board: the same move as
        // Ra1-R[bPa3->R] above, listed once).
        want.push("Ra1[bPa3->a2]".into());
        for t in ["a2", "a1"] {
            want.push(format!("Ra1-R[bPa3->{t}]"));
        }
        // Suicide: the rook alone leaves the board (one move).
        want.push("Ra1-R".into());
        assert_eq!(texts(&mut game), sorted(want));
    }

    #[test]
    fn knight_pushes_and_pulls_one_step() {
        // White Sb1, black Pc3 (a knight step away), white Pa3 (a knight step away; the
        // square beyond, -1/5, is off the board), black Pd2 (a knight step away).
        let mut game = g("8/8/8/8/8/P1p5/3p4/1N6 w - - 0 1");
        let want = vec![
            // Pa3: orthodox a4; no pushes (a4 empty, b4 empty).
            "a3-a4",
            // Sb1 quiet: none left (a3, c3, d2 occupied).
            // Push c3 one more knight step to d5; the knight stays or takes c3.
            "Sb1[bPc3->d5]",
            "Sb1-c3[bPc3->d5]",
            // Push a3 off the board (the next step is off).
            "Sb1[wPa3->R]",
            "Sb1-a3[wPa3->R]",
            // Push d2 to f3.
            "Sb1[bPd2->f3]",
            "Sb1-d2[bPd2->f3]",
            // Pull: the unit one step behind comes to b1 as the knight steps forward; the
            // steps behind a3/c3/d2 lead off the board (knight steps from b1 to the
            // opposite side: -1,-2 / +1,-2 / +2,-1 are off), so the knight leaves the
            // board and the object comes to b1.
            "Sb1-R[bPc3->b1]",
            "Sb1-R[wPa3->b1]",
            "Sb1-R[bPd2->b1]",
            // Suicide.
            "Sb1-R",
        ];
        assert_eq!(texts(&mut game), sorted(want.into_iter().map(String::from).collect()));
    }

    #[test]
    fn pawn_pushes() {
        // White Pe4 Pf5 Pc2 Pc3 Pb7; black Pd5 Pe5 Pa8.
        let mut game = g("p7/1P6/8/3ppP2/4P3/2P5/2P5/8 w - - 0 1");
        let mut want: Vec<String> = vec![
            // e4: e5 is an enemy straight ahead (no push), d5 an enemy diagonally: pushed to
            // c6, the pawn staying or taking d5. f5 (friend, diagonal): no push.
            "e4[bPd5->c6]".into(),
            "e4-d5[bPd5->c6]".into(),
            // f5: orthodox f6 only.
            "f5-f6".into(),
            // c2 pushes its friend c3 to c4, staying or taking c3; c3 advances to c4.
            "c2[wPc3->c4]".into(),
            "c2-c3[wPc3->c4]".into(),
            "c3-c4".into(),
            // b7 pushes the enemy a8 off the board (staying, or following and promoting).
            "b7[bPa8->R]".into(),
        ];
        for k in ["Q", "S", "R", "B"] {
            want.push(format!("b7-a8={k}[bPa8->R]"));
            want.push(format!("b7-b8={k}"));
        }
        assert_eq!(texts(&mut game), sorted(want));
    }

    #[test]
    fn en_passant_on_the_edge() {
        // White Pa2 Pd2, black Pb4 Pe4, Black to move after White's a2-a4 / d2-d4.
        let after = |fen: &str, from: &str, to: &str| {
            let mut game = g(fen);
            let mut v = Vec::new();
            game.legal_moves(&mut v);
            let m = *v.iter().find(|m| m.from.to_string() == from && m.to.to_string() == to).unwrap();
            game.make(&m).unwrap();
            texts(&mut game)
        };
        // a2-a4 passed a3: b4 pushes the a4 pawn from a3 diagonally off the board, staying
        // or taking a3; b4-b3 orthodox; no push of an empty a3 otherwise.
        assert_eq!(after("8/8/8/8/1p6/8/P7/8 w - - 0 1", "a2", "a4"), vec!["b4-a3[wPa4->R]", "b4-b3", "b4[wPa4->R]"]);
        // d2-d4 passed d3: from e4 the push would go to c2, on the board: no en passant.
        assert_eq!(after("8/8/8/8/4p3/8/3P4/8 w - - 0 1", "d2", "d4"), vec!["e4-e3"]);
    }

    #[test]
    fn king_safety() {
        // White Ka1, black Rh1: the rook pushes the king off the board along the first
        // rank: check. Ka2 and Kb2 escape; Kb1 stays on the first rank (still pushed off).
        let mut game = g("8/8/8/8/8/8/8/K6r w - - 0 1");
        assert!(game.in_check(chimere_core::Colour::White));
        assert_eq!(texts(&mut game), vec!["Ka1-a2", "Ka1-b2"]);
        // White Kd4 Pc4, black Re4: the push westwards is blocked by c4, but the rook can
        // leave the board eastwards pulling the king off with it: check.
        let mut game = g("8/8/8/8/2PKr3/8/8/8 w - - 0 1");
        assert!(game.in_check(chimere_core::Colour::White));
        // With a black Bh4 the rook cannot leave eastwards: no check.
        let mut game = g("8/8/8/8/2PKr2b/8/8/8 w - - 0 1");
        assert!(!game.in_check(chimere_core::Colour::White));
    }

    #[test]
    fn both_leaving_the_board_is_one_move() {
        // White Bc1, white Pb2: the bishop pushes b2 off the board past a3 and leaves too,
        // or leaves down-right pulling b2 off behind it: the same move, listed once.
        let mut game = g("8/8/8/8/8/8/1P6/2B5 w - - 0 1");
        let t = texts(&mut game);
        assert_eq!(t.iter().filter(|x| *x == "Bc1-R[wPb2->R]").count(), 1, "{t:?}");
        let mut game = g("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let t = texts(&mut game);
        let mut u = t.clone();
        u.dedup();
        assert_eq!(t, u);
    }

    #[test]
    fn castling_is_orthodox_with_dynamo_check() {
        // White Ke1 Rh1, black Rf8: the rook could push a king on f1 down off the board, so
        // 0-0 would cross an attacked square. A white Pf2 shields f1: 0-0 is legal.
        let castles = |fen: &str| {
            let mut game = g(fen);
            texts(&mut game).iter().any(|t| t == "0-0")
        };
        assert!(!castles("5r2/8/8/8/8/8/8/4K2R w K - 0 1"));
        assert!(castles("5r2/8/8/8/8/8/5P2/4K2R w K - 0 1"));
    }

    #[test]
    fn make_unmake_restores_the_position() {
        let mut game = g("r3k2r/p1p3p1/8/3pP3/2n1N3/8/P1P3P1/R3K2R w KQkq - 0 1");
        let h0 = game.pos.hash();
        let mut v = Vec::new();
        game.legal_moves(&mut v);
        assert!(!v.is_empty());
        for m in &v {
            game.make(m).unwrap();
            assert!(game.pos.is_consistent());
            let mut w = Vec::new();
            game.legal_moves(&mut w);
            for n in &w {
                game.make(n).unwrap();
                assert!(game.pos.is_consistent());
                game.unmake();
            }
            game.unmake();
            assert_eq!(game.pos.hash(), h0);
        }
        assert!(
            crate::RuleSet::build(
                vec![std::sync::Arc::new(super::Dynamo), std::sync::Arc::new(crate::conditions::Checkless)],
                &[]
            )
            .is_err()
        );
    }
}
