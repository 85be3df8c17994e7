//! The fairy-problem solver for the browser: Popeye input read into a problem the page's
//! form shows ([`read`]), and solved by the solver's own `solve_input` on one thread
//! ([`solve`]), its text streamed as it is written and then cut into problems and twins;
//! each twin's solution lines are read back into a typed tree ([`SolNode`]) whose moves are
//! found again among the legal moves of the twin's position, so the page can play them
//! on a board. Nothing here solves anything itself: the lines are the solver's.

use chimere_core::{Colour, Square};
use chimere_fairy::Move;
use chimere_fairy::walk;
use chimere_popeye::options::Argument;
use chimere_popeye::{OptionKind, PieceSpec, PopeyeError, Problem, TWIN_KINDS, TwinArg, TwinCmd};
use chimere_solver::options::Support;
use chimere_solver::search::Searcher;
use chimere_solver::stip::{Goal, Play};
use chimere_solver::table::Table;
use chimere_solver::{Settings, twins};
use serde::Serialize;
use std::cell::RefCell;
use std::io::{self, Write};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// An error naming its input line (1-based; 0 when it concerns no line).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineError {
    pub line: usize,
    pub message: String,
}

impl From<&PopeyeError> for LineError {
    fn from(e: &PopeyeError) -> Self {
        LineError { line: e.line, message: e.message.clone() }
    }
}

/// A side as the page names it (neutral units belong to both).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
    Neutral,
}

impl From<Colour> for Side {
    fn from(c: Colour) -> Self {
        match c {
            Colour::White => Side::White,
            Colour::Black => Side::Black,
            Colour::Shared => Side::Neutral,
        }
    }
}

/// A unit on a square: its Popeye letters (`Q`, `N`, `RO`...) and attributes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardUnit {
    pub square: String,
    pub side: Side,
    pub piece: String,
    /// Popeye's attribute words (`Royal`, `Kamikaze`, ...).
    pub attrs: Vec<&'static str>,
}

fn attr_words(attrs: u8) -> Vec<&'static str> {
    chimere_popeye::parse::ATTRIBUTE_TABLE.iter().filter(|(_, bit)| attrs & bit != 0).map(|(w, _)| *w).collect()
}

fn spec_unit(p: &PieceSpec) -> BoardUnit {
    BoardUnit {
        square: p.square.to_string(),
        side: p.colour.into(),
        piece: walk::letters(p.kind).to_string(),
        attrs: attr_words(p.attrs),
    }
}

// ----- what the solver knows (the page's pickers) -----

/// A kind of piece the engine knows.
#[derive(Clone, Debug, Serialize)]
pub struct PieceInfo {
    pub letters: &'static str,
    pub name: &'static str,
    pub fairy: bool,
}

/// An option of the solver: its keyword, whether it takes a number or squares, and a line
/// saying what it does.
#[derive(Clone, Debug, Serialize)]
pub struct OptionInfo {
    pub name: &'static str,
    /// `none`, `number` or `squares`.
    pub takes: &'static str,
    pub summary: &'static str,
}

/// The options the page offers: those the solver gives an effect ([`Support::Offered`]),
/// from the reader's table and the solver's summaries.
fn options() -> Vec<OptionInfo> {
    OptionKind::ALL
        .iter()
        .filter_map(|&k| {
            let takes = match k.argument() {
                Argument::None => "none",
                Argument::Number => "number",
                Argument::Squares => "squares",
                // The page has no field for two numbers; no supported option takes them.
                Argument::TwoNumbers => return None,
            };
            match chimere_solver::options::support(k) {
                Support::Offered(summary) => Some(OptionInfo { name: k.keyword(), takes, summary }),
                Support::Accepted | Support::Refused => None,
            }
        })
        .collect()
}

/// What one field of a twinning command holds (the reader's [`TwinArg`]).
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TwinField {
    Square,
    Piece,
    Units,
    Choice,
    Conditions,
    Stipulation,
}

/// One field of a twinning command: its label, what it holds, the words to choose from.
#[derive(Clone, Debug, Serialize)]
pub struct TwinArgInfo {
    pub label: &'static str,
    pub field: TwinField,
    pub choices: &'static [&'static str],
}

/// A twinning command the reader takes (`chimere_popeye::TWIN_KINDS`).
#[derive(Clone, Debug, Serialize)]
pub struct TwinKindInfo {
    pub keyword: &'static str,
    pub args: Vec<TwinArgInfo>,
}

/// The pieces, attributes, options and twinning commands for the page's pickers.
#[derive(Clone, Debug, Serialize)]
pub struct Catalogue {
    pub pieces: Vec<PieceInfo>,
    pub attributes: Vec<&'static str>,
    pub options: Vec<OptionInfo>,
    pub twins: Vec<TwinKindInfo>,
}

