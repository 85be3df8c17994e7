//! Annéciens (Chimère-extension Popeye keyword `Anneciens`, `chimere moves -c anneciens`).
//!
//! Rule (spec): each turn consists of two consecutive moves by the SAME unit; the final
//! position must differ from the starting one; single moves are illegal; the intermediate
//! and final positions may leave the own king attacked (self-checks allowed); king capture
//! is not compulsory.
//!
//! Our reading and decisions:
//! - A turn has two parts; the turn state (part, square of the unit that must move again,
//!   board at the start of the turn) is part of the position and of its hash
//!   ([`crate::position::Turn`]). Between the parts the same side is to move, and only the
//!   unit that made the first move may move.
//! - "Single moves are illegal": a first move is legal (and listed) only if at least one
//!   legal second move follows it; so `legal_moves` at the start of a turn lists the first
//!   moves that can be completed, and in the middle of a turn the second moves.
//! - "The position must differ": the board (every unit's colour, kind and square) after the
//!   second move must differ from the board before the first; castling rights and the en
//!   passant square do not count (Ke1-f1-e1 is illegal even though it loses the rights).
//! - Self-checks are allowed after either part, so check never restricts a move, except
//!   castling, whose own rule stays (no castling out of or through an attacked square). A
//!   move may capture the enemy king (it need not); our engine does not stop the ctx
//!   then: goals are the solver's business.
//! - The unit that moves again is the one standing on the first move's arrival square
//!   (the king after castling). If a condition took it away from there (a rebirth, a
//!   kamikaze capture) or gave it to the opponent (a colour change), the turn cannot be
//!   completed and the first move is illegal.
//! - `perft` counts single moves (one ply = one part of a turn).

use crate::moves::Move;
use crate::position::Turn;
use crate::rules::{Capabilities, Condition, Ctx};
use chimere_core::Colour;

#[derive(Clone, Debug, Default)]
pub struct Anneciens;

