//! Command-line arguments.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use cqlq::notation::Container;
use cqlq::rules::formats::{container_by_name, container_names};
use cqlq::variant::Edition;

/// Find chess positions with a CQL-style query language, on boards from 8x8 to 26x26.
#[derive(Debug, Parser)]
#[command(name = "cqlq", version, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Search game collections (PGN, X-Decor) and write the games with a position that matches.
    #[command(override_usage = "cqlq search [OPTIONS] (QUERY-FILE | -c TEXT) [INPUT]...")]
    Search(SearchArgs),
    /// Print the lines of positions (FEN, EPD, setup strings, Setup Notation) that match a query.
    #[command(override_usage = "cqlq filter [OPTIONS] (QUERY-FILE | -c TEXT) [INPUT]...")]
    Filter(FilterArgs),
    /// Run a query with CQL 6.2's command line, and write the games found as CQL writes them.
    #[command(
        override_usage = "cqlq cql [CQL OPTIONS] [QUERY.cql]",
        disable_help_flag = true,
        disable_version_flag = true,
        long_about = CQL_ABOUT,
        after_long_help = cql_options_help()
    )]
    Cql(CqlArgs),
    /// Print every position of every game, one a line: GAME, PLY, POSITION (or JSON, EPD).
    #[command(override_usage = "cqlq positions [OPTIONS] [INPUT]...")]
    Positions(PositionsArgs),
    /// Write games in another notation: PGN, the X-Decor move table, X-Decor's moves_raw.
    #[command(override_usage = "cqlq convert --to NOTATION [OPTIONS] [INPUT]...")]
    Convert(ConvertArgs),
    /// Show what a query means in a variant: its parts, its letters and its squares.
    #[command(override_usage = "cqlq explain [OPTIONS] (QUERY-FILE | -c TEXT)")]
    Explain(ExplainArgs),
    /// List the variants, with their boards and piece letters.
    Variants,
    /// Print a completion script for a shell (bash, zsh, fish, elvish, powershell).
    #[command(after_help = "Example: cqlq completions bash > /etc/bash_completion.d/cqlq")]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page in roff, of cqlq, of one of its commands, or of the query language.
    #[command(after_help = "Example: cqlq man search | man -l -")]
    Man {
        /// The command (search, cql, filter, positions, convert, explain, variants), or
        /// `language` for the query language; cqlq itself when none is given.
        command: Option<String>,
    },
}

/// `cqlq cql`: its arguments are read as CQL 6.2 reads them (see `commands/cql`).
#[derive(Debug, Args)]
pub struct CqlArgs {
    /// CQL 6.2's options, as CQL spells them, and the query file.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, value_name = "ARGUMENTS")]
    pub args: Vec<OsString>,
}

/// What `cqlq cql` is.
const CQL_ABOUT: &str = "\
Run a query with CQL 6.2's command line, and write the games found as CQL writes them.

