//! Transforms expanded when a query is compiled: each transformed copy of a compiled filter is a
//! filter of its own, with its squares mapped on the variant's board and, for `flipcolor`, its
//! colours swapped. Copies that push a square off the board do not exist; equal copies count once.

use std::collections::HashSet;

use super::ast::{Span, TransformKind};
use super::compile::Compiler;
use super::diagnostic::Diagnostic;
use super::plan::{FilterNode, MoveNode, NumberNode, PieceClass, SetNode, Step};
use crate::board::{SquareMap, SquareSet};
use crate::variant::Piece;

/// The most copies one transform may make (shifts on a 26x26 board make 2,601 at most).
const MAX_COPIES: usize = 20_000;

/// One transformed copy: a square map, and whether colours swap.
#[derive(Clone, Copy, Debug)]
struct Copy {
    map: SquareMap,
    swap: bool,
}

impl<const W: usize> Compiler<'_, W> {
    /// The distinct copies of what `compile` builds under a transform, the original first.
    pub(super) fn copies<T: Mapped<W> + Clone + Eq + std::hash::Hash>(
        &mut self,
        transform: TransformKind,
        span: Span,
        compile: impl FnOnce(&mut Self) -> T,
    ) -> Vec<T> {
        let original = compile(self);
        let Some(maps) = self.maps(transform, span) else { return vec![original] };
        let mut seen = HashSet::new();
        let mut copies = Vec::new();
        for copy in maps {
            if let Some(mapped) = original.mapped(&mut Mapper { compiler: self, copy })
                && seen.insert(mapped.clone())
            {
                copies.push(mapped);
            }
        }
        if copies.len() > MAX_COPIES {
            self.diagnostics.push(Diagnostic::new(
                span,
                format!("this transform makes {} copies of its filter, more than {MAX_COPIES}", copies.len()),
            ));
            copies.truncate(1);
        }
        copies
    }

    /// The copies a transform makes on the variant's board; None (and a mistake) where the
    /// transform does not exist on it.
    fn maps(&mut self, transform: TransformKind, span: Span) -> Option<Vec<Copy>> {
        let geometry = self.variant.geometry;
        let plain = |maps: Vec<SquareMap>| maps.into_iter().map(|map| Copy { map, swap: false }).collect();
        let needs_square =
            matches!(transform, TransformKind::FlipDiagonal | TransformKind::FlipOffDiagonal | TransformKind::Rotate90);
        if needs_square && !geometry.is_square() {
            self.diagnostics.push(Diagnostic::new(
                span,
                format!(
                    "'{}' needs a square board, and the {geometry} board of {} is not square",
                    transform.text(),
                    self.variant.name
                ),
            ));
            return None;
        }
        Some(match transform {
            TransformKind::Flip => plain(SquareMap::symmetries(geometry)),
            TransformKind::FlipVertical => plain(vec![SquareMap::Identity, SquareMap::FlipVertical]),
            TransformKind::FlipHorizontal => plain(vec![SquareMap::Identity, SquareMap::FlipHorizontal]),
            TransformKind::FlipDiagonal => plain(vec![SquareMap::Identity, SquareMap::FlipDiagonal]),
            TransformKind::FlipOffDiagonal => plain(vec![SquareMap::Identity, SquareMap::FlipAntiDiagonal]),
            TransformKind::FlipColor => {
                vec![Copy { map: SquareMap::Identity, swap: false }, Copy { map: SquareMap::FlipVertical, swap: true }]
            }
            TransformKind::Rotate90 => plain(SquareMap::rotations().to_vec()),
            TransformKind::Shift => plain(SquareMap::shifts(geometry, true, true)),
            TransformKind::ShiftHorizontal => plain(SquareMap::shifts(geometry, true, false)),
            TransformKind::ShiftVertical => plain(SquareMap::shifts(geometry, false, true)),
        })
    }
}

/// Maps the parts of a compiled node for one copy.
pub(super) struct Mapper<'c, 'a, const W: usize> {
    compiler: &'c mut Compiler<'a, W>,
    copy: Copy,
}

impl<const W: usize> Mapper<'_, '_, W> {
    fn squares(&self, squares: SquareSet<W>) -> Option<SquareSet<W>> {
        self.compiler.masks.map(squares, self.copy.map)
    }

    fn color(&self, color: crate::variant::Color) -> crate::variant::Color {
        if self.copy.swap { color.other() } else { color }
    }

    fn classes(&self, classes: &[PieceClass]) -> Vec<PieceClass> {
        classes.iter().map(|class| PieceClass { color: self.color(class.color), ..class.clone() }).collect()
    }

    fn backhand(&self, backhand: [crate::variant::KindSet; 2]) -> [crate::variant::KindSet; 2] {
        if self.copy.swap { [backhand[1], backhand[0]] } else { backhand }
    }
}

/// A compiled node that can be transformed.
pub(super) trait Mapped<const W: usize>: Sized {
    /// The node under the copy's map; None when a square leaves the board.
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self>;
}

fn all<const W: usize, T: Mapped<W>>(nodes: &[T], mapper: &mut Mapper<'_, '_, W>) -> Option<Vec<T>> {
    nodes.iter().map(|node| node.mapped(mapper)).collect()
}

fn boxed<const W: usize, T: Mapped<W>>(node: &T, mapper: &mut Mapper<'_, '_, W>) -> Option<Box<T>> {
    node.mapped(mapper).map(Box::new)
}

