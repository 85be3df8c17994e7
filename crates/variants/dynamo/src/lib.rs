//! # Dynamo (seed 004, the vchess game)
//!
//! Our reading of the rules (`spec/dynamo.md`, settled against the vchess oracle):
//!
//! - Pieces move as in orthodox chess but never capture. A turn is **part 1**, then
//!   **part 2** or a pass, or part 1 alone. A turn is one [`Move`] value.
//! - Part 1: a normal move of one of the mover's pieces to an empty square (pawns one step,
//!   or two from their first or second rank; promotion on the last rank; castling), an
//!   **exit** of a non-king, non-pawn piece whose line (knight: step) leads through empty
//!   squares off the board, or a **push** of a piece of either colour by one of the mover's
//!   pieces: a knight one knight step further; a rook/bishop/queen (the pushed piece being
//!   the first met on its line) any number of empty squares further or off the board; an
//!   adjacent king one step; a pawn an own piece straight ahead at distance 1 or 2 one square
//!   (two from the second rank when adjacent), an enemy piece diagonally forward and adjacent
//!   one square diagonally. Kings never leave the board. A pawn arriving on its own last
//!   rank promotes (the mover chooses, in the pawn's colour). Identical part 1s reached
//!   several ways are one part 1.
//! - Part 2 (never after castling). Part 1 moved a piece from `x` along direction `d`.
//!   The first piece `y` behind `x` (on the line through `x` opposite to `d`, or one knight
//!   step behind for a knight step) slides along `d` through empty squares up to the part 1
//!   piece: as a **follow** when `y` is the mover's and could have pushed it (pawn: the vchess
//!   pawn conditions — adjacent, or two away from its second rank, and not after a two-square
//!   push; knight and king: one step pushes), as a **pull** when part 1 moved one of the
//!   mover's pieces other than a pawn (`y` of either colour; king: adjacent, knight: one knight
//!   step). After an exit, every piece that could have pushed it off (a mover's piece), or
//!   that the exiting piece could have pulled along a line it could leave by, slides through
//!   `x` to the edge and off (pawn, king and knight followers, and pieces pulled by a knight,
//!   one step to `x`). Or a pass.
//! - Legality: the mover's king is not in Dynamo check after the turn. If after part 1 every
//!   part 2 leaves the king in check (or none exists), the turn ends after part 1 and is
//!   written without part 2; otherwise the turn continues with a safe part 2, or a pass when
//!   the king is safe after part 1. A turn with a part 2 or a pass may not undo the
//!   opponent's last turn (its removals = the opponent's additions and vice versa, as sets).
//! - Dynamo check: an enemy piece could push or pull the king off the board with its next
//!   turn: a rook/bishop/queen first on a line from the king, with empty squares beyond it or
//!   behind the king to the edge; a knight at K+s with K+2s or K−s off the board; a pawn
//!   diagonally behind the king (from its side) with the square beyond the king off the board
//!   (last rank or side file); the enemy king adjacent when K is on an edge square and it is
//!   not. Castling may not start from or cross such a square, nor end in check.
//! - Castling rights are lost when the king leaves its square for any reason and when any
//!   piece leaves its flagged rook square on its first rank (pushes and pulls included).
//! - End: no legal turn (turns that start by pushing an enemy piece count): the side to move
//!   loses if in check, else draw.

mod fen;
mod movegen;
mod tables;
mod uci;

use chimere_core::canonical;
use chimere_core::random::chess_like_start;
use chimere_core::{Board, Colour, GameOptions, GameRules, Kind, Piece, RulesError, Square, Status, Variant, zobrist};
use std::fmt::Write;

/// Orthodox kinds and letters, as in chess.
pub use chimere_chess::{BISHOP, KING, KNIGHT, NOTATION, PAWN, QUEEN, ROOK};

/// A lost castling right.
pub(crate) const NO_FLAG: u8 = 8;

/// Destination of a piece leaving the board.
pub const EXIT: u8 = 64;
/// No promotion.
pub const NO_PROMO: u8 = 0;

/// The turn is part 1 alone (no part 2 was possible without check, or castling).
pub const ALONE: u8 = 0;
/// Part 1 then a pass.
pub const PASS: u8 = 1;
/// Part 1 then part 2.
pub const TWO: u8 = 2;
/// Castling: `from1` king, `to1` rook, `from2` king's and `to2` rook's destinations.
pub const CASTLE: u8 = 3;

