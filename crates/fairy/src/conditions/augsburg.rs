//! Augsburg (seed; Popeye has no equivalent, `-c augsburg`, extension keyword `Augsburg`):
//! a unit other than a king may also move onto a square occupied by a unit of its own
//! side, forming a stack. Every unit of a stack keeps its own powers; when one unit of a
//! stack moves, any of the others may go along with it (as one move) or stay. Exception to
//! the default rules: a pawn on its own first rank is immobile.
//!
//! Our reading, where the seed is silent:
//! - Joining uses the unit's non-capturing powers: a rider's line up to the first unit, a
//!   leaper's or hopper's landing square, a pawn's steps forward (a pawn joins diagonally
//!   never; joining onto its promotion rank it promotes). Units of the other side and
//!   neutral units never join or are joined.
//! - Going along: any subset of the other units of the departure stack may follow the
//!   moving unit to its arrival square, whatever their own powers (a pawn reaching its
//!   promotion rank this way promotes, the kind chosen by its side; a pawn on its first
//!   rank is immobile and stays). A king may go along, but never onto a square held by a
//!   unit of its side (the seed's exception for kings).
//! - A capture takes every unit of the captured square (en passant included): `[-bSd5]`
//!   names the units taken besides the one on the board.
//! - Moves with the same effect are one move: the moving unit is the first of the moving
//!   units (in the stack's order) that could make the move with the same effect, and
//!   identical units are interchangeable — except a king or rook holding a castling
//!   right, which differs from an identical unit that joined it.
//! - Castling moves the king and rook alone; it needs them on their squares with their
//!   rights. A unit joining a king or rook does not take the right; the king or rook
//!   leaving (alone or going along) does.
//! - En passant follows a pawn's step of two squares when the pawn is the moving unit and
//!   ends on an empty square without its king going along (the king is then the unit on
//!   the board): a pawn carried two squares, or stepping onto a stack, gives none. So
//!   "the pawn steps two, the rook goes along" and "the rook moves, carrying the pawn"
//!   are two moves.
//! - Check is the capture of the king's square by any unit of a stack (hidden units
//!   observe from their square; they take the whole stack on the king's square).
//! - Notation: the moving unit's move, then each unit going along as a transfer:
//!   `Rd1-d5[wSd1->d5]`, `Rd7-d8[wPd7->d8=Q]`.
//!
//! Representation: the units of a square after the first are hidden under it in the
//! position's underworld, in the order they arrived; a royal unit is always the one on
//! the board. [`crate::Move::stack`] encodes the moving unit (index in the stack, bits
//! 0–3), the units going along (bits 4–19) and the promotions of the pawns going along
//! (one digit per promoting pawn in the base of the number of promotion kinds: bits 20–31,
//! continued in [`crate::Move::choice`] — 28 bits, eight pawns promoting together to the
//! orthodox kinds). A stack holds at most 16 units (a side's full set); a move making a
//! bigger one is refused. The same units in another order are the same position for the
//! rules but hash differently (transpositions between them are missed, nothing else).
//!
//! Augsburg combines with conditions that neither move captures nor add consequences,
//! filters, paralysis or moves of their own (Glasgow, Sans échec, forced squares, piece
//! set substitutions...); the others are refused.

use crate::moves::{self, GenParams, Move};
use crate::position::{Position, ROYAL, Unit};
use crate::rules::{
    BaseMove, Capabilities, Condition, Note, Notes, Observation, Promotee, Reject, RuleSet, RulesError,
};
use crate::walk::{KING, PAWN};
use arrayvec::ArrayVec;
use chimere_core::{Bitboard, Colour, Kind, Square};

#[derive(Clone, Debug, Default)]
pub struct Augsburg;

/// The most units a stack holds (a side's units); a move making a bigger stack is refused.
const STACK_MAX: usize = 16;
/// Bits of [`Move::stack`] for the promotions of the units going along (the code goes on
/// in [`Move::choice`], 16 more bits).
const PROMO_BITS: u32 = 12;
/// Promotion codes that fit (4^8: eight pawns promoting together to the orthodox kinds).
const PROMO_CODES: u32 = 1 << (PROMO_BITS + 16);

/// The units of the square `sq`: the one on the board, then the hidden ones in their
/// order, each with its index in the underworld (`None` for the board's).
fn stack(pos: &Position, sq: Square) -> ArrayVec<(Option<usize>, Unit), STACK_MAX> {
    let mut st = ArrayVec::new();
    if let Some(u) = pos.unit(sq) {
        st.push((None, u));
        for (i, u) in pos.under(sq) {
            if st.try_push((Some(i), u)).is_err() {
                break;
            }
        }
    }
    st
}

