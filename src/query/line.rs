//! Sequences, `line --> F1 --> F2 ...`, in time linear in the length of the line of positions.
//!
//! Whether the steps match from a position depends only on the positions after it, so the
//! answers at every position of a line are found together. A forward pass finds, step by step,
//! where each step may start (`reach`) and how many consecutive positions from there match its
//! filter (`run`); each filter is tested at most once per position, and only where a step may
//! start or a run of its matches goes on. A backward pass then finds from where the remaining
//! steps can still be completed (`can`), a step `{min,max}` taking constant time per position
//! with a table of the next position from which the later steps complete.
//!
//! A search keeps the answers in a [`LineCache`] while the frames of a line stay the same, so
//! that testing every position of a line of `n` positions costs `O(n)` per `line` filter rather
//! than `O(n²)`.
//!
//! ```
//! use cqlq::notation::fen;
//! use cqlq::{Position, Query, Variant};
//!
//! // A position alone is a line of one position: White to move, and nothing after it.
//! let plan = Query::parse("line --> wtm --> btm*")?.compile(Variant::standard())?;
//! let setup = fen::read::<1>(Variant::standard(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1")?;
//! assert!(plan.matches(&Position::from_setup(setup)?.into()));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::cell::RefCell;

use super::context::Context;
use super::line_run::Run;
use super::plan::{FilterNode, Program, Step};
use super::state::Note;
use crate::position::RulesView;

/// The answers of a program's `line` filters at the positions of one line of frames, found on
/// first use and kept while the frames stay the same.
///
/// Pass one in [`Context::lines`] for every position tested of a line, and [`clear`] it (or make
/// a new one) before the frames change. The answers are tied to the frames they were found for:
/// a cache used with other frames finds its answers again.
///
/// [`clear`]: LineCache::clear
#[derive(Debug, Default)]
pub struct LineCache {
    entries: RefCell<Vec<Option<Answers>>>,
    /// For `find` filters that look at nothing but the positions, where each one's search from
    /// each frame ends, by the address of the `find` in its program (which stays where it is
    /// while the program lives; a program is used with one cache for a line at a time).
    finds: RefCell<Vec<(usize, FindAnswers)>>,
    /// For filters that look at nothing but the positions, their answer at each frame (0 not
    /// known yet, 1 no, 2 yes), by the address of the filter in its program.
    filters: RefCell<Vec<(usize, Key, Vec<u8>)>>,
    /// For `line` filters that look at nothing but the positions, the run each found from each
    /// frame (if it was asked) with the comments it made, by the address of the filter.
    runs: RefCell<Vec<RunAnswers>>,
}

/// A line's run from a position, if it found one, and the comments it made.
type FoundRun = (Option<Run>, Vec<Note>);

/// The runs of the `line` filter at an address from the frames of a line.
type RunAnswers = (usize, Key, RunMemo);

/// What is kept of a `line` filter's runs from the frames of a line: at first only which frames
/// it was asked at (most filters are asked once a frame, and keeping their runs would cost more
/// than it saves); once one is asked again, the runs found from then on.
#[derive(Debug)]
enum RunMemo {
    Asked(Vec<bool>),
    Kept(Vec<Option<FoundRun>>),
}

/// Where a `find` that looks at nothing but the positions finds its position from each frame.
#[derive(Debug)]
struct FindAnswers {
    key: Key,
    found: Vec<Option<usize>>,
}

/// Which frames answers were found for: their address, their number, and whether the line
/// ended with them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Key {
    address: usize,
    len: usize,
    complete: bool,
}

impl Key {
    fn of<P, const W: usize>(context: &Context<'_, P, W>) -> Key {
        Key { address: context.frames.as_ptr() as usize, len: context.frames.len(), complete: context.complete }
    }
}

/// Whether one `line` filter matches from each position `from..` of a line.
#[derive(Debug)]
struct Answers {
    key: Key,
    from: usize,
    matches: Vec<bool>,
}

impl LineCache {
    /// An empty cache.
    #[must_use]
    pub fn new() -> LineCache {
        LineCache::default()
    }

    /// Forgets every answer, keeping the memory for the next line.
    pub fn clear(&mut self) {
        for answers in self.entries.get_mut().iter_mut().filter_map(Option::take) {
            give_flags(answers.matches);
        }
        self.finds.get_mut().clear();
        self.filters.get_mut().clear();
        self.runs.get_mut().clear();
    }

