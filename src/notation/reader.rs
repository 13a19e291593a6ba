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
//! The readers are chosen from data: the variant's [`Notation`], a `--notation` name, or what the
//! first bytes of a file look like ([`sniff_container`]).

use std::fmt;

use super::pgn::{GameSpan, Visitor};
use super::{laser, xdecor};
use crate::rules::classical::{Board, Move};
use crate::variant::{Notation, Variant};

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

/// Plays the move tokens of a notation on a board of a rule family (`B`, the classical board
/// unless said), giving the move played (`M`).
pub trait MoveReader<B = Board, M = Move>: Sync + fmt::Debug {
    /// Plays the move `token` names, if it is legal and the token says what it does; on an
    /// error the board is unchanged.
    fn play(&self, board: &mut B, token: &[u8]) -> Result<M, MoveError>;

    /// Whether a token is a null move (a pass), known before it is played.
    fn is_null(&self, token: &[u8]) -> bool {
        let _ = token;
        false
    }
}

/// A move its notation's reader has read already, as the text names it, to be checked and
/// played on a board of the classical family: a native reader that reads each move as it
/// finds where the move ends tells it so ([`Visitor::read_move`]), and the move is not read
/// twice.
pub trait ReadMove {
    /// Plays the move at once where it is legal and all the text says of it is so (nearly
    /// always); `None`, the board unchanged, otherwise.
    fn play(&self, board: &mut Board) -> Option<Move>;

    /// Plays the move the careful way after [`ReadMove::play`] refused it, or says what is
    /// wrong with it; on an error the board is unchanged.
    fn play_or_explain(&self, board: &mut Board) -> Result<Move, MoveError>;
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

    /// What plays its move tokens; `None` when they are the own notation of its variant's
    /// rule family, which the family's rules play.
    fn moves(&self) -> Option<FamilyMoves>;

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

/// The reader of a notation's move tokens, for the boards of the rule family it writes moves
/// of: one arm per family whose moves a notation other than the family's own writes.
#[derive(Clone, Copy, Debug)]
pub enum FamilyMoves {
    /// Moves on the classical board (the X-Decor move table and `moves_raw`).
    Classical(&'static dyn MoveReader),
}

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

    /// The container `--notation` names: `pgn` or a native format's name (without case).
    #[must_use]
    pub fn by_name(name: &str) -> Option<Container> {
        if name.eq_ignore_ascii_case("pgn") || name.eq_ignore_ascii_case("san") {
            return Some(Container::Pgn);
        }
        NATIVE.iter().find(|format| format.name().eq_ignore_ascii_case(name)).map(|&format| Container::Native(format))
    }

    /// The variant of its games that name none: Standard for PGN, the format's own else.
    #[must_use]
    pub fn default_variant(self) -> &'static Variant {
        match self {
            Container::Pgn => Variant::standard(),
            Container::Native(format) => format.variant(),
        }
    }

    /// How the moves of a game of `variant` in this container are read and played; `None`
    /// where cqlq does not replay them yet.
    #[must_use]
    pub fn movetext(self, variant: &Variant) -> Option<Movetext> {
        match self {
            Container::Pgn => movetext(variant.notation),
            Container::Native(format) => Some(Movetext { reader: None, moves: format.moves() }),
        }
    }

    /// The names `--notation` takes.
    #[must_use]
    pub fn names() -> Vec<&'static str> {
        std::iter::once("pgn").chain(NATIVE.iter().map(|format| format.name())).collect()
    }
}

/// The native formats, in the order sniffing tries them.
static NATIVE: [&dyn NativeFormat; 3] = [&xdecor::RAW_FORMAT, &xdecor::TABLE_FORMAT, &laser::LIST_FORMAT];

/// What a file whose first bytes are `head` holds (only the first
/// [`SNIFF_BYTES`](super::pgn::SNIFF_BYTES) are looked at): a native format whose marks are
/// there, else PGN (which [`sniff_content`](super::pgn::sniff_content) then checks).
#[must_use]
pub fn sniff_container(head: &[u8]) -> Container {
    sniff_container_for(head, None)
}

