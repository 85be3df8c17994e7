//! The orthodox base: a plain, unvalidated [`Setup`] (pieces, side to move, castling
//! rights as rook files with Chess960 support, en passant square, half-move clock, plies
//! played) with one reader and one writer for every FEN dialect the project accepts:
//!
//! - standard FEN (`w KQkq - 0 1`), X-FEN (`K`/`Q` for the outermost rook, a file letter
//!   otherwise) and Shredder FEN (`HAha`), told apart letter by letter;
//! - the vchess chess FEN (`w 0 ahah -`: plies played, the four rook files white
//!   queen-side, white king-side, black queen-side, black king-side with `i` for a lost
//!   right, en passant), recognised by its third field being a number.
//!
//! Parsing checks only the text ([`SetupError`] says which field is wrong and why).
//! Whether the position is a legal orthodox game is a separate step,
//! [`Setup::validate`], so that callers choose what they accept: the chess crate asks for
//! [`Validation::ORTHODOX`]; the fairy engine accepts problem positions that are illegal
//! as orthodox games (pawns on the first rank, no king under rules that allow it...).
//!
//! Piece kinds 0 to 5 are the orthodox ones ([`PAWN`] to [`KING`], FEN letters
//! `pnbrqk`); a variant may read more letters through its own [`Notation`]
//! ([`Setup::parse_with`]), and validation treats those kinds as ordinary pieces.

use crate::{Bitboard, Colour, Kind, Notation, Piece, Square, attacks};

/// Orthodox piece kinds (the chess crate's and the fairy engine's first six kinds).
pub const PAWN: Kind = Kind(0);
pub const KNIGHT: Kind = Kind(1);
pub const BISHOP: Kind = Kind(2);
pub const ROOK: Kind = Kind(3);
pub const QUEEN: Kind = Kind(4);
pub const KING: Kind = Kind(5);

/// The orthodox FEN letters, in kind order.
pub const ORTHODOX: Notation = Notation { kind_letters: b"pnbrqk", shared_colour: 'c' };

/// Castling-right slots: white queen side, white king side, black queen side, black king
/// side (the order of the vchess castling field).
pub const WHITE_QUEEN_SIDE: usize = 0;
pub const WHITE_KING_SIDE: usize = 1;
pub const BLACK_QUEEN_SIDE: usize = 2;
pub const BLACK_KING_SIDE: usize = 3;

/// The castling slot of a colour's side (`king_side`: towards the h-file).
#[inline]
pub const fn castling_slot(colour: Colour, king_side: bool) -> usize {
    (if matches!(colour, Colour::Black) { 2 } else { 0 }) + king_side as usize
}

/// The colour of a castling slot.
#[inline]
pub const fn slot_colour(slot: usize) -> Colour {
    if slot < 2 { Colour::White } else { Colour::Black }
}

/// The first rank of a player (0 for white, 7 for black).
#[inline]
pub const fn back_rank(c: Colour) -> u8 {
    if matches!(c, Colour::Black) { 7 } else { 0 }
}

/// Castling rights: the file of the rook each slot castles with, or `None` when the right
/// is lost. Slots as [`WHITE_QUEEN_SIDE`]..[`BLACK_KING_SIDE`].
pub type CastlingRights = [Option<u8>; 4];

/// The FEN dialects [`Setup::write`] can produce.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Dialect {
    /// Standard FEN with X-FEN castling letters: `K`/`Q` for the outermost rook of that
    /// side, the rook's file letter otherwise (Chess960 positions only).
    Standard,
    /// Shredder FEN: castling always by rook file letters (`HAha`).
    Shredder,
    /// vchess FEN: `board side plies castling-files en-passant`.
    Vchess,
}

