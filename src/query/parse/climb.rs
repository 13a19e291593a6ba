//! A filter's operators, bound as CQL 6.2 binds them: by precedence, and only where the
//! operand on the left takes the operator. CQL 6.2 reads a filter by recursive descent in
//! which each level goes on only while its left side is of a type its operator takes
//! (`true != 1` stops before `!=`, `a1 : check` before `:`). What a filter does not take ends
//! it, and goes to the filter around: `find true != 1` is `(find true) != 1`, `square x in A
//! "a" | B` is `(square x in A "a") | B`.
//!
//! The operators left over are kept in the builder ([`Builder::untaken`]) until the operand
//! that holds the filter (a `find`, a loop, a `line`) is built; the filter around goes on with
//! them. Where no filter around takes them (at a query's, a block's or parentheses' end), they
//! are bound as precedence alone would bind them, and the type check says what is wrong.

use std::collections::VecDeque;

use pest::iterators::{Pair, Pairs};

use super::dash_sides::DASH_LEVEL;
use super::{Builder, Built, Rule, count_on, ends_with_bare_count, minus, span_of};
use crate::query::ast::{AttackSide, BinaryOp, DictionaryOp, Expr, ExprKind, MoveWhen, Span, UnaryOp};
use crate::query::check::{Type, check_filter, type_of};
use crate::query::diagnostic::{Diagnostic, quoted};

/// An operator as the climb meets it.
#[derive(Clone, Copy, Debug)]
pub(super) struct OpToken {
    pub rule: Rule,
    pub span: Span,
}

/// A text's `~~ "re"` or `[i:j]` (or a dictionary's `[key]`), its parts built.
#[derive(Debug)]
pub(super) enum Postfix {
    Match { pattern: String, span: Span },
    Slice(Box<Slice>),
}

/// The parts of `[i:j]` or `[key]`.
#[derive(Debug)]
pub(super) struct Slice {
    pub span: Span,
    pub start: Option<(Expr, u32)>,
    pub end: Option<(Expr, u32)>,
    /// Whether a `:` stands between the bounds.
    pub colon: bool,
    /// A key that is no number (`[a1]`, `["x"]`), with where it stands.
    pub key: Option<(Expr, u32, Span)>,
}

/// What follows an operand that its filter did not take, built, for the filter around.
#[derive(Debug)]
pub(super) enum Untaken {
    Operand(Expr, u32),
    Prefix(OpToken),
    Infix(OpToken),
    Postfix(Postfix),
}

impl Untaken {
    /// Where it stands in the query.
    fn span(&self) -> Span {
        match self {
            Untaken::Infix(op) | Untaken::Prefix(op) => op.span,
            Untaken::Postfix(Postfix::Match { span, .. }) => *span,
            Untaken::Postfix(Postfix::Slice(slice)) => slice.span,
            Untaken::Operand(expr, _) => expr.span,
        }
    }
}

/// The operators a filter did not take, and the operand that did not take the first.
#[derive(Debug, Default)]
pub(super) struct Leftover {
    pub items: Vec<Untaken>,
    pub left: Option<Expr>,
}

/// One item of a filter's sequence of operands and operators.
enum Token<'i> {
    Pair(Pair<'i, Rule>),
    Built(Untaken),
}

/// A filter's items being read.
struct Climb<'i> {
    tokens: VecDeque<Token<'i>>,
    /// An operator was met that its left side does not take: the filter ends there.
    stopped: bool,
    /// The operand that did not take it.
    stopped_at: Option<Expr>,
    /// Whether operands must take their operators (false where nothing around would).
    typed: bool,
    /// What the filter is an argument of, which limits the operators it takes.
    argument: Argument,
}

/// What a filter is an argument of, as far as it limits the operators the filter takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Argument {
    /// None: a filter of its own.
    #[default]
    None,
    /// A set argument (`to S`, `light S`), which takes no operator but `:`.
    Set,
    /// A set expression argument (`typename S`, `power S`), which takes the operators that
    /// bind as tightly as `*` or more, as CQL 6.2 reads a set there: `typename a1 <= "a"`
    /// compares the name.
    SetExpression,
    /// The number of `position N`, which takes no comparison, `in`, `and` nor `or`.
    Number,
}

/// The loosest level a number argument takes: the prefixes `abs` and `sqrt`.
const NUMBER_ARGUMENT_LEVEL: u8 = 5;

/// The loosest level a set expression argument takes: `*`, `/` and `%`.
const SET_EXPRESSION_LEVEL: u8 = 7;

