//! Strictly legal move generation from check and pin masks. Moves are handed to a
//! [`Sink`] in bulk per piece, so that counting (perft's last ply) never builds a list.

use crate::{BISHOP, Chess, KNIGHT, PAWN, QUEEN, ROOK, back_rank};
use chimere_core::{Bitboard, Colour, Kind, Piece, Square, attacks};

/// What kind of move.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Flag {
    Normal,
    /// A pawn's two-square step (sets the en-passant square).
    DoublePush,
    EnPassant,
    /// Castling; the move's `to` is the castling rook's square.
    Castle,
    /// A pawn arriving on the last rank and becoming this kind.
    Promote(Kind),
}

/// A chess move.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub from: Square,
    /// Destination; for castling, the rook's square.
    pub to: Square,
    pub flag: Flag,
}

/// Receives generated moves.
pub trait Sink {
    /// Moves of the piece on `from` to each of `targets`, all with `flag`.
    fn targets(&mut self, from: Square, targets: Bitboard, flag: Flag);
    /// Promotions of the pawn on `from` to each of `targets` (four moves each).
    fn promotions(&mut self, from: Square, targets: Bitboard);
    /// Pawn moves to each square of `targets`, each from the square `delta` before it.
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8, flag: Flag);
    /// Pawn promotions (four moves each) to each square of `targets`, each from the
    /// square `delta` before it.
    fn pawn_promotions(&mut self, targets: Bitboard, delta: i8);
    /// One move.
    fn one(&mut self, m: Move);
}

/// The kinds a pawn may become, in the order moves list them.
pub(crate) const PROMOTIONS: [Kind; 4] = [QUEEN, ROOK, BISHOP, KNIGHT];

/// The square `delta` before `to` (a pawn's starting square).
#[inline]
pub(crate) fn behind(to: Square, delta: i8) -> Square {
    Square::new((to.index() as i8 - delta) as u8)
}

/// Collects moves into a list.
pub struct ListSink<'a>(pub &'a mut Vec<Move>);

impl Sink for ListSink<'_> {
    #[inline]
    fn targets(&mut self, from: Square, targets: Bitboard, flag: Flag) {
        for to in targets {
            self.0.push(Move { from, to, flag });
        }
    }
    #[inline]
    fn promotions(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            for k in PROMOTIONS {
                self.0.push(Move { from, to, flag: Flag::Promote(k) });
            }
        }
    }
    #[inline]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8, flag: Flag) {
        for to in targets {
            self.0.push(Move { from: behind(to, delta), to, flag });
        }
    }
    #[inline]
    fn pawn_promotions(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            let from = behind(to, delta);
            for k in PROMOTIONS {
                self.0.push(Move { from, to, flag: Flag::Promote(k) });
            }
        }
    }
    #[inline]
    fn one(&mut self, m: Move) {
        self.0.push(m);
    }
}

/// Counts moves.
pub struct CountSink(pub u64);

