//! A `-` after a filter that is no number starts the next filter, as CQL 6.2 reads it: its
//! arithmetic takes only numbers, so in `false - 1 < 2` the `-` cannot subtract, and the text
//! reads as the two filters `false` and `-1 < 2` (`"a" - 1` as `"a"` and `-1`, `currentposition
//! - 1` as the position and `-1`).

use super::super::ast::{BinaryOp, Expr, ExprKind, Span, UnaryOp};
use super::super::check::{Type, type_of};

/// The filters `filter` holds when each `-` written after a filter or a set starts a new one:
/// `filter` itself when it has no such `-`.
pub(super) fn split_at_dangling_minus(filter: Expr, source: &str) -> Vec<Expr> {
    let mut filters = Vec::new();
    let mut rest = filter;
    loop {
        match split(rest, source) {
            Ok((first, next)) => {
                filters.push(first);
                rest = next;
            }
            Err(whole) => {
                filters.push(whole);
                return filters;
            }
        }
    }
}

/// The first filter written in `expr` and the rest, when a `-` on its left edge follows an
/// operand that is no number; `expr` unchanged otherwise. Prefixes written before the split
/// belong to the first filter, operators after it to the rest.
fn split(expr: Expr, source: &str) -> Result<(Expr, Expr), Expr> {
    let span = expr.span;
    match expr.kind {
        ExprKind::Binary(op, left, right) => match split(*left, source) {
            Ok((first, rest)) => {
                let rest_span = rest.span.join(right.span);
                Ok((first, Expr { kind: ExprKind::Binary(op, Box::new(rest), right), span: rest_span }))
            }
            Err(left) if op == BinaryOp::Sub && type_of(&left) != Type::Number => {
                let span = Span::new(left.span.end, span.end);
                Ok((left, Expr { kind: negated(right, source), span }))
            }
            // `"b" == "a" - 1`: the comparison takes `"a"`, and `-1` is the next filter.
            Err(left) => match split(*right, source) {
                Ok((first, rest)) => {
                    let first_span = left.span.join(first.span);
                    let kind = ExprKind::Binary(op, Box::new(left), Box::new(first));
                    Ok((Expr { kind, span: first_span }, rest))
                }
                Err(right) => Err(Expr { kind: ExprKind::Binary(op, Box::new(left), Box::new(right)), span }),
            },
        },
        // `x = "a" - 1` gives x the text, and `-1` is the next filter.
        ExprKind::Assign { name, op, value, lasting } => match split(*value, source) {
            Ok((first, rest)) => {
                let first_span = Span::new(span.start, first.span.end);
                let kind = ExprKind::Assign { name, op, value: Box::new(first), lasting };
                Ok((Expr { kind, span: first_span }, rest))
            }
            Err(value) => Err(Expr { kind: ExprKind::Assign { name, op, value: Box::new(value), lasting }, span }),
        },
        ExprKind::Unary(op, operand) => match split(*operand, source) {
            Ok((first, rest)) => {
                let first_span = Span::new(span.start, first.span.end);
                Ok((Expr { kind: ExprKind::Unary(op, Box::new(first)), span: first_span }, rest))
            }
            Err(operand) => Err(Expr { kind: ExprKind::Unary(op, Box::new(operand)), span }),
        },
        kind => Err(Expr { kind, span }),
    }
}

/// `-N`: a number written after the minus is a negative number, as CQL 6.2 reads it (`-(1)`
/// negates a filter's value).
pub(super) fn negated(operand: Box<Expr>, source: &str) -> ExprKind {
    match operand.kind {
        ExprKind::Number(value) if operand.span.text(source).starts_with(|c: char| c.is_ascii_digit()) => {
            ExprKind::Number(value.saturating_neg())
        }
        _ => ExprKind::Unary(UnaryOp::Negate, operand),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::ast::Word;

    fn expr(kind: ExprKind, start: usize, end: usize) -> Expr {
        Expr { kind, span: Span::new(start, end) }
    }

    #[test]
    fn a_minus_after_a_filter_starts_the_next_filter() {
        // false - 1 < 2
        let sub = ExprKind::Binary(
            BinaryOp::Sub,
            Box::new(expr(ExprKind::Word(Word::False), 0, 5)),
            Box::new(expr(ExprKind::Number(1), 8, 9)),
        );
        let less =
            ExprKind::Binary(BinaryOp::Lt, Box::new(expr(sub, 0, 9)), Box::new(expr(ExprKind::Number(2), 12, 13)));
        let filters = split_at_dangling_minus(expr(less, 0, 13), "false - 1 < 2");
        assert_eq!(filters.len(), 2);
        assert_eq!(filters[0].kind, ExprKind::Word(Word::False));
        let ExprKind::Binary(BinaryOp::Lt, left, _) = &filters[1].kind else { panic!("{:?}", filters[1]) };
        assert_eq!(left.kind, ExprKind::Number(-1));
    }

    #[test]
    fn a_minus_between_numbers_subtracts() {
        let sub = ExprKind::Binary(
            BinaryOp::Sub,
            Box::new(expr(ExprKind::Number(3), 0, 1)),
            Box::new(expr(ExprKind::Number(1), 4, 5)),
        );
        assert_eq!(split_at_dangling_minus(expr(sub, 0, 5), "3 - 1").len(), 1);
    }
}
