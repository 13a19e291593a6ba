//! Printers of search results. They see games and their matched positions, never a plan.
//!
//! - [`PgnPrinter`]: each matching game exactly as written, with a comment (`{CQL}`, or the
//!   match string) after the move that reached each matched position, before the first move
//!   for the initial position.
//! - [`CqlPrinter`]: each matching game as CQL 6.2 writes it (see
//!   [`cql_style`](crate::notation::pgn::cql_style)), with CQL's comments.
//! - [`JsonlPrinter`]: one JSON object per matching game.
//! - [`ProblemLog`]: one JSON object per game whose replay stopped at an error, and per move
//!   whose record leaves out what the rules did (a warning).

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::sync::Arc;

use serde_json::json;

use super::convert::{end_movetext, pgn_of, provenance_from, write_movetext_tags};
use super::cql_game::{append_texts, append_texts_removing, in_other_notation, initial_notes, read_game, write_played};
use super::driver::{Found, Problem};
use super::main_line::read_main_line;
use super::render::Render;
use crate::notation::Container;
use crate::notation::pgn::cql_style::CqlGame;
use crate::notation::pgn::{Lexer, Visitor, tag_text};
use crate::query::{SortSpec, SortValue};
use crate::variant::Variant;

/// Writes matching games as PGN.
#[derive(Debug)]
pub struct PgnPrinter<W: Write> {
    out: W,
    comment: Vec<u8>,
    /// The labels of the sort keys whose values are written, `None` for a `quiet` one.
    sort_labels: Vec<Option<String>>,
}

impl<W: Write> PgnPrinter<W> {
    /// A printer marking matched positions with `{matchstring}`.
    pub fn new(out: W, matchstring: &str) -> PgnPrinter<W> {
        let comment = format!("{{{}}}", matchstring.replace('}', ")")).into_bytes();
        PgnPrinter { out, comment, sort_labels: Vec::new() }
    }

    /// Writes each game's values for these sort keys as a comment `{label value ...}` before
    /// its first move (the keys that are not `quiet`, where the game has a value).
    #[must_use]
    pub fn with_sort_labels(mut self, keys: &[SortSpec]) -> PgnPrinter<W> {
        self.sort_labels = keys.iter().map(|key| (!key.quiet).then(|| key.label.replace('}', ")"))).collect();
        self
    }

    /// The comment of a game's sort values, if it has one to write.
    fn sort_comment(&self, sort: &[Option<SortValue>]) -> Option<String> {
        let parts: Vec<String> = self
            .sort_labels
            .iter()
            .zip(sort)
            .filter_map(|(label, value)| {
                let (label, value) = (label.as_ref()?, value.as_ref()?);
                let value = value.to_string().replace('}', ")");
                Some(if label.is_empty() { value } else { format!("{label} {value}") })
            })
            .collect();
        (!parts.is_empty()).then(|| parts.join(" "))
    }

    /// Writes one game with its marks, then a blank line. A game read from a notation's own
    /// format is written as PGN, converted; one whose format holds PGN movetext as it stands (a
    /// Laser Chess move list) is written as it is, under tags that say what it is.
    pub fn write(&mut self, game: &Found<'_>) -> io::Result<()> {
        let list = match game.container {
            Container::Native(format) if format.is_pgn_movetext() => Some(format),
            Container::Native(_) => return self.write_converted(game),
            Container::Pgn => None,
        };
        if let Some(format) = list {
            let mut tags = Vec::new();
            write_movetext_tags(format, game, &mut tags);
            self.out.write_all(&tags)?;
        }
        let text = trim_end(game.text);
        let mut written = 0;
        if let Some(comment) = self.sort_comment(game.sort) {
            let at = game.movetext.min(text.len());
            self.out.write_all(&text[..at])?;
            write!(self.out, "{{{comment}}} ")?;
            written = at;
        }
        // Each position's comment: the query's notes there, then the mark if it matched.
        let mut comments: BTreeMap<(usize, u32), Vec<u8>> = BTreeMap::new();
        let mark = &self.comment[1..self.comment.len() - 1];
        for note in game.comments().iter() {
            let comment = comments.entry((note.offset, note.ply)).or_default();
            comment.extend_from_slice(if comment.is_empty() { b"{" } else { b" " });
            match &note.text {
                Some(text) => comment.extend_from_slice(text.replace('}', ")").as_bytes()),
                None => comment.extend_from_slice(mark),
            }
        }
        for ((offset, ply), mut comment) in comments {
            comment.push(b'}');
            let at = offset.min(text.len()).max(written);
            self.out.write_all(&text[written..at])?;
            if ply == 0 {
                self.out.write_all(&comment)?;
                self.out.write_all(b" ")?;
            } else {
                self.out.write_all(b" ")?;
                self.out.write_all(&comment)?;
            }
            written = at;
        }
        self.out.write_all(&text[written..])?;
        if list.is_some() {
            let mut end = Vec::new();
            end_movetext(game, &mut end);
            return self.out.write_all(&end);
        }
        self.out.write_all(b"\n\n")
    }

