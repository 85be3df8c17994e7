//! The conditions, one file each (a family is one module with parameters).

pub mod absorbant;
pub mod checkless;
pub mod checkrules;
pub mod circe;
pub mod extinction;
pub mod ghost;
pub mod kamikaze;
pub mod losing;
pub mod mars;
pub mod obligations;
pub mod registry;

pub use absorbant::Absorbant;
pub use checkless::Checkless;
pub use checkrules::{Bicolores, Brunner, Isardam, Sat, Vogtlander};
pub use circe::{Change, Circe, Occupied, RebirthSquare, Who};
pub use extinction::Extinction;
pub use ghost::Ghost;
pub use kamikaze::Kamikaze;
pub use losing::Losing;
pub use mars::{Mars, MarsMirror};
pub use obligations::{BlackChecks, ForcedSquares};
pub use registry::by_name;
