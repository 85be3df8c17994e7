//! Analysis behaviour, in every variant: an infinite search answers `stop` within 100 ms,
//! MultiPV reports distinct lines best first at every depth, a single-threaded search is
//! stopped by its poll (no other thread), and mates and king captures are reported as mate
//! scores in the lines.

use chimere_core::{Game, GameOptions};
use chimere_engine::pos::Api;
use chimere_engine::{History, Info, Limits, Score, Settings, Shared, Tt, search};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

const VARIANTS: [&str; 5] = ["chess", "checkered", "interweave", "fugue", "dynamo"];

/// Runs `f` on the start position of `variant`.
fn on_start<F: Probe>(variant: &str, f: F) -> F::Out {
    let opts = GameOptions::default();
    let kind = chimere_rules::VariantKind::parse(variant).unwrap();
    let rules = chimere_rules::Rules::of(kind, &opts);
    chimere_rules::with_rules!(rules, R => {
        let game = Game::<R>::new(opts).unwrap();
        f.run(game.position())
    })
}

trait Probe {
    type Out;
    fn run<V: Api>(self, pos: &V) -> Self::Out;
}

/// Every completed iteration's report: for each depth, lines 1..k in order, distinct first
/// turns, scores not increasing.
fn check_lines(variant: &str, infos: &[Info], want: usize) {
    assert!(!infos.is_empty(), "{variant}: no line reported");
    let mut depth = 0;
    let mut group: Vec<&Info> = Vec::new();
    let check = |g: &[&Info]| {
        if g.is_empty() {
            return;
        }
        assert_eq!(g.len(), want, "{variant}: {} lines at depth {}", g.len(), g[0].depth);
        for (k, i) in g.iter().enumerate() {
            assert_eq!(i.multipv, k + 1, "{variant}");
            assert!(!i.pv.is_empty(), "{variant}: empty line");
        }
        let firsts: std::collections::HashSet<_> = g.iter().map(|i| &i.pv[0]).collect();
        assert_eq!(firsts.len(), g.len(), "{variant}: a first turn twice at depth {}", g[0].depth);
        let value = |s: Score| match s {
            Score::Cp(c) => c as i64,
            Score::Mate(m) if m > 0 => 1_000_000 - m as i64,
            Score::Mate(m) => -1_000_000 - m as i64,
        };
        for w in g.windows(2) {
            assert!(value(w[0].score) >= value(w[1].score), "{variant}: lines not best first: {:?}", g);
        }
    };
    for i in infos {
        if i.depth != depth {
            check(&group);
            group.clear();
            depth = i.depth;
        }
        group.push(i);
    }
    check(&group);
}

struct Infinite {
    variant: &'static str,
}

impl Probe for Infinite {
    type Out = ();
    fn run<V: Api>(self, pos: &V) {
        let stop = Arc::new(AtomicBool::new(false));
        let shared = Shared::new(Arc::new(Tt::new(8)), stop.clone());
        let settings = Settings { multipv: 3, ..Settings::default() };
        let limits = Limits { infinite: true, ..Limits::default() };
        let mut infos = Vec::new();
        let (stopped_at, done_at, best) = std::thread::scope(|s| {
            let h = s.spawn(|| {
                let o = search(pos, &History::default(), &limits, &settings, &shared, &mut |i| infos.push(i.clone()));
                (Instant::now(), o.best.is_some())
            });
            std::thread::sleep(Duration::from_millis(400));
            let t = Instant::now();
            stop.store(true, Ordering::Relaxed);
            let (done, best) = h.join().unwrap();
            (t, done, best)
        });
        assert!(best, "{}: no best turn", self.variant);
        let lag = done_at.saturating_duration_since(stopped_at);
        eprintln!("{}: stop answered in {lag:?}", self.variant);
        assert!(lag < Duration::from_millis(100), "{}: stop took {lag:?}", self.variant);
        check_lines(self.variant, &infos, 3);
    }
}

#[test]
fn infinite_analysis_stops_at_once_with_stable_lines_in_every_variant() {
    for variant in VARIANTS {
        on_start(variant, Infinite { variant });
    }
}

struct Polled {
    variant: &'static str,
}

impl Probe for Polled {
    type Out = ();
    fn run<V: Api>(self, pos: &V) {
        // No other thread: the search asks its poll, which answers true from the 200th call.
        let calls = Arc::new(AtomicU64::new(0));
        let c = calls.clone();
        let shared = Shared::new(Arc::new(Tt::new(8)), Arc::new(AtomicBool::new(false)))
            .with_poll(move || c.fetch_add(1, Ordering::Relaxed) >= 200);
        let limits = Limits { infinite: true, ..Limits::default() };
        let settings = Settings { multipv: 2, ..Settings::default() };
        let mut infos = Vec::new();
        let o = search(pos, &History::default(), &limits, &settings, &shared, &mut |i| infos.push(i.clone()));
        assert!(o.best.is_some(), "{}", self.variant);
        let n = calls.load(Ordering::Relaxed);
        assert!((201..=202).contains(&n), "{}: the poll was asked {n} times", self.variant);
        check_lines(self.variant, &infos, 2);
    }
}

#[test]
fn a_single_threaded_search_stops_on_its_poll() {
    for variant in VARIANTS {
        on_start(variant, Polled { variant });
    }
}

/// The lines reported for `fen` (after `moves`) at `depth` with MultiPV 2: the first is a
/// mate in `n` for the side to move.
fn reports_mate<V: Api>(fen: &str, moves: &[&str], depth: u32, n: i32) {
    let mut pos = V::from_fen(fen).unwrap();
    for t in moves {
        let m = pos.parse_turn(t).unwrap();
        pos.make(&m);
    }
    let shared = Shared::new(Arc::new(Tt::new(8)), Arc::new(AtomicBool::new(false)));
    let settings = Settings { multipv: 2, ..Settings::default() };
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let mut infos = Vec::new();
    search(&pos, &History::default(), &limits, &settings, &shared, &mut |i| infos.push(i.clone()));
    let last = infos.iter().rev().find(|i| i.multipv == 1).expect("a line");
    assert_eq!(last.score, Score::Mate(n), "{} {fen}: {last:?}", V::NAME);
    // As many lines as asked, or as there are turns (Interweave's captures are compulsory).
    let mut legal = Vec::new();
    pos.legal_turns(&mut legal);
    check_lines(V::NAME, &infos, legal.len().min(2));
}

#[test]
fn mates_and_king_captures_are_reported_as_mate() {
    // Dynamo: rook and king push the king off the board (mate in two).
    reports_mate::<chimere_dynamo::Dynamo>(
        "k7/8/1K6/8/8/8/8/7R w 0 iiii -",
        &["h1c1", "a8b7", "b7b8,b6b7", "b7b6,0000"],
        5,
        2,
    );
    // Interweave: a side left with one king loses; capturing it is a mate in one.
    reports_mate::<chimere_interweave::Interweave>("k7/8/8/3k4/3K4/8/8/7K w 0 - 000000", &[], 3, 1);
    // Fugue: the king taken (no check in Fugue).
    reports_mate::<chimere_fugue::Fugue>("k7/8/8/8/8/8/8/Q6K w 0", &[], 3, 1);
    // Checkered and chess: a back-rank mate; and the side to move being mated.
    reports_mate::<chimere_checkered::Checkered>(
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w 0 iiii0000000000000000 - - 1",
        &[],
        3,
        1,
    );
    reports_mate::<chimere_chess::Chess>("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", &[], 5, 2);
    reports_mate::<chimere_chess::Chess>("6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1", &["g8h8"], 3, 1);
}
