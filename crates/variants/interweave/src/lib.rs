//! # Interweave (Peter Aronson, 2002), as played on vchess — our reading of the rules
//!
//! Every piece stays on the colour of the square it stands on and captures pieces on the
//! other colour. Each side has two kings, two Smashers (`r`), two Leapers (`n`), two
//! Removers (`b`) and eight pawns; kings are not royal, there is no check, and a side
//! left with fewer than two kings after a turn loses (so does a side with no legal turn).
//!
//! * **King**: one diagonal step to an empty square; captures by a short orthogonal leap
//!   over an adjacent enemy to the empty square just behind it.
//! * **Smasher**: slides diagonally without capturing; slides orthogonally an even
//!   distance through empty squares, capturing (by approach) an enemy standing just
//!   beyond its arrival square in the same direction.
//! * **Leaper**: slides diagonally; slides orthogonally an even distance; double knight
//!   jump to an empty square when the midpoint is empty or holds an enemy (captured).
//!   Orthogonally it captures the first piece of a line when that is an enemy at an odd
//!   distance, landing on any empty square beyond it at an even total distance.
//! * **Remover**: slides diagonally; captures without moving every orthogonally adjacent
//!   enemy at once.
//! * **Pawn**: one diagonal step forward to an empty square, two from its second rank
//!   (giving an en-passant chance unless the move captured); captures by a straight
//!   forward leap over an adjacent enemy, and en passant by such a leap over the skipped
//!   square, removing the pawn that arrived beside it. After every pawn part, custodian
//!   captures: an enemy orthogonally adjacent to the arrival square with a friendly piece
//!   just beyond it is removed. A pawn arriving on its seventh rank may, and on its eighth
//!   must, promote into a rook, knight or bishop of its side that was captured and not yet
//!   returned to play (the captured counter of that kind goes down by one); a pawn on its
//!   seventh rank with nothing to promote into cannot move.
//!
//! Captures are compulsory. A capture is one part of the turn; if the piece that captured
//! can capture again from its arrival square it must, and the turn goes on (a chain, one
//! [`Move`]). A Remover capture ends the chain. Otherwise a turn is one quiet move.
//!
//! FEN (vchess): `board side turns ep captured`, e.g.
//! `rbnkknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNKKNBR w 0 - 000000`; the en-passant field is
//! `<skipped square>,<arrival file>`; `captured` counts the white rooks, knights, bishops
//! then the black ones captured and not yet brought back by promotion.
//!
//! The reader refuses (naming the field) anything else: not exactly five fields, unknown
//! letters, more than two kings or sixteen pieces a side, a pawn on its last rank, an
//! en-passant field whose square is not on the rank a pawn of the side that just moved
//! skips, whose file is not beside it, whose skipped square is not empty or whose arrival
//! square does not hold that side's pawn, a captured field that is not six digits. Fewer
//! than two kings is accepted (finished games).
//!
//! Random arrays (randomness 1 and 2): on each side's back rank the four pieces r, n, b, k
//! are shuffled over the a/c/e/g files and, independently, over the b/d/f/h files (as
//! vchess does), so each team of four keeps to one square colour; randomness 1 mirrors
//! white's rank for black, randomness 2 draws black's rank independently.

//!
//! ## Implementation
//!
//! Bitboards by colour and by kind plus a mailbox; the en-passant field and the captured
//! counters are packed in one word that `unmake` restores whole. A [`Move`] is a whole
//! turn in 32 bytes (`Copy`): the starting square, the arrival square of each part, the
//! promotion (kind and part), and the set of squares of every enemy piece the turn
//! removes (enemy pieces never move during a turn, so these squares are distinct), which
//! lets `make` play a chain at once. Generation first asks, by bitboards, which pieces may
//! capture; if none, quiet moves come straight from attack sets; otherwise each capture
//! part is played on the board and the chain is searched depth-first. The parts of a turn
//! (for the canonical form and the notation) are rebuilt by replaying it on a copy.

mod fen;
mod movegen;
mod tables;
mod text;
mod uci;

use chimere_core::rng::SplitMix64;
use chimere_core::{
    Colour, GameOptions, GameRules, Kind, Notation, Piece, RulesError, Square, Status, Variant, zobrist,
};
use tables::{COUNT_KEYS, EP_FILE_KEYS, EP_SQUARE_KEYS, NONE, PIECE_KEYS};

