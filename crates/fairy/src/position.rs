//! The position: core [`Board`] (colour and kind of every unit) plus what fairy chess adds
//! per unit (attributes, diagram square), the underworld (units hidden under a square),
//! castling rights, en passant, the side to move and the move counters. It changes only
//! through [`Fx`] effects recorded in a journal; unmaking a move replays its effects
//! backwards.
//!
//! The orthodox part is built from and written to the core's one orthodox
//! [`chimere_core::Setup`] ([`Position::from_setup`], [`Position::setup`]), and hashed by
//! the core's one Zobrist scheme: an orthodox position hashes as in the chess crate.
//! Castling follows Chess960: [`CastlingHomes`] says on which files the king and each
//! castling rook start (the e-, a- and h-files unless a FEN says otherwise).
//!
//! Hashing of state: castling rights count per right that is usable (king and rook bits
//! both held), by rook file; the en passant square counts only when a pawn could take
//! onto it ([`chimere_core::zobrist::en_passant`]). A game under conditions sets
//! [`Position::set_exact_state`]: then the en passant square always counts and so do
//! rights bits held without their partner (a rook reborn on its corner may make them
//! usable again), so that positions whose futures differ never hash equal.

use arrayvec::ArrayVec;
use chimere_core::{Bitboard, Colour, Effect, Kind, Piece, Square, zobrist};

/// The fairy engine's board: per-kind sets for the whole piece table ([`crate::walk::WALKS`]),
/// the next power of two of its length. Only this engine carries a table that large; the
/// orthodox-based variants keep the core's 16-kind board.
pub type Board = chimere_core::Board<{ crate::walk::KINDS.next_power_of_two() }>;
// Every kind of the piece table has its set (a table past `Kind::MAX` fails here too).
const _: () = assert!(crate::walk::KINDS <= Board::KINDS);

/// Unit attribute: the unit disappears after each of its captures.
pub const KAMIKAZE: u8 = 1;
/// Unit attribute: the unit can no longer be captured (a ghost that came back).
pub const UNCAPTURABLE: u8 = 2;
/// Unit attribute: the unit is royal (explicitly; kings are royal anyway).
pub const ROYAL: u8 = 4;
/// Unit attribute: the unit changes colour the first time it moves to a square of the
/// other colour (Volage), then loses this attribute.
pub const VOLAGE: u8 = 8;
/// Unit attribute: after each of its moves the unit changes kind, knight to bishop to rook
/// to queen to knight (Popeye's piece attribute `Chameleon`).
pub const CHAMELEON: u8 = 16;
/// Unit attribute: each hurdle the unit hops over changes colour, kings and neutral units
/// excepted (Popeye's piece attribute `HurdleColourChanging`, written `hcc`).
pub const HURDLE_COLOUR_CHANGING: u8 = 32;

/// "No diagram square" marker for [`Unit::origin`].
pub const NO_ORIGIN: u8 = 64;

/// One unit: colour and kind, attribute bits, the square it stood on in the diagram, and
/// the walks it has gained beyond its kind's (bit `k` = the walk of `Kind(k)`; 0 = none).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Unit {
    pub piece: Piece,
    pub attrs: u8,
    pub origin: u8,
    pub powers: u16,
}

impl Unit {
    pub const fn new(colour: Colour, kind: Kind) -> Unit {
        Unit { piece: Piece::new(colour, kind), attrs: 0, origin: NO_ORIGIN, powers: 0 }
    }
    #[inline]
    pub const fn colour(self) -> Colour {
        self.piece.colour
    }
    #[inline]
    pub const fn kind(self) -> Kind {
        self.piece.kind
    }
    #[inline]
    pub const fn with_kind(self, kind: Kind) -> Unit {
        Unit { piece: Piece::new(self.piece.colour, kind), ..self }
    }
    #[inline]
    pub const fn with_colour(self, colour: Colour) -> Unit {
        Unit { piece: Piece::new(colour, self.piece.kind), ..self }
    }
    #[inline]
    pub const fn has(self, attr: u8) -> bool {
        self.attrs & attr != 0
    }
    /// The walks this unit has beyond its own kind's, as kinds (bit set of [`Unit::powers`]
    /// minus its own kind).
    #[inline]
    pub const fn extra_powers(self) -> u16 {
        self.powers & !(1u16 << (self.piece.kind.0 & 15))
    }
    pub fn origin_square(self) -> Option<Square> {
        Square::try_new(self.origin)
    }
}

