//! `cqlq cql`: CQL 6.2's command line over cqlq's search, writing the games as CQL writes them.
//!
//! The options are read as CQL reads them ([`options`]); the query file, the command line's
//! filters and transforms make one query ([`query_text`]); the games go through the search of
//! `cqlq search` to a [`CqlPrinter`]; the console shows what CQL's shows ([`console`]).

mod console;
mod options;
mod query_text;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{anyhow, bail};
use clap::CommandFactory;
use cqlq::search::output::{CqlComments, CqlPrinter};
use cqlq::search::{Search, SearchOptions, estimated_games, load_similar_games, open_to_read};
use cqlq::{Query, QueryError, Variant};

use super::search::{
    CliSink, Printer, SEARCHED_UP_TO_ERRORS, note_header_variant, nothing_readable, report_problems, report_unfit,
    search_into,
};
use super::{read_query_file, thread_count};
use crate::args::{Cli, CqlArgs, cql_options_help_in};
use crate::output::Output;
use console::{Console, Marks, closing_line};
use options::{Action, CqlOptions, Filter};

/// The name CQL gives a query that has no file, for the output's name.
const NO_QUERY_FILE: &str = "cqldefault";

/// The comment CQL marks matched positions with by default.
const DEFAULT_MATCHSTRING: &str = "CQL";

/// Runs `cqlq cql` with CQL 6.2's exit status: 0 when the games were searched, whether or not
/// one matched; 1 on a mistake in the options or the query, or an input or output that failed
/// (reported on standard error).
pub fn run_as_cql(args: CqlArgs) -> ExitCode {
    match run(args) {
        Ok(Searched::Done) => ExitCode::SUCCESS,
        Ok(Searched::Failed) => ExitCode::FAILURE,
        Err(error) if super::is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            super::note(format_args!("{error:#}"));
            ExitCode::FAILURE
        }
    }
}

/// How a run ended, when no error stopped it.
enum Searched {
    /// The games were searched.
    Done,
    /// The query or the input could not be used, as reported.
    Failed,
}

