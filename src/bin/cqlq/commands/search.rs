//! `cqlq search`: the games with a position that matches.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use cqlq::Variant;
use cqlq::search::output::{JsonlPrinter, PgnPrinter, ProblemLog, describe};
use cqlq::search::{
    Found, Input, Problem, Search, SearchError, SearchOptions, Sink, SortedSink, Summary, paths_or_stdin,
};

use super::{chosen_variant, load_query, note, thread_count};
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
    let variant = chosen_variant(&args.query, &loaded.query)?;
    let default_variant = variant.unwrap_or_else(Variant::standard);
    if let Err(error) = loaded.query.compile(default_variant) {
        eprint!("{}", error.with_origin(&loaded.origin));
        return Ok(ExitCode::from(2));
    }
    let options = SearchOptions {
        variant,
        variations: args.variations || header.variations,
        matchcount: args.matchcount.or(header.matchcount).unwrap_or((1, None)),
        gamenumber: args.gamenumber.or(header.gamenumber),
        limit: args.limit,
        result: header.result.clone(),
        threads: thread_count(args.threads),
    };
    let matchstring = args.matchstring.or(header.matchstring).unwrap_or_else(|| "CQL".to_owned());
    let inputs = if loaded.rest.is_empty() {
        header.input.map(|path| vec![PathBuf::from(path)]).unwrap_or_else(|| paths_or_stdin(&[]))
    } else {
        loaded.rest
    };
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
            let printer = match &header.sort {
                Some(sort) => printer.with_sort_label(sort.label.as_deref().unwrap_or("")),
                None => printer,
            };
            (Printer::Pgn(printer), None)
        }
        (false, Format::Jsonl) => (Printer::Jsonl(JsonlPrinter::new(out)), None),
    };
    let search = Search::new(loaded.query, options)?;
    let progress = (!args.quiet && io::stderr().is_terminal()).then(|| Progress::new(total_size(&inputs)));
    let mut sink = CliSink { printer, problems, shown: Vec::new(), progress, flushed: Instant::now() };
    let mut summary = Summary::default();
    let outcome = match header.sort.as_ref().map(|sort| sort.min) {
        Some(min) => {
            let mut sorted = SortedSink::new(&mut sink, min, args.limit);
            let outcome = search_all(&search, &inputs, &mut sorted, &mut summary);
            let finished = if outcome.is_ok() { sorted.finish() } else { Ok(()) };
            finished.map_or_else(|error| Err(SearchError::Output(error)), |()| outcome)
        }
        None => search_all(&search, &inputs, &mut sink, &mut summary),
    };
    let unreadable = match outcome {
        Ok(unreadable) => unreadable,
        Err(SearchError::Output(error)) => return Err(error.into()),
        Err(SearchError::Input(error)) => return Err(error.into()),
    };
    sink.finish()?;
    let counts = format!(
        "{} games matched ({} positions) of {} games read, {} with errors",
        summary.matched, summary.positions, summary.games, summary.errors
    );
    if let Some(mut out) = counter {
        writeln!(out, "{counts}")?;
        out.finish()?;
    } else if !args.quiet {
        note(format_args!("{counts}, in {:.1} s", started.elapsed().as_secs_f64()));
    }
    report_problems(&sink.shown, &summary, args.errors.as_deref());
    let nothing_readable = summary.games > 0 && summary.errors == summary.games && summary.matched == 0;
    Ok(if unreadable || nothing_readable {
        ExitCode::from(2)
    } else if summary.matched > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The size of the inputs as stored, when every one has a known size.
fn total_size(inputs: &[PathBuf]) -> Option<u64> {
    inputs.iter().map(|path| std::fs::metadata(path).ok().filter(|m| m.is_file()).map(|m| m.len())).sum()
}

/// The problems shown, and how many more there were.
fn report_problems(shown: &[String], summary: &Summary, errors_file: Option<&Path>) {
    if summary.errors == 0 {
        return;
    }
    for line in shown {
        note(format_args!("{line}"));
    }
    let more = summary.errors.saturating_sub(shown.len() as u64);
    let where_listed = match errors_file {
        Some(path) => format!("all are listed in {}", path.display()),
        None => "--errors FILE lists them all".to_owned(),
    };
    if more > 0 {
        note(format_args!("{} games with errors ({more} more not shown; {where_listed})", summary.errors));
    } else {
        let games = if summary.errors == 1 { "game" } else { "games" };
        note(format_args!("{} {games} with errors; positions before each error were searched", summary.errors));
    }
}

/// Searches every input in turn; returns whether one could not be read. An input that cannot
/// be read is reported and the search goes on; an output that cannot be written stops it.
fn search_all(
    search: &Search,
    inputs: &[PathBuf],
    sink: &mut dyn Sink,
    summary: &mut Summary,
) -> Result<bool, SearchError> {
    let mut unreadable = false;
    for path in inputs {
        let mut input = match Input::open(path) {
            Ok(input) => input,
            Err(error) => {
                note(format_args!("{}: {error}", path.display()));
                unreadable = true;
                continue;
            }
        };
        match search.run(&mut input, sink, summary) {
            Ok(flow) if flow.is_break() => break,
            Ok(_) => {}
            Err(SearchError::Input(error)) => {
                note(format_args!("{}: {error}", input.name()));
                unreadable = true;
            }
            Err(error) => return Err(error),
        }
    }
    Ok(unreadable)
}

enum Printer {
    Nothing,
    Pgn(PgnPrinter<Output>),
    Jsonl(JsonlPrinter<Output>),
}

struct CliSink {
    printer: Printer,
    problems: Option<ProblemLog<Output>>,
    shown: Vec<String>,
    progress: Option<Progress>,
    flushed: Instant,
}

impl CliSink {
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
            Printer::Jsonl(printer) => printer.flush(),
        }
    }

    /// Clears the progress line and gives the output files their names.
    fn finish(&mut self) -> io::Result<()> {
        if let Some(progress) = &self.progress {
            progress.clear();
        }
        if let Some(problems) = self.problems.take() {
            problems.into_inner().finish()?;
        }
        match std::mem::replace(&mut self.printer, Printer::Nothing) {
            Printer::Nothing => Ok(()),
            Printer::Pgn(printer) => printer.into_inner().finish(),
            Printer::Jsonl(printer) => printer.into_inner().finish(),
        }
    }
}

impl Sink for CliSink {
    fn found(&mut self, game: &Found<'_>) -> io::Result<()> {
        match &mut self.printer {
            Printer::Nothing => {}
            Printer::Pgn(printer) => printer.write(game)?,
            Printer::Jsonl(printer) => printer.write(game)?,
        }
        self.flush_now_and_then()
    }

    fn problem(&mut self, problem: &Problem<'_>) -> io::Result<()> {
        if self.shown.len() < SHOWN_PROBLEMS {
            self.shown.push(describe(problem));
        }
        match &mut self.problems {
            Some(log) => log.write(problem),
            None => Ok(()),
        }
    }

    fn progress(&mut self, summary: &Summary) {
        if let Some(progress) = &self.progress {
            progress.show(summary);
        }
        // A failure here shows again at the next write, and at the end.
        let _ = self.flush_now_and_then();
    }
}
