//! No Double Pawns (no Popeye equivalent): a move — captures, rebirths and every other
//! consequence included — is illegal if afterwards a side has two or more pawns on the
//! same file. It is a legality test on the position after the whole move.
//!
//! Our reading (decisions): neutral pawns count for both sides; check stays orthodox (a
//! king capture ends the ctx, so whether it would double pawns does not matter); a
//! diagram that already has doubled pawns only allows moves that undo them.

use crate::rules::{Capabilities, Condition, Ctx};
use crate::walk::PAWN;
use chimere_core::{Bitboard, Colour};

#[derive(Clone, Debug, Default)]
pub struct NoDoublePawns;

/// Whether some file holds two or more of these pawns.
fn doubled(pawns: Bitboard) -> bool {
    let mut files = 0u8;
    let mut n = 0;
    for s in pawns {
        files |= 1 << s.file();
        n += 1;
    }
    n != files.count_ones()
}

impl Condition for NoDoublePawns {
    fn name(&self) -> String {
        "No Double Pawns".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities { legality: true, ..Capabilities::default() }
    }
    fn legal_after(&self, ctx: &mut Ctx, _mover: Colour) -> bool {
        let b = ctx.pos().board();
        let pawns = b.kind(PAWN);
        let shared = b.colour(Colour::Shared);
        !doubled(pawns & (b.colour(Colour::White) | shared)) && !doubled(pawns & (b.colour(Colour::Black) | shared))
    }
}

#[cfg(test)]
mod tests {
    use crate::game_from_fen;

    fn moves(fen: &str, conds: &[&str]) -> Vec<String> {
        let mut g = game_from_fen(fen, conds).unwrap();
        let mut v = Vec::new();
        g.legal_moves(&mut v);
        let mut out: Vec<String> = v.iter().map(|m| crate::notation::move_with_check(&mut g, m).unwrap()).collect();
        out.sort();
        out
    }

    #[test]
    fn captures_that_double_pawns_are_illegal() {
        // White Ka1 Pd2 Pe3, black Kh8 Pd4 Pf4. Orthodox White moves: Ka1-a2, Ka1-b1,
        // Ka1-b2, d2-d3, e3-e4, e3*d4, e3*f4 (d2-d4 is blocked by the black pawn d4).
        // e3*d4 puts a white pawn on d4 beside d2 on the d-file: doubled, illegal. e3*f4:
        // no other white pawn on the f-file: legal. The other moves leave the files as they
        // are: legal.
        let m = moves("7k/8/8/8/3p1p2/4P3/3P4/K7 w - - 0 1", &["no double pawns"]);
        let mut want: Vec<String> =
            ["Ka1-a2", "Ka1-b1", "Ka1-b2", "d2-d3", "e3-e4", "e3*f4"].iter().map(|s| s.to_string()).collect();
        want.sort();
        assert_eq!(m, want);
    }

    #[test]
    fn rebirths_count() {
        // Circe antipodes: White Ka1 Rd1, black Ka8 Pd4 Ph7. Rd1*d4 sends the black pawn to
        // the antipode square h8, next to the black pawn h7: two black pawns on the h-file,
        // so the capture is illegal under No Double Pawns; every other move of the plain
        // Circe antipodes set stays (no other move changes pawn files).
        let fen = "k7/7p/8/8/3p4/8/8/K2R4 w - - 0 1";
        let plain = moves(fen, &["circe antipodes"]);
        assert!(plain.contains(&"Rd1*d4[+bPh8]".to_string()), "{plain:?}");
        let want: Vec<String> = plain.into_iter().filter(|m| m != "Rd1*d4[+bPh8]").collect();
        assert_eq!(moves(fen, &["circe antipodes", "no double pawns"]), want);
        // Without the h7 pawn the rebirth doubles nothing.
        let alone = moves("k7/8/8/8/3p4/8/8/K2R4 w - - 0 1", &["circe antipodes", "no double pawns"]);
        assert!(alone.contains(&"Rd1*d4[+bPh8]".to_string()), "{alone:?}");
    }
}