/// Writes the moving unit, the units going along and their promotion code into `m`.
fn encode(m: Move, mover: usize, along: u32, promos: u32) -> Move {
    let low = promos & ((1 << PROMO_BITS) - 1);
    Move { stack: mover as u32 | along << 4 | low << 20, choice: (promos >> PROMO_BITS) as u16, ..m }
}

/// The moving unit's index, the units going along, the promotion code.
fn decode(m: &Move) -> (usize, u32, u32) {
    ((m.stack & 15) as usize, (m.stack >> 4) & 0xFFFF, m.stack >> 20 | (m.choice as u32) << PROMO_BITS)
}

/// Same unit for the rules (the diagram square does not matter).
fn same(a: Unit, b: Unit) -> bool {
    a.piece == b.piece && a.attrs == b.attrs && a.powers == b.powers
}

fn royal(u: Unit) -> bool {
    u.kind() == KING || u.has(ROYAL)
}

/// Rank of `sq` counted from the first rank of `c`.
fn relative_rank(c: Colour, sq: Square) -> u8 {
    if c == Colour::Black { 7 - sq.rank() } else { sq.rank() }
}

/// A pawn on its own first rank (immobile under Augsburg).
fn pinned_pawn(u: Unit, sq: Square) -> bool {
    u.kind() == PAWN && u.colour() != Colour::Shared && relative_rank(u.colour(), sq) == 0
}

/// A pawn of `u`'s side promotes on arriving on `to`.
fn promotes(u: Unit, to: Square, promotion_rank: u8) -> bool {
    u.kind() == PAWN && u.colour() != Colour::Shared && relative_rank(u.colour(), to) == promotion_rank
}

/// A pawn's step of two or more squares (it gives en passant when the pawn moves).
fn double_step(u: Unit, m: &Move) -> bool {
    u.kind() == PAWN && m.capture.is_none() && m.from.file() == m.to.file() && m.from.rank().abs_diff(m.to.rank()) >= 2
}

/// Whether `out[range]` holds a move to the same squares as `m` (same arrival, capture
/// and en passant).
fn can_make(out: &[Move], m: &Move) -> bool {
    out.iter().any(|o| o.to == m.to && o.capture == m.capture && o.ep == m.ep)
}

/// The units of one square while its moves are generated.
struct Stack {
    units: ArrayVec<(Option<usize>, Unit), STACK_MAX>,
    /// Interchangeable units share a class: the index of the first of them. The unit on
    /// the board holding a castling right is a class of its own (the right leaves with it).
    class: [u8; STACK_MAX],
}

impl Stack {
    fn new(pos: &Position, s: Square) -> Stack {
        let units = stack(pos, s);
        let mut class = [0u8; STACK_MAX];
        let right = pos.rights() & pos.rights_of_square(s) != 0;
        for j in 0..units.len() {
            let u = units[j].1;
            let first = (0..j).find(|&k| !(k == 0 && right) && same(units[k].1, u)).unwrap_or(j);
            class[j] = if j == 0 && right { 0 } else { first as u8 };
        }
        Stack { units, class }
    }
    fn len(&self) -> usize {
        self.units.len()
    }
    fn unit(&self, j: usize) -> Unit {
        self.units[j].1
    }
    fn alike(&self, a: usize, b: usize) -> bool {
        self.class[a] == self.class[b]
    }
}

