//! Transforms expanded when a query is compiled: each transformed copy of a compiled filter is a
//! filter of its own, with its squares mapped on the variant's board and, for `flipcolor`, its
//! colours swapped. Copies that push a square off the board do not exist; equal copies count once.

use std::collections::HashSet;
use std::fmt::Debug;
use std::hash::{Hash, Hasher};

use super::ast::{BinaryOp, RayLines, Span, TransformKind};
use super::compile::Compiler;
use super::diagnostic::Diagnostic;
use super::plan::{
    CommentNode, Conditional, DashNode, DashTarget, EchoBody, EchoNode, FilterNode, FindCount, FindNode, LoopNode,
    MoveNode, NumberNode, PieceClass, PositionNode, Sequence, SetNode, Step, TextNode, TextValue, ValueNode, XRayNode,
};
use crate::board::{SquareMap, SquareSet};
use crate::variant::Piece;

/// The most copies one transform may make (shifts on a 26x26 board make 2,601 at most).
const MAX_COPIES: usize = 20_000;

/// The most parts of filters the copies of one query's transforms may map together: transforms
/// nested in one another multiply their work (`shift shift Ka1` on 8x8 maps about 100,000).
const MAX_MAPPING_WORK: usize = 200_000;

/// One transformed copy: a square map, and whether colours swap.
#[derive(Clone, Copy, Debug)]
struct Copy {
    map: SquareMap,
    swap: bool,
    /// Eighth turns of the directions (`rotate45`), whose squares stay where they are.
    turns: u8,
}

/// The eight directions, each an eighth turn from the one before.
const EIGHTH_TURNS: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