/// How an operator binds: its level (loosest 1), and what it is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Binding {
    Prefix(u8),
    Infix { level: u8, right: bool },
    Postfix(u8),
}

/// The precedence levels, loosest first, as in CQL 6.2: `or`, `and`, `not`, comparisons
/// (grouping from the right: `3 < ply < 10` is `3 < (ply < 10)`) and `in`, `abs` and `sqrt`
/// (which take the sum after them: `abs 2 - 5` is 3), `+ -`, `* / %`, the count `#` (which
/// takes a whole set: `#R | Q` is `#(R | Q)`), the attack arrows `->` and `<-`, `|`, `&`, the
/// prefixes `~ -`, `attacks` and `attackedby`, a text's `~~ "re"` and `[i:j]`, then `P : F`.
fn binding(rule: Rule) -> Option<Binding> {
    let infix = |level| Some(Binding::Infix { level, right: false });
    match rule {
        Rule::op_or => infix(1),
        Rule::op_and => infix(2),
        Rule::op_not => Some(Binding::Prefix(3)),
        rule if is_comparison(rule) => Some(Binding::Infix { level: 4, right: true }),
        // Its right side is a set or a text, never a comparison: `a1 in a1 != 1` is
        // `(a1 in a1) != 1`.
        Rule::op_in => infix(4),
        Rule::op_abs | Rule::op_sqrt => Some(Binding::Prefix(5)),
        Rule::op_add | Rule::op_sub => infix(6),
        Rule::op_mul | Rule::op_div | Rule::op_rem => infix(7),
        Rule::op_count => Some(Binding::Prefix(8)),
        Rule::op_arrow_right | Rule::op_arrow_left => infix(9),
        Rule::op_union => infix(10),
        Rule::op_intersection => infix(11),
        Rule::op_complement | Rule::op_negate => Some(Binding::Prefix(12)),
        Rule::op_attacks | Rule::op_attackedby => infix(13),
        Rule::op_match | Rule::op_slice => Some(Binding::Postfix(14)),
        Rule::op_colon => infix(15),
        _ => None,
    }
}

/// Whether an operator compares two values (numbers, sets, positions or texts).
fn is_comparison(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::op_eq
            | Rule::op_ne
            | Rule::op_lt
            | Rule::op_le
            | Rule::op_gt
            | Rule::op_ge
            | Rule::op_precedes
            | Rule::op_precedes_eq
            | Rule::op_succeeds
            | Rule::op_succeeds_eq
    )
}

/// The type CQL 6.2 gives an operand while it reads the operators after it.
fn cql_type(expr: &Expr) -> Type {
    match &expr.kind {
        // A `move` is a set in CQL 6.2 only when `from`, `to` or `capture` comes first.
        ExprKind::Move(filter) if !filter.count => {
            if filter.set_in_cql {
                Type::Set
            } else {
                Type::Filter
            }
        }
        // CQL 6.2 calls `ancestor(...)` and `descendant(...)` numeric (with no number to give).
        ExprKind::Descends { keeps_notes: true, .. } => Type::Number,
        // `P : F` is what F is.
        ExprKind::At { body, .. } => cql_type(body),
        _ => type_of(expr),
    }
}

/// The type of what was built, as CQL 6.2 sees it.
fn built_type(built: &Built) -> Type {
    match built {
        Built::Tree(expr, _) => cql_type(expr),
        Built::Chain(BinaryOp::Or | BinaryOp::And, _) => Type::Filter,
        Built::Chain(_, operands) => operands.first().map_or(Type::Set, |(first, _)| cql_type(first)),
        Built::Arrows(..) => Type::Set,
    }
}

/// Whether `+` would join a text and a number, which CQL 6.2's `+` leaves to the filter around
/// (`#T + U` with U a text counts the sum of texts).
fn adds_text_and_number(left: &Built, right: &Built) -> bool {
    match (built_type(left), built_type(right)) {
        (Type::Text, Type::Number) => true,
        (Type::Number, Type::Text) => !matches!(left, Built::Tree(expr, _) if ends_with_bare_count(expr)),
        _ => false,
    }
}

/// Why a chain of arrows stops at an arrow the other way.
const ONE_WAY_ARROWS: &str = "a chain of arrows goes one way: '->' and '<-' cannot follow each other without parentheses (CQL 6.2 refuses it too)";

