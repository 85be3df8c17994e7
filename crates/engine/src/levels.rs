//! The playing levels' strength, measured: each level of [`crate::search::level_limits`]
//! (1-8, orthodox chess) on the Stockfish 15.1 `UCI_Elo` scale at 10 s + 0.1 s, one thread,
//! as `../shared/tools/uci/elo.py --quick` measured it (20 games between the two Stockfish
//! anchors bracketing the running estimate). Data for the lobby's level picker
//! ([`label`]); measured, never guessed: a level without a run is [`Strength::NotMeasured`].
//!
//! Conditions of the figures below (28 Nov 2026): the build of this branch's parent
//! commit 5672a4f (the later commits change the speed only, and MultiPV's report order),
//! `elo.py "chimere uci" --quick --concurrency 1 --engine-option Level=N`, on the shared
//! 2-core machine at a load average of 7 to 35 (other sessions' builds and tests): elo.py
//! discounts run-queue waits from both clocks, but both sides searched less than on an idle
//! machine (the engines waited about three quarters of their thinking time for a CPU), so
//! the time-limited levels (7, 8) read low. Each figure is the maximum-likelihood estimate
//! with half its 95 % interval, from 20 games.
//!
//! Levels 6 and 7 were run on 28 Nov 2026 too (the same command, a build of main at
//! e66fa8d), at a load average of 7 to 10 (the engines waited for a CPU 39 % of their
//! thinking time): level 6 1900 ± 182, level 7 1826 ± 184. They are not entered: they put
//! level 7 below level 6, within the noise of 20 games on a busy machine, and a picker that
//! says so would mislead; they wait for a run on an idle machine with more games.

/// A level's measured strength on the Stockfish `UCI_Elo` scale.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Strength {
    /// Estimate and half the 95 % interval.
    About { elo: u32, margin: u32 },
    /// Lost every game against the lowest anchor: at most this (the estimate's bound).
    AtMost(u32),
    /// No measurement.
    NotMeasured,
}

/// One level's figure.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LevelStrength {
    pub level: u8,
    pub strength: Strength,
    /// Games played for the figure.
    pub games: u32,
}

/// Levels 1 to 8, in order.
pub const LEVELS: [LevelStrength; 8] = [
    LevelStrength { level: 1, strength: Strength::AtMost(1009), games: 20 },
    LevelStrength { level: 2, strength: Strength::About { elo: 1550, margin: 184 }, games: 20 },
    LevelStrength { level: 3, strength: Strength::About { elo: 1587, margin: 184 }, games: 20 },
    LevelStrength { level: 4, strength: Strength::About { elo: 1611, margin: 181 }, games: 20 },
    LevelStrength { level: 5, strength: Strength::About { elo: 1635, margin: 179 }, games: 20 },
    LevelStrength { level: 6, strength: Strength::NotMeasured, games: 0 },
    LevelStrength { level: 7, strength: Strength::NotMeasured, games: 0 },
    LevelStrength { level: 8, strength: Strength::About { elo: 1900, margin: 182 }, games: 20 },
];

/// The figure of `level` (1-8), `None` for another number.
pub fn strength(level: u8) -> Option<Strength> {
    LEVELS.iter().find(|l| l.level == level).map(|l| l.strength)
}

/// A short label for the level picker: "≈ 1550", "< 1010", or `None` when not measured.
pub fn label(level: u8) -> Option<String> {
    match strength(level)? {
        Strength::About { elo, .. } => Some(format!("≈ {}", (elo + 25) / 50 * 50)),
        Strength::AtMost(e) => Some(format!("< {}", e.div_ceil(10) * 10)),
        Strength::NotMeasured => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value to order the figures by (a bound counts as its bound).
    fn point(s: Strength) -> Option<u32> {
        match s {
            Strength::About { elo, .. } => Some(elo),
            Strength::AtMost(e) => Some(e),
            Strength::NotMeasured => None,
        }
    }

    #[test]
    fn the_measured_curve_rises_with_the_level() {
        let measured: Vec<u32> = LEVELS.iter().filter_map(|l| point(l.strength)).collect();
        assert!(measured.len() >= 2);
        assert!(measured.windows(2).all(|w| w[0] <= w[1]), "{measured:?}");
        for (i, l) in LEVELS.iter().enumerate() {
            assert_eq!(l.level as usize, i + 1);
            assert_eq!(l.games == 0, l.strength == Strength::NotMeasured);
        }
    }

    #[test]
    fn labels_round_the_figures() {
        assert_eq!(label(2).as_deref(), Some("≈ 1550"));
        assert_eq!(label(1).as_deref(), Some("< 1010"));
        assert_eq!(label(9), None);
    }
}
