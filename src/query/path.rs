//! `path`: the runs of moves from a position that match a path's constituents in turn, searched
//! depth first in the order CQL 6.2 searches them, and the best of them (the one that counts
//! the most moves, or with `max` the one whose end gives the largest value; the first found
//! among equals, or every one with `keepallbest`).
//!
//! A run counts the moves its dashes match. With a focus, dashes match only the moves of the
//! pieces in focus and the other moves in between are stepped over. The comments made along
//! the runs are kept for the best run only, as CQL 6.2 keeps them; `atomic` variables are given
//! back their values when the search turns back from a move.

use std::fmt::Write;
use std::sync::Arc;

use arrayvec::ArrayVec;

use super::comments::position_name;
use super::context::Context;
use super::note_text::{NoteText, RunKind};
use super::plan::{DashNode, FilterNode, NumberNode, Program, SetNode};
use super::state::{Note, PathIds, PathStatus, PieceId, Value};
use super::texts::piece_on;
use crate::board::Square;
use crate::position::RulesView;

/// The most constituents one search of a path may try. Repetitions inside repetitions can
/// split a game's moves in more ways than any search can try; past this many, the search
/// stops, and the run with it, with the reason.
const MOST_STEPS: u64 = 2_000_000;

/// Room kept in a search's stack of pending constituents beyond the path's own, for the
/// repetitions and groups it opens.
const PENDING_ROOM: usize = 24;

/// A compiled `path`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PathNode<const W: usize> {
    /// The constituents.
    pub steps: Vec<PathPlanStep<W>>,
    /// The pieces whose moves count, if not all.
    pub focus: Option<FocusNode<W>>,
    /// `max F`: runs are compared by F's value at their ends.
    pub max: Option<NumberNode<W>>,
    /// A range of variables (`path x 5`, `path x`): the best run's count (or `max` value)
    /// must lie between their values (be the first's, when alone), read once the run is
    /// found.
    pub bounds: Option<Box<(NumberNode<W>, Option<NumberNode<W>>)>>,
    /// The options without filters.
    pub flags: PathFlags,
    /// The slots of the `atomic` variables.
    pub atomics: Vec<usize>,
    /// The path's own slot (for `nestban`).
    pub slot: usize,
    /// The tests of the path's first move, when they are made ahead of its search: its dashes
    /// look at the positions only and do nothing else, and the test tells something. Found
    /// once, when the path is compiled.
    pub guard: Option<PathGuard>,
}

/// Where a constituent stands in a path: the index of each constituent gone into, from the
/// path's own, the last being the constituent's.
type StepPlace = ArrayVec<u8, MOST_GUARD_DEPTH>;

/// How deep in groups and repetitions a [`PathGuard`] looks for its tests.
const MOST_GUARD_DEPTH: usize = 8;

/// What every run of a path tests first, where it stands in the path: the filters before its
/// first move, the move's dash and its target, and the filters right after it, all of them
/// looking at the positions only and doing nothing else. Where no next move passes them, no
/// run starts, and the search is not set up: it would have tested the same things, in the
/// same order, and found nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct PathGuard {
    before: ArrayVec<StepPlace, GUARD_TESTS>,
    dash: StepPlace,
    after: ArrayVec<StepPlace, GUARD_TESTS>,
}

/// The constituent at `place` in `steps`.
fn step_at<'p, const W: usize>(steps: &'p [PathPlanStep<W>], place: &StepPlace) -> Option<&'p PathPlanStep<W>> {
    let (&last, within) = place.split_last()?;
    let mut steps = steps;
    for &index in within {
        steps = match steps.get(usize::from(index))? {
            PathPlanStep::Group(inner) => inner,
            PathPlanStep::Repeat { step, .. } => std::slice::from_ref(&**step),
            _ => return None,
        };
    }
    steps.get(usize::from(last))
}

/// The options of a compiled `path` that hold no filter.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct PathFlags {
    /// The best run's count (or `max` value) must lie in this range.
    pub range: Option<(u32, Option<u32>)>,
    /// No comments about where the path starts and ends (the path's `quiet`).
    pub quiet: bool,
    /// The header's `quiet`: nor about the runs as good as the best.
    pub quiet_header: bool,
    /// No comments at all (the header's `silent`).
    pub silent: bool,
    /// No path starts where a run of this one went through before.
    pub nestban: bool,
    /// The first run found is the best.
    pub firstmatch: bool,
    /// Only the main continuation of each position.
    pub primary: bool,
    /// Each move of the best run is commented.
    pub verbose: bool,
    /// Every run as good as the best is kept.
    pub keepallbest: bool,
    /// The start is commented with the moves of the pieces in focus.
    pub piecepath: bool,
    /// The start is commented with this title.
    pub title: Option<Arc<str>>,
}

