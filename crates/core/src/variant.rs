//! The contract between the engine and a set of rules.

use crate::{Colour, Kind, Piece, Square};
use std::fmt;

/// Result of a position or game: `*` while it goes on.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Status {
    Ongoing,
    WhiteWins,
    BlackWins,
    Draw,
}

impl Status {
    /// `*`, `1-0`, `0-1` or `1/2`, as in the oracle files.
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Ongoing => "*",
            Status::WhiteWins => "1-0",
            Status::BlackWins => "0-1",
            Status::Draw => "1/2",
        }
    }
    /// The win of `colour` (white or black).
    pub const fn win_for(colour: crate::Colour) -> Status {
        match colour {
            crate::Colour::Black => Status::BlackWins,
            _ => Status::WhiteWins,
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An input the rules refuse: a bad FEN, an unknown option, an unknown move...
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum RulesError {
    /// A FEN field is wrong; names the field and why.
    #[error("bad FEN: {field}: {reason}")]
    Fen { field: &'static str, reason: String },
    /// A game option is wrong.
    #[error("bad option: {0}")]
    Option(String),
    /// Something the rules do not (yet) support.
    #[error("unsupported: {0}")]
    Unsupported(String),
}

impl RulesError {
    pub fn fen(field: &'static str, reason: impl Into<String>) -> RulesError {
        RulesError::Fen { field, reason: reason.into() }
    }
}

/// The rules of a game as a value (the variant itself is chosen by name in the registry):
/// randomness of the starting array (0 = standard, 1 = symmetric random, 2 = independent
/// random arrays), its seed, variant-specific `key=value` parameters (e.g. Checkered's
/// `switch=off`), the fairy conditions (orthodox chess only, names as `chimere moves -c`
/// takes them) and whether castling is written the Chess960 way in UCI tokens.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameOptions {
    pub randomness: u8,
    pub seed: u64,
    pub params: Vec<(String, String)>,
    pub conditions: Vec<String>,
    pub chess960: bool,
}

impl GameOptions {
    /// The value of parameter `key`, if given.
    pub fn param(&self, key: &str) -> Option<&str> {
        self.params.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// Refuses parameters not in `known`, randomness above 2 and fairy conditions (which
    /// only a rules set that reads them accepts: it checks the rest itself).
    pub fn check(&self, known: &[&str]) -> Result<(), RulesError> {
        if let Some(c) = self.conditions.first() {
            return Err(RulesError::Unsupported(format!("fairy conditions (`{c}`) apply to orthodox chess only")));
        }
        self.check_params(known)
    }

    /// [`GameOptions::check`] without the refusal of conditions.
    pub fn check_params(&self, known: &[&str]) -> Result<(), RulesError> {
        if self.randomness > 2 {
            return Err(RulesError::Option(format!("randomness must be 0, 1 or 2, not {}", self.randomness)));
        }
        for (k, _) in &self.params {
            if !known.contains(&k.as_str()) {
                let list = if known.is_empty() { "none".to_string() } else { known.join(", ") };
                return Err(RulesError::Option(format!("unknown parameter `{k}` (known: {list})")));
            }
        }
        Ok(())
    }
}

/// Game-level rules of a variant, applied over its positions' own status by [`crate::Game`].
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct GameRules {
    /// The fifty-move rule: 100 plies with no turn for which [`Variant::resets_fifty`] is
    /// true draw the game.
    pub fifty_moves: bool,
    /// What a threefold repetition of a position does.
    pub repetition: Repetition,
}

/// The effect of a position occurring for the third time.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Repetition {
    /// The game is drawn.
    Draw,
    /// The player whose turn made the position occur for the third time loses (Fugue).
    CompleterLoses,
}

impl GameRules {
    /// Orthodox chess: fifty moves, repetition draws.
    pub const ORTHODOX: GameRules = GameRules { fifty_moves: true, repetition: Repetition::Draw };
}

/// A turn that moves one unit from `from` to `to`, removes at most one enemy unit (the
/// one on `captured`: `to` for a capture by replacement, another square for en passant),
/// may change the mover's kind (`becomes`), and does nothing else: what move ordering
/// reads to value a capture without playing it ([`Variant::displacement`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Displacement {
    pub from: Square,
    pub to: Square,
    pub captured: Option<Square>,
    pub becomes: Option<Kind>,
}

/// A set of rules and a position under them. One implementation per variant folder.
///
/// A *turn* is everything a player does before the opponent moves (one or more parts);
/// [`Variant::Move`] is a whole turn. Generation lists every legal turn; `make` plays one
/// and returns what `unmake` needs to restore the position exactly.
pub trait Variant: Clone + Send + Sync + 'static {
    /// A complete legal turn.
    type Move: Copy + Send + Sync + Eq + std::hash::Hash + fmt::Debug + 'static;
    /// What `unmake` needs besides the move.
    type Undo: Send + Clone;

    /// Lower-case variant name (`chess`, `checkered`...).
    const NAME: &'static str;

    /// The starting position for these options.
    fn new_game(opts: &GameOptions) -> Result<Self, RulesError>;
    /// Reads a position (the variant's vchess-style FEN, and any other dialect it accepts).
    fn from_fen(fen: &str) -> Result<Self, RulesError>;
    /// Writes the position in the variant's vchess-style FEN.
    fn fen(&self) -> String;

    /// Appends every legal turn to `out` (which the caller has cleared).
    fn legal_turns(&mut self, out: &mut Vec<Self::Move>);
    /// Plays a legal turn.
    fn make(&mut self, m: &Self::Move) -> Self::Undo;
    /// Takes back the turn last played.
    fn unmake(&mut self, m: &Self::Move, undo: Self::Undo);

    /// Position status under the variant's own end rules (not the game-level draws).
    fn status(&mut self) -> Status;

    /// The turn in canonical form (position before the turn).
    fn canonical(&self, m: &Self::Move) -> String;
    /// The turn in the variant's readable notation (position before the turn).
    fn notation(&self, m: &Self::Move) -> String;

    /// Incremental Zobrist hash of the whole position.
    fn hash(&self) -> u64;
    /// The same hash computed from scratch.
    fn recomputed_hash(&self) -> u64;

    /// Number of legal turns (perft's last ply without playing it). Variants may count
    /// faster than generating.
    fn count_turns(&mut self, scratch: &mut Vec<Self::Move>) -> u64 {
        scratch.clear();
        self.legal_turns(scratch);
        scratch.len() as u64
    }

    /// Perft leaves to `depth` (with `bulk`, the last ply counted without playing it).
    /// Rules sets with a faster counter of their own override it.
    fn perft_leaves(&mut self, depth: u32, bulk: bool) -> u64 {
        crate::Perft::<Self>::default().count(self, depth, bulk)
    }

    /// Game-level rules (fifty moves, the effect of repetition).
    const RULES: GameRules;

    /// Reads a position under the rules `opts` describes (its conditions, for the rules
    /// sets that take them). The default refuses conditions and reads the FEN.
    fn from_fen_with(opts: &GameOptions, fen: &str) -> Result<Self, RulesError> {
        if let Some(c) = opts.conditions.first() {
            return Err(RulesError::Unsupported(format!("fairy conditions (`{c}`) apply to orthodox chess only")));
        }
        Self::from_fen(fen)
    }

    /// The side to move (white or black). A turn may leave the same side to move (fairy
    /// conditions with multi-move turns): callers never assume alternation.
    fn side_to_move(&self) -> Colour;
    /// Whether the side to move is in check (false where the rules have no check).
    fn in_check(&mut self) -> bool;
    /// Whether a turn is "noisy" for a quiescence search: it removes an enemy unit or
    /// promotes.
    fn is_noisy(&self, m: &Self::Move) -> bool;
    /// Appends the legal noisy turns ([`Variant::is_noisy`]) to `out` (which the caller
    /// has cleared), in the order [`Variant::legal_turns`] lists them: quiescence's list.
    /// Returns whether the side to move has a legal turn at all (noisy or not). The
    /// default filters the whole list; rules sets that can generate captures alone
    /// override it.
    fn noisy_turns(&mut self, out: &mut Vec<Self::Move>) -> bool {
        self.legal_turns(out);
        let any = !out.is_empty();
        out.retain(|m| self.is_noisy(m));
        any
    }
    /// Appends the legal turns that are not noisy to `out` (which may already hold
    /// turns: they are kept), in the order [`Variant::legal_turns`] lists them: with
    /// [`Variant::noisy_turns`], the whole list in two parts. The default filters the
    /// whole list; rules sets that can generate them alone override it and set
    /// [`Variant::SPLIT_TURNS`].
    fn quiet_turns(&mut self, out: &mut Vec<Self::Move>) {
        let start = out.len();
        self.legal_turns(out);
        let mut i = start;
        for j in start..out.len() {
            if !self.is_noisy(&out[j]) {
                out.swap(i, j);
                i += 1;
            }
        }
        out.truncate(i);
    }
    /// Whether the legal turn `m` leaves the side to move after it in check ([`Variant::in_check`]
    /// once it is played), read from the position before it; `None` where the rules set
    /// does not tell without playing it (the default).
    fn gives_check(&self, m: &Self::Move) -> Option<bool> {
        let _ = m;
        None
    }
    /// Whether [`Variant::noisy_turns`] then [`Variant::quiet_turns`] cost about what
    /// [`Variant::legal_turns`] costs (each generates its part alone): a search may then
    /// generate the quiet turns only when the noisy ones did not end the node. False by
    /// default (both filter the whole list).
    const SPLIT_TURNS: bool = false;
    /// The turn as a [`Displacement`], read from the position before it, when it is one
    /// on the rules set's [`Variant::board`] (its effect there is exactly: the unit on
    /// `from` leaves, the unit on `captured` if any is removed, the mover, of kind
    /// `becomes` if given, stands on `to`); `None` for any other turn, and by default
    /// (the caller then plays the turn to see its effect).
    fn displacement(&self, m: &Self::Move) -> Option<Displacement> {
        let _ = m;
        None
    }
    /// Whether a turn resets the fifty-move count (a capture or a pawn move).
    fn resets_fifty(&self, m: &Self::Move) -> bool;
    /// Plies since the last capture or pawn move, as the position records it (0 where
    /// its FEN has no such counter).
    fn halfmove_clock(&self) -> u32 {
        0
    }
    /// Whether neither side can ever win (a game-level draw); `false` where the variant
    /// defines no such notion.
    fn insufficient_material(&self) -> bool {
        false
    }
    /// Calls `f` for every unit on the board (for evaluation); kinds are the variant's.
    fn for_each_piece(&self, f: &mut dyn FnMut(Square, Piece));
    /// The pieces as a core [`crate::Board`], for rules sets that keep one (evaluation
    /// reads its bitboards); `None` otherwise (use [`Variant::for_each_piece`]).
    fn board(&self) -> Option<&crate::Board> {
        None
    }
    /// Passes the turn without moving (null-move pruning), where the rules have a sound
    /// notion of it; `None` (nothing changed) otherwise. Taken back by
    /// [`Variant::unmake_pass`].
    fn make_pass(&mut self) -> Option<Self::Undo> {
        None
    }
    /// Takes back [`Variant::make_pass`].
    fn unmake_pass(&mut self, undo: Self::Undo) {
        let _ = undo;
    }
    /// The turn's UCI token (`../shared/spec/uci-notation.md`), position before the turn.
    fn uci(&self, m: &Self::Move, chess960: bool) -> String;

    /// The UCI tokens of `moves`, the whole legal list of the position, in its order.
    /// Rules sets whose tokens depend on the other legal turns (the fairy engine's
    /// disambiguation) override it to write them in one pass.
    fn uci_all(&mut self, moves: &[Self::Move], chess960: bool) -> Vec<String> {
        moves.iter().map(|m| self.uci(m, chess960)).collect()
    }

    /// A compact identifier of a legal turn, for tables and the wire: a 32-bit digest of
    /// the turn, distinct for the legal turns of one position with overwhelming
    /// probability ([`crate::Game`] checks uniqueness when it resolves an id).
    fn move_id(&self, m: &Self::Move) -> u32 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        m.hash(&mut h);
        let x = h.finish();
        (x ^ (x >> 32)) as u32
    }

    /// The legal turn written `text`: its canonical form, its notation (a trailing check
    /// or mate sign may be left out) or its UCI token (either castling convention).
    fn parse_turn(&mut self, text: &str) -> Result<Self::Move, crate::PlayError> {
        crate::play::parse_turn(self, text)
    }
}
