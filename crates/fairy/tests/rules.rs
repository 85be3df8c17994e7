//! Hand-made positions for tricky rules, each asserting a concrete move set or fact.

use chimere_core::{Colour, Square};
use chimere_fairy::conditions::{Circe, Ghost, Kamikaze, Occupied, RebirthSquare};
use chimere_fairy::position::{KAMIKAZE, Unit};
use chimere_fairy::walk::{self, BISHOP, KING, KNIGHT, NIGHTRIDER, PAWN, ROOK};
use chimere_fairy::{Capabilities, Condition, Game, Move, Position, RuleSet, position_from_fen};
use std::collections::BTreeSet;
use std::sync::Arc;

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn game(fen: &str, conds: Vec<Arc<dyn Condition>>) -> Game {
    Game::new(RuleSet::build(conds, &[]).expect("rules"), position_from_fen(fen).expect("fen"))
}

/// Moves as `e2e4`, `e7xd8q`, `e5xd6` (capture square shown when it differs: `c3xb5/c6`).
fn moves(g: &mut Game) -> BTreeSet<String> {
    let mut v: Vec<Move> = Vec::new();
    g.legal_moves(&mut v);
    v.iter()
        .map(|m| {
            let mut s = format!("{}{}{}", m.from, if m.is_capture() { "x" } else { "" }, m.to);
            if let Some(c) = m.capture
                && c != m.to
            {
                s.push_str(&format!("/{c}"));
            }
            if let Some(k) = m.promo {
                s.push_str(&walk::letters(k).to_ascii_lowercase());
            }
            if m.choice != 0 {
                s.push_str(&format!("#{}", m.choice));
            }
            s
        })
        .collect()
}

fn find(g: &mut Game, from: &str, to: &str) -> Move {
    let mut v: Vec<Move> = Vec::new();
    g.legal_moves(&mut v);
    *v.iter().find(|m| m.from == sq(from) && m.to == sq(to) && m.choice == 0).expect("move exists")
}

#[test]
fn circe_rook_reborn_on_its_corner_regains_castling() {
    let mut g = game("4k2r/8/8/7R/8/8/8/4K3 b K - 0 1", vec![Arc::new(Circe::plain())]);
    // No rook on h1, so no castling right; after Rh8xh5 the white rook is reborn on h1.
    let m = find(&mut g, "h8", "h5");
    g.make(&m).expect("legal");
    assert_eq!(g.pos.unit(sq("h1")).map(|u| u.kind()), Some(ROOK));
    let ms = moves(&mut g);
    assert!(ms.contains("e1g1"), "castling regained: {ms:?}");
    g.unmake();
    // Orthodox: the rook is simply gone.
    let mut g = game("4k2r/8/8/7R/8/8/8/4K3 b K - 0 1", vec![]);
    let m = find(&mut g, "h8", "h5");
    g.make(&m).expect("legal");
    assert!(!moves(&mut g).contains("e1g1"));
}

/// Rights are kept per unit: a rook reborn on h1 while its king stands on g1 regains the
/// rook's right, and the king reborn on e1 later regains its own, so White may castle.
#[test]
fn anticirce_rook_and_king_reborn_at_home_castle_again() {
    // White Kg1 Rf1, black Ka8 Pf3 Pg2, no castling right in the diagram.
    let fen = "k7/8/8/8/8/5p2/6p1/5RK1 w - - 0 1";
    let mut g = game(fen, vec![Arc::new(Circe::anti("AntiCirce", RebirthSquare::Standard))]);
    for (from, to) in [("f1", "f3"), ("a8", "b8"), ("g1", "g2"), ("b8", "a8")] {
        let m = find(&mut g, from, to);
        g.make(&m).expect("legal");
    }
    assert_eq!(g.pos.unit(sq("h1")).map(|u| u.kind()), Some(ROOK));
    assert_eq!(g.pos.unit(sq("e1")).map(|u| u.kind()), Some(KING));
    let ms = moves(&mut g);
    assert!(ms.contains("e1g1"), "castling regained: {ms:?}");
}

#[test]
fn anticirce_cheylan_forbids_capture_on_the_rebirth_square() {
    // White rook a5 takes on a1: its Anticirce-colonne square is a1 itself.
    let fen = "4k3/8/8/R7/8/8/8/n3K3 w - - 0 1";
    let cheylan = Circe::anti("AntiCirce File Cheylan", RebirthSquare::File);
    let mut g = game(fen, vec![Arc::new(cheylan.clone())]);
    assert!(!moves(&mut g).contains("a5xa1"));
    let calvet = Circe { cheylan: false, ..cheylan };
    let mut g = game(fen, vec![Arc::new(calvet)]);
    assert!(moves(&mut g).contains("a5xa1"));
}

