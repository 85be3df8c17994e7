//! Progressif (progressive chess, Scottish style; Chimère-extension Popeye keyword
//! `ProgressiveChess [n]`, `chimere moves -c "progressif [n]"`).
//!
//! Rule (spec): the n-th turn, counting both sides' turns, consists of n consecutive moves of
//! the same side; a series ends early when a move gives check. A pawn that made a single
//! double step in a series can be taken en passant on the first move of the following
//! series.
//!
//! Our reading and decisions:
//! - The diagram starts turn `first` (parameter, default 1: the side to move plays one
//!   move, the other side then two, and so on). The turn state (turns completed since the
//!   diagram, moves already played in the series, the double-stepped pawns) is part of the
//!   position and of its hash ([`crate::position::Turn`]).
//! - Every move of a series is a legal move on its own: it may not leave the own king in
//!   check (so the first move of a series must parry a check, as in orthodox progressive
//!   chess). A move that gives check ends the series at once (the remaining moves are lost).
//! - A side that has no legal move in the middle of its series is stalemated (draw); its
//!   own king cannot be in check then, since no move may leave it in check.
//! - En passant: a pawn whose only move in the series was a double step (it did not move
//!   again in that series) and which still stands on its arrival square may be taken en
//!   passant on the FIRST move of the opponent's following series, as if that double step
//!   had been the last move; several such pawns may be taken (one of them). Later moves of
//!   the series cannot take en passant. Pawns that double-stepped in an earlier series or
//!   that moved on afterwards cannot be taken.
//! - `legal_moves` lists the moves of the current part of the series; `perft` counts
//!   single moves (one ply = one move of a series), whoever makes it.

use crate::moves::Move;
use crate::position::Turn;
use crate::rules::{Capabilities, Condition, Ctx};
use crate::walk::PAWN;
use chimere_core::Colour;

/// Progressive chess; `first` = the number of the diagram's turn (its series length).
#[derive(Clone, Debug)]
pub struct Progressif {
    pub first: u16,
}

impl Default for Progressif {
    fn default() -> Self {
        Progressif { first: 1 }
    }
}

