//! Reader of Popeye's input language (English keywords): problems, pieces, Forsyth,
//! conditions with their parameters, stipulation, options. Keywords are case-insensitive
//! and may be abbreviated to a unique prefix. Errors name the line; nothing panics.

use crate::PopeyeError;
use crate::options::{Argument, OPTIONS, OptionKind, OptionSpec, OptionValue};
use crate::stipulation::{Stipulation, StipulationError};
use chimere_core::{Colour, Kind, Square};
use chimere_fairy::conditions::registry::popeye_keywords;
use chimere_fairy::position::{CHAMELEON, HURDLE_COLOUR_CHANGING, KAMIKAZE, ROYAL, VOLAGE};
use chimere_fairy::walk;

/// One unit of the diagram.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSpec {
    pub colour: Colour,
    pub kind: Kind,
    pub attrs: u8,
    pub square: Square,
    /// The input line that gives it (for messages).
    pub line: usize,
}

/// A condition as written: its keyword and its parameter words (canonical spelling).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConditionSpec {
    pub name: &'static str,
    pub params: Vec<String>,
    pub line: usize,
    /// Its squares are taken off the board (`Hole`: the registry's `Params::BoardSquares`):
    /// drawn in the diagram, moved with the board by twins.
    pub board_squares: bool,
}

/// One twinning command (`Twin Move e6 d5`, `Twin Add black Pc4`, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TwinCmd {
    Move(Square, Square),
    Exchange(Square, Square),
    Remove(Square),
    Add(Vec<PieceSpec>),
    Substitute(Kind, Kind),
    Rotate(u32),
    /// The mirror as written, in lower case: one of [`MIRRORS`] (`a1<-->h8` is the
    /// a1-h8 diagonal's mirror, `a8<-->h1` the other diagonal's).
    Mirror(String),
    Shift(Square, Square),
    PolishType,
    Condition(Vec<ConditionSpec>),
    Stipulation(Stipulation),
}

impl TwinCmd {
    /// The command's Popeye keyword (an entry of [`TWIN_KINDS`]).
    pub fn keyword(&self) -> &'static str {
        match self {
            TwinCmd::Move(..) => "Move",
            TwinCmd::Exchange(..) => "Exchange",
            TwinCmd::Remove(_) => "Remove",
            TwinCmd::Add(_) => "Add",
            TwinCmd::Substitute(..) => "Substitute",
            TwinCmd::Rotate(_) => "Rotate",
            TwinCmd::Mirror(_) => "Mirror",
            TwinCmd::Shift(..) => "Shift",
            TwinCmd::PolishType => "PolishType",
            TwinCmd::Condition(_) => "Condition",
            TwinCmd::Stipulation(_) => "Stipulation",
        }
    }
}

/// What one word (or group of words) of a twinning command is, for a form that builds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TwinArg {
    /// A square (`e6`).
    Square,
    /// A kind of piece, by its Popeye letters (`S`, `G`).
    Piece,
    /// Units as a `Pieces` line writes them (`White Sa7 Black Ba5`).
    Units,
    /// One of these words.
    Choice(&'static [&'static str]),
    /// Conditions as a `Condition` line writes them.
    Conditions,
    /// A stipulation (`h#3`).
    Stipulation,
}

/// A twinning command: its keyword and what follows it, each with a label for a form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TwinKind {
    pub keyword: &'static str,
    pub args: &'static [(&'static str, TwinArg)],
}

/// The angles of `Rotate`.
pub const ROTATIONS: &[&str] = &["90", "180", "270"];
/// The mirrors of `Mirror`.
pub const MIRRORS: &[&str] = &["a1<-->h1", "a1<-->a8", "a1<-->h8", "a8<-->h1"];

/// Every twinning command the reader takes ([`TwinCmd`]), in Popeye's order; `Continued`
/// (the twin starts from the previous twin, not the diagram) is a twin's flag, not here.
pub const TWIN_KINDS: &[TwinKind] = &[
    TwinKind { keyword: "Move", args: &[("from", TwinArg::Square), ("to", TwinArg::Square)] },
    TwinKind { keyword: "Exchange", args: &[("square", TwinArg::Square), ("with", TwinArg::Square)] },
    TwinKind { keyword: "Remove", args: &[("square", TwinArg::Square)] },
    TwinKind { keyword: "Add", args: &[("units", TwinArg::Units)] },
    TwinKind { keyword: "Substitute", args: &[("every", TwinArg::Piece), ("by", TwinArg::Piece)] },
    TwinKind { keyword: "Rotate", args: &[("degrees", TwinArg::Choice(ROTATIONS))] },
    TwinKind { keyword: "Mirror", args: &[("mirror", TwinArg::Choice(MIRRORS))] },
    TwinKind { keyword: "Shift", args: &[("from", TwinArg::Square), ("to", TwinArg::Square)] },
    TwinKind { keyword: "PolishType", args: &[] },
    TwinKind { keyword: "Condition", args: &[("conditions", TwinArg::Conditions)] },
    TwinKind { keyword: "Stipulation", args: &[("stipulation", TwinArg::Stipulation)] },
];

/// One twin: its commands, applied to the diagram (or to the previous twin when
/// `continued`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Twin {
    pub line: usize,
    pub continued: bool,
    pub cmds: Vec<TwinCmd>,
}

/// One problem of the input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problem {
    /// `Title`, `Author` and `Origin` lines as written (for the header above the board); a
    /// keyword given more than once (several authors) keeps each line, joined by `\n`.
    pub title: String,
    pub author: String,
    pub origin: String,
    pub pieces: Vec<PieceSpec>,
    pub conditions: Vec<ConditionSpec>,
    /// The stipulation and its line.
    pub stipulation: Option<(Stipulation, usize)>,
    /// Black starts: `Option HalfDuplex`, or the solver's other side under `Duplex`.
    pub half_duplex: bool,
    /// The options in the order given, each with its value and line.
    pub options: Vec<OptionSpec>,
    /// `Twin` commands, in order; `zero_position`: the diagram is not solved (`ZeroPosition`).
    pub twins: Vec<Twin>,
    pub zero_position: bool,
    /// Line of `BeginProblem` (for messages).
    pub line: usize,
    /// Popeye's informational messages about the input (printed before the solution).
    pub notices: Vec<String>,
}

