//! Finding where games start, fast, without reading their moves, a piece of the input at a time.
//!
//! The splitter follows the [`Lexer`](super::Lexer)'s reading of games as far as where games
//! start: tag sections a byte at a time, comments a line at a time, and movetext from one `{`,
//! `;` or `[` to the next with `memchr`, so that a `[` at the start of a line inside a long
//! comment is not taken for a tag. Where a game starts is decided by the rules of
//! [`lines`](super::lines), which the lexer follows too: every start found here is a game the
//! lexer reads. It reads any piece of text at a time, whole lines or not, and each byte a
//! bounded number of times: one line of any length, or lines ended by `\r` alone, take time in
//! proportion to their length.
//!
//! Games that follow each other without tags end at their results, which only the lexer reads:
//! where no start has been found for a while (a run of games without tags), the lexer is run
//! over the stretch to find them, so that no run of games is one piece.
//!
//! ```
//! use cqlq::notation::pgn::Splitter;
//!
//! let text = b"[Event \"a\"]\n\n1. e4 { [%clk 0:01]\n[not a tag] } e5 1-0\n[Event \"b\"]\n1. d4 *\n";
//! assert_eq!(Splitter::starts(text), vec![0, 54]);
//!
//! // A comment never closed ends where the next game starts.
//! let text = b"[Event \"a\"]\n\n1. e4 {oops e5 1-0\n\n[Event \"b\"]\n\n1. d4 d5 0-1\n";
//! assert_eq!(Splitter::starts(text), vec![0, 33]);
//! ```

use std::ops::ControlFlow;

use memchr::{memchr2, memchr3, memrchr2};

use super::lexer::{Lexer, Visitor};
use super::lines::{BOM, TAG_HEAD, first_on_line, is_blank_byte, is_event_tag, starts_game_in_comment};
use crate::notation::lines::{content_end, is_line_end};

/// The longest line of tags skipped at once (see [`Splitter::tag_line`]).
const TAG_LINE: usize = 512;

/// How long a stretch without a game start may grow before the lexer looks for the results
/// that end games without tags in it.
const CAREFUL_BYTES: usize = 64 << 10;

/// Where the scan stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum State {
    /// Before the first game: blanks, `;` comments and `%` escape lines.
    #[default]
    Before,
    /// In the tag section of the game that starts at `first`, between tags.
    Tags { first: usize },
    /// Inside a tag pair, in its part `part`; the game starts at `first`.
    Tag { first: usize, part: TagPart },
    /// The rest of a line that holds nothing to look at (a `;` comment, a `%` escape line, a
    /// malformed tag), then `then`.
    RestOfLine { then: Then },
    /// In movetext; `fresh` when the scan stands at the start of a line not looked at yet (an
    /// escape line may begin there).
    Movetext { fresh: bool },
    /// Inside a `{` comment; `line` when the scan stands at the start of a line whose content
    /// has not been judged yet; `after_blank` when a blank line came last.
    Comment { line: bool, after_blank: bool },
    /// Inside a comment, after a line where a game would start, whose content starts at
    /// `start`: looking for the comment's `}` before the next `{`, the next such line or the end.
    Lookahead { start: usize, line: bool, after_blank: bool },
}

/// The parts of a tag pair `[Name "value"]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TagPart {
    /// The name; `named` once a byte of it was read.
    Name { named: bool },
    /// The blanks between the name and the value.
    Gap,
    /// The value, inside its quotes.
    Value,
    /// The blanks after the value, before the `]`.
    After,
}

/// Where a skipped line leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Then {
    Before,
    Tags { first: usize },
    Movetext,
}

