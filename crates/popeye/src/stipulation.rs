//! Stipulations in Popeye's notation: `#n`, `=n`, `~n`, `h#n`, `h#n.5`, `h=n`, `h~n`,
//! `s#n`, `s=n`, `r#n`, `ser-#n`, `ser-=n`, `ser-h#n`, `ser-h=n`, `ser-s#n`, each with an
//! optional `exact-` prefix. The reader types them ([`Stipulation`]); a stipulation
//! outside this list is refused with its line, as an input error.

use std::fmt;
use std::str::FromStr;

/// What the last move must reach: the rules' own goal, which some conditions read
/// ([`chimere_fairy::rules::for_goal`]).
pub use chimere_fairy::rules::Goal;

/// The mark Popeye writes after a move reaching the goal (` #`, ` =`), if any.
pub fn goal_mark(goal: Goal) -> Option<&'static str> {
    match goal {
        Goal::Mate => Some(" #"),
        Goal::Stalemate => Some(" ="),
        Goal::Any => None,
    }
}

fn goal_symbol(goal: Goal) -> char {
    match goal {
        Goal::Mate => '#',
        Goal::Stalemate => '=',
        Goal::Any => '~',
    }
}

/// The kind of play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Play {
    /// White forces the goal against Black (`#n`, `=n`, `~n`).
    Direct,
    /// White forces Black to reach the goal (`s#n`, `s=n`).
    SelfPlay,
    /// Like self play, both sides bound to reach the goal in one when they can (`r#n`).
    Reflex,
    /// Both sides cooperate; Black starts unless `half` (`h#n`, `h#n.5`).
    Help,
    /// White plays a series of moves, the last reaches the goal (`ser-#n`).
    Series,
    /// Black plays a series, then White reaches the goal in one (`ser-h#n`).
    SeriesHelp,
    /// White plays a series, then every Black move must reach the goal (`ser-s#n`).
    SeriesSelf,
}

impl Play {
    /// Popeye's prefix: whether it is a series, and the letter before the goal.
    fn prefix(self) -> (bool, &'static str) {
        match self {
            Play::Direct => (false, ""),
            Play::SelfPlay => (false, "s"),
            Play::Reflex => (false, "r"),
            Play::Help => (false, "h"),
            Play::Series => (true, ""),
            Play::SeriesHelp => (true, "h"),
            Play::SeriesSelf => (true, "s"),
        }
    }
}

/// A stipulation. It prints as Popeye prints it (lower case, no spaces: `exact-h#2.5`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stipulation {
    pub play: Play,
    pub goal: Goal,
    /// Moves of the side that starts (full moves for help play without `half`).
    pub n: u32,
    /// Help play with a half move more: White starts (`h#2.5`).
    pub half: bool,
    /// Only solutions of exactly the stated length.
    pub exact: bool,
}

impl Stipulation {
    /// Its length in single moves of the side that starts, a half move counted as one.
    pub fn moves(&self) -> u32 {
        self.n + u32::from(self.half)
    }

    /// A help stipulation started by White (`Option WhiteToPlay`): `h#n` becomes `h#(n-1).5`.
    pub fn white_to_play(self) -> Stipulation {
        if self.play == Play::Help && !self.half && self.n >= 1 {
            Stipulation { n: self.n - 1, half: true, ..self }
        } else {
            self
        }
    }
}

impl fmt::Display for Stipulation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (series, letter) = self.play.prefix();
        let exact = if self.exact { "exact-" } else { "" };
        let ser = if series { "ser-" } else { "" };
        let half = if self.half { ".5" } else { "" };
        write!(f, "{exact}{ser}{letter}{}{}{half}", goal_symbol(self.goal), self.n)
    }
}

/// The longest stipulation accepted (moves; Popeye's examples go beyond 30: an s#31,
/// series of 40 and more).
pub const MAX_MOVES: u32 = 99;

/// Why a stipulation's text is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StipulationError {
    /// Not one of the stipulations in scope (the text as written).
    Unsupported(String),
    /// More than [`MAX_MOVES`] moves.
    TooLong(String),
    /// A length of 0 (other than `h#0.5`).
    NoMove(String),
}

impl fmt::Display for StipulationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StipulationError::Unsupported(t) => write!(f, "stipulation `{t}` is not supported"),
            StipulationError::TooLong(t) => write!(f, "stipulation `{t}`: at most {MAX_MOVES} moves are supported"),
            StipulationError::NoMove(t) => write!(f, "stipulation `{t}`: the number of moves must be at least 1"),
        }
    }
}

