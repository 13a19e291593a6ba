//! `cqlq variants`: the catalogue as a table, then the query words variants add to the
//! language.

use std::io::Write;
use std::process::ExitCode;

use cqlq::Variant;

pub fn run() -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let name = Variant::all().iter().map(|variant| variant.name.len()).max().unwrap_or(0);
    writeln!(out, "{:<name$} {:<6} {:<12} {:<14} pieces", "variant", "board", "players", "also")?;
    for variant in Variant::all() {
        let players = format!("{}/{}", variant.players[0], variant.players[1]);
        let also = variant.code.or(variant.aliases.first().copied()).unwrap_or("");
        writeln!(
            out,
            "{:<name$} {:<6} {:<12} {:<14} {}",
            variant.name,
            variant.geometry.to_string(),
            players,
            also,
            variant.letters()
        )?;
    }
    writeln!(out, "\nwords of their own")?;
    for variant in Variant::all() {
        let vocabulary = variant.vocabulary();
        for word in vocabulary.words {
            writeln!(out, "{:<name$} {:<20} {}", variant.name, word.name, word.about)?;
        }
        for action in vocabulary.actions {
            writeln!(out, "{:<name$} {:<20} a move that does this", variant.name, format!("move ... {action}"))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
