//! Errors in a query, and how they are shown: the file, line and column, the source line and a
//! caret under the mistake, and a sentence about the query.
//!
//! ```
//! use cqlq::Query;
//!
//! let error = Query::parse("R[").unwrap_err();
//! assert_eq!(
//!     error.to_string(),
//!     "error: expected a square such as e4 or ']' after 'R['\n --> query:1:3\n  |\n1 | R[\n  |   ^\n"
//! );
//! ```

use std::fmt;
use std::sync::Arc;

use super::ast::Span;
use crate::text::{escape, shown, take};

/// One mistake in a query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Where it is.
    pub span: Span,
    /// What is wrong, in words about the query.
    pub message: String,
}

impl Diagnostic {
    /// A mistake at `span`.
    #[must_use]
    pub fn new(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { span, message: message.into() }
    }
}

/// Every mistake found in a query, with the text they point into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryError {
    diagnostics: Vec<Diagnostic>,
    source: Arc<str>,
    origin: String,
}

impl QueryError {
    /// The mistakes in `source`, in the order of the text.
    #[must_use]
    pub fn new(mut diagnostics: Vec<Diagnostic>, source: Arc<str>) -> QueryError {
        diagnostics.sort_by_key(|d| (d.span.start, d.span.end));
        diagnostics.dedup();
        QueryError { diagnostics, source, origin: "query".to_owned() }
    }

    /// Names the file the query came from, for the `-->` lines.
    #[must_use]
    pub fn with_origin(mut self, origin: impl Into<String>) -> QueryError {
        self.origin = origin.into();
        self
    }

    /// The mistakes.
    #[must_use]
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The 1-based line and column (in characters) of a byte offset.
    #[must_use]
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        line_column(&self.source, offset)
    }
}

/// The 1-based line and column (in characters) of a byte offset of `source`.
pub(crate) fn line_column(source: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(source, offset.min(source.len()));
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, source[line_start..offset].chars().count() + 1)
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        render_all(f, "error", &self.diagnostics, &self.source, &self.origin)
    }
}

/// What may make a sound query slow, or not do what its writer meant, each with its place in
/// the text: shown before it runs, as `warning:` lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryWarnings(QueryError);

impl QueryWarnings {
    /// The warnings about `source`, in the order of the text.
    #[must_use]
    pub fn new(diagnostics: Vec<Diagnostic>, source: Arc<str>) -> QueryWarnings {
        QueryWarnings(QueryError::new(diagnostics, source))
    }

    /// Names the file the query came from, for the `-->` lines.
    #[must_use]
    pub fn with_origin(self, origin: impl Into<String>) -> QueryWarnings {
        QueryWarnings(self.0.with_origin(origin))
    }

    /// The warnings.
    #[must_use]
    pub fn diagnostics(&self) -> &[Diagnostic] {
        self.0.diagnostics()
    }
}

impl fmt::Display for QueryWarnings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let QueryError { diagnostics, source, origin } = &self.0;
        render_all(f, "warning", diagnostics, source, origin)
    }
}

fn render_all(
    f: &mut fmt::Formatter<'_>,
    label: &str,
    diagnostics: &[Diagnostic],
    source: &str,
    origin: &str,
) -> fmt::Result {
    for (index, diagnostic) in diagnostics.iter().enumerate() {
        if index > 0 {
            writeln!(f)?;
        }
        render(f, label, source, origin, diagnostic)?;
    }
    Ok(())
}

fn render(f: &mut fmt::Formatter<'_>, label: &str, source: &str, origin: &str, diagnostic: &Diagnostic) -> fmt::Result {
    let (line, column) = line_column(source, diagnostic.span.start);
    let start = floor_char_boundary(source, diagnostic.span.start.min(source.len()));
    let end = floor_char_boundary(source, diagnostic.span.end.min(source.len())).max(start);
    let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = source[start..].find('\n').map_or(source.len(), |i| start + i);
    let text = source[line_start..line_end].strip_suffix('\r').unwrap_or(&source[line_start..line_end]);
    let caret = (start - line_start).min(text.len());
    let caret_end = (end.min(line_end) - line_start).clamp(caret, text.len());
    let shown = Window::of(text, caret, caret_end);
    let number = line.to_string();
    let gutter = " ".repeat(number.len());
    writeln!(f, "{label}: {}", escape(&diagnostic.message))?;
    writeln!(f, "{gutter}--> {}:{line}:{column}", escape(origin))?;
    writeln!(f, "{gutter} |")?;
    writeln!(f, "{number} | {}", shown.text)?;
    writeln!(f, "{gutter} | {}{}", " ".repeat(shown.caret), "^".repeat(shown.width))
}

/// The most characters of a source line shown under a mistake; longer lines are cut around it.
const LINE_WINDOW: usize = 100;
/// How many of them go before the mistake, where the line goes on long enough after it.
const BEFORE_CARET: usize = 40;
/// The most characters of a piece of the query that a message quotes.
const QUOTED_CHARS: usize = 32;

/// The part of a source line shown: escaped, cut with `…` where it is long, and where the caret
/// goes in it.
struct Window {
    text: String,
    /// Characters before the caret.
    caret: usize,
    /// Carets.
    width: usize,
}