impl std::error::Error for StipulationError {}

impl FromStr for Stipulation {
    type Err = StipulationError;

    fn from_str(text: &str) -> Result<Stipulation, StipulationError> {
        let lower = text.to_ascii_lowercase();
        let mut s = lower.as_str();
        let unsupported = || StipulationError::Unsupported(text.to_string());
        let mut strip = |prefix: &str| match s.strip_prefix(prefix) {
            Some(r) => {
                s = r;
                true
            }
            None => false,
        };
        let exact = strip("exact-");
        let series = strip("ser-");
        let letter = ["h", "s", "r"].into_iter().find(|l| strip(l));
        let goal = match s.as_bytes().first() {
            Some(b'#') => Goal::Mate,
            Some(b'=') => Goal::Stalemate,
            Some(b'~') => Goal::Any,
            _ => return Err(unsupported()),
        };
        s = &s[1..];
        let (num, half) = match s.strip_suffix(".5") {
            Some(r) => (r, true),
            None => (s, false),
        };
        if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) {
            return Err(unsupported());
        }
        let n: u32 = num.parse().map_err(|_| unsupported())?;
        if n > MAX_MOVES {
            return Err(StipulationError::TooLong(text.to_string()));
        }
        let play = match (series, letter) {
            (false, None) => Play::Direct,
            (false, Some("h")) => Play::Help,
            (false, Some("s")) if goal != Goal::Any => Play::SelfPlay,
            (false, Some("r")) if goal == Goal::Mate => Play::Reflex,
            (true, None) if goal != Goal::Any => Play::Series,
            (true, Some("h")) if goal != Goal::Any => Play::SeriesHelp,
            (true, Some("s")) if goal == Goal::Mate => Play::SeriesSelf,
            _ => return Err(unsupported()),
        };
        if half && play != Play::Help {
            return Err(unsupported());
        }
        if n == 0 && !(half && play == Play::Help) {
            return Err(StipulationError::NoMove(text.to_string()));
        }
        Ok(Stipulation { play, goal, n, half, exact })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn st(t: &str) -> Stipulation {
        t.parse().unwrap_or_else(|e| panic!("{t}: {e}"))
    }

    #[test]
    fn reads_the_stipulations_in_scope() {
        let s = st("h#2.5");
        assert_eq!((s.play, s.goal, s.n, s.half, s.exact), (Play::Help, Goal::Mate, 2, true, false));
        let s = st("exact-ser-h=6");
        assert_eq!((s.play, s.goal, s.n, s.exact), (Play::SeriesHelp, Goal::Stalemate, 6, true));
        assert_eq!(st("r#2").play, Play::Reflex);
        assert_eq!(st("ser-s#3").play, Play::SeriesSelf);
        assert_eq!(st("~1").goal, Goal::Any);
        assert_eq!(st("h~2").play, Play::Help);
        assert_eq!(st("S#31").n, 31);
        assert_eq!(st("ser-h#99").n, 99);
        for bad in ["dia5.5", "#", "#2.5", "s~2", "hs#2", "r=2", "x3", "#0", "#100", "ser-r#2", "ser-s=2"] {
            assert!(bad.parse::<Stipulation>().is_err(), "{bad}");
        }
    }

    #[test]
    fn prints_as_popeye_writes_it_and_reads_back() {
        for (text, printed) in [
            ("EXACT-H#1.5", "exact-h#1.5"),
            ("SER-H#2", "ser-h#2"),
            ("S#31", "s#31"),
            ("h=0.5", "h=0.5"),
            ("ser-=4", "ser-=4"),
            ("R#2", "r#2"),
            ("~1", "~1"),
        ] {
            let s = st(text);
            assert_eq!(s.to_string(), printed);
            assert_eq!(st(printed), s);
        }
    }

    #[test]
    fn white_to_play_starts_a_half_move_earlier() {
        assert_eq!(st("h#3").white_to_play().to_string(), "h#2.5");
        assert_eq!(st("h#2.5").white_to_play().to_string(), "h#2.5");
        assert_eq!(st("#3").white_to_play().to_string(), "#3");
    }

    #[test]
    fn errors_name_the_text() {
        assert_eq!("dia5".parse::<Stipulation>().unwrap_err().to_string(), "stipulation `dia5` is not supported");
        assert!("#0".parse::<Stipulation>().unwrap_err().to_string().contains("at least 1"));
        assert!("#100".parse::<Stipulation>().unwrap_err().to_string().contains("at most 99"));
    }
}