/// Whether an operand takes the operator after it, as CQL 6.2 reads them.
fn takes(left: &Built, rule: Rule) -> bool {
    let ty = built_type(left);
    let dictionary = matches!(left, Built::Tree(expr, _) if matches!(expr.kind, ExprKind::Dictionary { op: DictionaryOp::Declare, .. }));
    match rule {
        Rule::op_or | Rule::op_and | Rule::op_in => true,
        // A chain of arrows goes one way: the other arrow is for the filter around.
        Rule::op_arrow_right | Rule::op_arrow_left if let Built::Arrows(forward, _) = left => {
            *forward == (rule == Rule::op_arrow_right)
        }
        rule if is_comparison(rule) => ty != Type::Filter,
        Rule::op_add => matches!(ty, Type::Number | Type::Text),
        // A text takes no `-`: `"a" - 1` is the text, then the number -1.
        Rule::op_sub => ty == Type::Number,
        Rule::op_mul | Rule::op_div | Rule::op_rem => ty == Type::Number,
        Rule::op_arrow_right | Rule::op_arrow_left | Rule::op_union | Rule::op_attacks | Rule::op_attackedby => {
            ty == Type::Set
        }
        Rule::op_intersection => matches!(ty, Type::Set | Type::Position),
        Rule::op_match => ty == Type::Text,
        Rule::op_slice => ty == Type::Text || dictionary,
        Rule::op_colon => ty == Type::Position,
        _ => true,
    }
}

impl Builder {
    /// The tree of a filter's operators and operands. Operators the filter does not take are
    /// left in [`Builder::untaken`] for the filter around.
    pub(super) fn climb_filter(&mut self, pairs: Pairs<'_, Rule>) -> (Expr, u32) {
        self.report_untaken();
        let argument = std::mem::take(&mut self.next_argument);
        let tokens = pairs.map(Token::Pair).collect();
        let mut climb = Climb { tokens, stopped: false, stopped_at: None, typed: true, argument };
        let built = self.climb(&mut climb, 0);
        if !climb.stopped && !climb.tokens.is_empty() {
            // An operator that every level of the filter left (see `adds_text_and_number`).
            climb.stopped = true;
            climb.stopped_at = Some(self.finish_copy(&built));
        }
        let built = self.finish(built);
        if climb.stopped {
            let mut items = Vec::new();
            while let Some(token) = climb.tokens.pop_front() {
                match token {
                    Token::Built(item) => items.push(item),
                    Token::Pair(pair) => self.untaken_item(pair, &mut items),
                }
            }
            self.untaken = Leftover { items, left: climb.stopped_at };
        }
        built
    }

    /// `expr` with the operators left over after it, if any, bound as precedence binds them:
    /// where nothing around a filter takes them, the type check explains why they do not fit.
    pub(super) fn bind_untaken(&mut self, expr: (Expr, u32)) -> (Expr, u32) {
        let leftover = std::mem::take(&mut self.untaken);
        let Some(first) = leftover.items.first() else { return expr };
        let span = first.span();
        // Where only CQL 6.2's types leave the operator untaken (a `move` as a set), cqlq's
        // language binds it as it binds it everywhere.
        let same_type = cql_type(&expr.0) == type_of(&expr.0);
        let turned_arrow = matches!(
            (first, &expr.0.kind),
            (Untaken::Infix(op), ExprKind::Arrows { forward, .. }) if *forward != (op.rule == Rule::op_arrow_right)
        );
        let bound = self.bind_loosely(expr, leftover.items);
        if turned_arrow {
            self.diagnostics.push(Diagnostic::new(span, ONE_WAY_ARROWS));
        } else if same_type && check_filter(&bound.0, &self.source).is_empty() {
            // The operator's left operand alone was of the wrong type; bound to more, it fits,
            // but CQL 6.2 never binds it so (`P & Q attacks a1`).
            let message = format!(
                "{} does not take the operand just before it, and binds no looser (CQL 6.2 refuses it too): put parentheses around its left side",
                quoted(span.text(&self.source))
            );
            self.diagnostics.push(Diagnostic::new(span, message));
        }
        bound
    }

    /// Operators left over by a filter that something else followed (`if A != 1 then`):
    /// reported, as their type check reports them.
    pub(super) fn report_untaken(&mut self) {
        let leftover = std::mem::take(&mut self.untaken);
        let (Some(left), Some(first)) = (leftover.left, leftover.items.first()) else { return };
        let span = first.span();
        let (bound, _) = self.bind_loosely((left, 1), leftover.items);
        let mut found = check_filter(&bound, &self.source);
        found.retain(|diagnostic| diagnostic.span.start <= span.start);
        match found.into_iter().next() {
            Some(diagnostic) => self.diagnostics.push(diagnostic),
            None => self.diagnostics.push(Diagnostic::new(span, "this operator does not belong here")),
        }
    }

