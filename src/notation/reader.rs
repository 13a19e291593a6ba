//! The seam between the notations and the rest of cqlq: how a file of games is cut and read,
//! and how a game's move tokens become moves.
//!
//! Every reader pushes what it reads to a [`Visitor`]: the same events whatever the notation, so
//! that the search, `positions` and `convert` run one pipeline for all of them.
//!
//! - A file is either a PGN [`Container`] (whose games name their variant, and so the notation
//!   of their movetext, in a `Variant` tag) or a file in a notation's own format, read by a
//!   [`NativeFormat`] (X-Decor's move table and its `moves_raw` record).
//! - In a PGN container, a notation other than SAN reads the movetext with its
//!   [`MovetextReader`].
//! - A [`MoveReader`] turns one move token into a move on the board of the game's rule family,
//!   checking that the move is legal and that the token says what the move does.
//!
//! The readers are chosen from data: the variant's notation, a `--notation` name, or what the
//! first bytes of a file look like; the formats themselves belong to the rule families, which
//! list them in `rules::formats`.

use std::fmt;

use super::pgn::{GameSpan, Visitor};
use crate::variant::Variant;

/// Why a move token could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError {
    /// What kind of failure.
    pub kind: MoveErrorKind,
    /// Why, in words, where the reader can tell more than the kind.
    pub reason: Option<String>,
}

/// The kinds of [`MoveError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveErrorKind {
    /// The token is no move of the notation.
    Unreadable,
    /// The token names no legal move, or says something of it that is not so.
    Illegal,
    /// The token fits several legal moves.
    Ambiguous,
}

impl MoveError {
    /// An error of this kind, with no more to say.
    #[must_use]
    pub const fn new(kind: MoveErrorKind) -> MoveError {
        MoveError { kind, reason: None }
    }

