//! Transforms expanded when a query is compiled: each transformed copy of a compiled filter is a
//! filter of its own, with its squares mapped on the variant's board and, for `flipcolor`, its
//! colours swapped.
//!
//! The copies are CQL 6.2's: a designator keeps the squares its map leaves on the board, and a
//! copy in which some designator keeps none does not exist; copies written alike count once
//! (`flip count (Ra1 | Rh1)` has eight copies, `flip count R[a1,h1]` four). Transforms written
//! one inside the other with no count between them make one transform, each copy the inner map
//! then the outer one (`shift flipcolor {Kh8 Qg8}`). A transformed filter inside another
//! transform's filter stays a set of copies, which exists while one of them does. The copies
//! are tried in CQL 6.2's order, by the squares they map to (which decides the order of their
//! comments and messages); of copies alike, the first made keeps its name (`currenttransform`).

use std::hash::Hash;

use super::ast::{Span, TransformKind};
use super::compile::Compiler;
use super::diagnostic::Diagnostic;
use super::path::{FocusNode, PathNode, PathPlanStep};
use super::plan::{
    CommentNode, Conditional, Copies, DashNode, DashTarget, EchoBody, EchoNode, EntryNode, EqualSide, FilterNode,
    FindCount, FindNode, LoopNode, MoveNode, NumberNode, PieceClass, PositionNode, Sequence, SetNode, Step, StepBody,
    StepRange, StoreNode, SubstringNode, TextNode, TextValue, ValueNode, WalkNode, XRayNode,
};
use crate::board::{SquareMap, SquareSet};
use crate::hash::FastSet;
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

impl Copy {
    /// The copy's name as `currenttransform` gives it, CQL 6.2's: empty for the original.
    fn name(&self) -> String {
        let map = match self.map {
            SquareMap::Identity => String::new(),
            SquareMap::MirrorRanks => "reflect_h".to_owned(),
            SquareMap::MirrorFiles => "reflect_v".to_owned(),
            SquareMap::FlipDiagonal => "reflect_a1h8".to_owned(),
            SquareMap::FlipAntiDiagonal => "reflect_a8h1".to_owned(),
            SquareMap::Rotate90 => "clockwise90".to_owned(),
            SquareMap::Rotate180 => "rotate180".to_owned(),
            SquareMap::Rotate270 => "counterclockwise90".to_owned(),
            SquareMap::Shift { files, ranks } => {
                let files = match files {
                    0 => None,
                    files if files > 0 => Some(format!("right^{files}")),
                    files => Some(format!("left^{}", -files)),
                };
                let ranks = match ranks {
                    0 => None,
                    ranks if ranks > 0 => Some(format!("up^{ranks}")),
                    ranks => Some(format!("down^{}", -ranks)),
                };
                files.into_iter().chain(ranks).collect::<Vec<_>>().join(" ")
            }
        };
        let turns = (self.turns != 0).then(|| format!("rotate45^{}", self.turns));
        let swap = self.swap.then(|| "invertcolor".to_owned());
        swap.into_iter().chain((!map.is_empty()).then_some(map)).chain(turns).collect::<Vec<_>>().join(" ")
    }
}

/// The eight directions, each an eighth turn from the one before.
const EIGHTH_TURNS: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

