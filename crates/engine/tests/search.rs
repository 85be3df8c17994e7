//! Search tests: mates found and checked by brute force with the rules, the table on and
//! off giving the same result, `stop` answered at once, levels choosing near-best turns.

use chimere_core::{Colour, Status, Variant};
use chimere_engine::pos::Api;
use chimere_engine::{History, Limits, Memory, Score, Settings, Shared, Tt, search};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn run<V: Api>(pos: &V, limits: &Limits, settings: &Settings) -> chimere_engine::Outcome<V::Move> {
    let shared = Shared::new(Arc::new(Tt::new(8)), Arc::new(AtomicBool::new(false)));
    search(pos, &History::default(), limits, settings, &shared, &mut |_| {})
}

fn depth(d: u32) -> Limits {
    Limits { depth: Some(d), ..Limits::default() }
}

/// Whether `winner` wins within `turns` of its own turns whatever the other side plays,
/// decided by the rules alone (status and legal turns).
fn forced_win<V: Api>(pos: &mut V, winner: Colour, turns: u32) -> bool {
    match pos.status() {
        Status::Ongoing => {}
        s => return s == Status::win_for(winner),
    }
    let mut list = Vec::new();
    pos.legal_turns(&mut list);
    if list.is_empty() {
        return false;
    }
    let mover = pos.side_to_move();
    if mover == winner && turns == 0 {
        return false;
    }
    let next = if mover == winner { turns - 1 } else { turns };
    let mut any = false;
    let mut all = true;
    for m in &list {
        let u = pos.make(m);
        let w = forced_win(pos, winner, next);
        pos.unmake(m, u);
        any |= w;
        all &= w;
        if mover == winner && any {
            return true;
        }
        if mover != winner && !all {
            return false;
        }
    }
    if mover == winner { any } else { all }
}

/// The engine finds the mate in `n` and its first turn really forces it.
fn assert_mate<V: Api>(fen: &str, n: i32) {
    assert_mate_after::<V>(fen, &[], n);
}

/// The same, in the position reached from `fen` by the turns `moves` (UCI tokens).
fn assert_mate_after<V: Api>(fen: &str, moves: &[&str], n: i32) {
    let mut pos = V::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for t in moves {
        let m = pos.parse_turn(t).unwrap_or_else(|e| panic!("{t}: {e}"));
        pos.make(&m);
    }
    let settings = Settings::default();
    let o = run(&pos, &depth(2 * n as u32 + 1), &settings);
    let m = o.best.expect("a turn");
    assert_eq!(Score::from_internal(o.score), Score::Mate(n), "{} {fen}: score {}", V::NAME, o.score);
    let mut p = pos.clone();
    let winner = p.side_to_move();
    p.make(&m);
    assert!(
        forced_win(&mut p, winner, n as u32 - 1),
        "{} {fen}: {} does not force the mate",
        V::NAME,
        pos.uci(&m, false)
    );
}

