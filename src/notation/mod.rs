//! Notation readers and writers.
//!
//! - [`fen`]: FEN for every variant (X-FEN and Shredder castling, Crazyhouse hands, big boards).
//! - [`lines`]: lines of any text, ended by `\n`, `\r\n` or a lone `\r`.
//! - [`crochess`]: Croatian Chess setup strings.
//! - [`laser`]: Laser Chess Setup Notation.
//! - [`pgn`]: the PGN container: splitting games, reading tags and movetext.
//! - [`position_string`]: a position in its variant's own string.
//! - [`sniff`]: one position from a line whose format and variant may be unknown.
//!
//! How files of games and move tokens are read, whatever the notation, is one seam: a file is a
//! [`Container`] (PGN, or a [`NativeFormat`]); a PGN game's movetext in a notation other than SAN
//! is read by its [`MovetextReader`]; a [`MoveReader`] plays move tokens. The notations of moves
//! belong to the rule families (`rules::classical::xdecor`, `rules::laser::notation`), which list
//! their formats in `rules::formats`; this module holds what all share: PGN, positions, lines.

pub mod crochess;
pub mod fen;
pub mod laser;
pub mod lines;
pub mod pgn;
pub mod position_string;
mod reader;
mod rows;
pub mod sniff;

pub use reader::{
    Container, GameSplitter, MoveError, MoveErrorKind, MoveNotation, MoveReader, Movetext, MovetextReader,
    NativeFormat, starts_with_tag,
};
pub use rows::BoardError;
