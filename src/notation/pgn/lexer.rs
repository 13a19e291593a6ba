//! Reading the games of a stretch of PGN text and pushing what they hold to a [`Visitor`].
//!
//! Tag pairs (`[Name "value"]`, `\"` and `\\` escaped), then movetext: move numbers (also split
//! from their move across lines), moves, NAGs (`$1`, and `!?` glued to a move or standing alone),
//! `{ }` comments over lines, `;` comments, `%` escape lines, variations `( )` to any depth, and
//! a result. The lexer checks syntax only; moves are passed on as bytes with their offsets.
//! It does not allocate.
//!
//! ```
//! use std::ops::ControlFlow;
//! use cqlq::notation::pgn::{Lexer, Visitor};
//!
//! #[derive(Default)]
//! struct Moves(Vec<String>);
//!
//! impl<'a> Visitor<'a> for Moves {
//!     fn move_token(&mut self, token: &'a [u8], _end: usize) -> ControlFlow<()> {
//!         self.0.push(String::from_utf8_lossy(token).into_owned());
//!         ControlFlow::Continue(())
//!     }
//! }
//!
//! let text = b"[White \"Morphy\"]\n\n1. e4 {best by test} e5 2.Nf3 (2. f4 $1) Nc6! 1-0";
//! let mut moves = Moves::default();
//! let game = Lexer::new(text).next_game(&mut moves).unwrap();
//! assert_eq!(moves.0, ["e4", "e5", "Nf3", "Nc6!"]);
//! assert_eq!(game.end, text.len());
//! ```

use std::ops::ControlFlow;

use crate::notation::MovetextReader;

use super::lines::{
    BOM, CommentEnd, comment_end_told, content_start, first_on_line, follows_blank_line, is_event_tag, read_tag,
    starts_game_in_tags,
};
use crate::notation::lines::{content_end, is_line_end, line_end, line_start};

/// What a reader of games is told, in order: tags, the start of the movetext, then moves and
/// the rest. Every method has a default that ignores what it is given.
pub trait Visitor<'a> {
    /// A game begins at byte `start`.
    fn begin_game(&mut self, start: usize) {
        let _ = start;
    }

    /// A tag pair; the value as written, escapes still in (see [`unescape`]).
    fn tag(&mut self, name: &'a [u8], value: &'a [u8]) {
        let _ = (name, value);
    }

    /// The movetext begins at byte `start`. `Break` skips it: the visitor hears nothing more of
    /// this game.
    fn begin_movetext(&mut self, start: usize) -> ControlFlow<()> {
        let _ = start;
        ControlFlow::Continue(())
    }

    /// Who reads the movetext, when it is not SAN: asked once [`Visitor::begin_movetext`] goes
    /// on. The lexer then finds where the movetext ends and hands it to that reader, which
    /// tells this visitor its moves and result.
    fn movetext_reader(&self) -> Option<&'static dyn MovetextReader> {
        None
    }

    /// A move number, as written (`12.`, `12...`). `Break` skips the rest of the movetext.
    fn move_number(&mut self, number: &'a [u8]) -> ControlFlow<()> {
        let _ = number;
        ControlFlow::Continue(())
    }

    /// A move token in the notation of the movetext (in SAN, with any `+ # ! ?` glued to it),
    /// ending at byte `end`. `Break` skips the rest of the movetext.
    fn move_token(&mut self, token: &'a [u8], end: usize) -> ControlFlow<()> {
        let _ = (token, end);
        ControlFlow::Continue(())
    }

    /// Text that stands where a move should, ending at byte `end`, which the reader cannot read
    /// as one, and why (`moves 4 to 7 are left out`). The rest of the movetext is skipped.
    fn unreadable(&mut self, token: &'a [u8], end: usize, reason: String) {
        let _ = (token, end, reason);
    }

    /// A `(`. `Break` skips the variation (the default).
    fn begin_variation(&mut self) -> ControlFlow<()> {
        ControlFlow::Break(())
    }

    /// The `)` closing a variation that was entered.
    fn end_variation(&mut self) {}

    /// A comment, without its braces.
    fn comment(&mut self, text: &'a [u8]) {
        let _ = text;
    }

    /// A numeric annotation glyph standing alone: `$14`, or a run of `!` and `?` (`!?`) apart
    /// from its move (one glued to a move comes with the move's token).
    fn nag(&mut self, nag: &'a [u8]) {
        let _ = nag;
    }

    /// The result token.
    fn outcome(&mut self, result: &'a [u8]) {
        let _ = result;
    }

    /// Something malformed at byte `at`; the lexer reads on as well as it can. Told only while
    /// the movetext is read, not skipped.
    fn damaged(&mut self, at: usize, damage: Damage) {
        let _ = (at, damage);
    }
}

/// What is malformed in a game's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Damage {
    /// A `{` comment that is never closed: it ends where the next game starts, or with the text.
    UnclosedComment,
    /// A `(` variation that is never closed.
    UnclosedVariation,
    /// A `}` or `)` that closes nothing.
    StrayClose(u8),
    /// A line opening with `[` that is not a tag pair `[Name "value"]`.
    MalformedTag,
    /// A tag pair without its closing `]` (`[Name "value"`): it is read all the same.
    UnclosedTag,
    /// The input ends inside the game: in its tags, or in its movetext before its result.
    CutShort,
}

