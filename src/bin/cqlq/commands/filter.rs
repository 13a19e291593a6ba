//! `cqlq filter`: the lines of positions that match.
//!
//! Each input is read in blocks of whole lines; the lines of a block are decided on all threads
//! and written in their order. The variant of an input's first position is tried first for
//! its other lines (sniffing each line anew only when it does not read so).

use std::borrow::Cow;
use std::collections::HashSet;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use cqlq::Variant;
use cqlq::notation::Container;
use cqlq::notation::pgn::{NotPgn, sniff_content};
use cqlq::rules::formats::sniff_container;
use cqlq::search::{LineOutcome, PositionFilter, open_to_read};
use serde_json::json;

use super::{chosen_variant, counted, hint_when_reading_a_terminal, load_query, note, thread_count};
use crate::args::FilterArgs;
use crate::line_blocks::{Line, LineBlocks};
use crate::output::Output;

/// About how many bytes of lines are decided together.
const BLOCK_BYTES: usize = 4 << 20;

/// The most bytes a line of a position may take (a FEN of the largest board takes a few
/// thousand); a longer line is cut, reported, and its rest dropped as it is read.
const MAX_LINE_BYTES: usize = 64 << 10;

/// Bad lines shown on standard error; the rest are counted (and go to --errors).
const SHOWN_PROBLEMS: u64 = 5;

