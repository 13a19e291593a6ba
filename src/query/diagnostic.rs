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

fn line_column(source: &str, offset: usize) -> (usize, usize) {
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
        for (index, diagnostic) in self.diagnostics.iter().enumerate() {
            if index > 0 {
                writeln!(f)?;
            }
            render(f, &self.source, &self.origin, diagnostic)?;
        }
        Ok(())
    }
}

fn render(f: &mut fmt::Formatter<'_>, source: &str, origin: &str, diagnostic: &Diagnostic) -> fmt::Result {
    let (line, column) = line_column(source, diagnostic.span.start);
    let text = source.lines().nth(line - 1).unwrap_or("");
    let number = line.to_string();
    let gutter = " ".repeat(number.len());
    let width = {
        let start = floor_char_boundary(source, diagnostic.span.start.min(source.len()));
        let end = floor_char_boundary(source, diagnostic.span.end.min(source.len()));
        let spanned = &source[start..end.max(start)];
        let on_line = spanned.split('\n').next().unwrap_or("");
        on_line.chars().count().max(1)
    };
    writeln!(f, "error: {}", diagnostic.message)?;
    writeln!(f, "{gutter}--> {origin}:{line}:{column}")?;
    writeln!(f, "{gutter} |")?;
    writeln!(f, "{number} | {text}")?;
    writeln!(f, "{gutter} | {}{}", " ".repeat(column - 1), "^".repeat(width))
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
