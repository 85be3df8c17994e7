//! The conditions, one file each (a family is one module with parameters).

pub mod anti_andernach;
pub mod checkless;
pub mod checkrules;
pub mod circe;
pub mod einstein;
pub mod extinction;
pub mod ghost;
pub mod glasgow;
pub mod gravitation;
pub mod kamikaze;
pub mod losing;
pub mod mars;
pub mod obligations;
pub mod registry;
pub mod sentinelles;
pub mod swapping_kings;
pub mod volage;

pub use anti_andernach::AntiAndernach;
pub use checkless::Checkless;
pub use checkrules::{Bicolores, Brunner, Isardam, Sat, Vogtlander};
pub use circe::{Change, Circe, Occupied, RebirthSquare, Who};
pub use einstein::Einstein;
pub use extinction::Extinction;
pub use ghost::Ghost;
pub use glasgow::Glasgow;
pub use gravitation::Gravitation;
pub use kamikaze::Kamikaze;
pub use losing::Losing;
pub use mars::{Mars, MarsMirror};
pub use obligations::{BlackChecks, ForcedSquares};
pub use registry::by_name;
pub use sentinelles::{Sentinel, Sentinelles};
pub use swapping_kings::SwappingKings;
pub use volage::Volage;