impl<const W: usize> Compiler<'_, W> {
    /// The distinct copies of what `compile` builds under transforms written one inside the
    /// other (the outermost first), in the order CQL 6.2 tries them: each copy is the node
    /// mapped by a map of the innermost transform, then by one of each transform around it.
    pub(super) fn copies<T: Mapped<W> + Clone + Eq + Hash>(
        &mut self,
        transforms: &[(TransformKind, Span)],
        compile: impl FnOnce(&mut Self) -> T,
    ) -> Copies<T> {
        Copies(self.copy_list(transforms, compile))
    }

    fn copy_list<T: Mapped<W> + Clone + Eq + Hash>(
        &mut self,
        transforms: &[(TransformKind, Span)],
        compile: impl FnOnce(&mut Self) -> T,
    ) -> Vec<T> {
        let original = compile(self);
        let mut copies = vec![original.clone()];
        for &(transform, span) in transforms.iter().rev() {
            let Some(maps) = self.maps(transform, span) else { return vec![original] };
            let mut seen = FastSet::default();
            let mut made = Vec::new();
            let mut order = Vec::new();
            // Each map of this transform, then each copy made inside it: CQL 6.2's order, which
            // decides the name kept of copies alike.
            for &copy in &maps {
                for node in &copies {
                    if self.mapping_work > MAX_MAPPING_WORK {
                        // Transforms nested in one another multiply their copies: the work is
                        // bounded.
                        self.diagnostics.push(Diagnostic::new(
                            span,
                            format!(
                                "the transforms around this filter make too many copies of it together (more \
                                 than {MAX_MAPPING_WORK} parts mapped)"
                            ),
                        ));
                        return vec![original];
                    }
                    let mut mapper = Mapper { compiler: self, copy, parts: Vec::new(), colors: Vec::new() };
                    if let Some(mapped) = node.mapped(&mut mapper)
                        && seen.insert(mapped.clone())
                    {
                        order.push((mapper.parts, mapper.colors));
                        made.push(mapped);
                    }
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
            if made.len() > MAX_COPIES {
                self.diagnostics.push(Diagnostic::new(
                    span,
                    format!("this transform makes {} copies of its filter, more than {MAX_COPIES}", made.len()),
                ));
                return vec![original];
            }
            // CQL 6.2 tries the copies in the order of what they map to: their squares, the
            // first that differ compared as numbers, and their directions; then their colours,
            // white first.
            let mut ordered: Vec<(CopyOrder<W>, T)> = order.into_iter().zip(made).collect();
            ordered.sort_by(|(first, _), (second, _)| first.cmp(second));
            copies = ordered.into_iter().map(|(_, copy)| copy).collect();
        }
        copies
    }

    /// The copies a transform makes on the variant's board, the identity first; None (and a
    /// mistake) where the transform does not exist on it.
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
            // In CQL 6.2's order, which decides the name of copies alike that count once.
            TransformKind::Flip => plain(
                [
                    SquareMap::Identity,
                    SquareMap::FlipDiagonal,
                    SquareMap::MirrorRanks,
                    SquareMap::Rotate270,
                    SquareMap::MirrorFiles,
                    SquareMap::Rotate90,
                    SquareMap::Rotate180,
                    SquareMap::FlipAntiDiagonal,
                ]
                .into_iter()
                .filter(|map| map.exists_on(geometry))
                .collect(),
            ),
            // CQL's vertical flip mirrors the board about its vertical middle line, and its
            // horizontal flip about the horizontal one.
            TransformKind::FlipVertical => plain(vec![SquareMap::Identity, SquareMap::MirrorFiles]),
            TransformKind::FlipHorizontal => plain(vec![SquareMap::Identity, SquareMap::MirrorRanks]),
            TransformKind::FlipDiagonal => plain(vec![SquareMap::Identity, SquareMap::FlipDiagonal]),
            TransformKind::FlipOffDiagonal => plain(vec![SquareMap::Identity, SquareMap::FlipAntiDiagonal]),
            TransformKind::FlipColor => {
                vec![
                    Copy { map: SquareMap::Identity, swap: false, turns: 0 },
                    Copy { map: SquareMap::MirrorRanks, swap: true, turns: 0 },
                ]
            }
            // The other colour's view alone, without the original.
            TransformKind::ReverseColor => vec![Copy { map: SquareMap::MirrorRanks, swap: true, turns: 0 }],
            TransformKind::Rotate45 => {
                (0..8).map(|turns| Copy { map: SquareMap::Identity, swap: false, turns }).collect()
            }
            TransformKind::Rotate90 => {
                plain(vec![SquareMap::Identity, SquareMap::Rotate270, SquareMap::Rotate180, SquareMap::Rotate90])
            }
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
    /// What the copy's parts were mapped to, in the order met: the order of the copies.
    parts: Vec<MappedPart<W>>,
    /// The colours the copy's parts were given (whether black), in the order met: the order
    /// of copies whose parts are alike.
    colors: Vec<bool>,
}

/// What orders a copy among the others: its parts as mapped, then their colours.
type CopyOrder<const W: usize> = (Vec<MappedPart<W>>, Vec<bool>);

/// A part of a copy as mapped, which orders the copies as CQL 6.2 orders them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum MappedPart<const W: usize> {
    /// A set of squares, ordered as the number its squares are the bits of.
    Squares(SquareSet<W>),
    /// A direction, ordered by its file step, then its rank step.
    Step((i32, i32)),
}

