//! `cqlq positions` and `cqlq convert`: every game read, each written in another form, over
//! the same parallel pipeline as `cqlq search` (with a query every position matches).

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use cqlq::search::output::{ProblemLog, describe};
use cqlq::search::{
    Converter, Found, PositionsFormat, Problem, Render, Search, SearchError, SearchOptions, Sink, Summary, Target,
    paths_or_stdin,
};
use cqlq::{Query, Variant};

use super::search::{Searched, exit_code, report_problems, search_all};
use super::{counted, hint_when_reading_a_terminal, note, note_games_past_the_end, thread_count};
use crate::args::{ConvertArgs, GameArgs, PositionsArgs, PositionsFormatArg, TargetArg};
use crate::output::Output;
use crate::progress::Progress;

/// Problems shown on standard error; the rest are counted (and go to --errors).
const SHOWN_PROBLEMS: usize = 5;

/// `cqlq positions`.
pub fn positions(args: PositionsArgs) -> anyhow::Result<ExitCode> {
    let format = match args.format {
        PositionsFormatArg::Tsv => PositionsFormat::Tsv,
        PositionsFormatArg::Jsonl => PositionsFormat::Jsonl,
        PositionsFormatArg::Epd => PositionsFormat::Epd,
    };
    let wording = Wording { one: "position", many: "positions", kept: "the positions before each error were written" };
    run(args.games, Some(format), |out, _| Writer::Positions(out), wording)
}

/// `cqlq convert`.
pub fn convert(args: ConvertArgs) -> anyhow::Result<ExitCode> {
    let target = match args.to {
        TargetArg::Pgn => Target::Pgn,
        TargetArg::Xdecor => Target::XDecor,
        TargetArg::XdecorLetters => Target::XDecorLetters,
        TargetArg::XdecorRaw => Target::XDecorRaw,
        TargetArg::Short => Target::Short,
        TargetArg::Long => Target::Long,
    };
    let (edition, to_edition) = (args.games.edition, args.to_edition);
    run(
        args.games,
        None,
        |out, default_variant| Writer::Convert {
            out,
            converter: Converter { target, default_variant, edition, to_edition },
        },
        Wording {
            one: "game converted",
            many: "games converted",
            kept: "each was converted up to its error, which a comment tells",
        },
    )
}

/// How a command's summary speaks of what it wrote.
struct Wording {
    /// What is counted, one and more (`game converted`, `games converted`).
    one: &'static str,
    many: &'static str,
    /// What became of the games with errors.
    kept: &'static str,
}

