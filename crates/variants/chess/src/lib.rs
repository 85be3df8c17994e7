//! # Orthodox chess
//!
//! FIDE rules of play (`../shared/spec/chess.md`): castling with the king to the c- or
//! g-file and the rook beside it, generalised to Chess960 (king and rooks on any files of
//! the first rank; every square between the king and its destination and between the rook
//! and its destination empty but for those two; the king not in check and not crossing or
//! landing on an attacked square); en passant; promotion to queen, rook, bishop or knight;
//! checkmate loses, stalemate is a draw. Repetition, the fifty-move rule and insufficient
//! material are game-level draws (see [`game_level`]) and never change a position's status.
//!
//! Every FEN dialect is read through the core's one orthodox [`chimere_core::Setup`]
//! (standard/X-FEN/Shredder-FEN and vchess FEN, told apart by their third field) and
//! validated as a legal game ([`Chess::from_setup`]); [`Chess::fen`] writes vchess FEN,
//! [`Chess::standard_fen`] standard FEN. The hash is the core's one scheme, shared with the
//! fairy engine: equal positions hash equal in both, and the en passant square counts only
//! when a capture onto it is possible (so transpositions repeat).
//!
//! This is the fast base: strictly legal generation from check and pin masks on magic
//! bitboards (the king's steps and castling's path tested square by square, after the
//! squares enemy pawns and the enemy king attack are removed set-wise; unpinned pawns move
//! set-wise), moves handed out in bulk per piece to a sink (a list or a counter), and
//! make/unmake through the core's effect board. Perft has its own count (a node's moves on
//! the stack, the last ply counted per piece when bulk). For the search: the noisy moves
//! alone, and whether any move exists without counting them in most positions; the quiet
//! moves alone (generated after the noisy ones did not end a node).

mod fen;
pub mod game_level;
mod movegen;
mod notation;
mod perft;
pub mod uci;

use chimere_core::{
    Bitboard, Board, Colour, Displacement, GameOptions, GameRules, Notation, Piece, RulesError, Square, Status,
    Variant, zobrist,
};

pub use movegen::{Flag, Move};
pub use uci::castling_token;

/// Piece kinds of orthodox chess (the core's orthodox kinds).
pub use chimere_core::setup::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};

/// Letters of the kinds, in kind order.
pub const NOTATION: Notation = chimere_core::setup::ORTHODOX;

/// Castling-right slots: white queen side, white king side, black queen side, black king side.
const WQ: usize = chimere_core::setup::WHITE_QUEEN_SIDE;
const WK: usize = chimere_core::setup::WHITE_KING_SIDE;
const BQ: usize = chimere_core::setup::BLACK_QUEEN_SIDE;
const BK: usize = chimere_core::setup::BLACK_KING_SIDE;

/// An orthodox chess position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chess {
    board: Board,
    side: Colour,
    /// Rook file of each castling right still held, by slot (`WQ`..`BK`).
    castling: [Option<u8>; 4],
    /// The square a pawn skipped with its two-square step on the previous turn.
    ep: Option<Square>,
    /// Plies since the last capture or pawn move (standard FEN's half-move clock).
    halfmove: u32,
    /// Complete turns (plies) played so far (vchess FEN's third field).
    plies: u32,
    /// Hash of everything but the pieces (side, castling, en passant).
    state_key: u64,
}

/// What [`Chess::unmake`] needs to restore a position.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: Option<Piece>,
    castling: [Option<u8>; 4],
    ep: Option<Square>,
    halfmove: u32,
    state_key: u64,
}

use chimere_core::setup::back_rank;

/// The hash of everything but the pieces, by the core's one scheme (shared with the fairy
/// engine): side, castling rights by rook file, and the en passant square only when a
/// pawn of the side to move could capture onto it ([`zobrist::en_passant`]).
fn state_key(board: &Board, side: Colour, castling: &[Option<u8>; 4], ep: Option<Square>) -> u64 {
    let mut k = if side == Colour::Black { zobrist::SIDE } else { 0 };
    k ^= castling_key(castling);
    if let Some(sq) = ep {
        k ^= zobrist::en_passant(sq, side, board.pieces(Piece::new(side, PAWN)));
    }
    k
}