impl Sink for CountSink {
    #[inline]
    fn targets(&mut self, _: Square, targets: Bitboard, _: Flag) {
        self.0 += targets.count() as u64;
    }
    #[inline]
    fn promotions(&mut self, _: Square, targets: Bitboard) {
        self.0 += 4 * targets.count() as u64;
    }
    #[inline]
    fn pawn_moves(&mut self, targets: Bitboard, _: i8, _: Flag) {
        self.0 += targets.count() as u64;
    }
    #[inline]
    fn pawn_promotions(&mut self, targets: Bitboard, _: i8) {
        self.0 += 4 * targets.count() as u64;
    }
    #[inline]
    fn one(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// Which moves [`generate_in`] hands out.
const ALL: u8 = 0;
const NOISY_ONLY: u8 = 1;
const QUIET_ONLY: u8 = 2;

/// Hands every legal move of the side to move to `sink`.
#[inline]
pub fn generate<S: Sink>(pos: &Chess, sink: &mut S) {
    generate_in::<S, ALL>(pos, sink);
}

/// Hands the legal noisy moves (captures, en passant, promotions) of the side to move to
/// `sink`, in the order [`generate`] hands them.
#[inline]
pub fn generate_noisy<S: Sink>(pos: &Chess, sink: &mut S) {
    generate_in::<S, NOISY_ONLY>(pos, sink);
}

/// Hands the legal quiet moves (neither noisy nor promoting: steps to empty squares,
/// castling) of the side to move to `sink`, in the order [`generate`] hands them.
#[inline]
pub fn generate_quiet<S: Sink>(pos: &Chess, sink: &mut S) {
    generate_in::<S, QUIET_ONLY>(pos, sink);
}

/// [`generate`], or with `MODE` its noisy or its quiet moves alone (the same order).
fn generate_in<S: Sink, const MODE: u8>(pos: &Chess, sink: &mut S) {
    let noisy = MODE == NOISY_ONLY;
    let quiet = MODE == QUIET_ONLY;
    let b = &pos.board;
    let us = pos.side;
    let them = us.opponent();
    let own = b.colour(us);
    let enemy = b.colour(them);
    let occ = b.occupied();
    let Some(ksq) = pos.king_square(us) else {
        return;
    };

    // The king's steps, each square tested alone with the king off the board (the squares
    // enemy pawns and the enemy king attack are removed set-wise first), and the checkers.
    let occ_no_king = occ ^ Bitboard::from_square(ksq);
    let blocked = if noisy {
        !enemy
    } else if quiet {
        occ
    } else {
        own
    };
    let leaper_danger = pos.pawn_and_king_attacks(them);
    let candidates = attacks::king(ksq) & !blocked & !leaper_danger;
    let mut king_to = candidates;
    for s in candidates {
        if pos.attacked_by_knight_or_slider(s, them, occ_no_king) {
            king_to.clear(s);
        }
    }
    // The squares known attacked (castling's path may not cross them).
    let king_unsafe = leaper_danger | (candidates & !king_to);
    let checkers = pos.attackers(ksq, them, occ);

    let reach = if noisy {
        enemy
    } else if quiet {
        !occ
    } else {
        !own
    };
    sink.targets(ksq, king_to, Flag::Normal);
    if checkers.more_than_one() {
        return;
    }

    let target = match checkers.first() {
        Some(c) => attacks::between(ksq, c) | checkers,
        None => !own,
    } & !own;
    // Where a piece (not a pawn) may go.
    let piece_target = target & reach;

    // Pinned pieces.
    let queens = b.kind(QUEEN);
    let snipers = ((attacks::rook(ksq, Bitboard::EMPTY) & (b.kind(ROOK) | queens))
        | (attacks::bishop(ksq, Bitboard::EMPTY) & (b.kind(BISHOP) | queens)))
        & enemy;
    let mut pinned = Bitboard::EMPTY;
    for s in snipers {
        let blockers = attacks::between(ksq, s) & occ;
        if !blockers.more_than_one() {
            pinned |= blockers & own;
        }
    }

    for from in b.kind(KNIGHT) & own & !pinned {
        sink.targets(from, attacks::knight(from) & piece_target, Flag::Normal);
    }
    for from in (b.kind(BISHOP) | queens) & own {
        let mut t = attacks::bishop(from, occ) & piece_target;
        if pinned.has(from) {
            t &= attacks::line(ksq, from);
        }
        sink.targets(from, t, Flag::Normal);
    }
    for from in (b.kind(ROOK) | queens) & own {
        let mut t = attacks::rook(from, occ) & piece_target;
        if pinned.has(from) {
            t &= attacks::line(ksq, from);
        }
        sink.targets(from, t, Flag::Normal);
    }

    // Pawns: the unpinned ones set-wise (one shift per direction for all of them), a
    // pinned one alone along its pin line.
    let up = us == Colour::White;
    let last = Bitboard::rank(if up { 7 } else { 0 });
    let third = Bitboard::rank(if up { 2 } else { 5 });
    let empty = !occ;
    let pawns = b.kind(PAWN) & own;
    let forward = |x: Bitboard| if up { x.up() } else { x.down() };
    let free = pawns & !pinned;
    let one = forward(free) & empty;
    let double = forward(one & third) & empty & target;
    let one = one & target;
    let step: i8 = if up { 8 } else { -8 };
    if !noisy {
        sink.pawn_moves(one & !last, step, Flag::Normal);
    }
    if !quiet {
        sink.pawn_promotions(one & last, step);
    }
    if !noisy {
        sink.pawn_moves(double, 2 * step, Flag::DoublePush);
    }
    // Captures toward the a-file side, then toward the h-file side.
    for (edge, shift) in [(Bitboard::file(0), if up { 7 } else { -9 }), (Bitboard::file(7), if up { 9 } else { -7 })] {
        if quiet {
            break;
        }
        let from_ok = free & !edge;
        let caps =
            if shift > 0 { Bitboard(from_ok.0 << shift) } else { Bitboard(from_ok.0 >> -shift) } & enemy & target;
        sink.pawn_moves(caps & !last, shift, Flag::Normal);
        sink.pawn_promotions(caps & last, shift);
    }
    let start_rank = if up { 1 } else { 6 };
    for from in pawns & pinned {
        let one = forward(Bitboard::from_square(from)) & empty;
        let mut pushes = one;
        let mut double = Bitboard::EMPTY;
        if from.rank() == start_rank {
            double = forward(one) & empty;
        }
        let l = attacks::line(ksq, from);
        pushes &= target & l;
        double &= target & l;
        let caps = attacks::pawn(up, from) & enemy & target & l;
        let quiet_or_cap = pushes | caps;
        let steps = if noisy {
            caps
        } else if quiet {
            pushes
        } else {
            quiet_or_cap
        };
        sink.targets(from, steps & !last, Flag::Normal);
        if !quiet {
            sink.promotions(from, quiet_or_cap & last);
        }
        if !noisy {
            sink.targets(from, double, Flag::DoublePush);
        }
    }

    // En passant: checked by playing it on the occupancy.
    if !quiet && let Some(ep) = pos.ep {
        let cap = Square::from_coords(ep.file(), if up { ep.rank() - 1 } else { ep.rank() + 1 });
        if b.get(cap) == Some(Piece::new(them, PAWN)) && b.get(ep).is_none() {
            for from in attacks::pawn(!up, ep) & b.kind(PAWN) & own {
                let occ2 = (occ ^ Bitboard::from_square(from) ^ Bitboard::from_square(cap)) | Bitboard::from_square(ep);
                if (pos.attackers(ksq, them, occ2) & !Bitboard::from_square(cap)).is_empty() {
                    sink.one(crate::Move { from, to: ep, flag: Flag::EnPassant });
                }
            }
        }
    }

    // Castling (Chess960-general).
    if !noisy && checkers.is_empty() {
        let rank = back_rank(us);
        if ksq.rank() != rank {
            return;
        }
        let slots = if up { [crate::WQ, crate::WK] } else { [crate::BQ, crate::BK] };
        for (i, slot) in slots.into_iter().enumerate() {
            let Some(rf) = pos.castling[slot] else { continue };
            let king_side = i == 1;
            let rsq = Square::from_coords(rf, rank);
            if b.get(rsq) != Some(Piece::new(us, ROOK)) {
                continue;
            }
            let (kf, rtf) = if king_side { (6, 5) } else { (2, 3) };
            let kt = Square::from_coords(kf, rank);
            let rt = Square::from_coords(rtf, rank);
            let movers = Bitboard::from_square(ksq) | Bitboard::from_square(rsq);
            let must_be_empty = (attacks::between(ksq, kt)
                | Bitboard::from_square(kt)
                | attacks::between(rsq, rt)
                | Bitboard::from_square(rt))
                & !movers;
            if (must_be_empty & occ).any() {
                continue;
            }
            // Every square the king crosses or lands on, unattacked with both units off
            // their squares. The king's steps above were tested with the king off: the
            // rook leaving too can open a line onto the path (along the first rank) only
            // from a square off the a- and h-files; otherwise those need no new test.
            let king_path = attacks::between(ksq, kt) | Bitboard::from_square(kt);
            if (king_path & king_unsafe).any() {
                continue;
            }
            let rook_on_edge = rsq.file() == 0 || rsq.file() == 7;
            let mut untested = if rook_on_edge { king_path & !king_to } else { king_path };
            let occ2 = occ & !movers;
            if Iterator::any(&mut untested, |s| pos.attacked_by_knight_or_slider(s, them, occ2)) {
                continue;
            }
            sink.one(crate::Move { from: ksq, to: rsq, flag: Flag::Castle });
        }
    }
}

/// Whether the side to move has a legal move: answered at once in most positions (out of
/// check, an unpinned pawn that can step or an unpinned piece with a square to go to),
/// else by counting the moves.
pub fn has_legal_move(pos: &Chess) -> bool {
    let b = &pos.board;
    let us = pos.side;
    let them = us.opponent();
    let Some(ksq) = pos.king_square(us) else { return false };
    let own = b.colour(us);
    let occ = b.occupied();
    if pos.attackers(ksq, them, occ).is_empty() {
        let queens = b.kind(QUEEN);
        let snipers = ((attacks::rook(ksq, Bitboard::EMPTY) & (b.kind(ROOK) | queens))
            | (attacks::bishop(ksq, Bitboard::EMPTY) & (b.kind(BISHOP) | queens)))
            & b.colour(them);
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let blockers = attacks::between(ksq, s) & occ;
            if !blockers.more_than_one() {
                pinned |= blockers & own;
            }
        }
        // Out of check an unpinned unit's every step is legal.
        let free = own & !pinned;
        let pawns = b.kind(PAWN) & free;
        let steps = if us == Colour::White { pawns.up() } else { pawns.down() };
        if (steps & !occ).any() {
            return true;
        }
        for from in b.kind(KNIGHT) & free {
            if (attacks::knight(from) & !own).any() {
                return true;
            }
        }
        for from in (b.kind(BISHOP) | b.kind(ROOK) | queens) & free {
            let reach = match b.get(from).map(|p| p.kind) {
                Some(BISHOP) => attacks::bishop(from, occ),
                Some(ROOK) => attacks::rook(from, occ),
                _ => attacks::queen(from, occ),
            };
            if (reach & !own).any() {
                return true;
            }
        }
    }
    let mut count = CountSink(0);
    generate(pos, &mut count);
    count.0 > 0
}

#[cfg(test)]
mod tests {
    use crate::Chess;
    use chimere_core::Variant;

