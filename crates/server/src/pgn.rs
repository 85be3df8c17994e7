//! PGN export and import for every variant.
//!
//! - Orthodox chess from the standard array: the plain PGN lichess and python-chess
//!   import unchanged (Seven Tag Roster, SAN, `[TimeControl]`, no variant tag); from
//!   another position `[SetUp "1"]` and a standard `[FEN]`; Chess960 `[Variant "Chess960"]`
//!   and an X-FEN.
//! - Other variants: `[Variant "<label>"]`, `[SetUp "1"]`, `[FEN]` in the variant's FEN,
//!   `[VariantParams "switch=off"]` when the variant has parameters set, and the moves in
//!   the variant's notation as the move list shows them — except where the notation is
//!   ambiguous in its position (two legal turns written alike) or has a space: then the
//!   turn's UCI token, which is always unique.
//! - Chess under fairy conditions: `[Variant "Fairy chess"]` and `[Conditions "circe,
//!   glasgow"]` (the names the lobby and `chimere moves -c` take), Popeye's notation.
//!
//! Import reads all of these back (and the older `[Options]` JSON tag), and ordinary PGN
//! from elsewhere: comments, variations, NAGs and move numbers are skipped.

use crate::protocol::Side;
use crate::round::{Seat, copy_fen};
use crate::rules::{self, DynGame};
use crate::setup::Setup;
use crate::store::{GameRecord, MoveRecord};
use chimere_rules::VariantKind;

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Names as PGN has them.
fn seat_name(id: &Option<String>, n: &Option<String>) -> String {
    Seat::parse(id.as_deref(), n.clone()).map(|s| s.label()).unwrap_or_else(|_| "?".into())
}

/// The PGN of a stored game. Errors (a stored game that does not replay) name the game.
pub fn export(g: &GameRecord, setup: &Setup, moves: &[MoveRecord]) -> Result<String, String> {
    let kind = VariantKind::from_name(&g.variant).ok_or_else(|| format!("game {}: unknown variant", g.id))?;
    let mut game =
        rules::create_kind(kind, setup.options(), Some(&g.start_fen)).map_err(|e| format!("game {}: {e}", g.id))?;
    let orthodox = kind == VariantKind::Chess && setup.conditions.is_empty();
    let mut out = String::new();
    let mut tag = |k: &str, v: &str| out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    tag("Event", "Chimère game");
    tag("Site", &format!("chimere/{}", g.id));
    tag("Date", &civil(g.created_ms / 86_400_000, '.'));
    tag("Round", "-");
    tag("White", &seat_name(&g.white, &g.white_name));
    tag("Black", &seat_name(&g.black, &g.black_name));
    tag("Result", &g.result);
    let standard_start =
        game.fen() == rules::create_kind(kind, Default::default(), None).map(|s| s.fen()).unwrap_or_default();
    if orthodox {
        if setup.chess960 {
            tag("Variant", "Chess960");
        }
        if !standard_start || setup.chess960 {
            tag("SetUp", "1");
            tag("FEN", &copy_fen(kind, &g.start_fen, 0));
        }
    } else {
        if kind == VariantKind::Chess {
            tag("Variant", "Fairy chess");
            tag("Conditions", &setup.conditions.join(", "));
        } else {
            tag("Variant", kind.descriptor().pgn_variant);
        }
        if !setup.params.is_empty() {
            let p: Vec<String> = setup.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
            tag("VariantParams", &p.join(" "));
        }
        tag("SetUp", "1");
        tag("FEN", &g.start_fen);
    }
    if let Some(i) = g.initial_ms {
        tag("TimeControl", &format!("{}+{}", i / 1000, g.increment_ms / 1000));
    }
    if !g.reason.is_empty() {
        tag("Termination", &g.reason);
    }
    out.push('\n');
    let mut words: Vec<String> = Vec::new();
    let mut last: Option<(Side, u32)> = None;
    let mut number = 1;
    for m in moves {
        let side = if game.side_to_move() == chimere_core::Colour::White { Side::White } else { Side::Black };
        if last.is_some_and(|(s, _)| s == Side::Black && side == Side::White) {
            number += 1;
        }
        match (last, side) {
            (Some((s, _)), _) if s == side => {}
            (_, Side::White) => words.push(format!("{number}.")),
            (_, Side::Black) => words.push(format!("{number}...")),
        }
        last = Some((side, number));
        let legal = game.legal();
        let bare = |n: &str| n.trim_end_matches(['+', '#']).to_string();
        let ambiguous = legal.iter().filter(|t| bare(&t.notation) == bare(&m.notation)).count() > 1;
        let text = if ambiguous || m.notation.contains(char::is_whitespace) || m.notation.is_empty() {
            m.uci.clone()
        } else {
            m.notation.clone()
        };
        game.play(&m.canonical).map_err(|e| format!("game {}: stored move {}: {e}", g.id, m.ply))?;
        words.push(text);
    }
    words.push(g.result.clone());
    // Lines of at most 80 characters.
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push('\n');
    Ok(out)
}

