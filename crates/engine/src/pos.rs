//! What the search needs from a set of rules beyond the current `Variant` trait.
//!
//! TEMPORARY: these are the names of the game API being added to `chimere_core::Variant`
//! (API-CONTRACT). Until it lands, this trait supplies them for the variants the engine
//! was developed against; once it lands, the trait becomes a blanket forward.

use chimere_core::{Board, Colour, Variant};

/// What completing a threefold repetition means.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Repetition {
    /// The game is drawn.
    Draw,
    /// The player who completes it loses (Fugue).
    CompleterLoses,
}

/// The game API as the search uses it.
pub trait Api: Variant<Move: Eq> {
    /// The side to move (may stay the same after a turn).
    fn side_to_move(&self) -> Colour;
    /// The side to move is in check (false where the variant has no check).
    fn in_check(&mut self) -> bool;
    /// Captures (any removal of an enemy unit) and promotions.
    fn is_noisy(&self, m: &Self::Move) -> bool;
    /// The pieces.
    fn board(&self) -> &Board;
    /// A compact id of the turn, unique within the position.
    fn move_id(&self, m: &Self::Move) -> u32;
    /// The UCI token of a turn.
    fn uci(&self, m: &Self::Move, chess960: bool) -> String;
    /// A capture or a pawn move (false: no fifty-move rule).
    fn resets_fifty(&self, m: &Self::Move) -> bool;
    /// Whether neither side can win by material.
    fn insufficient_material(&self) -> bool {
        false
    }
    /// Whether the fifty-move rule applies.
    const FIFTY: bool;
    /// The threefold-repetition rule.
    const REPETITION: Repetition;
}

impl Api for chimere_chess::Chess {
    fn side_to_move(&self) -> Colour {
        self.side()
    }
    fn in_check(&mut self) -> bool {
        chimere_chess::Chess::in_check(self)
    }
    fn is_noisy(&self, m: &Self::Move) -> bool {
        matches!(m.flag, chimere_chess::Flag::EnPassant | chimere_chess::Flag::Promote(_))
            || (m.flag != chimere_chess::Flag::Castle && self.board().get(m.to).is_some())
    }
    fn board(&self) -> &Board {
        chimere_chess::Chess::board(self)
    }
    fn move_id(&self, m: &Self::Move) -> u32 {
        let f = match m.flag {
            chimere_chess::Flag::Normal => 0,
            chimere_chess::Flag::DoublePush => 1,
            chimere_chess::Flag::EnPassant => 2,
            chimere_chess::Flag::Castle => 3,
            chimere_chess::Flag::Promote(k) => 4 + k.0 as u32,
        };
        m.from.index() as u32 | (m.to.index() as u32) << 6 | f << 12
    }
    fn uci(&self, m: &Self::Move, chess960: bool) -> String {
        let mut s = format!("{}{}", m.from, m.to);
        match m.flag {
            chimere_chess::Flag::Castle if !chess960 => {
                let f = if m.to.file() > m.from.file() { 6 } else { 2 };
                let dest = chimere_core::Square::from_coords(f, m.from.rank());
                if (dest.file() as i8 - m.from.file() as i8).abs() >= 2 {
                    s = format!("{}{}", m.from, dest);
                }
            }
            chimere_chess::Flag::Promote(k) => s.push(chimere_chess::NOTATION.kind_char(k)),
            _ => {}
        }
        s
    }
    fn resets_fifty(&self, m: &Self::Move) -> bool {
        self.is_noisy(m) || self.board().get(m.from).is_some_and(|p| p.kind == chimere_chess::PAWN)
    }
    fn insufficient_material(&self) -> bool {
        chimere_chess::game_level::insufficient_material(self)
    }
    const FIFTY: bool = true;
    const REPETITION: Repetition = Repetition::Draw;
}

/// A pass taken back by [`unmake_null`].
pub enum NullUndo {
    Chess(chimere_chess::Undo),
}

/// Passes the turn for null-move pruning, where the rules can (orthodox chess: the game
/// API has no pass, so this asks the chess crate directly); `None` elsewhere.
pub fn make_null<V: Api>(pos: &mut V) -> Option<NullUndo> {
    let any: &mut dyn std::any::Any = pos;
    any.downcast_mut::<chimere_chess::Chess>().map(|c| NullUndo::Chess(c.make_null()))
}

/// Takes back [`make_null`].
pub fn unmake_null<V: Api>(pos: &mut V, u: NullUndo) {
    let any: &mut dyn std::any::Any = pos;
    match (any.downcast_mut::<chimere_chess::Chess>(), u) {
        (Some(c), NullUndo::Chess(u)) => c.unmake_null(u),
        (None, _) => {}
    }
}
