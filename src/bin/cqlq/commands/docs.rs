//! `cqlq completions` and `cqlq man`: shell completions and manual pages, made from the
//! command-line definitions themselves.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::CommandFactory;

use crate::args::Cli;

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
    clap_mangen::Man::new(page).render(&mut roff).context("cannot make the manual page")?;
    let mut out = io::stdout().lock();
    out.write_all(&roff)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
