//! An orthodox position as retro-analysis sees it: board, side to move, castling rights and
//! what is known of the en-passant right.

use chimere_core::{Bitboard, Colour, Kind, Square, attacks};

/// The six orthodox kinds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

impl Role {
    /// The kind indices of the chess crate and the fairy engine (0 = pawn .. 5 = king).
    pub fn from_kind(k: Kind) -> Option<Role> {
        Some(match k.0 {
            0 => Role::Pawn,
            1 => Role::Knight,
            2 => Role::Bishop,
            3 => Role::Rook,
            4 => Role::Queen,
            5 => Role::King,
            _ => return None,
        })
    }

    fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_lowercase() {
            'p' => Role::Pawn,
            'n' => Role::Knight,
            'b' => Role::Bishop,
            'r' => Role::Rook,
            'q' => Role::Queen,
            'k' => Role::King,
            _ => return None,
        })
    }
}

/// Castling-right bits of [`Setup::castling`].
pub const WHITE_KINGSIDE: u8 = 1;
pub const WHITE_QUEENSIDE: u8 = 2;
pub const BLACK_KINGSIDE: u8 = 4;
pub const BLACK_QUEENSIDE: u8 = 8;

/// What is known of the en-passant right.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ep {
    /// Unknown: the last move may or may not have been a double step (a diagram judged on
    /// board and side to move alone).
    Any,
    /// No e.p. capture is available: if the last move was a double step, no enemy pawn
    /// could legally take it en passant.
    No,
    /// The last move was the double step over this square.
    At(Square),
}

/// Board + side to move + castling rights + e.p. knowledge. Units that are not orthodox
/// (fairy kinds, neutral units) are recorded in `foreign`, which makes the position illegal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    board: [Option<(Colour, Role)>; 64],
    /// Bitboards by colour (white, black) and role, kept in step with `board`.
    bb: [[u64; 6]; 2],
    pub turn: Colour,
    pub castling: u8,
    pub ep: Ep,
    /// Count of non-orthodox units (fairy kinds or neutral units) that were offered.
    pub foreign: u8,
}

impl Setup {
    /// An empty board, White to move, no rights, e.p. unknown.
    pub fn empty() -> Setup {
        Setup { board: [None; 64], bb: [[0; 6]; 2], turn: Colour::White, castling: 0, ep: Ep::Any, foreign: 0 }
    }

    /// Puts a unit given as a core kind (0..5 orthodox); anything else counts as foreign.
    pub fn put_kind(&mut self, sq: Square, colour: Colour, kind: Kind) {
        match (colour, Role::from_kind(kind)) {
            (Colour::White | Colour::Black, Some(r)) => self.set(sq, Some((colour, r))),
            _ => self.foreign = self.foreign.saturating_add(1),
        }
    }