/// Why a FEN is refused (by the reader) or a setup is not a legal orthodox position (by
/// [`Setup::validate`]). One variant per reason; [`SetupError::field`] names the FEN field.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SetupError {
    #[error("expected {expected} fields, found {found}")]
    FieldCount { expected: &'static str, found: usize },
    #[error("expected 8 ranks separated by `/`, found {0}")]
    RankCount(usize),
    #[error("rank {rank} has {squares} squares, not 8")]
    RankLength { rank: u8, squares: u32 },
    #[error("rank {rank}: a run of 0 empty squares")]
    EmptyRun { rank: u8 },
    #[error("unknown piece letter `{0}`")]
    PieceLetter(char),
    #[error("expected `w` or `b`, found `{0}`")]
    Side(String),
    #[error("`{0}` is not a castling field (`-`, K Q k q, file letters, or 4 vchess letters a..h/i)")]
    CastlingSyntax(String),
    #[error("`{0}` gives the same castling right twice with different rooks")]
    CastlingTwice(String),
    #[error("expected a square or `-`, found `{0}`")]
    EnPassantSyntax(String),
    #[error("{field}: expected a non-negative number, found `{text}`")]
    Counter { field: &'static str, text: String },
    #[error("{0} has no king")]
    MissingKing(Colour),
    #[error("{0} has {1} kings, not 1")]
    TooManyKings(Colour, u32),
    #[error("a pawn stands on {0}, a first or last rank")]
    PawnOnBackRank(Square),
    #[error("the side not to move ({0}) is in check")]
    OppositeCheck(Colour),
    #[error("{colour} {} castling right without its king and rook (file {}) in place", if *king_side { "king-side" } else { "queen-side" }, (b'a' + file) as char)]
    BadCastlingRight { colour: Colour, king_side: bool, file: u8 },
    #[error("{0} is not a possible en passant square (a pawn just made a double step past it)")]
    BadEnPassant(Square),
}

impl SetupError {
    /// The FEN field the error is about (`board`, `side to move`, `castling`...).
    pub fn field(&self) -> &'static str {
        use SetupError::*;
        match self {
            FieldCount { .. } => "fields",
            RankCount(_) | RankLength { .. } | EmptyRun { .. } | PieceLetter(_) => "board",
            MissingKing(_) | TooManyKings(..) | PawnOnBackRank(_) | OppositeCheck(_) => "board",
            Side(_) => "side to move",
            CastlingSyntax(_) | CastlingTwice(_) | BadCastlingRight { .. } => "castling",
            EnPassantSyntax(_) | BadEnPassant(_) => "en passant",
            Counter { field, .. } => field,
        }
    }
}

impl From<SetupError> for crate::RulesError {
    fn from(e: SetupError) -> Self {
        crate::RulesError::fen(e.field(), e.to_string())
    }
}

/// How many kings each side must have.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Kings {
    /// Exactly one (orthodox).
    One,
    /// Any number, none included (the caller's rules decide).
    Any,
}

/// What [`Setup::validate`] checks. [`Validation::ORTHODOX`] is a legal orthodox game.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Validation {
    pub kings: Kings,
    /// Refuse pawns on the first or last rank.
    pub no_back_rank_pawns: bool,
    /// Refuse a position where the side not to move is in check (orthodox attacks).
    pub no_opposite_check: bool,
    /// Refuse castling rights without their king and rook in place.
    pub castling: bool,
    /// Refuse an en passant square that no double step can have made.
    pub en_passant: bool,
}

impl Validation {
    /// A legal orthodox game position.
    pub const ORTHODOX: Validation = Validation {
        kings: Kings::One,
        no_back_rank_pawns: true,
        no_opposite_check: true,
        castling: true,
        en_passant: true,
    };
    /// Only what the state itself needs: castling rights and en passant must make sense
    /// (the board may hold anything).
    pub const STATE_ONLY: Validation = Validation {
        kings: Kings::Any,
        no_back_rank_pawns: false,
        no_opposite_check: false,
        castling: true,
        en_passant: true,
    };
}

