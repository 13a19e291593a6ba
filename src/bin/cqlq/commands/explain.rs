//! `cqlq explain`: what a query means in a variant.

use std::io::Write;
use std::process::ExitCode;

use cqlq::query::explain;
use cqlq::rules::read_position;
use cqlq::{AnyPosition, Variant};

use super::{chosen_variant, load_query};
use crate::args::ExplainArgs;

pub fn run(args: ExplainArgs) -> anyhow::Result<ExitCode> {
    let Some(loaded) = load_query(&args.query, args.paths)? else {
        return Ok(ExitCode::from(2));
    };
    if let Some(extra) = loaded.rest.first() {
        anyhow::bail!("explain reads one query; unexpected argument {}", extra.display());
    }
    loaded.warn();
    let chosen = chosen_variant(&args.query, &loaded.query)?;
    // A position line names its variant where neither --variant nor the query does, as in
    // `cqlq filter`: a Croatian Chess setup string, Laser Chess Setup Notation, a CEO position.
    let given = args.position.as_deref().map(|line| read_position(line, chosen)).transpose()?;
    let variant = chosen.or(given.as_ref().map(AnyPosition::variant)).unwrap_or_else(Variant::standard);
    let plan = match loaded.query.compile(variant) {
        Ok(plan) => plan,
        Err(error) => {
            eprint!("{}", error.with_origin(loaded.origin));
            return Ok(ExitCode::from(2));
        }
    };
    let moves: Vec<&str> = args.after.as_deref().map_or_else(Vec::new, |after| after.split_whitespace().collect());
    let show_position = args.position.is_some() || !moves.is_empty() || variant.capabilities.lasers;
    let shown = if show_position {
        let position = given.unwrap_or_else(|| AnyPosition::initial(variant));
        match cqlq::rules::explain_position(&plan, &position, &moves) {
            Ok(shown) => Some(shown),
            Err(error) => {
                eprintln!("error: {error}");
                return Ok(ExitCode::from(2));
            }
        }
    } else {
        None
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        let mut json = explain::json(&plan);
        if let Some(shown) = &shown {
            json["position"] = shown.json();
        }
        writeln!(out, "{json}")?;
    } else {
        write!(out, "{}", explain::text(&loaded.query, &plan))?;
        if let Some(shown) = &shown {
            write!(out, "{}", shown.text(&moves))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