impl<const W: usize> Ord for MappedPart<W> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        match (self, other) {
            (MappedPart::Squares(first), MappedPart::Squares(second)) => {
                first.words().iter().rev().cmp(second.words().iter().rev())
            }
            (MappedPart::Step(first), MappedPart::Step(second)) => first.cmp(second),
            (MappedPart::Squares(_), MappedPart::Step(_)) => std::cmp::Ordering::Less,
            (MappedPart::Step(_), MappedPart::Squares(_)) => std::cmp::Ordering::Greater,
        }
    }
}

impl<const W: usize> PartialOrd for MappedPart<W> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<const W: usize> Mapper<'_, '_, W> {
    fn squares(&mut self, squares: SquareSet<W>) -> Option<SquareSet<W>> {
        if self.copy.turns != 0 && squares != self.compiler.masks.full() && !squares.is_empty() {
            // An eighth turn takes no square to a square: only directions turn.
            self.compiler.rotate45_squares = true;
            return None;
        }
        // The squares pushed off the board are lost; a set that loses every square is no
        // longer a designator, and the copy does not exist.
        let image = self.compiler.masks.map_clipped(squares, self.copy.map)?;
        self.parts.push(MappedPart::Squares(image));
        (image.any() || squares.is_empty()).then_some(image)
    }

    /// Whether the copy takes light squares to dark ones.
    fn swaps_shades(&self) -> bool {
        self.copy.map.swaps_shades(self.compiler.variant.geometry)
    }

    /// The directions of a copy, each turned, then mapped: a set, in no order of their own, so
    /// that all eight directions are all eight in every copy (and copies alike are one).
    fn steps(&mut self, steps: &[(i32, i32)]) -> Vec<(i32, i32)> {
        let mut mapped: Vec<(i32, i32)> = steps.iter().map(|&step| self.step(step)).collect();
        mapped.sort_unstable();
        mapped.dedup();
        self.parts.extend(mapped.iter().copied().map(MappedPart::Step));
        mapped
    }

    /// A direction of a copy: turned, then mapped.
    fn step(&self, step: (i32, i32)) -> (i32, i32) {
        let turned = match EIGHTH_TURNS.iter().position(|&direction| direction == step) {
            Some(index) if self.copy.turns != 0 => EIGHTH_TURNS[(index + usize::from(self.copy.turns)) % 8],
            _ => step,
        };
        self.copy.map.apply_step(turned)
    }

    fn color(&mut self, color: crate::variant::Color) -> crate::variant::Color {
        let mapped = if self.copy.swap { color.other() } else { color };
        self.colors.push(mapped == crate::variant::Color::Black);
        mapped
    }