/// The key of the castling rights held.
#[inline]
fn castling_key(castling: &[Option<u8>; 4]) -> u64 {
    let mut k = 0;
    for (slot, f) in castling.iter().enumerate() {
        if let Some(f) = f {
            k ^= zobrist::castling(slot, *f);
        }
    }
    k
}

impl Chess {
    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }
    /// The side to move.
    pub fn side(&self) -> Colour {
        self.side
    }
    /// Plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    /// Complete turns (plies) played.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    fn king_square(&self, c: Colour) -> Option<Square> {
        self.board.pieces(Piece::new(c, KING)).first()
    }

    /// Pieces of `by` attacking `sq`, with `occupied` as the blockers.
    pub fn attackers(&self, sq: Square, by: Colour, occupied: Bitboard) -> Bitboard {
        use chimere_core::attacks;
        let b = &self.board;
        let queens = b.kind(QUEEN);
        let found = (attacks::knight(sq) & b.kind(KNIGHT))
            | (attacks::king(sq) & b.kind(KING))
            | (attacks::pawn(by == Colour::Black, sq) & b.kind(PAWN))
            | (attacks::bishop(sq, occupied) & (b.kind(BISHOP) | queens))
            | (attacks::rook(sq, occupied) & (b.kind(ROOK) | queens));
        found & b.colour(by)
    }

    /// Every square `by` attacks, with `occupied` as the blockers.
    #[inline]
    pub fn attacked_by(&self, by: Colour, occupied: Bitboard) -> Bitboard {
        use chimere_core::attacks;
        let b = &self.board;
        let theirs = b.colour(by);
        let queens = b.kind(QUEEN);
        let mut att = self.pawn_and_king_attacks(by);
        for s in b.kind(KNIGHT) & theirs {
            att |= attacks::knight(s);
        }
        for s in (b.kind(BISHOP) | queens) & theirs {
            att |= attacks::bishop(s, occupied);
        }
        for s in (b.kind(ROOK) | queens) & theirs {
            att |= attacks::rook(s, occupied);
        }
        att
    }

    /// The squares the pawns and the king of `by` attack (neither depends on blockers).
    #[inline]
    pub(crate) fn pawn_and_king_attacks(&self, by: Colour) -> Bitboard {
        use chimere_core::attacks;
        let b = &self.board;
        let theirs = b.colour(by);
        let pawns = b.kind(PAWN) & theirs;
        let (a_side, h_side) = (pawns & !Bitboard::file(0), pawns & !Bitboard::file(7));
        let mut att = if by == Colour::Black {
            Bitboard(a_side.0 >> 9 | h_side.0 >> 7)
        } else {
            Bitboard(a_side.0 << 7 | h_side.0 << 9)
        };
        for s in b.kind(KING) & theirs {
            att |= attacks::king(s);
        }
        att
    }

    /// Whether a knight or a slider of `by` attacks `sq`, with `occupied` as the blockers.
    #[inline]
    pub(crate) fn attacked_by_knight_or_slider(&self, sq: Square, by: Colour, occupied: Bitboard) -> bool {
        use chimere_core::attacks;
        let b = &self.board;
        let theirs = b.colour(by);
        let queens = b.kind(QUEEN);
        (attacks::knight(sq) & b.kind(KNIGHT) & theirs).any()
            || (attacks::bishop(sq, occupied) & (b.kind(BISHOP) | queens) & theirs).any()
            || (attacks::rook(sq, occupied) & (b.kind(ROOK) | queens) & theirs).any()
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.king_square(self.side)
            .is_some_and(|k| self.attackers(k, self.side.opponent(), self.board.occupied()).any())
    }

    /// Passes the turn (a "null move", for search pruning; not a legal turn of the game):
    /// the other side moves, the en-passant square is cleared. Undone by
    /// [`Chess::unmake_null`].
    pub fn make_null(&mut self) -> Undo {
        let undo = Undo {
            captured: None,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            state_key: self.state_key,
        };
        self.ep = None;
        self.halfmove += 1;
        self.plies += 1;
        self.side = self.side.opponent();
        self.state_key = state_key(&self.board, self.side, &self.castling, self.ep);
        undo
    }

    /// Takes back [`Chess::make_null`].
    pub fn unmake_null(&mut self, u: Undo) {
        self.side = self.side.opponent();
        self.ep = u.ep;
        self.halfmove = u.halfmove;
        self.plies -= 1;
        self.state_key = u.state_key;
    }

    fn recompute_state_key(&self) -> u64 {
        state_key(&self.board, self.side, &self.castling, self.ep)
    }
}

