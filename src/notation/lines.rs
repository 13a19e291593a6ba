//! Lines of a text, for every reader: a line ends at `\n`, at `\r\n` or at a lone `\r` (old Mac
//! files), all three alike. Also the splitter of the formats that hold a game a line.

use memchr::{memchr2, memrchr2};

use super::GameSplitter;

/// Whether a byte ends a line: `\n`, or `\r` (alone, or before its `\n`).
#[inline]
#[must_use]
pub(crate) fn is_line_end(byte: u8) -> bool {
    byte == b'\n' || byte == b'\r'
}

/// Where the line holding `at` ends: the offset of its line end (`\n` or `\r`), or the text's
/// length for a last line without one.
#[inline]
#[must_use]
pub(crate) fn content_end(text: &[u8], at: usize) -> usize {
    memchr2(b'\n', b'\r', &text[at..]).map_or(text.len(), |i| at + i)
}

/// The length of the line end at `at`, which is a line end byte: 2 for `\r\n`, else 1.
#[inline]
#[must_use]
pub(crate) fn terminator_len(text: &[u8], at: usize) -> usize {
    if text[at] == b'\r' && text.get(at + 1) == Some(&b'\n') { 2 } else { 1 }
}

/// One past the end of the line holding `at`, its line end included (the text's end for a last
/// line without one).
#[inline]
#[must_use]
pub(crate) fn line_end(text: &[u8], at: usize) -> usize {
    let end = content_end(text, at);
    if end == text.len() { end } else { end + terminator_len(text, end) }
}

/// Where the line holding `at` starts (`at` itself when it follows a line end).
#[inline]
#[must_use]
pub(crate) fn line_start(text: &[u8], at: usize) -> usize {
    memrchr2(b'\n', b'\r', &text[..at]).map_or(0, |i| i + 1)
}

/// Where the line before the one starting at `start` starts and where its content ends (its
/// line end), if there is a line before it.
#[must_use]
pub(crate) fn previous_line(text: &[u8], start: usize) -> Option<(usize, usize)> {
    let mut end = start.checked_sub(1)?;
    if text[end] == b'\n' && end > 0 && text[end - 1] == b'\r' {
        end -= 1;
    }
    Some((line_start(text, end), end))
}

/// How many lines end in `text[from..to]`: each `\n`, and each `\r` that no `\n` follows (the
/// byte after `to` is looked at, so that a `\r\n` cut between two counts is counted once).
#[must_use]
pub fn count_line_ends(text: &[u8], from: usize, to: usize) -> u64 {
    let part = &text[from..to];
    let mut count = memchr::memchr_iter(b'\n', part).count() as u64;
    if memchr::memchr(b'\r', part).is_some() {
        count += memchr::memchr_iter(b'\r', part).filter(|&i| text.get(from + i + 1) != Some(&b'\n')).count() as u64;
    }
    count
}

/// The lines of a text, without their line ends.
pub(crate) fn lines(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= text.len() {
            return None;
        }
        let end = content_end(text, at);
        let line = &text[at..end];
        at = line_end(text, at);
        Some(line)
    })
}

/// Whether a line holds nothing but ASCII blanks.
#[must_use]
pub(crate) fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

/// The byte order mark, which may open a text.
pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The first line of `head` with content (a byte order mark opening it left out).
#[must_use]
pub(crate) fn first_content_line(head: &[u8]) -> Option<&[u8]> {
    lines(head.strip_prefix(BOM).unwrap_or(head)).find(|line| !is_blank(line))
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

/// Finds games that start at every line with content: one game a line. It reads any number of
/// bytes at a time, whole lines or not.
#[derive(Debug, Default)]
pub(crate) struct LineSplitter {
    /// The input offset scanned up to.
    at: usize,
    /// Where the line being scanned starts.
    line: usize,
    /// Whether a game was found starting at that line.
    found: bool,
}

impl GameSplitter for LineSplitter {
    fn scan(&mut self, text: &[u8], base: usize, complete: bool, starts: &mut Vec<usize>) {
        let end = base + text.len();
        while self.at < end {
            let at = self.at - base;
            if self.found {
                // The rest of a line with content: on to its end.
                match memchr2(b'\n', b'\r', &text[at..]) {
                    Some(i) => self.at += i,
                    None => {
                        self.at = end;
                        return;
                    }
                }
            }
            let at = self.at - base;
            let byte = text[at];
            if is_line_end(byte) {
                if byte == b'\r' && at + 1 == text.len() && !complete {
                    // A `\n` may follow: then both end the line.
                    return;
                }
                self.at += terminator_len(text, at);
                self.line = self.at;
                self.found = false;
            } else {
                if !byte.is_ascii_whitespace() {
                    starts.push(self.line);
                    self.found = true;
                }
                self.at += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split_by(text: &[u8], step: usize) -> Vec<usize> {
        let mut splitter = LineSplitter::default();
        let mut starts = Vec::new();
        let mut to = 0;
        while to < text.len() {
            to = (to + step).min(text.len());
            splitter.scan(&text[..to], 0, to == text.len(), &mut starts);
        }
        starts
    }

    #[test]
    fn a_game_starts_at_each_line_with_content() {
        let text = b"\n  \n1. j4j3\r\n\t\nc4c5\nlast";
        for step in [1, 2, 5, text.len()] {
            assert_eq!(split_by(text, step), [4, 15, 20], "{step} bytes at a time");
        }
        assert_eq!(first_content_line(text), Some(&b"1. j4j3"[..]));
        let mut at = 13;
        assert!(skip_blank_lines(text, &mut at, is_blank));
        assert_eq!(at, 15);
        let mut at = 0;
        assert!(!skip_blank_lines(b" \n\n", &mut at, is_blank));
        assert_eq!(at, 3);
    }

    #[test]
    fn every_line_end_is_one_line_end() {
        let text = b"a\rb\r\nc\n\rd\r";
        assert_eq!(lines(text).collect::<Vec<_>>(), [&b"a"[..], b"b", b"c", b"", b"d"]);
        assert_eq!(count_line_ends(text, 0, text.len()), 5);
        // A `\r\n` cut between two counts is counted once, with its `\n`.
        assert_eq!(count_line_ends(text, 0, 4) + count_line_ends(text, 4, text.len()), 5);
        for step in 1..4 {
            assert_eq!(split_by(text, step), [0, 2, 5, 8]);
        }
        assert_eq!(line_end(text, 2), 5);
        assert_eq!(line_start(text, 6), 5);
        assert_eq!(previous_line(text, 5), Some((2, 3)));
        assert_eq!(previous_line(text, 0), None);
    }
}