pub fn catalogue() -> Catalogue {
    let arg = |&(label, a): &(&'static str, TwinArg)| {
        let (field, choices) = match a {
            TwinArg::Square => (TwinField::Square, &[][..]),
            TwinArg::Piece => (TwinField::Piece, &[][..]),
            TwinArg::Units => (TwinField::Units, &[][..]),
            TwinArg::Choice(c) => (TwinField::Choice, c),
            TwinArg::Conditions => (TwinField::Conditions, &[][..]),
            TwinArg::Stipulation => (TwinField::Stipulation, &[][..]),
        };
        TwinArgInfo { label, field, choices }
    };
    Catalogue {
        pieces: walk::WALKS.iter().map(|w| PieceInfo { letters: w.letters, name: w.name, fairy: w.fairy }).collect(),
        attributes: chimere_popeye::parse::ATTRIBUTES.to_vec(),
        options: options(),
        twins: TWIN_KINDS
            .iter()
            .map(|k| TwinKindInfo { keyword: k.keyword, args: k.args.iter().map(arg).collect() })
            .collect(),
    }
}

/// A fairy condition of a game (a `--condition` name with its parameters) as Popeye
/// input writes it, or why it cannot.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ConditionText {
    Popeye(String),
    Error(String),
}

pub fn condition_text(name: &str) -> ConditionText {
    match chimere_fairy::conditions::registry::popeye_text(name) {
        Ok(t) => ConditionText::Popeye(t),
        Err(e) => ConditionText::Error(e.to_string()),
    }
}

// ----- reading -----

/// A condition as written: its keyword and parameter words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FormCondition {
    pub name: String,
    pub params: Vec<String>,
}

/// One twinning command as the form holds it: its keyword (an entry of the catalogue's
/// `twins`) and the words of each of its fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FormTwinCmd {
    pub kind: &'static str,
    pub args: Vec<String>,
}

/// One twin: from the diagram, or from the previous twin (`continued`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FormTwin {
    pub continued: bool,
    pub cmds: Vec<FormTwinCmd>,
}

/// One problem as the page's form holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FormProblem {
    pub title: String,
    pub author: String,
    pub origin: String,
    pub pieces: Vec<BoardUnit>,
    pub conditions: Vec<FormCondition>,
    pub stipulation: String,
    /// Options as written: `Try`, `Defence 2`, `EnPassant e3`.
    pub options: Vec<String>,
    /// The twins, each its commands (`Twin Continued Move e6 d5 Rotate 90`).
    pub twins: Vec<FormTwin>,
    pub zero_position: bool,
    /// The squares that are holes in the diagram (as the conditions make them).
    pub holes: Vec<String>,
}

/// One problem of an input: read, or the error that stopped it.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Read {
    Problem(Box<FormProblem>),
    Error(LineError),
}

fn option_words(p: &Problem) -> Vec<String> {
    p.options.iter().map(|o| o.to_string()).collect()
}

fn units_text(units: &[PieceSpec]) -> String {
    let mut s = String::new();
    let mut colour = None;
    for u in units {
        if colour != Some(u.colour) {
            colour = Some(u.colour);
            s.push_str(match u.colour {
                Colour::White => " White",
                Colour::Black => " Black",
                Colour::Shared => " Neutral",
            });
        }
        for a in attr_words(u.attrs) {
            s.push(' ');
            s.push_str(a);
        }
        s.push_str(&format!(" {}{}", walk::letters(u.kind), u.square));
    }
    s
}

/// A twinning command's fields as Popeye writes them (one entry per field of its kind).
fn twin_args(c: &TwinCmd) -> Vec<String> {
    match c {
        TwinCmd::Move(a, b) | TwinCmd::Exchange(a, b) | TwinCmd::Shift(a, b) => vec![a.to_string(), b.to_string()],
        TwinCmd::Remove(a) => vec![a.to_string()],
        TwinCmd::Add(units) => vec![units_text(units).trim_start().to_string()],
        TwinCmd::Substitute(a, b) => vec![walk::letters(*a).to_string(), walk::letters(*b).to_string()],
        TwinCmd::Rotate(d) => vec![d.to_string()],
        TwinCmd::Mirror(m) => vec![m.clone()],
        TwinCmd::PolishType => Vec::new(),
        TwinCmd::Condition(cs) => vec![cs.iter().map(twins::condition_text).collect::<Vec<_>>().join(" ")],
        TwinCmd::Stipulation(t) => vec![t.to_string()],
    }
}

