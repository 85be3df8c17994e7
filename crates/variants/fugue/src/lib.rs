//! # Fugue (Mike Nelson, 2004), seed 003
//!
//! Our reading of the rules (spec `fugue.md`, which follows vchess):
//!
//! - Pieces: cannon pawn `p`, queen `q`, king `k`, immobilizer `i`, pushme-pullyu `u`,
//!   archer `a`, shield `s`, long leaper `l`, swapper `w`. Every piece but the king and the
//!   pawns moves like a queen to empty squares; only the queen and the king capture by
//!   replacement. The goal is to capture the enemy king; there is no check.
//! - **Immobilized**: a piece next to (8 neighbours) an enemy immobilizer has no move at
//!   all, unless it is an immobilizer itself. It still protects and still spots.
//! - **Protected**: a piece next to one of its own shields (a shield does not protect
//!   itself) cannot be captured by any means; it can still be swapped.
//! - **Long leaper**: jumps the first piece met on a line if it is an unprotected enemy,
//!   capturing it, landing on any of the empty squares right after it (at least one).
//! - **Pushme-pullyu**: on a queen move from S to E in direction d, captures the unprotected
//!   enemy on S−d (withdrawal) or on E+d (approach); a move that would do both is illegal.
//! - **Archer**: stays put and shoots the first piece met on a line if it is an unprotected
//!   enemy at most two squares away, or next to a piece of the archer's side, or two squares
//!   from one in a straight line with an empty square between.
//! - **Swapper**: exchanges places with the first piece met on a line if it is an enemy (any
//!   distance, protected or not); if that enemy is adjacent and unprotected it may instead
//!   destroy it and itself.
//! - **Immobilizer** captures nothing; **shield** never captures.
//! - **Pawn**: a king step to an empty square, or a leap over an adjacent piece (either
//!   colour) to the square just behind if it is empty or holds an unprotected enemy. On its
//!   last rank it may stay a pawn or promote into any of `q i u a s l w` of which its side
//!   has none on the board at that moment.
//! - **End**: the side to move without a king loses; the side to move with no legal turn
//!   loses. [`Fugue::status`] decides the position alone. The threefold-repetition rule
//!   (the player completing a threefold repetition loses) is a game-level rule: the game
//!   layer compares [`Variant::hash`] values of the positions after each turn (the hash
//!   covers pieces and side to move, not the turn counter), and when a turn makes a
//!   position occur for the third time, the player who made that turn loses.
//! - **FEN** (vchess): `board side turns`, where `turns` counts the plies played
//!   (vchess's `movesCount`), e.g. `wlqksaui/pppppppp/8/8/8/8/PPPPPPPP/IUASKQLW w 0`.
//! - **Random arrays** (`randomness` 1 and 2): the eight pieces of the back rank are placed
//!   by a uniform shuffle (no constraint, as vchess); at level 1 black's rank is the same
//!   file by file as white's, at level 2 it is shuffled independently. Pawns stay on the
//!   second and seventh ranks.

mod bits;
mod moves;
mod text;
mod uci;

pub use moves::{Counter, Move, NO_SQ, Sink};

use chimere_core::{
    Board, Colour, GameOptions, GameRules, Kind, Notation, Piece, Repetition, RulesError, Square, Status, Variant,
    zobrist,
};

pub const PAWN: Kind = Kind(0);
pub const QUEEN: Kind = Kind(1);
pub const KING: Kind = Kind(2);
pub const IMMOBILIZER: Kind = Kind(3);
pub const PUSHME: Kind = Kind(4);
pub const ARCHER: Kind = Kind(5);
pub const SHIELD: Kind = Kind(6);
pub const LEAPER: Kind = Kind(7);
pub const SWAPPER: Kind = Kind(8);

/// Letters of the kinds, by index.
pub const NOTATION: Notation = Notation { kind_letters: b"pqkiuaslw", shared_colour: '-' };

/// The deterministic starting position.
pub const START_FEN: &str = "wlqksaui/pppppppp/8/8/8/8/PPPPPPPP/IUASKQLW w 0";

/// A Fugue position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fugue {
    board: Board,
    side: Colour,
    /// Plies played so far (the third FEN field).
    turns: u32,
}

impl Fugue {
    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }
    /// The side to move.
    pub fn side(&self) -> Colour {
        self.side
    }
    /// Whether the side to move has at least one legal turn.
    pub fn has_turn(&self) -> bool {
        let mut c = Counter(0);
        self.generate(&mut c);
        c.0 > 0
    }
}

impl Variant for Fugue {
    type Move = Move;
    type Undo = Option<Piece>;
    const NAME: &'static str = "fugue";
    const RULES: GameRules = GameRules { fifty_moves: true, repetition: Repetition::CompleterLoses };

    fn side_to_move(&self) -> Colour {
        self.side()
    }
    /// Fugue has no check: kings are captured.
    fn in_check(&mut self) -> bool {
        false
    }
    fn is_noisy(&self, m: &Move) -> bool {
        m.cap != moves::NO_SQ || m.flag == moves::DESTROY || m.flag == moves::SHOOT || m.flag >= moves::PROMO
    }
    fn resets_fifty(&self, m: &Move) -> bool {
        self.is_noisy(m) || self.board().get(Square::new(m.from)).is_some_and(|p| p.kind == PAWN)
    }
    fn board(&self) -> Option<&Board> {
        Some(Fugue::board(self))
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
        if opts.randomness == 0 {
            return Fugue::from_fen(START_FEN);
        }
        let (white, black) = chimere_core::random::arrays(opts.randomness, opts.seed, *b"iuaskqlw", |rng| {
            let mut r = *b"wlqksaui";
            rng.shuffle(&mut r);
            r
        });
        let black: String = black.iter().map(|&c| c as char).collect();
        let white: String = white.iter().map(|&c| (c as char).to_ascii_uppercase()).collect();
        Fugue::from_fen(&format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w 0"))
    }

    fn from_fen(fen: &str) -> Result<Self, RulesError> {
        text::parse_fen(fen)
    }

    fn fen(&self) -> String {
        text::write_fen(self)
    }

    fn legal_turns(&mut self, out: &mut Vec<Move>) {
        self.generate(out);
    }

    #[inline(always)]
    fn make(&mut self, m: &Move) -> Option<Piece> {
        self.play(*m)
    }

    #[inline(always)]
    fn unmake(&mut self, m: &Move, undo: Option<Piece>) {
        self.unplay(*m, undo);
    }

    fn status(&mut self) -> Status {
        let no_king = self.board.pieces(Piece::new(self.side, KING)).is_empty();
        if no_king || !self.has_turn() { Status::win_for(self.side.opponent()) } else { Status::Ongoing }
    }

    fn canonical(&self, m: &Move) -> String {
        text::canonical(self, *m)
    }

    fn notation(&self, m: &Move) -> String {
        text::notation(self, *m)
    }

    fn hash(&self) -> u64 {
        self.board.hash() ^ side_key(self.side)
    }

    fn recomputed_hash(&self) -> u64 {
        self.board.recomputed_hash() ^ side_key(self.side)
    }

    fn count_turns(&mut self, _: &mut Vec<Move>) -> u64 {
        let mut c = Counter(0);
        self.generate(&mut c);
        c.0
    }
}

#[inline]
fn side_key(c: Colour) -> u64 {
    if c == Colour::Black { zobrist::SIDE } else { 0 }
}

#[cfg(test)]
mod tests;