/// En passant state: the square a capturing pawn lands on, and the pawn that may be taken.
#[derive(Copy, Clone, Eq, Debug)]
pub struct EnPassant {
    pub target: Square,
    pub pawn: Square,
    /// A second square the pawn passed over (a three-square step): it may be taken there
    /// too.
    pub also: Option<Square>,
    /// Whether the hash counts this en passant state: set by the position when the state
    /// is set ([`Position::set_ep`]) from the board of that moment; ignored by equality.
    pub hashed: bool,
}

impl EnPassant {
    /// An en passant state (the position decides [`EnPassant::hashed`]).
    pub const fn new(target: Square, pawn: Square, also: Option<Square>) -> EnPassant {
        EnPassant { target, pawn, also, hashed: true }
    }
}

impl PartialEq for EnPassant {
    fn eq(&self, o: &Self) -> bool {
        self.target == o.target && self.pawn == o.pawn && self.also == o.also
    }
}

impl std::hash::Hash for EnPassant {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (self.target, self.pawn, self.also).hash(h)
    }
}

/// The files castling units start from: the king of each colour (white, black) and the
/// rook of each castling slot (white queen side, white king side, black queen side, black
/// king side — the [`W_QUEENSIDE`].. bits). Orthodox: e, a, h.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct CastlingHomes {
    pub king: [u8; 2],
    pub rook: [u8; 4],
}

impl CastlingHomes {
    pub const ORTHODOX: CastlingHomes = CastlingHomes { king: [4, 4], rook: [0, 7, 0, 7] };

    /// The king's home square of a player.
    pub fn king_square(&self, c: Colour) -> Square {
        let i = (c == Colour::Black) as usize;
        Square::from_coords(self.king[i], chimere_core::setup::back_rank(c))
    }
    /// The home square of the rook of castling slot `slot` (0..4).
    pub fn rook_square(&self, slot: usize) -> Square {
        Square::from_coords(self.rook[slot], chimere_core::setup::back_rank(chimere_core::setup::slot_colour(slot)))
    }
    /// Every square these homes tie a castling right to.
    pub fn squares(&self) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for c in Colour::PLAYERS {
            b.set(self.king_square(c));
        }
        for slot in 0..4 {
            b.set(self.rook_square(slot));
        }
        b
    }
}

/// The rook bit of each castling slot (white queen side, white king side, black queen
/// side, black king side).
pub const SLOT_BITS: [u8; 4] = [W_QUEENSIDE, W_KINGSIDE, B_QUEENSIDE, B_KINGSIDE];

/// The king bit of a slot's colour.
#[inline]
const fn slot_king_bit(slot: usize) -> u8 {
    if slot < 2 { W_KING } else { B_KING }
}

/// The last move played, for rules that look at it (kept only when a rule set asks for
/// it, so that positions stay equal across move orders otherwise).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct LastMove {
    pub from: Square,
    pub to: Square,
    pub capture: bool,
    /// The unit standing on `to` after the move is the one that left `from` (false after
    /// a promotion or any other change of the moved unit).
    pub same_unit: bool,
    /// The position before the move had en passant rights.
    pub ep_before: bool,
}

/// Castling right bits: white king, white a-rook, white h-rook, then the same for black.
pub const W_KING: u8 = 1;
pub const W_QUEENSIDE: u8 = 2;
pub const W_KINGSIDE: u8 = 4;
pub const B_KING: u8 = 8;
pub const B_QUEENSIDE: u8 = 16;
pub const B_KINGSIDE: u8 = 32;

/// The castling-right bits tied to a square of the orthodox array (see
/// [`Position::rights_of_square`] for the position's own homes, Chess960 included).
pub const fn rights_of_square(sq: Square) -> u8 {
    match sq.index() {
        4 => W_KING,
        0 => W_QUEENSIDE,
        7 => W_KINGSIDE,
        60 => B_KING,
        56 => B_QUEENSIDE,
        63 => B_KINGSIDE,
        _ => 0,
    }
}

/// An open journal frame: where its effects start, and the outer frame's
/// [`Position::vacated`].
#[derive(Copy, Clone, Debug)]
struct Frame {
    start: u32,
    vacated: Bitboard,
}

/// One recorded change of the position.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Fx {
    Remove(Square, Unit),
    Add(Square, Unit),
    /// Insert a unit into the underworld list at index `at`.
    Bury(Square, Unit, u8),
    /// Remove the unit at index `at` of the underworld list.
    Unbury(Square, Unit, u8),
    Rights(u8, u8),
    Ep(Option<EnPassant>, Option<EnPassant>),
    /// The side to move changes and a move is counted: plies + 1, the half-move clock
    /// from the first value to the second (reset or + 1).
    Side(u16, u16),
    /// Undoes [`Fx::Side`] (plies - 1, the clock from the first value back to the second).
    Unside(u16, u16),
    /// The turn state changed (the previous one is kept on a stack, see [`Turn`]).
    Turn,
    /// Undoes [`Fx::Turn`]: the previous turn state comes back from the stack.
    TurnUndo,
    /// The last move field changes (old, new).
    Last(Option<LastMove>, Option<LastMove>),
    /// Toggle a hole: a square no unit may stand on or pass over (its own inverse).
    Hole(Square),
}

