//! Going through every filter of a compiled node, however deep it lies (inside numbers, sets,
//! positions, conditions and loops): one place that knows what each node holds.

use super::path::{FocusNode, PathNode, PathPlanStep};
use super::plan::{
    Conditional, Copies, DashNode, DashTarget, EchoBody, EchoNode, EqualSide, FilterNode, FindNode, LoopNode, MoveNode,
    NumberNode, PositionNode, Sequence, SetNode, Step, StepBody, StepRange, TextNode, TextValue, ValueNode,
};

/// A compiled node that may hold filters.
pub(super) trait Walk<const W: usize> {
    /// Calls `visit` on each filter in the node, outer ones before the filters they hold.
    fn each_filter(&mut self, visit: &mut dyn FnMut(&mut FilterNode<W>));
}

impl<const W: usize> Walk<W> for FilterNode<W> {
    fn each_filter(&mut self, visit: &mut dyn FnMut(&mut FilterNode<W>)) {
        visit(self);
        match self {
            FilterNode::NotEmpty(set) | FilterNode::HasSquare(set) => set.each_filter(visit),
            FilterNode::CompareTexts(_, left, right) => {
                left.each_filter(visit);
                right.each_filter(visit);
            }
            FilterNode::HasText(text) => text.each_filter(visit),
            FilterNode::SetTag(tag) => tag.1.each_filter(visit),
            FilterNode::Assert(assertion) => assertion.0.each_filter(visit),
            FilterNode::TextIn(left, right) | FilterNode::WriteFile(left, right) => {
                left.each_filter(visit);
                right.each_filter(visit);
            }
            FilterNode::ComparePositions(_, left, right)
            | FilterNode::Descends { ancestor: left, descendant: right, .. } => {
                left.each_filter(visit);
                right.each_filter(visit);
            }
            FilterNode::Subset(left, right) | FilterNode::SameSquares(left, right) => {
                left.each_filter(visit);
                right.each_filter(visit);
            }
            FilterNode::HasValue(number) => number.each_filter(visit),
            FilterNode::Compare(_, left, right) => {
                left.each_filter(visit);
                right.each_filter(visit);
            }
            FilterNode::All(filters) | FilterNode::Any(filters) | FilterNode::Orbit { copies: Copies(filters), .. } => {
                filters.iter_mut().for_each(|f| f.each_filter(visit))
            }
            FilterNode::Not(filter) | FilterNode::Memo(filter) => filter.each_filter(visit),
            FilterNode::Line { steps, .. } => steps.iter_mut().for_each(|step| step.each_filter(visit)),
            FilterNode::Path(path) => path.each_filter(visit),
            FilterNode::Assign { value, .. } => value.each_filter(visit),
            FilterNode::HasEntry(entry) => entry.key.each_filter(visit),
            FilterNode::Equal(sides) => {
                for side in sides.iter_mut() {
                    match side {
                        EqualSide::Matched(filter) => filter.each_filter(visit),
                        EqualSide::Value(value) => value.each_filter(visit),
                    }
                }
            }
            FilterNode::Store(store) => {
                store.entry.key.each_filter(visit);
                store.value.each_filter(visit);
            }
            FilterNode::Forget { key, .. } => {
                if let Some(key) = key {
                    key.each_filter(visit);
                }
            }
            FilterNode::Walk(walk) => walk.body.each_filter(visit),
            FilterNode::If(conditional) => conditional.each_filter(visit),
            FilterNode::LoopAll(node) => node.each_filter(visit),
            FilterNode::HasPosition(position) => position.each_filter(visit),
            FilterNode::At(position, filter) => {
                position.each_filter(visit);
                filter.each_filter(visit);
            }
            FilterNode::Echo(node) => node.each_filter(visit),
            FilterNode::Repeat(test, body) => {
                if let Some(test) = test {
                    test.each_filter(visit);
                }
                body.each_filter(visit);
            }
            FilterNode::Dash(node) => node.each_filter(visit),
            FilterNode::Comment(node) => node.parts.iter_mut().for_each(|part| part.each_filter(visit)),
            FilterNode::PieceOn { .. }
            | FilterNode::Constant(_)
            | FilterNode::Refused(_)
            | FilterNode::Turn(_)
            | FilterNode::Check
            | FilterNode::NoMove { .. }
            | FilterNode::Initial
            | FilterNode::Terminal
            | FilterNode::Placement(_)
            | FilterNode::Game(_)
            | FilterNode::IsBound(_)
            | FilterNode::Unbind(_)
            | FilterNode::Branch(_)
            | FilterNode::Mainline(_)
            | FilterNode::VirtualMainline
            | FilterNode::HasCook
            | FilterNode::Glyph(_)
            | FilterNode::RemoveComment
            | FilterNode::Similar { .. }
            | FilterNode::PathDebug => {}
            FilterNode::Unmapped(filter) => filter.each_filter(visit),
        }
    }
}

