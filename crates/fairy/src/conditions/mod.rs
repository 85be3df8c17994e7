//! The conditions, one file each (a family is one module with parameters).

pub mod central;
pub mod checkless;
pub mod checkrules;
pub mod chromatic;
pub mod circe;
pub mod eiffel;
pub mod extinction;
pub mod ghost;
pub mod haan;
pub mod hole;
pub mod kamikaze;
pub mod losing;
pub mod mars;
pub mod obligations;
pub mod patrol;
pub mod registry;

pub use central::Central;
pub use checkless::Checkless;
pub use checkrules::{Bicolores, Brunner, Isardam, Sat, Vogtlander};
pub use chromatic::{Bichrome, Chromatic, Monochrome};
pub use circe::{Change, Circe, Occupied, RebirthSquare, Who};
pub use eiffel::Eiffel;
pub use extinction::Extinction;
pub use ghost::Ghost;
pub use haan::Haan;
pub use hole::Hole;
pub use kamikaze::Kamikaze;
pub use losing::Losing;
pub use mars::{Mars, MarsMirror};
pub use obligations::{BlackChecks, ForcedSquares};
pub use patrol::UltraPatrol;
pub use registry::by_name;