    /// After a line's constituent that is no number, `+` and `*` are repetitions in CQL 6.2,
    /// never arithmetic: what the grammar read after them as an operand (`check+{2}`) cannot
    /// follow there.
    pub(super) fn untaken_repetition(&mut self) {
        let Some(Untaken::Infix(op)) = self.untaken.items.first() else { return };
        if !matches!(op.rule, Rule::op_add | Rule::op_mul) {
            return;
        }
        let leftover = std::mem::take(&mut self.untaken);
        let repeat = if leftover.items[0].span().text(&self.source) == "+" { "+" } else { "*" };
        if let Some(next) = leftover.items.get(1) {
            let message = format!(
                "after a constituent that is no number, '{repeat}' repeats it, and what follows cannot repeat that                  again nor stand in the line (CQL 6.2 refuses it too)"
            );
            self.diagnostics.push(Diagnostic::new(next.span(), message));
        }
    }

    fn bind_loosely(&mut self, (expr, depth): (Expr, u32), items: Vec<Untaken>) -> (Expr, u32) {
        let mut tokens: VecDeque<Token<'_>> = items.into_iter().map(Token::Built).collect();
        tokens.push_front(Token::Built(Untaken::Operand(expr, depth)));
        let mut climb = Climb { tokens, stopped: false, stopped_at: None, typed: false, argument: Argument::None };
        let built = self.climb(&mut climb, 0);
        self.finish(built)
    }

    /// The operands and operators after the last one a filter took, built in turn.
    fn untaken_item(&mut self, pair: Pair<'_, Rule>, items: &mut Vec<Untaken>) {
        let op = OpToken { rule: pair.as_rule(), span: span_of(&pair) };
        match binding(op.rule) {
            Some(Binding::Prefix(_)) => items.push(Untaken::Prefix(op)),
            Some(Binding::Infix { .. }) => items.push(Untaken::Infix(op)),
            Some(Binding::Postfix(_)) => items.push(Untaken::Postfix(self.postfix_parts(pair))),
            None => {
                let (expr, depth) = self.operand(pair);
                items.push(Untaken::Operand(expr, depth));
                items.append(&mut std::mem::take(&mut self.untaken).items);
            }
        }
    }

    /// The operand and the operators after it that bind tighter than `min`.
    fn climb(&mut self, climb: &mut Climb<'_>, min: u8) -> Built {
        let left = self.climb_operand(climb);
        let left = self.climb_dash_right_side(climb, left);
        self.climb_on(climb, left, min)
    }

    /// A dash whose right side is open takes the set operators after it into that side, whatever
    /// binds the dash itself (`a & P--e4 | d4` is `(a & P)--(e4 | d4)`).
    fn climb_dash_right_side(&mut self, climb: &mut Climb<'_>, mut left: Built) -> Built {
        let Some((rule, Binding::Infix { .. })) = climb.tokens.front().and_then(token_binding) else { return left };
        if climb.argument == Argument::Set || !self.right_side_open(&mut left, rule) {
            return left;
        }
        let Built::Tree(mut dash, depth) = left else { return left };
        let side = self.take_right_side(&mut dash);
        let built = self.climb_on(climb, Built::Tree(side, depth), DASH_LEVEL);
        let (side, side_depth) = self.finish(built);
        Built::Tree(self.with_right_side(dash, side), depth.max(side_depth + 1))
    }

