//! Evaluating the filters that look at other positions of the line: `find`, `parent`, `child`,
//! `lca`, position variables and `P : F`. A position is the index of its frame in the context.

use super::context::Context;
use super::plan::{FindNode, PositionNode, Program};
use super::state::Value;
use crate::position::RulesView;

/// What CQL 6.2 says at each position `find` found.
const FOUND: &str = "Found";

impl<const W: usize> Program<W> {
    /// The frame of a position, if the position exists.
    pub(super) fn position<P: RulesView<W>>(
        &self,
        node: &PositionNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> Option<usize> {
        let frames = context.frames.len();
        let exists = |index: usize| (index < frames).then_some(index);
        match node {
            PositionNode::Current => Some(at),
            PositionNode::Initial => Some(0),
            PositionNode::Parent => at.checked_sub(1),
            // The line holds no variation of its own: only the position after this one on it.
            PositionNode::Child(0) => exists(at + 1),
            PositionNode::Child(_) => None,
            PositionNode::Variable(slot) => match context.state.get(*slot) {
                Value::Position(index) => exists(index),
                _ => None,
            },
            PositionNode::Find(find) => self.find_first(find, context, at),
            // Both lie on this line, back to the game's start: the earlier is where they meet.
            PositionNode::Lca(first, second) => {
                Some(self.position(first, context, at)?.min(self.position(second, context, at)?))
            }
            PositionNode::At(from, to) => self.position(to, context, self.position(from, context, at)?),
            PositionNode::If(conditional) => self.position(self.choose(conditional, context, at)?, context, at),
        }
    }

    /// The positions `find` looks at, in the order it looks at them.
    fn searched<P>(find: &FindNode<W>, context: &Context<'_, P, W>, at: usize) -> Box<dyn Iterator<Item = usize>> {
        if find.backward { Box::new((0..=at).rev()) } else { Box::new(at..context.frames.len()) }
    }

    fn find_first<P: RulesView<W>>(&self, find: &FindNode<W>, context: &Context<'_, P, W>, at: usize) -> Option<usize> {
        let found = Self::searched(find, context, at).find(|&there| self.filter(&find.filter, context, there))?;
        context.state.note(found, FOUND.to_owned());
        Some(found)
    }

    pub(super) fn find_count<P: RulesView<W>>(
        &self,
        find: &FindNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> i64 {
        let found: Vec<usize> =
            Self::searched(find, context, at).filter(|&there| self.filter(&find.filter, context, there)).collect();
        for (index, &there) in found.iter().enumerate() {
            context.state.note(there, format!("{FOUND} {} of {}", index + 1, found.len()));
        }
        found.len() as i64
    }
}
