//! # Chimère fairy engine
//!
//! Fairy chess on the orthodox 8×8 board, hook-based and composable.
//!
//! - **Pieces** are data ([`walk::WALKS`]): orthodox K Q R B S P, nightrider, rose, the
//!   locusts (locust, nightrider-, bishop-, rook-locust), grasshopper and dummy. Neutral
//!   units use [`chimere_core::Colour::Shared`]: either side may move them and capture them
//!   (a neutral pawn moves in the direction of the side moving it). Attributes (kamikaze,
//!   royal, uncapturable, volage) and the diagram square travel with each unit; a
//!   condition may give the diagram's units attributes when the game is created.
//! - **State** ([`Position`]) changes only through [`position::Fx`] effects recorded in a
//!   journal (remove, add, bury under a square, unbury, castling rights, en passant, side);
//!   unmake replays a move's effects backwards, hash included. Units hidden under a square
//!   (Parachute, Volcanic, Ghost, diagram "underworld") are part of the state and the hash,
//!   and so are holes (squares no unit may stand on or pass over; generation and the attack
//!   tables respect them; a condition may put them in the diagram or make them by moves).
//! - **Rules** ([`RuleSet`]) compose [`Condition`]s through a few pipelines — generate
//!   (walks, `CaptureOrigin`, `Admit`), choices, play (`CapturerVanishes`,
//!   `CapturerRebirth`, `CapturedFate`, `AfterMove`, then the underworld release and the
//!   state fields), observe (check) — in the order of one central rank list
//!   ([`rules::RANKS`]). The builder refuses combinations that fight over an exclusive slot
//!   (two conditions deciding the captured unit's fate, two release orders...) with a clear
//!   error, and precomputes the per-hook lists so that orthodox play calls no hook at all.
//! - **Mobility**: a condition may say which units may move at all (paralysis, observation
//!   rules); generation skips the others and the attack tables count only the mobile ones.
//! - **Check is observation**: a side is in check when the opponent could remove one of its
//!   royal units. Attack tables answer when every condition allows (an `Admit` filter that
//!   restricts captures by their squares only gives a mask of departure squares); otherwise the
//!   opponent's captures are played through the same pipeline (Anticirce: the capturer's
//!   rebirth square must be free; Rex Inclusiv: a reborn king is not lost; Assassin: a
//!   rebirth may land on a king; Mars Circe: captures start from the rebirth square) —
//!   only the captures by units whose walks reach a royal square, and a condition may
//!   answer "does this capture remove the royal unit" without playing it
//!   ([`Condition::royal_capture`]; a randomised test holds the shortcut to the plain
//!   "play every capture" reference, [`Game::in_check_reference`]).
//! - **Turns**: a turn is one move unless a condition decides when it ends
//!   ([`Condition::end_of_move`], called by [`Game::make`] after every legal move): the
//!   turn state ([`position::Turn`]: part, the unit that must move next, remembered
//!   squares and hash, extra en passant pawns) is journalled and hashed like the rest of
//!   the position, and the condition gives the move back to the same side while the turn
//!   goes on. `legal_moves`, `make` and `perft` work on single moves (parts of a turn).
//! - **Passes and status**: [`Move::NULL`] is a pass (nothing moves, the side changes;
//!   journalled like any move), which an obligation may offer (Black checks). The game
//!   status of the side to move comes from [`Game::status`]: a condition may decide it
//!   (Losing game: a side that cannot move wins), else mate loses and stalemate draws.
//! - The engine (this crate minus [`conditions`]) names no condition. The conditions live
//!   in [`conditions`], one file each; the Circe family (Circe and its variants,
//!   Super-Circe, Anticirce and its variants, Anti-Super-Circe, Fusil, Para-circé, Optional
//!   Replacement, coucou) is one module with parameters ([`conditions::Circe`]).
//!   [`conditions::by_name`] builds them from the seed's or Popeye's names.
//! - Rules of our reading: a pawn on its own first rank steps one square forward (seed
//!   default) unless a condition makes it immobile there (Super-Circe, ...) or lets it
//!   advance further (Einstein: up to three squares, then en passant on each square
//!   passed); a condition may move the promotion rank or abolish promotion (the rank holds
//!   for pawns placed by a condition too: a pawn reborn on it promotes); promotion
//!   happens before the capture consequences; promotion to fairy kinds present in the
//!   diagram is allowed; castling needs king and rook on their squares with rights, and a
//!   rook reborn on its corner regains its right.
//! - Movement hooks: a rule set may let units capture their own side's non-royal units,
//!   let a side move units of either colour (each for its own colour), switch orthodox
//!   castling off, add moves of a condition's own (Rokagogo castling, kings moving like
//!   their attackers) with the matching observation beyond the attack tables, substitute
//!   piece kinds (diagram and promotions, applied by [`Game::new`]), and keep the last
//!   move in the position (journalled and hashed, only when asked, so that orthodox
//!   positions still transpose);
//!   and play some moves themselves ([`Condition::base_move`]): stacks of units on one
//!   square (Augsburg), the further units hidden in the underworld, [`Move::stack`]
//!   saying which of them move.