impl Augsburg {
    /// Appends every move of the stack on `s` (moving unit `i`, any units going along)
    /// except those of the board's unit alone, which the engine generates.
    fn stack_moves(&self, pos: &Position, s: Square, mover: Colour, gp: &GenParams, out: &mut Vec<Move>) {
        let st = Stack::new(pos, s);
        let n = st.len();
        let base_start = out.len();
        let mut ranges = [(0usize, 0usize); STACK_MAX];
        for (range, &(_, u)) in ranges.iter_mut().zip(st.units.iter()) {
            let start = out.len();
            if n > 1 {
                moves::generate_unit(pos, s, u, mover, gp, out);
            }
            if !royal(u) {
                moves::generate_joins(pos, s, u, mover, gp, out);
            }
            *range = (start, out.len());
        }
        let base_end = out.len();
        let promo_count = gp.promotions.len().max(1) as u32;
        for i in 0..n {
            // Of interchangeable units the first one moves.
            if st.class[i] as usize != i {
                continue;
            }
            for k in ranges[i].0..ranges[i].1 {
                let m = out[k];
                let join = m.capture.is_none() && pos.unit(m.to).is_some();
                let mut eligible = 0u32;
                for j in 0..n {
                    let v = st.unit(j);
                    if j != i && !pinned_pawn(v, s) && !(join && royal(v)) {
                        eligible |= 1 << j;
                    }
                }
                let mut along = eligible;
                loop {
                    if !(i == 0 && along == 0 && !join) && self.canonical(&st, i, along, &m, join, out, &ranges) {
                        // The pawns promoting on arrival, in the stack's order.
                        let mut promoting: ArrayVec<usize, STACK_MAX> = ArrayVec::new();
                        for j in 0..n {
                            if along >> j & 1 != 0 && promotes(st.unit(j), m.to, gp.promotion_rank) {
                                promoting.push(j);
                            }
                        }
                        let total = promo_count.checked_pow(promoting.len() as u32).unwrap_or(u32::MAX);
                        if total <= PROMO_CODES {
                            for code in 0..total {
                                if promotions_sorted(&st, i, &m, &promoting, code, promo_count, gp.promotions) {
                                    out.push(encode(m, i, along, code));
                                }
                            }
                        }
                    }
                    if along == 0 {
                        break;
                    }
                    along = (along - 1) & eligible;
                }
            }
        }
        out.drain(base_start..base_end);
    }

    /// Whether unit `i` moving with the units `along` is the one way of writing this move:
    /// no unit going along is an interchangeable unit skipped over, or an earlier unit
    /// that could have made the same move with the same effect (a pawn's step of two
    /// squares gives en passant only if the pawn is the one moving; not onto a stack, nor
    /// with the king going along, which then stands on the board).
    #[allow(clippy::too_many_arguments)]
    fn canonical(
        &self,
        st: &Stack,
        i: usize,
        along: u32,
        m: &Move,
        join: bool,
        out: &[Move],
        ranges: &[(usize, usize); STACK_MAX],
    ) -> bool {
        let moving = along | 1 << i;
        let no_ep = join || (0..st.len()).any(|j| moving >> j & 1 != 0 && royal(st.unit(j)));
        for j in 0..st.len() {
            if along >> j & 1 == 0 {
                continue;
            }
            if (0..j).any(|k| k != i && along >> k & 1 == 0 && st.alike(k, j)) {
                return false;
            }
            let same_effect = no_ep || double_step(st.unit(j), m) == double_step(st.unit(i), m);
            if j < i && same_effect && can_make(&out[ranges[j].0..ranges[j].1], m) {
                return false;
            }
        }
        true
    }
}

/// Promotion digit `d` of promotion code `code`.
fn digit(code: u32, d: usize, base: u32) -> u32 {
    code / base.pow(d as u32) % base
}

/// Interchangeable promoting pawns take their promotion kinds in non-decreasing order
/// (the moving pawn's own promotion first), so that a move is written once.
fn promotions_sorted(
    st: &Stack,
    i: usize,
    m: &Move,
    promoting: &[usize],
    code: u32,
    base: u32,
    kinds: &[Kind],
) -> bool {
    let mover_digit = m.promo.and_then(|k| kinds.iter().position(|&x| x == k)).map(|d| d as u32);
    for (a, &ja) in promoting.iter().enumerate() {
        let da = digit(code, a, base);
        if let Some(md) = mover_digit
            && st.alike(ja, i)
            && da < md
        {
            return false;
        }
        for (b, &jb) in promoting.iter().enumerate().skip(a + 1) {
            if st.alike(ja, jb) && digit(code, b, base) < da {
                return false;
            }
        }
    }
    true
}

