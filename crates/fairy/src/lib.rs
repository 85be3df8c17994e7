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
pub use rules::{Condition, Game, Note, RuleSet, RulesError};

use chimere_core::{Colour, Effect, Notation, Square};
use std::sync::Arc;

/// Letters of the kinds in the canonical move format (`-e2:wp +e4:wp`): the orthodox FEN
/// letters, then nightrider `h`, rose `o`, locust `l`, nightrider-locust `m`,
/// bishop-locust `c`, rook-locust `t`, dummy `d`, grasshopper `g`; neutral colour `n`.
pub const NOTATION: Notation = Notation { kind_letters: b"pnbrqkholmctdg", shared_colour: 'n' };

/// A game from an orthodox FEN and condition names (see [`conditions::by_name`]), e.g.
/// `game_from_fen("...", &["circe", "anticirce cheylan"])` (refused if they cannot combine).
pub fn game_from_fen(fen: &str, conditions: &[&str]) -> Result<Game, String> {
    let pos = position_from_fen(fen)?;
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
    /// joining a stack is added there).
    pub fn canonical(&mut self, mv: &Move) -> Option<String> {
        let stacks = self.rules.base_move.is_some();
        self.make(mv)?;
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
        Some(chimere_core::canonical::part_from_effects(&effects, &NOTATION, "PASS"))
    }
}

/// Writes a position as a standard FEN (pieces, side, castling rights KQkq, en passant;
/// the counters are not kept by the fairy position and are written `0 1`). Fairy kinds
/// are written by their Popeye letters in braces (`{NR}`).
pub fn write_fen(pos: &Position) -> String {
    let mut out = String::new();
    for rank in (0..8u8).rev() {
        let mut empty = 0;
        for file in 0..8u8 {
            match pos.unit(Square::from_coords(file, rank)) {
                Some(u) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push_str(&chess_game::fen_letters(u.piece));
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push_str(if pos.side() == Colour::White { " w " } else { " b " });
    let r = pos.rights();
    let mut castling = String::new();
    for (bits, c) in [
        (position::W_KING | position::W_KINGSIDE, 'K'),
        (position::W_KING | position::W_QUEENSIDE, 'Q'),
        (position::B_KING | position::B_KINGSIDE, 'k'),
        (position::B_KING | position::B_QUEENSIDE, 'q'),
    ] {
        if r & bits == bits {
            castling.push(c);
        }
    }
    out.push_str(if castling.is_empty() { "-" } else { &castling });
    match pos.ep() {
        Some(e) => out.push_str(&format!(" {} 0 1", e.target)),
        None => out.push_str(" - 0 1"),
    }
    out
}

/// Reads an orthodox FEN, standard (`w KQkq - 0 1`) or vchess (`w 0 ahah -`): pieces
/// K Q R B N P, side, castling, en passant (counters ignored).
pub fn position_from_fen(fen: &str) -> Result<Position, String> {
    let mut f = fen.split_whitespace();
    let board = f.next().ok_or("empty FEN")?;
    let mut pos = Position::empty();
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!("FEN board: expected 8 ranks, got {}", ranks.len()));
    }
    for (i, r) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in r.chars() {
            if let Some(d) = c.to_digit(10) {
                file = file.saturating_add(d as u8);
                if file > 8 {
                    return Err(format!("FEN board: rank {} too long", rank + 1));
                }
                continue;
            }
            if file >= 8 {
                return Err(format!("FEN board: rank {} too long", rank + 1));
            }
            let colour = if c.is_ascii_uppercase() { Colour::White } else { Colour::Black };
            let letter = match c.to_ascii_uppercase() {
                'N' => "S".to_string(),
                o => o.to_string(),
            };
            let kind = walk::kind_of_letters(&letter).ok_or_else(|| format!("FEN board: bad piece {c}"))?;
            pos.setup_put(Square::from_coords(file, rank), Unit::new(colour, kind));
            file += 1;
        }
        if file != 8 {
            return Err(format!("FEN board: rank {} has {} files", rank + 1, file));
        }
    }
    let side = match f.next().unwrap_or("w") {
        "w" => Colour::White,
        "b" => Colour::Black,
        s => return Err(format!("FEN side: {s}")),
    };
    pos.setup_side(side);
    let third = f.next().unwrap_or("-");
    let implied = pos.implied_rights();
    let mut r = 0;
    let ep = if !third.is_empty() && third.bytes().all(|b| b.is_ascii_digit()) {
        // vchess FEN: turns played, castling files (white a-side, h-side, black a-side,
        // h-side; `i` = lost), en passant.
        let castling = f.next().ok_or("FEN castling: missing")?;
        let b = castling.as_bytes();
        if castling != "-" && b.len() != 4 {
            return Err(format!("FEN castling: `{castling}` is not four files"));
        }
        if castling != "-" {
            let bits = [position::W_QUEENSIDE, position::W_KINGSIDE, position::B_QUEENSIDE, position::B_KINGSIDE];
            for (i, &c) in b.iter().enumerate() {
                let expected = if i % 2 == 0 { b'a' } else { b'h' };
                match c {
                    b'i' => {}
                    c if c == expected => {
                        r |= bits[i] | if i < 2 { position::W_KING } else { position::B_KING };
                    }
                    b'a'..=b'h' => {
                        return Err(format!("FEN castling: Chess960 rook files (`{castling}`) are not supported"));
                    }
                    _ => return Err(format!("FEN castling: bad letter in `{castling}`")),
                }
            }
        }
        f.next().unwrap_or("-")
    } else {
        for c in third.chars() {
            r |= match c {
                'K' => position::W_KING | position::W_KINGSIDE,
                'Q' => position::W_KING | position::W_QUEENSIDE,
                'k' => position::B_KING | position::B_KINGSIDE,
                'q' => position::B_KING | position::B_QUEENSIDE,
                '-' => 0,
                _ => return Err(format!("FEN castling: {third}")),
            };
        }
        f.next().unwrap_or("-")
    };
    pos.setup_rights(r & implied);
    if ep != "-" {
        let t = Square::parse(ep).ok_or_else(|| format!("FEN en passant: {ep}"))?;
        let pawn = if side == Colour::White { t.offset(0, -1) } else { t.offset(0, 1) };
        let pawn = pawn.ok_or_else(|| format!("FEN en passant: {ep}"))?;
        pos.setup_ep(Some(position::EnPassant { target: t, pawn, also: None }));
    }
    Ok(pos)
}
