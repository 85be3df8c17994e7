//! Move generation (bitboards, no allocation), legality, make and unmake.

use crate::{BISHOP, Checkered, KING, KNIGHT, NO_CASTLE, PAWN, QUEEN, ROOK, Stage};
use chimere_core::{Bitboard, Colour, Kind, Piece, Square, attacks};

/// En-passant capture.
pub(crate) const F_EP: u8 = 1;
/// Castling: `from` is the king's square, `to` the rook's.
pub(crate) const F_CASTLE: u8 = 2;
/// A switch turn: `SWITCH` then this (stage-2 checkered) move.
pub(crate) const F_SWITCH: u8 = 4;
/// The move captures.
pub(crate) const F_CAPTURE: u8 = 8;

/// A complete turn: one move, possibly preceded by the switch.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub(crate) from: Square,
    pub(crate) to: Square,
    /// Kind of the piece arriving on `to` (the king for castling).
    pub(crate) kind: Kind,
    /// Colour of the piece arriving on `to`.
    pub(crate) colour: Colour,
    pub(crate) flags: u8,
}

impl Move {
    #[inline]
    pub(crate) fn is(&self, f: u8) -> bool {
        self.flags & f != 0
    }
    /// The square of the captured piece (differs from `to` en passant).
    #[inline]
    pub(crate) fn capture_square(&self) -> Square {
        if self.is(F_EP) { Square::from_coords(self.to.file(), self.from.rank()) } else { self.to }
    }
    /// For castling: the king's and the rook's destinations.
    #[inline]
    pub(crate) fn castle_squares(&self) -> (Square, Square) {
        let rank = self.from.rank();
        if self.to.file() < self.from.file() {
            (Square::from_coords(2, rank), Square::from_coords(3, rank))
        } else {
            (Square::from_coords(6, rank), Square::from_coords(5, rank))
        }
    }
}

/// What [`Checkered::take_back`] needs.
#[derive(Copy, Clone, Debug)]
pub struct Undo {
    mover: Piece,
    captured: Option<Piece>,
    castle: [u8; 4],
    pawn_flags: u16,
    ep: Option<Square>,
    cmove: Option<(Square, Square)>,
    stage: Stage,
}

/// Who moves and under which rules.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Mode {
    /// Stage 1: the side to move with its pieces and the checkered ones.
    One,
    /// Stage 2, the checkered side (no legality test).
    Chk,
    /// Stage 2, the white/black side.
    Wb,
    /// Stage 1, the switch: stage-2 checkered moves flagged [`F_SWITCH`].
    Switch,
}

/// Whether `sq` is attacked by the pieces of `att`, pawns attacking upward if `up` and
/// downward if `down`.
#[inline]
fn attacked(sq: Square, occ: u64, att: u64, kinds: &[u64; 6], up: bool, down: bool) -> bool {
    if attacks::knight(sq).0 & att & kinds[1] != 0 || attacks::king(sq).0 & att & kinds[5] != 0 {
        return true;
    }
    let p = att & kinds[0];
    if up && attacks::pawn(false, sq).0 & p != 0 || down && attacks::pawn(true, sq).0 & p != 0 {
        return true;
    }
    let rq = att & (kinds[3] | kinds[4]);
    if rq != 0 && attacks::rook(sq, Bitboard(occ)).0 & rq != 0 {
        return true;
    }
    let bq = att & (kinds[2] | kinds[4]);
    bq != 0 && attacks::bishop(sq, Bitboard(occ)).0 & bq != 0
}

#[inline]
fn bit(sq: Square) -> u64 {
    1u64 << sq.index()
}

const PROMOTIONS: [Kind; 4] = [QUEEN, ROOK, BISHOP, KNIGHT];