fn form_twin(continued: bool, cmds: &[TwinCmd]) -> FormTwin {
    FormTwin { continued, cmds: cmds.iter().map(|c| FormTwinCmd { kind: c.keyword(), args: twin_args(c) }).collect() }
}

/// A twin as one Popeye line (the page writes the same, web/src/pages/problem-board.ts).
pub fn twin_line(t: &FormTwin) -> String {
    let mut words = vec!["Twin"];
    if t.continued {
        words.push("Continued");
    }
    for c in &t.cmds {
        words.push(c.kind);
        words.extend(c.args.iter().map(String::as_str));
    }
    words.join(" ")
}

fn form_of(p: &Problem) -> FormProblem {
    FormProblem {
        title: p.title.clone(),
        author: p.author.clone(),
        origin: p.origin.clone(),
        pieces: p.pieces.iter().map(spec_unit).collect(),
        conditions: p
            .conditions
            .iter()
            .map(|c| FormCondition { name: c.name.to_string(), params: c.params.clone() })
            .collect(),
        stipulation: p.stipulation.map(|(s, _)| s.to_string()).unwrap_or_default(),
        options: option_words(p),
        twins: p.twins.iter().map(|t| form_twin(t.continued, &t.cmds)).collect(),
        zero_position: p.zero_position,
        holes: p.hole_squares().iter().map(|s| s.to_string()).collect(),
    }
}

/// Reads a Popeye input into the problems it holds (each read, or its error).
pub fn read(input: &str) -> Vec<Read> {
    chimere_popeye::parse_all(input)
        .iter()
        .map(|r| match r {
            Ok(p) => Read::Problem(Box::new(form_of(p))),
            Err(e) => Read::Error(e.into()),
        })
        .collect()
}

// ----- solving -----

/// What a node of a solution is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeKind {
    /// The key (`1.X !`).
    Key,
    /// A try (`1.X ?`), with its refutations below.
    Try,
    /// A move reaching the goal too soon (`1.X ?!?`).
    Premature,
    /// A refutation of a try (`but 1...X !`).
    Refutation,
    /// A threat (an attacker's move below an attacker's move).
    Threat,
    /// A defence (a variation).
    Defence,
    /// The attacker's answer to a defence.
    Answer,
    /// A defence of the set play (before the key).
    Set,
    /// One help or series line (all its moves).
    Line,
    /// A help or series line of the set play.
    SetLine,
}

/// One move of a solution, with the position after it (`None` when it could not be
/// played again: the page then shows the text alone).
#[derive(Clone, Debug, Serialize)]
pub struct Ply {
    pub text: String,
    pub board: Option<Vec<BoardUnit>>,
}

/// A node of a solution: the moves it adds to its parent's position (one in a tree, all
/// of a line in help and series play) and what follows.
#[derive(Clone, Debug, Serialize)]
pub struct SolNode {
    pub kind: NodeKind,
    /// The line as the solver printed it (trimmed).
    pub text: String,
    pub plies: Vec<Ply>,
    pub children: Vec<SolNode>,
}

/// One twin's solution.
#[derive(Clone, Debug, Serialize)]
pub struct TwinResult {
    /// `a) `, `b) -wBh8` (none without twins).
    pub label: Option<String>,
    /// The twin's output lines, as printed.
    pub lines: Vec<String>,
    /// The twin's diagram.
    pub start: Vec<BoardUnit>,
    pub tree: Vec<SolNode>,
}

/// One problem's result.
#[derive(Clone, Debug, Serialize)]
pub struct ProblemResult {
    /// The refusal, naming its line.
    pub error: Option<LineError>,
    /// Everything the solver printed for it.
    pub text: String,
    pub twins: Vec<TwinResult>,
    /// False when stopped by MaxTime or MaxSolutions.
    pub finished: bool,
}

#[derive(Debug)]
enum Event {
    Out(String),
    Err(String),
}

/// The page's callback for the solver's text, shared by the two sinks.
type OnText<'a, 'b> = &'a RefCell<&'b mut dyn FnMut(&str)>;

struct Sink<'a, 'b> {
    log: Rc<RefCell<Vec<Event>>>,
    err: bool,
    on_text: Option<OnText<'a, 'b>>,
}

