//! The move table as text: rows of a move number and White's and Black's halfmoves, then a
//! result row; many games to a file, each ending at its result row, at a blank line, or where
//! a row numbered 1 begins the next one. Lines end at `\n`, `\r\n` or a lone `\r`; a title line
//! before a game (`Game 2`, not a row) is no part of it.
//!
//! [`TABLE_FORMAT`] reads files of such games; [`TABLE_MOVETEXT`] reads the same rows as the
//! movetext of a PGN game whose `Variant` tag names X-Decor. Both check the rows' syntax only:
//! move numbers that follow each other, a halfmove where one is due. Each halfmove goes to the
//! visitor as one token (with its ` e.p.` suffix), which [`TABLE_MOVES`](super::TABLE_MOVES)
//! plays.

use std::ops::ControlFlow;

use super::halfmove::{Halfmove, Outcome};
use crate::notation::lines::{content_end, is_line_end, line_end, lines, skip_blank_lines, terminator_len};
use crate::notation::pgn::{GameSpan, Visitor};
use crate::notation::{GameSplitter, MoveNotation, MovetextReader, NativeFormat};
use crate::variant::Variant;

/// Files of X-Decor move tables.
#[derive(Clone, Copy, Debug, Default)]
pub struct TableFormat;

/// The reader of files of X-Decor move tables.
pub static TABLE_FORMAT: TableFormat = TableFormat;

/// The movetext of PGN games of X-Decor, written as the move table.
#[derive(Clone, Copy, Debug, Default)]
pub struct TableMovetext;

/// The reader of X-Decor movetext in PGN games.
pub static TABLE_MOVETEXT: TableMovetext = TableMovetext;

/// The byte of a blank within a line: space, TAB, vertical tab, form feed (a no-break space is
/// two bytes, see [`blank_len`]).
fn is_line_blank(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\x0B' | b'\x0C')
}

/// The length of the blank at `at` within a line (0 if none): an ASCII blank or a no-break
/// space.
fn blank_len(text: &[u8], at: usize) -> usize {
    match text.get(at..) {
        Some([byte, ..]) if is_line_blank(*byte) => 1,
        Some([0xC2, 0xA0, ..]) => 2,
        Some([0xEF, 0xBB, 0xBF, ..]) => 3,
        _ => 0,
    }
}

/// Where the token starting at `at` ends: at a blank, a line end or the end of `text`.
fn token_end(text: &[u8], mut at: usize) -> usize {
    while at < text.len() && !is_line_end(text[at]) && blank_len(text, at) == 0 {
        at += 1;
    }
    at
}

/// What a token of the table is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    /// `12.`: the number of White's row.
    Number(u32),
    /// `12...`: Black's halfmove of move 12 follows.
    BlackNumber(u32),
    /// `...` or `…` standing alone: moves left out.
    Ellipsis,
    /// A result: `1–0`, `0–1`, `½–½` and the like (as PGN spells it).
    Result(&'static [u8]),
    /// A halfmove, or what should be one.
    Halfmove,
}

/// What a token is. A number glued to its halfmove (`1.e2–e4`) is a number whose length is
/// returned with it, so that the rest is read as the next token.
fn classify(token: &[u8]) -> (Token, usize) {
    if let Some(result) = Outcome::parse_result(token) {
        return (Token::Result(result.pgn()), token.len());
    }
    if token == b"*" {
        return (Token::Result(b"*"), token.len());
    }
    if token.iter().all(|&byte| byte == b'.') && token.len() >= 2 || token == "\u{2026}".as_bytes() {
        return (Token::Ellipsis, token.len());
    }
    let digits = token.iter().take_while(|byte| byte.is_ascii_digit()).count();
    if digits == 0 || digits > 6 || token.get(digits) != Some(&b'.') {
        return (Token::Halfmove, token.len());
    }
    let number = token[..digits].iter().fold(0u32, |number, &digit| number * 10 + u32::from(digit - b'0'));
    let dots = token[digits..].iter().take_while(|&&byte| byte == b'.').count();
    let length = digits + dots;
    if dots >= 3 || token[length..].starts_with("\u{2026}".as_bytes()) {
        let length = if dots >= 3 { length } else { length + 3 };
        return (Token::BlackNumber(number), length);
    }
    (Token::Number(number), length)
}