/// The state of the scan, from one piece of the input to the next.
#[derive(Clone, Debug)]
pub struct Splitter {
    /// The input offset scanned up to.
    at: usize,
    state: State,
    /// Whether the line being scanned holds nothing but blanks so far (kept up to date where
    /// it matters: before the first game and in tag sections).
    line_blank: bool,
    /// Whether the line before it was blank (kept up to date as `line_blank`).
    after_blank: bool,
    /// The last start pushed.
    last_start: Option<usize>,
    /// The start the lexer last looked for games from, and where that stretch ended.
    careful: (usize, usize),
    /// How long a stretch without a start grows before the lexer looks into it.
    careful_bytes: usize,
}

impl Default for Splitter {
    fn default() -> Splitter {
        Splitter {
            at: 0,
            state: State::Before,
            line_blank: false,
            after_blank: false,
            last_start: None,
            careful: (0, 0),
            careful_bytes: CAREFUL_BYTES,
        }
    }
}

impl crate::notation::GameSplitter for Splitter {
    fn scan(&mut self, text: &[u8], base: usize, complete: bool, starts: &mut Vec<usize>) {
        Splitter::scan(self, text, base, complete, starts);
    }
}

/// The input from some offset on, as far as it has been read.
#[derive(Clone, Copy)]
struct Text<'t> {
    bytes: &'t [u8],
    base: usize,
    /// Whether `bytes` runs to the end of the input.
    complete: bool,
}

impl Text<'_> {
    /// The input's end as read so far.
    fn end(&self) -> usize {
        self.base + self.bytes.len()
    }

    /// The byte at input offset `at`, which has been read.
    fn at(&self, at: usize) -> u8 {
        self.bytes[at - self.base]
    }

    /// Whether `count` bytes from `at` are there to look at, or all there will ever be.
    fn has(&self, at: usize, count: usize) -> bool {
        self.complete || at + count <= self.end()
    }

    /// The length of the line end at `at`, or `None` when the `\n` of a `\r\n` may yet come.
    fn line_end_len(&self, at: usize) -> Option<usize> {
        if self.at(at) != b'\r' {
            return Some(1);
        }
        if at + 1 < self.end() {
            return Some(if self.at(at + 1) == b'\n' { 2 } else { 1 });
        }
        self.complete.then_some(1)
    }
}

/// What a step of the scan leads to.
enum Step {
    /// Go on from the state it left.
    On,
    /// More bytes are needed: the next piece goes on from here.
    Wait,
}

impl Splitter {
    /// A splitter that runs the lexer over any stretch without a start longer than `bytes`
    /// (64 KiB by default), to find the games without tags in it.
    #[must_use]
    pub fn looking_for_results_after(bytes: usize) -> Splitter {
        Splitter { careful_bytes: bytes, ..Splitter::default() }
    }

    /// The offsets where games start in a whole text.
    #[must_use]
    pub fn starts(text: &[u8]) -> Vec<usize> {
        let mut starts = Vec::new();
        Splitter::default().scan(text, 0, true, &mut starts);
        starts
    }

    /// Scans on from where the last call stopped through `text`, the input from offset `base`
    /// to what has been read of it (all of it when `complete`), and pushes the input offsets
    /// where games start. `text` must hold the input from the last start pushed on (from its
    /// beginning before the first).
    pub fn scan(&mut self, text: &[u8], base: usize, complete: bool, starts: &mut Vec<usize>) {
        let text = Text { bytes: text, base, complete };
        loop {
            while self.at < text.end() {
                let step = match self.state {
                    State::Before => self.before(text, starts),
                    State::Tags { first } => self.tags(text, first, starts),
                    State::Tag { first, part } => self.tag(text, first, part),
                    State::RestOfLine { then } => self.rest_of_line(text, then),
                    State::Movetext { fresh } => self.movetext(text, fresh, starts),
                    State::Comment { line, after_blank } => self.comment(text, line, after_blank),
                    State::Lookahead { start, line, after_blank } => {
                        self.lookahead(text, start, line, after_blank, starts)
                    }
                };
                if let Step::Wait = step {
                    break;
                }
            }
            match self.state {
                // At the end of the input, a comment never closed: the game at its line starts.
                State::Lookahead { start, .. } if complete => self.start_game(text, start, starts),
                _ => break,
            }
        }
        self.look_for_results(text, starts);
    }

