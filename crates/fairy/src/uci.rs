//! UCI move tokens for orthodox chess under fairy conditions (one token per move; a
//! multi-move turn is several moves, each with its own token).
//!
//! The **base token** follows `../shared/spec/uci-notation.md` for chess:
//!
//! - a pass ([`Move::NULL`]): `0000`;
//! - castling: `<king square><king's destination>` (`e1g1`), or king takes its partner
//!   (`e1h1`) when `UCI_Chess960` is on or the king moves less than two files;
//! - a push/pull move (Dynamo condition): the unit that travels — the mover
//!   `<from><to>`, or `<from>--` when it leaves the board; when the mover stays on its
//!   square, the object `<its square><its arrival>` or `<its square>--`, then `@` and the
//!   mover's square (`Ra1[wPa2->a3]` is `a2a3@a1`, the pawn's own step `a2a3`);
//! - any other move: `<from><to>` of the moving unit, plus the lower-case letter of the
//!   new kind on a promotion (`e7e8q`; letters of [`crate::NOTATION`]: `n` knight, `h`
//!   nightrider, `o` rose, `l` locust, `m` nightrider-locust, `c` bishop-locust, `t`
//!   rook-locust, `d` dummy, `g` grasshopper).
//!
//! What a move captures and its consequences (rebirths, transformations, units going
//! along) are implied by the position and not written — until two legal moves of the
//! position would share a token: a Circe rebirth square or Super-Circe choice, the units
//! of an Augsburg stack going along, the object of a push. Then the **suffix rule**
//! applies: for the legal moves sharing a base token, take each one's canonical form (the
//! units it removes and adds, `-e4:wp -d5:bp +d5:wp +d8:bp`) and remove the canonical
//! tokens common to all of them; a move with tokens left gets `/` and those tokens,
//! written without spaces in canonical order (`e4d5/+d8:bp`, `e4d5/+h8:bp`); a move with
//! none left keeps the base token. Different canonical forms always give different
//! tokens. Moves whose canonical forms are equal too (they differ in what the canonical
//! form does not show) get `~` and the letter of the unit that makes the move (Augsburg:
//! the pawn carrying the queen, `d7d5/-d7:bp-d7:bq+d5:bp+d5:bq~p`, or the queen carrying
//! the pawn, `...~q`); moves still sharing a token are numbered, `#1`, `#2`... in the
//! order of their choice number, then their stack code, then the order of generation
//! (not seen in the tests).
//!
//! A token is read back by comparing it with the tokens of the legal moves
//! ([`Game::move_from_uci`]).

use crate::{Game, Move, NOTATION};
use chimere_core::Square;
use std::collections::HashMap;
use std::fmt::Write;

/// The sets (of two or more) of indices of `group` whose tokens are equal.
fn still_shared(tokens: &[String], group: &[usize]) -> Vec<Vec<usize>> {
    let mut same: HashMap<&str, Vec<usize>> = HashMap::new();
    for &i in group {
        same.entry(tokens[i].as_str()).or_default().push(i);
    }
    let mut sets: Vec<Vec<usize>> = same.into_values().filter(|ids| ids.len() > 1).collect();
    sets.sort();
    sets
}

impl Game {
    /// The base token of `mv` (position before the move), before disambiguation: see the
    /// module documentation. `chess960` is the `UCI_Chess960` option.
    pub fn uci_base(&self, mv: &Move, chess960: bool) -> String {
        if mv.is_null() {
            return "0000".into();
        }
        let mut s = String::with_capacity(8);
        if let Some((partner, _)) = mv.castle {
            let moves_two = mv.from.file().abs_diff(mv.to.file()) >= 2;
            let to = if chess960 || !moves_two { partner } else { mv.to };
            let _ = write!(s, "{}{to}", mv.from);
            return s;
        }
        if let Some(sh) = mv.shift {
            let leg = |s: &mut String, from: Square, to: Option<Square>| match to {
                Some(t) => {
                    let _ = write!(s, "{from}{t}");
                }
                None => {
                    let _ = write!(s, "{from}--");
                }
            };
            if sh.mover_off {
                leg(&mut s, mv.from, None);
                return s;
            }
            if mv.to == mv.from
                && let Some((of, ot)) = sh.object
            {
                leg(&mut s, of, ot);
                let _ = write!(s, "@{}", mv.from);
                return s;
            }
        }
        let _ = write!(s, "{}{}", mv.from, mv.to);
        if let Some(k) = mv.promo
            && self.rules.moving_unit(&self.pos, mv).is_none_or(|u| u.kind() != k)
        {
            s.push(NOTATION.kind_char(k));
        }
        s
    }