    /// The classes of a copy, white first: copies whose classes differ only in their order
    /// are alike (`flipcolor [Kk]b2` has one copy).
    fn classes(&mut self, classes: &[PieceClass]) -> Vec<PieceClass> {
        let mut mapped: Vec<PieceClass> =
            classes.iter().map(|class| PieceClass { color: self.color(class.color), ..class.clone() }).collect();
        mapped.sort_by_key(|class| class.color == crate::variant::Color::Black);
        mapped
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

/// The copies of a transformed node, mapped: those that exist, each once; None when none does.
fn orbit<const W: usize, T: Mapped<W> + Clone + Eq + Hash>(
    copies: &[T],
    mapper: &mut Mapper<'_, '_, W>,
) -> Option<Copies<T>> {
    let mut seen = FastSet::default();
    let kept: Vec<T> =
        copies.iter().filter_map(|copy| copy.mapped(mapper)).filter(|copy| seen.insert(copy.clone())).collect();
    (!kept.is_empty()).then_some(Copies(kept))
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
            FilterNode::TextIn(left, right) => FilterNode::TextIn(left.mapped(mapper)?, right.mapped(mapper)?),
            FilterNode::WriteFile(left, right) => FilterNode::WriteFile(left.mapped(mapper)?, right.mapped(mapper)?),
            FilterNode::SetTag(tag) => FilterNode::SetTag(Box::new((tag.0.clone(), tag.1.mapped(mapper)?))),
            FilterNode::Assert(assertion) => {
                FilterNode::Assert(Box::new((assertion.0.mapped(mapper)?, assertion.1.clone())))
            }
            FilterNode::ComparePositions(op, left, right) => {
                FilterNode::ComparePositions(*op, left.mapped(mapper)?, right.mapped(mapper)?)
            }
            FilterNode::Descends { ancestor, descendant, strict, later_first, keeps_notes } => FilterNode::Descends {
                ancestor: ancestor.mapped(mapper)?,
                descendant: descendant.mapped(mapper)?,
                strict: *strict,
                later_first: *later_first,
                keeps_notes: *keeps_notes,
            },
            FilterNode::All(filters) => FilterNode::All(all(filters, mapper)?),
            FilterNode::Any(filters) => FilterNode::Any(all(filters, mapper)?),
            FilterNode::Orbit { copies, exhaustive } => {
                FilterNode::Orbit { copies: orbit(copies, mapper)?, exhaustive: *exhaustive }
            }
            FilterNode::Not(filter) => FilterNode::Not(boxed(&**filter, mapper)?),
            FilterNode::Memo(filter) => FilterNode::Memo(boxed(&**filter, mapper)?),
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
            FilterNode::Line { steps, slot, tests, options, bounds } => {
                let bounds = bounds.clone();
                FilterNode::Line { options: *options, steps: all(steps, mapper)?, slot: *slot, tests: *tests, bounds }
            }
            FilterNode::Assign { slot, op, value } => {
                FilterNode::Assign { slot: *slot, op: *op, value: value.mapped(mapper)? }
            }
            FilterNode::HasEntry(entry) => FilterNode::HasEntry(boxed(&**entry, mapper)?),
            FilterNode::Equal(sides) => {
                let [first, second] = &**sides;
                FilterNode::Equal(Box::new([first.mapped(mapper)?, second.mapped(mapper)?]))
            }
            FilterNode::Store(store) => FilterNode::Store(boxed(&**store, mapper)?),
            FilterNode::Forget { dictionary, key } => FilterNode::Forget {
                dictionary: *dictionary,
                key: match key {
                    Some(key) => Some(boxed(&**key, mapper)?),
                    None => None,
                },
            },
            FilterNode::Walk(walk) => FilterNode::Walk(boxed(&**walk, mapper)?),
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
            FilterNode::Path(path) => FilterNode::Path(boxed(&**path, mapper)?),
            FilterNode::Mainline(_)
            | FilterNode::VirtualMainline
            | FilterNode::HasCook
            | FilterNode::Glyph(_)
            | FilterNode::RemoveComment
            | FilterNode::Similar { .. }
            | FilterNode::PathDebug
            | FilterNode::Branch(_)
            | FilterNode::Unmapped(_)
            | FilterNode::IsBound(_)
            | FilterNode::Unbind(_)
            | FilterNode::Constant(_)
            | FilterNode::Refused(_)
            | FilterNode::Check
            | FilterNode::NoMove { .. }
            | FilterNode::Initial
            | FilterNode::Terminal
            | FilterNode::Game(_) => self.clone(),
        })
    }
}

impl<const W: usize> Mapped<W> for EntryNode<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        Some(EntryNode { dictionary: self.dictionary, key: self.key.mapped(mapper)? })
    }
}

impl<const W: usize> Mapped<W> for StoreNode<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        Some(StoreNode { entry: self.entry.mapped(mapper)?, value: self.value.mapped(mapper)? })
    }
}