impl Checkered {
    #[inline]
    fn colours(&self) -> [u64; 3] {
        [self.board.colour(Colour::White).0, self.board.colour(Colour::Black).0, self.board.colour(Colour::Shared).0]
    }
    #[inline]
    fn kinds(&self) -> [u64; 6] {
        [
            self.board.kind(PAWN).0,
            self.board.kind(KNIGHT).0,
            self.board.kind(BISHOP).0,
            self.board.kind(ROOK).0,
            self.board.kind(QUEEN).0,
            self.board.kind(KING).0,
        ]
    }

    /// Stage-1 check: the king of `c` attacked by the enemy or by checkered pieces acting
    /// for the enemy.
    pub(crate) fn stage1_in_check(&self, c: Colour) -> bool {
        let col = self.colours();
        let kinds = self.kinds();
        let Some(k) = Bitboard(kinds[5] & col[c.index()]).first() else { return false };
        let opp = c.opponent();
        let occ = col[0] | col[1] | col[2];
        attacked(k, occ, col[opp.index()] | col[2], &kinds, opp == Colour::White, opp == Colour::Black)
    }

    /// Stage-2 attack rule: a king attacked by checkered pieces (pawns both ways).
    pub(crate) fn kings_attacked_by_checkered(&self) -> bool {
        let col = self.colours();
        let kinds = self.kinds();
        let occ = col[0] | col[1] | col[2];
        Iterator::any(&mut Bitboard(kinds[5] & (col[0] | col[1])), |k| attacked(k, occ, col[2], &kinds, true, true))
    }

    /// Every legal turn.
    pub(crate) fn generate(&self, out: &mut Vec<Move>) {
        self.generate_with(out, false);
    }

    /// Every legal turn; `slow` tests every move on the board after it (no shortcut),
    /// as a reference for the fast test.
    pub(crate) fn generate_with(&self, out: &mut Vec<Move>, slow: bool) {
        match self.stage {
            Stage::One => {
                self.gen_mode(Mode::One, out, slow);
                if self.board.colour(Colour::Shared).any() && !self.kings_attacked_by_checkered() {
                    self.gen_mode(Mode::Switch, out, slow);
                }
            }
            Stage::OneNoSwitch => self.gen_mode(Mode::One, out, slow),
            Stage::Two(c) if c == self.side => self.gen_mode(Mode::Chk, out, slow),
            Stage::Two(_) => self.gen_mode(Mode::Wb, out, slow),
        }
    }

    fn gen_mode(&self, mode: Mode, out: &mut Vec<Move>, slow: bool) {
        let col = self.colours();
        let kinds = self.kinds();
        let occ = col[0] | col[1] | col[2];
        let side = self.side;
        let (movers, targets) = match mode {
            Mode::One => (col[side.index()] | col[2], col[side.opponent().index()] & !kinds[5]),
            Mode::Chk | Mode::Switch => (col[2], (col[0] | col[1]) & !kinds[5]),
            Mode::Wb => (col[0] | col[1], col[2]),
        };
        let mut g = Gen {
            pos: self,
            mode,
            col,
            kinds,
            occ,
            targets,
            base: if mode == Mode::Switch { F_SWITCH } else { 0 },
            king: None,
            full: false,
            blockers: 0,
        };
        g.prepare_legality();
        g.full |= slow;
        let reach = !occ | targets;
        // Knights, bishops, rooks, queens.
        for from in Bitboard(movers & kinds[1]) {
            let c = self.colour_at(from, &col);
            for to in Bitboard(attacks::knight(from).0 & reach) {
                g.piece_move(out, from, to, KNIGHT, c);
            }
        }
        for from in Bitboard(movers & (kinds[2] | kinds[3] | kinds[4])) {
            let c = self.colour_at(from, &col);
            let (kind, att) = if kinds[2] & bit(from) != 0 {
                (BISHOP, attacks::bishop(from, Bitboard(occ)))
            } else if kinds[3] & bit(from) != 0 {
                (ROOK, attacks::rook(from, Bitboard(occ)))
            } else {
                (QUEEN, attacks::queen(from, Bitboard(occ)))
            };
            for to in Bitboard(att.0 & reach) {
                g.piece_move(out, from, to, kind, c);
            }
        }
        // Pawns.
        let pawns = movers & kinds[0];
        let ep = if mode == Mode::Switch { None } else { self.ep };
        match mode {
            Mode::One => {
                let up = side == Colour::White;
                g.pawns(out, pawns & col[side.index()], up, ep);
                g.pawns(out, pawns & col[2], up, None);
            }
            Mode::Chk | Mode::Switch => {
                g.pawns(out, pawns, true, ep);
                g.pawns(out, pawns, false, ep);
            }
            Mode::Wb => {
                g.pawns(out, pawns & col[0], true, ep);
                g.pawns(out, pawns & col[1], false, ep);
            }
        }
        // Kings and castling.
        let king_colours: &[Colour] = match mode {
            Mode::One => std::slice::from_ref(&self.side),
            Mode::Wb => &Colour::PLAYERS,
            _ => &[],
        };
        for &c in king_colours {
            let Some(k) = Bitboard(kinds[5] & col[c.index()]).first() else { continue };
            for to in Bitboard(attacks::king(k).0 & reach) {
                let flags = if targets & bit(to) != 0 { F_CAPTURE } else { 0 };
                g.push(out, Move { from: k, to, kind: KING, colour: c, flags });
            }
            g.castling(out, c, k);
        }
    }

