//! The moves of a game, with their annotations, comments and variations, written as CQL 6.2
//! writes them: `1.e4 e5 2.Nf3 $1 {a comment} 2...Nc6 ( 2...d6 3.d4 ) 3.Bb5`.
//!
//! White's moves carry their number (`12.`); Black's carry theirs (`12...`) where a line begins
//! and after a comment or a variation. Annotation glyphs follow their move (`$1`), then its
//! comment, then the variations that replace it, each inside `( ` and ` )`. A comment is
//! written in braces with its words separated by single spaces.
//!
//! Variations may nest to any depth: the tree is written by a loop over a stack of its own
//! (and dropped, cloned and compared so too, in `nested.rs`), never by recursion, which would
//! run out of the stack of a thread on a game of some thousands of nested variations.

use super::wrap::Wrapped;

/// The most annotation glyphs CQL 6.2 keeps on one move.
pub const MAX_NAGS: usize = 7;

/// A line of moves: the main line of a game, or a variation.
///
/// Its `Clone`, `PartialEq`, `Debug` and `Drop` walk the tree of variations by a loop, so any
/// depth of nesting is safe; `Debug` shows the line as it is written.
#[derive(Default)]
pub struct Line {
    /// The comment before the first move (for the main line: the game's comment).
    pub comment: Option<Vec<u8>>,
    /// The moves.
    pub moves: Vec<MoveNode>,
}

/// A move with what is written after it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveNode {
    /// Its move number (of the full move: White's and Black's moves share it).
    pub number: u32,
    /// Whether Black plays it.
    pub black: bool,
    /// The move in SAN (`Nf3`, `exd8=Q+`, `O-O`, `--`).
    pub san: MoveText,
    /// Its numeric annotation glyphs (`1` for `!`), at most [`MAX_NAGS`].
    pub nags: Vec<u8>,
    /// The comment after it.
    pub comment: Option<Vec<u8>>,
    /// The variations that replace it.
    pub variations: Vec<Line>,
}

/// A move's text, kept inline when it is short (as every SAN is) and on the heap otherwise.
#[derive(Clone, PartialEq, Eq)]
pub enum MoveText {
    /// Up to [`MoveText::INLINE`] bytes, and their number.
    Short([u8; MoveText::INLINE], u8),
    /// A longer text.
    Long(String),
}

impl MoveText {
    /// The most bytes kept inline.
    pub const INLINE: usize = 15;

    /// The text's bytes.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        match self {
            MoveText::Short(bytes, len) => &bytes[..usize::from(*len)],
            MoveText::Long(text) => text.as_bytes(),
        }
    }
}

impl Default for MoveText {
    fn default() -> Self {
        MoveText::Short([0; MoveText::INLINE], 0)
    }
}

impl From<&str> for MoveText {
    fn from(text: &str) -> Self {
        match u8::try_from(text.len()) {
            Ok(len) if text.len() <= MoveText::INLINE => {
                let mut bytes = [0; MoveText::INLINE];
                bytes[..text.len()].copy_from_slice(text.as_bytes());
                MoveText::Short(bytes, len)
            }
            _ => MoveText::Long(text.to_owned()),
        }
    }
}

impl std::fmt::Debug for MoveText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&String::from_utf8_lossy(self.as_bytes()), f)
    }
}

impl MoveNode {
    /// Adds an annotation glyph, unless the move has [`MAX_NAGS`] already.
    pub fn add_nag(&mut self, nag: u8) {
        if self.nags.len() < MAX_NAGS {
            self.nags.push(nag);
        }
    }
}

/// Adds `text` to a comment as CQL 6.2 does: after a space, or as the comment itself when there
/// is none or it is empty. Empty text adds nothing.
pub fn append_comment(comment: &mut Option<Vec<u8>>, text: &[u8]) {
    if text.is_empty() {
        return;
    }
    match comment {
        Some(existing) if !existing.is_empty() => {
            existing.push(b' ');
            existing.extend_from_slice(text);
        }
        _ => *comment = Some(text.to_vec()),
    }
}

/// The annotations CQL 6.2 reads as glyphs, longest first where one begins another.
const SYMBOLS: [(&str, u8); 18] = [
    ("!!", 3),
    ("??", 4),
    ("!?", 5),
    ("?!", 6),
    ("!", 1),
    ("?", 2),
    ("+/-", 16),
    ("-/+", 17),
    ("+/=", 14),
    ("=/+", 15),
    ("+=", 14),
    ("=+", 15),
    ("+-", 18),
    ("-+", 19),
    ("=", 10),
    ("~", 13),
    ("N", 146),
    ("D", 201),
];