impl Fx {
    fn inverse(self) -> Fx {
        match self {
            Fx::Remove(s, u) => Fx::Add(s, u),
            Fx::Add(s, u) => Fx::Remove(s, u),
            Fx::Bury(s, u, i) => Fx::Unbury(s, u, i),
            Fx::Unbury(s, u, i) => Fx::Bury(s, u, i),
            Fx::Rights(a, b) => Fx::Rights(b, a),
            Fx::Ep(a, b) => Fx::Ep(b, a),
            Fx::Side(a, b) => Fx::Unside(b, a),
            Fx::Unside(a, b) => Fx::Side(b, a),
            Fx::Turn => Fx::TurnUndo,
            Fx::TurnUndo => Fx::Turn,
            Fx::Last(a, b) => Fx::Last(b, a),
            Fx::Hole(s) => Fx::Hole(s),
        }
    }
}

/// The state of a multi-move turn (all zero under single-move rules, and then it costs
/// nothing): which part of the turn comes next, the unit that must move next, and what
/// the rules need to remember across the parts of a turn. Part of the position, of its
/// equality and of its hash; changed only through the journal ([`Position::set_turn`]).
/// The engine reads two fields itself: [`Turn::unit`] (only that unit may move) and
/// [`Turn::ep_pawns`] (more pawns that may be taken en passant); the rest is the
/// conditions' business.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Turn {
    /// Turns completed since the diagram.
    pub number: u16,
    /// Moves already played in the current turn.
    pub part: u16,
    /// The square of the unit that must make the next move, if the rules say so.
    pub unit: Option<Square>,
    /// Squares the rules remember during the turn.
    pub marks: u64,
    /// Pawns (squares) that may be taken en passant besides [`Position::ep`]: a pawn of
    /// the side to move may capture such a pawn by moving to the square behind it.
    pub ep_pawns: u64,
    /// A hash the rules remember (e.g. of the board when the turn began).
    pub start: u64,
}

#[inline]
fn turn_key(t: Turn) -> u64 {
    if t == Turn::default() {
        return 0;
    }
    let a = mix(0x7E77_0000_0000_0000
        ^ (t.number as u64) << 32
        ^ (t.part as u64) << 16
        ^ t.unit.map_or(0xFF, |s| s.index() as u64));
    a ^ mix(t.marks ^ 0x1357_9BDF_2468_ACE0)
        ^ mix(t.ep_pawns ^ 0x0F1E_2D3C_4B5A_6978)
        ^ mix(t.start ^ 0x5555_AAAA_3333_CCCC)
}

/// Maximum number of hidden units.
pub const UNDER_MAX: usize = 32;

#[inline]
fn mix(mut x: u64) -> u64 {
    x ^= x >> 31;
    x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= x >> 29;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^ (x >> 32)
}

/// Hash of what a unit carries beyond its piece (attributes and diagram square).
#[inline]
fn extra_key(sq: Square, u: Unit) -> u64 {
    if u.attrs == 0 && u.origin == NO_ORIGIN && u.powers == 0 {
        0
    } else {
        mix(0xA5A5_0000_0000_0000
            ^ (u.powers as u64) << 24
            ^ (sq.index() as u64) << 16
            ^ (u.attrs as u64) << 8
            ^ u.origin as u64)
    }
}

#[inline]
fn under_key(sq: Square, u: Unit, depth: usize) -> u64 {
    mix(0x5A5A_0000_0000_0000
        ^ (u.powers as u64) << 48
        ^ (depth as u64) << 40
        ^ (sq.index() as u64) << 32
        ^ (u.piece.code() as u64) << 16
        ^ (u.attrs as u64) << 8
        ^ u.origin as u64)
}

#[inline]
fn hole_key(sq: Square) -> u64 {
    mix(0x3C3C_0000_0000_0000 ^ sq.index() as u64)
}

