//! The rules about lines that the [`Splitter`](super::Splitter) and the [`Lexer`](super::Lexer)
//! share, so that both find games starting at the same lines: what a blank line is, where a
//! line's content starts, how a tag pair is read, and which lines end a comment that was never
//! closed.
//!
//! A game starts at a line that opens with a tag (`[`, after blanks):
//! - after movetext (where an `[Event` tag starts a game even in the middle of a line: a
//!   damaged byte may have taken the line end before it);
//! - in a tag section, only at an `[Event ` line after a blank line (ChessBase writes blank lines
//!   inside tag sections);
//! - inside a `{` comment, at an `[Event ` line, or at a tag pair `[Name "` after a blank line,
//!   when the comment's `}` does not come before the next `{`, the next such line or the end of
//!   the text: such a comment was never closed (a damaged byte, a cut file), and the games after
//!   it are read all the same; a comment closed after such a line (one quoting a game's tags)
//!   stays whole.
//!
//! A line ends at `\n`, `\r\n` or a lone `\r`, all three alike.

use crate::notation::lines::{content_end, is_line_end, line_end, previous_line, terminator_len};

/// The byte order mark, taken for a blank where a line starts (concatenated files have it).
pub(super) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Whether a byte is a blank of PGN (space, tab, line ends, vertical tab, form feed).
#[inline]
pub(super) fn is_blank_byte(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | b'\n' | 0x0B | 0x0C)
}

/// The index of the first byte of `line` that is neither a blank nor a byte order mark.
#[inline]
pub(super) fn content_start(line: &[u8]) -> usize {
    let mut at = 0;
    while at < line.len() {
        if is_blank_byte(line[at]) {
            at += 1;
        } else if line[at..].starts_with(BOM) {
            at += BOM.len();
        } else {
            break;
        }
    }
    at
}

/// Whether `at` is the first content of its line in `text`: only blanks and byte order marks
/// stand between it and the line's start.
pub(super) fn first_on_line(text: &[u8], mut at: usize) -> bool {
    while at > 0 {
        let byte = text[at - 1];
        if is_line_end(byte) {
            return true;
        }
        if is_blank_byte(byte) {
            at -= 1;
        } else if text[..at].ends_with(BOM) {
            at -= BOM.len();
        } else {
            return false;
        }
    }
    true
}

/// Whether the line before the one starting at `line_start` is blank.
pub(super) fn follows_blank_line(text: &[u8], line_start: usize) -> bool {
    let Some((start, end)) = previous_line(text, line_start) else { return false };
    content_start(&text[start..end]) == end - start
}

/// Whether a line's content opens a tag, well formed or not: `[`.
#[inline]
pub(super) fn opens_tag(content: &[u8]) -> bool {
    content.first() == Some(&b'[')
}

/// Whether text starts with an `[Event` tag: the first tag of a game.
pub(super) fn is_event_tag(content: &[u8]) -> bool {
    // The line's end may or may not be part of `content`: the end of it ends the word too.
    content.starts_with(b"[Event") && content.get(6).is_none_or(|&b| b == b'"' || is_blank_byte(b))
}

/// The most bytes of a line's content that [`is_tag_pair`] looks at: a tag's name and the
/// blanks after it are shorter.
pub(super) const TAG_HEAD: usize = 256;

/// Whether a line's content opens a well-formed tag pair: `[Name "`, its quote within the first
/// [`TAG_HEAD`] bytes.
pub(super) fn is_tag_pair(content: &[u8]) -> bool {
    let content = &content[..content.len().min(TAG_HEAD)];
    if !(opens_tag(content) && content.get(1).is_some_and(u8::is_ascii_alphabetic)) {
        return false;
    }
    let name_end = 1 + content[1..].iter().take_while(|&&b| is_name_byte(b)).count();
    let quote = name_end + content[name_end..].iter().take_while(|&&b| matches!(b, b' ' | b'\t')).count();
    quote > name_end && content.get(quote) == Some(&b'"')
}

/// Whether, inside a tag section, a line (whose content this is) starts a new game.
#[inline]
pub(super) fn starts_game_in_tags(content: &[u8], after_blank: bool) -> bool {
    after_blank && is_event_tag(content)
}

/// Whether, inside a comment, a line (whose content this is) starts a new game: the comment
/// was never closed.
#[inline]
pub(super) fn starts_game_in_comment(content: &[u8], after_blank: bool) -> bool {
    content.first() == Some(&b'[') && (is_event_tag(content) || (after_blank && is_tag_pair(content)))
}