/// One complete turn. Squares are indices (a1 = 0); `to1`/`to2` may be [`EXIT`]; promotions
/// hold the kind index of the new piece, or [`NO_PROMO`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub from1: u8,
    pub to1: u8,
    pub promo1: u8,
    pub from2: u8,
    pub to2: u8,
    pub promo2: u8,
    pub kind: u8,
}

/// A small list of `(square, piece)` tokens, in play order.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Tokens {
    pub(crate) n: u8,
    pub(crate) t: [(u8, Piece); 4],
}

impl Default for Tokens {
    fn default() -> Self {
        Tokens { n: 0, t: [(0, Piece::new(Colour::White, PAWN)); 4] }
    }
}

impl Tokens {
    #[inline]
    pub(crate) fn push(&mut self, sq: u8, p: Piece) {
        self.t[self.n as usize] = (sq, p);
        self.n += 1;
    }
    #[inline]
    pub(crate) fn as_slice(&self) -> &[(u8, Piece)] {
        &self.t[..self.n as usize]
    }
    pub(crate) fn iter(&self) -> impl Iterator<Item = &(u8, Piece)> {
        self.as_slice().iter()
    }
    /// Same set of tokens (each list holds distinct tokens).
    #[inline]
    pub(crate) fn same_set(&self, other: &[(u8, Piece)]) -> bool {
        self.n as usize == other.len() && other.iter().all(|x| self.as_slice().contains(x))
    }
    fn key(&self, salt: u32) -> u64 {
        self.iter().fold(0, |h, &(s, p)| h ^ zobrist::piece(p, Square::new(s)).rotate_left(salt))
    }
}

/// The opponent's last complete turn: what it put on the board and what it removed.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct LastTurn {
    pub(crate) appear: Tokens,
    pub(crate) vanish: Tokens,
}

/// What `unmake` restores besides the board.
#[derive(Copy, Clone, Debug)]
pub struct Undo {
    castle: [u8; 4],
    last: Option<LastTurn>,
}

/// A Dynamo position.
#[derive(Clone, Debug)]
pub struct Dynamo {
    pub(crate) board: Board,
    pub(crate) side: Colour,
    pub(crate) turns: u32,
    /// Rook files: white queen side, white king side, black queen side, black king side.
    pub(crate) castle: [u8; 4],
    pub(crate) last: Option<LastTurn>,
}

#[inline]
pub(crate) fn promoted(p: Piece, promo: u8) -> Piece {
    if promo == NO_PROMO { p } else { Piece::new(p.colour, Kind(promo)) }
}

impl Dynamo {
    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }
    /// The side to move.
    pub fn side(&self) -> Colour {
        self.side
    }

    /// Whether the king of `colour` is in Dynamo check.
    pub fn in_check(&self, colour: Colour) -> bool {
        match self.board.pieces(Piece::new(colour, KING)).first() {
            Some(k) => movegen::attacked(&self.board, k.index(), colour.opponent()),
            None => false,
        }
    }

    /// The removals and additions of a turn, in play order (position before the turn).
    fn turn_tokens(&self, m: &Move) -> (Tokens, Tokens) {
        let mut vanish = Tokens::default();
        let mut appear = Tokens::default();
        let get = |s: u8| self.board.get(Square::new(s)).expect("turn starts from an occupied square");
        if m.kind == CASTLE {
            let k = get(m.from1);
            let r = get(m.to1);
            vanish.push(m.from1, k);
            vanish.push(m.to1, r);
            appear.push(m.from2, k);
            appear.push(m.to2, r);
            return (vanish, appear);
        }
        let x = get(m.from1);
        vanish.push(m.from1, x);
        if m.to1 != EXIT {
            appear.push(m.to1, promoted(x, m.promo1));
        }
        if m.kind == TWO {
            let y = get(m.from2);
            vanish.push(m.from2, y);
            if m.to2 != EXIT {
                appear.push(m.to2, promoted(y, m.promo2));
            }
        }
        (vanish, appear)
    }

    fn castle_key(&self) -> u64 {
        self.castle
            .iter()
            .enumerate()
            .filter(|(_, f)| **f != NO_FLAG)
            .fold(0, |h, (i, &f)| h ^ zobrist::field(i * 8 + f as usize))
    }

    fn state_key(&self) -> u64 {
        let side = if self.side == Colour::Black { zobrist::SIDE } else { 0 };
        let last = match &self.last {
            None => 0,
            Some(l) => zobrist::field(40) ^ l.appear.key(7) ^ l.vanish.key(29),
        };
        side ^ self.castle_key() ^ last
    }

    fn update_castle(&mut self, tokens: &Tokens) {
        for &(s, p) in tokens.iter() {
            let ci = p.colour.index() * 2;
            if p.kind == KING {
                self.castle[ci] = NO_FLAG;
                self.castle[ci + 1] = NO_FLAG;
            } else {
                let first = if p.colour == Colour::White { 0 } else { 7 };
                let sq = Square::new(s);
                if sq.rank() == first {
                    for i in ci..ci + 2 {
                        if self.castle[i] == sq.file() {
                            self.castle[i] = NO_FLAG;
                        }
                    }
                }
            }
        }
    }

    fn part_string(&self, removed: &[(Square, Piece)], added: &[(Square, Piece)]) -> String {
        canonical::part(removed, added, &NOTATION, "PASS")
    }
}

