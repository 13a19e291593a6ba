//! Croatian Chess setup strings: `<code> <piece><square>[tags],...`.
//!
//! The variant code (`ct`, `ma`, `o`, ...) opens the string; an upper-case first letter means
//! Light is to move, a lower-case one Dark. Then come the occupied squares, separated by commas:
//! a piece letter (upper case Light, lower case Dark; `T`/`t` the bright and dim Stars, `M`/`m`
//! the Monoliths of the light and dark halves), its square, and its tags:
//!
//! | tag | meaning |
//! |---|---|
//! | `\|` | the private may rush |
//! | `&` | the King or Rook may castle |
//! | `=` | the Pawn is tagged for promotion |
//! | `:` | the private rushed last move (it may be taken en passant) |
//! | `;` | the private is rushing in this move |
//!
//! ```
//! use cqlq::notation::crochess::setup_string;
//!
//! let (variant, setup) = setup_string::read::<2>("Ct Ke1&,Ra1&,ke10&,Pe2|,ge9")?;
//! assert_eq!(variant.name, "Croatian Ties");
//! assert_eq!(setup.board.occupied().count(), 5);
//! assert_eq!(setup_string::write(&setup), "Ct Ra1&,Ke1&,Pe2|,ge9,ke10&");
//! # Ok::<_, setup_string::ParseSetupStringError>(())
//! ```

use std::fmt;

use crate::board::{SquareSet, split_square};
use crate::position::{Mark, Setup};
use crate::variant::{Color, Variant};

/// The tags of a variant's setup strings (the marks its catalogue row writes with a symbol),
/// in the order they are written.
fn tag_marks(variant: &Variant) -> impl Iterator<Item = (char, Mark)> {
    variant.vocabulary().marks.iter().filter_map(|def| Some((def.symbol?, def.mark)))
}

/// Why a setup string could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseSetupStringError {
    /// The string does not start with a Croatian Chess variant code.
    Code(String),
    /// The variant's board does not fit the requested square-set width.
    Width(&'static str),
    /// An item of the piece list.
    Item {
        /// The item as written.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
}

impl fmt::Display for ParseSetupStringError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseSetupStringError::Code(code) => {
                write!(f, "'{code}' is not a Croatian Chess variant code (cc ct ma aoa mv n hd tr cot d o)")
            }
            ParseSetupStringError::Width(name) => write!(f, "{name} boards do not fit here"),
            ParseSetupStringError::Item { text, reason } => write!(f, "invalid setup item '{text}': {reason}"),
        }
    }
}

impl std::error::Error for ParseSetupStringError {}

/// The Croatian Chess variant a setup string's code names, if its first word is one.
#[must_use]
pub fn variant_of(text: &str) -> Option<&'static Variant> {
    let code = text.split_ascii_whitespace().next()?;
    Variant::all().iter().find(|variant| variant.code.is_some_and(|c| c.eq_ignore_ascii_case(code)))
}

/// Reads a setup string; the variant comes from its code, in the book's 2020 edition.
pub fn read<const W: usize>(text: &str) -> Result<(&'static Variant, Setup<W>), ParseSetupStringError> {
    let code = text.split_ascii_whitespace().next().unwrap_or("");
    let variant = variant_of(text).ok_or_else(|| ParseSetupStringError::Code(code.to_owned()))?;
    Ok((variant, read_of(variant, text)?))
}

/// Reads a setup string of `variant` (whose code it must open with): the pieces, tags and
/// side to move, in the alphabet of the variant's edition.
pub fn read_of<const W: usize>(variant: &'static Variant, text: &str) -> Result<Setup<W>, ParseSetupStringError> {
    let text = text.trim();
    let code = text.split_ascii_whitespace().next().unwrap_or("");
    if !variant.code.is_some_and(|own| own.eq_ignore_ascii_case(code)) {
        return Err(ParseSetupStringError::Code(code.to_owned()));
    }
    if variant.geometry.squares() > SquareSet::<W>::CAPACITY {
        return Err(ParseSetupStringError::Width(variant.name));
    }
    let mut setup = Setup::empty(variant);
    setup.turn = Color::of_case(code.starts_with(|c: char| c.is_ascii_uppercase()));
    let items = text[code.len()..].trim();
    for item in items.split(',').map(str::trim).filter(|item| !item.is_empty()) {
        read_item(&mut setup, item)?;
    }
    Ok(setup)
}

