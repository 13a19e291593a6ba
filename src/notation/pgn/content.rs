//! Whether a text is PGN at all, from its first bytes, and if not, what it looks like.
//!
//! A text is taken for PGN when its first kilobytes hold a tag pair (`[Event "..."]`), or
//! movetext whose tokens are mostly moves and move numbers. Anything else is said in words:
//! binary data, compressed data cqlq does not decompress, lines of positions, or other text.
//!
//! ```
//! use cqlq::notation::pgn::{NotPgn, sniff_content};
//!
//! assert_eq!(sniff_content(b"[Event \"x\"]\n\n1. e4 *"), Ok(()));
//! assert_eq!(sniff_content(b"1. e4 e5 2. Nf3 Nc6 *"), Ok(()));
//! assert!(matches!(sniff_content(b"# Read me\n\nThis program finds chess games.\n"), Err(NotPgn::Text)));
//! assert!(matches!(
//!     sniff_content(b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"),
//!     Err(NotPgn::Positions(_))
//! ));
//! ```

use std::fmt;
use std::ops::ControlFlow;

use super::lexer::{Lexer, Visitor};
use crate::notation::sniff::read_position;
use crate::rules::classical::San;

/// How many bytes of a text are looked at.
pub const SNIFF_BYTES: usize = 4096;

/// What a text that is not PGN looks like.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotPgn {
    /// Bytes that are no text (a NUL, or many control bytes).
    Binary,
    /// Data compressed in a format cqlq does not decompress (its name).
    Compressed(&'static str),
    /// Lines of positions (the format of the first one, such as "FEN").
    Positions(String),
    /// Text with no tag pair and no movetext in its first bytes.
    Text,
}

impl fmt::Display for NotPgn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotPgn::Binary => f.write_str("this is binary data, not PGN text"),
            NotPgn::Compressed(format) => {
                write!(f, "this is {format} data: cqlq decompresses zstd and gzip only, so decompress it first")
            }
            NotPgn::Positions(format) => {
                write!(f, "this looks like lines of positions ({format}), not PGN games: use `cqlq filter`")
            }
            NotPgn::Text => {
                write!(f, "this does not look like PGN: its first {SNIFF_BYTES} bytes hold no tag pair and no moves")
            }
        }
    }
}

impl std::error::Error for NotPgn {}

/// The name of a compression format cqlq does not read, from the first bytes of data.
#[must_use]
pub fn foreign_compression(head: &[u8]) -> Option<&'static str> {
    const MAGICS: [(&[u8], &str); 5] = [
        (b"BZh", "bzip2"),
        (b"\xFD7zXZ\x00", "xz"),
        (b"PK\x03\x04", "zip"),
        (b"7z\xBC\xAF\x27\x1C", "7-zip"),
        (b"\x04\x22\x4D\x18", "lz4"),
    ];
    MAGICS.iter().find(|(magic, _)| head.starts_with(magic)).map(|&(_, name)| name)
}

/// Whether the start of a text (its first [`SNIFF_BYTES`] or more) looks like PGN. Blank text
/// counts as PGN: it holds no games, which is no mistake.
pub fn sniff_content(text: &[u8]) -> Result<(), NotPgn> {
    let mut sample = &text[..text.len().min(SNIFF_BYTES)];
    if sample.len() < text.len()
        && let Some(end) = memchr::memrchr(b'\n', sample)
    {
        sample = &sample[..end + 1];
    }
    if let Some(format) = foreign_compression(sample) {
        return Err(NotPgn::Compressed(format));
    }
    if is_binary(sample) {
        return Err(NotPgn::Binary);
    }
    if sample.iter().all(u8::is_ascii_whitespace) {
        return Ok(());
    }
    let mut reader = Sample::default();
    let mut lexer = Lexer::new(sample);
    while reader.tokens < 64 && lexer.next_game(&mut reader).is_some() {}
    if reader.tags > 0 || (reader.moves > 0 && reader.moves * 2 >= reader.tokens) {
        return Ok(());
    }
    if let Some(format) = positions(sample) {
        return Err(NotPgn::Positions(format));
    }
    Err(NotPgn::Text)
}

/// Whether bytes are no text: a NUL, or more than one control byte in twenty.
fn is_binary(sample: &[u8]) -> bool {
    let control = sample.iter().filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0B | 0x0C)).count();
    sample.contains(&0) || control * 20 > sample.len()
}

/// The format of the first line, if it is a position.
fn positions(sample: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(sample);
    let line = text.lines().map(str::trim).find(|line| !line.is_empty() && !line.starts_with('#'))?;
    read_position(line, None).ok()?;
    let format = if line.contains('/') { "FEN" } else { "setup strings" };
    Some(format.to_owned())
}

/// What the lexer met in a sample: tags, and how many of its tokens were moves.
#[derive(Default)]
struct Sample {
    tags: usize,
    tokens: usize,
    moves: usize,
}

impl<'a> Visitor<'a> for Sample {
    fn tag(&mut self, _name: &'a [u8], _value: &'a [u8]) {
        self.tags += 1;
    }

    fn move_token(&mut self, token: &'a [u8], _end: usize) -> ControlFlow<()> {
        self.tokens += 1;
        let bare = token.strip_suffix(b"!").or_else(|| token.strip_suffix(b"?")).unwrap_or(token);
        if San::from_ascii(bare).is_ok() {
            self.moves += 1;
        }
        if self.tokens >= 64 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    }

    fn outcome(&mut self, _result: &'a [u8]) {
        self.tokens += 1;
        self.moves += 1;
    }
}
