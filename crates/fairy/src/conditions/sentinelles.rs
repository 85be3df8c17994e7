//! Sentinelles: when a unit other than a pawn moves (kings included), a pawn appears on the
//! square it left, unless that square is on the first or last rank, or the pawns that
//! count already reach a maximum (counted after the move, so a capture of a pawn makes
//! room). The variants differ by the new pawn's colour and what counts:
//! - en Pion adverse (Popeye `Sentinelles PionAdvers`): a pawn of the opponent of the side
//!   that moved; at most 8 pawns of that colour;
//! - Totalmax=n (Popeye `Sentinelles MaximumTotal n`): a pawn of the moving side; at most
//!   n pawns of both colours together (no limit per colour, as the seed states it);
//! - en Pion neutre (seed's rule; Popeye's differs): a neutral pawn; at most 8 neutral
//!   pawns;
//! - plain (Popeye `Sentinelles`, `Sentinelles PionPropre`): a pawn of the moving side; at
//!   most 8 of that colour.
//!
//! Popeye's other parameters, which combine with the above:
//! - `MaximumWhite n` / `MaximumBlack n` (French `MaximumBlanc` / `MaximumNoir`; 0..=64): at most n white / black pawns (instead
//!   of 8; with `MaximumTotal` the other colour then has no limit of its own);
//! - `ParaSentinelles` (with the mover's pawn only): a pawn appears only if, before the
//!   move, the mover had no more pawns than the opponent (Popeye: the opponent's pawns are
//!   counted with the one just captured, if any).
//!
//! Refused: `ParaSentinelles` with `PionAdvers` (Popeye counts the captured pawn for the
//! wrong side there; no clear rule) or `PionNeutre`; `MaximumWhite`/`MaximumBlack` with
//! `PionNeutre` (the seed's neutral pawns have a limit of their own); `Berolina` (no
//! Berolina pawn in Chimère).
//!
//! Decisions: ParaSentinelles is refused with conditions deciding the captured units'
//! fate (Circe...); the pawn appears only if the square is still empty after the move's other
//! consequences; a pawn that moved (promoting or not) leaves nothing.

use crate::position::Unit;
use crate::rules::{Capabilities, Condition, Note, Play, Reject, Role, RuleSet, RulesError, Slot};
use crate::walk::PAWN;
use chimere_core::Colour;

/// Whose pawn appears.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Sentinel {
    /// The side that moved.
    Mover,
    /// The other side.
    Opponent,
    /// A neutral pawn.
    Neutral,
}

/// No limit.
const NONE: u32 = u32::MAX;

#[derive(Clone, Debug)]
pub struct Sentinelles {
    pub sentinel: Sentinel,
    /// The most pawns of the new pawn's colour, by colour (white, black, neutral);
    /// `u32::MAX`: no limit.
    pub max: [u32; 3],
    /// The most pawns of both colours together (`u32::MAX`: no limit).
    pub max_total: u32,
    /// ParaSentinelles: the mover must not have had more pawns than the opponent.
    pub para: bool,
}

fn index(c: Colour) -> usize {
    match c {
        Colour::White => 0,
        Colour::Black => 1,
        Colour::Shared => 2,
    }
}

impl Sentinelles {
    pub fn pion_adverse() -> Sentinelles {
        Sentinelles { sentinel: Sentinel::Opponent, ..Sentinelles::plain() }
    }
    pub fn pion_neutre() -> Sentinelles {
        Sentinelles { sentinel: Sentinel::Neutral, ..Sentinelles::plain() }
    }
    pub fn totalmax(n: u32) -> Sentinelles {
        Sentinelles { max: [NONE; 3], max_total: n, ..Sentinelles::plain() }
    }
    pub fn plain() -> Sentinelles {
        Sentinelles { sentinel: Sentinel::Mover, max: [8; 3], max_total: NONE, para: false }
    }