/// A position as a FEN describes it, unvalidated.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    /// The piece on each square, a1 = index 0.
    pub board: [Option<Piece>; 64],
    pub side: Colour,
    pub castling: CastlingRights,
    /// The square a pawn skipped with its double step on the previous turn (as the FEN
    /// gives it; whether a capture is possible is not the reader's business).
    pub ep: Option<Square>,
    /// Plies since the last capture or pawn move.
    pub halfmove: u32,
    /// Plies played (vchess's third field; standard FEN's full-move number gives
    /// `2 * (n - 1)`, plus one when black is to move).
    pub plies: u32,
}

impl Default for Setup {
    fn default() -> Self {
        Setup::empty()
    }
}

impl Setup {
    /// An empty board, white to move, no rights.
    pub const fn empty() -> Setup {
        Setup { board: [None; 64], side: Colour::White, castling: [None; 4], ep: None, halfmove: 0, plies: 0 }
    }

    /// The orthodox starting position.
    pub fn start() -> Setup {
        Setup::parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").expect("the start position")
    }

    /// Reads a FEN of any accepted dialect with the orthodox letters.
    pub fn parse(fen: &str) -> Result<Setup, SetupError> {
        Setup::parse_with(fen, &ORTHODOX)
    }

    /// Reads a FEN of any accepted dialect; `letters` maps piece letters to kinds (upper
    /// case white, lower case black). Standard dialects take 4 to 6 fields (missing
    /// counters are 0 and 1), vchess exactly 5; nothing else is accepted.
    pub fn parse_with(fen: &str, letters: &Notation) -> Result<Setup, SetupError> {
        let f: Vec<&str> = fen.split_whitespace().collect();
        let vchess = f.len() >= 3 && !f[2].is_empty() && f[2].bytes().all(|c| c.is_ascii_digit());
        if vchess && f.len() != 5 {
            return Err(SetupError::FieldCount { expected: "5 (vchess FEN)", found: f.len() });
        }
        if !vchess && !(4..=6).contains(&f.len()) {
            return Err(SetupError::FieldCount { expected: "4 to 6", found: f.len() });
        }
        let mut s = Setup { board: parse_board(f[0], letters)?, ..Setup::empty() };
        s.side = match f[1] {
            "w" => Colour::White,
            "b" => Colour::Black,
            other => return Err(SetupError::Side(other.to_string())),
        };
        if vchess {
            s.plies = counter(f[2], "plies played")?;
            s.castling = parse_vchess_castling(f[3])?;
            s.ep = parse_ep(f[4])?;
        } else {
            s.castling = s.parse_standard_castling(f[2])?;
            s.ep = parse_ep(f[3])?;
            s.halfmove = f.get(4).map_or(Ok(0), |t| counter(t, "half-move clock"))?;
            let full = f.get(5).map_or(Ok(1), |t| counter(t, "full-move number"))?.max(1);
            s.plies = (full - 1).saturating_mul(2).saturating_add((s.side == Colour::Black) as u32);
        }
        Ok(s)
    }

    /// The king of `colour` on its first rank, if exactly one stands there.
    fn home_king(&self, colour: Colour) -> Option<Square> {
        let mut found = None;
        for file in 0..8 {
            let sq = Square::from_coords(file, back_rank(colour));
            if self.board[sq.index()] == Some(Piece::new(colour, KING)) {
                if found.is_some() {
                    return None;
                }
                found = Some(sq);
            }
        }
        found
    }

    fn is_rook(&self, colour: Colour, file: u8) -> bool {
        self.board[Square::from_coords(file, back_rank(colour)).index()] == Some(Piece::new(colour, ROOK))
    }

