//! X-Decor-libre chess (the Luanti mod `xdecor`): the token-level syntax of its notation.
//!
//! The mod shows the moves as a table in long figurine algebraic notation (`♘g1–f3`,
//! `e5×d6 e.p.`, `g7×h8♕`, `0–0`, a result row `1–0`, `0–1` or `½–½`), and stores them in the
//! chessboard's node metadata as the `moves_raw` record
//! (`realchess:knight_white_2,,63,46,;…`). This module reads and writes single tokens of both:
//!
//! - [`Halfmove`] and [`Outcome`]: one cell of the table, as a person transcribes it.
//! - [`RawEntry`]: one entry of `moves_raw`; [`entries`] splits a whole record.
//!
//! Only syntax is checked here; whether a move is legal is for replay.
//!
//! ```
//! use cqlq::Color;
//! use cqlq::rules::classical::xdecor::{Halfmove, Outcome, RawEntry, Style};
//!
//! let half = Halfmove::parse("♘g1–f3".as_bytes())?;
//! let mut out = Vec::new();
//! half.write(Color::White, Style::Letters, &mut out);
//! assert_eq!(out, b"Ng1-f3");
//!
//! assert_eq!(Outcome::parse_result("½–½".as_bytes()), Some(Outcome::Draw));
//! assert_eq!(RawEntry::parse(b",,,,draw")?, RawEntry::Result(Outcome::Draw));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

mod halfmove;
mod moves;
mod raw;
mod raw_file;
mod table;
mod write;

pub use halfmove::{Figurine, Halfmove, HalfmoveErrorKind, Outcome, ParseHalfmoveError, Style, TableMove};
pub use moves::{RAW_MOVES, RawMoves, TABLE_MOVES, TableMoves};
pub use raw::{Excerpt, ParseRawError, RawEntry, RawMove, entries, raw_index, raw_square, write_item};
pub use raw_file::{RAW_FORMAT, RawFormat};
pub use table::{TABLE_FORMAT, TABLE_MOVETEXT, TableFormat, TableMovetext};
pub use write::{WriteError, write_raw, write_table};

use crate::notation::MoveNotation;

/// The halfmoves of the move table, as the classical rules play them.
pub const TABLE_NOTATION: MoveNotation = MoveNotation("X-Decor move table");

/// The entries of `moves_raw`, as the classical rules play them.
pub const RAW_NOTATION: MoveNotation = MoveNotation("X-Decor moves_raw");

/// The X-Decor variant of the catalogue.
fn variant() -> &'static crate::Variant {
    static VARIANT: std::sync::LazyLock<&'static crate::Variant> =
        std::sync::LazyLock::new(|| crate::Variant::by_name("X-Decor").expect("X-Decor is in the catalogue"));
    &VARIANT
}
