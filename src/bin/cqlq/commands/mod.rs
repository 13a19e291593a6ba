//! The subcommands, and what they share: reading the query and choosing the variant.

mod cql;
mod docs;
mod explain;
mod filter;
mod games;
mod roff;
pub(crate) mod search;
mod variants;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, anyhow, bail};
use cqlq::notation::Container;
use cqlq::rules::formats::sniff_container;
use cqlq::search::describe;
use cqlq::{Query, Variant};

use crate::args::{Cli, Command, QueryArgs};

/// Runs a command; the exit code says whether something matched (0), nothing did (1), or the
/// query or an input could not be read (2).
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Search(args) => search::run(args),
        Command::Filter(args) => filter::run(args),
        Command::Cql(args) => Ok(cql::run_as_cql(args)),
        Command::Positions(args) => games::positions(args),
        Command::Convert(args) => games::convert(args),
        Command::Explain(args) => explain::run(args),
        Command::Variants => variants::run(),
        Command::Completions { shell } => docs::completions(shell),
        Command::Man { command } => docs::man(command.as_deref()),
    }
}

/// A query read from `-c TEXT` or from the first path, where it came from (for messages), and
/// the paths left over.
pub struct LoadedQuery {
    pub query: Query,
    pub origin: String,
    pub rest: Vec<PathBuf>,
}

impl LoadedQuery {
    /// Shows on standard error what may make the query slow, if anything.
    pub fn warn(&self) {
        if let Some(warnings) = self.query.warnings() {
            eprint!("{}", warnings.with_origin(&self.origin));
        }
    }
}

/// Reads and checks the query. On a bad query, prints every mistake and returns `None`.
pub fn load_query(args: &QueryArgs, mut paths: Vec<PathBuf>) -> anyhow::Result<Option<LoadedQuery>> {
    let (text, origin) = match &args.text {
        Some(text) => (text.clone(), "-c".to_owned()),
        None => {
            if paths.is_empty() {
                bail!("no query: give a query file or -c TEXT");
            }
            let path = paths.remove(0);
            let text = read_query_file(&path)?;
            (text, path.display().to_string())
        }
    };
    let variant = variant_in_edition(args.variant.as_deref(), args.edition)?;
    match Query::parse_for(&text, variant) {
        Ok(query) => Ok(Some(LoadedQuery { query, origin, rest: paths })),
        Err(_) if looks_like_games(&text) => {
            let what = if args.text.is_some() { "the text of -c".to_owned() } else { origin };
            bail!(
                "{what} looks like a file of games, not a query: the query comes first, then the files to \
                 read (or give the query with -c TEXT)"
            );
        }
        Err(error) => {
            eprint!("{}", error.with_origin(origin));
            Ok(None)
        }
    }
}

/// Whether a text that is no query holds games: it starts with a PGN tag pair
/// (`[Event "..."]`), or it is in a native format of games.
fn looks_like_games(text: &str) -> bool {
    let first = text.trim_start_matches('\u{feff}').trim_start();
    let tag = first.strip_prefix('[').is_some_and(|rest| {
        let name = rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
        name.len() < rest.len() && name.trim_start().starts_with('"')
    });
    tag || matches!(sniff_container(text.as_bytes()), Container::Native(_))
}

/// The text of a query file.
fn read_query_file(path: &Path) -> anyhow::Result<String> {
    let bytes = std::fs::read(path)
        .map_err(|error| anyhow!("cannot read the query file {}: {}", path.display(), describe(&error)))?;
    String::from_utf8(bytes).with_context(|| format!("the query file {} is not UTF-8 text", path.display()))
}

/// Says so when the games asked for (`-g N[-M]`) run past the last game of the inputs.
pub fn note_games_past_the_end(gamenumber: Option<(u64, Option<u64>)>, games: u64) {
    let Some((first, last)) = gamenumber else { return };
    let last = last.unwrap_or(first);
    let holds = counted(games, "game", "games");
    if first > games {
        note(format_args!("-g {first}: there is no game {first}, the input holds {holds}"));
    } else if last > games {
        note(format_args!("-g {first}-{last}: the input holds {holds}, so the range ends past its last game"));
    }
}

/// Says so where standard input is one of the inputs and is a terminal: cqlq waits for what is
/// typed there, which is seldom what was meant. True when it does (then no progress line is
/// drawn over what is typed).
pub fn hint_when_reading_a_terminal(inputs: &[PathBuf]) -> bool {
    use std::io::IsTerminal;
    let reads_terminal = inputs.iter().any(|input| input.as_os_str() == "-") && std::io::stdin().is_terminal();
    if reads_terminal {
        note(format_args!(
            "reading standard input from the terminal: type or paste the input and end it with Ctrl-D, or give \
             files to read"
        ));
    }
    reads_terminal
}

/// `count` and the words for one or more: `1 game`, `2 games`.
pub fn counted(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// Writes `cqlq: message` on standard error; a standard error that cannot be written to is
/// no reason to stop.
pub fn note(message: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "cqlq: {message}");
}

/// The threads to run on: as many as asked for (with `option`), at most the machine's cores
/// (saying so when more were asked for); all the cores by default.
pub fn thread_count(requested: Option<u64>, option: &str) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    match requested {
        None => cores,
        Some(asked) if asked > cores as u64 => {
            let plural = if cores == 1 { "" } else { "s" };
            note(format_args!(
                "{option} {asked}: this machine has {cores} core{plural}, so {cores} thread{plural} are used"
            ));
            cores
        }
        Some(asked) => asked as usize,
    }
}

/// The variant named on the command line, else in the query's header; in the edition asked
/// for.
pub fn chosen_variant(args: &QueryArgs, query: &Query) -> anyhow::Result<Option<&'static Variant>> {
    match &args.variant {
        Some(name) => variant_in_edition(Some(name), args.edition),
        None => Ok(query
            .variant()
            .map(|variant| args.edition.and_then(|edition| variant.in_edition(edition)).unwrap_or(variant))),
    }
}

/// The variant `--variant` names, in the edition `--edition` names where it has editions.
pub fn variant_in_edition(
    name: Option<&str>,
    edition: Option<cqlq::variant::Edition>,
) -> anyhow::Result<Option<&'static Variant>> {
    let Some(variant) = name.map(Variant::by_name).transpose()? else { return Ok(None) };
    match edition {
        Some(edition) if variant.edition().is_some() => Ok(variant.in_edition(edition)),
        Some(_) => anyhow::bail!("{} has one edition only: --edition is for Croatian Chess", variant.name),
        None => Ok(Some(variant)),
    }
}

/// Whether an error is a closed pipe on the way out (`cqlq ... | head`): not worth a word.
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