    /// Standard / X-FEN / Shredder castling letters. `K`/`Q` name the outermost rook on
    /// that side of the king (the h-/a-file when the king or the rook is missing, so that
    /// validation reports it); a file letter names its rook, and its side is the side of
    /// the king it stands on (the king-side when there is no king on the first rank).
    fn parse_standard_castling(&self, field: &str) -> Result<CastlingRights, SetupError> {
        let mut out = [None; 4];
        if field == "-" {
            return Ok(out);
        }
        let bad = || SetupError::CastlingSyntax(field.to_string());
        for c in field.chars() {
            if !c.is_ascii_alphabetic() {
                return Err(bad());
            }
            let colour = if c.is_ascii_uppercase() { Colour::White } else { Colour::Black };
            let king = self.home_king(colour).map(|k| k.file());
            let (file, king_side) = match c.to_ascii_lowercase() {
                'k' => {
                    let from = king.map_or(8, |k| k + 1);
                    ((from..8).rev().find(|&f| self.is_rook(colour, f)).unwrap_or(7), true)
                }
                'q' => {
                    let to = king.unwrap_or(0);
                    ((0..to).find(|&f| self.is_rook(colour, f)).unwrap_or(0), false)
                }
                l @ 'a'..='h' => {
                    let f = l as u8 - b'a';
                    (f, king.is_none_or(|k| f > k))
                }
                _ => return Err(bad()),
            };
            let slot = castling_slot(colour, king_side);
            match out[slot] {
                Some(g) if g != file => return Err(SetupError::CastlingTwice(field.to_string())),
                _ => out[slot] = Some(file),
            }
        }
        Ok(out)
    }

    /// The piece on a square.
    #[inline]
    pub fn get(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Squares holding `p`.
    pub fn pieces(&self, p: Piece) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for sq in Square::ALL {
            if self.board[sq.index()] == Some(p) {
                b.set(sq);
            }
        }
        b
    }

