//! # Chimère Popeye front end
//!
//! Reads Popeye's input language ([`parse()`]) into fairy-engine games ([`build_game`]) and
//! writes moves in Popeye's notation ([`notation`]). [`solve_text`] answers the
//! stipulation `~1` with every legal first move, one `   1.X !` line each, as Popeye
//! prints them. Longer stipulations (#n, h#n, s#n) come with the solver; the structure
//! (a [`Problem`] with its stipulation, a [`chimere_fairy::Game`] with make/unmake) is
//! ready for it.
//!
//! Chimère extensions (conditions Popeye lacks): `CoucouCirce`, `ParaCirce`,
//! `OptionalReplacement`, `WhiteDiagramCirce` (Circé diagramme blanc), `Absorbant`
//! (a capturing non-royal unit adds the captured unit's walks to its own; notation
//! unchanged), `ProgressiveChess [n]` (Progressif; n = the diagram's turn number,
//! default 1) and `Anneciens` (Annéciens). Under these multi-move turns `~1` lists the
//! legal moves of the first part of the diagram's turn: for Progressif the first move of
//! the series, for Annéciens the first moves that some legal second move of the same unit
//! completes; ` +` marks a first move that checks (for Progressif it ends the series).
//! `DynamoChess` (the Dynamo condition: pushes and pulls instead of captures; moves
//! written `Rd1-d3[bPd5->d7]`, `R` for a unit leaving the board),
//! `Augsburg` (stacks of own units: a unit moving onto an own unit hides under it; the
//! units going along with a moving one are written as transfers, `Rd1-d5[wSd1->d5]`).

pub mod notation;
pub mod parse;

use chimere_core::{Colour, Kind};
use chimere_fairy::conditions::{Change, Circe, Kamikaze, Occupied, RebirthSquare, Volage};
use chimere_fairy::position::{EnPassant, KAMIKAZE, NO_ORIGIN, Position, ROYAL, Unit, VOLAGE};
use chimere_fairy::{Condition, Game, Move, RuleSet, walk};
pub use parse::{ConditionSpec, PieceSpec, Problem, Twin, TwinCmd, parse, parse_all};
use std::fmt;
use std::sync::Arc;

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

/// Whether a condition keyword belongs to the Circe family (read by [`circe_from`]).
fn is_circe(name: &str) -> bool {
    (name.contains("Circe") && !name.starts_with("Mars")) || name == "OptionalReplacement"
}

