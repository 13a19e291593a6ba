//! Functions: `function name(a b) { body }` defines one, `name(x y)` calls it. As in CQL 6.2, a
//! call is its body read again where it stands, each parameter standing for its argument: a
//! variable given as an argument is the parameter itself (the body may change it); any other
//! argument is worked out first, at the calling position, into a variable of the call's own.

use std::collections::HashMap;

use pest::iterators::Pair;

use super::{Builder, Rule, TEXT_OFFSET, parse_rule, span_of};
use crate::query::ast::{AssignOp, Expr, ExprKind, Lasting, Span, Word};
use crate::query::check::type_of;
use crate::query::diagnostic::{Diagnostic, quoted};

/// The most calls that may be open inside one another: a function that calls itself would
/// never end.
const MAX_CALL_DEPTH: usize = 32;

/// The most calls a query's text may come to once each is read in: calls that each make two
/// (`function f() { f() f() }`) double at every level.
const MAX_CALLS: usize = 2_000;

/// A function's parameters and the text of its body (a block), where it stands in the query.
#[derive(Clone, Debug)]
pub(super) struct Function {
    params: Vec<String>,
    body: String,
    start: usize,
}

impl Builder {
    /// `function name(a b) { body }`: kept to be read at each call; the definition itself is a
    /// filter that always matches.
    pub(super) fn function_def(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let mut names = Vec::new();
        let mut body = None;
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::variable_word => {
                    self.refuse_piece_letter_name(&part);
                    names.push(part.as_str().to_owned());
                }
                Rule::block => body = Some((part.as_str().to_owned(), span_of(&part).start)),
                _ => {}
            }
        }
        let (body, start) = body.expect("grammar: a function has a body");
        self.check_paths_in(Span::new(start, start + body.len()));
        let name = names.remove(0);
        self.functions.insert(name, Function { params: names, body, start });
        (ExprKind::Word(Word::True), 1)
    }

    /// `name(x y)`: the function's body, its parameters standing for the arguments.
    pub(super) fn function_call(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let span = span_of(&pair);
        let mut parts = pair.into_inner();
        let name = self.resolve(parts.next().expect("grammar: a call names its function").as_str());
        let arguments: Vec<(Expr, u32)> =
            parts.filter(|part| part.as_rule() == Rule::filter).map(|part| self.operators(part.into_inner())).collect();
        let Some(function) = self.functions.get(&name).cloned() else {
            self.diagnostics.push(Diagnostic::new(span, format!("unknown function {}", quoted(&name))));
            return (ExprKind::Word(Word::False), 1);
        };
        if arguments.len() != function.params.len() {
            let message = format!(
                "{} takes {} arguments, and this call gives {}",
                quoted(&name),
                function.params.len(),
                arguments.len()
            );
            self.diagnostics.push(Diagnostic::new(span, message));
            return (ExprKind::Word(Word::False), 1);
        }
        if self.calls > MAX_CALLS {
            // Calls that never end or grow too fast: said once, and read no further.
            return (ExprKind::Word(Word::False), 1);
        }
        if self.aliases.len() >= MAX_CALL_DEPTH {
            let message = format!("{} calls itself, or calls go {MAX_CALL_DEPTH} deep: that never ends", quoted(&name));
            self.diagnostics.push(Diagnostic::new(span, message));
            self.calls = MAX_CALLS + 1;
            return (ExprKind::Word(Word::False), 1);
        }
        self.calls += 1;
        if self.calls > MAX_CALLS {
            let message = format!(
                "the calls of {} come to more than {MAX_CALLS} calls once each is read in: calls that each make \
                 several grow too fast",
                quoted(&name)
            );
            self.diagnostics.push(Diagnostic::new(span, message));
            return (ExprKind::Word(Word::False), 1);
        }
        let mut filters = Vec::new();
        let mut aliases = HashMap::new();
        let mut depth = 0;
        for (index, (param, (argument, argument_depth))) in function.params.iter().zip(arguments).enumerate() {
            depth = depth.max(argument_depth);
            match &argument.kind {
                // A variable written alone is passed as itself (in parentheses, as a copy).
                ExprKind::Variable { name: variable, .. } if argument.span.text(&self.source) == variable => {
                    aliases.insert(param.clone(), variable.clone());
                }
                _ => {
                    let hidden = format!("{name}({param}#{index}@{})", span.start);
                    self.variables.insert(hidden.clone(), type_of(&argument));
                    aliases.insert(param.clone(), hidden.clone());
                    let assign_span = argument.span;
                    let kind = ExprKind::Assign {
                        name: hidden,
                        op: AssignOp::Set,
                        value: Box::new(argument),
                        lasting: Lasting::Game,
                    };
                    filters.push(Expr { kind, span: assign_span });
                }
            }
        }
        self.aliases.push(aliases);
        let body = self.function_body(&function);
        self.aliases.pop();
        if let Some((body, body_depth)) = body {
            depth = depth.max(body_depth);
            filters.push(body);
        }
        (ExprKind::Block(filters), depth + 1)
    }

    /// The function's body, read where it stands in the query.
    fn function_body(&mut self, function: &Function) -> Option<(Expr, u32)> {
        let mut pairs = parse_rule(Rule::block, &function.body).ok()?;
        let block = pairs.next()?;
        let outer = TEXT_OFFSET.replace(function.start);
        let items = self.items(block.into_inner());
        TEXT_OFFSET.set(outer);
        let span = Span::new(function.start, function.start + function.body.len());
        Some((Expr { kind: ExprKind::Block(items.filters), span }, items.depth + 1))
    }
}

