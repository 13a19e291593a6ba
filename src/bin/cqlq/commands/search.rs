//! `cqlq search`: the games with a position that matches.

use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use cqlq::Variant;
use cqlq::notation::Container;
use cqlq::search::output::{CqlPrinter, JsonlPrinter, PgnPrinter, ProblemLog, describe};
use cqlq::search::{
    Found, Input, Plans, Problem, Render, Search, SearchError, SearchOptions, Sink, SortedSink, Summary, paths_or_stdin,
};

use super::{
    chosen_variant, counted, hint_when_reading_a_terminal, load_query, note, note_games_past_the_end, thread_count,
};
use crate::args::{Format, SearchArgs};
use crate::output::Output;
use crate::progress::Progress;

/// Problems shown on standard error; the rest are counted (and go to --errors).
const SHOWN_PROBLEMS: usize = 5;

/// The longest found games wait in the output's buffer.
const FLUSH_EVERY: Duration = Duration::from_secs(1);

pub fn run(args: SearchArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let query_file = if args.query.text.is_none() { args.paths.first().cloned() } else { None };
    let Some(loaded) = load_query(&args.query, args.paths)? else {
        return Ok(ExitCode::from(2));
    };
    let header = loaded.query.header().cloned().unwrap_or_default();
    let sort_keys = loaded.query.sort_keys();
    let variant = chosen_variant(&args.query, &loaded.query)?;
    // The query is compiled for each variant as its games come: it must fit the variant asked
    // for, or some variant when games say theirs; a variant it does not fit is reported once,
    // with its games, after the search.
    let default_variant = variant.unwrap_or_else(Variant::standard);
    if let Err(error) = loaded.query.compile(default_variant)
        && (variant.is_some() || Variant::all().iter().all(|other| loaded.query.compile(other).is_err()))
    {
        eprint!("{}", error.with_origin(&loaded.origin));
        return Ok(ExitCode::from(2));
    }
    if !args.quiet {
        loaded.warn();
    }
    let from_header = SearchOptions::from_header(Some(&header));
    let options = SearchOptions {
        variant,
        edition: args.query.edition,
        variations: args.variations || from_header.variations,
        matchcount: args.matchcount.unwrap_or(from_header.matchcount),
        gamenumber: args.gamenumber.or(from_header.gamenumber),
        limit: args.limit,
        threads: thread_count(args.threads, "-j"),
        ..from_header
    };
    let matchstring = args.matchstring.or(header.matchstring).unwrap_or_else(|| "CQL".to_owned());
    let inputs = if loaded.rest.is_empty() {
        header.input.map(|path| vec![PathBuf::from(path)]).unwrap_or_else(|| paths_or_stdin(&[]))
    } else {
        loaded.rest
    };
    let typed = hint_when_reading_a_terminal(&inputs);
    let output_path = args.output.or(header.output.map(PathBuf::from));
    let mut read: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    read.extend(query_file.as_deref());
    let out = Output::open(output_path.as_deref(), &read, &[])?;
    let written: Vec<&Path> = output_path.iter().map(PathBuf::as_path).filter(|path| *path != Path::new("-")).collect();
    let problems = match &args.errors {
        Some(path) => Some(ProblemLog::new(Output::open(Some(path), &read, &written)?)),
        None => None,
    };
    let (printer, counter) = match (args.count, args.format) {
        (true, _) => (Printer::Nothing, Some(out)),
        (false, Format::Pgn) => {
            let printer = PgnPrinter::new(out, &matchstring);
            let printer = printer.with_sort_labels(&sort_keys);
            (Printer::Pgn(printer), None)
        }
        (false, Format::Jsonl) => (Printer::Jsonl(JsonlPrinter::new(out)), None),
    };
    let gamenumber = options.gamenumber;
    if let Err(error) = cqlq::search::load_similar_games(&loaded.query) {
        note(format_args!("{error}"));
        return Ok(ExitCode::from(2));
    }
    let search = Search::new(loaded.query, options)?;
    let watch: Option<Box<dyn Watch>> = (!args.quiet && !typed && io::stderr().is_terminal())
        .then(|| Box::new(Progress::new(total_size(&inputs))) as Box<dyn Watch>);
    let mut sink = CliSink::new(printer, problems, watch);
    let (summary, searched) = search_into(&search, &inputs, args.notation, &mut sink, args.limit)?;
    if let Some(reason) = search.refusal() {
        note(format_args!("the search stopped at game {}: {reason}", summary.games));
        return Ok(ExitCode::from(2));
    }
    let mut counts = format!(
        "{} ({}) of {}, {} with errors",
        counted(summary.matched, "game matched", "games matched"),
        counted(summary.positions, "position", "positions"),
        counted(summary.games, "game read", "games read"),
        summary.errors - summary.unfit
    );
    if summary.unfit > 0 {
        // Said variant by variant above the counts.
        let _ = write!(counts, ", {} not searched (the query does not fit their variant)", summary.unfit);
    }
    if searched.failed_before_any_game(&summary) {
        // What went wrong was said: counts of nothing would only hide it.
    } else if let Some(mut out) = counter {
        writeln!(out, "{counts}")?;
        out.finish()?;
    } else if !args.quiet {
        note(format_args!("{counts}, in {:.1} s", started.elapsed().as_secs_f64()));
    }
    if !args.quiet && !searched.stopped {
        note_games_past_the_end(gamenumber, summary.games);
    }
    if !args.quiet && args.query.variant.is_none() {
        note_header_variant(variant, summary.untagged);
    }
    if !args.quiet {
        // The persistent variables' values at the end, as `cqlq cql` prints them.
        for line in search.persistent_report() {
            note(format_args!("{line}"));
        }
    }
    let where_listed = match &args.errors {
        Some(path) => format!("all are listed in {}", path.display()),
        None => "--errors FILE lists them all".to_owned(),
    };
    report_unfit(&sink.unfit, search.plans(), &loaded.origin);
    report_problems(&sink.shown, &summary, &where_listed, SEARCHED_UP_TO_ERRORS);
    Ok(exit_code(searched.unreadable, &summary))
}