impl<const W: usize> Mapped<W> for WalkNode<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        Some(WalkNode { dictionary: self.dictionary, variable: self.variable, body: self.body.mapped(mapper)? })
    }
}

impl<const W: usize> Mapped<W> for EqualSide<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        Some(match self {
            EqualSide::Matched(filter) => EqualSide::Matched(filter.mapped(mapper)?),
            EqualSide::Value(value) => EqualSide::Value(value.mapped(mapper)?),
        })
    }
}

impl<const W: usize> Mapped<W> for ValueNode<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        Some(match self {
            ValueNode::Number(number) => ValueNode::Number(number.mapped(mapper)?),
            ValueNode::Set(set) => ValueNode::Set(set.mapped(mapper)?),
            ValueNode::Position(position) => ValueNode::Position(position.mapped(mapper)?),
            ValueNode::Text(text) => ValueNode::Text(text.mapped(mapper)?),
        })
    }
}

impl<const W: usize> Mapped<W> for PositionNode<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        mapper.compiler.mapping_work += 1;
        Some(match self {
            PositionNode::Find(find) => PositionNode::Find(boxed(&**find, mapper)?),
            PositionNode::Numbered(number) => PositionNode::Numbered(boxed(&**number, mapper)?),
            PositionNode::NumberedChild(number) => PositionNode::NumberedChild(boxed(&**number, mapper)?),
            PositionNode::Lca(first, second) => PositionNode::Lca(boxed(&**first, mapper)?, boxed(&**second, mapper)?),
            PositionNode::At(from, to) => PositionNode::At(boxed(&**from, mapper)?, boxed(&**to, mapper)?),
            PositionNode::If(conditional) => PositionNode::If(boxed(&**conditional, mapper)?),
            PositionNode::Entry(entry) => PositionNode::Entry(boxed(&**entry, mapper)?),
            PositionNode::Block(block) => PositionNode::Block(boxed(&**block, mapper)?),
            PositionNode::Line(line) => PositionNode::Line(boxed(&**line, mapper)?),
            PositionNode::Path(path) => PositionNode::Path(boxed(&**path, mapper)?),
            PositionNode::PathStart { .. }
            | PositionNode::PathLast { .. }
            | PositionNode::Current
            | PositionNode::Initial
            | PositionNode::Parent
            | PositionNode::Child(_)
            | PositionNode::Variable(_)
            | PositionNode::Unmapped(_) => self.clone(),
        })
    }
}

impl<const W: usize> Mapped<W> for CommentNode<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        Some(CommentNode { message: self.message, quiet: self.quiet, parts: all(&self.parts, mapper)? })
    }
}

impl<const W: usize> Mapped<W> for TextNode<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        Some(match self {
            TextNode::Number(number) => TextNode::Number(number.mapped(mapper)?),
            TextNode::Set(set) => TextNode::Set(set.mapped(mapper)?),
            TextNode::Position(position) => TextNode::Position(position.mapped(mapper)?),
            TextNode::Filter(filter) => TextNode::Filter(filter.mapped(mapper)?),
            TextNode::TextValue(value) => TextNode::TextValue(value.mapped(mapper)?),
            TextNode::Text(_) | TextNode::Variable { .. } => self.clone(),
        })
    }
}

