//! Time management: how long a search may think, from UCI's limits.

use chimere_core::Colour;
use std::time::Duration;
// `std::time::Instant` panics on wasm32-unknown-unknown (the browser build, crates/wasm):
// there the clock is the page's `performance.now()`.
#[cfg(not(target_arch = "wasm32"))]
use std::time::Instant;
#[cfg(target_arch = "wasm32")]
use web_time::Instant;

/// What `go` asked for (every field optional; none = think until `stop`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Complete turns of search depth.
    pub depth: Option<u32>,
    /// Nodes (all threads).
    pub nodes: Option<u64>,
    /// Exact thinking time, milliseconds.
    pub movetime: Option<u64>,
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    /// Think until `stop` (also `go ponder`).
    pub infinite: bool,
}

/// The deadlines of one search.
#[derive(Clone, Debug)]
pub struct Clock {
    pub start: Instant,
    /// Do not start a new iteration after 60 % of this.
    pub soft: Option<Duration>,
    /// Stop at once when reached.
    pub hard: Option<Duration>,
}

impl Clock {
    /// Deadlines for `side` to move, keeping `overhead_ms` for the transmission.
    pub fn new(limits: &Limits, side: Colour, overhead_ms: u64) -> Clock {
        let start = Instant::now();
        if limits.infinite {
            return Clock { start, soft: None, hard: None };
        }
        if let Some(mt) = limits.movetime {
            // A fixed time is used in full: iterations go on until the hard limit.
            let t = mt.saturating_sub(overhead_ms.min(mt / 2)).max(1);
            return Clock { start, soft: Some(Duration::from_millis(2 * t)), hard: Some(Duration::from_millis(t)) };
        }
        let (time, inc) = match side {
            Colour::Black => (limits.btime, limits.binc),
            _ => (limits.wtime, limits.winc),
        };
        let Some(time) = time else { return Clock { start, soft: None, hard: None } };
        let inc = inc.unwrap_or(0);
        let left = time.saturating_sub(overhead_ms).max(1);
        let mtg = limits.movestogo.map_or(22, |m| m.clamp(1, 50)) as u64;
        let soft = (left / mtg + inc * 3 / 4).min(left / 2).max(1);
        let hard = if mtg == 1 { soft } else { soft.max((soft * 3).min(left / 5)) };
        Clock { start, soft: Some(Duration::from_millis(soft)), hard: Some(Duration::from_millis(hard.max(1))) }
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The hard deadline has passed.
    pub fn out_of_time(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// An iteration just finished: whether to start another one.
    pub fn another_iteration(&self) -> bool {
        self.soft.is_none_or(|s| self.start.elapsed() < s * 6 / 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_leave_most_time_on_the_clock() {
        let l = Limits { wtime: Some(1000), btime: Some(10_000), winc: Some(0), binc: Some(100), ..Limits::default() };
        let c = Clock::new(&l, Colour::White, 10);
        assert!(c.hard.unwrap() <= Duration::from_millis(250), "{c:?}");
        let c = Clock::new(&l, Colour::Black, 10);
        assert!(c.hard.unwrap() <= Duration::from_millis(2500), "{c:?}");
        let one = Limits { wtime: Some(2000), movestogo: Some(1), ..Limits::default() };
        assert!(Clock::new(&one, Colour::White, 10).hard.unwrap() < Duration::from_millis(2000));
    }

    #[test]
    fn movetime_is_kept() {
        let l = Limits { movetime: Some(1000), ..Limits::default() };
        let c = Clock::new(&l, Colour::White, 10);
        assert_eq!(c.hard, Some(Duration::from_millis(990)));
        assert!(Clock::new(&Limits { infinite: true, ..l }, Colour::White, 10).hard.is_none());
    }
}
