//! The compiled form of a query for one variant: masks sized to its board, piece letters resolved
//! to kinds, and nothing left to look up per position.

use crate::board::{Masks, SquareSet};
use crate::position::PositionView;
use crate::variant::{Color, KindSet, Piece};

use super::ast::BinaryOp;

/// Pieces of some kinds of one colour, perhaps only at one level (tier or orientation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PieceClass {
    pub color: Color,
    pub kinds: KindSet,
    pub level: Option<u8>,
}

/// A value that is a set: squares of the board, and kinds of each colour in the backhand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SetValue<const W: usize> {
    pub squares: SquareSet<W>,
    pub backhand: [KindSet; 2],
}

impl<const W: usize> SetValue<W> {
    fn is_empty(&self) -> bool {
        self.squares.is_empty() && self.backhand.iter().all(|kinds| kinds.is_empty())
    }

    fn count(&self, view: &impl PositionView<W>) -> i64 {
        let in_backhand: u32 = Color::ALL
            .into_iter()
            .flat_map(|color| self.backhand[color.index()].iter().map(move |kind| Piece { kind, color }))
            .map(|piece| view.in_backhand(piece))
            .sum();
        self.squares.count() as i64 + i64::from(in_backhand)
    }
}

/// A set expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SetNode<const W: usize> {
    /// Squares fixed when the query was compiled, and backhand kinds (all of them, or none).
    Squares { squares: SquareSet<W>, backhand: [KindSet; 2] },
    /// The squares (and backhand slots) holding pieces of some classes, or empty squares.
    Pieces { classes: Vec<PieceClass>, empty: bool, squares: SquareSet<W>, backhand: bool },
    /// Either set.
    Union(Box<SetNode<W>>, Box<SetNode<W>>),
    /// Both sets.
    Intersection(Box<SetNode<W>>, Box<SetNode<W>>),
    /// The board's squares not in the set, and with `backhand`, the backhand's pieces not in it.
    Complement { set: Box<SetNode<W>>, backhand: bool },
}

/// A number expression; `None` is a number without a value (a division by zero).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum NumberNode<const W: usize> {
    Constant(i64),
    Count(SetNode<W>),
    Negate(Box<NumberNode<W>>),
    Abs(Box<NumberNode<W>>),
    Arithmetic(BinaryOp, Box<NumberNode<W>>, Box<NumberNode<W>>),
    Extreme { max: bool, args: Vec<NumberNode<W>> },
}

/// A filter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum FilterNode<const W: usize> {
    /// Matches when the set is not empty.
    NotEmpty(SetNode<W>),
    /// Matches when the set, which holds no backhand slot, has a square.
    HasSquare(SetNode<W>),
    /// Matches when a piece stands on one of the squares (the commonest designator, `Ra-h7`,
    /// evaluated without a walk of the set tree).
    PieceOn {
        piece: Piece,
        squares: SquareSet<W>,
    },
    /// Matches when the number has a value.
    HasValue(NumberNode<W>),
    /// Compares two numbers.
    Compare(BinaryOp, NumberNode<W>, NumberNode<W>),
    /// Every square and backhand slot of the left set is in the right one.
    Subset(SetNode<W>, SetNode<W>),
    All(Vec<FilterNode<W>>),
    Any(Vec<FilterNode<W>>),
    Not(Box<FilterNode<W>>),
}

/// A query compiled for boards whose square sets take `W` words.
#[derive(Clone, Debug)]
pub struct Program<const W: usize> {
    pub(crate) masks: Masks<W>,
    pub(crate) filters: Vec<FilterNode<W>>,
}

impl<const W: usize> Program<W> {
    /// Whether the query looks at no position at all (an empty body): then the first position
    /// of a game decides it, and its moves need not be replayed.
    #[must_use]
    pub fn is_game_level(&self) -> bool {
        self.filters.is_empty()
    }

    /// Whether every filter of the body matches the position.
    #[inline]
    pub fn matches(&self, view: &impl PositionView<W>) -> bool {
        self.filters.iter().all(|filter| self.filter(filter, view))
    }

    fn filter(&self, node: &FilterNode<W>, view: &impl PositionView<W>) -> bool {
        match node {
            FilterNode::NotEmpty(set) => !self.set(set, view).is_empty(),
            FilterNode::HasSquare(set) => !self.squares(set, view).is_empty(),
            FilterNode::PieceOn { piece, squares } => {
                (view.kind(piece.kind) & view.color(piece.color) & *squares).any()
            }
            FilterNode::HasValue(number) => self.number(number, view).is_some(),
            FilterNode::Compare(op, left, right) => {
                let (Some(left), Some(right)) = (self.number(left, view), self.number(right, view)) else {
                    return false;
                };
                match op {
                    BinaryOp::Eq => left == right,
                    BinaryOp::Ne => left != right,
                    BinaryOp::Lt => left < right,
                    BinaryOp::Le => left <= right,
                    BinaryOp::Gt => left > right,
                    BinaryOp::Ge => left >= right,
                    _ => unreachable!("compile: {op:?} is no comparison"),
                }
            }
            FilterNode::Subset(left, right) => {
                let left = self.set(left, view);
                let right = self.set(right, view);
                left.squares.is_subset(right.squares)
                    && (0..2).all(|c| left.backhand[c].difference(right.backhand[c]).is_empty())
            }
            FilterNode::All(filters) => filters.iter().all(|filter| self.filter(filter, view)),
            FilterNode::Any(filters) => filters.iter().any(|filter| self.filter(filter, view)),
            FilterNode::Not(filter) => !self.filter(filter, view),
        }
    }

