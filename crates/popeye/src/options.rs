//! Popeye's options: one table ([`OptionKind`], written once in the `options!` list below)
//! with each option's keyword and what follows it; a problem holds its options as read
//! ([`OptionSpec`]: kind, value, line). The reader takes its keyword list from here, and
//! a match on [`OptionKind`] in the solver must say what it does with every option.

use chimere_core::Square;
use std::fmt;

/// What follows an option's keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Argument {
    None,
    /// A number (`MaxSolutions 3`).
    Number,
    /// Squares (`EnPassant d7d6d5`).
    Squares,
    /// Two numbers (`NonTrivial 1 2`).
    TwoNumbers,
}

macro_rules! options {
    ($($kind:ident $keyword:literal $arg:ident,)*) => {
        /// A Popeye option.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum OptionKind {
            $($kind,)*
        }

        impl OptionKind {
            /// Every option, in the table's order.
            pub const ALL: &[OptionKind] = &[$(OptionKind::$kind,)*];

            /// Popeye's (English) keyword.
            pub const fn keyword(self) -> &'static str {
                match self {
                    $(OptionKind::$kind => $keyword,)*
                }
            }

            /// What follows the keyword.
            pub const fn argument(self) -> Argument {
                match self {
                    $(OptionKind::$kind => Argument::$arg,)*
                }
            }
        }
    };
}

// In the order a composer looks for them (the page's picker lists them so): what the
// solution shows, how it is searched, who starts, the position's rights, the output.
options! {
    Variations "Variations" None,
    Try "Try" None,
    Defence "Defence" Number,
    Threat "Threat" Number,
    NoThreat "NoThreat" None,
    SetPlay "SetPlay" None,
    NoShortVariations "NoShortVariations" None,
    PostKeyPlay "PostKeyPlay" None,
    MoveNumbers "MoveNumbers" None,
    StartMoveNumber "StartMoveNumber" Number,
    Intelligent "Intelligent" None,
    MaxSolutions "MaxSolutions" Number,
    StopOnShortSolutions "StopOnShortSolutions" None,
    MaxTime "MaxTime" Number,
    KeepMatingPiece "KeepMatingPiece" None,
    NonTrivial "NonTrivial" TwoNumbers,
    MaxFlightsquares "MaxFlightsquares" Number,
    Quodlibet "Quodlibet" None,
    GoalIsEnd "GoalIsEnd" None,
    WhiteToPlay "WhiteToPlay" None,
    HalfDuplex "HalfDuplex" None,
    Duplex "Duplex" None,
    EnPassant "EnPassant" Squares,
    NoCastling "NoCastling" Squares,
    NoWk "NoWk" None,
    NoBk "NoBk" None,
    NullMoves "NullMoves" None,
    NoBoard "NoBoard" None,
}

/// The options' keywords, for the reader.
pub(crate) const OPTIONS: &[&str] = &{
    let mut out = [""; OptionKind::ALL.len()];
    let mut i = 0;
    while i < OptionKind::ALL.len() {
        out[i] = OptionKind::ALL[i].keyword();
        i += 1;
    }
    out
};

/// What an option was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    None,
    Number(u32),
    Squares(Vec<Square>),
    Numbers(u32, u32),
}

/// One option as read: its kind, its value, its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub kind: OptionKind,
    pub value: OptionValue,
    pub line: usize,
}

impl OptionSpec {
    /// The number given to an option taking one.
    pub fn number(&self) -> Option<u32> {
        match self.value {
            OptionValue::Number(n) => Some(n),
            _ => None,
        }
    }
}

/// As Popeye input writes it: `MaxSolutions 3`, `EnPassant d7 d6 d5`.
impl fmt::Display for OptionSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.keyword())?;
        match &self.value {
            OptionValue::None => Ok(()),
            OptionValue::Number(n) => write!(f, " {n}"),
            OptionValue::Squares(sq) => sq.iter().try_for_each(|s| write!(f, " {s}")),
            OptionValue::Numbers(a, b) => write!(f, " {a} {b}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_are_distinct_and_read_back() {
        for (i, k) in OptionKind::ALL.iter().enumerate() {
            assert_eq!(OPTIONS[i], k.keyword());
            assert_eq!(OptionKind::ALL.iter().filter(|o| o.keyword().eq_ignore_ascii_case(k.keyword())).count(), 1);
        }
        let o = OptionSpec {
            kind: OptionKind::EnPassant,
            value: OptionValue::Squares(vec![Square::parse("d7").unwrap(), Square::parse("d5").unwrap()]),
            line: 3,
        };
        assert_eq!(o.to_string(), "EnPassant d7 d5");
    }
}