impl Window {
    /// The window of `line` around the bytes `caret..caret_end`.
    fn of(line: &str, caret: usize, caret_end: usize) -> Window {
        let (before, after) = line.split_at(caret);
        let after_width = shown_width(after, LINE_WINDOW);
        // What the line after the caret does not fill goes to the line before it.
        let before_budget = LINE_WINDOW - after_width.min(LINE_WINDOW - BEFORE_CARET);
        let (head, head_width, cut_before) = take(before.chars().rev(), before_budget, " ");
        let (tail, tail_width, cut_after) = take(after.chars(), LINE_WINDOW - head_width, " ");
        let mut text = String::from(if cut_before { "…" } else { "" });
        head.iter().rev().for_each(|unit| text.push_str(unit));
        tail.iter().for_each(|unit| text.push_str(unit));
        if cut_after {
            text.push('…');
        }
        let spanned = shown_width(&line[caret..caret_end], tail_width);
        Window { text, caret: usize::from(cut_before) + head_width, width: spanned.max(1) }
    }
}

/// The columns `text` takes when shown in a line, counted up to `limit` at most.
fn shown_width(text: &str, limit: usize) -> usize {
    let mut width = 0;
    for c in text.chars() {
        width += shown(c, " ").chars().count();
        if width >= limit {
            return limit;
        }
    }
    width
}

/// A piece of the query as a message quotes it: in single quotes, escaped, and cut to its first
/// 32 characters with `…`.
pub(crate) fn quoted(text: &str) -> String {
    format!("'{}'", excerpt(text))
}

/// Names joined as a sentence says them: `A`, `A or B`, `A, B or C`.
pub(crate) fn or_list(names: &[&str]) -> String {
    match names {
        [] => String::from("no variant"),
        [only] => (*only).to_owned(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// A piece of the query as a message shows it: escaped, and cut to its first 32 characters
/// with `…`.
pub(crate) fn excerpt(text: &str) -> String {
    crate::text::excerpt(text, QUOTED_CHARS)
}

/// The mistake of a variant name that is none: the name shown as [`excerpt`] shows it.
pub(crate) fn unknown_variant(name: &str) -> String {
    crate::variant::UnknownVariant { name: excerpt(name) }.to_string()
}

/// The end of a piece of the query (what comes just before a mistake), escaped and cut to its
/// last `chars` characters with `…`.
pub(crate) fn ending(text: &str, chars: usize) -> String {
    let (tail, _, cut) = take(text.chars().rev(), chars, "\\t");
    let tail: String = tail.iter().rev().map(|unit| &**unit).collect();
    format!("{}{tail}", if cut { "…" } else { "" })
}

impl std::error::Error for QueryError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_count_characters() {
        let source = "a\n♔b c";
        assert_eq!(line_column(source, 0), (1, 1));
        assert_eq!(line_column(source, 2), (2, 1));
        assert_eq!(line_column(source, 2 + '♔'.len_utf8()), (2, 2));
        assert_eq!(line_column(source, source.len()), (2, 5));
    }

    #[test]
    fn windows_of_long_lines() {
        let window = |line: &str, caret: usize, end: usize| {
            let window = Window::of(line, caret, end);
            (window.text, window.caret, window.width)
        };
        // Short lines are shown whole.
        assert_eq!(window("Ka1 R[ x", 7, 8), ("Ka1 R[ x".to_owned(), 7, 1));
        let line = "♔".repeat(100);
        assert_eq!(window(&line, 0, line.len()), (line.clone(), 0, 100));
        // A long line: from its start, its end, or around the middle, a hundred characters.
        let line = "abcdefghij".repeat(15);
        let (text, caret, width) = window(&line, 0, 3);
        assert_eq!((text.chars().count(), text.ends_with('…'), caret, width), (101, true, 0, 3));
        let (text, caret, width) = window(&line, 150, 150);
        assert_eq!((text.chars().count(), text.starts_with('…'), caret, width), (101, true, 101, 1));
        let (text, caret, width) = window(&line, 75, 150);
        assert_eq!((text.chars().count(), caret, width), (102, 41, 60));
        assert_eq!(text.chars().nth(caret), line.chars().nth(75));
        // Escapes take their width.
        assert_eq!(window("a\u{1b}b", 2, 3), ("a\\x1bb".to_owned(), 5, 1));
    }

    #[test]
    fn quoted_pieces_are_short_and_escaped() {
        assert_eq!(quoted("Ka1"), "'Ka1'");
        assert_eq!(quoted(&"x".repeat(40)), format!("'{}…'", "x".repeat(32)));
        assert_eq!(quoted("a\0b\u{1b}[0m\t"), "'a\\0b\\x1b[0m\\t'");
        assert_eq!(ending(&format!("{}Qh7 and", "Ka1 ".repeat(10)), 11), "…Ka1 Qh7 and");
        assert_eq!(escape("plain"), "plain");
    }

    #[test]
    fn several_errors_render_in_order() {
        let error = QueryError::new(
            vec![Diagnostic::new(Span::new(4, 6), "second"), Diagnostic::new(Span::new(0, 1), "first")],
            Arc::from("x = yy"),
        )
        .with_origin("q.cql");
        assert_eq!(
            error.to_string(),
            "error: first\n --> q.cql:1:1\n  |\n1 | x = yy\n  | ^\n\nerror: second\n --> q.cql:1:5\n  |\n1 | x = yy\n  |     ^^\n"
        );
    }
}