    fn number(&self, node: &NumberNode<W>, view: &impl PositionView<W>) -> Option<i64> {
        match node {
            NumberNode::Constant(value) => Some(*value),
            NumberNode::Count(set) => Some(self.set(set, view).count(view)),
            NumberNode::Negate(value) => self.number(value, view)?.checked_neg(),
            NumberNode::Abs(value) => self.number(value, view)?.checked_abs(),
            NumberNode::Arithmetic(op, left, right) => {
                let left = self.number(left, view)?;
                let right = self.number(right, view)?;
                match op {
                    BinaryOp::Add => left.checked_add(right),
                    BinaryOp::Sub => left.checked_sub(right),
                    BinaryOp::Mul => left.checked_mul(right),
                    BinaryOp::Div => left.checked_div(right),
                    BinaryOp::Rem => left.checked_rem(right),
                    _ => unreachable!("compile: {op:?} is no arithmetic"),
                }
            }
            NumberNode::Extreme { max, args } => {
                let values = args.iter().filter_map(|arg| self.number(arg, view));
                if *max { values.max() } else { values.min() }
            }
        }
    }

    /// The squares of a set: `self.set(node, view).squares`, without the backhand's part.
    fn squares(&self, node: &SetNode<W>, view: &impl PositionView<W>) -> SquareSet<W> {
        match node {
            SetNode::Squares { squares, .. } => *squares,
            SetNode::Pieces { classes, empty, squares, .. } => self.on_board(classes, *empty, view) & *squares,
            SetNode::Union(left, right) => self.squares(left, view) | self.squares(right, view),
            SetNode::Intersection(left, right) => self.squares(left, view) & self.squares(right, view),
            SetNode::Complement { set, .. } => self.masks.complement(self.squares(set, view)),
        }
    }

    /// The squares holding pieces of the classes (and the empty squares, with `empty`).
    fn on_board(&self, classes: &[PieceClass], empty: bool, view: &impl PositionView<W>) -> SquareSet<W> {
        let mut on_board = if empty { self.masks.complement(view.occupied()) } else { SquareSet::EMPTY };
        for class in classes {
            let mut pieces = view.pieces(class.color, class.kinds);
            if let Some(level) = class.level {
                pieces &= view.with_level(level);
            }
            on_board |= pieces;
        }
        on_board
    }

    fn set(&self, node: &SetNode<W>, view: &impl PositionView<W>) -> SetValue<W> {
        match node {
            SetNode::Squares { squares, backhand } => SetValue {
                squares: *squares,
                backhand: Color::ALL.map(|color| {
                    let kinds = backhand[color.index()];
                    if kinds.is_empty() { kinds } else { kinds.intersection(view.backhand_kinds(color)) }
                }),
            },
            SetNode::Pieces { classes, empty, squares, backhand } => {
                let on_board = self.on_board(classes, *empty, view);
                let mut in_backhand = [KindSet::EMPTY; 2];
                for class in classes {
                    if *backhand && class.level.is_none() {
                        let held = class.kinds.intersection(view.backhand_kinds(class.color));
                        in_backhand[class.color.index()] = in_backhand[class.color.index()].union(held);
                    }
                }
                SetValue { squares: on_board & *squares, backhand: in_backhand }
            }
            SetNode::Union(left, right) => {
                let left = self.set(left, view);
                let right = self.set(right, view);
                SetValue {
                    squares: left.squares | right.squares,
                    backhand: [0, 1].map(|c| left.backhand[c].union(right.backhand[c])),
                }
            }
            SetNode::Intersection(left, right) => {
                let left = self.set(left, view);
                let right = self.set(right, view);
                SetValue {
                    squares: left.squares & right.squares,
                    backhand: [0, 1].map(|c| left.backhand[c].intersection(right.backhand[c])),
                }
            }
            SetNode::Complement { set, backhand } => {
                let inner = self.set(set, view);
                let others = |color: Color| {
                    if *backhand {
                        view.backhand_kinds(color).difference(inner.backhand[color.index()])
                    } else {
                        KindSet::EMPTY
                    }
                };
                SetValue { squares: self.masks.complement(inner.squares), backhand: Color::ALL.map(others) }
            }
        }
    }
}