/// Piece kinds (indices of [`NOTATION`]'s letters).
pub const PAWN: u8 = 0;
pub const ROOK: u8 = 1;
pub const KNIGHT: u8 = 2;
pub const BISHOP: u8 = 3;
pub const KING: u8 = 4;

/// Letters of the kinds: pawn, Smasher (rook), Leaper (knight), Remover (bishop), king.
pub const NOTATION: Notation = Notation { kind_letters: b"prnbk", shared_colour: '-' };

/// Most parts a turn can have: every part captures at least one of the (at most 16)
/// enemy pieces.
pub const MAX_PARTS: usize = 16;
/// Most pieces a side may have (checked when reading a FEN).
pub const MAX_PIECES: u32 = 16;

const FLAG_DOUBLE: u8 = 1;
/// `Interweave::irr` bits of "no en passant".
const NO_EP: u64 = NONE as u64 | 8 << 8;

/// A complete turn: a quiet move, or a chain of capture parts by one piece.
///
/// The board effect of the whole turn is: the piece leaves `from`, every enemy piece on
/// `captured` is removed, and the piece (promoted if `promo` says so) stands on the last
/// square of `path`. The path (arrival square of each part; a Remover capture "arrives"
/// where it stands) tells different chains apart and rebuilds the parts for display.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// Squares of the enemy pieces the turn removes.
    pub captured: u64,
    /// Arrival square of each part (only the first `len` are meaningful).
    pub path: [u8; MAX_PARTS],
    /// Starting square of the moving piece.
    pub from: u8,
    /// Number of parts.
    pub len: u8,
    /// 0, or the promotion: kind (1..=3) + 4 × index of the promoting part.
    pub promo: u8,
    /// Bit 0: a pawn's two-square step (sets the en-passant field).
    pub flags: u8,
    /// The final square (`path[len - 1]`), kept for `make` and `unmake`.
    last: u8,
}

impl Move {
    #[inline]
    fn quiet(from: u8, to: u8, promo: u8, flags: u8) -> Move {
        let mut path = [0u8; MAX_PARTS];
        path[0] = to;
        Move { captured: 0, path, from, len: 1, promo, flags, last: to & 63 }
    }
    /// The final square of the moving piece.
    #[inline]
    pub fn to(&self) -> u8 {
        self.last & 63
    }
    /// The promotion kind of part `i`, or 0.
    #[inline]
    pub fn promo_at(&self, i: usize) -> u8 {
        if self.promo != 0 && (self.promo >> 2) as usize == i { self.promo & 3 } else { 0 }
    }
}

/// What `unmake` needs besides the move.
#[derive(Copy, Clone, Debug)]
pub struct Undo {
    hash: u64,
    /// Codes of the captured pieces, 4 bits each, in square order of `Move::captured`.
    codes: u64,
    irr: u64,
}

/// An Interweave position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interweave {
    /// Pieces by colour (white, black).
    colour: [u64; 2],
    /// Pieces by kind (indices 5..8 unused).
    kind: [u64; 8],
    /// Mailbox: 0 empty, else `1 + 8 × colour + kind`.
    sq: [u8; 64],
    /// Side to move: 0 white, 1 black.
    side: u32,
    /// The state `unmake` restores as a whole, packed so that it is always read and
    /// written as one word: bits 0..8 the skipped square of the last two-square pawn step
    /// (`NONE` if none), 8..16 the file of that pawn's arrival (8 if none), then one byte
    /// per captured-and-not-returned counter (white r, n, b, black r, n, b).
    irr: u64,
    /// Complete turns played.
    turns: u32,
    hash: u64,
}

#[inline]
const fn code(colour: u8, kind: u8) -> u8 {
    1 + 8 * colour + kind
}
#[inline]
const fn code_colour(c: u8) -> u8 {
    (c.wrapping_sub(1) >> 3) & 1
}
#[inline]
const fn code_kind(c: u8) -> u8 {
    c.wrapping_sub(1) & 7
}

#[inline]
fn piece_of(c: u8) -> Piece {
    Piece::new(if code_colour(c) == 0 { Colour::White } else { Colour::Black }, Kind(code_kind(c)))
}