impl<const W: usize> Mapped<W> for TextValue<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        Some(match self {
            TextValue::PieceLetter { set, colored } => {
                TextValue::PieceLetter { set: set.mapped(mapper)?, colored: *colored }
            }
            TextValue::Game(slot) if mapper.copy.swap => {
                let test = mapper.compiler.game_test(*slot).flip_color();
                TextValue::Game(mapper.compiler.game_slot(test))
            }
            TextValue::Concat(left, right) => TextValue::Concat(boxed(&**left, mapper)?, boxed(&**right, mapper)?),
            TextValue::Compared(op, left, right) => {
                TextValue::Compared(*op, boxed(&**left, mapper)?, boxed(&**right, mapper)?)
            }
            TextValue::Case { upper, text } => TextValue::Case { upper: *upper, text: boxed(&**text, mapper)? },
            TextValue::ReadFile(text) => TextValue::ReadFile(boxed(&**text, mapper)?),
            TextValue::Substring(node) => TextValue::Substring(Box::new(SubstringNode {
                text: node.text.mapped(mapper)?,
                start: optional_number(&node.start, mapper)?,
                end: optional_number(&node.end, mapper)?,
                range: node.range,
            })),
            TextValue::Match(text, pattern) => TextValue::Match(boxed(&**text, mapper)?, pattern.clone()),
            TextValue::Str(parts) => TextValue::Str(all(parts, mapper)?),
            TextValue::Extreme { max, args } => TextValue::Extreme { max: *max, args: all(args, mapper)? },
            TextValue::Character(code) => TextValue::Character(boxed(&**code, mapper)?),
            TextValue::If(conditional) => TextValue::If(boxed(&**conditional, mapper)?),
            TextValue::At(position, text) => TextValue::At(boxed(&**position, mapper)?, boxed(&**text, mapper)?),
            TextValue::Block(block) => TextValue::Block(boxed(&**block, mapper)?),
            TextValue::Entry(entry) => TextValue::Entry(boxed(&**entry, mapper)?),
            TextValue::Sorted { key, smallest, value } => {
                TextValue::Sorted { key: *key, smallest: *smallest, value: boxed(&**value, mapper)? }
            }
            TextValue::Dash(node) => TextValue::Dash(boxed(&**node, mapper)?),
            TextValue::Transform(names) => {
                let mut names = names.clone();
                names.0.push(mapper.copy.name());
                TextValue::Transform(names)
            }
            TextValue::Literal(_)
            | TextValue::Game(_)
            | TextValue::Variable(_)
            | TextValue::Group(_)
            | TextValue::Fen
            | TextValue::OriginalComment
            | TextValue::Unmapped(_) => self.clone(),
        })
    }
}

impl<const W: usize> Mapped<W> for MoveNode<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        Some(MoveNode {
            from: optional(&self.from, mapper)?,
            to: optional(&self.to, mapper)?,
            capture: optional(&self.capture, mapper)?,
            en_passant_square: optional(&self.en_passant_square, mapper)?,
            comment: match &self.comment {
                Some(comment) => Some(boxed(&**comment, mapper)?),
                None => None,
            },
            promote: self.promote.as_ref().map(|classes| mapper.classes(classes)),
            ..self.clone()
        })
    }
}

impl<const W: usize> Mapped<W> for PathNode<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        Some(PathNode {
            steps: self.steps.iter().map(|step| step.mapped(mapper)).collect::<Option<_>>()?,
            focus: match &self.focus {
                Some(FocusNode::Pieces { set, capture }) => {
                    Some(FocusNode::Pieces { set: set.mapped(mapper)?, capture: *capture })
                }
                other => other.clone(),
            },
            max: match &self.max {
                Some(max) => Some(max.mapped(mapper)?),
                None => None,
            },
            ..self.clone()
        })
    }
}

impl<const W: usize> Mapped<W> for Step<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        let body = match &self.body {
            StepBody::Filter(filter) => StepBody::Filter(filter.mapped(mapper)?),
            StepBody::Group(steps) => StepBody::Group(all(steps, mapper)?),
        };
        Some(Step { body, min: self.min, max: self.max })
    }
}