impl<const W: usize> Compiler<'_, W> {
    /// The distinct copies of what `compile` builds under a transform, the original first.
    pub(super) fn copies<T: Mapped<W> + Canonical + Eq + std::hash::Hash>(
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
            if self.mapping_work > MAX_MAPPING_WORK {
                // Transforms nested in one another multiply their copies: the work is bounded.
                self.diagnostics.push(Diagnostic::new(
                    span,
                    format!(
                        "the transforms around this filter make too many copies of it together (more than \
                         {MAX_MAPPING_WORK} parts mapped)"
                    ),
                ));
                return vec![original];
            }
            if let Some(mapped) = original.mapped(&mut Mapper { compiler: self, copy })
                && seen.insert(mapped.canonical())
            {
                copies.push(mapped);
            }
        }
        if std::mem::take(&mut self.rotate45_squares) {
            self.diagnostics.push(Diagnostic::new(
                span,
                "rotate45 turns directions, not squares: it cannot be applied to a particular square (write it \
                 without squares, as in rotate45 ray (B k))",
            ));
            return vec![original];
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
        let plain = |maps: Vec<SquareMap>| maps.into_iter().map(|map| Copy { map, swap: false, turns: 0 }).collect();
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
                vec![
                    Copy { map: SquareMap::Identity, swap: false, turns: 0 },
                    Copy { map: SquareMap::FlipVertical, swap: true, turns: 0 },
                ]
            }
            // The other colour's view alone, without the original.
            TransformKind::ReverseColor => vec![Copy { map: SquareMap::FlipVertical, swap: true, turns: 0 }],
            TransformKind::Rotate45 => {
                (0..8).map(|turns| Copy { map: SquareMap::Identity, swap: false, turns }).collect()
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
    fn squares(&mut self, squares: SquareSet<W>) -> Option<SquareSet<W>> {
        if self.copy.turns != 0 && squares != self.compiler.masks.full() && !squares.is_empty() {
            // An eighth turn takes no square to a square: only directions turn.
            self.compiler.rotate45_squares = true;
            return None;
        }
        self.compiler.masks.map(squares, self.copy.map)
    }

    /// A direction of a copy: turned, then mapped.
    fn step(&self, step: (i32, i32)) -> (i32, i32) {
        let turned = match EIGHTH_TURNS.iter().position(|&direction| direction == step) {
            Some(index) if self.copy.turns != 0 => EIGHTH_TURNS[(index + usize::from(self.copy.turns)) % 8],
            _ => step,
        };
        self.copy.map.apply_step(turned)
    }

    /// The lines a ray follows in a copy: an odd number of eighth turns swaps them.
    fn lines(&self, lines: RayLines) -> RayLines {
        match lines {
            RayLines::Orthogonal if self.copy.turns % 2 == 1 => RayLines::Diagonal,
            RayLines::Diagonal if self.copy.turns % 2 == 1 => RayLines::Orthogonal,
            lines => lines,
        }
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
        mapper.compiler.mapping_work += 1;
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
            FilterNode::SameSquares(left, right) => {
                FilterNode::SameSquares(left.mapped(mapper)?, right.mapped(mapper)?)
            }
            FilterNode::CompareTexts(op, left, right) => {
                FilterNode::CompareTexts(*op, left.mapped(mapper)?, right.mapped(mapper)?)
            }
            FilterNode::HasText(text) => FilterNode::HasText(text.mapped(mapper)?),
            FilterNode::ComparePositions(op, left, right) => {
                FilterNode::ComparePositions(*op, left.mapped(mapper)?, right.mapped(mapper)?)
            }
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
            FilterNode::Line { steps, slot, in_order, options } => FilterNode::Line {
                options: *options,
                steps: steps
                    .iter()
                    .map(|step| Some(Step { filter: step.filter.mapped(mapper)?, min: step.min, max: step.max }))
                    .collect::<Option<_>>()?,
                slot: *slot,
                in_order: *in_order,
            },
            FilterNode::Assign { slot, op, value } => {
                FilterNode::Assign { slot: *slot, op: *op, value: value.mapped(mapper)? }
            }
            FilterNode::If(conditional) => FilterNode::If(boxed(&**conditional, mapper)?),
            FilterNode::LoopAll(node) => FilterNode::LoopAll(boxed(&**node, mapper)?),
            FilterNode::HasPosition(position) => FilterNode::HasPosition(position.mapped(mapper)?),
            FilterNode::At(position, filter) => FilterNode::At(position.mapped(mapper)?, boxed(&**filter, mapper)?),
            FilterNode::Comment(node) => FilterNode::Comment(boxed(&**node, mapper)?),
            FilterNode::Echo(node) => FilterNode::Echo(boxed(&**node, mapper)?),
            FilterNode::Repeat(test, body) => FilterNode::Repeat(
                match test {
                    Some(test) => Some(boxed(&**test, mapper)?),
                    None => None,
                },
                boxed(&**body, mapper)?,
            ),
            FilterNode::Dash(node) => FilterNode::Dash(boxed(&**node, mapper)?),
            FilterNode::Mainline(_)
            | FilterNode::Constant(_)
            | FilterNode::Check
            | FilterNode::NoMove { .. }
            | FilterNode::Initial
            | FilterNode::Terminal
            | FilterNode::Game(_) => self.clone(),
        })
    }
}

impl<const W: usize> Mapped<W> for ValueNode<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        Some(match self {
            ValueNode::Number(number) => ValueNode::Number(number.mapped(mapper)?),
            ValueNode::Set(set) => ValueNode::Set(set.mapped(mapper)?),
            ValueNode::Position(position) => ValueNode::Position(position.mapped(mapper)?),
        })
    }
}

impl<const W: usize> Mapped<W> for PositionNode<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        mapper.compiler.mapping_work += 1;
        Some(match self {
            PositionNode::Find(find) => PositionNode::Find(boxed(&**find, mapper)?),
            PositionNode::Lca(first, second) => PositionNode::Lca(boxed(&**first, mapper)?, boxed(&**second, mapper)?),
            PositionNode::At(from, to) => PositionNode::At(boxed(&**from, mapper)?, boxed(&**to, mapper)?),
            PositionNode::If(conditional) => PositionNode::If(boxed(&**conditional, mapper)?),
            PositionNode::Block(block) => PositionNode::Block(boxed(&**block, mapper)?),
            PositionNode::Line(line) => PositionNode::Line(boxed(&**line, mapper)?),
            PositionNode::Current
            | PositionNode::Initial
            | PositionNode::Parent
            | PositionNode::Child(_)
            | PositionNode::Variable(_) => self.clone(),
        })
    }
}

