//! Notation readers and writers.
//!
//! - [`fen`]: FEN for every variant (X-FEN and Shredder castling, Crazyhouse hands, big boards).
//! - [`crochess`]: Croatian Chess setup strings.
//! - [`laser`]: Laser Chess Setup Notation.
//! - [`pgn`]: the PGN container: splitting games, reading tags and movetext.
//! - [`sniff`]: one position from a line whose format and variant may be unknown.

pub mod crochess;
pub mod fen;
pub mod laser;
pub mod pgn;
mod rows;
pub mod sniff;

pub use rows::BoardError;
