//! The run a `line` found from a position, as CQL 6.2 chooses it: of all the runs that match
//! the constituents in turn, the one that ends farthest (with `firstmatch`, the first found), walking
//! forward or (with `<--`) back, over every position or (with `singlecolor`) over those of the
//! first position's side to move. The run gives a `line` its value (its length, or its last
//! position), its comments, and what `nestban` and a length range decide.
//!
//! Each constituent's filter is tested at most once per position, in the order of the line:
//! the steps and the positions form a table filled from the line's start, so the work is the
//! number of steps times the square of the positions at most.

use std::cell::Cell;
use std::thread::LocalKey;

use super::ast::{LineMoves, LineOptions};
use super::comments::position_name;
use super::context::{Context, Frame};
use super::line_depth::DepthFirst;
use super::note_text::{NoteText, RunKind};
use super::plan::{FilterNode, LineTests, NumberNode, Program, Step, flat};
use super::state::Note;
use crate::hash::FastMap;
use crate::position::RulesView;

/// A run of positions a line matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Run {
    /// How many positions it covers.
    pub length: usize,
    /// The frame of its last position (its first when it covers none).
    pub last: usize,
}

/// What a line's filters gave at the positions where they were tested, by the filter's address
/// and the position's frame: each is tested once, however many tracks through a game's tree
/// pass the position.
#[derive(Default)]
pub(super) struct Tested {
    answers: FastMap<(usize, usize), bool>,
    /// The comments the filter made there.
    notes: FastMap<(usize, usize), Vec<Note>>,
}

impl Tested {
    /// Whether `filter` matches at the position of `frame`, its comments kept aside.
    pub fn matches<P: RulesView<W>, const W: usize>(
        &mut self,
        program: &Program<W>,
        filter: &FilterNode<W>,
        context: &Context<'_, P, W>,
        frame: usize,
    ) -> bool {
        let key = (address(filter), frame);
        if let Some(&answer) = self.answers.get(&key) {
            return answer;
        }
        let state = context.state;
        let mark = state.notes_len();
        let answer = program.filter(filter, context, frame);
        let made = state.take_notes_from(mark);
        if !made.is_empty() {
            self.notes.insert(key, made);
        }
        self.answers.insert(key, answer);
        answer
    }

    /// The comments the filter at `address` ([`address`]) made at the position of `frame`.
    pub fn notes(&self, address: usize, frame: usize) -> &[Note] {
        self.notes.get(&(address, frame)).map_or(&[], Vec::as_slice)
    }
}

/// Tables a search fills and then forgets: kept between searches on a thread, so that their
/// memory is allocated once rather than at every position.
trait Reusable: Default + 'static {
    /// Forgets what the table holds, keeping its memory.
    fn clear(&mut self);
}

impl Reusable for Tested {
    fn clear(&mut self) {
        self.answers.clear();
        self.notes.clear();
    }
}

/// Where the steps of a run go from each (step, position) (see [`Search`]).
#[derive(Default)]
struct StepTables {
    runs: FastMap<(usize, usize), usize>,
    ends: FastMap<(usize, usize), Option<(usize, usize)>>,
}

impl Reusable for StepTables {
    fn clear(&mut self) {
        self.runs.clear();
        self.ends.clear();
    }
}

thread_local! {
    /// Answers that no search on this thread is using (a search inside another makes its own).
    static SPARE_TESTED: Cell<Option<Box<Tested>>> = const { Cell::new(None) };
    /// Step tables that no search on this thread is using.
    static SPARE_STEPS: Cell<Option<Box<StepTables>>> = const { Cell::new(None) };
}

/// Runs `search` with an empty table of `spare`'s kind, the thread's spare one where it is free.
fn with_spare<T: Reusable, R>(spare: &'static LocalKey<Cell<Option<Box<T>>>>, search: impl FnOnce(&mut T) -> R) -> R {
    let mut table = spare.take().unwrap_or_default();
    let found = search(&mut table);
    table.clear();
    spare.set(Some(table));
    found
}

/// Whether a `line`'s answers may be found for every position at once before its run is
/// looked for: steps of single filters, no option that changes which positions follow which,
/// no range of its length.
fn plain<const W: usize>(
    steps: &[Step<W>],
    tests: LineTests,
    options: &LineOptions,
    bounds: Option<&(NumberNode<W>, NumberNode<W>)>,
) -> bool {
    matches!(tests, LineTests::Positions | LineTests::Plain)
        && flat(steps)
        && options.moves == LineMoves::Any
        && !options.backward
        && !options.singlecolor
        && !options.nestban
        && !options.firstmatch
        && options.range.is_none()
        && bounds.is_none()
}