fn run(args: CqlArgs) -> anyhow::Result<Searched> {
    let started = Instant::now();
    let options = options::parse(&args.args)?;
    match options.action {
        Action::Help => {
            help()?;
            return Ok(Searched::Done);
        }
        Action::Version => {
            println!("{}", banner());
            return Ok(Searched::Done);
        }
        Action::Search => {}
    }
    let query_file = options.query_file.as_deref().map(query_path).transpose()?;
    let Some(query) = load_query(query_file.as_deref(), &options)? else {
        return Ok(Searched::Failed);
    };
    let header = query.header().cloned().unwrap_or_default();
    let sort_keys = query.sort_keys();
    let variant = query.variant();
    let input = match options.input.clone().or(header.input.as_ref().map(PathBuf::from)) {
        Some(input) => input,
        None => bail!("no input: give -i FILE, or input FILE in the query's cql(...) header"),
    };
    if input.as_os_str() != "-" {
        open_to_read(&input).map_err(|error| anyhow!("cannot read the input {}: {error}", input.display()))?;
    }
    let output_path = match options.output.clone().or(header.output.as_ref().map(PathBuf::from)) {
        Some(path) => path,
        None => default_output(query_file.as_deref()),
    };
    let mut read: Vec<&Path> = vec![input.as_path()];
    read.extend(query_file.as_deref());
    let out = Output::open(Some(&output_path), &read, &[])?;
    let console = Console::new(output_path.as_os_str() == "-");
    console.print(&format!("{}\n", banner()));
    if let (Some(output), Some(_)) = (&options.output, &header.output) {
        console.print(&format!("Using command line argument for filename: {}\n", output.display()));
    }
    match load_similar_games(&query) {
        Ok(read) => {
            for (file, games) in read {
                console.print(&format!("Db: read {games} games from submission file: {file}\n"));
            }
        }
        Err(error) => {
            super::note(format_args!("{error}"));
            return Ok(Searched::Failed);
        }
    }
    let threads = thread_count(options.threads, "-threads");
    let search_options = SearchOptions {
        variant,
        edition: None,
        variations: !options.mainline && (options.variations || header.variations),
        // A single number is an exact count, as in CQL 6.2 (the header reads it so too).
        matchcount: options.matchcount.map(|(low, high)| (low, Some(high))).or(header.matchcount).unwrap_or((1, None)),
        gamenumber: options.gamenumber.map(|(low, high)| (low, Some(high))).or(header.gamenumber),
        limit: None,
        result: header.result.clone(),
        threads,
        positions: None,
        last_game_number: None,
        set_tags: !options.nosettag,
        remove_comments: !options.noremovecomment,
    };
    let search_options = SearchOptions {
        last_game_number: if query.uses_last_game_number() {
            Some(last_game_number(&input, search_options.gamenumber, &console)?)
        } else {
            None
        },
        ..search_options
    };
    let matchstring = options.matchstring.clone().or(header.matchstring.clone());
    let comments = CqlComments {
        // `quiet` and `silent` (the header's, or the command line's put there) leave out what
        // CQL 6.2's options of those names do.
        matchstring: (!header.quiet && !header.silent)
            .then(|| matchstring.unwrap_or_else(|| DEFAULT_MATCHSTRING.to_owned())),
        game_numbers: !options.noheader && !header.silent,
        sort_labels: if header.silent {
            Vec::new()
        } else {
            sort_keys.iter().map(|key| (!key.quiet).then(|| key.label.clone())).collect()
        },
        variant: variant.unwrap_or_else(Variant::standard),
        game_buffer: options.output_buffer,
    };
    let marks = Marks::new(console, options.lineincrement, options.showmatches);
    let mut sink = CliSink::new(Printer::Cql(CqlPrinter::new(out, comments)), None, Some(Box::new(marks)));
    let asked_for_games = search_options.gamenumber.is_some();
    let in_order = query.runs_in_order();
    if in_order {
        // CQL's words, whatever the number of threads asked for.
        console.print(
            "CQL: running single-threaded because 'persistent', 'writefile', 'readfile' or 'dictionary' detected\n",
        );
    }
    let search = Search::new(query, search_options)?;
    let threads = search.threads();
    let (summary, searched) = search_into(&search, &[input], None, &mut sink, None)?;
    if let Some(reason) = search.refusal() {
        // CQL 6.2 stops there too, with no closing line.
        super::note(format_args!("the search stopped at game {}: {reason}", summary.games));
        return Ok(Searched::Failed);
    }
    // CQL counts the game after the last one asked for, which it read to know it was past.
    let games = summary.games + u64::from(searched.stopped && asked_for_games);
    let output_name = output_path.display().to_string();
    if !searched.failed_before_any_game(&summary) {
        console.print(&format!("\n{}", closing_line(summary.matched, games, started.elapsed(), threads, &output_name)));
    }
    for line in search.persistent_report() {
        console.print(&format!("{line}\n"));
    }
    let origin = query_file.as_deref().map_or_else(|| "-cql".to_owned(), |path| path.display().to_string());
    report_unfit(&sink.unfit, search.plans(), &origin);
    report_problems(&sink.shown, &summary, "cqlq search --errors FILE lists them all", SEARCHED_UP_TO_ERRORS);
    note_header_variant(variant, summary.untagged);
    Ok(if searched.unreadable || nothing_readable(&summary) { Searched::Failed } else { Searched::Done })
}

/// The number of the input's last game, for `lastgamenumber`, estimated and reported as CQL 6.2
/// does: its `[White ` tags counted, at most the last game asked for.
fn last_game_number(input: &Path, gamenumber: Option<(u64, Option<u64>)>, console: &Console) -> anyhow::Result<u64> {
    let name = input.display();
    console.print(&format!("lastgamenumber: reading file: {name}\n"));
    let text = std::fs::read(input).map_err(|error| anyhow!("cannot read the input {name}: {error}"))?;
    console.print(&format!("lastnumber: read {} bytes. Counting games:...\n", text.len()));
    let count = estimated_games(&text);
    if count == 0 {
        bail!("No valid games found by searching for the pattern '[White ' in the file: {name}");
    }
    console.print(&format!("Detected estimated {count} games in the file: {name} (Number may not be accurate)\n"));
    // One number asks for that game alone.
    let last = gamenumber.map_or(count, |(low, high)| count.min(high.unwrap_or(low)));
    if last != count {
        console.print(&format!("Due to CQL header gamenumber, using lastgamenumber value of: {last}\n"));
    }
    Ok(last)
}

