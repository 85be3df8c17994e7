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
//! Levels 6 and 7 were redefined on 28 Nov 2026 (they were time-limited at 10+0.1 like
//! level 8, so they played as it did) and measured the same day with the same command (a
//! build of main at 8efaa42 with the new limits), at a load average of 3 to 6 (the engines
//! waited for a CPU 31 % and 17 % of their thinking time).
//!
//! Twenty games put a figure within about ±180 Elo, and neighbouring levels can be closer
//! than that: level 6 measured 24 below level 5. The order of the levels is established
//! otherwise, by self-play: each level against the one below it in a sequential test
//! (`crates/engine/tools/sprt.py --new-option Level=N --old-option Level=N-1`, H0 +0,
//! H1 +50 Elo; the results are in the README). The picker shows [`curve`]: the
//! measurements, pooled where the noise of twenty games inverted that order.

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
    LevelStrength { level: 6, strength: Strength::About { elo: 1611, margin: 181 }, games: 20 },
    LevelStrength { level: 7, strength: Strength::About { elo: 1806, margin: 173 }, games: 20 },
    LevelStrength { level: 8, strength: Strength::About { elo: 1900, margin: 182 }, games: 20 },
];

/// The figure of `level` (1-8), `None` for another number.
pub fn strength(level: u8) -> Option<Strength> {
    LEVELS.iter().find(|l| l.level == level).map(|l| l.strength)
}

/// The figures the picker shows, level by level: the measurements, where the noise of the
/// measurement put a level below the one under it pooled with it into one figure, their
/// mean weighted by each one's precision (1 / margin²): the pool-adjacent-violators fit of
/// a rising curve. Bounds ([`Strength::AtMost`]) and unmeasured levels are kept as they are.
pub fn curve() -> [Strength; 8] {
    let mut out = LEVELS.map(|l| l.strength);
    pool(&mut out);
    out
}

/// Pools, in place, the estimates of `figures` that break a rising order (see [`curve`]).
fn pool(figures: &mut [Strength]) {
    // Blocks of consecutive estimates: (weighted sum, weight, first index, last index).
    let mut blocks: Vec<(f64, f64, usize, usize)> = Vec::new();
    for (i, f) in figures.iter().enumerate() {
        let Strength::About { elo, margin } = *f else { continue };
        let w = 1.0 / f64::from(margin.max(1)).powi(2);
        blocks.push((f64::from(elo) * w, w, i, i));
        while let [.., a, b] = blocks.as_slice()
            && a.0 / a.1 > b.0 / b.1
        {
            let (a, b) = (*a, *b);
            blocks.truncate(blocks.len() - 2);
            blocks.push((a.0 + b.0, a.1 + b.1, a.2, b.3));
        }
    }
    for (sum, weight, first, last) in blocks {
        let elo = (sum / weight).round() as u32;
        for s in &mut figures[first..=last] {
            if let Strength::About { margin, .. } = *s {
                *s = Strength::About { elo, margin };
            }
        }
    }
}

/// A short label for the level picker, from [`curve`]: "≈ 1550", "< 1010", or `None` when
/// not measured.
pub fn label(level: u8) -> Option<String> {
    let i = LEVELS.iter().position(|l| l.level == level)?;
    match curve()[i] {
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
    fn every_level_is_measured_and_the_shown_curve_rises() {
        for (i, l) in LEVELS.iter().enumerate() {
            assert_eq!(l.level as usize, i + 1);
            assert!(l.games > 0 && l.strength != Strength::NotMeasured, "level {} has no figure", l.level);
        }
        let shown: Vec<u32> = curve().into_iter().filter_map(point).collect();
        assert_eq!(shown.len(), LEVELS.len());
        assert!(shown.windows(2).all(|w| w[0] <= w[1]), "{shown:?}");
    }

    /// Pooling mends only what the noise can explain: every measurement lies within its
    /// interval of the figure shown for it.
    #[test]
    fn the_shown_figures_stay_within_the_measurements_intervals() {
        for (l, shown) in LEVELS.iter().zip(curve()) {
            match (l.strength, shown) {
                (Strength::About { elo, margin }, Strength::About { elo: fit, .. }) => {
                    assert!(elo.abs_diff(fit) <= margin, "level {}: measured {elo} ± {margin}, shown {fit}", l.level)
                }
                (raw, shown) => assert_eq!(raw, shown),
            }
        }
    }

    #[test]
    fn pooling_merges_inverted_neighbours_into_their_weighted_mean() {
        let about = |elo, margin| Strength::About { elo, margin };
        // Rising already: unchanged, bounds and gaps kept.
        let rising = [Strength::AtMost(1000), about(1500, 100), Strength::NotMeasured, about(1700, 100)];
        let mut f = rising;
        pool(&mut f);
        assert_eq!(f, rising);
        // 1600 ± 100 then 1500 ± 200: one figure, nearer the more precise one (1580).
        let mut f = [about(1400, 100), about(1600, 100), about(1500, 200), about(1900, 100)];
        pool(&mut f);
        assert_eq!(f, [about(1400, 100), about(1580, 100), about(1580, 200), about(1900, 100)]);
        // A violation that reaches back merges the earlier block too: 1600, 1700, 1300.
        let mut f = [about(1600, 100), about(1700, 100), about(1300, 100)];
        pool(&mut f);
        assert_eq!(f, [about(1533, 100), about(1533, 100), about(1533, 100)]);
    }

    #[test]
    fn labels_round_the_figures() {
        assert_eq!(label(2).as_deref(), Some("≈ 1550"));
        assert_eq!(label(7).as_deref(), Some("≈ 1800"));
        assert_eq!(label(1).as_deref(), Some("< 1010"));
        assert_eq!(label(9), None);
    }
}