With `alias cql='cqlq cql'`, scripts written for CQL 6.2 run unchanged: the same options, \
spelled with one dash, the same query files, the same output file (QUERY-out.pgn in the \
current folder unless -o or the query's header names one), the games written in CQL's style \
(its order of tags, `1.e4 e5 2.Nf3`, `{Game number N}`, `{CQL}` after each move that reaches \
a matched position), and the same closing line on standard output: `N matches of M games in \
T seconds using K threads to FILE`. The query file's name may leave out `.cql`. Options on \
the command line win over the parameters of the query's cql(...) header.";

/// CQL 6.2's options as `cqlq cql` reads them (two dashes are accepted too): how each is
/// written, and what it does. Its help and its manual page list them.
pub const CQL_OPTIONS: [(&str, &str); 24] = [
    ("-i, -input FILE", "the PGN file to search (- is standard input)"),
    ("-o, -output FILE", "where the games found go (- is standard output); QUERY-out.pgn by default"),
    ("-matchcount N [M]", "games with N to M matched positions (N alone: exactly N)"),
    ("-g, -gamenumber N [M]", "only games N to M (N alone: game N)"),
    ("-threads N", "N threads, at most the machine's cores (all of them by default)"),
    ("-s, -singlethreaded", "one thread"),
    ("-mainline", "only the main line, whatever the header says"),
    ("-variations", "the positions of variations too"),
    ("-matchstring TEXT", "the comment after each move that reaches a matched position (CQL)"),
    ("-silent", "no comment of CQL's: no game number, no marks"),
    ("-quiet", "no marks, the game numbers kept"),
    ("-noheader", "no {Game number N} comment"),
    ("-showmatches", "<N> on the console for each game found"),
    ("-lineincrement N", "a count on the console every N games (10000), a dot each tenth of that"),
    ("-outputbuffersize N", "each game found is written in N bytes (105000), a longer one cut as CQL cuts it"),
    ("-player, -white, -black, -event, -site NAME", "the tag holds NAME (case-sensitive)"),
    ("-year N [M]", "the year of the Date tag is N (to M)"),
    ("-result R", "the result is R: 1-0, 0-1 or 1/2-1/2"),
    ("-fen FEN", "the board is the FEN's (its other fields are ignored)"),
    ("-cql FILTERS", "filters of the query language, to match at the same position as the body"),
    ("-similarposition [nosort] [notransform] F", "similarposition \"F\": the position is one of F's games'"),
    ("-flip, -flipcolor, -shift", "the transform around the body and the filters above"),
    ("-nosettag, -noremovecomment", "settag gives no tags; removecomment removes no comment"),
    ("-help, -version", "this help; the version"),
];

/// What `cqlq cql` says of the options of CQL 6.2 it refuses.
pub const CQL_UNSUPPORTED: &str = "Not supported (an error says so): -a, -u, -html, -hhdb, -vi, \
-parse, -reversecolor.";

/// An example of `cqlq cql`.
const CQL_EXAMPLE: &str = "Example: cqlq cql -i games.pgn -cql 'Qh7 kg8' -flipcolor mates.cql";

/// The options of `cqlq cql` for its help, in lines of at most `columns` characters: each
/// option, and its meaning beside it, whose lines go on under its first.
pub fn cql_options_help_in(columns: usize) -> String {
    let width = CQL_OPTIONS.iter().map(|(option, _)| option.chars().count()).max().unwrap_or(0);
    let mut help = wrapped("Options (as CQL 6.2 spells them; two dashes are accepted too):", 0, columns);
    for (option, meaning) in CQL_OPTIONS {
        // Too narrow for the two columns: the meaning goes under its option.
        let indent = if columns >= width + 24 { width + 4 } else { 6 };
        let mut lines = wrapped(meaning, indent, columns);
        let head = format!("  {option:width$}  ");
        if indent == width + 4 {
            lines.replace_range(..indent, &head);
        } else {
            lines.insert_str(0, &format!("  {option}\n"));
        }
        help.push_str(&lines);
    }
    let unsupported = wrapped(CQL_UNSUPPORTED, 0, columns);
    let example = wrapped(CQL_EXAMPLE, 0, columns);
    format!("{help}\n{unsupported}\n{example}")
}

/// The options of `cqlq cql` for its manual page, in lines of 100 characters.
fn cql_options_help() -> String {
    cql_options_help_in(100)
}

/// `text` in lines of at most `columns` characters (a word longer than that alone on its line),
/// each line `indent` spaces in, each ending with a newline.
fn wrapped(text: &str, indent: usize, columns: usize) -> String {
    let room = columns.saturating_sub(indent).max(20);
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > room {
            out.push_str(&format!("{}{line}\n", " ".repeat(indent)));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&format!("{}{line}\n", " ".repeat(indent)));
    out
}

/// Where the query comes from.
#[derive(Debug, Args)]
pub struct QueryArgs {
    /// The query as text instead of a query file.
    #[arg(short = 'c', long = "query", value_name = "TEXT")]
    pub text: Option<String>,
    /// The variant of the positions (default: the query's `variant`; else each position's own,
    /// sniffed from a position line or read from a game's `Variant` tag; else Standard).
    #[arg(long, value_name = "VARIANT")]
    pub variant: Option<String>,
    /// The edition of the Croatian Chess book that games without an `Edition` tag follow:
    /// 2020 (the default) or current.
    #[arg(long, value_name = "EDITION", value_parser = parse_edition)]
    pub edition: Option<Edition>,
}

/// `cqlq search`.
#[derive(Debug, Args)]
pub struct SearchArgs {
    #[command(flatten)]
    pub query: QueryArgs,
    /// How to write the matching games.
    #[arg(long, value_enum, default_value_t = Format::Pgn)]
    pub format: Format,
    /// Print only one line: games matched, positions, games read, games with errors (to the
    /// output file with -o).
    #[arg(long)]
    pub count: bool,
    /// Write the matching games to this file (`-` is standard output), as the shell's `>`
    /// would (through links, to pipes and devices), but a regular file is replaced only when
    /// the search ends well, keeping its mode and owner; an input cannot be the output.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// A game matches when at least N of its positions match (and at most M); 0 takes games
    /// where no position matches too, and 0-0 only those.
    #[arg(long, value_name = "N[-M]", value_parser = parse_range)]
    pub matchcount: Option<(u64, Option<u64>)>,
    /// Only game N, or games N to M (counted from 1 over all inputs).
    #[arg(short = 'g', long, value_name = "N[-M]", value_parser = parse_game_numbers)]
    pub gamenumber: Option<(u64, Option<u64>)>,
    /// Stop after N matching games (1 or more).
    #[arg(long, value_name = "N", value_parser = parse_limit)]
    pub limit: Option<u64>,
    /// The comment that marks matched positions (default: CQL).
    #[arg(long, value_name = "TEXT")]
    pub matchstring: Option<String>,
    /// Search the positions of variations too.
    #[arg(long)]
    pub variations: bool,
    /// The number of threads, 1 or more (default and most: the cores of the machine).
    #[arg(short = 'j', long, value_name = "N", value_parser = parse_threads)]
    pub threads: Option<u64>,
    /// Write every game that could not be replayed to its end to this file, as JSON lines.
    #[arg(long, value_name = "FILE")]
    pub errors: Option<PathBuf>,
    /// Print nothing on standard error but errors: no summary, no progress.
    #[arg(short = 'q', long)]
    pub quiet: bool,
    /// How the inputs hold games: pgn, xdecor (the X-Decor move table), xdecor-raw (its
    /// moves_raw records), laser (Laser Chess move lists, a game a line). Default: what their
    /// first bytes look like.
    #[arg(long, value_name = "NOTATION", value_parser = notation_parser(), ignore_case = true)]
    pub notation: Option<Container>,
    /// The query file (unless -c is given), then the game files ('-' or none: standard input;
    /// .zst and .gz are decompressed).
    #[arg(value_name = "QUERY-FILE | INPUT")]
    pub paths: Vec<PathBuf>,
}

/// The options of the commands that read games without a query: which games, how many
/// threads, where problems go.
#[derive(Debug, Args)]
pub struct GameArgs {
    /// How the inputs hold games: pgn, xdecor (the X-Decor move table), xdecor-raw (its
    /// moves_raw records), laser (Laser Chess move lists, a game a line). Default: what their
    /// first bytes look like.
    #[arg(long, value_name = "NOTATION", value_parser = notation_parser(), ignore_case = true)]
    pub notation: Option<Container>,
    /// The variant of games that name none (in PGN, with no Variant tag).
    #[arg(long, value_name = "VARIANT")]
    pub variant: Option<String>,
    /// The edition of the Croatian Chess book that games without an `Edition` tag follow:
    /// 2020 (the default) or current.
    #[arg(long, value_name = "EDITION", value_parser = parse_edition)]
    pub edition: Option<Edition>,
    /// Write to this file (`-` is standard output), as the shell's `>` would (through links,
    /// to pipes and devices), but a regular file is replaced only when the run ends well,
    /// keeping its mode and owner; an input cannot be the output.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Only game N, or games N to M (counted from 1 over all inputs).
    #[arg(short = 'g', long, value_name = "N[-M]", value_parser = parse_game_numbers)]
    pub gamenumber: Option<(u64, Option<u64>)>,
    /// Stop after N games (1 or more).
    #[arg(long, value_name = "N", value_parser = parse_limit)]
    pub limit: Option<u64>,
    /// The number of threads, 1 or more (default and most: the cores of the machine).
    #[arg(short = 'j', long, value_name = "N", value_parser = parse_threads)]
    pub threads: Option<u64>,
    /// Write every game that could not be read to its end to this file, as JSON lines.
    #[arg(long, value_name = "FILE")]
    pub errors: Option<PathBuf>,
    /// Print nothing on standard error but errors: no summary, no progress.
    #[arg(short = 'q', long)]
    pub quiet: bool,
    /// The game files ('-' or none: standard input; .zst and .gz are decompressed).
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
}

/// `cqlq positions`.
#[derive(Debug, Args)]
pub struct PositionsArgs {
    /// How each position is written: tsv (GAME, PLY, POSITION), jsonl, or epd (with id and
    /// ply, and c0/c1 as pgn-extract -Wepd writes them).
    #[arg(long, value_enum, default_value_t = PositionsFormatArg::Tsv)]
    pub format: PositionsFormatArg,
    #[command(flatten)]
    pub games: GameArgs,
}

/// The formats of `cqlq positions`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PositionsFormatArg {
    /// GAME<TAB>PLY<TAB>POSITION, the position in its variant's own string.
    Tsv,
    /// {"game": N, "ply": P, "position": "..."}.
    Jsonl,
    /// EPD with id "game N ply P".
    Epd,
}

