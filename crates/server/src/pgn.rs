//! PGN export and import for every variant: `[Variant "..."]`, `[FEN "..."]` (always, the
//! start position in the variant's FEN), `[Conditions "..."]` (fairy conditions, `,`
//! separated) and `[Options "..."]` (the game's options as JSON). Orthodox chess turns are
//! written in SAN; every other game's as UCI tokens (unique within a position, which the
//! vchess notations are not); import accepts the notation, the UCI token or the canonical
//! form of each turn.

use crate::rules::{self, DynGame};
use crate::setup::Setup;
use crate::store::{GameRecord, MoveRecord};

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The PGN of a stored game.
pub fn export(g: &GameRecord, setup: &Setup, moves: &[MoveRecord]) -> String {
    let date = {
        let days = g.created_ms / 86_400_000;
        civil(days)
    };
    let name = |id: &Option<String>, n: &Option<String>| match id {
        Some(p) if p.starts_with("bot:") => format!("Computer level {}", &p[4..]),
        Some(_) => n.clone().unwrap_or_else(|| "Anonymous".into()),
        None => "?".into(),
    };
    let mut out = String::new();
    let mut tag = |k: &str, v: &str| out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    tag("Event", "Chimère game");
    tag("Site", &format!("chimere/{}", g.id));
    tag("Date", &date);
    tag("White", &name(&g.white, &g.white_name));
    tag("Black", &name(&g.black, &g.black_name));
    tag("Result", &g.result);
    tag("Variant", &g.variant);
    tag("FEN", &g.start_fen);
    tag("SetUp", "1");
    if !setup.conditions.is_empty() {
        tag("Conditions", &setup.conditions.join(","));
    }
    tag("Options", &serde_json::to_string(setup).unwrap_or_default());
    if let Some(i) = g.initial_ms {
        tag("TimeControl", &format!("{}+{}", i / 1000, g.increment_ms / 1000));
    }
    if !g.reason.is_empty() {
        tag("Termination", &g.reason);
    }
    out.push('\n');
    let mut line = String::new();
    for (i, m) in moves.iter().enumerate() {
        if i % 2 == 0 {
            line.push_str(&format!("{}. ", i / 2 + 1));
        }
        let text = if g.variant == "chess" && setup.conditions.is_empty() && !m.notation.contains(char::is_whitespace) {
            &m.notation
        } else {
            &m.uci
        };
        line.push_str(text);
        line.push(' ');
    }
    line.push_str(&g.result);
    out.push_str(&line);
    out.push('\n');
    out
}

/// Days since 1970-01-01 as `YYYY.MM.DD`.
fn civil(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
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
    let variant = tag("Variant").map(|v| v.to_lowercase()).unwrap_or_else(|| "chess".into());
    let variant = match variant.as_str() {
        "standard" | "chess960" | "fischerandom" | "from position" => "chess".to_string(),
        other => other.to_string(),
    };
    if !rules::names().contains(&variant.as_str()) {
        return Err(format!("unknown variant `{variant}` (known: {})", rules::names().join(", ")));
    }
    let mut setup: Setup = match tag("Options") {
        Some(o) => serde_json::from_str(&o).map_err(|e| format!("bad Options tag: {e}"))?,
        None => Setup::default(),
    };
    if let Some(c) = tag("Conditions") {
        setup.conditions = c.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
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
        assert_eq!(civil(0), "1970.01.01");
        assert_eq!(civil(20_454), "2026.01.01");
    }

    #[test]
    fn export_then_import_gives_the_same_game() {
        let mut g = rules::create("chess", Setup::default().options(), None).unwrap();
        let mut moves = Vec::new();
        for (i, t) in ["e2e4", "e7e5", "g1f3"].iter().enumerate() {
            let legal = g.legal();
            let turn =
                legal.iter().find(|x| x.canonical.contains(&t[..2]) && x.canonical.contains(&t[2..4])).unwrap().clone();
            g.play(&turn.canonical).unwrap();
            moves.push(MoveRecord {
                ply: i as u32 + 1,
                uci: turn.uci,
                canonical: turn.canonical,
                notation: turn.notation,
                white_ms: 0,
                black_ms: 0,
                at_ms: 0,
            });
        }
        let rec = GameRecord {
            id: "x".into(),
            variant: "chess".into(),
            start_fen: g.start_fen().to_string(),
            result: "*".into(),
            ..GameRecord::default()
        };
        let text = export(&rec, &Setup::default(), &moves);
        assert!(text.contains("[Variant \"chess\"]"), "{text}");
        assert!(text.contains("1. e4 e5 2. Nf3 *"), "{text}");
        let back = import(&text).unwrap();
        assert_eq!(back.game.fen(), g.fen());
        assert!(import("[Variant \"nope\"]\n1. e4").err().unwrap().contains("unknown variant"));
        assert!(import("1. e5").err().unwrap().contains("turn 1"));
    }
}