    /// The run of the `line` filter at `node` from frame `at`, with its comments made again:
    /// `find` the first time it is asked. The filter's tests look at nothing but the positions,
    /// so a run found again is the same run with the same comments.
    pub(super) fn run_at<P, const W: usize>(
        &self,
        node: usize,
        context: &Context<'_, P, W>,
        at: usize,
        find: impl FnOnce() -> Option<Run>,
    ) -> Option<Run> {
        let key = Key::of(context);
        let entry = |runs: &[RunAnswers]| runs.iter().position(|(kept, kept_key, _)| *kept == node && *kept_key == key);
        let state = context.state;
        let keep = {
            let mut runs = self.runs.borrow_mut();
            let index = entry(&runs).unwrap_or_else(|| {
                runs.retain(|(kept, _, _)| *kept != node);
                runs.push((node, key, RunMemo::Asked(vec![false; context.frames.len()])));
                runs.len() - 1
            });
            let memo = &mut runs[index].2;
            match memo {
                RunMemo::Kept(found) => {
                    if let Some(Some((run, notes))) = found.get(at) {
                        state.push_notes(notes.iter().cloned());
                        return *run;
                    }
                    true
                }
                RunMemo::Asked(asked) => match asked.get_mut(at) {
                    Some(seen) if *seen => {
                        *memo = RunMemo::Kept(vec![None; context.frames.len()]);
                        true
                    }
                    Some(seen) => {
                        *seen = true;
                        false
                    }
                    None => false,
                },
            }
        };
        // No borrow of the cache is held here: the line may hold `line` filters kept here too.
        if !keep {
            return find();
        }
        let mark = state.notes_len();
        let run = find();
        let notes = state.take_notes_from(mark);
        state.push_notes(notes.iter().cloned());
        let mut runs = self.runs.borrow_mut();
        if let Some(index) = entry(&runs)
            && let RunMemo::Kept(found) = &mut runs[index].2
            && let Some(slot) = found.get_mut(at)
        {
            *slot = Some((run, notes));
        }
        run
    }

    /// Whether the filter at `node` matches at frame `at`: `test` the first time it is asked.
    pub(super) fn filter_at<P, const W: usize>(
        &self,
        node: usize,
        context: &Context<'_, P, W>,
        at: usize,
        test: impl FnOnce() -> bool,
    ) -> bool {
        const NO: u8 = 1;
        const YES: u8 = 2;
        let key = Key::of(context);
        let entry = |filters: &[(usize, Key, Vec<u8>)]| {
            filters.iter().position(|(kept, kept_key, _)| *kept == node && *kept_key == key)
        };
        let known = {
            let filters = self.filters.borrow();
            entry(&filters).and_then(|index| filters[index].2.get(at).copied())
        };
        match known {
            Some(NO) => return false,
            Some(YES) => return true,
            _ => {}
        }
        // No borrow of the cache is held here: the filter may hold filters kept here too.
        let holds = test();
        let mut filters = self.filters.borrow_mut();
        let index = entry(&filters).unwrap_or_else(|| {
            filters.retain(|(kept, _, _)| *kept != node);
            filters.push((node, key, vec![0; context.frames.len()]));
            filters.len() - 1
        });
        if let Some(answer) = filters[index].2.get_mut(at) {
            *answer = if holds { YES } else { NO };
        }
        holds
    }

    /// Where the `find` at `node` finds its position from the frame `at`, worked out for every
    /// frame of the line at once (`found`) the first time it is asked.
    pub(super) fn found<P, const W: usize>(
        &self,
        node: usize,
        context: &Context<'_, P, W>,
        at: usize,
        found: impl FnOnce() -> Vec<Option<usize>>,
    ) -> Option<usize> {
        let key = Key::of(context);
        let known = |finds: &[(usize, FindAnswers)]| {
            finds
                .iter()
                .find(|(kept, answers)| *kept == node && answers.key == key)
                .map(|(_, answers)| answers.found[at])
        };
        if let Some(answer) = known(&self.finds.borrow()) {
            return answer;
        }
        // No borrow of the cache is held here: the filter may hold `find` or `line` filters.
        let answers = FindAnswers { key, found: found() };
        let answer = answers.found[at];
        let mut finds = self.finds.borrow_mut();
        finds.retain(|(kept, _)| *kept != node);
        finds.push((node, answers));
        answer
    }

    /// The answer of the filter `slot` at `at`, if known.
    fn answer(&self, slot: usize, key: Key, at: usize) -> Option<bool> {
        let entries = self.entries.borrow();
        let answers = entries.get(slot)?.as_ref().filter(|answers| answers.key == key)?;
        answers.matches.get(at.checked_sub(answers.from)?).copied()
    }