    /// Reads the first four fields of a FEN (board, side, castling `KQkq`/`-`, e.p. square
    /// or `-`); missing fields default to White, no castling, no e.p. (`Ep::No`).
    pub fn from_fen(fen: &str) -> Result<Setup, String> {
        let mut s = Setup::empty();
        s.ep = Ep::No;
        let mut f = fen.split_whitespace();
        let board = f.next().ok_or("empty FEN")?;
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != 8 {
            return Err(format!("FEN board needs 8 ranks: {board}"));
        }
        for (i, row) in rows.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u8;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as u8;
                } else {
                    let role = Role::from_char(c).ok_or_else(|| format!("bad FEN piece {c}"))?;
                    if file > 7 {
                        return Err(format!("FEN rank too long: {row}"));
                    }
                    let col = if c.is_ascii_uppercase() { Colour::White } else { Colour::Black };
                    s.set(Square::from_coords(file, rank), Some((col, role)));
                    file += 1;
                }
            }
            if file != 8 {
                return Err(format!("FEN rank of wrong length: {row}"));
            }
        }
        s.turn = match f.next() {
            None | Some("w") => Colour::White,
            Some("b") => Colour::Black,
            Some(x) => return Err(format!("bad FEN side {x}")),
        };
        if let Some(c) = f.next() {
            for ch in c.chars() {
                s.castling |= match ch {
                    'K' => WHITE_KINGSIDE,
                    'Q' => WHITE_QUEENSIDE,
                    'k' => BLACK_KINGSIDE,
                    'q' => BLACK_QUEENSIDE,
                    '-' => 0,
                    _ => return Err(format!("bad FEN castling {c}")),
                };
            }
        }
        if let Some(e) = f.next()
            && e != "-"
        {
            s.ep = Ep::At(Square::parse(e).ok_or_else(|| format!("bad FEN e.p. square {e}"))?);
        }
        Ok(s)
    }

    #[inline]
    pub fn get(&self, sq: Square) -> Option<(Colour, Role)> {
        self.board[sq.index()]
    }

    #[inline]
    pub fn is(&self, sq: Square, c: Colour, r: Role) -> bool {
        self.board[sq.index()] == Some((c, r))
    }

    /// Puts `u` on `sq` (or empties it).
    pub fn set(&mut self, sq: Square, u: Option<(Colour, Role)>) {
        if let Some((c, r)) = self.board[sq.index()] {
            self.bb[c.index() & 1][r as usize] &= !(1u64 << sq.index());
        }
        self.board[sq.index()] = u;
        if let Some((c, r)) = u {
            self.bb[c.index() & 1][r as usize] |= 1u64 << sq.index();
        }
    }

    /// Every unit with its square.
    pub fn units(&self) -> impl Iterator<Item = (Square, Colour, Role)> + '_ {
        self.board.iter().enumerate().filter_map(|(i, u)| u.map(|(c, r)| (Square::new(i as u8), c, r)))
    }

    #[inline]
    pub fn pieces(&self, c: Colour, r: Role) -> Bitboard {
        Bitboard(self.bb[c.index() & 1][r as usize])
    }

    #[inline]
    pub fn colour(&self, c: Colour) -> Bitboard {
        Bitboard(self.bb[c.index() & 1].iter().fold(0, |a, b| a | b))
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.colour(Colour::White) | self.colour(Colour::Black)
    }

    /// The king of `c`, if exactly one.
    pub fn king(&self, c: Colour) -> Option<Square> {
        let k = self.pieces(c, Role::King);
        if k.count() == 1 { k.first() } else { None }
    }

    /// Units of `by` attacking `sq` (orthodox attacks, current occupancy).
    pub fn attackers(&self, sq: Square, by: Colour) -> Bitboard {
        let occ = self.occupied();
        let p = |r| self.pieces(by, r);
        let diag = p(Role::Bishop) | p(Role::Queen);
        let line = p(Role::Rook) | p(Role::Queen);
        (attacks::knight(sq) & p(Role::Knight))
            | (attacks::king(sq) & p(Role::King))
            | (attacks::pawn(by != Colour::White, sq) & p(Role::Pawn))
            | (attacks::bishop(sq, occ) & diag)
            | (attacks::rook(sq, occ) & line)
    }

    /// Whether the king of `c` is attacked (false without exactly one king).
    pub fn in_check(&self, c: Colour) -> bool {
        self.king(c).is_some_and(|k| self.attackers(k, c.opponent()).any())
    }

    /// A hash of everything the predicates read.
    pub fn key(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut mix = |v: u64| {
            h ^= v;
            h = h.wrapping_mul(0x0100_0000_01b3).rotate_left(17);
        };
        for (i, u) in self.board.iter().enumerate() {
            if let Some((c, r)) = u {
                mix(((i as u64) << 8) | ((c.index() as u64) << 4) | (*r as u64 + 1));
            }
        }
        mix(self.turn.index() as u64 | (self.castling as u64) << 4 | (self.foreign as u64) << 12);
        mix(match self.ep {
            Ep::Any => 1 << 20,
            Ep::No => 2 << 20,
            Ep::At(s) => (3 << 20) | s.index() as u64,
        });
        h
    }
}

/// Relative rank (0 = own first rank) of `sq` for `c`.
#[inline]
pub fn rel_rank(c: Colour, sq: Square) -> u8 {
    if c == Colour::White { sq.rank() } else { 7 - sq.rank() }
}

/// The square `n` ranks forward (for `c`) from `sq`.
#[inline]
pub fn forward(c: Colour, sq: Square, n: i8) -> Option<Square> {
    sq.offset(0, if c == Colour::White { n } else { -n })
}