    /// Pushes a game start, first looking for the games without tags before it where the
    /// stretch since the last start is long.
    fn push(&mut self, text: Text<'_>, start: usize, starts: &mut Vec<usize>) {
        if let Some(last) = self.last_start
            && start - last > self.careful_bytes
        {
            self.careful_pass(text, last, start, starts);
        }
        starts.push(start);
        self.last_start = Some(start);
    }

    /// Where the scan may still push a start: from here on.
    fn settled(&self) -> usize {
        match self.state {
            State::Lookahead { start, .. } => start,
            _ => self.at,
        }
    }

    /// Looks for games without tags after the last start when the stretch since it is long,
    /// and longer by half than when it was last looked at.
    fn look_for_results(&mut self, text: Text<'_>, starts: &mut Vec<usize>) {
        let Some(last) = self.last_start else { return };
        let settled = self.settled();
        let length = settled.saturating_sub(last);
        let looked = if self.careful.0 == last { self.careful.1 - last } else { 0 };
        if length > self.careful_bytes && length >= 2 * looked {
            self.careful_pass(text, last, settled, starts);
        }
    }

    /// Runs the lexer over the input from the start `from` to `to` and pushes the starts of the
    /// games without tags it finds there (those that begin with a move number or a move after a
    /// result), as far as what it reads cannot change with the bytes after `to`.
    fn careful_pass(&mut self, text: Text<'_>, from: usize, to: usize, starts: &mut Vec<usize>) {
        let part = &text.bytes[from - text.base..to - text.base];
        let ends_input = text.complete && to == text.end();
        let mut lexer = Lexer::new(part);
        while let Some(span) = lexer.next_game(&mut SkipMovetext) {
            if span.end >= part.len() || (lexer.decided_by_end() && !ends_input) {
                break;
            }
            if part[span.end].is_ascii_alphanumeric() {
                starts.push(from + span.end);
                self.last_start = Some(from + span.end);
            }
        }
        self.careful = (self.last_start.unwrap_or(from), to);
    }

    /// The game starting at `start` (an opening `[`, found from further on): the scan goes on
    /// from it, in its tag section.
    fn start_game(&mut self, text: Text<'_>, start: usize, starts: &mut Vec<usize>) {
        self.push(text, start, starts);
        self.at = start;
        self.state = State::Tags { first: start };
        self.line_blank = false;
    }

    /// Consumes the line end at the scan's offset, which is a line end byte: the next line
    /// starts.
    fn line_end(&mut self, text: Text<'_>) -> Step {
        let Some(length) = text.line_end_len(self.at) else { return Step::Wait };
        self.at += length;
        self.after_blank = self.line_blank;
        self.line_blank = true;
        Step::On
    }

    /// Blanks (a byte order mark among them) at the scan's offset: `Some` when there were
    /// some, consumed, or more bytes are needed; `None` when content stands there.
    fn blank(&mut self, text: Text<'_>) -> Option<Step> {
        let byte = text.at(self.at);
        if is_line_end(byte) {
            return Some(self.line_end(text));
        }
        if is_blank_byte(byte) {
            self.at += 1;
            return Some(Step::On);
        }
        if byte == BOM[0] {
            if !text.has(self.at, BOM.len()) {
                return Some(Step::Wait);
            }
            let end = (self.at + BOM.len()).min(text.end());
            if text.bytes[self.at - text.base..end - text.base] == *BOM {
                self.at += BOM.len();
                return Some(Step::On);
            }
        }
        None
    }

    /// Whether the scan's offset follows a line end (or is the input's first byte).
    fn at_line_start(&self, text: Text<'_>) -> bool {
        self.at == 0 || (self.at > text.base && is_line_end(text.at(self.at - 1)))
    }