impl<const W: usize> Mapped<W> for CommentNode<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        let parts = self
            .parts
            .iter()
            .map(|part| {
                Some(match part {
                    TextNode::Number(number) => TextNode::Number(number.mapped(mapper)?),
                    TextNode::Set(set) => TextNode::Set(set.mapped(mapper)?),
                    TextNode::Position(position) => TextNode::Position(position.mapped(mapper)?),
                    TextNode::Filter(filter) => TextNode::Filter(filter.mapped(mapper)?),
                    TextNode::TextValue(value) => TextNode::TextValue(value.mapped(mapper)?),
                    TextNode::Text(_) | TextNode::Variable { .. } => part.clone(),
                })
            })
            .collect::<Option<_>>()?;
        Some(CommentNode { message: self.message, quiet: self.quiet, parts })
    }
}

impl<const W: usize> Mapped<W> for TextValue<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        Some(match self {
            TextValue::Literal(_) => self.clone(),
            TextValue::TypeName(set) => TextValue::TypeName(set.mapped(mapper)?),
        })
    }
}

impl<const W: usize> Mapped<W> for DashNode<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        Some(DashNode {
            from: optional(&self.from, mapper)?,
            to: optional(&self.to, mapper)?,
            capture: self.capture,
            promote: self.promote,
            target: match &self.target {
                None => None,
                Some(DashTarget::Filter(filter)) => Some(DashTarget::Filter(filter.mapped(mapper)?)),
                Some(DashTarget::Number(number)) => Some(DashTarget::Number(number.mapped(mapper)?)),
                Some(DashTarget::Set(set)) => Some(DashTarget::Set(set.mapped(mapper)?)),
            },
        })
    }
}

impl<const W: usize> Mapped<W> for EchoNode<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        let body = match &self.body {
            EchoBody::Filter(filter) => EchoBody::Filter(filter.mapped(mapper)?),
            EchoBody::Number(number) => EchoBody::Number(number.mapped(mapper)?),
        };
        Some(EchoNode { body, ..self.clone() })
    }
}

impl<const W: usize> Mapped<W> for FindNode<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        Some(FindNode { filter: self.filter.mapped(mapper)?, ..*self })
    }
}

impl<const W: usize, T: Mapped<W>> Mapped<W> for Conditional<T, W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        Some(Conditional {
            condition: self.condition.mapped(mapper)?,
            then: self.then.mapped(mapper)?,
            otherwise: match &self.otherwise {
                Some(otherwise) => Some(otherwise.mapped(mapper)?),
                None => None,
            },
        })
    }
}

impl<const W: usize, T: Mapped<W>> Mapped<W> for Sequence<T, W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        Some(Sequence { before: all(&self.before, mapper)?, last: self.last.mapped(mapper)? })
    }
}

impl<const W: usize> Mapped<W> for LoopNode<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        Some(LoopNode {
            over: self.over,
            slot: self.slot,
            set: self.set.mapped(mapper)?,
            body: self.body.mapped(mapper)?,
        })
    }
}

