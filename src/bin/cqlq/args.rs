//! Command-line arguments.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// cqlq: find chess positions with a CQL-style query language, from 8x8 to 26x26 boards.
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
    /// Print the lines of positions (FEN, EPD, setup strings, Setup Notation) that match a query.
    #[command(override_usage = "cqlq filter [OPTIONS] (QUERY-FILE | -c TEXT) [INPUT]...")]
    Filter(FilterArgs),
    /// Show what a query means in a variant: its parts, its letters and its squares.
    #[command(override_usage = "cqlq explain [OPTIONS] (QUERY-FILE | -c TEXT)")]
    Explain(ExplainArgs),
    /// List the variants, with their boards and piece letters.
    Variants,
}

/// Where the query comes from.
#[derive(Debug, Args)]
pub struct QueryArgs {
    /// The query as text instead of a query file.
    #[arg(short = 'c', long = "query", value_name = "TEXT")]
    pub text: Option<String>,
    /// The variant to compile the query for (default: the query's `variant`, else sniffed from
    /// each position, or Standard).
    #[arg(long, value_name = "VARIANT")]
    pub variant: Option<String>,
}

/// `cqlq filter`.
#[derive(Debug, Args)]
pub struct FilterArgs {
    #[command(flatten)]
    pub query: QueryArgs,
    /// Print only the number of matching positions.
    #[arg(long)]
    pub count: bool,
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
    /// Print JSON: {"variant": NAME, "designators": [{"text", "squares", "backhand"}]}.
    #[arg(long)]
    pub json: bool,
    /// The query file (unless -c is given).
    #[arg(value_name = "QUERY-FILE")]
    pub paths: Vec<PathBuf>,
}