    /// Before the first game: blanks, `;` comments and `%` escape lines, then the first game.
    fn before(&mut self, text: Text<'_>, starts: &mut Vec<usize>) -> Step {
        if let Some(step) = self.blank(text) {
            return step;
        }
        let byte = text.at(self.at);
        if byte == b';' || (byte == b'%' && self.at_line_start(text)) {
            self.state = State::RestOfLine { then: Then::Before };
            return Step::On;
        }
        if byte != b'%' {
            // A game starting with a `%` in the middle of a line is read from the input's
            // start, where a `%` would begin an escape line.
            self.push(text, self.at, starts);
        }
        self.state = State::Tags { first: self.at };
        Step::On
    }

    /// A tag section, between tags: blanks, comments, escape lines, then a tag or the movetext.
    fn tags(&mut self, text: Text<'_>, first: usize, starts: &mut Vec<usize>) -> Step {
        let line_blank = loop {
            if self.at >= text.end() {
                return Step::On;
            }
            let line_blank = self.line_blank;
            match self.blank(text) {
                Some(Step::Wait) => return Step::Wait,
                Some(Step::On) => {}
                None => break line_blank,
            }
        };
        let byte = text.at(self.at);
        self.line_blank = false;
        match byte {
            b';' => self.state = State::RestOfLine { then: Then::Tags { first } },
            b'%' if self.at_line_start(text) => self.state = State::RestOfLine { then: Then::Tags { first } },
            b'[' => {
                let mut first = first;
                if self.at > first && line_blank && self.after_blank {
                    if !text.has(self.at, 7) {
                        self.line_blank = line_blank;
                        return Step::Wait;
                    }
                    if is_event_tag(&text.bytes[self.at - text.base..(self.at + 7).min(text.end()) - text.base]) {
                        // An `[Event` line after a blank line: the next game's.
                        self.push(text, self.at, starts);
                        first = self.at;
                    }
                }
                match self.tag_line(text) {
                    Some(true) => {
                        self.state = State::Tags { first };
                        return Step::On;
                    }
                    Some(false) => {}
                    None => {
                        self.state = State::Tags { first };
                        self.line_blank = line_blank;
                        return Step::Wait;
                    }
                }
                self.at += 1;
                return self.tag(text, first, TagPart::Name { named: false });
            }
            _ => self.state = State::Movetext { fresh: false },
        }
        Step::On
    }

    /// Skips at once the rest of a line of tags from the `[` at the scan's offset, when the line
    /// (no longer than [`TAG_LINE`]) ends with `"]` and holds no `{`: nothing but tags, as good
    /// as always. Should movetext stand between them after all, the lexer starts at least the
    /// games found here, and is in a tag section or in movetext after the line, where the games
    /// found next are games for both. Returns whether it skipped the line, or `None` when it
    /// needs more bytes to tell.
    fn tag_line(&mut self, text: Text<'_>) -> Option<bool> {
        let from = self.at - text.base;
        let window = &text.bytes[from..(from + TAG_LINE).min(text.bytes.len())];
        let Some(end) = memchr3(b'{', b'\n', b'\r', window) else {
            // Decided on the same bytes however the input comes.
            return (window.len() == TAG_LINE || text.complete).then_some(false);
        };
        if window[end] == b'{' || !window[..end].trim_ascii_end().ends_with(b"\"]") {
            return Some(false);
        }
        if window[end] == b'\r' && from + end + 1 == text.bytes.len() && !text.complete {
            // Its `\n` may follow.
            return None;
        }
        self.at += end;
        self.line_blank = false;
        let _ = self.line_end(text);
        Some(true)
    }