impl<const W: usize> Mapped<W> for NumberNode<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        mapper.compiler.mapping_work += 1;
        Some(match self {
            NumberNode::Count(set) => NumberNode::Count(set.mapped(mapper)?),
            NumberNode::Negate(value) => NumberNode::Negate(boxed(&**value, mapper)?),
            NumberNode::Abs(value) => NumberNode::Abs(boxed(&**value, mapper)?),
            NumberNode::Arithmetic(op, left, right) => {
                NumberNode::Arithmetic(*op, boxed(&**left, mapper)?, boxed(&**right, mapper)?)
            }
            NumberNode::Extreme { max, args } => NumberNode::Extreme { max: *max, args: all(args, mapper)? },
            NumberNode::Power(set) => NumberNode::Power(set.mapped(mapper)?),
            NumberNode::Square { what, set } => NumberNode::Square { what: *what, set: set.mapped(mapper)? },
            NumberNode::Game(slot) if mapper.copy.swap => {
                let test = mapper.compiler.game_test(*slot).flip_color();
                NumberNode::Game(mapper.compiler.game_slot(test))
            }
            NumberNode::Matching(filters) => NumberNode::Matching(all(filters, mapper)?),
            NumberNode::If(conditional) => NumberNode::If(boxed(&**conditional, mapper)?),
            NumberNode::FindCount(count) => NumberNode::FindCount(Box::new(FindCount {
                find: count.find.mapped(mapper)?,
                min: optional_number(&count.min, mapper)?,
                max: optional_number(&count.max, mapper)?,
            })),
            NumberNode::Echo(node) => NumberNode::Echo(boxed(&**node, mapper)?),
            NumberNode::Dash(node) => NumberNode::Dash(boxed(&**node, mapper)?),
            NumberNode::Block(block) => NumberNode::Block(boxed(&**block, mapper)?),
            NumberNode::Line(line) => NumberNode::Line(boxed(&**line, mapper)?),
            NumberNode::Compared(op, left, right) => {
                NumberNode::Compared(*op, boxed(&**left, mapper)?, boxed(&**right, mapper)?)
            }
            NumberNode::Distance(first, second) => {
                NumberNode::Distance(boxed(&**first, mapper)?, boxed(&**second, mapper)?)
            }
            NumberNode::ConsecutiveMoves { positions, min, max } => NumberNode::ConsecutiveMoves {
                positions: Box::new((positions.0.mapped(mapper)?, positions.1.mapped(mapper)?)),
                min: *min,
                max: *max,
            },
            NumberNode::Sorted(value) => NumberNode::Sorted(boxed(&**value, mapper)?),
            NumberNode::At(position, number) => NumberNode::At(boxed(&**position, mapper)?, boxed(&**number, mapper)?),
            // A variable's value is what it was given, mapped or not where it was given.
            NumberNode::Constant(_)
            | NumberNode::Ply
            | NumberNode::MoveNumber
            | NumberNode::SideToMove
            | NumberNode::Game(_)
            | NumberNode::Variable(_)
            | NumberNode::GameNumber
            | NumberNode::SortRecorded => self.clone(),
        })
    }
}

impl<const W: usize> Mapped<W> for SetNode<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        mapper.compiler.mapping_work += 1;
        Some(match self {
            // A square made of numbers is where the numbers say, in every copy.
            SetNode::MakeSquare(file, rank) => {
                SetNode::MakeSquare(Box::new(file.mapped(mapper)?), Box::new(rank.mapped(mapper)?))
            }
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
            SetNode::Shade { light, set } => SetNode::Shade { light: *light, set: boxed(&**set, mapper)? },
            SetNode::Direction { steps, min, max, set } => SetNode::Direction {
                steps: steps.iter().map(|&step| mapper.step(step)).collect(),
                min: *min,
                max: *max,
                set: boxed(&**set, mapper)?,
            },
            SetNode::Attacks { attackers, targets, side } => SetNode::Attacks {
                attackers: boxed(&**attackers, mapper)?,
                targets: boxed(&**targets, mapper)?,
                side: *side,
            },
            SetNode::Between(first, second) => SetNode::Between(boxed(&**first, mapper)?, boxed(&**second, mapper)?),
            SetNode::Ray { lines, sets } => SetNode::Ray { lines: mapper.lines(*lines), sets: all(sets, mapper)? },
            SetNode::XRay(node) => {
                SetNode::XRay(Box::new(XRayNode { sets: all(&node.sets, mapper)?, ..(**node).clone() }))
            }
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
            SetNode::If(conditional) => SetNode::If(boxed(&**conditional, mapper)?),
            SetNode::Loop(node) => SetNode::Loop(boxed(&**node, mapper)?),
            SetNode::At(position, set) => SetNode::At(boxed(&**position, mapper)?, boxed(&**set, mapper)?),
            SetNode::Block(block) => SetNode::Block(boxed(&**block, mapper)?),
            SetNode::Variable(_) | SetNode::Unmapped(_) | SetNode::Laser(_) => self.clone(),
            SetNode::Dash(node) => SetNode::Dash(boxed(&**node, mapper)?),
        })
    }
}