/// [`sniff_container`] for a text whose games are of `variant` where they name none: a text
/// that starts with no tag is in the native format that holds such games of the variant (a
/// Laser Chess move list), if one does.
#[must_use]
pub fn sniff_container_for(head: &[u8], variant: Option<&Variant>) -> Container {
    let head = &head[..head.len().min(super::pgn::SNIFF_BYTES)];
    if starts_with_tag(head) {
        return Container::Pgn;
    }
    let untagged = variant.and_then(|variant| NATIVE.iter().find(|format| format.holds_untagged(variant)));
    match untagged {
        Some(&format) => Container::Native(format),
        None => recognise_container(head).unwrap_or(Container::Pgn),
    }
}

/// What a text whose first bytes are `head` surely holds, where they tell: PGN when it opens
/// with a tag pair, a native format whose marks are there. `None` where they do not tell (PGN
/// movetext without tags reads as such only when nothing else fits).
#[must_use]
pub fn recognise_container(head: &[u8]) -> Option<Container> {
    let head = &head[..head.len().min(super::pgn::SNIFF_BYTES)];
    if starts_with_tag(head) {
        return Some(Container::Pgn);
    }
    NATIVE.iter().find(|format| format.sniff(head)).map(|&format| Container::Native(format))
}

/// Whether the first content of a text is a tag pair (`[Name "value"]`): then it is PGN,
/// whatever its movetext holds.
fn starts_with_tag(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    head.iter().find(|byte| !byte.is_ascii_whitespace()) == Some(&b'[')
}

/// How the movetext of a PGN game in a notation is read and its moves played.
#[derive(Clone, Copy, Debug)]
pub struct Movetext {
    /// The reader of its movetext; `None` for SAN, which the PGN lexer reads itself.
    pub reader: Option<&'static dyn MovetextReader>,
    /// What plays its move tokens; `None` for the own notation of the variant's rule family
    /// (SAN, Laser Algebraic Notation), which replay plays through the family's
    /// [`GameRules`](crate::rules::GameRules) without a call through a pointer (most games are
    /// SAN).
    pub moves: Option<FamilyMoves>,
}

/// How the PGN movetext of games in `notation` is read; `None` for the notations cqlq does not
/// replay yet.
#[must_use]
pub fn movetext(notation: Notation) -> Option<Movetext> {
    match notation {
        Notation::San => Some(Movetext { reader: None, moves: None }),
        Notation::XDecor => Some(Movetext {
            reader: Some(&xdecor::TABLE_MOVETEXT),
            moves: Some(FamilyMoves::Classical(&xdecor::TABLE_MOVES)),
        }),
        Notation::Laser => Some(Movetext { reader: None, moves: None }),
        Notation::Croatian | Notation::ChessEvolved => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn containers_are_named_and_sniffed() {
        assert!(matches!(Container::by_name("PGN"), Some(Container::Pgn)));
        for name in Container::names() {
            assert_eq!(Container::by_name(name).map(Container::name), Some(name));
        }
        assert!(Container::by_name("nothing").is_none());
        assert!(matches!(
            sniff_container(b"[Event \"a\"]\n[Variant \"X-Decor\"]\n\n1. e2\xE2\x80\x93e4 *"),
            Container::Pgn
        ));
        assert!(matches!(sniff_container(b"1. e4 e5 *"), Container::Pgn));
        assert!(recognise_container(b"1. e4 e5 *").is_none());
        assert!(matches!(recognise_container(b"\n[Event \"a\"]\n"), Some(Container::Pgn)));
        let error = MoveError::because(MoveErrorKind::Illegal, "d8 is empty");
        assert_eq!(error.to_string(), "illegal move: d8 is empty");
        assert_eq!(MoveError::new(MoveErrorKind::Unreadable).to_string(), "not a move");
    }
}
