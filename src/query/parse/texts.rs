//! Texts: the tag words, the functions of texts, `~~` and `[i:j]` after a text, and the texts
//! written outside quotes (`\n`, `\1`).

use pest::iterators::Pair;

use super::{Builder, Rule, span_of, string};
use crate::query::ast::{BinaryOp, DictionaryOp, Expr, ExprKind, GameFilter, Side, Span, TagWord, TextFunction};
use crate::query::check::{Type, type_of};
use crate::query::diagnostic::Diagnostic;

impl Builder {
    /// `event`, `player white`, `tag "Name"` and the other tag words, with the text looked for
    /// when one follows. In a comment's parts, where `search` is false, a text after a tag word
    /// is a part of its own (`message(event " " site)`), as CQL 6.2 reads it.
    pub(super) fn tag_value(&mut self, pair: Pair<'_, Rule>, search: bool) -> Vec<(ExprKind, Span)> {
        let span = span_of(&pair);
        let mut tag = None;
        let mut side = None;
        let mut looked_for = None;
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::tag_name => {
                    tag = Some(match part.as_str() {
                        "event" => TagWord::Event,
                        "site" => TagWord::Site,
                        "date" => TagWord::Date,
                        "eventdate" => TagWord::EventDate,
                        _ => TagWord::Eco,
                    });
                }
                Rule::side => side = Some(if part.as_str() == "white" { Side::White } else { Side::Black }),
                Rule::string => tag = Some(self.named_tag(part)),
                Rule::tag_search => looked_for = Some(part),
                _ => {}
            }
        }
        let tag = tag.unwrap_or(TagWord::Player(side));
        match looked_for {
            Some(text) if search => {
                let text = string(text.into_inner().next());
                vec![(ExprKind::Game(GameFilter::Holds { tag, text }), span)]
            }
            Some(text) => {
                let text_span = span_of(&text);
                let word = Span::new(span.start, text_span.start);
                vec![(ExprKind::Tag(tag), word), (ExprKind::Text(string(text.into_inner().next())), text_span)]
            }
            None => vec![(ExprKind::Tag(tag), span)],
        }
    }

    /// The name of `tag "Name"`: not empty, and (as in CQL 6.2) none that begins as `White` or
    /// `Black` but those two.
    fn named_tag(&mut self, pair: Pair<'_, Rule>) -> TagWord {
        let span = span_of(&pair);
        let name = string(Some(pair));
        let refused = if name.is_empty() {
            Some("a tag's name cannot be empty".to_owned())
        } else if name.chars().any(|c| !(c.is_ascii_alphanumeric() || c == '_')) {
            Some(format!("'{name}' is no tag name: a name is made of letters, digits and '_'"))
        } else if ["White", "Black"].iter().any(|side| name.starts_with(side) && name != *side) {
            Some(format!("'{name}' cannot be read as a tag: CQL 6.2 reads no tag whose name begins as White or Black"))
        } else {
            None
        };
        if let Some(message) = refused {
            self.diagnostics.push(Diagnostic::new(span, message));
        }
        match name.as_str() {
            "Event" => TagWord::Event,
            "Site" => TagWord::Site,
            "Date" => TagWord::Date,
            "EventDate" => TagWord::EventDate,
            "ECO" => TagWord::Eco,
            "White" => TagWord::Player(Some(Side::White)),
            "Black" => TagWord::Player(Some(Side::Black)),
            _ => TagWord::Named(name),
        }
    }

    /// `lowercase T`, `uppercase T`, `int T`, `ascii T`, `readfile T`.
    pub(super) fn text_function(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let start = span_of(&pair).start;
        let mut inner = pair.into_inner();
        let function = match inner.next().map(|word| word.as_str()) {
            Some("lowercase") => TextFunction::Lowercase,
            Some("uppercase") => TextFunction::Uppercase,
            Some("int") => TextFunction::Int,
            Some("ascii") => TextFunction::Ascii,
            _ => TextFunction::ReadFile,
        };
        let argument = inner.next().expect("grammar: a text function takes an argument");
        let (arg, depth) = self.operators(argument.into_inner());
        // As CQL 6.2 reads it, the argument's sum stops where a term of the other type begins:
        // `ascii 66 + "a"` is `(ascii 66) + "a"`.
        let (arg, rest) = split_sum(arg);
        let mut span = Span::new(start, arg.span.end);
        let mut kind = ExprKind::TextFunction { function, arg: Box::new(arg) };
        for (op, term) in rest {
            let joined = span.join(term.span);
            kind = ExprKind::Binary(op, Box::new(Expr { kind, span }), Box::new(term));
            span = joined;
        }
        (kind, depth + 1)
    }

    /// `str X` and `str(X Y ...)`.
    pub(super) fn str_filter(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let span = span_of(&pair);
        let (parts, depth) = self.text_parts(pair.into_inner());
        if parts.is_empty() {
            self.diagnostics.push(Diagnostic::new(span, "str() needs something to write inside"));
        }
        (ExprKind::Str(parts), depth + 1)
    }

    /// `T ~~ "re"` and `T[i:j]` after the text built so far.
    /// A name with its parts or keys glued after it: `x[1:3]`, `D[k]`.
    pub(super) fn subscripted(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let mut parts = pair.into_inner();
        let name = parts.next().expect("grammar: a subscripted name");
        let mut expr = Expr { kind: self.variable(&name), span: span_of(&name) };
        let mut depth = 1;
        for slice in parts {
            (expr, depth) = self.postfix(expr, depth, slice);
        }
        (expr.kind, depth)
    }

    pub(super) fn postfix(&mut self, text: Expr, depth: u32, op: Pair<'_, Rule>) -> (Expr, u32) {
        let op_span = span_of(&op);
        let span = text.span.join(op_span);
        let text = Box::new(text);
        match op.as_rule() {
            Rule::op_match => {
                let pattern = string(op.into_inner().next());
                (Expr { kind: ExprKind::RegexMatch { text, pattern }, span }, depth + 1)
            }
            _ => {
                let (mut start, mut end, mut range) = (None, None, false);
                let mut bounds_depth = 0;
                if let ExprKind::Dictionary { name, op: DictionaryOp::Declare, .. } = &text.kind {
                    let key =
                        op.into_inner().find(|part| matches!(part.as_rule(), Rule::slice_start | Rule::slice_key));
                    let (key, key_depth) = self.operators(key.expect("grammar: a key").into_inner());
                    let kind = self.dictionary_entry(name.clone(), key);
                    return (Expr { kind, span }, depth.max(key_depth) + 1);
                }
                for part in op.into_inner() {
                    let rule = part.as_rule();
                    if rule == Rule::slice_key {
                        self.diagnostics
                            .push(Diagnostic::new(span_of(&part), "a text's part is given by numbers: [i] or [i:j]"));
                        continue;
                    }
                    if rule == Rule::slice_colon {
                        range = true;
                        continue;
                    }
                    if !matches!(rule, Rule::slice_start | Rule::slice_end) {
                        continue;
                    }
                    let (bound, bound_depth) = self.operators(part.into_inner());
                    bounds_depth = bounds_depth.max(bound_depth);
                    if rule == Rule::slice_start {
                        start = Some(Box::new(bound));
                    } else {
                        end = Some(Box::new(bound));
                    }
                }
                if start.is_none() && !range {
                    self.diagnostics.push(Diagnostic::new(
                        op_span,
                        "'[' after a text takes an index such as [0] or a range such as [1:3]",
                    ));
                }
                (Expr { kind: ExprKind::Substring { text, start, end, range }, span }, depth.max(bounds_depth) + 1)
            }
        }
    }
}

