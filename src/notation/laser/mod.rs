//! Laser Chess notation: Setup Notation, the turns of Laser Algebraic Notation, and files of
//! bare move lists.

mod list;
pub mod setup_notation;
mod turn;

pub use list::{LIST_FORMAT, ListFormat};
pub use turn::{Action, ParseTurnError, SquareAt, Turn};