mod chess_game;
pub mod conditions;
pub mod moves;
pub mod notation;
pub mod position;
pub mod rules;
#[cfg(test)]
mod testing;
pub mod uci;
pub mod walk;

pub use chess_game::rules_of;
pub use moves::{Move, Shift};
pub use position::{Position, Unit};
pub use rules::{Capabilities, Condition, Ctx, Game, Note, RuleSet, RulesError};

use chimere_core::{Colour, Dialect, Effect, Notation, Setup, SetupError, Square, Validation};
use std::sync::Arc;

/// Letters of the kinds in the canonical move format (`-e2:wp +e4:wp`): the orthodox FEN
/// letters, then nightrider `h`, rose `o`, locust `l`, nightrider-locust `m`,
/// bishop-locust `c`, rook-locust `t`, dummy `d`, grasshopper `g`; neutral colour `n`.
/// The kinds after the grasshopper ([`walk::FIRST_GENERIC`] on) get the remaining
/// lower-case letters, then upper-case letters, punctuation and digits, `=` and `-` last:
/// distinct in the canonical form (the kind is a token's last character, so `-` cannot be
/// mistaken for a removal sign), but a FEN cannot carry them (they are read from Popeye
/// input). Every printable character but `:` is taken: a further kind needs longer codes.
pub const KIND_LETTERS: &[u8; walk::KINDS] =
    b"pnbrqkholmctdgaefijsuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&()*+,.;<>?@[]^_{|}`'\\\"0123456789/~=-";
pub const NOTATION: Notation = Notation { kind_letters: KIND_LETTERS, shared_colour: 'n' };
/// The letters a FEN reads and writes: those of the kinds before
/// [`walk::FIRST_GENERIC`] (the orthodox kinds, then `h o l m c t d g`); the later kinds'
/// letters (upper case among them) name kinds in canonical moves only.
pub const FEN_NOTATION: Notation =
    Notation { kind_letters: KIND_LETTERS.split_at(walk::FIRST_GENERIC.0 as usize).0, shared_colour: 'n' };

/// A game from an orthodox FEN and condition names (see [`conditions::by_name`]), e.g.
/// `game_from_fen("...", &["circe", "anticirce cheylan"])` (refused if they cannot combine).
///
/// For tests and problem positions: no side needs a king. Tools reading positions from
/// users go through [`ConditionalChess`], which refuses a side without a royal unit
/// unless the rules or the caller allow it ([`check_royals`]).
pub fn game_from_fen(fen: &str, conditions: &[&str]) -> Result<Game, String> {
    let pos = position_from_fen(fen).map_err(|e| format!("bad FEN: {}: {e}", e.field()))?;
    let mut conds: Vec<Arc<dyn Condition>> = Vec::new();
    for c in conditions {
        conds.extend(conditions::by_name(c).map_err(|e| e.to_string())?);
    }
    let rules = RuleSet::build(conds, &[]).map_err(|e| e.to_string())?;
    Ok(Game::new(rules, pos))
}