/// A fairy-chess position with its effect journal.
#[derive(Clone, Debug)]
pub struct Position {
    board: Board,
    attrs: [u8; 64],
    origin: [u8; 64],
    /// Gained walks per square ([`Unit::powers`]).
    powers: [u16; 64],
    under: ArrayVec<(Square, Unit), UNDER_MAX>,
    side: Colour,
    rights: u8,
    homes: CastlingHomes,
    /// The squares [`Position::rights_of_square`] gives rights to (kings' and castling
    /// rooks' homes), so that the play pipeline can skip every other square at once.
    castle_squares: Bitboard,
    ep: Option<EnPassant>,
    /// Plies played (vchess's counter) and plies since the last capture or pawn move.
    plies: u32,
    halfmove: u16,
    /// Hash every state field exactly (under conditions; see the module text).
    exact: bool,
    turn: Turn,
    /// Previous turn states, one per [`Fx::Turn`] in the journal.
    turn_undo: Vec<Turn>,
    /// Hash of everything but the pieces (which the core board hashes).
    xhash: u64,
    /// Number of units on the board with the [`ROYAL`] attribute.
    royal_attrs: u16,
    /// Holes: squares no unit may stand on, move to or pass over.
    holes: Bitboard,
    journal: Vec<Fx>,
    frames: Vec<Frame>,
    /// The squares of [`Position::castle_squares`] a unit was removed from in the
    /// innermost open frame (saved in the frame below when a frame opens).
    vacated: Bitboard,
    last: Option<LastMove>,
}

impl PartialEq for Position {
    fn eq(&self, o: &Self) -> bool {
        self.board == o.board
            && self.attrs == o.attrs
            && self.origin == o.origin
            && self.powers == o.powers
            && self.under == o.under
            && self.side == o.side
            && self.rights == o.rights
            && self.homes == o.homes
            && self.ep == o.ep
            && self.plies == o.plies
            && self.halfmove == o.halfmove
            && self.turn == o.turn
            && self.xhash == o.xhash
            && self.last == o.last
            && self.holes == o.holes
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::empty()
    }
}

