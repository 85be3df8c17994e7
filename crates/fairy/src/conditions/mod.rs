//! The conditions, one file each (a family is one module with parameters).

pub mod all_in;
pub mod bicaptures;
pub mod checkless;
pub mod checkrules;
pub mod circe;
pub mod extinction;
pub mod ghost;
pub mod kamikaze;
pub mod losing;
pub mod mars;
pub mod no_double_pawns;
pub mod obligations;
pub mod piece_set;
pub mod reflective_kings;
pub mod registry;
pub mod rokagogo;
pub mod strict_transmuted_kings;

pub use all_in::AllIn;
pub use bicaptures::Bicaptures;
pub use checkless::Checkless;
pub use checkrules::{Bicolores, Brunner, Isardam, Sat, Vogtlander};
pub use circe::{Change, Circe, Occupied, RebirthSquare, Who};
pub use extinction::Extinction;
pub use ghost::Ghost;
pub use kamikaze::Kamikaze;
pub use losing::Losing;
pub use mars::{Mars, MarsMirror};
pub use no_double_pawns::NoDoublePawns;
pub use obligations::{BlackChecks, ForcedSquares};
pub use piece_set::PieceSet;
pub use reflective_kings::ReflectiveKings;
pub use registry::by_name;
pub use rokagogo::Rokagogo;
pub use strict_transmuted_kings::StrictTransmutedKings;