impl Write for Sink<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let text = String::from_utf8_lossy(buf).into_owned();
        if let Some(f) = self.on_text {
            (f.borrow_mut())(&text);
        }
        let mut log = self.log.borrow_mut();
        match (log.last_mut(), self.err) {
            (Some(Event::Out(s)), false) => s.push_str(&text),
            (Some(Event::Err(s)), true) => s.push_str(&text),
            (_, false) => log.push(Event::Out(text)),
            (_, true) => log.push(Event::Err(text)),
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Solves every problem of `input` on this thread with a table of `hash_mb` MB; `on_text`
/// gets the solver's text as it is written (solutions appear as each first move is
/// solved). The results come in the order of the problems.
pub fn solve(input: &str, hash_mb: usize, on_text: &mut dyn FnMut(&str)) -> Vec<ProblemResult> {
    let settings = Settings { hash_mb, max_time: None, threads: 1, progress: false, json: false, banner: false };
    let log = Rc::new(RefCell::new(Vec::new()));
    let cb = RefCell::new(on_text);
    {
        let mut out = Sink { log: log.clone(), err: false, on_text: Some(&cb) };
        let mut err = Sink { log: log.clone(), err: true, on_text: Some(&cb) };
        // Writing to memory cannot fail.
        let _ = chimere_solver::solve_input(input, &settings, &mut out, &mut err);
    }
    let events = std::mem::take(&mut *log.borrow_mut());
    let segments = segments(events);
    let parsed = chimere_popeye::parse_all(input);
    segments
        .into_iter()
        .zip(parsed.iter().map(Some).chain(std::iter::repeat(None)))
        .map(|(seg, p)| match seg {
            Segment::Error(e) => {
                ProblemResult { error: Some(e), text: String::new(), twins: Vec::new(), finished: true }
            }
            Segment::Text(text) => {
                let finished = !text.lines().any(|l| l.starts_with("Partial solution"));
                let twins = match p {
                    Some(Ok(p)) => twin_results(p, &text),
                    _ => Vec::new(),
                };
                ProblemResult { error: None, text, twins, finished }
            }
        })
        .collect()
}

enum Segment {
    Error(LineError),
    Text(String),
}

/// Cuts the solver's stream into problems: an error line, or the text up to its
/// `solution finished` (or `Partial solution`) line and the blank lines after it.
fn segments(events: Vec<Event>) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut closing = false;
    for e in events {
        match e {
            Event::Err(s) => {
                if !cur.is_empty() {
                    out.push(Segment::Text(std::mem::take(&mut cur)));
                    closing = false;
                }
                for l in s.lines().filter(|l| !l.trim().is_empty()) {
                    out.push(Segment::Error(error_of(l)));
                }
            }
            Event::Out(s) => {
                for l in s.split_inclusive('\n') {
                    if closing && !l.trim().is_empty() {
                        out.push(Segment::Text(std::mem::take(&mut cur)));
                        closing = false;
                    }
                    cur.push_str(l);
                    if l.starts_with("solution finished") || l.starts_with("Partial solution") {
                        closing = true;
                    }
                }
            }
        }
    }
    if !cur.is_empty() {
        out.push(Segment::Text(cur));
    }
    out
}

/// `line 12: message` back into its parts.
fn error_of(l: &str) -> LineError {
    let l = l.trim();
    if let Some(rest) = l.strip_prefix("line ")
        && let Some((n, m)) = rest.split_once(": ")
        && let Ok(line) = n.parse()
    {
        return LineError { line, message: m.to_string() };
    }
    LineError { line: 0, message: l.to_string() }
}

/// The twins' problems, as the solver makes them (the diagram unless `ZeroPosition`, then
/// each twin applied to the diagram or to the twin before).
fn twin_problems(p: &Problem) -> Vec<Problem> {
    let base = Problem { twins: Vec::new(), ..p.clone() };
    let mut out = Vec::new();
    if !p.zero_position || p.twins.is_empty() {
        out.push(base.clone());
    }
    let mut prev = base.clone();
    for tw in &p.twins {
        let mut q = if tw.continued { prev.clone() } else { base.clone() };
        if twins::apply(&mut q, &tw.cmds).is_err() {
            break;
        }
        out.push(q.clone());
        prev = q;
    }
    out
}

fn is_twin_label(l: &str) -> bool {
    let l = l.strip_prefix('+').unwrap_or(l);
    match l.split_once(") ") {
        Some((letters, _)) => {
            !letters.is_empty() && letters.len() <= 2 && letters.bytes().all(|b| b.is_ascii_lowercase())
        }
        None => l.len() <= 4 && l.ends_with(')') && l[..l.len() - 1].bytes().all(|b| b.is_ascii_lowercase()),
    }
}

