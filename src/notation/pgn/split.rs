//! Finding where games start, fast, without reading their moves.
//!
//! A game starts at a line that opens with a tag (`[` and a letter) outside a comment, when
//! movetext came before it, or when a blank line ended the previous tag section. The scanner goes
//! line by line with `memchr` and looks inside movetext lines only for `{`, `}` and `;`, so that
//! a `[` at the start of a line inside a long comment is not taken for a tag. Games that follow
//! each other without tags are separated later, by the lexer, at their results.
//!
//! ```
//! use cqlq::notation::pgn::Splitter;
//!
//! let text = b"[Event \"a\"]\n\n1. e4 { [%clk 0:01]\n[not a tag] } e5 1-0\n[Event \"b\"]\n1. d4 *\n";
//! let mut starts = Vec::new();
//! Splitter::default().scan(text, 0, &mut starts);
//! assert_eq!(starts, vec![0, 54]);
//! ```

use memchr::{memchr, memchr2};

/// The state of the scan between lines.
#[derive(Clone, Debug, Default)]
pub struct Splitter {
    in_comment: bool,
    in_tags: bool,
    seen_movetext: bool,
    blank_after_tags: bool,
    started: bool,
}

impl Splitter {
    /// Scans text made of whole lines (a window of the input starting at byte `base` of it) and
    /// pushes the input offsets where games start. The first game starts where the first
    /// content is.
    pub fn scan(&mut self, text: &[u8], base: usize, starts: &mut Vec<usize>) {
        let mut position = 0;
        while position < text.len() {
            let end = memchr(b'\n', &text[position..]).map_or(text.len(), |i| position + i + 1);
            self.line(&text[position..end], base + position, starts);
            position = end;
        }
    }

    fn line(&mut self, line: &[u8], offset: usize, starts: &mut Vec<usize>) {
        if self.in_comment {
            match memchr(b'}', line) {
                Some(close) => {
                    self.in_comment = false;
                    self.movetext(&line[close + 1..]);
                }
                None => return,
            }
            return;
        }
        let content = skip_blank(line);
        let Some(&first) = line.get(content) else {
            // A blank line.
            if self.in_tags {
                self.blank_after_tags = true;
            }
            return;
        };
        if first == b'[' && line.get(content + 1).is_some_and(u8::is_ascii_alphabetic) {
            let new_game = !self.started || self.seen_movetext || self.blank_after_tags;
            if new_game {
                starts.push(offset + content);
                self.started = true;
                self.seen_movetext = false;
            }
            self.in_tags = true;
            self.blank_after_tags = false;
            return;
        }
        if first == b'%' {
            return;
        }
        if !self.started {
            starts.push(offset + content);
            self.started = true;
        }
        self.in_tags = false;
        self.blank_after_tags = false;
        self.seen_movetext = true;
        self.movetext(&line[content..]);
    }

    /// Follows comments through a movetext line.
    fn movetext(&mut self, mut rest: &[u8]) {
        while let Some(at) = memchr2(b'{', b';', rest) {
            if rest[at] == b';' {
                return;
            }
            match memchr(b'}', &rest[at + 1..]) {
                Some(close) => rest = &rest[at + 1 + close + 1..],
                None => {
                    self.in_comment = true;
                    return;
                }
            }
        }
    }
}

/// The index of the first byte that is not blank (space, tab, CR, form feed, a BOM).
fn skip_blank(line: &[u8]) -> usize {
    let mut at = 0;
    while at < line.len() {
        match line[at] {
            b' ' | b'\t' | b'\r' | b'\n' | 0x0B | 0x0C => at += 1,
            0xEF if line[at..].starts_with(b"\xEF\xBB\xBF") => at += 3,
            _ => break,
        }
    }
    at
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
    fn tag_sections_without_movetext() {
        let text = "\u{feff}[A \"1\"]\n[B \"1\"]\n\n[A \"2\"]\n\n1. e4 *";
        assert_eq!(starts(text), vec![3, 20]);
    }

    #[test]
    fn windows_carry_the_state() {
        let text = b"[A \"1\"]\n1. e4 {\n[x \"inside\"]\n} e5\n[A \"2\"]\n";
        let mut splitter = Splitter::default();
        let mut found = Vec::new();
        let cut = 15; // after "1. e4 {\n"
        splitter.scan(&text[..cut], 0, &mut found);
        splitter.scan(&text[cut..], cut, &mut found);
        assert_eq!(found, vec![0, 34]);
    }

    #[test]
    fn movetext_without_tags() {
        assert_eq!(starts("\n\n1. e4 e5 *\n"), vec![2]);
    }
}