/// The pieces a path follows.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum FocusNode<const W: usize> {
    /// Those on the squares of the set at the start (with `capture`, their captures count too).
    Pieces { set: SetNode<W>, capture: bool },
    /// Those of the side to move at the start.
    SideToMove,
}

/// A compiled path constituent.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum PathPlanStep<const W: usize> {
    /// A filter the position matches.
    Filter(FilterNode<W>),
    /// A move that fits the dash, and its target after it.
    Move(DashNode<W>),
    /// Constituents in turn.
    Group(Vec<PathPlanStep<W>>),
    /// A constituent `min` to `max` times.
    Repeat { step: Box<PathPlanStep<W>>, min: u32, max: Option<u32> },
}

/// What a path that matched found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PathFound {
    /// The moves its best run counts.
    pub count: u32,
    /// The best run's last frame.
    pub last: usize,
    /// The best `max` value, if the path has `max`.
    pub max: Option<i64>,
}

/// The most tests a [`PathGuard`] keeps on either side of its move.
const GUARD_TESTS: usize = 4;

/// How far the constituents read so far let a [`PathGuard`] go on.
enum Lead {
    /// To the constituent after them.
    Open,
    /// No further: what comes next may or may not be tested next.
    Closed,
    /// Nowhere: something with an effect, or that may play no move, comes before the first
    /// move.
    Unsafe,
}

/// The guard a path's constituents make, if they make one that tells something (not with a
/// focus: the moves it steps over are not tested).
fn find_guard<const W: usize>(node: &PathNode<W>) -> Option<PathGuard> {
    if node.focus.is_some() {
        return None;
    }
    let mut finder = GuardFinder { places: PathGuard::default(), dash: None, within: StepPlace::new() };
    match (finder.lead(&node.steps), finder.dash) {
        (Lead::Unsafe, _) | (_, None) => None,
        // Any move passes a bare dash: where there is none, the search finds it as soon.
        (_, Some(dash)) if finder.places.before.is_empty() && finder.places.after.is_empty() && dash.is_bare() => None,
        _ => Some(finder.places),
    }
}

/// Looks for the tests of a [`PathGuard`] through a path's constituents.
struct GuardFinder<'p, const W: usize> {
    places: PathGuard,
    dash: Option<&'p DashNode<W>>,
    /// The place of the constituents being read.
    within: StepPlace,
}

impl<'p, const W: usize> GuardFinder<'p, W> {
    /// The place of the `index`th constituent of those being read.
    fn place(&self, index: usize) -> Option<StepPlace> {
        let mut place = self.within.clone();
        place.try_push(u8::try_from(index).ok()?).ok()?;
        Some(place)
    }

    /// Takes the tests of `steps` that every run makes first, in the search's order.
    fn lead(&mut self, steps: &'p [PathPlanStep<W>]) -> Lead {
        for (index, step) in steps.iter().enumerate() {
            let Some(place) = self.place(index) else { return Lead::Closed };
            let lead = match step {
                // Kept answers: a filter that looks at the position only.
                PathPlanStep::Filter(FilterNode::Memo(_)) => {
                    let tests = if self.dash.is_none() { &mut self.places.before } else { &mut self.places.after };
                    // Past the room kept, a test is left to the search: the guard asks less.
                    let _ = tests.try_push(place);
                    Lead::Open
                }
                PathPlanStep::Filter(_) | PathPlanStep::Repeat { min: 0, .. } => {
                    if self.dash.is_none() {
                        Lead::Unsafe
                    } else {
                        Lead::Closed
                    }
                }
                PathPlanStep::Move(dash) => match self.dash {
                    None => {
                        self.dash = Some(dash);
                        self.places.dash = place;
                        Lead::Open
                    }
                    Some(_) => Lead::Closed,
                },
                PathPlanStep::Group(inner) => self.lead_within(place, inner),
                // The first time is certain, what follows it is not.
                PathPlanStep::Repeat { step, .. } => match self.lead_within(place, std::slice::from_ref(&**step)) {
                    Lead::Open => Lead::Closed,
                    lead => lead,
                },
            };
            if !matches!(lead, Lead::Open) {
                return lead;
            }
        }
        Lead::Open
    }