    /// Writes a game read from a notation's own format as PGN, its marks and the query's
    /// comments after the moves of their positions.
    fn write_converted(&mut self, game: &Found<'_>) -> io::Result<()> {
        let mark = String::from_utf8_lossy(&self.comment[1..self.comment.len() - 1]).into_owned();
        let mut by_ply: BTreeMap<u32, String> = BTreeMap::new();
        if let Some(comment) = self.sort_comment(game.sort) {
            by_ply.insert(0, comment);
        }
        for note in game.comments().iter() {
            let comment = by_ply.entry(note.ply).or_default();
            if !comment.is_empty() {
                comment.push(' ');
            }
            comment.push_str(note.text.as_deref().unwrap_or(&mark));
        }
        let comments: Vec<(u32, String)> = by_ply.into_iter().collect();
        let mut out = Vec::new();
        match read_main_line(game.text, game.container, game.container.default_variant(), None) {
            Some(line) => pgn_of(&line, game, &comments, &mut out),
            None => out.extend_from_slice(game.text),
        }
        self.out.write_all(&out)
    }

    /// The writer.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Flushes the writer.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// The comments [`CqlPrinter`] adds to the games, as CQL 6.2's options choose them.
#[derive(Clone, Debug)]
pub struct CqlComments {
    /// The comment after each move that reached a matched position, and in the game's comment
    /// when its initial position matched (`None` or empty: none, as with CQL's `-quiet`).
    pub matchstring: Option<String>,
    /// Whether the game's comment says its number, `Game number 12` (not with CQL's
    /// `-noheader` or `-silent`).
    pub game_numbers: bool,
    /// The labels of the query's sort keys, `None` for a key left out (`sort quiet`): each
    /// game's value for the others is added to its comment as `label: value`.
    pub sort_labels: Vec<Option<String>>,
    /// The variant of games without a `Variant` tag (their moves are replayed to be written).
    pub variant: &'static Variant,
    /// The bytes of CQL 6.2's buffer for the text of a game: a game's text that fills it is
    /// cut ([`GAME_BUFFER`](crate::notation::pgn::cql_style::GAME_BUFFER) unless
    /// `-outputbuffersize` says otherwise).
    pub game_buffer: usize,
}

/// Writes matching games as CQL 6.2 writes them: its order of tags, its movetext style, and its
/// comments: the game's number and the initial position's mark before the first move, the mark
/// after each move that reached a matched position.
#[derive(Debug)]
pub struct CqlPrinter<W: Write> {
    out: W,
    render: Arc<CqlRender>,
    buffer: Vec<u8>,
}

impl<W: Write> CqlPrinter<W> {
    /// A printer to `out` adding `comments`.
    pub fn new(out: W, comments: CqlComments) -> CqlPrinter<W> {
        CqlPrinter { out, render: Arc::new(CqlRender { comments }), buffer: Vec::new() }
    }

    /// What makes the text of each game, which the search may run ahead on its threads.
    pub fn renderer(&self) -> Arc<CqlRender> {
        Arc::clone(&self.render)
    }

    /// Writes one game (as rendered ahead, if it was), then two blank lines. Returns what
    /// CQL 6.2 prints about it ([`Found::said`]).
    pub fn write(&mut self, game: &Found<'_>) -> io::Result<Option<String>> {
        if let Some(rendered) = game.rendered {
            self.out.write_all(rendered)?;
            return Ok(game.said.map(str::to_owned));
        }
        self.buffer.clear();
        let said = self.render.render(game, &mut self.buffer);
        self.out.write_all(&self.buffer)?;
        Ok(said)
    }

    /// The writer.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Flushes the writer.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Makes a game's text as CQL 6.2 writes it, with its comments ([`CqlPrinter`]'s work, which
/// the search may do ahead on its threads).
#[derive(Debug)]
pub struct CqlRender {
    comments: CqlComments,
}

impl Render for CqlRender {
    fn render(&self, game: &Found<'_>, out: &mut Vec<u8>) -> Option<String> {
        out.reserve(game.text.len() + 64);
        let long_comments = self.write(game, out);
        long_comments_said(game.number, long_comments)
    }