/// An optional number, mapped: `Some(None)` when absent, None when it does not fit.
fn optional_number<const W: usize>(
    node: &Option<NumberNode<W>>,
    mapper: &mut Mapper<'_, '_, W>,
) -> Option<Option<NumberNode<W>>> {
    match node {
        None => Some(None),
        Some(node) => node.mapped(mapper).map(Some),
    }
}

/// An optional part, mapped: `Some(None)` when absent, None when it does not fit.
fn optional<const W: usize>(node: &Option<SetNode<W>>, mapper: &mut Mapper<'_, '_, W>) -> Option<Option<SetNode<W>>> {
    match node {
        None => Some(None),
        Some(node) => node.mapped(mapper).map(Some),
    }
}

/// A compiled node in a form where the order and grouping of parts that commute do not show, so
/// that copies equal in meaning are counted once: under `flip`, `{Ra1 Rh8}` becomes `{Ra8 Rh1}`
/// by one symmetry and `{Rh1 Ra8}` by another, one copy; `Ra1 | Rd5 | Rh8` is its own mirror in
/// the a8-h1 diagonal although the mirror groups it as `(Rh8 | Rd5) | Ra1`.
pub(super) trait Canonical: Sized {
    /// The key form of the node: the parts that commute flattened, in a fixed order, and (where
    /// repeating a part changes nothing) each once.
    fn canonical(&self) -> Self;
}

/// Canonical parts in a fixed order; without repeats when `dedup`.
fn sorted<T: Canonical + Debug + Hash + Eq>(nodes: impl IntoIterator<Item = T>, dedup: bool) -> Vec<T> {
    let mut keyed: Vec<(u64, T)> = nodes
        .into_iter()
        .map(|node| {
            let node = node.canonical();
            (fingerprint(&node), node)
        })
        .collect();
    keyed.sort_by(|a, b| order(a, b));
    if dedup {
        keyed.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
    }
    keyed.into_iter().map(|(_, node)| node).collect()
}

/// Two canonical parts that commute, in a fixed order.
fn pair<T: Canonical + Debug + Hash + Eq>(left: &T, right: &T) -> (T, T) {
    let (left, right) = (left.canonical(), right.canonical());
    let (left, right) = ((fingerprint(&left), left), (fingerprint(&right), right));
    if order(&left, &right).is_le() { (left.1, right.1) } else { (right.1, left.1) }
}

/// A hash of a node that is the same in every run (`DefaultHasher::new` has fixed keys).
fn fingerprint<T: Hash>(node: &T) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    node.hash(&mut hasher);
    hasher.finish()
}

/// Nodes in the order of their fingerprints; the rare nodes whose fingerprints are equal but
/// which differ are ordered by how they print.
fn order<T: Debug + Eq>(a: &(u64, T), b: &(u64, T)) -> std::cmp::Ordering {
    a.0.cmp(&b.0).then_with(|| {
        if a.1 == b.1 { std::cmp::Ordering::Equal } else { format!("{:?}", a.1).cmp(&format!("{:?}", b.1)) }
    })
}

fn canonical_box<T: Canonical>(node: &T) -> Box<T> {
    Box::new(node.canonical())
}

/// The filters joined by `and` (or by `or`), however they were grouped.
fn joined<const W: usize>(filters: &[FilterNode<W>], all: bool, out: &mut Vec<FilterNode<W>>) {
    for filter in filters {
        match filter {
            FilterNode::All(inner) if all => joined(inner, all, out),
            FilterNode::Any(inner) if !all => joined(inner, all, out),
            _ => out.push(filter.clone()),
        }
    }
}

