//! Finding where games start, fast, without reading their moves.
//!
//! The scanner goes line by line through tag sections and comments, and through movetext from
//! one `{`, `;` or `[` to the next with `memchr`, so that a `[` at the start of a line inside a
//! long comment is not taken for a tag. Where a game starts is decided by the rules of [`lines`](super::lines), which the
//! lexer follows too: every start found here is a game the lexer reads. Games that follow each
//! other without tags are separated later, by the lexer, at their results.
//!
//! ```
//! use cqlq::notation::pgn::Splitter;
//!
//! let text = b"[Event \"a\"]\n\n1. e4 { [%clk 0:01]\n[not a tag] } e5 1-0\n[Event \"b\"]\n1. d4 *\n";
//! let mut starts = Vec::new();
//! Splitter::default().scan(text, 0, &mut starts);
//! assert_eq!(starts, vec![0, 54]);
//!
//! // A comment never closed ends where the next game starts.
//! let text = b"[Event \"a\"]\n\n1. e4 {oops e5 1-0\n\n[Event \"b\"]\n\n1. d4 d5 0-1\n";
//! let mut starts = Vec::new();
//! Splitter::default().scan(text, 0, &mut starts);
//! assert_eq!(starts, vec![0, 33]);
//! ```

use memchr::{memchr, memchr2, memchr3, memrchr};

use crate::notation::lines::line_end;

use super::lines::{
    after_tags, content_start, first_on_line, is_event_tag, opens_tag, starts_game_in_comment, starts_game_in_tags,
};

/// Where the scan stands between lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Place {
    /// Before the first game.
    #[default]
    Nothing,
    /// In a tag section.
    Tags,
    /// In movetext.
    Movetext,
    /// Inside a `{` comment of movetext.
    Comment,
}

/// The state of the scan between lines.
#[derive(Clone, Debug, Default)]
pub struct Splitter {
    place: Place,
    /// Whether the last line was blank.
    after_blank: bool,
}

impl crate::notation::GameSplitter for Splitter {
    fn scan(&mut self, text: &[u8], base: usize, starts: &mut Vec<usize>) {
        Splitter::scan(self, text, base, starts);
    }
}

impl Splitter {
    /// Scans text made of whole lines (a window of the input starting at byte `base` of it) and
    /// pushes the input offsets where games start. The first game starts where the first
    /// content is.
    pub fn scan(&mut self, text: &[u8], base: usize, starts: &mut Vec<usize>) {
        let mut position = 0;
        while position < text.len() {
            position = if self.place == Place::Movetext {
                self.movetext_lines(text, position, base, starts)
            } else {
                // One pass finds the line's end and whether a `{` stands in it.
                let (end, brace) = match memchr2(b'{', b'\n', &text[position..]) {
                    Some(i) if text[position + i] == b'{' => (line_end(text, position + i), true),
                    Some(i) => (position + i + 1, false),
                    None => (text.len(), false),
                };
                self.line(&text[position..end], brace, base + position, starts);
                end
            };
        }
    }

    /// Follows movetext from the line starting at `position` across lines, looking only at the
    /// bytes that may end it (`{`, `;`, `[`), up to the line where a game starts or a comment
    /// stays open; returns where to go on, at a line start.
    fn movetext_lines(&mut self, text: &[u8], position: usize, base: usize, starts: &mut Vec<usize>) -> usize {
        // Blank lines matter only in tag sections and comments, which begin at a line that
        // is not blank.
        self.after_blank = false;
        let mut at = position;
        while let Some(found) = memchr3(b'{', b';', b'[', &text[at..]) {
            let found = at + found;
            let line_start = memrchr(b'\n', &text[position..found]).map_or(position, |i| position + i + 1);
            if text[line_start] == b'%' {
                // An escape line: nothing in it counts.
                at = line_end(text, found);
                continue;
            }
            match text[found] {
                b'[' if first_on_line(text, found) => {
                    // A tag opening a line after movetext: a game starts there.
                    let end = line_end(text, found);
                    let line = &text[line_start..end];
                    self.line(line, line.contains(&b'{'), base + line_start, starts);
                    return end;
                }
                b'[' if is_event_tag(&text[found..]) => {
                    let end = line_end(text, found);
                    starts.push(base + found);
                    let line = &text[found..end];
                    self.tag_line(line, line.contains(&b'{'), base + found, starts);
                    return end;
                }
                b'[' => at = found + 1,
                b';' => at = line_end(text, found),
                _ => match memchr2(b'}', b'\n', &text[found + 1..]) {
                    Some(close) if text[found + 1 + close] == b'}' => at = found + 1 + close + 1,
                    _ => {
                        self.place = Place::Comment;
                        return line_end(text, found);
                    }
                },
            }
        }
        text.len()
    }

