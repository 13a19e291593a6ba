//! `cqlq completions` and `cqlq man`: shell completions and manual pages, made from the
//! command-line definitions themselves.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::CommandFactory;

use super::roff::{markdown_section, roff_of_markdown};
use crate::args::{CQL_OPTIONS, CQL_UNSUPPORTED, Cli};

/// Prints the completion script of `shell`.
pub fn completions(shell: clap_complete::Shell) -> anyhow::Result<ExitCode> {
    let mut out = io::stdout().lock();
    clap_complete::generate(shell, &mut Cli::command(), "cqlq", &mut out);
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The README, whose tour of the query language the manual pages carry.
const README: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"));

/// The topic pages that are no command: `cqlq man language`.
const LANGUAGE: &str = "language";

/// Prints the manual page of cqlq, or of one of its commands, or of the query language.
pub fn man(command: Option<&str>) -> anyhow::Result<ExitCode> {
    let mut cli = Cli::command();
    cli.build();
    let mut roff = Vec::new();
    match command {
        None => page(cli, None, &mut roff),
        Some(LANGUAGE) => language_page(&mut roff),
        Some(name) => {
            let Some(sub) = cli.find_subcommand(name) else {
                let mut names: Vec<&str> = cli.get_subcommands().map(clap::Command::get_name).collect();
                names.push(LANGUAGE);
                bail!("no manual page '{name}': there are {}", names.join(", "));
            };
            let title = format!("cqlq-{name}");
            page(sub.clone().display_name(title).bin_name(format!("cqlq {name}")), Some(name), &mut roff)
        }
    }
    .context("cannot make the manual page")?;
    let mut out = io::stdout().lock();
    out.write_all(&roff)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The manual page of cqlq (`None`) or of a command: clap's sections, then the query language
/// (on cqlq's own page), the exit status, examples, the environment and files, and where to
/// read more.
fn page(command: clap::Command, name: Option<&str>, roff: &mut Vec<u8>) -> io::Result<()> {
    let command = command.after_long_help(None::<&str>);
    let man = clap_mangen::Man::new(command.clone());
    man.render_title(roff)?;
    man.render_name_section(roff)?;
    man.render_synopsis_section(roff)?;
    man.render_description_section(roff)?;
    man.render_options_section(roff)?;
    if name == Some("cql") {
        writeln!(roff, ".SH \"CQL OPTIONS\"")?;
        for (option, meaning) in CQL_OPTIONS {
            writeln!(roff, ".TP\n\\fB{}\\fR\n{}", roff_text(option), roff_text(meaning))?;
        }
        writeln!(roff, ".PP\n{}", roff_text(CQL_UNSUPPORTED))?;
    }
    if command.has_subcommands() {
        man.render_subcommands_section(roff)?;
    }
    if name.is_none() {
        writeln!(roff, ".SH \"QUERY LANGUAGE\"")?;
        roff.extend_from_slice(roff_of_markdown(markdown_section(README, "A tour of the query language")).as_bytes());
    }
    writeln!(roff, ".SH \"EXIT STATUS\"\n{}", exit_status(name))?;
    let examples = examples(name);
    if !examples.is_empty() {
        writeln!(roff, ".SH EXAMPLES")?;
        for (what, example) in examples {
            writeln!(roff, ".PP\n{}\n.PP\n.RS 4\n.nf\n\\fB{}\\fR\n.fi\n.RE", roff_text(what), roff_text(example))?;
        }
    }
    if matches!(name, None | Some("search" | "cql" | "positions" | "convert" | "filter")) {
        writeln!(roff, ".SH ENVIRONMENT\n.TP\n\\fBTMPDIR\\fR\n{}", roff_text(TMPDIR))?;
        writeln!(roff, ".SH FILES\n{}", files(name))?;
    }
    writeln!(roff, ".SH \"SEE ALSO\"\n{}", see_also(name))?;
    man.render_version_section(roff)
}

/// The page of the query language: the README's tour.
fn language_page(roff: &mut Vec<u8>) -> io::Result<()> {
    writeln!(roff, ".TH cqlq\\-language 7 \"\" \"cqlq {}\"", env!("CARGO_PKG_VERSION"))?;
    writeln!(roff, ".SH NAME\ncqlq\\-language \\- the query language of cqlq, CQL 6.2 on boards from 8x8 to 26x26")?;
    writeln!(roff, ".SH DESCRIPTION")?;
    roff.extend_from_slice(roff_of_markdown(markdown_section(README, "A tour of the query language")).as_bytes());
    writeln!(roff, ".SH \"SEE ALSO\"\n\\fBcqlq\\fR(1), \\fBcqlq\\-explain\\fR(1), \\fBcqlq\\-search\\fR(1)")
}

/// What `TMPDIR` is for.
const TMPDIR: &str = "Where a search that sorts the games it finds (a query with sort) keeps those that do \
    not fit in memory, in a file without a name. The folder of the system's temporary files when not set.";

/// The exit status of cqlq or of a command, as roff.
fn exit_status(name: Option<&str>) -> String {
    let statuses: &[(u8, &str)] = match name {
        Some("search" | "cql" | "filter") | None => &[
            (0, "Something matched."),
            (1, "Nothing matched."),
            (2, "The query, an input or an output could not be read or written, or no game could be read at all."),
        ],
        Some("positions" | "convert") => &[
            (0, "Games were read and written."),
            (1, "No game was written."),
            (2, "An input or an output could not be read or written, or no game could be read at all."),
        ],
        Some(_) => &[(0, "Done."), (2, "The query, a position or an argument was wrong, or the output failed.")],
    };
    let mut roff = String::new();
    for (status, meaning) in statuses {
        roff.push_str(&format!(".TP\n\\fB{status}\\fR\n{}\n", roff_text(meaning)));
    }
    roff.push_str(".PP\nA closed pipe (as with head) ends a command quietly, with status 0.");
    roff
}

/// Examples of cqlq or of a command: what each does, and the command.
fn examples(name: Option<&str>) -> Vec<(&'static str, &'static str)> {
    match name {
        None | Some("search") => vec![
            (
                "A white rook on the seventh rank with the black king on the eighth, in the sample games:",
                "cqlq search -c 'Ra-h7 ka-h8' samples/games/classics.pgn",
            ),
            (
                "How many games of a compressed database have a queen on h7 beside the king on g8:",
                "cqlq search -c 'flipcolor {Qh7 kg8}' --count games.pgn.zst",
            ),
            (
                "The games found, as JSON lines, and every problem of the inputs in a file:",
                "cqlq search --format jsonl --errors problems.jsonl queries/greek-gift.cql *.pgn",
            ),
        ],
        Some("cql") => vec![
            ("A query file run as CQL 6.2 runs it; the games go to mates-out.pgn:", "cqlq cql -i games.pgn mates.cql"),
            (
                "Filters and a transform given on the command line:",
                "cqlq cql -i games.pgn -cql 'Qh7 kg8' -flipcolor mates.cql",
            ),
        ],
        Some("filter") => vec![
            ("The positions of a suite where White has two bishops:", "cqlq filter -c '#B >= 2' positions.epd"),
            (
                "Croatian Chess setup strings with a Starchild, counted:",
                "cqlq filter --count -c 'I' samples/positions/croatian.txt",
            ),
        ],
        Some("positions") => vec![(
            "Every position of the sample games as EPD, which cqlq filter reads back:",
            "cqlq positions --format epd samples/games/classics.pgn",
        )],
        Some("convert") => {
            vec![
                ("X-Decor's move table written as PGN:", "cqlq convert --to pgn samples/games/xdecor-table.txt"),
                (
                    "Croatian Chess games in the long notation, in the current edition's symbols:",
                    "cqlq convert --to long --to-edition current samples/games/crochess-effects.pgn",
                ),
            ]
        }
        Some("explain") => vec![
            (
                "The squares of a designator on the board of Croatian Ties:",
                "cqlq explain -c '[D1]' --variant 'Croatian Ties'",
            ),
            ("A query beside a position reached by moves:", "cqlq explain -c 'Q attacks k' --after 'e4 e5 Qh5'"),
        ],
        Some(_) => Vec::new(),
    }
}

/// The files cqlq or a command writes besides its output, as roff.
fn files(name: Option<&str>) -> String {
    let mut roff = String::from(
        ".TP\n\\fB.NAME.cqlq\\-HOST\\-PID\\-N.tmp\\fR\nAn output file (\\fB\\-o NAME\\fR, \\fB\\-\\-errors NAME\\fR) \
         while it is written, beside it; renamed to NAME when the run ends well, removed when it fails or \
         is interrupted, and by the next run to NAME after a crash.\n",
    );
    if matches!(name, None | Some("cql")) {
        roff.push_str(
            ".TP\n\\fBQUERY\\-out.pgn\\fR\nWhere \\fBcqlq cql\\fR writes the games found, in the \
            current folder, unless \\fB\\-o\\fR or the query's header names another file, as CQL 6.2 does.\n",
        );
    }
    roff
}

/// The pages to read next, as roff.
fn see_also(name: Option<&str>) -> String {
    let mut pages = vec!["\\fBcqlq\\-language\\fR(7)".to_owned()];
    if name.is_some() {
        pages.insert(0, "\\fBcqlq\\fR(1)".to_owned());
    } else {
        pages.extend(["search", "filter", "cql", "explain"].map(|name| format!("\\fBcqlq\\-{name}\\fR(1)")));
    }
    format!("{}.\n.PP\nThe README of cqlq, and CQL 6.2's documentation for the language it extends.", pages.join(", "))
}

/// Text for roff: backslashes and dashes escaped, no line starting with a control character.
fn roff_text(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with(['.', '\'']) { format!("\\&{escaped}") } else { escaped }
}
