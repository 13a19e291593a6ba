//! Laser Chess games as bare move lists, one game a line: turns in Laser Algebraic Notation,
//! with move numbers (`1.`, `1...` when Red moves first) and a result where a record has them.
//!
//! ```text
//! 1. j4j3 a5a4 2. f4ug3 h2+xg3 *
//! 1... a4a3 2. j4j3
//! ```
//!
//! A file of them is read with `--notation laser`, or as the games of a file without tags when
//! the variant is Laser Chess (`--variant "Laser Chess"`); a first line whose turns name the
//! files `i` and `j` or a Switch's swap is taken for one too.

use std::ops::ControlFlow;

use super::Turn;
use crate::notation::lines::{BOM, LineSplitter, first_content_line, is_blank, line_end, skip_blank_lines};
use crate::notation::pgn::{GameSpan, Visitor};
use crate::notation::{GameSplitter, MoveNotation, NativeFormat};
use crate::variant::{Notation, Variant};

/// The format of Laser Chess move lists.
#[derive(Clone, Copy, Debug, Default)]
pub struct ListFormat;

/// Laser Chess move lists.
pub static LIST_FORMAT: ListFormat = ListFormat;

/// What a word of a move list is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Word<'a> {
    /// A move number, its dots with it; the rest of the word follows it (`1.j4j3`).
    Number(&'a [u8]),
    /// A result: `1-0`, `0-1`, `1/2-1/2`, `*`.
    Result(&'a [u8]),
    /// Anything else, to be read as a turn.
    Turn(&'a [u8]),
}

/// The first word of `word`: a move number glued to what follows, a result, or a turn.
fn classify(word: &[u8]) -> (Word<'_>, usize) {
    let digits = word.iter().take_while(|byte| byte.is_ascii_digit()).count();
    let dots = word[digits..].iter().take_while(|&&byte| byte == b'.').count();
    if digits > 0 && dots > 0 {
        return (Word::Number(&word[..digits + dots]), digits + dots);
    }
    if matches!(word, b"1-0" | b"0-1" | b"1/2-1/2" | b"*") || word == "\u{bd}-\u{bd}".as_bytes() {
        return (Word::Result(word), word.len());
    }
    (Word::Turn(word), word.len())
}

/// The words of a line, each with its offset in the line (a byte order mark opening it left
/// out).
fn words(line: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let mut at = if line.starts_with(BOM) { BOM.len() } else { 0 };
    std::iter::from_fn(move || {
        while at < line.len() && line[at].is_ascii_whitespace() {
            at += 1;
        }
        if at >= line.len() {
            return None;
        }
        let start = at;
        while at < line.len() && !line[at].is_ascii_whitespace() {
            at += 1;
        }
        Some((start, &line[start..at]))
    })
}

/// Tells the visitor the words of the line `text[start..end]`: move numbers, turns and the
/// result. Once the visitor breaks, the rest is skipped.
fn read_line<'a>(text: &'a [u8], start: usize, end: usize, visitor: &mut dyn Visitor<'a>) {
    for (offset, mut word) in words(&text[start..end]) {
        let mut at = start + offset;
        while !word.is_empty() {
            let (kind, length) = classify(word);
            let flow = match kind {
                Word::Number(number) => visitor.move_number(number),
                Word::Result(result) => {
                    visitor.outcome(result);
                    ControlFlow::Continue(())
                }
                Word::Turn(token) => visitor.move_token(&text[at..at + token.len()], at + token.len()),
            };
            if flow.is_break() {
                return;
            }
            word = &word[length..];
            at += length;
        }
    }
}

/// Whether the first line with content looks like a Laser Chess move list: every word a move
/// number, a result or a turn, and some turn naming the files `i` or `j`, or a swap, which no
/// chess move list writes.
fn looks_like_list(head: &[u8]) -> bool {
    let Some(line) = first_content_line(head) else { return false };
    let mut laser_only = false;
    for (_, mut word) in words(line) {
        while !word.is_empty() {
            let (kind, length) = classify(word);
            if let Word::Turn(token) = kind {
                let Ok(turn) = Turn::parse(token) else { return false };
                laser_only |= turn.is_laser_only();
            }
            word = &word[length..];
        }
    }
    laser_only
}

impl NativeFormat for ListFormat {
    fn name(&self) -> &'static str {
        "laser"
    }

    fn description(&self) -> &'static str {
        "Laser Chess move list"
    }

    fn variant(&self) -> &'static Variant {
        Variant::all()
            .iter()
            .find(|variant| variant.notation == Notation::Laser)
            .expect("the catalogue has Laser Chess")
    }

    fn sniff(&self, head: &[u8]) -> bool {
        looks_like_list(head)
    }

    fn splitter(&self) -> Box<dyn GameSplitter> {
        Box::new(LineSplitter::default())
    }

    fn next_game<'a>(&self, text: &'a [u8], at: &mut usize, visitor: &mut dyn Visitor<'a>) -> Option<GameSpan> {
        if !skip_blank_lines(text, at, is_blank) {
            return None;
        }
        let start = *at;
        let end = line_end(text, start);
        *at = end;
        visitor.begin_game(start);
        if visitor.begin_movetext(start).is_continue() {
            read_line(text, start, end, visitor);
        }
        Some(GameSpan { start, movetext: start, end })
    }

    fn moves(&self) -> Option<MoveNotation> {
        // The turns are the family's own notation, which its rules play.
        None
    }

    fn is_pgn_movetext(&self) -> bool {
        true
    }

    fn holds_untagged(&self, variant: &Variant) -> bool {
        variant.notation == Notation::Laser
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_numbers_results_and_turns() {
        assert_eq!(classify(b"12...j4j3"), (Word::Number(b"12..."), 5));
        assert_eq!(classify(b"1-0"), (Word::Result(b"1-0"), 3));
        assert_eq!(classify(b"h2+xg3"), (Word::Turn(b"h2+xg3"), 6));
    }

    #[test]
    fn move_lists_are_told_from_chess() {
        assert!(looks_like_list(b"1. j4j3 a5a4 2. f4ug3 *\n"));
        assert!(looks_like_list(b"\n\nf4ug3\n"));
        assert!(!looks_like_list(b"1. e4 e5 2. Nf3 *\n"));
        assert!(!looks_like_list(b"1. e2e4 e7e5 *\n"));
        assert!(!looks_like_list(b"[Event \"x\"]\n"));
    }
}
