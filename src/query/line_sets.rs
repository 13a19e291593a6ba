//! The run of a `line` whose constituents hold groups (`( C1 --> C2 ){2,4}`), or may all match
//! no position: the sets of positions where the constituents, begun at a position, may end.
//!
//! A group repeated, or a group inside a group, may end at several positions from one start,
//! so the matchers of plain lines (one run of matches per constituent) do not apply. Here each
//! filter is tested at most once per position, the ends of a row of constituents from a position
//! are found once, and the run chosen is CQL 6.2's: the one that ends farthest (with
//! `firstmatch`, nearest) among those that cover one position at least. Its comments are those
//! its filters made along one way of matching it, each step taking as many positions as it can.

use std::collections::BTreeSet;

use super::context::Context;
use super::line_run::{Tested, Track, address};
use super::plan::{FilterNode, Program, Step, StepBody};
use super::state::Note;
use crate::hash::{FastMap, FastSet};
use crate::position::RulesView;

/// The search of the ends of one run, by the positions of its track.
struct Ends<'p, 'c, 'a, 't, P, const W: usize> {
    program: &'p Program<W>,
    context: &'c Context<'a, P, W>,
    track: &'t Track,
    tested: &'t mut Tested,
    /// Where a row of steps (by its address and length) begun at a position ends.
    rows: FastMap<(usize, usize, usize), Vec<usize>>,
    /// The rows of steps (by address and length) known not to go from one position to another.
    dead_rows: FastSet<(usize, usize, usize, usize)>,
    /// The steps (by address), having matched some times, known not to go from one position
    /// to another.
    dead_steps: FastSet<(usize, usize, usize, u32)>,
}

impl<P: RulesView<W>, const W: usize> Ends<'_, '_, '_, '_, P, W> {
    /// Whether the filter matches at the track's position `at`.
    fn matches(&mut self, filter: &FilterNode<W>, at: usize) -> bool {
        at < self.track.len && self.tested.matches(self.program, filter, self.context, self.track.frame(at))
    }

    /// Where the steps, in turn, begun at `at` may end (one past their last position), in order.
    fn row(&mut self, steps: &[Step<W>], at: usize) -> Vec<usize> {
        let Some((first, rest)) = steps.split_first() else { return vec![at] };
        let key = (steps.as_ptr() as usize, steps.len(), at);
        if let Some(ends) = self.rows.get(&key) {
            return ends.clone();
        }
        let mut ends = BTreeSet::new();
        for middle in self.repeated(first, at) {
            ends.extend(self.row(rest, middle));
        }
        let ends: Vec<usize> = ends.into_iter().collect();
        self.rows.insert(key, ends.clone());
        ends
    }

    /// Where the step, matched between its fewest and most times in a row from `at`, may end.
    fn repeated(&mut self, step: &Step<W>, at: usize) -> Vec<usize> {
        let mut ends = BTreeSet::new();
        // Where `times` matches in a row may end; with no most, each position is gone on from
        // once it is reached with enough matches.
        let mut reached = vec![at];
        let mut gone_on = BTreeSet::new();
        let mut times = 0;
        loop {
            if times >= step.min {
                ends.extend(reached.iter().copied());
            }
            if reached.is_empty() || step.max == Some(times) || times as usize > self.track.len + step.min as usize {
                break;
            }
            let mut next = BTreeSet::new();
            for from in reached {
                if times >= step.min && !gone_on.insert(from) {
                    continue;
                }
                next.extend(self.once(&step.body, from));
            }
            reached = next.into_iter().collect();
            times += 1;
        }
        ends.into_iter().collect()
    }

    /// Where one match of the body from `at` may end.
    fn once(&mut self, body: &StepBody<W>, at: usize) -> Vec<usize> {
        match body {
            StepBody::Filter(filter) => {
                if self.matches(filter, at) {
                    vec![at + 1]
                } else {
                    Vec::new()
                }
            }
            StepBody::Group(steps) => self.row(steps, at),
        }
    }

    /// One way the steps begun at `at` end at `end`, as the filters it tests and where (added to
    /// `way`): the first step taking as many positions as it can, then the next.
    fn trace_row(&mut self, steps: &[Step<W>], at: usize, end: usize, way: &mut Vec<(usize, usize)>) -> bool {
        let Some((first, rest)) = steps.split_first() else { return at == end };
        let key = (steps.as_ptr() as usize, steps.len(), at, end);
        if self.dead_rows.contains(&key) {
            return false;
        }
        for middle in self.repeated(first, at).into_iter().rev().filter(|&middle| middle <= end) {
            if !self.row(rest, middle).contains(&end) {
                continue;
            }
            let mark = way.len();
            if self.trace_repeated(first, at, middle, 0, way) && self.trace_row(rest, middle, end, way) {
                return true;
            }
            way.truncate(mark);
        }
        self.dead_rows.insert(key);
        false
    }

    /// One way the step, having matched `times` times, goes on from `at` to end at `end`.
    fn trace_repeated(
        &mut self,
        step: &Step<W>,
        at: usize,
        end: usize,
        times: u32,
        way: &mut Vec<(usize, usize)>,
    ) -> bool {
        if at == end && times >= step.min {
            return true;
        }
        let key = (std::ptr::from_ref(step) as usize, at, end, times);
        if step.max == Some(times) || self.dead_steps.contains(&key) {
            return false;
        }
        let nexts = self.once(&step.body, at);
        // A match that covers no position only counts towards the fewest times.
        let onward = nexts.into_iter().rev().filter(|&next| next <= end && (next > at || times < step.min));
        for next in onward.collect::<Vec<_>>() {
            let mark = way.len();
            let matched = match &step.body {
                StepBody::Filter(filter) => {
                    way.push((address(filter), self.track.frame(at)));
                    true
                }
                StepBody::Group(steps) => self.trace_row(steps, at, next, way),
            };
            if matched && self.trace_repeated(step, next, end, times + 1, way) {
                return true;
            }
            way.truncate(mark);
        }
        self.dead_steps.insert(key);
        false
    }
}

impl<const W: usize> Program<W> {
    /// Where the run of a line's steps along the track ends (how many positions it covers):
    /// farthest, or nearest with `firstmatch`, with the comments its filters made on the way
    /// (not made in the state); None when no run covers a position.
    pub(super) fn line_ends<P: RulesView<W>>(
        &self,
        steps: &[Step<W>],
        context: &Context<'_, P, W>,
        track: &Track,
        firstmatch: bool,
        tested: &mut Tested,
    ) -> Option<(usize, Vec<Note>)> {
        let mut search = Ends {
            program: self,
            context,
            track,
            tested,
            rows: FastMap::default(),
            dead_rows: FastSet::default(),
            dead_steps: FastSet::default(),
        };
        let ends = search.row(steps, 0);
        let mut covering = ends.into_iter().filter(|&end| end > 0);
        let end = if firstmatch { covering.next() } else { covering.next_back() }?;
        let mut way = Vec::new();
        search.trace_row(steps, 0, end, &mut way);
        let notes =
            way.iter().flat_map(|&(filter, frame)| search.tested.notes(filter, frame).iter().cloned()).collect();
        Some((end, notes))
    }
}
