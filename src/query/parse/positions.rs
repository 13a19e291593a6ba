//! The filters about the positions of a game: `find`, and the words that name positions.

use pest::iterators::Pair;

use super::{Builder, Rule, TEXT_OFFSET, build_pieces, paren_after, parse_rule, span_of, string};
use crate::query::ast::Word;
use crate::query::ast::{
    DashWhen, Direction, Expr, ExprKind, FindQuantity, MoveFilter, MoveSquare, MoveWhen, PositionWord, Span, TextPart,
};
use crate::query::check::{Type, type_of};
use crate::query::diagnostic::Diagnostic;

impl Builder {
    /// `echo [quiet] (S T) [in all] F`: S and T name positions from here on.
    pub(super) fn echo_filter(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let (mut quiet, mut all) = (false, false);
        let mut names = Vec::new();
        let mut body = None;
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::kw_quiet => quiet = true,
                Rule::kw_all => all = true,
                Rule::variable_word => {
                    let name = part.as_str().to_owned();
                    self.declare(&name, Type::Position, span_of(&part), false);
                    names.push(name);
                }
                Rule::filter => body = Some(self.operators(part.into_inner())),
                _ => {}
            }
        }
        let (body, depth) = body.expect("grammar: echo takes a filter");
        let target = names.pop().expect("grammar: echo names two positions");
        let source = names.pop().expect("grammar: echo names two positions");
        (ExprKind::Echo { source, target, all, quiet, body: Box::new(body) }, depth + 1)
    }

    /// The move dash `X--Y`, `X[x]Y`, with `=P` and `(F ...)`.
    pub(super) fn dash_filter(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        // `d4-- (F)`: a target must touch the dash; CQL 6.2 refuses a parenthesis after a space
        // there, or after the target, which look like targets but would be the next filter.
        if let Some(paren) = paren_after(&pair) {
            let message = if pair.as_str().ends_with(')') {
                "a '(' right after a dash's target looks like a second target: CQL 6.2 refuses it"
            } else {
                "no space may come between '--' and the '(' of its target: write --(F)"
            };
            self.diagnostics.push(Diagnostic::new(paren, message));
        }
        self.dash_parts(pair.into_inner())
    }

    /// A dash from its parts: its squares, sign, promotion and target.
    pub(super) fn dash_parts<'i>(&mut self, parts: impl Iterator<Item = Pair<'i, Rule>>) -> (ExprKind, u32) {
        let (mut from, mut to, mut capture, mut promote, mut target) = (None, None, false, None, None);
        let mut depth = 0;
        let mut before_sign = true;
        for part in parts {
            match part.as_rule() {
                Rule::designator | Rule::variable | Rule::dash_group => {
                    let (operand, operand_depth) = match part.as_rule() {
                        Rule::dash_group => self.dash_group(&part),
                        _ => self.operand(part),
                    };
                    depth = depth.max(operand_depth);
                    if before_sign { from = Some(Box::new(operand)) } else { to = Some(Box::new(operand)) }
                }
                Rule::dash_sign => {
                    before_sign = false;
                    capture = matches!(part.as_str(), "[x]" | "×");
                }
                Rule::dash_promotion => {
                    let span = span_of(&part);
                    promote = Some(Box::new(Expr { kind: ExprKind::Pieces(build_pieces(part)), span }));
                }
                Rule::dash_target => {
                    let span = span_of(&part);
                    let items = self.items(part.into_inner());
                    depth = depth.max(items.depth);
                    target = Some(Box::new(Expr { kind: ExprKind::Block(items.filters), span }));
                }
                _ => {}
            }
        }
        (ExprKind::Dash { from, to, capture, promote, target, when: DashWhen::Next }, depth + 1)
    }

    /// `legal X--Y` and `pseudolegal X--Y`: the squares reached by the moves of the position
    /// from X to Y (with a target of `o-o`, `o-o-o`, `castle` or `enpassant`, only such moves);
    /// with `count`, how many there are.
    pub(super) fn legal_dash(&mut self, pair: Pair<'_, Rule>, count: bool) -> (ExprKind, u32) {
        let span = span_of(&pair);
        let mut parts = pair.into_inner();
        let when = match parts.next().map(|word| word.as_str()) {
            Some("legal") => MoveWhen::Legal,
            _ => MoveWhen::PseudoLegal,
        };
        let dash = parts.next().expect("grammar: a dash after legal");
        let (kind, depth) = self.dash_filter(dash);
        let ExprKind::Dash { from, to, capture, promote, target, .. } = kind else {
            unreachable!("parse: a dash filter is a dash")
        };
        let mut filter =
            MoveFilter { from, to, value: MoveSquare::To, count, set_in_cql: true, ..MoveFilter::any(when) };
        if capture {
            self.diagnostics.push(Diagnostic::new(span, "'legal' and 'pseudolegal' take a '--' dash, not a capture"));
        }
        if promote.is_some() {
            self.diagnostics.push(Diagnostic::new(span, "'legal' and 'pseudolegal' take no promotion after the dash"));
        }
        if let Some(target) = target {
            let kinds = match &target.kind {
                ExprKind::Block(filters) => filters.iter().map(|filter| &filter.kind).collect(),
                kind => vec![kind],
            };
            match kinds[..] {
                [ExprKind::Move(played)]
                    if played.when == MoveWhen::Previous
                        && played
                            == &MoveFilter {
                                castle: played.castle,
                                en_passant: played.en_passant,
                                ..MoveFilter::any(MoveWhen::Previous)
                            } =>
                {
                    filter.castle = played.castle;
                    filter.en_passant = played.en_passant;
                }
                _ => self.diagnostics.push(Diagnostic::new(
                    target.span,
                    "after 'legal --' the target can only be one of 'o-o', 'o-o-o', 'castle' and 'enpassant'",
                )),
            }
        }
        (ExprKind::Move(filter), depth + 1)
    }

    /// `countmoves X--Y`, `countmoves legal X--Y`: how many moves fit.
    pub(super) fn countmoves(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let inner = pair.into_inner().nth(1).expect("grammar: a dash after countmoves");
        if inner.as_rule() == Rule::legal_dash {
            return self.legal_dash(inner, true);
        }
        self.dash_when(inner, DashWhen::Count)
    }

    /// `currentmove X--Y` and `previous X--Y`: the move that led here fits the dash.
    pub(super) fn previous_dash(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let inner = pair.into_inner().nth(1).expect("grammar: a dash after currentmove");
        self.dash_when(inner, DashWhen::Previous)
    }

    /// The dash of `pair`, about the move `when` says.
    fn dash_when(&mut self, pair: Pair<'_, Rule>, when: DashWhen) -> (ExprKind, u32) {
        let (kind, depth) = self.dash_filter(pair);
        let ExprKind::Dash { from, to, capture, promote, target, .. } = kind else {
            unreachable!("parse: a dash filter is a dash")
        };
        (ExprKind::Dash { from, to, capture, promote, target, when }, depth)
    }

    /// `consecutivemoves [quiet] [N [M]] (x y)`. As in CQL 6.2, its names are position
    /// variables, made so when they are new.
    pub(super) fn consecutive_moves(&mut self, pair: Pair<'_, Rule>) -> ExprKind {
        let mut bounds = Vec::new();
        let mut positions = Vec::new();
        let mut quiet = false;
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::kw_quiet => quiet = true,
                Rule::number => bounds.push(part.as_str().parse().unwrap_or(i64::MAX)),
                Rule::variable_word => {
                    let name = self.resolve(part.as_str());
                    let span = span_of(&part);
                    self.variables.entry(name.clone()).or_insert(Type::Position);
                    let ty = self.variables[&name];
                    positions.push(Expr { kind: ExprKind::Variable { name, ty }, span });
                }
                _ => {}
            }
        }
        let [first, second] = <[Expr; 2]>::try_from(positions).expect("grammar: two names");
        let (min, max) = if bounds.is_empty() { (0, None) } else { super::exact_or_range(&bounds) };
        ExprKind::ConsecutiveMoves { positions: Box::new((first, second)), min, max, quiet }
    }

    /// The set in parentheses before a dash, `(R|Q)--e4`, read as a filter.
    fn dash_group(&mut self, pair: &Pair<'_, Rule>) -> (Expr, u32) {
        let span = span_of(pair);
        let text = pair.as_str().to_owned();
        let outer = TEXT_OFFSET.replace(span.start);
        let parsed = match parse_rule(Rule::parenthesized, &text) {
            Ok(mut pairs) => pairs.next().map(|group| self.operand(group)),
            Err(_) => None,
        };
        TEXT_OFFSET.set(outer);
        parsed.unwrap_or_else(|| {
            self.diagnostics.push(Diagnostic::new(span, "the set before this dash could not be read"));
            (Expr { kind: ExprKind::Word(Word::True), span }, 1)
        })
    }

    /// `/// F G ...`: `comment(F G ...)`, its arguments running to the end of the line.
    pub(super) fn slash_comment(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let span = span_of(&pair);
        let text = pair.into_inner().next().map_or("", |text| text.as_str()).to_owned();
        let parsed = parse_rule(Rule::comment_args, &text);
        let Ok(mut pairs) = parsed else {
            self.diagnostics.push(Diagnostic::new(
                span,
                "'///' writes the filters and texts after it on its line: these could not be read",
            ));
            return (ExprKind::Word(Word::True), 1);
        };
        let outer = TEXT_OFFSET.replace(span.start + 3);
        let (parts, depth) = self.text_parts(pairs.next().map(Pair::into_inner).into_iter().flatten());
        TEXT_OFFSET.set(outer);
        if parts.is_empty() {
            self.diagnostics.push(Diagnostic::new(span, "'///' needs something to write after it on its line"));
        }
        (ExprKind::Comment { message: false, quiet: false, parts }, depth + 1)
    }

    /// `comment(...)`, `message [quiet] (...)`.
    pub(super) fn comment_filter(&mut self, pair: Pair<'_, Rule>) -> (ExprKind, u32) {
        let message = pair.clone().into_inner().any(|part| part.as_rule() == Rule::kw_message);
        let quiet = pair.clone().into_inner().any(|part| part.as_rule() == Rule::kw_quiet);
        let (parts, depth) = self.text_parts(pair.into_inner());
        (ExprKind::Comment { message, quiet, parts }, depth + 1)
    }

    /// The texts and the values among the pairs, in order, with the depth of the deepest value.
    /// A tag word, `fen` or `hascomment` followed by a text is two parts here
    /// (`message(event " " site)`, `str(fen " now")`), as CQL 6.2 reads them.
    pub(super) fn text_parts<'i>(&mut self, pairs: impl Iterator<Item = Pair<'i, Rule>>) -> (Vec<TextPart>, u32) {
        let mut parts = Vec::new();
        let mut depth = 0;
        let mut in_parentheses = true;
        for part in pairs {
            match part.as_rule() {
                Rule::kw_comment | Rule::kw_message => in_parentheses = false,
                Rule::open_paren => in_parentheses = true,
                Rule::string => parts.push(TextPart::Text(string(Some(part)))),
                Rule::fen_before_text | Rule::comment_before_text => {
                    let kind = if part.as_rule() == Rule::fen_before_text {
                        ExprKind::CurrentFen
                    } else {
                        ExprKind::OriginalComment
                    };
                    parts.push(TextPart::Value(Expr { kind, span: span_of(&part) }));
                    depth = depth.max(1);
                }
                Rule::tag_before_text => {
                    for (kind, span) in self.tag_value(part, false) {
                        parts.push(match kind {
                            ExprKind::Text(text) => TextPart::Text(text),
                            kind => TextPart::Value(Expr { kind, span }),
                        });
                    }
                    depth = depth.max(1);
                }
                Rule::filter => {
                    // A function's definition is written as its name not yet bound, as CQL
                    // 6.2 writes it.
                    let definition = defined_function(&part);
                    let built = self.operators(part.into_inner());
                    if let Some(name) = definition {
                        parts.push(TextPart::Text(format!("<unbound: {name}>")));
                        depth = depth.max(built.1);
                        continue;
                    }
                    // One filter without parentheses leaves what it does not take to the filter
                    // around (`line --> comment "a" : true`), as CQL 6.2 does.
                    let (expr, expr_depth) = if in_parentheses { self.bind_untaken(built) } else { built };
                    depth = depth.max(expr_depth);
                    // `"a" - 1` is two parts, `"a"` and `-1`; so are `check - 1` and
                    // `currentposition - 1`.
                    for expr in super::minus::split_at_dangling_minus(expr, &self.source) {
                        parts.push(match expr.kind {
                            ExprKind::Text(text) => TextPart::Text(text),
                            _ => TextPart::Value(expr),
                        });
                    }
                }
                _ => {}
            }
        }
        (parts, depth)
    }

    /// The bounds of `N [M]` before a filter (`find 2 5`, `flip 2 8`): numbers or variables.
    /// A range of two numbers that runs backwards (`find 5 3`) is a mistake: it would match
    /// nothing.
    pub(super) fn count_range(&mut self, range: Pair<'_, Rule>) -> Vec<Expr> {
        let span = span_of(&range);
        let bounds: Vec<Expr> = range.into_inner().map(|bound| self.range_bound(bound)).collect();
        if let [Expr { kind: ExprKind::Number(low), .. }, Expr { kind: ExprKind::Number(high), .. }] = &bounds[..]
            && high < low
        {
            let message = format!("the range {low} {high} runs backwards and matches nothing: write {high} {low}");
            self.diagnostics.push(Diagnostic::new(span, message));
        }
        bounds
    }

    /// A bound of a range: a number (with its sign) or a variable.
    pub(super) fn range_bound(&mut self, bound: Pair<'_, Rule>) -> Expr {
        let bound = bound.into_inner().next().expect("grammar: a bound is a number or a variable");
        let span = span_of(&bound);
        let kind = match bound.as_rule() {
            Rule::number => ExprKind::Number(i64::from(self.small_number(&bound))),
            Rule::signed_number => ExprKind::Number(bound.as_str().parse().unwrap_or_else(|_| {
                self.diagnostics.push(Diagnostic::new(span, "this number is too large"));
                0
            })),
            _ => {
                self.settle_bound(bound.as_str(), span);
                self.variable(&bound)
            }
        };
        Expr { kind, span }
    }

    /// A variable read as a range's bound that holds no number (`southwest piece_var`) is the
    /// set after the range's keyword, as CQL 6.2 reads it: the query is read again with a
    /// `stop` before it.
    fn settle_bound(&mut self, name: &str, span: Span) {
        let holds_other = self.variables.get(name).is_some_and(|kind| *kind != Type::Number);
        let after_space = span.start.checked_sub(1).and_then(|before| self.source.as_bytes().get(before));
        if holds_other && after_space.is_some_and(u8::is_ascii_whitespace) {
            self.strays.push(span.start);
        }
    }

    /// `find [all | N [M]] [<--] [quiet] F`. Like a transform, `find` takes the whole filter
    /// after it; but where that filter is a comparison or arithmetic on a filter that has no
    /// value (`find all check and btm > 30`), `find all` counts that filter and the operator
    /// applies to the count, as CQL 6.2 reads it.
    pub(super) fn find_filter(&mut self, pair: Pair<'_, Rule>, start: usize) -> (ExprKind, u32) {
        let mut quantity = FindQuantity::First;
        let (mut backward, mut quiet) = (false, false);
        let mut bounds = Vec::new();
        let mut body = None;
        for part in pair.into_inner() {
            match part.as_rule() {
                Rule::kw_all => quantity = FindQuantity::All,
                Rule::kw_count => quantity = FindQuantity::Count,
                Rule::count_range => {
                    quantity = FindQuantity::Range;
                    bounds = self.count_range(part);
                }
                Rule::backward => backward = true,
                Rule::kw_quiet => quiet = true,
                Rule::filter => body = Some(self.operators(part.into_inner())),
                _ => {}
            }
        }
        let (body, depth) = body.expect("grammar: find takes a filter");
        (find_of(&Find { quantity, backward, quiet, bounds }, body, start), depth + 1)
    }
}