impl Problem {
    /// The option of this kind last given, if any.
    pub fn option(&self, kind: OptionKind) -> Option<&OptionSpec> {
        self.options.iter().rev().find(|o| o.kind == kind)
    }
    /// Whether an option of this kind is given.
    pub fn has(&self, kind: OptionKind) -> bool {
        self.option(kind).is_some()
    }
    /// The squares of `Option EnPassant` or `Option NoCastling` (none if not given).
    pub fn squares_of(&self, kind: OptionKind) -> &[Square] {
        match self.option(kind).map(|o| &o.value) {
            Some(OptionValue::Squares(sq)) => sq,
            _ => &[],
        }
    }

    /// The squares of `Condition Hole` as given, each with the condition's line.
    fn holes_given(&self) -> Vec<(Square, usize)> {
        let mut out = Vec::new();
        for c in self.conditions.iter().filter(|c| c.board_squares) {
            for w in &c.params {
                for ch in w.as_bytes().chunks(2) {
                    if let Some(sq) = Square::parse(&String::from_utf8_lossy(ch)) {
                        out.push((sq, c.line));
                    }
                }
            }
        }
        out
    }

    /// The squares of `Condition Hole` that are holes in the diagram (a unit given on a
    /// hole square fills it, see [`settle_holes`]).
    pub fn hole_squares(&self) -> Vec<Square> {
        let mut out: Vec<Square> = self.holes_given().into_iter().map(|(sq, _)| sq).collect();
        out.retain(|&sq| !self.pieces.iter().any(|u| u.square == sq));
        out.dedup();
        out
    }
}

/// Units given on a hole square (`Condition Hole`), read in Popeye's order: a unit given
/// before the condition is displaced by the hole (removed); a unit given after it fills
/// the hole (the square is then an ordinary one), with Popeye's message.
fn settle_holes(p: &mut Problem) {
    let holes = p.holes_given();
    p.pieces.retain(|u| !holes.iter().any(|&(sq, line)| sq == u.square && u.line < line));
    for u in &p.pieces {
        if holes.iter().any(|&(sq, _)| sq == u.square) {
            p.notices.push(format!("{} already occupied - old piece goes to the underworld.", u.square));
        }
    }
}

pub(crate) const TOP: &[&str] = &[
    "BeginProblem",
    "NextProblem",
    "EndProblem",
    "Title",
    "Author",
    "Origin",
    "Award",
    "Remark",
    "Protocol",
    "Pieces",
    "Forsyth",
    "Condition",
    "Stipulation",
    "SStipulation",
    "Option",
    "Twin",
    "ZeroPosition",
];

/// The words after `Twin`: the commands of [`TWIN_KINDS`] and `Continued`.
pub(crate) const TWIN_CMDS: &[&str] = &{
    let mut out = [""; TWIN_KINDS.len() + 1];
    let mut i = 0;
    while i < TWIN_KINDS.len() {
        out[i] = TWIN_KINDS[i].keyword;
        i += 1;
    }
    out[i] = "Continued";
    out
};

/// Popeye's piece attributes that are read, with the unit attribute each sets (the one
/// table: the reader, the page's picker and the board's words come from it).
pub const ATTRIBUTE_TABLE: [(&str, u8); 5] = [
    ("Royal", ROYAL),
    ("Kamikaze", KAMIKAZE),
    ("Volage", VOLAGE),
    ("Chameleon", CHAMELEON),
    ("HurdleColourChanging", HURDLE_COLOUR_CHANGING),
];
/// The words of [`ATTRIBUTE_TABLE`].
pub const ATTRIBUTES: &[&str] = &{
    let mut out = [""; ATTRIBUTE_TABLE.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = ATTRIBUTE_TABLE[i].0;
        i += 1;
    }
    out
};

/// The unit attribute of an attribute word of [`ATTRIBUTE_TABLE`].
fn attribute_bit(word: &str) -> u8 {
    ATTRIBUTE_TABLE.iter().find(|(w, _)| *w == word).map_or(0, |(_, b)| *b)
}
pub(crate) const UNSUPPORTED_ATTRIBUTES: &[&str] =
    &["Paralysing", "Jigger", "HalfNeutral", "Magic", "Frischauf", "Functionary"];

/// Matches `word` against `list`: exact (case-insensitive) first, else a unique prefix.
pub fn match_keyword<'a>(word: &str, list: &[&'a str]) -> Result<Option<&'a str>, Vec<&'a str>> {
    if word.is_empty() {
        return Ok(None);
    }
    if let Some(k) = list.iter().find(|k| k.eq_ignore_ascii_case(word)) {
        return Ok(Some(k));
    }
    let lw = word.to_ascii_lowercase();
    let hits: Vec<&str> = list.iter().copied().filter(|k| k.to_ascii_lowercase().starts_with(&lw)).collect();
    match hits.len() {
        0 => Ok(None),
        1 => Ok(Some(hits[0])),
        _ => Err(hits),
    }
}

#[derive(Copy, Clone, Debug)]
struct Tok<'a> {
    text: &'a str,
    line: usize,
}

fn err(line: usize, msg: impl Into<String>) -> PopeyeError {
    PopeyeError { line, message: msg.into() }
}

fn top_keyword(t: &Tok) -> Result<Option<&'static str>, PopeyeError> {
    match_keyword(t.text, TOP)
        .map_err(|hits| err(t.line, format!("ambiguous keyword `{}` (could be {})", t.text, hits.join(", "))))
}

/// Parses a piece token such as `Ke1`, `ROb1`, `Pa2b2c2`.
fn piece_token(text: &str) -> Option<(Kind, Vec<Square>)> {
    if !text.is_ascii() {
        return None;
    }
    for wl in 1..=2.min(text.len()) {
        let (w, rest) = text.split_at(wl);
        if rest.is_empty() || rest.len() % 2 != 0 {
            continue;
        }
        let Some(kind) = walk::kind_of_letters(w) else { continue };
        let squares: Option<Vec<Square>> = rest
            .as_bytes()
            .chunks(2)
            .map(|c| Square::parse(&String::from_utf8_lossy(c).to_ascii_lowercase()))
            .collect();
        if let Some(sq) = squares {
            return Some((kind, sq));
        }
    }
    None
}