    fn renders_without_line(&self, game: &Found<'_>) -> bool {
        // A game written from another notation names its line in its `Annotator` tag.
        !in_other_notation(game, self.comments.variant)
    }
}

/// What CQL 6.2 prints about a game found whose positions' comments would have grown too
/// long with what the query adds (`long_comments` of them), if any: a line for each, after
/// an empty one.
fn long_comments_said(game: u64, long_comments: u32) -> Option<String> {
    (long_comments > 0).then(|| {
        let line = format!("\nIgnoring long comment in game: {game}");
        vec![line; long_comments as usize].join("\n")
    })
}

impl CqlRender {
    /// Appends the game's text to `out`, then two blank lines. Returns how many of its
    /// positions' comments were left as they were, as too long with what they gain.
    fn write(&self, game: &Found<'_>, out: &mut Vec<u8>) -> u32 {
        let comments = &self.comments;
        let mark = comments.matchstring.as_deref().unwrap_or_default().as_bytes();
        let notes = game.comments();
        // Written from the moves played, without reading the movetext again; a game in another
        // notation, from its main line read again in its notation.
        if game.moves_only || in_other_notation(game, comments.variant) {
            let mut comment = None;
            let initial_long = !self.add_initial_comments(&mut comment, game, &initial_notes(&notes, mark));
            let comment = comment.as_deref();
            if let Some(long) = write_played(out, game, &notes, comments.variant, mark, comment, comments.game_buffer) {
                return long + u32::from(initial_long);
            }
        }
        let mut read = read_game(game.text, &notes, game.played, comments.variant, mark, game.edits);
        read.game.tags.extend(game.edits.tag_pairs());
        let initial_long = !self.add_initial_comments(&mut read.game.line.comment, game, &read.initial_notes);
        let long_comments = read.long_comments + u32::from(initial_long);
        let list = match game.container {
            Container::Native(format) if format.is_pgn_movetext() => format,
            _ => {
                read.game.write_within(out, comments.game_buffer);
                return long_comments;
            }
        };
        // A move list of PGN movetext gains the tags that say what it is.
        let annotator = provenance_from(list.description(), game).replace('\\', "\\\\").replace('"', "\\\"");
        let mut tags = read.game.tags;
        tags.push((b"Variant", list.variant().name.as_bytes()));
        tags.push((b"Annotator", annotator.as_bytes()));
        CqlGame { tags, line: read.game.line, result: read.game.result }.write_within(out, comments.game_buffer);
        long_comments
    }

    /// Adds to the comment before the first move what CQL 6.2 adds there: the game's number,
    /// the initial position's notes and mark, and the `sort` value. Returns false where that
    /// was left out as too long ([`append_texts`]).
    fn add_initial_comments(&self, comment: &mut Option<Vec<u8>>, game: &Found<'_>, initial_notes: &[&[u8]]) -> bool {
        let comments = &self.comments;
        let number = comments.game_numbers.then(|| format!("Game number {}", game.number));
        // CQL 6.2 writes the value with a space before it, and another between it and what
        // the comment held: `{Game number 3  label: 7}`.
        // A game whose matching positions gave no value has `none`, as in CQL 6.2.
        let sort: String = comments
            .sort_labels
            .iter()
            .zip(game.sort.iter().chain(std::iter::repeat(&None)))
            .filter_map(|(label, value)| {
                let label = label.as_ref()?;
                let value = value.as_ref().map_or_else(|| "none".to_owned(), ToString::to_string);
                Some(if label.is_empty() { format!(" {value}") } else { format!(" {label}: {value}") })
            })
            .collect();
        let sort = (!sort.is_empty()).then_some(sort);
        let mut texts = Vec::with_capacity(initial_notes.len() + 2);
        texts.extend(number.as_deref().map(str::as_bytes));
        texts.extend_from_slice(initial_notes);
        texts.extend(sort.as_deref().map(str::as_bytes));
        if game.edits.removes_first() { append_texts_removing(comment, &texts) } else { append_texts(comment, &texts) }
    }
}

fn trim_end(text: &[u8]) -> &[u8] {
    let end = text.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(0, |i| i + 1);
    &text[..end]
}

/// Writes one JSON object per matching game:
/// `{"game", "offset", "line", "plies", "white", "black", "result", "input"}`, and `"sort"`
/// where the query sorts.
#[derive(Debug)]
pub struct JsonlPrinter<W: Write> {
    out: W,
}

impl<W: Write> JsonlPrinter<W> {
    /// A printer to `out`.
    pub fn new(out: W) -> JsonlPrinter<W> {
        JsonlPrinter { out }
    }

