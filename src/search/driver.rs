//! [`Search`]: games from inputs, replayed in parallel, reported in input order.
//!
//! Each window of whole games is split into batches of games; the pool's threads replay the
//! batches, each taking the next as it finishes one, and this thread takes the records in order
//! ([`pipeline`]), so the reports are the same whatever the number of threads. Matching never
//! prints: what matched goes to a [`Sink`].

use std::borrow::Cow;
use std::io;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::input::Input;
use super::pipeline;
use super::plans::Plans;
use super::positions::PositionsFormat;
use super::render::{Render, Rendered, RenderedAhead};
use super::replay::{
    Carried, GameEdits, GameErrorKind, GameNote, GameRecord, GameWarning, MatchedPly, ReplayOptions, StopMark,
    replay_ranges,
};
use super::similar::load_similar_games;
use crate::notation::Container;
use crate::notation::lines::count_line_ends;
use crate::query::ast::Header;
use crate::query::{GamePrefilter, Query, SortSpec, SortValue};
use crate::variant::{Edition, Variant};

/// Games replayed together by one thread.
const BATCH_GAMES: usize = 32;

/// The most batches of a window replayed ahead of the one being merged: the threads replay on
/// while this thread merges (decides, writes).
const AHEAD_BATCHES: usize = 512;

/// About the most bytes the records replayed ahead hold: where a query writes much into each
/// game (`echo` comments at every pair of positions come to megabytes a game), the threads run
/// fewer games ahead, so that the memory of a search stays within a few times this.
const HELD_BYTES: usize = 32 << 20;

/// The most batches merged at once.
const MERGE_BATCHES: usize = 64;

/// How a search runs.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// The variant of games without a `Variant` tag (Standard when none is given).
    pub variant: Option<&'static Variant>,
    /// The edition of the book that Croatian Chess games without an `Edition` tag follow
    /// (the 2020 edition when none is given).
    pub edition: Option<Edition>,
    /// Search the positions of variations too.
    pub variations: bool,
    /// How many positions must match: at least the first, at most the second.
    pub matchcount: (u64, Option<u64>),
    /// Only the games with these numbers (from 1, counted over all inputs).
    pub gamenumber: Option<(u64, Option<u64>)>,
    /// Stop after this many matching games.
    pub limit: Option<u64>,
    /// Only games with this result (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: Option<String>,
    /// The number of threads (0: all cores).
    pub threads: usize,
    /// Write every position of the games read, so ([`Found::positions`]).
    pub positions: Option<PositionsFormat>,
    /// The number of the input's last game, for `lastgamenumber` (which has no value without
    /// it); [`estimated_games`] counts it as CQL 6.2 does.
    pub last_game_number: Option<u64>,
    /// Whether `settag` gives the games found their tags (CQL 6.2's `-nosettag` turns it off).
    pub set_tags: bool,
    /// Whether `removecomment` leaves comments out of the games found (CQL 6.2's
    /// `-noremovecomment` turns it off).
    pub remove_comments: bool,
}

/// How many games a PGN text holds, as CQL 6.2 estimates it for `lastgamenumber`: the number
/// of `[White ` tags in it.
#[must_use]
pub fn estimated_games(text: &[u8]) -> u64 {
    const WHITE_TAG: &[u8] = b"[White ";
    let mut count = 0;
    let mut rest = text;
    while let Some(at) = rest.windows(WHITE_TAG.len()).position(|window| window == WHITE_TAG) {
        count += 1;
        rest = &rest[at + WHITE_TAG.len()..];
    }
    count
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            variant: None,
            edition: None,
            variations: false,
            matchcount: (1, None),
            gamenumber: None,
            limit: None,
            result: None,
            threads: 0,
            positions: None,
            last_game_number: None,
            set_tags: true,
            remove_comments: true,
        }
    }
}

impl SearchOptions {
    /// The options a query's `cql(...)` header gives (`variations`, `matchcount`, `gamenumber`,
    /// `result`), the others as by default.
    #[must_use]
    pub fn from_header(header: Option<&Header>) -> SearchOptions {
        let defaults = SearchOptions::default();
        let Some(header) = header else { return defaults };
        SearchOptions {
            variations: header.variations,
            matchcount: header.matchcount.unwrap_or(defaults.matchcount),
            gamenumber: header.gamenumber,
            result: header.result.clone(),
            ..defaults
        }
    }
}

/// Counts of a search so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games read.
    pub games: u64,
    /// Games that matched.
    pub matched: u64,
    /// Positions that matched, in the games that matched.
    pub positions: u64,
    /// Games whose replay stopped at an error.
    pub errors: u64,
    /// Moves whose record leaves out what the rules did (the move stands).
    pub warnings: u64,
    /// Games read that name no variant (no `Variant` tag), read as the default variant's.
    pub untagged: u64,
    /// Games not searched because the query does not compile for their variant (among the
    /// games with errors).
    pub unfit: u64,
    /// Bytes of games read.
    pub bytes: u64,
    /// Bytes of the inputs as stored (compressed data before it is decompressed) read so far.
    pub input_bytes: u64,
}

