//! The texts of the comments a query makes at positions.
//!
//! Most are made as they are. Those that `path` and `line` make about every run they find
//! (`Start path that ends at move 7(wtm)`, `End path of length 3 that starts at move 5(btm)`)
//! come at nearly every position a search tests, and most go with the positions that do not
//! match: they keep the numbers they are made of, and are written only once a position that
//! holds them is found.

use std::fmt::{self, Write};

/// A position as CQL 6.2 names it in comments: `move 12(wtm)`, and in a variation with its
/// number in the game after it, `move 12(wtm)[40]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionName {
    /// The number of the move to be made.
    pub move_number: u32,
    /// Whether White is to move.
    pub white_to_move: bool,
    /// The position's number in the game, for a position in a variation.
    pub id: Option<u32>,
}

impl fmt::Display for PositionName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = if self.white_to_move { "wtm" } else { "btm" };
        write!(f, "move {}({side})", self.move_number)?;
        match self.id {
            Some(id) => write!(f, "[{id}]"),
            None => Ok(()),
        }
    }
}

/// What found a run of positions: a `path` or a `line`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunKind {
    /// `path`.
    Path,
    /// `line`.
    Line,
}

impl RunKind {
    fn word(self) -> &'static str {
        match self {
            RunKind::Path => "path",
            RunKind::Line => "line",
        }
    }
}

/// The text of a comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoteText {
    /// A text made as it is.
    Text(String),
    /// At a run's first position: `Start path that ends at move 7(wtm)`.
    RunStart {
        /// What found the run.
        kind: RunKind,
        /// Its last position.
        end: PositionName,
    },
    /// At a run's last position: `End path of length 3 that starts at move 5(btm)`, and for a
    /// path with `max`, ` Max value: 12`.
    RunEnd {
        /// What found the run.
        kind: RunKind,
        /// The moves (or positions) it counts.
        length: u64,
        /// Its first position.
        start: PositionName,
        /// The best value of the path's `max`.
        max: Option<i64>,
    },
}

impl NoteText {
    /// The text written out.
    #[must_use]
    pub fn into_string(self) -> String {
        match self {
            NoteText::Text(text) => text,
            made => {
                // Room for the longest: `End path of length N that starts at move N(wtm)[N]`
                // and a value.
                let mut text = String::with_capacity(96);
                let _ = write!(text, "{made}");
                text
            }
        }
    }
}

impl From<String> for NoteText {
    fn from(text: String) -> NoteText {
        NoteText::Text(text)
    }
}

impl fmt::Display for NoteText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoteText::Text(text) => f.write_str(text),
            NoteText::RunStart { kind, end } => write!(f, "Start {} that ends at {end}", kind.word()),
            NoteText::RunEnd { kind, length, start, max } => {
                write!(f, "End {} of length {length} that starts at {start}", kind.word())?;
                match max {
                    Some(max) => write!(f, " Max value: {max}"),
                    None => Ok(()),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_comments_are_written_as_cql_writes_them() {
        let start = PositionName { move_number: 5, white_to_move: false, id: None };
        let end = PositionName { move_number: 7, white_to_move: true, id: Some(40) };
        let texts = [
            (NoteText::RunStart { kind: RunKind::Path, end }, "Start path that ends at move 7(wtm)[40]"),
            (
                NoteText::RunEnd { kind: RunKind::Path, length: 3, start, max: Some(-2) },
                "End path of length 3 that starts at move 5(btm) Max value: -2",
            ),
            (
                NoteText::RunEnd { kind: RunKind::Line, length: 1, start, max: None },
                "End line of length 1 that starts at move 5(btm)",
            ),
            (NoteText::from("CQL".to_owned()), "CQL"),
        ];
        for (text, written) in texts {
            assert_eq!(text.to_string(), written);
            assert_eq!(text.into_string(), written);
        }
    }
}