/// The annotation glyph an annotation stands for, as CQL 6.2 reads it: `$14` is 14 (numbers
/// past 255 wrap around), `!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6, `+-` 18 and the other
/// evaluation symbols, `N` (a novelty) 146; a run of symbols stands for its longest first one
/// (`!!!` is 3). `None` for anything else, and for `$0`.
#[must_use]
pub fn nag_of(annotation: &[u8]) -> Option<u8> {
    if let [b'$', digits @ ..] = annotation {
        let number = std::str::from_utf8(digits).ok()?.parse::<u64>().ok()?;
        return u8::try_from(number % 256).ok().filter(|nag| *nag > 0);
    }
    // A letter stands alone; the other symbols may run on.
    let fits = |symbol: &str| match symbol {
        "N" | "D" => annotation == symbol.as_bytes(),
        _ => annotation.starts_with(symbol.as_bytes()),
    };
    SYMBOLS.iter().find(|(symbol, _)| fits(symbol)).map(|(_, nag)| *nag)
}

/// Writes a comment: `{`, its words, `}`; the spaces between words as given (CQL 6.2 writes
/// two before a `sort` value).
pub(super) fn write_comment(lines: &mut Wrapped<'_>, comment: &[u8]) {
    // Most comments are a search's one word (`{CQL}`) that fits on the line.
    if !comment.iter().copied().any(breaks_comment) && lines.braced_word(comment) {
        return;
    }
    write_comment_words(lines, comment);
    lines.word(b"}");
}

/// Writes a game's first comment, before its first move, and ends its line: as CQL 6.2 writes
/// it, its closing brace stays on the line even where it takes the column after the last.
pub(super) fn write_first_comment(lines: &mut Wrapped<'_>, comment: &[u8]) {
    write_comment_words(lines, comment);
    lines.glued(b"}");
    lines.end_line();
}

/// Whether a byte of a comment ends one of its words: a space or a line break.
fn breaks_comment(byte: u8) -> bool {
    matches!(byte, b' ' | b'\n')
}

/// The opening brace and the words of a comment.
fn write_comment_words(lines: &mut Wrapped<'_>, comment: &[u8]) {
    lines.word(b"{");
    lines.begin_run();
    // A comment read from a game has its words one space apart; a query's comment keeps its
    // spaces and line breaks as written.
    let mut rest = comment;
    loop {
        let end = rest.iter().position(|&byte| breaks_comment(byte)).unwrap_or(rest.len());
        lines.word(&rest[..end]);
        match rest.get(end) {
            Some(b'\n') => lines.line_break(),
            Some(_) => lines.space(),
            None => break,
        }
        rest = &rest[end + 1..];
    }
    lines.end_run();
}

/// Writes the moves of a line, each followed by a space; the line's own comment is the
/// caller's to write.
pub(super) fn write_moves(lines: &mut Wrapped<'_>, moves: &[MoveNode]) {
    MoveWriter::new(lines).nodes(moves);
}

/// A line of the tree being written: its moves not yet written, and the variations not yet
/// written of the move written last.
struct Frame<'t> {
    moves: std::slice::Iter<'t, MoveNode>,
    variations: std::slice::Iter<'t, Line>,
    /// Whether a move was written whose variations and end are still to come.
    move_open: bool,
    /// Whether the line is a variation, closed with `)`.
    variation: bool,
}

impl<'t> Frame<'t> {
    fn new(moves: &'t [MoveNode], variation: bool) -> Frame<'t> {
        Frame { moves: moves.iter(), variations: [].iter(), move_open: false, variation }
    }
}

/// Writes the moves of a line one at a time, as they come: each move, then its glyphs, its
/// comment and its variations, then [`MoveWriter::end_move`]. Black's move is numbered where
/// the line begins and after a comment or a variation.
pub struct MoveWriter<'w, 'o> {
    lines: &'w mut Wrapped<'o>,
    /// Whether the next move of Black's is numbered.
    numbered: bool,
}

impl<'w, 'o> MoveWriter<'w, 'o> {
    /// A writer at the start of a line.
    pub(super) fn new(lines: &'w mut Wrapped<'o>) -> MoveWriter<'w, 'o> {
        MoveWriter { lines, numbered: true }
    }

    /// A move: its number where it needs one, then its SAN.
    #[inline]
    pub fn move_played(&mut self, number: u32, black: bool, san: &[u8]) {
        let numbered = !black || self.numbered;
        self.numbered = false;
        let mut word = Word::default();
        if numbered {
            word.push_number(number);
            word.push_all(if black { b"..." } else { b"." });
        }
        let number_len = word.len;
        // Most moves go on the line with their number, as one word.
        if !san.is_empty() && word.push_all(san) && self.lines.plain_word(&word.bytes, word.len) {
            return;
        }
        if number_len > 0 {
            self.lines.word(&word.bytes[..number_len]);
        }
        self.lines.word(san);
    }

