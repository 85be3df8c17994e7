//! # Checkered chess ("l'Échiqueté")
//!
//! Our reading of the rules (spec `checkered.md`, seed 001):
//!
//! * Orthodox chess plus a third colour, **checkered** ([`Colour::Shared`]): checkered
//!   pawn, knight, bishop, rook and queen (no checkered king), shared by both players.
//! * **Stage 1.** The side to move plays its own pieces and every checkered piece;
//!   checkered pawns move, capture and promote in the side-to-move's direction. Only
//!   white/black pieces of the opponent can be captured. Every capture by a piece other
//!   than the king turns the capturer checkered, with the choice of the capturer's kind or
//!   the captured kind (a pawn capturing onto the last rank: the four promotion kinds).
//!   Two-square pawn steps use per-file flags of the side to move (16 flags, cleared by
//!   the step). Only white/black pawns take en passant, and only their steps create an
//!   en-passant square. A non-capturing checkered move may not exactly reverse the
//!   previous non-capturing checkered move (`cmove`). The mover's king must not be
//!   attacked afterwards by enemy pieces or by checkered pieces acting for the enemy
//!   (checkered pawns attacking in the enemy's direction); castling (Chess960-general)
//!   tests its path against both.
//! * **Switch.** In stage 1 (unless the game was created with `switch=off`, stage `1-`),
//!   a player may take control of the checkered pieces: the turn is `SWITCH` followed by
//!   one stage-2 move of a checkered piece. Allowed when a checkered piece exists and no
//!   king is attacked by checkered pieces (stage-2 attacks); allowed while in check.
//! * **Stage 2** (`2w`/`2b`: the switcher's letter). The switcher plays only checkered
//!   pieces, without any legality test; checkered pawns move and capture in both
//!   directions (two-steps by the flag of their direction), promote on ranks 1 and 8 into
//!   checkered pieces. The other player plays white or black pieces; his move is legal
//!   only if no king is then attacked by checkered pieces; he may castle with either
//!   colour. Captures only between checkered and white/black, with no change of kind.
//!   Every two-square step creates an en-passant square; any pawn may take en passant a
//!   pawn it may capture.
//! * **End.** Stage 1: no legal turn (a switch counts) = loss if in check, else draw.
//!   Stage 2: checkered to move with no checkered piece loses, with no move draws;
//!   white/black with no move loses if a king is attacked by checkered pieces, else draws.
//!
//! FEN: the vchess dialect with 7 fields (board, side, turns played, 4 castling letters +
//! 16 pawn flags, en passant, cmove, stage). Checkered letters `s o c u t` (pawn, knight,
//! bishop, rook, queen).

mod fen;
mod moves;
mod notation;
mod uci;

use chimere_core::{Board, Colour, GameOptions, GameRules, Piece, RulesError, Square, Status, Variant, zobrist};

pub use moves::{Move, Undo};

/// Orthodox kinds and letters, as in chess (checkered pieces are [`Colour::Shared`]; the
/// canonical colour letter `c` is chess's `NOTATION.shared_colour`).
pub use chimere_chess::NOTATION;
pub(crate) use chimere_chess::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};

/// The stage of the game.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Stage {
    /// Stage 1, switch allowed (`1`).
    One,
    /// Stage 1 of a game created without the switch (`1-`).
    OneNoSwitch,
    /// Stage 2; the colour is the side controlling the checkered pieces (`2w`/`2b`).
    Two(Colour),
}

impl Stage {
    #[inline]
    pub fn is_one(self) -> bool {
        !matches!(self, Stage::Two(_))
    }
}

/// A Checkered position.
#[derive(Clone, Debug)]
pub struct Checkered {
    pub(crate) board: Board,
    pub(crate) side: Colour,
    pub(crate) turns: u32,
    /// Castling rook files: white queen side, white king side, black queen side, black
    /// king side; 8 = right lost.
    pub(crate) castle: [u8; 4],
    /// Two-square step flags: bit `f` white on file `f`, bit `8 + f` black.
    pub(crate) pawn_flags: u16,
    pub(crate) ep: Option<Square>,
    pub(crate) cmove: Option<(Square, Square)>,
    pub(crate) stage: Stage,
}

pub(crate) const NO_CASTLE: u8 = 8;

impl Checkered {
    /// The stage of the game.
    pub fn stage(&self) -> Stage {
        self.stage
    }
    /// The side to move.
    pub fn side(&self) -> Colour {
        self.side
    }