    /// Inside a tag pair: its name, a quote, its value to the closing quote, then an optional
    /// `]`. A tag not so formed takes the rest of its line.
    fn tag(&mut self, text: Text<'_>, first: usize, mut part: TagPart) -> Step {
        let bytes = text.bytes;
        let malformed = State::RestOfLine { then: Then::Tags { first } };
        let mut index = self.at - text.base;
        let next = loop {
            let Some(&byte) = bytes.get(index) else {
                // The tag goes on in the next piece.
                self.at = text.base + index;
                self.state = State::Tag { first, part };
                return Step::On;
            };
            match part {
                TagPart::Name { named } => match byte {
                    b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' => {
                        index += 1;
                        part = TagPart::Name { named: true };
                    }
                    b' ' | b'\t' if named => part = TagPart::Gap,
                    b'"' if named => {
                        index += 1;
                        part = TagPart::Value;
                    }
                    _ => break malformed,
                },
                TagPart::Gap => match byte {
                    b' ' | b'\t' => index += 1,
                    b'"' => {
                        index += 1;
                        part = TagPart::Value;
                    }
                    _ => break malformed,
                },
                TagPart::Value => match byte {
                    b'"' => {
                        index += 1;
                        part = TagPart::After;
                    }
                    b'\\' => match bytes.get(index + 1) {
                        None if !text.complete => {
                            self.at = text.base + index;
                            self.state = State::Tag { first, part };
                            return Step::Wait;
                        }
                        Some(&next) if !is_line_end(next) => index += 2,
                        _ => index += 1,
                    },
                    // The value is never closed.
                    b'\n' | b'\r' => break malformed,
                    _ => index += 1,
                },
                TagPart::After => match byte {
                    b' ' | b'\t' => index += 1,
                    b']' => {
                        index += 1;
                        break State::Tags { first };
                    }
                    _ => break State::Tags { first },
                },
            }
        };
        self.at = text.base + index;
        self.state = next;
        Step::On
    }

    /// The rest of a line, up to and with its line end.
    fn rest_of_line(&mut self, text: Text<'_>, then: Then) -> Step {
        let from = self.at - text.base;
        let Some(found) = memchr2(b'\n', b'\r', &text.bytes[from..]) else {
            self.at = text.end();
            return Step::On;
        };
        self.at += found;
        self.line_blank = false;
        if let Step::Wait = self.line_end(text) {
            return Step::Wait;
        }
        self.state = match then {
            Then::Before => State::Before,
            Then::Tags { first } => State::Tags { first },
            Then::Movetext => State::Movetext { fresh: true },
        };
        Step::On
    }

    /// Movetext, from one `{`, `;` or `[` to the next; a `%` opening a line makes it an escape
    /// line, skipped.
    fn movetext(&mut self, text: Text<'_>, fresh: bool, starts: &mut Vec<usize>) -> Step {
        if fresh {
            let byte = text.at(self.at);
            if is_line_end(byte) {
                self.at += 1;
            } else if byte == b'%' {
                self.state = State::RestOfLine { then: Then::Movetext };
            } else {
                self.state = State::Movetext { fresh: false };
            }
            return Step::On;
        }
        let from = self.at - text.base;
        let rest = &text.bytes[from..];
        let Some(found) = memchr3(b'{', b';', b'[', rest) else {
            // The last line begun here may be an escape line, to be skipped from its start.
            match memrchr2(b'\n', b'\r', rest) {
                Some(end) => {
                    self.at += end + 1;
                    self.state = State::Movetext { fresh: true };
                }
                None => self.at = text.end(),
            }
            return Step::On;
        };
        if let Some(end) = memrchr2(b'\n', b'\r', &rest[..found])
            && rest[end + 1] == b'%'
        {
            // The hit is in an escape line: nothing in it counts.
            self.at += end + 1;
            self.state = State::RestOfLine { then: Then::Movetext };
            return Step::On;
        }
        let found = self.at + found;
        match text.at(found) {
            b'{' => {
                self.at = found + 1;
                self.state = State::Comment { line: false, after_blank: false };
            }
            b';' => {
                self.at = found;
                self.state = State::RestOfLine { then: Then::Movetext };
            }
            _ => {
                let first = found == 0 || (found > text.base && first_on_line(text.bytes, found - text.base));
                if !first && !text.has(found, 7) {
                    self.at = found;
                    return Step::Wait;
                }
                let head = &text.bytes[found - text.base..(found + 7).min(text.end()) - text.base];
                if first || is_event_tag(head) {
                    self.start_game(text, found, starts);
                } else {
                    self.at = found + 1;
                }
            }
        }
        Step::On
    }

    /// Judges the content of the line starting at the scan's offset inside a comment: `Ok`
    /// with whether a game would start there (the scan then stands at its content), after
    /// consuming a blank line (`Ok(None)`), or `Err` when more bytes are needed.
    fn judge_line(&mut self, text: Text<'_>, after_blank: bool) -> Result<Option<bool>, Step> {
        loop {
            if self.at >= text.end() {
                return Err(Step::On);
            }
            let byte = text.at(self.at);
            if is_line_end(byte) {
                return match text.line_end_len(self.at) {
                    Some(length) => {
                        self.at += length;
                        Ok(None)
                    }
                    None => Err(Step::Wait),
                };
            }
            if is_blank_byte(byte) {
                self.at += 1;
                continue;
            }
            if byte == BOM[0] {
                if !text.has(self.at, BOM.len()) {
                    return Err(Step::Wait);
                }
                let end = (self.at + BOM.len()).min(text.end());
                if text.bytes[self.at - text.base..end - text.base] == *BOM {
                    self.at += BOM.len();
                    continue;
                }
            }
            break;
        }
        // Enough of the line to judge it: its end, or as much as the rules look at.
        let from = self.at - text.base;
        let limit = (from + TAG_HEAD + 8).min(text.bytes.len());
        let end = content_end(&text.bytes[..limit], from);
        if end == text.bytes.len() && !text.complete {
            return Err(Step::Wait);
        }
        Ok(Some(starts_game_in_comment(&text.bytes[from..end], after_blank)))
    }

    /// Inside a comment: its `}`, or a line where a game would start.
    fn comment(&mut self, text: Text<'_>, line: bool, after_blank: bool) -> Step {
        if line {
            return match self.judge_line(text, after_blank) {
                Err(step) => step,
                Ok(None) => {
                    self.state = State::Comment { line: true, after_blank: true };
                    Step::On
                }
                Ok(Some(true)) => {
                    self.state = State::Lookahead { start: self.at, line: false, after_blank: false };
                    Step::On
                }
                Ok(Some(false)) => {
                    self.state = State::Comment { line: false, after_blank: false };
                    Step::On
                }
            };
        }
        let from = self.at - text.base;
        let Some(found) = memchr3(b'}', b'\n', b'\r', &text.bytes[from..]) else {
            self.at = text.end();
            return Step::On;
        };
        self.at += found;
        if text.at(self.at) == b'}' {
            self.at += 1;
            self.state = State::Movetext { fresh: false };
            return Step::On;
        }
        let Some(length) = text.line_end_len(self.at) else { return Step::Wait };
        self.at += length;
        self.state = State::Comment { line: true, after_blank };
        Step::On
    }

    /// After a line inside a comment where a game would start (its content at `start`): the
    /// comment's `}` first, and the comment goes on; a `{`, another such line or the end
    /// first, and the game starts there.
    fn lookahead(
        &mut self,
        text: Text<'_>,
        start: usize,
        line: bool,
        after_blank: bool,
        starts: &mut Vec<usize>,
    ) -> Step {
        if line {
            return match self.judge_line(text, after_blank) {
                Err(step) => step,
                Ok(None) => {
                    self.state = State::Lookahead { start, line: true, after_blank: true };
                    Step::On
                }
                Ok(Some(true)) => {
                    self.start_game(text, start, starts);
                    Step::On
                }
                Ok(Some(false)) => {
                    self.state = State::Lookahead { start, line: false, after_blank: false };
                    Step::On
                }
            };
        }
        let from = self.at - text.base;
        let rest = &text.bytes[from..];
        let other = memchr3(b'{', b'}', b'\n', rest);
        let Some(found) = memchr::memchr(b'\r', &rest[..other.unwrap_or(rest.len())]).or(other) else {
            self.at = text.end();
            return Step::On;
        };
        self.at += found;
        match text.at(self.at) {
            b'}' => {
                self.at += 1;
                self.state = State::Movetext { fresh: false };
            }
            b'{' => self.start_game(text, start, starts),
            _ => {
                let Some(length) = text.line_end_len(self.at) else { return Step::Wait };
                self.at += length;
                self.state = State::Lookahead { start, line: true, after_blank };
            }
        }
        Step::On
    }
}