#[test]
fn anticirce_capture_illegal_when_rebirth_square_occupied() {
    // White Qd4xd7 would be reborn on d1 (colonne): occupied by a white rook.
    let fen = "4k3/3p4/8/8/3Q4/8/8/3RK3 w - - 0 1";
    let mut g = game(fen, vec![Arc::new(Circe::anti("AntiCirce File", RebirthSquare::File))]);
    assert!(!moves(&mut g).contains("d4xd7"));
    let mut g = game("4k3/3p4/8/8/3Q4/8/8/4K3 w - - 0 1", vec![Arc::new(Circe::anti("AC", RebirthSquare::File))]);
    assert!(moves(&mut g).contains("d4xd7"));
}

fn stacked(release_volcanic: bool) -> Game {
    // g8 holds a bishop on top of a rook on top of a knight (knight buried first).
    let mut pos = Position::empty();
    pos.setup_put(sq("e1"), Unit::new(Colour::White, KING));
    pos.setup_put(sq("a8"), Unit::new(Colour::Black, KING));
    pos.setup_put(sq("g8"), Unit::new(Colour::Black, KNIGHT));
    pos.setup_put(sq("g8"), Unit::new(Colour::Black, ROOK));
    pos.setup_put(sq("g8"), Unit::new(Colour::Black, BISHOP));
    pos.setup_side(Colour::Black);
    let occupied = if release_volcanic { Occupied::Volcanic } else { Occupied::Parachute };
    let c = Circe { occupied, ..Circe::plain() };
    Game::new(RuleSet::build(vec![Arc::new(c)], &[]).unwrap(), pos)
}

#[test]
fn parachute_releases_last_hidden_first_and_volcanic_first_hidden_first() {
    for (volcanic, expect) in [(false, ROOK), (true, KNIGHT)] {
        let mut g = stacked(volcanic);
        let m = find(&mut g, "g8", "h7");
        let notes = g.make(&m).expect("legal");
        assert_eq!(g.pos.unit(sq("g8")).map(|u| u.kind()), Some(expect), "volcanic={volcanic} {notes:?}");
        assert_eq!(g.pos.underworld().len(), 1);
        g.unmake();
        assert_eq!(g.pos.unit(sq("g8")).map(|u| u.kind()), Some(BISHOP));
    }
}

/// Circe Parachute: a king that takes a unit whose rebirth square is the capture square is
/// covered by the reborn unit. It is hidden, not lost (so the capture is legal even onto
/// an observed square), and it comes back when the unit on top leaves (as in Popeye).
#[test]
fn parachute_king_covered_by_the_reborn_unit_is_not_lost() {
    // Black Kf2 takes the white pawn e2 (reborn on e2), though the rook e4 observes e2.
    let fen = "8/4K3/8/8/4R3/8/4Pk2/8 b - - 0 1";
    let parachute =
        || -> Vec<Arc<dyn Condition>> { vec![Arc::new(Circe { occupied: Occupied::Parachute, ..Circe::plain() })] };
    let mut g = game(fen, parachute());
    assert!(moves(&mut g).contains("f2xe2"));
    let m = find(&mut g, "f2", "e2");
    g.make(&m).expect("legal");
    assert_eq!(g.pos.unit(sq("e2")), Some(Unit::new(Colour::White, PAWN)));
    assert_eq!(g.pos.underworld(), &[(sq("e2"), Unit::new(Colour::Black, KING))]);
    assert!(!g.in_check(Colour::Black));
    // The pawn steps on: the king is back on e2.
    let m = find(&mut g, "e2", "e3");
    g.make(&m).expect("legal");
    assert_eq!(g.pos.unit(sq("e2")), Some(Unit::new(Colour::Black, KING)));
    assert!(g.pos.underworld().is_empty());
    // Plain Circe: the pawn cannot be reborn (occupied), and the king may not stand on e2.
    let mut g = game(fen, vec![Arc::new(Circe::plain())]);
    assert!(!moves(&mut g).contains("f2xe2"));
}

#[test]
fn neutral_pawn_moves_for_both_sides_and_both_may_capture_neutrals() {
    let mut pos = position_from_fen("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1").unwrap();
    // Make the e4 pawn neutral.
    let mut p2 = Position::empty();
    for s in Square::ALL {
        if let Some(u) = pos.unit(s) {
            let u = if s == sq("e4") { Unit::new(Colour::Shared, PAWN) } else { u };
            p2.setup_put(s, u);
        }
    }
    pos = p2;
    let mut g = Game::new(RuleSet::orthodox(), pos.clone());
    assert!(moves(&mut g).contains("e4e5"));
    pos.setup_side(Colour::Black);
    let mut g = Game::new(RuleSet::orthodox(), pos);
    let ms = moves(&mut g);
    assert!(ms.contains("e4e3"), "{ms:?}");
    assert!(!ms.contains("e4e5"));
}