impl Variant for Chess {
    type Move = Move;
    type Undo = Undo;
    const NAME: &'static str = "chess";

    fn new_game(opts: &GameOptions) -> Result<Self, RulesError> {
        opts.check(&[])?;
        let (board, castling) = chimere_core::random::chess_like_start(opts.randomness, opts.seed);
        let fen = format!("{board} w 0 {castling} -");
        Chess::from_fen(&fen)
    }

    fn from_fen(text: &str) -> Result<Self, RulesError> {
        fen::parse(text)
    }

    fn fen(&self) -> String {
        fen::write_vchess(self)
    }

    fn legal_turns(&mut self, out: &mut Vec<Move>) {
        movegen::generate(self, &mut movegen::ListSink(out));
    }

    const RULES: GameRules = GameRules::ORTHODOX;

    fn side_to_move(&self) -> Colour {
        self.side
    }
    fn in_check(&mut self) -> bool {
        Chess::in_check(self)
    }
    fn noisy_turns(&mut self, out: &mut Vec<Move>) -> bool {
        movegen::generate_noisy(self, &mut movegen::ListSink(out));
        // Without a noisy turn, look for a quiet one.
        !out.is_empty() || movegen::has_legal_move(self)
    }
    fn quiet_turns(&mut self, out: &mut Vec<Move>) {
        movegen::generate_quiet(self, &mut movegen::ListSink(out));
    }
    const SPLIT_TURNS: bool = true;
    fn gives_check(&self, m: &Move) -> Option<bool> {
        use chimere_core::attacks;
        // Castling moves two units: played to be seen.
        if m.flag == Flag::Castle {
            return None;
        }
        let us = self.side;
        let Some(ksq) = self.king_square(us.opponent()) else { return Some(false) };
        let b = &self.board;
        let mover = b.get(m.from)?;
        let kind = match m.flag {
            Flag::Promote(k) => k,
            _ => mover.kind,
        };
        let captured = match m.flag {
            Flag::EnPassant => Square::from_coords(m.to.file(), m.from.rank()),
            _ => m.to,
        };
        let mut occ = b.occupied();
        occ.clear(m.from);
        occ.clear(captured);
        occ.set(m.to);
        // The mover from its new square, then the side's sliders through the squares the
        // turn emptied (in a legal position nothing of the side attacks the enemy king
        // before its turn, so only a line opened by the turn can give a discovered check).
        let direct = match kind {
            PAWN => attacks::pawn(us == Colour::Black, ksq),
            KNIGHT => attacks::knight(ksq),
            BISHOP => attacks::bishop(ksq, occ),
            ROOK => attacks::rook(ksq, occ),
            QUEEN => attacks::queen(ksq, occ),
            KING => attacks::king(ksq),
            _ => return None,
        };
        if direct.has(m.to) {
            return Some(true);
        }
        let opened = attacks::line(ksq, m.from).any() || (captured != m.to && attacks::line(ksq, captured).any());
        if !opened {
            return Some(false);
        }
        let queens = b.kind(QUEEN);
        let sliders = (attacks::bishop(ksq, occ) & (b.kind(BISHOP) | queens))
            | (attacks::rook(ksq, occ) & (b.kind(ROOK) | queens));
        Some((sliders & b.colour(us) & !Bitboard::from_square(m.from)).any())
    }
    fn displacement(&self, m: &Move) -> Option<Displacement> {
        let (from, to) = (m.from, m.to);
        let on_to = self.board.get(to).map(|_| to);
        match m.flag {
            Flag::Castle => None,
            Flag::Normal | Flag::DoublePush => Some(Displacement { from, to, captured: on_to, becomes: None }),
            Flag::Promote(k) => Some(Displacement { from, to, captured: on_to, becomes: Some(k) }),
            Flag::EnPassant => Some(Displacement {
                from,
                to,
                captured: Some(Square::from_coords(to.file(), from.rank())),
                becomes: None,
            }),
        }
    }
    fn is_noisy(&self, m: &Move) -> bool {
        match m.flag {
            Flag::EnPassant | Flag::Promote(_) => true,
            Flag::Castle => false,
            Flag::Normal | Flag::DoublePush => self.board.get(m.to).is_some(),
        }
    }
    fn resets_fifty(&self, m: &Move) -> bool {
        m.flag != Flag::Castle && (self.is_noisy(m) || self.board.get(m.from).is_some_and(|p| p.kind == PAWN))
    }
    fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    fn insufficient_material(&self) -> bool {
        game_level::insufficient_material(self)
    }
    fn board(&self) -> Option<&Board> {
        Some(&self.board)
    }
    fn make_pass(&mut self) -> Option<Undo> {
        Some(self.make_null())
    }
    fn unmake_pass(&mut self, undo: Undo) {
        self.unmake_null(undo);
    }
    fn for_each_piece(&self, f: &mut dyn FnMut(Square, Piece)) {
        for (s, p) in self.board.iter() {
            f(s, p);
        }
    }
    fn uci(&self, m: &Move, chess960: bool) -> String {
        self.uci_token(m, chess960)
    }

