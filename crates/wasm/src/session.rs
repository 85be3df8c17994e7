//! A game held in the browser: created from a variant, its options and a FEN, played and
//! taken back turn by turn, with its legal turns written out in every form.

use chimere_core::{Colour, DynGame, GameOptions, Status, TurnText};
use chimere_rules::{TurnShape, VariantKind, setup};
use serde::{Deserialize, Serialize};

/// The rules of a game as the page gives them (the server's lobby `Setup`, same fields).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// 0 = standard array, 1 = symmetric random, 2 = independent random arrays.
    pub randomness: u8,
    pub seed: u64,
    /// Variant parameters, e.g. `("switch", "off")` for Checkered.
    pub params: Vec<(String, String)>,
    /// Fairy conditions (chess only), as `chimere moves -c` takes them.
    pub conditions: Vec<String>,
    /// Castling written king-takes-rook in UCI tokens.
    pub chess960: bool,
}

impl Options {
    /// The rules API's options.
    pub fn game_options(&self) -> GameOptions {
        GameOptions {
            randomness: self.randomness,
            seed: self.seed,
            params: self.params.clone(),
            conditions: self.conditions.clone(),
            chess960: self.chess960,
        }
    }

    /// Reads options from JSON (`""` or `"{}"`: the defaults).
    pub fn from_json(json: &str) -> Result<Options, String> {
        if json.trim().is_empty() {
            return Ok(Options::default());
        }
        serde_json::from_str(json).map_err(|e| format!("bad options: {e}"))
    }
}

/// One turn written out as the server's protocol writes it (`web/src/protocol.ts`, `turn`):
/// the UCI token (parts joined by `,`), the canonical form (what each part removes and
/// adds), the variant's notation and the turn's structure for a board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Turn {
    pub uci: String,
    pub canonical: String,
    pub notation: String,
    pub shape: TurnShape,
}

impl Turn {
    fn new(kind: VariantKind, t: TurnText, mover: Colour) -> Turn {
        let shape = chimere_rules::shape(kind, &t, if mover == Colour::Black { 'b' } else { 'w' });
        Turn { uci: t.uci, canonical: t.canonical, notation: t.notation, shape }
    }
}

/// The side to move, as the page names it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

/// The result, as the page names it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Result_ {
    Ongoing,
    White,
    Black,
    Draw,
}

/// Everything the board shows of the current position.
#[derive(Clone, Debug, Serialize)]
pub struct State {
    pub variant: &'static str,
    /// The variant's description (pieces, interactions...), as `GET /api/variants` gives it.
    pub descriptor: &'static chimere_rules::Descriptor,
    pub fen: String,
    pub side: Side,
    pub ply: usize,
    pub in_check: bool,
    pub result: Result_,
    /// Why the game ended, in words (`checkmate`, `threefold repetition`...); empty while on.
    pub reason: String,
    /// The legal turns (also listed when a game-level rule ended the game).
    pub legal: Vec<Turn>,
}

/// A game of any variant, as [`chimere_rules::create`] makes it.
pub struct Session {
    kind: VariantKind,
    game: Box<dyn DynGame>,
}

impl Session {
    /// The game of `variant` under `options` at `fen` (or the start): a refused position
    /// gives the rules' one-line reason.
    pub fn new(variant: &str, options: &Options, fen: Option<&str>) -> Result<Session, String> {
        let fen = fen.map(str::trim).filter(|f| !f.is_empty());
        let kind = VariantKind::parse(variant)?;
        let game = chimere_rules::create_kind(kind, options.game_options(), fen).map_err(|e| e.to_string())?;
        Ok(Session { kind, game })
    }

    pub fn fen(&self) -> String {
        self.game.fen()
    }

    pub fn state(&mut self) -> State {
        let outcome = self.game.outcome();
        let result = match outcome.status {
            Status::Ongoing => Result_::Ongoing,
            Status::WhiteWins => Result_::White,
            Status::BlackWins => Result_::Black,
            Status::Draw => Result_::Draw,
        };
        State {
            variant: self.game.variant(),
            descriptor: self.kind.descriptor(),
            fen: self.game.fen(),
            side: if self.game.side_to_move() == Colour::Black { Side::Black } else { Side::White },
            ply: self.game.ply(),
            in_check: self.game.in_check(),
            result,
            reason: if outcome.is_over() { outcome.reason.as_str().to_string() } else { String::new() },
            legal: {
                let side = self.game.side_to_move();
                self.game.legal().into_iter().map(|t| Turn::new(self.kind, t, side)).collect()
            },
        }
    }