/// The end of an en passant suffix (` e.p.`, ` e.p`, ` e. p.`, ` ep`) that follows a halfmove
/// ending at `at` on the same line, if one does.
fn en_passant_suffix(text: &[u8], at: usize) -> Option<usize> {
    let mut cursor = at;
    while blank_len(text, cursor) > 0 {
        cursor += blank_len(text, cursor);
    }
    if cursor == at {
        return None;
    }
    let end = token_end(text, cursor);
    let word = &text[cursor..end];
    let lower = |bytes: &[u8]| bytes.to_ascii_lowercase();
    match lower(word).as_slice() {
        b"e.p." | b"e.p" | b"ep" | b"ep." => Some(end),
        b"e." => {
            // `e. p.`: the suffix split by a blank.
            let mut next = end;
            while blank_len(text, next) > 0 {
                next += blank_len(text, next);
            }
            let next_end = token_end(text, next);
            matches!(lower(&text[next..next_end]).as_slice(), b"p." | b"p").then_some(next_end)
        }
        _ => None,
    }
}

/// How a stretch of rows is read: as a file's game, which a blank line ends, or as a PGN
/// game's movetext, which only its end ends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    File,
    Movetext,
}

/// Reads the rows of `text[start..end]` and tells the visitor; returns where reading stopped
/// (past the game's last row in [`Mode::File`], or at the start of the row numbered 1 that
/// begins the next game).
fn read_rows<'a>(text: &'a [u8], start: usize, end: usize, mode: Mode, visitor: &mut dyn Visitor<'a>) -> usize {
    let text = &text[..end];
    let mut at = start;
    // Halfmoves read so far: White's when even.
    let mut halfmoves: u32 = 0;
    let mut seen_content = false;
    let mut line_has_content = false;
    let mut line_start = start;
    let mut skipping = false;
    while at < text.len() {
        let blank = blank_len(text, at);
        if blank > 0 {
            at += blank;
            continue;
        }
        if is_line_end(text[at]) {
            at += terminator_len(text, at);
            line_start = at;
            if mode == Mode::File && seen_content && !line_has_content {
                // A blank line ends the game.
                return at;
            }
            line_has_content = false;
            continue;
        }
        let token_start = at;
        let mut token_stop = token_end(text, at);
        let (token, length) = classify(&text[token_start..token_stop]);
        if mode == Mode::File && seen_content && !line_has_content && token == Token::Number(1) {
            // A row numbered 1: the next game.
            return line_start;
        }
        line_has_content = true;
        seen_content = true;
        if skipping && !matches!(token, Token::Result(_)) {
            // After an error only a result matters: it may end the game.
            at = (token_start + length).min(token_stop);
            continue;
        }
        let expected = halfmoves / 2 + 1;
        match token {
            Token::Result(result) => {
                visitor.outcome(result);
                if mode == Mode::File {
                    // The game ends with its result row; what follows the result there is
                    // reported, not dropped.
                    let rest = &text[token_stop..content_end(text, token_stop)];
                    let skipped = rest.len() - rest.trim_ascii_start().len();
                    let after = rest.trim_ascii();
                    if !after.is_empty() && !skipping {
                        let start = token_stop + skipped;
                        visitor.unreadable(
                            &text[start..start + after.len()],
                            start + after.len(),
                            "text after the result".to_owned(),
                        );
                    }
                    return line_end(text, token_stop);
                }
                skipping = true;
                at = token_stop;
                continue;
            }
            Token::Ellipsis => {
                visitor.unreadable(
                    &text[token_start..token_stop],
                    token_stop,
                    format!("moves are left out here (after {})", moves_so_far(halfmoves)),
                );
                skipping = true;
            }
            Token::Number(number) | Token::BlackNumber(number) => {
                let black = matches!(token, Token::BlackNumber(_));
                let due = if black { halfmoves % 2 == 1 } else { halfmoves.is_multiple_of(2) };
                if number != expected || !due {
                    let number_end = token_start + length.min(token_stop - token_start);
                    let reason = if !due && !black {
                        format!("Black's halfmove of move {expected} is missing before move {number}")
                    } else {
                        format!("move {number} where move {expected} is due: moves are left out or repeated")
                    };
                    visitor.unreadable(&text[token_start..number_end], number_end, reason);
                    skipping = true;
                }
                // A halfmove glued to its number is read as a token of its own.
                at = (token_start + length).min(token_stop);
                continue;
            }
            Token::Halfmove => {
                if let Some(suffix_end) = en_passant_suffix(text, token_stop) {
                    token_stop = suffix_end;
                }
                if visitor.move_token(&text[token_start..token_stop], token_stop).is_break() {
                    skipping = true;
                }
                halfmoves += 1;
            }
        }
        at = token_stop;
    }
    at
}