/// Parses a whole input file into its problems (the first error stops it).
pub fn parse(input: &str) -> Result<Vec<Problem>, PopeyeError> {
    parse_all(input).into_iter().collect()
}

/// Parses a whole input file into its problems, going on after a bad one: each problem is
/// either read or an error naming its line; after an error the reader skips to the next
/// `NextProblem` or `EndProblem`.
pub fn parse_all(input: &str) -> Vec<Result<Problem, PopeyeError>> {
    // French and German input is read as the English.
    let input = crate::lang::to_english(input);
    let mut toks = Vec::new();
    let lines: Vec<&str> = input.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        for w in l.split_whitespace() {
            toks.push(Tok { text: w, line: i + 1 });
        }
    }
    let mut problems: Vec<Result<Problem, PopeyeError>> = Vec::new();
    let mut i = 0;
    let mut cur: Option<Problem> = None;
    let mut ended = false;
    // After an error: skip to the next problem delimiter.
    let mut skipping = false;
    while i < toks.len() {
        let t = toks[i];
        let kw = match top_keyword(&t) {
            Ok(Some(kw)) => kw,
            Ok(None) | Err(_) if skipping => {
                i += 1;
                continue;
            }
            Ok(None) => {
                problems.push(Err(err(t.line, format!("unexpected word `{}`", t.text))));
                cur = None;
                skipping = true;
                i += 1;
                continue;
            }
            Err(e) => {
                problems.push(Err(e));
                cur = None;
                skipping = true;
                i += 1;
                continue;
            }
        };
        i += 1;
        if skipping && !matches!(kw, "NextProblem" | "EndProblem" | "BeginProblem") {
            continue;
        }
        if ended {
            problems.push(Err(err(t.line, format!("`{}` after EndProblem", t.text))));
            break;
        }
        match kw {
            "BeginProblem" => {
                if cur.is_some() {
                    problems.push(Err(err(t.line, "BeginProblem inside a problem (use NextProblem)")));
                    cur = None;
                    skipping = true;
                    continue;
                }
                skipping = false;
                cur = Some(Problem { line: t.line, ..Problem::default() });
                continue;
            }
            "NextProblem" | "EndProblem" => {
                match cur.take() {
                    Some(mut p) => {
                        settle_holes(&mut p);
                        problems.push(Ok(p))
                    }
                    None if skipping => {}
                    None => problems.push(Err(err(t.line, format!("{kw} without BeginProblem")))),
                }
                skipping = false;
                if kw == "NextProblem" {
                    cur = Some(Problem { line: t.line, ..Problem::default() });
                } else {
                    ended = true;
                }
                continue;
            }
            _ => {}
        }
        let Some(p) = cur.as_mut() else {
            problems.push(Err(err(t.line, format!("{kw} before BeginProblem"))));
            skipping = true;
            continue;
        };
        if let Err(e) = keyword(kw, t, &toks, &mut i, p) {
            problems.push(Err(e));
            cur = None;
            skipping = true;
        }
    }
    if let Some(p) = cur {
        problems.push(Err(err(lines.len().max(1), format!("problem begun on line {} has no EndProblem", p.line))));
    }
    if problems.is_empty() {
        problems.push(Err(err(1, "no BeginProblem")));
    }
    problems
}

/// Reads condition names with their parameters from `toks[*i..]` until a word that is not a
/// condition (a top keyword, or in a twin a twinning command).
fn conditions(toks: &[Tok], i: &mut usize, line: usize) -> Result<Vec<ConditionSpec>, PopeyeError> {
    let mut out: Vec<ConditionSpec> = Vec::new();
    // The keywords and their parameters come from the condition descriptions
    // (`chimere_fairy::conditions::registry`).
    let table = popeye_keywords();
    let names: Vec<&str> = table.iter().map(|k| k.keyword).collect();
    let stop = |w: &Tok| -> Result<bool, PopeyeError> {
        Ok(top_keyword(w)?.is_some() || TWIN_CMDS.iter().any(|c| c.eq_ignore_ascii_case(w.text)))
    };
    while *i < toks.len() {
        let w = toks[*i];
        // A keyword written in full ends the list even when it begins a condition's name
        // (`Option` and `OptionalReplacement`).
        if !out.is_empty() && TOP.iter().any(|k| k.eq_ignore_ascii_case(w.text)) {
            break;
        }
        // An abbreviation of a problem keyword after the conditions (`cond blackchecks` then
        // `opt try`) ends the list unless it names a condition in full: Popeye reads it so,
        // its table lacking the names we add (`OptionalReplacement`).
        if !out.is_empty() && !names.iter().any(|n| n.eq_ignore_ascii_case(w.text)) && top_keyword(&w)?.is_some() {
            break;
        }
        let found = match match_keyword(w.text, &names) {
            Ok(f) => f,
            Err(hits) => {
                if stop(&w)? {
                    break;
                }
                return Err(err(w.line, format!("ambiguous condition `{}` (could be {})", w.text, hits.join(", "))));
            }
        };
        let Some(name) = found else {
            if stop(&w)? && !out.is_empty() {
                break;
            }
            if let Some(prev) = out.last().filter(|_| w.text.bytes().all(|b| b.is_ascii_digit())) {
                // `SAT 3`: a number the condition does not take.
                return Err(err(w.line, format!("condition `{}`: parameter `{}` is not supported", prev.name, w.text)));
            }
            return Err(err(w.line, format!("unknown or unsupported condition `{}`", w.text)));
        };
        *i += 1;
        let k = table.iter().find(|k| k.keyword == name).expect("a keyword of the table");
        let mut spec = ConditionSpec { name, params: Vec::new(), line: w.line, board_squares: k.board_squares };
        while *i < toks.len() {
            // Square lists (forced squares, holes): `e4d5`.
            let sq = toks[*i].text.as_bytes();
            if k.squares
                && !sq.is_empty()
                && sq.len().is_multiple_of(2)
                && sq
                    .chunks(2)
                    .all(|c| (b'a'..=b'h').contains(&c[0].to_ascii_lowercase()) && (b'1'..=b'8').contains(&c[1]))
            {
                spec.params.push(toks[*i].text.to_string());
                *i += 1;
                continue;
            }
            // A number after a parameter that takes one (`MaximumTotal 4`), or
            // after a keyword that takes one (`ProgressiveChess 3`).
            let wants_number = spec.params.last().is_some_and(|l| k.number_params.contains(&l.as_str()))
                || (k.number && spec.params.is_empty());
            if wants_number && !sq.is_empty() && sq.iter().all(u8::is_ascii_digit) {
                spec.params.push(toks[*i].text.to_string());
                *i += 1;
                continue;
            }
            match match_keyword(toks[*i].text, &k.params) {
                Ok(Some(pw)) => {
                    spec.params.push(pw.to_string());
                    *i += 1;
                }
                _ => break,
            }
        }
        out.push(spec);
    }
    if out.is_empty() {
        return Err(err(line, "Condition without a condition"));
    }
    Ok(out)
}