    /// An error of this kind, and why.
    #[must_use]
    pub fn because(kind: MoveErrorKind, reason: impl Into<String>) -> MoveError {
        MoveError { kind, reason: Some(reason.into()) }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.kind {
            MoveErrorKind::Unreadable => "not a move",
            MoveErrorKind::Illegal => "illegal move",
            MoveErrorKind::Ambiguous => "ambiguous move",
        })?;
        match &self.reason {
            Some(reason) => write!(f, ": {reason}"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for MoveError {}

/// Plays the move tokens of a notation on a board of a rule family (`B`), giving the move
/// played (`M`).
pub trait MoveReader<B, M>: Sync + fmt::Debug {
    /// Plays the move `token` names, if it is legal and the token says what it does; on an
    /// error the board is unchanged.
    fn play(&self, board: &mut B, token: &[u8]) -> Result<M, MoveError>;

    /// Whether a token is a null move (a pass), known before it is played.
    fn is_null(&self, token: &[u8]) -> bool {
        let _ = token;
        false
    }
}

/// Reads a PGN game's movetext written in a notation other than SAN.
pub trait MovetextReader: Sync + fmt::Debug {
    /// Reads the movetext `text[start..end]` (which ends where the PGN container ends it) and
    /// tells the visitor its move tokens and result, with offsets into `text`.
    fn read<'a>(&self, text: &'a [u8], start: usize, end: usize, visitor: &mut dyn Visitor<'a>);
}

/// Finds where the games of a file start, reading it a piece at a time (whole lines or not), in
/// time linear in its length.
pub trait GameSplitter: Send {
    /// Scans on from where the last call stopped through `text`, the input from offset `base`
    /// to what has been read of it so far (all of it when `complete`), and pushes the input
    /// offsets where games start, in order. `text` holds the input from the last start pushed
    /// on (from its beginning before the first). The scan may stop short of the end of `text`
    /// where it needs more bytes to decide: the next call goes on from there.
    fn scan(&mut self, text: &[u8], base: usize, complete: bool, starts: &mut Vec<usize>);
}

/// A file format of games in a notation's own terms, not PGN.
pub trait NativeFormat: Sync + fmt::Debug {
    /// The name `--notation` takes, such as `xdecor`.
    fn name(&self) -> &'static str;

    /// What the format is, in words, for messages and conversions (`X-Decor move table`).
    fn description(&self) -> &'static str;

    /// The variant of its games.
    fn variant(&self) -> &'static Variant;

    /// Whether the first bytes of a file look like this format.
    fn sniff(&self, head: &[u8]) -> bool;

    /// A splitter for a new file.
    fn splitter(&self) -> Box<dyn GameSplitter>;

    /// Reads the game at `*at` in `text` (blanks before it skipped), tells the visitor about it
    /// and moves `*at` past it; `None` when nothing but blanks remains.
    fn next_game<'a>(&self, text: &'a [u8], at: &mut usize, visitor: &mut dyn Visitor<'a>) -> Option<GameSpan>;

    /// The notation of its move tokens, which the rules of its variant's family play; `None`
    /// for the family's own notation.
    fn moves(&self) -> Option<MoveNotation>;

    /// Whether each game of this format is PGN movetext of its variant as it stands (move
    /// numbers, moves in the variant's own notation, a result), so that it is written as PGN
    /// by adding tags.
    fn is_pgn_movetext(&self) -> bool {
        false
    }

    /// Whether a text of games of `variant` that starts with no tag is in this format when no
    /// other is asked for (a bare list of moves of the variant's own notation).
    fn holds_untagged(&self, variant: &Variant) -> bool {
        let _ = variant;
        false
    }
}

/// A notation of move tokens other than a rule family's own, by its name (`X-Decor move
/// table`): the rules of the family whose moves it writes give its reader
/// ([`GameRules::reader_of`](crate::rules::GameRules::reader_of)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveNotation(pub &'static str);

/// How a file holds its games.
#[derive(Clone, Copy, Debug)]
pub enum Container {
    /// PGN: tag pairs, then movetext in the notation of the game's variant.
    Pgn,
    /// A notation's own format.
    Native(&'static dyn NativeFormat),
}

impl Container {
    /// The name `--notation` takes for it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Container::Pgn => "pgn",
            Container::Native(format) => format.name(),
        }
    }

    /// What it is, in words: `PGN`, or the native format's description.
    #[must_use]
    pub fn description(self) -> &'static str {
        match self {
            Container::Pgn => "PGN",
            Container::Native(format) => format.description(),
        }
    }

    /// The variant of its games that name none: Standard for PGN, the format's own else.
    #[must_use]
    pub fn default_variant(self) -> &'static Variant {
        match self {
            Container::Pgn => Variant::standard(),
            Container::Native(format) => format.variant(),
        }
    }
}

/// Whether the first content of a text is a tag pair (`[Name "value"]`): then it is PGN,
/// whatever its movetext holds.
pub fn starts_with_tag(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    head.iter().find(|byte| !byte.is_ascii_whitespace()) == Some(&b'[')
}

/// How the movetext of a PGN game in a notation is read and its moves played.
#[derive(Clone, Copy, Debug)]
pub struct Movetext {
    /// The reader of its movetext; `None` for SAN, which the PGN lexer reads itself.
    pub reader: Option<&'static dyn MovetextReader>,
    /// The notation of its move tokens; `None` for the own notation of the variant's rule
    /// family (SAN, Laser Algebraic Notation), which replay plays through the family's
    /// [`GameRules`](crate::rules::GameRules) without a call through a pointer (most games are
    /// SAN).
    pub moves: Option<MoveNotation>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_errors_say_why() {
        let error = MoveError::because(MoveErrorKind::Illegal, "d8 is empty");
        assert_eq!(error.to_string(), "illegal move: d8 is empty");
        assert_eq!(MoveError::new(MoveErrorKind::Unreadable).to_string(), "not a move");
        assert!(starts_with_tag(b"\xEF\xBB\xBF\n[Event \"a\"]\n"));
    }
}