impl Position {
    pub fn empty() -> Position {
        Position {
            board: Board::empty(),
            attrs: [0; 64],
            origin: [NO_ORIGIN; 64],
            powers: [0; 64],
            under: ArrayVec::new(),
            side: Colour::White,
            rights: 0,
            homes: CastlingHomes::ORTHODOX,
            castle_squares: CastlingHomes::ORTHODOX.squares(),
            ep: None,
            plies: 0,
            halfmove: 0,
            exact: false,
            turn: Turn::default(),
            turn_undo: Vec::new(),
            xhash: 0,
            royal_attrs: 0,
            holes: Bitboard::EMPTY,
            journal: Vec::with_capacity(256),
            frames: Vec::with_capacity(64),
            vacated: Bitboard::EMPTY,
            last: None,
        }
    }

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }
    #[inline]
    pub fn side(&self) -> Colour {
        self.side
    }
    #[inline]
    pub fn rights(&self) -> u8 {
        self.rights
    }
    #[inline]
    pub fn ep(&self) -> Option<EnPassant> {
        self.ep
    }
    /// Where the castling units start.
    #[inline]
    pub fn homes(&self) -> CastlingHomes {
        self.homes
    }
    /// Plies played.
    #[inline]
    pub fn plies(&self) -> u32 {
        self.plies
    }
    /// Plies since the last capture or pawn move.
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove as u32
    }
    /// The state of the current turn (default under single-move rules).
    #[inline]
    pub fn turn(&self) -> Turn {
        self.turn
    }
    /// The unit that must make the next move ([`Turn::unit`]).
    #[inline]
    pub fn turn_unit(&self) -> Option<Square> {
        self.turn.unit
    }
    /// More pawns that may be taken en passant ([`Turn::ep_pawns`]).
    #[inline]
    pub fn ep_pawns(&self) -> u64 {
        self.turn.ep_pawns
    }
    /// The last move played (only kept when the rules ask for it).
    #[inline]
    pub fn last_move(&self) -> Option<LastMove> {
        self.last
    }
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.board.occupied()
    }
    /// The unit on a square.
    #[inline]
    pub fn unit(&self, sq: Square) -> Option<Unit> {
        self.board.get(sq).map(|piece| Unit {
            piece,
            attrs: self.attrs[sq.index()],
            origin: self.origin[sq.index()],
            powers: self.powers[sq.index()],
        })
    }
    /// The holes (squares no unit may stand on, move to or pass over).
    #[inline]
    pub fn holes(&self) -> Bitboard {
        self.holes
    }
    /// Whether `sq` is a hole.
    #[inline]
    pub fn is_hole(&self, sq: Square) -> bool {
        self.holes.has(sq)
    }
    /// Whether `sq` holds a unit or is a hole (nothing may be put there).
    #[inline]
    pub fn blocked(&self, sq: Square) -> bool {
        self.board.occupied().has(sq) || self.holes.has(sq)
    }
    /// Squares holding a unit or a hole (what stops a rider).
    #[inline]
    pub fn obstacles(&self) -> Bitboard {
        self.board.occupied() | self.holes
    }
    /// Whether some unit on the board carries the [`ROYAL`] attribute.
    #[inline]
    pub fn has_royal_attrs(&self) -> bool {
        self.royal_attrs != 0
    }
    /// Hidden units, in the order they were put under their squares.
    pub fn underworld(&self) -> &[(Square, Unit)] {
        &self.under
    }
    /// Hidden units under one square, first buried first.
    pub fn under(&self, sq: Square) -> impl Iterator<Item = (usize, Unit)> + '_ {
        self.under.iter().enumerate().filter(move |(_, (s, _))| *s == sq).map(|(i, (_, u))| (i, *u))
    }

    /// The complete hash (pieces, attributes, underworld, rights, en passant, side).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.board.hash() ^ self.xhash
    }

    /// The hash recomputed from scratch.
    pub fn recomputed_hash(&self) -> u64 {
        self.board.recomputed_hash() ^ self.recomputed_xhash()
    }

    fn recomputed_xhash(&self) -> u64 {
        let mut h = 0;
        for (sq, _) in self.board.iter() {
            h ^= extra_key(sq, self.unit(sq).expect("occupied"));
        }
        h ^= self.under_hash_all();
        h ^= self.rights_key(self.rights) ^ Self::ep_key(self.ep) ^ Self::last_key(self.last);
        h ^= turn_key(self.turn);
        for sq in self.holes {
            h ^= hole_key(sq);
        }
        if self.side == Colour::Black {
            h ^= zobrist::SIDE;
        }
        h
    }

    fn under_hash_all(&self) -> u64 {
        let mut h = 0;
        for sq in Square::ALL {
            h ^= self.under_hash(sq);
        }
        h
    }

    fn under_hash(&self, sq: Square) -> u64 {
        let mut h = 0;
        for (depth, (_, u)) in self.under(sq).enumerate() {
            h ^= under_key(sq, u, depth);
        }
        h
    }

    /// The castling key: the core's key of each usable right (king and rook bits held),
    /// by rook file; under [`Position::set_exact_state`] also the bits held alone.
    #[inline]
    fn rights_key(&self, r: u8) -> u64 {
        if r == 0 {
            return 0;
        }
        let mut k = 0;
        let mut unused = r;
        for (slot, &rook_bit) in SLOT_BITS.iter().enumerate() {
            let both = slot_king_bit(slot) | rook_bit;
            if r & both == both {
                k ^= zobrist::castling(slot, self.homes.rook[slot]);
                unused &= !both;
            }
        }
        if self.exact && unused != 0 {
            k ^= mix(0xCA57_0000_0000_0000 ^ unused as u64);
        }
        k
    }
    fn last_key(l: Option<LastMove>) -> u64 {
        l.map_or(0, |l| {
            mix(0x3C3C_0000_0000_0000
                ^ (l.from.index() as u64) << 8
                ^ l.to.index() as u64
                ^ (l.capture as u64) << 16
                ^ (l.same_unit as u64) << 17
                ^ (l.ep_before as u64) << 18)
        })
    }
    #[inline]
    fn ep_key(ep: Option<EnPassant>) -> u64 {
        match ep {
            Some(e) if e.hashed => {
                zobrist::en_passant_square(e.target) ^ e.also.map_or(0, |a| mix(0xE9A5_5000 ^ a.index() as u64))
            }
            _ => 0,
        }
    }

    /// Sets [`EnPassant::hashed`] from the board: always under exact hashing or for a
    /// three-square step, otherwise when a pawn of the opponent of the pawn that stepped
    /// (or a neutral pawn) could capture onto the target (the chess crate's rule).
    fn keyed(&self, ep: Option<EnPassant>) -> Option<EnPassant> {
        let mut e = ep?;
        e.hashed = self.exact
            || e.also.is_some()
            || match self.board.get(e.pawn).map(|p| p.colour) {
                Some(c @ (Colour::White | Colour::Black)) => {
                    let them = c.opponent();
                    let pawns = self.board.kind(crate::walk::PAWN)
                        & (self.board.colour(them) | self.board.colour(Colour::Shared));
                    zobrist::en_passant(e.target, them, pawns) != 0
                }
                _ => true,
            };
        Some(e)
    }

    // ----- set-up (not journalled) -----

    /// Puts a unit on an empty square, or (if occupied) pushes the occupant under it.
    pub fn setup_put(&mut self, sq: Square, u: Unit) {
        if let Some(old) = self.unit(sq) {
            self.raw(Fx::Remove(sq, old));
            let at = self.under.len() as u8;
            if (at as usize) < UNDER_MAX {
                self.raw(Fx::Bury(sq, old, at));
            }
        }
        self.raw(Fx::Add(sq, u));
    }
    /// Replaces the attributes of the unit on `sq` (set-up only).
    pub fn setup_attrs(&mut self, sq: Square, attrs: u8) {
        if let Some(u) = self.unit(sq)
            && u.attrs != attrs
        {
            self.raw(Fx::Remove(sq, u));
            self.raw(Fx::Add(sq, Unit { attrs, ..u }));
        }
    }
    /// Makes `sq` a hole (a unit standing there stays until it moves away).
    pub fn setup_hole(&mut self, sq: Square) {
        if !self.holes.has(sq) {
            self.raw(Fx::Hole(sq));
        }
    }
    pub fn setup_side(&mut self, c: Colour) {
        if c != self.side {
            self.side = c;
            self.xhash ^= zobrist::SIDE;
        }
    }
    pub fn setup_rights(&mut self, r: u8) {
        self.raw(Fx::Rights(self.rights, r));
    }
    /// Sets the castling homes (Chess960 arrays); set-up only.
    pub fn setup_homes(&mut self, homes: CastlingHomes) {
        let r = self.rights;
        self.raw(Fx::Rights(r, 0));
        self.homes = homes;
        self.castle_squares = homes.squares();
        self.raw(Fx::Rights(0, r));
    }
    /// Sets the move counters (set-up only; not hashed).
    pub fn setup_counters(&mut self, plies: u32, halfmove: u32) {
        self.plies = plies;
        self.halfmove = halfmove.min(u16::MAX as u32) as u16;
    }
    pub fn setup_ep(&mut self, ep: Option<EnPassant>) {
        let ep = self.keyed(ep);
        self.raw(Fx::Ep(self.ep, ep));
    }
    /// Hash every state field exactly (a game under conditions; see the module text).
    /// Set-up only: the hash is recomputed.
    pub fn set_exact_state(&mut self, exact: bool) {
        self.exact = exact;
        self.ep = self.keyed(self.ep);
        self.xhash = self.recomputed_xhash();
    }
    /// Whether every state field is hashed exactly.
    pub fn exact_state(&self) -> bool {
        self.exact
    }
    pub fn setup_turn(&mut self, t: Turn) {
        self.xhash ^= turn_key(self.turn) ^ turn_key(t);
        self.turn = t;
    }

    // ----- the journal -----

    /// Applies an effect: the effects of every move inline, the rarer ones (underworld,
    /// turn state) out of line.
    #[inline(always)]
    fn raw(&mut self, fx: Fx) {
        match fx {
            Fx::Remove(sq, u) => {
                self.board.apply(Effect::Remove(sq, u.piece));
                self.xhash ^= extra_key(sq, u);
                self.attrs[sq.index()] = 0;
                self.origin[sq.index()] = NO_ORIGIN;
                self.powers[sq.index()] = 0;
                self.royal_attrs -= u.has(ROYAL) as u16;
            }
            Fx::Add(sq, u) => {
                self.board.apply(Effect::Add(sq, u.piece));
                self.xhash ^= extra_key(sq, u);
                self.attrs[sq.index()] = u.attrs;
                self.origin[sq.index()] = u.origin;
                self.powers[sq.index()] = u.powers;
                self.royal_attrs += u.has(ROYAL) as u16;
            }
            Fx::Rights(old, new) => {
                debug_assert_eq!(old, self.rights);
                self.xhash ^= self.rights_key(old) ^ self.rights_key(new);
                self.rights = new;
            }
            Fx::Ep(old, new) => {
                debug_assert_eq!(old, self.ep);
                self.xhash ^= Self::ep_key(old) ^ Self::ep_key(new);
                self.ep = new;
            }
            Fx::Side(_, half) => {
                self.side = self.side.opponent();
                self.xhash ^= zobrist::SIDE;
                self.plies = self.plies.wrapping_add(1);
                self.halfmove = half;
            }
            Fx::Unside(_, half) => {
                self.side = self.side.opponent();
                self.xhash ^= zobrist::SIDE;
                self.plies = self.plies.wrapping_sub(1);
                self.halfmove = half;
            }
            _ => self.raw_other(fx),
        }
    }

    #[inline(never)]
    fn raw_other(&mut self, fx: Fx) {
        match fx {
            Fx::Remove(..) | Fx::Add(..) | Fx::Rights(..) | Fx::Ep(..) | Fx::Side(..) | Fx::Unside(..) => self.raw(fx),
            Fx::Bury(sq, u, at) => {
                self.xhash ^= self.under_hash(sq);
                self.under.insert(at as usize, (sq, u));
                self.xhash ^= self.under_hash(sq);
            }
            Fx::Unbury(sq, u, at) => {
                self.xhash ^= self.under_hash(sq);
                let got = self.under.remove(at as usize);
                debug_assert_eq!(got, (sq, u));
                self.xhash ^= self.under_hash(sq);
            }
            // Applied by `set_turn` (the new state is not in the effect).
            Fx::Turn => unreachable!("Fx::Turn is applied by set_turn"),
            Fx::TurnUndo => {
                let old = self.turn_undo.pop().expect("a turn state to restore");
                self.xhash ^= turn_key(self.turn) ^ turn_key(old);
                self.turn = old;
            }
            Fx::Last(old, new) => {
                debug_assert_eq!(old, self.last);
                self.xhash ^= Self::last_key(old) ^ Self::last_key(new);
                self.last = new;
            }
            Fx::Hole(sq) => {
                self.holes ^= Bitboard::from_square(sq);
                self.xhash ^= hole_key(sq);
            }
        }
    }

    /// Starts a journal frame (one move).
    #[inline]
    pub fn begin(&mut self) {
        self.frames.push(Frame { start: self.journal.len() as u32, vacated: self.vacated });
        self.vacated = Bitboard::EMPTY;
    }
    /// Applies and records an effect in the current frame.
    #[inline]
    pub fn apply(&mut self, fx: Fx) {
        self.raw(fx);
        self.journal.push(fx);
    }
    /// Reverts the current frame and drops it.
    pub fn rollback(&mut self) {
        let Frame { start, vacated } = self.frames.pop().expect("a frame is open");
        self.vacated = vacated;
        let start = start as usize;
        while self.journal.len() > start {
            let fx = self.journal.pop().expect("non-empty");
            self.raw(fx.inverse());
        }
    }
    /// The effects of the current (innermost) frame.
    pub fn frame(&self) -> &[Fx] {
        let start = self.frames.last().map_or(0, |f| f.start) as usize;
        &self.journal[start..]
    }
    /// Number of open frames.
    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    // ----- journalled helpers -----

    #[inline]
    pub fn remove(&mut self, sq: Square) -> Option<Unit> {
        let u = self.unit(sq)?;
        self.apply(Fx::Remove(sq, u));
        self.vacated |= self.castle_squares & Bitboard::from_square(sq);
        Some(u)
    }
    #[inline]
    pub fn add(&mut self, sq: Square, u: Unit) {
        self.apply(Fx::Add(sq, u));
    }
    /// Hides `u` under `sq`, on top (`last = true`) or at the bottom of the pile.
    pub fn bury(&mut self, sq: Square, u: Unit, last: bool) -> bool {
        if self.under.len() >= UNDER_MAX {
            return false;
        }
        let at = if last {
            self.under.len()
        } else {
            self.under.iter().position(|(s, _)| *s == sq).unwrap_or(self.under.len())
        };
        self.apply(Fx::Bury(sq, u, at as u8));
        true
    }
    pub fn unbury(&mut self, index: usize) -> (Square, Unit) {
        let (sq, u) = self.under[index];
        self.apply(Fx::Unbury(sq, u, index as u8));
        (sq, u)
    }
    #[inline]
    pub fn set_rights(&mut self, r: u8) {
        if r != self.rights {
            self.apply(Fx::Rights(self.rights, r));
        }
    }
    /// Sets the en passant state (journalled; [`EnPassant::hashed`] is decided here from
    /// the board as it stands).
    #[inline]
    pub fn set_ep(&mut self, ep: Option<EnPassant>) {
        // Most turns neither make nor clear an en passant state: decided inline.
        if ep.is_some() || self.ep.is_some() {
            self.change_ep(ep);
        }
    }
    #[inline]
    fn change_ep(&mut self, ep: Option<EnPassant>) {
        if ep != self.ep {
            let ep = self.keyed(ep);
            self.apply(Fx::Ep(self.ep, ep));
        }
    }
    pub fn set_last_move(&mut self, l: Option<LastMove>) {
        if l != self.last {
            self.apply(Fx::Last(self.last, l));
        }
    }
    /// Replaces the kind of every unit (on the board and hidden) by `f(kind)` (set-up, not
    /// journalled).
    pub fn setup_map_kinds(&mut self, f: impl Fn(Kind) -> Kind) {
        for sq in Square::ALL {
            if let Some(u) = self.unit(sq) {
                let k = f(u.kind());
                if k != u.kind() {
                    self.raw(Fx::Remove(sq, u));
                    self.raw(Fx::Add(sq, u.with_kind(k)));
                }
            }
        }
        for i in 0..self.under.len() {
            let (sq, u) = self.under[i];
            let k = f(u.kind());
            if k != u.kind() {
                self.raw(Fx::Unbury(sq, u, i as u8));
                self.raw(Fx::Bury(sq, u.with_kind(k), i as u8));
            }
        }
    }
    /// The other side to move; counts a ply, and the half-move clock goes on.
    #[inline]
    pub fn flip_side(&mut self) {
        self.flip_side_clock(false);
    }
    /// The other side to move; counts a ply and resets the half-move clock when `reset`
    /// (a capture or a pawn move), else advances it.
    #[inline]
    pub fn flip_side_clock(&mut self, reset: bool) {
        let half = if reset { 0 } else { self.halfmove.saturating_add(1) };
        self.apply(Fx::Side(self.halfmove, half));
    }
    /// Sets the turn state (journalled).
    pub fn set_turn(&mut self, t: Turn) {
        if t != self.turn {
            self.turn_undo.push(self.turn);
            self.xhash ^= turn_key(self.turn) ^ turn_key(t);
            self.turn = t;
            self.journal.push(Fx::Turn);
        }
    }
    /// Makes `sq` a hole (journalled; nothing if it already is one).
    pub fn make_hole(&mut self, sq: Square) {
        if !self.holes.has(sq) {
            self.apply(Fx::Hole(sq));
        }
    }

    /// Squares holding units of this colour (own colour only).
    #[inline]
    pub fn colour(&self, c: Colour) -> Bitboard {
        self.board.colour(c)
    }
    /// Units of `c` together with neutral units (what side `c` may move).
    #[inline]
    pub fn movable(&self, c: Colour) -> Bitboard {
        self.board.colour(c) | self.board.colour(Colour::Shared)
    }

    /// The castling bits of the kings and rooks standing on their home squares, each unit
    /// on its own ([`Position::homes`]): a rook on its corner holds its bit even when its
    /// king is elsewhere (Popeye keeps one flag per unit; a king reborn on its home square
    /// later may castle with it). Castling itself needs both bits.
    pub fn unit_rights(&self) -> u8 {
        use crate::walk::{KING, ROOK};
        let mut r = 0;
        for (i, c) in Colour::PLAYERS.into_iter().enumerate() {
            if self.board.get(self.homes.king_square(c)) == Some(Piece::new(c, KING)) {
                r |= [W_KING, B_KING][i];
            }
            for slot in [2 * i, 2 * i + 1] {
                if self.board.get(self.homes.rook_square(slot)) == Some(Piece::new(c, ROOK)) {
                    r |= SLOT_BITS[slot];
                }
            }
        }
        r
    }

    /// Castling rights implied by kings and rooks standing on their home squares
    /// ([`Position::homes`]).
    pub fn implied_rights(&self) -> u8 {
        use crate::walk::{KING, ROOK};
        let mut r = 0;
        for (i, c) in Colour::PLAYERS.into_iter().enumerate() {
            if self.board.get(self.homes.king_square(c)) != Some(Piece::new(c, KING)) {
                continue;
            }
            r |= [W_KING, B_KING][i];
            for slot in [2 * i, 2 * i + 1] {
                if self.board.get(self.homes.rook_square(slot)) == Some(Piece::new(c, ROOK)) {
                    r |= SLOT_BITS[slot];
                }
            }
        }
        r
    }

    /// The castling rights of the squares a unit left or was taken from in the current
    /// journal frame.
    #[inline]
    pub fn rights_lost_in_frame(&self) -> u8 {
        let mut lost = 0;
        let mut vacated = self.vacated;
        while let Some(s) = vacated.pop() {
            lost |= self.rights_of_square(s);
        }
        lost
    }

    /// The castling-right bits tied to a square: a king's or a castling rook's home
    /// square. A unit leaving or taken from it loses them (see the play pipeline);
    /// `NoCastling` names them.
    #[inline]
    pub fn rights_of_square(&self, sq: Square) -> u8 {
        if self.homes == CastlingHomes::ORTHODOX {
            return rights_of_square(sq);
        }
        let mut r = 0;
        for (i, c) in Colour::PLAYERS.into_iter().enumerate() {
            if sq == self.homes.king_square(c) {
                r |= [W_KING, B_KING][i];
            }
        }
        for (slot, &rook_bit) in SLOT_BITS.iter().enumerate() {
            if sq == self.homes.rook_square(slot) {
                r |= rook_bit;
            }
        }
        r
    }

    /// Debug check: board consistent and hash equal to the recomputed one.
    pub fn is_consistent(&self) -> bool {
        self.board.is_consistent() && self.xhash == self.recomputed_xhash()
    }
}