#[test]
fn nightrider_checks_along_its_line() {
    let mut pos = Position::empty();
    pos.setup_put(sq("a1"), Unit::new(Colour::White, NIGHTRIDER));
    pos.setup_put(sq("h1"), Unit::new(Colour::White, KING));
    pos.setup_put(sq("d7"), Unit::new(Colour::Black, KING));
    pos.setup_side(Colour::Black);
    let mut g = Game::new(RuleSet::orthodox(), pos);
    assert!(g.in_check(Colour::Black));
    // Every king step leaves the line a1-b3-c5-d7; a blocker on c5 would also do.
    let ms = moves(&mut g);
    assert_eq!(ms.len(), 8, "{ms:?}");
    // With the king on e3 (line a1-c2-e3) a step to g4 stays on the line: not allowed.
    let mut pos = Position::empty();
    pos.setup_put(sq("a1"), Unit::new(Colour::White, NIGHTRIDER));
    pos.setup_put(sq("h1"), Unit::new(Colour::White, KING));
    pos.setup_put(sq("f4"), Unit::new(Colour::Black, KING));
    pos.setup_side(Colour::Black);
    let mut g = Game::new(RuleSet::orthodox(), pos);
    assert!(!g.in_check(Colour::Black));
    let ms = moves(&mut g);
    assert!(!ms.contains("f4g4") && !ms.contains("f4e3"), "{ms:?}");
    assert!(ms.contains("f4f5"), "{ms:?}");
}

#[test]
fn pawn_on_its_first_rank_steps_by_default_but_not_under_super_circe() {
    let fen = "4k3/8/8/8/8/8/8/P3K3 w - - 0 1";
    let mut g = game(fen, vec![]);
    let ms = moves(&mut g);
    assert!(ms.contains("a1a2") && !ms.contains("a1a3"), "{ms:?}");
    let mut g = game(fen, vec![Arc::new(Circe::with_square("SuperCirce", RebirthSquare::Any))]);
    assert!(!moves(&mut g).contains("a1a2"));
}

#[test]
fn kamikaze_king_cannot_capture_and_kamikaze_piece_vanishes() {
    let mut pos = Position::empty();
    let kk = Unit { attrs: KAMIKAZE, ..Unit::new(Colour::White, KING) };
    pos.setup_put(sq("e1"), kk);
    pos.setup_put(sq("e2"), Unit::new(Colour::Black, PAWN));
    pos.setup_put(sq("a1"), Unit { attrs: KAMIKAZE, ..Unit::new(Colour::White, ROOK) });
    pos.setup_put(sq("a8"), Unit::new(Colour::Black, walk::KNIGHT));
    pos.setup_put(sq("h8"), Unit::new(Colour::Black, KING));
    let rules = RuleSet::build(vec![Arc::new(Kamikaze::default())], &[]).unwrap();
    let mut g = Game::new(rules, pos);
    let ms = moves(&mut g);
    assert!(!ms.contains("e1xe2"), "{ms:?}");
    let m = find(&mut g, "a1", "a8");
    g.make(&m).expect("legal");
    assert!(g.pos.unit(sq("a8")).is_none() && g.pos.unit(sq("a1")).is_none());
}

#[test]
fn builder_refuses_two_conditions_deciding_the_captured_units_fate() {
    let e = RuleSet::build(vec![Arc::new(Circe::plain()), Arc::new(Ghost)], &[]).unwrap_err();
    assert!(e.to_string().contains("cannot be combined"), "{e}");
    let e = RuleSet::build(
        vec![Arc::new(Circe { occupied: Occupied::Parachute, ..Circe::plain() }), Arc::new(Circe::plain())],
        &[],
    )
    .unwrap_err();
    assert!(e.to_string().contains("Circe"), "{e}");
}

#[test]
fn circe_rex_inclusiv_king_capture_with_rebirth_is_not_check() {
    // Black Kd8 attacked by Rh8 but e8 is free: the king would be reborn, so no check.
    let c = Circe { rex_inclusive: true, ..Circe::plain() };
    let mut g = game("3k3R/8/8/8/8/8/8/4K3 b - - 0 1", vec![Arc::new(c.clone())]);
    assert!(!g.in_check(Colour::Black));
    let mut g = game("3kb2R/8/8/8/8/8/8/4K3 b - - 0 1", vec![Arc::new(c)]);
    let _ = &mut g;
}