    /// Plays a turn given as UCI token, canonical form or notation.
    pub fn play(&mut self, text: &str) -> Result<Turn, String> {
        let side = self.game.side_to_move();
        self.game.play(text).map(|t| Turn::new(self.kind, t, side)).map_err(|e| e.to_string())
    }

    /// Takes back the last turn.
    pub fn undo(&mut self) -> Option<Turn> {
        let t = self.game.undo()?;
        Some(Turn::new(self.kind, t, self.game.side_to_move()))
    }

    /// Perft leaves (with `bulk`, the last ply counted without playing it); depth at most 64.
    pub fn perft(&mut self, depth: u32, bulk: bool) -> Result<u64, String> {
        chimere_core::check_perft_depth(depth).map_err(|e| e.to_string())?;
        Ok(self.game.perft(depth, bulk))
    }

    /// The line of UCI tokens `pv` from the current position in the variant's notation (up
    /// to its first token the rules refuse).
    pub fn notation_of(&self, pv: &[String]) -> Vec<String> {
        let mut g = self.game.clone_box();
        pv.iter().map_while(|t| g.play(t).ok().map(|x| x.notation)).collect()
    }
}

/// A position set up by hand, checked by the rules: its FEN, or why it is refused (in
/// words, [`chimere_rules::setup::Refusal`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SetUp {
    Fen(String),
    Refused(String),
}

/// The editor's form of the position of `variant` under `options` at `fen` (`None`: the
/// start).
pub fn setup_of(variant: &str, options: &Options, fen: Option<&str>) -> Result<setup::Position, String> {
    let kind = VariantKind::parse(variant)?;
    let fen = fen.map(str::trim).filter(|f| !f.is_empty());
    setup::position_of(kind, &options.game_options(), fen).map_err(|e| e.to_string())
}

/// The FEN of a position set up by hand (`position`: JSON of [`setup::Position`]).
pub fn setup_fen(variant: &str, options: &Options, position: &str) -> Result<SetUp, String> {
    let kind = VariantKind::parse(variant)?;
    let pos: setup::Position = serde_json::from_str(position).map_err(|e| format!("bad position: {e}"))?;
    Ok(match setup::fen_of(kind, &options.game_options(), &pos) {
        Ok(fen) => SetUp::Fen(fen),
        Err(r) => SetUp::Refused(r.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_undoes_and_refuses_with_reasons() {
        let mut s = Session::new("chess", &Options::default(), None).unwrap();
        let st = s.state();
        assert_eq!((st.side, st.legal.len(), st.result), (Side::White, 20, Result_::Ongoing));
        assert_eq!(s.play("e2e4").unwrap().notation, "e4");
        assert!(s.play("e2e4").is_err());
        assert_eq!(s.state().side, Side::Black);
        assert_eq!(s.undo().unwrap().uci, "e2e4");
        assert!(s.undo().is_none());
        assert_eq!(s.perft(3, false).unwrap(), 8902);
        assert!(s.perft(65, true).is_err());
        let e = Session::new("chess", &Options::default(), Some("8/8/8/8/8/8/8/8 w - - 0 1")).err().unwrap();
        assert!(e.contains("king"), "{e}");
        assert!(Session::new("nope", &Options::default(), None).is_err());
        assert!(Options::from_json("{\"colour\":1}").is_err());
        assert_eq!(Options::from_json("").unwrap(), Options::default());
    }

    #[test]
    fn mate_is_reported_and_multi_part_turns_have_parts() {
        let mut s = Session::new("chess", &Options::default(), None).unwrap();
        for t in ["f3", "e5", "g4", "Qh4"] {
            s.play(t).unwrap();
        }
        let st = s.state();
        assert_eq!((st.result, st.reason.as_str(), st.legal.len()), (Result_::Black, "checkmate", 0));
        let mut d = Session::new("dynamo", &Options::default(), None).unwrap();
        assert!(d.state().legal.iter().any(|t| t.shape.parts.len() > 1), "Dynamo has two-part turns");
    }

    #[test]
    fn a_position_set_up_by_hand_is_checked_by_the_rules() {
        let o = Options::default();
        let mut p = setup_of("dynamo", &o, None).unwrap();
        assert_eq!(p.units.len(), 32);
        let json = |p: &setup::Position| serde_json::to_string(p).unwrap();
        assert_eq!(
            setup_fen("dynamo", &o, &json(&p)).unwrap(),
            SetUp::Fen(Session::new("dynamo", &o, None).unwrap().fen())
        );
        p.units.retain(|u| u.square != "e8");
        assert_eq!(
            setup_fen("dynamo", &o, &json(&p)).unwrap(),
            SetUp::Refused("no black king (exactly one is needed)".into())
        );
        assert!(setup_fen("dynamo", &o, "{\"units\":3}").is_err());
    }
}
