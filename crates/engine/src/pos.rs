//! The search's view of the rules: any [`Variant`], with its pieces as a [`Board`] for the
//! evaluation's bitboards (`Variant::board` where the rules keep one, else a scratch board
//! filled from `Variant::for_each_piece`).

use chimere_core::{Board, Variant};

/// The search's name for the rules: any [`Variant`].
pub trait Api: Variant {}
impl<V: Variant> Api for V {}

/// The pieces of `pos`: its own board where it keeps one, else `scratch` filled from
/// `for_each_piece`.
#[inline]
pub fn board<'a, V: Variant>(pos: &'a V, scratch: &'a mut Board) -> &'a Board {
    if let Some(b) = pos.board() {
        return b;
    }
    *scratch = Board::empty();
    pos.for_each_piece(&mut |s, p| {
        if scratch.get(s).is_none() {
            scratch.put(s, p);
        }
    });
    scratch
}