    fn castles(fen: &str) -> Vec<String> {
        let mut pos = Chess::from_fen(fen).unwrap();
        let mut v = Vec::new();
        pos.legal_turns(&mut v);
        let mut c: Vec<String> = v.iter().filter(|m| m.flag == super::Flag::Castle).map(|m| pos.canonical(m)).collect();
        c.sort();
        c
    }

    /// Every node of a small tree from `fen`: the noisy list is the whole list's noisy
    /// turns in its order, the quiet list (appended after it) the others in their order,
    /// each turn described as a displacement has exactly that effect on the board, and
    /// whether a turn gives check is told before it as the position after it says.
    fn check_noisy_and_displacements(pos: &mut Chess, depth: u32) {
        let mut all = Vec::new();
        pos.legal_turns(&mut all);
        let mut noisy = Vec::new();
        assert_eq!(pos.noisy_turns(&mut noisy), !all.is_empty());
        let filtered: Vec<_> = all.iter().copied().filter(|m| pos.is_noisy(m)).collect();
        assert_eq!(noisy, filtered, "{}", pos.fen());
        let mut both = noisy.clone();
        pos.quiet_turns(&mut both);
        let quiet: Vec<_> = all.iter().copied().filter(|m| !pos.is_noisy(m)).collect();
        assert_eq!(both[noisy.len()..], quiet[..], "{}", pos.fen());
        assert_eq!(both.len(), all.len());
        for m in &all {
            let before = pos.board().clone();
            let d = pos.displacement(m);
            let check = pos.gives_check(m);
            let u = pos.make(m);
            // Told before the turn (castling excepted) as the position after it says.
            assert_eq!(check.is_none(), m.flag == super::Flag::Castle, "{m:?}");
            if let Some(c) = check {
                assert_eq!(c, pos.in_check(), "{m:?} from {before:?}");
            }
            match d {
                Some(d) => {
                    let mut expected = before.clone();
                    let mover = expected.get(d.from).unwrap();
                    expected.take(d.from);
                    if let Some(c) = d.captured {
                        assert!(expected.get(c).is_some_and(|p| p.colour != mover.colour));
                        expected.take(c);
                    }
                    expected.take(d.to);
                    let kind = d.becomes.unwrap_or(mover.kind);
                    expected.put(d.to, chimere_core::Piece::new(mover.colour, kind));
                    for sq in chimere_core::Square::ALL {
                        assert_eq!(expected.get(sq), pos.board().get(sq), "{m:?} on {sq:?}");
                    }
                }
                None => assert_eq!(m.flag, super::Flag::Castle),
            }
            if depth > 1 {
                check_noisy_and_displacements(pos, depth - 1);
            }
            pos.unmake(m, u);
        }
    }

