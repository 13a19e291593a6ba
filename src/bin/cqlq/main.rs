//! The `cqlq` command: a thin layer over the library.

mod args;
mod commands;
mod line_blocks;
mod output;
mod progress;
mod signals;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    match commands::run(cli) {
        Ok(code) => code,
        Err(error) if commands::is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            commands::note(format_args!("{error:#}"));
            ExitCode::from(2)
        }
    }
}