/// The moves read before a halfmove, in words: `move 3` (after White's and Black's halfmoves),
/// `White's move 3`.
fn moves_so_far(halfmoves: u32) -> String {
    match halfmoves {
        0 => "the start".to_owned(),
        n if n % 2 == 0 => format!("move {}", n / 2),
        n => format!("White's move {}", n / 2 + 1),
    }
}

impl MovetextReader for TableMovetext {
    fn read<'a>(&self, text: &'a [u8], start: usize, end: usize, visitor: &mut dyn Visitor<'a>) {
        read_rows(text, start, end, Mode::Movetext, visitor);
    }
}

/// Whether a line holds a result token (and so ends its game, in a file), its tokens cut as
/// [`read_rows`] cuts them.
fn line_has_result(line: &[u8]) -> bool {
    let mut at = 0;
    while at < line.len() {
        let blank = blank_len(line, at);
        if blank > 0 || is_line_end(line[at]) {
            at += blank.max(1);
            continue;
        }
        let end = token_end(line, at);
        let (token, length) = classify(&line[at..end]);
        if matches!(token, Token::Result(_)) {
            return true;
        }
        at = (at + length).min(end);
    }
    false
}

/// The first token of a line, and where it starts; `None` for a line of blanks.
fn first_token(line: &[u8]) -> Option<(usize, &[u8])> {
    let mut at = 0;
    while at < line.len() {
        match blank_len(line, at) {
            0 if is_line_end(line[at]) => at += 1,
            0 => return Some((at, &line[at..token_end(line, at)])),
            blank => at += blank,
        }
    }
    None
}

/// Whether a line holds nothing but blanks.
fn is_blank_line(line: &[u8]) -> bool {
    first_token(line).is_none()
}

/// Whether a line is a title written before a game (`Game 2`, `Alice - Bob`): its first word
/// begins with a letter or `#` and is no halfmove. Between games it is skipped.
fn is_title_line(line: &[u8]) -> bool {
    let Some((_, token)) = first_token(line) else { return false };
    let word = token.first().is_some_and(|&byte| byte.is_ascii_alphabetic() || byte == b'#');
    word && classify(token).0 == Token::Halfmove && Halfmove::parse(token).is_err()
}

/// Whether a line is no part of any game where one may start: blank, or a title.
fn is_between_games(line: &[u8]) -> bool {
    is_blank_line(line) || is_title_line(line)
}

/// Whether a line begins with the move number 1 (`1.`, `1.e2–e4`): a row that begins a game.
fn is_first_row(line: &[u8]) -> bool {
    first_token(line).is_some_and(|(_, token)| classify(token).0 == Token::Number(1))
}

/// How much of a line the splitter waits for before it judges the line by that much.
const LINE_CAP: usize = 4096;

/// Finds the games of a file of move tables: a game starts at the first line with content that
/// is no title after the start, a blank line or a line with a result, and at a row numbered 1.
/// Lines longer than [`LINE_CAP`] are judged by their start (a result after it is not seen, and
/// the reader then finds the games the splitter does not).
#[derive(Debug, Default)]
struct TableSplitter {
    /// The input offset scanned up to.
    at: usize,
    in_game: bool,
    /// Whether the scan is in the rest of a long line already judged.
    in_long_line: bool,
}

