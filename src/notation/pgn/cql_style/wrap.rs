//! Lines of words broken where CQL 6.2 breaks them.
//!
//! A word that would run past the last column starts a new line; a space that would run past
//! it ends the line instead. So a line may end in a space, a move number may stand at the end
//! of a line and its move at the start of the next (`9.` / `e5`), and a word longer than a
//! line stands alone on its line.
//!
//! CQL 6.2 writes a game into a buffer of [`GAME_BUFFER`] bytes (unless told otherwise): a word
//! that would reach its end
//! is left out (and in a run of words, the rest of the run), a shorter one after it may still
//! fit. A game that filled it is cut and ends with [`TRUNCATED`].

/// The last column CQL 6.2 writes movetext in.
pub const LINE_WIDTH: usize = 79;

/// The bytes of CQL 6.2's buffer for the text of one game (its `-outputbuffersize`).
pub const GAME_BUFFER: usize = 105_000;

/// What CQL 6.2 writes after a game it cut.
pub const TRUNCATED: &[u8] = b" game truncated by CQL } * \n\n";

/// Words written to a buffer in lines of at most [`LINE_WIDTH`] bytes.
pub(super) struct Wrapped<'o> {
    out: &'o mut Vec<u8>,
    column: usize,
    /// Where the bounded text began in `out`, and the bytes of its buffer, if it is bounded.
    start: Option<(usize, usize)>,
    /// Within a run of words: whether one was left out (and so the rest are).
    run: Option<bool>,
}

