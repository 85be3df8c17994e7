//! The search's view of the rules: any [`Variant`], with its pieces as a [`Board`] for the
//! evaluation's bitboards (`Variant::board` where the rules keep one, else a scratch board
//! filled from `Variant::for_each_piece`).

use crate::eval::{self, Attacks, EvalData, Tables};
use chimere_core::{Board, Variant};
use chimere_rules::types::{Checkered, Chess, Dynamo, FairyChess, Fugue, Interweave};

/// The search's view of a rules type: a [`Variant`] with its evaluation (the data of
/// `eval/<variant>.rs` and its feature). Implemented once per rules type of the registry
/// (`chimere_rules::types`): a rules type without one cannot be searched (compile error
/// where `with_rules!` dispatches to it).
pub trait Api: Variant {
    /// The evaluation numbers.
    fn eval_data() -> &'static EvalData;
    /// The hand-set numbers that a fit started from (the same as [`Api::eval_data`] where
    /// nothing was fitted): self-play matches measure a fit against them.
    fn hand_set_data() -> &'static EvalData;
    /// The variant feature, white's view.
    /// `seen`: the attack sets the mobility loop computed.
    fn feature(
        &self,
        b: &Board,
        t: &Tables,
        phase: i32,
        total: i32,
        seen: &Attacks,
        cache: Option<&mut eval::chess::PawnCache>,
    ) -> i32;
}

impl Api for Chess {
    fn eval_data() -> &'static EvalData {
        &eval::chess::DATA
    }
    fn hand_set_data() -> &'static EvalData {
        &eval::chess::HAND_SET
    }
    fn feature(
        &self,
        b: &Board,
        t: &Tables,
        phase: i32,
        total: i32,
        seen: &Attacks,
        cache: Option<&mut eval::chess::PawnCache>,
    ) -> i32 {
        eval::chess::feature(b, phase, total, &t.data.terms, seen, cache)
    }
}

impl Api for FairyChess {
    fn eval_data() -> &'static EvalData {
        &eval::chess::FAIRY
    }
    fn hand_set_data() -> &'static EvalData {
        &eval::chess::FAIRY
    }
    fn feature(
        &self,
        b: &Board,
        t: &Tables,
        phase: i32,
        total: i32,
        seen: &Attacks,
        cache: Option<&mut eval::chess::PawnCache>,
    ) -> i32 {
        eval::chess::feature(b, phase, total, &t.data.terms, seen, cache)
    }
}

impl Api for Checkered {
    fn eval_data() -> &'static EvalData {
        &eval::checkered::DATA
    }
    fn hand_set_data() -> &'static EvalData {
        &eval::checkered::HAND_SET
    }
    fn feature(
        &self,
        b: &Board,
        t: &Tables,
        _: i32,
        _: i32,
        _: &Attacks,
        _: Option<&mut eval::chess::PawnCache>,
    ) -> i32 {
        eval::checkered::feature(self, b, t, self.side_to_move())
    }
}

impl Api for Interweave {
    fn eval_data() -> &'static EvalData {
        &eval::interweave::DATA
    }
    fn hand_set_data() -> &'static EvalData {
        &eval::interweave::HAND_SET
    }
    fn feature(
        &self,
        b: &Board,
        t: &Tables,
        _: i32,
        _: i32,
        _: &Attacks,
        _: Option<&mut eval::chess::PawnCache>,
    ) -> i32 {
        eval::interweave::feature(self, b, t)
    }
}

impl Api for Fugue {
    fn eval_data() -> &'static EvalData {
        &eval::fugue::DATA
    }
    fn hand_set_data() -> &'static EvalData {
        &eval::fugue::HAND_SET
    }
    fn feature(
        &self,
        b: &Board,
        t: &Tables,
        _: i32,
        _: i32,
        _: &Attacks,
        _: Option<&mut eval::chess::PawnCache>,
    ) -> i32 {
        eval::fugue::feature(self, b, t)
    }
}

impl Api for Dynamo {
    fn eval_data() -> &'static EvalData {
        &eval::dynamo::DATA
    }
    fn hand_set_data() -> &'static EvalData {
        &eval::dynamo::HAND_SET
    }
    fn feature(
        &self,
        b: &Board,
        _: &Tables,
        _: i32,
        _: i32,
        _: &Attacks,
        _: Option<&mut eval::chess::PawnCache>,
    ) -> i32 {
        eval::dynamo::feature(self, b, self.side_to_move())
    }
}

/// The pieces of `pos`: its own board where it keeps one, else `scratch` filled from
/// `for_each_piece` — with the kinds of the orthodox board only, the ones the evaluation
/// has numbers for (a fairy piece beyond them is not counted).
#[inline]
pub fn board<'a, V: Variant>(pos: &'a V, scratch: &'a mut Board) -> &'a Board {
    if let Some(b) = pos.board() {
        return b;
    }
    *scratch = Board::empty();
    pos.for_each_piece(&mut |s, p| {
        if scratch.get(s).is_none() && p.kind.index() < <Board>::KINDS {
            scratch.put(s, p);
        }
    });
    scratch
}
