//! The one game API: a stateful [`Game`] over any [`Variant`] — a position, the rules it
//! was created with, its history — and [`DynGame`], its object-safe face for tools and the
//! server. The search (generic, monomorphised per variant through [`VariantVisitor`]), the
//! solver and the server all stand on it.
//!
//! A game checks every turn it is given (parsed from the canonical form, the readable
//! notation or a UCI token) against the legal list and refuses a bad one with a typed
//! [`PlayError`], leaving the game unchanged. [`Game::outcome`] is the variant's own status
//! of the position plus the game-level rules of [`Variant::RULES`]: repetition (compared
//! by position hash, so transpositions count), the fifty-move rule and insufficient
//! material.

use crate::{Colour, GameOptions, Repetition, RulesError, Status, Variant};

/// Why a turn was refused. The game is unchanged.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum PlayError {
    /// The text is no turn of this position in any accepted form.
    #[error("`{0}` is not a legal turn here (give the canonical form, the notation or the UCI token)")]
    Unparsable(String),
    /// A turn value that is not among the legal turns.
    #[error("illegal turn {0}")]
    Illegal(String),
    /// The game has ended: no turn may be played.
    #[error("the game is over ({0})")]
    GameOver(Status),
}

/// Why a game ended (or that it goes on).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum EndReason {
    Ongoing,
    /// No legal turn while in check.
    Checkmate,
    /// No legal turn, not in check: stalemate, or a loss where the variant says so.
    NoLegalTurn,
    /// Another end the variant's rules define (a king captured, no checkered piece left...).
    Rules,
    /// A position occurred for the third time.
    Repetition,
    /// A hundred plies without a capture or a pawn move.
    FiftyMoves,
    /// Neither side can win.
    InsufficientMaterial,
}

impl EndReason {
    /// Lower-case words for people (`checkmate`, `threefold repetition`...).
    pub const fn as_str(self) -> &'static str {
        match self {
            EndReason::Ongoing => "ongoing",
            EndReason::Checkmate => "checkmate",
            EndReason::NoLegalTurn => "no legal turn",
            EndReason::Rules => "end by the rules of the variant",
            EndReason::Repetition => "threefold repetition",
            EndReason::FiftyMoves => "fifty-move rule",
            EndReason::InsufficientMaterial => "insufficient material",
        }
    }
}

/// The result of a game so far and why.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Outcome {
    pub status: Status,
    pub reason: EndReason,
}

impl Outcome {
    pub const ONGOING: Outcome = Outcome { status: Status::Ongoing, reason: EndReason::Ongoing };
    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.status != Status::Ongoing
    }
}

/// A turn written out in every form, with its compact id.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TurnText {
    pub canonical: String,
    pub notation: String,
    pub uci: String,
    pub id: u32,
}

/// The turn of `pos` written `text` (canonical form, notation with or without its check
/// sign, or UCI token in either castling convention).
pub fn parse_turn<V: Variant>(pos: &mut V, text: &str) -> Result<V::Move, PlayError> {
    let text = text.trim();
    let mut list = Vec::new();
    pos.legal_turns(&mut list);
    let bare = |s: &str| s.trim_end_matches(['+', '#', '!', '?']).trim_end().to_string();
    let wanted = bare(text);
    // Exact forms first, then the notation without check signs.
    let by_uci = |pos: &mut V, chess960: bool| {
        let tokens = pos.uci_all(&list, chess960);
        tokens.iter().position(|t| t == text).map(|i| &list[i])
    };
    // Every canonical form starts with a removal or an addition token, or with an empty
    // part's word: other texts skip writing the canonical form of every turn.
    let canonical_like = text.starts_with(['-', '+']) || text.starts_with("PASS") || text.starts_with("SWITCH");
    let found = list
        .iter()
        .find(|m| canonical_like && pos.canonical(m) == text)
        .or_else(|| by_uci(pos, false))
        .or_else(|| by_uci(pos, true))
        .or_else(|| list.iter().find(|m| pos.notation(m) == text))
        .or_else(|| {
            let mut hits = list.iter().filter(|m| bare(&pos.notation(m)) == wanted);
            let first = hits.next();
            if hits.next().is_some() { None } else { first }
        });
    found.copied().ok_or_else(|| PlayError::Unparsable(text.to_string()))
}