    /// The operators after `left` that bind tighter than `min`, applied to it.
    fn climb_on(&mut self, climb: &mut Climb<'_>, mut left: Built, min: u8) -> Built {
        while !climb.stopped {
            let Some((rule, binding)) = climb.tokens.front().and_then(token_binding) else { break };
            let level = match binding {
                Binding::Infix { level, .. } | Binding::Postfix(level) => level,
                Binding::Prefix(_) => break,
            };
            if level <= min {
                break;
            }
            // An argument (`to S`) is one operand with its prefixes, which take what they
            // reach over (`to ~a1 attacks R`), and `:`.
            let beyond_argument = min == 0
                && match climb.argument {
                    Argument::None => false,
                    Argument::Set => rule != Rule::op_colon,
                    Argument::Number => level < NUMBER_ARGUMENT_LEVEL,
                    Argument::SetExpression => level < SET_EXPRESSION_LEVEL,
                };
            if climb.typed && (!takes(&left, rule) || beyond_argument) {
                climb.stopped = true;
                climb.stopped_at = Some(self.finish_copy(&left));
                break;
            }
            let token = climb.tokens.pop_front().expect("climb: the operator just seen");
            left = match (binding, token) {
                (Binding::Infix { right, .. }, token) => {
                    let op = token_op(&token);
                    if matches!(op.rule, Rule::op_and | Rule::op_or)
                        && let Some(value) = leftmost_built(&left)
                    {
                        self.value_ends(value);
                    }
                    let operand = self.climb(climb, if right { level - 1 } else { level });
                    if climb.typed && op.rule == Rule::op_add && adds_text_and_number(&left, &operand) {
                        // CQL 6.2 leaves `+` between a text and a number to the filter around
                        // (`#"a" + 1` is `(#"a") + 1`).
                        let (operand, depth) = self.finish(operand);
                        climb.tokens.push_front(Token::Built(Untaken::Operand(operand, depth)));
                        climb.tokens.push_front(Token::Built(Untaken::Infix(op)));
                        break;
                    }
                    self.infix_beside_dash(left, op, operand)
                }
                (_, Token::Pair(pair)) => {
                    let postfix = self.postfix_parts(pair);
                    self.postfix_on(left, postfix)
                }
                (_, Token::Built(Untaken::Postfix(postfix))) => self.postfix_on(left, postfix),
                (_, Token::Built(_)) => unreachable!("climb: a postfix operator"),
            };
        }
        left
    }

    /// An operand, or a prefix operator and what it takes.
    fn climb_operand(&mut self, climb: &mut Climb<'_>) -> Built {
        let Some(token) = climb.tokens.pop_front() else {
            return Built::Tree(super::placeholder(Span::default()), 1);
        };
        if let Some((_, Binding::Prefix(level))) = token_binding(&token) {
            let op = token_op(&token);
            let operand = self.climb(climb, level - 1);
            return self.complement_beside_dash(op, operand);
        }
        match token {
            Token::Pair(pair) => {
                let promotion = promotion_at_end(&pair);
                let (expr, depth) = self.operand(pair);
                let leftover = std::mem::take(&mut self.untaken);
                for item in leftover.items.into_iter().rev() {
                    climb.tokens.push_front(Token::Built(item));
                }
                if let Some(promotion) = promotion
                    && let Some((_, Binding::Infix { .. } | Binding::Postfix(_))) =
                        climb.tokens.front().and_then(token_binding)
                {
                    self.operator_after_promotion(promotion, &expr);
                }
                Built::Tree(expr, depth)
            }
            Token::Built(Untaken::Operand(expr, depth)) => Built::Tree(expr, depth),
            // An operator where an operand belongs: the grammar lets none through.
            Token::Built(_) => Built::Tree(super::placeholder(Span::default()), 1),
        }
    }

    /// CQL 6.2 reads all that follows a move's `=` as the promoted piece, operators included
    /// (`a7--a8=Q and check` promotes to `Q and check`), and refuses it: so does cqlq.
    fn operator_after_promotion(&mut self, promotion: Span, dash: &Expr) {
        let piece = promotion.text(&self.source).trim_start_matches('=');
        let dash = dash.span.text(&self.source);
        let message = format!(
            "after '=', CQL 6.2 reads the operator that follows as part of the promoted piece, which must be \
             '{piece}' alone: put the move in parentheses, ({dash})"
        );
        self.diagnostics.push(Diagnostic::new(promotion, message));
    }

    /// `x | x`, `x and x`, `x or x` with one variable on both sides, parentheses aside: CQL 6.2
    /// refuses them as a likely mistake.
    fn refuse_twice_joined(&mut self, op: BinaryOp, left: &Expr, right: &Expr) {
        if matches!(op, BinaryOp::And | BinaryOp::Or | BinaryOp::Union)
            && let Some(name) = bare_variable(&self.source, left)
            && bare_variable(&self.source, right) == Some(name)
        {
            let message = format!(
                "'{name}' {} '{name}' joins a variable with itself, which CQL 6.2 refuses as a likely mistake",
                op.symbol()
            );
            self.diagnostics.push(Diagnostic::new(left.span.join(right.span), message));
        }
    }

    /// A copy of what was built, as one tree (for what is said about an operator it does not
    /// take).
    fn finish_copy(&mut self, built: &Built) -> Expr {
        match built {
            Built::Tree(expr, _) => expr.clone(),
            Built::Chain(op, operands) => {
                let mut operands = operands.iter().map(|(expr, _)| expr.clone());
                let first = operands.next().unwrap_or_else(|| super::placeholder(Span::default()));
                operands.fold(first, |left, right| {
                    let span = left.span.join(right.span);
                    Expr { kind: ExprKind::Binary(*op, Box::new(left), Box::new(right)), span }
                })
            }
            Built::Arrows(forward, operands) => {
                let sets: Vec<Expr> = operands.iter().map(|(expr, _)| expr.clone()).collect();
                let span = sets[0].span.join(sets[sets.len() - 1].span);
                Expr { kind: ExprKind::Arrows { forward: *forward, sets }, span }
            }
        }
    }

