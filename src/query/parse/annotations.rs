//! The words about what the game itself says and how it is written again: `hascomment` and
//! `originalcomment` (the comment and glyphs of the move played), `removecomment`, `settag`;
//! and the words that check a run: `assert`, `cql_abort`, and `try` (a word of problem
//! databases, where a try is a variation of Black's).

use pest::iterators::Pair;

use super::{Builder, Rule, span_of, string};
use crate::query::ast::{BinaryOp, Expr, ExprKind, FindQuantity, Span, Word};
use crate::query::check::looks_like_a_pattern;
use crate::query::diagnostic::Diagnostic;

/// The tag names `settag` may not give: those the game's record keeps apart from the others,
/// in the spellings CQL 6.2 refuses.
const KEPT_TAGS: &[&str] = &[
    "Black",
    "black",
    "BLACK",
    "White",
    "white",
    "WHITE",
    "Event",
    "event",
    "EVENT",
    "Site",
    "site",
    "SITE",
    "Date",
    "date",
    "DATE",
    "Eco",
    "eco",
    "ECO",
    "Fen",
    "fen",
    "FEN",
    "Round",
    "ROUND",
    "Result",
    "result",
    "RESULT",
    "EventDate",
    "eventdate",
    "eventDate",
    "EVENTDATE",
];

/// The longest tag name `settag` gives.
const MAX_TAG_NAME: usize = 60;

impl Builder {
    /// `hascomment` or `originalcomment`, with the text after it: a glyph (`"!"`, `"$14"`) the
    /// move played has, else a text its comment holds.
    pub(super) fn original_comment(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let span = span_of(&pair);
        let Some(search) = pair.into_inner().find(|part| part.as_rule() == Rule::tag_search) else {
            return (ExprKind::OriginalComment, 1);
        };
        let text_span = span_of(&search);
        let text = string(search.into_inner().next());
        match glyph_named(&text) {
            Glyph::Number(glyph) => return (ExprKind::Glyph(glyph), 1),
            Glyph::Refused(message) => {
                self.diagnostics.push(Diagnostic::new(text_span, message));
                return (ExprKind::OriginalComment, 1);
            }
            Glyph::None => {}
        }
        if looks_like_a_pattern(&text) {
            let message = format!(
                "\"{text}\" is looked for as written, but it reads like a regular expression: write \
                 originalcomment ~~ \"{text}\" to match it as one, or \"{text}\" in originalcomment to look for \
                 it as written"
            );
            self.diagnostics.push(Diagnostic::new(text_span, message));
        }
        let word = Span::new(span.start, text_span.start);
        let comment = Expr { kind: ExprKind::OriginalComment, span: word };
        let looked_for = Expr { kind: ExprKind::Text(text), span: text_span };
        (ExprKind::Binary(BinaryOp::In, Box::new(looked_for), Box::new(comment)), 2)
    }

    /// `settag("Name" T)`.
    pub(super) fn set_tag(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let name_pair = pair.clone().into_inner().find(|part| part.as_rule() == Rule::string);
        let name_span = name_pair.as_ref().map(span_of);
        let name = string(name_pair);
        if let (Some(message), Some(span)) = (unsettable(&name), name_span) {
            self.diagnostics.push(Diagnostic::new(span, message));
        }
        let (value, depth) = self.filters(pair.into_inner()).pop().expect("grammar: settag has a value");
        (ExprKind::SetTag(name, Box::new(value)), depth + 1)
    }
}

impl Builder {
    /// `assert F`; `assert x` for a variable x asks that it has a value.
    pub(super) fn assert_filter(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let (filter, depth) = self.filters(pair.into_inner()).pop().expect("grammar: assert has a filter");
        let filter = match filter.kind {
            ExprKind::Variable { name, .. } => {
                Expr { kind: ExprKind::IsBound { name, bound: true }, span: filter.span }
            }
            // A function's definition matches as a filter, but CQL 6.2's `assert` fails on it.
            ExprKind::Word(Word::True)
                if self.source.get(filter.span.start..).is_some_and(|text| text.starts_with("function")) =>
            {
                Expr { kind: ExprKind::Word(Word::False), span: filter.span }
            }
            _ => filter,
        };
        (ExprKind::Assert(Box::new(filter)), depth + 1)
    }
}