/// Whether a line is a solution line (moves, or a try's `but`).
fn is_solution_line(l: &str) -> bool {
    let t = l.trim_start();
    if t.len() == l.len() {
        return false;
    }
    if t == "but" {
        return true;
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && t[digits..].starts_with('.')
}

fn twin_results(p: &Problem, text: &str) -> Vec<TwinResult> {
    let problems = twin_problems(p);
    let lines: Vec<&str> = text.lines().collect();
    // Each twin's label, the line it is on, and where its section starts (after the label).
    let mut starts: Vec<(Option<String>, usize, usize)> = Vec::new();
    if p.twins.is_empty() {
        // After the header: the first solution line's block.
        starts.push((None, 0, 0));
    } else {
        for (i, l) in lines.iter().enumerate() {
            if is_twin_label(l) {
                // A label naming several conditions goes on over the next lines, one
                // condition each, indented (`b) Circe`, `   MonochromChess`).
                let more = lines[i + 1..]
                    .iter()
                    .take_while(|x| x.starts_with("   ") && !x.trim().is_empty() && !is_solution_line(x))
                    .count();
                let label = lines[i..=i + more].iter().map(|x| x.trim()).collect::<Vec<_>>().join(" ");
                starts.push((Some(label), i, i + 1 + more));
            }
        }
    }
    let set_play = p.has(chimere_popeye::OptionKind::SetPlay);
    let mut out = Vec::new();
    for (k, (label, _, from)) in starts.iter().enumerate() {
        let to = starts.get(k + 1).map_or(lines.len(), |s| s.1);
        let mut section: Vec<&str> = lines[*from..to]
            .iter()
            .copied()
            .filter(|l| !l.starts_with("solution finished") && !l.starts_with("Partial solution"))
            .collect();
        if label.is_none() {
            // Without twins the header comes first: keep from the first solution line's
            // block (a blank line before it).
            if let Some(first) = section.iter().position(|l| is_solution_line(l)) {
                let begin = section[..first].iter().rposition(|l| l.trim().is_empty()).map_or(first, |b| b + 1);
                section.drain(..begin);
            }
        }
        while section.last().is_some_and(|l| l.trim().is_empty()) {
            section.pop();
        }
        let Some(q) = problems.get(k) else { break };
        let tree = build_tree(q, &section, set_play);
        out.push(TwinResult {
            label: label.clone(),
            lines: section.iter().map(|s| s.to_string()).collect(),
            start: q.pieces.iter().map(spec_unit).collect(),
            tree,
        });
    }
    out
}

// ----- the typed tree -----

/// One parsed solution line before its moves are played.
struct Raw<'a> {
    indent: usize,
    text: &'a str,
    /// In a try's `but` block.
    refutation: bool,
    /// In the set play block.
    set: bool,
}

fn build_tree(q: &Problem, section: &[&str], set_play: bool) -> Vec<SolNode> {
    let stip = q.stipulation.map(|(s, _)| s);
    let tree_mode = stip.as_ref().is_some_and(|s| matches!(s.play, Play::Direct | Play::SelfPlay | Play::Reflex));
    let goal = stip.as_ref().map_or(Goal::Mate, |s| s.goal);
    let mut raws = Vec::new();
    let mut in_but = false;
    // The set play is the first block (up to a blank line) when asked for.
    let mut in_set = set_play;
    let mut seen = false;
    for l in section {
        if l.trim().is_empty() {
            if seen {
                in_set = false;
            }
            continue;
        }
        if !is_solution_line(l) {
            continue;
        }
        seen = true;
        let t = l.trim_start();
        let indent = l.len() - t.len();
        if t == "but" {
            in_but = true;
            continue;
        }
        if tree_mode && indent <= 3 {
            in_but = false;
        }
        raws.push(Raw { indent, text: t.trim_end(), refutation: in_but, set: in_set });
    }
    let mut replay = Replay::new(q, goal);
    if tree_mode {
        let mut i = 0;
        let mut out = Vec::new();
        while i < raws.len() {
            out.push(tree_node(&raws, &mut i, None, &mut replay, true));
        }
        out
    } else {
        raws.iter()
            .map(|r| {
                let plies = replay.line_from_start(r.text);
                SolNode {
                    kind: if r.set { NodeKind::SetLine } else { NodeKind::Line },
                    text: r.text.to_string(),
                    plies,
                    children: Vec::new(),
                }
            })
            .collect()
    }
}

fn is_defence(text: &str) -> bool {
    let d = text.bytes().take_while(u8::is_ascii_digit).count();
    text[d..].starts_with("...")
}