fn one_square(toks: &[Tok], i: &mut usize, line: usize, what: &str) -> Result<Square, PopeyeError> {
    let w = toks.get(*i).ok_or_else(|| err(line, format!("{what} needs a square")))?;
    let s = Square::parse(&w.text.to_ascii_lowercase())
        .ok_or_else(|| err(w.line, format!("{what}: `{}` is not a square", w.text)))?;
    *i += 1;
    Ok(s)
}

/// Reads the commands of one twin (after `Twin` or `ZeroPosition`).
fn twin(toks: &[Tok], i: &mut usize, line: usize) -> Result<Twin, PopeyeError> {
    let mut tw = Twin { line, continued: false, cmds: Vec::new() };
    while *i < toks.len() {
        let w = toks[*i];
        let cmd = match match_keyword(w.text, TWIN_CMDS) {
            Ok(Some(c)) => c,
            Ok(None) if top_keyword(&w)?.is_some() => break,
            Ok(None) => return Err(err(w.line, format!("unknown twinning command `{}`", w.text))),
            Err(hits) => {
                return Err(err(
                    w.line,
                    format!("ambiguous twinning command `{}` (could be {})", w.text, hits.join(", ")),
                ));
            }
        };
        *i += 1;
        let c = match cmd {
            "Continued" => {
                if !tw.cmds.is_empty() || tw.continued {
                    return Err(err(w.line, "Continued must come first in a twin"));
                }
                tw.continued = true;
                continue;
            }
            "Move" | "Exchange" | "Shift" => {
                let a = one_square(toks, i, w.line, cmd)?;
                let b = one_square(toks, i, w.line, cmd)?;
                match cmd {
                    "Move" => TwinCmd::Move(a, b),
                    "Exchange" => TwinCmd::Exchange(a, b),
                    _ => TwinCmd::Shift(a, b),
                }
            }
            "Remove" => TwinCmd::Remove(one_square(toks, i, w.line, cmd)?),
            "Add" => {
                let c = toks.get(*i).ok_or_else(|| err(w.line, "Add needs a colour"))?;
                let colour = match match_keyword(c.text, &["White", "Black", "Neutral"]) {
                    Ok(Some("White")) => Colour::White,
                    Ok(Some("Black")) => Colour::Black,
                    Ok(Some(_)) => Colour::Shared,
                    _ => return Err(err(c.line, format!("Add: `{}` is not a colour", c.text))),
                };
                *i += 1;
                let mut colour = colour;
                let mut attrs = 0u8;
                let mut pieces = Vec::new();
                while *i < toks.len() {
                    let t = toks[*i];
                    // Another colour word starts that colour's pieces (`Add White Sa7
                    // Black Ba5`), as in `Pieces`.
                    if !pieces.is_empty()
                        && let Ok(Some(c)) = match_keyword(t.text, &["White", "Black", "Neutral"])
                    {
                        colour = match c {
                            "White" => Colour::White,
                            "Black" => Colour::Black,
                            _ => Colour::Shared,
                        };
                        attrs = 0;
                        *i += 1;
                        continue;
                    }
                    if let Some((kind, squares)) = piece_token(t.text) {
                        pieces.extend(squares.into_iter().map(|square| PieceSpec {
                            colour,
                            kind,
                            attrs,
                            square,
                            line: t.line,
                        }));
                        attrs &= !ROYAL;
                        *i += 1;
                        continue;
                    }
                    if t.text.len() >= 3
                        && let Ok(Some(a)) = match_keyword(t.text, ATTRIBUTES)
                    {
                        attrs |= attribute_bit(a);
                        *i += 1;
                        continue;
                    }
                    break;
                }
                if pieces.is_empty() {
                    return Err(match toks.get(*i).filter(|t| t.line == w.line) {
                        Some(t) => err(t.line, format!("Add: cannot read piece `{}`", t.text)),
                        None => err(w.line, "Add without a piece"),
                    });
                }
                TwinCmd::Add(pieces)
            }
            "Substitute" => {
                let mut kinds = Vec::new();
                for _ in 0..2 {
                    let t = toks.get(*i).ok_or_else(|| err(w.line, "Substitute needs two pieces"))?;
                    let k = walk::kind_of_letters(&t.text.to_ascii_uppercase())
                        .ok_or_else(|| err(t.line, format!("Substitute: unknown piece `{}`", t.text)))?;
                    kinds.push(k);
                    *i += 1;
                }
                TwinCmd::Substitute(kinds[0], kinds[1])
            }
            "Rotate" => {
                let t = toks.get(*i).ok_or_else(|| err(w.line, "Rotate needs an angle"))?;
                let a = match t.text.parse::<u32>() {
                    Ok(a) if ROTATIONS.contains(&t.text) => a,
                    _ => return Err(err(t.line, format!("Rotate: `{}` is not 90, 180 or 270", t.text))),
                };
                *i += 1;
                TwinCmd::Rotate(a)
            }
            "Mirror" => {
                let t =
                    toks.get(*i).ok_or_else(|| err(w.line, "Mirror needs a1<-->h1, a1<-->a8, a1<-->h8 or a8<-->h1"))?;
                let m = t.text.to_ascii_lowercase();
                if !MIRRORS.contains(&m.as_str()) {
                    return Err(err(
                        t.line,
                        format!("Mirror: `{}` is not a1<-->h1, a1<-->a8, a1<-->h8 or a8<-->h1", t.text),
                    ));
                }
                *i += 1;
                TwinCmd::Mirror(m)
            }
            "PolishType" => TwinCmd::PolishType,
            "Condition" => TwinCmd::Condition(conditions(toks, i, w.line)?),
            _ => {
                let t = toks.get(*i).ok_or_else(|| err(w.line, "Stipulation without a value"))?;
                *i += 1;
                TwinCmd::Stipulation(stipulation(t, toks, i)?)
            }
        };
        tw.cmds.push(c);
    }
    if tw.cmds.is_empty() {
        return Err(err(line, "Twin without a twinning command"));
    }
    Ok(tw)
}

