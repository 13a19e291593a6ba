//! Whether a text is PGN at all, from its first bytes, and if not, what it looks like.
//!
//! A text is taken for PGN when its first kilobytes (after a preamble of `%` escape lines, `;`
//! comment lines and blank lines, which PGN allows before the first game) open with a tag
//! (`[Event "`, even cut short), hold a tag pair, or hold movetext whose tokens are mostly moves
//! and move numbers. Anything else is said in words: binary data (a text whose bytes are mostly
//! not text; a stray control byte does not make it so), compressed data cqlq does not
//! decompress, lines of positions, or other text, with what it begins with.
//!
//! ```
//! use cqlq::notation::pgn::{NotPgn, sniff_content};
//!
//! assert_eq!(sniff_content(b"[Event \"x\"]\n\n1. e4 *"), Ok(()));
//! assert_eq!(sniff_content(b"1. e4 e5 2. Nf3 Nc6 *"), Ok(()));
//! assert!(matches!(sniff_content(b"# Read me\n\nThis program finds chess games.\n"), Err(NotPgn::Text(_))));
//! assert_eq!(sniff_content(b"% made by hand\n; a note\n[Event \"x\"]\n\n1. e4 *"), Ok(()));
//! assert!(matches!(
//!     sniff_content(b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"),
//!     Err(NotPgn::Positions(_))
//! ));
//! ```

use std::fmt;
use std::ops::ControlFlow;

use super::lexer::{Lexer, Visitor};
use super::lines::{content_start, is_tag_pair};
use crate::notation::lines::{first_content_line, line_end, lines};
use crate::notation::sniff::read_position;

/// How many bytes of a text are looked at, after its preamble.
pub const SNIFF_BYTES: usize = 4096;

/// The longest preamble (`%` escape lines, `;` comment lines, blank lines) looked through
/// before the bytes that are looked at.
pub const PREAMBLE_BYTES: usize = 1 << 20;

/// The most characters of a first line that a message shows.
const SHOWN_CHARS: usize = 60;

/// What a text that is not PGN looks like.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotPgn {
    /// Bytes that are no text: of a sample of `sample` bytes, `control` are control bytes (NUL
    /// among them), more than one in twenty.
    Binary {
        /// The control bytes counted.
        control: usize,
        /// The bytes looked at.
        sample: usize,
    },
    /// Data compressed in a format cqlq does not decompress (its name).
    Compressed(&'static str),
    /// Lines of positions (the format of the first one, such as "FEN").
    Positions(String),
    /// Text with no tag pair and no movetext in its first bytes: its first line with content.
    Text(String),
}

/// The names `--notation` takes, for messages: the registry of rule families holds the formats
/// (`rules::formats`), and a test keeps the two lists the same.
pub const NOTATION_NAMES: [&str; 4] = ["pgn", "xdecor-raw", "xdecor", "laser"];