impl Condition for Progressif {
    fn name(&self) -> String {
        "Progressif".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { turns: true, ..Capabilities::default() }
    }
    fn end_of_move(&self, ctx: &mut Ctx, mover: Colour, mv: &Move, _board_before: u64) -> bool {
        let t = ctx.pos().turn();
        let length = (self.first as u32 + t.number as u32).max(1);
        let part = t.part as u32 + 1;
        // Double-stepped pawns of this series: a pawn that moves again is struck off.
        let mut marks = t.marks & !(1u64 << mv.from.index());
        let moved = ctx.pos().unit(mv.to);
        if mv.capture.is_none()
            && mv.castle.is_none()
            && mv.from.file() == mv.to.file()
            && mv.from.rank().abs_diff(mv.to.rank()) == 2
            && moved.is_some_and(|u| u.kind() == PAWN && mv.promo.is_none())
        {
            marks |= 1u64 << mv.to.index();
        }
        // Keep only squares still holding a pawn of the mover.
        let b = ctx.pos().board();
        let pawns = (b.kind(PAWN) & (b.colour(mover) | b.colour(Colour::Shared))).0;
        marks &= pawns;
        // The engine's own en passant field is replaced by the series' pawns.
        ctx.pos_mut().set_ep(None);
        let over = part >= length || ctx.in_check(mover.opponent());
        if over {
            ctx.pos_mut().set_turn(Turn { number: t.number.saturating_add(1), ep_pawns: marks, ..Turn::default() });
        } else {
            ctx.pos_mut().set_turn(Turn {
                number: t.number,
                part: part.min(u16::MAX as u32) as u16,
                marks,
                ..Turn::default()
            });
            ctx.pos_mut().flip_side();
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use crate::moves::Move;
    use crate::position::Turn;
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

    fn find(g: &mut Game, from: &str, to: &str) -> Move {
        legal(g)
            .into_iter()
            .find(|m| m.from == sq(from) && m.to == sq(to))
            .unwrap_or_else(|| panic!("{from}-{to} is not legal"))
    }

    fn play(g: &mut Game, from: &str, to: &str) {
        let m = find(g, from, to);
        g.make(&m).expect("legal");
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn series_lengths_grow() {
        // Turn 1: White plays one move, then Black two, then White three.
        let mut g = game_from_fen(START, &["progressif"]).unwrap();
        play(&mut g, "e2", "e4");
        assert_eq!(g.pos.side(), Colour::Black);
        play(&mut g, "e7", "e5");
        assert_eq!(g.pos.side(), Colour::Black, "second move of Black's series");
        play(&mut g, "d7", "d6");
        assert_eq!(g.pos.side(), Colour::White);
        play(&mut g, "d2", "d4");
        play(&mut g, "c2", "c4");
        assert_eq!(g.pos.side(), Colour::White);
        play(&mut g, "b2", "b3");
        assert_eq!(g.pos.side(), Colour::Black);
        assert_eq!(g.pos.turn().number, 3);
    }

    #[test]
    fn diagram_turn_parameter() {
        // `progressif 3`: the diagram's side plays three moves.
        let mut g = game_from_fen(START, &["progressif 3"]).unwrap();
        play(&mut g, "e2", "e4");
        play(&mut g, "d2", "d4");
        assert_eq!(g.pos.side(), Colour::White);
        play(&mut g, "c2", "c4");
        assert_eq!(g.pos.side(), Colour::Black);
    }

    #[test]
    fn perft_counts_single_moves() {
        // Depth 1: White's 20 moves (turn 1). Depth 2: Black's first move of turn 2, 20
        // after each (400, no check is possible). Depth 3: Black's SECOND move of the same
        // series: for every (White move, Black move) it equals the number of orthodox moves
        // of Black in that position with Black to move (no check can arise so early, so
        // the series goes on), counted here by the orthodox rules with the side set by hand.
        let mut g = game_from_fen(START, &["progressif"]).unwrap();
        assert_eq!(g.perft(1), 20);
        assert_eq!(g.perft(2), 400);
        let mut expected = 0;
        for w in legal(&mut g) {
            g.make(&w).unwrap();
            for b in legal(&mut g) {
                g.make(&b).unwrap();
                assert_eq!(g.pos.side(), Colour::Black);
                let mut p = g.pos.clone();
                p.setup_turn(crate::position::Turn::default());
                let mut o = Game::new(crate::RuleSet::orthodox(), p);
                expected += o.perft(1);
                g.unmake();
            }
            g.unmake();
        }
        assert_eq!(g.perft(3), expected);
    }

    #[test]
    fn check_ends_the_series() {
        // White Ke1, Qd1; Black Ke8. White plays turn 3 (three moves). 1.Qd1-a4 checks the
        // king along a4-b5-c6-d7-e8 and ends White's series after one move.
        let fen = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
        let mut g = game_from_fen(fen, &["progressif 3"]).unwrap();
        play(&mut g, "d1", "a4");
        assert_eq!(g.pos.side(), Colour::Black, "a check ends the series");
        assert_eq!(g.pos.turn().number, 1);
        assert_eq!(g.pos.turn().part, 0);
        // Black's series (turn 4) must start by parrying the check: the king leaves the
        // diagonal to d8, e7, f7 or f8 (none attacked by the queen on a4); Kd7 stays on it.
        let mut firsts: Vec<String> = legal(&mut g).iter().map(|m| m.to.to_string()).collect();
        firsts.sort();
        assert_eq!(firsts, ["d8", "e7", "f7", "f8"]);
        // A quiet move instead: 1.Qd1-d2 gives no check, White moves on.
        let mut g = game_from_fen(fen, &["progressif 3"]).unwrap();
        play(&mut g, "d1", "d2");
        assert_eq!(g.pos.side(), Colour::White);
        assert_eq!(g.pos.turn().part, 1);
    }

    #[test]
    fn no_move_may_leave_the_own_king_in_check() {
        // White: Ke1, Re2 pinned by the black rook e8; White's series of two moves. The
        // rook may move along the e-file only (e3..e7, xe8), in both moves of the series.
        let fen = "4r2k/8/8/8/8/8/4R3/4K3 w - - 0 1";
        let mut g = game_from_fen(fen, &["progressif 2"]).unwrap();
        let rook: Vec<String> = legal(&mut g).iter().filter(|m| m.from == sq("e2")).map(|m| m.to.to_string()).collect();
        assert_eq!(rook, ["e3", "e4", "e5", "e6", "e7", "e8"].map(String::from).to_vec());
    }

    #[test]
    fn en_passant_on_the_first_move_of_the_next_series() {
        // Black to play turn 2 (two moves): ...d7-d5 and ...f7-f5 put two pawns beside the
        // white pawn e5; on White's first move (turn 3) both e5xd6 and e5xf6 e.p. are
        // legal; after a first White move elsewhere, no e.p. remains.
        let fen = "4k3/3p1p2/8/4P3/8/8/8/4K3 b - - 0 1";
        let mut g = game_from_fen(fen, &["progressif 2"]).unwrap();
        play(&mut g, "d7", "d5");
        assert_eq!(g.pos.side(), Colour::Black);
        assert!(legal(&mut g).iter().all(|m| !m.ep), "no e.p. within a series");
        play(&mut g, "f7", "f5");
        assert_eq!(g.pos.side(), Colour::White);
        let ep: Vec<String> = legal(&mut g).iter().filter(|m| m.ep).map(|m| m.to.to_string()).collect();
        assert_eq!(ep.len(), 2);
        assert!(ep.contains(&"d6".to_string()) && ep.contains(&"f6".to_string()));
        let e = find(&mut g, "e5", "d6");
        assert_eq!(e.capture, Some(sq("d5")));
        play(&mut g, "e1", "d1");
        assert!(legal(&mut g).iter().all(|m| !m.ep), "e.p. only on the first move of the series");
    }

    #[test]
    fn a_pawn_that_moved_again_cannot_be_taken_en_passant() {
        // Black (turn 2, two moves) plays ...d7-d5 and ...d5-d4, ending beside the white
        // pawn c4. The d-pawn made a double step but then moved on, so c4xd3 e.p. is NOT
        // offered on White's first move (turn 3); c4-c5 and the king moves remain.
        let fen = "4k3/3p4/8/8/2P5/8/8/4K3 b - - 0 1";
        let mut g = game_from_fen(fen, &["progressif 2"]).unwrap();
        play(&mut g, "d7", "d5");
        play(&mut g, "d5", "d4");
        assert_eq!(g.pos.side(), Colour::White);
        assert_eq!(g.pos.turn().ep_pawns, 0);
        assert!(legal(&mut g).iter().all(|m| !m.ep));
        // Positive case: ...d7-d5 then ...Ke8-f7 beside the white pawn e5. The double step
        // was not the LAST move of the series, yet it was the pawn's only move in it, so
        // e5xd6 e.p. is legal on White's first move.
        let fen = "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1";
        let mut g = game_from_fen(fen, &["progressif 2"]).unwrap();
        play(&mut g, "d7", "d5");
        play(&mut g, "e8", "f7");
        assert!(legal(&mut g).iter().any(|m| m.ep && m.from == sq("e5") && m.to == sq("d6")));
    }

    #[test]
    fn make_unmake_restores_position_and_hash_across_turn_boundaries() {
        let mut g = game_from_fen(START, &["progressif"]).unwrap();
        let p0 = g.pos.clone();
        let h0 = g.pos.hash();
        // Six moves: turn 1 (W), turn 2 (B, B), turn 3 (W, W, W) — including a double step
        // kept for e.p.
        let seq = [("e2", "e4"), ("d7", "d5"), ("d5", "d4"), ("c2", "c4"), ("g1", "f3"), ("f3", "g5")];
        let mut snaps = Vec::new();
        for (f, t) in seq {
            snaps.push((g.pos.clone(), g.pos.hash()));
            play(&mut g, f, t);
            assert!(g.pos.is_consistent());
            assert_eq!(g.pos.hash(), g.pos.recomputed_hash());
        }
        // Black's first move of turn 4: White's c-pawn double-stepped in turn 3 and did not
        // move again, so d4xc3 e.p. is legal (though c2-c4 was not White's last move).
        assert!(legal(&mut g).iter().any(|m| m.ep && m.from == sq("d4") && m.to == sq("c3")));
        for (p, h) in snaps.into_iter().rev() {
            g.unmake();
            assert_eq!(g.pos, p);
            assert_eq!(g.pos.hash(), h);
        }
        assert_eq!(g.pos, p0);
        assert_eq!(g.pos.hash(), h0);
        // Same board, different part of the series: different hashes.
        let mut a = game_from_fen(START, &["progressif 2"]).unwrap();
        play(&mut a, "g1", "f3");
        play(&mut a, "f3", "g1");
        let b = game_from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1", &["progressif"]).unwrap();
        assert_eq!(a.pos.board(), b.pos.board());
        assert_ne!(a.pos.hash(), b.pos.hash());
    }

    #[test]
    fn combinations() {
        // Capture consequences compose (Circe: captures and checks as usual from the array).
        let mut g = game_from_fen(START, &["progressif", "circe"]).unwrap();
        assert_eq!(g.perft(2), 400);
        // Refused: two turn deciders; conditions judging a move by the replies or obliging.
        for other in ["anneciens", "checkless", "losing chess", "black checks", "isardam"] {
            assert!(game_from_fen(START, &["progressif", other]).is_err(), "{other}");
        }
        assert!(game_from_fen(START, &["progressif 0"]).is_err());
        assert!(game_from_fen(START, &["progressif x"]).is_err());
    }

    #[test]
    fn turn_state_journal_and_hash() {
        // The turn state rolls back with its frame, nested frames included, and the hash
        // follows it (equal to the recomputed one).
        let mut p = crate::position_from_fen(START).unwrap();
        let h0 = p.hash();
        p.begin();
        p.set_turn(Turn { number: 3, part: 1, marks: 1 << 28, ..Turn::default() });
        let h1 = p.hash();
        assert_ne!(h1, h0);
        assert_eq!(h1, p.recomputed_hash());
        p.begin();
        p.set_turn(Turn { number: 4, ep_pawns: 1 << 28, ..Turn::default() });
        assert_eq!(p.hash(), p.recomputed_hash());
        p.rollback();
        assert_eq!(p.hash(), h1);
        assert_eq!(p.turn().number, 3);
        p.rollback();
        assert_eq!(p.hash(), h0);
        assert_eq!(p.turn(), Turn::default());
        assert!(p.is_consistent());
    }
}
