//! One turn of Laser Algebraic Notation: a step `j4j3`, a Switch's swap `f4ug3` (the Switch's
//! square first), a rotation `h2+` (clockwise) or `h2-`, written `h2r+` in the notation's first
//! version, each perhaps followed by `x` and the square of the piece the laser removed.
//!
//! Only syntax is checked here: whether the turn is legal, and whether the beam removes what
//! the `x` says, is for replay.
//!
//! ```
//! use cqlq::rules::laser::notation::{Action, Turn};
//!
//! let turn = Turn::parse(b"h2r+xg3")?;
//! assert!(matches!(turn.action, Action::Rotate { clockwise: true, .. }));
//! let mut out = Vec::new();
//! turn.write(&mut out);
//! assert_eq!(out, b"h2+xg3");
//! # Ok::<_, cqlq::rules::laser::notation::ParseTurnError>(())
//! ```

use std::fmt;

use crate::board::{File, Rank, split_square};

/// A square as the notation names it.
pub type SquareAt = (File, Rank);

/// What a turn does, before the laser fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A piece steps from one square to another.
    Step {
        /// Where it stands.
        from: SquareAt,
        /// Where it goes.
        to: SquareAt,
    },
    /// A Switch swaps places with the piece on a neighbouring square.
    Swap {
        /// The Switch's square.
        switch: SquareAt,
        /// The other piece's square.
        with: SquareAt,
    },
    /// A piece turns a quarter turn.
    Rotate {
        /// Where it stands.
        square: SquareAt,
        /// `+` (clockwise) or `-`.
        clockwise: bool,
    },
}

/// A turn as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Turn {
    /// What the player did.
    pub action: Action,
    /// The square of the piece the record says the laser removed (`x<square>`).
    pub victim: Option<SquareAt>,
}

/// Why a token is no turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParseTurnError {
    /// The token does not start with a square.
    NoSquare,
    /// After the first square comes no second square, `u`, `+`, `-` or `r`.
    NoAction,
    /// `u` or `x` is not followed by a square.
    MissingSquare(u8),
    /// Something follows the turn (at this byte).
    Trailing(usize),
}

impl fmt::Display for ParseTurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseTurnError::NoSquare => f.write_str("a turn starts with a square such as 'j4'"),
            ParseTurnError::NoAction => {
                f.write_str("after the first square comes a square ('j4j3'), 'u' and a square ('f4ug3'), '+' or '-'")
            }
            ParseTurnError::MissingSquare(letter) => write!(f, "'{}' must be followed by a square", *letter as char),
            ParseTurnError::Trailing(at) => write!(f, "unexpected text after the turn, at byte {}", at + 1),
        }
    }
}

impl std::error::Error for ParseTurnError {}

impl Turn {
    /// Reads a turn.
    pub fn parse(text: &[u8]) -> Result<Turn, ParseTurnError> {
        let (file, rank, rest) = split_square(text).ok_or(ParseTurnError::NoSquare)?;
        let first = (file, rank);
        let (action, rest) = match rest {
            [b'+' | b'-', ..] | [b'r', b'+' | b'-', ..] => {
                let (sign, rest) = match rest {
                    [b'r', sign, rest @ ..] | [sign, rest @ ..] => (*sign, rest),
                    [] => return Err(ParseTurnError::NoAction),
                };
                (Action::Rotate { square: first, clockwise: sign == b'+' }, rest)
            }
            [b'u', after @ ..] => {
                let (file, rank, rest) = split_square(after).ok_or(ParseTurnError::MissingSquare(b'u'))?;
                (Action::Swap { switch: first, with: (file, rank) }, rest)
            }
            _ => {
                let (file, rank, rest) = split_square(rest).ok_or(ParseTurnError::NoAction)?;
                (Action::Step { from: first, to: (file, rank) }, rest)
            }
        };
        let (victim, rest) = match rest {
            [b'x', after @ ..] => {
                let (file, rank, rest) = split_square(after).ok_or(ParseTurnError::MissingSquare(b'x'))?;
                (Some((file, rank)), rest)
            }
            _ => (None, rest),
        };
        if !rest.is_empty() {
            return Err(ParseTurnError::Trailing(text.len() - rest.len()));
        }
        Ok(Turn { action, victim })
    }