/// The address of a filter of a line, which names it while the line is searched.
pub(super) fn address<const W: usize>(filter: &FilterNode<W>) -> usize {
    std::ptr::from_ref(filter) as usize
}

/// The positions a line walks from its first: their frames in order.
pub(super) struct Track {
    start: usize,
    stride: usize,
    backward: bool,
    /// How many positions it walks.
    pub len: usize,
    /// In a game's tree, the frames of one line through the tree, from the first; without a
    /// tree, the frames follow one another and none are listed.
    listed: Vec<usize>,
}

impl Track {
    /// The track of a line from `start` over frames that are one line.
    pub fn new<P, const W: usize>(options: &LineOptions, start: usize, frames: &[Frame<P, W>]) -> Track {
        let stride = if options.singlecolor { 2 } else { 1 };
        let mut len = if options.backward { start / stride + 1 } else { (frames.len() - start).div_ceil(stride) };
        if options.moves != LineMoves::Any && !options.backward {
            // The run stops before the first move it may not follow.
            let secondary = options.moves == LineMoves::Secondary;
            if let Some(stop) = frames[start + 1..].iter().position(|frame| frame.branch != secondary) {
                len = len.min((stop + 1).div_ceil(stride));
            }
        }
        Track { start, stride, backward: options.backward, len, listed: Vec::new() }
    }

    /// The tracks of a line from `start` in a game's tree: back to the game's first position,
    /// one; forward, one for each line through the tree from `start` to the end of a line (or
    /// to the last move the line may follow), in CQL 6.2's order.
    pub fn in_tree<P, const W: usize>(options: &LineOptions, start: usize, context: &Context<'_, P, W>) -> Vec<Track> {
        let stride = if options.singlecolor { 2 } else { 1 };
        let track = |frames: Vec<usize>| {
            let listed: Vec<usize> = frames.into_iter().step_by(stride).collect();
            Track { start, stride: 1, backward: false, len: listed.len(), listed }
        };
        if options.backward {
            return vec![track(context.ancestry(start).collect())];
        }
        let follows = |child: &usize| match options.moves {
            LineMoves::Any => true,
            LineMoves::Primary => !context.frames[*child].branch,
            LineMoves::Secondary => context.frames[*child].branch,
        };
        let mut tracks = Vec::new();
        let mut way = vec![start];
        // Depth first: each frame's children in order; a frame no move may follow ends a track.
        let mut pending: Vec<(usize, usize)> = vec![(start, 0)];
        while let Some((at, depth)) = pending.pop() {
            way.truncate(depth);
            way.push(at);
            let children: Vec<usize> = context.children(at).filter(follows).collect();
            if children.is_empty() {
                tracks.push(track(way.clone()));
            }
            pending.extend(children.into_iter().rev().map(|child| (child, depth + 1)));
        }
        tracks
    }

    /// The frame of its position `index`.
    pub fn frame(&self, index: usize) -> usize {
        if let Some(&frame) = self.listed.get(index) {
            return frame;
        }
        if self.backward { self.start - index * self.stride } else { self.start + index * self.stride }
    }
}

/// The search of one run: the table of where each step may end from each position.
struct Search<'p, 'c, 'a, 't, P, const W: usize> {
    program: &'p Program<W>,
    context: &'c Context<'a, P, W>,
    steps: &'p [Step<W>],
    track: Track,
    tested: &'t mut Tested,
    /// How many positions from each (step, position) match the step's filter in a row.
    runs: &'t mut FastMap<(usize, usize), usize>,
    /// Where the steps from each (step, position) end, if they can, and how many positions
    /// the step covers on the way there.
    ends: &'t mut FastMap<(usize, usize), Option<(usize, usize)>>,
}

impl<P: RulesView<W>, const W: usize> Search<'_, '_, '_, '_, P, W> {
    /// How many positions from `at` on match step `index`'s filter in a row, at most `most`.
    fn run(&mut self, index: usize, at: usize, most: usize) -> usize {
        if let Some(&run) = self.runs.get(&(index, at)) {
            return run.min(most);
        }
        let mut run = 0;
        while run < most && at + run < self.track.len {
            let filter = self.steps[index].flat_filter();
            let matched = self.tested.matches(self.program, filter, self.context, self.track.frame(at + run));
            if !matched {
                break;
            }
            run += 1;
        }
        // Shorter than asked: the run is known whole.
        if run < most || at + run == self.track.len {
            self.runs.insert((index, at), run);
        }
        run
    }