    /// The condition from its parameter words (lower case, without `sentinelles`): the
    /// seed's (`en pion adverse`, `totalmax 4`) and Popeye's (`pionadvers`,
    /// `maximumwhite 6`, `parasentinelles`...).
    pub fn from_words(words: &[&str]) -> Result<Sentinelles, RulesError> {
        let mut s = Sentinelles::plain();
        let (mut white, mut black, mut total) = (None, None, None);
        let mut it = words.iter().copied().filter(|w| !matches!(*w, "en" | "pion"));
        let number = |kw: &str, n: Option<&str>| -> Result<u32, RulesError> {
            n.and_then(|n| n.parse::<u32>().ok())
                .filter(|n| *n <= 64)
                .ok_or_else(|| RulesError(format!("Sentinelles: {kw} needs a number of pawns from 0 to 64")))
        };
        while let Some(w) = it.next() {
            match w {
                "adverse" | "advers" | "pionadvers" | "pionadverse" => s.sentinel = Sentinel::Opponent,
                "neutre" | "pionneutre" => s.sentinel = Sentinel::Neutral,
                "propre" | "pionpropre" => s.sentinel = Sentinel::Mover,
                "totalmax" | "maximumtotal" => total = Some(number(w, it.next())?),
                "maximumwhite" | "maximumblanc" => white = Some(number(w, it.next())?),
                "maximumblack" | "maximumnoir" => black = Some(number(w, it.next())?),
                "para" | "parasentinelles" => s.para = true,
                "berolina" => {
                    return Err(RulesError("Sentinelles Berolina is not supported (no Berolina pawn)".into()));
                }
                other => return Err(RulesError(format!("Sentinelles: unknown parameter `{other}`"))),
            }
        }
        if let Some(n) = total {
            s.max_total = n;
            s.max = [NONE; 3];
        }
        if let Some(n) = white {
            s.max[0] = n;
        }
        if let Some(n) = black {
            s.max[1] = n;
        }
        if s.sentinel == Sentinel::Neutral && (white.is_some() || black.is_some()) {
            return Err(RulesError(
                "Sentinelles: MaximumWhite/MaximumBlack do not apply to neutral pawns (en Pion neutre)".into(),
            ));
        }
        if s.para && s.sentinel != Sentinel::Mover {
            return Err(RulesError(
                "ParaSentinelles is supported only with the mover's pawn (not with PionAdvers or PionNeutre)".into(),
            ));
        }
        Ok(s)
    }
}

