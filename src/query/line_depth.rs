//! A `line` searched as CQL 6.2 searches it: depth first from its first position, with a
//! stack of the constituents still to match. A repeated constituent tries its fewest
//! repetitions first (moving on to the next constituent before matching once more), a
//! position's moves are followed in the game's order, and a run is found each time a filter
//! matches where every constituent left may match nothing: the run kept is the first found
//! (with `firstmatch`, where the search stops) or the first of those that reach farthest.
//!
//! It is used where that order shows: with `firstmatch`, whose run is the first found, and
//! where a constituent writes (prints, comments, gives variables values), whose filters CQL
//! tests again each time its search reaches them. The comments kept are those made along the
//! run kept.

use super::ast::{LineMoves, LineOptions};
use super::context::Context;
use super::line_run::{Run, Tested, address};
use super::plan::{FilterNode, Program, Step, StepBody};
use super::state::Note;
use crate::hash::FastSet;
use crate::position::RulesView;

/// What stands on the search's stack.
#[derive(Clone, Copy)]
enum Item<'s, const W: usize> {
    /// A constituent as written: once, or repeated.
    Step(&'s Step<W>),
    /// A constituent's body, once: its filter, or its group's constituents in turn.
    Once(&'s StepBody<W>),
    /// A repeated constituent that has matched `seen` times so far.
    Repeating { step: &'s Step<W>, seen: u32 },
}

impl<const W: usize> Item<'_, W> {
    /// Whether it may match no position.
    fn may_match_nothing(&self) -> bool {
        match self {
            Item::Step(step) => step.min == 0 || body_may_match_nothing(&step.body),
            Item::Once(body) => body_may_match_nothing(body),
            Item::Repeating { step, seen } => *seen >= step.min && step.max.is_none_or(|max| *seen <= max),
        }
    }

    /// What tells it apart on the stack, for the states known to lead nowhere.
    fn key(&self) -> (usize, u32) {
        match self {
            Item::Step(step) => (std::ptr::from_ref(*step) as usize, u32::MAX),
            Item::Once(body) => (std::ptr::from_ref(*body) as usize, u32::MAX - 1),
            // Past its fewest, a constituent with no most is where it was.
            Item::Repeating { step, seen } => {
                let seen = if step.max.is_none() { (*seen).min(step.min) } else { *seen };
                (std::ptr::from_ref(*step) as usize, seen)
            }
        }
    }
}

/// Whether a constituent's body may match no position: a group whose constituents all may.
fn body_may_match_nothing<const W: usize>(body: &StepBody<W>) -> bool {
    match body {
        StepBody::Filter(_) => false,
        StepBody::Group(steps) => steps.iter().all(|step| Item::Step(step).may_match_nothing()),
    }
}

/// The search of a line from one position.
pub(super) struct DepthFirst<'p, 'c, 'a, 't, P, const W: usize> {
    program: &'p Program<W>,
    context: &'c Context<'a, P, W>,
    options: &'p LineOptions,
    /// The answers of the filters, each tested once a position, where the line writes nothing;
    /// none where it writes, as each test may print or change something.
    tested: Option<&'t mut Tested>,
    stack: Vec<Item<'p, W>>,
    /// The comments of the filters matched along the run being tried.
    way: Vec<Vec<Note>>,
    start: usize,
    /// The run kept so far: its last position, and its comments.
    best: Option<(usize, Vec<Note>)>,
    /// The states known to lead to no run (with `firstmatch`, where nothing is written).
    dead: FastSet<(Vec<(usize, u32)>, usize)>,
}

impl<'p, 'c, 'a, 't, P: RulesView<W>, const W: usize> DepthFirst<'p, 'c, 'a, 't, P, W> {
    /// The search of `steps` from `start`; `tested` keeps the filters' answers when the line
    /// writes nothing.
    pub fn new(
        program: &'p Program<W>,
        context: &'c Context<'a, P, W>,
        steps: &'p [Step<W>],
        options: &'p LineOptions,
        tested: Option<&'t mut Tested>,
        start: usize,
    ) -> Self {
        let stack = steps.iter().rev().map(Item::Step).collect();
        DepthFirst {
            program,
            context,
            options,
            tested,
            stack,
            way: Vec::new(),
            start,
            best: None,
            dead: FastSet::default(),
        }
    }

    /// The run kept, with the comments made along it.
    pub fn search(mut self) -> Option<(Run, Vec<Note>)> {
        self.compute(self.start);
        let (last, notes) = self.best?;
        let frames = self.context.frames;
        let mut length = frames[last].ply.abs_diff(frames[self.start].ply) + 1;
        if self.options.singlecolor {
            length = length.div_ceil(2);
        }
        Some((Run { length: length as usize, last }, notes))
    }

    fn done(&self) -> bool {
        self.options.firstmatch && self.best.is_some()
    }

    /// The constituents on the stack matched from the position `at`.
    fn compute(&mut self, at: usize) {
        if self.done() {
            return;
        }
        let Some(top) = self.stack.pop() else { return };
        let memo = self.options.firstmatch && self.tested.is_some();
        let key = memo.then(|| {
            let mut stack: Vec<(usize, u32)> = self.stack.iter().map(Item::key).collect();
            stack.push(top.key());
            (stack, at)
        });
        if key.as_ref().is_some_and(|key| self.dead.contains(key)) {
            self.stack.push(top);
            return;
        }
        match top {
            Item::Step(step) if step.min == 1 && step.max == Some(1) => self.once(&step.body, at),
            Item::Step(step) => self.with(&[Item::Repeating { step, seen: 0 }], at),
            Item::Once(body) => self.once(body, at),
            Item::Repeating { step, seen } => {
                if seen >= step.min && step.max.is_none_or(|max| seen <= max) {
                    self.compute(at);
                }
                if step.max.is_none_or(|max| seen < max) {
                    self.with(&[Item::Repeating { step, seen: seen + 1 }, Item::Once(&step.body)], at);
                }
            }
        }
        self.stack.push(top);
        if let Some(key) = key
            && self.best.is_none()
        {
            self.dead.insert(key);
        }
    }

    /// `items` pushed in turn (the last on top), the stack matched from `at`, and taken off.
    fn with(&mut self, items: &[Item<'p, W>], at: usize) {
        let depth = self.stack.len();
        self.stack.extend_from_slice(items);
        self.compute(at);
        self.stack.truncate(depth);
    }

    /// A constituent's body matched once from `at`.
    fn once(&mut self, body: &'p StepBody<W>, at: usize) {
        match body {
            StepBody::Filter(filter) => self.hold(filter, at),
            StepBody::Group(steps) => {
                let items: Vec<Item<'p, W>> = steps.iter().rev().map(Item::Step).collect();
                self.with(&items, at);
            }
        }
    }

    /// The filter tested at `at`: where it matches, a run ends there if all left on the stack
    /// may match nothing, and the search goes on at the positions after.
    fn hold(&mut self, filter: &FilterNode<W>, at: usize) {
        if self.done() {
            return;
        }
        let Some(notes) = self.test(filter, at) else { return };
        self.way.push(notes);
        if self.stack.iter().all(Item::may_match_nothing) {
            self.found(at);
        }
        if !self.stack.is_empty() {
            for next in self.next_positions(at) {
                if self.done() {
                    break;
                }
                self.compute(next);
            }
        }
        self.way.pop();
    }

    /// Whether `filter` matches at `at`: the comments it made there if it does.
    fn test(&mut self, filter: &FilterNode<W>, at: usize) -> Option<Vec<Note>> {
        match self.tested.as_deref_mut() {
            Some(tested) => {
                let matched = tested.matches(self.program, filter, self.context, at);
                matched.then(|| tested.notes(address(filter), at).to_vec())
            }
            None => {
                let state = self.context.state;
                let mark = state.notes_len();
                let matched = self.program.filter(filter, self.context, at);
                let notes = state.take_notes_from(mark);
                matched.then_some(notes)
            }
        }
    }

    /// A run that ends at `at`: kept when it is the first, or reaches farther than the one kept.
    fn found(&mut self, at: usize) {
        let ply = |frame: usize| self.context.frames[frame].ply;
        let farther = self
            .best
            .as_ref()
            .is_none_or(|(best, _)| if self.options.backward { ply(at) < ply(*best) } else { ply(at) > ply(*best) });
        if farther {
            self.best = Some((at, self.way.concat()));
        }
    }

    /// The positions a run goes on to after `at`: forward, those after each move the line may
    /// follow, in the game's order (with `singlecolor`, two moves on); back, the one before.
    fn next_positions(&self, at: usize) -> Vec<usize> {
        let context = self.context;
        let options = self.options;
        let one = |at: usize| -> Vec<usize> {
            if options.backward {
                return context.parent(at).into_iter().collect();
            }
            context
                .children(at)
                .filter(|&child| match options.moves {
                    LineMoves::Any => true,
                    LineMoves::Primary => !context.frames[child].branch,
                    LineMoves::Secondary => context.frames[child].branch,
                })
                .collect()
        };
        if options.singlecolor { one(at).into_iter().flat_map(one).collect() } else { one(at) }
    }
}