fn sq(s: u8) -> Square {
    Square::new(s)
}

impl Variant for Dynamo {
    type Move = Move;
    type Undo = Undo;
    const NAME: &'static str = "dynamo";
    const RULES: GameRules = GameRules::ORTHODOX;

    fn side_to_move(&self) -> Colour {
        self.side()
    }
    fn in_check(&mut self) -> bool {
        Dynamo::in_check(self, self.side())
    }
    /// A turn is noisy when it pushes or pulls an enemy unit off the board (the only
    /// captures of Dynamo) or promotes.
    fn is_noisy(&self, m: &Move) -> bool {
        let enemy_off = |from: u8, to: u8| {
            to == EXIT && from < 64 && self.board().get(sq(from)).is_some_and(|p| p.colour != self.side())
        };
        enemy_off(m.from1, m.to1) || enemy_off(m.from2, m.to2) || m.promo1 != NO_PROMO || m.promo2 != NO_PROMO
    }
    fn resets_fifty(&self, m: &Move) -> bool {
        let pawn = |from: u8| from < 64 && self.board().get(sq(from)).is_some_and(|p| p.kind == PAWN);
        m.kind != CASTLE && (self.is_noisy(m) || pawn(m.from1) || pawn(m.from2))
    }
    fn board(&self) -> Option<&Board> {
        Some(Dynamo::board(self))
    }
    fn for_each_piece(&self, f: &mut dyn FnMut(Square, Piece)) {
        for (s, p) in self.board().iter() {
            f(s, p);
        }
    }
    fn uci(&self, m: &Move, chess960: bool) -> String {
        self.uci_token(m, chess960)
    }

    fn new_game(opts: &GameOptions) -> Result<Self, RulesError> {
        opts.check(&[])?;
        let (board, castling) = chess_like_start(opts.randomness, opts.seed);
        let fen = format!("{board} w 0 {castling} -");
        Dynamo::from_fen(&fen)
    }

    fn from_fen(fen: &str) -> Result<Self, RulesError> {
        fen::read(fen)
    }

    fn fen(&self) -> String {
        fen::write(self)
    }

    fn legal_turns(&mut self, out: &mut Vec<Move>) {
        self.generate(out);
    }

    fn make(&mut self, m: &Move) -> Undo {
        let undo = Undo { castle: self.castle, last: self.last };
        let mut vanish = Tokens::default();
        let mut appear = Tokens::default();
        let b = &mut self.board;
        if m.kind == CASTLE {
            let k = b.take(sq(m.from1)).expect("king");
            let r = b.take(sq(m.to1)).expect("rook");
            b.put(sq(m.from2), k);
            b.put(sq(m.to2), r);
            vanish.push(m.from1, k);
            vanish.push(m.to1, r);
            appear.push(m.from2, k);
            appear.push(m.to2, r);
        } else {
            let x = b.take(sq(m.from1)).expect("part 1 piece");
            vanish.push(m.from1, x);
            if m.to1 != EXIT {
                let x2 = promoted(x, m.promo1);
                b.put(sq(m.to1), x2);
                appear.push(m.to1, x2);
            }
            if m.kind == TWO {
                let y = b.take(sq(m.from2)).expect("part 2 piece");
                vanish.push(m.from2, y);
                if m.to2 != EXIT {
                    let y2 = promoted(y, m.promo2);
                    b.put(sq(m.to2), y2);
                    appear.push(m.to2, y2);
                }
            }
        }
        if self.castle != [NO_FLAG; 4] {
            self.update_castle(&vanish);
        }
        self.side = self.side.opponent();
        self.turns = self.turns.wrapping_add(1);
        self.last = Some(LastTurn { appear, vanish });
        undo
    }