    /// An annotation glyph of the last move (`$1`).
    pub fn nag(&mut self, nag: u8) {
        self.lines.space();
        let mut word = Word::default();
        word.push_all(b"$");
        word.push_number(nag.into());
        self.lines.word(word.as_bytes());
    }

    /// The last move's comment.
    pub fn comment(&mut self, comment: &[u8]) {
        self.lines.space();
        write_comment(self.lines, comment);
        self.numbered = true;
    }

    /// A variation replacing the last move, with the variations inside it.
    pub fn variation(&mut self, variation: &Line) {
        self.lines.space();
        let frame = self.open_variation(variation);
        self.walk(vec![frame]);
    }

    /// Ends the move (with a space).
    pub fn end_move(&mut self) {
        self.lines.space();
    }

    /// Moves held in a tree, with all they carry.
    pub(super) fn nodes(&mut self, moves: &[MoveNode]) {
        self.walk(vec![Frame::new(moves, false)]);
    }

    /// Writes `( `, the comment of a variation, and returns the line of its moves to write;
    /// its first move of Black's is numbered.
    fn open_variation<'t>(&mut self, variation: &'t Line) -> Frame<'t> {
        self.lines.word(b"(");
        self.lines.space();
        if let Some(comment) = &variation.comment {
            write_comment(self.lines, comment);
            self.lines.space();
        }
        self.numbered = true;
        Frame::new(&variation.moves, true)
    }

    /// Writes the lines of `stack` to their ends, the innermost first: each move with its
    /// glyphs, its comment and its variations (each entered as it comes, and closed with `)`),
    /// then the move's end.
    fn walk(&mut self, mut stack: Vec<Frame<'_>>) {
        while let Some(frame) = stack.last_mut() {
            if let Some(variation) = frame.variations.next() {
                self.lines.space();
                let inner = self.open_variation(variation);
                stack.push(inner);
            } else if std::mem::take(&mut frame.move_open) {
                self.end_move();
            } else if let Some(node) = frame.moves.next() {
                self.move_played(node.number, node.black, node.san.as_bytes());
                for &nag in &node.nags {
                    self.nag(nag);
                }
                if let Some(comment) = &node.comment {
                    self.comment(comment);
                }
                frame.variations = node.variations.iter();
                frame.move_open = true;
            } else if stack.pop().is_some_and(|line| line.variation) {
                self.lines.word(b")");
                self.numbered = true;
            }
        }
    }
}

/// A word made in a buffer of a fixed size (a move's number and its SAN): it is written
/// with one copy of the whole buffer, not a copy of a length known only when it runs.
#[derive(Default)]
struct Word {
    bytes: [u8; WORD_BYTES],
    len: usize,
}

/// The bytes of a [`Word`]'s buffer.
const WORD_BYTES: usize = 32;

impl Word {
    /// Appends `text`; false, leaving the word as it was, where it does not fit.
    #[inline]
    fn push_all(&mut self, text: &[u8]) -> bool {
        if text.len() > WORD_BYTES - self.len {
            return false;
        }
        // Moves are a few bytes: a loop, not a call.
        for (slot, &byte) in self.bytes[self.len..].iter_mut().zip(text) {
            *slot = byte;
        }
        self.len += text.len();
        true
    }

    /// Appends a byte, where it fits.
    #[inline]
    fn push(&mut self, byte: u8) {
        if let Some(slot) = self.bytes.get_mut(self.len) {
            *slot = byte;
            self.len += 1;
        }
    }

    /// Appends a number in decimal.
    #[inline]
    fn push_number(&mut self, number: u32) {
        let digit = |value: u32| b'0' + (value % 10) as u8;
        // Move numbers have one to three digits.
        match number {
            0..10 => self.push(digit(number)),
            10..100 => {
                self.push(digit(number / 10));
                self.push(digit(number));
            }
            100..1000 => {
                self.push(digit(number / 100));
                self.push(digit(number / 10));
                self.push(digit(number));
            }
            _ => {
                let mut digits = [0u8; 10];
                let mut start = digits.len();
                let mut rest = number;
                while rest > 0 {
                    start -= 1;
                    digits[start] = digit(rest);
                    rest /= 10;
                }
                self.push_all(&digits[start..]);
            }
        }
    }

    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(number: u32, black: bool, san: &str) -> MoveNode {
        MoveNode { number, black, san: san.into(), ..MoveNode::default() }
    }

