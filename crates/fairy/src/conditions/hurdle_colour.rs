//! Hurdle-colour-changing units (a piece attribute, Popeye's `HurdleColourChanging`): the
//! hurdle a hurdle-colour-changing unit hops over changes colour after the move, unless it
//! is a king or a neutral unit. Written after the move as Popeye writes it: `hccGd4-g1[f2=w]`.
//! As in Popeye the attribute is given to hoppers over one hurdle, lions and Chinese
//! pieces only ([`changes_hurdles`]).

use crate::position::{HURDLE_COLOUR_CHANGING, Unit};
use crate::rules::{Capabilities, Condition, Note, Play, Reject, Slot};
use crate::walk::{self, KING, Land, Step};
use chimere_core::{Colour, Kind};
use std::sync::Arc;

/// The attribute: only the units that carry [`HURDLE_COLOUR_CHANGING`] turn their hurdles.
/// As in Popeye, a pawn promotes into the kinds in play as they are: into a kind whose
/// units all carry the attribute, the promotee carries it too (`d7-d8=G=hcc`).
#[derive(Clone, Debug, Default)]
pub struct HurdleColourChangers {
    /// The kinds (bit `k`) whose promotees carry the attribute.
    promotees: u128,
}

impl HurdleColourChangers {
    /// Promotions into `kinds` make units that carry the attribute.
    pub fn new(kinds: impl IntoIterator<Item = Kind>) -> HurdleColourChangers {
        HurdleColourChangers { promotees: kinds.into_iter().fold(0, |m, k| m | 1u128 << k.index()) }
    }
}

/// Whether units of `kind` may carry the attribute: every way it moves is a rider's move
/// without capture or a hop over exactly one hurdle that lands beyond it (no hamster's
/// hop back), and one of them is a hop (Popeye's simple hoppers, lions, Chinese pieces).
pub fn changes_hurdles(kind: Kind) -> bool {
    let steps = walk::walk(kind).steps;
    let hop = |s: &Step| match s {
        Step::Hop(_) | Step::Equi { .. } => true,
        Step::Hopper(h) => h.hurdles == 1 && h.land != Land::Turn(4),
        _ => false,
    };
    steps.iter().any(hop) && steps.iter().all(|s| hop(s) || matches!(s, Step::RideQuiet(_)))
}

