//! `cqlq explain`: what a query means in a variant.

use std::io::Write;
use std::process::ExitCode;

use cqlq::Variant;
use cqlq::query::explain;

use super::{chosen_variant, load_query};
use crate::args::ExplainArgs;

pub fn run(args: ExplainArgs) -> anyhow::Result<ExitCode> {
    let Some(loaded) = load_query(&args.query, args.paths)? else {
        return Ok(ExitCode::from(2));
    };
    if let Some(extra) = loaded.rest.first() {
        anyhow::bail!("explain reads one query; unexpected argument {}", extra.display());
    }
    let variant = chosen_variant(&args.query, &loaded.query)?.unwrap_or_else(Variant::standard);
    let plan = match loaded.query.compile(variant) {
        Ok(plan) => plan,
        Err(error) => {
            eprint!("{}", error.with_origin(loaded.origin));
            return Ok(ExitCode::from(2));
        }
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", explain::json(&plan))?;
    } else {
        write!(out, "{}", explain::text(&loaded.query, &plan))?;
    }
    Ok(ExitCode::SUCCESS)
}
