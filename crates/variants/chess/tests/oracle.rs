//! Orthodox chess against the reference data of `../shared/oracle/`.

use chimere_chess::Chess;
use chimere_core::{Variant, perft};
use chimere_testkit::{check_vchess_oracle, check_vchess_perft, oracle_text};

#[test]
fn vchess_records() {
    check_vchess_oracle::<Chess>("chess.jsonl");
}

#[test]
fn vchess_perft_start() {
    check_vchess_perft::<Chess>("Chess", 4);
}

/// Every position of `perft/chess.epd` up to `max_leaves` leaves per depth.
fn epd(max_leaves: u64, bulk: bool) {
    let text = oracle_text("perft/chess.epd");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim();
        let mut pos = Chess::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for p in parts {
            let p = p.trim();
            let (d, n) = p.split_once(' ').unwrap_or_else(|| panic!("bad EPD entry `{p}`"));
            let depth: u32 = d.trim_start_matches('D').parse().unwrap();
            let expected: u64 = n.trim().parse().unwrap();
            if expected > max_leaves {
                continue;
            }
            // The generic count (lists, make/unmake) and the crate's own (`chimere perft`).
            assert_eq!(perft(&mut pos, depth, bulk), expected, "{fen} depth {depth} (bulk: {bulk})");
            assert_eq!(pos.perft_leaves(depth, bulk), expected, "{fen} depth {depth} (bulk: {bulk}, own)");
            checked += 1;
        }
    }
    assert!(checked >= 17, "only {checked} EPD entries checked");
}

#[test]
fn epd_positions_full_leaf() {
    epd(2_000_000, false);
}

#[test]
fn epd_positions_bulk() {
    epd(6_000_000, true);
}

#[test]
#[ignore = "every depth of every EPD position: minutes; run with --ignored in release"]
fn epd_positions_all_depths() {
    epd(u64::MAX, true);
}

/// Our tokens (`Variant::uci`) against the vchess harness's, `UCI_Chess960` off and on.
#[test]
fn uci_tokens_match_the_vchess_harness() {
    chimere_testkit::uci::check_vchess_uci::<Chess>("chess.jsonl", "Chess");
}

/// Tokens unique within every position; `parse_turn` reads each back.
#[test]
fn uci_tokens_are_unique_and_parse_back() {
    chimere_testkit::uci::check_uci_unique::<Chess>("chess.jsonl");
}