/// A game that matched, as sinks see it.
#[derive(Clone, Copy, Debug)]
pub struct Found<'a> {
    /// The input's name.
    pub input: &'a str,
    /// The game's number, from 1, over all inputs.
    pub number: u64,
    /// Its byte offset in its input.
    pub offset: u64,
    /// The line (from 1) of its first byte.
    pub line: u64,
    /// The game as written.
    pub text: &'a [u8],
    /// Where its movetext begins in `text`.
    pub movetext: usize,
    /// The positions that matched; their offsets are into `text`.
    pub matched: &'a [MatchedPly],
    /// For each matched position, the variations it lies in (see
    /// [`GameRecord::variations`](super::GameRecord::variations)); empty when no variation was
    /// searched.
    pub variations: &'a [Vec<(u32, u32)>],
    /// The comments the query made, in the order made; their offsets are into `text`.
    pub notes: &'a [GameNote],
    /// The game's values for the query's sort keys ([`Query::sort_keys`]), where it sorts;
    /// `None` for a key with no value.
    pub sort: &'a [Option<SortValue>],
    /// The moves of its main line as the search replayed them, as its rules keep them (it may
    /// stop short, or be empty), so that writing the game again needs no SAN read.
    pub played: &'a [u32],
    /// Whether `played` holds the whole game, whose movetext has moves only (no comment,
    /// glyph or variation), so that it can be written again without reading its text.
    pub moves_only: bool,
    /// The result that ends its movetext, as PGN spells it, if it has one.
    pub outcome: Option<&'static [u8]>,
    /// The lines of its positions, where [`SearchOptions::positions`] asks for them.
    pub positions: &'a [u8],
    /// How its input holds games.
    pub container: Container,
    /// What the sink's [`Render`] made of the game ahead, on the search's threads, if it
    /// has one.
    pub rendered: Option<&'a [u8]>,
    /// What the [`Render`] said about the game when it rendered it ahead, if anything.
    pub said: Option<&'a str>,
    /// Whether what is said about the game was said when it was found: a sorted search says
    /// it then, in the order of the games, and writes the game later.
    pub said_when_found: bool,
    /// How the query changes the game written (comments removed, tags given).
    pub edits: &'a GameEdits,
}

impl<'a> Found<'a> {
    /// What goes into the comments of its positions, in the order made: the query's notes and
    /// the marks of the matched positions (which are the notes' marks where the query makes
    /// notes, else its matched positions).
    #[must_use]
    pub fn comments(&self) -> Cow<'a, [GameNote]> {
        if self.notes.is_empty() {
            Cow::Owned(
                self.matched.iter().map(|ply| GameNote { ply: ply.ply, offset: ply.offset, text: None }).collect(),
            )
        } else {
            Cow::Borrowed(self.notes)
        }
    }
}

#[cfg(test)]
impl<'a> Found<'a> {
    /// A game of the input `in` found with this number, line, text and sort values, and
    /// nothing else.
    pub(crate) fn bare(number: u64, line: u64, text: &'a [u8], sort: &'a [Option<SortValue>]) -> Found<'a> {
        static NO_EDITS: GameEdits = GameEdits::NONE;
        Found {
            input: "in",
            number,
            offset: 0,
            line,
            text,
            movetext: 0,
            matched: &[],
            variations: &[],
            notes: &[],
            edits: &NO_EDITS,
            sort,
            played: &[],
            moves_only: false,
            outcome: None,
            positions: &[],
            container: Container::Pgn,
            rendered: None,
            said: None,
            said_when_found: false,
        }
    }
}

/// A game whose replay stopped at an error, or a move whose record leaves out what the rules
/// did (a warning: the move stands and the replay goes on).
#[derive(Clone, Debug)]
pub struct Problem<'a> {
    /// A warning, not an error.
    pub warning: bool,
    /// The input's name.
    pub input: &'a str,
    /// The game's number.
    pub game: u64,
    /// The byte offset of the move (or of the game's movetext, for errors before the moves)
    /// in its input.
    pub offset: u64,
    /// The line of the move (or of the game, for errors before the moves).
    pub line: u64,
    /// The ply of the move.
    pub ply: u32,
    /// The move as written.
    pub token: &'a str,
    /// What is wrong.
    pub message: String,
    /// The game was not searched at all: the query does not compile for its variant (this one).
    pub unfit: Option<&'static Variant>,
}

/// Where the results of a search go.
pub trait Sink {
    /// A game that matched.
    fn found(&mut self, game: &Found<'_>) -> io::Result<()>;

    /// What renders the games found ahead, on the search's threads, if the sink has one: the
    /// search holds it while it hands the sink the games.
    fn renderer(&self) -> Option<Arc<dyn Render>> {
        None
    }

    /// A game whose replay stopped at an error; its positions before the error were searched.
    fn problem(&mut self, problem: &Problem<'_>) -> io::Result<()> {
        let _ = problem;
        Ok(())
    }

    /// A line the query printed (`message(...)`) in the game numbered `game`, in the order
    /// of the games.
    fn message(&mut self, game: u64, text: &str) -> io::Result<()> {
        let _ = (game, text);
        Ok(())
    }

    /// Called after each window, with the counts so far.
    fn progress(&mut self, summary: &Summary) {
        let _ = summary;
    }
}

/// Why a search stopped before the end of an input.
#[derive(Debug)]
pub enum SearchError {
    /// The input could not be read (after the games read before the failure were searched).
    Input(io::Error),
    /// The sink could not take a result: the search stops.
    Output(io::Error),
}

impl std::fmt::Display for SearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchError::Input(error) | SearchError::Output(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for SearchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SearchError::Input(error) | SearchError::Output(error) => Some(error),
        }
    }
}