#[inline]
fn piece_key(c: u8, s: u8) -> u64 {
    PIECE_KEYS[(c & 15) as usize][(s & 63) as usize]
}

#[inline]
fn ep_key(ep: u8, file: u8) -> u64 {
    EP_SQUARE_KEYS[ep.min(NONE) as usize] ^ EP_FILE_KEYS[file.min(8) as usize]
}

#[inline]
fn count_key(idx: usize, v: u8) -> u64 {
    COUNT_KEYS[idx % 6][(v & 15) as usize]
}

impl Interweave {
    fn empty() -> Interweave {
        Interweave { colour: [0; 2], kind: [0; 8], sq: [0; 64], side: 0, irr: NO_EP, turns: 0, hash: 0 }
    }

    /// Puts piece `c` on the empty square `s` (hash included).
    #[inline]
    fn put(&mut self, s: u8, c: u8) {
        self.put_raw(s, c);
        self.hash ^= piece_key(c, s);
    }

    /// Removes and returns the piece on `s` (hash included).
    #[inline]
    fn take(&mut self, s: u8) -> u8 {
        let c = self.take_raw(s);
        self.hash ^= piece_key(c, s);
        c
    }

    #[inline]
    fn put_raw(&mut self, s: u8, c: u8) {
        let s = s & 63;
        debug_assert_eq!(self.sq[s as usize], 0);
        let b = 1u64 << s;
        self.sq[s as usize] = c;
        self.colour[(code_colour(c) & 1) as usize] |= b;
        self.kind[code_kind(c) as usize] |= b;
    }

    #[inline]
    fn take_raw(&mut self, s: u8) -> u8 {
        let s = s & 63;
        let c = self.sq[s as usize];
        debug_assert_ne!(c, 0);
        let b = !(1u64 << s);
        self.sq[s as usize] = 0;
        self.colour[(code_colour(c) & 1) as usize] &= b;
        self.kind[code_kind(c) as usize] &= b;
        c
    }

    #[inline]
    fn occupied(&self) -> u64 {
        self.colour[0] | self.colour[1]
    }

    /// The side to move.
    pub fn side(&self) -> Colour {
        if self.side == 0 { Colour::White } else { Colour::Black }
    }

    /// The piece on a square.
    pub fn piece_at(&self, s: Square) -> Option<Piece> {
        let c = self.sq[s.index()];
        (c != 0).then(|| piece_of(c))
    }

    /// Captured-and-not-returned counter: `colour`'s pieces of `kind` (rook, knight, bishop).
    pub fn captured_count(&self, colour: Colour, kind: u8) -> u8 {
        debug_assert!((ROOK..=BISHOP).contains(&kind));
        self.count(colour.index() * 3 + kind as usize - 1)
    }

    /// Counter `i` (white r, n, b, black r, n, b).
    #[inline]
    fn count(&self, i: usize) -> u8 {
        (self.irr >> (16 + 8 * (i % 6))) as u8
    }

    #[inline]
    fn set_count(&mut self, i: usize, v: u8) {
        let shift = 16 + 8 * (i % 6);
        self.irr = (self.irr & !(0xFF << shift)) | (v as u64) << shift;
    }

    /// Skipped square of the en-passant field, or `NONE`.
    #[inline]
    fn ep(&self) -> u8 {
        self.irr as u8
    }

    /// Arrival file of the en-passant field (8 if none).
    #[inline]
    fn ep_file(&self) -> u8 {
        (self.irr >> 8) as u8
    }

    #[inline]
    fn set_ep(&mut self, ep: u8, file: u8) {
        self.irr = (self.irr & !0xFFFF) | ep as u64 | (file as u64) << 8;
    }

    fn full_hash(&self) -> u64 {
        let mut h = 0;
        for s in 0..64u8 {
            let c = self.sq[s as usize];
            if c != 0 {
                h ^= piece_key(c, s);
            }
        }
        if self.side == 1 {
            h ^= zobrist::SIDE;
        }
        h ^= ep_key(self.ep(), self.ep_file());
        for i in 0..6 {
            h ^= count_key(i, self.count(i));
        }
        h
    }