/// A stipulation from its first token: Popeye allows white space before the length
/// (`dia 4`, `# 2`), so a goal without its number takes the next token when that is one.
fn stipulation(first: &Tok, toks: &[Tok], i: &mut usize) -> Result<Stipulation, PopeyeError> {
    let mut text = first.text.to_string();
    let length = toks.get(*i).filter(|n| n.text.starts_with(|c: char| c.is_ascii_digit()));
    if let Some(n) = length.filter(|_| !first.text.ends_with(|c: char| c.is_ascii_digit())) {
        text.push_str(n.text);
        *i += 1;
    }
    text.parse().map_err(|e: StipulationError| err(first.line, e.to_string()))
}

/// Reads the data of one keyword (other than the problem delimiters) into `p`.
fn keyword(kw: &str, t: Tok, toks: &[Tok], i: &mut usize, p: &mut Problem) -> Result<(), PopeyeError> {
    match kw {
        "Title" | "Author" | "Origin" | "Award" | "Remark" | "Protocol" => {
            let mut words = Vec::new();
            while *i < toks.len() && toks[*i].line == t.line {
                words.push(toks[*i].text);
                *i += 1;
            }
            let field = match kw {
                "Title" => &mut p.title,
                "Author" => &mut p.author,
                "Origin" => &mut p.origin,
                _ => return Ok(()),
            };
            if !field.is_empty() {
                field.push('\n');
            }
            field.push_str(&words.join(" "));
        }
        "Twin" | "ZeroPosition" => {
            if kw == "ZeroPosition" {
                if !p.twins.is_empty() || p.zero_position {
                    return Err(err(t.line, "ZeroPosition must come before the twins"));
                }
                p.zero_position = true;
            }
            let twin = twin(toks, i, t.line)?;
            p.twins.push(twin);
        }
        "Pieces" => {
            let mut colour: Option<Colour> = None;
            let mut attrs = 0u8;
            while *i < toks.len() {
                let w = toks[*i];
                if let Ok(Some(c)) = match_keyword(w.text, &["White", "Black", "Neutral"]) {
                    colour = Some(match c {
                        "White" => Colour::White,
                        "Black" => Colour::Black,
                        _ => Colour::Shared,
                    });
                    attrs = 0;
                    *i += 1;
                    continue;
                }
                if let Some((kind, squares)) = piece_token(w.text) {
                    let c = colour.ok_or_else(|| err(w.line, format!("piece `{}` before a colour", w.text)))?;
                    for square in squares {
                        p.pieces.push(PieceSpec { colour: c, kind, attrs, square, line: w.line });
                    }
                    // As Popeye: `Royal` applies to the next piece token only (one royal
                    // unit a side); the other attributes hold until the next colour.
                    attrs &= !ROYAL;
                    *i += 1;
                    continue;
                }
                if w.text.len() >= 3 {
                    if let Ok(Some(a)) = match_keyword(w.text, ATTRIBUTES) {
                        attrs |= attribute_bit(a);
                        *i += 1;
                        continue;
                    }
                    if let Ok(Some(a)) = match_keyword(w.text, UNSUPPORTED_ATTRIBUTES) {
                        return Err(err(w.line, format!("piece attribute {a} is not supported yet")));
                    }
                }
                if top_keyword(&w)?.is_some() {
                    break;
                }
                return Err(err(w.line, format!("cannot read piece `{}`", w.text)));
            }
        }
        "Forsyth" => {
            let w = toks.get(*i).ok_or_else(|| err(t.line, "Forsyth without a board"))?;
            *i += 1;
            forsyth(w.text, w.line, &mut p.pieces)?;
        }
        "Condition" => {
            let specs = conditions(toks, i, t.line)?;
            p.conditions.extend(specs);
        }
        "SStipulation" => {
            return Err(err(t.line, "structured stipulations (SStipulation) are not supported"));
        }
        "Stipulation" => {
            let w = toks.get(*i).ok_or_else(|| err(t.line, "Stipulation without a value"))?;
            // `Stipulation` then `Option ...`: a keyword is no stipulation.
            if w.text.bytes().all(|b| b.is_ascii_alphabetic()) && top_keyword(w)?.is_some() {
                return Err(err(t.line, "Stipulation without a value"));
            }
            *i += 1;
            p.stipulation = Some((stipulation(w, toks, i)?, w.line));
        }
        "Option" => {
            let mut any = false;
            while *i < toks.len() {
                let w = toks[*i];
                let found = match match_keyword(w.text, OPTIONS) {
                    Ok(f) => f,
                    Err(hits) => {
                        return Err(err(
                            w.line,
                            format!("ambiguous option `{}` (could be {})", w.text, hits.join(", ")),
                        ));
                    }
                };
                let Some(o) = found else {
                    if top_keyword(&w)?.is_some() && any {
                        break;
                    }
                    return Err(err(w.line, format!("unknown option `{}`", w.text)));
                };
                any = true;
                *i += 1;
                let kind = *OptionKind::ALL.iter().find(|k| k.keyword() == o).expect("a keyword of the table");
                let number = |a: Option<&Tok>| -> Result<u32, PopeyeError> {
                    let a = a.ok_or_else(|| err(w.line, format!("{o} without a number")))?;
                    a.text.parse::<u32>().map_err(|_| err(a.line, format!("{o}: `{}` is not a number", a.text)))
                };
                let value = match kind.argument() {
                    Argument::None => OptionValue::None,
                    Argument::Number => {
                        let n = number(toks.get(*i))?;
                        *i += 1;
                        OptionValue::Number(n)
                    }
                    Argument::TwoNumbers => {
                        let a = number(toks.get(*i))?;
                        let b = number(toks.get(*i + 1))?;
                        *i += 2;
                        OptionValue::Numbers(a, b)
                    }
                    Argument::Squares => {
                        let a = toks.get(*i).ok_or_else(|| err(w.line, format!("{o} without squares")))?;
                        *i += 1;
                        OptionValue::Squares(
                            squares(a.text).ok_or_else(|| err(a.line, format!("bad squares `{}`", a.text)))?,
                        )
                    }
                };
                if kind == OptionKind::HalfDuplex {
                    p.half_duplex = true;
                }
                p.options.push(OptionSpec { kind, value, line: w.line });
            }
            if !any {
                return Err(err(t.line, "Option without an option"));
            }
        }
        _ => return Err(err(t.line, format!("unexpected keyword {kw}"))),
    }
    Ok(())
}