    #[inline]
    fn colour_at(&self, sq: Square, col: &[u64; 3]) -> Colour {
        let b = bit(sq);
        if col[2] & b != 0 {
            Colour::Shared
        } else if col[0] & b != 0 {
            Colour::White
        } else {
            Colour::Black
        }
    }

    /// Plays a legal turn.
    pub(crate) fn play(&mut self, m: &Move) -> Undo {
        let mut undo = Undo {
            mover: Piece::new(m.colour, m.kind),
            captured: None,
            castle: self.castle,
            pawn_flags: self.pawn_flags,
            ep: self.ep,
            cmove: self.cmove,
            stage: self.stage,
        };
        if m.is(F_SWITCH) {
            self.stage = Stage::Two(self.side);
        }
        self.ep = None;
        self.cmove = None;
        if m.is(F_CASTLE) {
            let c = m.colour;
            let (kd, rd) = m.castle_squares();
            let king = self.board.take(m.from);
            let rook = self.board.take(m.to);
            debug_assert!(king.is_some() && rook.is_some());
            self.board.put(kd, Piece::new(c, KING));
            self.board.put(rd, Piece::new(c, ROOK));
            let i = c.index() * 2;
            self.castle[i] = NO_CASTLE;
            self.castle[i + 1] = NO_CASTLE;
        } else {
            let mover = self.board.take(m.from).expect("a legal move starts on a piece");
            undo.mover = mover;
            if m.is(F_CAPTURE) {
                undo.captured = self.board.take(m.capture_square());
            }
            self.board.put(m.to, Piece::new(m.colour, m.kind));
            if mover.kind == KING && mover.colour != Colour::Shared {
                let i = mover.colour.index() * 2;
                self.castle[i] = NO_CASTLE;
                self.castle[i + 1] = NO_CASTLE;
            }
            let edge = |s: Square| s.rank() == 0 || s.rank() == 7;
            for sq in [m.from, m.to].into_iter().filter(|&s| edge(s)) {
                let base = match sq.rank() {
                    0 => 0,
                    7 => 2,
                    _ => continue,
                };
                for i in base..base + 2 {
                    if self.castle[i] == sq.file() {
                        self.castle[i] = NO_CASTLE;
                    }
                }
            }
            if mover.kind == PAWN && m.from.rank().abs_diff(m.to.rank()) == 2 {
                let up = m.to.rank() > m.from.rank();
                self.pawn_flags &= !(1u16 << (m.from.file() + if up { 0 } else { 8 }));
                if !self.stage.is_one() || mover.colour != Colour::Shared {
                    self.ep = Some(Square::new((m.from.index() as u8 + m.to.index() as u8) / 2));
                }
            }
            if self.stage.is_one() && m.colour == Colour::Shared && !m.is(F_CAPTURE) {
                self.cmove = Some((m.from, m.to));
            }
        }
        self.side = self.side.opponent();
        self.turns = self.turns.wrapping_add(1);
        undo
    }