impl<'o> Wrapped<'o> {
    /// Lines appended to `out`, which ends a line (or is empty).
    pub(super) fn new(out: &'o mut Vec<u8>) -> Wrapped<'o> {
        Wrapped { out, column: 0, start: None, run: None }
    }

    /// Lines appended to `out` (which ends a line, or is empty) for a game whose text began at
    /// `start` in it, in a buffer of `buffer` bytes.
    pub(super) fn bounded(out: &'o mut Vec<u8>, start: usize, buffer: usize) -> Wrapped<'o> {
        Wrapped { out, column: 0, start: Some((start, buffer)), run: None }
    }

    /// Whether `more` bytes written now would reach the end of the buffer (or, within a run,
    /// a word of it was left out): then they are left out.
    fn full(&mut self, more: usize) -> bool {
        let full =
            self.run == Some(true) || self.start.is_some_and(|(start, buffer)| self.out.len() - start + more >= buffer);
        if full && self.run.is_some() {
            self.run = Some(true);
        }
        full
    }

    /// Begins a run of words (a comment's): past the first left out, the rest are left out.
    pub(super) fn begin_run(&mut self) {
        self.run = Some(false);
    }

    /// Ends the run of words.
    pub(super) fn end_run(&mut self) {
        self.run = None;
    }

    /// A word, on a new line when it does not fit on this one.
    /// The line is broken on the word's length as read; the column advances by its length as
    /// written, its Latin letters folded (see [`push_folded`]).
    pub(super) fn word(&mut self, word: &[u8]) {
        if self.run == Some(true) {
            return;
        }
        if self.column + word.len() > LINE_WIDTH {
            self.new_line();
        }
        self.glued(word);
    }

    /// A comment of one word (no space or line break in it: the caller sees to that), `{word}`,
    /// written at once where all of it fits on this line and in the buffer, outside a run, with
    /// nothing in it to fold: it is then written as the words `{`, `word` and `}` would be, and
    /// the answer is true. Otherwise nothing is written.
    pub(super) fn braced_word(&mut self, word: &[u8]) -> bool {
        let len = word.len() + 2;
        let fits = self.fits_at_once(len) && !word.is_empty() && !folds(word);
        if fits {
            self.out.push(b'{');
            self.out.extend_from_slice(word);
            self.out.push(b'}');
            self.column += len;
        }
        fits
    }

    /// The first `len` bytes of `buffer` as a word (a move's number and the move), written at
    /// once where it fits on this line and in the buffer, outside a run, all of it ASCII (the
    /// bytes past `len` are zeros): then it is written as [`Wrapped::word`] would write it, and
    /// the answer is true. Otherwise nothing is written.
    #[inline]
    pub(super) fn plain_word<const N: usize>(&mut self, buffer: &[u8; N], len: usize) -> bool {
        let ascii = buffer.iter().fold(0, |any, &byte| any | byte) < 0x80;
        let fits = ascii && self.fits_at_once(len);
        if fits {
            // The whole buffer is copied, then what is past the word cut again.
            let end = self.out.len() + len;
            self.out.extend_from_slice(buffer);
            self.out.truncate(end);
            self.column += len;
        }
        fits
    }

    /// Whether `len` bytes written now, outside a run, fit on this line and in the buffer:
    /// then they need none of the checks of a word, a space or a line break.
    fn fits_at_once(&self, len: usize) -> bool {
        self.run.is_none()
            && self.column + len <= LINE_WIDTH
            && self.start.is_none_or(|(start, buffer)| self.out.len() - start + len < buffer)
    }

    /// A word on this line, whatever its length.
    pub(super) fn glued(&mut self, word: &[u8]) {
        if !self.full(word.len()) {
            self.column += push_folded(self.out, word);
        }
    }

    /// A line break written as such (a query's comment may hold one), where the buffer has room.
    pub(super) fn line_break(&mut self) {
        if !self.full(1) {
            self.new_line();
        }
    }

    /// A space, or the end of the line when the line is full.
    #[inline]
    pub(super) fn space(&mut self) {
        if self.full(1) {
            return;
        }
        if self.column + 1 > LINE_WIDTH {
            self.new_line();
        } else {
            self.out.push(b' ');
            self.column += 1;
        }
    }

    /// Ends the line.
    pub(super) fn end_line(&mut self) {
        if self.run != Some(true) {
            self.new_line();
        }
    }

    /// A line break, where the buffer has room for it.
    fn new_line(&mut self) {
        if self.start.is_none_or(|(start, buffer)| self.out.len() - start < buffer) {
            self.out.push(b'\n');
            self.column = 0;
        }
    }

    /// Ends a bounded game's text as CQL 6.2 ends it: a text that filled the buffer is cut to
    /// its length less one byte, and one that comes within 5 bytes of that ends with
    /// [`TRUNCATED`].
    pub(super) fn finish(self) {
        let Some((start, buffer)) = self.start else { return };
        self.out.truncate(start + buffer - 1);
        if self.out.len() - start > buffer.saturating_sub(5) {
            self.out.extend_from_slice(TRUNCATED);
        }
    }
}

/// The first byte of the UTF-8 letters from `À` to `ÿ`, which [`push_folded`] folds.
const LATIN_LEAD: u8 = 0xC3;

/// Whether [`push_folded`] writes `text` otherwise than as it is.
fn folds(text: &[u8]) -> bool {
    text.contains(&LATIN_LEAD)
}

/// Appends `text` as CQL 6.2 writes every word and tag: the two bytes of a UTF-8 letter from
/// `À` to `ÿ` (U+00C0 to U+00FF, `0xC3` and a continuation byte) as its one Latin-1 byte, every
/// other byte as it is. Returns the number of bytes written.
pub(super) fn push_folded(out: &mut Vec<u8>, text: &[u8]) -> usize {
    if !folds(text) {
        // Moves, numbers and most words: nothing to fold.
        out.extend_from_slice(text);
        return text.len();
    }
    let start = out.len();
    let mut bytes = text.iter().copied();
    while let Some(byte) = bytes.next() {
        match byte {
            LATIN_LEAD => match bytes.next() {
                Some(next) => out.push(next.wrapping_add(64)),
                None => out.push(byte),
            },
            _ => out.push(byte),
        }
    }
    out.len() - start
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin_letters_are_written_in_latin_1_and_count_one_column() {
        let mut out = Vec::new();
        let mut lines = Wrapped::new(&mut out);
        lines.word("Grünfeld".as_bytes());
        lines.space();
        lines.word("“Réti”".as_bytes());
        assert_eq!(lines.column, 8 + 1 + 10);
        assert_eq!(out, b"Gr\xfcnfeld \xe2\x80\x9cR\xe9ti\xe2\x80\x9d");
    }

    fn wrap(words: &[&str]) -> String {
        let mut out = Vec::new();
        let mut lines = Wrapped::new(&mut out);
        for (i, word) in words.iter().enumerate() {
            if i > 0 {
                lines.space();
            }
            lines.word(word.as_bytes());
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_space_that_does_not_fit_ends_the_line() {
        let word = "x".repeat(LINE_WIDTH);
        assert_eq!(wrap(&[&word, "y"]), format!("{word}\ny"));
        let short = "x".repeat(LINE_WIDTH - 1);
        assert_eq!(wrap(&[&short, "y"]), format!("{short} \ny"));
    }

    #[test]
    fn a_word_longer_than_a_line_stands_alone() {
        let long = "x".repeat(LINE_WIDTH + 10);
        assert_eq!(wrap(&["a", &long, "b"]), format!("a \n{long}\nb"));
    }

    /// A bounded text of `before` bytes of earlier lines, then what `write` writes.
    fn bounded(before: usize, write: impl FnOnce(&mut Wrapped<'_>)) -> String {
        let mut out = b"earlier games\n".to_vec();
        let start = out.len();
        out.resize(start + before, b'\n');
        let mut lines = Wrapped::bounded(&mut out, start, GAME_BUFFER);
        write(&mut lines);
        lines.finish();
        String::from_utf8(out[start + before..].to_vec()).unwrap()
    }

    #[test]
    fn a_word_that_reaches_the_end_of_the_buffer_is_left_out_and_the_game_cut() {
        let written = bounded(GAME_BUFFER - 10, |lines| {
            lines.word(b"12345");
            lines.word(b"123456");
            lines.word(b"1234");
            lines.space();
            lines.end_line();
        });
        assert_eq!(written, "123451234 game truncated by CQL } * \n\n");
    }

    #[test]
    fn a_run_of_words_stops_at_the_first_left_out() {
        let written = bounded(GAME_BUFFER - 20, |lines| {
            lines.begin_run();
            for word in ["1234567890", "12345678901", "1"] {
                lines.word(word.as_bytes());
                lines.space();
            }
            lines.end_run();
            lines.word(b"}");
        });
        assert_eq!(written, "1234567890 }");
    }
}
