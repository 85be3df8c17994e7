//! Stipulations in Popeye's notation: `#n`, `=n`, `~n`, `h#n`, `h#n.5`, `h=n`, `h~n`,
//! `s#n`, `s=n`, `r#n`, `ser-#n`, `ser-=n`, `ser-h#n`, `ser-h=n`, `ser-s#n`, each with an
//! optional `exact-` prefix.

use std::fmt;

/// What the last move must reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// The side to move is in check and has no legal move.
    Mate,
    /// The side to move is not in check and has no legal move.
    Stalemate,
    /// Any move (`~`).
    Any,
}

impl Goal {
    /// The mark Popeye writes after a move reaching the goal (` #`, ` =`), if any.
    pub fn mark(self) -> Option<&'static str> {
        match self {
            Goal::Mate => Some(" #"),
            Goal::Stalemate => Some(" ="),
            Goal::Any => None,
        }
    }
}

/// The goal as the rules see it: the conditions whose rules depend on it are bound to it
/// (`chimere_fairy::rules::for_goal`).
impl From<Goal> for chimere_fairy::rules::Goal {
    fn from(g: Goal) -> Self {
        match g {
            Goal::Mate => chimere_fairy::rules::Goal::Mate,
            Goal::Stalemate => chimere_fairy::rules::Goal::Stalemate,
            Goal::Any => chimere_fairy::rules::Goal::Any,
        }
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

/// A parsed stipulation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stipulation {
    pub play: Play,
    pub goal: Goal,
    /// Moves of the side that starts (full moves for help play without `half`).
    pub n: u32,
    /// Help play with a half move more: White starts (`h#2.5`).
    pub half: bool,
    /// Only solutions of exactly the stated length.
    pub exact: bool,
    /// The text as written.
    pub text: String,
}

impl fmt::Display for Stipulation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// The longest stipulation accepted (moves; Popeye's examples go beyond 30: an s#31,
/// series of 40 and more).
pub const MAX_MOVES: u32 = 99;

/// Parses a stipulation; `Err` is a one-line reason.
pub fn parse_stipulation(text: &str) -> Result<Stipulation, String> {
    let lower = text.to_ascii_lowercase();
    let mut s = lower.as_str();
    let unsupported = || format!("stipulation `{text}` is not supported");
    let exact = if let Some(r) = s.strip_prefix("exact-") {
        s = r;
        true
    } else {
        false
    };
    let series = if let Some(r) = s.strip_prefix("ser-") {
        s = r;
        true
    } else {
        false
    };
    let prefix = match s.as_bytes().first() {
        Some(b'h') | Some(b's') | Some(b'r') => {
            let c = s.as_bytes()[0];
            s = &s[1..];
            Some(c)
        }
        _ => None,
    };
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
        return Err(format!("stipulation `{text}`: at most {MAX_MOVES} moves are supported"));
    }
    let play = match (series, prefix) {
        (false, None) => Play::Direct,
        (false, Some(b'h')) => Play::Help,
        (false, Some(b's')) if goal != Goal::Any => Play::SelfPlay,
        (false, Some(b'r')) if goal == Goal::Mate => Play::Reflex,
        (true, None) if goal != Goal::Any => Play::Series,
        (true, Some(b'h')) if goal != Goal::Any => Play::SeriesHelp,
        (true, Some(b's')) if goal == Goal::Mate => Play::SeriesSelf,
        _ => return Err(unsupported()),
    };
    if half && play != Play::Help {
        return Err(unsupported());
    }
    if n == 0 && !(half && play == Play::Help) {
        return Err(format!("stipulation `{text}`: the number of moves must be at least 1"));
    }
    Ok(Stipulation { play, goal, n, half, exact, text: text.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_stipulations_in_scope() {
        let s = parse_stipulation("h#2.5").unwrap();
        assert_eq!((s.play, s.goal, s.n, s.half, s.exact), (Play::Help, Goal::Mate, 2, true, false));
        let s = parse_stipulation("exact-ser-h=6").unwrap();
        assert_eq!((s.play, s.goal, s.n, s.exact), (Play::SeriesHelp, Goal::Stalemate, 6, true));
        assert_eq!(parse_stipulation("r#2").unwrap().play, Play::Reflex);
        assert_eq!(parse_stipulation("ser-s#3").unwrap().play, Play::SeriesSelf);
        assert_eq!(parse_stipulation("~1").unwrap().goal, Goal::Any);
        assert_eq!(parse_stipulation("h~2").unwrap().play, Play::Help);
        assert_eq!(parse_stipulation("S#31").unwrap().n, 31);
        assert_eq!(parse_stipulation("ser-h#99").unwrap().n, 99);
        for bad in ["dia5.5", "#", "#2.5", "s~2", "hs#2", "r=2", "x3", "#0", "#100"] {
            assert!(parse_stipulation(bad).is_err(), "{bad}");
        }
    }
}
