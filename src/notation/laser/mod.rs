//! Laser Chess notation: Setup Notation, and the turns of Laser Algebraic Notation.

pub mod setup_notation;
mod turn;

pub use turn::{Action, ParseTurnError, SquareAt, Turn};