/// `try`: exactly one position on the line from the game's start to here (this one included)
/// has Black to move after a move that begins a variation; as a filter untouched by transforms.
pub(super) fn try_word(span: Span) -> (ExprKind, u32) {
    let at = |kind: ExprKind| Expr { kind, span };
    let wanted = at(ExprKind::Block(vec![at(ExprKind::Word(Word::Btm)), at(ExprKind::Word(Word::Secondary))]));
    let found = at(ExprKind::Find {
        quantity: FindQuantity::All,
        backward: true,
        quiet: true,
        bounds: Vec::new(),
        body: Box::new(wanted),
    });
    let once = at(ExprKind::Binary(BinaryOp::Eq, Box::new(at(ExprKind::Number(1))), Box::new(found)));
    (ExprKind::NoTransform(Box::new(once)), 4)
}

/// What the text after `hascomment` names.
enum Glyph {
    /// A numeric annotation glyph.
    Number(u8),
    /// A glyph CQL 6.2 cannot look for, and why.
    Refused(String),
    /// No glyph: a text to look for in the comment.
    None,
}

/// The glyph a text names as CQL 6.2 reads it: the symbols `!`, `?`, `!!`, `??`, `!?`, `?!`,
/// `=`, `+/=`, `=/+`, `+/-`, `-/+`, `+-`, `-+`, or `$N` with N from 1 to 255.
fn glyph_named(text: &str) -> Glyph {
    let symbol = match text {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        "=" => 10,
        "+/=" => 14,
        "=/+" => 15,
        "+/-" => 16,
        "-/+" => 17,
        "+-" => 18,
        "-+" => 19,
        _ => 0,
    };
    if symbol > 0 {
        return Glyph::Number(symbol);
    }
    let Some(digits) = text.strip_prefix('$').filter(|digits| !digits.is_empty()) else { return Glyph::None };
    if !digits.bytes().all(|byte| byte.is_ascii_digit()) {
        return Glyph::None;
    }
    if text == "$0" {
        return Glyph::Refused("there is no glyph $0 to look for: glyphs are numbered from 1 to 255".to_owned());
    }
    match digits.parse::<u64>() {
        // `$00` is looked for as a text, as CQL 6.2 does.
        Ok(0) => Glyph::None,
        Ok(number) if number <= 255 => Glyph::Number(u8::try_from(number).unwrap_or(u8::MAX)),
        _ => Glyph::Refused(format!("there is no glyph {text} to look for: glyphs are numbered from 1 to 255")),
    }
}

/// Why `settag` may not give the tag `name`, if it may not (as CQL 6.2 judges).
fn unsettable(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("a tag's name cannot be empty".to_owned());
    }
    if !name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return Some(format!("'{name}' is no tag name: a name begins with a letter or a digit"));
    }
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Some(format!("'{name}' is no tag name: a name is made of letters, digits and '_'"));
    }
    if KEPT_TAGS.contains(&name) {
        return Some(format!(
            "settag cannot give the tag {name}: the game's players, event, site, dates, round, result, ECO \
             and FEN are kept apart from its other tags (CQL 6.2 refuses them too)"
        ));
    }
    if name.len() > "White".len() && (name.starts_with("White") || name.starts_with("Black")) {
        return Some(format!(
            "settag cannot give the tag {name}: CQL 6.2 gives no tag whose name begins as White or Black"
        ));
    }
    if name.len() > MAX_TAG_NAME {
        return Some(format!("settag gives tags of at most {MAX_TAG_NAME} characters, and {name} has {}", name.len()));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyphs_are_named_by_symbol_or_number() {
        assert!(matches!(glyph_named("!"), Glyph::Number(1)));
        assert!(matches!(glyph_named("-+"), Glyph::Number(19)));
        assert!(matches!(glyph_named("$14"), Glyph::Number(14)));
        assert!(matches!(glyph_named("$255"), Glyph::Number(255)));
        assert!(matches!(glyph_named("$0"), Glyph::Refused(_)));
        assert!(matches!(glyph_named("$256"), Glyph::Refused(_)));
        for text in ["$", "$x", "$00", "Carlsen", "!!!"] {
            assert!(matches!(glyph_named(text), Glyph::None), "{text}");
        }
    }

    #[test]
    fn settag_refuses_the_kept_tags() {
        assert_eq!(unsettable("Found"), None);
        assert_eq!(unsettable("round"), None);
        for name in ["", "_x", "a-b", "Event", "EVENT", "WhiteElo", "FEN"] {
            assert!(unsettable(name).is_some(), "{name}");
        }
        assert!(unsettable(&"x".repeat(61)).is_some());
    }
}