impl Damage {
    /// Whether the game is read on after this damage as if it were not there (a tag without
    /// its `]`): the rest of the game is sound.
    #[must_use]
    pub fn is_harmless(self) -> bool {
        matches!(self, Damage::UnclosedTag)
    }
}

impl std::fmt::Display for Damage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Damage::UnclosedComment => f.write_str("a comment '{' that is never closed"),
            Damage::UnclosedVariation => f.write_str("a variation '(' that is never closed"),
            Damage::StrayClose(byte) => write!(f, "a '{}' that closes nothing", char::from(*byte)),
            Damage::MalformedTag => f.write_str("a tag that is not [Name \"value\"]"),
            Damage::UnclosedTag => f.write_str("a tag without its closing ']'"),
            Damage::CutShort => f.write_str("cut short: the input ends before the game does"),
        }
    }
}

/// Where a game lies in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSpan {
    /// The first byte of the game (its first tag, or its movetext).
    pub start: usize,
    /// Where its movetext begins.
    pub movetext: usize,
    /// One past its last byte (the next game's start, or the end of the text).
    pub end: usize,
}

/// Reads games one after another from a stretch of text.
#[derive(Clone, Debug)]
pub struct Lexer<'a> {
    text: &'a [u8],
    position: usize,
    /// Whether the end of the text is the end of the input: a game it cuts off is damaged.
    input_ends: bool,
    /// Whether the end of the text decided where a comment ends (a text cut there may end it
    /// elsewhere once it goes on).
    decided_by_end: bool,
}

/// Byte classes, looked up in one table: a blank, a byte that ends a move token.
const BLANK: u8 = 1;
const ENDS_TOKEN: u8 = 2;
/// A byte that starts a move token and nothing else (letters, mostly).
const STARTS_MOVE: u8 = 4;
/// A byte that may end a game, or hide what would, when the movetext is skipped.
const MAY_END_GAME: u8 = 8;

static CLASSES: [u8; 256] = {
    let mut classes = [0u8; 256];
    let blanks = b" \t\r\n\x0B\x0C";
    let mut i = 0;
    while i < blanks.len() {
        classes[blanks[i] as usize] = BLANK | ENDS_TOKEN;
        i += 1;
    }
    let delimiters = b"{}();$[]";
    i = 0;
    while i < delimiters.len() {
        classes[delimiters[i] as usize] = ENDS_TOKEN;
        i += 1;
    }
    let mut byte = 0;
    while byte < 256 {
        let special = matches!(byte as u8, b'%' | b'*' | b'!' | b'?' | b'0'..=b'9' | 0xC2 | 0xEF);
        if classes[byte] == 0 && !special {
            classes[byte] = STARTS_MOVE;
        }
        byte += 1;
    }
    let enders = b"{;%()[*-";
    i = 0;
    while i < enders.len() {
        classes[enders[i] as usize] |= MAY_END_GAME;
        i += 1;
    }
    classes
};

/// Bytes that end a move token.
#[inline]
fn ends_token(byte: u8) -> bool {
    CLASSES[byte as usize] & ENDS_TOKEN != 0
}

#[inline]
fn is_blank(byte: u8) -> bool {
    CLASSES[byte as usize] & BLANK != 0
}

/// The first offset from `at` whose byte is not a blank (nor a byte order mark).
#[inline]
fn skip_blanks_from(text: &[u8], mut at: usize) -> usize {
    while at < text.len() && is_blank(text[at]) {
        at += 1;
    }
    if text.get(at) == Some(&0xEF) {
        return at + content_start(&text[at..]);
    }
    at
}

/// Whether a token is an evaluation symbol written where a NAG could stand (`+-`, `=`, `-/+`,
/// `∞`, `N` for a novelty), not a move: a run of `+ - = /` (but `--`, a null move), the
/// infinity sign, or a lone `N`.
fn is_evaluation_symbol(token: &[u8]) -> bool {
    // Told by the first byte for the moves, which begin with none of these.
    match token.first() {
        Some(b'+' | b'-' | b'=' | b'/') => {
            token != b"--" && token.iter().all(|b| matches!(b, b'+' | b'-' | b'=' | b'/'))
        }
        Some(b'N') => token == b"N",
        Some(0xE2) => token == "\u{221e}".as_bytes(),
        _ => false,
    }
}