/// `cqlq convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// The notation to write.
    #[arg(long, value_enum)]
    pub to: TargetArg,
    /// The edition of the Croatian Chess book the short or long notation is written in: 2020
    /// or current (default: each game's own). A game converts where each of its moves means
    /// the same in both.
    #[arg(long, value_name = "EDITION", value_parser = parse_edition)]
    pub to_edition: Option<Edition>,
    #[command(flatten)]
    pub games: GameArgs,
}

/// The notations of `cqlq convert --to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TargetArg {
    /// PGN with SAN (Seven Tag Roster, an Annotator tag saying where a game came from).
    Pgn,
    /// The X-Decor move table as the mod shows it: figurines, en dashes, the multiplication sign.
    Xdecor,
    /// The X-Decor move table in ASCII letters, as a person types it (Ng1-f3, O-O).
    XdecorLetters,
    /// X-Decor's moves_raw record, one game a line.
    XdecorRaw,
    /// The game's own notation, short (Croatian Chess: Nf3, each start only as far as it is
    /// needed), in PGN.
    Short,
    /// The game's own notation, long (Croatian Chess: Ng1-f3, every start written), in PGN.
    Long,
}

/// Reads the name of a notation's way of holding games: one of [`container_names`] (`san`
/// for `pgn` too), whatever its case.
fn notation_parser() -> impl clap::builder::TypedValueParser<Value = Container> {
    let names = container_names().into_iter().map(|name| {
        let value = clap::builder::PossibleValue::new(name);
        if name == "pgn" { value.alias("san") } else { value }
    });
    let parser = clap::builder::PossibleValuesParser::new(names);
    clap::builder::TypedValueParser::map(parser, |name: String| {
        container_by_name(&name).expect("a name of the notations' list")
    })
}