impl<const W: usize> Canonical for FilterNode<W> {
    fn canonical(&self) -> Self {
        match self {
            FilterNode::NotEmpty(set) => FilterNode::NotEmpty(set.canonical()),
            FilterNode::HasSquare(set) => FilterNode::HasSquare(set.canonical()),
            FilterNode::HasValue(number) => FilterNode::HasValue(number.canonical()),
            FilterNode::Compare(op @ (BinaryOp::Eq | BinaryOp::Ne), left, right) => {
                let (left, right) = pair(left, right);
                FilterNode::Compare(*op, left, right)
            }
            // `a > b` is `b < a`.
            FilterNode::Compare(BinaryOp::Gt, left, right) => {
                FilterNode::Compare(BinaryOp::Lt, right.canonical(), left.canonical())
            }
            FilterNode::Compare(BinaryOp::Ge, left, right) => {
                FilterNode::Compare(BinaryOp::Le, right.canonical(), left.canonical())
            }
            FilterNode::Compare(op, left, right) => FilterNode::Compare(*op, left.canonical(), right.canonical()),
            FilterNode::Subset(left, right) => FilterNode::Subset(left.canonical(), right.canonical()),
            FilterNode::All(filters) | FilterNode::Any(filters) => {
                let all = matches!(self, FilterNode::All(_));
                let mut parts = Vec::new();
                joined(filters, all, &mut parts);
                let parts = sorted(parts, true);
                if all { FilterNode::All(parts) } else { FilterNode::Any(parts) }
            }
            FilterNode::Not(filter) => FilterNode::Not(canonical_box(&**filter)),
            // The slot numbers a node of the program, not what it means.
            FilterNode::Line { steps, in_order, options, .. } => FilterNode::Line {
                options: *options,
                steps: steps.iter().map(|step| Step { filter: step.filter.canonical(), ..step.clone() }).collect(),
                slot: 0,
                in_order: *in_order,
            },
            // Filters that keep or choose are kept as written: their order matters.
            FilterNode::PieceOn { .. }
            | FilterNode::Constant(_)
            | FilterNode::Turn(_)
            | FilterNode::Check
            | FilterNode::NoMove { .. }
            | FilterNode::Initial
            | FilterNode::Terminal
            | FilterNode::Placement(_)
            | FilterNode::Game(_)
            | FilterNode::Assign { .. }
            | FilterNode::If(_)
            | FilterNode::LoopAll(_)
            | FilterNode::HasPosition(_)
            | FilterNode::At(..)
            | FilterNode::Mainline(_)
            | FilterNode::Comment(_)
            | FilterNode::Echo(_)
            | FilterNode::Dash(_)
            | FilterNode::Repeat(..)
            | FilterNode::SameSquares(..)
            | FilterNode::ComparePositions(..)
            | FilterNode::CompareTexts(..)
            | FilterNode::HasText(_) => self.clone(),
        }
    }
}

impl<const W: usize> Canonical for NumberNode<W> {
    fn canonical(&self) -> Self {
        match self {
            NumberNode::Count(set) => NumberNode::Count(set.canonical()),
            NumberNode::Negate(value) => NumberNode::Negate(canonical_box(&**value)),
            NumberNode::Abs(value) => NumberNode::Abs(canonical_box(&**value)),
            NumberNode::Arithmetic(op @ (BinaryOp::Add | BinaryOp::Mul), left, right) => {
                let (left, right) = pair(&**left, &**right);
                NumberNode::Arithmetic(*op, Box::new(left), Box::new(right))
            }
            NumberNode::Arithmetic(op, left, right) => {
                NumberNode::Arithmetic(*op, canonical_box(&**left), canonical_box(&**right))
            }
            NumberNode::Extreme { max, args } => NumberNode::Extreme { max: *max, args: sorted(args.clone(), true) },
            NumberNode::Power(set) => NumberNode::Power(set.canonical()),
            NumberNode::Square { what, set } => NumberNode::Square { what: *what, set: set.canonical() },
            // Counted: a repeated filter counts twice.
            NumberNode::Matching(filters) => NumberNode::Matching(sorted(filters.clone(), false)),
            NumberNode::Constant(_)
            | NumberNode::Ply
            | NumberNode::MoveNumber
            | NumberNode::SideToMove
            | NumberNode::Game(_)
            | NumberNode::Variable(_)
            | NumberNode::If(_)
            | NumberNode::FindCount(_)
            | NumberNode::At(..)
            | NumberNode::GameNumber
            | NumberNode::Echo(_)
            | NumberNode::Block(_)
            | NumberNode::Line(_)
            | NumberNode::Compared(..)
            | NumberNode::Distance(..)
            | NumberNode::ConsecutiveMoves { .. }
            | NumberNode::Sorted(_)
            | NumberNode::SortRecorded
            | NumberNode::Dash(_) => self.clone(),
        }
    }
}

