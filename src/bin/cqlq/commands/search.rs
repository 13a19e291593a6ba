//! `cqlq search`: the games with a position that matches.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use cqlq::Variant;
use cqlq::search::output::{JsonlPrinter, PgnPrinter, ProblemLog, describe};
use cqlq::search::{Found, Input, Problem, Search, SearchOptions, Sink, SortedSink, Summary, paths_or_stdin};

use super::{chosen_variant, load_query};
use crate::args::{Format, SearchArgs};

/// Problems shown on standard error; the rest are counted (and go to --errors).
const SHOWN_PROBLEMS: usize = 5;

pub fn run(args: SearchArgs) -> anyhow::Result<ExitCode> {
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
        threads: args.threads.unwrap_or(0),
    };
    let matchstring = args.matchstring.or(header.matchstring).unwrap_or_else(|| "CQL".to_owned());
    let inputs = if loaded.rest.is_empty() {
        header.input.map(|path| vec![PathBuf::from(path)]).unwrap_or_else(|| paths_or_stdin(&[]))
    } else {
        loaded.rest
    };
    let output_path = args.output.or(header.output.map(PathBuf::from));
    let out: Box<dyn Write> = match &output_path {
        Some(path) if path.as_os_str() != "-" => {
            Box::new(File::create(path).with_context(|| format!("cannot write {}", path.display()))?)
        }
        _ => Box::new(io::stdout().lock()),
    };
    let out = BufWriter::with_capacity(1 << 20, out);
    let printer = match (args.count, args.format) {
        (true, _) => Printer::Nothing,
        (false, Format::Pgn) => {
            let printer = PgnPrinter::new(out, &matchstring);
            Printer::Pgn(match &header.sort {
                Some(sort) => printer.with_sort_label(sort.label.as_deref().unwrap_or("")),
                None => printer,
            })
        }
        (false, Format::Jsonl) => Printer::Jsonl(JsonlPrinter::new(out)),
    };
    let problems = match &args.errors {
        Some(path) => Some(ProblemLog::new(BufWriter::new(
            File::create(path).with_context(|| format!("cannot write {}", path.display()))?,
        ))),
        None => None,
    };
    let search = Search::new(loaded.query, options)?;
    let mut sink =
        CliSink { printer, problems, shown: Vec::new(), progress: io::stderr().is_terminal().then(Progress::new) };
    let mut summary = Summary::default();
    let unreadable = match header.sort.as_ref().map(|sort| sort.min) {
        Some(min) => {
            let mut sorted = SortedSink::new(&mut sink, min);
            let unreadable = search_all(&search, &inputs, &mut sorted, &mut summary)?;
            sorted.finish(args.limit)?;
            unreadable
        }
        None => search_all(&search, &inputs, &mut sink, &mut summary)?,
    };
    sink.finish()?;
    if args.count {
        println!(
            "{} games matched ({} positions) of {} games read, {} with errors",
            summary.matched, summary.positions, summary.games, summary.errors
        );
    }
    if summary.errors > 0 {
        for line in &sink.shown {
            eprintln!("cqlq: {line}");
        }
        let more = summary.errors.saturating_sub(sink.shown.len() as u64);
        let where_listed = match &args.errors {
            Some(path) => format!("all are listed in {}", path.display()),
            None => "--errors FILE lists them all".to_owned(),
        };
        if more > 0 {
            eprintln!("cqlq: {} games with errors ({more} more not shown; {where_listed})", summary.errors);
        } else {
            let games = if summary.errors == 1 { "game" } else { "games" };
            eprintln!("cqlq: {} {games} with errors; positions before each error were searched", summary.errors);
        }
    }
    Ok(if unreadable {
        ExitCode::from(2)
    } else if summary.matched > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Searches every input in turn; returns whether one could not be read.
fn search_all(search: &Search, inputs: &[PathBuf], sink: &mut dyn Sink, summary: &mut Summary) -> io::Result<bool> {
    let mut unreadable = false;
    for path in inputs {
        let mut input = match Input::open(path) {
            Ok(input) => input,
            Err(error) => {
                eprintln!("cqlq: {}: {error}", path.display());
                unreadable = true;
                continue;
            }
        };
        match search.run(&mut input, sink, summary) {
            Ok(flow) if flow.is_break() => break,
            Ok(_) => {}
            Err(error) if error.kind() == io::ErrorKind::BrokenPipe => return Err(error),
            Err(error) => {
                eprintln!("cqlq: {}: {error}", path.display());
                unreadable = true;
            }
        }
    }
    Ok(unreadable)
}

enum Printer {
    Nothing,
    Pgn(PgnPrinter<BufWriter<Box<dyn Write>>>),
    Jsonl(JsonlPrinter<BufWriter<Box<dyn Write>>>),
}

struct CliSink {
    printer: Printer,
    problems: Option<ProblemLog<BufWriter<File>>>,
    shown: Vec<String>,
    progress: Option<Progress>,
}

impl CliSink {
    fn finish(&mut self) -> io::Result<()> {
        if let Some(progress) = &mut self.progress {
            progress.clear();
        }
        if let Some(problems) = &mut self.problems {
            problems.flush()?;
        }
        match &mut self.printer {
            Printer::Nothing => Ok(()),
            Printer::Pgn(printer) => printer.flush(),
            Printer::Jsonl(printer) => printer.flush(),
        }
    }
}

impl Sink for CliSink {
    fn found(&mut self, game: &Found<'_>) -> io::Result<()> {
        match &mut self.printer {
            Printer::Nothing => Ok(()),
            Printer::Pgn(printer) => printer.write(game),
            Printer::Jsonl(printer) => printer.write(game),
        }
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
        if let Some(progress) = &mut self.progress {
            progress.show(summary);
        }
    }
}

/// A line on a terminal's standard error: games, megabytes, megabytes a second.
struct Progress {
    started: Instant,
    shown: Instant,
}

impl Progress {
    fn new() -> Progress {
        Progress { started: Instant::now(), shown: Instant::now() }
    }

    fn show(&mut self, summary: &Summary) {
        if self.shown.elapsed().as_millis() < 200 {
            return;
        }
        self.shown = Instant::now();
        let megabytes = summary.bytes as f64 / 1e6;
        let rate = megabytes / self.started.elapsed().as_secs_f64().max(1e-3);
        eprint!("\r{} games, {megabytes:.0} MB, {rate:.0} MB/s\x1b[K", summary.games);
    }

    fn clear(&mut self) {
        eprint!("\r\x1b[K");
    }
}
