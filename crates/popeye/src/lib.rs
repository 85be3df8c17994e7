//! # Chimère Popeye front end
//!
//! Reads Popeye's input language ([`parse()`]) into fairy-engine games ([`build_game`]) and
//! writes moves in Popeye's notation ([`notation`], [`first_moves`]). The solver
//! (`chimere-solver`) answers the stipulations.
//!
//! Chimère extensions (conditions Popeye lacks): `CoucouCirce`, `ParaCirce`,
//! `OptionalReplacement`, `WhiteDiagramCirce` (Circé diagramme blanc), `Absorbant`
//! (a capturing non-royal unit adds the captured unit's walks to its own; notation
//! unchanged), `ProgressiveChess [n]` (Progressif; n = the diagram's turn number,
//! default 1) and `Anneciens` (Annéciens). Under these multi-move turns a move is the
//! first part of the diagram's turn: for Progressif the first move of
//! the series, for Annéciens a first move that some legal second move of the same unit
//! completes; ` +` marks a first move that checks (for Progressif it ends the series).
//! `DynamoChess` (the Dynamo condition: pushes and pulls instead of captures; moves
//! written `Rd1-d3[bPd5->d7]`, `R` for a unit leaving the board),
//! `Augsburg` (stacks of own units: a unit moving onto an own unit hides under it; the
//! units going along with a moving one are written as transfers, `Rd1-d5[wSd1->d5]`).
//!
//! A square given a second unit is refused (`line N: square d1 is given a second unit`),
//! except under a condition that hides units under a square (Circe Parachute / Volcanic,
//! Ghost chess: as Popeye, the earlier unit lies under the later) or stacks them
//! (Augsburg: a stack of one side, the last given on the board).

pub mod condition_order;
pub mod lang;
pub mod notation;
pub mod options;
pub mod parse;
pub mod stipulation;

use chimere_core::{Colour, Kind};
use chimere_fairy::conditions::hurdle_colour::changes_hurdles;
use chimere_fairy::conditions::{ChameleonUnits, HurdleColourChangers, Kamikaze, Volage};
use chimere_fairy::position::{
    CHAMELEON, EnPassant, HURDLE_COLOUR_CHANGING, KAMIKAZE, NO_ORIGIN, Position, ROYAL, UNDER_MAX, Unit, VOLAGE,
};
use chimere_fairy::{Condition, Game, Move, RuleSet, walk};
pub use options::{OptionKind, OptionSpec, OptionValue};
pub use parse::{ConditionSpec, PieceSpec, Problem, TWIN_KINDS, Twin, TwinArg, TwinCmd, TwinKind, parse, parse_all};
use std::fmt;
use std::sync::Arc;
pub use stipulation::{Goal, Play, Stipulation, StipulationError};

/// An error in a Popeye input, with the line it concerns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PopeyeError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for PopeyeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}
impl std::error::Error for PopeyeError {}

/// The engine's rules and position for a parsed problem (side to move: white, or black
/// under HalfDuplex). The conditions are bound to the goal of the problem's stipulation
/// ([`chimere_fairy::rules::for_goal`]; a condition refusing that goal is an error of the
/// stipulation's line); without a stipulation they are read as written (Exclusif judging
/// mate).
pub fn build_game(p: &Problem) -> Result<Game, PopeyeError> {
    build(p, p.stipulation)
}