    /// Writes one game's line.
    pub fn write(&mut self, game: &Found<'_>) -> io::Result<()> {
        let mut tags = Tags::of(game.text);
        if tags.result.is_none() {
            // A game with no `Result` tag (every game of a native notation): the result its
            // moves end with.
            tags.result = game.outcome.map(|result| String::from_utf8_lossy(result).into_owned());
        }
        let plies: Vec<u32> = game.matched.iter().map(|ply| ply.ply).collect();
        let object = json!({
            "game": game.number,
            "offset": game.offset,
            "line": game.line,
            "plies": plies,
            "white": tags.white,
            "black": tags.black,
            "result": tags.result,
            "input": game.input,
        });
        let mut object = object;
        if !game.variations.is_empty() {
            // Where plies repeat (a ply of the main line and of a variation), this tells them
            // apart: for each matched position, the variations it lies in.
            object["variations"] = json!(game.variations);
        }
        let value = |value: &Option<SortValue>| match value {
            Some(SortValue::Number(number)) => json!(number),
            Some(SortValue::Text(text)) => json!(&**text),
            None => json!(null),
        };
        if let Some(Some(first)) = game.sort.first() {
            object["sort"] = value(&Some(first.clone()));
        }
        if game.sort.len() > 1 {
            object["sorts"] = game.sort.iter().map(value).collect();
        }
        write_json_line(&mut self.out, &object)
    }

    /// Flushes the writer.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// The writer.
    pub fn into_inner(self) -> W {
        self.out
    }
}

/// The tags a JSON line reports.
#[derive(Default)]
struct Tags {
    white: Option<String>,
    black: Option<String>,
    result: Option<String>,
}

impl Tags {
    fn of(text: &[u8]) -> Tags {
        let mut tags = Tags::default();
        Lexer::new(text).next_game(&mut tags);
        tags
    }
}

impl<'a> Visitor<'a> for Tags {
    fn tag(&mut self, name: &'a [u8], value: &'a [u8]) {
        let text = || Some(tag_text(value).into_owned());
        match name {
            b"White" => self.white = text(),
            b"Black" => self.black = text(),
            b"Result" => self.result = text(),
            _ => {}
        }
    }

    fn begin_movetext(&mut self, _start: usize) -> ControlFlow<()> {
        ControlFlow::Break(())
    }
}

/// Writes one JSON object per game whose replay stopped at an error, and per warning:
/// `{"input", "game", "offset", "line", "ply", "move", "error", "severity"}`, the severity
/// `error` or `warning`.
#[derive(Debug)]
pub struct ProblemLog<W: Write> {
    out: W,
}

impl<W: Write> ProblemLog<W> {
    /// A log to `out`.
    pub fn new(out: W) -> ProblemLog<W> {
        ProblemLog { out }
    }

    /// Writes one problem's line.
    pub fn write(&mut self, problem: &Problem<'_>) -> io::Result<()> {
        let object = json!({
            "input": problem.input,
            "game": problem.game,
            "offset": problem.offset,
            "line": problem.line,
            "ply": problem.ply,
            "move": problem.token,
            "error": problem.message,
            "severity": if problem.warning { "warning" } else { "error" },
        });
        write_json_line(&mut self.out, &object)
    }

    /// Writes the line of a game that was read but could not be converted, and why.
    pub fn write_not_converted(&mut self, game: &Found<'_>, why: &str) -> io::Result<()> {
        let object = json!({
            "input": game.input,
            "game": game.number,
            "offset": game.offset,
            "line": game.line,
            "error": why,
            "severity": "not converted",
        });
        write_json_line(&mut self.out, &object)
    }

    /// Flushes the writer.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// The writer.
    pub fn into_inner(self) -> W {
        self.out
    }
}

/// A problem as one line of text: `input:line: game G, ply P, move 'X': message`, with
/// `warning: ` after the line for a warning.
#[must_use]
pub fn describe(problem: &Problem<'_>) -> String {
    let severity = if problem.warning { "warning: " } else { "" };
    if problem.token.is_empty() {
        format!("{}:{}: {severity}game {}: {}", problem.input, problem.line, problem.game, problem.message)
    } else {
        format!(
            "{}:{}: {severity}game {}, ply {}, move '{}': {}",
            problem.input, problem.line, problem.game, problem.ply, problem.token, problem.message
        )
    }
}

/// Writes one JSON object and a line end.
fn write_json_line(out: &mut impl Write, object: &serde_json::Value) -> io::Result<()> {
    serde_json::to_writer(&mut *out, object)?;
    out.write_all(b"\n")
}
