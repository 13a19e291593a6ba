//! Text from files and queries as messages show it: control characters and the invisible
//! characters that reorder text escaped, so that no damaged byte reaches a terminal as it is,
//! and long pieces cut.
//!
//! ```
//! use cqlq::text::{escape, excerpt};
//!
//! assert_eq!(escape("Qh9\0\x1b[2J"), "Qh9\\0\\x1b[2J");
//! assert_eq!(excerpt(&"x".repeat(50), 8), "xxxxxxxx…");
//! ```

use std::borrow::Cow;

/// A character as shown: control characters (and the invisible ones that reorder text) as
/// escapes, a tab as `tab`, any other as itself.
pub(crate) fn shown(c: char, tab: &'static str) -> Cow<'static, str> {
    match c {
        '\t' => Cow::Borrowed(tab),
        '\0' => Cow::Borrowed("\\0"),
        '\n' => Cow::Borrowed("\\n"),
        '\r' => Cow::Borrowed("\\r"),
        c if c.is_control() && u32::from(c) < 0x100 => Cow::Owned(format!("\\x{:02x}", u32::from(c))),
        c if c.is_control() || is_invisible(c) => Cow::Owned(format!("\\u{{{:x}}}", u32::from(c))),
        c => Cow::Owned(c.to_string()),
    }
}

/// Characters that change how the text around them is shown without being seen: the
/// bidirectional overrides and isolates, and zero-width ones.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

/// Text with its control characters (and invisible ones) escaped, so that none reaches a
/// terminal: `\0`, `\x1b`, `\u{202e}`.
#[must_use]
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c.is_control() || is_invisible(c)) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().map(|c| shown(c, "\\t")).collect())
}

/// The characters of `chars` as shown (a tab as `tab`), one string each, while they fit in
/// `budget` columns; their width; and whether characters were left out.
pub(crate) fn take(
    chars: impl Iterator<Item = char>,
    budget: usize,
    tab: &'static str,
) -> (Vec<Cow<'static, str>>, usize, bool) {
    let mut units = Vec::new();
    let mut width = 0;
    for c in chars {
        let unit = shown(c, tab);
        let unit_width = unit.chars().count();
        if width + unit_width > budget {
            return (units, width, true);
        }
        width += unit_width;
        units.push(unit);
    }
    (units, width, false)
}

/// Text as a message shows it: escaped, and cut after `columns` columns with `…`.
#[must_use]
pub fn excerpt(text: &str, columns: usize) -> String {
    let (head, _, cut) = take(text.chars(), columns, "\\t");
    format!("{}{}", head.concat(), if cut { "…" } else { "" })
}