/// Says so when the variant the query's header names (`cql(variant "Crazyhouse")`) was the
/// variant of games that name none: it overrides what they would have been read as.
pub(super) fn note_header_variant(variant: Option<&'static Variant>, untagged: u64) {
    if let Some(variant) = variant.filter(|variant| *variant != Variant::standard())
        && untagged > 0
    {
        let games = counted(untagged, "game names", "games name");
        note(format_args!("{games} no variant: read as {} games, the variant the query's header names", variant.name));
    }
}

/// The exit status of a search: 2 when an input could not be read or no game could, else 0
/// when something matched and 1 when nothing did.
pub(super) fn exit_code(unreadable: bool, summary: &Summary) -> ExitCode {
    if unreadable || nothing_readable(summary) {
        ExitCode::from(2)
    } else if summary.matched > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Whether every game read had an error and none matched: the input held nothing to search.
pub(super) fn nothing_readable(summary: &Summary) -> bool {
    summary.games > 0 && summary.errors == summary.games && summary.matched == 0
}

/// Searches the inputs into the sink, in the order of the query's sort keys when it has some,
/// and finishes the sink's outputs. An output that cannot be written is an error.
pub(super) fn search_into(
    search: &Search,
    inputs: &[PathBuf],
    notation: Option<Container>,
    sink: &mut CliSink,
    limit: Option<u64>,
) -> anyhow::Result<(Summary, Searched)> {
    let mut summary = Summary::default();
    let outcome = if search.sorts() {
        let mut sorted = SortedSink::new(&mut *sink, search.sort_keys(), limit);
        let outcome = search_all(search, inputs, notation, &mut sorted, &mut summary);
        let finished = if outcome.is_ok() { sorted.finish() } else { Ok(()) };
        finished.map_or_else(|error| Err(SearchError::Output(error)), |()| outcome)
    } else {
        search_all(search, inputs, notation, &mut *sink, &mut summary)
    };
    let searched = match outcome {
        Ok(searched) => searched,
        Err(SearchError::Output(error) | SearchError::Input(error)) => return Err(error.into()),
    };
    sink.finish()?;
    Ok((summary, searched))
}

/// The size of the inputs as stored, when every one has a known size.
fn total_size(inputs: &[PathBuf]) -> Option<u64> {
    inputs.iter().map(|path| std::fs::metadata(path).ok().filter(|m| m.is_file()).map(|m| m.len())).sum()
}

/// What a search does with a game with an error.
pub(super) const SEARCHED_UP_TO_ERRORS: &str = "the positions before each error were searched";

/// Says once for each variant the query does not compile for why, and that its games were not
/// searched (`origin` names the query).
pub(super) fn report_unfit(unfit: &[(&'static Variant, u64)], plans: &Plans, origin: &str) {
    for &(variant, games) in unfit {
        let games = counted(games, "game", "games");
        note(format_args!("the query does not compile for {}, so its {games} were not searched:", variant.name));
        if let Err(error) = plans.get(variant) {
            eprint!("{}", error.clone().with_origin(origin));
        }
    }
}

/// The problems shown, and how many more there were (`where_listed` says where they all are);
/// `kept` says what became of the games with errors (those not searched because the query does
/// not compile for their variant are said by [`report_unfit`]).
pub(super) fn report_problems(shown: &[String], summary: &Summary, where_listed: &str, kept: &str) {
    let summary = &Summary { errors: summary.errors - summary.unfit, ..*summary };
    if summary.errors == 0 && summary.warnings == 0 {
        return;
    }
    for line in shown {
        note(format_args!("{line}"));
    }
    let more = (summary.errors + summary.warnings).saturating_sub(shown.len() as u64);
    if summary.warnings > 0 {
        let warnings = if summary.warnings == 1 { "warning" } else { "warnings" };
        note(format_args!(
            "{} {warnings} (moves whose record leaves out what the rules did, tags without their ']', positions a \
             query asked for that a game lacks): the games were read on",
            summary.warnings
        ));
    }
    if more > 0 {
        let games = counted(summary.errors, "game", "games");
        note(format_args!("{games} with errors ({more} more not shown; {where_listed})"));
    } else if summary.errors > 0 {
        note(format_args!("{} with errors; {kept}", counted(summary.errors, "game", "games")));
    }
}

/// How a search over the inputs went.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Searched {
    /// An input could not be read (it was reported).
    pub unreadable: bool,
    /// The search stopped before the end of the inputs (at the limit, or after the last game
    /// number asked for).
    pub stopped: bool,
}

impl Searched {
    /// Whether an input failed and no game was read at all: the run has nothing to count, and
    /// its closing line is left out after the error.
    pub fn failed_before_any_game(&self, summary: &Summary) -> bool {
        self.unreadable && summary.games == 0
    }
}

/// Searches every input in turn. An input that cannot be read is reported and the search goes
/// on; an output that cannot be written stops it.
pub(super) fn search_all(
    search: &Search,
    inputs: &[PathBuf],
    notation: Option<Container>,
    sink: &mut dyn Sink,
    summary: &mut Summary,
) -> Result<Searched, SearchError> {
    let mut searched = Searched::default();
    for path in inputs {
        let mut input = match Input::open(path) {
            Ok(input) => input.with_container(notation),
            Err(error) => {
                note(format_args!("{}: {error}", path.display()));
                searched.unreadable = true;
                continue;
            }
        };
        match search.run(&mut input, sink, summary) {
            Ok(flow) if flow.is_break() => {
                searched.stopped = true;
                break;
            }
            Ok(_) => {}
            Err(SearchError::Input(error)) => {
                note(format_args!("{}: {error}", input.name()));
                searched.unreadable = true;
            }
            Err(error) => return Err(error),
        }
    }
    Ok(searched)
}

/// How the games found are written.
pub(super) enum Printer {
    /// Not at all (only counted).
    Nothing,
    /// As written, marked.
    Pgn(PgnPrinter<Output>),
    /// As CQL 6.2 writes them.
    Cql(CqlPrinter<Output>),
    /// As JSON lines.
    Jsonl(JsonlPrinter<Output>),
}

/// What a search tells as it runs: the progress, and the games found.
pub(super) trait Watch {
    /// The counts so far.
    fn show(&mut self, summary: &Summary);
    /// The game with this number was found.
    fn found(&mut self, number: u64) {
        let _ = number;
    }
    /// The search is over.
    fn clear(&mut self);
    /// A line the query printed in the game numbered `game`: on standard error, where no
    /// results go.
    fn message(&mut self, game: u64, text: &str) {
        let _ = game;
        eprintln!("{text}");
    }
}

impl Watch for Progress {
    fn show(&mut self, summary: &Summary) {
        Progress::show(self, summary);
    }

    fn clear(&mut self) {
        Progress::clear(self);
    }
}

/// Where a command's search writes: the printer, the problems, and what it is watched by.
pub(super) struct CliSink {
    printer: Printer,
    problems: Option<ProblemLog<Output>>,
    /// The first problems, as lines for standard error.
    pub shown: Vec<String>,
    /// The variants the query does not compile for, each with the number of its games that
    /// were not searched, in the order met: said once each, not game by game.
    pub unfit: Vec<(&'static Variant, u64)>,
    watch: Option<Box<dyn Watch>>,
    flushed: Instant,
}

impl CliSink {
    /// A sink writing with `printer`, logging problems to `problems`, told to `watch`.
    pub(super) fn new(printer: Printer, problems: Option<ProblemLog<Output>>, watch: Option<Box<dyn Watch>>) -> Self {
        CliSink { printer, problems, shown: Vec::new(), unfit: Vec::new(), watch, flushed: Instant::now() }
    }

    /// Flushes the outputs when what they hold has waited long enough.
    fn flush_now_and_then(&mut self) -> io::Result<()> {
        if self.flushed.elapsed() < FLUSH_EVERY {
            return Ok(());
        }
        self.flushed = Instant::now();
        self.flush()
    }

    fn flush(&mut self) -> io::Result<()> {
        if let Some(problems) = &mut self.problems {
            problems.flush()?;
        }
        match &mut self.printer {
            Printer::Nothing => Ok(()),
            Printer::Pgn(printer) => printer.flush(),
            Printer::Cql(printer) => printer.flush(),
            Printer::Jsonl(printer) => printer.flush(),
        }
    }

    /// Clears the progress line and gives the output files their names.
    fn finish(&mut self) -> io::Result<()> {
        if let Some(watch) = &mut self.watch {
            watch.clear();
        }
        if let Some(problems) = self.problems.take() {
            problems.into_inner().finish()?;
        }
        match std::mem::replace(&mut self.printer, Printer::Nothing) {
            Printer::Nothing => Ok(()),
            Printer::Pgn(printer) => printer.into_inner().finish(),
            Printer::Cql(printer) => printer.into_inner().finish(),
            Printer::Jsonl(printer) => printer.into_inner().finish(),
        }
    }
}

impl Sink for CliSink {
    fn renderer(&self) -> Option<Arc<dyn Render>> {
        match &self.printer {
            Printer::Cql(printer) => Some(printer.renderer()),
            _ => None,
        }
    }

    fn found(&mut self, game: &Found<'_>) -> io::Result<()> {
        if let Some(watch) = &mut self.watch {
            watch.found(game.number);
        }
        match &mut self.printer {
            Printer::Nothing => {}
            Printer::Pgn(printer) => printer.write(game)?,
            Printer::Cql(printer) => {
                if let Some(said) = printer.write(game)?
                    && !game.said_when_found
                {
                    self.message(game.number, &said)?;
                }
            }
            Printer::Jsonl(printer) => printer.write(game)?,
        }
        self.flush_now_and_then()
    }

    fn problem(&mut self, problem: &Problem<'_>) -> io::Result<()> {
        if let Some(variant) = problem.unfit {
            match self.unfit.iter_mut().find(|(known, _)| *known == variant) {
                Some((_, games)) => *games += 1,
                None => self.unfit.push((variant, 1)),
            }
        } else if self.shown.len() < SHOWN_PROBLEMS {
            self.shown.push(describe(problem));
        }
        match &mut self.problems {
            Some(log) => log.write(problem),
            None => Ok(()),
        }
    }

    fn message(&mut self, game: u64, text: &str) -> io::Result<()> {
        match &mut self.watch {
            Some(watch) => watch.message(game, text),
            None => eprintln!("{text}"),
        }
        Ok(())
    }

    fn progress(&mut self, summary: &Summary) {
        if let Some(watch) = &mut self.watch {
            watch.show(summary);
        }
        // A failure here shows again at the next write, and at the end.
        let _ = self.flush_now_and_then();
    }
}
