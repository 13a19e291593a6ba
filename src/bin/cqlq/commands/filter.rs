//! `cqlq filter`: the lines of positions that match.

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cqlq::Variant;
use cqlq::search::{LineOutcome, PositionFilter};

use super::{chosen_variant, load_query};
use crate::args::FilterArgs;

/// Lines decided together on all threads.
const CHUNK_LINES: usize = 16 * 1024;

pub fn run(args: FilterArgs) -> anyhow::Result<ExitCode> {
    let Some(loaded) = load_query(&args.query, args.paths)? else {
        return Ok(ExitCode::from(2));
    };
    let variant = chosen_variant(&args.query, &loaded.query)?;
    let filter = PositionFilter::new(loaded.query, variant);
    // A query must compile for the variant asked for, or when positions are sniffed, for some
    // variant; a variant it does not fit is reported when one of its positions comes.
    let candidates: Vec<&'static Variant> = variant.map_or_else(|| Variant::all().iter().collect(), |v| vec![v]);
    if candidates.iter().all(|candidate| filter.compile_error(candidate).is_some()) {
        let shown = variant.unwrap_or_else(Variant::standard);
        let error = filter.compile_error(shown).expect("it does not compile for any variant");
        eprint!("{}", error.clone().with_origin(&loaded.origin));
        return Ok(ExitCode::from(2));
    }
    let inputs = if loaded.rest.is_empty() { vec![PathBuf::from("-")] } else { loaded.rest };
    let mut run = Run {
        filter: &filter,
        count_only: args.count,
        origin: loaded.origin.clone(),
        matched: 0,
        failed: false,
        reported_variants: HashSet::new(),
    };
    let mut out = BufWriter::new(io::stdout().lock());
    for input in &inputs {
        if let Err(error) = run.input(input, &mut out) {
            if error.kind() == io::ErrorKind::BrokenPipe {
                return Err(error.into());
            }
            eprintln!("cqlq: {}: {error}", input.display());
            run.failed = true;
        }
    }
    if args.count {
        writeln!(out, "{}", run.matched)?;
    }
    out.flush()?;
    Ok(if run.failed {
        ExitCode::from(2)
    } else if run.matched > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

struct Run<'a> {
    filter: &'a PositionFilter,
    count_only: bool,
    origin: String,
    matched: u64,
    failed: bool,
    reported_variants: HashSet<&'static str>,
}

impl<'a> Run<'a> {
    fn input(&mut self, path: &Path, out: &mut impl Write) -> io::Result<()> {
        let name = if path == Path::new("-") { "<stdin>".to_owned() } else { path.display().to_string() };
        let reader: Box<dyn Read> =
            if path == Path::new("-") { Box::new(io::stdin().lock()) } else { Box::new(File::open(path)?) };
        let mut reader = BufReader::with_capacity(1 << 20, reader);
        let mut line_number = 0u64;
        loop {
            let mut raw: Vec<Vec<u8>> = Vec::with_capacity(CHUNK_LINES);
            while raw.len() < CHUNK_LINES {
                let mut line = Vec::new();
                if reader.read_until(b'\n', &mut line)? == 0 {
                    break;
                }
                if line.last() == Some(&b'\n') {
                    line.pop();
                }
                raw.push(line);
            }
            if raw.is_empty() {
                return Ok(());
            }
            let text: Vec<String> = raw.iter().map(|line| String::from_utf8_lossy(line).into_owned()).collect();
            let outcomes = self.filter.run(&text);
            for (line, outcome) in raw.iter().zip(outcomes) {
                line_number += 1;
                self.outcome(&name, line_number, line, outcome, out)?;
            }
        }
    }

    fn outcome(
        &mut self,
        name: &str,
        number: u64,
        line: &[u8],
        outcome: LineOutcome,
        out: &mut impl Write,
    ) -> io::Result<()> {
        match outcome {
            LineOutcome::Matched => {
                self.matched += 1;
                if !self.count_only {
                    out.write_all(line)?;
                    out.write_all(b"\n")?;
                }
            }
            LineOutcome::NotMatched | LineOutcome::Skipped => {}
            LineOutcome::Invalid(error) => eprintln!("cqlq: {name}:{number}: {error}"),
            LineOutcome::Uncompiled(variant) => {
                self.failed = true;
                if self.reported_variants.insert(variant.name) {
                    eprintln!(
                        "cqlq: {name}:{number}: a {} position, and the query does not compile for it:",
                        variant.name
                    );
                    if let Some(error) = self.filter.compile_error(variant) {
                        eprint!("{}", error.clone().with_origin(self.origin.clone()));
                    }
                }
            }
        }
        Ok(())
    }
}