    /// Squares holding any piece.
    pub fn occupied(&self) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for sq in Square::ALL {
            if self.board[sq.index()].is_some() {
                b.set(sq);
            }
        }
        b
    }

    /// Whether `by` attacks `sq` with orthodox pieces (kinds 0..5).
    pub fn attacked(&self, sq: Square, by: Colour) -> bool {
        let occ = self.occupied();
        let of = |k: Kind| self.pieces(Piece::new(by, k));
        let rq = of(ROOK) | of(QUEEN);
        let bq = of(BISHOP) | of(QUEEN);
        ((attacks::pawn(by == Colour::Black, sq) & of(PAWN))
            | (attacks::knight(sq) & of(KNIGHT))
            | (attacks::king(sq) & of(KING))
            | (attacks::rook(sq, occ) & rq)
            | (attacks::bishop(sq, occ) & bq))
            .any()
    }

    /// Whether a castling right has its king and rook in place: the king of that colour
    /// alone on its first rank, the rook of that colour on the right's file, on the
    /// right's side of the king.
    pub fn castling_right_possible(&self, slot: usize) -> bool {
        let Some(file) = self.castling[slot] else { return true };
        let colour = slot_colour(slot);
        let Some(k) = self.home_king(colour) else { return false };
        let side_ok = if slot % 2 == 1 { file > k.file() } else { file < k.file() };
        side_ok && self.is_rook(colour, file)
    }

    /// Whether the en passant square could come from a double step of the side not to
    /// move: on the third rank from that side, empty, with the empty square behind it and
    /// that side's pawn in front of it.
    pub fn en_passant_possible(&self) -> bool {
        let Some(ep) = self.ep else { return true };
        let them = self.side.opponent();
        let (rank, fwd) = if them == Colour::White { (2, 1) } else { (5, -1) };
        let (Some(pawn), Some(start)) = (ep.offset(0, fwd), ep.offset(0, -fwd)) else { return false };
        ep.rank() == rank
            && self.get(ep).is_none()
            && self.get(start).is_none()
            && self.get(pawn) == Some(Piece::new(them, PAWN))
    }

    /// Drops the castling rights without their king and rook in place and an impossible
    /// en passant square (for callers that accept loose problem positions).
    pub fn drop_impossible_state(&mut self) {
        for slot in 0..4 {
            if !self.castling_right_possible(slot) {
                self.castling[slot] = None;
            }
        }
        if !self.en_passant_possible() {
            self.ep = None;
        }
    }

    /// Checks the setup against `v`; the first failure is reported.
    pub fn validate(&self, v: &Validation) -> Result<(), SetupError> {
        if v.kings == Kings::One {
            for c in Colour::PLAYERS {
                match self.pieces(Piece::new(c, KING)).count() {
                    0 => return Err(SetupError::MissingKing(c)),
                    1 => {}
                    n => return Err(SetupError::TooManyKings(c, n)),
                }
            }
        }
        if v.no_back_rank_pawns {
            for sq in Square::ALL {
                if (sq.rank() == 0 || sq.rank() == 7) && self.get(sq).is_some_and(|p| p.kind == PAWN) {
                    return Err(SetupError::PawnOnBackRank(sq));
                }
            }
        }
        if v.castling {
            for slot in 0..4 {
                if !self.castling_right_possible(slot) {
                    return Err(SetupError::BadCastlingRight {
                        colour: slot_colour(slot),
                        king_side: slot % 2 == 1,
                        file: self.castling[slot].unwrap_or(0),
                    });
                }
            }
        }
        if v.en_passant
            && let Some(ep) = self.ep
            && !self.en_passant_possible()
        {
            return Err(SetupError::BadEnPassant(ep));
        }
        if v.no_opposite_check {
            let them = self.side.opponent();
            if Iterator::any(&mut self.pieces(Piece::new(them, KING)), |k| self.attacked(k, self.side)) {
                return Err(SetupError::OppositeCheck(them));
            }
        }
        Ok(())
    }

    /// Writes the setup in a dialect with the orthodox letters.
    pub fn fen(&self, dialect: Dialect) -> String {
        self.write(dialect, &ORTHODOX)
    }

    /// Writes the setup in a dialect; `letters` gives each kind's letter.
    pub fn write(&self, dialect: Dialect, letters: &Notation) -> String {
        let board = write_board(&self.board, letters);
        let ep = self.ep.map_or_else(|| "-".to_string(), |s| s.to_string());
        if dialect == Dialect::Vchess {
            let castling: String = self.castling.iter().map(|f| f.map_or('i', |f| (b'a' + f) as char)).collect();
            return format!("{board} {} {} {castling} {ep}", self.side.side_char(), self.plies);
        }
        let mut castling = String::new();
        // White first, king side before queen side (as `KQkq`).
        for slot in [WHITE_KING_SIDE, WHITE_QUEEN_SIDE, BLACK_KING_SIDE, BLACK_QUEEN_SIDE] {
            let Some(file) = self.castling[slot] else { continue };
            let colour = slot_colour(slot);
            let king_side = slot % 2 == 1;
            let outermost = if king_side {
                !(file + 1..8).any(|f| self.is_rook(colour, f))
            } else {
                !(0..file).any(|f| self.is_rook(colour, f))
            };
            let c = match dialect {
                Dialect::Standard if outermost => {
                    if king_side {
                        'k'
                    } else {
                        'q'
                    }
                }
                _ => (b'a' + file) as char,
            };
            castling.push(if colour == Colour::White { c.to_ascii_uppercase() } else { c });
        }
        if castling.is_empty() {
            castling.push('-');
        }
        format!("{board} {} {castling} {ep} {} {}", self.side.side_char(), self.halfmove, self.plies / 2 + 1)
    }
}

fn counter(text: &str, field: &'static str) -> Result<u32, SetupError> {
    text.parse::<u32>().map_err(|_| SetupError::Counter { field, text: text.to_string() })
}

fn parse_ep(text: &str) -> Result<Option<Square>, SetupError> {
    if text == "-" {
        return Ok(None);
    }
    Square::parse(text).map(Some).ok_or_else(|| SetupError::EnPassantSyntax(text.to_string()))
}