    /// The tokens of `moves`, which must be all the legal moves of the position (as
    /// [`Game::legal_moves`] lists them): base tokens, disambiguated where they collide.
    pub fn uci_tokens(&mut self, moves: &[Move], chess960: bool) -> Vec<String> {
        let mut tokens: Vec<String> = moves.iter().map(|m| self.uci_base(m, chess960)).collect();
        let mut groups: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, t) in tokens.iter().enumerate() {
            groups.entry(t.as_str()).or_default().push(i);
        }
        let mut colliding: Vec<Vec<usize>> = groups.into_values().filter(|g| g.len() > 1).collect();
        colliding.sort();
        for group in colliding {
            self.disambiguate(moves, &mut tokens, &group);
        }
        tokens
    }

    /// Applies the suffix rule to the moves `group` (indices into `moves` and `tokens`, in
    /// increasing order) that share a base token.
    fn disambiguate(&mut self, moves: &[Move], tokens: &mut [String], group: &[usize]) {
        let canon: Vec<Vec<String>> = group
            .iter()
            .map(|&i| {
                let c = self.canonical(&moves[i]).unwrap_or_default();
                c.split(' ').filter(|t| !t.is_empty()).map(str::to_string).collect()
            })
            .collect();
        let common: Vec<&String> = canon[0].iter().filter(|t| canon.iter().all(|c| c.contains(t))).collect();
        for (k, &i) in group.iter().enumerate() {
            let rest: String = canon[k].iter().filter(|t| !common.contains(t)).map(String::as_str).collect();
            if !rest.is_empty() {
                tokens[i].push('/');
                tokens[i].push_str(&rest);
            }
        }
        // Equal canonical forms: the letter of the unit that makes the move.
        for ids in still_shared(tokens, group) {
            for i in ids {
                let kind = self.rules.moving_unit(&self.pos, &moves[i]).map_or('?', |u| NOTATION.kind_char(u.kind()));
                let _ = write!(tokens[i], "~{kind}");
            }
        }
        // Still equal: number them.
        for mut ids in still_shared(tokens, group) {
            ids.sort_by_key(|&i| (moves[i].choice, moves[i].stack, i));
            for (n, i) in ids.into_iter().enumerate() {
                let _ = write!(tokens[i], "#{}", n + 1);
            }
        }
    }

    /// The legal moves, their base tokens, and the indices of those whose base token is
    /// `base`.
    fn group_of(&mut self, base: &str, chess960: bool) -> (Vec<Move>, Vec<String>, Vec<usize>) {
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        let tokens: Vec<String> = legal.iter().map(|m| self.uci_base(m, chess960)).collect();
        let group = (0..tokens.len()).filter(|&i| tokens[i] == base).collect();
        (legal, tokens, group)
    }

    /// The token of the legal move `mv` (position before the move), disambiguated among
    /// the legal moves of the position; `None` if `mv` is not legal here. Only the moves
    /// sharing its base token are written out.
    pub fn uci_token(&self, mv: &Move, chess960: bool) -> Option<String> {
        let mut g = self.clone();
        let base = g.uci_base(mv, chess960);
        let (legal, mut tokens, group) = g.group_of(&base, chess960);
        let i = legal.iter().position(|m| m == mv)?;
        if group.len() > 1 {
            g.disambiguate(&legal, &mut tokens, &group);
        }
        Some(std::mem::take(&mut tokens[i]))
    }

    /// The legal move written `text` (a token as [`Game::uci_tokens`] writes it), or
    /// `None` if no legal move has this token.
    pub fn move_from_uci(&mut self, text: &str, chess960: bool) -> Option<Move> {
        // The base token ends where a suffix starts.
        let base = text.split(['/', '~', '#']).next().unwrap_or(text);
        let (legal, mut tokens, group) = self.group_of(base, chess960);
        if group.len() > 1 {
            self.disambiguate(&legal, &mut tokens, &group);
        }
        group.into_iter().find(|&i| tokens[i] == text).map(|i| legal[i])
    }
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;

    fn tokens(fen: &str, conditions: &[&str], chess960: bool) -> Vec<String> {
        let mut g = game_from_fen(fen, conditions).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut t = g.uci_tokens(&v, chess960);
        t.sort();
        t
    }

    #[test]
    fn orthodox_tokens_are_the_chess_ones() {
        let t = tokens("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1", &[], false);
        for want in ["e1g1", "e1c1", "b7a8n", "b7b8q", "a1a8"] {
            assert!(t.contains(&want.to_string()), "{want} missing from {t:?}");
        }
        let t = tokens("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1", &[], true);
        assert!(t.contains(&"e1h1".to_string()) && t.contains(&"e1a1".to_string()) && !t.contains(&"e1g1".to_string()));
    }

    #[test]
    fn a_pusher_staying_put_is_named_after_the_object() {
        let t = tokens("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0 ahah -", &["dynamo"], false);
        // The pawn's own step, the rook a1 pushing it, the queen and the bishop pushing
        // e2 off the board.
        for want in ["a2a3", "a2a3@a1", "e2--@d1", "e2--@f1"] {
            assert!(t.contains(&want.to_string()), "{want} missing from {t:?}");
        }
    }

    #[test]
    fn super_circe_rebirth_choices_get_suffixes() {
        // The rook takes the knight d5; Super-Circe reborn it on any empty square.
        let fen = "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1";
        let mut g = game_from_fen(fen, &["supercirce"]).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let t = g.uci_tokens(&v, false);
        let takes: Vec<&String> = t.iter().filter(|s| s.starts_with("d1d5")).collect();
        assert!(takes.len() > 2, "{takes:?}");
        assert!(takes.iter().any(|s| s.as_str() == "d1d5/+a1:bn"), "{takes:?}");
        let mut sorted = t.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), t.len(), "tokens collide: {t:?}");
        for (m, tok) in v.iter().zip(&t) {
            assert_eq!(g.move_from_uci(tok, false), Some(*m), "{tok}");
            assert_eq!(g.uci_token(m, false).as_deref(), Some(tok.as_str()));
        }
    }
}