/// Reads every game of the inputs and writes what `make` writes of each.
fn run(
    args: GameArgs,
    positions: Option<PositionsFormat>,
    make: impl FnOnce(Output, &'static Variant) -> Writer,
    wording: Wording,
) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let variant = super::variant_in_edition(args.variant.as_deref(), args.edition)?;
    let inputs = paths_or_stdin(&args.inputs);
    let typed = hint_when_reading_a_terminal(&inputs);
    let read: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    let out = Output::open(args.output.as_deref(), &read, &[])?;
    let written: Vec<&Path> = args.output.iter().map(PathBuf::as_path).filter(|path| *path != Path::new("-")).collect();
    let problems = match &args.errors {
        Some(path) => Some(ProblemLog::new(Output::open(Some(path), &read, &written)?)),
        None => None,
    };
    let options = SearchOptions {
        variant,
        edition: args.edition,
        gamenumber: args.gamenumber,
        limit: args.limit,
        threads: thread_count(args.threads, "-j"),
        positions,
        ..SearchOptions::default()
    };
    // Every position matches `true`: every game read is written.
    let search = Search::new(Query::parse("true")?, options)?;
    let progress = (!args.quiet && !typed && io::stderr().is_terminal()).then(|| Progress::new(None));
    let default_variant = variant.unwrap_or_else(Variant::standard);
    let mut sink = GameSink { writer: make(out, default_variant), problems, shown: Vec::new(), progress, written: 0 };
    let mut summary = Summary::default();
    let searched: Searched = match search_all(&search, &inputs, args.notation, &mut sink, &mut summary) {
        Ok(searched) => searched,
        // The error as it came, so that a closed pipe (`| head`) ends the run quietly.
        Err(SearchError::Output(error) | SearchError::Input(error)) => return Err(error.into()),
    };
    let refused = sink.refused();
    let shown = std::mem::take(&mut sink.shown);
    sink.finish()?;
    if !args.quiet && !searched.failed_before_any_game(&summary) {
        let count = if positions.is_some() { summary.positions } else { summary.matched - refused };
        let not_converted = if refused > 0 { format!(", {refused} not converted") } else { String::new() };
        note(format_args!(
            "{} from {} read{not_converted}, {} with errors, in {:.1} s",
            counted(count, wording.one, wording.many),
            counted(summary.games, "game", "games"),
            summary.errors,
            started.elapsed().as_secs_f64()
        ));
    }
    if !args.quiet && !searched.stopped {
        note_games_past_the_end(args.gamenumber, summary.games);
    }
    let where_listed = match &args.errors {
        Some(path) => format!("all are listed in {}", path.display()),
        None => "--errors FILE lists them all".to_owned(),
    };
    if summary.errors == 0 && summary.warnings == 0 {
        // Games that were read but could not be converted.
        for line in &shown {
            note(format_args!("{line}"));
        }
        let unshown = refused.saturating_sub(shown.len() as u64);
        if unshown > 0 {
            note(format_args!("and {} not converted; {where_listed}", counted(unshown, "more game", "more games")));
        }
    }
    report_problems(&shown, &summary, &where_listed, wording.kept);
    Ok(exit_code(searched.unreadable, &summary))
}

/// What is written of each game.
enum Writer {
    /// Its positions, as the search wrote them.
    Positions(Output),
    /// The game in another notation; `refused` counts the games that could not be.
    Convert { out: Output, converter: Converter },
}

/// Where the games go.
struct GameSink {
    writer: Writer,
    problems: Option<ProblemLog<Output>>,
    shown: Vec<String>,
    progress: Option<Progress>,
    /// Positions written, or games not converted.
    written: u64,
}

impl GameSink {
    fn refused(&self) -> u64 {
        match self.writer {
            Writer::Positions(_) => 0,
            Writer::Convert { .. } => self.written,
        }
    }

    fn finish(self) -> io::Result<()> {
        if let Some(progress) = self.progress {
            progress.clear();
        }
        if let Some(problems) = self.problems {
            problems.into_inner().finish()?;
        }
        match self.writer {
            Writer::Positions(out) | Writer::Convert { out, .. } => out.finish(),
        }
    }

    fn shown(&mut self, line: String) {
        if self.shown.len() < SHOWN_PROBLEMS {
            self.shown.push(line);
        }
    }
}

impl Sink for GameSink {
    fn renderer(&self) -> Option<Arc<dyn Render>> {
        match &self.writer {
            Writer::Convert { converter, .. } => Some(Arc::new(*converter)),
            Writer::Positions(_) => None,
        }
    }

    fn found(&mut self, game: &Found<'_>) -> io::Result<()> {
        match &mut self.writer {
            Writer::Positions(out) => {
                out.write_all(game.positions)?;
                self.written += game.positions.iter().filter(|&&byte| byte == b'\n').count() as u64;
            }
            Writer::Convert { out, converter } => {
                let mut converted = Vec::new();
                let rendered = match game.rendered {
                    Some(rendered) => rendered,
                    None => {
                        converter.render(game, &mut converted);
                        &converted
                    }
                };
                if let Some(why) = Converter::not_converted(rendered) {
                    let line = format!("{}:{}: game {}: not converted: {why}", game.input, game.line, game.number);
                    self.written += 1;
                    self.shown(line);
                    if let Some(log) = &mut self.problems {
                        log.write_not_converted(game, &why)?;
                    }
                } else {
                    out.write_all(rendered)?;
                }
            }
        }
        Ok(())
    }

    fn problem(&mut self, problem: &Problem<'_>) -> io::Result<()> {
        self.shown(describe(problem));
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