    /// A prefix operator applied to its operand.
    pub(super) fn prefix(&mut self, op: OpToken, operand: Built) -> Built {
        let (operand, depth) = self.finish(operand);
        let span = op.span.join(operand.span);
        let op = match op.rule {
            Rule::op_not => UnaryOp::Not,
            Rule::op_complement => UnaryOp::Complement,
            Rule::op_count => UnaryOp::Count,
            Rule::op_negate => UnaryOp::Negate,
            Rule::op_abs => UnaryOp::Abs,
            Rule::op_sqrt => UnaryOp::Sqrt,
            rule => unreachable!("grammar: {rule:?} is no prefix operator"),
        };
        if let (UnaryOp::Count, Some(name)) = (op, leading_entry(&operand))
            && !self.source[operand.span.start..].starts_with('(')
        {
            // CQL 6.2 reads `#D` as the count of D's entries, and then the key as stray text.
            let message = format!(
                "'#{name}' is the number of entries of {name}, and no key may follow it: for the size of an \
                 entry write #({name}[...])"
            );
            self.diagnostics.push(Diagnostic::new(span, message));
        }
        let kind = match (op, operand.kind) {
            (UnaryOp::Count, ExprKind::Dictionary { name, persistent, op: DictionaryOp::Declare }) => {
                ExprKind::Dictionary { name, persistent, op: DictionaryOp::Count }
            }
            (UnaryOp::Negate, kind) => minus::negated(Box::new(Expr { kind, span: operand.span }), &self.source),
            (op, kind) => ExprKind::Unary(op, Box::new(Expr { kind, span: operand.span })),
        };
        let (expr, depth) = self.bounded(Expr { kind, span }, depth + 1, None);
        Built::Tree(expr, depth)
    }

    /// A text's (or a dictionary's) postfix operator applied to it.
    fn postfix_on(&mut self, operand: Built, postfix: Postfix) -> Built {
        let (operand, depth) = self.finish(operand);
        let (expr, depth) = self.apply_postfix(operand, depth, postfix);
        let (expr, depth) = self.bounded(expr, depth, None);
        Built::Tree(expr, depth)
    }