/// Output formats of `cqlq search`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The games as written, matched positions marked with a comment.
    Pgn,
    /// One JSON object per game.
    Jsonl,
}

/// Reads a number of 1 or more; `zero` says why 0 is refused.
fn positive(text: &str, zero: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err(zero.to_owned()),
        Ok(number) => Ok(number),
        Err(_) => Err(format!("'{text}' is not a number")),
    }
}

fn parse_edition(text: &str) -> Result<Edition, String> {
    Edition::by_name(text).ok_or_else(|| format!("'{text}' is no edition of the book: give 2020 or current"))
}

fn parse_limit(text: &str) -> Result<u64, String> {
    positive(text, "a limit of 0 games would write nothing: give 1 or more")
}

fn parse_threads(text: &str) -> Result<u64, String> {
    positive(text, "a search needs at least 1 thread")
}

/// Reads game numbers: `N` or `N-M`, from 1.
fn parse_game_numbers(text: &str) -> Result<(u64, Option<u64>), String> {
    let range = parse_range(text)?;
    if range.0 == 0 {
        return Err("games are numbered from 1".to_owned());
    }
    Ok(range)
}

/// Reads `N` or `N-M`.
fn parse_range(text: &str) -> Result<(u64, Option<u64>), String> {
    let number = |part: &str| part.trim().parse::<u64>().map_err(|_| format!("'{part}' is not a number"));
    match text.split_once('-') {
        None => Ok((number(text)?, None)),
        Some((low, high)) => {
            let (low, high) = (number(low)?, number(high)?);
            if high < low {
                return Err(format!("the range {low}-{high} runs backwards"));
            }
            Ok((low, Some(high)))
        }
    }
}