    /// The first position answered for the filter `slot`, if any is.
    fn from(&self, slot: usize, key: Key) -> Option<usize> {
        let entries = self.entries.borrow();
        entries.get(slot)?.as_ref().filter(|answers| answers.key == key).map(|answers| answers.from)
    }

    fn store(&self, slot: usize, answers: Answers) {
        let mut entries = self.entries.borrow_mut();
        if entries.len() <= slot {
            entries.resize_with(slot + 1, || None);
        }
        if let Some(old) = entries[slot].replace(answers) {
            give_flags(old.matches);
        }
    }
}

impl<const W: usize> Program<W> {
    /// Whether a run of positions from `at` matches each step in turn, each step covering
    /// between its fewest and most consecutive positions. With a cache in the context, the
    /// answers at `at` and every later position are found at once and kept.
    pub(super) fn line<P: RulesView<W>>(
        &self,
        steps: &[Step<W>],
        slot: usize,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> bool {
        let Some(cache) = context.lines else {
            let matches = self.sequence(steps, context, at, false);
            let answer = matches.first().copied().unwrap_or(false);
            give_flags(matches);
            return answer;
        };
        let key = Key::of(context);
        if let Some(answer) = cache.answer(slot, key, at) {
            return answer;
        }
        // Asked before the first position answered: answer twice as far back at least, so
        // that asking backwards position by position stays linear.
        let from = match cache.from(slot, key) {
            Some(first) => at.min(first.saturating_sub(context.frames.len() - first)),
            None => at,
        };
        // No borrow of the cache is held here: the steps may hold `line` filters of their own.
        let matches = self.sequence(steps, context, from, true);
        let answer = matches.get(at - from).copied().unwrap_or(false);
        cache.store(slot, Answers { key, from, matches });
        answer
    }

    /// Whether the steps match from each position `from..` of the line: all of them with
    /// `every`, else from `from` alone (the first answer; the others are then false).
    fn sequence<P: RulesView<W>>(
        &self,
        steps: &[Step<W>],
        context: &Context<'_, P, W>,
        from: usize,
        every: bool,
    ) -> Vec<bool> {
        let end = context.frames.len();
        if from >= end {
            return Vec::new();
        }
        // Index p stands for the position from + p; the last index, for the end of the line
        // (where a step may begin that covers no position).
        let size = end - from + 1;
        count(size);
        // reach[p]: the steps so far may cover the positions before p, so the next starts at p.
        let mut reach = flags(size);
        if every {
            reach[..size - 1].fill(true);
        } else {
            reach[0] = true;
        }
        let mut passes = Vec::with_capacity(steps.len());
        for step in steps {
            let run = self.runs(step.flat_filter(), context, from, &reach);
            let next = next_starts(step, &reach, &run);
            passes.push((reach, run));
            reach = next;
        }
        // can[p]: the steps from the current one on can cover the positions from p. After the
        // last step, every position reached will do.
        let mut can = reach;
        for (step, (reach, run)) in steps.iter().zip(passes).rev() {
            let next_can = next_true(&can);
            count(2 * size);
            for (p, (can, (&reached, &run))) in can.iter_mut().zip(reach.iter().zip(&run)).enumerate() {
                let (low, high) = covered(step, p, run);
                *can = reached && low <= high && next_can[low] <= high;
            }
            give_flags(reach);
            give_counts(run);
            give_counts(next_can);
        }
        can.truncate(size - 1);
        can
    }

    /// For each start `p` in `reach`, how many consecutive positions from it match the filter.
    /// The filter is tested where a start is, and where a run of matches from a start goes on.
    fn runs<P: RulesView<W>>(
        &self,
        filter: &FilterNode<W>,
        context: &Context<'_, P, W>,
        from: usize,
        reach: &[bool],
    ) -> Vec<usize> {
        let positions = reach.len() - 1;
        let mut run = counts(reach.len(), 0);
        count(reach.len());
        // Where the run of matches that goes on began.
        let mut begin: Option<usize> = None;
        let close = |run: &mut Vec<usize>, begin: usize, stop: usize| {
            for p in (begin..stop).filter(|&p| reach[p]) {
                run[p] = stop - p;
            }
        };
        for (p, &reached) in reach[..positions].iter().enumerate() {
            if !reached && begin.is_none() {
                continue;
            }
            count(1);
            if self.filter(filter, context, from + p) {
                begin.get_or_insert(p);
            } else if let Some(begin) = begin.take() {
                close(&mut run, begin, p);
            }
        }
        if let Some(begin) = begin {
            close(&mut run, begin, positions);
        }
        run
    }
}

/// The positions a step may cover from `p`, where `run` positions from it match: `p + low` to
/// `p + high` are where the next step may start (none when `low > high`).
fn covered<const W: usize>(step: &Step<W>, p: usize, run: usize) -> (usize, usize) {
    let fewest = usize::try_from(step.min).unwrap_or(usize::MAX);
    let most = step.max.map_or(usize::MAX, |max| usize::try_from(max).unwrap_or(usize::MAX));
    (p.saturating_add(fewest), p + run.min(most))
}

/// Where the next step may start: after each start of this step, every count of positions
/// covered that the step allows.
fn next_starts<const W: usize>(step: &Step<W>, reach: &[bool], run: &[usize]) -> Vec<bool> {
    // Differences: +1 where an interval of next starts opens, -1 after it closes (in wrapping
    // arithmetic: their sums from the start are never negative).
    let mut open = counts(reach.len() + 1, 0);
    count(2 * reach.len());
    for (p, _) in reach.iter().enumerate().filter(|(_, reached)| **reached) {
        let (low, high) = covered(step, p, run[p]);
        if low <= high {
            open[low] = open[low].wrapping_add(1);
            open[high + 1] = open[high + 1].wrapping_sub(1);
        }
    }
    let mut starts = flags(reach.len());
    let mut depth = 0usize;
    for (start, change) in starts.iter_mut().zip(&open) {
        depth = depth.wrapping_add(*change);
        *start = depth != 0;
    }
    give_counts(open);
    starts
}

/// Tables given back by finished sequences, to lend to the next ones.
struct Kept {
    flags: Vec<Vec<bool>>,
    counts: Vec<Vec<usize>>,
}

thread_local! {
    /// The tables kept on this thread: the lines of game after game allocate nothing.
    static TABLES: RefCell<Kept> = const { RefCell::new(Kept { flags: Vec::new(), counts: Vec::new() }) };
}

/// The most tables of each kind kept for lending.
const KEPT_TABLES: usize = 64;

/// The kept tables of one kind.
type Pick<T> = fn(&mut Kept) -> &mut Vec<Vec<T>>;

/// A table of `len` values, all `value`, lent from the tables `pick` chooses.
fn lend<T: Clone>(pick: Pick<T>, len: usize, value: T) -> Vec<T> {
    let mut table = TABLES.with(|tables| pick(&mut tables.borrow_mut()).pop()).unwrap_or_default();
    table.clear();
    table.resize(len, value);
    table
}

/// Gives a table back to the tables `pick` chooses, unless enough are kept.
fn give_back<T>(pick: Pick<T>, table: Vec<T>) {
    TABLES.with(|tables| {
        let mut tables = tables.borrow_mut();
        let kept = pick(&mut tables);
        if kept.len() < KEPT_TABLES {
            kept.push(table);
        }
    });
}

/// A table of `len` flags, all false.
fn flags(len: usize) -> Vec<bool> {
    lend(|kept| &mut kept.flags, len, false)
}

/// A table of `len` counts, all `value`.
fn counts(len: usize, value: usize) -> Vec<usize> {
    lend(|kept| &mut kept.counts, len, value)
}

fn give_flags(table: Vec<bool>) {
    give_back(|kept| &mut kept.flags, table);
}

fn give_counts(table: Vec<usize>) {
    give_back(|kept| &mut kept.counts, table);
}

/// For each index, the first index at or after it that is true (`usize::MAX` where none is).
fn next_true(values: &[bool]) -> Vec<usize> {
    let mut next = counts(values.len(), usize::MAX);
    let mut found = usize::MAX;
    for (p, value) in values.iter().enumerate().rev() {
        if *value {
            found = p;
        }
        next[p] = found;
    }
    next
}

#[cfg(test)]
thread_local! {
    /// Units of work done for `line` filters on this thread: filter tests and table cells.
    static WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts units of work (in tests; nothing otherwise).
#[inline(always)]
fn count(units: usize) {
    #[cfg(test)]
    WORK.with(|work| work.set(work.get() + units as u64));
    #[cfg(not(test))]
    let _ = units;
}

/// The units of work done for `line` filters on this thread so far.
#[cfg(test)]
pub(crate) fn work() -> u64 {
    WORK.with(std::cell::Cell::get)
}
