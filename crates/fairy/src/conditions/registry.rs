//! One description per condition ([`DESCRIPTIONS`]): the seed's name and its other names
//! (accents optional), how Popeye input writes it, the parameters it takes (each with its
//! Popeye spelling and the seed's spellings) and how it is built. From this one table come:
//! - [`by_name`]: `--condition` names (`circe`, `"anticirce cheylan"`, `"trou d4 e5"`);
//! - [`by_popeye`]: a Popeye `Condition` keyword with its parameter words (the Popeye
//!   reader takes its keyword and parameter lists from [`popeye_keywords`]);
//! - the catalogue (`chimere conditions`): one line per description;
//! - the Circe family's parameter reader ([`CIRCE_PARAMS`]), the same for both languages.
//!
//! Each name makes one condition (Circé kamikaze: two); several compose through
//! [`crate::RuleSet`].

use super::{Change, Circe, Kamikaze, Mars, Occupied, RebirthSquare, Who};
use crate::rules::{Condition, RulesError};
use std::sync::Arc;

/// The built conditions of one name.
pub type Built = Vec<Arc<dyn Condition>>;

/// A parameter word: its Popeye spelling (None: the seed's only) and the seed's spellings
/// (normalised: lower case, no accents, words joined).
#[derive(Debug)]
pub struct Word {
    pub popeye: Option<&'static str>,
    pub seed: &'static [&'static str],
    /// A number follows it (`MaximumTotal 4`).
    pub number: bool,
}

impl Word {
    /// The spelling handed to a builder: the Popeye one, else the seed's first.
    pub fn canonical(&self) -> &'static str {
        self.popeye.unwrap_or(self.seed[0])
    }
}