impl<const W: usize> Walk<W> for NumberNode<W> {
    fn each_filter(&mut self, visit: &mut dyn FnMut(&mut FilterNode<W>)) {
        match self {
            NumberNode::Entry(entry) => entry.key.each_filter(visit),
            NumberNode::DictionarySize(_) => {}
            NumberNode::Count(set)
            | NumberNode::Power(set)
            | NumberNode::PieceId(set)
            | NumberNode::Square { set, .. } => set.each_filter(visit),
            NumberNode::Negate(value) | NumberNode::Abs(value) | NumberNode::Sqrt(value) => value.each_filter(visit),
            NumberNode::Arithmetic(_, left, right) => {
                left.each_filter(visit);
                right.each_filter(visit);
            }
            NumberNode::Extreme { args, .. } | NumberNode::OrbitMax(Copies(args)) => {
                args.iter_mut().for_each(|arg| arg.each_filter(visit))
            }
            NumberNode::OrbitCount { copies, min, max } => {
                copies.iter_mut().for_each(|filter| filter.each_filter(visit));
                for bound in [min, max].into_iter().flatten() {
                    bound.each_filter(visit);
                }
            }
            NumberNode::If(conditional) => conditional.each_filter(visit),
            NumberNode::FindCount(count) => {
                count.find.each_filter(visit);
                for bound in [&mut count.min, &mut count.max].into_iter().flatten() {
                    bound.each_filter(visit);
                }
            }
            NumberNode::Echo(node) => node.each_filter(visit),
            NumberNode::Dash(node) => node.each_filter(visit),
            NumberNode::MoveCount(node) => node.each_filter(visit),
            NumberNode::Unmapped(number) => number.each_filter(visit),
            NumberNode::Block(block) => block.each_filter(visit),
            NumberNode::Line(line) => line.each_filter(visit),
            NumberNode::Path(path) => path.each_filter(visit),
            NumberNode::Sorted { value, .. } => value.each_filter(visit),
            NumberNode::Distance(first, second) => {
                first.each_filter(visit);
                second.each_filter(visit);
            }
            NumberNode::ConsecutiveMoves { positions, .. } => {
                positions.0.each_filter(visit);
                positions.1.each_filter(visit);
            }
            NumberNode::Compared(_, left, right) => {
                left.each_filter(visit);
                right.each_filter(visit);
            }
            NumberNode::At(position, number) => {
                position.each_filter(visit);
                number.each_filter(visit);
            }
            NumberNode::TextLength(text) | NumberNode::TextToInt(text) | NumberNode::Code(text) => {
                text.each_filter(visit)
            }
            NumberNode::IndexOf(texts) => {
                texts.0.each_filter(visit);
                texts.1.each_filter(visit);
            }
            NumberNode::GroupStart(_)
            | NumberNode::Constant(_)
            | NumberNode::PathCount { .. }
            | NumberNode::Ply
            | NumberNode::MoveNumber
            | NumberNode::SideToMove
            | NumberNode::Game(_)
            | NumberNode::Variable(_)
            | NumberNode::Counter { .. }
            | NumberNode::GameNumber
            | NumberNode::LastGameNumber
            | NumberNode::PositionId
            | NumberNode::Depth => {}
        }
    }
}

impl<const W: usize> Walk<W> for SetNode<W> {
    fn each_filter(&mut self, visit: &mut dyn FnMut(&mut FilterNode<W>)) {
        match self {
            SetNode::Entry(entry) => entry.key.each_filter(visit),
            SetNode::Union(left, right) | SetNode::Intersection(left, right) | SetNode::Between(left, right) => {
                left.each_filter(visit);
                right.each_filter(visit);
            }
            SetNode::Attacks { attackers, targets, .. } => {
                attackers.each_filter(visit);
                targets.each_filter(visit);
            }
            SetNode::Orbit(Copies(sets)) | SetNode::Ray { sets, .. } => {
                sets.iter_mut().for_each(|set| set.each_filter(visit))
            }
            SetNode::XRay(node) => node.sets.iter_mut().for_each(|set| set.each_filter(visit)),
            SetNode::Complement { set, .. } | SetNode::Shade { set, .. } => set.each_filter(visit),
            SetNode::Direction { range, set, .. } => {
                if let StepRange::Valued(bounds) = range {
                    bounds.0.each_filter(visit);
                    bounds.1.each_filter(visit);
                }
                set.each_filter(visit);
            }
            SetNode::MakeSquare(file, rank) => {
                file.each_filter(visit);
                rank.each_filter(visit);
            }
            SetNode::SquareNamed(name) => name.each_filter(visit),
            SetNode::Pin { from, through, to, .. } => {
                from.each_filter(visit);
                through.each_filter(visit);
                to.each_filter(visit);
            }
            SetNode::Move(node) => node.each_filter(visit),
            SetNode::If(conditional) => conditional.each_filter(visit),
            SetNode::Loop(node) => node.each_filter(visit),
            SetNode::SameContents(positions) => {
                positions.0.each_filter(visit);
                positions.1.each_filter(visit);
            }
            SetNode::At(position, set) => {
                position.each_filter(visit);
                set.each_filter(visit);
            }
            SetNode::Block(block) => block.each_filter(visit),
            SetNode::Unmapped(set) => set.each_filter(visit),
            SetNode::Dash(node) => node.each_filter(visit),
            SetNode::Squares { .. }
            | SetNode::Pieces { .. }
            | SetNode::Variable(_)
            | SetNode::Rules(_)
            | SetNode::MateShape(_)
            | SetNode::Marked(_) => {}
        }
    }
}