impl fmt::Display for NotPgn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = NOTATION_NAMES.join(", ");
        match self {
            NotPgn::Binary { control, sample } => write!(
                f,
                "this is binary data, not text: {control} of its first {sample} bytes are control bytes; if it is \
                 games all the same, say in which notation with --notation ({names})"
            ),
            NotPgn::Compressed(format) => {
                write!(f, "this is {format} data: cqlq decompresses zstd and gzip only, so decompress it first")
            }
            NotPgn::Positions(format) => {
                write!(f, "this looks like lines of positions ({format}), not PGN games: use `cqlq filter`")
            }
            NotPgn::Text(first) => write!(
                f,
                "this does not look like PGN or another notation cqlq reads: its first {SNIFF_BYTES} bytes hold no \
                 tag pair and no moves, and begin with {first:?}; if it holds games, say in which notation with \
                 --notation ({names})"
            ),
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

/// Where a text's preamble ends: its leading blank lines, `%` escape lines and `;` comment
/// lines (PGN allows them before the first game), looked through for [`PREAMBLE_BYTES`] at most.
#[must_use]
pub fn preamble_length(text: &[u8]) -> usize {
    let text = &text[..text.len().min(PREAMBLE_BYTES)];
    let mut at = 0;
    while at < text.len() {
        let end = line_end(text, at);
        let line = &text[at..end];
        let content = &line[content_start(line)..];
        let skipped = content.is_empty() || line[0] == b'%' || content[0] == b';';
        if !skipped {
            return at;
        }
        at = end;
    }
    at
}

/// How many first bytes of a stream [`sniff_content`] wants to look at, given the first
/// bytes read (`head`): its preamble and [`SNIFF_BYTES`] more.
#[must_use]
pub fn sniff_wants(head: &[u8]) -> usize {
    preamble_length(head) + SNIFF_BYTES
}

/// Whether the start of a text (its first [`SNIFF_BYTES`] after its preamble, or more) looks
/// like PGN. Blank text counts as PGN: it holds no games, which is no mistake.
pub fn sniff_content(text: &[u8]) -> Result<(), NotPgn> {
    if let Some(format) = foreign_compression(text) {
        return Err(NotPgn::Compressed(format));
    }
    let body = &text[preamble_length(text)..];
    let mut sample = &body[..body.len().min(SNIFF_BYTES)];
    if sample.len() < body.len()
        && let Some(end) = memchr::memrchr2(b'\n', b'\r', sample)
    {
        sample = &sample[..end + 1];
    }
    let control = control_bytes(sample);
    if control * 20 > sample.len() {
        return Err(NotPgn::Binary { control, sample: sample.len() });
    }
    if sample.iter().all(u8::is_ascii_whitespace) {
        return Ok(());
    }
    let first = first_content_line(sample).unwrap_or_default();
    if is_tag_pair(&first[content_start(first)..]) {
        // A tag opens it, whole or cut short.
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
    let shown: String = String::from_utf8_lossy(first).trim().chars().take(SHOWN_CHARS).collect();
    Err(NotPgn::Text(shown))
}

/// How many bytes of a sample are control bytes (NUL among them) that text does not hold.
fn control_bytes(sample: &[u8]) -> usize {
    sample.iter().filter(|&&b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0B | 0x0C)) || b == 0x7F).count()
}

/// The format of the first line, if it is a position.
fn positions(sample: &[u8]) -> Option<String> {
    let line = lines(sample)
        .map(|line| String::from_utf8_lossy(line).trim().to_owned())
        .find(|line| !line.is_empty() && !line.starts_with('#'))?;
    read_position(&line, None).ok()?;
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

/// Whether a token has the shape of a SAN move (`e4`, `Nbxd7+`, `exd8=Q#`, `O-O`, `N@f3`,
/// `g1f3`): what sniffing needs, not whether any position allows it.
fn looks_like_san(token: &[u8]) -> bool {
    let token = token.strip_suffix(b"+").or_else(|| token.strip_suffix(b"#")).unwrap_or(token);
    if matches!(token, b"O-O" | b"O-O-O" | b"0-0" | b"0-0-0" | b"--") {
        return true;
    }
    let token = match token {
        [rest @ .., b'=', letter] if b"NBRQKnbrqk".contains(letter) => rest,
        _ => token,
    };
    match token {
        [rest @ .., file, rank] if (2..=7).contains(&token.len()) => {
            (b'a'..=b'h').contains(file)
                && (b'1'..=b'8').contains(rank)
                && rest.iter().all(|byte| b"KQRBNPabcdefgh12345678x@".contains(byte))
        }
        _ => false,
    }
}

impl<'a> Visitor<'a> for Sample {
    fn tag(&mut self, _name: &'a [u8], _value: &'a [u8]) {
        self.tags += 1;
    }

    fn move_token(&mut self, token: &'a [u8], _end: usize) -> ControlFlow<()> {
        self.tokens += 1;
        let bare = token.strip_suffix(b"!").or_else(|| token.strip_suffix(b"?")).unwrap_or(token);
        if looks_like_san(bare) {
            self.moves += 1;
        }
        if self.tokens >= 64 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    }

    fn outcome(&mut self, _result: &'a [u8]) {
        self.tokens += 1;
        self.moves += 1;
    }
}