    /// [`GuardFinder::lead`] in the constituents of the one at `place`.
    fn lead_within(&mut self, place: StepPlace, steps: &'p [PathPlanStep<W>]) -> Lead {
        let outer = std::mem::replace(&mut self.within, place);
        let lead = self.lead(steps);
        self.within = outer;
        lead
    }
}

impl PathGuard {
    /// Whether a next move from `at` passes the tests of `node`'s guard (only the main
    /// continuation's, with `primary`).
    fn passes<P: RulesView<W>, const W: usize>(
        &self,
        node: &PathNode<W>,
        program: &Program<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> bool {
        let Some(PathPlanStep::Move(dash)) = step_at(&node.steps, &self.dash) else { return true };
        let holds = |place: &StepPlace, at: usize| match step_at(&node.steps, place) {
            Some(PathPlanStep::Filter(filter)) => program.filter(filter, context, at),
            _ => true,
        };
        let primary = node.flags.primary;
        self.before.iter().all(|place| holds(place, at))
            && context.children(at).any(|tail| {
                !(primary && context.frames[tail].branch)
                    && program.dash_fits(dash, context, at, tail, true, true)
                    && program.dash_target_matches(dash, context, tail)
                    && self.after.iter().all(|place| holds(place, tail))
            })
    }
}

/// A constituent waiting to be matched.
#[derive(Clone, Copy)]
enum Pending<'p, const W: usize> {
    Step(&'p PathPlanStep<W>),
    /// A repeated constituent, matched `seen` times so far, the last time from frame `from`.
    Repeating {
        step: &'p PathPlanStep<W>,
        min: u32,
        max: Option<u32>,
        seen: u32,
        from: usize,
    },
}

/// The comments of a search: those made along the best run found so far are kept when the
/// search turns back, the others dropped.
struct KeptNotes {
    /// How many comments there were when the search began.
    bottom: usize,
    /// The comments below this many belong to the best run.
    top: usize,
    /// The best run's comments taken off while the search turned back, latest first.
    saved: Vec<Note>,
}

/// The identities whose bits a [`Focus`] keeps in place; those past them (on big boards, or
/// after many promotions) go on the heap.
const FOCUS_INLINE_IDS: usize = 256;

/// The pieces in focus, by identity.
struct Focus {
    /// A bit for each identity in focus below [`FOCUS_INLINE_IDS`] (a search starts at most
    /// positions of a game, and most find their pieces here, with nothing to allocate)...
    inline: [u64; FOCUS_INLINE_IDS / 64],
    /// ...and for each from there on.
    more: Vec<u64>,
    capture: bool,
}

impl Focus {
    /// The pieces `focus` names at frame `at`.
    fn new<P: RulesView<W>, const W: usize>(
        program: &Program<W>,
        focus: &FocusNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> Self {
        let view = &context.frames[at].position;
        let (squares, capture) = match focus {
            FocusNode::Pieces { set, capture } => (program.squares(set, context, at), *capture),
            FocusNode::SideToMove => (view.color(view.turn()), false),
        };
        let mut focus = Self { inline: [0; FOCUS_INLINE_IDS / 64], more: Vec::new(), capture };
        if let Some(pieces) = context.pieces.get(at) {
            for id in squares.iter().filter_map(|square| pieces.at(square)) {
                focus.add(id);
            }
        }
        focus
    }

    /// Puts the piece with this identity in focus.
    fn add(&mut self, id: PieceId) {
        let (word, bit) = (usize::from(id / 64), 1 << (id % 64));
        match self.inline.get_mut(word) {
            Some(held) => *held |= bit,
            None => {
                let word = word - self.inline.len();
                if self.more.len() <= word {
                    self.more.resize(word + 1, 0);
                }
                self.more[word] |= bit;
            }
        }
    }

    /// Whether the piece with this identity is in focus.
    fn holds(&self, id: PieceId) -> bool {
        let word = usize::from(id / 64);
        let held = match self.inline.get(word) {
            Some(&held) => held,
            None => self.more.get(word - self.inline.len()).copied().unwrap_or(0),
        };
        held & (1 << (id % 64)) != 0
    }

    /// Whether the move that led to frame `tail` moved a piece in focus (or, with `focus
    /// capture`, took one; a castling, its king or its rook).
    fn moved<P: RulesView<W>, const W: usize>(&self, context: &Context<'_, P, W>, tail: usize) -> bool {
        let Some(played) = context.frames[tail].previous else { return false };
        let Some(pieces) = context.parent(tail).and_then(|parent| context.pieces.get(parent)) else { return false };
        if played.castle().is_some() {
            let (king, rook) = self.castling(context, tail);
            return king || rook;
        }
        let focused =
            |square: Option<Square>| square.and_then(|square| pieces.at(square)).is_some_and(|id| self.holds(id));
        let from = played.from().or(Some(played.to()).filter(|_| played.is_null()));
        focused(from) || (self.capture && focused(played.capture()))
    }

    /// Whether the king and the rook of the castling that led to frame `tail` are in focus
    /// (both, if that move is no castling).
    fn castling<P: RulesView<W>, const W: usize>(&self, context: &Context<'_, P, W>, tail: usize) -> (bool, bool) {
        let Some(played) = context.frames[tail].previous.filter(|played| played.castle().is_some()) else {
            return (true, true);
        };
        let Some(parent) = context.parent(tail) else { return (false, false) };
        let Some(pieces) = context.pieces.get(parent) else { return (false, false) };
        let focused = |square: Square| pieces.at(square).is_some_and(|id| self.holds(id));
        let king = played.from().is_some_and(focused);
        let rook = Program::<W>::castle_rook(context, parent, tail).is_some_and(|(from, _)| focused(from));
        (king, rook)
    }
}

/// One search of a path from a position.
struct Search<'p, 'c, 'a, 'f, P, const W: usize> {
    program: &'p Program<W>,
    context: &'c Context<'a, P, W>,
    node: &'p PathNode<W>,
    start: usize,
    at: usize,
    count: u32,
    pending: Vec<Pending<'p, W>>,
    best: Option<usize>,
    best_count: Option<u32>,
    best_max: Option<i64>,
    others: Vec<usize>,
    focus: Option<&'f Focus>,
    atomics: Vec<Vec<Value<W>>>,
    best_atomics: Option<Vec<Value<W>>>,
    notes: KeptNotes,
    /// How many constituents the search has tried.
    steps: u64,
}

impl<P: RulesView<W>, const W: usize> Search<'_, '_, '_, '_, P, W> {
    /// Matches the constituents pending from the frame the search stands on.
    fn compute(&mut self) {
        self.steps += 1;
        if self.steps > MOST_STEPS {
            return;
        }
        let Some(top) = self.pending.pop() else {
            // A run of no move is no run.
            if self.at != self.start {
                self.merge();
            }
            return;
        };
        if !(self.node.flags.firstmatch && self.best.is_some()) {
            match top {
                Pending::Step(PathPlanStep::Filter(filter)) => {
                    if self.program.filter(filter, self.context, self.at) {
                        self.compute();
                    }
                }
                Pending::Step(PathPlanStep::Move(dash)) => self.moves(dash),
                Pending::Step(PathPlanStep::Group(steps)) => {
                    let len = self.pending.len();
                    self.pending.extend(steps.iter().rev().map(Pending::Step));
                    self.compute();
                    self.pending.truncate(len);
                }
                Pending::Step(PathPlanStep::Repeat { step, min, max }) => {
                    self.pending.push(Pending::Repeating { step, min: *min, max: *max, seen: 0, from: self.at });
                    self.compute();
                    self.pending.pop();
                }
                Pending::Repeating { step, min, max, seen, from } => {
                    if seen >= min {
                        self.compute();
                    }
                    // Without a bound, a repetition that played no move is not tried again:
                    // it would find the same runs for ever.
                    let stuck = max.is_none() && seen > 0 && from == self.at;
                    if max.is_none_or(|max| seen < max) && !stuck {
                        let again = Pending::Repeating { step, min, max, seen: seen + 1, from: self.at };
                        self.pending.push(again);
                        self.pending.push(Pending::Step(step));
                        self.compute();
                        self.pending.pop();
                        self.pending.pop();
                    }
                }
            }
        }
        self.pending.push(top);
    }

