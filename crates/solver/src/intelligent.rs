//! Intelligent mode for orthodox helpmates (`Option Intelligent`): the help search of
//! [`crate::search`] with every sub-position whose mate is provably out of reach cut off,
//! as the searcher's [`Pruning`] ([`Intelligent`]), split by step: the empty-board
//! tables (`tables`), the bound and the mate filters of the last two plies (`bound`),
//! the stalemate filters and immobility rule (`stalemate`), and the pictures
//! (`pictures`: the mate pictures, the stalemate fates, the completion test, the walk,
//! the cache).
//!
//! A mate after `plies` more alternate moves needs, in the final position: the mated
//! king on some square K it reaches with its own moves, the mating side attacking K, and
//! every flight of K (a neighbouring square) either occupied by a unit of the mated side
//! or attacked by the mating side. Each unit's journey is priced with a lower bound on
//! its number of moves (its distance on an empty board: captures, promotions and castling
//! counted as possible; every real move is also a move on the empty board), and attacks
//! are taken on an empty board (a superset of the real ones). When no choice of K, of
//! the mating units' final squares within the mating side's moves and of the blocks
//! within the mated side's moves meets these conditions, no mate exists below the node:
//! the node is answered "no" without searching. On the last ply only the moves that can
//! complete such a picture are tried, and on the one before only the mated side's moves
//! after which one mating move can (its king's moves always). Everything else is the normal search (same moves,
//! same order, same table of solved sub-positions and the same answers), so the
//! solutions are exactly those of the normal search: the pruning only removes subtrees
//! without a solution.
//!
//! The bound is computed only while the mating side has at most `BOUND_UP_TO` (4) moves
//! left. From `PICTURES_FROM` (3) mating moves on, help play goes the other way
//! round instead (the `pictures` submodule): every final picture of a mate (the mated king's
//! square, the mating units that check or guard with their final squares, the mated
//! units that block the remaining flights) is enumerated within both sides' moves, and
//! one search over all pictures keeps at each node the pictures whose committed units
//! can still reach their squares in time, and only the moves that keep one; the lines
//! are given in the normal search's order. The same solutions again: the pictures cover
//! every mate and the lines are played and checked by the real rules. Series play
//! (`ser-h#`, `ser-#`) uses the pictures too from `SERIES_PICTURES_FROM` (4) series
//! moves on.
//!
//! Stalemate goals (`h=n`) go the same way with their own proofs: on the last
//! two plies the filters of the `stalemate` submodule (the stalemating move must touch
//! a square of every legal move's *zone* of the stalemated side), above them the
//! pictures of a stalemate (the `pictures` submodule) from `STALEMATE_PICTURES_FROM` (3)
//! stalemating moves on (at 3 only when their enumeration is cheap); the mate bound is
//! not used for them.
//!
//! Used only for the rules it is proved for: orthodox units (K Q R B S P without
//! attributes) and dummies (`Du`: a unit that never moves and attacks nothing, but
//! stands, blocks and can be captured — in the tables a kind whose only square is its
//! own and whose attacks are none, so every proof below holds as for a unit that has
//! no move), no condition but holes (`Condition Hole`: no unit stands on or crosses a
//! hole, so distances and attacks are taken on the board empty but for its holes, paths
//! around them, still lower bounds and supersets (`tables::tables_for`); a
//! hole is no flight and no final square, and for a stalemate it blocks a unit as the
//! unit's own side does), goal mate or stalemate, help play (`h#n`, `h#n.5`, `h=n`),
//! series play (`ser-h#`, `ser-#`, and `ser-h=` by the stalemate pictures: with the
//! stalemated side fully committed they took the measured collection's `ser-h=`
//! problems from over 30 s to 8 s, 11.5 s to 6 s and 9 s to 3.3 s, the others within
//! a tenth of a second or 15%).

mod bound;
mod pictures;
mod stalemate;
mod tables;

use crate::search::{Interrupted, Pruning, Searcher, SeriesSink};
use crate::stip::{Goal, Play, Stipulation};
use bound::{Scratch, filter_last, filter_second_last, mate_possible, series_mate_possible};
use chimere_core::Colour;
use chimere_fairy::rules::Notes;
use chimere_fairy::walk::PAWN;
use chimere_fairy::{Game, Move};
use chimere_popeye::Problem;
use tables::{INF, cheb, colour_index, on_board, table_kind, tables};