    /// One line (from input offset `offset`); `brace` when a `{` stands in it.
    fn line(&mut self, line: &[u8], brace: bool, offset: usize, starts: &mut Vec<usize>) {
        let content = content_start(line);
        let rest = &line[content..];
        let after_blank = std::mem::replace(&mut self.after_blank, rest.is_empty());
        if rest.is_empty() {
            return;
        }
        if self.place == Place::Comment {
            if starts_game_in_comment(rest, after_blank) {
                starts.push(offset + content);
                self.tag_line(rest, brace, offset + content, starts);
                return;
            }
            if let Some(close) = memchr(b'}', line) {
                self.place = Place::Movetext;
                self.movetext(&line[close + 1..], offset + close + 1, starts);
            }
            return;
        }
        if opens_tag(rest) {
            let new_game = self.place != Place::Tags || starts_game_in_tags(rest, after_blank);
            if new_game {
                starts.push(offset + content);
            }
            self.tag_line(rest, brace, offset + content, starts);
            return;
        }
        if line[0] == b'%' || rest[0] == b';' {
            // An escape line or a comment line: no movetext yet.
            return;
        }
        if self.place == Place::Nothing {
            starts.push(offset + content);
        }
        self.place = Place::Movetext;
        self.movetext(rest, offset + content, starts);
    }

    /// A line (from input offset `offset`) that opens with tags: movetext may follow them.
    /// `brace` when a `{` stands in the line.
    fn tag_line(&mut self, line: &[u8], brace: bool, offset: usize, starts: &mut Vec<usize>) {
        if !brace && line.trim_ascii_end().ends_with(b"\"]") {
            // Nothing but tags, as good as always. Should movetext without a comment stand
            // between them after all, the lexer starts at least the games found here.
            self.place = Place::Tags;
            return;
        }
        match after_tags(line) {
            Some(movetext) => {
                self.place = Place::Movetext;
                self.movetext(&line[movetext..], offset + movetext, starts);
            }
            None => self.place = Place::Tags,
        }
    }

    /// Follows comments through movetext (from input offset `offset` to its line's end); an
    /// `[Event` tag in it starts a game there.
    fn movetext(&mut self, line: &[u8], offset: usize, starts: &mut Vec<usize>) {
        let mut at = 0;
        while let Some(found) = memchr3(b'{', b';', b'[', &line[at..]) {
            let found = at + found;
            match line[found] {
                b';' => return,
                b'[' if is_event_tag(&line[found..]) => {
                    starts.push(offset + found);
                    let rest = &line[found..];
                    self.tag_line(rest, rest.contains(&b'{'), offset + found, starts);
                    return;
                }
                b'[' => at = found + 1,
                _ => match memchr(b'}', &line[found + 1..]) {
                    Some(close) => at = found + 1 + close + 1,
                    None => {
                        self.place = Place::Comment;
                        return;
                    }
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn starts(text: &str) -> Vec<usize> {
        let mut starts = Vec::new();
        Splitter::default().scan(text.as_bytes(), 0, &mut starts);
        starts
    }

    #[test]
    fn games_without_blank_lines_between() {
        let text = "[Event \"a\"]\n1. e4 1-0\n[Event \"b\"]\n1. d4 0-1\n";
        assert_eq!(starts(text), vec![0, 22]);
    }

    #[test]
    fn blank_lines_inside_movetext_and_semicolon_comments() {
        let text = "[A \"1\"]\n\n1. e4\n\n e5 ; a { that never closes\n[B \"2\"]\n\n1. d4\n";
        assert_eq!(starts(text), vec![0, 44]);
    }

    #[test]
    fn blank_lines_inside_tag_sections() {
        // ChessBase writes them: one game.
        let text = "\u{feff}[Event \"1\"]\n\n[B \"1\"]\n\n1. e4 *";
        assert_eq!(starts(text), vec![3]);
        // An `[Event` tag after a blank line is the next game's, movetext or not.
        let text = "[Event \"1\"]\n[B \"1\"]\n\n[Event \"2\"]\n\n1. e4 *";
        assert_eq!(starts(text), vec![0, 21]);
    }

    #[test]
    fn comments_never_closed_end_where_games_start() {
        let text = "[Event \"a\"]\n\n1. e4 {oops\n[Site \"x\"]\n\n[Round \"b\"]\n1. d4 *";
        assert_eq!(starts(text), vec![0, 37]);
        let text = "1. e4 {oops\n[Event \"b\"]\n1. d4 *";
        assert_eq!(starts(text), vec![0, 12]);
        // Movetext after tags on their line is read for comments too.
        let text = "[Event \"a\"] 1. e4 {\n[Site \"x\"] }\n\n[Event \"b\"]\n";
        assert_eq!(starts(text), vec![0, 34]);
    }

    #[test]
    fn windows_carry_the_state() {
        let text = b"[A \"1\"]\n1. e4 {\n[x \"inside\"]\n} e5\n[A \"2\"]\n";
        let mut splitter = Splitter::default();
        let mut found = Vec::new();
        let cut = 16; // after "1. e4 {\n"
        splitter.scan(&text[..cut], 0, &mut found);
        splitter.scan(&text[cut..], cut, &mut found);
        assert_eq!(found, vec![0, 34]);
    }

    #[test]
    fn movetext_without_tags() {
        assert_eq!(starts("\n\n1. e4 e5 *\n"), vec![2]);
    }
}