    /// Plays each move from here that fits the dash, and goes on from after it where the
    /// dash's target matches there.
    fn moves(&mut self, dash: &DashNode<W>) {
        let here = self.at;
        let context = self.context;
        match self.focus {
            None => {
                for tail in context.children(here) {
                    if self.node.flags.primary && context.frames[tail].branch {
                        continue;
                    }
                    self.take(dash, here, tail);
                }
            }
            Some(focus) if here == self.start => {
                // From the start, only a next move, if it is one of a piece in focus.
                for tail in context.children(here).filter(|&tail| focus.moved(context, tail)) {
                    self.take(dash, here, tail);
                }
            }
            Some(focus) => {
                // On each line from here, the next move of a piece in focus.
                let mut tail = here + 1;
                let end = context.subtree(here).end;
                while tail < end {
                    if focus.moved(context, tail) {
                        self.take(dash, here, tail);
                        tail = context.subtree(tail).end;
                    } else {
                        tail += 1;
                    }
                }
            }
        }
    }

    /// Takes the move to frame `tail` (made from `here`, or with a focus from before it), when
    /// it fits the dash, and goes on from after it where the dash's target matches there.
    fn take(&mut self, dash: &DashNode<W>, here: usize, tail: usize) {
        let Some(before) = self.context.parent(tail) else { return };
        let (king, rook) = self.castle_focus(tail);
        if !self.program.dash_fits(dash, self.context, before, tail, king, rook) {
            return;
        }
        let mark = self.context.state.notes_len();
        self.push_atomics();
        self.at = tail;
        self.count += 1;
        self.context.state.update_path(|status| status.count = self.count);
        if self.program.dash_target_matches(dash, self.context, tail) {
            self.compute();
        }
        self.count -= 1;
        self.context.state.update_path(|status| status.count = self.count);
        self.at = here;
        self.pop_atomics();
        self.restore_notes(mark);
    }

