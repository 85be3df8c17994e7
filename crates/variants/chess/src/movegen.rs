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
    /// One move.
    fn one(&mut self, m: Move);
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
            for k in [QUEEN, ROOK, BISHOP, KNIGHT] {
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
    fn one(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// Hands every legal move of the side to move to `sink`.
pub fn generate<S: Sink>(pos: &Chess, sink: &mut S) {
    let b = &pos.board;
    let us = pos.side;
    let them = us.opponent();
    let own = b.colour(us);
    let enemy = b.colour(them);
    let occ = b.occupied();
    let Some(ksq) = pos.king_square(us) else {
        return;
    };

    let checkers = pos.attackers(ksq, them, occ);

    // King steps: to squares not attacked once the king has left its square.
    let occ_no_king = occ ^ Bitboard::from_square(ksq);
    let mut kt = Bitboard::EMPTY;
    for to in attacks::king(ksq) & !own {
        if pos.attackers(to, them, occ_no_king).is_empty() {
            kt.set(to);
        }
    }
    sink.targets(ksq, kt, Flag::Normal);
    if checkers.more_than_one() {
        return;
    }

    let target = match checkers.first() {
        Some(c) => attacks::between(ksq, c) | checkers,
        None => !own,
    } & !own;

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
        sink.targets(from, attacks::knight(from) & target, Flag::Normal);
    }
    for from in (b.kind(BISHOP) | queens) & own {
        let mut t = attacks::bishop(from, occ) & target;
        if pinned.has(from) {
            t &= attacks::line(ksq, from);
        }
        sink.targets(from, t, Flag::Normal);
    }
    for from in (b.kind(ROOK) | queens) & own {
        let mut t = attacks::rook(from, occ) & target;
        if pinned.has(from) {
            t &= attacks::line(ksq, from);
        }
        sink.targets(from, t, Flag::Normal);
    }

    // Pawns.
    let up = us == Colour::White;
    let last = Bitboard::rank(if up { 7 } else { 0 });
    let start_rank = if up { 1 } else { 6 };
    let empty = !occ;
    for from in b.kind(PAWN) & own {
        let one = if up { Bitboard::from_square(from).up() } else { Bitboard::from_square(from).down() } & empty;
        let mut pushes = one;
        let mut double = Bitboard::EMPTY;
        if from.rank() == start_rank {
            double = if up { one.up() } else { one.down() } & empty;
        }
        let mut caps = attacks::pawn(up, from) & enemy;
        pushes &= target;
        double &= target;
        caps &= target;
        if pinned.has(from) {
            let l = attacks::line(ksq, from);
            pushes &= l;
            double &= l;
            caps &= l;
        }
        let quiet_or_cap = pushes | caps;
        sink.targets(from, quiet_or_cap & !last, Flag::Normal);
        sink.promotions(from, quiet_or_cap & last);
        sink.targets(from, double, Flag::DoublePush);
    }

    // En passant: checked by playing it on the occupancy.
    if let Some(ep) = pos.ep {
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
    if checkers.is_empty() {
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
            let occ2 = occ & !movers;
            let king_path = attacks::between(ksq, kt) | Bitboard::from_square(kt);
            if king_path.into_iter().find(|&s| pos.attackers(s, them, occ2).any()).is_some() {
                continue;
            }
            sink.one(crate::Move { from: ksq, to: rsq, flag: Flag::Castle });
        }
    }
}