    /// An infix operator applied to its operands.
    pub(super) fn infix(&mut self, left: Built, op: OpToken, right: Built) -> Built {
        let op_span = op.span;
        if matches!(op.rule, Rule::op_arrow_right | Rule::op_arrow_left) {
            let forward = op.rule == Rule::op_arrow_right;
            let right = self.finish(right);
            return match left {
                Built::Arrows(direction, mut operands) if direction == forward => {
                    operands.push(right);
                    Built::Arrows(forward, operands)
                }
                Built::Arrows(..) => {
                    // CQL 6.2 reads a chain of arrows one way only.
                    self.diagnostics.push(Diagnostic::new(op_span, ONE_WAY_ARROWS));
                    Built::Arrows(forward, vec![self.finish(left), right])
                }
                left => Built::Arrows(forward, vec![self.finish(left), right]),
            };
        }
        let op = match op.rule {
            Rule::op_attacks | Rule::op_attackedby => {
                let (left, left_depth) = self.finish(left);
                let (right, right_depth) = self.finish(right);
                let span = left.span.join(right.span);
                let (attackers, targets, side) = if op.rule == Rule::op_attacks {
                    (left, right, AttackSide::Attackers)
                } else {
                    (right, left, AttackSide::Targets)
                };
                let kind = ExprKind::Attacks { attackers: Box::new(attackers), targets: Box::new(targets), side };
                let (expr, depth) = self.bounded(Expr { kind, span }, left_depth.max(right_depth) + 1, None);
                return Built::Tree(expr, depth);
            }
            Rule::op_colon => {
                let (position, left_depth) = self.finish(left);
                let (body, right_depth) = self.finish(right);
                let span = position.span.join(body.span);
                let kind = ExprKind::At { position: Box::new(position), body: Box::new(body) };
                let (expr, depth) = self.bounded(Expr { kind, span }, left_depth.max(right_depth) + 1, None);
                return Built::Tree(expr, depth);
            }
            Rule::op_precedes | Rule::op_precedes_eq | Rule::op_succeeds | Rule::op_succeeds_eq => {
                let (left, left_depth) = self.finish(left);
                let (right, right_depth) = self.finish(right);
                let span = left.span.join(right.span);
                let rule = op.rule;
                let (ancestor, descendant) = match rule {
                    Rule::op_precedes | Rule::op_precedes_eq => (left, right),
                    _ => (right, left),
                };
                // CQL 6.2 reads `[>=]` as `[>]`: only `[<=]` lets both be one position.
                let strict = rule != Rule::op_precedes_eq;
                let later_first = matches!(rule, Rule::op_succeeds | Rule::op_succeeds_eq);
                let (ancestor, descendant) = (Box::new(ancestor), Box::new(descendant));
                let kind = ExprKind::Descends { ancestor, descendant, strict, later_first, keeps_notes: false };
                let (expr, depth) = self.bounded(Expr { kind, span }, left_depth.max(right_depth) + 1, None);
                return Built::Tree(expr, depth);
            }
            Rule::op_or => BinaryOp::Or,
            Rule::op_and => BinaryOp::And,
            Rule::op_in => BinaryOp::In,
            Rule::op_eq => BinaryOp::Eq,
            Rule::op_ne => BinaryOp::Ne,
            Rule::op_lt => BinaryOp::Lt,
            Rule::op_le => BinaryOp::Le,
            Rule::op_gt => BinaryOp::Gt,
            Rule::op_ge => BinaryOp::Ge,
            Rule::op_union => BinaryOp::Union,
            Rule::op_intersection => BinaryOp::Intersection,
            Rule::op_add => BinaryOp::Add,
            Rule::op_sub => BinaryOp::Sub,
            Rule::op_mul => BinaryOp::Mul,
            Rule::op_div => BinaryOp::Div,
            Rule::op_rem => BinaryOp::Rem,
            rule => unreachable!("grammar: {rule:?} is no infix operator"),
        };
        if let (BinaryOp::Add | BinaryOp::Mul, Built::Tree(Expr { kind: ExprKind::Line { .. }, span }, _)) = (op, &left)
        {
            // As in CQL 6.2: the count of a line is no operand of `+` or `*`.
            let symbol = op.symbol();
            let message = format!(
                "'{symbol}' after this line reads as arithmetic on its count, as it is not followed by an arrow, \
                 a closing bracket or the end: to repeat the last constituent write {{{symbol}}}, or put the line in braces"
            );
            self.diagnostics.push(Diagnostic::new(*span, message));
        }
        if let (BinaryOp::Intersection, Built::Tree(left, _)) = (op, &left)
            && ends_with_legal_count(left, &self.source)
        {
            // CQL 6.2 reads the `&` into the move that `countmoves legal` counts, where it has no
            // place, whatever the left side is (`position countmoves legal -- & currentposition`).
            let message = "CQL 6.2 reads '&' after 'countmoves legal' or 'countmoves pseudolegal' as part of the \
                           move it counts, which takes none: put the count in parentheses, as in 'position \
                           (countmoves legal --) & currentposition'";
            self.diagnostics.push(Diagnostic::new(op_span, message));
        }
        if matches!(op, BinaryOp::Add | BinaryOp::Mul) && self.in_path_parentheses {
            let message = format!(
                "inside a path, within parentheses, '{}' repeats what comes before it, as CQL 6.2 reads it: for \
                 arithmetic put the filter in braces",
                op.symbol()
            );
            self.diagnostics.push(Diagnostic::new(op_span, message));
        }
        if let (BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul, Built::Tree(left, _)) = (op, &left)
            && matches!(left.kind, ExprKind::Path(_))
            && (op != BinaryOp::Sub || !self.source[..op_span.start].trim_end().ends_with('}'))
        {
            // CQL 6.2 reads on in the path: `+` and `*` repeat its last constituent (its braces
            // too), and `- 2` without braces before it is the number -2; none of them ends it.
            let message = format!(
                "'{}' right after a path is read as part of the path, as CQL 6.2 reads it: put the whole path \
                 in braces",
                op.symbol()
            );
            self.diagnostics.push(Diagnostic::new(op_span, message));
        }
        let right = self.finish(right);
        // `&` of positions is no intersection of sets: it nests left to right, as written.
        let positions = op == BinaryOp::Intersection
            && (cql_type(&right.0) == Type::Position
                || matches!(&left, Built::Tree(expr, _) if cql_type(expr) == Type::Position));
        if op.is_associative() && !positions {
            return match left {
                Built::Chain(chained, mut operands) if chained == op => {
                    operands.push(right);
                    Built::Chain(op, operands)
                }
                left => {
                    let left = self.finish(left);
                    self.refuse_twice_joined(op, &left.0, &right.0);
                    Built::Chain(op, vec![left, right])
                }
            };
        }
        let (mut left, left_depth) = self.finish(left);
        let (right, right_depth) = right;
        // `#` before a text counts the whole sum after it, as CQL 6.2 reads it: `#"ab" + "c"`
        // is 3, and `5 * #"ab" + "c"` is 15.
        let right = match count_on(&mut left, op, right) {
            Ok(()) => {
                let (counted, depth) = self.bounded(left, left_depth.max(right_depth) + 2, None);
                return Built::Tree(counted, depth);
            }
            Err(right) => right,
        };
        // The operators of one level, left to right, nest in the tree as they go on.
        let chained = left_depth >= right_depth
            && matches!(&left.kind, ExprKind::Binary(left_op, ..) if super::level(*left_op) == super::level(op));
        let span = left.span.join(right.span);
        let kind = ExprKind::Binary(op, Box::new(left), Box::new(right));
        let (expr, depth) = self.bounded(Expr { kind, span }, left_depth.max(right_depth) + 1, chained.then_some(op));
        Built::Tree(expr, depth)
    }
}