/// Sub-positions with fewer plies left are not looked up in the table of solved ones.
const TABLE_FROM: u32 = 2;

/// Whether the intelligent mode is used for this problem: `Option Intelligent`, help play
/// with goal mate or stalemate, orthodox rules and units (see [`orthodox_goal`]).
pub fn applies(p: &Problem, stip: &Stipulation) -> bool {
    stip.play == Play::Help && (orthodox_mate(p, stip) || orthodox_goal(p, stip, Goal::Stalemate))
}

/// Whether the series play goes intelligent (the bound [`series_mate_possible`] for mates,
/// the pictures from [`series_by_pictures`] moves on): `Option Intelligent`, `ser-#n`,
/// `ser-h#n` or `ser-h=n`, orthodox rules and units (see [`orthodox_goal`]).
pub fn applies_series(p: &Problem, stip: &Stipulation) -> bool {
    matches!(stip.play, Play::Series | Play::SeriesHelp) && orthodox_mate(p, stip)
        || stip.play == Play::SeriesHelp && orthodox_goal(p, stip, Goal::Stalemate)
}

fn orthodox_mate(p: &Problem, stip: &Stipulation) -> bool {
    orthodox_goal(p, stip, Goal::Mate)
}

/// `Option Intelligent`, goal `goal`, orthodox rules and units, dummies too (units that
/// never move and attack nothing: no square reached but their own, no attack, see
/// [`tables::DUMMY_T`]), and holes (squares taken off the board, `Condition Hole`: no
/// unit stands on or crosses them, so distances and attacks on the board empty but for
/// its holes are lower bounds and supersets, a hole is no flight and no final square, and it blocks a
/// stalemated unit as its own units do).
fn orthodox_goal(p: &Problem, stip: &Stipulation, goal: Goal) -> bool {
    p.has(chimere_popeye::OptionKind::Intelligent)
        && stip.goal == goal
        && p.conditions.iter().all(|c| c.board_squares)
        && p.pieces.iter().all(|u| table_kind(u.kind).is_some() && u.attrs == 0 && u.colour != Colour::Shared)
}

/// The units of one colour (square, kind's table index, [`tables::table_kind`]: only the
/// kinds [`orthodox_goal`] admits are on the board).
fn units(game: &Game, c: Colour) -> impl Iterator<Item = (usize, usize)> + '_ {
    let b = game.pos.board();
    let mut bb = b.colour(c).0;
    std::iter::from_fn(move || {
        if bb == 0 {
            return None;
        }
        let sq = bb.trailing_zeros() as usize;
        bb &= bb - 1;
        let p = b.get(chimere_core::Square::new(sq as u8)).expect("occupied");
        Some((sq, table_kind(p.kind).expect("a kind the intelligent mode admits")))
    })
}

/// The intelligent mode's [`Pruning`] for one goal: the bound and the last-two-ply
/// filters of this module (mates), the zones of the `stalemate` submodule
/// (stalemates), and help and series play taken over by the pictures (the `pictures`
/// submodule) from [`pictures::PICTURES_FROM`] moves of the mating side
/// ([`pictures::STALEMATE_PICTURES_FROM`] stalemating moves, [`pictures::SERIES_PICTURES_FROM`]
/// series moves) on. Owned by the searcher: its buffers and the last pictures
/// enumerated are kept from one first move to the next.
pub struct Intelligent {
    goal: Goal,
    /// The bound's buffers.
    scratch: Scratch,
    notes: Notes,
    /// The zones of the stalemated side's moves at the node two plies from the end being
    /// searched (there is one at a time: the nodes below it have one ply left).
    zones: Option<stalemate::Zones>,
    /// See [`Pruning::plan`].
    horizon: u32,
    /// The last pictures enumerated.
    pictures: pictures::Cache,
}

