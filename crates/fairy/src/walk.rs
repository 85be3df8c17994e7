//! Walks as data: every kind of piece the engine knows is a row of [`WALKS`], made of
//! a few step patterns (leap, ride, rose, locust, hop, pawn). Move generation and the
//! observation (check) test read these rows; no piece has code of its own.

use chimere_core::Kind;

/// One way of moving.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// One jump by each of these offsets.
    Leap(&'static [(i8, i8)]),
    /// Repeated steps by each of these offsets, stopping at the first unit.
    Ride(&'static [(i8, i8)]),
    /// The rose: successive knight steps turning by 45 degrees (up to seven).
    Rose,
    /// Locust: moves only by capturing, jumping over the first unit met on the line
    /// (an enemy) onto the empty square just beyond. `true` = along the whole line.
    Locust(&'static [(i8, i8)], bool),
    /// Grasshopper-style hopper: over the first unit on the line to the square beyond.
    Hop(&'static [(i8, i8)]),
    /// The orthodox pawn (direction given by the side that moves it).
    Pawn,
    /// Repeated steps by each of these offsets onto empty squares only, never capturing
    /// (the non-capturing part of the Chinese and marine pieces).
    RideQuiet(&'static [(i8, i8)]),
    /// A hopper of the general kind ([`Hopper`]).
    Hopper(Hopper),
    /// A lame leaper: each `(via, to)` is a leap to `to` that needs the square `via` empty
    /// (Mao, Moa).
    Lame(&'static [LameLeap]),
    /// A lame rider: lame leaps repeated in one direction, each needing its `via` square
    /// and every arrival but the last empty (Mao rider, Moa rider).
    LameRide(&'static [LameLeap]),
    /// A lame rider lion (Mao rider lion, Moa rider lion): the rider's path is read square
    /// by square, each leap's `via` then its arrival; the first unit on it is the hurdle,
    /// and the lion lands on any arrival beyond it, up to and including the next unit met
    /// (a capture), each square it passes after the hurdle empty.
    LameRideLion(&'static [LameLeap]),
    /// A lame hopper: the leap to `to` needs a hurdle on `via` (Mao hopper, Moa hopper; as
    /// in Popeye, a hole serves as a hurdle).
    LameHop(&'static [LameLeap]),
    /// Jumps to twice each of these vectors over a hurdle standing at the midpoint, the
    /// squares in between not looked at: the equihopper's jumps that nothing can block
    /// (over a unit only) and the non-stop equihoppers (over a unit or, as in Popeye, a
    /// hole).
    Equi { halves: &'static [(i8, i8)], over_holes: bool },
}

/// A lame leap: the square that must be empty, then the leap (both from the start).
pub type LameLeap = ((i8, i8), (i8, i8));

/// A hopper: it finds `hurdles` units on a line (the first one at any distance when
/// `far`, else the very next square; the next hurdles at any distance), then lands as
/// [`Land`] says. Holes stop the line and are never hurdles.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Hopper {
    pub dirs: &'static [(i8, i8)],
    pub far: bool,
    pub hurdles: u8,
    pub land: Land,
}

/// Where a [`Hopper`] lands after its last hurdle.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Land {
    /// `n` steps beyond the last hurdle, the squares between empty (grasshopper: 1).
    Beyond(u8),
    /// On any square beyond, up to and including the first unit met (a capture): lions.
    Lion,
    /// Only by capturing the first unit met beyond (Chinese pieces: Pao, Vao, Leo, Nao).
    Capture,
    /// One step from the hurdle in a direction turned by `k` × 45° either way from the
    /// approach (queen lines only: moose 1, eagle 2, sparrow 3, hamster 4: back).
    Turn(u8),
    /// As far beyond the hurdle as the hurdle is from the start, the squares between empty
    /// (equihopper and orix along lines).
    Mirror,
}

/// A hopper over `hurdles` units found along `dirs` at any distance, landing by `land`.
pub const fn hopper(dirs: &'static [(i8, i8)], hurdles: u8, land: Land) -> Step {
    Step::Hopper(Hopper { dirs, far: true, hurdles, land })
}

/// The eight (or four, for `(0, n)` and `(n, n)`) leaps of an `a:b` leaper, `a <= b`.
pub const fn leaps(a: i8, b: i8) -> [(i8, i8); 8] {
    if a == 0 {
        [(0, b), (b, 0), (0, -b), (-b, 0), (0, b), (b, 0), (0, -b), (-b, 0)]
    } else if a == b {
        [(a, a), (a, -a), (-a, a), (-a, -a), (a, a), (a, -a), (-a, a), (-a, -a)]
    } else {
        [(a, b), (b, a), (b, -a), (a, -b), (-a, -b), (-b, -a), (-b, a), (-a, b)]
    }
}

/// Two leap sets in one.
pub const fn join<const N: usize, const M: usize, const S: usize>(a: [(i8, i8); N], b: [(i8, i8); M]) -> [(i8, i8); S] {
    let mut out = [(0, 0); S];
    let mut i = 0;
    while i < N {
        out[i] = a[i];
        i += 1;
    }
    while i < S {
        out[i] = b[i - N];
        i += 1;
    }
    out
}

pub const ZEBRA: [(i8, i8); 8] = leaps(2, 3);
pub const CAMEL: [(i8, i8); 8] = leaps(1, 3);
pub const GIRAFFE: [(i8, i8); 8] = leaps(1, 4);
pub const ANTELOPE: [(i8, i8); 8] = leaps(3, 4);
pub const LEAP05: [(i8, i8); 8] = leaps(0, 5);
pub const LEAP17: [(i8, i8); 8] = leaps(1, 7);
pub const LEAP55: [(i8, i8); 8] = leaps(5, 5);
pub const WAZIR: [(i8, i8); 8] = leaps(0, 1);
pub const FERS: [(i8, i8); 8] = leaps(1, 1);
pub const ALFIL: [(i8, i8); 8] = leaps(2, 2);
pub const DABBABA: [(i8, i8); 8] = leaps(0, 2);
pub const LEAP15: [(i8, i8); 8] = leaps(1, 5);
pub const LEAP16: [(i8, i8); 8] = leaps(1, 6);
pub const LEAP24: [(i8, i8); 8] = leaps(2, 4);
pub const LEAP25: [(i8, i8); 8] = leaps(2, 5);
pub const LEAP35: [(i8, i8); 8] = leaps(3, 5);
pub const LEAP36: [(i8, i8); 8] = leaps(3, 6);
pub const LEAP37: [(i8, i8); 8] = leaps(3, 7);
pub const BUCEPHALE: [(i8, i8); 16] = join(ANTELOPE, LEAP05);
pub const ROOT50: [(i8, i8); 16] = join(LEAP17, LEAP55);
pub const GNU: [(i8, i8); 16] = join(CAMEL, KNIGHT_STEPS);
pub const OKAPI: [(i8, i8); 16] = join(KNIGHT_STEPS, ZEBRA);
pub const BISON: [(i8, i8); 16] = join(CAMEL, ZEBRA);
pub const ZEBU: [(i8, i8); 16] = join(CAMEL, GIRAFFE);
pub const SQUIRREL: [(i8, i8); 24] = join(join::<8, 8, 16>(DABBABA, ALFIL), KNIGHT_STEPS);
pub const QUEEN_KNIGHT: [(i8, i8); 16] = join(QUEEN_DIRS, KNIGHT_STEPS);
/// The halves of the equihopper's unblockable jumps: knight, camel and zebra vectors
/// (their lines cross no square between).
pub const EQUI_HALVES: [(i8, i8); 24] = join(join::<8, 8, 16>(KNIGHT_STEPS, CAMEL), ZEBRA);
/// The halves of the non-stop orix's jumps: 1 to 3 steps along the queen's lines.
pub const ORIX_HALVES: [(i8, i8); 24] = multiples(QUEEN_DIRS);
/// The halves of the non-stop equihopper's jumps: every vector of at most 3 in each
/// direction (the jumps that stay on the board).
pub const EQUI_ALL_HALVES: [(i8, i8); 48] = all_halves();

const fn multiples(dirs: [(i8, i8); 8]) -> [(i8, i8); 24] {
    let mut out = [(0, 0); 24];
    let mut i = 0;
    while i < 24 {
        let (df, dr) = dirs[i % 8];
        let k = (i / 8) as i8 + 1;
        out[i] = (df * k, dr * k);
        i += 1;
    }
    out
}

const fn all_halves() -> [(i8, i8); 48] {
    let mut out = [(0, 0); 48];
    let mut i = 0;
    let mut f = -3;
    while f <= 3 {
        let mut r = -3;
        while r <= 3 {
            if f != 0 || r != 0 {
                out[i] = (f, r);
                i += 1;
            }
            r += 1;
        }
        f += 1;
    }
    out
}

/// Mao: an orthogonal step (which must be empty), then a diagonal one outwards.
pub const MAO: [((i8, i8), (i8, i8)); 8] = lame(true);
/// Moa: a diagonal step (which must be empty), then an orthogonal one outwards.
pub const MOA: [((i8, i8), (i8, i8)); 8] = lame(false);

const fn lame(orthogonal_first: bool) -> [((i8, i8), (i8, i8)); 8] {
    let mut out = [((0, 0), (0, 0)); 8];
    let mut i = 0;
    while i < 8 {
        let (df, dr) = KNIGHT_STEPS[i];
        let via = if orthogonal_first {
            if df.abs() == 2 { (df / 2, 0) } else { (0, dr / 2) }
        } else {
            (df.signum(), dr.signum())
        };
        out[i] = (via, (df, dr));
        i += 1;
    }
    out
}

/// A row of [`WALKS`] for a fairy kind.
const fn fairy(letters: &'static str, name: &'static str, steps: &'static [Step]) -> WalkDef {
    WalkDef { letters, name, steps, fairy: true }
}

/// Description of a kind of piece.
#[derive(Copy, Clone, Debug)]
pub struct WalkDef {
    /// Popeye's English letters, upper case (`S` is the knight).
    pub letters: &'static str,
    /// English name.
    pub name: &'static str,
    pub steps: &'static [Step],
    /// Not one of the six orthodox kinds (Circe sends fairy units to the promotion square).
    pub fairy: bool,
}

pub const KNIGHT_STEPS: [(i8, i8); 8] = chimere_core::attacks::KNIGHT_STEPS;
pub const KING_STEPS: [(i8, i8); 8] = chimere_core::attacks::KING_STEPS;
pub const ROOK_DIRS: [(i8, i8); 4] = chimere_core::attacks::ROOK_DIRS;
pub const BISHOP_DIRS: [(i8, i8); 4] = chimere_core::attacks::BISHOP_DIRS;
pub const QUEEN_DIRS: [(i8, i8); 8] = KING_STEPS;

/// The orthodox kinds keep chess's indices; fairy kinds follow them.
pub use chimere_chess::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
pub const NIGHTRIDER: Kind = Kind(6);
pub const ROSE: Kind = Kind(7);
pub const LOCUST: Kind = Kind(8);
pub const NIGHTRIDER_LOCUST: Kind = Kind(9);
pub const BISHOP_LOCUST: Kind = Kind(10);
pub const ROOK_LOCUST: Kind = Kind(11);
pub const DUMMY: Kind = Kind(12);
pub const GRASSHOPPER: Kind = Kind(13);
/// The first kind of the rows after the grasshopper (leapers, riders, hoppers, Chinese
/// and marine pieces), which the observation test handles by their generation.
pub const FIRST_GENERIC: Kind = Kind(14);

/// The table of walks, indexed by [`Kind`].
pub static WALKS: [WalkDef; KINDS] = [
    WalkDef { letters: "P", name: "pawn", steps: &[Step::Pawn], fairy: false },
    WalkDef { letters: "S", name: "knight", steps: &[Step::Leap(&KNIGHT_STEPS)], fairy: false },
    WalkDef { letters: "B", name: "bishop", steps: &[Step::Ride(&BISHOP_DIRS)], fairy: false },
    WalkDef { letters: "R", name: "rook", steps: &[Step::Ride(&ROOK_DIRS)], fairy: false },
    WalkDef { letters: "Q", name: "queen", steps: &[Step::Ride(&QUEEN_DIRS)], fairy: false },
    WalkDef { letters: "K", name: "king", steps: &[Step::Leap(&KING_STEPS)], fairy: false },
    WalkDef { letters: "N", name: "nightrider", steps: &[Step::Ride(&KNIGHT_STEPS)], fairy: true },
    WalkDef { letters: "RO", name: "rose", steps: &[Step::Rose], fairy: true },
    WalkDef { letters: "L", name: "locust", steps: &[Step::Locust(&QUEEN_DIRS, true)], fairy: true },
    WalkDef { letters: "LN", name: "nightrider-locust", steps: &[Step::Locust(&KNIGHT_STEPS, true)], fairy: true },
    WalkDef { letters: "LB", name: "bishop-locust", steps: &[Step::Locust(&BISHOP_DIRS, true)], fairy: true },
    WalkDef { letters: "LR", name: "rook-locust", steps: &[Step::Locust(&ROOK_DIRS, true)], fairy: true },
    WalkDef { letters: "DU", name: "dummy", steps: &[], fairy: true },
    WalkDef { letters: "G", name: "grasshopper", steps: &[Step::Hop(&QUEEN_DIRS)], fairy: true },
    // Leapers.
    fairy("Z", "zebra", &[Step::Leap(&ZEBRA)]),
    fairy("CA", "camel", &[Step::Leap(&CAMEL)]),
    fairy("GI", "giraffe", &[Step::Leap(&GIRAFFE)]),
    fairy("AN", "antelope", &[Step::Leap(&ANTELOPE)]),
    fairy("BU", "bucephale", &[Step::Leap(&BUCEPHALE)]),
    fairy("RF", "root-50-leaper", &[Step::Leap(&ROOT50)]),
    fairy("WE", "wazir", &[Step::Leap(&WAZIR)]),
    fairy("FE", "fers", &[Step::Leap(&FERS)]),
    fairy("AL", "alfil", &[Step::Leap(&ALFIL)]),
    fairy("DA", "dabbaba", &[Step::Leap(&DABBABA)]),
    fairy("GN", "gnu", &[Step::Leap(&GNU)]),
    fairy("OK", "okapi", &[Step::Leap(&OKAPI)]),
    fairy("BI", "bison", &[Step::Leap(&BISON)]),
    fairy("ZE", "zebu", &[Step::Leap(&ZEBU)]),
    fairy("SQ", "squirrel", &[Step::Leap(&SQUIRREL)]),
    fairy("15", "1:5-leaper", &[Step::Leap(&LEAP15)]),
    fairy("16", "1:6-leaper", &[Step::Leap(&LEAP16)]),
    fairy("24", "2:4-leaper", &[Step::Leap(&LEAP24)]),
    fairy("25", "2:5-leaper", &[Step::Leap(&LEAP25)]),
    fairy("35", "3:5-leaper", &[Step::Leap(&LEAP35)]),
    fairy("36", "3:6-leaper", &[Step::Leap(&LEAP36)]),
    fairy("37", "3:7-leaper", &[Step::Leap(&LEAP37)]),
    // Riders and compounds.
    fairy("CR", "camelrider", &[Step::Ride(&CAMEL)]),
    fairy("ZR", "zebrarider", &[Step::Ride(&ZEBRA)]),
    fairy("GR", "gnurider", &[Step::Ride(&GNU)]),
    fairy("ET", "elephant", &[Step::Ride(&QUEEN_KNIGHT)]),
    fairy("AM", "amazon", &[Step::Ride(&QUEEN_DIRS), Step::Leap(&KNIGHT_STEPS)]),
    fairy("EM", "empress", &[Step::Ride(&ROOK_DIRS), Step::Leap(&KNIGHT_STEPS)]),
    fairy("PR", "princess", &[Step::Ride(&BISHOP_DIRS), Step::Leap(&KNIGHT_STEPS)]),
    fairy("WA", "waran", &[Step::Ride(&KNIGHT_STEPS), Step::Ride(&ROOK_DIRS)]),
    // Hoppers.
    fairy("RH", "rookhopper", &[hopper(&ROOK_DIRS, 1, Land::Beyond(1))]),
    fairy("BH", "bishophopper", &[hopper(&BISHOP_DIRS, 1, Land::Beyond(1))]),
    fairy("NH", "nightriderhopper", &[hopper(&KNIGHT_STEPS, 1, Land::Beyond(1))]),
    fairy("CH", "camelriderhopper", &[hopper(&CAMEL, 1, Land::Beyond(1))]),
    fairy("ZH", "zebrariderhopper", &[hopper(&ZEBRA, 1, Land::Beyond(1))]),
    fairy("GH", "gnuriderhopper", &[hopper(&GNU, 1, Land::Beyond(1))]),
    fairy("G2", "grasshopper-2", &[hopper(&QUEEN_DIRS, 1, Land::Beyond(2))]),
    fairy("G3", "grasshopper-3", &[hopper(&QUEEN_DIRS, 1, Land::Beyond(3))]),
    fairy(
        "KH",
        "kinghopper",
        &[Step::Hopper(Hopper { dirs: &QUEEN_DIRS, far: false, hurdles: 1, land: Land::Beyond(1) })],
    ),
    fairy("KA", "kangaroo", &[hopper(&QUEEN_DIRS, 2, Land::Beyond(1))]),
    fairy("KL", "kangaroo-lion", &[hopper(&QUEEN_DIRS, 2, Land::Lion)]),
    fairy("DO", "dolphin", &[hopper(&QUEEN_DIRS, 2, Land::Beyond(1)), hopper(&QUEEN_DIRS, 1, Land::Beyond(1))]),
    fairy("SO", "scorpion", &[Step::Leap(&KING_STEPS), hopper(&QUEEN_DIRS, 1, Land::Beyond(1))]),
    fairy("GL", "gral", &[Step::Leap(&ALFIL), hopper(&ROOK_DIRS, 1, Land::Beyond(1))]),
    fairy("LI", "lion", &[hopper(&QUEEN_DIRS, 1, Land::Lion)]),
    fairy("RL", "rook-lion", &[hopper(&ROOK_DIRS, 1, Land::Lion)]),
    fairy("BL", "bishop-lion", &[hopper(&BISHOP_DIRS, 1, Land::Lion)]),
    fairy("NL", "nightrider-lion", &[hopper(&KNIGHT_STEPS, 1, Land::Lion)]),
    fairy("M", "moose", &[hopper(&QUEEN_DIRS, 1, Land::Turn(1))]),
    fairy("EA", "eagle", &[hopper(&QUEEN_DIRS, 1, Land::Turn(2))]),
    fairy("SW", "sparrow", &[hopper(&QUEEN_DIRS, 1, Land::Turn(3))]),
    fairy("RM", "rook-moose", &[hopper(&ROOK_DIRS, 1, Land::Turn(1))]),
    fairy("RE", "rook-eagle", &[hopper(&ROOK_DIRS, 1, Land::Turn(2))]),
    fairy("RW", "rook-sparrow", &[hopper(&ROOK_DIRS, 1, Land::Turn(3))]),
    fairy("BM", "bishop-moose", &[hopper(&BISHOP_DIRS, 1, Land::Turn(1))]),
    fairy("BE", "bishop-eagle", &[hopper(&BISHOP_DIRS, 1, Land::Turn(2))]),
    fairy("BW", "bishop-sparrow", &[hopper(&BISHOP_DIRS, 1, Land::Turn(3))]),
    // Chinese pieces: move as riders, capture over one hurdle.
    fairy("PA", "pao", &[Step::RideQuiet(&ROOK_DIRS), hopper(&ROOK_DIRS, 1, Land::Capture)]),
    fairy("VA", "vao", &[Step::RideQuiet(&BISHOP_DIRS), hopper(&BISHOP_DIRS, 1, Land::Capture)]),
    fairy("LE", "leo", &[Step::RideQuiet(&QUEEN_DIRS), hopper(&QUEEN_DIRS, 1, Land::Capture)]),
    fairy("NA", "nao", &[Step::RideQuiet(&KNIGHT_STEPS), hopper(&KNIGHT_STEPS, 1, Land::Capture)]),
    fairy("MA", "mao", &[Step::Lame(&MAO)]),
    fairy("MO", "moa", &[Step::Lame(&MOA)]),
    // Marine pieces: move as riders, capture as locusts.
    fairy("SI", "siren", &[Step::RideQuiet(&QUEEN_DIRS), Step::Locust(&QUEEN_DIRS, true)]),
    fairy("TR", "triton", &[Step::RideQuiet(&ROOK_DIRS), Step::Locust(&ROOK_DIRS, true)]),
    fairy("ND", "nereid", &[Step::RideQuiet(&BISHOP_DIRS), Step::Locust(&BISHOP_DIRS, true)]),
    // Equihoppers: over a hurdle at the midpoint of the jump.
    fairy(
        "EQ",
        "equihopper",
        &[hopper(&QUEEN_DIRS, 1, Land::Mirror), Step::Equi { halves: &EQUI_HALVES, over_holes: false }],
    ),
    fairy("NE", "nonstop equihopper", &[Step::Equi { halves: &EQUI_ALL_HALVES, over_holes: true }]),
    fairy("OR", "orix", &[hopper(&QUEEN_DIRS, 1, Land::Mirror)]),
    fairy("NO", "nonstop orix", &[Step::Equi { halves: &ORIX_HALVES, over_holes: true }]),
    // More of the grasshopper family.
    fairy("HA", "hamster", &[hopper(&QUEEN_DIRS, 1, Land::Turn(4))]),
    fairy(
        "CG",
        "contragrasshopper",
        &[Step::Hopper(Hopper { dirs: &QUEEN_DIRS, far: false, hurdles: 1, land: Land::Lion })],
    ),
    fairy(
        "KP",
        "knighthopper",
        &[Step::Hopper(Hopper { dirs: &KNIGHT_STEPS, far: false, hurdles: 1, land: Land::Beyond(1) })],
    ),
    // Mao and Moa riders and hoppers.
    fairy("AO", "maorider", &[Step::LameRide(&MAO)]),
    fairy("OA", "moarider", &[Step::LameRide(&MOA)]),
    fairy("AH", "maohopper", &[Step::LameHop(&MAO)]),
    fairy("OH", "moahopper", &[Step::LameHop(&MOA)]),
    fairy("ML", "maorider lion", &[Step::LameRideLion(&MAO)]),
    fairy("MM", "moarider lion", &[Step::LameRideLion(&MOA)]),
];

/// Number of kinds in [`WALKS`].
pub const KINDS: usize = 93;

/// The walk of a kind.
#[inline]
pub fn walk(kind: Kind) -> &'static WalkDef {
    &WALKS[kind.index() % KINDS]
}

/// Popeye letters of a kind.
#[inline]
pub fn letters(kind: Kind) -> &'static str {
    walk(kind).letters
}

/// The kind written with these (case-insensitive) Popeye letters.
pub fn kind_of_letters(s: &str) -> Option<Kind> {
    WALKS.iter().position(|w| w.letters.eq_ignore_ascii_case(s)).map(|i| Kind(i as u8))
}

/// The knight steps in circular order, as the rose uses them.
pub const ROSE_CIRCLE: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