/// The name of a variable written alone, without parentheses around it.
pub(super) fn bare_variable<'e>(source: &str, expr: &'e Expr) -> Option<&'e str> {
    match &expr.kind {
        ExprKind::Variable { name, .. } if source.get(expr.span.start..expr.span.end) == Some(name) => Some(name),
        _ => None,
    }
}

/// The rule and binding of an operator token.
fn token_binding(token: &Token<'_>) -> Option<(Rule, Binding)> {
    let rule = match token {
        Token::Pair(pair) => pair.as_rule(),
        Token::Built(Untaken::Prefix(op) | Untaken::Infix(op)) => op.rule,
        Token::Built(Untaken::Postfix(Postfix::Match { .. })) => Rule::op_match,
        Token::Built(Untaken::Postfix(Postfix::Slice(_))) => Rule::op_slice,
        Token::Built(Untaken::Operand(..)) => return None,
    };
    binding(rule).map(|binding| (rule, binding))
}

/// Where the promotion that ends a move filter (`a7--a8=Q`, `move legal a7--a8=Q`) stands, if
/// one ends it.
fn promotion_at_end(pair: &Pair<'_, Rule>) -> Option<Span> {
    let last = pair.clone().into_inner().last()?;
    match (pair.as_rule(), last.as_rule()) {
        (Rule::dash_filter, Rule::dash_promotion) => Some(span_of(&last)),
        (Rule::legal_dash | Rule::countmoves | Rule::previous_dash, _) => promotion_at_end(&last),
        _ => None,
    }
}

/// Whether `expr` (of `source`) ends with `countmoves legal X--Y` or `countmoves pseudolegal
/// X--Y` written bare (`position countmoves legal --`), not in parentheses.
fn ends_with_legal_count(expr: &Expr, source: &str) -> bool {
    match &expr.kind {
        ExprKind::Move(filter) => {
            let text = source.get(expr.span.start..expr.span.end).unwrap_or_default();
            filter.count
                && matches!(filter.when, MoveWhen::Legal | MoveWhen::PseudoLegal)
                && text.starts_with("countmoves")
        }
        ExprKind::NumberedPosition(number) => ends_with_legal_count(number, source),
        _ => false,
    }
}

/// A prefix or infix operator token's rule and place.
fn token_op(token: &Token<'_>) -> OpToken {
    match token {
        Token::Pair(pair) => OpToken { rule: pair.as_rule(), span: span_of(pair) },
        Token::Built(Untaken::Prefix(op) | Untaken::Infix(op)) => *op,
        Token::Built(_) => unreachable!("climb: an operator token"),
    }
}

/// The leftmost whole operand of what was built so far.
fn leftmost_built(built: &Built) -> Option<&Expr> {
    match built {
        Built::Tree(expr, _) => Some(expr),
        Built::Chain(_, operands) | Built::Arrows(_, operands) => operands.first().map(|(expr, _)| expr),
    }
}

/// The dictionary whose entry opens `expr` (`D["b"]` in `D["b"] & []`), if one does.
fn leading_entry(expr: &Expr) -> Option<&str> {
    let mut leading = expr;
    loop {
        if let ExprKind::Dictionary { name, op: DictionaryOp::Entry { .. }, .. } = &leading.kind {
            return Some(name);
        }
        leading = leading.children().into_iter().find(|child| child.span.start == expr.span.start)?;
    }
}