    /// Where the steps from `index` on, begun at `at`, end (one past their last position):
    /// farthest (`firstmatch` is searched by [`DepthFirst`]).
    fn end(&mut self, index: usize, at: usize) -> Option<usize> {
        let Some(step) = self.steps.get(index) else { return Some(at) };
        if let Some(&end) = self.ends.get(&(index, at)) {
            return end.map(|(end, _)| end);
        }
        let fewest = usize::try_from(step.min).unwrap_or(usize::MAX);
        let most = step.max.map_or(usize::MAX, |max| usize::try_from(max).unwrap_or(usize::MAX));
        let run = self.run(index, at, most);
        let mut best: Option<(usize, usize)> = None;
        if run >= fewest {
            for taken in fewest..=run {
                if let Some(end) = self.end(index + 1, at + taken) {
                    // Of runs that end alike, the first found, as CQL 6.2 searches depth
                    // first, each step trying its fewest repetitions first.
                    let better = best.is_none_or(|(best, _)| end > best);
                    if better {
                        best = Some((end, taken));
                    }
                }
            }
        }
        self.ends.insert((index, at), best);
        best.map(|(end, _)| end)
    }

    /// The comments the steps made along the run chosen, in the order of its positions: those
    /// made again once the run is known, as CQL 6.2 keeps the comments of the run it chose and
    /// drops those of the ones it tried.
    fn chosen_notes(&self) -> Vec<Note> {
        let mut notes = Vec::new();
        let mut at = 0;
        for (index, step) in self.steps.iter().enumerate() {
            let Some(Some((_, taken))) = self.ends.get(&(index, at)).copied() else { break };
            for position in at..at + taken {
                notes.extend_from_slice(self.tested.notes(address(step.flat_filter()), self.track.frame(position)));
            }
            at += taken;
        }
        notes
    }
}