/// A `find`'s options.
struct Find {
    quantity: FindQuantity,
    backward: bool,
    quiet: bool,
    bounds: Vec<Expr>,
}

fn find_of(find: &Find, body: Expr, start: usize) -> ExprKind {
    let quantity = find.quantity;
    if quantity == FindQuantity::First && opens_with_loose_colon(&body) {
        return hoist_colon(find, body, start).kind;
    }
    match body.kind {
        ExprKind::Binary(op, left, right)
            if quantity != FindQuantity::First
                && (op.is_comparison() || op.is_arithmetic())
                && type_of(&left) == Type::Filter =>
        {
            let span = Span::new(start, left.span.end);
            let counted = Expr { kind: find_of(find, *left, start), span };
            ExprKind::Binary(op, Box::new(counted), right)
        }
        ExprKind::Binary(op, left, right)
            if quantity != FindQuantity::First && op.is_associative() && splits(&right) =>
        {
            // `check and btm > 30`: the comparison's left operand ends the counted filter.
            let ExprKind::Binary(inner, counted_end, compared) = right.kind else { unreachable!("splits checked") };
            let span = Span::new(left.span.start, counted_end.span.end);
            let counted = Expr { kind: ExprKind::Binary(op, left, counted_end), span };
            let span = Span::new(start, span.end);
            ExprKind::Binary(inner, Box::new(Expr { kind: find_of(find, counted, start), span }), compared)
        }
        kind => ExprKind::Find {
            quantity,
            backward: find.backward,
            quiet: find.quiet,
            bounds: find.bounds.clone(),
            body: Box::new(Expr { kind, span: body.span }),
        },
    }
}