fn squares(s: &str) -> Option<Vec<Square>> {
    if s.is_empty() || !s.is_ascii() || !s.len().is_multiple_of(2) {
        return None;
    }
    s.as_bytes().chunks(2).map(|c| Square::parse(&String::from_utf8_lossy(c).to_ascii_lowercase())).collect()
}

/// Popeye's Forsyth notation: the squares from a8 to h1, rank by rank; a number (of any
/// length: `48` is six empty ranks) skips that many squares, `/` moves on to the next
/// rank when a rank is unfinished, squares left over at the end are empty. A piece is one
/// letter or `.` and two letters (`S` knight); upper case is White, unless a sign comes
/// first: `=` neutral, `+` White, `-` Black.
fn forsyth(s: &str, line: usize, out: &mut Vec<PieceSpec>) -> Result<(), PopeyeError> {
    // Index of the next square: 0 is a8, 7 is h8, 63 is h1.
    let mut idx = 0u32;
    let cs: Vec<char> = s.chars().collect();
    let mut k = 0;
    while k < cs.len() {
        let c = cs[k];
        k += 1;
        if c.is_ascii_digit() {
            let mut n = c.to_digit(10).unwrap_or(0);
            while k < cs.len() && cs[k].is_ascii_digit() {
                n = n * 10 + cs[k].to_digit(10).unwrap_or(0);
                k += 1;
                if n > 64 {
                    return Err(err(line, "Forsyth: too many empty squares"));
                }
            }
            idx += n;
            continue;
        }
        if c == '/' {
            idx = idx.div_ceil(8) * 8;
            continue;
        }
        // A colour sign before the piece: `=` neutral, `+` White, `-` Black (as Popeye).
        let sign = match c {
            '=' => Some(Colour::Shared),
            '+' => Some(Colour::White),
            '-' => Some(Colour::Black),
            _ => None,
        };
        let c = if sign.is_some() {
            let Some(&next) = cs.get(k) else { return Err(err(line, "Forsyth: a colour sign needs a piece")) };
            k += 1;
            next
        } else {
            c
        };
        let (letters, white) = if c == '.' {
            if k + 2 > cs.len() {
                return Err(err(line, "Forsyth: `.` needs two letters"));
            }
            let l: String = cs[k..k + 2].iter().collect();
            k += 2;
            let white = l.chars().all(|x| x.is_ascii_uppercase());
            (l, white)
        } else {
            (c.to_string(), c.is_ascii_uppercase())
        };
        let kind =
            walk::kind_of_letters(&letters).ok_or_else(|| err(line, format!("Forsyth: unknown piece `{letters}`")))?;
        if idx >= 64 {
            return Err(err(line, "Forsyth: more than 64 squares"));
        }
        out.push(PieceSpec {
            colour: sign.unwrap_or(if white { Colour::White } else { Colour::Black }),
            kind,
            attrs: 0,
            square: Square::from_coords((idx % 8) as u8, 7 - (idx / 8) as u8),
            line,
        });
        idx += 1;
    }
    if idx > 64 {
        return Err(err(line, "Forsyth: more than 64 squares"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every twin kind a form offers is read, with example words of its arguments, into
    /// a command of that keyword (the list and the reader cannot drift apart).
    #[test]
    fn every_twin_kind_is_read_back_as_itself() {
        for k in TWIN_KINDS {
            let words: Vec<&str> = k
                .args
                .iter()
                .enumerate()
                .map(|(n, (_, a))| match a {
                    TwinArg::Square => ["c3", "d5"][n],
                    TwinArg::Piece => ["Q", "G"][n],
                    TwinArg::Units => "White Sa7 Black Ba5",
                    TwinArg::Choice(c) => c[c.len() - 1],
                    TwinArg::Conditions => "Circe",
                    TwinArg::Stipulation => "h#2",
                })
                .collect();
            let input = format!(
                "BeginProblem\nPieces White Kd4 Qc3 Black Ke1\nStipulation #2\nTwin Continued {} {}\nEndProblem\n",
                k.keyword,
                words.join(" ")
            );
            let p = parse(&input).unwrap_or_else(|e| panic!("{input}: {e}")).remove(0);
            assert!(p.twins[0].continued);
            assert_eq!(p.twins[0].cmds.len(), 1, "{input}");
            assert_eq!(p.twins[0].cmds[0].keyword(), k.keyword, "{input}");
        }
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn kinds(p: &Problem) -> Vec<OptionKind> {
        p.options.iter().map(|o| o.kind).collect()
    }

    /// The legal first moves of the first problem of `input`, in Popeye's notation.
    fn legal_moves_of(input: &str) -> Vec<String> {
        let p = parse(input).unwrap_or_else(|e| panic!("{input}: {e}")).remove(0);
        crate::first_moves(&mut crate::build_game(&p).unwrap_or_else(|e| panic!("{input}: {e}")))
    }

    #[test]
    fn hole_squares_in_any_case() {
        // `Hole D4E5` reads as `Hole d4e5`, and a condition after the squares still counts.
        let p = parse("beginp\ncond Hole D4E5 Circe\npiec whi ke1 bla ke8\nstip ~1\nendp").expect("parses");
        assert_eq!(p[0].conditions.len(), 2);
        assert_eq!(p[0].conditions[0].params, vec!["D4E5".to_string()]);
        let lower = legal_moves_of(
            "BeginProblem\nCondition Hole d4e5\nPieces White Ke1 Qd1 Black Ke8\nStipulation ~1\nEndProblem\n",
        );
        let upper = legal_moves_of(
            "BeginProblem\nCondition Hole D4E5\nPieces White Ke1 Qd1 Black Ke8\nStipulation ~1\nEndProblem\n",
        );
        assert_eq!(lower, upper);
        assert!(!lower.contains(&"Qd1-d4".to_string()) && lower.contains(&"Qd1-d3".to_string()), "{lower:?}");
    }

    /// `CirceAssassin` (Popeye's one-word keyword) reads as `Circe Assassin`.
    #[test]
    fn circe_assassin_keyword() {
        let solve = |cond: &str| {
            legal_moves_of(&format!(
                "BeginProblem\nCondition {cond}\nPieces White Ke1 Qd1 Rh1 Black Ke8 Rd8 Sa2\n\
                 Stipulation ~1\nEndProblem\n"
            ))
        };
        assert_eq!(solve("CirceAssassin"), solve("Circe Assassin"));
    }

    /// `Royal` applies to the next piece token only, as in Popeye (`Royal DUg4 Pf2`: the
    /// pawn is an ordinary one); `Kamikaze` holds until the next colour word.
    #[test]
    fn royal_applies_to_the_next_piece_only() {
        let p =
            parse("BeginProblem\nPieces White Royal DUg4 Pf2 Kamikaze Ra1 Sb1 Black Ke8\nStipulation ~1\nEndProblem")
                .expect("parses");
        let attrs: Vec<u8> = p[0].pieces.iter().map(|x| x.attrs).collect();
        assert_eq!(attrs, [ROYAL, 0, KAMIKAZE, KAMIKAZE, 0]);
    }

    /// Refusals name what is not read: a number after a condition that takes none, a
    /// piece of a twin's `Add` that is not known.
    #[test]
    fn refusals_name_the_unread_word() {
        let e = parse("BeginProblem\nCondition SAT 3\nPieces White Ke1 Black Ke8\nStipulation #1\nEndProblem")
            .expect_err("refused");
        assert!(e.to_string().contains("condition `SAT`: parameter `3` is not supported"), "{e}");
        let e = parse("BeginProblem\nPieces White Ke1 Black Ke8\nStipulation #1\nTwin Add Neutral BBc2\nEndProblem")
            .expect_err("refused");
        assert!(e.to_string().contains("Add: cannot read piece `BBc2`"), "{e}");
    }

    /// Several `Author` (or `Title`, `Origin`) lines are all kept, in their order.
    #[test]
    fn repeated_header_keywords_keep_every_line() {
        let p = parse(
            "BeginProblem\nAuthor A. One\nAuthor B.  Two\nTitle 1.Prize\nTitle a) diagram\nOrigin X\n\
                       Pieces White Ke1 Black Ke8\nStipulation ~1\nEndProblem",
        )
        .expect("parses");
        assert_eq!(p[0].author, "A. One\nB. Two");
        assert_eq!(p[0].title, "1.Prize\na) diagram");
        assert_eq!(p[0].origin, "X");
    }

    /// `Option` written in full after a condition ends the list, though it begins the
    /// name `OptionalReplacement`; the abbreviation `opti` alone still names the keyword.
    #[test]
    fn option_after_conditions() {
        for cond in ["Circe", "ExclusiveChess"] {
            let p = parse(&format!("BeginProblem\nCondition {cond}\nOption HalfDuplex\nPieces White Ke1 Black Ke8\nStipulation h#1\nEndProblem"))
                .expect("parses");
            assert_eq!(p[0].conditions.len(), 1, "{cond}");
            assert!(p[0].half_duplex, "{cond}");
        }
    }

    #[test]
    fn an_abbreviated_keyword_ends_the_conditions() {
        let p = parse(
            "BeginProblem\nPieces White Ke1 Black Ke8\nStipulation #2\ncond blackchecks\nopt try var\nEndProblem",
        )
        .expect("parses");
        assert_eq!(p[0].conditions.len(), 1);
        assert_eq!(kinds(&p[0]), [OptionKind::Try, OptionKind::Variations]);
        // In full, and as the first word, the condition's name still reads.
        let p = parse("BeginProblem\nPieces White Ke1 Black Ke8\nStipulation #2\ncond OptionalReplacement\nEndProblem")
            .expect("parses");
        assert_eq!(p[0].conditions[0].name, "OptionalReplacement");
    }

    #[test]
    fn a_twin_adds_pieces_of_several_colours() {
        let p = parse(
            "BeginProblem\nPieces White Ka1 Black Kh1\nStipulation h#2\nTwin Add White Sa7 Black Ba5 Pb5\nEndProblem",
        )
        .expect("parses");
        let TwinCmd::Add(units) = &p[0].twins[0].cmds[0] else { panic!("{:?}", p[0].twins) };
        let cols: Vec<(Colour, Square)> = units.iter().map(|u| (u.colour, u.square)).collect();
        assert_eq!(cols, vec![(Colour::White, sq("a7")), (Colour::Black, sq("a5")), (Colour::Black, sq("b5"))]);
    }

    #[test]
    fn a_stipulation_keyword_without_value_is_named() {
        let e = parse("BeginProblem\nPieces White Ke1 Black Ke8\nStipulation\nOption Variation NoBoard\nEndProblem")
            .unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (3, "Stipulation without a value"));
        // The value may stand on the next line.
        let p = parse("BeginProblem\nPieces White Ke1 Black Ke8\nStipulation\nh#2\nEndProblem").expect("parses");
        assert_eq!(p[0].stipulation.map(|s| s.0.to_string()).as_deref(), Some("h#2"));
    }

    #[test]
    fn the_length_may_follow_the_goal_after_a_space() {
        let p = parse("BeginProblem\nPieces White Ke1 Black Ke8\nStipulation h# 2.5\nTwin Stipulation # 3\nEndProblem")
            .expect("parses");
        assert_eq!(p[0].stipulation.map(|s| s.0.to_string()).as_deref(), Some("h#2.5"));
        assert!(matches!(&p[0].twins[0].cmds[0], TwinCmd::Stipulation(s) if s.to_string() == "#3"));
        // A complete stipulation leaves the next token alone.
        assert!(parse("BeginProblem\nPieces White Ke1 Black Ke8\nStipulation #2 3\nEndProblem").is_err());
    }

    #[test]
    fn a_structured_stipulation_is_refused_by_name() {
        let e = parse("BeginProblem\nPieces White Ke1 Black Ke8\nsstip black 4hh[2da[#]]\nEndProblem").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("SStipulation"), "{}", e.message);
        // `stip` still abbreviates Stipulation alone.
        let p = parse("BeginProblem\nPieces White Ke1 Black Ke8\nstip #2\nEndProblem").expect("parses");
        assert_eq!(p[0].stipulation.map(|s| s.0.to_string()).as_deref(), Some("#2"));
    }

    #[test]
    fn option_words_are_popeyes_english_ones() {
        // Popeye's English keyword is `Variations`: the whole word and its prefixes read.
        for word in ["Variations", "variation", "vari"] {
            let p =
                parse(&format!("BeginProblem\nPieces White Ke1 Black Ke8\nStipulation #2\nOption {word}\nEndProblem"))
                    .expect("parses");
            assert_eq!(kinds(&p[0]), [OptionKind::Variations], "{word}");
        }
        let p =
            parse("BeginProblem\nPieces White Ke1 Black Ke8\nStipulation #2\nOption StopOnShortSolutions\nEndProblem")
                .expect("parses");
        assert_eq!(kinds(&p[0]), [OptionKind::StopOnShortSolutions]);
    }

    #[test]
    fn keywords_are_case_insensitive_and_abbreviable() {
        let p = parse(
            "beginp\ntitle Some title with e4 in it\ncond circe paRAchute\npiec whi ke1 pa2b2 bla kamik ke8 rob8\n\
             neut pe4\nstip ~1\nopti noboard halfd enpa d7d6d5 nocast a1\nendp",
        )
        .expect("parses");
        assert_eq!(p.len(), 1);
        let p = &p[0];
        assert_eq!(p.title, "Some title with e4 in it");
        assert_eq!(p.conditions.len(), 1);
        assert_eq!(p.conditions[0].name, "Circe");
        assert_eq!(p.conditions[0].params, vec!["Parachute".to_string()]);
        assert_eq!(p.pieces.len(), 6);
        assert_eq!(
            p.pieces[2],
            PieceSpec { colour: Colour::White, kind: walk::PAWN, attrs: 0, square: sq("b2"), line: 4 }
        );
        assert_eq!(p.pieces[4].kind, walk::ROSE);
        assert_eq!(p.pieces[4].attrs, KAMIKAZE);
        assert_eq!(p.pieces[5].colour, Colour::Shared);
        assert!(p.has(OptionKind::NoBoard) && p.half_duplex);
        assert_eq!(p.squares_of(OptionKind::EnPassant), [sq("d7"), sq("d6"), sq("d5")]);
        assert_eq!(p.squares_of(OptionKind::NoCastling), [sq("a1")]);
        assert_eq!(p.stipulation.map(|s| s.0.to_string()).as_deref(), Some("~1"));
    }

    #[test]
    fn several_problems_and_forsyth() {
        let p = parse(
            "BeginProblem\nForsyth 4k3/8/8/8/8/8/8/4K2R\nStipulation ~1\nNextProblem\n\
             Pieces White Ke1 Black Ke8\nStipulation ~1\nEndProblem",
        )
        .expect("parses");
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].pieces.len(), 3);
        assert_eq!(p[0].pieces.iter().find(|x| x.square == sq("h1")).map(|x| x.kind), Some(walk::ROOK));
        assert_eq!(p[1].pieces.len(), 2);
    }

    /// Popeye's Forsyth counts squares from a8 on: a number may skip several ranks, the
    /// ranks need no `/` when full, a trailing `/` and missing last squares are allowed.
    #[test]
    fn forsyth_counts_squares() {
        let p = parse("BeginProblem\nForsyth 48/2rs2B1/KkbsR1Q1/\nEndProblem").expect("parses");
        let at = |s: &str| p[0].pieces.iter().find(|x| x.square == sq(s)).map(|x| (x.kind, x.colour));
        assert_eq!(p[0].pieces.len(), 9);
        assert_eq!(at("c2"), Some((walk::ROOK, Colour::Black)));
        assert_eq!(at("g2"), Some((walk::BISHOP, Colour::White)));
        assert_eq!(at("a1"), Some((walk::KING, Colour::White)));
        assert_eq!(at("g1"), Some((walk::QUEEN, Colour::White)));
        let p = parse("BeginProblem\nForsyth K5rk/BR6/1B2bbb\nEndProblem").expect("parses");
        assert_eq!(p[0].pieces.len(), 9);
        assert!(p[0].pieces.iter().any(|x| x.square == sq("g6") && x.kind == walk::BISHOP));
    }

    #[test]
    fn errors_name_their_line() {
        for (text, line) in [
            ("BeginProblem\nPieces White Kz9\nEndProblem", 2),
            ("BeginProblem\nPieces Ke1\nEndProblem", 2),
            ("BeginProblem\nStipulation ~1\n\nFrobnicate\nEndProblem", 4),
            ("BeginProblem\nCondition Cou\nEndProblem", 2),
            ("BeginProblem\nOption EnPassant z9\nEndProblem", 2),
            ("Pieces White Ke1", 1),
            ("BeginProblem\nPieces White Ke1\n", 2),
            ("BeginProblem\nForsyth 64K\nEndProblem", 2),
            ("BeginProblem\nPieces White Ke1\nEndProblem\nBeginProblem", 4),
        ] {
            let e = parse(text).expect_err(text);
            assert_eq!(e.line, line, "{text}: {e}");
        }
    }

    #[test]
    fn piece_tokens() {
        assert_eq!(piece_token("Ke1"), Some((walk::KING, vec![sq("e1")])));
        assert_eq!(piece_token("LNb1"), Some((walk::NIGHTRIDER_LOCUST, vec![sq("b1")])));
        assert_eq!(piece_token("Pa2b2c2").map(|x| x.1.len()), Some(3));
        assert_eq!(piece_token("DUd5"), Some((walk::DUMMY, vec![sq("d5")])));
        assert_eq!(piece_token("Ki9"), None);
        assert_eq!(piece_token("é1"), None);
    }
}