    /// Whether the turn is one no chess move list writes: a swap, or a square on a file past
    /// `h`.
    #[must_use]
    pub fn is_laser_only(&self) -> bool {
        let beyond_h = |(file, _): SquareAt| file.char() > 'h';
        match self.action {
            Action::Swap { .. } => true,
            Action::Step { from, to } => beyond_h(from) || beyond_h(to),
            Action::Rotate { square, .. } => beyond_h(square),
        }
    }

    /// Appends the turn as the notation writes it now: `h2+`, not `h2r+`.
    pub fn write(&self, out: &mut Vec<u8>) {
        match self.action {
            Action::Step { from, to } => {
                push_square(from, out);
                push_square(to, out);
            }
            Action::Swap { switch, with } => {
                push_square(switch, out);
                out.push(b'u');
                push_square(with, out);
            }
            Action::Rotate { square, clockwise } => {
                push_square(square, out);
                out.push(if clockwise { b'+' } else { b'-' });
            }
        }
        if let Some(victim) = self.victim {
            out.push(b'x');
            push_square(victim, out);
        }
    }
}

/// Appends a square's name.
fn push_square((file, rank): SquareAt, out: &mut Vec<u8>) {
    out.push(file.char() as u8);
    out.extend_from_slice(rank.number().to_string().as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(text: &str) -> String {
        let mut out = Vec::new();
        Turn::parse(text.as_bytes()).unwrap_or_else(|error| panic!("{text}: {error}")).write(&mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_form_of_the_notation_reads() {
        assert_eq!(written("j4j3"), "j4j3");
        assert_eq!(written("f4ug3"), "f4ug3");
        assert_eq!(written("h2+"), "h2+");
        assert_eq!(written("h2-"), "h2-");
        assert_eq!(written("h2r+"), "h2+");
        assert_eq!(written("h2r-xg3"), "h2-xg3");
        assert_eq!(written("j4j3xg3"), "j4j3xg3");
        assert_eq!(written("f4ug3xf4"), "f4ug3xf4");
        let turn = Turn::parse(b"f4ug3").unwrap();
        assert!(matches!(turn.action, Action::Swap { .. }) && turn.victim.is_none());
    }

    #[test]
    fn what_is_no_turn_says_why() {
        let error = |text: &str| Turn::parse(text.as_bytes()).unwrap_err();
        assert_eq!(error(""), ParseTurnError::NoSquare);
        assert_eq!(error("K4"), ParseTurnError::NoSquare);
        assert_eq!(error("j4"), ParseTurnError::NoAction);
        assert_eq!(error("j4u"), ParseTurnError::MissingSquare(b'u'));
        assert_eq!(error("j4j3x"), ParseTurnError::MissingSquare(b'x'));
        assert_eq!(error("j4j3+"), ParseTurnError::Trailing(4));
        assert_eq!(error("h2r"), ParseTurnError::NoAction);
        assert_eq!(error("j4j3xg3!"), ParseTurnError::Trailing(7));
    }

    #[test]
    fn no_input_panics() {
        let samples = ["j4j3xg3", "f4ug3", "h2r+", "a10b10", "z26z25xa1"];
        for sample in samples {
            let bytes = sample.as_bytes();
            for end in 0..=bytes.len() {
                let _ = Turn::parse(&bytes[..end]);
                let _ = Turn::parse(&bytes[end..]);
            }
            let mut mutated = bytes.to_vec();
            for i in 0..bytes.len() {
                for byte in 0..=255 {
                    mutated[i] = byte;
                    if let Ok(turn) = Turn::parse(&mutated) {
                        let mut out = Vec::new();
                        turn.write(&mut out);
                        assert_eq!(Turn::parse(&out), Ok(turn));
                    }
                }
                mutated[i] = bytes[i];
            }
        }
    }
}