/// Days since 1970-01-01 as a date of the proleptic Gregorian calendar, `YYYY{sep}MM{sep}DD`
/// (PGN separates with `.`, ISO 8601 with `-`).
pub(crate) fn civil(days: i64, sep: char) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}{sep}{m:02}{sep}{d:02}")
}

/// A game read from PGN.
pub struct Imported {
    pub tags: Vec<(String, String)>,
    pub variant: String,
    pub setup: Setup,
    pub game: Box<dyn DynGame>,
    pub result: String,
}

impl Imported {
    pub fn tag(&self, k: &str) -> Option<&str> {
        self.tags.iter().find(|(a, _)| a.eq_ignore_ascii_case(k)).map(|(_, v)| v.as_str())
    }
}

/// Reads one game; every turn must be legal. Errors are one line.
pub fn import(text: &str) -> Result<Imported, String> {
    let mut tags = Vec::new();
    let mut body = String::new();
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') && l.ends_with(']') {
            let inner = &l[1..l.len() - 1];
            let (k, v) = inner.split_once(' ').ok_or_else(|| format!("bad tag line `{l}`"))?;
            let v = v.trim();
            let v = v
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .ok_or_else(|| format!("bad tag value in `{l}`"))?;
            tags.push((k.to_string(), v.replace("\\\"", "\"").replace("\\\\", "\\")));
        } else if !l.starts_with('%') {
            body.push_str(l);
            body.push(' ');
        }
    }
    let tag =
        |k: &str| tags.iter().find(|(a, _): &&(String, String)| a.eq_ignore_ascii_case(k)).map(|(_, v)| v.clone());
    let variant_tag = tag("Variant").unwrap_or_else(|| "chess".into());
    let kind = VariantKind::from_name(&variant_tag)
        .or_else(|| {
            VariantKind::ALL.into_iter().find(|k| k.descriptor().pgn_variant.eq_ignore_ascii_case(variant_tag.trim()))
        })
        .ok_or_else(|| format!("unknown variant `{variant_tag}` (known: {})", rules::names().join(", ")))?;
    let variant = kind.name().to_string();
    let mut setup: Setup = match tag("Options") {
        Some(o) => serde_json::from_str(&o).map_err(|e| format!("bad Options tag: {e}"))?,
        None => Setup::default(),
    };
    if variant_tag.eq_ignore_ascii_case("chess960") || variant_tag.eq_ignore_ascii_case("fischerandom") {
        setup.chess960 = true;
    }
    if let Some(c) = tag("Conditions") {
        setup.conditions = c.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
    }
    if let Some(p) = tag("VariantParams") {
        setup.params = p
            .split_whitespace()
            .map(|kv| {
                kv.split_once('=')
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .ok_or_else(|| format!("bad VariantParams `{kv}`"))
            })
            .collect::<Result<_, _>>()?;
    }
    let fen = tag("FEN");
    let mut game = rules::create(&variant, setup.options(), fen.as_deref()).map_err(|e| e.to_string())?;
    // Strip comments and variations.
    let mut clean = String::new();
    let mut depth_brace = 0;
    let mut depth_paren = 0;
    for c in body.chars() {
        match c {
            '{' => depth_brace += 1,
            '}' if depth_brace > 0 => depth_brace -= 1,
            '(' if depth_brace == 0 => depth_paren += 1,
            ')' if depth_brace == 0 && depth_paren > 0 => depth_paren -= 1,
            _ if depth_brace == 0 && depth_paren == 0 => clean.push(c),
            _ => {}
        }
    }
    let mut result = "*".to_string();
    for tok in clean.split_whitespace() {
        if ["1-0", "0-1", "1/2-1/2", "*"].contains(&tok) {
            result = tok.to_string();
            continue;
        }
        if tok.starts_with('$') {
            continue;
        }
        // Move numbers: `12.` or `12...`, possibly glued to the move (`12.e4`).
        let t = tok.trim_start_matches(|c: char| c.is_ascii_digit());
        let t = if t.len() < tok.len() && t.starts_with('.') { t.trim_start_matches('.') } else { tok };
        if t.is_empty() {
            continue;
        }
        let t = t.trim_end_matches(['!', '?']);
        game.play(t).map_err(|e| format!("turn {} `{t}`: {e}", game.ply() + 1))?;
    }
    Ok(Imported { tags, variant, setup, game, result })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil(0, '.'), "1970.01.01");
        assert_eq!(civil(20_454, '.'), "2026.01.01");
    }

    /// A game of `variant` under `setup`: `n` turns chosen deterministically, stored as
    /// the server stores them.
    fn played(variant: &str, setup: &Setup, n: usize, seed: usize) -> (GameRecord, Vec<MoveRecord>, String) {
        let mut g = rules::create(variant, setup.options(), None).unwrap();
        let start = g.fen();
        let mut moves = Vec::new();
        for i in 0..n {
            let legal = g.legal();
            if legal.is_empty() || g.outcome().status != chimere_core::Status::Ongoing {
                break;
            }
            let t = legal[(i * 7 + seed * 13) % legal.len()].clone();
            g.play(&t.canonical).unwrap();
            moves.push(MoveRecord {
                ply: i as u32 + 1,
                uci: t.uci,
                canonical: t.canonical,
                notation: t.notation,
                white_ms: 0,
                black_ms: 0,
                at_ms: 0,
            });
        }
        let rec = GameRecord {
            id: "x".into(),
            variant: variant.into(),
            setup: serde_json::to_string(setup).unwrap(),
            start_fen: start,
            white: Some("a".into()),
            white_name: Some("Ann".into()),
            black: Some("bot:3".into()),
            result: "*".into(),
            ..GameRecord::default()
        };
        let fen = g.fen();
        (rec, moves, fen)
    }

    #[test]
    fn every_variant_and_a_condition_game_round_trip() {
        let circe = Setup { conditions: vec!["circe".into(), "glasgow".into()], ..Setup::default() };
        let no_switch = Setup { params: vec![("switch".into(), "off".into())], ..Setup::default() };
        let c960 = Setup { chess960: true, randomness: 1, seed: 7, ..Setup::default() };
        let mut cases: Vec<(String, Setup)> =
            chimere_rules::names().iter().map(|n| (n.to_string(), Setup::default())).collect();
        cases.push(("chess".into(), circe));
        cases.push(("checkered".into(), no_switch));
        cases.push(("chess".into(), c960));
        for (variant, setup) in cases {
            for seed in 0..3 {
                let (rec, moves, fen) = played(&variant, &setup, 40, seed);
                let text = export(&rec, &setup, &moves).unwrap();
                let back = import(&text).unwrap_or_else(|e| panic!("{variant}: {e}\n{text}"));
                assert_eq!(back.variant, variant);
                assert_eq!(back.setup.conditions, setup.conditions, "{text}");
                assert_eq!(back.setup.params, setup.params, "{text}");
                let mut game = back.game;
                assert_eq!(game.fen(), fen, "{variant}: {text}");
                assert_eq!(game.history().len(), moves.len());
                assert!(!text.contains("bot:"), "{text}");
                if variant != "chess" || !setup.conditions.is_empty() {
                    assert!(text.contains("[Variant "), "{text}");
                }
            }
        }
    }

    #[test]
    fn orthodox_chess_is_plain_pgn() {
        let (rec, moves, _) = played("chess", &Setup::default(), 30, 1);
        let text = export(&rec, &Setup::default(), &moves).unwrap();
        for t in ["[Variant", "[SetUp", "[FEN", "[Options", "{"] {
            assert!(!text.contains(t), "{t} in\n{text}");
        }
        assert!(text.contains("[Round \"-\"]") && text.contains("1. "), "{text}");
        // A Chess960 game carries a standard (X-FEN) start position.
        let c960 = Setup { chess960: true, randomness: 1, seed: 3, ..Setup::default() };
        let (rec, moves, _) = played("chess", &c960, 10, 2);
        let text = export(&rec, &c960, &moves).unwrap();
        let fen = text.lines().find(|l| l.starts_with("[FEN")).unwrap();
        assert!(fen.ends_with(" 0 1\"]"), "{fen}");
    }

    /// python-chess reads our chess PGN unchanged: same moves, same final position.
    /// Needs `python3` with the `chess` package (`pip install chess`); skipped with a
    /// notice without it, failing instead when `CHIMERE_REQUIRE_PYCHESS` is set (CI).
    #[test]
    fn python_chess_reads_our_chess_pgn() {
        let ok = std::process::Command::new("python3")
            .args(["-c", "import chess.pgn"])
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            assert!(std::env::var_os("CHIMERE_REQUIRE_PYCHESS").is_none(), "python3 with python-chess is required");
            eprintln!("SKIPPED: python3 with the `chess` package (pip install chess) is not available");
            return;
        }
        let script = "import sys, chess.pgn\n\
g = chess.pgn.read_game(sys.stdin)\n\
assert not g.errors, g.errors\n\
b = g.end().board()\n\
print(len(list(g.mainline_moves())), b.fen())\n";
        let c960 = Setup { chess960: true, randomness: 1, seed: 11, ..Setup::default() };
        for (setup, seed) in [(Setup::default(), 0), (Setup::default(), 4), (c960, 5)] {
            let (rec, moves, _) = played("chess", &setup, 60, seed);
            let text = export(&rec, &setup, &moves).unwrap();
            let mut child = std::process::Command::new("python3")
                .args(["-c", script])
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            use std::io::Write;
            child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
            let out = child.wait_with_output().unwrap();
            assert!(out.status.success(), "{}\n{text}", String::from_utf8_lossy(&out.stderr));
            let got = String::from_utf8_lossy(&out.stdout).trim().to_string();
            let (n, fen) = got.split_once(' ').unwrap();
            assert_eq!(n.parse::<usize>().unwrap(), moves.len(), "{text}");
            // Our position after the last move, as standard FEN (python-chess writes
            // the castling rights as X-FEN too).
            let g = import(&text).unwrap().game;
            let ours = copy_fen(VariantKind::Chess, &g.fen(), 0);
            let board = |f: &str| f.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
            assert_eq!(board(fen), board(&ours), "{text}");
            let _ = g.ply();
        }
    }

    #[test]
    fn a_lichess_pgn_imports() {
        let text = r#"[Event "Rated Blitz game"]
[Site "https://lichess.org/abcdefgh"]
[Date "2024.01.01"]
[White "someone"]
[Black "other"]
[Result "1-0"]
[UTCDate "2024.01.01"]
[WhiteElo "1500"]
[BlackElo "1490"]
[Variant "Standard"]
[TimeControl "300+0"]
[ECO "C50"]
[Termination "Normal"]

1. e4 { [%clk 0:05:00] } 1... e5 { [%clk 0:05:00] } 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6 5. d4 exd4
6. cxd4 Bb4+ 7. Bd2 Bxd2+ 8. Nbxd2 d5!? 9. exd5 Nxd5 10. Qb3 Na5?! 11. Qa4+ c6 12. Bxd5 Qxd5
13. O-O O-O (13... Be6 14. Rfe1) 14. Qxa5 $1 1-0
"#;
        let g = import(text).unwrap();
        assert_eq!((g.variant.as_str(), g.result.as_str()), ("chess", "1-0"));
        assert_eq!(g.game.ply(), 27);
        assert_eq!(g.tag("White"), Some("someone"));
        assert!(import("[Variant \"nope\"]\n1. e4").err().unwrap().contains("unknown variant"));
        assert!(import("1. e5").err().unwrap().contains("turn 1"));
    }
}