/// The sets joined by `|` (or by `&`), however they were grouped.
fn set_parts<const W: usize>(set: &SetNode<W>, union: bool, out: &mut Vec<SetNode<W>>) {
    match set {
        SetNode::Union(left, right) if union => {
            set_parts(left, union, out);
            set_parts(right, union, out);
        }
        SetNode::UnionAll(sets) if union => sets.iter().for_each(|set| set_parts(set, union, out)),
        SetNode::Intersection(left, right) if !union => {
            set_parts(left, union, out);
            set_parts(right, union, out);
        }
        _ => out.push(set.clone()),
    }
}

impl<const W: usize> Canonical for SetNode<W> {
    fn canonical(&self) -> Self {
        match self {
            SetNode::Variable(_)
            | SetNode::If(_)
            | SetNode::Loop(_)
            | SetNode::At(..)
            | SetNode::Block(_)
            | SetNode::Unmapped(_)
            | SetNode::Laser(_)
            | SetNode::Dash(_) => self.clone(),
            SetNode::MakeSquare(file, rank) => {
                SetNode::MakeSquare(Box::new(file.canonical()), Box::new(rank.canonical()))
            }
            SetNode::Union(..) | SetNode::UnionAll(_) => {
                let mut parts = Vec::new();
                set_parts(self, true, &mut parts);
                let mut parts = sorted(parts, true);
                if parts.len() == 1 { parts.remove(0) } else { SetNode::UnionAll(parts) }
            }
            SetNode::Intersection(..) => {
                let mut parts = Vec::new();
                set_parts(self, false, &mut parts);
                let mut parts = sorted(parts, true).into_iter();
                let first = parts.next().expect("an intersection has parts");
                parts.fold(first, |joined, part| SetNode::Intersection(Box::new(joined), Box::new(part)))
            }
            SetNode::Complement { set, backhand } => {
                SetNode::Complement { set: canonical_box(&**set), backhand: *backhand }
            }
            SetNode::Shade { light, set } => SetNode::Shade { light: *light, set: canonical_box(&**set) },
            SetNode::Direction { steps, min, max, set } => {
                let mut steps = steps.clone();
                steps.sort_unstable();
                SetNode::Direction { steps, min: *min, max: *max, set: canonical_box(&**set) }
            }
            SetNode::Attacks { attackers, targets, side } => SetNode::Attacks {
                attackers: canonical_box(&**attackers),
                targets: canonical_box(&**targets),
                side: *side,
            },
            SetNode::Between(first, second) => {
                let (first, second) = pair(&**first, &**second);
                SetNode::Between(Box::new(first), Box::new(second))
            }
            SetNode::Ray { lines, sets } => {
                SetNode::Ray { lines: *lines, sets: sets.iter().map(Canonical::canonical).collect() }
            }
            SetNode::XRay(node) => SetNode::XRay(Box::new(XRayNode {
                sets: node.sets.iter().map(Canonical::canonical).collect(),
                ..(**node).clone()
            })),
            SetNode::Pin { from, through, to } => SetNode::Pin {
                from: canonical_box(&**from),
                through: canonical_box(&**through),
                to: canonical_box(&**to),
            },
            SetNode::Move(node) => SetNode::Move(Box::new(MoveNode {
                from: node.from.as_ref().map(Canonical::canonical),
                to: node.to.as_ref().map(Canonical::canonical),
                capture: node.capture.as_ref().map(Canonical::canonical),
                ..(**node).clone()
            })),
            SetNode::Squares { .. } | SetNode::Pieces { .. } => self.clone(),
        }
    }
}