fn parse_vchess_castling(text: &str) -> Result<CastlingRights, SetupError> {
    if text == "-" {
        return Ok([None; 4]);
    }
    let b = text.as_bytes();
    if b.len() != 4 {
        return Err(SetupError::CastlingSyntax(text.to_string()));
    }
    let mut out = [None; 4];
    for (i, &c) in b.iter().enumerate() {
        out[i] = match c {
            b'a'..=b'h' => Some(c - b'a'),
            b'i' => None,
            _ => return Err(SetupError::CastlingSyntax(text.to_string())),
        };
    }
    Ok(out)
}

fn parse_board(field: &str, letters: &Notation) -> Result<[Option<Piece>; 64], SetupError> {
    let mut squares = [None; 64];
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(SetupError::RankCount(ranks.len()));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file: u32 = 0;
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                // Runs may be written with several digits (`10` never fits, but is read
                // as a number so the error names the true length).
                let mut run = d;
                while let Some(n) = chars.peek().and_then(|c| c.to_digit(10)) {
                    run = run.saturating_mul(10).saturating_add(n);
                    chars.next();
                }
                if run == 0 {
                    return Err(SetupError::EmptyRun { rank: rank + 1 });
                }
                file = file.saturating_add(run);
            } else {
                if !c.is_ascii_alphabetic() {
                    return Err(SetupError::PieceLetter(c));
                }
                let kind = letters.kind_of(c).ok_or(SetupError::PieceLetter(c))?;
                let colour = if c.is_ascii_uppercase() { Colour::White } else { Colour::Black };
                if file < 8 {
                    squares[Square::from_coords(file as u8, rank).index()] = Some(Piece::new(colour, kind));
                }
                file += 1;
            }
            if file > 8 {
                break;
            }
        }
        if file != 8 {
            return Err(SetupError::RankLength { rank: rank + 1, squares: file });
        }
    }
    Ok(squares)
}