impl Intelligent {
    /// The pruning for `goal` (mate or stalemate: the others are left unpruned).
    pub fn new(goal: Goal) -> Intelligent {
        Intelligent {
            goal,
            scratch: Scratch::default(),
            notes: Notes::new(),
            zones: None,
            horizon: 0,
            pictures: pictures::Cache::default(),
        }
    }

    /// [`Intelligent::new`], boxed for [`Searcher::install_pruning`].
    pub fn boxed(goal: Goal) -> Box<dyn Pruning> {
        Box::new(Intelligent::new(goal))
    }

    fn mate(&self) -> bool {
        self.goal == Goal::Mate
    }
}

impl Pruning for Intelligent {
    fn table_from(&self) -> u32 {
        TABLE_FROM
    }

    fn help_possible(&mut self, game: &Game, plies: u32) -> bool {
        !self.mate() || mate_possible(&mut self.scratch, game, plies)
    }

    fn help_filter(&mut self, game: &mut Game, plies: u32, moves: &mut Vec<Move>) -> bool {
        match (self.goal, plies) {
            (Goal::Mate, 1) => filter_last(game, moves),
            (Goal::Mate, 2) => filter_second_last(game, moves),
            (Goal::Stalemate, 1) => stalemate::filter_last(game, moves, &mut self.notes),
            (Goal::Stalemate, 2) => {
                self.zones = stalemate::zones(game, &mut self.notes);
                return self.zones.is_some();
            }
            _ => {}
        }
        false
    }

    fn help_keeps(&mut self, game: &mut Game, _plies: u32, m: &Move) -> bool {
        self.zones.as_ref().is_none_or(|zs| stalemate::second_last_ok(game, zs, m))
    }

    fn series_possible(&mut self, game: &Game, play: Play, k: u32) -> bool {
        !self.mate() || series_mate_possible(&mut self.scratch, game, play, k)
    }

    fn plan(&mut self, longest: u32) {
        self.horizon = longest;
    }

    fn takes_over_help(&self, plies: u32) -> bool {
        plies.div_ceil(2) >= pictures_from(self.goal)
    }

    fn takes_over_series(&self, k: u32) -> bool {
        k >= pictures::SERIES_PICTURES_FROM
    }

    fn help_lines(
        &mut self,
        s: &mut Searcher,
        plies: u32,
        prefix: &mut Vec<Move>,
        out: &mut dyn FnMut(&mut Searcher, &[Move]) -> bool,
    ) -> Result<Option<bool>, Interrupted> {
        pictures::lines(s, &mut self.pictures, self.horizon, plies, prefix, out)
    }

    fn series_lines(
        &mut self,
        s: &mut Searcher,
        play: Play,
        k: u32,
        prefix: &mut Vec<Move>,
        out: &mut SeriesSink<'_>,
    ) -> Result<Option<bool>, Interrupted> {
        pictures::series_lines(s, &mut self.pictures, self.horizon, play, k, prefix, out)
    }
}