/// The node at `raws[*i]` with the lines below it (deeper indentation).
fn tree_node(raws: &[Raw], i: &mut usize, parent: Option<NodeKind>, replay: &mut Replay, root: bool) -> SolNode {
    let r = &raws[*i];
    *i += 1;
    let defence = is_defence(r.text);
    let kind = match parent {
        None if defence => NodeKind::Set,
        None if r.text.contains(" ?!?") => NodeKind::Premature,
        None if r.text.contains(" ?") => NodeKind::Try,
        None => NodeKind::Key,
        Some(_) if r.refutation && defence => NodeKind::Refutation,
        Some(_) if defence => NodeKind::Defence,
        Some(NodeKind::Defence | NodeKind::Set | NodeKind::Refutation) => NodeKind::Answer,
        Some(_) => NodeKind::Threat,
    };
    let (plies, made) = if root { replay.first_ply(r.text) } else { replay.ply(r.text) };
    let mut children = Vec::new();
    while *i < raws.len()
        && raws[*i].indent > r.indent
        && !(raws[*i].refutation && !r.refutation && kind != NodeKind::Try)
    {
        children.push(tree_node(raws, i, Some(kind), replay, false));
    }
    replay.undo(made);
    SolNode { kind, text: r.text.to_string(), plies, children }
}

/// What playing a text made: the moves to undo, and whether a move was not found again
/// (the moves below it are then shown as text alone).
#[derive(Copy, Clone, Default)]
struct Made {
    moves: usize,
    lost: bool,
}

/// Plays the solver's move texts again on a twin's position.
struct Replay {
    /// The twin's game with White and with Black to move (either may start).
    games: [Option<Searcher>; 2],
    /// The game in use (index into `games`).
    current: Option<usize>,
    /// Set while below a move that could not be played (nothing is played there).
    lost: usize,
}

fn board_of(s: &Searcher) -> Vec<BoardUnit> {
    let pos = &s.game.pos;
    Square::ALL
        .iter()
        .filter_map(|&sq| {
            pos.unit(sq).map(|u| BoardUnit {
                square: sq.to_string(),
                side: u.colour().into(),
                piece: walk::letters(u.kind()).to_string(),
                attrs: attr_words(u.attrs),
            })
        })
        .collect()
}

/// Strips `12.` or `12...` from a word.
fn strip_number(w: &str) -> &str {
    let d = w.bytes().take_while(u8::is_ascii_digit).count();
    if d == 0 {
        return w;
    }
    let rest = &w[d..];
    rest.strip_prefix("...").or_else(|| rest.strip_prefix('.')).unwrap_or(w)
}

/// Whether a word names a square (a move, not a mark like `#`, `!`, `threat:`).
fn has_square(w: &str) -> bool {
    let b = w.as_bytes();
    b.windows(2).any(|p| (b'a'..=b'h').contains(&p[0]) && (b'1'..=b'8').contains(&p[1]))
}

impl Replay {
    fn new(q: &Problem, goal: Goal) -> Replay {
        let game = |side: Colour| {
            let mut p = q.clone();
            p.half_duplex = side == Colour::Black;
            chimere_popeye::build_game(&p)
                .ok()
                .map(|g| Searcher::new(g, Table::new(0), Arc::new(AtomicBool::new(false)), goal, false))
        };
        Replay { games: [game(Colour::White), game(Colour::Black)], current: None, lost: 0 }
    }

    fn searcher(&mut self) -> Option<&mut Searcher> {
        self.current.and_then(|c| self.games[c].as_mut())
    }

    /// The legal move whose text starts `rest` (the longest), with its text.
    fn find(s: &mut Searcher, rest: &str) -> Option<(Move, String)> {
        let mut best: Option<(Move, String)> = None;
        for m in s.legal() {
            let t = s.text(&m, false);
            let t = t.strip_suffix(" +").unwrap_or(&t).to_string();
            let ends = rest.len() == t.len() || rest[t.len().min(rest.len())..].starts_with(char::is_whitespace);
            if rest.starts_with(&t) && ends && best.as_ref().is_none_or(|(_, b)| t.len() > b.len()) {
                best = Some((m, t));
            }
        }
        best
    }

