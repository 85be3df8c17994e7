//! FEN for orthodox chess, through the core's one orthodox [`Setup`]: every dialect it
//! reads (standard, X-FEN, Shredder, vchess), validated as a legal orthodox game
//! ([`Validation::ORTHODOX`]); written back as vchess or standard FEN.

use crate::{Chess, state_key};
use chimere_core::setup::{Dialect, Setup, SetupError, Validation};
use chimere_core::{Board, RulesError, Square};

/// Reads any dialect.
pub(crate) fn parse(text: &str) -> Result<Chess, RulesError> {
    Ok(Chess::from_setup(&Setup::parse(text)?)?)
}

impl Chess {
    /// The position of a setup, which must be a legal orthodox game position
    /// ([`Validation::ORTHODOX`]: one king each, no pawn on a first or last rank, the side
    /// not to move not in check, castling rights with king and rook in place, a possible
    /// en passant square).
    pub fn from_setup(s: &Setup) -> Result<Chess, SetupError> {
        s.validate(&Validation::ORTHODOX)?;
        let mut board = Board::empty();
        for sq in Square::ALL {
            if let Some(p) = s.get(sq) {
                board.put(sq, p);
            }
        }
        let state_key = state_key(&board, s.side, &s.castling, s.ep);
        Ok(Chess {
            board,
            side: s.side,
            castling: s.castling,
            ep: s.ep,
            halfmove: s.halfmove,
            plies: s.plies,
            state_key,
        })
    }

    /// The position as a plain setup.
    pub fn setup(&self) -> Setup {
        let mut board = [None; 64];
        for (sq, p) in self.board.iter() {
            board[sq.index()] = Some(p);
        }
        Setup {
            board,
            side: self.side,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            plies: self.plies,
        }
    }

    /// The position in standard FEN (X-FEN castling letters when `K`/`Q` would be
    /// ambiguous).
    pub fn standard_fen(&self) -> String {
        self.setup().fen(Dialect::Standard)
    }
}

/// vchess FEN: `board side plies castling ep`.
pub(crate) fn write_vchess(pos: &Chess) -> String {
    pos.setup().fen(Dialect::Vchess)
}