/// From how many moves of the mating (stalemating) side on help play goes by the pictures.
fn pictures_from(goal: Goal) -> u32 {
    match goal {
        Goal::Stalemate => pictures::STALEMATE_PICTURES_FROM,
        _ => pictures::PICTURES_FROM,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Table;
    use chimere_fairy::walk::KING;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    /// A small reproducible generator (no dependency).
    pub(super) struct Rng(pub(super) u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            self.0 >> 33
        }
        pub(super) fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// A random orthodox position, Black to move, White not in check: kings apart, a few
    /// units, sometimes castling rights (kings and rooks at home) or an en passant square.
    pub(super) fn random_game(rng: &mut Rng) -> Option<Game> {
        let mut board = [None::<char>; 64];
        let castling = rng.below(4) == 0;
        let (wk, bk) = if castling {
            (4, 60)
        } else {
            // The black king often on an edge: mates are likelier there.
            let bk = if rng.below(2) == 0 { [0, 7][rng.below(2) as usize] * 8 + rng.below(8) } else { rng.below(64) };
            (rng.below(64) as usize, bk as usize)
        };
        if cheb(wk, bk) <= 1 {
            return None;
        }
        board[wk] = Some('K');
        board[bk] = Some('k');
        let mut rights = String::new();
        if castling {
            for (sq, c, r) in [(7, 'R', 'K'), (0, 'R', 'Q'), (63, 'r', 'k'), (56, 'r', 'q')] {
                if rng.below(2) == 0 {
                    board[sq] = Some(c);
                    rights.push(r);
                }
            }
        }
        let units = b"QRBSPPP";
        for _ in 0..2 + rng.below(3) {
            let u = units[rng.below(units.len() as u64) as usize] as char;
            let sq = rng.below(64) as usize;
            if board[sq].is_none() && (u != 'P' || (8..56).contains(&sq)) {
                board[sq] = Some(u);
            }
        }
        for _ in 0..2 + rng.below(4) {
            let u = units[rng.below(units.len() as u64) as usize].to_ascii_lowercase() as char;
            let sq = rng.below(64) as usize;
            if board[sq].is_none() && (u != 'p' || (8..56).contains(&sq)) {
                board[sq] = Some(u);
            }
        }
        let fen = placement(&board);
        // Sometimes White has just played a double step (en passant possible).
        let mut ep = "-".to_string();
        for f in 0..8 {
            if board[24 + f] == Some('P') && board[16 + f].is_none() && board[8 + f].is_none() && rng.below(2) == 0 {
                ep = format!("{}3", (b'a' + f as u8) as char);
                break;
            }
        }
        if rights.is_empty() {
            rights.push('-');
        }
        let mut g = chimere_fairy::game_from_fen(&format!("{fen} b {rights} {ep} 0 1"), &[]).ok()?;
        if g.in_check(Colour::White) {
            return None;
        }
        Some(g)
    }

    pub(super) fn searcher(g: Game) -> Searcher {
        searcher_for(g, Goal::Mate)
    }

    /// A searcher of the normal search for `goal`.
    pub(super) fn searcher_for(g: Game, goal: Goal) -> Searcher {
        Searcher::new(g, Table::new(8), Arc::new(AtomicBool::new(false)), goal, false)
    }

    /// A searcher of the intelligent mode for `goal`.
    pub(super) fn intelligent(g: Game, goal: Goal) -> Searcher {
        let mut s = searcher_for(g, goal);
        s.install_pruning(|| Intelligent::boxed(goal));
        s
    }

    /// The lines a help search (`run`, given the sink) finds, in order, and its result.
    pub(super) fn collect_help<R>(
        run: impl FnOnce(&mut dyn FnMut(&mut Searcher, &[Move]) -> bool) -> Result<R, Interrupted>,
    ) -> (Vec<Vec<Move>>, R) {
        let mut lines = Vec::new();
        let r = run(&mut |_, l: &[Move]| {
            lines.push(l.to_vec());
            true
        })
        .expect("not stopped");
        (lines, r)
    }

    /// A series line with the other side's answer.
    pub(super) type SeriesLine = (Vec<Move>, Option<Move>);

    /// The lines (with their answers) a series search finds, in order, and its result.
    pub(super) fn collect_series<R>(
        run: impl FnOnce(&mut crate::search::SeriesSink<'_>) -> Result<R, Interrupted>,
    ) -> (Vec<SeriesLine>, R) {
        let mut lines = Vec::new();
        let r = run(&mut |_, l: &[Move], ans| {
            lines.push((l.to_vec(), ans));
            true
        })
        .expect("not stopped");
        (lines, r)
    }

    /// The pieces of `board` (index `8 * rank + file`, a1 = 0) as a FEN placement.
    pub(super) fn placement(board: &[Option<char>; 64]) -> String {
        let mut fen = String::new();
        for r in (0..8).rev() {
            let mut empty = 0;
            for f in 0..8 {
                match board[r * 8 + f] {
                    Some(c) => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        fen.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if r > 0 {
                fen.push('/');
            }
        }
        fen
    }

    /// A board with the black king on an edge and the white king apart from it (`None`
    /// when they would touch), and the black king's square.
    pub(super) fn kings_on_board(rng: &mut Rng) -> Option<([Option<char>; 64], usize)> {
        let mut board = [None::<char>; 64];
        let edge = [0, 7][rng.below(2) as usize];
        let bk = if rng.below(2) == 0 { edge * 8 + rng.below(8) } else { rng.below(8) * 8 + edge } as usize;
        let wk = rng.below(64) as usize;
        if cheb(wk, bk) <= 1 {
            return None;
        }
        board[bk] = Some('k');
        board[wk] = Some('K');
        Some((board, bk))
    }

    /// Puts up to `count` black units drawn from `units` on empty squares within two
    /// files and ranks of `bk` (no pawn on the first or last rank).
    pub(super) fn crowd(board: &mut [Option<char>; 64], bk: usize, count: u64, units: &[u8], rng: &mut Rng) {
        for _ in 0..count {
            let (f, r) = ((bk % 8) as i32 + rng.below(5) as i32 - 2, (bk / 8) as i32 + rng.below(5) as i32 - 2);
            if let Some(sq) = on_board(f, r)
                && board[sq].is_none()
            {
                let u = units[rng.below(units.len() as u64) as usize] as char;
                if u != 'p' || (8..56).contains(&sq) {
                    board[sq] = Some(u);
                }
            }
        }
    }

    /// `g` with two to six holes (`Condition Hole`) on empty squares drawn from `rng`,
    /// often around the black king.
    pub(super) fn with_holes(g: &Game, rng: &mut Rng) -> Option<Game> {
        let board = g.pos.board();
        let occupied = board.occupied().0;
        let bk = (board.colour(Colour::Black).0 & board.kind(KING).0).trailing_zeros() as usize;
        let mut squares = String::new();
        for _ in 0..2 + rng.below(5) {
            let sq = if rng.below(2) == 0 {
                let (f, r) = ((bk % 8) as i32 + rng.below(3) as i32 - 1, (bk / 8) as i32 + rng.below(3) as i32 - 1);
                on_board(f, r)?
            } else {
                rng.below(64) as usize
            };
            if occupied >> sq & 1 == 0 {
                squares.push_str(&chimere_core::Square::new(sq as u8).to_string());
            }
        }
        if squares.is_empty() {
            return None;
        }
        chimere_fairy::game_from_fen(&g.pos.fen(), &[&format!("hole {squares}")]).ok()
    }

    /// `g` with one to four dummies (units that never move, attack nothing, block and
    /// can be captured) of either colour on empty squares drawn from `rng`, often around
    /// the black king.
    pub(super) fn with_dummies(g: &Game, rng: &mut Rng) -> Option<Game> {
        let board = g.pos.board();
        let bk = (board.colour(Colour::Black).0 & board.kind(KING).0).trailing_zeros() as usize;
        let mut squares = [None::<char>; 64];
        for (i, slot) in squares.iter_mut().enumerate() {
            *slot = board.get(chimere_core::Square::new(i as u8)).map(|p| {
                let c = chimere_fairy::KIND_LETTERS[p.kind.index()] as char;
                if p.colour == Colour::White { c.to_ascii_uppercase() } else { c }
            });
        }
        for _ in 0..1 + rng.below(4) {
            let sq = if rng.below(2) == 0 {
                let (f, r) = ((bk % 8) as i32 + rng.below(5) as i32 - 2, (bk / 8) as i32 + rng.below(5) as i32 - 2);
                on_board(f, r)?
            } else {
                rng.below(64) as usize
            };
            if squares[sq].is_none() {
                squares[sq] = Some(if rng.below(2) == 0 { 'D' } else { 'd' });
            }
        }
        let fen = g.pos.fen();
        let rest = fen.split_once(' ').map_or("b - - 0 1", |(_, r)| r);
        let mut g2 = chimere_fairy::game_from_fen(&format!("{} {rest}", placement(&squares)), &[]).ok()?;
        (!g2.in_check(g2.pos.side().opponent())).then_some(g2)
    }

    /// Walks every node down to `plies`: wherever the normal search finds a mate in the
    /// remaining plies, the bound allows it, and no mating last move is filtered out.
    fn walk(s: &mut Searcher, plies: u32, stats: &mut (u64, u64)) {
        let truth = s.help_exists(plies).expect("not stopped");
        let bound = mate_possible(&mut Scratch::default(), &s.game, plies);
        assert!(!truth || bound, "the bound cuts a mate in {plies}: {}", s.game.pos.fen());
        stats.0 += 1;
        stats.1 += u64::from(!bound);
        let moves = s.legal();
        if plies == 1 {
            let mut kept = moves.clone();
            filter_last(&s.game, &mut kept);
            for m in &moves {
                if s.goal_after_pub(m) {
                    assert!(kept.contains(m), "mating move {m:?} filtered out: {}", s.game.pos.fen());
                }
            }
            return;
        }
        let mut kept = moves.clone();
        if plies == 2 {
            filter_second_last(&s.game, &mut kept);
        }
        for m in &moves {
            s.game.make(m).expect("legal");
            if !kept.contains(m) {
                assert!(!s.help_exists(plies - 1).expect("not stopped"), "{m:?} filtered out: {}", s.game.pos.fen());
            }
            walk(s, plies - 1, stats);
            s.game.unmake();
        }
    }

    /// Walks `count` random positions `plies` deep, checking the bound at every node;
    /// returns (nodes, nodes cut).
    fn bound_sample(seed: u64, count: usize, plies: u32) -> (u64, u64) {
        bound_sample_with(seed, count, plies, false)
    }

    /// [`bound_sample`], the positions with holes when `holes`.
    fn bound_sample_with(seed: u64, count: usize, plies: u32, holes: bool) -> (u64, u64) {
        let mut rng = Rng(seed);
        let mut stats = (0, 0);
        let mut positions = 0;
        while positions < count {
            let Some(mut g) = random_game(&mut rng) else { continue };
            if holes {
                let Some(h) = with_holes(&g, &mut rng) else { continue };
                g = h;
            }
            positions += 1;
            let mut s = searcher(g);
            walk(&mut s, plies, &mut stats);
        }
        stats
    }

    #[test]
    fn the_bound_never_cuts_a_mate() {
        let stats = bound_sample(0x5eed_1234, 60, 3);
        // The test means something only if the bound does cut.
        assert!(stats.1 * 10 > stats.0, "cut {} of {} nodes", stats.1, stats.0);
    }

    /// The same with holes (`Condition Hole`): a hole is no flight.
    #[test]
    fn the_bound_never_cuts_a_mate_with_holes() {
        let stats = bound_sample_with(0x401e, 60, 3, true);
        assert!(stats.1 * 10 > stats.0, "cut {} of {} nodes", stats.1, stats.0);
    }

    #[test]
    #[ignore = "heavy: four plies deep on many positions (run with --release --ignored)"]
    fn the_bound_never_cuts_a_mate_deeper() {
        let stats = bound_sample(0xdead_beef, 150, 4);
        eprintln!("cut {} of {} nodes", stats.1, stats.0);
    }

    #[test]
    fn the_intelligent_search_finds_the_same_mates() {
        same_mates(77, false);
    }

    /// The same with holes (`Condition Hole`).
    #[test]
    fn the_intelligent_search_finds_the_same_mates_with_holes() {
        same_mates(0x401f, true);
    }

    /// Help lines of 1 to 4 plies from 80 random positions (with holes when `holes`), by
    /// the normal search and by the intelligent one: the same lines in the same order.
    fn same_mates(seed: u64, holes: bool) {
        let mut rng = Rng(seed);
        let mut positions = 0;
        let mut found = 0;
        while positions < 80 {
            let Some(mut g) = random_game(&mut rng) else { continue };
            if holes {
                let Some(h) = with_holes(&g, &mut rng) else { continue };
                g = h;
            }
            positions += 1;
            for plies in 1..=4 {
                let mut a = searcher(g.clone());
                let mut b = intelligent(g.clone(), Goal::Mate);
                let mut la = Vec::new();
                let mut lb = Vec::new();
                a.help_lines(plies, &mut Vec::new(), &mut |_, l: &[Move]| {
                    la.push(l.to_vec());
                    true
                })
                .expect("not stopped");
                b.help_lines(plies, &mut Vec::new(), &mut |_, l: &[Move]| {
                    lb.push(l.to_vec());
                    true
                })
                .expect("not stopped");
                assert_eq!(la, lb, "{} plies from {}", plies, g.pos.fen());
                found += la.len();
            }
        }
        assert!(found > 0, "no mate at all in the sample");
    }
}