impl GameSplitter for TableSplitter {
    fn scan(&mut self, text: &[u8], base: usize, complete: bool, starts: &mut Vec<usize>) {
        let end = base + text.len();
        while self.at < end {
            let from = self.at - base;
            if self.in_long_line {
                match memchr::memchr2(b'\n', b'\r', &text[from..]) {
                    Some(found) if from + found + 1 < text.len() || complete => {
                        self.at += found + terminator_len(text, from + found);
                        self.in_long_line = false;
                    }
                    Some(found) => {
                        self.at += found;
                        return;
                    }
                    None => {
                        self.at = end;
                        return;
                    }
                }
                continue;
            }
            let line_stop = content_end(&text[..(from + LINE_CAP).min(text.len())], from);
            let whole = line_stop < text.len() && line_stop < from + LINE_CAP;
            if !whole && !complete && line_stop < from + LINE_CAP {
                // Wait for the line's end.
                return;
            }
            if whole && text[line_stop] == b'\r' && line_stop + 1 == text.len() && !complete {
                // Its `\n` may follow.
                return;
            }
            let line = &text[from..line_stop];
            if is_blank_line(line) {
                self.in_game = false;
            } else if self.in_game || !is_title_line(line) {
                if !self.in_game || is_first_row(line) {
                    starts.push(self.at);
                    self.in_game = true;
                }
                if whole && line_has_result(line) {
                    self.in_game = false;
                }
            }
            if whole || line_stop == text.len() && complete {
                self.at = base + line_end(text, from);
            } else {
                self.at = base + line_stop;
                self.in_long_line = true;
            }
        }
    }
}

/// The first bytes of a file of move tables hold a figurine, an en dash, an em dash or a `×`,
/// and its first row (after a byte order mark and a title line or two) starts with a move
/// number.
fn looks_like_table(head: &[u8]) -> bool {
    const MARKS: [&str; 15] =
        ["\u{2013}", "\u{2014}", "\u{d7}", "♔", "♕", "♖", "♗", "♘", "♙", "♚", "♛", "♜", "♝", "♞", "♟"];
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let mut rows = lines(head).filter(|line| !is_blank_line(line));
    let numbered =
        rows.by_ref().take(3).find(|line| !is_title_line(line)).is_some_and(|line| {
            first_token(line).is_some_and(|(_, token)| matches!(classify(token).0, Token::Number(_)))
        });
    numbered && MARKS.iter().any(|mark| memchr::memmem::find(head, mark.as_bytes()).is_some())
}

impl NativeFormat for TableFormat {
    fn name(&self) -> &'static str {
        "xdecor"
    }

    fn description(&self) -> &'static str {
        "X-Decor move table"
    }

    fn variant(&self) -> &'static Variant {
        super::variant()
    }

    fn sniff(&self, head: &[u8]) -> bool {
        looks_like_table(head)
    }

    fn splitter(&self) -> Box<dyn GameSplitter> {
        Box::new(TableSplitter::default())
    }

    fn next_game<'a>(&self, text: &'a [u8], at: &mut usize, visitor: &mut dyn Visitor<'a>) -> Option<GameSpan> {
        // Blank lines and titles before the game are no part of it.
        if !skip_blank_lines(text, at, is_between_games) {
            return None;
        }
        let start = *at;
        visitor.begin_game(start);
        let end = if visitor.begin_movetext(start).is_break() {
            read_rows(text, start, text.len(), Mode::File, &mut Skipped)
        } else {
            read_rows(text, start, text.len(), Mode::File, visitor)
        };
        *at = end;
        Some(GameSpan { start, movetext: start, end })
    }

    fn moves(&self) -> Option<MoveNotation> {
        Some(super::TABLE_NOTATION)
    }
}

/// A visitor that hears nothing: a game skipped is still read to find its end.
struct Skipped;