/// One turn of the history, with what taking it back needs.
struct Played<V: Variant> {
    mv: V::Move,
    undo: V::Undo,
    /// Plies since the last capture or pawn move, before this turn.
    fifty_before: u32,
}

/// A game in progress: a position under its rules, with its history.
pub struct Game<V: Variant> {
    pos: V,
    opts: GameOptions,
    start_fen: String,
    played: Vec<Played<V>>,
    /// Hash of every position so far; the current one last.
    hashes: Vec<u64>,
    /// Plies since the last capture or pawn move.
    fifty: u32,
}

impl<V: Variant> Clone for Game<V> {
    fn clone(&self) -> Self {
        Game {
            pos: self.pos.clone(),
            opts: self.opts.clone(),
            start_fen: self.start_fen.clone(),
            played: self
                .played
                .iter()
                .map(|p| Played { mv: p.mv, undo: p.undo.clone(), fifty_before: p.fifty_before })
                .collect(),
            hashes: self.hashes.clone(),
            fifty: self.fifty,
        }
    }
}

impl<V: Variant> Game<V> {
    /// The start position of these rules.
    pub fn new(opts: GameOptions) -> Result<Self, RulesError> {
        let pos = V::new_game(&opts)?;
        Ok(Self::with_position(opts, pos))
    }

    /// A game from a position in the variant's FEN, under these rules.
    pub fn from_fen(opts: GameOptions, fen: &str) -> Result<Self, RulesError> {
        let pos = V::from_fen_with(&opts, fen)?;
        Ok(Self::with_position(opts, pos))
    }

    /// A game from a position already built.
    pub fn with_position(opts: GameOptions, pos: V) -> Self {
        let start_fen = pos.fen();
        let hashes = vec![pos.hash()];
        let fifty = pos.halfmove_clock();
        Game { pos, opts, start_fen, played: Vec::new(), hashes, fifty }
    }