impl<const W: usize> Walk<W> for PositionNode<W> {
    fn each_filter(&mut self, visit: &mut dyn FnMut(&mut FilterNode<W>)) {
        match self {
            PositionNode::Entry(entry) => entry.key.each_filter(visit),
            PositionNode::Find(find) => find.each_filter(visit),
            PositionNode::Numbered(number) | PositionNode::NumberedChild(number) => number.each_filter(visit),
            PositionNode::Lca(first, second) | PositionNode::At(first, second) => {
                first.each_filter(visit);
                second.each_filter(visit);
            }
            PositionNode::If(conditional) => conditional.each_filter(visit),
            PositionNode::Block(block) => block.each_filter(visit),
            PositionNode::Line(line) => line.each_filter(visit),
            PositionNode::Path(path) => path.each_filter(visit),
            PositionNode::Unmapped(position) => position.each_filter(visit),
            PositionNode::PathStart { .. }
            | PositionNode::PathLast { .. }
            | PositionNode::Current
            | PositionNode::Initial
            | PositionNode::Parent
            | PositionNode::Child(_)
            | PositionNode::Variable(_) => {}
        }
    }
}

impl<const W: usize> Walk<W> for ValueNode<W> {
    fn each_filter(&mut self, visit: &mut dyn FnMut(&mut FilterNode<W>)) {
        match self {
            ValueNode::Number(number) => number.each_filter(visit),
            ValueNode::Set(set) => set.each_filter(visit),
            ValueNode::Position(position) => position.each_filter(visit),
            ValueNode::Text(text) => text.each_filter(visit),
        }
    }
}

impl<const W: usize> Walk<W> for MoveNode<W> {
    fn each_filter(&mut self, visit: &mut dyn FnMut(&mut FilterNode<W>)) {
        for set in [&mut self.from, &mut self.to, &mut self.capture, &mut self.en_passant_square].into_iter().flatten()
        {
            set.each_filter(visit);
        }
        if let Some(comment) = &mut self.comment {
            comment.each_filter(visit);
        }
    }
}

impl<const W: usize> Walk<W> for TextValue<W> {
    fn each_filter(&mut self, visit: &mut dyn FnMut(&mut FilterNode<W>)) {
        match self {
            TextValue::Entry(entry) => entry.key.each_filter(visit),
            TextValue::PieceLetter { set, .. } => set.each_filter(visit),
            TextValue::Dash(node) => node.each_filter(visit),
            TextValue::Concat(left, right) | TextValue::Compared(_, left, right) => {
                left.each_filter(visit);
                right.each_filter(visit);
            }
            TextValue::Case { text, .. }
            | TextValue::ReadFile(text)
            | TextValue::Match(text, _)
            | TextValue::Unmapped(text)
            | TextValue::Sorted { value: text, .. } => text.each_filter(visit),
            TextValue::Substring(node) => {
                node.text.each_filter(visit);
                for bound in [&mut node.start, &mut node.end].into_iter().flatten() {
                    bound.each_filter(visit);
                }
            }
            TextValue::Str(parts) => parts.iter_mut().for_each(|part| part.each_filter(visit)),
            TextValue::Extreme { args, .. } => args.iter_mut().for_each(|arg| arg.each_filter(visit)),
            TextValue::Character(code) => code.each_filter(visit),
            TextValue::If(conditional) => conditional.each_filter(visit),
            TextValue::At(position, text) => {
                position.each_filter(visit);
                text.each_filter(visit);
            }
            TextValue::Block(block) => block.each_filter(visit),
            TextValue::Literal(_)
            | TextValue::Game(_)
            | TextValue::Variable(_)
            | TextValue::Group(_)
            | TextValue::Fen
            | TextValue::Transform(_)
            | TextValue::OriginalComment => {}
        }
    }
}