/// A search: a compiled query, options, and a pool of threads.
#[derive(Debug)]
pub struct Search {
    plans: Plans,
    options: SearchOptions,
    pool: rayon::ThreadPool,
    /// The threads that render the games found, while the pool's threads replay on.
    render_pool: rayon::ThreadPool,
    /// The persistent variables, kept from game to game, when the query has any.
    carried: Option<Carried>,
    /// Why the search stopped, when the query tested a value that cannot be tested.
    refusal: std::sync::Mutex<Option<String>>,
    /// The keys the games found are sorted by ([`Query::sort_keys`]).
    sort_keys: Vec<SortSpec>,
    /// The plans of the test every game found passes somewhere ([`Query::game_prefilter`]),
    /// where games are replayed with it first, and the consecutive positions it must pass at.
    prefilter: Option<(Plans, GamePrefilter)>,
    /// How the prefilter has done so far: where most games pass it, it is dropped.
    prefilter_tally: PrefilterTally,
}

/// How many games a search replayed with its prefilter, and how many of them passed it (and
/// were replayed again with the query).
#[derive(Debug, Default)]
struct PrefilterTally {
    tried: AtomicU64,
    passed: AtomicU64,
}

impl PrefilterTally {
    /// The games tried before the share that pass decides.
    const TRIAL_GAMES: u64 = 1024;

    /// Whether the prefilter is still worth a first replay: it is on trial, or fewer than a
    /// quarter of the games pass it. (A game that passes is replayed twice; the query alone
    /// costs little more than a replay where most games pass a test as cheap as the
    /// prefilter's.)
    fn worth_trying(&self) -> bool {
        let tried = self.tried.load(Ordering::Relaxed);
        tried < Self::TRIAL_GAMES || 4 * self.passed.load(Ordering::Relaxed) < tried
    }

    /// Counts `tried` games more, `passed` of which passed.
    fn add(&self, tried: usize, passed: usize) {
        self.tried.fetch_add(tried as u64, Ordering::Relaxed);
        self.passed.fetch_add(passed as u64, Ordering::Relaxed);
    }
}

impl Search {
    /// A search for a query. A query with variables that last from game to game
    /// (`persistent`), or that reads or writes files, is searched on one thread, one game
    /// after another, as CQL 6.2 does.
    pub fn new(query: Query, mut options: SearchOptions) -> Result<Search, rayon::ThreadPoolBuildError> {
        // `removecomment` is carried from game to game as CQL 6.2 carries it.
        let removes_comments = options.remove_comments && query.removes_comments();
        // So is the last path that matched.
        let carried =
            (query.has_persistent() || removes_comments || query.reads_earlier_paths()).then(Carried::default);
        if query.runs_in_order() {
            options.threads = 1;
        }
        let pool = rayon::ThreadPoolBuilder::new().num_threads(options.threads).build()?;
        let render_pool = rayon::ThreadPoolBuilder::new().num_threads(options.threads).build()?;
        // The games `similarposition` compares with, where the caller has not read them.
        let refusal = std::sync::Mutex::new(load_similar_games(&query).err().map(|error| error.to_string()));
        let sort_keys = query.sort_keys();
        let plans = Plans::new(query).searching(options.gamenumber);
        let prefilter = prefilter_plans(&plans, &options);
        Ok(Search {
            plans,
            options,
            pool,
            render_pool,
            carried,
            refusal,
            sort_keys,
            prefilter,
            prefilter_tally: PrefilterTally::default(),
        })
    }