const fn w(popeye: &'static str, seed: &'static [&'static str]) -> Word {
    Word { popeye: Some(popeye), seed, number: false }
}
const fn seed_only(seed: &'static [&'static str]) -> Word {
    Word { popeye: None, seed, number: false }
}
const fn wn(popeye: &'static str, seed: &'static [&'static str]) -> Word {
    Word { popeye: Some(popeye), seed, number: true }
}

/// What follows a condition's name.
#[derive(Debug)]
pub enum Params {
    None,
    /// Words of this list (and the numbers some of them take).
    Words(&'static [Word]),
    /// The Circe family's parameters ([`CIRCE_PARAMS`]).
    Circe,
    /// Squares, at least one (`d4e5`, `d4 e5`), and words of this list.
    Squares(&'static [Word]),
    /// Squares taken off the board (holes), at least one: they are part of the board as
    /// Popeye sees it — drawn in the diagram rather than named under it, moved with the
    /// board by twins that rotate, mirror or shift it.
    BoardSquares,
    /// An optional number.
    Number,
}

impl Params {
    /// Whether squares follow the name.
    pub fn takes_squares(&self) -> bool {
        matches!(self, Params::Squares(_) | Params::BoardSquares)
    }
    fn words(&self) -> &'static [Word] {
        match self {
            Params::Words(w) | Params::Squares(w) => w,
            Params::Circe => CIRCE_WORDS,
            Params::None | Params::Number | Params::BoardSquares => &[],
        }
    }
}

/// How Popeye input writes a condition.
#[derive(Debug)]
pub enum Popeye {
    /// This description owns the keyword. `form`: the parameters that make Popeye's reading
    /// the same as the seed's bare name; `defaults`: the parameters Popeye assumes when
    /// none are given (read before the given ones).
    Keyword { keyword: &'static str, form: &'static [&'static str], defaults: &'static [&'static str] },
    /// Written with another description's keyword and parameters (`AntiCirce PWC`).
    Form(&'static str),
    /// Not a Popeye condition: how Popeye input expresses it, for the catalogue.
    None(&'static str),
}

/// One condition: its names, its Popeye form, its parameters, its builder.
#[derive(Debug)]
pub struct Description {
    /// The seed's name (the catalogue's; accents optional).
    pub name: &'static str,
    /// One sentence saying what the condition does, in our words (our reading:
    /// `../shared/spec/conditions.md`), shown to players.
    pub summary: &'static str,
    /// Other accepted names (normalised: lower case, no accents, words joined).
    pub aliases: &'static [&'static str],
    pub popeye: Popeye,
    pub params: Params,
    /// Builds the condition(s) from canonical parameter words ([`Word::canonical`],
    /// squares in lower case, numbers as written), the name's defaults first.
    pub build: fn(&[&str]) -> Result<Built, String>,
}

impl Description {
    /// The Popeye text of the bare name (keyword and parameters), if Popeye has one.
    pub fn popeye_form(&self) -> Option<String> {
        match &self.popeye {
            Popeye::Keyword { keyword, form, .. } => {
                Some(std::iter::once(*keyword).chain(form.iter().copied()).collect::<Vec<_>>().join(" "))
            }
            Popeye::Form(f) => Some(f.to_string()),
            Popeye::None(_) => None,
        }
    }
    /// The name with example parameters where it needs some (`trou d4e5`).
    pub fn example(&self) -> String {
        match self.params {
            Params::Squares(_) | Params::BoardSquares => format!("{} d4e5", self.name),
            _ => self.name.to_string(),
        }
    }
    /// One catalogue line: name, Popeye form, parameters, separated by tabs.
    pub fn catalogue_line(&self) -> String {
        let popeye = match &self.popeye {
            Popeye::None(note) => format!("({note})"),
            _ => self.popeye_form().expect("a Popeye form"),
        };
        let params: Vec<String> = match &self.params {
            Params::None => Vec::new(),
            Params::Number => vec!["[n]".into()],
            Params::Circe => vec!["<Circe parameters>".into()],
            Params::Squares(w) => std::iter::once("<squares>".to_string()).chain(w.iter().map(spellings)).collect(),
            Params::BoardSquares => vec!["<squares>".into()],
            Params::Words(w) => w.iter().map(spellings).collect(),
        };
        format!("{}\t{popeye}\t{}", self.name, params.join(" "))
    }
}

fn one(c: impl Condition + 'static) -> Result<Built, String> {
    Ok(vec![Arc::new(c)])
}

fn no_params(name: &str, words: &[&str]) -> Result<(), String> {
    match words.first() {
        None => Ok(()),
        Some(x) => Err(format!("{name} takes no parameter (`{x}`)")),
    }
}

macro_rules! plain {
    ($name:literal, $summary:literal, [$($alias:literal),*], $popeye:literal, $make:expr) => {
        Description {
            name: $name,
            summary: $summary,
            aliases: &[$($alias),*],
            popeye: Popeye::Keyword { keyword: $popeye, form: &[], defaults: &[] },
            params: Params::None,
            build: |w| {
                no_params($name, w)?;
                one($make)
            },
        }
    };
}

/// The state the Circe parameters change.
pub struct CirceBuild {
    pub circe: Circe,
    /// Every unit but the kings is a Kamikaze unit (Circé kamikaze).
    pub kamikaze: bool,
}

/// A Circe parameter: its word, and what it does (an error: the member cannot take it).
pub struct CirceParam {
    pub word: Word,
    pub apply: fn(&mut CirceBuild) -> Result<(), &'static str>,
}

fn not_anti(b: &CirceBuild) -> Result<(), &'static str> {
    if b.circe.who == Who::Capturer { Err("Anticirce") } else { Ok(()) }
}
fn anti_only(b: &CirceBuild) -> Result<(), &'static str> {
    if b.circe.who == Who::Capturer { Ok(()) } else { Err("Circe") }
}

/// The Circe family's parameters, for both languages.
pub const CIRCE_PARAMS: &[CirceParam] = &[
    CirceParam {
        word: w("Parachute", &["parachute"]),
        apply: |b| not_anti(b).map(|_| b.circe.occupied = Occupied::Parachute),
    },
    CirceParam {
        word: w("Volcanic", &["volcanique", "volcanic"]),
        apply: |b| not_anti(b).map(|_| b.circe.occupied = Occupied::Volcanic),
    },
    CirceParam {
        word: w("Assassin", &["assassin"]),
        apply: |b| {
            b.circe.occupied = Occupied::Assassin;
            Ok(())
        },
    },
    CirceParam { word: w("Strict", &["strict"]), apply: |b| not_anti(b).map(|_| b.circe.occupied = Occupied::Illegal) },
    CirceParam {
        word: w("RexInclusive", &["rexinclusiv", "rexinclusive", "inclusiv", "inclusive"]),
        apply: |b| {
            b.circe.rex_inclusive = true;
            Ok(())
        },
    },
    CirceParam {
        word: w("RexExclusive", &["rexexclusiv", "rexexclusive", "exclusiv"]),
        apply: |b| {
            b.circe.rex_inclusive = false;
            Ok(())
        },
    },
    CirceParam {
        word: w("Antipodes", &["antipode", "antipodes"]),
        apply: |b| {
            b.circe.square = RebirthSquare::Antipodes;
            Ok(())
        },
    },
    CirceParam {
        word: w("Symmetry", &["symetrique", "symmetry"]),
        apply: |b| {
            b.circe.square = RebirthSquare::Symmetry;
            Ok(())
        },
    },
    CirceParam {
        word: w("Equipollents", &["equipollent", "equipollents"]),
        apply: |b| {
            b.circe.square = RebirthSquare::Equipollents;
            Ok(())
        },
    },
    CirceParam {
        word: w("Diagram", &["diagramme", "diagram"]),
        apply: |b| {
            b.circe.square = RebirthSquare::Diagram;
            Ok(())
        },
    },
    CirceParam { word: w("Clone", &["clone"]), apply: |b| not_anti(b).map(|_| b.circe.change = Change::Clone) },
    CirceParam {
        word: w("Chameleon", &["cameleon", "chameleon"]),
        apply: |b| {
            b.circe.change = Change::Chameleon;
            Ok(())
        },
    },
    CirceParam {
        word: w("Couscous", &["couscous"]),
        apply: |b| {
            b.circe.square = RebirthSquare::Couscous;
            Ok(())
        },
    },
    // Maléfique / Mirror: the squares of the opposite colour, with any square rule.
    CirceParam {
        word: w("Mirror", &["malefique", "mirror"]),
        apply: |b| {
            b.circe.mirror = true;
            Ok(())
        },
    },
    CirceParam {
        word: w("VerticalMirror", &["inverse", "verticalmirror"]),
        apply: |b| {
            b.circe.square = RebirthSquare::VerticalMirror;
            Ok(())
        },
    },
    CirceParam {
        word: w("Super", &["super"]),
        apply: |b| {
            b.circe.square = RebirthSquare::Any;
            b.circe.optional = b.circe.who == Who::Captured;
            Ok(())
        },
    },
    CirceParam {
        word: w("File", &["colonne", "file"]),
        apply: |b| {
            b.circe.square = RebirthSquare::File;
            Ok(())
        },
    },
    CirceParam {
        word: w("Rank", &["rank"]),
        apply: |b| {
            b.circe.square = RebirthSquare::Rank;
            Ok(())
        },
    },
    CirceParam {
        word: w("Diametral", &["diametral"]),
        apply: |b| {
            b.circe.square = RebirthSquare::Diametral;
            Ok(())
        },
    },
    CirceParam {
        word: w("CaptureSquare", &["echange", "capturesquare"]),
        apply: |b| {
            anti_only(b)?;
            b.circe.square = RebirthSquare::CaptureSquare;
            b.circe.cheylan = false;
            Ok(())
        },
    },
    CirceParam {
        word: w("PWC", &["pwc"]),
        apply: |b| {
            anti_only(b)?;
            b.circe.square = RebirthSquare::Departure;
            b.circe.cheylan = false;
            Ok(())
        },
    },
    CirceParam { word: w("Cheylan", &["cheylan"]), apply: |b| anti_only(b).map(|_| b.circe.cheylan = true) },
    CirceParam { word: w("Calvet", &["calvet"]), apply: |b| anti_only(b).map(|_| b.circe.cheylan = false) },
    // The seed's only: only white units are reborn (Circé diagramme blanc).
    CirceParam {
        word: seed_only(&["blanc", "white"]),
        apply: |b| {
            b.circe.white_only = true;
            Ok(())
        },
    },
    // The seed's only: Circé kamikaze (every unit but the kings is a Kamikaze unit).
    CirceParam { word: seed_only(&["kamikaze"]), apply: |b| not_anti(b).map(|_| b.kamikaze = true) },
];

/// The words of [`CIRCE_PARAMS`] (same order).
pub const CIRCE_WORDS: &[Word] = &{
    let mut out = [const { Word { popeye: None, seed: &[], number: false } }; CIRCE_PARAMS.len()];
    let mut i = 0;
    while i < CIRCE_PARAMS.len() {
        out[i] = Word {
            popeye: CIRCE_PARAMS[i].word.popeye,
            seed: CIRCE_PARAMS[i].word.seed,
            number: CIRCE_PARAMS[i].word.number,
        };
        i += 1;
    }
    out
};

/// A member of the Circe family with these canonical parameters (in order, the last
/// deciding a field set twice).
fn circe(base: Circe, label: &str, words: &[&str]) -> Result<Built, String> {
    let mut b = CirceBuild { circe: base, kamikaze: false };
    b.circe.label = label.to_string();
    for x in words {
        let p = CIRCE_PARAMS
            .iter()
            .find(|p| p.word.canonical() == *x)
            .ok_or_else(|| format!("{label}: unknown parameter `{x}`"))?;
        (p.apply)(&mut b).map_err(|member| format!("{member} does not take the parameter {x}"))?;
    }
    if b.circe.occupied == Occupied::Illegal && b.circe.square == RebirthSquare::Any {
        // Super-Circe Strict: the rebirth is compulsory.
        b.circe.optional = false;
    }
    let mut out: Built = Vec::new();
    if b.kamikaze {
        out.push(Arc::new(Kamikaze { every_unit: true, kings_too: false }));
    }
    out.push(Arc::new(b.circe));
    Ok(out)
}

macro_rules! circe_member {
    ($name:literal, $summary:literal, [$($alias:literal),*], $popeye:expr, $label:literal, $base:expr) => {
        Description { name: $name, summary: $summary, aliases: &[$($alias),*], popeye: $popeye, params: Params::Circe, build: |w| circe($base, $label, w) }
    };
}

const fn kw(keyword: &'static str) -> Popeye {
    Popeye::Keyword { keyword, form: &[], defaults: &[] }
}

fn squares_of(name: &str, words: &[&str]) -> Result<Vec<chimere_core::Square>, String> {
    let sq: Vec<&str> = words.iter().copied().filter(|x| x.len() == 2 && x.as_bytes()[1].is_ascii_digit()).collect();
    super::Hole::parse(&sq).map(|h| h.squares).ok_or_else(|| format!("{name}: squares needed, e.g. `{name} d4e5`"))
}

fn forced(white: bool, black: bool, words: &[&str]) -> Result<Built, String> {
    let squares = squares_of("case obligatoire consequente", words)?;
    let mut f = super::ForcedSquares::default();
    let (white, black) = (white && !words.contains(&"noire"), black && !words.contains(&"blanche"));
    if white {
        f.white = squares.clone();
    }
    if black {
        f.black = squares;
    }
    one(f)
}

/// Every condition, once.
pub static DESCRIPTIONS: &[Description] = &[
    circe_member!(
        "circe",
        "A captured unit other than a king goes back to its home square (a pawn to its file's second rank, a piece to its game-array square of the capture square's colour), if that square is empty; otherwise it is gone.",
        [],
        kw("Circe"),
        "Circe",
        Circe::plain()
    ),
    Description {
        name: "anticirce",
        summary: "After a capture the capturing unit, king included, goes back to its home square as a Circe unit would; if that square is occupied the capture is illegal (Cheylan: it may not stay on the capture square).",
        aliases: &[],
        // The seed's Anticirce is type Cheylan; Popeye's `AntiCirce` alone is Calvet.
        popeye: Popeye::Keyword { keyword: "AntiCirce", form: &["Cheylan"], defaults: &["Calvet"] },
        params: Params::Circe,
        build: |w| circe(Circe::anti("AntiCirce", RebirthSquare::Standard), "AntiCirce", w),
    },
    circe_member!(
        "circe cameleon",
        "A captured unit changes kind (knight to bishop to rook to queen to knight) and is reborn on the home square of its new kind, if empty.",
        ["chameleoncirce"],
        kw("ChameleonCirce"),
        "ChameleonCirce",
        Circe { change: Change::Chameleon, ..Circe::plain() }
    ),
    circe_member!(
        "circe clone",
        "A captured unit takes the kind of the unit that captured it and is reborn on the home square of that kind, if empty.",
        [],
        kw("CirceClone"),
        "CirceClone",
        Circe { change: Change::Clone, ..Circe::plain() }
    ),
    circe_member!(
        "circe assassin",
        "A captured unit is reborn on its Circe home square even when that square is occupied: the unit standing there is removed (a king that would be removed so is in check).",
        [],
        kw("CirceAssassin"),
        "CirceAssassin",
        Circe { occupied: Occupied::Assassin, ..Circe::plain() }
    ),
    circe_member!(
        "circe couscous",
        "A captured unit is reborn on the home square of the unit that captured it (for the capturer's kind and colour), if empty.",
        [],
        kw("CouscousCirce"),
        "CouscousCirce",
        Circe::with_square("", RebirthSquare::Couscous)
    ),
    circe_member!(
        "circe diagramme",
        "A captured unit is reborn on the square it stood on in the starting position, if empty.",
        [],
        kw("DiagramCirce"),
        "DiagramCirce",
        Circe::with_square("", RebirthSquare::Diagram)
    ),
    circe_member!(
        "circe equipollent",
        "A captured unit is reborn as far from the capture square as the capturer travelled, in the same direction, if that square is on the board and empty.",
        [],
        kw("EquipollentsCirce"),
        "EquipollentsCirce",
        Circe::with_square("", RebirthSquare::Equipollents)
    ),
    circe_member!(
        "circe inverse",
        "A captured unit is reborn on the mirror image of its home square across the middle of the board (a and h files swapped, d and e...), if empty.",
        [],
        kw("VerticalMirrorCirce"),
        "VerticalMirrorCirce",
        Circe::with_square("", RebirthSquare::VerticalMirror)
    ),
    circe_member!(
        "circe symetrique",
        "A captured unit is reborn on the square symmetric to the capture square through the centre of the board (a1 and h8, d4 and e5), if empty.",
        [],
        kw("SymmetryCirce"),
        "SymmetryCirce",
        Circe::with_square("", RebirthSquare::Symmetry)
    ),
    circe_member!(
        "circe malefique",
        "A captured unit is reborn on the home square of the same kind of the other colour (a white rook on h8 or a8, a white queen on d8), if empty.",
        [],
        kw("MirrorCirce"),
        "MirrorCirce",
        Circe { mirror: true, ..Circe::plain() }
    ),
    circe_member!(
        "circe antipode",
        "A captured unit is reborn four files and four ranks away from the capture square, if empty.", // Popeye 4.104 reads `AntipodeanCirce` (or `Circe Antipodes`); the older spelling
        // stays accepted.
        ["antipodescirce"],
        kw("AntipodeanCirce"),
        "AntipodeanCirce",
        Circe::with_square("", RebirthSquare::Antipodes)
    ),
    circe_member!(
        "super-circe",
        "The capturer may put the captured unit back on any empty square of its choice, or leave it off the board.",
        [],
        kw("SuperCirce"),
        "SuperCirce",
        Circe::with_square("", RebirthSquare::Any)
    ),
    circe_member!(
        "anti-super-circe",
        "After a capture the capturing unit, king included, is put on any empty square the capturer chooses other than the capture square.",
        [],
        // Cheylan in the seed; Popeye's `AntiSuperCirce` alone is Calvet (the capturer
        // may be reborn on the capture square).
        Popeye::Keyword { keyword: "AntiSuperCirce", form: &["Cheylan"], defaults: &["Calvet"] },
        "AntiSuperCirce",
        Circe::anti("", RebirthSquare::Any)
    ),
    circe_member!(
        "circe coucou",
        "As Circe couscous, but a captured pawn reborn on its last rank must promote, and the capture is illegal if any promotion would leave the capturer in check.",
        ["coucoucirce"],
        kw("CoucouCirce"),
        "CoucouCirce",
        Circe::coucou()
    ),
    circe_member!(
        "para-circe",
        "After a capture the capturing unit goes back to its home square, or stays where it captured if that square is occupied; kings cannot move at all.",
        [],
        kw("ParaCirce"),
        "ParaCirce",
        Circe::para()
    ),
    circe_member!(
        "optional replacement",
        "The capturer may put the captured unit back on any empty square (a bishop on its own square colour, a pawn not on a first or last rank) or leave it off the board.",
        [],
        kw("OptionalReplacement"),
        "OptionalReplacement",
        Circe::optional_replacement()
    ),
    circe_member!(
        "circe diagramme blanc",
        "A captured white unit is reborn on the square it stood on in the starting position, if empty; captured black units are gone.",
        [],
        kw("WhiteDiagramCirce"),
        "WhiteDiagramCirce",
        Circe { white_only: true, ..Circe::with_square("", RebirthSquare::Diagram) }
    ),
    circe_member!(
        "fusil",
        "Captures are shots: after capturing, the capturing unit returns to the square it just left.",
        [],
        Popeye::Form("AntiCirce PWC"),
        "AntiCirce PWC",
        Circe::fusil()
    ),
    Description {
        name: "circe martien",
        summary: "A unit captures by first going to its own home square, which must be empty, and capturing from there with its usual power; other moves are normal.",
        aliases: &["marscirce", "circemars"],
        popeye: kw("MarsCirce"),
        params: Params::Words(&[w("Mirror", &["malefique", "mirror"])]),
        build: |w| one(Mars { mirror: w.contains(&"Mirror") }),
    },
    Description {
        name: "circe malefique martien",
        summary: "A unit captures from the home square of the same kind of the other colour, which must be empty, with its usual power; other moves are normal.",
        aliases: &["marsmirrorcirce"],
        popeye: kw("MarsMirrorCirce"),
        params: Params::None,
        build: |w| {
            no_params("MarsMirrorCirce", w)?;
            one(Mars { mirror: true })
        },
    },
    plain!(
        "ghost",
        "A captured unit waits under its square and comes back as an uncapturable ghost as soon as the square is empty again.",
        ["ghostchess", "fantomes"],
        "GhostChess",
        super::Ghost
    ),
    Description {
        name: "kamikaze rex inclusiv",
        summary: "A capturing unit disappears together with the unit it captures, kings included, so kings never capture.",
        aliases: &[],
        popeye: Popeye::None("the Kamikaze attribute on every unit, kings included"),
        params: Params::None,
        build: |w| {
            no_params("kamikaze rex inclusiv", w)?;
            one(Kamikaze { every_unit: true, kings_too: true })
        },
    },
    plain!(
        "absorbant",
        "A capturing piece other than a king keeps the movements of what it captured in addition to its own.",
        ["absorbantchess"],
        "Absorbant",
        super::Absorbant
    ),
    plain!(
        "all-in-chess",
        "A side may move its own units or the opponent's (they keep their colour), but must not leave its own king in check.",
        [],
        "AllInChess",
        super::AllIn
    ),
    plain!(
        "anti-andernach",
        "After a move that captures nothing, the moved unit other than a king changes colour.",
        ["antiandernachchess"],
        "AntiAndernachChess",
        super::AntiAndernach
    ),
    plain!(
        "augsburg",
        "A unit may move onto a square held by a friendly unit to form a stack; a unit of a stack may move with the others of the stack or alone.",
        [],
        "Augsburg",
        super::Augsburg
    ),
    plain!(
        "bicaptures",
        "Units may capture units of their own side as well as the opponent's, never their own king.",
        [],
        "Bicaptures",
        super::Bicaptures
    ),
    plain!(
        "bichromatique",
        "Every move must end on a square of the other colour than the one it started from.",
        ["bichromchess", "bichrome"],
        "BichromChess",
        super::Bichrome
    ),
    plain!(
        "monochromatique",
        "Every move must end on a square of the same colour as the one it started from.",
        ["monochromchess", "monochrome"],
        "MonochromChess",
        super::Monochrome
    ),
    plain!(
        "central",
        "A unit other than the king moves only if a friendly unit that can move observes it, so every mobile unit is linked back to its king.",
        ["centralchess"],
        "CentralChess",
        super::Central
    ),
    plain!(
        "ultra-patrouille",
        "A unit, king included, moves, captures or checks only while a friendly unit observes it.",
        ["ultrapatrol"],
        "UltraPatrol",
        super::UltraPatrol
    ),
    plain!(
        "eiffel",
        "A unit is paralysed while an enemy unit of the kind before it in the cycle pawn, knight, bishop, rook, queen attacks it.",
        ["eiffelchess"],
        "EiffelChess",
        super::Eiffel
    ),
    plain!(
        "haan",
        "Every square a unit leaves becomes a hole for the rest of the game: nothing may stand on it or cross it.",
        ["haanerchess", "haanchess"],
        "HaanerChess",
        super::Haan
    ),
    Description {
        name: "trou",
        summary: "The given squares are holes: no unit may stand on them or pass over them.",
        aliases: &["trous", "hole", "holes", "trouhole"],
        popeye: kw("Hole"),
        params: Params::BoardSquares,
        build: |w| one(super::Hole { squares: squares_of("hole", w)? }),
    },
    plain!(
        "glasgow",
        "Pawns promote on their seventh rank instead of their eighth.",
        ["glasgowchess"],
        "GlasgowChess",
        super::Glasgow
    ),
    plain!(
        "einstein",
        "A unit that moves without capturing becomes one step weaker (queen to rook to bishop to knight to pawn), and one step stronger when it captures.",
        ["einsteinchess"],
        "EinsteinChess",
        super::Einstein
    ),
    plain!(
        "volage",
        "A unit other than a king changes colour the first time it moves to a square of the other colour than the one it left.",
        [],
        "Volage",
        super::Volage::condition()
    ),
    Description {
        name: "sentinelles",
        summary: "When a unit other than a pawn moves, a pawn of its colour appears on the square it left (never on a first or last rank, at most eight pawns).",
        aliases: &[],
        popeye: kw("Sentinelles"),
        params: Params::Words(&[
            w("PionPropre", &["pionpropre", "propre"]),
            w("PionAdvers", &["pionadverse", "pionadvers", "adverse", "advers"]),
            w("PionNeutre", &["pionneutre", "neutre"]),
            wn("MaximumBlack", &["maximumnoir", "maximumblack"]),
            wn("MaximumWhite", &["maximumblanc", "maximumwhite"]),
            wn("MaximumTotal", &["totalmax", "maximumtotal"]),
            w("ParaSentinelles", &["parasentinelles", "para"]),
            w("Berolina", &["berolina"]),
            seed_only(&["en"]),
        ]),
        build: |w| {
            let words: Vec<String> = w.iter().filter(|x| **x != "en").map(|x| x.to_ascii_lowercase()).collect();
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            one(super::Sentinelles::from_words(&words).map_err(|e| e.0)?)
        },
    },
    plain!(
        "gravitation",
        "After a piece other than a king or pawn moves, it falls one square back towards its own side, capturing what stood there.",
        [],
        "Gravitation",
        super::Gravitation
    ),
    // `dynamo` here is the CONDITION (the CLI's `--variant dynamo` is the game).
    plain!(
        "dynamo",
        "There are no ordinary captures: units push or pull one other unit along their lines, and a unit pushed or pulled off the board is captured.",
        ["dynamochess"],
        "DynamoChess",
        super::Dynamo
    ),
    plain!(
        "cavalier majeur",
        "Every knight is a nightrider, which repeats its knight's leap in one direction.",
        [],
        "CavalierMajeur",
        super::PieceSet::cavalier_majeur()
    ),
    plain!(
        "rose",
        "Every knight is a rose, which rides knight leaps around an octagon.",
        [],
        "Rose",
        super::PieceSet::rose()
    ),
    plain!(
        "locusauteur",
        "Knights, bishops, rooks and queens become locusts: they move only by jumping over an enemy unit on their line to the square just beyond, removing it.",
        [],
        "Locusauteur",
        super::PieceSet::locusauteur()
    ),
    plain!(
        "no double pawns",
        "A move is illegal if it leaves a side with two pawns on the same file.",
        [],
        "NoDoublePawns",
        super::NoDoublePawns
    ),
    plain!(
        "rokagogo",
        "A king may castle with a friendly rook on the same rank or file whenever at least two empty squares lie between them, even after both have moved.",
        [],
        "Rokagogo",
        super::Rokagogo
    ),
    plain!(
        "rois reflecteurs",
        "A king attacked by enemy units may also move like any of them.",
        ["reflectivekings"],
        "ReflectiveKings",
        super::ReflectiveKings
    ),
    plain!(
        "rois strictement transmutes",
        "Kings move only when in check, and then only like the unit that checks them.",
        ["strictlytransmutedkings"],
        "StrictlyTransmutedKings",
        super::StrictTransmutedKings
    ),
    plain!(
        "swapping kings",
        "After a move that gives check, the two kings exchange their squares.",
        [],
        "SwappingKings",
        super::SwappingKings
    ),
    plain!(
        "bicolores",
        "A king is in check when any unit, of either side, attacks it.",
        [],
        "Bicolores",
        super::Bicolores
    ),
    plain!(
        "brunner",
        "A king is in check only when capturing it would itself be a legal move.",
        ["brunnerchess"],
        "BrunnerChess",
        super::Brunner
    ),
    plain!(
        "sat",
        "A king is in check when it has a flight square, so a move may not leave the own king with one; mate is being unable to take away every flight.",
        [],
        "SAT",
        super::Sat
    ),
    plain!(
        "vogtlander",
        "A side is in check when it attacks the opponent's king, so no move may leave the enemy king attacked.",
        ["vogtlaender", "vogtlanderchess", "vogtlaenderchess"],
        "VogtlaenderChess",
        super::Vogtlander
    ),
    Description {
        name: "isardam",
        summary: "No move may leave two units of the same kind and opposite colours observing each other; a king is in check only when its capture would obey that rule.",
        aliases: &[],
        popeye: kw("Isardam"),
        params: Params::Words(&[w("TypeB", &["typeb", "b"])]),
        build: |w| one(super::Isardam { type_b: w.contains(&"TypeB") }),
    },
    plain!(
        "rex multiplex",
        "A side may have several kings and is mated only when all of them are mated at once.",
        [],
        "RexMultiplex",
        super::RexMultiplex
    ),
    plain!(
        "rois siamois",
        "Each side has two kings and is in check as soon as either of them is attacked.",
        ["siamesekings"],
        "SiameseKings",
        super::SiameseKings
    ),
    plain!(
        "extinction",
        "A side loses when it loses every unit of some kind it began with: its last unit of each kind is royal.",
        ["extinctionchess"],
        "ExtinctionChess",
        super::Extinction
    ),
    Description {
        name: "republicains",
        summary: "Kings may be off the board: after a move, the mover may place the opponent's king on a square where it is checkmated.",
        aliases: &["republicain", "republican", "republicanchess", "republic"],
        popeye: kw("RepublicanChess"),
        params: Params::Words(&[w("Type1", &["type1"]), w("Type2", &["type2"])]),
        build: |w| one(super::Republican { type1: w.last() == Some(&"Type1") }),
    },
    plain!(
        "qui perd gagne",
        "Capturing is compulsory, the king is an ordinary piece, and a side that cannot move wins.",
        ["losinggame", "losingchess"],
        "LosingChess",
        super::Losing
    ),
    plain!(
        "sans echec",
        "A move that gives check without mating is illegal, for both sides.",
        ["checkless", "checklesschess"],
        "ChecklessChess",
        super::Checkless
    ),
    plain!(
        "maff",
        "A check that leaves the black king no flight is illegal, and the black king may not move when it has exactly one flight.",
        [],
        "MAFF",
        super::Maff
    ),
    Description {
        name: "case obligatoire consequente",
        summary: "A side that can end a move on one of the given squares must do so, and checks count only by king captures that would obey that obligation.",
        aliases: &[],
        popeye: Popeye::None("WhiteConsequentForcedSquare <squares> BlackConsequentForcedSquare <squares>"),
        params: Params::Squares(&[seed_only(&["blanche"]), seed_only(&["noire"])]),
        build: |w| forced(true, true, w),
    },
    Description {
        name: "case obligatoire consequente blanche",
        summary: "White must end a move on one of the given squares whenever it can, and its checks count only by king captures that would obey that obligation.",
        aliases: &[],
        popeye: kw("WhiteConsequentForcedSquare"),
        params: Params::Squares(&[]),
        build: |w| forced(true, false, w),
    },
    Description {
        name: "case obligatoire consequente noire",
        summary: "Black must end a move on one of the given squares whenever it can, and its checks count only by king captures that would obey that obligation.",
        aliases: &[],
        popeye: kw("BlackConsequentForcedSquare"),
        params: Params::Squares(&[]),
        build: |w| forced(false, true, w),
    },
    plain!(
        "les noirs ne jouent que pour donner echec",
        "Every black move must give check; Black passes when no checking move exists.",
        ["blackchecks"],
        "BlackChecks",
        super::BlackChecks
    ),
    Description {
        name: "progressif",
        summary: "The n-th turn is n moves in a row by the same side (White 1, Black 2, White 3...); a series ends at once when a move gives check.",
        aliases: &["progressive", "progressivechess"],
        popeye: kw("ProgressiveChess"),
        params: Params::Number,
        build: |w| {
            let mut p = super::Progressif::default();
            match w {
                [] => {}
                [n] => {
                    p.first = n
                        .parse()
                        .ok()
                        .filter(|&n: &u16| n >= 1)
                        .ok_or_else(|| format!("progressif: bad turn number `{n}`"))?
                }
                _ => return Err("progressif takes one number (the diagram's turn)".into()),
            }
            one(p)
        },
    },
    plain!(
        "anneciens",
        "A turn is two moves in a row by the same unit, ending on a different position.",
        [],
        "Anneciens",
        super::Anneciens
    ),
    plain!(
        "alsacien",
        "A move is legal only if the position it makes could arise in an orthodox game from the game array.",
        [],
        "Alsacien",
        super::Alsacien::default()
    ),
    plain!(
        "amnesie",
        "After every move, castling and en passant rights are judged from the position alone, forgetting the moves played.",
        [],
        "Amnesie",
        super::Amnesie::default()
    ),
    Description {
        name: "exclusif",
        summary: "A move reaching the goal is illegal unless it is the only move that does.",
        aliases: &["exclusive", "exclusivechess"],
        popeye: kw("ExclusiveChess"),
        // The goal comes from the stipulation: the solver adds it; Popeye knows only mate.
        params: Params::Words(&[w("Mate", &["mat", "mate"]), w("Stalemate", &["pat", "stalemate"])]),
        build: |w| {
            let goal = match w.last() {
                Some(&"Stalemate") => super::ExclusiveGoal::Stalemate,
                _ => super::ExclusiveGoal::Mate,
            };
            one(super::Exclusif { goal })
        },
    },
    plain!(
        "dead reckoning",
        "A position from which neither side can win by any sequence of legal moves is a draw at once.",
        [],
        "DeadReckoning",
        super::DeadReckoning::default()
    ),
];

/// Lower case, accents off, `-`/`_`/`=` as spaces; the words.
fn normalise(s: &str) -> Vec<String> {
    let s: String = s
        .chars()
        .map(|c| match c {
            'é' | 'è' | 'ê' | 'É' | 'È' => 'e',
            'ô' => 'o',
            'â' | 'à' | 'ä' => 'a',
            'î' | 'ï' => 'i',
            'û' | 'ü' => 'u',
            '-' | '_' | '=' => ' ',
            c => c.to_ascii_lowercase(),
        })
        .collect();
    s.split_whitespace().map(str::to_string).collect()
}

fn joined(s: &str) -> String {
    normalise(s).concat()
}

/// The description a name starts with, and how many of its words the name takes.
fn find(words: &[String]) -> Option<(&'static Description, usize)> {
    let mut best: Option<(&'static Description, usize)> = None;
    for d in DESCRIPTIONS {
        let mut names: Vec<String> = vec![joined(d.name)];
        names.extend(d.aliases.iter().map(|a| a.to_string()));
        if let Popeye::Keyword { keyword, .. } = d.popeye {
            names.push(keyword.to_ascii_lowercase());
        }
        let mut acc = String::new();
        for (k, x) in words.iter().enumerate() {
            acc.push_str(x);
            if names.contains(&acc) && best.is_none_or(|(_, n)| k + 1 > n) {
                best = Some((d, k + 1));
            }
        }
    }
    best
}

/// The canonical parameter words of `words` (seed or Popeye spellings, a word possibly
/// written in up to three pieces: `rex inclusiv`, `type 1`, `pion adverse`).
fn canonical_params(d: &Description, name: &str, words: &[String]) -> Result<Vec<String>, String> {
    let list = d.params.words();
    let find =
        |s: &str| list.iter().find(|w| w.seed.contains(&s) || w.popeye.is_some_and(|p| p.eq_ignore_ascii_case(s)));
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let mut hit = None;
        for k in (1..=3.min(words.len() - i)).rev() {
            if let Some(w) = find(&words[i..i + k].concat()) {
                hit = Some((w, k));
                break;
            }
        }
        match hit {
            Some((w, k)) => {
                out.push(w.canonical().to_string());
                i += k;
                if w.number {
                    let n = words.get(i).filter(|n| n.chars().all(|c| c.is_ascii_digit()));
                    out.push(n.ok_or_else(|| format!("`{name}`: {} needs a number", w.canonical()))?.clone());
                    i += 1;
                }
            }
            None => {
                let x = &words[i];
                let squares = d.params.takes_squares()
                    && x.len().is_multiple_of(2)
                    && x.as_bytes().chunks(2).all(|c| (b'a'..=b'h').contains(&c[0]) && (b'1'..=b'8').contains(&c[1]));
                let number = matches!(d.params, Params::Number) && x.chars().all(|c| c.is_ascii_digit());
                if squares {
                    out.extend(x.as_bytes().chunks(2).map(|c| String::from_utf8_lossy(c).into_owned()));
                } else if number {
                    out.push(x.clone());
                } else if matches!(d.params, Params::Circe) && matches!(x.as_str(), "circe" | "renaissances" | "rex") {
                    // Words of the seed's names that add nothing (`Circé rex inclusiv`).
                } else {
                    return Err(format!("unknown or unsupported condition `{name}` (`{x}`?)"));
                }
                i += 1;
            }
        }
    }
    Ok(out)
}

/// Builds the condition(s) a `--condition` name stands for: a description's name, alias
/// or Popeye keyword, then its parameters in either language.
pub fn by_name(name: &str) -> Result<Built, RulesError> {
    let words = normalise(name);
    let (d, n) = find(&words).ok_or_else(|| RulesError(format!("unknown or unsupported condition `{name}`")))?;
    let params = canonical_params(d, name, &words[n..]).map_err(RulesError)?;
    let params: Vec<&str> = params.iter().map(String::as_str).collect();
    (d.build)(&params).map_err(|e| RulesError(format!("`{name}`: {e}")))
}

/// The Popeye `Condition` text of a `--condition` name with its parameters (`trou d4 e5`
/// is `Hole d4 e5`, `anticirce` is `AntiCirce Cheylan`), or why Popeye input cannot write
/// it (a condition or a parameter word Popeye does not have).
pub fn popeye_text(name: &str) -> Result<String, RulesError> {
    let words = normalise(name);
    let (d, n) = find(&words).ok_or_else(|| RulesError(format!("unknown or unsupported condition `{name}`")))?;
    let params = canonical_params(d, name, &words[n..]).map_err(RulesError)?;
    let Some(head) = d.popeye_form() else {
        let how = match &d.popeye {
            Popeye::None(how) => *how,
            _ => "",
        };
        return Err(RulesError(format!("`{name}` is not one Popeye condition (Popeye input: {how})")));
    };
    let mut out = vec![head];
    for p in params {
        if d.params.words().iter().any(|w| w.popeye.is_none() && w.canonical() == p) {
            return Err(RulesError(format!("`{name}`: Popeye has no word for `{p}`")));
        }
        out.push(p);
    }
    Ok(out.join(" "))
}

/// The description owning a Popeye keyword.
pub fn popeye_owner(keyword: &str) -> Option<&'static Description> {
    DESCRIPTIONS.iter().find(|d| matches!(d.popeye, Popeye::Keyword { keyword: k, .. } if k == keyword))
}

/// Builds the condition(s) of a Popeye keyword with its parameter words (as the Popeye
/// reader gives them: Popeye spellings, squares, numbers); Popeye's defaults come first.
pub fn by_popeye(keyword: &str, params: &[String]) -> Result<Built, RulesError> {
    let d = popeye_owner(keyword).ok_or_else(|| RulesError(format!("unknown or unsupported condition `{keyword}`")))?;
    let Popeye::Keyword { defaults, .. } = d.popeye else { unreachable!("an owner") };
    let mut words: Vec<String> = defaults.iter().map(|s| s.to_string()).collect();
    for p in params {
        words.extend(normalise(p));
    }
    let text = std::iter::once(keyword.to_string()).chain(params.iter().cloned()).collect::<Vec<_>>().join(" ");
    let canon = canonical_params(d, &text, &words).map_err(RulesError)?;
    let canon: Vec<&str> = canon.iter().map(String::as_str).collect();
    (d.build)(&canon).map_err(RulesError)
}

/// What the Popeye reader needs of a keyword.
pub struct PopeyeKeyword {
    pub keyword: &'static str,
    /// Parameter words (Popeye spellings).
    pub params: Vec<&'static str>,
    /// Parameter words followed by a number.
    pub number_params: Vec<&'static str>,
    /// Squares follow (`Hole d4e5`).
    pub squares: bool,
    /// Those squares are taken off the board ([`Params::BoardSquares`]).
    pub board_squares: bool,
    /// A number may follow the keyword (`ProgressiveChess 3`).
    pub number: bool,
}

/// The Popeye keywords with their parameters, from [`DESCRIPTIONS`].
pub fn popeye_keywords() -> Vec<PopeyeKeyword> {
    DESCRIPTIONS
        .iter()
        .filter_map(|d| match d.popeye {
            Popeye::Keyword { keyword, .. } => Some(PopeyeKeyword {
                keyword,
                params: d.params.words().iter().filter_map(|w| w.popeye).collect(),
                number_params: d.params.words().iter().filter(|w| w.number).filter_map(|w| w.popeye).collect(),
                squares: d.params.takes_squares(),
                board_squares: matches!(d.params, Params::BoardSquares),
                number: matches!(d.params, Params::Number),
            }),
            _ => None,
        })
        .collect()
}

/// A parameter word as the catalogue shows it: `seed|Popeye` (one form when they agree).
fn spellings(w: &Word) -> String {
    match w.popeye {
        Some(p) if w.seed.iter().any(|s| !s.eq_ignore_ascii_case(p)) => format!("{}|{p}", w.seed[0]),
        Some(p) => p.to_string(),
        None => w.seed[0].to_string(),
    }
}

/// The Circe parameters as the catalogue shows them (`seed|Popeye`).
pub fn circe_parameters() -> String {
    CIRCE_WORDS.iter().map(spellings).collect::<Vec<_>>().join(" ")
}

/// The catalogue (`chimere conditions`): one line per description.
pub fn catalogue() -> Vec<String> {
    DESCRIPTIONS.iter().map(Description::catalogue_line).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RuleSet;

    #[test]
    fn every_condition_has_its_own_sentence() {
        let mut seen = std::collections::HashMap::new();
        for d in DESCRIPTIONS {
            let s = d.summary.trim();
            assert!(s.len() > 20 && s.ends_with('.'), "{}: `{s}`", d.name);
            if let Some(other) = seen.insert(s, d.name) {
                panic!("{} and {other} share the sentence `{s}`", d.name);
            }
        }
    }

    fn built(b: &Built) -> String {
        format!("{b:?}")
    }

    /// Example parameters for the names that need some.
    fn example(d: &Description) -> &'static [&'static str] {
        match d.params {
            Params::Squares(_) | Params::BoardSquares => &["d4e5"],
            _ => &[],
        }
    }

    #[test]
    fn names_build_and_compose() {
        for n in [
            "circe",
            "Circé parachuté",
            "circe volcanique",
            "anticirce cheylan",
            "Anticircé colonne",
            "anticirce echange",
            "anti-super-circe",
            "super-circe",
            "fusil",
            "ghost",
            "circe kamikaze",
            "kamikaze rex inclusiv",
            "circe malefique martien",
            "para-circe",
            "circe coucou",
            "optional replacement",
            "circe diagramme blanc",
            "circe rex inclusiv",
            "Anti-Andernach",
            "AntiAndernachChess",
            "Einstein",
            "volage",
            "GlasgowChess",
            "Sentinelles en Pion adverse",
            "Sentinelles PionAdvers",
            "Sentinelles en Pion neutre",
            "Sentinelles Totalmax=4",
            "Sentinelles MaximumTotal 4",
            "Swapping Kings",
            "gravitation",
            "progressif",
            "Progressif 3",
            "ProgressiveChess 2",
            "Annéciens",
            "anneciens",
            "Vogtländer",
            "republicains type 1",
            "trou d4 e5",
            "Hole d4e5",
            "case obligatoire consequente noire e4 d5",
        ] {
            let c = by_name(n).unwrap_or_else(|e| panic!("{n}: {e}"));
            RuleSet::build(c, &[]).unwrap_or_else(|e| panic!("{n}: {e}"));
        }
        for bad in ["frobnicate", "circe frob", "anticirce parachute", "circe cheylan", "augsburg 3", "trou"] {
            assert!(by_name(bad).is_err(), "{bad}");
        }
        // Two conditions deciding the victim's fate cannot be combined; rebirths of the
        // victim and of the capturer can (Popeye: `Rd1*d7[wRd7->h1][+bQd8]`).
        let mut both = by_name("circe").unwrap();
        both.extend(by_name("couscous circe").unwrap());
        assert!(RuleSet::build(both, &[]).is_err());
        let t = crate::testing::move_texts("4k3/3q1n2/8/8/2B5/8/8/3RK3 w - - 0 1", &["circe", "anticirce"]);
        assert!(t.iter().any(|x| x == "Rd1*d7[wRd7->h1][+bQd8]"), "{t:?}");
    }

    /// Every description round-trips: its name, each alias, its Popeye keyword (with the
    /// form's parameters) build the same condition, and a rule set; the catalogue lists
    /// each description once; each Popeye keyword has one owner.
    #[test]
    fn every_description_round_trips() {
        let lines = catalogue();
        assert_eq!(lines.len(), DESCRIPTIONS.len());
        let mut keywords = Vec::new();
        for d in DESCRIPTIONS {
            let ex = example(d);
            let with = |n: &str| std::iter::once(n).chain(ex.iter().copied()).collect::<Vec<_>>().join(" ");
            let from_name = by_name(&with(d.name)).unwrap_or_else(|e| panic!("{}: {e}", d.name));
            RuleSet::build(from_name.clone(), &[]).unwrap_or_else(|e| panic!("{}: {e}", d.name));
            for a in d.aliases {
                let b = by_name(&with(a)).unwrap_or_else(|e| panic!("{a}: {e}"));
                assert_eq!(built(&b), built(&from_name), "alias {a} of {}", d.name);
            }
            assert_eq!(lines.iter().filter(|l| l.split('\t').next() == Some(d.name)).count(), 1, "{}", d.name);
            let Some(form) = d.popeye_form() else { continue };
            let mut words = form.split_whitespace();
            let keyword = words.next().expect("a keyword");
            let params: Vec<String> = words.chain(ex.iter().copied()).map(str::to_string).collect();
            let from_popeye = by_popeye(keyword, &params).unwrap_or_else(|e| panic!("{form}: {e}"));
            // Labels (for messages) may differ: compare everything else.
            let strip = |b: &Built| {
                built(b).split("label: ").map(|s| s.split_once(", ").map_or(s, |x| x.1)).collect::<String>()
            };
            assert_eq!(strip(&from_popeye), strip(&from_name), "{} / Popeye {form}", d.name);
            if let Popeye::Keyword { keyword, .. } = d.popeye {
                assert!(!keywords.contains(&keyword), "keyword {keyword} twice");
                keywords.push(keyword);
                // The keyword as a `--condition` name is the Popeye reading of the bare keyword.
                let kw_name = by_name(&with(keyword)).unwrap_or_else(|e| panic!("{keyword}: {e}"));
                let bare = by_popeye(keyword, &ex.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap();
                if let Popeye::Keyword { defaults: [], .. } = d.popeye {
                    assert_eq!(strip(&kw_name), strip(&bare), "{keyword}");
                }
            } else {
                assert!(popeye_owner(keyword).is_some(), "{form}: no description owns {keyword}");
            }
        }
    }

    /// A name with its parameters written as Popeye input builds what the name builds;
    /// what Popeye cannot write is refused, not dropped.
    #[test]
    fn names_are_written_as_popeye_input() {
        let strip =
            |b: &Built| built(b).split("label: ").map(|s| s.split_once(", ").map_or(s, |x| x.1)).collect::<String>();
        let mut names: Vec<String> = DESCRIPTIONS.iter().map(|d| d.example()).collect();
        names.extend(
            ["Circé parachuté", "anticirce echange", "Sentinelles Totalmax=4", "trou d4 e5", "Progressif 3"]
                .map(String::from),
        );
        let mut written = 0;
        for n in &names {
            let Ok(text) = popeye_text(n) else { continue };
            written += 1;
            let mut words = text.split_whitespace();
            let keyword = words.next().expect("a keyword");
            let params: Vec<String> = words.map(str::to_string).collect();
            let from_popeye = by_popeye(keyword, &params).unwrap_or_else(|e| panic!("{n} as {text}: {e}"));
            assert_eq!(strip(&from_popeye), strip(&by_name(n).unwrap()), "{n} as {text}");
        }
        assert!(written + 3 >= names.len(), "only {written} of {} written", names.len());
        assert_eq!(popeye_text("trou d4 e5").unwrap(), "Hole d4 e5");
        assert_eq!(popeye_text("anticirce").unwrap(), "AntiCirce Cheylan");
        assert_eq!(popeye_text("Circé parachuté").unwrap(), "Circe Parachute");
        for bad in ["circe parachute blanc", "case obligatoire consequente e4", "frobnicate", "circe frob"] {
            assert!(popeye_text(bad).is_err(), "{bad}");
        }
    }

    /// The Circe parameters mean the same in both languages: each seed spelling and the
    /// Popeye spelling give the same Circe.
    #[test]
    fn circe_parameters_agree_in_both_languages() {
        for p in CIRCE_PARAMS {
            let base = if p.word.seed.contains(&"cheylan")
                || p.word.seed.contains(&"pwc")
                || p.word.seed.contains(&"echange")
                || p.word.seed.contains(&"calvet")
            {
                "anticirce"
            } else {
                "circe"
            };
            let want = by_name(&format!("{base} {}", p.word.seed[0])).map(|b| format!("{b:?}"));
            for s in p.word.seed.iter().chain(p.word.popeye.iter()) {
                let got = by_name(&format!("{base} {s}")).map(|b| format!("{b:?}"));
                assert_eq!(got.is_ok(), want.is_ok(), "{base} {s}");
            }
            if let (Some(pw), Ok(want)) = (p.word.popeye, &want) {
                let keyword = if base == "anticirce" { "AntiCirce" } else { "Circe" };
                let mut params = vec![pw.to_string()];
                if base == "anticirce" {
                    params.insert(0, "Cheylan".into());
                }
                let got = by_popeye(keyword, &params).map(|b| format!("{b:?}")).unwrap();
                let strip =
                    |s: &str| s.split("label: ").map(|s| s.split_once(", ").map_or(s, |x| x.1)).collect::<String>();
                assert_eq!(strip(&got), strip(want), "{keyword} {pw}");
            }
        }
    }

    /// Mirror is one thing: `circe malefique`, `MirrorCirce`, `Circe Mirror` are the same
    /// Circe (the opposite colour's squares), and so are Anticirce's.
    #[test]
    fn mirror_is_encoded_once() {
        let strip = |b: Built| {
            format!("{b:?}")
                .split("label: ")
                .map(|s| s.split_once(", ").map_or(s, |x| x.1).to_string())
                .collect::<String>()
        };
        let a = strip(by_name("circe malefique").unwrap());
        assert_eq!(a, strip(by_popeye("MirrorCirce", &[]).unwrap()));
        assert_eq!(a, strip(by_popeye("Circe", &["Mirror".into()]).unwrap()));
        assert_eq!(a, strip(by_name("circe mirror").unwrap()));
        assert!(a.contains("mirror: true") && a.contains("square: Standard"), "{a}");
        let b = strip(by_name("anticirce malefique").unwrap());
        assert_eq!(b, strip(by_popeye("AntiCirce", &["Cheylan".into(), "Mirror".into()]).unwrap()));
    }
}
