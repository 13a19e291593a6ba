//! The rules of Laser Chess: pieces step one square or turn, a Switch swaps with a mirror
//! piece, and after every turn the mover's laser fires; its beam crosses the board square by
//! square and removes the first piece it meets on a vulnerable face. What each piece does to
//! the beam is the table of `beam_table.txt` ([`BEAM_TABLE`]); where the lasers stand and which
//! squares are reserved for each side is the variant's data ([`Layout`]).
//!
//! ```
//! use cqlq::Variant;
//! use cqlq::rules::laser::{LaserBoard, LaserMove};
//!
//! let laser = Variant::by_name("Laser Chess").unwrap();
//! let mut board = LaserBoard::initial(laser)?;
//! let layout = board.layout();
//! let square = |name: &str| layout.square(name).unwrap();
//! let (from, to) = (square("j4"), square("j3"));
//! // The Deflector steps down; Blue's beam turns at j3 and again at g3, and leaves the board.
//! let shot = board.play(LaserMove::Step { from, to }).unwrap();
//! assert_eq!(shot.hit, None);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

mod beam;
mod board;
mod drawing;
mod game;
mod layout;
mod moves;
pub mod notation;
mod turns;

pub use beam::{BEAM_TABLE, BeamTable, Effect, LaserKind, Travel};
pub use board::{LaserBoard, LaserPiece, LaserSetupError, Shot};
pub use layout::{Layout, LayoutError, MAX_SQUARES};
pub use moves::{IllegalLaserMove, LaserMove};
pub use turns::{Played, TurnError};