fn build(p: &Problem, stipulation: Option<(Stipulation, usize)>) -> Result<Game, PopeyeError> {
    // A neutral king is royal for both sides (the engine's check test counts it for each).
    // As Popeye, it must be the only king; conditions that find kings themselves do not
    // know it, so it is read without conditions only.
    let royal = |ps: &&PieceSpec| ps.kind == walk::KING || ps.attrs & ROYAL != 0;
    if let Some(ps) = p.pieces.iter().filter(royal).find(|ps| ps.colour == Colour::Shared) {
        let message = if p.pieces.iter().filter(royal).count() > 1 {
            format!("a neutral king ({}) must be the only king", ps.square)
        } else if !p.conditions.is_empty() {
            format!("a neutral royal unit ({}) under conditions is not supported", ps.square)
        } else {
            String::new()
        };
        if !message.is_empty() {
            return Err(PopeyeError { line: ps.line, message });
        }
    }
    let mut fairy: Vec<Kind> = Vec::new();
    for ps in &p.pieces {
        if walk::walk(ps.kind).fairy && !fairy.contains(&ps.kind) {
            fairy.push(ps.kind);
        }
    }
    let any_kamikaze = p.pieces.iter().any(|ps| ps.attrs & KAMIKAZE != 0);
    let any_volage = p.pieces.iter().any(|ps| ps.attrs & VOLAGE != 0);
    let any_chameleon = p.pieces.iter().any(|ps| ps.attrs & CHAMELEON != 0);
    let any_hurdle_changer = p.pieces.iter().any(|ps| ps.attrs & HURDLE_COLOUR_CHANGING != 0);
    // As in Popeye, the attribute goes with hoppers over one hurdle, lions and Chinese pieces.
    if let Some(ps) = p.pieces.iter().find(|ps| ps.attrs & HURDLE_COLOUR_CHANGING != 0 && !changes_hurdles(ps.kind)) {
        return Err(PopeyeError {
            line: ps.line,
            message: format!(
                "HurdleColourChanging is for hoppers over one hurdle, lions and Chinese pieces, not the {} on {}",
                walk::walk(ps.kind).name,
                ps.square
            ),
        });
    }
    // Each keyword (with its parameters) is built from its description; the rule set
    // merges a condition given in parts (White's and Black's forced squares, an attribute
    // beside its condition).
    let mut conds: Vec<Arc<dyn Condition>> = Vec::new();
    for c in &p.conditions {
        let built = chimere_fairy::conditions::registry::by_popeye(c.name, &c.params)
            .map_err(|e| PopeyeError { line: c.line, message: e.to_string() })?;
        conds.extend(built);
    }
    if any_volage {
        conds.push(Arc::new(Volage::attribute_only()));
    }
    if any_kamikaze {
        conds.insert(0, Arc::new(Kamikaze::attribute_only()));
    }
    if any_chameleon {
        conds.push(Arc::new(ChameleonUnits));
    }
    if any_hurdle_changer {
        // As in Popeye, promotees take the attributes of the units of their kind in play:
        // the kinds whose units all turn hurdles make promotees that do.
        let with = |k: Kind, on: bool| {
            p.pieces.iter().any(|ps| ps.kind == k && (ps.attrs & HURDLE_COLOUR_CHANGING != 0) == on)
        };
        let mixed = fairy.iter().find(|&&k| with(k, true) && with(k, false));
        if let Some(&k) = mixed
            && p.pieces.iter().any(|ps| ps.kind == walk::PAWN)
        {
            return Err(PopeyeError {
                line: p.line,
                message: format!(
                    "promotions into both kinds of {} (HurdleColourChanging and plain) are not supported",
                    walk::walk(k).name
                ),
            });
        }
        conds.push(Arc::new(HurdleColourChangers::new(fairy.iter().copied().filter(|&k| !with(k, false)))));
    }
    let line = p.conditions.first().map_or(p.line, |c| c.line);
    let error = |e: chimere_fairy::RulesError| PopeyeError { line, message: e.to_string() };
    if let Some((stip, line)) = stipulation {
        conds = chimere_fairy::rules::for_goal(conds, stip.goal)
            .map_err(|e| PopeyeError { line, message: format!("{e} (stipulation {stip})") })?;
    }
    let rules = RuleSet::build(conds, &fairy).map_err(error)?;

    let mut pos = Position::empty();
    for ps in &p.pieces {
        let u = Unit { attrs: ps.attrs, origin: ps.square.index() as u8, ..Unit::new(ps.colour, ps.kind) };
        debug_assert!(u.origin != NO_ORIGIN);
        if ps.attrs & VOLAGE != 0 {
            // Kings never change colour (Volage); a royal unit that did would leave its
            // side without a royal.
            if ps.kind == walk::KING || ps.attrs & ROYAL != 0 {
                return Err(PopeyeError {
                    line: ps.line,
                    message: format!("the royal unit on {} cannot be Volage", ps.square),
                });
            }
        }
        put(&mut pos, ps, u, &rules)?;
    }
    // Popeye keeps one castling flag per unit on its home square.
    let mut rights = pos.unit_rights();
    for &s in p.squares_of(OptionKind::NoCastling) {
        rights &= !chimere_fairy::position::rights_of_square(s);
    }
    pos.setup_rights(rights);
    let side = if p.half_duplex { Colour::Black } else { Colour::White };
    pos.setup_side(side);
    let sq = p.squares_of(OptionKind::EnPassant);
    if !sq.is_empty() {
        let pawn = *sq.last().expect("non-empty");
        let target = if sq.len() >= 3 {
            sq[sq.len() - 2]
        } else {
            let from = sq[0];
            chimere_core::Square::from_coords(pawn.file(), (from.rank() + pawn.rank()) / 2)
        };
        pos.setup_ep(Some(EnPassant::new(target, pawn, None)));
    }
    Ok(Game::new(rules, pos))
}