impl Condition for Anneciens {
    fn name(&self) -> String {
        "Annéciens".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { turns: true, self_check_allowed: true, ..Capabilities::default() }
    }
    fn end_of_move(&self, ctx: &mut Ctx, mover: Colour, mv: &Move, board_before: u64) -> bool {
        let t = ctx.pos().turn();
        if t.part == 0 {
            let Some(u) = ctx.pos().unit(mv.to) else { return false };
            if u.colour() != mover && u.colour() != Colour::Shared {
                return false;
            }
            ctx.pos_mut().set_turn(Turn { part: 1, unit: Some(mv.to), start: board_before, ..Turn::default() });
            ctx.pos_mut().flip_side();
            // Single moves are illegal: some second move must complete the turn.
            let mut buf = ctx.take_buf();
            ctx.pseudo_moves(mover, &mut buf);
            let mut found = false;
            for m in buf.iter().filter(|m| m.from == mv.to) {
                if ctx.make(m).is_some() {
                    ctx.unmake();
                    found = true;
                    break;
                }
            }
            ctx.give_buf(buf);
            found
        } else {
            if ctx.pos().board().hash() == t.start {
                return false;
            }
            ctx.pos_mut().set_turn(Turn::default());
            true
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::moves::Move;
    use crate::{Game, game_from_fen};
    use chimere_core::{Colour, Square};

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn legal(g: &mut Game) -> Vec<Move> {
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        v
    }

    fn names(g: &mut Game) -> Vec<String> {
        let mut v: Vec<String> = legal(g).iter().map(|m| format!("{}-{}", m.from, m.to)).collect();
        v.sort();
        v
    }

    fn play(g: &mut Game, from: &str, to: &str) {
        let m = legal(g)
            .into_iter()
            .find(|m| m.from == sq(from) && m.to == sq(to))
            .unwrap_or_else(|| panic!("{from}-{to} is not legal"));
        g.make(&m).expect("legal");
    }

    #[test]
    fn a_turn_is_two_moves_of_one_unit() {
        // White Ke1, Rh1 (no castling: FEN gives no rights), black Ka8 (not attacked by the
        // moves below). After Rh1-h2 only the rook may move again; the side stays White.
        let fen = "k7/8/8/8/8/8/8/4K2R w - - 0 1";
        let mut g = game_from_fen(fen, &["anneciens"]).unwrap();
        play(&mut g, "h1", "h2");
        assert_eq!(g.pos.side(), Colour::White);
        assert_eq!(g.pos.turn().unit, Some(sq("h2")));
        // Second moves: the rook on h2 along its lines: h1 is excluded (board back to the
        // start); h3..h8 (6), a2..g2 (7). Kh... not allowed (another unit).
        let mut expected: Vec<String> = ["h3", "h4", "h5", "h6", "h7", "h8", "a2", "b2", "c2", "d2", "e2", "f2", "g2"]
            .iter()
            .map(|t| format!("h2-{t}"))
            .collect();
        expected.sort();
        assert_eq!(names(&mut g), expected);
        play(&mut g, "h2", "a2");
        assert_eq!(g.pos.side(), Colour::Black);
        assert_eq!(g.pos.turn().part, 0);
    }

    #[test]
    fn first_moves_need_a_completion() {
        // White Ka1, Pa2; Black Ka8, Pa4. White's first moves:
        // - a2-a3: the pawn on a3 is then blocked by a4 and has no capture, so the turn
        //   cannot be completed: NOT listed. a2-a4 is blocked.
        // - Ka1-b1: completed by Kb1-b2/c1/c2 (b1-a1 would restore the start board):
        //   listed. Ka1-b2: completed by Kb2-a3/b3/c3/b1/c1/c2: listed.
        // Self-checks being allowed, the squares the black pawn attacks (b3) do not matter.
        let fen = "k7/8/8/8/p7/8/P7/K7 w - - 0 1";
        let mut g = game_from_fen(fen, &["anneciens"]).unwrap();
        assert_eq!(names(&mut g), vec!["a1-b1".to_string(), "a1-b2".to_string()]);
    }

    #[test]
    fn self_check_is_allowed_and_king_capture_is_optional() {
        // White Ke1 stands on the file of the black rook e8 (in check). Self-checks being
        // allowed, White may end its turn on the file again: Ke1-d2-e2.
        let fen = "k3r3/8/8/8/8/8/8/4K3 w - - 0 1";
        let mut g = game_from_fen(fen, &["anneciens"]).unwrap();
        play(&mut g, "e1", "d2");
        play(&mut g, "d2", "e2");
        assert_eq!(g.pos.side(), Colour::Black);
        assert!(g.in_check(Colour::White));
        // Black may capture the king (Re8xe2, then the rook moves on from e2) but need not:
        // the black king's turns (Ka8-b8-c8, ...) are legal too.
        let firsts = legal(&mut g);
        assert!(firsts.iter().any(|m| m.from == sq("e8") && m.to == sq("e2")));
        assert!(firsts.iter().any(|m| m.from == sq("a8")));
    }

    #[test]
    fn make_unmake_restores_position_and_hash_across_turn_boundaries() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let mut g = game_from_fen(start, &["anneciens"]).unwrap();
        let p0 = g.pos.clone();
        let seq = [("e2", "e4"), ("e4", "e5"), ("g8", "f6"), ("f6", "d5"), ("d1", "h5"), ("h5", "f7")];
        let mut snaps = Vec::new();
        for (f, t) in seq {
            snaps.push((g.pos.clone(), g.pos.hash()));
            play(&mut g, f, t);
            assert!(g.pos.is_consistent());
            assert_eq!(g.pos.hash(), g.pos.recomputed_hash());
        }
        for (p, h) in snaps.into_iter().rev() {
            g.unmake();
            assert_eq!(g.pos, p);
            assert_eq!(g.pos.hash(), h);
        }
        assert_eq!(g.pos, p0);
        // Between the parts the hash differs from the same board at a turn's start.
        play(&mut g, "g1", "f3");
        let mid = g.pos.hash();
        let same_board =
            game_from_fen("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1", &["anneciens"]).unwrap();
        assert_eq!(g.pos.board(), same_board.pos.board());
        assert_ne!(mid, same_board.pos.hash());
    }

    #[test]
    fn perft_counts_parts() {
        // From the array, depth 1 = White's first moves that can be completed: every one of
        // the 20 orthodox moves can (each pawn or knight can move again without restoring
        // the start board: e.g. a2-a3-a4, Nb1-c3-b5...). Depth 2 = completed turns.
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let mut g = game_from_fen(start, &["anneciens"]).unwrap();
        assert_eq!(g.perft(1), 20);
        // Second moves per first move: pawn single steps a3..h3 (8): one step more each (8);
        // pawn double steps (8): one step more (8, e.g. e4-e5); knights Nb1-a3 -> b5, c4,
        // (b1 excluded) = 2; Nb1-c3 -> b5, d5, e4, a4 (b1 excluded) = 4; Ng1-f3 -> e5, g5,
        // h4, d4 = 4; Ng1-h3 -> g5, f4 = 2. Total 8 + 8 + 2 + 4 + 4 + 2 = 28.
        assert_eq!(g.perft(2), 28);
    }
}
