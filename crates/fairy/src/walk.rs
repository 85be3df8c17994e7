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

/// The table of walks, indexed by [`Kind`].
pub static WALKS: [WalkDef; 14] = [
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
];

/// Number of kinds in [`WALKS`].
pub const KINDS: usize = 14;

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
