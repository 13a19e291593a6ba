//! Lines of a text, for the formats that hold a game a line or end a game at a blank line.

use memchr::memchr;

use super::GameSplitter;

/// One past the end of the line holding `at` (the text's end for a last line without one).
#[must_use]
pub(crate) fn line_end(text: &[u8], at: usize) -> usize {
    memchr(b'\n', &text[at..]).map_or(text.len(), |i| at + i + 1)
}

/// Whether a line holds nothing but ASCII blanks.
#[must_use]
pub(crate) fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

/// The first line of `head` with content.
#[must_use]
pub(crate) fn first_content_line(head: &[u8]) -> Option<&[u8]> {
    head.split(|&byte| byte == b'\n').find(|line| !is_blank(line))
}

/// Moves `at` past the lines that `blank` finds blank; false when nothing follows them.
pub(crate) fn skip_blank_lines(text: &[u8], at: &mut usize, blank: fn(&[u8]) -> bool) -> bool {
    while *at < text.len() {
        let end = line_end(text, *at);
        if !blank(&text[*at..end]) {
            return true;
        }
        *at = end;
    }
    false
}

/// Finds games that start at every line with content: one game a line.
#[derive(Debug, Default)]
pub(crate) struct LineSplitter;

impl GameSplitter for LineSplitter {
    fn scan(&mut self, text: &[u8], base: usize, starts: &mut Vec<usize>) {
        let mut at = 0;
        while skip_blank_lines(text, &mut at, is_blank) {
            starts.push(base + at);
            at = line_end(text, at);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_starts_at_each_line_with_content() {
        let text = b"\n  \n1. j4j3\r\n\t\nc4c5\nlast";
        let mut starts = Vec::new();
        LineSplitter.scan(text, 100, &mut starts);
        assert_eq!(starts, [104, 115, 120]);
        assert_eq!(first_content_line(text), Some(&b"1. j4j3\r"[..]));
        let mut at = 13;
        assert!(skip_blank_lines(text, &mut at, is_blank));
        assert_eq!(at, 15);
        let mut at = 0;
        assert!(!skip_blank_lines(b" \n\n", &mut at, is_blank));
        assert_eq!(at, 3);
    }
}