    /// Zobrist key of every state field but the pieces.
    fn state_key(&self) -> u64 {
        let mut h = 0;
        if self.side == Colour::Black {
            h ^= zobrist::SIDE;
        }
        for (i, &f) in self.castle.iter().enumerate() {
            if f < 8 {
                h ^= zobrist::field(i * 8 + f as usize);
            }
        }
        let mut flags = self.pawn_flags;
        while flags != 0 {
            h ^= zobrist::field(32 + flags.trailing_zeros() as usize);
            flags &= flags - 1;
        }
        if let Some(e) = self.ep {
            h ^= zobrist::field(48 + e.index());
        }
        if let Some((a, b)) = self.cmove {
            h ^= zobrist::field(112 + a.index()) ^ zobrist::field(176 + b.index());
        }
        h ^ match self.stage {
            Stage::One => 0,
            Stage::OneNoSwitch => zobrist::field(240),
            Stage::Two(Colour::White) => zobrist::field(241),
            Stage::Two(_) => zobrist::field(242),
        }
    }
}

impl Variant for Checkered {
    type Move = Move;
    type Undo = Undo;
    const NAME: &'static str = "checkered";
    const RULES: GameRules = GameRules::ORTHODOX;

    fn side_to_move(&self) -> Colour {
        self.side
    }
    fn in_check(&mut self) -> bool {
        match self.stage {
            Stage::One | Stage::OneNoSwitch => self.stage1_in_check(self.side),
            Stage::Two(chk) if chk != self.side => self.kings_attacked_by_checkered(),
            Stage::Two(_) => false,
        }
    }
    fn is_noisy(&self, m: &Move) -> bool {
        m.is(moves::F_CAPTURE | moves::F_EP)
            || self.board.get(m.from).is_some_and(|p| p.kind == PAWN && m.kind != PAWN && !m.is(moves::F_CASTLE))
    }
    fn resets_fifty(&self, m: &Move) -> bool {
        self.is_noisy(m) || self.board.get(m.from).is_some_and(|p| p.kind == PAWN)
    }
    fn board(&self) -> Option<&Board> {
        Some(&self.board)
    }
    fn for_each_piece(&self, f: &mut dyn FnMut(Square, Piece)) {
        for (s, p) in self.board.iter() {
            f(s, p);
        }
    }
    fn uci(&self, m: &Move, chess960: bool) -> String {
        self.uci_token(m, chess960)
    }

    fn new_game(opts: &GameOptions) -> Result<Self, RulesError> {
        fen::new_game(opts)
    }
    fn from_fen(text: &str) -> Result<Self, RulesError> {
        fen::parse(text)
    }
    fn fen(&self) -> String {
        fen::write(self)
    }
    fn legal_turns(&mut self, out: &mut Vec<Move>) {
        self.generate(out);
    }
    #[inline]
    fn make(&mut self, m: &Move) -> Undo {
        self.play(m)
    }
    #[inline]
    fn unmake(&mut self, m: &Move, undo: Undo) {
        self.take_back(m, undo)
    }
    fn status(&mut self) -> Status {
        let mut list = Vec::new();
        self.generate(&mut list);
        let has_move = !list.is_empty();
        match self.stage {
            Stage::One | Stage::OneNoSwitch => {
                if has_move {
                    Status::Ongoing
                } else if self.stage1_in_check(self.side) {
                    Status::win_for(self.side.opponent())
                } else {
                    Status::Draw
                }
            }
            Stage::Two(chk) if chk == self.side => {
                if self.board.colour(Colour::Shared).is_empty() {
                    Status::win_for(chk.opponent())
                } else if has_move {
                    Status::Ongoing
                } else {
                    Status::Draw
                }
            }
            Stage::Two(chk) => {
                if has_move {
                    Status::Ongoing
                } else if self.kings_attacked_by_checkered() {
                    Status::win_for(chk)
                } else {
                    Status::Draw
                }
            }
        }
    }
    fn canonical(&self, m: &Move) -> String {
        notation::canonical(self, m)
    }
    fn notation(&self, m: &Move) -> String {
        notation::notation(self, m)
    }
    fn hash(&self) -> u64 {
        self.board.hash() ^ self.state_key()
    }
    fn recomputed_hash(&self) -> u64 {
        self.board.recomputed_hash() ^ self.state_key()
    }
}

/// The piece letter of the vchess FEN.
pub(crate) fn fen_letter(p: Piece) -> char {
    match p.colour {
        Colour::Shared => b"socut?"[p.kind.index().min(5)] as char,
        _ => NOTATION.fen_char(p),
    }
}

#[cfg(test)]
mod tests;