    fn unmake(&mut self, m: &Move, undo: Undo) {
        let vanish = self.last.expect("a turn was played").vanish;
        let b = &mut self.board;
        if m.kind == CASTLE {
            let k = b.take(sq(m.from2)).expect("king");
            let r = b.take(sq(m.to2)).expect("rook");
            b.put(sq(m.from1), k);
            b.put(sq(m.to1), r);
        } else {
            if m.kind == TWO {
                if m.to2 != EXIT {
                    b.take(sq(m.to2));
                }
                b.put(sq(m.from2), vanish.t[1].1);
            }
            if m.to1 != EXIT {
                b.take(sq(m.to1));
            }
            b.put(sq(m.from1), vanish.t[0].1);
        }
        self.side = self.side.opponent();
        self.turns = self.turns.wrapping_sub(1);
        self.castle = undo.castle;
        self.last = undo.last;
    }

    fn status(&mut self) -> Status {
        let mut list = Vec::new();
        self.generate(&mut list);
        if !list.is_empty() {
            Status::Ongoing
        } else if Dynamo::in_check(self, self.side) {
            Status::win_for(self.side.opponent())
        } else {
            Status::Draw
        }
    }

    fn canonical(&self, m: &Move) -> String {
        if m.kind == CASTLE {
            let k = self.board.get(sq(m.from1)).expect("king");
            let r = self.board.get(sq(m.to1)).expect("rook");
            // Both units are listed, even one ending where it started (spec README).
            return self.part_string(&[(sq(m.from1), k), (sq(m.to1), r)], &[(sq(m.from2), k), (sq(m.to2), r)]);
        }
        let (vanish, appear) = self.turn_tokens(m);
        let v: Vec<(Square, Piece)> = vanish.iter().map(|&(s, p)| (sq(s), p)).collect();
        let a: Vec<(Square, Piece)> = appear.iter().map(|&(s, p)| (sq(s), p)).collect();
        let a1 = usize::from(m.to1 != EXIT);
        let p1 = self.part_string(&v[..1], &a[..a1]);
        match m.kind {
            ALONE => p1,
            PASS => canonical::turn(&[p1.as_str(), "PASS"]),
            _ => {
                let p2 = self.part_string(&v[1..], &a[a1..]);
                canonical::turn(&[p1, p2])
            }
        }
    }

    fn notation(&self, m: &Move) -> String {
        let mut s = String::new();
        if m.kind == CASTLE {
            let (k, r) = (sq(m.from1), sq(m.to1));
            let end = if (k.file() as i8 - r.file() as i8).abs() <= 2 {
                r
            } else if r.file() < k.file() {
                Square::from_coords(k.file() - 2, k.rank())
            } else {
                Square::from_coords(k.file() + 2, k.rank())
            };
            let _ = write!(s, "K{k}{end}");
            return s;
        }
        let part = |s: &mut String, from: u8, to: u8, p: Piece| {
            if to == EXIT {
                let _ = write!(s, "{}R", sq(from));
            } else {
                let _ = write!(s, "{}{}{}", NOTATION.kind_char(p.kind).to_ascii_uppercase(), sq(from), sq(to));
            }
        };
        let (_, appear) = self.turn_tokens(m);
        let x = self.board.get(sq(m.from1)).expect("part 1 piece");
        part(&mut s, m.from1, m.to1, promoted(x, m.promo1));
        match m.kind {
            PASS => s.push_str(",-"),
            TWO => {
                s.push(',');
                let y = appear.iter().last().map_or(x, |t| t.1);
                part(&mut s, m.from2, m.to2, y);
            }
            _ => {}
        }
        s
    }

    fn hash(&self) -> u64 {
        self.board.hash() ^ self.state_key()
    }

    fn recomputed_hash(&self) -> u64 {
        self.board.recomputed_hash() ^ self.state_key()
    }
}

#[cfg(test)]
mod tests;