/// Closes the gap between a function's name and the `(` of a call (`f (x)`, which CQL 6.2
/// reads as a call) by moving the `(` up to the name and the white space after it: the text
/// keeps its length, and every span after the call stays true. Names are the query's
/// `function` definitions; comments and quoted texts are left alone.
pub(super) fn close_call_gaps(text: &mut [u8]) {
    let words = code_words(text);
    let defined: Vec<&[u8]> = words
        .windows(2)
        .filter(|pair| &text[pair[0].0..pair[0].1] == b"function")
        .map(|pair| &text[pair[1].0..pair[1].1])
        .collect();
    if defined.is_empty() {
        return;
    }
    let gaps: Vec<(usize, usize)> = words
        .iter()
        .filter(|&&(start, end)| defined.contains(&&text[start..end]))
        .filter_map(|&(_, end)| {
            let gap = text[end..].iter().take_while(|byte| byte.is_ascii_whitespace()).count();
            (gap > 0 && text.get(end + gap) == Some(&b'(')).then_some((end, gap))
        })
        .collect();
    for (end, gap) in gaps {
        text[end..=end + gap].rotate_right(1);
    }
}

/// The words (names and keywords) of a query's text outside comments and quoted texts, as
/// (start, end) byte offsets.
pub(super) fn code_words(text: &[u8]) -> Vec<(usize, usize)> {
    let is_word = |byte: u8| byte.is_ascii_alphanumeric() || byte == b'_';
    let mut words = Vec::new();
    let mut at = 0;
    while at < text.len() {
        match text[at] {
            b'/' if text.get(at + 1) == Some(&b'/') => {
                at = text[at..].iter().position(|&byte| byte == b'\n').map_or(text.len(), |end| at + end);
            }
            b'/' if text.get(at + 1) == Some(&b'*') => {
                at = text[at + 2..].windows(2).position(|pair| pair == b"*/").map_or(text.len(), |end| at + end + 4);
            }
            b'\\' => at += 2,
            b'"' => {
                at = text[at + 1..].iter().position(|&byte| byte == b'"').map_or(text.len(), |end| at + end + 2);
            }
            byte if is_word(byte) => {
                let end = text[at..].iter().position(|&byte| !is_word(byte)).map_or(text.len(), |end| at + end);
                words.push((at, end));
                at = end;
            }
            _ => at += 1,
        }
    }
    words
}