/// The first line CQL prints, cqlq's here.
fn banner() -> String {
    format!("cqlq version {} (the CQL 6.2 command line: cqlq cql)", env!("CARGO_PKG_VERSION"))
}

/// Prints the help of the command.
fn help() -> anyhow::Result<()> {
    let mut cli = Cli::command();
    cli.build();
    let Some(command) = cli.find_subcommand_mut("cql") else { bail!("the cql command is not defined") };
    // The table of options is laid out here, at the terminal's width: clap would wrap its lines
    // again from the left.
    let columns = terminal_size::terminal_size().map_or(100, |(width, _)| usize::from(width.0)).clamp(50, 120);
    let mut command = command.clone().term_width(columns).after_long_help("");
    print!("{}\n{}", command.render_long_help(), cql_options_help_in(columns));
    Ok(())
}

/// The query file as CQL finds it: `.cql` added to a name without an extension; another
/// extension is refused.
fn query_path(path: &Path) -> anyhow::Result<PathBuf> {
    match path.extension().and_then(OsStr::to_str) {
        None => Ok(path.with_extension("cql")),
        Some("cql" | "CQL") => Ok(path.to_path_buf()),
        Some(_) => bail!("{}: a query file's name ends in .cql (or has no extension)", path.display()),
    }
}

/// Where the games go when neither `-o` nor the header says: `QUERY-out.pgn` in the current
/// folder, after the query file's name.
fn default_output(query_file: Option<&Path>) -> PathBuf {
    let stem = query_file.and_then(Path::file_stem).map_or_else(|| NO_QUERY_FILE.into(), OsStr::to_string_lossy);
    PathBuf::from(format!("{stem}-out.pgn"))
}

/// Reads the query file and the command line's filters into one query. On a mistake, prints
/// every one (where it is: in the file, or in the option) and returns `None`.
fn load_query(query_file: Option<&Path>, options: &CqlOptions) -> anyhow::Result<Option<Query>> {
    let source = match query_file {
        Some(path) => read_query_file(path)?,
        None => String::new(),
    };
    let origin = query_file.map_or_else(|| "-cql".to_owned(), |path| path.display().to_string());
    let file_query = match Query::parse(&source) {
        Ok(query) => query,
        Err(error) => return Ok(report(error, &origin)),
    };
    if let Some(warnings) = file_query.warnings() {
        eprint!("{}", warnings.with_origin(&origin));
    }
    for filter in &options.filters {
        let (text, option) = match filter {
            Filter::Cql(text) => (text.clone(), "-cql"),
            _ => (query_text::filter_text(filter), "the command line"),
        };
        if let Err(error) = Query::parse(&text) {
            return Ok(report(error, option));
        }
    }
    let header_end = file_query.header().map_or(0, |header| header.span.end);
    let text = query_text::combined(&source, header_end, &options.filters, &options.transforms);
    let query = match Query::parse(&text) {
        Ok(query) => query.with_comment_level(options.quiet, options.silent),
        Err(error) => return Ok(report(error, "the query with the command line's filters")),
    };
    if query.ast().body.is_empty() {
        bail!("{origin}: the query has no filter: CQL wants at least one after its cql(...) header");
    }
    let variant = query.variant().unwrap_or_else(Variant::standard);
    if let Err(error) = query.compile(variant) {
        return Ok(report(error, &origin));
    }
    if variant == Variant::standard()
        && let Err(error) = query.within_cql()
    {
        return Ok(report(error, &origin));
    }
    Ok(Some(query))
}

/// Prints a query's mistakes, saying where the query came from.
fn report(error: QueryError, origin: &str) -> Option<Query> {
    eprint!("{}", error.with_origin(origin));
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_files_and_their_outputs_are_named_as_in_cql() {
        assert_eq!(query_path(Path::new("dir/mates")).unwrap(), Path::new("dir/mates.cql"));
        assert_eq!(query_path(Path::new("mates.CQL")).unwrap(), Path::new("mates.CQL"));
        assert!(query_path(Path::new("mates.txt")).is_err());
        assert_eq!(default_output(Some(Path::new("dir/mates.cql"))), Path::new("mates-out.pgn"));
        assert_eq!(default_output(None), Path::new("cqldefault-out.pgn"));
    }
}
