//! The run of a `line` whose constituents hold groups (`( C1 --> C2 ){2,4}`), or may all match
//! no position: the sets of positions where the constituents, begun at a position, may end.
//!
//! A group repeated, or a group inside a group, may end at several positions from one start,
//! so the matchers of plain lines (one run of matches per constituent) do not apply. Here each
//! filter is tested at most once per position, the ends of a row of constituents from a position
//! are found once, and the run chosen is CQL 6.2's: the one that ends farthest (with
//! `firstmatch`, nearest) among those that cover one position at least.

use std::collections::{BTreeSet, HashMap};

use super::context::Context;
use super::line_run::Track;
use super::plan::{FilterNode, Program, Step, StepBody};
use crate::position::RulesView;

/// The search of the ends of one run, by the positions of its track.
struct Ends<'p, 'c, 'a, 't, P, const W: usize> {
    program: &'p Program<W>,
    context: &'c Context<'a, P, W>,
    track: &'t Track,
    /// Whether a filter (by its address) matches at a position.
    tested: HashMap<(usize, usize), bool>,
    /// Where a row of steps (by its address and length) begun at a position ends.
    rows: HashMap<(usize, usize, usize), Vec<usize>>,
}

impl<P: RulesView<W>, const W: usize> Ends<'_, '_, '_, '_, P, W> {
    /// Whether the filter matches at the track's position `at`.
    fn matches(&mut self, filter: &FilterNode<W>, at: usize) -> bool {
        if at >= self.track.len {
            return false;
        }
        let key = (std::ptr::from_ref(filter) as usize, at);
        if let Some(&answer) = self.tested.get(&key) {
            return answer;
        }
        let answer = self.program.filter(filter, self.context, self.track.frame(at));
        self.tested.insert(key, answer);
        answer
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
}

impl<const W: usize> Program<W> {
    /// Where the run of a line's steps along the track ends (how many positions it covers):
    /// farthest, or nearest with `firstmatch`; None when no run covers a position.
    pub(super) fn line_ends<P: RulesView<W>>(
        &self,
        steps: &[Step<W>],
        context: &Context<'_, P, W>,
        track: &Track,
        firstmatch: bool,
    ) -> Option<usize> {
        let mut search = Ends { program: self, context, track, tested: HashMap::new(), rows: HashMap::new() };
        let ends = search.row(steps, 0);
        let mut covering = ends.into_iter().filter(|&end| end > 0);
        if firstmatch { covering.next() } else { covering.next_back() }
    }
}