impl Condition for HurdleColourChangers {
    fn name(&self) -> String {
        "HurdleColourChanging".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { slots: vec![Slot::AfterMove], ..Capabilities::default() }
    }
    fn merged_with(&self, other: &dyn Condition) -> Option<Arc<dyn Condition>> {
        (other as &dyn std::any::Any)
            .downcast_ref::<HurdleColourChangers>()
            .map(|o| Arc::new(HurdleColourChangers { promotees: self.promotees | o.promotees }) as Arc<dyn Condition>)
    }
    fn after_move(&self, play: &mut Play) -> Result<(), Reject> {
        if let Some(k) = play.mv.promo
            && self.promotees >> k.index() & 1 == 1
            && let Some(u) = play.pos.unit(play.mv.to)
            && u.kind() == k
        {
            let made = Unit { attrs: u.attrs | HURDLE_COLOUR_CHANGING, ..u };
            play.pos.remove(play.mv.to);
            play.pos.add(play.mv.to, made);
            play.note(Note::Attributed { sq: play.mv.to, unit: made });
            return Ok(());
        }
        if !play.moving.has(HURDLE_COLOUR_CHANGING) {
            return Ok(());
        }
        let Some(sq) = play.mv.hurdle else { return Ok(()) };
        let Some(u) = play.pos.unit(sq) else { return Ok(()) };
        if u.kind() == KING || u.colour() == Colour::Shared {
            return Ok(());
        }
        let colour = u.colour().opponent();
        let turned = u.with_colour(colour);
        play.pos.remove(sq);
        play.pos.add(sq, turned);
        play.note(Note::Turned { sq, unit: u, colour });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::move_with_check;
    use crate::position::Position;
    use crate::{Game, Move, RuleSet};
    use chimere_core::Square;

    fn sq(s: &str) -> Square {
        let b = s.as_bytes();
        Square::from_coords(b[0] - b'a', b[1] - b'1')
    }

    /// White hcc grasshopper d4 over the white pawn d5 takes the knight d6, the pawn turns
    /// black; over the black lion f2 to g1, the lion turns white; the king a1 hopped over by
    /// nothing stays. Written as Popeye writes them.
    #[test]
    fn the_hurdle_turns() {
        let mut pos = Position::empty();
        let hcc = |c, k| Unit { attrs: HURDLE_COLOUR_CHANGING, ..Unit::new(c, k) };
        pos.setup_put(sq("a1"), Unit::new(Colour::White, walk::KING));
        pos.setup_put(sq("h8"), Unit::new(Colour::Black, walk::KING));
        pos.setup_put(sq("d4"), hcc(Colour::White, walk::GRASSHOPPER));
        pos.setup_put(sq("d5"), Unit::new(Colour::White, walk::PAWN));
        pos.setup_put(sq("d6"), Unit::new(Colour::Black, walk::KNIGHT));
        let lion = walk::kind_of_letters("LI").unwrap();
        pos.setup_put(sq("f2"), hcc(Colour::Black, lion));
        let rules =
            RuleSet::build(vec![Arc::new(HurdleColourChangers::default())], &[walk::GRASSHOPPER, lion]).unwrap();
        let mut g = Game::new(rules, pos);
        let mut moves: Vec<Move> = Vec::new();
        g.legal_moves(&mut moves);
        let text = |g: &mut Game, from: &str, to: &str| {
            let m = *moves.iter().find(|m| m.from == sq(from) && m.to == sq(to)).unwrap();
            move_with_check(g, &m).unwrap()
        };
        assert_eq!(text(&mut g, "d4", "d6"), "hccGd4*d6[d5=b]");
        assert_eq!(text(&mut g, "d4", "g1"), "hccGd4-g1[f2=w]");
        let m = *moves.iter().find(|m| m.from == sq("d4") && m.to == sq("d6")).unwrap();
        let before = g.pos.hash();
        g.make(&m).expect("legal");
        assert_eq!(g.pos.unit(sq("d5")).map(|u| u.colour()), Some(Colour::Black));
        g.unmake();
        assert_eq!(g.pos.unit(sq("d5")).map(|u| u.colour()), Some(Colour::White));
        assert_eq!(g.pos.hash(), before);
    }

    /// Two hops onto one square over different hurdles are two moves for a hurdle-colour
    /// changer (the eagle d4 reaches d6 over e5 and over c5), one move otherwise.
    #[test]
    fn hops_over_different_hurdles_stay_apart() {
        let eagle = walk::kind_of_letters("EA").unwrap();
        for (attrs, want) in [(HURDLE_COLOUR_CHANGING, 2), (0, 1)] {
            let mut pos = Position::empty();
            pos.setup_put(sq("a1"), Unit::new(Colour::White, walk::KING));
            pos.setup_put(sq("h8"), Unit::new(Colour::Black, walk::KING));
            pos.setup_put(sq("d4"), Unit { attrs, ..Unit::new(Colour::White, eagle) });
            pos.setup_put(sq("e5"), Unit::new(Colour::Black, walk::PAWN));
            pos.setup_put(sq("c5"), Unit::new(Colour::Black, walk::PAWN));
            let rules = RuleSet::build(vec![Arc::new(HurdleColourChangers::default())], &[eagle]).unwrap();
            let mut g = Game::new(rules, pos);
            let mut moves: Vec<Move> = Vec::new();
            g.legal_moves(&mut moves);
            let to_d6: Vec<&Move> = moves.iter().filter(|m| m.from == sq("d4") && m.to == sq("d6")).collect();
            assert_eq!(to_d6.len(), want, "attrs {attrs}");
        }
    }

    /// A pawn promoting into a kind whose units all carry the attribute makes such a unit
    /// (`d7-d8=G=hcc`); into other kinds a plain one.
    #[test]
    fn promotees_of_a_changing_kind_carry_it() {
        let mut pos = Position::empty();
        pos.setup_put(sq("a1"), Unit::new(Colour::White, walk::KING));
        pos.setup_put(sq("h1"), Unit::new(Colour::Black, walk::KING));
        pos.setup_put(sq("d7"), Unit::new(Colour::White, walk::PAWN));
        let rules =
            RuleSet::build(vec![Arc::new(HurdleColourChangers::new([walk::GRASSHOPPER]))], &[walk::GRASSHOPPER])
                .unwrap();
        let mut g = Game::new(rules, pos);
        let mut moves: Vec<Move> = Vec::new();
        g.legal_moves(&mut moves);
        let texts: Vec<String> = moves.iter().filter_map(|m| move_with_check(&mut g, m)).collect();
        for t in ["d7-d8=G=hcc", "d7-d8=Q"] {
            assert!(texts.iter().any(|x| x == t), "{t} in {texts:?}");
        }
        assert!(!texts.iter().any(|x| x == "d7-d8=G"), "{texts:?}");
    }

    #[test]
    fn which_kinds_may_carry_it() {
        let yes = ["G", "NH", "EQ", "NE", "OR", "KH", "M", "EA", "LI", "NL", "PA", "LE", "CG", "KP", "G2"];
        let no = ["Q", "S", "KA", "DO", "SO", "GL", "HA", "AH", "SI", "L", "Z", "KL"];
        for l in yes {
            assert!(changes_hurdles(walk::kind_of_letters(l).unwrap()), "{l}");
        }
        for l in no {
            assert!(!changes_hurdles(walk::kind_of_letters(l).unwrap()), "{l}");
        }
    }
}
