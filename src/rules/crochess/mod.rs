//! The rules of Croatian Chess, the eleven variants of the book from Classical Chess (8x8) to
//! One (26x26), in both its editions: one board, generic over the width of its square sets,
//! plays the notation's moves and every effect they write out (cascades, teleports, journeys,
//! conversions, displacements, demotions, resurrections, castling, rushes and en passant); the
//! short notation's first ply finds its piece by the paths of each kind of piece.
//!
//! ```
//! use cqlq::Variant;
//! use cqlq::rules::GameRules;
//! use cqlq::rules::crochess::CroatianBoard;
//!
//! let ties = Variant::by_name("Croatian Ties").unwrap();
//! let mut board = CroatianBoard::<2>::start(ties, None)?;
//! let mut reason = None;
//! board.play_token(b"e4", &mut reason).unwrap();
//! board.play_token(b"Gi10-h8", &mut reason).unwrap();
//! let mut position = String::new();
//! board.write_position(&mut position);
//! assert!(position.contains("Pe4,") && position.contains("gh8,"));
//! # Ok::<_, String>(())
//! ```

mod board;
mod game;
mod journal;
mod journey;
mod paths;
mod plain;
mod play;
mod rewrite;

pub use board::{Alphabet, CroatianBoard};
pub use play::{PlayError, Played};
#[cfg(test)]
mod tests;