#[test]
fn chess_mates() {
    // Back-rank mate in one.
    assert_mate::<chimere_chess::Chess>("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1);
    // Two rooks: mate in two (ladder).
    assert_mate::<chimere_chess::Chess>("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", 2);
    // Black to move mates in one.
    assert_mate::<chimere_chess::Chess>("1r4k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", 1);
}

#[test]
fn checkered_mate() {
    assert_mate::<chimere_checkered::Checkered>("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w 0 iiii0000000000000000 - - 1", 1);
}

#[test]
fn interweave_king_capture() {
    // A side left with one king loses: the white king leaps over the d5 king.
    assert_mate::<chimere_interweave::Interweave>("k7/8/8/3k4/3K4/8/8/7K w 0 - 000000", 1);
}

#[test]
fn fugue_king_capture() {
    // The queen takes the king (no check in Fugue): the game is won in one turn.
    assert_mate::<chimere_fugue::Fugue>("k7/8/8/8/8/8/8/Q6K w 0", 1);
    // Black to move takes the white king with its own queen.
    assert_mate::<chimere_fugue::Fugue>("q6k/8/8/8/8/8/8/K7 b 0", 1);
}

#[test]
fn dynamo_mate() {
    // Rook and king against king: after a few turns, mate in two (the king, on the
    // edge, can be pushed off and has no safe turn).
    assert_mate_after::<chimere_dynamo::Dynamo>(
        "k7/8/1K6/8/8/8/8/7R w 0 iiii -",
        &["h1c1", "a8b7", "b7b8,b6b7", "b7b6,0000"],
        2,
    );
}

#[test]
fn table_on_and_off_agree() {
    let fens = [
        "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        // Two rooks against the king: a ladder.
        "8/k7/8/8/8/8/8/K5RR w - - 0 1",
    ];
    // Depth 6: the ladder's mate in 3 starts with a quiet turn that is no check, which
    // late-move reductions may see only a ply later when the table does not order it first.
    for fen in fens {
        let pos = chimere_chess::Chess::from_fen(fen).unwrap();
        let on = run(&pos, &depth(6), &Settings::default());
        let off = run(&pos, &depth(6), &Settings { use_tt: false, ..Settings::default() });
        assert_eq!(on.score, off.score, "{fen}");
        assert!(on.score > chimere_engine::search::MATE_BOUND, "{fen}: {}", on.score);
    }
    // A knight fork wins the queen: the same turn either way.
    let pos = chimere_chess::Chess::from_fen("2q1k3/8/8/1N6/8/8/8/4K3 w - - 0 1").unwrap();
    let on = run(&pos, &depth(5), &Settings::default());
    let off = run(&pos, &depth(5), &Settings { use_tt: false, ..Settings::default() });
    assert_eq!(pos.uci(&on.best.unwrap(), false), "b5d6");
    assert_eq!(on.best, off.best);
}

#[test]
fn stop_is_prompt() {
    let pos =
        chimere_chess::Chess::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let shared = Shared::new(Arc::new(Tt::new(8)), stop.clone());
    let settings = Settings { threads: 2, ..Settings::default() };
    let limits = Limits { infinite: true, ..Limits::default() };
    let (stopped_at, done_at) = std::thread::scope(|s| {
        let h = s.spawn(|| {
            let o = search(&pos, &History::default(), &limits, &settings, &shared, &mut |_| {});
            (o, Instant::now())
        });
        std::thread::sleep(Duration::from_millis(300));
        let t = Instant::now();
        stop.store(true, Ordering::Relaxed);
        let (o, done) = h.join().unwrap();
        assert!(o.best.is_some());
        (t, done)
    });
    let lag = done_at.saturating_duration_since(stopped_at);
    assert!(lag < Duration::from_millis(100), "stop took {lag:?}");
}

#[test]
fn no_turn_no_move() {
    // Black is mated: nothing to play.
    let pos = chimere_chess::Chess::from_fen("R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1").unwrap();
    assert!(run(&pos, &depth(3), &Settings::default()).best.is_none());
}

#[test]
fn threefold_repetition_is_a_draw_in_the_tree() {
    // White, a queen down, draws by playing into a position seen twice before.
    let pos = chimere_chess::Chess::from_fen("4k3/8/8/8/8/8/3q4/7K w - - 0 1").unwrap();
    let mut legal = Vec::new();
    let mut p = pos.clone();
    p.legal_turns(&mut legal);
    let m = *legal.iter().find(|m| pos.uci(m, false) == "h1g1").unwrap();
    p.make(&m);
    let seen = p.hash();
    let history = History { hashes: vec![seen, 11, 12, seen, 13, 14], halfmove: 10 };
    let shared = Shared::new(Arc::new(Tt::new(8)), Arc::new(AtomicBool::new(false)));
    let o = search(&pos, &history, &depth(4), &Settings::default(), &shared, &mut |_| {});
    assert_eq!(pos.uci(&o.best.unwrap(), false), "h1g1");
    assert_eq!(o.score, -chimere_engine::search::CONTEMPT);
    // Without that history the same position is lost.
    let o = run(&pos, &depth(4), &Settings::default());
    assert!(o.score < -500, "{}", o.score);
}

#[test]
fn fugue_completing_a_threefold_repetition_loses() {
    let pos = chimere_fugue::Fugue::from_fen("k7/1p6/8/8/8/8/P7/K6Q w 0").unwrap();
    let mut p = pos.clone();
    let mut legal = Vec::new();
    p.legal_turns(&mut legal);
    // A queen move: reversible, so the repetition can span it.
    let m = *legal.iter().find(|m| !pos.resets_fifty(m)).unwrap();
    let token = pos.uci(&m, false);
    p.make(&m);
    let seen = p.hash();
    let history = History { hashes: vec![seen, 11, seen, 12], halfmove: 4 };
    let shared = Shared::new(Arc::new(Tt::new(8)), Arc::new(AtomicBool::new(false)));
    let settings = Settings { multipv: legal.len(), ..Settings::default() };
    let mut scores = std::collections::HashMap::new();
    let o = search(&pos, &history, &depth(1), &settings, &shared, &mut |i| {
        scores.insert(i.pv[0].clone(), i.score);
    });
    assert_eq!(scores.get(&token), Some(&Score::Mate(-1)), "{token}: {scores:?}");
    assert_ne!(o.best, Some(m));
    // In chess the same repetition is a draw.
    assert_eq!(chimere_chess::Chess::RULES.repetition, chimere_core::Repetition::Draw);
}

#[test]
fn levels_choose_among_near_best() {
    // Any level keeps a free queen capture: the other turns lose too much.
    let pos = chimere_chess::Chess::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1").unwrap();
    for level in 1..=8 {
        for seed in 0..4 {
            let s = Settings { level, seed, ..Settings::default() };
            let o = run(&pos, &depth(6), &s);
            assert_eq!(pos.uci(&o.best.unwrap(), false), "e4d5", "level {level} seed {seed}");
        }
    }
}

#[test]
fn chess_pass_is_taken_back_exactly() {
    let mut p = chimere_chess::Chess::from_fen("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3").unwrap();
    let before = (p.fen(), p.hash());
    let u = p.make_pass().expect("chess can pass");
    assert_eq!(p.side_to_move(), Colour::Black);
    assert_ne!(p.hash(), before.1);
    assert_eq!(p.hash(), p.recomputed_hash());
    p.unmake_pass(u);
    assert_eq!((p.fen(), p.hash()), before);
    // The other games have no pass.
    let mut f = chimere_fugue::Fugue::from_fen(chimere_fugue::START_FEN).unwrap();
    assert!(f.make_pass().is_none());
}

/// `Settings::numbers` chooses the evaluation numbers: where a variant's numbers were
/// fitted, the hand-set ones score the same position differently (a setting the search
/// ignored would give equal scores).
#[test]
fn the_hand_set_numbers_are_played_when_asked() {
    use chimere_engine::search::Numbers;
    fn scores<V: Api>(pos: &V) -> (i32, i32) {
        let current = run(pos, &depth(2), &Settings::default()).score;
        let hand = run(pos, &depth(2), &Settings { numbers: Numbers::HandSet, ..Settings::default() }).score;
        (current, hand)
    }
    let chess =
        chimere_rules::types::Chess::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            .unwrap();
    let (c, h) = scores(&chess);
    assert_ne!(c, h, "chess: the fitted and hand-set numbers gave the same score");
    let fugue = chimere_core::Game::<chimere_rules::types::Fugue>::new(Default::default()).unwrap();
    let (c, h) = scores(fugue.position());
    assert_ne!(c, h, "Fugue: the fitted and hand-set numbers gave the same score");
}

/// In a few plies of every variant's start (the first turns of each node): the noisy turns
/// then the quiet ones are the whole list, each part in the whole list's order, and a
/// turn said beforehand to give check (or not) does so once played.
#[test]
fn split_generation_and_check_foresight_agree_with_the_whole_list() {
    fn walk<V: Variant>(pos: &mut V, depth: u32) {
        let mut all = Vec::new();
        pos.legal_turns(&mut all);
        let mut parts = Vec::new();
        assert_eq!(pos.noisy_turns(&mut parts), !all.is_empty());
        let noisy = parts.len();
        pos.quiet_turns(&mut parts);
        let (n, q): (Vec<_>, Vec<_>) = all.iter().partition(|m| pos.is_noisy(m));
        assert_eq!(parts[..noisy].iter().collect::<Vec<_>>(), n, "{}", pos.fen());
        assert_eq!(parts[noisy..].iter().collect::<Vec<_>>(), q, "{}", pos.fen());
        // Captures first, so that the walk meets some.
        let mut order: Vec<_> = n.into_iter().chain(q).copied().collect();
        order.truncate(6);
        for m in &order {
            let check = pos.gives_check(m);
            let u = pos.make(m);
            if let Some(c) = check {
                assert_eq!(c, pos.in_check());
            }
            if depth > 1 {
                walk(pos, depth - 1);
            }
            pos.unmake(m, u);
        }
    }
    for variant in ["chess", "checkered", "interweave", "fugue", "dynamo"] {
        let opts = chimere_core::GameOptions::default();
        let kind = chimere_rules::VariantKind::parse(variant).unwrap();
        let rules = chimere_rules::Rules::of(kind, &opts);
        chimere_rules::with_rules!(rules, R => {
            let game = chimere_core::Game::<R>::new(opts).unwrap();
            walk(&mut game.position().clone(), 4);
        });
    }
}

/// On random games of every variant (Chess960 arrays too; captures played half the time, so
/// that material comes off, pawns promote and endings are reached): at every position the
/// noisy turns and the quiet turns are disjoint and together the whole list, each part in
/// the whole list's order, and the noisy list tells whether any turn is legal. Staged
/// generation in the search relies on it.
#[test]
fn noisy_and_quiet_turns_partition_the_legal_turns_on_random_games() {
    fn check<V: Variant>(pos: &mut V) -> (Vec<V::Move>, Vec<V::Move>) {
        let mut all = Vec::new();
        pos.legal_turns(&mut all);
        let mut parts = Vec::new();
        assert_eq!(pos.noisy_turns(&mut parts), !all.is_empty(), "{}", pos.fen());
        let noisy = parts.len();
        pos.quiet_turns(&mut parts);
        let (n, q) = parts.split_at(noisy);
        assert!(n.iter().all(|m| pos.is_noisy(m)), "a quiet turn among the noisy ones: {}", pos.fen());
        assert!(q.iter().all(|m| !pos.is_noisy(m)), "a noisy turn among the quiet ones: {}", pos.fen());
        let (all_n, all_q): (Vec<V::Move>, Vec<V::Move>) = all.iter().partition(|m| pos.is_noisy(m));
        assert_eq!(n, &all_n[..], "noisy turns: {}", pos.fen());
        assert_eq!(q, &all_q[..], "quiet turns: {}", pos.fen());
        (all_n, all_q)
    }
    fn walk<V: Variant>(pos: &mut V, plies: u32, rng: &mut u64) -> (u32, u32) {
        let mut next = || {
            *rng ^= *rng << 13;
            *rng ^= *rng >> 7;
            *rng ^= *rng << 17;
            *rng
        };
        let (mut positions, mut with_noisy) = (0, 0);
        for _ in 0..plies {
            let (n, q) = check(pos);
            positions += 1;
            with_noisy += u32::from(!n.is_empty());
            let list = if !n.is_empty() && (q.is_empty() || next() % 2 == 0) { n } else { q };
            if list.is_empty() || pos.status() != Status::Ongoing {
                break;
            }
            let m = list[(next() % list.len() as u64) as usize];
            pos.make(&m);
        }
        (positions, with_noisy)
    }
    for variant in ["chess", "checkered", "interweave", "fugue", "dynamo"] {
        // Dynamo's lists are long: fewer games.
        let games = if variant == "dynamo" { 10 } else { 100 };
        let (mut positions, mut with_noisy) = (0, 0);
        for g in 0..games {
            let opts = chimere_core::GameOptions {
                randomness: (g % 3) as u8,
                seed: g,
                ..chimere_core::GameOptions::default()
            };
            let kind = chimere_rules::VariantKind::parse(variant).unwrap();
            let rules = chimere_rules::Rules::of(kind, &opts);
            let mut rng = 0x9E37_79B9_7F4A_7C15 ^ (g + 1);
            chimere_rules::with_rules!(rules, R => {
                let game = chimere_core::Game::<R>::new(opts).unwrap();
                let (p, w) = walk(&mut game.position().clone(), 200, &mut rng);
                positions += p;
                with_noisy += w;
            });
        }
        // The walk met captures (or promotions) often enough to test the noisy lists.
        assert!(with_noisy * 8 > positions, "{variant}: {with_noisy} of {positions} positions with a noisy turn");
    }
}

/// A search with a [`Memory`] starts from the history the previous one left (a different
/// tree at the same depth), and a cleared memory searches as a fresh start does.
#[test]
fn a_search_starts_from_the_history_the_previous_one_left() {
    let pos =
        chimere_chess::Chess::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4").unwrap();
    // Without the table, so that the history is the only thing carried over.
    let settings = Settings { use_tt: false, ..Settings::default() };
    let nodes = |memory: &Arc<Memory>| {
        let shared = Shared::new(Arc::new(Tt::new(1)), Arc::new(AtomicBool::new(false))).with_memory(memory.clone());
        search(&pos, &History::default(), &depth(6), &settings, &shared, &mut |_| {}).nodes
    };
    let memory = Arc::new(Memory::default());
    let fresh = nodes(&memory);
    let carried = nodes(&memory);
    assert_ne!(fresh, carried, "the second search did not start from the first one's history");
    memory.clear();
    assert_eq!(nodes(&memory), fresh, "a cleared memory is a fresh start");
}