fn circe_from(spec: &ConditionSpec) -> Result<Circe, PopeyeError> {
    let bad = |m: String| PopeyeError { line: spec.line, message: m };
    let mut c = match spec.name {
        "Circe" => Circe::plain(),
        "AntiCirce" => {
            // Popeye's default Anticirce type is Calvet.
            let mut a = Circe::anti("AntiCirce", RebirthSquare::Standard);
            a.cheylan = false;
            a
        }
        "ChameleonCirce" => Circe { change: Change::Chameleon, ..Circe::plain() },
        "CirceClone" => Circe { change: Change::Clone, ..Circe::plain() },
        "CouscousCirce" => Circe::with_square("CouscousCirce", RebirthSquare::Couscous),
        "DiagramCirce" => Circe::with_square("DiagramCirce", RebirthSquare::Diagram),
        "EquipollentsCirce" => Circe::with_square("EquipollentsCirce", RebirthSquare::Equipollents),
        "VerticalMirrorCirce" => Circe::with_square("VerticalMirrorCirce", RebirthSquare::VerticalMirror),
        "SymmetryCirce" => Circe::with_square("SymmetryCirce", RebirthSquare::Symmetry),
        "MirrorCirce" => Circe { mirror: true, ..Circe::plain() },
        "AntipodesCirce" => Circe::with_square("AntipodesCirce", RebirthSquare::Antipodes),
        "SuperCirce" => Circe::with_square("SuperCirce", RebirthSquare::Any),
        "AntiSuperCirce" => Circe::anti("AntiSuperCirce", RebirthSquare::Any),
        "CoucouCirce" => Circe::coucou(),
        "ParaCirce" => Circe::para(),
        "OptionalReplacement" => Circe::optional_replacement(),
        "WhiteDiagramCirce" => {
            Circe { white_only: true, ..Circe::with_square("WhiteDiagramCirce", RebirthSquare::Diagram) }
        }
        other => return Err(bad(format!("{other} is not a Circe condition"))),
    };
    c.label = std::iter::once(spec.name.to_string()).chain(spec.params.iter().cloned()).collect::<Vec<_>>().join(" ");
    let anti = c.who == chimere_fairy::conditions::Who::Capturer;
    for p in &spec.params {
        match p.as_str() {
            "Parachute" if !anti => c.occupied = Occupied::Parachute,
            "Volcanic" if !anti => c.occupied = Occupied::Volcanic,
            "Assassin" => c.occupied = Occupied::Assassin,
            "Strict" if !anti => c.occupied = Occupied::Illegal,
            "RexInclusive" => c.rex_inclusive = true,
            "RexExclusive" => c.rex_inclusive = false,
            "Antipodes" => c.square = RebirthSquare::Antipodes,
            "Symmetry" => c.square = RebirthSquare::Symmetry,
            "Equipollents" => c.square = RebirthSquare::Equipollents,
            "Diagram" => c.square = RebirthSquare::Diagram,
            "Couscous" => c.square = RebirthSquare::Couscous,
            "Clone" if !anti => c.change = Change::Clone,
            "Chameleon" => c.change = Change::Chameleon,
            "Mirror" => c.mirror = true,
            "VerticalMirror" => c.square = RebirthSquare::VerticalMirror,
            "Super" => {
                c.square = RebirthSquare::Any;
                c.optional = !anti;
            }
            "File" => c.square = RebirthSquare::File,
            "Rank" => c.square = RebirthSquare::Rank,
            "Diametral" => c.square = RebirthSquare::Diametral,
            "CaptureSquare" if anti => c.square = RebirthSquare::CaptureSquare,
            "PWC" if anti => c.square = RebirthSquare::Departure,
            "Cheylan" if anti => c.cheylan = true,
            "Calvet" if anti => c.cheylan = false,
            other => return Err(bad(format!("{} does not take the parameter {other}", spec.name))),
        }
    }
    if c.occupied == Occupied::Illegal && c.square == RebirthSquare::Any {
        // Super-Circe Strict: the rebirth is compulsory.
        c.optional = false;
    }
    Ok(c)
}