/// Where the `{` comment opened at `open` ends, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CommentEnd {
    /// At its `}`, at this offset.
    Closed(usize),
    /// Never closed: a new game starts at the line beginning at this offset.
    GameStarts(usize),
    /// Never closed, up to the end of the text.
    EndOfText,
}

/// Finds the end of the `{` comment opened at `open`, and whether the end of the text decided
/// it (where the text is cut, a `}` after it could change the answer).
///
/// A comment ends at its `}`, over any number of lines. A line inside it where a game would
/// start (see [`starts_game_in_comment`]) is where the comment ends unless its `}` comes before
/// the next `{`, the next such line and the end of the text: a comment may quote a game's
/// tags, and a comment never closed (a damaged byte, a cut file) hides no later game.
pub(super) fn comment_end_told(text: &[u8], open: usize) -> (CommentEnd, bool) {
    let mut at = open + 1;
    let mut after_blank = false;
    loop {
        let Some(found) = memchr::memchr3(b'}', b'\n', b'\r', &text[at..]) else {
            return (CommentEnd::EndOfText, true);
        };
        let found = at + found;
        if text[found] == b'}' {
            return (CommentEnd::Closed(found), false);
        }
        let line = found + terminator_len(text, found);
        let end = content_end(text, line);
        let content = &text[line + content_start(&text[line..end])..end];
        if content.is_empty() {
            after_blank = true;
            at = end;
            if at >= text.len() {
                return (CommentEnd::EndOfText, true);
            }
            continue;
        }
        if starts_game_in_comment(content, after_blank) {
            return match closing_brace(text, line) {
                (Some(close), _) => (CommentEnd::Closed(close), false),
                (None, at_end) => (CommentEnd::GameStarts(line), at_end),
            };
        }
        after_blank = false;
        at = line;
    }
}

/// The `}` that closes a comment holding the line at `line`, where a game would start, if it
/// comes before the next `{`, the next such line and the end of the text; else `None`, and
/// whether the end of the text decided it.
fn closing_brace(text: &[u8], line: usize) -> (Option<usize>, bool) {
    let mut at = line;
    let mut after_blank = false;
    loop {
        let Some(found) = find_brace_or_line_end(&text[at..]) else { return (None, true) };
        let found = at + found;
        match text[found] {
            b'}' => return (Some(found), false),
            b'{' => return (None, false),
            _ => {}
        }
        let next = found + terminator_len(text, found);
        let end = content_end(text, next);
        let content = &text[next + content_start(&text[next..end])..end];
        if content.is_empty() {
            after_blank = true;
            at = end;
            if at >= text.len() {
                return (None, true);
            }
            continue;
        }
        if starts_game_in_comment(content, after_blank) {
            return (None, false);
        }
        after_blank = false;
        at = next;
    }
}

/// The first `{`, `}`, `\n` or `\r` of `text`.
fn find_brace_or_line_end(text: &[u8]) -> Option<usize> {
    let other = memchr::memchr3(b'{', b'}', b'\n', text);
    let limit = other.unwrap_or(text.len());
    memchr::memchr(b'\r', &text[..limit]).or(other)
}

/// The bytes a tag value's scan stops at: its closing quote, an escape, a line end.
static VALUE_STOPS: [bool; 256] = {
    let mut stops = [false; 256];
    stops[b'"' as usize] = true;
    stops[b'\\' as usize] = true;
    stops[b'\n' as usize] = true;
    stops[b'\r' as usize] = true;
    stops
};

/// Whether a byte may stand in a tag's name.
#[inline]
fn is_name_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// A tag pair read from its `[`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TagRead {
    /// The name's and the value's byte ranges (the value as written, escapes in), when the tag
    /// is well formed.
    pub pair: Option<((usize, usize), (usize, usize))>,
    /// Whether a well-formed tag ends with its `]`.
    pub closed: bool,
    /// Where reading goes on: after the `]` (or the closing quote), or, for a malformed tag,
    /// at the start of the next line.
    pub end: usize,
}

