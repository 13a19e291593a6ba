//! What cqlq's language reads beyond CQL 6.2: the legal moves filtered by what they capture or
//! promote to (`move legal capture S`, `move pseudolegal promote P`), and the squares of any
//! `move` as a set (`#move legal`, `move previous capture a1 & a1`), which CQL 6.2 refuses.
//! `cqlq search` runs them on every board; the CQL command line refuses them on chess, as the
//! drop-in for CQL 6.2 it is, and names the extension.

use super::ast::{BinaryOp, DictionaryOp, Expr, ExprKind, MoveWhen, Type, UnaryOp};
use super::check::type_of;
use super::diagnostic::Diagnostic;

/// The places in `filters` (of the query `source`) where cqlq's language goes beyond what
/// CQL 6.2 accepts.
pub(super) fn beyond_cql(filters: &[Expr], source: &str) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let mut pending: Vec<&Expr> = filters.iter().rev().collect();
    while let Some(expr) = pending.pop() {
        if let ExprKind::Move(filter) = &expr.kind
            && matches!(filter.when, MoveWhen::Legal | MoveWhen::PseudoLegal)
        {
            for (part, given) in [("capture", filter.capture.is_some()), ("promote", filter.promote.is_some())] {
                if given {
                    let message = format!(
                        "CQL 6.2 refuses '{part}' after 'move legal' and 'move pseudolegal'; cqlq search runs it \
                         (legal moves filtered by what they {part})"
                    );
                    found.push(Diagnostic::new(expr.span, message));
                }
            }
        }
        for operand in set_operands(expr).into_iter().map(value_giver) {
            if let ExprKind::Move(filter) = &operand.kind
                && !filter.set_in_cql
                && !filter.count
            {
                let message = "CQL 6.2 gives a 'move' a set of squares only when 'from', 'to' or 'capture' comes \
                               first after 'move' (and not after 'previous', 'legal' or 'pseudolegal'); cqlq search \
                               gives every 'move' one";
                found.push(Diagnostic::new(operand.span, message));
            }
        }
        if let Some(designator) = designator_before_bracket(expr, source) {
            let message = "CQL 6.2 cannot read a designator right before the ']' of a dictionary's key (it reads \
                           the ']' as part of it): put a space before the ']'";
            found.push(Diagnostic::new(designator.span, message));
        }
        pending.extend(expr.children().into_iter().rev());
    }
    found
}

/// The designator that ends the key of a dictionary's entry right before its `]`, if any.
fn designator_before_bracket<'e>(expr: &'e Expr, source: &str) -> Option<&'e Expr> {
    let ExprKind::Dictionary { op, .. } = &expr.kind else { return None };
    let (DictionaryOp::Entry { key, .. } | DictionaryOp::Store { key, .. } | DictionaryOp::Forget(Some(key))) = op
    else {
        return None;
    };
    let mut last: &Expr = key;
    while let Some(child) = last.children().pop() {
        last = child;
    }
    // A designator in parentheses (`D[(a1)]`) ends with them.
    let designator =
        matches!(last.kind, ExprKind::Squares(_) | ExprKind::Pieces(_)) && !source.get(..last.span.end)?.ends_with(')');
    (designator && source.get(last.span.end..)?.starts_with(']')).then_some(last)
}

/// The filter that gives an expression its value: the last of a block (a function's body too),
/// the filter of a transform that does not count, the filter after `P :`.
fn value_giver(expr: &Expr) -> &Expr {
    match &expr.kind {
        ExprKind::Block(filters) => filters.last().map_or(expr, value_giver),
        ExprKind::Transform { body, count: false, .. } | ExprKind::NoTransform(body) | ExprKind::At { body, .. } => {
            value_giver(body)
        }
        _ => expr,
    }
}

/// The operands `expr` takes as sets of squares.
fn set_operands(expr: &Expr) -> Vec<&Expr> {
    match &expr.kind {
        ExprKind::Binary(BinaryOp::Union | BinaryOp::Intersection | BinaryOp::In, left, right) => {
            if type_of(left) == Type::Set { vec![left, right] } else { Vec::new() }
        }
        ExprKind::Unary(UnaryOp::Count | UnaryOp::Complement, operand) => vec![operand],
        ExprKind::PieceId(operand)
        | ExprKind::TypeName(operand)
        | ExprKind::PieceName(operand)
        | ExprKind::Power(operand) => {
            vec![operand]
        }
        ExprKind::Shade { set, .. } => vec![set],
        ExprKind::Sort { value, .. } => vec![value],
        ExprKind::Attacks { attackers, targets, .. } => vec![attackers, targets],
        ExprKind::Arrows { sets, .. } | ExprKind::XRay(sets) => sets.iter().collect(),
        ExprKind::Assign { value, .. } => vec![value],
        ExprKind::Dictionary { op, .. } => match op {
            DictionaryOp::Entry { key, .. } | DictionaryOp::Forget(Some(key)) => vec![key],
            DictionaryOp::Store { key, value } => vec![key, value],
            _ => Vec::new(),
        },
        ExprKind::SquareNumber { set, .. } | ExprKind::Direction { set, .. } | ExprKind::Loop { set, .. } => vec![set],
        ExprKind::Ray { sets, .. } => sets.iter().collect(),
        ExprKind::Pin { from, through, to, .. } => {
            [from, through, to].into_iter().flatten().map(|set| &**set).collect()
        }
        _ => Vec::new(),
    }
}