    fn perft_leaves(&mut self, depth: u32, bulk: bool) -> u64 {
        perft::count(self, depth, bulk)
    }

    fn count_turns(&mut self, _scratch: &mut Vec<Move>) -> u64 {
        let mut c = movegen::CountSink(0);
        movegen::generate(self, &mut c);
        c.0
    }

    #[inline(always)]
    fn make(&mut self, m: &Move) -> Undo {
        let undo = Undo {
            captured: None,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            state_key: self.state_key,
        };
        let us = self.side;
        let them = us.opponent();
        // The en passant key counted now depends on the board before the move.
        let old_ep_key = match self.ep {
            Some(sq) => zobrist::en_passant(sq, us, self.board.pieces(Piece::new(us, PAWN))),
            None => 0,
        };
        let b = &mut self.board;
        let mut captured = None;
        let moving = b.get(m.from).expect("a legal move starts from a piece");
        let mut reset_clock = moving.kind == PAWN;
        match m.flag {
            Flag::Castle => {
                // `to` is the rook's square.
                b.take(m.from);
                let rook = b.take(m.to).expect("castling rook");
                let rank = back_rank(us);
                let king_side = m.to.file() > m.from.file();
                let (kf, rf) = if king_side { (6, 5) } else { (2, 3) };
                b.put(Square::from_coords(kf, rank), moving);
                b.put(Square::from_coords(rf, rank), rook);
            }
            Flag::EnPassant => {
                let cap = Square::from_coords(m.to.file(), m.from.rank());
                captured = b.take(cap);
                b.relocate(m.from, m.to);
            }
            Flag::Normal | Flag::DoublePush => {
                captured = b.take(m.to);
                b.relocate(m.from, m.to);
            }
            Flag::Promote(kind) => {
                b.take(m.from);
                captured = b.take(m.to);
                b.put(m.to, Piece::new(us, kind));
            }
        }
        if captured.is_some() {
            reset_clock = true;
        }
        // Castling rights (each right lost leaves the state key).
        let mut key = undo.state_key ^ zobrist::SIDE ^ old_ep_key;
        // Slots by index: the side's queen-side slot, then its king-side slot.
        let (mine, theirs) = if us == Colour::White { (WQ, BQ) } else { (BQ, WQ) };
        if moving.kind == KING || m.from.rank() == back_rank(us) {
            for s in mine..mine + 2 {
                if let Some(f) = self.castling[s]
                    && (moving.kind == KING || f == m.from.file())
                {
                    self.castling[s] = None;
                    key ^= zobrist::castling(s, f);
                }
            }
        }
        if m.to.rank() == back_rank(them) {
            for s in theirs..theirs + 2 {
                if self.castling[s] == Some(m.to.file()) {
                    self.castling[s] = None;
                    key ^= zobrist::castling(s, m.to.file());
                }
            }
        }
        self.ep = if m.flag == Flag::DoublePush {
            Some(Square::from_coords(m.from.file(), (m.from.rank() + m.to.rank()) / 2))
        } else {
            None
        };
        self.halfmove = if reset_clock { 0 } else { self.halfmove + 1 };
        self.plies += 1;
        self.side = them;
        // The state key: side and rights done above, the en passant square if it counts.
        if let Some(sq) = self.ep {
            key ^= zobrist::en_passant(sq, them, self.board.pieces(Piece::new(them, PAWN)));
        }
        self.state_key = key;
        Undo { captured, ..undo }
    }