/// A toy condition filling the `Admit` slot: knights may not capture (nor, therefore, check).
#[derive(Debug)]
struct KnightsDoNotCapture;
impl Condition for KnightsDoNotCapture {
    fn name(&self) -> String {
        "toy admit".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { slots: vec![chimere_fairy::rules::Slot::Admit], ..Capabilities::default() }
    }
    fn admit(&self, pos: &Position, _mover: Colour, mv: &Move) -> bool {
        !(mv.is_capture() && pos.unit(mv.from).is_some_and(|u| u.kind() == KNIGHT))
    }
}

/// A toy condition filling the `AfterMove` slot: a unit that moves without capturing
/// changes colour (kings excepted).
#[derive(Debug)]
struct TurnCoat;
impl Condition for TurnCoat {
    fn name(&self) -> String {
        "toy after-move".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { slots: vec![chimere_fairy::rules::Slot::AfterMove], ..Capabilities::default() }
    }
    fn after_move(&self, play: &mut chimere_fairy::rules::Play) -> Result<(), chimere_fairy::rules::Reject> {
        let to = play.mv.to;
        if play.mv.is_capture() || play.mv.castle.is_some() {
            return Ok(());
        }
        if let Some(u) = play.pos.unit(to)
            && u.kind() != KING
        {
            let c = u.colour().opponent();
            play.pos.remove(to);
            play.pos.add(to, u.with_colour(c));
            play.note(chimere_fairy::Note::Recoloured { sq: to, unit: u, colour: c });
        }
        Ok(())
    }
}

#[test]
fn admit_slot_filters_moves_and_observation() {
    // The white knight on f6 would check e8 and could take d7; under the toy rule it can do neither.
    let fen = "4k3/3p4/5N2/8/8/8/8/4K3 b - - 0 1";
    let mut g = game(fen, vec![]);
    assert!(g.in_check(Colour::Black));
    let mut g = game(fen, vec![Arc::new(KnightsDoNotCapture)]);
    assert!(!g.in_check(Colour::Black));
    g.pos.setup_side(Colour::White);
    let ms = moves(&mut g);
    assert!(!ms.contains("f6xd7") && ms.contains("f6g8"), "{ms:?}");
}

#[test]
fn after_move_slot_composes_with_circe() {
    let fen = "4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1";
    let mut g = game(fen, vec![Arc::new(TurnCoat), Arc::new(Circe::plain())]);
    let before = g.pos.clone();
    let m = find(&mut g, "e2", "e4");
    let notes = g.make(&m).expect("legal");
    assert_eq!(g.pos.unit(sq("e4")).map(|u| u.colour()), Some(Colour::Black));
    assert!(matches!(notes[0], chimere_fairy::Note::Recoloured { colour: Colour::Black, .. }));
    assert_eq!(g.pos.hash(), g.pos.recomputed_hash());
    g.unmake();
    assert_eq!(g.pos, before);
}

#[test]
fn canonical_moves_show_rebirths() {
    let mut g = chimere_fairy::game_from_fen("4k3/3q4/8/8/3Q4/8/8/4K3 w - - 0 1", &["circe"]).unwrap();
    let m = find(&mut g, "d4", "d7");
    assert_eq!(g.canonical(&m).unwrap(), "-d4:wq -d7:bq +d7:wq +d8:bq");
    assert!(chimere_fairy::game_from_fen("8/8/8/8/8/8/8/8 w - - 0 1", &["circe", "ghost"]).is_err());
}

/// Popeye's `AntiSuperCirce` alone is type Calvet: the capturer may be reborn on the
/// capture square itself (written `[wKc6->c6]`); with `Cheylan` it may not.
#[test]
fn popeye_anti_super_circe_defaults_to_calvet() {
    // White Kd6 Ba4, black Ka6 Ba7 Bc6 Ba5; Black's Bc6 is only capturable by the king.
    let fen = "8/b7/k1bK4/b7/B7/8/8/8 w - - 0 1";
    let texts = |params: &[&str]| {
        let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
        let conds = chimere_fairy::conditions::registry::by_popeye("AntiSuperCirce", &params).expect("condition");
        let mut g = game(fen, conds.into_iter().collect());
        chimere_fairy::notation::legal_with_texts(&mut g).into_iter().map(|(_, t)| t).collect::<Vec<_>>()
    };
    assert!(texts(&[]).iter().any(|t| t.starts_with("Kd6*c6[wKc6->c6]")), "{:?}", texts(&[]));
    assert!(!texts(&["Cheylan"]).iter().any(|t| t.starts_with("Kd6*c6[wKc6->c6]")));
}