/// A visitor that skips every movetext: the lexer then only finds where games end.
struct SkipMovetext;

impl Visitor<'_> for SkipMovetext {
    fn begin_movetext(&mut self, _start: usize) -> ControlFlow<()> {
        ControlFlow::Break(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn starts(text: &str) -> Vec<usize> {
        Splitter::starts(text.as_bytes())
    }

    /// The starts found when the text comes `step` bytes at a time, each piece scanned with
    /// the text from the last start on.
    fn starts_by(text: &[u8], step: usize) -> Vec<usize> {
        let mut splitter = Splitter::default();
        let mut starts = Vec::new();
        let mut to = 0;
        while to < text.len() {
            to = (to + step).min(text.len());
            let from = starts.last().copied().unwrap_or(0);
            splitter.scan(&text[from..to], from, to == text.len(), &mut starts);
        }
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
    fn a_comment_quoting_a_game_stays_whole() {
        let text = "[Event \"a\"]\n\n1. e4 { as in\n[Event \"b\"]\n1. e4 e5 } e5 1-0\n\n[Event \"c\"]\n\n1. d4 *\n";
        assert_eq!(starts(text), vec![0, 58]);
    }

    #[test]
    fn pieces_of_any_size_carry_the_state() {
        let text =
            b"[A \"1\"]\n1. e4 {\n[x \"inside\"]\n} e5\n[A \"2\"]\r\n\r\n%[Event \"x\"]\r[B \"3\"] e4 [Event \"4\"]";
        let whole = Splitter::starts(text);
        // The `[Event` of the escape line is no game; the one after movetext is.
        assert_eq!(whole, vec![0, 34, 69]);
        for step in 1..text.len() {
            assert_eq!(starts_by(text, step), whole, "{step} bytes at a time");
        }
    }

    #[test]
    fn movetext_without_tags() {
        assert_eq!(starts("\n\n1. e4 e5 *\n"), vec![2]);
    }

    #[test]
    fn lone_carriage_returns_end_lines() {
        let text = "[Event \"a\"]\r[Site \"b\"]\r\r1. e4 ; [Event \"no\"\r%{\r1-0\r[Event \"c\"]\r\r1. d4 *\r";
        assert_eq!(starts(text), vec![0, 51]);
    }

    #[test]
    fn a_long_run_of_games_without_tags_is_cut_at_their_results() {
        let game = "1. e4 e5 2. Nf3 (2. f4 1-0) Nc6 {a 0-1 comment} 1/2-1/2\n";
        let count = 3 * CAREFUL_BYTES / game.len();
        let text = game.repeat(count);
        let found = starts(&text);
        assert_eq!(found.len(), count, "every game is found");
        assert!(found.iter().enumerate().all(|(index, &start)| start == index * game.len()));
        // Also on one line, and a piece at a time.
        let line = text.replace('\n', " ");
        assert_eq!(Splitter::starts(line.as_bytes()).len(), count);
        let by_pieces = starts_by(text.as_bytes(), 10_000);
        assert!(by_pieces.len() > count / 2, "{} of {count}", by_pieces.len());
    }
}