/// The end of the token starting at `at`.
#[inline]
fn token_end(text: &[u8], mut at: usize) -> usize {
    while at < text.len() && !ends_token(text[at]) {
        at += 1;
    }
    at
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `text`.
    #[must_use]
    pub fn new(text: &'a [u8]) -> Lexer<'a> {
        let position = if text.starts_with(BOM) { 3 } else { 0 };
        Lexer { text, position, input_ends: false, decided_by_end: false }
    }

    /// Takes the end of the text for the end of the input: a last game cut off there, in its
    /// tags or before its result, is told as [`Damage::CutShort`] (while its movetext is read).
    ///
    /// A game whose movetext has no result is taken as complete, as PGN readers take it, when
    /// its last line is whole (a line end follows it) and it has no `Result` tag; a game
    /// without movetext, or whose `Result` tag gives a result its movetext lacks, or whose
    /// last line is not ended, is cut short.
    #[must_use]
    pub fn ending_the_input(mut self, ends: bool) -> Lexer<'a> {
        self.input_ends = ends;
        self
    }

    /// Whether the end of the text has decided where a comment ends so far: a text cut there
    /// may give other games once it goes on.
    #[must_use]
    pub fn decided_by_end(&self) -> bool {
        self.decided_by_end
    }

    /// Where the lexer stands.
    #[must_use]
    pub fn position(&self) -> usize {
        self.position
    }

    /// Reads the next game and tells the visitor about it; `None` when only blanks and comments
    /// remain.
    pub fn next_game<V: Visitor<'a>>(&mut self, visitor: &mut V) -> Option<GameSpan> {
        self.skip_blanks_and_line_comments();
        if self.position >= self.text.len() {
            return None;
        }
        let start = self.position;
        visitor.begin_game(start);
        let result_tag = self.tags(visitor);
        self.skip_blanks();
        let movetext = self.position;
        if visitor.begin_movetext(movetext).is_break() {
            self.skip_movetext();
        } else if let Some(reader) = visitor.movetext_reader() {
            // Where the movetext ends is the container's business; what it holds, the reader's.
            self.skip_movetext();
            reader.read(self.text, movetext, self.position, visitor);
        } else {
            let ended = self.movetext(visitor);
            if !ended && self.input_ends && self.position == self.text.len() {
                self.cut_short(start, movetext, result_tag, visitor);
            }
        }
        Some(GameSpan { start, movetext, end: self.position })
    }

    /// Tells the visitor that the game starting at `start`, whose movetext starts at
    /// `movetext` and runs to the end of the input without a result, is cut short (where its
    /// last byte is), unless it reads as a whole game without a result (see
    /// [`Lexer::ending_the_input`]).
    fn cut_short<V: Visitor<'a>>(&self, start: usize, movetext: usize, result_tag: bool, visitor: &mut V) {
        let text = self.text;
        let moves = text[movetext..].iter().any(|&byte| !is_blank(byte));
        let last = text[start..].iter().rposition(|&byte| !is_blank(byte)).map_or(start, |i| start + i + 1);
        let whole = moves && text[last..].iter().any(|&byte| is_line_end(byte));
        if result_tag || !whole {
            visitor.damaged(last, Damage::CutShort);
        }
    }

    fn skip_blanks(&mut self) {
        self.position = skip_blanks_from(self.text, self.position);
    }

    fn skip_blanks_and_line_comments(&mut self) {
        loop {
            self.skip_blanks();
            match self.text.get(self.position) {
                Some(b';') => self.skip_line(),
                Some(b'%') if self.at_line_start() => self.skip_line(),
                _ => return,
            }
        }
    }

    fn at_line_start(&self) -> bool {
        self.position == 0 || is_line_end(self.text[self.position - 1])
    }

    fn skip_line(&mut self) {
        self.position = line_end(self.text, self.position);
    }

    /// The tag section: tag pairs up to the movetext, or up to an `[Event` line after a blank
    /// line (the next game's). A tag section begins at the start of a line, or at an `[Event`
    /// tag: a game that begins in the middle of a line otherwise has movetext only. Returns
    /// whether a `Result` tag was read.
    fn tags<V: Visitor<'a>>(&mut self, visitor: &mut V) -> bool {
        let first = self.position;
        let mut result_tag = false;
        if !self.first_on_line() && !is_event_tag(&self.text[first..]) {
            return result_tag;
        }
        loop {
            self.skip_blanks_and_line_comments();
            let at = self.position;
            if self.text.get(at) != Some(&b'[') {
                return result_tag;
            }
            if at > first && is_event_tag(&self.text[at..]) && self.first_on_line() && self.starts_game_here() {
                return result_tag;
            }
            let read = read_tag(self.text, at);
            match read.pair {
                Some((name, value)) => {
                    let name = &self.text[name.0..name.1];
                    result_tag |= name == b"Result";
                    visitor.tag(name, &self.text[value.0..value.1]);
                    // A tag cut by the end of the input is told with the game, cut short.
                    let cut = self.input_ends && read.end == self.text.len();
                    if !read.closed && !cut {
                        visitor.damaged(at, Damage::UnclosedTag);
                    }
                }
                None if self.input_ends
                    && read.end == self.text.len()
                    && !self.text.last().is_some_and(|&byte| is_line_end(byte)) =>
                {
                    visitor.damaged(at, Damage::CutShort);
                }
                None => visitor.damaged(at, Damage::MalformedTag),
            }
            self.position = read.end;
        }
    }

    /// Whether the tag line at the lexer's position, in a tag section, starts the next game.
    fn starts_game_here(&self) -> bool {
        let line_end = content_end(self.text, self.position);
        starts_game_in_tags(&self.text[self.position..line_end], follows_blank_line(self.text, self.line_start()))
    }

    /// Where the line holding the lexer's position starts.
    fn line_start(&self) -> usize {
        line_start(self.text, self.position)
    }

    /// Whether the lexer's position is the first content of its line.
    fn first_on_line(&self) -> bool {
        first_on_line(self.text, self.position)
    }

    /// The movetext, up to the end of the text, a tag section, or what follows a result;
    /// returns whether a result ended it.
    fn movetext<V: Visitor<'a>>(&mut self, visitor: &mut V) -> bool {
        let mut skip = false;
        let text = self.text;
        // Variations entered, and how deep inside a skipped one we are; where the outermost
        // open one began.
        let mut entered = 0usize;
        let mut skipped = 0usize;
        let mut outermost = 0usize;
        while self.position < text.len() {
            let byte = text[self.position];
            // Moves and blanks first: they are most of the movetext.
            let class = CLASSES[byte as usize];
            if class & STARTS_MOVE != 0 {
                let token = self.token();
                if !skip && skipped == 0 {
                    if is_evaluation_symbol(token) {
                        visitor.nag(token);
                    } else {
                        skip = visitor.move_token(token, self.position).is_break();
                    }
                }
                continue;
            }
            if class & BLANK != 0 {
                self.skip_blanks();
                continue;
            }
            match byte {
                b'{' => match self.comment_end(self.position) {
                    CommentEnd::Closed(close) => {
                        if !skip && skipped == 0 {
                            visitor.comment(&text[self.position + 1..close]);
                        }
                        self.position = close + 1;
                    }
                    CommentEnd::GameStarts(line) => {
                        visitor.damaged(self.position, Damage::UnclosedComment);
                        self.position = line;
                    }
                    CommentEnd::EndOfText => {
                        visitor.damaged(self.position, Damage::UnclosedComment);
                        self.position = text.len();
                    }
                },
                b'}' => {
                    visitor.damaged(self.position, Damage::StrayClose(b'}'));
                    self.position += 1;
                }
                b';' => self.skip_line(),
                b'%' if self.at_line_start() => self.skip_line(),
                b'(' => {
                    if entered + skipped == 0 {
                        outermost = self.position;
                    }
                    self.position += 1;
                    if skipped > 0 || skip || visitor.begin_variation().is_break() {
                        skipped += 1;
                    } else {
                        entered += 1;
                    }
                }
                b')' => {
                    self.position += 1;
                    if skipped > 0 {
                        skipped -= 1;
                    } else if entered > 0 {
                        entered -= 1;
                        visitor.end_variation();
                    } else {
                        visitor.damaged(self.position - 1, Damage::StrayClose(b')'));
                    }
                }
                b'[' if self.first_on_line() || is_event_tag(&text[self.position..]) => break,
                0xEF if text[self.position..].starts_with(b"\xEF\xBB\xBF") => self.position += 3,
                b'$' => {
                    let start = self.position;
                    self.position += 1;
                    while self.position < text.len() && text[self.position].is_ascii_digit() {
                        self.position += 1;
                    }
                    if !skip && skipped == 0 {
                        visitor.nag(&text[start..self.position]);
                    }
                }
                b'*' => {
                    self.position += 1;
                    if self.end_of_game(visitor, b"*", entered + skipped) {
                        return true;
                    }
                }
                b'0'..=b'9' | 0xC2 => {
                    // Move numbers first: they are many, results one a game.
                    let start = self.position;
                    if self.move_number() {
                        if !skip && skipped == 0 {
                            skip = visitor.move_number(&text[start..self.position]).is_break();
                        }
                        continue;
                    }
                    if let Some(result) = self.result() {
                        if self.end_of_game(visitor, result, entered + skipped) {
                            return true;
                        }
                    } else {
                        let token = self.token();
                        if !skip && skipped == 0 {
                            skip = visitor.move_token(token, self.position).is_break();
                        }
                    }
                }
                b'!' | b'?' => {
                    let start = self.position;
                    while self.position < text.len() && matches!(text[self.position], b'!' | b'?') {
                        self.position += 1;
                    }
                    if !skip && skipped == 0 {
                        visitor.nag(&text[start..self.position]);
                    }
                }
                _ => {
                    let token = self.token();
                    if token.is_empty() {
                        self.position += 1;
                    } else if !skip && skipped == 0 {
                        skip = visitor.move_token(token, self.position).is_break();
                    }
                }
            }
        }
        if entered + skipped > 0 {
            visitor.damaged(outermost, Damage::UnclosedVariation);
        }
        false
    }

    /// Where the comment opened at `open` ends (see [`comment_end`]), noting whether the end of
    /// the text decided it.
    fn comment_end(&mut self, open: usize) -> CommentEnd {
        let (end, by_end) = comment_end_told(self.text, open);
        self.decided_by_end |= by_end;
        end
    }

    /// Skips a movetext nobody listens to, ending where [`Lexer::movetext`] would end it. Only
    /// the bytes that can end a game or hide one (`{ ; % ( ) [ * -`) are looked at; whether a
    /// `*` or a result pattern stands where a token starts is decided by re-reading its blob
    /// (its run of bytes between delimiters) as the full reader would.
    fn skip_movetext(&mut self) {
        let text = self.text;
        let mut depth = 0usize;
        let mut at = self.position;
        let movetext = at;
        loop {
            while at < text.len() && CLASSES[text[at] as usize] & MAY_END_GAME == 0 {
                at += 1;
            }
            let Some(&byte) = text.get(at) else { break };
            self.position = at;
            match byte {
                b'{' => match self.comment_end(at) {
                    CommentEnd::Closed(close) => at = close + 1,
                    CommentEnd::GameStarts(line) => at = line,
                    CommentEnd::EndOfText => at = text.len(),
                },
                b';' => {
                    self.skip_line();
                    at = self.position;
                }
                b'%' if self.at_line_start() => {
                    self.skip_line();
                    at = self.position;
                }
                b'(' => {
                    depth += 1;
                    at += 1;
                }
                b')' => {
                    depth = depth.saturating_sub(1);
                    at += 1;
                }
                b'[' if self.first_on_line() || is_event_tag(&text[at..]) => return,
                b'*' if self.starts_token(movetext, at) => {
                    self.position = at + 1;
                    if depth == 0 {
                        self.skip_trailing_comments();
                        return;
                    }
                    at += 1;
                }
                b'-' => match self.result_around(movetext, at) {
                    Some((start, len)) => {
                        self.position = start + len;
                        if depth == 0 {
                            self.skip_trailing_comments();
                            return;
                        }
                        at = start + len;
                    }
                    None => at += 1,
                },
                _ => at += 1,
            }
        }
        self.position = text.len();
    }

    /// The result token (start and length) whose `-` is at `dash`, if the full reader would read
    /// one there.
    fn result_around(&mut self, movetext: usize, dash: usize) -> Option<(usize, usize)> {
        // Every result's dash comes before `0`, `1` or `½`: a move's dash (`e2-e4`) is passed
        // without a look back.
        if !matches!(self.text.get(dash + 1), Some(b'0' | b'1' | 0xC2)) {
            return None;
        }
        // `1-0` and `0-1`, `½-½`, `1/2-1/2`: the dash is 1, 2 or 3 bytes in.
        for back in 1..=3 {
            let Some(start) = dash.checked_sub(back).filter(|start| *start >= movetext) else { break };
            self.position = start;
            if let Some(result) = self.result()
                && self.starts_token(movetext, start)
            {
                return Some((start, result.len()));
            }
        }
        None
    }

    /// Whether the full reader, going through the blob that holds `at` (the movetext beginning
    /// at `movetext`), starts a token at `at`.
    fn starts_token(&self, movetext: usize, at: usize) -> bool {
        let text = self.text;
        let mut blob = at;
        while blob > movetext && !ends_token(text[blob - 1]) {
            blob -= 1;
        }
        let mut cursor = Lexer { text, position: blob, input_ends: false, decided_by_end: false };
        if blob > movetext && text[blob - 1] == b'$' {
            // A NAG's digits.
            while cursor.position < text.len() && text[cursor.position].is_ascii_digit() {
                cursor.position += 1;
            }
        }
        while cursor.position < at {
            match text[cursor.position] {
                b'!' | b'?' | b'*' => cursor.position += 1,
                0xEF if text[cursor.position..].starts_with(b"\xEF\xBB\xBF") => cursor.position += 3,
                b'0'..=b'9' | 0xC2 if cursor.result().is_none() && cursor.move_number() => {}
                _ => return false,
            }
        }
        cursor.position == at
    }

    /// After a result at the top level: the game ends, and a new one starts if anything but
    /// blanks and comments follows. Returns whether this game is over.
    fn end_of_game<V: Visitor<'a>>(&mut self, visitor: &mut V, result: &'a [u8], depth: usize) -> bool {
        if depth > 0 {
            return false;
        }
        visitor.outcome(result);
        self.skip_trailing_comments();
        true
    }

    /// Blanks and comments after a result still belong to its game; a comment never closed
    /// does not (it is where a damaged game begins).
    fn skip_trailing_comments(&mut self) {
        loop {
            self.skip_blanks_and_line_comments();
            if self.text.get(self.position) != Some(&b'{') {
                return;
            }
            match self.comment_end(self.position) {
                CommentEnd::Closed(close) => self.position = close + 1,
                CommentEnd::GameStarts(_) | CommentEnd::EndOfText => return,
            }
        }
    }

    /// A result token here (`1-0`, `0-1`, `1/2-1/2`, `½-½`), followed by a delimiter.
    fn result(&mut self) -> Option<&'a [u8]> {
        let rest = &self.text[self.position..];
        let len = match rest {
            [b'1', b'-', b'0', ..] | [b'0', b'-', b'1', ..] => 3,
            [b'1', b'/', b'2', b'-', b'1', b'/', b'2', ..] => 7,
            [0xC2, 0xBD, b'-', 0xC2, 0xBD, ..] => 5, // ½-½
            _ => return None,
        };
        if !rest.get(len).is_none_or(|b| ends_token(*b)) {
            return None;
        }
        self.position += len;
        Some(&rest[..len])
    }

    /// A move number (`12.`, `12...`) here: skips it and says so.
    fn move_number(&mut self) -> bool {
        let text = self.text;
        let mut at = self.position;
        while at < text.len() && text[at].is_ascii_digit() {
            at += 1;
        }
        if at == self.position || text.get(at) != Some(&b'.') {
            return false;
        }
        while at < text.len() && text[at] == b'.' {
            at += 1;
        }
        self.position = at;
        true
    }

    fn token(&mut self) -> &'a [u8] {
        let start = self.position;
        self.position = token_end(self.text, start);
        &self.text[start..self.position]
    }
}