    pub fn position(&self) -> &V {
        &self.pos
    }
    /// The position, to search on in place (every change must be taken back before the
    /// game is used again).
    pub fn position_mut(&mut self) -> &mut V {
        &mut self.pos
    }
    pub fn options(&self) -> &GameOptions {
        &self.opts
    }
    pub fn start_fen(&self) -> &str {
        &self.start_fen
    }
    pub fn fen(&self) -> String {
        self.pos.fen()
    }
    pub fn side_to_move(&self) -> Colour {
        self.pos.side_to_move()
    }
    pub fn in_check(&mut self) -> bool {
        self.pos.in_check()
    }
    /// Hash of every position of the game; the current one last.
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }
    /// Plies since the last capture or pawn move.
    pub fn fifty_count(&self) -> u32 {
        self.fifty
    }
    /// The turns played, oldest first.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = V::Move> + '_ {
        self.played.iter().map(|p| p.mv)
    }
    /// Number of turns played.
    pub fn ply(&self) -> usize {
        self.played.len()
    }

    /// The legal turns of the current position, by the position's rules (a game ended by a
    /// game-level rule still lists them; [`Game::play`] refuses them).
    pub fn legal_turns(&mut self) -> Vec<V::Move> {
        let mut v = Vec::new();
        self.pos.legal_turns(&mut v);
        v
    }

    /// Plays the turn written `text` (see [`parse_turn`]).
    pub fn play(&mut self, text: &str) -> Result<V::Move, PlayError> {
        self.refuse_if_over()?;
        let m = self.pos.parse_turn(text)?;
        self.make_unchecked(m);
        Ok(m)
    }

    /// [`Game::play`], also returning the turn's texts (written in the position before it).
    pub fn play_with_texts(&mut self, text: &str) -> Result<(V::Move, TurnText), PlayError> {
        self.refuse_if_over()?;
        let m = self.pos.parse_turn(text)?;
        let t = self.texts(&m);
        self.make_unchecked(m);
        Ok((m, t))
    }

    /// Plays `m` if it is legal.
    pub fn play_move(&mut self, m: V::Move) -> Result<(), PlayError> {
        self.refuse_if_over()?;
        let mut v = Vec::new();
        self.pos.legal_turns(&mut v);
        if !v.contains(&m) {
            return Err(PlayError::Illegal(format!("{m:?}")));
        }
        self.make_unchecked(m);
        Ok(())
    }

    /// The legal turn whose [`Variant::move_id`] is `id`, if exactly one has it.
    pub fn turn_by_id(&mut self, id: u32) -> Option<V::Move> {
        let mut v = Vec::new();
        self.pos.legal_turns(&mut v);
        let mut hits = v.into_iter().filter(|m| self.pos.move_id(m) == id);
        let first = hits.next();
        if hits.next().is_some() { None } else { first }
    }

    fn refuse_if_over(&mut self) -> Result<(), PlayError> {
        let o = self.outcome();
        if o.is_over() { Err(PlayError::GameOver(o.status)) } else { Ok(()) }
    }

    fn make_unchecked(&mut self, m: V::Move) {
        let fifty_before = self.fifty;
        self.fifty = if self.pos.resets_fifty(&m) { 0 } else { self.fifty + 1 };
        let undo = self.pos.make(&m);
        self.hashes.push(self.pos.hash());
        self.played.push(Played { mv: m, undo, fifty_before });
    }

    /// Takes back the last turn.
    pub fn undo(&mut self) -> Option<V::Move> {
        let p = self.played.pop()?;
        self.pos.unmake(&p.mv, p.undo);
        self.hashes.pop();
        self.fifty = p.fifty_before;
        Some(p.mv)
    }

    /// How often the current position has occurred (1 the first time).
    pub fn repetitions(&self) -> usize {
        let now = *self.hashes.last().expect("the start position is always there");
        self.hashes.iter().filter(|&&h| h == now).count()
    }

    /// The position's own status under the variant's rules, then the game-level rules.
    pub fn outcome(&mut self) -> Outcome {
        let status = self.pos.status();
        if status != Status::Ongoing {
            let mut v = Vec::new();
            self.pos.legal_turns(&mut v);
            let reason = if !v.is_empty() {
                EndReason::Rules
            } else if self.pos.in_check() {
                EndReason::Checkmate
            } else {
                EndReason::NoLegalTurn
            };
            return Outcome { status, reason };
        }
        if self.repetitions() >= 3 {
            let status = match V::RULES.repetition {
                Repetition::Draw => Status::Draw,
                // The side that made the last turn completed the repetition. With
                // multi-move turns this is whoever played the last turn.
                Repetition::CompleterLoses => match self.last_mover() {
                    Some(c) => Status::win_for(c.opponent()),
                    None => Status::Draw,
                },
            };
            return Outcome { status, reason: EndReason::Repetition };
        }
        if V::RULES.fifty_moves && self.fifty >= 100 {
            return Outcome { status: Status::Draw, reason: EndReason::FiftyMoves };
        }
        if self.pos.insufficient_material() {
            return Outcome { status: Status::Draw, reason: EndReason::InsufficientMaterial };
        }
        Outcome::ONGOING
    }

    /// The side that played the last turn.
    fn last_mover(&mut self) -> Option<Colour> {
        let p = self.played.pop()?;
        self.pos.unmake(&p.mv, p.undo);
        let side = self.pos.side_to_move();
        let undo = self.pos.make(&p.mv);
        self.played.push(Played { undo, ..p });
        Some(side)
    }

    /// The turn written out in every form (position before the turn).
    pub fn texts(&self, m: &V::Move) -> TurnText {
        TurnText {
            canonical: self.pos.canonical(m),
            notation: self.pos.notation(m),
            uci: self.pos.uci(m, self.opts.chess960),
            id: self.pos.move_id(m),
        }
    }

    /// Every turn played, written out (each in the position before it).
    pub fn history_texts(&mut self) -> Vec<TurnText> {
        let mut taken = Vec::with_capacity(self.played.len());
        while let Some(p) = self.played.pop() {
            self.pos.unmake(&p.mv, p.undo);
            taken.push((p.mv, p.fifty_before));
        }
        let mut out = Vec::with_capacity(taken.len());
        for (mv, fifty_before) in taken.into_iter().rev() {
            out.push(self.texts(&mv));
            let undo = self.pos.make(&mv);
            self.played.push(Played { mv, undo, fifty_before });
        }
        out
    }
}