impl<const W: usize> Walk<W> for TextNode<W> {
    fn each_filter(&mut self, visit: &mut dyn FnMut(&mut FilterNode<W>)) {
        match self {
            TextNode::Number(number) => number.each_filter(visit),
            TextNode::Set(set) => set.each_filter(visit),
            TextNode::Position(position) => position.each_filter(visit),
            TextNode::Filter(filter) => filter.each_filter(visit),
            TextNode::TextValue(value) => value.each_filter(visit),
            TextNode::Text(_) | TextNode::Variable { .. } => {}
        }
    }
}

impl<const W: usize> Walk<W> for Step<W> {
    fn each_filter(&mut self, visit: &mut dyn FnMut(&mut FilterNode<W>)) {
        match &mut self.body {
            StepBody::Filter(filter) => filter.each_filter(visit),
            StepBody::Group(steps) => steps.iter_mut().for_each(|step| step.each_filter(visit)),
        }
    }
}

impl<const W: usize> Walk<W> for PathNode<W> {
    fn each_filter(&mut self, visit: &mut dyn FnMut(&mut FilterNode<W>)) {
        if let Some(FocusNode::Pieces { set, .. }) = &mut self.focus {
            set.each_filter(visit);
        }
        if let Some(max) = &mut self.max {
            max.each_filter(visit);
        }
        self.steps.iter_mut().for_each(|step| step.each_filter(visit));
    }
}

impl<const W: usize> Walk<W> for PathPlanStep<W> {
    fn each_filter(&mut self, visit: &mut dyn FnMut(&mut FilterNode<W>)) {
        match self {
            PathPlanStep::Filter(filter) => filter.each_filter(visit),
            PathPlanStep::Move(dash) => dash.each_filter(visit),
            PathPlanStep::Group(steps) => steps.iter_mut().for_each(|step| step.each_filter(visit)),
            PathPlanStep::Repeat { step, .. } => step.each_filter(visit),
        }
    }
}

impl<const W: usize> Walk<W> for DashNode<W> {
    fn each_filter(&mut self, visit: &mut dyn FnMut(&mut FilterNode<W>)) {
        for set in [&mut self.from, &mut self.to].into_iter().flatten() {
            set.each_filter(visit);
        }
        match &mut self.target {
            Some(DashTarget::Filter(filter)) => filter.each_filter(visit),
            Some(DashTarget::Number(number)) => number.each_filter(visit),
            Some(DashTarget::Set(set)) => set.each_filter(visit),
            Some(DashTarget::Text(text)) => text.each_filter(visit),
            None => {}
        }
    }
}

impl<const W: usize> Walk<W> for EchoNode<W> {
    fn each_filter(&mut self, visit: &mut dyn FnMut(&mut FilterNode<W>)) {
        match &mut self.body {
            EchoBody::Filter(filter) => filter.each_filter(visit),
            EchoBody::Number(number) => number.each_filter(visit),
        }
    }
}

impl<const W: usize> Walk<W> for FindNode<W> {
    fn each_filter(&mut self, visit: &mut dyn FnMut(&mut FilterNode<W>)) {
        self.filter.each_filter(visit);
    }
}

impl<const W: usize, T: Walk<W>> Walk<W> for Sequence<T, W> {
    fn each_filter(&mut self, visit: &mut dyn FnMut(&mut FilterNode<W>)) {
        self.before.iter_mut().for_each(|filter| filter.each_filter(visit));
        self.last.each_filter(visit);
    }
}

impl<const W: usize> Walk<W> for LoopNode<W> {
    fn each_filter(&mut self, visit: &mut dyn FnMut(&mut FilterNode<W>)) {
        self.set.each_filter(visit);
        self.body.each_filter(visit);
    }
}

impl<const W: usize, T: Walk<W>> Walk<W> for Conditional<T, W> {
    fn each_filter(&mut self, visit: &mut dyn FnMut(&mut FilterNode<W>)) {
        self.condition.each_filter(visit);
        self.then.each_filter(visit);
        if let Some(otherwise) = &mut self.otherwise {
            otherwise.each_filter(visit);
        }
    }
}

/// Gives each `line` and `path` filter of the nodes a slot of its own, from 0 on.
pub(super) fn number_lines<const W: usize>(nodes: &mut [&mut dyn Walk<W>]) {
    let mut next = 0;
    for node in nodes {
        node.each_filter(&mut |filter| {
            match filter {
                FilterNode::Line { slot, .. } => *slot = next,
                FilterNode::Path(path) => path.slot = next,
                _ => return,
            }
            next += 1;
        });
    }
}
