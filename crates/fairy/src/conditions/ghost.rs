//! Ghost chess (Fantômes): a captured unit is hidden under the capture square and comes
//! back as soon as the square is empty, after which it cannot be captured.
//!
//! Decision (Popeye's reading; the spec is silent): a capture on a square under which a
//! ghost is still hidden (the capturer was standing on it) dispels that ghost for good:
//! the newly captured unit takes its place, so at most one ghost waits under a square.

use crate::position::UNCAPTURABLE;
use crate::rules::{Capabilities, Condition, Play, Reject, Release, Role, Slot};

#[derive(Clone, Debug, Default)]
pub struct Ghost;

impl Condition for Ghost {
    fn name(&self) -> String {
        "GhostChess".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            slots: vec![Slot::CapturedFate],
            release: Some(Release::Lifo),
            released_attrs: UNCAPTURABLE,
            ..Capabilities::default()
        }
    }
    fn on_capture(&self, play: &mut Play) -> Result<(), Reject> {
        for i in 0..play.victims.len() {
            let v = play.victims[i];
            if v.handled || v.role != Role::Captured {
                continue;
            }
            play.victims[i].handled = true;
            // A captured king is lost, not a ghost.
            if v.unit.kind() == crate::walk::KING || v.unit.has(crate::position::ROYAL) {
                continue;
            }
            // The ghost still waiting under the capture square (the last one) is dispelled.
            if let Some((j, _)) = play.pos.under(v.sq).last() {
                play.pos.unbury(j);
            }
            // Uncapturable from now on (the mark Popeye writes as `u`).
            let ghost = crate::position::Unit { attrs: v.unit.attrs | UNCAPTURABLE, ..v.unit };
            if !play.pos.bury(v.sq, ghost, true) {
                return Err(Reject);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;
    use crate::notation::move_text;

    /// Plays the legal move whose Popeye text (without notes) starts with `text`.
    fn play(g: &mut crate::Game, text: &str) {
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let m = v.iter().copied().find(|m| move_text(g, m, &[]).starts_with(text)).unwrap_or_else(|| panic!("{text}"));
        g.make(&m).unwrap();
    }

    #[test]
    fn a_capture_on_a_haunted_square_dispels_the_waiting_ghost() {
        // 1.Rd1*d5: the black rook waits under d5 (the white rook stands on it).
        // 1...Bb7*d5: the white rook is captured on d5: it becomes the ghost of d5 and the
        // black rook's ghost is dispelled (Popeye). 2.Ka1-b1 Bd5-e4: d5 is empty, the
        // white rook reappears there; nothing is left under any square.
        let mut g = game_from_fen("k7/1b6/8/3r4/8/8/8/K2R4 w - - 0 1", &["ghost"]).unwrap();
        play(&mut g, "Rd1*d5");
        assert_eq!(g.pos.underworld().len(), 1);
        play(&mut g, "Bb7*d5");
        assert_eq!(g.pos.underworld().len(), 1);
        play(&mut g, "Ka1-b1");
        play(&mut g, "Bd5-e4");
        assert!(g.pos.underworld().is_empty(), "{:?}", g.pos.underworld());
        let d5 = g.pos.unit(chimere_core::Square::parse("d5").unwrap()).expect("the white rook's ghost");
        assert_eq!(d5.colour(), chimere_core::Colour::White);
        assert_eq!(d5.kind(), crate::walk::ROOK);
        // Popeye writes the ghost with its attribute, `u` (uncapturable): it interposes
        // against the check of the bishop on e4 as uRd5-d3.
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let texts: Vec<String> = v.iter().map(|m| move_text(&g, m, &[])).collect();
        assert!(texts.iter().any(|t| t == "uRd5-d3"), "{texts:?}");
    }
}
