//! PGN, the container of game records in every notation: tag pairs, then movetext.
//!
//! - [`Splitter`] finds where games start, fast, so that games can be read in parallel.
//! - [`sniff_content`] tells PGN from what is not (binary, positions, other text).
//! - [`Lexer`] reads the games of a stretch of text and pushes tags, moves (with their byte
//!   offsets), comments, variations and results to a [`Visitor`].
//! - SAN move tokens are played by the classical rules (`rules::classical::SAN_MOVES`).
//! - [`export`] writes a game in PGN's export format, from its moves as written.
//! - [`cql_style`] writes games as CQL 6.2 writes the games it finds.

mod content;
pub mod cql_style;
pub mod export;
mod lexer;
mod lines;
mod split;
mod text;

pub use content::{
    NOTATION_NAMES, NotPgn, PREAMBLE_BYTES, SNIFF_BYTES, foreign_compression, preamble_length, sniff_content,
    sniff_wants,
};
pub use lexer::{Damage, GameSpan, Lexer, Visitor, unescape};
pub use split::Splitter;
pub use text::{decode_text, tag_text};
