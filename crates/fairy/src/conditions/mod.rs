//! The conditions, one file each (a family is one module with parameters).

pub mod checkless;
pub mod checkrules;
pub mod circe;
pub mod extinction;
pub mod ghost;
pub mod kamikaze;
pub mod losing;
pub mod maff;
pub mod mars;
pub mod obligations;
pub mod registry;
pub mod republican;
pub mod rexmultiplex;
pub mod siamese;

pub use checkless::Checkless;
pub use checkrules::{Bicolores, Brunner, Isardam, Sat, Vogtlander};
pub use circe::{Change, Circe, Occupied, RebirthSquare, Who};
pub use extinction::Extinction;
pub use ghost::Ghost;
pub use kamikaze::Kamikaze;
pub use losing::Losing;
pub use maff::Maff;
pub use mars::{Mars, MarsMirror};
pub use obligations::{BlackChecks, ForcedSquares};
pub use registry::by_name;
pub use republican::Republican;
pub use rexmultiplex::RexMultiplex;
pub use siamese::SiameseKings;