impl Game {
    /// The canonical form of a legal move (pieces removed and added, see the spec's
    /// README), or `None` if the move is not legal. Units hidden under a square count as
    /// removed; units coming back as added — except under a condition with stacks
    /// ([`Condition::base_move`]), where the hidden units stand on their square (a unit
    /// joining a stack is added there). A unit that moves and ends on its own square (no
    /// stacks) is listed, removed and added, as castling lists both its units.
    pub fn canonical(&mut self, mv: &Move) -> Option<String> {
        let stacks = self.rules.base_move.is_some();
        let mover = self.pos.unit(mv.from).map(|u| u.piece);
        self.make(mv)?;
        let returned = !stacks && !mv.is_null() && mover.is_some() && self.pos.unit(mv.from).map(|u| u.piece) == mover;
        let effects: Vec<Effect> = self
            .pos
            .frame()
            .iter()
            .filter_map(|fx| match *fx {
                position::Fx::Remove(s, u) => Some(Effect::Remove(s, u.piece)),
                position::Fx::Add(s, u) => Some(Effect::Add(s, u.piece)),
                position::Fx::Unbury(s, u, _) if stacks => Some(Effect::Remove(s, u.piece)),
                position::Fx::Bury(s, u, _) if stacks => Some(Effect::Add(s, u.piece)),
                _ => None,
            })
            .collect();
        self.unmake();
        // Castling lists king and rook even when one stays on its square (Chess960); in
        // the same way, a moving unit that ends on its own square (an Anticirce capturer
        // reborn where it started) is listed, or Kd8*d7 and Bc8*d7 reborn at home would
        // both read `-d7:wn`.
        let kept: &[Square] = match mv.castle {
            Some((rook_from, _)) => &[mv.from, rook_from],
            None if returned => &[mv.from],
            None => &[],
        };
        Some(chimere_core::canonical::part_from_effects_keeping(&effects, &NOTATION, "PASS", kept))
    }
}

/// What the fairy engine requires of a FEN beyond its syntax: a possible en passant
/// square. Kings are the rules' business (see [`check_royals`]); pawns on a first rank and
/// a side not to move in check are accepted (problem positions: the fairy engine accepts
/// more than orthodox games). Castling rights need their king on its first rank
/// ([`SetupError::BadCastlingRight`] otherwise); a right whose rook is missing keeps only
/// the king's part (a rook arriving on the home square may complete it under some
/// conditions: Volage, Anti-Andernach, Einstein, Circe rebirths).
pub const FEN_VALIDATION: Validation = Validation { castling: false, ..Validation::STATE_ONLY };

/// Reads a FEN of any dialect of the core's one orthodox reader ([`Setup::parse_with`]:
/// standard, X-FEN, Shredder, vchess `w 0 ahah -`), with the fairy letters of
/// [`FEN_NOTATION`] (`h` nightrider, `g` grasshopper...), Chess960 castling included, checked
/// by [`FEN_VALIDATION`].
pub fn position_from_fen(fen: &str) -> Result<Position, SetupError> {
    let s = Setup::parse_with(fen, &FEN_NOTATION)?;
    s.validate(&FEN_VALIDATION)?;
    for slot in 0..4 {
        if let Some(file) = s.castling[slot]
            && castling_king(&s, slot).is_none()
        {
            let (colour, king_side) = (chimere_core::setup::slot_colour(slot), slot % 2 == 1);
            return Err(SetupError::BadCastlingRight { colour, king_side, file });
        }
    }
    Ok(Position::from_setup(&s))
}

/// The file of the king a castling right of `slot` belongs to: a king of its colour on its
/// first rank, on the right side of the rook's file (the e-file one first: several kings
/// may stand there under Rex Multiplex).
fn castling_king(s: &Setup, slot: usize) -> Option<u8> {
    let file = s.castling[slot]?;
    let c = chimere_core::setup::slot_colour(slot);
    let rank = chimere_core::setup::back_rank(c);
    let king = chimere_core::Piece::new(c, walk::KING);
    let ok =
        |f: u8| s.get(Square::from_coords(f, rank)) == Some(king) && if slot % 2 == 1 { file > f } else { file < f };
    if ok(4) { Some(4) } else { (0..8).find(|&f| ok(f)) }
}