/// A sum `a + b + c` as its longest first part whose terms are of one type (numbers, or
/// texts), and the terms after it with their operators.
fn split_sum(sum: Expr) -> (Expr, Vec<(BinaryOp, Expr)>) {
    let mut terms = Vec::new();
    let mut first = sum;
    while let ExprKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub), ..) = first.kind {
        let ExprKind::Binary(_, left, right) = first.kind else { unreachable!("matched just above") };
        terms.push((op, *right));
        first = *left;
    }
    terms.reverse();
    let text = type_of(&first) == Type::Text;
    let fits = terms.iter().take_while(|(_, term)| (type_of(term) == Type::Text) == text).count();
    let rest = terms.split_off(fits);
    let mut whole = first;
    for (op, term) in terms.drain(..) {
        let span = whole.span.join(term.span);
        whole = Expr { kind: ExprKind::Binary(op, Box::new(whole), Box::new(term)), span };
    }
    (whole, rest)
}

/// `\n`, `\t`, `\r`, `\"` and `\\` outside quotes: texts of one character.
pub(super) fn text_escape(text: &str) -> ExprKind {
    let character = match text.as_bytes().get(1) {
        Some(b'n') => "\n",
        Some(b't') => "\t",
        Some(b'r') => "\r",
        Some(b'"') => "\"",
        _ => "\\",
    };
    ExprKind::Text(character.to_owned())
}

/// `\N`: what group N of the last `~~` matched; `\-N`: where it begins.
pub(super) fn regex_group(text: &str) -> ExprKind {
    let start = text.as_bytes().get(1) == Some(&b'-');
    let digits = text.trim_start_matches(['\\', '-']);
    ExprKind::RegexGroup { group: digits.parse().unwrap_or(0), start }
}
