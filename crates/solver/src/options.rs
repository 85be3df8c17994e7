//! Popeye's options as the solver reads them: what it does with each ([`support`]: an
//! effect with one line for the composer, accepted with no effect, or refused) and the
//! settings of one problem ([`Opts`]). [`support`] is an exhaustive match on
//! `chimere_popeye::OptionKind`: an option added to the reader's table does not compile
//! until the solver says what it does with it.

use chimere_popeye::{OptionKind, PopeyeError, Problem};

/// What the solver does with an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Support {
    /// It changes the solving or the output: this line says how (the page offers it).
    Offered(&'static str),
    /// Read and allowed, with nothing to do (`NoWk`, `NoBk`: a side without king is always
    /// allowed); the page does not offer it.
    Accepted,
    /// Not supported: a problem giving it is refused.
    Refused,
}

/// What the solver does with `kind`.
pub fn support(kind: OptionKind) -> Support {
    Support::Offered(match kind {
        OptionKind::Try => "also show tries refuted by one defence",
        OptionKind::Defence => "tries refuted by at most this many defences",
        OptionKind::SetPlay => "the play if the other side were to move first",
        OptionKind::Variations => "the whole tree after the key: threats and variations",
        OptionKind::Threat => "only threats of at most this many moves",
        OptionKind::NoThreat => "no threats in the tree",
        OptionKind::NoShortVariations => "leave out variations shorter than the stipulation",
        OptionKind::Duplex => "solve again with the other side starting",
        OptionKind::HalfDuplex => "solve with the other side starting only",
        OptionKind::WhiteToPlay => "help play: White starts",
        OptionKind::MaxSolutions => "stop after this many solutions",
        OptionKind::Intelligent => "faster help and series mates by their final pictures",
        OptionKind::MoveNumbers => "a progress line before each first move",
        OptionKind::NoBoard => "no diagram in the output",
        OptionKind::EnPassant => "en passant capture is possible on these squares",
        OptionKind::NoCastling => "no castling with the units on these squares",
        OptionKind::MaxTime => "stop after this many seconds",
        OptionKind::NoWk | OptionKind::NoBk => return Support::Accepted,
        OptionKind::KeepMatingPiece
        | OptionKind::PostKeyPlay
        | OptionKind::Quodlibet
        | OptionKind::GoalIsEnd
        | OptionKind::NonTrivial
        | OptionKind::MaxFlightsquares
        | OptionKind::StartMoveNumber
        | OptionKind::StopOnShortSolutions
        | OptionKind::NullMoves => return Support::Refused,
    })
}

/// The options of one problem that shape solving and output.
#[derive(Clone, Debug, Default)]
pub(crate) struct Opts {
    pub(crate) variation: bool,
    pub(crate) try_: bool,
    pub(crate) defence: u32,
    pub(crate) set_play: bool,
    pub(crate) threat: Option<u32>,
    pub(crate) no_threat: bool,
    pub(crate) no_short: bool,
    pub(crate) duplex: bool,
    pub(crate) half_duplex: bool,
    pub(crate) white_to_play: bool,
    pub(crate) max_solutions: Option<u32>,
    pub(crate) intelligent: bool,
    pub(crate) max_time: Option<u32>,
    pub(crate) move_numbers: bool,
}

/// What the solver does with each option of `p`; an option it does not support is refused,
/// naming its line. (`NoWk` and `NoBk` only allow a side without king, which the solver
/// always does; `EnPassant`, `NoCastling` and `HalfDuplex` are the diagram's, read by
/// `chimere_popeye::build_game`.)
pub(crate) fn opts_of(p: &Problem) -> Result<Opts, PopeyeError> {
    let mut o = Opts {
        variation: false,
        try_: false,
        defence: 1,
        set_play: false,
        threat: None,
        no_threat: false,
        no_short: false,
        duplex: false,
        half_duplex: p.half_duplex,
        white_to_play: false,
        max_solutions: None,
        intelligent: false,
        max_time: None,
        move_numbers: false,
    };
    for spec in &p.options {
        if support(spec.kind) == Support::Refused {
            return Err(PopeyeError {
                line: spec.line,
                message: format!("option {} is not supported", spec.kind.keyword()),
            });
        }
        let n = spec.number();
        match spec.kind {
            OptionKind::Variations => o.variation = true,
            // Tries: `Try` asks for those refuted once, `Defence n` for those refuted at
            // most n times (Popeye's manual: with Defence "all real tries are calculated");
            // the later of the two sets the number, as Popeye reads them.
            OptionKind::Try => (o.try_, o.defence) = (true, 1),
            OptionKind::Defence => (o.try_, o.defence) = (true, n.unwrap_or(1)),
            OptionKind::SetPlay => o.set_play = true,
            OptionKind::Threat => o.threat = n,
            OptionKind::NoThreat => o.no_threat = true,
            OptionKind::NoShortVariations => o.no_short = true,
            OptionKind::Duplex => o.duplex = true,
            OptionKind::WhiteToPlay => o.white_to_play = true,
            OptionKind::MaxSolutions => match n {
                Some(0) | None => {
                    return Err(PopeyeError { line: spec.line, message: "MaxSolutions must be at least 1".into() });
                }
                m => o.max_solutions = m,
            },
            OptionKind::Intelligent => o.intelligent = true,
            OptionKind::MaxTime => o.max_time = n,
            OptionKind::MoveNumbers => o.move_numbers = true,
            // The header's and the diagram's (NoBoard, HalfDuplex, EnPassant, NoCastling),
            // or nothing to do (NoWk, NoBk).
            _ => {}
        }
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(options: &str) -> Result<Opts, PopeyeError> {
        let text = format!("BeginProblem\nPieces White Ke1 Black Ke8\nStipulation #2\nOption {options}\nEndProblem\n");
        opts_of(&chimere_popeye::parse(&text).expect("parses")[0])
    }

    #[test]
    fn settings_refusals_and_order() {
        let o = read("Variations Defence 3 MaxSolutions 2 MoveNumbers").unwrap();
        assert!(o.variation && o.try_ && o.move_numbers);
        assert_eq!((o.defence, o.max_solutions), (3, Some(2)));
        // The later of Try and Defence sets the number of refutations.
        assert_eq!(read("Defence 3 Try").unwrap().defence, 1);
        let e = read("Variations\nOption PostKeyPlay").expect_err("refused");
        assert_eq!((e.line, e.message.as_str()), (5, "option PostKeyPlay is not supported"));
        let e = read("MaxSolutions 0").expect_err("refused");
        assert_eq!(e.line, 4);
        // What the page offers, what is only read, what is refused.
        assert!(matches!(support(OptionKind::Intelligent), Support::Offered(_)));
        assert_eq!(support(OptionKind::NullMoves), Support::Refused);
        // Accepted with nothing to do: read, not refused, not offered.
        assert_eq!(support(OptionKind::NoWk), Support::Accepted);
        assert!(read("NoWk NoBk Try").unwrap().try_);
    }
}