    /// Takes back the turn last played.
    pub(crate) fn take_back(&mut self, m: &Move, undo: Undo) {
        self.side = self.side.opponent();
        self.turns = self.turns.wrapping_sub(1);
        if m.is(F_CASTLE) {
            let c = m.colour;
            let (kd, rd) = m.castle_squares();
            self.board.take(kd);
            self.board.take(rd);
            self.board.put(m.from, Piece::new(c, KING));
            self.board.put(m.to, Piece::new(c, ROOK));
        } else {
            self.board.take(m.to);
            if let Some(p) = undo.captured {
                self.board.put(m.capture_square(), p);
            }
            self.board.put(m.from, undo.mover);
        }
        self.castle = undo.castle;
        self.pawn_flags = undo.pawn_flags;
        self.ep = undo.ep;
        self.cmove = undo.cmove;
        self.stage = undo.stage;
    }
}

/// Generation context for one mode.
struct Gen<'a> {
    pos: &'a Checkered,
    mode: Mode,
    col: [u64; 3],
    kinds: [u64; 6],
    occ: u64,
    targets: u64,
    base: u8,
    /// Mode::One: the mover's king.
    king: Option<Square>,
    /// Every move needs the full test (a king is in check).
    full: bool,
    /// Pieces alone between a king and an attacking slider.
    blockers: u64,
}