/// Places one unit of the diagram. A square given twice is refused, unless a condition of
/// the rules hides units under squares or stacks them:
/// - with an underworld (Circe Parachute / Volcanic, Ghost chess), as in Popeye, the last
///   unit given stands on the board and the earlier ones lie under it, in the order given;
/// - with stacks (Augsburg), the units given for one square form a stack, the last given
///   on the board: a stack is of one side, holds at most the condition's limit, and a
///   royal unit must be the last given (it always stands on the board).
fn put(pos: &mut Position, ps: &PieceSpec, u: Unit, rules: &RuleSet) -> Result<(), PopeyeError> {
    let bad = |m: String| Err(PopeyeError { line: ps.line, message: m });
    if let Some(old) = pos.unit(ps.square) {
        if let Some(limit) = rules.stack_limit {
            if old.colour() != u.colour() || u.colour() == Colour::Shared {
                return bad(format!("square {}: a stack holds units of one side only", ps.square));
            }
            if old.kind() == walk::KING || old.has(ROYAL) {
                return bad(format!("square {}: a royal unit must be the last unit given on its square", ps.square));
            }
            if pos.under(ps.square).count() + 2 > limit {
                return bad(format!("square {}: a stack holds at most {limit} units", ps.square));
            }
        } else if !rules.underworld {
            return bad(format!(
                "square {} is given a second unit (no condition in force stacks units or hides them under a square)",
                ps.square
            ));
        }
        if pos.underworld().len() >= UNDER_MAX {
            return bad(format!("square {}: at most {UNDER_MAX} units may lie under squares", ps.square));
        }
    }
    pos.setup_put(ps.square, u);
    Ok(())
}

/// Every legal first move in Popeye notation (without `1.` and ` !`).
pub fn first_moves(game: &mut Game) -> Vec<String> {
    let mut moves: Vec<Move> = Vec::new();
    game.legal_moves(&mut moves);
    let mut out = Vec::with_capacity(moves.len());
    for m in &moves {
        if let Some(t) = notation::move_with_check(game, m) {
            out.push(t);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A neutral king is read alone and without conditions; otherwise refused with a
    /// one-line reason naming its line.
    #[test]
    fn neutral_king_alone_and_without_conditions() {
        let p = parse("BeginProblem\nPieces White Qf3 Black Be8 Neutral Kg8\nStipulation #2\nEndProblem").unwrap();
        assert!(build_game(&p[0]).is_ok());
        let p =
            parse("BeginProblem\nPieces White Qf3 Black Be8 Neutral Kg8\nStipulation #2\nCondition Circe\nEndProblem")
                .unwrap();
        let e = build_game(&p[0]).expect_err("refused");
        assert_eq!(e.line, 2);
        assert!(e.message.contains("neutral"), "{e}");
    }
}