    /// Plays the moves of a text from the current position; returns the plies and how
    /// many moves were made (to undo). Stops at the first text it cannot play.
    fn play_text(&mut self, text: &str) -> (Vec<Ply>, Made) {
        let mut plies = Vec::new();
        let mut made = Made::default();
        let mut rest = text.trim_start();
        let mut lost = self.lost > 0;
        while !rest.is_empty() {
            let word_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let word = &rest[..word_end];
            let stripped = strip_number(word);
            if stripped.is_empty() {
                // `1...` alone: a number before a pass or a move after a space.
                rest = rest[word_end..].trim_start();
                continue;
            }
            if stripped == "..." {
                // A pass (help set play of `h#n.5`).
                if let Some(s) = self.searcher().filter(|_| !lost)
                    && s.game.make(&Move::NULL).is_some()
                {
                    made.moves += 1;
                }
                rest = rest[word_end..].trim_start();
                continue;
            }
            if !has_square(stripped) {
                // A mark: `#`, `+`, `!`, `?`, `threat:`...
                rest = rest[word_end..].trim_start();
                continue;
            }
            let at = &rest[word.len() - stripped.len()..];
            let found = if lost { None } else { self.searcher().and_then(|s| Self::find(s, at)) };
            let found = match found {
                Some(f) => Some(f),
                // Series play: the other side passes between two moves.
                None if !lost => self.searcher().and_then(|s| {
                    s.game.make(&Move::NULL)?;
                    match Self::find(s, at) {
                        Some(f) => {
                            made.moves += 1;
                            Some(f)
                        }
                        None => {
                            s.game.unmake();
                            None
                        }
                    }
                }),
                None => None,
            };
            match found {
                Some((m, t)) => {
                    let s = self.searcher().expect("a game in use");
                    s.game.make(&m);
                    made.moves += 1;
                    plies.push(Ply { text: t.clone(), board: Some(board_of(s)) });
                    rest = at[t.len()..].trim_start();
                }
                None => {
                    // Not found again: the rest is shown as text.
                    plies.push(Ply { text: stripped.to_string(), board: None });
                    rest = rest[word_end..].trim_start();
                    if !lost {
                        self.lost += 1;
                        made.lost = true;
                        lost = true;
                    }
                }
            }
        }
        (plies, made)
    }

    /// The first move of a root line: from whichever side's position it is legal in.
    fn first_ply(&mut self, text: &str) -> (Vec<Ply>, Made) {
        let first = text.split_whitespace().map(strip_number).find(|w| has_square(w)).unwrap_or("");
        let at = &text[text.find(first).unwrap_or(0)..];
        self.current = (0..2).find(|&c| self.games[c].as_mut().is_some_and(|s| Self::find(s, at).is_some()));
        if self.current.is_none() {
            self.current = self.games.iter().position(Option::is_some);
        }
        self.ply(text)
    }

    fn ply(&mut self, text: &str) -> (Vec<Ply>, Made) {
        self.play_text(text)
    }

    /// Undoes what [`Replay::ply`] made.
    fn undo(&mut self, made: Made) {
        if made.lost {
            self.lost -= 1;
        }
        if let Some(s) = self.searcher() {
            for _ in 0..made.moves {
                s.game.unmake();
            }
        }
    }