impl Condition for Augsburg {
    fn name(&self) -> String {
        "Augsburg".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            pawn_first_rank_immobile: true,
            extra_moves: true,
            extra_observation: true,
            stack_limit: Some(STACK_MAX),
            base_move: true,
            ..Capabilities::default()
        }
    }
    fn extra_moves(&self, pos: &Position, mover: Colour, gp: &GenParams, out: &mut Vec<Move>) {
        let mut stacks = Bitboard::EMPTY;
        for &(s, _) in pos.underworld() {
            stacks.set(s);
        }
        for s in pos.colour(mover) & gp.mobile {
            if stacks.has(s) {
                self.stack_moves(pos, s, mover, gp, out);
            } else if let Some(u) = pos.unit(s)
                && !royal(u)
            {
                // A unit alone: only its joins are not the engine's moves.
                moves::generate_joins(pos, s, u, mover, gp, out);
            }
        }
    }
    fn extra_observation(&self, pos: &mut Position, by: Colour, target: Square, pfri: bool) -> bool {
        // The hidden units of `by`, each tried in place of its square's board unit.
        let mut i = 0;
        while i < pos.underworld().len() {
            let (sq, u) = pos.underworld()[i];
            i += 1;
            if u.colour() != by {
                continue;
            }
            pos.begin();
            pos.remove(sq);
            pos.add(sq, u);
            let hit = moves::attacked_from(pos, by, target, pfri, Bitboard::from_square(sq));
            pos.rollback();
            if hit {
                return true;
            }
        }
        false
    }
    fn moving_unit(&self, pos: &Position, mv: &Move) -> Option<Unit> {
        let (i, _, _) = decode(mv);
        if i == 0 { None } else { stack(pos, mv.from).get(i).map(|&(_, u)| u) }
    }
    fn base_move(
        &self,
        pos: &mut Position,
        mv: &Move,
        rules: &RuleSet,
        notes: &mut Notes,
    ) -> Option<Result<BaseMove, Reject>> {
        // The engine plays a move of a unit alone that neither joins nor touches a stack.
        let joins = mv.capture.is_none() && mv.castle.is_none() && pos.unit(mv.to).is_some();
        let hidden = |s: Square| pos.under(s).next().is_some();
        let alone = mv.stack == 0
            && !joins
            && (pos.underworld().is_empty()
                || !(hidden(mv.from) || mv.capture.is_some_and(hidden) || mv.castle.is_some_and(|(rf, _)| hidden(rf))));
        if alone { None } else { Some(play(pos, mv, rules, notes)) }
    }
    fn check_combination(&self, rules: &RuleSet) -> Result<(), RulesError> {
        for (c, k) in rules.conditions_with_capabilities() {
            if c.name() == self.name() {
                continue;
            }
            if !k.slots.is_empty()
                || k.mobility
                || k.extra_moves
                || k.extra_observation
                || k.base_move
                || k.any_unit
                || k.capture_own
                || k.gains_walks
                || k.turns
                || k.check_rule
                || (k.legality && !k.judges_by_replies)
                || k.kings_ordinary
                || k.release.is_some()
                || k.observation != Observation::Attack
            {
                return Err(RulesError(format!(
                    "conditions {} and {} cannot be combined: its rules do not carry stacks of units",
                    self.name(),
                    c.name()
                )));
            }
        }
        Ok(())
    }
}

/// Puts `sq`'s first hidden unit on the board if the square is empty.
fn raise(pos: &mut Position, sq: Square) {
    let first = pos.under(sq).next().map(|(i, _)| i);
    if pos.unit(sq).is_none()
        && let Some(i) = first
    {
        let (_, u) = pos.unbury(i);
        pos.add(sq, u);
    }
}

/// Takes every unit of `sq` off the board and from under it (the last one first).
fn clear(pos: &mut Position, sq: Square, notes: &mut Notes) -> Result<(), Reject> {
    pos.remove(sq).ok_or(Reject)?;
    while let Some(i) = pos.under(sq).last().map(|(i, _)| i) {
        let (_, u) = pos.unbury(i);
        let _ = notes.try_push(Note::Vanished { sq, unit: u });
    }
    Ok(())
}