    /// Numbers are written in decimal, with every number of digits; a word that does not fit
    /// its buffer is left as it was.
    #[test]
    fn a_word_writes_numbers_in_decimal() {
        for number in (0..=1200).chain([9_999, 10_000, 123_456, u32::MAX]) {
            let mut word = Word::default();
            word.push_number(number);
            assert_eq!(word.as_bytes(), number.to_string().as_bytes());
        }
        let mut word = Word::default();
        assert!(word.push_all(&[b'x'; WORD_BYTES - 1]));
        assert!(!word.push_all(b"ab"));
        assert_eq!(word.len, WORD_BYTES - 1);
        word.push(b'y');
        word.push(b'z');
        assert_eq!(word.as_bytes().last(), Some(&b'y'));
    }

    fn written(moves: &[MoveNode]) -> String {
        let mut out = Vec::new();
        write_moves(&mut Wrapped::new(&mut out), moves);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn black_is_numbered_after_comments_and_variations_only() {
        let mut moves = vec![node(1, false, "e4"), node(1, true, "e5"), node(2, false, "Nf3"), node(2, true, "Nc6")];
        assert_eq!(written(&moves), "1.e4 e5 2.Nf3 Nc6 ");
        moves[0].add_nag(1);
        moves[2].comment = Some(b"two words".to_vec());
        assert_eq!(written(&moves), "1.e4 $1 e5 2.Nf3 {two words} 2...Nc6 ");
        // The spaces are written as given, those at the end too: CQL 6.2 writes two before a
        // sort value, and a query's comment keeps its own.
        moves[2].comment = Some(b"CQL  p: 3 ".to_vec());
        assert_eq!(written(&moves), "1.e4 $1 e5 2.Nf3 {CQL  p: 3 } 2...Nc6 ");
        moves[2].comment = None;
        moves[2].variations.push(Line { comment: Some(Vec::new()), moves: vec![node(2, false, "f4")] });
        moves[2].variations.push(Line::default());
        assert_eq!(written(&moves), "1.e4 $1 e5 2.Nf3 ( {} 2.f4 ) ( ) 2...Nc6 ");
    }

    /// A comment of one word written at once comes out as its three words would, wherever the
    /// line and the buffer stand.
    #[test]
    fn a_one_word_comment_is_written_as_its_words_are() {
        use super::super::wrap::GAME_BUFFER;
        for word in [b"CQL".as_slice(), b"x", b"a-long-comment-word-of-forty-bytes-abcdefgh", b"two words"] {
            for column in 0..=82 {
                for room in [GAME_BUFFER, column + 4, column + 5, column + 6, column + word.len() + 2] {
                    let write = |general: bool| {
                        let mut out = Vec::new();
                        let mut lines = Wrapped::bounded(&mut out, 0, room);
                        lines.glued(&vec![b'.'; column]);
                        if general {
                            write_comment_words(&mut lines, word);
                            lines.word(b"}");
                        } else {
                            write_comment(&mut lines, word);
                        }
                        lines.word(b"e4");
                        out
                    };
                    assert_eq!(write(false), write(true), "{word:?} at column {column}, buffer {room}");
                }
            }
        }
    }

    #[test]
    fn a_line_starting_with_black_is_numbered() {
        assert_eq!(written(&[node(30, true, "Kd7"), node(31, false, "e4")]), "30...Kd7 31.e4 ");
    }

    #[test]
    fn glyphs_and_comments() {
        let annotations =
            [b"!".as_slice(), b"??", b"!?", b"$14", b"$0", b"$256", b"$1000", b"!!!", b"+--+", b"N", b"Nf3"];
        let glyphs = [Some(1), Some(4), Some(5), Some(14), None, None, Some(232), Some(3), Some(18), Some(146), None];
        assert_eq!(annotations.map(nag_of), glyphs);
        assert_eq!(nag_of(b"--"), None, "a null move");
        let mut move_ = node(1, false, "e4");
        for nag in 1..=9 {
            move_.add_nag(nag);
        }
        assert_eq!(move_.nags.len(), MAX_NAGS);
        let mut comment = None;
        append_comment(&mut comment, b"");
        assert_eq!(comment, None);
        append_comment(&mut comment, b"Game number 1");
        append_comment(&mut comment, b"CQL");
        assert_eq!(comment.as_deref(), Some(b"Game number 1 CQL".as_slice()));
        let mut empty = Some(Vec::new());
        append_comment(&mut empty, b"CQL");
        assert_eq!(empty.as_deref(), Some(b"CQL".as_slice()));
    }
}
