//! The rules of each variant family: what a move does, and which moves are legal.
//!
//! - [`classical`]: Standard chess, Chess960 and Crazyhouse on `u64` bitboards.
//! - [`laser`]: Laser Chess, its beam and its turns, on 128-bit boards.

pub mod classical;
mod game;
pub mod laser;

pub use game::GameRules;