    #[test]
    fn noisy_list_and_displacements_agree_with_the_whole_list_and_make() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/8/8/KPp4r/8/8/8/7k w - c6 0 1",
        ] {
            check_noisy_and_displacements(&mut Chess::from_fen(fen).unwrap(), 3);
        }
    }

    #[test]
    fn has_legal_move_agrees_with_the_count() {
        fn walk(pos: &mut Chess, depth: u32) {
            let mut all = Vec::new();
            pos.legal_turns(&mut all);
            assert_eq!(super::has_legal_move(pos), !all.is_empty(), "{}", pos.fen());
            if depth > 1 {
                for m in &all {
                    let u = pos.make(m);
                    walk(pos, depth - 1);
                    pos.unmake(m, u);
                }
            }
        }
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            // A stalemate (and in the tree below, mates and more stalemates).
            "7k/5Q2/8/8/8/8/8/K7 b - - 0 1",
            // Pinned units that move along their pin line; a blocked pawn.
            "k7/1b6/p7/P7/8/8/8/4K2Q b - - 0 1",
            "k7/r7/8/8/8/8/8/Q3K3 b - - 0 1",
        ] {
            walk(&mut Chess::from_fen(fen).unwrap(), 3);
        }
    }

    #[test]
    fn castling_both_ways() {
        assert_eq!(
            castles("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
            ["-a1:wr -e1:wk +c1:wk +d1:wr", "-e1:wk -h1:wr +f1:wr +g1:wk"]
        );
    }

    #[test]
    fn no_castling_out_of_through_or_into_check() {
        // In check from the e8 rook.
        assert!(castles("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1").is_empty());
        // f1 attacked: only the long castling remains (b1 may be attacked, the king does not cross it).
        assert_eq!(castles("5rk1/8/8/8/8/8/8/R3K2R w KQ - 0 1").len(), 1);
        assert_eq!(castles("1r4k1/8/8/8/8/8/8/R3K2R w KQ - 0 1").len(), 2);
        // Blocked by a knight on b1.
        assert_eq!(castles("6k1/8/8/8/8/8/8/RN2K2R w KQ - 0 1").len(), 1);
    }

    #[test]
    fn castling_path_tested_square_by_square() {
        let long = ["-a1:wr -e1:wk +c1:wk +d1:wr"];
        // g1 (beyond the king's steps) attacked by a rook: only the long castling.
        assert_eq!(castles("4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1"), long);
        // f1 (a king's step) attacked by a bishop: only the long castling.
        assert_eq!(castles("4k3/8/b7/8/8/8/8/R3K2R w KQ - 0 1"), long);
        // d1 and f1 attacked by a knight: neither.
        assert!(castles("4k3/8/8/8/8/4n3/8/R3K2R w KQ - 0 1").is_empty());
        // f1 attacked by a pawn (set-wise): only the long castling.
        assert_eq!(castles("4k3/8/8/8/8/8/6p1/R3K2R w KQ - 0 1"), long);
        // b1 attacked: the king does not cross it, both castlings stand.
        assert_eq!(castles("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").len(), 2);
        // Chess960, king d1 and rook a1 (an edge file): c1, a king's step, attacked by a
        // bishop refuses the long castling; without the bishop it stands.
        assert!(castles("4k3/8/8/8/8/b7/8/R2K4 w A - 0 1").is_empty());
        assert_eq!(castles("4k3/8/8/8/8/8/8/R2K4 w A - 0 1"), ["-a1:wr -d1:wk +c1:wk +d1:wr"]);
    }

    #[test]
    fn chess960_castling() {
        // King b1, rook a1: long castling puts the king on c1 and the rook on d1.
        assert_eq!(castles("6k1/8/8/8/8/8/8/RK6 w A - 0 1"), ["-a1:wr -b1:wk +c1:wk +d1:wr"]);
        // King f1, rook g1: short castling swaps onto g1/f1.
        assert_eq!(castles("1k6/8/8/8/8/8/8/5KR1 w G - 0 1"), ["-f1:wk -g1:wr +f1:wr +g1:wk"]);
        // The castling rook shields the king's destination from the a-file rook: still illegal.
        assert!(castles("k7/8/8/8/8/8/8/qRK5 w B - 0 1").is_empty());
    }

    #[test]
    fn en_passant_that_exposes_the_king_is_illegal() {
        let mut pos = Chess::from_fen("8/8/8/KPp4r/8/8/8/7k w - c6 0 1").unwrap();
        let mut v = Vec::new();
        pos.legal_turns(&mut v);
        assert!(v.iter().all(|m| m.flag != super::Flag::EnPassant));
        let mut pos = Chess::from_fen("8/8/8/1Pp4r/K7/8/8/7k w - c6 0 1").unwrap();
        v.clear();
        pos.legal_turns(&mut v);
        assert_eq!(v.iter().filter(|m| m.flag == super::Flag::EnPassant).count(), 1);
    }
}