    /// `make` for captures and promotions (side, ep and the hash of both already handled
    /// by the caller except the new en-passant state, which such turns never create).
    #[inline(never)]
    fn make_slow(&mut self, m: &Move, mut undo: Undo) -> Undo {
        let us = self.side as usize & 1;
        let them = us ^ 1;
        let mut c = self.take(m.from);
        let mut cap = m.captured;
        let mut shift = 0;
        while cap != 0 {
            let s = cap.trailing_zeros() as u8;
            cap &= cap - 1;
            let v = self.take(s);
            undo.codes |= (v as u64) << (shift & 63);
            shift += 4;
            let k = code_kind(v);
            if (ROOK..=BISHOP).contains(&k) {
                let i = them * 3 + k as usize - 1;
                let v = self.count(i);
                self.hash ^= count_key(i, v) ^ count_key(i, v.wrapping_add(1));
                self.set_count(i, v.wrapping_add(1));
            }
        }
        if m.promo != 0 {
            let k = m.promo & 3;
            let i = us * 3 + (k as usize + 2) % 3;
            let v = self.count(i);
            self.hash ^= count_key(i, v) ^ count_key(i, v.wrapping_sub(1));
            self.set_count(i, v.wrapping_sub(1));
            c = code(us as u8, k);
        }
        self.put(m.to(), c);
        debug_assert!(m.flags & FLAG_DOUBLE == 0);
        self.set_ep(NONE, 8);
        self.side ^= 1;
        self.turns += 1;
        undo
    }

    fn king_counts(&self) -> [u32; 2] {
        let k = self.kind[KING as usize];
        [(k & self.colour[0]).count_ones(), (k & self.colour[1]).count_ones()]
    }

    /// Back rank (index = file) of the array for these options, white's then black's.
    fn arrays(opts: &GameOptions) -> ([u8; 8], [u8; 8]) {
        chimere_core::random::arrays(opts.randomness, opts.seed, *b"rbnkknbr", random_rank)
    }
}

/// One random back rank: r, n, b, k shuffled over the even files and, independently,
/// over the odd files.
fn random_rank(rng: &mut SplitMix64) -> [u8; 8] {
    let mut rank = [0u8; 8];
    for parity in 0..2 {
        let mut team = *b"rnbk";
        rng.shuffle(&mut team);
        for (i, &p) in team.iter().enumerate() {
            rank[2 * i + parity] = p;
        }
    }
    rank
}

impl Variant for Interweave {
    type Move = Move;
    type Undo = Undo;
    const NAME: &'static str = "interweave";
    const RULES: GameRules = GameRules::ORTHODOX;

    fn side_to_move(&self) -> Colour {
        self.side()
    }
    /// Interweave has no check: kings are captured.
    fn in_check(&mut self) -> bool {
        false
    }
    fn is_noisy(&self, m: &Move) -> bool {
        m.captured != 0 || m.promo != 0
    }
    fn resets_fifty(&self, m: &Move) -> bool {
        self.is_noisy(m) || code_kind(self.sq[(m.from & 63) as usize]) == PAWN
    }
    fn for_each_piece(&self, f: &mut dyn FnMut(Square, Piece)) {
        for (s, &c) in self.sq.iter().enumerate() {
            if c != 0 {
                f(Square::new(s as u8), piece_of(c));
            }
        }
    }
    fn uci(&self, m: &Move, chess960: bool) -> String {
        self.uci_token(m, chess960)
    }