impl Visitor<'_> for Skipped {
    fn move_token(&mut self, _token: &[u8], _end: usize) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a reader told: tokens, results and unreadable text, in order.
    #[derive(Default)]
    struct Told(Vec<String>);

    impl<'a> Visitor<'a> for Told {
        fn begin_game(&mut self, _start: usize) {
            self.0.push("game".to_owned());
        }

        fn move_token(&mut self, token: &'a [u8], _end: usize) -> ControlFlow<()> {
            self.0.push(String::from_utf8_lossy(token).into_owned());
            ControlFlow::Continue(())
        }

        fn outcome(&mut self, result: &'a [u8]) {
            self.0.push(format!("result {}", String::from_utf8_lossy(result)));
        }

        fn unreadable(&mut self, token: &'a [u8], _end: usize, reason: String) {
            self.0.push(format!("unreadable {} ({reason})", String::from_utf8_lossy(token)));
        }
    }

    fn games(text: &str) -> (Vec<String>, Vec<usize>) {
        let mut told = Told::default();
        let mut at = 0;
        let mut spans = Vec::new();
        while let Some(span) = TABLE_FORMAT.next_game(text.as_bytes(), &mut at, &mut told) {
            spans.push(span.start);
        }
        let mut starts = Vec::new();
        TableSplitter::default().scan(text.as_bytes(), 0, true, &mut starts);
        assert_eq!(starts, spans, "the splitter and the reader agree on where games start");
        (told.0, spans)
    }

    #[test]
    fn the_example_of_the_spec_reads_as_rows() {
        let text = "1.   e2–e4     e7–e5\n2.  ♘g1–f3    ♞b8–c6\n3.  ♗f1–c4    ♝f8–c5\n4.   0–0      ♞g8–f6\n\
                    5.  ♖f1–e1     0–0\n";
        let (told, _) = games(text);
        assert_eq!(
            told,
            ["game", "e2–e4", "e7–e5", "♘g1–f3", "♞b8–c6", "♗f1–c4", "♝f8–c5", "0–0", "♞g8–f6", "♖f1–e1", "0–0"]
        );
    }

    #[test]
    fn text_after_a_result_is_reported() {
        let (told, starts) = games("1. e2–e4 e7–e5\n* 1. d2–d4\n1. c2–c4\n");
        assert_eq!(
            told,
            ["game", "e2–e4", "e7–e5", "result *", "unreadable 1. d2–d4 (text after the result)", "game", "c2–c4"]
        );
        assert_eq!(starts.len(), 2);
    }

    #[test]
    fn games_end_at_results_and_blank_lines() {
        let text = "1. e2–e4 e7–e5\n½–½\n1. d2–d4\n1–0\n\n\n1. e5×d6 e.p.\n 2. a7×a8♕ e. p.\n\n1. c2–c4 *";
        let (told, starts) = games(text);
        assert_eq!(
            told,
            [
                "game",
                "e2–e4",
                "e7–e5",
                "result 1/2-1/2",
                "game",
                "d2–d4",
                "result 1-0",
                "game",
                "e5×d6 e.p.",
                "unreadable 2. (Black's halfmove of move 1 is missing before move 2)",
                "game",
                "c2–c4",
                "result *"
            ]
        );
        assert_eq!(starts.len(), 4);
    }

    #[test]
    fn the_readme_example_stops_where_moves_are_left_out() {
        let text = "    1.  d2—d4    e7—e6\n    2. ♔e1–d2   ♛d8–h4\n    3.  d4–d5    e6×d5\n    ...\n    \
                    8. d8×d8♖   ♞b8-c6\n    9. e2–e4\t d4×e3 e.p.\n";
        let (told, _) = games(text);
        assert_eq!(
            told,
            [
                "game",
                "d2—d4",
                "e7—e6",
                "♔e1–d2",
                "♛d8–h4",
                "d4–d5",
                "e6×d5",
                "unreadable ... (moves are left out here (after move 3))"
            ]
        );
        // Without the ellipsis, the move number says what is missing.
        let (told, _) = games("1. d2–d4 e7–e6\n8. d8×d8♖ ♞b8-c6\n");
        assert_eq!(told[3], "unreadable 8. (move 8 where move 2 is due: moves are left out or repeated)");
    }

    #[test]
    fn numbers_glued_to_moves_and_black_continuations() {
        let (told, _) = games("1.e2–e4 1...e7–e5 2.♘g1–f3\n");
        assert_eq!(told, ["game", "e2–e4", "e7–e5", "♘g1–f3"]);
    }

    #[test]
    fn tables_are_sniffed() {
        assert!(looks_like_table("\n 1.  e2–e4  e7–e5\n".as_bytes()));
        assert!(looks_like_table("1. ♘g1-f3\n".as_bytes()));
        assert!(!looks_like_table(b"1. e4 e5 2. Nf3 *\n"));
        assert!(!looks_like_table("[Event \"x\"]\n1. e2–e4\n".as_bytes()));
    }
}