/// Refuses a position where a side has no royal unit, unless the rules allow it (kings
/// are ordinary units, or a condition's own check rule decides royalty and lets royal units
/// be captured, as Extinction's last unit of each kind) or the caller does
/// (`allow_no_royal`: e.g. a problem that plays without a white king).
pub fn check_royals(rules: &RuleSet, pos: &Position, allow_no_royal: bool) -> Result<(), SetupError> {
    if allow_no_royal || rules.kings_ordinary || rules.royals_capturable {
        return Ok(());
    }
    for c in Colour::PLAYERS {
        let kings = pos.board().pieces(chimere_core::Piece::new(c, walk::KING));
        let royal = kings.any()
            || (pos.has_royal_attrs()
                && Iterator::any(&mut pos.colour(c), |s| pos.unit(s).is_some_and(|u| u.has(position::ROYAL))));
        if !royal {
            return Err(SetupError::MissingKing(c));
        }
    }
    Ok(())
}

impl Position {
    /// The position of a setup, as given (no validation: see [`position_from_fen`]). The
    /// castling homes come from the rights: a side holding a right has its king's home on
    /// its king's file and each right's rook on the right's file; other homes are the
    /// orthodox e-, a- and h-files.
    pub fn from_setup(s: &Setup) -> Position {
        let mut pos = Position::empty();
        for sq in Square::ALL {
            if let Some(p) = s.get(sq) {
                pos.setup_put(sq, Unit::new(p.colour, p.kind));
            }
        }
        pos.setup_side(s.side);
        let mut homes = position::CastlingHomes::ORTHODOX;
        let mut rights = 0;
        for (i, c) in Colour::PLAYERS.into_iter().enumerate() {
            let slots = [2 * i, 2 * i + 1];
            if slots.iter().all(|&k| s.castling[k].is_none()) {
                continue;
            }
            let rank = chimere_core::setup::back_rank(c);
            if let Some(k) = slots.iter().find_map(|&k| castling_king(s, k)) {
                homes.king[i] = k;
            }
            rights |= [position::W_KING, position::B_KING][i];
            for k in slots {
                if let Some(f) = s.castling[k] {
                    homes.rook[k] = f;
                    // The rook's part of the right only with the rook in place.
                    if s.get(Square::from_coords(f, rank)) == Some(chimere_core::Piece::new(c, walk::ROOK)) {
                        rights |= position::SLOT_BITS[k];
                    }
                }
            }
        }
        pos.setup_homes(homes);
        pos.setup_rights(rights);
        if let Some(t) = s.ep {
            let dr = if s.side == Colour::White { -1 } else { 1 };
            if let Some(pawn) = t.offset(0, dr) {
                pos.setup_ep(Some(position::EnPassant::new(t, pawn, None)));
            }
        }
        pos.setup_counters(s.plies, s.halfmove);
        pos
    }

    /// The orthodox part of the position as a setup: the pieces (attributes, hidden units,
    /// holes and the turn state are not part of it), side, usable castling rights by rook
    /// file, en passant square, counters.
    pub fn setup(&self) -> Setup {
        let mut s = Setup::empty();
        for (sq, p) in self.board().iter() {
            s.board[sq.index()] = Some(p);
        }
        s.side = if self.side() == Colour::Black { Colour::Black } else { Colour::White };
        let homes = self.homes();
        for slot in 0..4 {
            let king = if slot < 2 { position::W_KING } else { position::B_KING };
            let both = king | position::SLOT_BITS[slot];
            if self.rights() & both == both {
                s.castling[slot] = Some(homes.rook[slot]);
            }
        }
        s.ep = self.ep().map(|e| e.target);
        s.halfmove = self.halfmove_clock();
        s.plies = self.plies();
        s
    }

    /// The position in vchess FEN (`board side plies castling-files ep`), with the fairy
    /// letters of [`FEN_NOTATION`]; what a FEN cannot say (attributes, hidden units, holes,
    /// turn state) is left out.
    pub fn fen(&self) -> String {
        self.setup().write(Dialect::Vchess, &FEN_NOTATION)
    }

    /// The position in standard FEN (X-FEN castling letters for Chess960 arrays).
    pub fn standard_fen(&self) -> String {
        self.setup().write(Dialect::Standard, &FEN_NOTATION)
    }
}

impl Game {
    /// The position in vchess FEN ([`Position::fen`]).
    pub fn fen(&self) -> String {
        self.pos.fen()
    }
}
