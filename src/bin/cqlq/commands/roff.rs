//! The Markdown of the README's sections as roff, for the manual pages: paragraphs, lists,
//! blocks of code, `code`, **bold** and *emphasis*, headings of a level below the section's.
//! Only what the README writes is read; other Markdown passes through as text.

/// A section of a Markdown text: the lines after the heading `## title`, up to the next heading
/// of that level. Empty when there is no such heading.
pub fn markdown_section<'a>(markdown: &'a str, title: &str) -> &'a str {
    let heading = format!("## {title}\n");
    let Some(start) = markdown.find(&heading).map(|at| at + heading.len()) else { return "" };
    let rest = &markdown[start..];
    let end = rest.find("\n## ").map_or(rest.len(), |at| at + 1);
    &rest[..end]
}

/// Markdown as roff: the body of a manual page's section.
pub fn roff_of_markdown(markdown: &str) -> String {
    let mut out = String::new();
    let mut lines = markdown.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim().is_empty() {
            continue;
        }
        if line.starts_with("```") {
            out.push_str(".PP\n.nf\n.RS 4\n");
            for code in lines.by_ref().take_while(|code| !code.starts_with("```")) {
                out.push_str(&escape_line(code));
                out.push('\n');
            }
            out.push_str(".RE\n.fi\n");
            continue;
        }
        if let Some(heading) = line.strip_prefix("### ") {
            out.push_str(&format!(".SS \"{}\"\n", escape(heading)));
            continue;
        }
        // A paragraph, or an item of a list with its lines that go on under it.
        let item = line.strip_prefix("- ");
        let mut text = item.unwrap_or(line).trim().to_owned();
        while let Some(next) = lines.peek() {
            let goes_on = !next.trim().is_empty() && !next.starts_with("```") && !next.starts_with("- ");
            if !goes_on || next.starts_with('#') {
                break;
            }
            text.push(' ');
            text.push_str(next.trim());
            lines.next();
        }
        out.push_str(if item.is_some() { ".IP \\(bu 2\n" } else { ".PP\n" });
        out.push_str(&escape_line(&inline(&text)));
        out.push('\n');
    }
    out
}

/// `code`, **bold** and *emphasis* as roff's fonts (code and bold in bold, emphasis in italics).
fn inline(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(['`', '*']) {
        out.push_str(&escape(&rest[..at]));
        rest = &rest[at..];
        let (marker, font) = if rest.starts_with('`') {
            ("`", "B")
        } else if rest.starts_with("**") {
            ("**", "B")
        } else {
            ("*", "I")
        };
        let inner = &rest[marker.len()..];
        match inner.find(marker) {
            Some(end) if end > 0 => {
                out.push_str(&format!("\\f{font}{}\\fR", escape(&inner[..end])));
                rest = &inner[end + marker.len()..];
            }
            _ => {
                out.push_str(&escape(marker));
                rest = inner;
            }
        }
    }
    out.push_str(&escape(rest));
    out
}

/// Text for roff: backslashes and dashes escaped.
pub fn escape(text: &str) -> String {
    text.replace('\\', "\\e").replace('-', "\\-")
}

/// A line for roff, escaped, never starting with a control character.
fn escape_line(text: &str) -> String {
    let line = if text.contains("\\f") { text.to_owned() } else { escape(text) };
    if line.starts_with(['.', '\'']) { format!("\\&{line}") } else { line }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_end_at_the_next_heading_of_their_level() {
        let text = "# T\n## One\nfirst\n### Sub\nmore\n## Two\nsecond\n";
        assert_eq!(markdown_section(text, "One"), "first\n### Sub\nmore\n");
        assert_eq!(markdown_section(text, "Two"), "second\n");
        assert_eq!(markdown_section(text, "Three"), "");
    }

    #[test]
    fn markdown_becomes_roff() {
        let roff = roff_of_markdown(
            "**Squares.** `e4`, and *all*\nof them.\n\n- *Lists.* one\n  goes on\n- two\n\n```\n.R-b\n```\n",
        );
        assert_eq!(
            roff,
            ".PP\n\\fBSquares.\\fR \\fBe4\\fR, and \\fIall\\fR of them.\n.IP \\(bu 2\n\\fILists.\\fR one goes on\n\
             .IP \\(bu 2\ntwo\n.PP\n.nf\n.RS 4\n\\&.R\\-b\n.RE\n.fi\n"
        );
    }

    #[test]
    fn a_lone_star_stays_text() {
        assert_eq!(inline("a * b"), "a * b");
        assert_eq!(inline("`a-b`"), "\\fBa\\-b\\fR");
    }
}