    /// Whether the king and the rook of the castling that led to frame `tail` are in focus
    /// (both, without a focus).
    fn castle_focus(&self, tail: usize) -> (bool, bool) {
        self.focus.map_or((true, true), |focus| focus.castling(self.context, tail))
    }

    /// A run ended here: it becomes the best if it is better than the best so far.
    fn merge(&mut self) {
        let better = match &self.node.max {
            Some(max) => {
                let Some(value) = self.program.number(max, self.context, self.at) else { return };
                match self.best_max {
                    Some(best) if value < best => return,
                    Some(best) if value == best => false,
                    _ => {
                        self.best_max = Some(value);
                        self.context.state.update_path(|status| status.max = Some(value));
                        true
                    }
                }
            }
            None => match self.best_count {
                Some(best) if self.count < best => return,
                Some(best) if self.count == best => false,
                _ => true,
            },
        };
        if better {
            self.best_count = Some(self.count);
            self.best = Some(self.at);
            self.context.state.update_path(|status| status.last = Some(self.at));
            self.others.clear();
            if !self.node.atomics.is_empty() {
                self.best_atomics = Some(self.atomic_values());
            }
            self.notes.saved.clear();
            self.notes.top = self.context.state.notes_len();
        } else if self.node.flags.keepallbest {
            self.others.push(self.at);
            self.notes.top = self.context.state.notes_len();
        }
    }

    fn atomic_values(&self) -> Vec<Value<W>> {
        self.node.atomics.iter().map(|&slot| self.context.state.get(slot)).collect()
    }

    fn push_atomics(&mut self) {
        if !self.node.atomics.is_empty() {
            let values = self.atomic_values();
            self.atomics.push(values);
        }
    }

    fn pop_atomics(&mut self) {
        if let Some(values) = self.atomics.pop() {
            self.set_atomics(values);
        }
    }

    fn set_atomics(&self, values: Vec<Value<W>>) {
        for (&slot, value) in self.node.atomics.iter().zip(values) {
            self.context.state.set(slot, value);
        }
    }

    /// Takes off the comments made after the first `mark`, keeping aside those of the best run.
    fn restore_notes(&mut self, mark: usize) {
        let state = self.context.state;
        while state.notes_len() > mark {
            let len = state.notes_len();
            let Some(note) = state.pop_note() else { break };
            if len <= self.notes.top && len > self.notes.bottom {
                self.notes.saved.push(note);
                self.notes.top = len - 1;
            }
        }
    }