impl Gen<'_> {
    /// A knight/bishop/rook/queen move (capture or not).
    #[inline]
    fn piece_move(&self, out: &mut Vec<Move>, from: Square, to: Square, kind: Kind, c: Colour) {
        if self.targets & bit(to) != 0 {
            let flags = self.base | F_CAPTURE;
            if self.mode == Mode::One {
                self.push(out, Move { from, to, kind, colour: Colour::Shared, flags });
                let captured = self.kind_at(to);
                if captured != kind {
                    self.push(out, Move { from, to, kind: captured, colour: Colour::Shared, flags });
                }
            } else {
                self.push(out, Move { from, to, kind, colour: c, flags });
            }
        } else {
            self.push(out, Move { from, to, kind, colour: c, flags: self.base });
        }
    }

    #[inline]
    fn kind_at(&self, sq: Square) -> Kind {
        let b = bit(sq);
        for (k, &bb) in self.kinds.iter().enumerate() {
            if bb & b != 0 {
                return Kind(k as u8);
            }
        }
        PAWN
    }

    /// Pawn moves of `pawns` moving upward (`up`) or downward.
    fn pawns(&self, out: &mut Vec<Move>, pawns: u64, up: bool, ep: Option<Square>) {
        if pawns == 0 {
            return;
        }
        let empty = !self.occ;
        let (start_rank, last_rank, flag_base) = if up { (1, 7, 0) } else { (6, 0, 8) };
        for from in Bitboard(pawns) {
            let c = self.pos.colour_at(from, &self.col);
            let Some(fwd) = from.offset(0, if up { 1 } else { -1 }) else { continue };
            if empty & bit(fwd) != 0 {
                self.pawn_arrival(out, from, fwd, c, false, last_rank);
                if from.rank() == start_rank && self.pos.pawn_flags & (1 << (flag_base + from.file())) != 0 {
                    // From the second or seventh rank, two squares on is on the board.
                    let fwd2 = if up { Square::new(fwd.index() as u8 + 8) } else { Square::new(fwd.index() as u8 - 8) };
                    if empty & bit(fwd2) != 0 {
                        self.push(out, Move { from, to: fwd2, kind: PAWN, colour: c, flags: self.base });
                    }
                }
            }
            let att = attacks::pawn(up, from).0;
            for to in Bitboard(att & self.targets) {
                self.pawn_arrival(out, from, to, c, true, last_rank);
            }
            let Some(e) = ep else { continue };
            if att & bit(e) != 0 && e.rank() == if up { 5 } else { 2 } && empty & bit(e) != 0 {
                let cap = Square::from_coords(e.file(), from.rank());
                if self.targets & self.kinds[0] & bit(cap) != 0 {
                    let colour = if self.mode == Mode::One { Colour::Shared } else { c };
                    self.push(out, Move { from, to: e, kind: PAWN, colour, flags: self.base | F_CAPTURE | F_EP });
                }
            }
        }
    }

    /// A pawn arriving on `to` (one step or capture), with promotions and checkered kinds.
    #[inline]
    fn pawn_arrival(&self, out: &mut Vec<Move>, from: Square, to: Square, c: Colour, capture: bool, last: u8) {
        let flags = self.base | if capture { F_CAPTURE } else { 0 };
        let colour = if capture && self.mode == Mode::One { Colour::Shared } else { c };
        if to.rank() == last {
            for kind in PROMOTIONS {
                self.push(out, Move { from, to, kind, colour, flags });
            }
        } else {
            self.push(out, Move { from, to, kind: PAWN, colour, flags });
            if capture && self.mode == Mode::One {
                let captured = self.kind_at(to);
                if captured != PAWN {
                    self.push(out, Move { from, to, kind: captured, colour, flags });
                }
            }
        }
    }

    /// Castling of colour `c` (king on `k`), Chess960-general.
    fn castling(&self, out: &mut Vec<Move>, c: Colour, k: Square) {
        let rank = if c == Colour::White { 0 } else { 7 };
        if k.rank() != rank {
            return;
        }
        let own_rooks = self.col[c.index()] & self.kinds[3];
        for side in 0..2 {
            let rf = self.pos.castle[c.index() * 2 + side];
            if rf >= 8 || (side == 0) != (rf < k.file()) {
                continue;
            }
            let r = Square::from_coords(rf, rank);
            if own_rooks & bit(r) == 0 {
                continue;
            }
            let (kd, rd) = if side == 0 {
                (Square::from_coords(2, rank), Square::from_coords(3, rank))
            } else {
                (Square::from_coords(6, rank), Square::from_coords(5, rank))
            };
            let span = attacks::between(k, kd).0 | bit(kd) | attacks::between(r, rd).0 | bit(rd);
            if span & self.occ & !(bit(k) | bit(r)) != 0 {
                continue;
            }
            // The king's start and the squares it crosses (its destination is tested by
            // the legality test, on the board after castling).
            let path = bit(k) | attacks::between(k, kd).0;
            let safe = Bitboard(path & !bit(kd)).all(|s| !self.attacked_for(c, s, self.occ, &self.col, &self.kinds));
            if safe {
                self.push(out, Move { from: k, to: r, kind: KING, colour: c, flags: F_CASTLE });
            }
        }
    }

    /// Whether `sq` is attacked against the king of `c` under the rules of the mode.
    #[inline]
    fn attacked_for(&self, c: Colour, sq: Square, occ: u64, col: &[u64; 3], kinds: &[u64; 6]) -> bool {
        match self.mode {
            Mode::One => {
                let opp = c.opponent();
                attacked(sq, occ, col[opp.index()] | col[2], kinds, opp == Colour::White, opp == Colour::Black)
            }
            _ => attacked(sq, occ, col[2], kinds, true, true),
        }
    }

    /// Pushes `m` if it is legal.
    #[inline]
    fn push(&self, out: &mut Vec<Move>, m: Move) {
        if self.legal(&m) {
            out.push(m);
        }
    }

    /// Check state and blockers of the king(s) to protect, for the fast legality test.
    fn prepare_legality(&mut self) {
        let kings: u64 = match self.mode {
            Mode::Chk | Mode::Switch => return,
            Mode::One => self.kinds[5] & self.col[self.pos.side.index()],
            Mode::Wb => self.kinds[5] & (self.col[0] | self.col[1]),
        };
        let (att, up, down) = match self.mode {
            Mode::One => {
                let opp = self.pos.side.opponent();
                (self.col[opp.index()] | self.col[2], opp == Colour::White, opp == Colour::Black)
            }
            _ => (self.col[2], true, true),
        };
        self.king = Bitboard(kings).first();
        let rq = att & (self.kinds[3] | self.kinds[4]);
        let bq = att & (self.kinds[2] | self.kinds[4]);
        for k in Bitboard(kings) {
            if attacked(k, self.occ, att, &self.kinds, up, down) {
                self.full = true;
            }
            let snipers = attacks::rook(k, Bitboard::EMPTY).0 & rq | attacks::bishop(k, Bitboard::EMPTY).0 & bq;
            for s in Bitboard(snipers) {
                let b = attacks::between(k, s).0 & self.occ;
                if b != 0 && b & (b - 1) == 0 {
                    self.blockers |= b;
                }
            }
        }
    }

    fn legal(&self, m: &Move) -> bool {
        match self.mode {
            Mode::Chk | Mode::Switch => return true,
            Mode::One => {
                if m.colour == Colour::Shared && !m.is(F_CAPTURE) && self.pos.cmove == Some((m.to, m.from)) {
                    return false;
                }
            }
            Mode::Wb => {}
        }
        if self.full || m.is(F_CASTLE | F_EP) || m.kind == KING {
            return self.legal_full(m);
        }
        let Some(k) = self.king else { return true };
        if self.blockers & bit(m.from) != 0 {
            if self.mode == Mode::Wb {
                return self.legal_full(m);
            }
            if attacks::line(k, m.from).0 & bit(m.to) == 0 {
                return false;
            }
        }
        if m.colour == Colour::Shared {
            // A piece turned (or staying) checkered attacks for the opponent in stage 1.
            let occ = (self.occ & !bit(m.from)) | bit(m.to);
            let hits = match m.kind {
                PAWN => attacks::pawn(self.pos.side != Colour::White, m.to),
                KNIGHT => attacks::knight(m.to),
                BISHOP => attacks::bishop(m.to, Bitboard(occ)),
                ROOK => attacks::rook(m.to, Bitboard(occ)),
                _ => attacks::queen(m.to, Bitboard(occ)),
            };
            return hits.0 & bit(k) == 0;
        }
        true
    }

    fn legal_full(&self, m: &Move) -> bool {
        let mut col = self.col;
        let mut kinds = self.kinds;
        let fb = bit(m.from);
        let tb = bit(m.to);
        if m.is(F_CASTLE) {
            let c = m.colour.index();
            let (kd, rd) = m.castle_squares();
            col[c] &= !(fb | tb);
            kinds[5] &= !fb;
            kinds[3] &= !tb;
            col[c] |= bit(kd) | bit(rd);
            kinds[5] |= bit(kd);
            kinds[3] |= bit(rd);
        } else {
            let mover = self.pos.board.get(m.from).expect("a move starts on a piece");
            let (mc, mk) = (mover.colour.index(), mover.kind.index());
            col[mc] &= !fb;
            kinds[mk] &= !fb;
            if m.is(F_CAPTURE) {
                let cb = bit(m.capture_square());
                col[0] &= !cb;
                col[1] &= !cb;
                col[2] &= !cb;
                for k in kinds.iter_mut() {
                    *k &= !cb;
                }
            }
            col[m.colour.index()] |= tb;
            kinds[m.kind.index()] |= tb;
        }
        let occ = col[0] | col[1] | col[2];
        match self.mode {
            Mode::One => {
                let c = self.pos.side;
                match Bitboard(kinds[5] & col[c.index()]).first() {
                    Some(k) => !self.attacked_for(c, k, occ, &col, &kinds),
                    None => true,
                }
            }
            _ => Bitboard(kinds[5] & (col[0] | col[1])).all(|k| !attacked(k, occ, col[2], &kinds, true, true)),
        }
    }
}