    fn new_game(opts: &GameOptions) -> Result<Self, RulesError> {
        opts.check(&[])?;
        let (w, b) = Interweave::arrays(opts);
        let black: String = b.iter().map(|&c| c as char).collect();
        let white: String = w.iter().map(|&c| (c as char).to_ascii_uppercase()).collect();
        Interweave::from_fen(&format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w 0 - 000000"))
    }

    fn from_fen(fen: &str) -> Result<Self, RulesError> {
        fen::parse(fen)
    }

    fn fen(&self) -> String {
        fen::write(self)
    }

    fn legal_turns(&mut self, out: &mut Vec<Move>) {
        self.generate(out);
    }

    #[inline(always)]
    fn make(&mut self, m: &Move) -> Undo {
        let irr = self.irr;
        let undo = Undo { hash: self.hash, codes: 0, irr };
        let from = m.from & 63;
        let to = m.to();
        let mut h = self.hash ^ zobrist::SIDE ^ ep_key(irr as u8, (irr >> 8) as u8);
        if m.captured == 0 && m.promo == 0 {
            // Quiet move: one piece changes square.
            let c = self.sq[from as usize];
            let b = (1u64 << from) | (1u64 << to);
            self.sq[from as usize] = 0;
            self.sq[to as usize] = c;
            self.colour[self.side as usize & 1] ^= b;
            self.kind[code_kind(c) as usize] ^= b;
            h ^= piece_key(c, from) ^ piece_key(c, to);
            if m.flags & FLAG_DOUBLE != 0 {
                let (ep, file) = ((from + to) / 2, to & 7);
                self.irr = (irr & !0xFFFF) | ep as u64 | (file as u64) << 8;
                h ^= ep_key(ep, file);
            } else {
                self.irr = (irr & !0xFFFF) | NO_EP;
            }
            self.hash = h;
            self.side ^= 1;
            self.turns += 1;
            return undo;
        }
        self.hash = h;
        self.make_slow(m, undo)
    }

    #[inline(always)]
    fn unmake(&mut self, m: &Move, undo: Undo) {
        self.side ^= 1;
        self.turns -= 1;
        self.hash = undo.hash;
        self.irr = undo.irr;
        let from = m.from & 63;
        let to = m.to();
        if m.captured == 0 && m.promo == 0 {
            let c = self.sq[to as usize];
            let b = (1u64 << from) | (1u64 << to);
            self.sq[to as usize] = 0;
            self.sq[from as usize] = c;
            self.colour[self.side as usize & 1] ^= b;
            self.kind[code_kind(c) as usize] ^= b;
            return;
        }
        let mut c = self.take_raw(to);
        if m.promo != 0 {
            c = code(self.side as u8, PAWN);
        }
        self.put_raw(from, c);
        let mut cap = m.captured;
        let mut codes = undo.codes;
        while cap != 0 {
            let s = cap.trailing_zeros() as u8;
            cap &= cap - 1;
            self.put_raw(s, (codes & 15) as u8);
            codes >>= 4;
        }
    }

    fn status(&mut self) -> Status {
        let [w, b] = self.king_counts();
        if w < 2 {
            return Status::BlackWins;
        }
        if b < 2 {
            return Status::WhiteWins;
        }
        if !self.has_turn() {
            return Status::win_for(self.side().opponent());
        }
        Status::Ongoing
    }

    fn canonical(&self, m: &Move) -> String {
        text::canonical(self, m)
    }

    fn notation(&self, m: &Move) -> String {
        text::notation(self, m)
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn count_turns(&mut self, scratch: &mut Vec<Move>) -> u64 {
        self.count_legal(scratch)
    }

    fn recomputed_hash(&self) -> u64 {
        self.full_hash()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_and_undo_are_small() {
        assert_eq!(std::mem::size_of::<Move>(), 32);
        assert!(std::mem::size_of::<Undo>() <= 24);
    }

    #[test]
    fn random_arrays_keep_teams_on_their_colours() {
        for seed in 0..200 {
            for randomness in 1..=2 {
                let opts = GameOptions { randomness, seed, params: vec![], ..Default::default() };
                let (w, b) = Interweave::arrays(&opts);
                for rank in [w, b] {
                    for parity in 0..2 {
                        let mut team: Vec<u8> = (0..4).map(|i| rank[2 * i + parity]).collect();
                        team.sort();
                        assert_eq!(team, b"bknr".to_vec());
                    }
                }
                if randomness == 1 {
                    assert_eq!(w, b);
                }
                let g = Interweave::new_game(&opts).unwrap();
                assert_eq!(g.fen(), Interweave::new_game(&opts).unwrap().fen());
            }
        }
        let g = Interweave::new_game(&GameOptions::default()).unwrap();
        assert_eq!(g.fen(), "rbnkknbr/pppppppp/8/8/8/8/PPPPPPPP/RBNKKNBR w 0 - 000000");
        assert!(Interweave::new_game(&GameOptions { randomness: 3, ..Default::default() }).is_err());
    }
}