    /// The number of threads the search runs on.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Why the search stopped before its end, if the query tested a value that cannot be
    /// tested (a number alone, as in `check 1`), as CQL 6.2 stops there.
    #[must_use]
    pub fn refusal(&self) -> Option<String> {
        self.refusal.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    /// The persistent variables as they stand (after a run: at its end), printed as CQL 6.2
    /// prints them (`name: value`, in the order declared, `quiet` ones left out). Empty when
    /// the query has none.
    #[must_use]
    pub fn persistent_report(&self) -> Vec<String> {
        let Some(carried) = &self.carried else { return Vec::new() };
        carried.report().unwrap_or_else(|| {
            // No game was replayed: the variables hold their first values.
            let program = self.plans.get(Variant::standard()).ok().and_then(|plan| plan.program::<1>());
            program.map(|program| program.persistent_report(&program.new_state())).unwrap_or_default()
        })
    }

    /// The compiled query.
    #[must_use]
    pub fn plans(&self) -> &Plans {
        &self.plans
    }

    /// Whether the query sorts the games it finds: then every game is read whatever the
    /// limit, and a [`SortedSink`](super::SortedSink) puts them in order.
    #[must_use]
    pub fn sorts(&self) -> bool {
        !self.sort_keys.is_empty()
    }

    /// The keys the games found are sorted by, first key first.
    #[must_use]
    pub fn sort_keys(&self) -> &[SortSpec] {
        &self.sort_keys
    }

    /// Whether the games are ordered by their number of matching positions too
    /// (`sort matchcount` in the header), after the query's values.
    fn sorts_by_matchcount(&self) -> bool {
        self.plans.query().header().is_some_and(|header| header.sort_matchcount)
    }

    /// Searches one input; `summary` counts over all inputs. `Break` means the search is over
    /// (the limit or the last game number was reached). An input that fails part way has its
    /// games before the failure searched, then the error is returned; an error of the sink
    /// stops the search at once.
    pub fn run(
        &self,
        input: &mut Input,
        sink: &mut dyn Sink,
        summary: &mut Summary,
    ) -> Result<ControlFlow<()>, SearchError> {
        if self.refusal().is_some() {
            return Ok(ControlFlow::Break(()));
        }
        if !self.options.variations
            && let Some(message) = self.plans.query().asserted_variations()
        {
            let mut refusal = self.refusal.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            refusal.get_or_insert_with(|| format!("the query asserts variations: {message}"));
            return Ok(ControlFlow::Break(()));
        }
        let renderer = sink.renderer();
        let renderer = renderer.as_deref();
        let replay = ReplayOptions {
            plans: &self.plans,
            container: Container::Pgn,
            default_variant: Variant::standard(),
            edition: self.options.edition,
            variations: self.options.variations,
            result: self.options.result.as_deref().map(str::as_bytes),
            first_game: 1,
            last_game: self.options.last_game_number.unwrap_or(0),
            carried: self.carried.as_ref(),
            // Only a sink that writes the games again has a use for their moves.
            keep_played: renderer.is_some(),
            positions: self.options.positions,
            ends_input: false,
            stop: None,
        };
        input.assume_variant(self.options.variant);
        let name = input.name().to_owned();
        let consumed = input.consumed_counter();
        let inputs_before = summary.input_bytes;
        let mut lines = 0u64;
        let mut outcome = ControlFlow::Continue(());
        let mut output_error = None;
        let read = input.windows(|window| {
            let (text, base, starts, container) = (window.text, window.base, window.starts, window.container);
            let default_variant = self.options.variant.unwrap_or_else(|| container.default_variant());
            let first_game = summary.games + 1;
            let replay = ReplayOptions { first_game, container, default_variant, ends_input: window.last, ..replay };
            let window = Window { name: &name, base, text, container };
            let merged = self.replay_window(&window, starts, &replay, renderer, |batches| {
                let mut merge = Merge { search: self, window, lines, summary, sink: &mut *sink, renderer };
                let outcome = merge.batches(&batches)?;
                lines += batches.iter().map(|batch| batch.newlines).sum::<u64>();
                Ok(outcome)
            });
            outcome = match merged {
                Ok(outcome) => outcome,
                Err(error) => {
                    output_error = Some(error);
                    return Ok(ControlFlow::Break(()));
                }
            };
            summary.bytes += text.len() as u64;
            summary.input_bytes = inputs_before + consumed.load(std::sync::atomic::Ordering::Relaxed);
            sink.progress(summary);
            Ok(outcome)
        });
        match (output_error, read) {
            (Some(error), _) => Err(SearchError::Output(error)),
            (None, Err(error)) => Err(SearchError::Input(error)),
            (None, Ok(())) => Ok(outcome),
        }
    }

    /// The records with the edits the options keep (`-nosettag`, `-noremovecomment`).
    fn kept_edits(&self, mut records: Vec<GameRecord>) -> Vec<GameRecord> {
        let SearchOptions { set_tags, remove_comments, .. } = self.options;
        if !(set_tags && remove_comments) {
            for record in &mut records {
                record.edits = std::mem::take(&mut record.edits).kept(set_tags, remove_comments);
            }
        }
        records
    }

    /// Replays the games of `ranges` of `text` ([`replay_ranges`]); with a prefilter still
    /// worth trying, with it first, and with the query only the games it matches somewhere (or
    /// that it does not fit): the query is false at every position of the others and does
    /// nothing there, so their records are those the prefilter made.
    fn replay_games(&self, text: &[u8], ranges: &[(usize, usize, u64)], replay: &ReplayOptions<'_>) -> Vec<GameRecord> {
        let Some((plans, prefilter)) = self.prefilter.as_ref().filter(|_| self.prefilter_tally.worth_trying()) else {
            return replay_ranges(text, ranges, replay);
        };
        let first = ReplayOptions { plans, keep_played: false, ..*replay };
        let mut records = replay_ranges(text, ranges, &first);
        let mut again = Vec::new();
        for (index, record) in records.iter_mut().enumerate() {
            if Self::passes(prefilter, record) {
                again.push(index);
            } else {
                // The test's positions, short of a run: the query matches nowhere.
                record.matched.clear();
            }
        }
        self.prefilter_tally.add(records.len(), again.len());
        if again.is_empty() {
            return records;
        }
        // Each game again from its range (one game a range), found by where it starts.
        let range_of = |start: usize| ranges.iter().copied().find(|&(from, to, _)| (from..to).contains(&start));
        let Some(again_ranges) = again.iter().map(|&index| range_of(records[index].start)).collect::<Option<Vec<_>>>()
        else {
            return replay_ranges(text, ranges, replay);
        };
        let replayed = replay_ranges(text, &again_ranges, replay);
        if replayed.len() != again.len()
            || replayed.iter().zip(&again).any(|(new, &index)| new.start != records[index].start)
        {
            return replay_ranges(text, ranges, replay);
        }
        for (record, index) in replayed.into_iter().zip(again) {
            records[index] = record;
        }
        records
    }

    /// Whether a game's record from the prefilter asks for the game to be replayed with the
    /// query: the prefilter's test matched there (at enough consecutive positions), or could
    /// not be tested (the query speaks for itself).
    fn passes(prefilter: &GamePrefilter, record: &GameRecord) -> bool {
        prefilter.passed_at(record.matched.iter().map(|matched| matched.ply))
            || record.refusal.is_some()
            || record.error.as_ref().is_some_and(|error| matches!(error.kind, GameErrorKind::QueryDoesNotFit(_)))
    }

    /// Renders the games of a batch, replayed from `ranges` of `window`, that its records tell
    /// are found (the merge, which decides in input order, finds them unless the search ends
    /// before them), numbered as their ranges are: on the thread that replayed them, while the
    /// game is still in its caches, and with no hand-over to other threads. A game whose
    /// render reads its line is left to the merge.
    fn render_ahead(
        &self,
        window: &Window<'_>,
        ranges: &[(usize, usize, u64)],
        records: &[GameRecord],
        renderer: &dyn Render,
    ) -> RenderedAhead {
        let mut ahead = RenderedAhead::default();
        let mut ranges = ranges.iter().peekable();
        for record in records {
            while ranges.next_if(|&&(_, end, _)| end <= record.start).is_some() {}
            let number = ranges.peek().filter(|&&&(start, _, _)| start <= record.start).map(|range| range.2);
            // A game outside `gamenumber` was not searched: its record is excluded.
            let found = number.filter(|_| record.refusal.is_none() && self.finds(record));
            let sort = found.map(|_| self.sort_values(record)).unwrap_or_default();
            let game = found
                .map(|number| found_game(window, record, (number, 0), &sort, None))
                .filter(|game| renderer.renders_without_line(game));
            ahead.push(renderer, game.as_ref());
        }
        ahead
    }

    /// Whether a game whose replay gave `record` is found, as the options count its matches.
    fn finds(&self, record: &GameRecord) -> bool {
        let count = record.matched.len() as u64;
        let (low, high) = self.options.matchcount;
        !record.excluded && count >= low && high.is_none_or(|high| count <= high)
    }

    /// The values of the search's sort keys for a game found whose replay gave `record`.
    fn sort_values(&self, record: &GameRecord) -> Vec<Option<SortValue>> {
        let mut sort = record.sort.clone();
        if self.sorts_by_matchcount() {
            // A game its game filters turned away has no value for the query's own keys.
            sort.resize(self.sort_keys.len() - 1, None);
            sort.push(i64::try_from(record.matched.len()).ok().map(SortValue::Number));
        }
        sort
    }

    /// Replays the games of a window on the pool's threads, in batches, and hands the batches
    /// to `merge` in order, a group of batches at a time: while this thread merges one group
    /// (deciding, writing), the pool's threads replay on, each taking the next batch as it
    /// finishes one, so that none waits for another but at the window's end. The lines of the
    /// batches are counted on the pool too, and the games found rendered with `renderer`
    /// where they can be ([`Search::render_ahead`]). Each start begins one game, numbered on
    /// from `replay.first_game`; the text before the first start holds none. Stops where
    /// `merge` breaks or fails.
    fn replay_window(
        &self,
        window: &Window<'_>,
        starts: &[usize],
        replay: &ReplayOptions<'_>,
        renderer: Option<&dyn Render>,
        mut merge: impl FnMut(Vec<Batch>) -> io::Result<ControlFlow<()>>,
    ) -> io::Result<ControlFlow<()>> {
        let text = window.text;
        let mut bounds: Vec<usize> = Vec::with_capacity(starts.len() + 2);
        let leading = starts.first() != Some(&0);
        if leading {
            bounds.push(0);
        }
        bounds.extend_from_slice(starts);
        bounds.push(text.len());
        let first = replay.first_game.saturating_sub(u64::from(leading));
        // A game that stops the search spares the threads the games after it.
        let stop = StopMark::default();
        let replay = &ReplayOptions { stop: Some(&stop), ..*replay };
        let ranges: Vec<(usize, usize, u64)> =
            bounds.windows(2).zip(first..).map(|(pair, number)| (pair[0], pair[1], number)).collect();
        let batch = |ranges: &[(usize, usize, u64)]| {
            let mut batch = Batch::new(text, ranges, self.kept_edits(self.replay_games(text, ranges, replay)));
            if let Some(renderer) = renderer {
                batch.ahead = self.render_ahead(window, ranges, &batch.records, renderer);
            }
            batch
        };
        if replay.carried.is_some() {
            // Persistent variables: each game sees what the games before it left.
            for games in ranges.chunks(BATCH_GAMES) {
                if merge(vec![batch(games)])?.is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
            return Ok(ControlFlow::Continue(()));
        }
        let batches: Vec<&[(usize, usize, u64)]> = ranges.chunks(BATCH_GAMES).collect();
        let bounds = pipeline::Bounds { most_ahead: AHEAD_BATCHES, held_bytes: HELD_BYTES, group: MERGE_BATCHES };
        let weigh = |batch: &Batch| batch.records.iter().map(GameRecord::weight).sum::<usize>() + batch.ahead.weight();
        pipeline::ordered(&self.pool, &batches, bounds, |games| batch(games), weigh, merge)
    }
}

/// The plans of the prefilter of `plans`' query ([`Query::game_prefilter`]), where a search with
/// `options` may replay games with it first: the main lines alone are searched, every game
/// found matches at least once, and no positions are written. The prefilter fails where the
/// query does, with the query's error, so that a game the query does not fit is replayed with
/// the query and reported as without a prefilter.
fn prefilter_plans(plans: &Plans, options: &SearchOptions) -> Option<(Plans, GamePrefilter)> {
    if options.variations || options.positions.is_some() || options.matchcount.0 == 0 {
        return None;
    }
    let prefilter = plans.query().game_prefilter()?;
    let test = Plans::new(prefilter.test.clone()).searching(options.gamenumber).failing_where(plans);
    Some((test, prefilter))
}

/// The records of a batch of games, with the lines they start at.
struct Batch {
    records: Vec<GameRecord>,
    /// For each record, the line ends in the batch before its start, before its error, and
    /// before each of its warnings.
    lines: Vec<(u64, u64, Vec<u64>)>,
    /// The line ends in the batch.
    newlines: u64,
    /// The games found among the records, rendered as they were replayed.
    ahead: RenderedAhead,
}

impl Batch {
    /// Counts the lines of the batch that covers `ranges` of `text`.
    fn new(text: &[u8], ranges: &[(usize, usize, u64)], records: Vec<GameRecord>) -> Batch {
        let (first, last) = (ranges[0].0, ranges[ranges.len() - 1].1);
        let mut newlines = 0;
        let mut counted_to = first;
        let mut count_to = |offset: usize| {
            let offset = offset.clamp(counted_to, last);
            newlines += count_line_ends(text, counted_to, offset);
            counted_to = offset;
            newlines
        };
        let lines = records
            .iter()
            .map(|record| {
                let start = count_to(record.start);
                // The warnings come before any error: the replay stops there.
                let warnings = record.warnings.iter().map(|warning| count_to(warning.offset)).collect();
                let error = record.error.as_ref().map_or(start, |error| count_to(error.offset));
                (start, error, warnings)
            })
            .collect();
        let newlines = count_to(last);
        Batch { records, lines, newlines, ahead: RenderedAhead::default() }
    }
}

/// The problem of game `number` at `line`, at byte `offset` of the window at `base` of the
/// input, at `ply`: an error, or a warning.
fn problem<'a>(
    input: &'a str,
    base: u64,
    (number, line, offset, ply): (u64, u64, usize, u32),
    token: &'a str,
    message: String,
    warning: bool,
) -> Problem<'a> {
    Problem { warning, input, game: number, offset: base + offset as u64, line, ply, token, message, unfit: None }
}