    /// Puts back the comments of the best run after the search.
    fn keep_best_notes(&mut self) {
        let state = self.context.state;
        state.truncate_notes(self.notes.top);
        state.push_notes(self.notes.saved.drain(..).rev());
    }
}

impl<const W: usize> PathNode<W> {
    /// The path, tested ahead of its search where its dashes look at the positions only and
    /// do nothing else (`pure_dashes`) and its constituents make a guard that tells something.
    pub(crate) fn guarded(mut self, pure_dashes: bool) -> Self {
        self.guard = if pure_dashes { find_guard(&self) } else { None };
        self
    }
}

impl<const W: usize> Program<W> {
    /// The constituents a search begins with, in a stack with room for the repetitions and
    /// groups they open (so that it is allocated once).
    fn pending_stack(node: &PathNode<W>) -> Vec<Pending<'_, W>> {
        let mut pending = Vec::with_capacity(node.steps.len() + PENDING_ROOM);
        pending.extend(node.steps.iter().rev().map(Pending::Step));
        pending
    }

    /// The search of a `path` from `at`: what it found, when it matches there (with its
    /// comments).
    pub(super) fn path_match<P: RulesView<W>>(
        &self,
        node: &PathNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> Option<PathFound> {
        let state = context.state;
        if state.refused() || (node.flags.nestban && state.path_nested(node.slot, at)) {
            return None;
        }
        if node.guard.as_ref().is_some_and(|guard| !guard.passes(node, self, context, at)) {
            return None;
        }
        let focus = node.focus.as_ref().map(|focus| Focus::new(self, focus, context, at));
        let bottom = state.notes_len();
        let mut search = Search {
            program: self,
            context,
            node,
            start: at,
            at,
            count: 0,
            pending: Self::pending_stack(node),
            best: None,
            best_count: None,
            best_max: None,
            others: Vec::new(),
            focus: focus.as_ref(),
            atomics: Vec::new(),
            best_atomics: None,
            notes: KeptNotes { bottom, top: bottom, saved: Vec::new() },
            steps: 0,
        };
        state.enter_path(PathStatus { start: at, count: 0, last: None, max: None });
        search.push_atomics();
        search.compute();
        search.pop_atomics();
        if search.steps > MOST_STEPS {
            state.refuse(&format!(
                "a path tried more than {MOST_STEPS} ways through the moves from one position (repetitions inside \
                 repetitions split the moves in too many ways): bound the repetitions with {{m,n}}"
            ));
            state.truncate_notes(bottom);
            state.leave_path(None);
            return None;
        }
        let found =
            search.best.zip(search.best_count).map(|(last, count)| PathFound { count, last, max: search.best_max });
        let in_range = found.is_some_and(|found| {
            let value = found.max.unwrap_or(i64::from(found.count));
            let fits = |min: i64, max: Option<i64>| value >= min && max.is_none_or(|max| value <= max);
            match &node.bounds {
                // A range of variables is read once the run is found; one with no value fits nothing.
                Some(bounds) => {
                    let min = self.number(&bounds.0, context, at);
                    let max = bounds.1.as_ref().map(|max| self.number(max, context, at));
                    match (min, max) {
                        // One variable is that value alone, as CQL 6.2 reads it.
                        (Some(min), None) => fits(min, Some(min)),
                        (Some(min), Some(Some(max))) => fits(min, Some(max)),
                        _ => false,
                    }
                }
                None => node.flags.range.is_none_or(|(min, max)| fits(i64::from(min), max.map(i64::from))),
            }
        });
        if !in_range {
            state.truncate_notes(bottom);
            state.leave_path(None);
            return None;
        }
        let found = found?;
        search.keep_best_notes();
        self.note_path(node, context, at, found, found.last);
        for &other in &search.others {
            self.note_path(node, context, at, found, other);
            if !node.flags.quiet_header {
                state.note(other, "alternative".to_owned());
            }
        }
        if node.flags.nestban {
            let way = context.way(at, found.last);
            state.add_path_nested(
                node.slot,
                std::iter::once(at).chain(way[..way.len().saturating_sub(1)].iter().copied()),
            );
        }
        let status = PathStatus { start: at, count: found.count, last: Some(found.last), max: found.max };
        let ids = PathIds { start: context.frames[at].id, last: context.frames[found.last].id };
        state.leave_path(Some((status, ids)));
        if let Some(values) = search.best_atomics.take() {
            search.set_atomics(values);
        }
        Some(found)
    }

    /// The comments CQL 6.2 makes about a run of a path from `start` to `last`.
    fn note_path<P: RulesView<W>>(
        &self,
        node: &PathNode<W>,
        context: &Context<'_, P, W>,
        start: usize,
        found: PathFound,
        last: usize,
    ) {
        let flags = &node.flags;
        if flags.silent {
            return;
        }
        let state = context.state;
        if let Some(title) = &flags.title {
            state.note(start, title.to_string());
        }
        if flags.piecepath
            && let Some(moves) = self.piece_paths(node, context, start, last)
        {
            state.note(start, moves);
        }
        if flags.verbose {
            let focus = node.focus.as_ref().map(|focus| Focus::new(self, focus, context, start));
            let mut number = 0;
            for tail in context.way(start, last) {
                if focus.as_ref().is_none_or(|focus| focus.moved(context, tail)) {
                    number += 1;
                    let title = flags.title.as_ref().map_or(String::new(), |title| format!("{title}: "));
                    state.note(tail, format!("{title}move {number} of {}", found.count));
                }
            }
        }
        if flags.quiet || flags.quiet_header {
            return;
        }
        // Written only if the position is found (most are not).
        let kind = RunKind::Path;
        let length = u64::from(found.count);
        state.note(last, NoteText::RunEnd { kind, length, start: position_name(context, start), max: found.max });
        state.note(start, NoteText::RunStart { kind, end: position_name(context, last) });
    }

    /// `piecepath`: the comment `Focus path: ` and the moves of each piece in focus from
    /// `start` to `last`, as `Ne4-f6-d5` (a capture of the piece ends with `(xd5)`), for those
    /// that moved; none where none moved.
    fn piece_paths<P: RulesView<W>>(
        &self,
        node: &PathNode<W>,
        context: &Context<'_, P, W>,
        start: usize,
        last: usize,
    ) -> Option<String> {
        const TITLE: &str = "Focus path: ";
        let Some(FocusNode::Pieces { set, .. }) = &node.focus else { return None };
        let geometry = self.masks.geometry();
        let view = &context.frames[start].position;
        let pieces = context.pieces.get(start)?;
        let mut text = String::with_capacity(64);
        text.push_str(TITLE);
        for square in self.squares(set, context, start).iter() {
            let (Some(piece), Some(id)) = (piece_on(view, square), pieces.at(square)) else { continue };
            // After a piece that moved, a space, whether this one moves or not (as CQL 6.2
            // writes it); the piece's moves are written as they are found, and taken back if
            // it never moved.
            if text.len() > TITLE.len() {
                text.push(' ');
            }
            let before = text.len();
            let _ = write!(text, "{}{}", view.variant().symbol(piece), geometry.square_name(square));
            let mut there = square;
            let mut moved = false;
            for frame in context.way(start, last) {
                match context.pieces.get(frame).and_then(|pieces| pieces.square_of(id)) {
                    None => {
                        let _ = write!(text, "(x{})", geometry.square_name(there));
                        moved = true;
                        break;
                    }
                    Some(now) if now != there => {
                        let _ = write!(text, "-{}", geometry.square_name(now));
                        there = now;
                        moved = true;
                    }
                    Some(_) => {}
                }
            }
            if !moved {
                text.truncate(before);
            }
        }
        (text.len() > TITLE.len()).then_some(text)
    }
}

impl<const W: usize> Program<W> {
    /// `pathdebug`: writes where the path around stands to the standard error.
    pub(super) fn path_debug<P: RulesView<W>>(&self, context: &Context<'_, P, W>, at: usize) {
        let place = |index: usize| position_name(context, index);
        match context.state.path_status(true) {
            Some(status) => eprintln!(
                "pathdebug: path from {} at {}, {} moves counted, best run so far ends at {}",
                place(status.start),
                place(at),
                status.count,
                status.last.map_or_else(|| "none".to_owned(), |last| place(last).to_string())
            ),
            None => eprintln!("pathdebug: no path is being searched at {}", place(at)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Identities past those kept in place (big boards, many promotions) are held as well.
    #[test]
    fn a_focus_holds_identities_in_place_and_past_them() {
        let mut focus = Focus { inline: [0; FOCUS_INLINE_IDS / 64], more: Vec::new(), capture: false };
        let held: [PieceId; 6] = [0, 63, 255, 256, 383, 700];
        for id in held {
            focus.add(id);
        }
        assert_eq!(focus.more.len(), 7, "the words past those in place, up to the last held");
        for id in 0..1000 {
            assert_eq!(focus.holds(id), held.contains(&id), "{id}");
        }
    }
}