impl<const W: usize> Mapped<W> for FilterNode<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        Some(match self {
            FilterNode::NotEmpty(set) => FilterNode::NotEmpty(set.mapped(mapper)?),
            FilterNode::HasSquare(set) => FilterNode::HasSquare(set.mapped(mapper)?),
            FilterNode::PieceOn { piece, squares } => FilterNode::PieceOn {
                piece: Piece { kind: piece.kind, color: mapper.color(piece.color) },
                squares: mapper.squares(*squares)?,
            },
            FilterNode::HasValue(number) => FilterNode::HasValue(number.mapped(mapper)?),
            FilterNode::Compare(op, left, right) => {
                FilterNode::Compare(*op, left.mapped(mapper)?, right.mapped(mapper)?)
            }
            FilterNode::Subset(left, right) => FilterNode::Subset(left.mapped(mapper)?, right.mapped(mapper)?),
            FilterNode::All(filters) => FilterNode::All(all(filters, mapper)?),
            FilterNode::Any(filters) => FilterNode::Any(all(filters, mapper)?),
            FilterNode::Not(filter) => FilterNode::Not(boxed(&**filter, mapper)?),
            FilterNode::Turn(color) => FilterNode::Turn(mapper.color(*color)),
            FilterNode::Placement(pieces) => FilterNode::Placement(
                pieces
                    .iter()
                    .map(|(piece, squares)| {
                        let piece = Piece { kind: piece.kind, color: mapper.color(piece.color) };
                        Some((piece, mapper.squares(*squares)?))
                    })
                    .collect::<Option<_>>()?,
            ),
            FilterNode::Game(slot) if mapper.copy.swap => {
                let test = mapper.compiler.game_test(*slot).flip_color();
                FilterNode::Game(mapper.compiler.game_slot(test))
            }
            FilterNode::Line(steps) => FilterNode::Line(
                steps
                    .iter()
                    .map(|step| Some(Step { filter: step.filter.mapped(mapper)?, min: step.min, max: step.max }))
                    .collect::<Option<_>>()?,
            ),
            FilterNode::Constant(_)
            | FilterNode::Check
            | FilterNode::NoMove { .. }
            | FilterNode::Initial
            | FilterNode::Terminal
            | FilterNode::Game(_) => self.clone(),
        })
    }
}

impl<const W: usize> Mapped<W> for NumberNode<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        Some(match self {
            NumberNode::Count(set) => NumberNode::Count(set.mapped(mapper)?),
            NumberNode::Negate(value) => NumberNode::Negate(boxed(&**value, mapper)?),
            NumberNode::Abs(value) => NumberNode::Abs(boxed(&**value, mapper)?),
            NumberNode::Arithmetic(op, left, right) => {
                NumberNode::Arithmetic(*op, boxed(&**left, mapper)?, boxed(&**right, mapper)?)
            }
            NumberNode::Extreme { max, args } => NumberNode::Extreme { max: *max, args: all(args, mapper)? },
            NumberNode::Power(set) => NumberNode::Power(set.mapped(mapper)?),
            NumberNode::Game(slot) if mapper.copy.swap => {
                let test = mapper.compiler.game_test(*slot).flip_color();
                NumberNode::Game(mapper.compiler.game_slot(test))
            }
            NumberNode::Matching(filters) => NumberNode::Matching(all(filters, mapper)?),
            NumberNode::Constant(_) | NumberNode::Ply | NumberNode::MoveNumber | NumberNode::Game(_) => self.clone(),
        })
    }
}

impl<const W: usize> Mapped<W> for SetNode<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        Some(match self {
            SetNode::Squares { squares, backhand } => {
                SetNode::Squares { squares: mapper.squares(*squares)?, backhand: mapper.backhand(*backhand) }
            }
            SetNode::Pieces { classes, empty, squares, backhand } => SetNode::Pieces {
                classes: mapper.classes(classes),
                empty: *empty,
                squares: mapper.squares(*squares)?,
                backhand: *backhand,
            },
            SetNode::Union(left, right) => SetNode::Union(boxed(&**left, mapper)?, boxed(&**right, mapper)?),
            SetNode::UnionAll(sets) => SetNode::UnionAll(all(sets, mapper)?),
            SetNode::Intersection(left, right) => {
                SetNode::Intersection(boxed(&**left, mapper)?, boxed(&**right, mapper)?)
            }
            SetNode::Complement { set, backhand } => {
                SetNode::Complement { set: boxed(&**set, mapper)?, backhand: *backhand }
            }
            SetNode::Attacks { attackers, targets } => {
                SetNode::Attacks { attackers: boxed(&**attackers, mapper)?, targets: boxed(&**targets, mapper)? }
            }
            SetNode::Between(first, second) => SetNode::Between(boxed(&**first, mapper)?, boxed(&**second, mapper)?),
            SetNode::Ray { lines, sets } => SetNode::Ray { lines: *lines, sets: all(sets, mapper)? },
            SetNode::Pin { from, through, to } => SetNode::Pin {
                from: boxed(&**from, mapper)?,
                through: boxed(&**through, mapper)?,
                to: boxed(&**to, mapper)?,
            },
            SetNode::Move(node) => SetNode::Move(Box::new(MoveNode {
                from: optional(&node.from, mapper)?,
                to: optional(&node.to, mapper)?,
                capture: optional(&node.capture, mapper)?,
                promote: node.promote.as_ref().map(|classes| mapper.classes(classes)),
                ..(**node).clone()
            })),
        })
    }
}

/// An optional part, mapped: `Some(None)` when absent, None when it does not fit.
fn optional<const W: usize>(node: &Option<SetNode<W>>, mapper: &mut Mapper<'_, '_, W>) -> Option<Option<SetNode<W>>> {
    match node {
        None => Some(None),
        Some(node) => node.mapped(mapper).map(Some),
    }
}