    /// A help or series line: its moves from the position it starts from.
    fn line_from_start(&mut self, text: &str) -> Vec<Ply> {
        let (plies, made) = self.first_ply(text);
        self.undo(made);
        plies
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve_quiet(input: &str) -> Vec<ProblemResult> {
        solve(input, 16, &mut |_| {})
    }

    #[test]
    fn a_tree_with_threats_and_variations_is_typed_and_replayed() {
        let input = "BeginProblem\nCondition Circe\nPieces White Kd4 Bh8 Rg7 Black Ke1\nStipulation #3\n\
Option NoBoard Variation\nTwin Remove h8\nEndProblem\n";
        let r = solve_quiet(input);
        assert_eq!(r.len(), 1);
        let p = &r[0];
        assert!(p.error.is_none());
        assert_eq!(p.twins.len(), 2);
        let a = &p.twins[0];
        assert_eq!(a.label.as_deref(), Some("a)"));
        let key = &a.tree[0];
        assert_eq!(key.kind, NodeKind::Key);
        assert_eq!(key.plies[0].text, "Kd4-e3");
        let board = key.plies[0].board.as_ref().expect("the key is played");
        assert!(board.iter().any(|u| u.square == "e3" && u.piece == "K" && u.side == Side::White));
        let kinds: Vec<NodeKind> = key.children.iter().map(|c| c.kind).collect();
        assert_eq!(kinds, vec![NodeKind::Threat, NodeKind::Defence]);
        let answer = &key.children[1].children[0];
        assert_eq!(answer.kind, NodeKind::Answer);
        assert_eq!(answer.children[0].kind, NodeKind::Threat);
        assert!(answer.children[0].plies[0].board.is_some());
        // The same lines as the solver's own text.
        let (native, _) = chimere_solver::solve_to_strings(input);
        let strip = |t: &str| t.lines().filter(|l| !l.starts_with("solution finished")).collect::<Vec<_>>().join("\n");
        assert_eq!(strip(&p.text), strip(&native));
    }

    /// A twin naming several conditions: its label goes on over the next lines (Popeye's
    /// layout); the page's label is the whole of it, and its section has only the play.
    #[test]
    fn a_twin_label_over_several_lines_is_one_label() {
        let input = "BeginProblem\nPieces White Kb6 Qc4 Black Ka8\nStipulation #1\nOption NoBoard\n\
Twin Condition MonochromChess Circe\nTwin Remove c4\nEndProblem\n";
        let r = solve_quiet(input);
        let labels: Vec<Option<&str>> = r[0].twins.iter().map(|t| t.label.as_deref()).collect();
        assert_eq!(labels, [Some("a)"), Some("b) Circe MonochromChess"), Some("c) -wQc4")]);
        let b = &r[0].twins[1];
        assert!(b.lines.iter().all(|l| !l.contains("Monochrom")), "{:?}", b.lines);
        assert!(!b.tree.is_empty(), "{:?}", b.lines);
    }

    #[test]
    fn help_lines_tries_and_errors() {
        let input = "BeginProblem\nPieces White Kf3 Pg5 Qh4 Black Kh6 Bg6\nStipulation h=2\nOption NoBoard\n\
Twin Rotate 90\nNextProblem\nPieces White Ke1 Black Ke8\nStipulation #99x\nNextProblem\n\
Pieces White Kb6 Qc4 Black Ka8\nStipulation #2\nOption Try NoBoard\nEndProblem\n";
        let r = solve_quiet(input);
        assert_eq!(r.len(), 3, "{r:?}");
        let b = &r[0].twins[1];
        assert_eq!(b.tree.len(), 3);
        for line in &b.tree {
            assert_eq!(line.kind, NodeKind::Line);
            assert_eq!(line.plies.len(), 4, "{line:?}");
            assert!(line.plies.iter().all(|p| p.board.is_some()), "{line:?}");
        }
        let e = r[1].error.as_ref().expect("refused");
        assert_eq!(e.line, 8);
        let tries: Vec<_> = r[2].twins[0].tree.iter().filter(|n| n.kind == NodeKind::Try).collect();
        for t in tries {
            assert!(t.children.iter().any(|c| c.kind == NodeKind::Refutation), "{t:?}");
        }
    }

    #[test]
    fn reading_gives_the_form_and_its_twins_read_back() {
        let input = "BeginProblem\nAuthor A. Composer\nCondition Circe\nPieces White Kd4 Royal Bh8 Black Ke1 Neutral Pd2\n\
Stipulation #3\nOption Variation Defence 2\nTwin Continued Move d4 e4 Add Black Sa1\nEndProblem\n";
        let r = read(input);
        let Read::Problem(p) = &r[0] else { panic!("{r:?}") };
        assert_eq!(p.author, "A. Composer");
        assert_eq!(p.stipulation, "#3");
        assert!(p.options.contains(&"Defence 2".to_string()));
        assert!(p.pieces.iter().any(|u| u.side == Side::Neutral && u.square == "d2"));
        assert!(p.pieces.iter().any(|u| u.attrs == vec!["Royal"] && u.square == "h8"));
        assert_eq!(p.twins.len(), 1);
        assert_eq!(twin_line(&p.twins[0]), "Twin Continued Move d4 e4 Add Black Sa1");
        assert_eq!(p.twins[0].cmds[1], FormTwinCmd { kind: "Add", args: vec!["Black Sa1".into()] });
        let again = format!(
            "BeginProblem\nPieces White Kd4 Black Ke1\nStipulation #3\n{}\nEndProblem\n",
            twin_line(&p.twins[0])
        );
        let Read::Problem(q) = &read(&again)[0] else { panic!("{:?}", read(&again)) };
        assert_eq!(q.twins, p.twins);
        // Every kind of the catalogue, written from its fields, reads back as the same fields.
        let line = "Twin Move d4 d5 Exchange d5 e1 Remove e1 Add White Sa7 Black Ba5 Substitute S G Rotate 270 \
Mirror a8<-->h1 Shift a5 a6 PolishType Condition Circe Parachute Stipulation h#2";
        let input = format!("BeginProblem\nPieces White Kd4 Black Ke1\nStipulation #3\n{line}\nEndProblem\n");
        let Read::Problem(q) = &read(&input)[0] else { panic!("{:?}", read(&input)) };
        assert_eq!(twin_line(&q.twins[0]), line);
        let kinds: Vec<&str> = q.twins[0].cmds.iter().map(|c| c.kind).collect();
        assert_eq!(kinds, catalogue().twins.iter().map(|k| k.keyword).collect::<Vec<_>>());
        for (c, k) in q.twins[0].cmds.iter().zip(catalogue().twins) {
            assert_eq!(c.args.len(), k.args.len(), "{}", c.kind);
        }
        let bad = read("BeginProblem\nPieces White Kd4 Black Ke1\nCondition Nonsense\nStipulation #2\nEndProblem\n");
        assert!(matches!(&bad[0], Read::Error(e) if e.line == 3), "{bad:?}");
    }
}