/// `cqlq filter`.
#[derive(Debug, Args)]
pub struct FilterArgs {
    #[command(flatten)]
    pub query: QueryArgs,
    /// Print only the number of matching positions (to the output file with -o).
    #[arg(long)]
    pub count: bool,
    /// Write the matching lines to this file (`-` is standard output), as the shell's `>`
    /// would (through links, to pipes and devices), but a regular file is replaced only when
    /// the run ends well, keeping its mode and owner; an input cannot be the output.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Stop after N matching lines (1 or more).
    #[arg(long, value_name = "N", value_parser = parse_limit)]
    pub limit: Option<u64>,
    /// The number of threads, 1 or more (default and most: the cores of the machine).
    #[arg(short = 'j', long, value_name = "N", value_parser = parse_threads)]
    pub threads: Option<u64>,
    /// Write every line that is no position to this file, as JSON lines.
    #[arg(long, value_name = "FILE")]
    pub errors: Option<PathBuf>,
    /// Print nothing on standard error but errors: no summary.
    #[arg(short = 'q', long)]
    pub quiet: bool,
    /// The query file (unless -c is given), then the files of positions ('-' or none: standard
    /// input).
    #[arg(value_name = "QUERY-FILE | INPUT")]
    pub paths: Vec<PathBuf>,
}

/// `cqlq explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    #[command(flatten)]
    pub query: QueryArgs,
    /// Print JSON: {"variant": NAME, "designators": [{"text", "squares", "backhand"}]}, and
    /// "position": {"written", "diagram", "matches"} when a position is shown.
    #[arg(long)]
    pub json: bool,
    /// Show a position beside the query, drawn (in Laser Chess with each laser's beam) and
    /// tested with it: a line as `cqlq filter` reads it (default: the variant's initial
    /// position, which Laser Chess queries always show).
    #[arg(long, value_name = "LINE")]
    pub position: Option<String>,
    /// Moves played from that position first, in the variant's own notation, separated by
    /// spaces: `--after "e4 e5"`, `--after "j4j3 a5a4"`.
    #[arg(long, value_name = "MOVES")]
    pub after: Option<String>,
    /// The query file (unless -c is given).
    #[arg(value_name = "QUERY-FILE")]
    pub paths: Vec<PathBuf>,
}

#[cfg(test)]
mod cql_help_tests {
    use super::*;

    /// At any width, each line of the table fits, and the lines of a meaning go on under its
    /// first line: never from the left margin.
    #[test]
    fn the_cql_options_wrap_under_their_column() {
        for columns in [50, 60, 80, 100, 120] {
            let help = cql_options_help_in(columns);
            for line in help.lines() {
                assert!(line.chars().count() <= columns, "{columns}: {line:?}");
            }
            let table = help.lines().skip_while(|line| !line.starts_with("  -")).take_while(|line| !line.is_empty());
            for line in table {
                assert!(line.starts_with("  "), "{columns}: {line:?} starts at the margin");
            }
            for (option, _) in CQL_OPTIONS {
                assert!(help.contains(option), "{columns}: {option}");
            }
        }
    }
}