/// A tag value with `\"` and `\\` undone.
#[must_use]
pub fn unescape(value: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if !value.contains(&b'\\') {
        return std::borrow::Cow::Borrowed(value);
    }
    let mut out = Vec::with_capacity(value.len());
    let mut bytes = value.iter();
    while let Some(&byte) = bytes.next() {
        if byte == b'\\' {
            out.extend(bytes.next());
        } else {
            out.push(byte);
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_random::random_below;

    /// The evaluation symbols are told apart from moves as their definition says: a run of
    /// `+ - = /` other than `--`, the infinity sign, or a lone `N`; on the written forms and on
    /// random tokens over their bytes and a move's.
    #[test]
    fn evaluation_symbols_are_told_by_their_definition() {
        let defined = |token: &[u8]| {
            let run = !token.is_empty() && token != b"--" && token.iter().all(|b| b"+-=/".contains(b));
            run || token == "\u{221e}".as_bytes() || token == b"N"
        };
        for symbol in ["+-", "-+", "=", "+/-", "-/+", "=/+", "\u{221e}", "N"] {
            assert!(is_evaluation_symbol(symbol.as_bytes()), "{symbol}");
        }
        for other in ["--", "Nf3", "N3", "e4", "O-O", "", "\u{221e}\u{221e}"] {
            assert!(!is_evaluation_symbol(other.as_bytes()), "{other}");
        }
        let mut random = random_below(0x2545_f491_4f6c_dd1d);
        let alphabet = "+-=/Nf3\u{221e}".as_bytes();
        for _ in 0..20_000 {
            let token: Vec<u8> = (0..random(5)).map(|_| alphabet[random(alphabet.len())]).collect();
            assert_eq!(is_evaluation_symbol(&token), defined(&token), "{token:?}");
        }
    }

    #[derive(Default)]
    struct Record {
        events: Vec<String>,
        variations: bool,
    }

    impl<'a> Visitor<'a> for Record {
        fn begin_game(&mut self, start: usize) {
            self.events.push(format!("game@{start}"));
        }
        fn tag(&mut self, name: &'a [u8], value: &'a [u8]) {
            let value = unescape(value);
            self.events.push(format!("{}={}", String::from_utf8_lossy(name), String::from_utf8_lossy(&value)));
        }
        fn move_token(&mut self, token: &'a [u8], end: usize) -> ControlFlow<()> {
            self.events.push(format!("{}@{end}", String::from_utf8_lossy(token)));
            ControlFlow::Continue(())
        }
        fn begin_variation(&mut self) -> ControlFlow<()> {
            self.events.push("(".into());
            if self.variations { ControlFlow::Continue(()) } else { ControlFlow::Break(()) }
        }
        fn end_variation(&mut self) {
            self.events.push(")".into());
        }
        fn outcome(&mut self, result: &'a [u8]) {
            self.events.push(format!("result {}", String::from_utf8_lossy(result)));
        }
        fn nag(&mut self, nag: &'a [u8]) {
            self.events.push(format!("nag {}", String::from_utf8_lossy(nag)));
        }
    }

    fn read(text: &str, variations: bool) -> Vec<String> {
        let mut record = Record { variations, ..Record::default() };
        let mut lexer = Lexer::new(text.as_bytes());
        while lexer.next_game(&mut record).is_some() {}
        record.events
    }

    #[test]
    fn tags_with_escapes_and_several_per_line() {
        let events = read("[White \"A \\\"B\\\" C\"] [Black \"D\\\\E\"]\n\n*", false);
        assert_eq!(events, ["game@0", "White=A \"B\" C", "Black=D\\E", "result *"]);
    }

    #[test]
    fn move_numbers_split_across_lines_and_glued() {
        let events = read("1.e4 e5 2.\nNf3 2... Nc6 3.Bb5 1/2-1/2", false);
        assert_eq!(events[1..5], ["e4@4", "e5@7", "Nf3@14", "Nc6@23"]);
        assert_eq!(events.last().unwrap(), "result 1/2-1/2");
    }

    #[test]
    fn castling_with_zeros_is_no_result() {
        let events = read("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 0-1", false);
        assert!(events.contains(&"0-0@37".to_owned()), "{events:?}");
        assert_eq!(events.last().unwrap(), "result 0-1");
    }

    #[test]
    fn comments_nags_escapes_and_variations() {
        let text = "1. e4 $1 {a (b) [c] } e5!? ; rest ( e6\n% escape ( \n1... d5 (1... c5)) 2. d4 *";
        let skipped = read(text, false);
        // The `;` comment takes the rest of its line, `( e6` included; `%` takes its line.
        assert_eq!(skipped, ["game@0", "e4@5", "nag $1", "e5!?@26", "d5@58", "(", "d4@75", "result *"]);
        let entered = read(text, true);
        assert_eq!(entered, ["game@0", "e4@5", "nag $1", "e5!?@26", "d5@58", "(", "c5@67", ")", "d4@75", "result *"]);
    }

    #[test]
    fn nags_apart_from_their_move() {
        let events = read("1. e4 ! ? e5 !? 2. Nf3 $14 $2 *", false);
        assert_eq!(events[1..9], ["e4@5", "nag !", "nag ?", "e5@12", "nag !?", "Nf3@22", "nag $14", "nag $2"]);
    }

    #[test]
    fn games_without_tags_follow_results() {
        let events = read("1. e4 1-0 1. d4 0-1\n\n{only a comment}\n", false);
        assert_eq!(events, ["game@0", "e4@5", "result 1-0", "game@10", "d4@15", "result 0-1"]);
    }

    /// The spans of the games of `text`, read with the moves listened to or skipped.
    fn spans(text: &[u8], skip: bool) -> Vec<GameSpan> {
        struct Reader(bool);
        impl Visitor<'_> for Reader {
            fn begin_movetext(&mut self, _start: usize) -> ControlFlow<()> {
                if self.0 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
            }
        }
        let mut lexer = Lexer::new(text);
        std::iter::from_fn(|| lexer.next_game(&mut Reader(skip))).collect()
    }

    #[test]
    fn skipping_the_moves_ends_games_where_reading_them_does() {
        let cases: [&[u8]; 13] = [
            b"1. e4 e5 1-0\n\n[Event \"b\"]\n1. d4 *",
            b"1. e4 1-0 1. d4 0-1 2. c4 1/2-1/2 3. Nf3 \xC2\xBD-\xC2\xBD e5",
            b"1. O-O 0-0 0-0-0 -- e2-e4 1-0",
            b"1. e4 (1. d4 1-0) e5 * 1. c4",
            b"12.1-0 e4 12...*e5 13.!1-0 Nf3",
            b"e41-0 $11-0 $1 1-0 x",
            b"{1-0 [x]\n[Event} e4 ; 1-0\n% 0-1\n1-0 {after} ; c\n{c2} e4",
            b"e4 ( [x] e5 \n[Event \"c\"]\n1. e4",
            b"e4 [x] e5",
            b"e4 ) ) 1-0 (( 1-0 ) 0-1",
            b"1. e4%x 1-0 %y",
            b"e4 *",
            b"[E\"\"*e",
        ];
        for text in cases {
            assert_eq!(spans(text, true), spans(text, false), "{}", String::from_utf8_lossy(text));
        }
    }

    /// Many cases, and the failures found kept beside this file.
    fn many_cases() -> proptest::prelude::ProptestConfig {
        proptest::prelude::ProptestConfig {
            cases: 4096,
            failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::WithSource(
                "proptest-regressions",
            ))),
            ..proptest::prelude::ProptestConfig::default()
        }
    }

    proptest::proptest! {
        #![proptest_config(many_cases())]
        #[test]
        fn skipping_agrees_with_reading_on_any_mix(parts in proptest::collection::vec(0usize..32, 0..40)) {
            const PIECES: [&str; 32] = [
                "1-0", "0-1", "1/2-1/2", "\u{BD}-\u{BD}", "*", "12.", "...", "e4", "$1", "!", "?", "{", "}", "(", ")",
                "[", "]", ";", "%", "\n", " ", "O-O", "0-0", "--", "[Event \"x\"]\n", "1", "0", "-", "/", "2", "\u{BD}",
                "x",
            ];
            let text: String = parts.iter().map(|&i| PIECES[i]).collect();
            proptest::prop_assert_eq!(spans(text.as_bytes(), true), spans(text.as_bytes(), false), "{:?}", text);
        }
    }

    /// The game starts of the lexer reading `text` whole.
    fn lexer_starts(text: &[u8]) -> Vec<usize> {
        spans(text, false).iter().map(|span| span.start).collect()
    }

    fn splitter_starts(text: &[u8]) -> Vec<usize> {
        crate::notation::pgn::Splitter::starts(text)
    }

    /// The starts the splitter finds when the text comes in pieces cut at `cuts`, each piece
    /// scanned with the text from the last start on.
    fn splitter_starts_in_pieces(text: &[u8], cuts: &[usize]) -> Vec<usize> {
        let mut splitter = crate::notation::pgn::Splitter::default();
        let mut starts = Vec::new();
        let mut ends: Vec<usize> = cuts.iter().map(|&cut| cut % (text.len() + 1)).collect();
        ends.push(text.len());
        ends.sort_unstable();
        for to in ends {
            let from = starts.last().copied().unwrap_or(0).min(to);
            splitter.scan(&text[from..to], from, to == text.len(), &mut starts);
        }
        starts
    }

    proptest::proptest! {
        #![proptest_config(many_cases())]
        #[test]
        fn every_start_the_splitter_finds_is_a_game_the_lexer_reads(
            parts in proptest::collection::vec(0usize..30, 0..48),
            cuts in proptest::collection::vec(0usize..400, 0..6),
        ) {
            const PIECES: [&str; 30] = [
                "[Event \"x\"]", "[Site \"y\"]", "[Ev", "[", "]", "\n", "\n\n", " ", "{", "}", "(", ")", ";", "%",
                "e4", "1-0", "*", "\"", "\\", "\u{feff}", "\r", "1.", "$1", "[%clk 0:01]", "\r\n", "\r\r",
                "[Event", "\t", "1/2-1/2", "0-1",
            ];
            let text: String = parts.iter().map(|&i| PIECES[i]).collect();
            let read = lexer_starts(text.as_bytes());
            let found = splitter_starts(text.as_bytes());
            for &start in &found {
                proptest::prop_assert!(read.contains(&start), "{:?}: {} not in {:?}", text, start, read);
            }
            let in_pieces = splitter_starts_in_pieces(text.as_bytes(), &cuts);
            proptest::prop_assert_eq!(&in_pieces, &found, "{:?} cut at {:?}", text, cuts);
        }

        #[test]
        fn every_start_found_at_a_result_is_a_game_the_lexer_reads(
            parts in proptest::collection::vec(0usize..26, 0..64),
            cuts in proptest::collection::vec(0usize..400, 0..6),
        ) {
            const PIECES: [&str; 26] = [
                "1-0", "0-1", "1/2-1/2", "*", " ", "\n", "\r", "1.", "e4", "Nf3", "(", ")", "{", "}", ";", "%", "$1",
                "[Event \"x\"]", "[", "\n\n", "2...", "0-0", "--", "\u{BD}-\u{BD}", "!", "x",
            ];
            let text: String = parts.iter().map(|&i| PIECES[i]).collect();
            let read = lexer_starts(text.as_bytes());
            let mut splitter = crate::notation::pgn::Splitter::looking_for_results_after(4);
            let mut found = Vec::new();
            let mut ends: Vec<usize> = cuts.iter().map(|&cut| cut % (text.len() + 1)).collect();
            ends.push(text.len());
            ends.sort_unstable();
            for to in ends {
                let from = found.last().copied().unwrap_or(0).min(to);
                splitter.scan(&text.as_bytes()[from..to], from, to == text.len(), &mut found);
            }
            proptest::prop_assert!(found.windows(2).all(|pair| pair[0] < pair[1]), "{:?}: {:?}", text, found);
            for &start in &found {
                proptest::prop_assert!(read.contains(&start), "{:?}: {} not in {:?}", text, start, read);
            }
        }
    }

    #[test]
    fn games_without_tags_are_all_found_at_their_results() {
        let text = b"1. e4 e5 (1... c5 0-1) 2. Nf3 {1-0} 1-0 1. d4 *\n1. c4 1/2-1/2\r\n e4 0-1 1.Nf3 *";
        let mut splitter = crate::notation::pgn::Splitter::looking_for_results_after(0);
        let mut found = Vec::new();
        splitter.scan(text, 0, true, &mut found);
        assert_eq!(found, lexer_starts(text));
    }

    /// The damage told while reading `text`.
    fn damage(text: &str) -> Vec<(usize, Damage)> {
        #[derive(Default)]
        struct Damages(Vec<(usize, Damage)>);
        impl Visitor<'_> for Damages {
            fn damaged(&mut self, at: usize, damage: Damage) {
                self.0.push((at, damage));
            }
        }
        let mut found = Damages::default();
        let mut lexer = Lexer::new(text.as_bytes());
        while lexer.next_game(&mut found).is_some() {}
        found.0
    }

    #[test]
    fn damage_is_told_where_it_is() {
        assert_eq!(damage("1. e4 {oops e5 1-0\n\n[Event \"b\"]\n1. d4 *"), [(6, Damage::UnclosedComment)]);
        assert_eq!(damage("1. e4 (e5 1-0\n[Event \"b\"]\n1. d4 *"), [(6, Damage::UnclosedVariation)]);
        assert_eq!(damage("1. e4 } e5 ) *"), [(6, Damage::StrayClose(b'}')), (11, Damage::StrayClose(b')'))]);
        assert_eq!(damage("[Event x]\n[Site \"y\"]\n1. e4 *"), [(0, Damage::MalformedTag)]);
        assert_eq!(damage("[Event \"a\"]\n\n1. e4 { fine } (1. d4) 1-0 {after}"), []);
    }

    #[test]
    fn an_unclosed_comment_after_a_result_begins_a_damaged_game() {
        let text = b"1. e4 1-0\n{Event \"b\"]\n[Site \"c\"]\n\n1. d4 0-1\n\n[Event \"d\"]\n1. c4 *";
        assert_eq!(lexer_starts(text), [0, 10, 45]);
        assert_eq!(splitter_starts(text), [0, 45]);
    }

    #[test]
    fn an_event_tag_after_a_damaged_line_end_starts_its_game() {
        let text = b"1. e4 1/2-1/2\n\x08[Event \"b\"]\n[Site \"c\"]\n\n1. d4 *";
        assert_eq!(lexer_starts(text), [0, 14, 15]);
        assert_eq!(splitter_starts(text), [0, 15]);
        // In an unclosed comment, after a blank line, an `[Event` line with nothing after it.
        let text = b"1. e4 { oops\n\n[Event\n \"b\"]\n1. d4 *";
        assert_eq!(lexer_starts(text), [0, 14]);
        assert_eq!(splitter_starts(text), [0, 14]);
        let text = b"1. e4 e5 X[Event \"b\"] 1. d4 {\n[Site \"c\"] }";
        assert_eq!(lexer_starts(text), [0, 10]);
        assert_eq!(splitter_starts(text), [0, 10]);
    }

    #[test]
    fn blank_lines_in_tag_sections_and_byte_order_marks() {
        let text = b"[Event \"a\"]\n\n[Date \"b\"]\n\n1. e4 *\n\xEF\xBB\xBF[Event \"c\"]\n\n[Event \"d\"]\n1. d4 *";
        assert_eq!(lexer_starts(text), [0, 36, 49]);
        assert_eq!(splitter_starts(text), [0, 36, 49]);
    }

    #[test]
    fn a_tag_section_ends_the_movetext() {
        let events = read("[A \"1\"]\n1. e4\n[A \"2\"]\n1. d4", false);
        assert_eq!(events, ["game@0", "A=1", "e4@13", "game@14", "A=2", "d4@27"]);
    }
}
