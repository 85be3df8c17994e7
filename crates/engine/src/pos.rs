//! What the search reads from the rules besides `chimere_core::Variant`: the pieces as a
//! [`Board`] (for the evaluation's bitboards) and a pass for null-move pruning.
//!
//! The game API gives the pieces through `Variant::for_each_piece`; for the rules types
//! that keep a [`Board`] the search borrows it directly (found through `Any`, the variant
//! types being `'static`), otherwise it fills a scratch board. The API has no pass; orthodox
//! chess offers one (`Chess::make_null`), used where the variant's data allows null moves.

use chimere_core::{Board, Variant};
use std::any::Any;

/// The search's name for the rules: any [`Variant`].
pub trait Api: Variant {}
impl<V: Variant> Api for V {}

/// The pieces of `pos`: its own board where it keeps one, else `scratch` filled from
/// `for_each_piece`.
#[inline]
pub fn board<'a, V: Variant>(pos: &'a V, scratch: &'a mut Board) -> &'a Board {
    let any: &dyn Any = pos;
    if let Some(c) = any.downcast_ref::<chimere_chess::Chess>() {
        return c.board();
    }
    if let Some(c) = any.downcast_ref::<chimere_fugue::Fugue>() {
        return c.board();
    }
    if let Some(c) = any.downcast_ref::<chimere_dynamo::Dynamo>() {
        return c.board();
    }
    if let Some(c) = any.downcast_ref::<chimere_fairy::Game>() {
        return c.pos.board();
    }
    *scratch = Board::empty();
    pos.for_each_piece(&mut |s, p| {
        if scratch.get(s).is_none() {
            scratch.put(s, p);
        }
    });
    scratch
}

/// A pass taken back by [`unmake_null`].
pub enum NullUndo {
    Chess(chimere_chess::Undo),
}

/// Passes the turn for null-move pruning, where the rules can (orthodox chess); `None`
/// elsewhere.
pub fn make_null<V: Variant>(pos: &mut V) -> Option<NullUndo> {
    let any: &mut dyn Any = pos;
    any.downcast_mut::<chimere_chess::Chess>().map(|c| NullUndo::Chess(c.make_null()))
}

/// Takes back [`make_null`].
pub fn unmake_null<V: Variant>(pos: &mut V, u: NullUndo) {
    let any: &mut dyn Any = pos;
    match (any.downcast_mut::<chimere_chess::Chess>(), u) {
        (Some(c), NullUndo::Chess(u)) => c.unmake_null(u),
        (None, _) => {}
    }
}