impl Condition for Sentinelles {
    fn name(&self) -> String {
        "Sentinelles".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { slots: vec![Slot::AfterMove], ..Capabilities::default() }
    }
    fn check_combination(&self, rules: &RuleSet) -> Result<(), RulesError> {
        if self.para && rules.uses_slot(Slot::CapturedFate) {
            return Err(RulesError(
                "ParaSentinelles cannot be combined with conditions that bring captured units back (the pawn count before the move is unclear)".into(),
            ));
        }
        Ok(())
    }
    fn after_move(&self, play: &mut Play) -> Result<(), Reject> {
        let from = play.mv.from;
        if play.moving.kind() == PAWN || from.rank() == 0 || from.rank() == 7 || play.pos.unit(from).is_some() {
            return Ok(());
        }
        let colour = match self.sentinel {
            Sentinel::Mover => play.mover,
            Sentinel::Opponent => play.mover.opponent(),
            Sentinel::Neutral => Colour::Shared,
        };
        let b = play.pos.board();
        let pawns = b.kind(PAWN);
        if (pawns & b.colour(colour)).count() >= self.max[index(colour)] {
            return Ok(());
        }
        if self.max_total != NONE
            && (pawns & (b.colour(Colour::White) | b.colour(Colour::Black))).count() >= self.max_total
        {
            return Ok(());
        }
        if self.para {
            // The opponent's pawns before the move: those left plus a captured pawn.
            let captured = play
                .victims
                .iter()
                .filter(|v| v.role == Role::Captured && v.unit.kind() == PAWN && v.unit.colour() == colour.opponent())
                .count() as u32;
            let other = (pawns & b.colour(colour.opponent())).count() + captured;
            if (pawns & b.colour(colour)).count() > other {
                return Ok(());
            }
        }
        let u = Unit::new(colour, PAWN);
        play.pos.add(from, u);
        play.note(Note::Reborn { sq: from, unit: u, promo: None });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::move_with_check;
    use crate::{Game, RuleSet, position_from_fen};
    use std::sync::Arc;

    fn moves(fen: &str, c: Sentinelles) -> Vec<String> {
        let rules = RuleSet::build(vec![Arc::new(c)], &[]).unwrap();
        let mut g = Game::new(rules, position_from_fen(fen).unwrap());
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut out: Vec<String> = v.iter().filter_map(|m| move_with_check(&mut g, m)).collect();
        out.sort();
        out
    }

    #[test]
    fn pion_neutre() {
        // White Kh1, Sd4 ; black Ka8. Every knight move leaves a neutral pawn on d4 (rank 4,
        // no neutral pawn yet). The king on h1 (first rank) leaves nothing: Kg1, Kg2, Kh2.
        let m = moves("k7/8/8/8/3N4/8/8/7K w - - 0 1", Sentinelles::pion_neutre());
        let mut expected: Vec<String> = ["b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"]
            .iter()
            .map(|t| format!("Sd4-{t}[+nPd4]"))
            .chain(["Kh1-g1", "Kh1-g2", "Kh1-h2"].iter().map(|s| s.to_string()))
            .collect();
        expected.sort();
        assert_eq!(m, expected);
    }

    #[test]
    fn pion_neutre_eight_neutral_pawns_is_the_limit() {
        // Eight neutral pawns on rank 3 (a3-h3): a quiet knight move leaves nothing
        // (Sd4-f5), but a capture of a neutral pawn (Sd4*b3) makes room for one.
        let pos = "k7/8/8/8/3N4/8/8/7K w - - 0 1";
        let mut p = position_from_fen(pos).unwrap();
        for f in 0..8 {
            p.setup_put(chimere_core::Square::from_coords(f, 2), Unit::new(Colour::Shared, PAWN));
        }
        let rules = RuleSet::build(vec![Arc::new(Sentinelles::pion_neutre())], &[]).unwrap();
        let mut g = Game::new(rules, p);
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let t: Vec<String> = v.iter().filter_map(|m| move_with_check(&mut g, m)).collect();
        assert!(t.contains(&"Sd4-f5".to_string()), "{t:?}");
        assert!(t.contains(&"Sd4*b3[+nPd4]".to_string()), "{t:?}");
        assert!(!t.iter().any(|m| m.starts_with("Sd4-") && m.contains('[')), "{t:?}");
    }

    fn words(w: &[&str]) -> Sentinelles {
        Sentinelles::from_words(w).unwrap_or_else(|e| panic!("{w:?}: {e}"))
    }

    #[test]
    fn maximum_white_counts_the_white_pawns() {
        // White Kh1 Sd4 Pa2, black Ka8: one white pawn already. With MaximumWhite 2 a
        // knight move leaves a white pawn on d4 (1 < 2); with MaximumWhite 1 it leaves
        // nothing (1 pawn = the maximum). The limit is White's only: MaximumBlack 0 does not
        // stop a white sentinel.
        let fen = "k7/8/8/8/3N4/8/P7/7K w - - 0 1";
        let two = moves(fen, words(&["maximumwhite", "2"]));
        assert!(two.contains(&"Sd4-f5[+wPd4]".to_string()), "{two:?}");
        let one = moves(fen, words(&["maximumwhite", "1"]));
        assert!(one.contains(&"Sd4-f5".to_string()), "{one:?}");
        assert!(!one.iter().any(|m| m.contains('[')), "{one:?}");
        let black0 = moves(fen, words(&["maximumblack", "0"]));
        assert!(black0.contains(&"Sd4-f5[+wPd4]".to_string()), "{black0:?}");
    }

    #[test]
    fn maximum_black_with_pion_advers() {
        // PionAdvers: a white move leaves a black pawn, limited by MaximumBlack. Black has
        // pawn h7: MaximumBlack 1 -> none; MaximumBlack 2 -> [+bPd4].
        let fen = "k7/7p/8/8/3N4/8/8/7K w - - 0 1";
        let one = moves(fen, words(&["pionadvers", "maximumblack", "1"]));
        assert!(one.contains(&"Sd4-f5".to_string()), "{one:?}");
        let two = moves(fen, words(&["pionadvers", "maximumblack", "2"]));
        assert!(two.contains(&"Sd4-f5[+bPd4]".to_string()), "{two:?}");
    }

    #[test]
    fn para_compares_the_pawns_before_the_move() {
        // White Kh1 Sd4 Pa2 Pb2, black Ka8 Pc6 Ph7: 2 white pawns, 2 black pawns before the
        // move, so a sentinel appears, also after Sd4*c6 (the captured pawn counts: Black
        // had 2 before the move).
        let fen = "k7/7p/2p5/8/3N4/8/PP6/7K w - - 0 1";
        let m = moves(fen, words(&["parasentinelles"]));
        assert!(m.contains(&"Sd4-f5[+wPd4]".to_string()), "{m:?}");
        assert!(m.contains(&"Sd4*c6[+wPd4]".to_string()), "{m:?}");
        // A third white pawn (g2): 3 > 2, no sentinel at all.
        let fen = "k7/7p/2p5/8/3N4/8/PP4P1/7K w - - 0 1";
        let m = moves(fen, words(&["para"]));
        assert!(m.contains(&"Sd4-f5".to_string()) && m.contains(&"Sd4*c6".to_string()), "{m:?}");
        assert!(!m.iter().any(|m| m.contains('[')), "{m:?}");
    }

    #[test]
    fn parameters_and_refusals() {
        let s = words(&["maximumtotal", "4", "maximumblack", "2"]);
        assert_eq!((s.max, s.max_total), ([NONE, 2, NONE], 4));
        let s = words(&["maximumwhite", "6", "maximumblack", "7"]);
        assert_eq!((s.max, s.max_total), ([6, 7, 8], NONE));
        for bad in [
            &["parasentinelles", "pionadvers"][..],
            &["para", "pionneutre"],
            &["pionneutre", "maximumwhite", "3"],
            &["berolina"],
            &["maximumwhite"],
            &["maximumblack", "65"],
            &["frob"],
        ] {
            assert!(Sentinelles::from_words(bad).is_err(), "{bad:?}");
        }
        let mut conds = crate::conditions::by_name("sentinelles parasentinelles").unwrap();
        conds.extend(crate::conditions::by_name("circe").unwrap());
        assert!(RuleSet::build(conds, &[]).is_err());
    }

    #[test]
    fn pion_adverse_self_check_by_the_new_pawn() {
        // White Kd4, black Ka8, en Pion adverse: each king move leaves a black pawn on d4,
        // which attacks c3 and e3: Kd4-c3 and Kd4-e3 are self-checks. The other six king
        // moves are legal, each with its sentinel.
        let m = moves("k7/8/8/8/3K4/8/8/8 w - - 0 1", Sentinelles::pion_adverse());
        let mut expected: Vec<String> =
            ["c4", "c5", "d3", "d5", "e4", "e5"].iter().map(|s| format!("Kd4-{s}[+bPd4]")).collect();
        expected.sort();
        assert_eq!(m, expected);
    }

    #[test]
    fn the_new_pawn_gives_check() {
        // Plain Sentinelles: White Kh1 Se6, black Kf7. The knight leaves a white pawn on e6,
        // which checks f7: every knight move is marked +. King moves leave nothing (rank 1).
        let m = moves("8/5k2/4N3/8/8/8/8/7K w - - 0 1", Sentinelles::plain());
        let mut expected: Vec<String> =
            ["c5", "c7", "d4", "d8", "f4", "f8", "g5", "g7"].iter().map(|s| format!("Se6-{s}[+wPe6] +")).collect();
        expected.extend(["Kh1-g1", "Kh1-g2", "Kh1-h2"].map(String::from));
        expected.sort();
        assert_eq!(m, expected);
    }
}