pub fn run(args: FilterArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let query_file = if args.query.text.is_none() { args.paths.first().cloned() } else { None };
    let Some(loaded) = load_query(&args.query, args.paths)? else {
        return Ok(ExitCode::from(2));
    };
    if !args.quiet {
        loaded.warn();
    }
    let variant = chosen_variant(&args.query, &loaded.query)?;
    let filter = PositionFilter::new(loaded.query, variant).with_threads(thread_count(args.threads, "-j"))?;
    // A query must compile for the variant asked for, or when positions are sniffed, for some
    // variant; a variant it does not fit is reported when one of its positions comes.
    let candidates: Vec<&'static Variant> = variant.map_or_else(|| Variant::all().iter().collect(), |v| vec![v]);
    if candidates.iter().all(|candidate| filter.compile_error(candidate).is_some()) {
        let shown = variant.unwrap_or_else(Variant::standard);
        let error = filter.compile_error(shown).expect("it does not compile for any variant");
        eprint!("{}", error.clone().with_origin(&loaded.origin));
        return Ok(ExitCode::from(2));
    }
    let inputs = if loaded.rest.is_empty() { vec![PathBuf::from("-")] } else { loaded.rest };
    let _typed = hint_when_reading_a_terminal(&inputs);
    let mut read: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    read.extend(query_file.as_deref());
    let out = Output::open(args.output.as_deref(), &read, &[])?;
    let written: Vec<&Path> = args.output.iter().map(PathBuf::as_path).filter(|path| *path != Path::new("-")).collect();
    let problems = match &args.errors {
        Some(path) => Some(Output::open(Some(path), &read, &written)?),
        None => None,
    };
    let mut run = Run {
        filter: &filter,
        count_only: args.count,
        limit: args.limit,
        origin: loaded.origin.clone(),
        out,
        problems,
        counts: Counts::default(),
        failed: false,
        reported_variants: HashSet::new(),
    };
    for input in &inputs {
        match run.input(input) {
            Ok(Done::Yes) => break,
            Ok(Done::No) => {}
            // Writing failed: the run stops, naming the output.
            Err(Failure::Write(error)) => return Err(error.into()),
            Err(Failure::Read(error)) => {
                note(format_args!("{}: {error}", input.display()));
                run.failed = true;
            }
        }
    }
    let Run { mut out, problems, counts, failed, .. } = run;
    let sentence = format!(
        "{} of {} read, {}",
        counted(counts.matched, "position matched", "positions matched"),
        counts.positions,
        counted(counts.invalid, "line not a position", "lines not positions"),
    );
    // After an input that failed with nothing read, counts of nothing would only hide the error.
    let nothing_read = failed && counts.positions == 0 && counts.invalid == 0;
    if args.count && !nothing_read {
        // As `cqlq search --count`: the sentence where the lines would go, and no summary.
        writeln!(out, "{sentence}")?;
    }
    out.finish()?;
    if let Some(problems) = problems {
        problems.finish()?;
    }
    if !args.quiet && !args.count && !nothing_read {
        note(format_args!("{sentence}, in {:.1} s", started.elapsed().as_secs_f64()));
    }
    if counts.invalid > SHOWN_PROBLEMS {
        let where_listed = match &args.errors {
            Some(path) => format!("all are listed in {}", path.display()),
            None => "--errors FILE lists them all".to_owned(),
        };
        note(format_args!(
            "{} ({} more not shown; {where_listed})",
            counted(counts.invalid, "line is no position", "lines are no positions"),
            counts.invalid - SHOWN_PROBLEMS
        ));
    }
    Ok(if failed {
        ExitCode::from(2)
    } else if counts.matched > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// What the lines read so far came to.
#[derive(Default)]
struct Counts {
    positions: u64,
    matched: u64,
    invalid: u64,
}

/// Whether the run is over (the limit was reached).
enum Done {
    Yes,
    No,
}

/// Why an input stopped.
enum Failure {
    /// It could not be read, or is no lines of positions.
    Read(io::Error),
    /// An output could not be written.
    Write(io::Error),
}

struct Run<'a> {
    filter: &'a PositionFilter,
    count_only: bool,
    limit: Option<u64>,
    origin: String,
    out: Output,
    problems: Option<Output>,
    counts: Counts,
    failed: bool,
    reported_variants: HashSet<&'static str>,
}

impl Run<'_> {
    fn input(&mut self, path: &Path) -> Result<Done, Failure> {
        let stdin = path == Path::new("-");
        let name = if stdin { "<stdin>".to_owned() } else { path.display().to_string() };
        let reader: Box<dyn Read> =
            if stdin { Box::new(io::stdin().lock()) } else { Box::new(open_to_read(path).map_err(Failure::Read)?) };
        let mut blocks = LineBlocks::new(reader, BLOCK_BYTES, MAX_LINE_BYTES);
        let mut line_number = 0u64;
        let mut likely = None;
        let mut first = true;
        while let Some(block) = blocks.next_block().map_err(Failure::Read)? {
            if std::mem::take(&mut first) {
                refuse_games(block.text()).map_err(Failure::Read)?;
            }
            let lines: Vec<Line<'_>> = block.lines().collect();
            // A line cut for its length is no position: it is not read as one.
            let texts: Vec<Cow<'_, str>> = lines
                .iter()
                .map(|line| if line.cut { Cow::Borrowed("") } else { String::from_utf8_lossy(line.text) })
                .collect();
            if likely.is_none() {
                likely = self.filter.likely_variant(&texts);
            }
            let outcomes = self.filter.run_as(&texts, likely);
            for (line, outcome) in lines.iter().zip(outcomes) {
                line_number += 1;
                let done = if line.cut {
                    let error = format!("a line longer than {} KiB: no position", MAX_LINE_BYTES >> 10);
                    self.problem(&name, line_number, &error).map(|()| false)
                } else {
                    self.outcome(&name, line_number, line.text, outcome)
                };
                if done.map_err(Failure::Write)? {
                    return Ok(Done::Yes);
                }
            }
        }
        Ok(Done::No)
    }

    /// Takes one line's outcome; true when the limit is reached.
    fn outcome(&mut self, name: &str, number: u64, line: &[u8], outcome: LineOutcome) -> io::Result<bool> {
        match outcome {
            LineOutcome::Matched => {
                self.counts.positions += 1;
                self.counts.matched += 1;
                if !self.count_only {
                    self.out.write_all(line)?;
                    self.out.write_all(b"\n")?;
                }
                return Ok(self.limit.is_some_and(|limit| self.counts.matched >= limit));
            }
            LineOutcome::NotMatched => self.counts.positions += 1,
            LineOutcome::Skipped => {}
            LineOutcome::Invalid(error) => self.problem(name, number, &error)?,
            LineOutcome::Uncompiled(variant) => {
                self.counts.positions += 1;
                self.failed = true;
                if self.reported_variants.insert(variant.name) {
                    note(format_args!(
                        "{name}:{number}: a {} position, and the query does not compile for it:",
                        variant.name
                    ));
                    if let Some(error) = self.filter.compile_error(variant) {
                        eprint!("{}", error.clone().with_origin(self.origin.clone()));
                    }
                }
            }
        }
        Ok(false)
    }

    /// Reports a line that is no position: on standard error for the first few, in the
    /// `--errors` file for all.
    fn problem(&mut self, name: &str, number: u64, error: &dyn std::fmt::Display) -> io::Result<()> {
        self.counts.invalid += 1;
        if self.counts.invalid <= SHOWN_PROBLEMS {
            note(format_args!("{name}:{number}: {error}"));
        }
        if let Some(problems) = &mut self.problems {
            let object = json!({"input": name, "line": number, "error": error.to_string()});
            serde_json::to_writer(&mut *problems, &object)?;
            problems.write_all(b"\n")?;
        }
        Ok(())
    }
}

/// Refuses an input that holds games, binary data or compressed data rather than lines of
/// positions.
fn refuse_games(start: &[u8]) -> io::Result<()> {
    let refuse = |message: String| Err(io::Error::new(io::ErrorKind::InvalidData, message));
    if let Container::Native(format) = sniff_container(start) {
        let what = format.description();
        return refuse(format!(
            "this is a file of games ({what}) rather than lines of positions: use `cqlq search`, or `cqlq positions` to list them"
        ));
    }
    match sniff_content(start) {
        Ok(()) if start.iter().all(u8::is_ascii_whitespace) => Ok(()),
        Ok(()) => refuse("this is PGN, games rather than lines of positions: use `cqlq search`".to_owned()),
        Err(not @ (NotPgn::Binary { .. } | NotPgn::Compressed(_))) => refuse(not.to_string()),
        Err(NotPgn::Positions(_) | NotPgn::Text(_)) => Ok(()),
    }
}
