//! Texts: the tag words, the functions of texts, `~~` and `[i:j]` after a text, and the texts
//! written outside quotes (`\n`, `\1`).

use pest::iterators::Pair;

use super::climb::{Postfix, Slice};
use super::{Builder, Rule, placeholder, span_of, string};
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

    /// A name with its parts or keys glued after it: `x[1:3]`, `D[k]`.
    pub(super) fn subscripted(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let mut parts = pair.into_inner();
        let name = parts.next().expect("grammar: a subscripted name");
        let mut expr = Expr { kind: self.variable(&name), span: span_of(&name) };
        let mut depth = 1;
        for slice in parts {
            let postfix = self.postfix_parts(slice);
            (expr, depth) = self.apply_postfix(expr, depth, postfix);
        }
        (expr.kind, depth)
    }

    /// The parts of a text's `~~ "re"` or `[i:j]` (or a dictionary's `[key]`), built before
    /// what it applies to is known.
    pub(super) fn postfix_parts(&mut self, op: Pair<'_, Rule>) -> Postfix {
        let span = span_of(&op);
        if op.as_rule() == Rule::op_match {
            return Postfix::Match { pattern: string(op.into_inner().next()), span };
        }
        let mut slice = Slice { span, start: None, end: None, colon: false, key: None };
        self.outside_path_parentheses(|builder| {
            for part in op.into_inner() {
                match part.as_rule() {
                    Rule::slice_colon => slice.colon = true,
                    Rule::slice_key => {
                        let key_span = span_of(&part);
                        let filter = part.into_inner().next().expect("grammar: a key is a filter");
                        let (key, depth) = builder.operators(filter.into_inner());
                        slice.key = Some((key, depth, key_span));
                    }
                    Rule::slice_start => slice.start = Some(builder.operators(part.into_inner())),
                    Rule::slice_end => slice.end = Some(builder.operators(part.into_inner())),
                    _ => {}
                }
            }
        });
        Postfix::Slice(Box::new(slice))
    }

    /// `text ~~ "re"`, `text[i:j]`, or a dictionary's `D[key]`.
    pub(super) fn apply_postfix(&mut self, text: Expr, depth: u32, postfix: Postfix) -> (Expr, u32) {
        let mut slice = match postfix {
            Postfix::Match { pattern, span } => {
                let span = text.span.join(span);
                return (Expr { kind: ExprKind::RegexMatch { text: Box::new(text), pattern }, span }, depth + 1);
            }
            Postfix::Slice(slice) => *slice,
        };
        let span = text.span.join(slice.span);
        if let ExprKind::Dictionary { name, op: DictionaryOp::Declare, .. } = &text.kind {
            // `D[P : x]`: the key is x at the position P.
            let key = match (slice.start, slice.end) {
                (Some((mut start, left)), Some((body, right))) if slice.colon => {
                    // `:` binds tighter than the operators before it: `D[sqrt P : x]` is
                    // `D[sqrt (P : x)]`.
                    let position = rightmost_operand(&mut start);
                    let span = position.span.join(body.span);
                    let taken = std::mem::replace(position, placeholder(Span::default()));
                    *position = Expr { kind: ExprKind::At { position: Box::new(taken), body: Box::new(body) }, span };
                    grow_to(&mut start, span.end);
                    Some((start, left.max(right) + 1))
                }
                (start, _) => start,
            };
            let key = key.or(slice.key.map(|(key, key_depth, _)| (key, key_depth)));
            let (key, key_depth) = key.expect("grammar: a key");
            let kind = self.dictionary_entry(name.clone(), key);
            return (Expr { kind, span }, depth.max(key_depth) + 1);
        }
        if slice.start.is_none() && !slice.colon {
            // An index written as a whole filter (`t[#a1 & a1]`) is a number all the same.
            if let Some((key, key_depth, _)) = slice.key.take_if(|(key, ..)| type_of(key) == Type::Number) {
                slice.start = Some((key, key_depth));
            }
        }
        if let Some((_, _, key_span)) = slice.key {
            self.diagnostics.push(Diagnostic::new(key_span, "a text's part is given by numbers: [i] or [i:j]"));
        }
        if slice.start.is_none() && !slice.colon {
            self.diagnostics.push(Diagnostic::new(
                slice.span,
                "'[' after a text takes an index such as [0] or a range such as [1:3]",
            ));
        }
        let bounds_depth = slice.start.iter().chain(&slice.end).map(|(_, depth)| *depth).max().unwrap_or(0);
        let start = slice.start.map(|(start, _)| Box::new(start));
        let end = slice.end.map(|(end, _)| Box::new(end));
        let kind = ExprKind::Substring { text: Box::new(text), start, end, range: slice.colon };
        (Expr { kind, span }, depth.max(bounds_depth) + 1)
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

/// The operand written last in `expr`, below its prefix and infix operators.
fn rightmost_operand(expr: &mut Expr) -> &mut Expr {
    match expr.kind {
        ExprKind::Unary(_, ref mut operand) | ExprKind::Binary(_, _, ref mut operand) => rightmost_operand(operand),
        _ => expr,
    }
}

/// `expr` and the operands written last in it, their spans grown to end at `end`.
fn grow_to(expr: &mut Expr, end: usize) {
    expr.span.end = expr.span.end.max(end);
    if let ExprKind::Unary(_, operand) | ExprKind::Binary(_, _, operand) = &mut expr.kind {
        grow_to(operand, end);
    }
}