impl<const W: usize> Mapped<W> for PathPlanStep<W> {
    fn mapped(&self, mapper: &mut Mapper<'_, '_, W>) -> Option<Self> {
        Some(match self {
            PathPlanStep::Filter(filter) => PathPlanStep::Filter(filter.mapped(mapper)?),
            PathPlanStep::Move(dash) => PathPlanStep::Move(dash.mapped(mapper)?),
            PathPlanStep::Group(steps) => {
                PathPlanStep::Group(steps.iter().map(|step| step.mapped(mapper)).collect::<Option<_>>()?)
            }
            PathPlanStep::Repeat { step, min, max } => {
                PathPlanStep::Repeat { step: boxed(&**step, mapper)?, min: *min, max: *max }
            }
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
            when: self.when,
            target: match &self.target {
                None => None,
                Some(DashTarget::Filter(filter)) => Some(DashTarget::Filter(filter.mapped(mapper)?)),
                Some(DashTarget::Number(number)) => Some(DashTarget::Number(number.mapped(mapper)?)),
                Some(DashTarget::Set(set)) => Some(DashTarget::Set(set.mapped(mapper)?)),
                Some(DashTarget::Text(text)) => Some(DashTarget::Text(text.mapped(mapper)?)),
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
            NumberNode::Sqrt(value) => NumberNode::Sqrt(boxed(&**value, mapper)?),
            NumberNode::Arithmetic(op, left, right) => {
                NumberNode::Arithmetic(*op, boxed(&**left, mapper)?, boxed(&**right, mapper)?)
            }
            NumberNode::Extreme { max, args } => NumberNode::Extreme { max: *max, args: all(args, mapper)? },
            NumberNode::Power(set) => NumberNode::Power(set.mapped(mapper)?),
            NumberNode::PieceId(set) => NumberNode::PieceId(set.mapped(mapper)?),
            NumberNode::Square { what, set } => NumberNode::Square { what: *what, set: set.mapped(mapper)? },
            NumberNode::Game(slot) if mapper.copy.swap => {
                let test = mapper.compiler.game_test(*slot).flip_color();
                NumberNode::Game(mapper.compiler.game_slot(test))
            }
            NumberNode::OrbitCount { copies, min, max } => {
                NumberNode::OrbitCount { copies: orbit(copies, mapper)?, min: min.clone(), max: max.clone() }
            }
            NumberNode::OrbitMax(copies) => NumberNode::OrbitMax(orbit(copies, mapper)?),
            NumberNode::If(conditional) => NumberNode::If(boxed(&**conditional, mapper)?),
            NumberNode::FindCount(count) => NumberNode::FindCount(Box::new(FindCount {
                find: count.find.mapped(mapper)?,
                min: optional_number(&count.min, mapper)?,
                max: optional_number(&count.max, mapper)?,
            })),
            NumberNode::Echo(node) => NumberNode::Echo(boxed(&**node, mapper)?),
            NumberNode::Dash(node) => NumberNode::Dash(boxed(&**node, mapper)?),
            NumberNode::MoveCount(node) => NumberNode::MoveCount(boxed(&**node, mapper)?),
            NumberNode::Block(block) => NumberNode::Block(boxed(&**block, mapper)?),
            NumberNode::Line(line) => NumberNode::Line(boxed(&**line, mapper)?),
            NumberNode::Path(path) => NumberNode::Path(boxed(&**path, mapper)?),
            NumberNode::Compared(op, left, right) => {
                NumberNode::Compared(*op, boxed(&**left, mapper)?, boxed(&**right, mapper)?)
            }
            NumberNode::Distance(first, second) => {
                NumberNode::Distance(boxed(&**first, mapper)?, boxed(&**second, mapper)?)
            }
            NumberNode::ConsecutiveMoves { positions, min, max, notes } => NumberNode::ConsecutiveMoves {
                positions: Box::new((positions.0.mapped(mapper)?, positions.1.mapped(mapper)?)),
                min: *min,
                max: *max,
                notes: notes.clone(),
            },
            NumberNode::Sorted { key, smallest, value } => {
                NumberNode::Sorted { key: *key, smallest: *smallest, value: boxed(&**value, mapper)? }
            }
            NumberNode::At(position, number) => NumberNode::At(boxed(&**position, mapper)?, boxed(&**number, mapper)?),
            NumberNode::Counter { counter, side } => {
                NumberNode::Counter { counter: *counter, side: mapper.color(*side) }
            }
            NumberNode::TextLength(text) => NumberNode::TextLength(boxed(&**text, mapper)?),
            NumberNode::TextToInt(text) => NumberNode::TextToInt(boxed(&**text, mapper)?),
            NumberNode::Code(text) => NumberNode::Code(boxed(&**text, mapper)?),
            NumberNode::IndexOf(texts) => {
                NumberNode::IndexOf(Box::new((texts.0.mapped(mapper)?, texts.1.mapped(mapper)?)))
            }
            NumberNode::GroupStart(_) | NumberNode::DictionarySize(_) => self.clone(),
            NumberNode::Entry(entry) => NumberNode::Entry(boxed(&**entry, mapper)?),
            // A variable's value is what it was given, mapped or not where it was given.
            NumberNode::Constant(_)
            | NumberNode::Unmapped(_)
            | NumberNode::PathCount { .. }
            | NumberNode::Ply
            | NumberNode::MoveNumber
            | NumberNode::SideToMove
            | NumberNode::Game(_)
            | NumberNode::Variable(_)
            | NumberNode::GameNumber
            | NumberNode::LastGameNumber
            | NumberNode::PositionId
            | NumberNode::Depth => self.clone(),
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
            SetNode::SquareNamed(name) => SetNode::SquareNamed(boxed(&**name, mapper)?),
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
            SetNode::Orbit(copies) => SetNode::Orbit(orbit(copies, mapper)?),
            SetNode::Intersection(left, right) => {
                SetNode::Intersection(boxed(&**left, mapper)?, boxed(&**right, mapper)?)
            }
            SetNode::Complement { set, backhand } => {
                SetNode::Complement { set: boxed(&**set, mapper)?, backhand: *backhand }
            }
            // A map that takes light squares to dark ones swaps the shade, as in CQL 6.2: the
            // mirror of `light Ka8` across the ranks is `dark Ka1`.
            SetNode::Shade { light, set } => {
                SetNode::Shade { light: *light != mapper.swaps_shades(), set: boxed(&**set, mapper)? }
            }
            SetNode::Direction { steps, range, set } => SetNode::Direction {
                steps: mapper.steps(steps),
                range: match range {
                    StepRange::Fixed(min, max) => StepRange::Fixed(*min, *max),
                    StepRange::Valued(bounds) => {
                        StepRange::Valued(Box::new((bounds.0.mapped(mapper)?, bounds.1.mapped(mapper)?)))
                    }
                },
                set: boxed(&**set, mapper)?,
            },
            SetNode::Attacks { attackers, targets, side } => SetNode::Attacks {
                attackers: boxed(&**attackers, mapper)?,
                targets: boxed(&**targets, mapper)?,
                side: *side,
            },
            SetNode::Between(first, second) => SetNode::Between(boxed(&**first, mapper)?, boxed(&**second, mapper)?),
            SetNode::Ray { steps, sets } => SetNode::Ray { steps: mapper.steps(steps), sets: all(sets, mapper)? },
            SetNode::XRay(node) => {
                SetNode::XRay(Box::new(XRayNode { sets: all(&node.sets, mapper)?, ..(**node).clone() }))
            }
            SetNode::Pin { from, through, to, value, eager, plain_through } => SetNode::Pin {
                from: boxed(&**from, mapper)?,
                through: boxed(&**through, mapper)?,
                to: boxed(&**to, mapper)?,
                value: *value,
                eager: *eager,
                // Squares and pieces map to squares and pieces.
                plain_through: *plain_through,
            },
            SetNode::Entry(entry) => SetNode::Entry(boxed(&**entry, mapper)?),
            SetNode::Move(node) => SetNode::Move(boxed(&**node, mapper)?),
            SetNode::If(conditional) => SetNode::If(boxed(&**conditional, mapper)?),
            SetNode::Loop(node) => SetNode::Loop(boxed(&**node, mapper)?),
            SetNode::At(position, set) => SetNode::At(boxed(&**position, mapper)?, boxed(&**set, mapper)?),
            SetNode::SameContents(positions) => {
                SetNode::SameContents(Box::new((positions.0.mapped(mapper)?, positions.1.mapped(mapper)?)))
            }
            SetNode::Block(block) => SetNode::Block(boxed(&**block, mapper)?),
            SetNode::Variable(_)
            | SetNode::Unmapped(_)
            | SetNode::Rules(_)
            | SetNode::MateShape(_)
            | SetNode::Marked(_) => self.clone(),
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