/// The engine's rules and position for a parsed problem (side to move: white, or black
/// under HalfDuplex).
pub fn build_game(p: &Problem) -> Result<Game, PopeyeError> {
    let mut pos = Position::empty();
    let mut fairy: Vec<Kind> = Vec::new();
    let mut any_kamikaze = false;
    let mut any_volage = false;
    for ps in &p.pieces {
        let u = Unit { attrs: ps.attrs, origin: ps.square.index() as u8, ..Unit::new(ps.colour, ps.kind) };
        debug_assert!(u.origin != NO_ORIGIN);
        any_kamikaze |= ps.attrs & KAMIKAZE != 0;
        if ps.attrs & VOLAGE != 0 {
            // Kings never change colour (Volage); a royal unit that did would leave its
            // side without a royal.
            if ps.kind == walk::KING || ps.attrs & ROYAL != 0 {
                return Err(PopeyeError {
                    line: p.line,
                    message: format!("the royal unit on {} cannot be Volage", ps.square),
                });
            }
            any_volage = true;
        }
        if walk::walk(ps.kind).fairy && !fairy.contains(&ps.kind) {
            fairy.push(ps.kind);
        }
        pos.setup_put(ps.square, u);
    }
    let mut rights = pos.implied_rights();
    for &s in &p.no_castling {
        rights &= !chimere_fairy::position::rights_of_square(s);
    }
    pos.setup_rights(rights);
    let side = if p.half_duplex { Colour::Black } else { Colour::White };
    pos.setup_side(side);
    if !p.en_passant.is_empty() {
        let sq = &p.en_passant;
        let pawn = *sq.last().expect("non-empty");
        let target = if sq.len() >= 3 {
            sq[sq.len() - 2]
        } else {
            let from = sq[0];
            chimere_core::Square::from_coords(pawn.file(), (from.rank() + pawn.rank()) / 2)
        };
        pos.setup_ep(Some(EnPassant { target, pawn, also: None }));
    }
    let mut conds: Vec<Arc<dyn Condition>> = Vec::new();
    let mut forced: Option<chimere_fairy::conditions::ForcedSquares> = None;
    for c in &p.conditions {
        match c.name {
            "WhiteConsequentForcedSquare" | "BlackConsequentForcedSquare" => {
                let mut squares = Vec::new();
                for p in &c.params {
                    for ch in p.as_bytes().chunks(2) {
                        squares.push(chimere_core::Square::from_coords(ch[0] - b'a', ch[1] - b'1'));
                    }
                }
                forced.get_or_insert_with(chimere_fairy::conditions::ForcedSquares::default);
                let f = forced.as_mut().expect("set");
                if c.name.starts_with("White") {
                    f.white.extend(squares);
                } else {
                    f.black.extend(squares);
                }
            }
            name if is_circe(name) => conds.push(Arc::new(circe_from(c)?)),
            // Every other keyword (with its parameters) is known to the condition registry.
            name => {
                let words = std::iter::once(name).chain(c.params.iter().map(String::as_str)).collect::<Vec<_>>();
                let built = chimere_fairy::conditions::by_name(&words.join(" "))
                    .map_err(|e| PopeyeError { line: c.line, message: e.to_string() })?;
                conds.extend(built);
            }
        }
    }
    if let Some(f) = forced {
        conds.push(Arc::new(f));
    }
    if any_volage && !p.conditions.iter().any(|c| c.name == "Volage") {
        conds.push(Arc::new(Volage::attribute_only()));
    }
    if any_kamikaze {
        let capturer_may_return = p.conditions.iter().any(|c| c.name.contains("Circe"));
        conds.insert(0, Arc::new(Kamikaze { capturer_may_return, every_unit: false, kings_too: false }));
    }
    let line = p.conditions.first().map_or(p.line, |c| c.line);
    let rules = RuleSet::build(conds, &fairy).map_err(|e| PopeyeError { line, message: e.to_string() })?;
    Ok(Game::new(rules, pos))
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

/// Solves every problem of a Popeye input. Supported stipulation: `~1` (every legal
/// first move, one `   1.X !` line each). Problems are separated by an empty line.
pub fn solve_text(input: &str) -> Result<String, PopeyeError> {
    let problems = parse(input)?;
    let mut out = String::new();
    for (i, p) in problems.iter().enumerate() {
        let (stip, line) = p
            .stipulation
            .clone()
            .ok_or_else(|| PopeyeError { line: p.line, message: "problem without a stipulation".into() })?;
        if stip != "~1" {
            return Err(PopeyeError { line, message: format!("stipulation {stip} is not supported yet (only ~1)") });
        }
        let mut game = build_game(p)?;
        if i > 0 {
            out.push('\n');
        }
        for m in first_moves(&mut game) {
            out.push_str("   1.");
            out.push_str(&m);
            out.push_str(" !\n");
        }
        if p.options.iter().any(|o| o == "Duplex") {
            // Duplex: the same for the other side, after an empty line.
            let mut other = p.clone();
            other.half_duplex = !p.half_duplex;
            let mut game = build_game(&other)?;
            out.push('\n');
            for m in first_moves(&mut game) {
                out.push_str("   1.");
                out.push_str(&m);
                out.push_str(" !\n");
            }
        }
    }
    Ok(out)
}