/// Whether the first operator `:` of an expression, on its left edge, has on its left what is
/// not a position (`true : a1`). CQL 6.2 leaves such a `:` to the `find` before it: `find true
/// : a1` is `(find true) : a1`.
fn opens_with_loose_colon(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::At { position, .. } => type_of(position) != Type::Position || opens_with_loose_colon(position),
        ExprKind::Binary(_, left, _) => opens_with_loose_colon(left),
        _ => false,
    }
}

/// `find`'s filter with its loose `:` ([`opens_with_loose_colon`]) taken out: the `find` of
/// what stands left of that `:` takes its place.
fn hoist_colon(find: &Find, expr: Expr, start: usize) -> Expr {
    let span = Span::new(start, expr.span.end);
    let kind = match expr.kind {
        ExprKind::At { position, body } if type_of(&position) != Type::Position => {
            let found_span = Span::new(start, position.span.end);
            let found = Expr { kind: find_of(find, *position, start), span: found_span };
            ExprKind::At { position: Box::new(found), body }
        }
        ExprKind::At { position, body } => {
            ExprKind::At { position: Box::new(hoist_colon(find, *position, start)), body }
        }
        ExprKind::Binary(op, left, right) => ExprKind::Binary(op, Box::new(hoist_colon(find, *left, start)), right),
        kind => unreachable!("a loose colon opens the expression: {kind:?}"),
    };
    Expr { kind, span }
}