/// Turns a window's records, in order, into reports and counts: first what each record gives
/// is decided, in order; then the games found that were not rendered as they were replayed are
/// rendered on the search's threads, where the sink renders them ahead ([`Sink::renderer`]);
/// then everything goes to the sink, in order.
struct Merge<'s, 'w> {
    search: &'s Search,
    window: Window<'w>,
    /// The lines of the input before the window.
    lines: u64,
    summary: &'w mut Summary,
    sink: &'w mut dyn Sink,
    /// What renders the games found, where the sink has it.
    renderer: Option<&'w dyn Render>,
}

/// What one record gives the sink.
enum Event<'r> {
    /// A line the query printed in the game numbered so.
    Message(u64, &'r str),
    /// The game's replay stopped at an error.
    Problem { record: &'r GameRecord, number: u64, line: u64 },
    /// A move of the game whose record leaves out what the rules did.
    Warning { warning: &'r GameWarning, number: u64, line: u64 },
    /// The game matched.
    Found(Pending<'r>),
}

/// A game found.
struct Pending<'r> {
    record: &'r GameRecord,
    number: u64,
    line: u64,
    sort: Vec<Option<SortValue>>,
    /// Its bytes and what was said about it, where it was rendered as its batch was replayed.
    rendered: Option<(&'r [u8], Option<&'r str>)>,
}

impl Merge<'_, '_> {
    fn batches(&mut self, batches: &[Batch]) -> io::Result<ControlFlow<()>> {
        let mut events = Vec::new();
        let mut outcome = ControlFlow::Continue(());
        'window: for batch in batches {
            for (index, (record, (start_lines, error_lines, warning_lines))) in
                batch.records.iter().zip(&batch.lines).enumerate()
            {
                let (line, problem_line) = (self.lines + start_lines + 1, self.lines + error_lines + 1);
                let warning_lines: Vec<u64> = warning_lines.iter().map(|lines| self.lines + lines + 1).collect();
                let lines = (line, problem_line, &warning_lines[..]);
                if self.record(record, lines, (&batch.ahead, index), &mut events).is_break() {
                    outcome = ControlFlow::Break(());
                    break 'window;
                }
            }
            self.lines += batch.newlines;
        }
        let rendered = self.render_the_rest(&events);
        let Window { name, base, .. } = self.window;
        for (index, event) in events.iter().enumerate() {
            match event {
                Event::Message(number, message) => self.sink.message(*number, message)?,
                Event::Problem { record, number, line } => {
                    let error = record.error.as_ref().expect("a problem is a record's error");
                    let at = (*number, *line, error.offset, error.ply);
                    let mut problem = problem(name, base, at, &error.token, error.kind.to_string(), false);
                    if let GameErrorKind::QueryDoesNotFit(variant) = error.kind {
                        problem.unfit = Some(variant);
                    }
                    self.sink.problem(&problem)?;
                }
                Event::Warning { warning, number, line } => {
                    let at = (*number, *line, warning.offset, warning.ply);
                    self.sink.problem(&problem(name, base, at, &warning.token, warning.text.clone(), true))?;
                }
                Event::Found(pending) => {
                    let rendered = pending.rendered.or_else(|| {
                        rendered.get(index / Rendered::EVENTS).map(|chunk| chunk.of(index % Rendered::EVENTS))
                    });
                    let Pending { record, number, line, .. } = pending;
                    self.sink.found(&found_game(&self.window, record, (*number, *line), &pending.sort, rendered))?;
                }
            }
        }
        Ok(outcome)
    }

    /// Renders the games found among `events` that were not rendered ahead, where the sink
    /// renders games, on the render pool's threads: a chunk of [`Rendered::EVENTS`] events a
    /// thread at a time (none where every game was rendered ahead).
    fn render_the_rest(&self, events: &[Event<'_>]) -> Vec<Rendered> {
        let behind = |event: &Event<'_>| matches!(event, Event::Found(pending) if pending.rendered.is_none());
        let Some(renderer) = self.renderer.filter(|_| events.iter().any(behind)) else {
            return Vec::new();
        };
        let window = &self.window;
        self.search.render_pool.install(|| {
            events
                .par_chunks(Rendered::EVENTS)
                .map(|chunk| {
                    // A game is written about as long as it was read, with its comments.
                    let size = chunk
                        .iter()
                        .map(|event| match event {
                            Event::Found(pending) => pending.record.end - pending.record.start + 256,
                            _ => 0,
                        })
                        .sum();
                    let mut rendered = Rendered::with_capacity(size);
                    for event in chunk {
                        let game = match event {
                            Event::Found(pending) if pending.rendered.is_none() => {
                                let Pending { record, number, line, .. } = pending;
                                Some(found_game(window, record, (*number, *line), &pending.sort, None))
                            }
                            _ => None,
                        };
                        rendered.push(renderer, game.as_ref());
                    }
                    rendered
                })
                .collect()
        })
    }

    /// What one game's record gives, whose start is on line `line`, its error on
    /// `problem_line` and its warnings on `warning_lines`; `Break` when the search is over.
    fn record<'r>(
        &mut self,
        record: &'r GameRecord,
        (line, problem_line, warning_lines): (u64, u64, &[u64]),
        (ahead, index): (&'r RenderedAhead, usize),
        events: &mut Vec<Event<'r>>,
    ) -> ControlFlow<()> {
        let options = &self.search.options;
        self.summary.games += 1;
        let number = self.summary.games;
        if let Some((low, high)) = options.gamenumber {
            if high.is_some_and(|high| number > high) || (high.is_none() && low > 0 && number > low) {
                self.summary.games -= 1;
                return ControlFlow::Break(());
            }
            if number < low {
                return ControlFlow::Continue(());
            }
        }
        self.summary.untagged += u64::from(record.untagged);
        events.extend(record.messages.iter().map(|message| Event::Message(number, message)));
        if let Some(reason) = &record.refusal {
            let mut refusal = self.search.refusal.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            refusal.get_or_insert_with(|| reason.clone());
            return ControlFlow::Break(());
        }
        self.summary.warnings += record.warnings.len() as u64;
        events.extend(record.warnings.iter().zip(warning_lines).map(|(warning, &line)| Event::Warning {
            warning,
            number,
            line,
        }));
        if let Some(error) = &record.error {
            self.summary.errors += 1;
            self.summary.unfit += u64::from(matches!(error.kind, GameErrorKind::QueryDoesNotFit(_)));
            events.push(Event::Problem { record, number, line: problem_line });
        }
        if !self.search.finds(record) {
            return ControlFlow::Continue(());
        }
        self.summary.matched += 1;
        self.summary.positions += record.matched.len() as u64;
        let sort = self.search.sort_values(record);
        let rendered = ahead.of(index, number);
        events.push(Event::Found(Pending { record, number, line, sort, rendered }));
        // A sorted search reads every game: the limit applies once they are sorted.
        if !self.search.sorts() && options.limit.is_some_and(|limit| self.summary.matched >= limit) {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
}

/// The window of an input whose games are replayed and merged.
#[derive(Clone, Copy)]
struct Window<'w> {
    name: &'w str,
    base: u64,
    text: &'w [u8],
    container: Container,
}

/// A game found, as sinks see it.
fn found_game<'a>(
    window: &Window<'a>,
    record: &'a GameRecord,
    (number, line): (u64, u64),
    sort: &'a [Option<SortValue>],
    rendered: Option<(&'a [u8], Option<&'a str>)>,
) -> Found<'a> {
    let Window { name, base, text, container } = *window;
    Found {
        input: name,
        number,
        offset: base + record.start as u64,
        line,
        text: &text[record.start..record.end],
        movetext: record.movetext - record.start,
        matched: &record.matched,
        variations: &record.variations,
        notes: &record.notes,
        sort,
        played: &record.played,
        moves_only: record.moves_only && !record.played.is_empty(),
        outcome: record.outcome,
        positions: &record.positions,
        container,
        rendered: rendered.map(|(bytes, _)| bytes),
        said: rendered.and_then(|(_, said)| said),
        said_when_found: false,
        edits: &record.edits,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Games replayed with the prefilter first give the records they give without it: those
    /// the prefilter finds nowhere are found nowhere, the others are replayed with the query.
    #[test]
    fn games_replayed_with_a_prefilter_first_give_the_same_records() {
        use crate::notation::pgn::Splitter;
        let mut text = Vec::new();
        for name in ["classics", "short-games", "random-standard", "near-misses", "themes", "king-of-the-hill", "horde"]
        {
            let path = format!("{}/samples/games/{name}.pgn", env!("CARGO_MANIFEST_DIR"));
            text.extend(std::fs::read(path).unwrap());
            text.extend_from_slice(b"\n\n");
        }
        // A damaged game and one with an illegal move after a mate-like line.
        text.extend_from_slice(
            b"[Event \"x\"]\n\n1. f3 e5 2. g4 Qh4# *\n\n[Event \"y\"]\n\n1. e4 e5 2. Ke3 Ke7 3. Kxe5 *\n\n",
        );
        let starts = Splitter::starts(&text);
        let mut bounds = starts.clone();
        bounds.push(text.len());
        let ranges: Vec<(usize, usize, u64)> =
            bounds.windows(2).zip(1..).map(|(pair, n)| (pair[0], pair[1], n)).collect();
        let queries = [
            "cql() mate check message(\"mated\")",
            "cql() stalemate btm",
            "cql() path firstmatch singlecolor --+ mate",
            "cql() path --{1,3} mate",
            "cql() mate echo quiet (s t) {ply < s:ply check sidetomove == s:sidetomove}",
            "cql() Pe7--e8=Q",
            "cql() Ng1--f3 comment(\"knight\") check",
            "cql() Pe2[x]d3 message(\"taken\")",
            "cql() line --> check --> check",
            "cql() line quiet --> check{2} --> btm",
            "cql() path (-- check){2,} comment(\"checks\")",
            "cql() path 2 10 nestban (-- check)+",
            "cql() line singlecolor --> check{2} --> btm",
            "cql() line quiet singlecolor 3 10 --> check{+}",
        ];
        let mut tested = 0;
        for source in queries {
            let search = Search::new(Query::parse(source).unwrap(), SearchOptions::default()).unwrap();
            assert!(search.prefilter.is_some(), "{source}: a prefilter");
            let replay =
                ReplayOptions { keep_played: true, ends_input: true, ..ReplayOptions::main_lines(&search.plans) };
            let with = search.replay_games(&text, &ranges, &replay);
            let without = replay_ranges(&text, &ranges, &replay);
            assert_eq!(with, without, "{source}");
            tested += with.iter().filter(|record| !record.matched.is_empty()).count();
        }
        assert!(tested > 10, "games found: {tested}");
    }

    /// Writes `number@line` for each game, and renders without the line the odd games.
    struct Numbers;

    impl Render for Numbers {
        fn render(&self, game: &Found<'_>, out: &mut Vec<u8>) -> Option<String> {
            out.extend_from_slice(format!("{}@{}", game.number, game.line).as_bytes());
            None
        }

        fn renders_without_line(&self, game: &Found<'_>) -> bool {
            game.number % 2 == 1
        }
    }

    /// The games found, as rendered, and their numbers and lines.
    #[derive(Default)]
    struct Rendering(Vec<(u64, u64, String)>);

    impl Sink for Rendering {
        fn renderer(&self) -> Option<Arc<dyn Render>> {
            Some(Arc::new(Numbers))
        }

        fn found(&mut self, game: &Found<'_>) -> io::Result<()> {
            let rendered = String::from_utf8_lossy(game.rendered.expect("rendered on the threads")).into_owned();
            self.0.push((game.number, game.line, rendered));
            Ok(())
        }
    }

    /// A game is rendered as it is replayed where its render needs no line, else at the merge
    /// with its line; either way under the number the merge gives it, whatever the games
    /// searched (`gamenumber`) and the threads.
    #[test]
    fn games_found_are_rendered_ahead_where_they_need_no_line() {
        let path = format!("{}/samples/games/classics.pgn", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read(path).unwrap();
        for (header, threads) in [("", 1), ("", 2), (" gamenumber 3 7", 2), (" matchcount 2 1000", 2)] {
            let query = Query::parse(&format!("cql({}) check", header.trim())).unwrap();
            let options = SearchOptions { threads, ..SearchOptions::from_header(query.header()) };
            let search = Search::new(query, options).unwrap();
            let mut sink = Rendering::default();
            let mut summary = Summary::default();
            let mut input = Input::from_bytes("classics", text.clone());
            let _ = search.run(&mut input, &mut sink, &mut summary).unwrap();
            assert!(sink.0.len() >= 2, "{header}: {} games found", sink.0.len());
            assert_eq!(sink.0.len() as u64, summary.matched, "{header}");
            for (number, line, rendered) in &sink.0 {
                let line = if number % 2 == 1 { 0 } else { *line };
                assert_eq!(rendered, &format!("{number}@{line}"), "{header}");
            }
        }
    }

    #[test]
    fn a_prefilter_most_games_pass_is_dropped_after_its_trial() {
        let tally = PrefilterTally::default();
        assert!(tally.worth_trying());
        tally.add(1000, 1000);
        assert!(tally.worth_trying(), "still on trial");
        tally.add(100, 100);
        assert!(!tally.worth_trying(), "most games pass");
        let rare = PrefilterTally::default();
        rare.add(5000, 1200);
        assert!(rare.worth_trying(), "fewer than a quarter pass");
        rare.add(0, 100);
        assert!(!rare.worth_trying());
    }

    #[test]
    fn games_are_estimated_by_their_white_tags() {
        assert_eq!(estimated_games(b""), 0);
        assert_eq!(estimated_games(b"[White \"a\"]\n[Black \"b\"]\n\n1. e4 *\n\n[White \"c\"]\n*\n"), 2);
        // As CQL 6.2 counts: the text anywhere, a tag with no space after it not.
        assert_eq!(estimated_games(b"{ [White } [WhiteElo \"1\"]"), 1);
    }
}