    #[inline(always)]
    fn unmake(&mut self, m: &Move, u: Undo) {
        let them = self.side;
        let us = them.opponent();
        let b = &mut self.board;
        match m.flag {
            Flag::Castle => {
                let rank = back_rank(us);
                let king_side = m.to.file() > m.from.file();
                let (kf, rf) = if king_side { (6, 5) } else { (2, 3) };
                let king = b.take(Square::from_coords(kf, rank)).expect("castled king");
                let rook = b.take(Square::from_coords(rf, rank)).expect("castled rook");
                b.put(m.to, rook);
                b.put(m.from, king);
            }
            Flag::EnPassant => {
                b.relocate(m.to, m.from).expect("en passant pawn");
                if let Some(c) = u.captured {
                    b.put(Square::from_coords(m.to.file(), m.from.rank()), c);
                }
            }
            Flag::Normal | Flag::DoublePush => {
                b.relocate(m.to, m.from).expect("moved piece");
                if let Some(c) = u.captured {
                    b.put(m.to, c);
                }
            }
            Flag::Promote(_) => {
                b.take(m.to);
                b.put(m.from, Piece::new(us, PAWN));
                if let Some(c) = u.captured {
                    b.put(m.to, c);
                }
            }
        }
        self.side = us;
        self.castling = u.castling;
        self.ep = u.ep;
        self.halfmove = u.halfmove;
        self.plies -= 1;
        self.state_key = u.state_key;
    }

    fn status(&mut self) -> Status {
        let mut c = movegen::CountSink(0);
        movegen::generate(self, &mut c);
        if c.0 > 0 {
            Status::Ongoing
        } else if self.in_check() {
            Status::win_for(self.side.opponent())
        } else {
            Status::Draw
        }
    }

    fn canonical(&self, m: &Move) -> String {
        let effects = self.effects(m);
        if m.flag == Flag::Castle {
            // Castling lists both units, even one ending where it started (spec README).
            let (mut removed, mut added) = (Vec::new(), Vec::new());
            for e in effects {
                match e {
                    chimere_core::Effect::Remove(s, p) => removed.push((s, p)),
                    chimere_core::Effect::Add(s, p) => added.push((s, p)),
                }
            }
            return chimere_core::canonical::part(&removed, &added, &NOTATION, "");
        }
        chimere_core::canonical::part_from_effects(&effects, &NOTATION, "")
    }

    fn notation(&self, m: &Move) -> String {
        notation::san(self, m)
    }

    fn hash(&self) -> u64 {
        self.board.hash() ^ self.state_key
    }

    fn recomputed_hash(&self) -> u64 {
        self.board.recomputed_hash() ^ self.recompute_state_key()
    }
}

impl Chess {
    /// The board effects of a move, in play order (used for the canonical form).
    pub fn effects(&self, m: &Move) -> Vec<chimere_core::Effect> {
        use chimere_core::Effect::{Add, Remove};
        let b = &self.board;
        let Some(moving) = b.get(m.from) else { return Vec::new() };
        let us = moving.colour;
        match m.flag {
            Flag::Castle => {
                let rank = back_rank(us);
                let king_side = m.to.file() > m.from.file();
                let (kf, rf) = if king_side { (6, 5) } else { (2, 3) };
                let rook = b.get(m.to).unwrap_or(Piece::new(us, ROOK));
                vec![
                    Remove(m.from, moving),
                    Remove(m.to, rook),
                    Add(Square::from_coords(kf, rank), moving),
                    Add(Square::from_coords(rf, rank), rook),
                ]
            }
            Flag::EnPassant => {
                let cap = Square::from_coords(m.to.file(), m.from.rank());
                let mut v = vec![Remove(m.from, moving)];
                if let Some(c) = b.get(cap) {
                    v.push(Remove(cap, c));
                }
                v.push(Add(m.to, moving));
                v
            }
            Flag::Normal | Flag::DoublePush | Flag::Promote(_) => {
                let mut v = vec![Remove(m.from, moving)];
                if let Some(c) = b.get(m.to) {
                    v.push(Remove(m.to, c));
                }
                let arriving = if let Flag::Promote(k) = m.flag { Piece::new(us, k) } else { moving };
                v.push(Add(m.to, arriving));
                v
            }
        }
    }
}