/// Whether an expression is a comparison or arithmetic whose left operand has no value.
fn splits(expr: &Expr) -> bool {
    matches!(&expr.kind, ExprKind::Binary(op, left, _) if (op.is_comparison() || op.is_arithmetic()) && type_of(left) == Type::Filter)
}

/// The position a word names.
pub(super) fn position_word(text: &str) -> PositionWord {
    match text {
        "currentposition" | "curpos" | "∙" => PositionWord::Current,
        "initialposition" => PositionWord::Initial,
        _ => PositionWord::Parent,
    }
}

/// Where a piece or square variable (`piece x in`, `square x in`, `piece x =`, `◭x`) is named
/// right after a direction, a transform or `find`, after a space: the places a reading that
/// took such a name for a range's bound must stop before instead.
pub(super) fn set_variables_as_bounds(source: &str) -> Vec<usize> {
    let words = words_of(source);
    let mut sets: Vec<&str> = Vec::new();
    for (index, &(at, word)) in words.iter().enumerate() {
        let declared = match index.checked_sub(1).map(|before| words[before].1) {
            Some("piece" | "square" | "all") => words
                .get(index + 1)
                .is_some_and(|&(_, next)| next == "in" || source[at + word.len()..].trim_start().starts_with('=')),
            _ => source[..at].ends_with('◭') || source[..at].ends_with("[Aa]"),
        };
        if declared && !sets.contains(&word) {
            sets.push(word);
        }
    }
    words
        .windows(2)
        .filter(|pair| {
            let ((before_at, before), (at, word)) = (pair[0], pair[1]);
            let between = &source[before_at + before.len()..at];
            sets.contains(&word)
                && !between.is_empty()
                && between.bytes().all(|byte| byte == b' ' || byte == b'\t')
                && (Direction::from_word(before).is_some() || super::is_transform_word(before) || before == "find")
        })
        .map(|pair| pair[1].0)
        .collect()
}

/// The words of a text (runs of letters, digits, `_` and `$`) with where each starts.
fn words_of(source: &str) -> Vec<(usize, &str)> {
    let mut words = Vec::new();
    let mut start = None;
    for (at, char) in source.char_indices().chain(std::iter::once((source.len(), ' '))) {
        let in_word = char.is_ascii_alphanumeric() || char == '_' || char == '$';
        match (start, in_word) {
            (None, true) => start = Some(at),
            (Some(from), false) => {
                words.push((from, &source[from..at]));
                start = None;
            }
            _ => {}
        }
    }
    words
}

/// The name a filter defines, when it is a function's definition alone.
fn defined_function(filter: &Pair<'_, Rule>) -> Option<String> {
    let mut inner = filter.clone().into_inner();
    let only = inner.next().filter(|only| only.as_rule() == Rule::function_def && inner.next().is_none())?;
    only.into_inner().find(|part| part.as_rule() == Rule::variable_word).map(|name| name.as_str().to_owned())
}
