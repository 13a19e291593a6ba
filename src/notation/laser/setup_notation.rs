//! Laser Chess Setup Notation: `row8/row7/.../row1`, ten squares a row.
//!
//! Pieces are `K S D B L` (King, Switch, Defender, Deflector, Laser), upper case for Blue and
//! lower case for Red, each followed by one `+` per quarter turn clockwise from its base
//! orientation; digits 1-9 count empty squares and `*` stands for ten. Blue moves first; the
//! notation has no side-to-move field, but cqlq writes positions with one after a space (`w`
//! Blue, `b` Red, as FEN), and reads it where it is.
//!
//! ```
//! use cqlq::notation::laser::setup_notation;
//! use cqlq::Variant;
//!
//! let laser = Variant::by_name("Laser Chess").unwrap();
//! let text = "l++3d++kd++b+++2/2b7/3B+6/b++1B1ss+1b+++1B+/b+++1B+1S+S1b++1B/6b+++3/7B++2/2B+DKD3L";
//! let setup = setup_notation::read::<2>(laser, text)?;
//! assert_eq!(setup.board.occupied().count(), 26);
//! assert_eq!(setup_notation::write(&setup), text);
//! # Ok::<_, setup_notation::ParseSetupNotationError>(())
//! ```

use std::fmt;

use crate::notation::rows::{self, BoardError, RowSyntax};
use crate::position::Setup;
use crate::variant::{Color, PositionFormat, Variant};

/// Why a Setup Notation text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseSetupNotationError {
    /// Setup Notation describes Laser Chess boards only.
    NotLaser(&'static str),
    /// The text is not one word, or one and a side to move.
    Fields,
    /// The rows.
    Board(BoardError),
}

impl fmt::Display for ParseSetupNotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseSetupNotationError::NotLaser(name) => {
                write!(f, "setup notation describes Laser Chess boards, not {name}")
            }
            ParseSetupNotationError::Fields => f.write_str(
                "setup notation is one word of eight rows, and may be followed by the side to move (w or b)",
            ),
            ParseSetupNotationError::Board(error) => write!(f, "invalid setup notation: {error}"),
        }
    }
}

impl std::error::Error for ParseSetupNotationError {}

/// Reads Setup Notation for a Laser Chess variant.
pub fn read<const W: usize>(variant: &'static Variant, text: &str) -> Result<Setup<W>, ParseSetupNotationError> {
    if variant.position_format != PositionFormat::SetupNotation {
        return Err(ParseSetupNotationError::NotLaser(variant.name));
    }
    let mut words = text.split_ascii_whitespace();
    let (Some(board), side, None) = (words.next(), words.next(), words.next()) else {
        return Err(ParseSetupNotationError::Fields);
    };
    let mut setup = Setup::empty(variant);
    setup.turn = match side {
        None | Some("w") => Color::White,
        Some("b") => Color::Black,
        Some(_) => return Err(ParseSetupNotationError::Fields),
    };
    setup.board = rows::read(variant, board, RowSyntax::SetupNotation).map_err(ParseSetupNotationError::Board)?;
    Ok(setup)
}

/// Writes a setup's board as Setup Notation.
#[must_use]
pub fn write<const W: usize>(setup: &Setup<W>) -> String {
    rows::write(setup.variant, &setup.board, RowSyntax::SetupNotation)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_must_hold_ten_squares() {
        let laser = Variant::by_name("Laser Chess").unwrap();
        let error = read::<2>(laser, "*/*/*/*/*/*/*/9").unwrap_err();
        assert_eq!(error.to_string(), "invalid setup notation: rank 1 has 9 squares where the board has 10 files");
        let error = read::<2>(laser, "*/*/*/*/*/*/*/10").unwrap_err();
        assert_eq!(error.to_string(), "invalid setup notation: '10' on rank 1 is not a count of empty squares");
        let error = read::<2>(laser, "*/*/*/*/*/*/*/K++++9").unwrap_err();
        assert_eq!(error.to_string(), "invalid setup notation: more than three '+' on rank 1");
    }
}
