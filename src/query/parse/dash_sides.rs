//! The sides of a move dash, as CQL 6.2 reads them. A dash binds looser than the set operators
//! around it (the arrows, `|`, `&`, `attacks`, `attackedby`, `:` and the prefix `~`): the set
//! expression that touches it on the left is its whole left side (`e2 & P--e4` is
//! `(e2 & P)--e4`, `~P--e4` is `(~P)--e4`), and the one that begins right after it is its whole
//! right side (`P--e4 | d4` is `P--(e4 | d4)`, as is `countmoves P--e4 | d4` and `move legal
//! P--e4 | d4`). The grammar reads a dash with the operands that touch it; the climb then moves
//! the operators around it into its sides.

use super::climb::OpToken;
use super::{Builder, Built, Rule, placeholder};
use crate::query::ast::{DashWhen, Expr, ExprKind, Span};

/// The level a dash binds at in the climb: looser than the set operators, tighter than `* / %`.
pub(super) const DASH_LEVEL: u8 = 8;

/// Whether an infix operator takes sets, and so binds tighter than a dash.
pub(super) fn is_set_operator(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::op_arrow_right
            | Rule::op_arrow_left
            | Rule::op_union
            | Rule::op_intersection
            | Rule::op_attacks
            | Rule::op_attackedby
            | Rule::op_colon
    )
}

/// The left side of a dash written touching it (`P` of `P--e4`), not one inside parentheses
/// (`(P--e4)`) nor after `countmoves` or `previous`.
fn tied_left_side(expr: &mut Expr) -> Option<&mut Box<Expr>> {
    let start = expr.span.start;
    match &mut expr.kind {
        ExprKind::Dash { from: Some(from), when: DashWhen::Next, .. } if from.span.start == start => Some(from),
        _ => None,
    }
}

/// The right side of a dash, or of a legal dash, that ends the filter and touches its dash sign
/// (`e4` of `P--e4`, `countmoves P--e4`, `move legal P--e4`): one that a promotion or a target
/// follows is closed.
fn open_right_side<'e>(expr: &'e mut Expr, source: &str) -> Option<&'e mut Box<Expr>> {
    let end = expr.span.end;
    let open = |to: &Expr| {
        let before = source.get(..to.span.start).unwrap_or("");
        to.span.end == end && ["--", "――", "[x]", "×"].iter().any(|sign| before.ends_with(sign))
    };
    match &mut expr.kind {
        ExprKind::Dash { to: Some(to), promote: None, target: None, .. } if open(to) => Some(to),
        ExprKind::Move(filter) if filter.to.as_deref().is_some_and(open) => filter.to.as_mut(),
        _ => None,
    }
}

impl Builder {
    /// `left op right`, where a dash on the right whose left side touches it takes `left op`
    /// into that side.
    pub(super) fn infix_beside_dash(&mut self, left: Built, op: OpToken, right: Built) -> Built {
        if !is_set_operator(op.rule) {
            return self.infix(left, op, right);
        }
        self.apply_to_left_side(right, |builder, side| builder.infix(left, op, side))
    }

    /// `~` applied to a dash whose left side touches it: the complement of that side.
    pub(super) fn complement_beside_dash(&mut self, op: OpToken, operand: Built) -> Built {
        if op.rule != Rule::op_complement {
            return self.prefix(op, operand);
        }
        self.apply_to_left_side(operand, |builder, side| builder.prefix(op, side))
    }

    /// `apply` on the left side of `built` where it is a dash whose left side touches it, the
    /// result put back as that side; `apply` on `built` itself otherwise.
    fn apply_to_left_side(&mut self, built: Built, apply: impl FnOnce(&mut Self, Built) -> Built) -> Built {
        let Built::Tree(mut dash, depth) = built else { return apply(self, built) };
        let Some(from) = tied_left_side(&mut dash) else { return apply(self, Built::Tree(dash, depth)) };
        let side = std::mem::replace(from.as_mut(), placeholder(Span::default()));
        let built = apply(self, Built::Tree(side, depth));
        let (side, side_depth) = self.finish(built);
        Built::Tree(self.with_left_side(dash, side), depth.max(side_depth + 1))
    }

    /// The dash with its left side replaced, its span grown to hold it.
    fn with_left_side(&self, mut dash: Expr, side: Expr) -> Expr {
        dash.span = side.span.join(dash.span);
        if let Some(from) = tied_left_side_any(&mut dash) {
            **from = side;
        }
        dash
    }

    /// Whether `built` is a dash with an open right side that the next operator goes into.
    pub(super) fn right_side_open(&self, built: &mut Built, next: Rule) -> bool {
        match built {
            Built::Tree(expr, _) => is_set_operator(next) && open_right_side(expr, &self.source).is_some(),
            _ => false,
        }
    }

    /// The dash with its right side taken out (a placeholder left in its place), and that side.
    pub(super) fn take_right_side(&self, dash: &mut Expr) -> Expr {
        let side = open_right_side(dash, &self.source).expect("climb: a dash with an open right side");
        std::mem::replace(side.as_mut(), placeholder(Span::default()))
    }

    /// The dash with `side` put back as its right side, its span grown to hold it.
    pub(super) fn with_right_side(&self, mut dash: Expr, side: Expr) -> Expr {
        dash.span = dash.span.join(side.span);
        match &mut dash.kind {
            ExprKind::Dash { to: Some(to), .. } => **to = side,
            ExprKind::Move(filter) => filter.to = Some(Box::new(side)),
            _ => unreachable!("climb: a right side put back into a dash"),
        }
        dash
    }
}

/// The left side of a dash, whatever its span now (for putting a built side back).
fn tied_left_side_any(expr: &mut Expr) -> Option<&mut Box<Expr>> {
    match &mut expr.kind {
        ExprKind::Dash { from: Some(from), .. } => Some(from),
        _ => None,
    }
}

/// The set written last in a filter whose set parameters CQL 6.2 reads as a single operand
/// (`light S`, `up S`, `move ... from S`, `pin ... to S`): a dash is no part of such a
/// parameter, so `light a1--b2` is `(light a1)--b2`.
fn last_set_parameter(expr: &mut Expr) -> Option<&mut Box<Expr>> {
    let end = expr.span.end;
    match &mut expr.kind {
        ExprKind::Shade { set, .. } | ExprKind::Direction { set, .. } => Some(set),
        ExprKind::Move(filter) => {
            [&mut filter.from, &mut filter.to, &mut filter.capture, &mut filter.en_passant_square]
                .into_iter()
                .flatten()
                .find(|set| set.span.end == end)
        }
        ExprKind::Pin { from, through, to, .. } => {
            [from, through, to].into_iter().flatten().find(|set| set.span.end == end)
        }
        _ => None,
    }
}

/// `filter` whose last set parameter is a dash with its left side touching it (`light a1--b2`,
/// as the grammar reads it): the dash, with the filter (its parameter now that left side) as
/// its left side. Any other filter as it is.
pub(super) fn dash_after_set_parameter(mut filter: Expr) -> Expr {
    let Some(parameter) = last_set_parameter(&mut filter) else { return filter };
    let Some(left) = tied_left_side(parameter) else { return filter };
    let side = std::mem::replace(left.as_mut(), placeholder(Span::default()));
    let side_end = side.span.end;
    let mut dash = std::mem::replace(parameter.as_mut(), side);
    filter.span.end = side_end;
    dash.span.start = filter.span.start;
    if let Some(from) = tied_left_side_any(&mut dash) {
        **from = filter;
    }
    dash
}