/// Plays a move that concerns a stack (see the module documentation).
fn play(pos: &mut Position, mv: &Move, rules: &RuleSet, notes: &mut Notes) -> Result<BaseMove, Reject> {
    let (from, to) = (mv.from, mv.to);
    let st = stack(pos, from);
    let (i, along, code) = decode(mv);
    let moving = st.get(i).ok_or(Reject)?.1;
    let leaving = along | 1 << i;
    // The units going along, with their promotions, in the stack's order.
    let base = rules.promotions.len().max(1) as u32;
    let mut arrivals: ArrayVec<Unit, STACK_MAX> = ArrayVec::new();
    arrivals.push(mv.promo.map_or(moving, |k| moving.with_kind(k)));
    let mut d = 0;
    for (j, &(_, u)) in st.iter().enumerate() {
        if along >> j & 1 == 0 {
            continue;
        }
        let promo = if promotes(u, to, rules.promotion_rank) {
            let k = *rules.promotions.get(digit(code, d, base) as usize).ok_or(Reject)?;
            d += 1;
            Some(k)
        } else {
            None
        };
        let _ = notes.try_push(Note::Transfer { from, to, unit: u, promo: promo.map(Promotee::plain) });
        arrivals.push(promo.map_or(u, |k| u.with_kind(k)));
    }
    // Leave: hidden units last first (their indices stay valid), then the board's unit.
    for j in (1..st.len()).rev() {
        if leaving >> j & 1 != 0 {
            pos.unbury(st[j].0.expect("a hidden unit"));
        }
    }
    if leaving & 1 != 0 {
        pos.remove(from);
    }
    raise(pos, from);
    if let Some(c) = mv.capture {
        clear(pos, c, notes)?;
    }
    if let Some((rf, rt)) = mv.castle {
        let rook = pos.remove(rf).ok_or(Reject)?;
        raise(pos, rf);
        if pos.unit(rt).is_some() {
            return Err(Reject);
        }
        pos.add(rt, rook);
    }
    // Arrive: on an own unit, under it; on an empty square, a royal unit (else the moving
    // one) on the board and the others under it.
    let first = if pos.unit(to).is_some() {
        if arrivals.iter().any(|&u| royal(u)) || 1 + pos.under(to).count() + arrivals.len() > STACK_MAX {
            return Err(Reject);
        }
        None
    } else {
        Some(arrivals.iter().position(|&u| royal(u)).unwrap_or(0))
    };
    if let Some(f) = first {
        pos.add(to, arrivals[f]);
    }
    for (k, &u) in arrivals.iter().enumerate() {
        if Some(k) != first && !pos.bury(to, u, true) {
            return Err(Reject);
        }
    }
    Ok(BaseMove { moving, stands: first == Some(0) })
}

#[cfg(test)]
mod tests {
    use crate::{Game, Move, game_from_fen, notation};
    use chimere_core::{Colour, Square};

    fn game(fen: &str) -> Game {
        game_from_fen(fen, &["augsburg"]).unwrap()
    }

    fn legal(g: &mut Game) -> Vec<(Move, String)> {
        notation::legal_with_texts(g)
    }

    fn texts(g: &mut Game) -> Vec<String> {
        legal(g).into_iter().map(|(_, t)| t).collect()
    }

    /// Plays the legal move written `text` (its check mark, if any, must be written).
    fn play(g: &mut Game, text: &str) {
        assert!(texts(g).iter().any(|t| t == text), "{text}: {:?}", texts(g));
        let m = notation::find_legal(g, text).expect("legal");
        assert!(g.make(&m).is_some());
    }

    fn sorted(v: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
        v.sort();
        v
    }

    /// The units on `sq`, board unit first, as letters (`wS`, `bR`).
    fn on(g: &Game, sq: &str) -> Vec<String> {
        let sq = Square::parse(sq).unwrap();
        let name = |u: crate::Unit| {
            let c = if u.colour() == Colour::White { 'w' } else { 'b' };
            format!("{c}{}", crate::walk::letters(u.kind()))
        };
        g.pos.unit(sq).into_iter().chain(g.pos.under(sq).map(|(_, u)| u)).map(name).collect()
    }