fn read_item<const W: usize>(setup: &mut Setup<W>, item: &str) -> Result<(), ParseSetupStringError> {
    let variant = setup.variant;
    let error = |reason: String| ParseSetupStringError::Item { text: item.to_owned(), reason };
    let mut chars = item.chars();
    let letter = chars.next().ok_or_else(|| error("empty item".to_owned()))?;
    let piece = variant
        .piece_by_symbol(&letter.to_string())
        .ok_or_else(|| error(format!("'{letter}' is no piece of {} (pieces: {})", variant.name, variant.letters())))?;
    let rest = chars.as_str();
    let (file, rank, tags) =
        split_square(rest.as_bytes()).ok_or_else(|| error("expected a square such as e4".to_owned()))?;
    let square = variant
        .geometry
        .square(file, rank)
        .ok_or_else(|| error(format!("{file}{rank} is outside the {} board", variant.geometry.describe())))?;
    if setup.board.piece_at(square).is_some() {
        return Err(error(format!("{file}{rank} is listed twice")));
    }
    setup.board.put(square, piece);
    let tags = &rest[rest.len() - tags.len()..];
    for tag in tags.chars() {
        let (_, mark) = tag_marks(variant).find(|(symbol, _)| *symbol == tag).ok_or_else(|| {
            let known: Vec<String> = tag_marks(variant).map(|(symbol, _)| symbol.to_string()).collect();
            error(format!("'{tag}' is no tag (tags: {})", known.join(" ")))
        })?;
        setup.board.set_mark(mark, square, true);
    }
    Ok(())
}

/// Writes a setup string, squares in board order from `a1`.
///
/// # Panics
///
/// If the setup's variant is not a Croatian Chess variant.
#[must_use]
pub fn write<const W: usize>(setup: &Setup<W>) -> String {
    let variant = setup.variant;
    let code = variant.code.expect("setup strings are written for Croatian Chess variants");
    let mut out = match setup.turn {
        Color::White => {
            let mut chars = code.chars();
            let first = chars.next().expect("codes are not empty").to_ascii_uppercase();
            std::iter::once(first).chain(chars).collect::<String>()
        }
        Color::Black => code.to_owned(),
    };
    out.push(' ');
    let items: Vec<String> = setup
        .board
        .iter()
        .map(|(square, piece)| {
            let mut item = variant.symbol(piece);
            item.push_str(&variant.geometry.square_name(square).to_string());
            for (symbol, mark) in tag_marks(variant) {
                if setup.board.marked(mark).contains(square) {
                    item.push(symbol);
                }
            }
            item
        })
        .collect();
    out.push_str(&items.join(","));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initial_setups_round_trip() {
        for variant in Variant::all().iter().filter(|v| v.code.is_some()) {
            crate::with_width!(variant.width(), W => {
                let setup = Setup::<W>::initial(variant);
                let text = write(&setup);
                assert_eq!(read_of::<W>(variant, &text).unwrap(), setup, "{text}");
                if variant.edition() == Some(crate::variant::Edition::Ed2020) {
                    assert_eq!(read::<W>(&text).unwrap(), (variant, setup));
                }
            });
        }
    }

    #[test]
    fn errors_name_the_item() {
        let error = read::<2>("ct Ke1,Xa2").unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid setup item 'Xa2': 'X' is no piece of Croatian Ties (pieces: P N B R Q K G)"
        );
        let error = read::<2>("ct Ke11").unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid setup item 'Ke11': e11 is outside the 10x10 (files a-j, ranks 1-10) board"
        );
        assert!(matches!(read::<2>("zz Ke1"), Err(ParseSetupStringError::Code(_))));
        assert!(matches!(read::<1>("o Ke1"), Err(ParseSetupStringError::Width("One"))));
    }
}