fn write_board(board: &[Option<Piece>; 64], letters: &Notation) -> String {
    let mut s = String::with_capacity(72);
    for rank in (0..8u8).rev() {
        let mut empty = 0u8;
        for file in 0..8u8 {
            match board[Square::from_coords(file, rank).index()] {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(letters.fen_char(p));
                }
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn every_dialect_reads_the_same_start() {
        let a = Setup::parse(START).unwrap();
        let b = Setup::parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1").unwrap();
        let c = Setup::parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah -").unwrap();
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert_eq!(a.castling, [Some(0), Some(7), Some(0), Some(7)]);
        assert_eq!(a.fen(Dialect::Standard), START);
        assert_eq!(a.fen(Dialect::Shredder), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
        assert_eq!(a.fen(Dialect::Vchess), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah -");
        assert_eq!(a.validate(&Validation::ORTHODOX), Ok(()));
    }

    #[test]
    fn chess960_castling_letters() {
        // King b1, rooks a1, c1 and h1: `K` is the outermost (h), `C` the inner one.
        let s = Setup::parse("1k6/8/8/8/8/8/8/RKR4R w KQ - 0 1").unwrap();
        assert_eq!(s.castling, [Some(0), Some(7), None, None]);
        let s = Setup::parse("1k6/8/8/8/8/8/8/RKR4R w C - 0 1").unwrap();
        assert_eq!(s.castling, [None, Some(2), None, None]);
        assert_eq!(s.fen(Dialect::Standard), "1k6/8/8/8/8/8/8/RKR4R w C - 0 1");
        assert_eq!(s.fen(Dialect::Shredder), "1k6/8/8/8/8/8/8/RKR4R w C - 0 1");
        assert_eq!(s.fen(Dialect::Vchess), "1k6/8/8/8/8/8/8/RKR4R w 0 icii -");
        assert_eq!(Setup::parse("1k6/8/8/8/8/8/8/RKR4R w KC - 0 1"), Err(SetupError::CastlingTwice("KC".into())));
        assert_eq!(Setup::parse("1k6/8/8/8/8/8/8/RKR4R w KH - 0 1").unwrap().castling, [None, Some(7), None, None]);
    }

    #[test]
    fn parse_errors_are_typed() {
        let e = |f: &str| Setup::parse(f).unwrap_err();
        assert_eq!(e("8/8/8/8/8/8/8 w - - 0 1"), SetupError::RankCount(7));
        assert_eq!(e("9/8/8/8/8/8/8/8 w - - 0 1"), SetupError::RankLength { rank: 8, squares: 9 });
        assert_eq!(e("x7/8/8/8/8/8/8/8 w - - 0 1"), SetupError::PieceLetter('x'));
        assert_eq!(e("8/8/8/8/8/8/8/8 x - - 0 1"), SetupError::Side("x".into()));
        assert_eq!(e("8/8/8/8/8/8/8/8 w - - 0 1 junk"), SetupError::FieldCount { expected: "4 to 6", found: 7 });
        assert_eq!(e("8/8/8/8/8/8/8/8 w 0 ahah - junk").field(), "fields");
        assert_eq!(e("8/8/8/8/8/8/8/8 w - z9 0 1"), SetupError::EnPassantSyntax("z9".into()));
        assert_eq!(e("8/8/8/8/8/8/8/8 w 0 ahaz -"), SetupError::CastlingSyntax("ahaz".into()));
        assert_eq!(e("8/8/8/8/8/8/8/8 w - - x 1").field(), "half-move clock");
        let r: crate::RulesError = e("8/8/8/8/8/8/8/8 w - - 0 1 junk").into();
        assert!(r.to_string().starts_with("bad FEN: fields:"));
    }

    #[test]
    fn validation_is_separate_and_typed() {
        let v = |f: &str| Setup::parse(f).unwrap().validate(&Validation::ORTHODOX);
        assert_eq!(v("8/8/8/8/8/8/8/8 w - - 0 1"), Err(SetupError::MissingKing(Colour::White)));
        assert_eq!(v("k7/8/8/8/8/8/8/KK6 w - - 0 1"), Err(SetupError::TooManyKings(Colour::White, 2)));
        assert_eq!(v("k7/8/8/8/8/8/8/K6P w - - 0 1"), Err(SetupError::PawnOnBackRank(Square::parse("h1").unwrap())));
        assert_eq!(v("k7/8/8/8/8/8/8/R6K w - - 0 1"), Err(SetupError::OppositeCheck(Colour::Black)));
        assert_eq!(
            v("4k3/8/8/8/8/8/8/4K3 w K - 0 1"),
            Err(SetupError::BadCastlingRight { colour: Colour::White, king_side: true, file: 7 })
        );
        assert_eq!(v("4k3/8/8/8/8/8/8/4K3 w - e6 0 1"), Err(SetupError::BadEnPassant(Square::parse("e6").unwrap())));
        assert_eq!(v("4k3/8/8/4p3/8/8/8/4K3 w - e6 0 1"), Ok(()));
        // The loose caller keeps the board and drops the impossible state.
        let mut s = Setup::parse("8/8/8/8/8/8/8/4K2R w KQ e6 0 1").unwrap();
        assert!(s.validate(&Validation::STATE_ONLY).is_err());
        s.drop_impossible_state();
        assert_eq!(s.castling, [None, Some(7), None, None]);
        assert_eq!(s.ep, None);
        assert_eq!(s.validate(&Validation::STATE_ONLY), Ok(()));
    }

    #[test]
    fn counters() {
        let s = Setup::parse("4k3/8/8/8/8/8/8/4K3 b - - 7 12").unwrap();
        assert_eq!((s.halfmove, s.plies), (7, 23));
        assert_eq!(s.fen(Dialect::Standard), "4k3/8/8/8/8/8/8/4K3 b - - 7 12");
        assert_eq!(s.fen(Dialect::Vchess), "4k3/8/8/8/8/8/8/4K3 b 23 iiii -");
        let s = Setup::parse("4k3/8/8/8/8/8/8/4K3 w - -").unwrap();
        assert_eq!((s.halfmove, s.plies), (0, 0));
    }
}