    #[test]
    fn the_opening_joins() {
        // The 20 orthodox moves, and every piece but the king may also move onto an own
        // unit it reaches by its non-capturing powers: Ra1 onto a2 and b1; Sb1 onto d2;
        // Bc1 onto b2 and d2; Qd1 onto c1, c2, d2, e2 and the king's square e1; Bf1 onto
        // e2 and g2; Sg1 onto e2; Rh1 onto g1 and h2. A pawn joins only forward, and the
        // squares before the pawns are empty: 20 + 15 moves.
        let m = texts(&mut game("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
        let joins = [
            "Ra1-a2", "Ra1-b1", "Sb1-d2", "Bc1-b2", "Bc1-d2", "Qd1-c1", "Qd1-c2", "Qd1-d2", "Qd1-e2", "Qd1-e1",
            "Bf1-e2", "Bf1-g2", "Sg1-e2", "Rh1-g1", "Rh1-h2",
        ];
        assert_eq!(m.len(), 35, "{m:?}");
        for j in joins {
            assert!(m.contains(&j.to_string()), "{j} {m:?}");
        }
    }

    #[test]
    fn a_stack_moves_one_unit_or_both() {
        // White Ke1 Ra1 Sb1, black Kd8. Ra1-b1 makes the stack b1 = knight (there first)
        // and rook; Black plays Kd8-d7. White then has: the king's five steps; the knight
        // alone or carrying the rook to a3, c3, d2; the rook alone or carrying the knight
        // up the b-file, to a1, c1, d1, and onto its own king (e1). Checks of the king d7:
        // a rook on b7 (c7 empty) or d1 or d2 (d-file empty), a knight on b6 or b8.
        let mut g = game("3k4/8/8/8/8/8/8/RN2K3 w - - 0 1");
        play(&mut g, "Ra1-b1");
        assert_eq!(on(&g, "b1"), ["wS", "wR"]);
        play(&mut g, "Kd8-d7");
        let checks = |rook: &str, knight: &str| ["b7", "d1", "d2"].contains(&rook) || ["b6", "b8"].contains(&knight);
        let mut want: Vec<String> = ["Ke1-d1", "Ke1-d2", "Ke1-e2", "Ke1-f1", "Ke1-f2"].map(String::from).to_vec();
        let mark = |c: bool| if c { " +" } else { "" };
        for to in ["a3", "c3", "d2"] {
            want.push(format!("Sb1-{to}{}", mark(checks("b1", to))));
            want.push(format!("Sb1-{to}[wRb1->{to}]{}", mark(checks(to, to))));
        }
        let rook: Vec<String> =
            (2..=8).map(|r| format!("b{r}")).chain(["a1", "c1", "d1", "e1"].map(String::from)).collect();
        for to in &rook {
            want.push(format!("Rb1-{to}{}", mark(checks(to, "b1"))));
            want.push(format!("Rb1-{to}[wSb1->{to}]{}", mark(checks(to, to))));
        }
        want.sort();
        assert_eq!(texts(&mut g), want);
        // The canonical form counts the hidden units as standing on their square.
        let canonical = |g: &mut Game, text: &str| {
            let (m, _) = legal(g).into_iter().find(|(_, t)| t == text).expect(text);
            g.canonical(&m).unwrap()
        };
        assert_eq!(canonical(&mut g, "Sb1-c3[wRb1->c3]"), "-b1:wn -b1:wr +c3:wn +c3:wr");
        assert_eq!(canonical(&mut g, "Sb1-c3"), "-b1:wn +c3:wn");
        assert_eq!(canonical(&mut g, "Rb1-b5"), "-b1:wr +b5:wr");
        assert_eq!(canonical(&mut g, "Rb1-e1"), "-b1:wr +e1:wr");
    }

    #[test]
    fn one_move_for_one_effect() {
        // Bc2-d3 stacks the bishop under the queen d3. Queen and bishop going together to
        // e4 is one move, written with the first unit of the stack moving (the queen).
        // Sd2-b1 stacks two knights: each knight move is listed once alone and once with
        // the other knight.
        let mut g = game("4k3/8/8/8/8/3Q4/2B5/1N1NK3 w - - 0 1");
        play(&mut g, "Bc2-d3");
        play(&mut g, "Ke8-f7");
        play(&mut g, "Sd1-b2");
        play(&mut g, "Kf7-e8");
        // Check marks aside (the queen on e4 checks the king e8).
        let m: Vec<String> = texts(&mut g).iter().map(|t| t.trim_end_matches(" +").to_string()).collect();
        let count = |t: &str| m.iter().filter(|x| *x == t).count();
        assert_eq!(count("Qd3-e4[wBd3->e4]"), 1, "{m:?}");
        assert_eq!(count("Bd3-e4[wQd3->e4]"), 0);
        assert_eq!(count("Qd3-e4"), 1);
        assert_eq!(count("Bd3-e4"), 1);

        let mut g = game("4k3/8/8/8/8/8/3N4/1N2K3 w - - 0 1");
        play(&mut g, "Sd2-b1");
        play(&mut g, "Ke8-e7");
        let m = texts(&mut g);
        let count = |t: &str| m.iter().filter(|x| *x == t).count();
        assert_eq!(count("Sb1-c3"), 1, "{m:?}");
        assert_eq!(count("Sb1-c3[wSb1->c3]"), 1);
        assert_eq!(count("Sb1-a3"), 1);
    }

    #[test]
    fn units_going_along_promote_and_first_rank_pawns_stay() {
        // Rd6-d7 stacks the rook under the pawn d7. To d8: the pawn alone or carrying the
        // rook, promoting (4 + 4); the rook alone (1); "the rook carrying the pawn" is the
        // same as the pawn carrying the rook. The rook may carry the pawn down the file to
        // d1, the pawn's first rank, where it is then immobile: the rook moves alone.
        let mut g = game("k7/8/3R4/8/8/8/8/4K3 w - - 0 1");
        g.pos.setup_put(Square::parse("d7").unwrap(), crate::Unit::new(Colour::White, crate::walk::PAWN));
        let mut g = Game::new(g.rules.clone(), g.pos.clone());
        play(&mut g, "Rd6-d7");
        play(&mut g, "Ka8-b8");
        let m = texts(&mut g);
        let to_d8: Vec<&String> = m.iter().filter(|t| t.contains("d7-d8")).collect();
        let want = [
            "Rd7-d8 +",
            "d7-d8=B",
            "d7-d8=B[wRd7->d8] +",
            "d7-d8=Q +",
            "d7-d8=Q[wRd7->d8] +",
            "d7-d8=R +",
            "d7-d8=R[wRd7->d8] +",
            "d7-d8=S",
            "d7-d8=S[wRd7->d8] +",
        ];
        assert_eq!(to_d8, want.iter().collect::<Vec<_>>(), "{m:?}");
        play(&mut g, "Rd7-d1[wPd7->d1]");
        play(&mut g, "Kb8-a8");
        assert_eq!(on(&g, "d1"), ["wR", "wP"]);
        let m = texts(&mut g);
        assert!(m.contains(&"Rd1-d5".to_string()));
        assert!(!m.iter().any(|t| t.contains("[wPd1") || t.starts_with("d1")), "{m:?}");
    }

    #[test]
    fn a_knight_carries_a_pawn_to_promotion() {
        // Se5-... the knight joins the pawn e7 (Sg6-e7); then the knight may carry the
        // pawn to c8 and g8, where it promotes (four kinds each).
        let mut g = game("k7/4P3/6N1/8/8/8/8/4K3 w - - 0 1");
        play(&mut g, "Sg6-e7");
        play(&mut g, "Ka8-b7");
        let m = texts(&mut g);
        let c8: Vec<&String> = m.iter().filter(|t| t.starts_with("Se7-c8[")).collect();
        assert_eq!(c8.len(), 4, "{m:?}");
        assert!(m.iter().any(|t| t.starts_with("Se7-g8[wPe7->g8=Q]")), "{m:?}");
    }

    #[test]
    fn a_capture_takes_the_whole_stack() {
        // Sg1-e2 stacks the knight under the pawn e2; e2-e4 carrying the knight gives the
        // pawn d4 its en passant capture, which takes both units.
        let mut g = game("4k3/8/8/8/3p4/8/4P3/4K1N1 w - - 0 1");
        play(&mut g, "Sg1-e2");
        play(&mut g, "Ke8-d7");
        play(&mut g, "e2-e4[wSe2->e4]");
        assert!(texts(&mut g).contains(&"d4*e3 ep.[-wSe4]".to_string()));
        play(&mut g, "d4*e3 ep.[-wSe4]");
        assert!(on(&g, "e4").is_empty());
        assert!(g.pos.underworld().is_empty());
    }

    #[test]
    fn a_hidden_unit_gives_check() {
        // Ra1-b1 hides the rook under the knight b1: it checks the king b8 along the
        // b-file, which the king must leave (a8, c8, a7, c7).
        let mut g = game("1k6/8/8/8/8/8/8/RN2K3 w - - 0 1");
        play(&mut g, "Ra1-b1 +");
        assert_eq!(texts(&mut g), sorted(&["Kb8-a7", "Kb8-a8", "Kb8-c7", "Kb8-c8"]));
    }

    #[test]
    fn the_king_goes_along_but_never_joins() {
        // Sc2-e1 hides the knight under the king. The knight may carry the king (Se1-f3,
        // then the king is the unit on the board); the king may carry the knight; the king
        // never moves onto an own unit (d2 holds a pawn), nor goes along onto one.
        let mut g = game("7k/8/8/8/8/8/2NP4/4K3 w - - 0 1");
        play(&mut g, "Sc2-e1");
        play(&mut g, "Kh8-g8");
        let m = texts(&mut g);
        for t in ["Se1-f3[wKe1->f3]", "Ke1-e2[wSe1->e2]", "Se1-f3", "Ke1-f2"] {
            assert!(m.contains(&t.to_string()), "{t} {m:?}");
        }
        assert!(!m.iter().any(|t| t.contains("-d2")), "{m:?}");
        play(&mut g, "Se1-f3[wKe1->f3]");
        assert_eq!(on(&g, "f3"), ["wK", "wS"]);
    }

    #[test]
    fn en_passant_only_after_the_moving_pawn_stands_alone() {
        // The pawn e2 steps two onto its own knight e4 (a join): no en passant for d4.
        let mut g = game("4k3/8/8/8/3pN3/8/4P3/4K3 w - - 0 1");
        play(&mut g, "e2-e4");
        assert_eq!(g.pos.ep(), None);
        // Sc1-e2 hides the knight under the pawn e2; e2-e4 carrying it leaves the pawn on
        // the board of e4: en passant for d4, taking both.
        let mut g = game("4k3/8/8/8/3p4/8/4P3/2N1K3 w - - 0 1");
        play(&mut g, "Sc1-e2");
        play(&mut g, "Ke8-d7");
        play(&mut g, "e2-e4[wSe2->e4]");
        assert!(g.pos.ep().is_some());
        // With the king going along, the king is the unit on the board: no en passant.
        // Sb1-c3 hides the knight under the pawn c3; the knight joins its king e2 carrying
        // the pawn, which stands on e2 under the king; then the pawn steps two with the
        // king going along (alone, it gives en passant as usual).
        let mut g = game("7k/8/8/8/3p4/2P5/4K3/1N6 w - - 0 1");
        play(&mut g, "Sb1-c3");
        play(&mut g, "Kh8-g8");
        play(&mut g, "Sc3-e2[wPc3->e2]");
        play(&mut g, "Kg8-h8");
        assert_eq!(on(&g, "e2"), ["wK", "wS", "wP"]);
        let m = notation::find_legal(&mut g, "e2-e4").expect("the pawn alone");
        g.make(&m).unwrap();
        assert!(g.pos.ep().is_some());
        g.unmake();
        play(&mut g, "e2-e4[wKe2->e4]");
        assert_eq!(on(&g, "e4"), ["wK", "wP"]);
        assert_eq!(g.pos.ep(), None);
    }

    #[test]
    fn a_stack_holds_sixteen_units_at_most() {
        // Fifteen queens under a queen on d4 (a side's full set, set up directly): the rook
        // d1 may not join them (the move is refused when played); the queens may still move.
        let mut g = game("7k/8/8/8/3Q4/8/8/K2R4 w - - 0 1");
        for _ in 0..15 {
            g.pos.setup_put(Square::parse("d4").unwrap(), crate::Unit::new(Colour::White, crate::walk::QUEEN));
        }
        assert_eq!(on(&g, "d4").len(), 16);
        let d1 = Square::parse("d1").unwrap();
        assert!(g.make(&Move::quiet(d1, Square::parse("d3").unwrap())).is_some());
        g.unmake();
        assert!(g.make(&Move::quiet(d1, Square::parse("d4").unwrap())).is_none());
    }

    #[test]
    fn castling_leaves_the_stacks_behind() {
        // Sf2-h1 hides the knight under the rook, which keeps its right: 0-0 moves king
        // and rook alone and the knight stays on h1.
        let mut g = game("4k3/8/8/8/8/8/5N2/4K2R w K - 0 1");
        play(&mut g, "Sf2-h1");
        play(&mut g, "Ke8-d7");
        play(&mut g, "0-0");
        assert_eq!(
            (on(&g, "g1"), on(&g, "f1"), on(&g, "h1")),
            (vec!["wK".into()], vec!["wR".into()], vec!["wS".into()])
        );
    }

    #[test]
    fn combinations() {
        assert!(
            game_from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", &["augsburg", "circe"]).unwrap_err().contains("Augsburg")
        );
        assert!(game_from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", &["augsburg", "glasgow"]).is_ok());
    }

    /// Random games: the position comes back whole after every unmake, and check (by the
    /// attack tables and the hidden units) agrees with "some pseudo-legal move of the
    /// opponent captures on a royal square".
    #[test]
    fn random_games_stay_consistent() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut stacked = 0;
        for _ in 0..40 {
            let mut g = game("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
            for _ in 0..60 {
                let mut v = Vec::new();
                g.legal_moves(&mut v);
                if v.is_empty() {
                    break;
                }
                for side in [Colour::White, Colour::Black] {
                    let mut p = Vec::new();
                    g.pseudo_moves(side.opponent(), &mut p);
                    let kings = g.pos.board().kind(crate::walk::KING) & g.pos.board().colour(side);
                    let brute = p.iter().any(|m| m.capture.is_some_and(|c| kings.has(c)));
                    assert_eq!(g.in_check(side), brute, "{side:?}");
                }
                let hash = g.pos.hash();
                for m in &v {
                    assert!(g.make(m).is_some());
                    assert!(g.pos.is_consistent());
                    g.unmake();
                    assert_eq!(g.pos.hash(), hash);
                }
                let m = v[(next() % v.len() as u64) as usize];
                g.make(&m);
                stacked += !g.pos.underworld().is_empty() as u32;
            }
        }
        assert!(stacked > 100, "the games made stacks ({stacked} positions)");
    }
}
