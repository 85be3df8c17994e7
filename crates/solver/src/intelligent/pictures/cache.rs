//! The pictures kept from one call to the next: enumerated once for the longest play
//! asked, and the parent position's pictures followed through a first move.

use super::*;

/// What pictures were enumerated for: (position, mating side, stalemate, the moves of
/// each side).
pub(super) type PicturesKey = (u64, Colour, bool, u32, u32);

/// The last pictures enumerated (`None`: a cheap enumeration failed), kept by the
/// searcher's pruning from one call to the next.
#[derive(Default)]
pub(in crate::intelligent) struct Cache {
    last: Option<(PicturesKey, Option<Arc<Pictures>>)>,
}

/// The pictures of a mate (stalemate) by `mater` within `m` moves of its own and `bmoves`
/// of the other side, enumerated for `most_m` and `most_b` moves when those are more (the
/// longest play the caller will ask from here: see [`crate::search::Pruning::plan`]) and
/// kept in `cache` for the next call. Pictures within more moves are a superset (every bound only loosens) and the
/// search checks each side's distances against its moves left, so the extra pictures only
/// cost time. `None`: the method does not apply. `cheap`: only a cheap enumeration
/// with full commitment serves (see [`CHEAP_BELOW`]); its failure is kept too.
pub(super) fn pictures_for(
    cache: &mut Cache,
    game: &Game,
    mater: Colour,
    stalemate: bool,
    budgets: (u32, u32, u32, u32),
    cheap: bool,
) -> Option<Arc<Pictures>> {
    let (m, bmoves, most_m, most_b) = budgets;
    let (most_m, most_b) = (most_m.max(m), most_b.max(bmoves));
    let key = (game.pos.hash(), mater, stalemate);
    if let Some(((h, c, st, cm, cb), p)) = &cache.last
        && (*h, *c, *st) == key
        && *cm >= m
        && *cb >= bmoves
    {
        return p.clone();
    }
    // Mate pictures searched together (see [`unite`]).
    let ready =
        |p: Pictures| Arc::new(if stalemate || p.ranges.len() > UNITE_UP_TO { p } else { unite(game, mater, p) });
    let most = (most_m, most_b);
    let pictures = if cheap {
        enumerate(game, mater, most, stalemate, true, CHEAP_WORK).map(ready)
    } else {
        // Full commitment first; on overflow, the pictures without it (for the moves asked).
        match enumerate(game, mater, most, stalemate, true, u64::MAX) {
            Some(p) => Some(ready(p)),
            None => {
                let asked = (m, bmoves);
                let full = if asked == most { None } else { enumerate(game, mater, asked, stalemate, true, u64::MAX) };
                return full.or_else(|| enumerate(game, mater, asked, stalemate, false, u64::MAX)).map(ready);
            }
        }
    };
    cache.last = Some(((key.0, key.1, key.2, most_m, most_b), pictures.clone()));
    pictures
}

/// Help play goes by the parent's pictures ([`Parent`]) when the longest play asked below
/// the first move has at most this many plies (all lengths of one problem go the same
/// way: the pictures kept are one position's). Measured on Popeye's `hpint` examples (one thread): `h=4`
/// and `h=5` gained (9.6 s to 4.1 s, 13.7 s to 6.7 s, 7.0 s to 5.0 s, 3.5 s to 1.8 s),
/// longer ones were mixed (an `h=8` 12 s to 32 s, another 3.6 s to 2.5 s): the parent's
/// pictures are looser than the child's own (the enumeration's checks see one more move
/// of the side that played first), and deep walks pay for it more often than they
/// save on the enumerations.
pub(super) const PARENT_UP_TO: u32 = 9;

/// The position a search by the pictures starts from was reached by `first` (and a pass
/// of the other side when `pass`: series play) from its parent, where the same mating
/// side has `budgets` (as [`pictures_for`] takes them: one more move for the side that
/// played `first`). The pictures of the parent serve here: every mate (stalemate) within
/// the moves left here is one within the parent's moves through `first`, so it fits a
/// picture of the parent's with each unit followed through `first` ([`follow`]); and the
/// parent's pictures are enumerated once for all its moves (the first-move loop of the
/// solver asks for each of them in turn), not once per move.
#[derive(Clone, Copy)]
pub(super) struct Parent {
    pub(super) first: Move,
    pub(super) pass: bool,
    pub(super) budgets: (u32, u32, u32, u32),
}

/// The pictures of the parent position (see [`Parent`]), the game taken back there and
/// brought back here; `None`: the method does not apply there.
pub(super) fn parent_pictures(
    s: &mut Searcher,
    cache: &mut Cache,
    mater: Colour,
    stalemate: bool,
    p: &Parent,
    cheap: bool,
) -> Option<Arc<Pictures>> {
    let here = s.game.pos.hash();
    if p.pass {
        s.game.unmake();
    }
    s.game.unmake();
    let pictures = pictures_for(cache, &s.game, mater, stalemate, p.budgets, cheap);
    let replayed = s.game.make(&p.first).is_some() && (!p.pass || s.game.make(&Move::NULL).is_some());
    debug_assert!(replayed && s.game.pos.hash() == here, "the parent's move replays to this position");
    pictures
}

/// Mate pictures up to this many are searched together ([`unite`]); beyond, one by one.
/// With the shared table the union was faster on Popeye's `intell` examples but for a
/// few (worst: 3.3 s to 3.6 s), so this is the enumeration's own limit: every mate enumeration is united
/// (at most about 130 MB of completions), and the one-by-one walk serves the stalemate
/// pictures without full commitment.
pub(super) const UNITE_UP_TO: usize = MAX_PICTURES;