/// Reads the tag pair whose `[` is at `open`: `[Name "value"]`, with `\"` and `\\` escaped in
/// the value. A tag never runs past its line; a malformed one is skipped to the line's end.
#[inline]
pub(super) fn read_tag(text: &[u8], open: usize) -> TagRead {
    let malformed = || TagRead { pair: None, closed: false, end: line_end(text, open) };
    let name_start = open + 1;
    let mut at = name_start;
    while at < text.len() && is_name_byte(text[at]) {
        at += 1;
    }
    let name = (name_start, at);
    while at < text.len() && matches!(text[at], b' ' | b'\t') {
        at += 1;
    }
    if name.0 == name.1 || text.get(at) != Some(&b'"') {
        return malformed();
    }
    let value_start = at + 1;
    at = value_start;
    while at < text.len() {
        // Most bytes of a value are none of the four that stop or escape.
        let byte = text[at];
        if !VALUE_STOPS[usize::from(byte)] {
            at += 1;
        } else if byte == b'\\' && text.get(at + 1).is_some_and(|&b| !is_line_end(b)) {
            at += 2;
        } else if byte == b'\\' {
            at += 1;
        } else {
            break;
        }
    }
    if text.get(at) != Some(&b'"') {
        return malformed();
    }
    let value = (value_start, at);
    at += 1;
    while at < text.len() && matches!(text[at], b' ' | b'\t') {
        at += 1;
    }
    let closed = text.get(at) == Some(&b']');
    if closed {
        at += 1;
    }
    TagRead { pair: Some((name, value)), closed, end: at }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comment_end(text: &[u8], open: usize) -> CommentEnd {
        comment_end_told(text, open).0
    }

    #[test]
    fn tags_are_read_within_their_line() {
        let text = b"[White \"A \\\"B\\\"\"] [Black \"x\\\n[Event \"y\"]";
        let first = read_tag(text, 0);
        assert_eq!(first.pair, Some(((1, 6), (8, 15))));
        let second = read_tag(text, first.end + 1);
        assert_eq!(second.pair, None, "a value never runs past its line");
        assert_eq!(second.end, 29);
        assert!(first.closed);
        assert!(!read_tag(b"[A \"1\"\r[B \"2\"]", 0).closed);
        assert_eq!(read_tag(b"[A \"1\r[B \"2\"]", 0).end, 6, "a lone \\r ends the line");
        assert_eq!(read_tag(b"[ \"x\"]", 0).pair, None);
    }

    #[test]
    fn comments_end_at_their_brace_or_at_a_game() {
        assert_eq!(comment_end(b"{ a\n[x] }", 0), CommentEnd::Closed(8));
        assert_eq!(comment_end(b"{ a\n[Event \"b\"]\n1. e4 *", 0), CommentEnd::GameStarts(4));
        assert_eq!(comment_end(b"{ a\n[Site \"b\"]\n}", 0), CommentEnd::Closed(15));
        assert_eq!(comment_end(b"{ a\n \r\n[Site \"b\"]\n1. e4 {c} *", 0), CommentEnd::GameStarts(7));
        assert_eq!(comment_end(b"{ a\n\n[%clk 0:01] }", 0), CommentEnd::Closed(17));
        assert_eq!(comment_end(b"{ a\n\n", 0), CommentEnd::EndOfText);
        assert_eq!(comment_end(b"{", 0), CommentEnd::EndOfText);
    }

    #[test]
    fn a_comment_quoting_tags_stays_whole_when_it_closes() {
        // Its `}` comes before the next `{` and the next game's line.
        assert_eq!(comment_end(b"{ see\n[Event \"b\"]\nand more } e5", 0), CommentEnd::Closed(27));
        assert_eq!(comment_end(b"{ a\r[Event \"b\"]\r\r1. e4 } e5", 0), CommentEnd::Closed(23));
        // A `{` first, another game's line first, or the end first: never closed.
        assert_eq!(comment_end(b"{ a\n[Event \"b\"]\n1. e4 {x} *", 0), CommentEnd::GameStarts(4));
        let text = b"{ a\n[Event \"b\"]\n1. e4 *\n\n[Event \"c\"]\n1. d4 } *";
        assert_eq!(comment_end(text, 0), CommentEnd::GameStarts(4));
        assert_eq!(comment_end_told(b"{ a\r[Event \"b\"]\r1. e4 *", 0), (CommentEnd::GameStarts(4), true));
    }

    #[test]
    fn line_starts_see_through_blanks_and_byte_order_marks() {
        let text = b"e4\n \xEF\xBB\xBF[Event";
        assert!(first_on_line(text, 7));
        assert!(!first_on_line(text, 1));
        assert!(first_on_line(text, 0));
        assert_eq!(content_start(b"\t\xEF\xBB\xBF x"), 5);
    }
}
