//! # Chimère's computer opponent
//!
//! One search for every game Chimère plays ([`search`]), generic over the rules: iterative
//! deepening, PVS alpha-beta with a lock-free transposition table ([`tt`]), move ordering,
//! quiescence on noisy turns, reductions and pruning where the variant's evaluation data
//! says they are sound, the game-level rules inside the tree, time management ([`time`])
//! and lazy SMP threads. The evaluation is data per variant ([`eval`]). Playing levels 1-8
//! limit depth and nodes and choose among near-best turns. [`uci`] speaks the UCI protocol;
//! [`play::choose`] answers a turn for a game held elsewhere (the web server).

pub mod eval;
pub mod levels;
pub mod play;
pub mod pos;
pub mod search;
pub mod time;
pub mod tt;
pub mod uci;

pub use search::{History, Info, MATE, Memory, Outcome, Score, Settings, Shared, search};
pub use time::Limits;
pub use tt::Tt;