impl<const W: usize> Program<W> {
    /// The run a line finds from `at`, if it finds one.
    pub(super) fn line_run<P: RulesView<W>>(
        &self,
        steps: &[Step<W>],
        options: &LineOptions,
        writes: bool,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> Option<Run> {
        if options.firstmatch || writes {
            let mut tested = Tested::default();
            let tested = (!writes).then_some(&mut tested);
            let (run, notes) = DepthFirst::new(self, context, steps, options, tested, at).search()?;
            context.state.push_notes(notes.into_iter());
            return Some(run);
        }
        if context.tree.is_some() {
            return self.line_run_in_tree(steps, options, context, at);
        }
        let track = Track::new(options, at, context.frames);
        let (run, notes) = with_spare(&SPARE_TESTED, |tested| self.track_run(steps, options, context, track, tested))?;
        context.state.push_notes(notes.into_iter());
        Some(run)
    }

    /// The run a line finds from `at` in a game's tree: of the runs along each line through
    /// the tree, the one whose last position lies farthest from the game's start (the first
    /// found of those as far; with `firstmatch`, the first found).
    fn line_run_in_tree<P: RulesView<W>>(
        &self,
        steps: &[Step<W>],
        options: &LineOptions,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> Option<Run> {
        let best = with_spare(&SPARE_TESTED, |tested| {
            let mut best: Option<(Run, Vec<Note>)> = None;
            for track in Track::in_tree(options, at, context) {
                let Some((run, notes)) = self.track_run(steps, options, context, track, tested) else { continue };
                if options.firstmatch {
                    return Some((run, notes));
                }
                let ply = |run: &Run| context.frames[run.last].ply;
                let better = best.as_ref().is_none_or(|(best, _)| {
                    if options.backward { ply(&run) < ply(best) } else { ply(&run) > ply(best) }
                });
                if better {
                    best = Some((run, notes));
                }
            }
            best
        });
        let (run, notes) = best?;
        context.state.push_notes(notes.into_iter());
        Some(run)
    }

    /// The run a line finds along one track, with the comments its steps made on it (not yet
    /// made in the state).
    fn track_run<P: RulesView<W>>(
        &self,
        steps: &[Step<W>],
        options: &LineOptions,
        context: &Context<'_, P, W>,
        track: Track,
        tested: &mut Tested,
    ) -> Option<(Run, Vec<Note>)> {
        if !flat(steps) {
            let (end, notes) = self.line_ends(steps, context, &track, options.firstmatch, tested)?;
            return Some((Run { length: end, last: track.frame(end - 1) }, notes));
        }
        with_spare(&SPARE_STEPS, |tables| {
            let mut search =
                Search { program: self, context, steps, track, tested, runs: &mut tables.runs, ends: &mut tables.ends };
            let end = search.end(0, 0)?;
            let last = search.track.frame(end.saturating_sub(1));
            Some((Run { length: end, last }, search.chosen_notes()))
        })
    }

    /// The run of a `line` filter from `at`, when it matches there (with its comments, unless
    /// quiet).
    pub(super) fn line_match<P: RulesView<W>>(
        &self,
        line: &FilterNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> Option<Run> {
        let FilterNode::Line { steps, slot, tests, options, bounds } = line else { return None };
        match context.lines {
            Some(lines) if *tests == LineTests::Positions => {
                // Most positions start no run: where the answers found for every position at
                // once say so, the run is not looked for.
                if plain(steps, *tests, options, None) && !self.line_answer(steps, *slot, context, at) {
                    return None;
                }
                lines.run_at(address(line), context, at, || {
                    self.line_found(steps, *slot, *tests, (options, None), context, at)
                })
            }
            _ => self.line_found(steps, *slot, *tests, (options, bounds.as_deref()), context, at),
        }
    }

    /// Whether the steps match from `at`, found for every position at once (see
    /// [`Program::line`]) outside a tree of variations (inside one: true, the run decides).
    /// The comments its filters made are not those of the run, which makes them again.
    fn line_answer<P: RulesView<W>>(
        &self,
        steps: &[Step<W>],
        slot: usize,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> bool {
        if context.tree.is_some() {
            return true;
        }
        self.without_notes(context, || self.line(steps, slot, context, at))
    }

    /// Whether the line's first step, which must match at least once, fails at `at`, where
    /// every run from `at` begins: then no run starts there and none is looked for. Only for
    /// lines whose filters look at the positions alone, tested here with their comments taken
    /// back (the run makes them again).
    fn first_step_fails<P: RulesView<W>>(
        &self,
        steps: &[Step<W>],
        tests: LineTests,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> bool {
        let Some(filter) = steps.first().filter(|step| step.min > 0).and_then(Step::filter) else { return false };
        if tests != LineTests::Positions {
            return false;
        }
        !self.without_notes(context, || self.filter(filter, context, at))
    }

    /// The run of a `line` filter's steps from `at`, when it matches there (with its comments,
    /// unless quiet).
    fn line_found<P: RulesView<W>>(
        &self,
        steps: &[Step<W>],
        slot: usize,
        tests: LineTests,
        (options, bounds): (&LineOptions, Option<&(NumberNode<W>, NumberNode<W>)>),
        context: &Context<'_, P, W>,
        at: usize,
    ) -> Option<Run> {
        let state = context.state;
        // A run bans the positions it went through (see `ban_run`).
        if options.nestban && state.line_nested(slot, at) {
            return None;
        }
        let starts_none = if plain(steps, tests, options, bounds) {
            !self.line_answer(steps, slot, context, at)
        } else {
            self.first_step_fails(steps, tests, context, at)
        };
        if starts_none {
            return None;
        }
        let run = self.line_run(steps, options, tests == LineTests::AsCql, context, at)?;
        if let Some((min, max)) = options.range {
            let length = u32::try_from(run.length).unwrap_or(u32::MAX);
            if length < min || max.is_some_and(|max| length > max) {
                return None;
            }
        }
        // A range of variables is read once the run is found, as CQL 6.2 reads it.
        if let Some((min, max)) = bounds {
            let (min, max) = (self.number(min, context, at)?, self.number(max, context, at)?);
            if !(min..=max).contains(&i64::try_from(run.length).unwrap_or(i64::MAX)) {
                return None;
            }
        }
        if options.nestban {
            Self::ban_run(slot, options, context, at, run.last);
        }
        if !options.quiet {
            self.note_run(run, context, at);
        }
        Some(run)
    }

    /// Bans the positions a run of the `nestban` line of `slot` from `at` to `last` went
    /// through, along the game's tree back from `last` (with `singlecolor`, those with the
    /// side to move at `at`), as CQL 6.2 bans them (a line with `nestban` goes forward).
    fn ban_run<P: RulesView<W>>(
        slot: usize,
        options: &LineOptions,
        context: &Context<'_, P, W>,
        at: usize,
        last: usize,
    ) {
        let first_ply = context.frames[at].ply;
        let back = |&frame: &usize| (context.frames[frame].ply > first_ply).then(|| context.parent(frame)).flatten();
        let frames = std::iter::successors(Some(last), back)
            .filter(|&frame| !options.singlecolor || context.frames[frame].ply % 2 == first_ply % 2);
        context.state.add_line_nested(slot, frames);
    }

    /// The comments CQL 6.2 makes about a run found from `at`: how long it is, at its last
    /// position, and where it ends, at its first; in that order, as CQL writes them where both
    /// fall on one position (a run of one position).
    pub(super) fn note_run<P: RulesView<W>>(&self, run: Run, context: &Context<'_, P, W>, at: usize) {
        // Written only if the position is found (most are not).
        let (kind, length) = (RunKind::Line, run.length as u64);
        let start = position_name(context, at);
        context.state.note(run.last, NoteText::RunEnd { kind, length, start, max: None });
        context.state.note(at, NoteText::RunStart { kind, end: position_name(context, run.last) });
    }
}
