//! Laser Chess moves: the turns of Laser Algebraic Notation, and files of bare move lists.

mod list;
mod turn;

pub use list::{LIST_FORMAT, ListFormat};
pub use turn::{Action, ParseTurnError, SquareAt, Turn};
