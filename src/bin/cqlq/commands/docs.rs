//! `cqlq completions` and `cqlq man`: shell completions and manual pages, made from the
//! command-line definitions themselves.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::CommandFactory;

use crate::args::{CQL_OPTIONS, CQL_UNSUPPORTED, Cli};

/// Prints the completion script of `shell`.
pub fn completions(shell: clap_complete::Shell) -> anyhow::Result<ExitCode> {
    let mut out = io::stdout().lock();
    clap_complete::generate(shell, &mut Cli::command(), "cqlq", &mut out);
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Prints the manual page of cqlq, or of one of its commands.
pub fn man(command: Option<&str>) -> anyhow::Result<ExitCode> {
    let mut cli = Cli::command();
    cli.build();
    let page = match command {
        None => cli,
        Some(name) => {
            let Some(sub) = cli.find_subcommand(name) else {
                let names: Vec<&str> = cli.get_subcommands().map(clap::Command::get_name).collect();
                bail!("no command '{name}': the commands are {}", names.join(", "));
            };
            let title = format!("cqlq-{name}");
            sub.clone().display_name(title).bin_name(format!("cqlq {name}"))
        }
    };
    let mut roff = Vec::new();
    if command == Some("cql") {
        cql_page(page, &mut roff).context("cannot make the manual page")?;
    } else {
        clap_mangen::Man::new(page).render(&mut roff).context("cannot make the manual page")?;
    }
    let mut out = io::stdout().lock();
    out.write_all(&roff)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The manual page of `cqlq cql`, whose options, read as CQL reads them, clap does not know:
/// they are listed in a section of their own.
fn cql_page(page: clap::Command, roff: &mut Vec<u8>) -> io::Result<()> {
    let man = clap_mangen::Man::new(page.after_long_help(None::<&str>));
    man.render_title(roff)?;
    man.render_name_section(roff)?;
    man.render_synopsis_section(roff)?;
    man.render_description_section(roff)?;
    man.render_options_section(roff)?;
    writeln!(roff, ".SH \"CQL OPTIONS\"")?;
    for (option, meaning) in CQL_OPTIONS {
        writeln!(roff, ".TP\n\\fB{}\\fR\n{}", roff_text(option), roff_text(meaning))?;
    }
    writeln!(roff, ".PP\n{}", roff_text(CQL_UNSUPPORTED))?;
    man.render_version_section(roff)
}

/// Text for roff: backslashes and dashes escaped, no line starting with a control character.
fn roff_text(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with(['.', '\'']) { format!("\\&{escaped}") } else { escaped }
}
