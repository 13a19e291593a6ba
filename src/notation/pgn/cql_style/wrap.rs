//! Lines of words broken where CQL 6.2 breaks them.
//!
//! A word that would run past the last column starts a new line; a space that would run past
//! it ends the line instead. So a line may end in a space, a move number may stand at the end
//! of a line and its move at the start of the next (`9.` / `e5`), and a word longer than a
//! line stands alone on its line.

/// The last column CQL 6.2 writes movetext in.
pub const LINE_WIDTH: usize = 79;

/// Words written to a buffer in lines of at most [`LINE_WIDTH`] bytes.
pub(super) struct Wrapped<'o> {
    out: &'o mut Vec<u8>,
    column: usize,
}

impl<'o> Wrapped<'o> {
    /// Lines appended to `out`, which ends a line (or is empty).
    pub(super) fn new(out: &'o mut Vec<u8>) -> Wrapped<'o> {
        Wrapped { out, column: 0 }
    }

    /// A word, on a new line when it does not fit on this one.
    /// The line is broken on the word's length as read; the column advances by its length as
    /// written, its Latin letters folded (see [`push_folded`]).
    pub(super) fn word(&mut self, word: &[u8]) {
        if self.column > 0 && self.column + word.len() > LINE_WIDTH {
            self.end_line();
        }
        self.column += push_folded(self.out, word);
    }

    /// A word on this line, whatever its length.
    pub(super) fn glued(&mut self, word: &[u8]) {
        self.column += push_folded(self.out, word);
    }

    /// A space, or the end of the line when the line is full.
    pub(super) fn space(&mut self) {
        if self.column + 1 > LINE_WIDTH {
            self.end_line();
        } else {
            self.out.push(b' ');
            self.column += 1;
        }
    }

    /// Ends the line.
    pub(super) fn end_line(&mut self) {
        self.out.push(b'\n');
        self.column = 0;
    }
}

/// Appends `text` as CQL 6.2 writes every word and tag: the two bytes of a UTF-8 letter from
/// `À` to `ÿ` (U+00C0 to U+00FF, `0xC3` and a continuation byte) as its one Latin-1 byte, every
/// other byte as it is. Returns the number of bytes written.
pub(super) fn push_folded(out: &mut Vec<u8>, text: &[u8]) -> usize {
    let start = out.len();
    let mut bytes = text.iter().copied();
    // Words are a few bytes long: pushed byte by byte, they cost no call to a copier.
    while let Some(byte) = bytes.next() {
        match byte {
            0xC3 => match bytes.next() {
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
}
