//! The differential tester of `cqlq cql`: random CQL 6.2 queries, each run by CQL 6.2 and by
//! cqlq on the same games, their outputs compared byte for byte; every disagreement shrunk to a
//! smallest query and kept in `cases.txt`.
//!
//! ```text
//! cql-differential [--seed N] [--queries N] [--minutes M] [--jobs J] [--check] [--record]
//!                  [--cql PATH] [--cqlq PATH] [--shared DIR] [--cases FILE] [--report FILE]
//! ```
//!
//! `--check` fails (exit 1) when a fixed case disagrees again, an open case agrees (to be
//! marked fixed), or a random query not known to disagree (`seen.txt`) shrinks to a
//! disagreement that is not a case yet; `--record` writes those changes into the cases file, and
//! the disagreeing random queries into `seen.txt`, instead.

mod cases;
mod games;
mod generate;
mod keywords;
mod query;
mod rng;
mod run;
mod seen;
mod shrink;
mod verdict;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use cases::{Case, Cases, State};
use keywords::Coverage;
use run::Program;
use seen::{Disagreement, Seen};
use verdict::Verdict;

/// What to do, from the command line.
#[derive(Clone, Debug)]
struct Settings {
    seed: u64,
    queries: usize,
    minutes: Option<f64>,
    jobs: usize,
    check: bool,
    record: bool,
    cql: PathBuf,
    cqlq: PathBuf,
    shared: PathBuf,
    cases: PathBuf,
    seen: PathBuf,
    report: Option<PathBuf>,
    shrink_limit: usize,
    games_per_source: usize,
    survey: bool,
    coverage: bool,
    judge: Option<String>,
    seeds: Option<PathBuf>,
}

fn settings() -> Result<Settings, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let repository = root.join("../..");
    let mut settings = Settings {
        seed: 1,
        queries: 1000,
        minutes: None,
        jobs: std::thread::available_parallelism().map_or(1, usize::from),
        check: false,
        record: false,
        cql: repository.join("../shared/tools/cql6/cql"),
        cqlq: repository.join("target/release/cqlq"),
        shared: repository.join("../shared"),
        cases: root.join("cases.txt"),
        seen: root.join("seen.txt"),
        report: None,
        shrink_limit: 60,
        games_per_source: 25,
        survey: false,
        coverage: false,
        judge: None,
        seeds: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} wants a value"));
        let number =
            |text: String, name: &str| text.parse::<u64>().map_err(|_| format!("{name}: `{text}` is no number"));
        match arg.as_str() {
            "--seed" => settings.seed = number(value("--seed")?, "--seed")?,
            "--queries" => settings.queries = number(value("--queries")?, "--queries")? as usize,
            "--minutes" => {
                let text = value("--minutes")?;
                settings.minutes = Some(text.parse().map_err(|_| format!("--minutes: `{text}` is no number"))?);
                settings.queries = usize::MAX;
            }
            "--jobs" => settings.jobs = number(value("--jobs")?, "--jobs")?.max(1) as usize,
            "--shrink-limit" => settings.shrink_limit = number(value("--shrink-limit")?, "--shrink-limit")? as usize,
            "--games" => settings.games_per_source = number(value("--games")?, "--games")? as usize,
            "--check" => settings.check = true,
            "--survey" => settings.survey = true,
            "--coverage" => settings.coverage = true,
            "--judge" => settings.judge = Some(value("--judge")?),
            "--write-seeds" => settings.seeds = Some(value("--write-seeds")?.into()),
            "--record" => settings.record = true,
            "--cql" => settings.cql = value("--cql")?.into(),
            "--cqlq" => settings.cqlq = value("--cqlq")?.into(),
            "--shared" => settings.shared = value("--shared")?.into(),
            "--cases" => settings.cases = value("--cases")?.into(),
            "--seen" => settings.seen = value("--seen")?.into(),
            "--report" => settings.report = Some(value("--report")?.into()),
            "--help" | "-h" => {
                println!("{}", include_str!("usage.txt"));
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument `{other}` (see --help)")),
        }
    }
    Ok(settings)
}

/// A place to run queries in: a folder of its own and the two programs.
#[derive(Clone)]
struct Bench {
    dir: PathBuf,
    games: PathBuf,
    cql: Program,
    cqlq: Program,
}

impl Bench {
    fn judge(&self, query: &str) -> Verdict {
        self.judge_saying(query).0
    }

    /// The verdict on a case found before: where CQL 6.2 gives no answer in its usual time,
    /// both programs are given four times as long, so that a case stays decided on a slower
    /// or busier machine than the one that found it.
    fn judge_patiently(&self, query: &str) -> Verdict {
        match self.judge(query) {
            Verdict::NoReference => {
                let slower = |program: &Program| Program { limit: program.limit * 4, ..program.clone() };
                let bench = Bench { cql: slower(&self.cql), cqlq: slower(&self.cqlq), ..self.clone() };
                bench.judge(query)
            }
            verdict => verdict,
        }
    }

    /// The verdict, and what the program that refused or failed said (CQL 6.2's last lines
    /// otherwise).
    fn judge_saying(&self, query: &str) -> (Verdict, String) {
        let reference = self.cql.run(&self.dir, query, &self.games);
        let ours = self.cqlq.run(&self.dir, query, &self.games);
        let verdict = verdict::compare(&reference, &ours, verdict::prints_comparably(query));
        let said = match verdict {
            Verdict::CqlqRefused | Verdict::CqlqFailed => ours.said,
            _ => reference.said,
        };
        (verdict, said)
    }
}

/// A disagreement found by a random query, shrunk.
#[derive(Clone, Debug)]
struct Found {
    verdict: Verdict,
    original: String,
    said: String,
    times: usize,
}

fn main() {
    let settings = match settings() {
        Ok(settings) => settings,
        Err(error) => {
            eprintln!("cql-differential: {error}");
            std::process::exit(2);
        }
    };
    match run(&settings) {
        Ok(true) => {}
        Ok(false) => std::process::exit(1),
        Err(error) => {
            eprintln!("cql-differential: {error}");
            std::process::exit(2);
        }
    }
}

fn run(settings: &Settings) -> Result<bool, String> {
    if let Some(folder) = &settings.seeds {
        write_seeds(settings, folder)?;
        return Ok(true);
    }
    if settings.coverage {
        let mut coverage = Coverage::default();
        for index in 0..settings.queries {
            coverage.count(&random_query(settings.seed, index).render());
        }
        println!("random queries: {} (seed {}), generated only", settings.queries, settings.seed);
        print!("{}", coverage.report(100));
        return Ok(true);
    }
    for (name, path) in [("CQL 6.2", &settings.cql), ("cqlq", &settings.cqlq)] {
        if !path.is_file() {
            return Err(format!("{name} is not at {} (see --help)", path.display()));
        }
    }
    let work = std::env::temp_dir().join(format!("cql-differential-{}", std::process::id()));
    std::fs::create_dir_all(&work).map_err(|error| format!("{}: {error}", work.display()))?;
    let games = games::write(&settings.shared, &work, settings.games_per_source)?;
    let benches: Vec<Bench> = (0..settings.jobs)
        .map(|job| {
            let dir = work.join(format!("job{job}"));
            std::fs::create_dir_all(&dir).map_err(|error| format!("{}: {error}", dir.display()))?;
            // CQL 6.2 has 5 s a query (past them it gives no reference); cqlq four times as
            // long, which stops a runaway without making the comparison depend on the
            // machine's speed: how fast cqlq is, the benchmarks measure.
            let limit = Duration::from_secs(5);
            Ok(Bench {
                dir,
                games: games.clone(),
                cql: Program { path: settings.cql.clone(), leading: Vec::new(), crash_codes: Vec::new(), limit },
                cqlq: Program {
                    path: settings.cqlq.clone(),
                    leading: vec!["cql".into()],
                    crash_codes: vec![101],
                    limit: limit * 4,
                },
            })
        })
        .collect::<Result<_, String>>()?;
    if let Some(query) = &settings.judge {
        let bench = &benches[0];
        let reference = bench.cql.run(&bench.dir, query, &bench.games);
        let ours = bench.cqlq.run(&bench.dir, query, &bench.games);
        let verdict = verdict::compare(&reference, &ours, verdict::prints_comparably(query));
        for (name, outcome) in [("CQL 6.2", &reference), ("cqlq", &ours)] {
            println!("{name}: {:?}, {} bytes written, said: {}", outcome.status, outcome.output.len(), outcome.said);
            for line in &outcome.printed {
                println!("  | {line}");
            }
        }
        println!("verdict: {}", verdict.name());
        let _ = std::fs::remove_dir_all(&work);
        return Ok(!verdict.disagrees());
    }
    if settings.survey {
        survey(settings, &benches);
        let _ = std::fs::remove_dir_all(&work);
        return Ok(true);
    }
    let mut cases = Cases::read(&settings.cases)?;
    let mut passed = true;
    let mut report = String::new();

    // The cases found before.
    let verdicts =
        in_parallel(&benches, cases.cases.len(), None, |bench, index| bench.judge_patiently(&cases.cases[index].query));
    let mut newly_fixed = 0;
    for (case, verdict) in cases.cases.iter_mut().zip(&verdicts) {
        let Some(verdict) = verdict else { continue };
        match (case.state, verdict.disagrees()) {
            (State::Fixed, true) => {
                passed = false;
                report.push_str(&format!("REGRESSION ({}): {}\n", verdict.name(), case.query));
            }
            (State::Open, false) if matches!(verdict, Verdict::Agree | Verdict::BothRefused | Verdict::Leftovers) => {
                newly_fixed += 1;
                report.push_str(&format!("now agrees: {}\n", case.query));
                if settings.record {
                    case.state = State::Fixed;
                } else if settings.check {
                    passed = false;
                }
            }
            _ => {}
        }
    }
    let open = cases.cases.iter().filter(|case| case.state == State::Open).count();
    report.push_str(&format!(
        "cases: {} ({} open, {} fixed), {newly_fixed} agreeing now that were open\n",
        cases.cases.len(),
        open,
        cases.cases.len() - open
    ));

    // Random queries.
    let mut seen = Seen::read(&settings.seen)?;
    let deadline = settings.minutes.map(|minutes| Instant::now() + Duration::from_secs_f64(minutes * 60.0));
    let coverage = Mutex::new(Coverage::default());
    let tally = Mutex::new(BTreeMap::<Verdict, usize>::new());
    let found = Mutex::new(BTreeMap::<String, Found>::new());
    let disagreed = Mutex::new(BTreeMap::<usize, Disagreement>::new());
    let known_again = AtomicUsize::new(0);
    let started = Instant::now();
    let done = in_parallel(&benches, settings.queries, deadline, |bench, index| {
        let query = random_query(settings.seed, index);
        let text = query.render();
        coverage.lock().expect("coverage").count(&text);
        let verdict = bench.judge(&text);
        *tally.lock().expect("tally").entry(verdict).or_default() += 1;
        let recorded = seen.get(settings.seed, index);
        if verdict.disagrees() && !settings.record && recorded.is_some_and(|known| known.verdict == verdict) {
            known_again.fetch_add(1, Ordering::Relaxed);
        } else if verdict.disagrees() {
            let mut small = shrink::shrink(&query, verdict, settings.shrink_limit, |text| bench.judge(text)).render();
            let canonical = shrink::canonical_names(&small);
            let (canonical_verdict, mut said) = bench.judge_saying(&canonical);
            if canonical != small && canonical_verdict == verdict {
                small = canonical;
            } else if canonical != small {
                said = bench.judge_saying(&small).1;
            }
            disagreed.lock().expect("disagreed").insert(index, Disagreement { verdict, case: small.clone() });
            let mut found = found.lock().expect("found");
            let entry = found.entry(small).or_insert(Found { verdict, original: text, said, times: 0 });
            entry.times += 1;
        }
    });
    let run_queries = done.iter().flatten().count();
    let found = found.into_inner().expect("found");
    let disagreed = disagreed.into_inner().expect("disagreed");
    let tally = tally.into_inner().expect("tally");
    report.push_str(&format!(
        "random queries: {run_queries} (seed {}) in {:.0} s\n",
        settings.seed,
        started.elapsed().as_secs_f64()
    ));
    for (verdict, count) in &tally {
        report.push_str(&format!("  {:>14}: {count}\n", verdict.name()));
    }
    let mut new_cases = 0;
    let known_again = known_again.into_inner();
    let known_before = (0..run_queries).filter(|index| seen.get(settings.seed, *index).is_some()).count();
    if known_again > 0 {
        report.push_str(&format!("known to disagree (not shrunk again): {known_again} of {known_before}\n"));
    }
    report.push_str(&format!("distinct shrunk disagreements: {}\n", found.len()));
    for (small, what) in &found {
        let known = cases.find(small).map(|case| case.state);
        let mark = match known {
            Some(State::Open) => "open ",
            Some(State::Fixed) => "AGAIN",
            None => "NEW  ",
        };
        report.push_str(&format!("  {mark} {:>3}x {:>13}: {small}\n", what.times, what.verdict.name()));
        if known.is_none() {
            new_cases += 1;
            report.push_str(&format!("             from: {}\n             said: {}\n", what.original, what.said));
            if settings.record {
                cases.cases.push(Case { state: State::Open, found_as: what.verdict, query: small.clone() });
            } else if settings.check {
                passed = false;
            }
        }
    }
    report.push_str(&format!("new disagreements: {new_cases}\n"));
    report.push('\n');
    report.push_str(&coverage.into_inner().expect("coverage").report(100));
    if settings.record {
        std::fs::write(&settings.cases, cases.render())
            .map_err(|error| format!("{}: {error}", settings.cases.display()))?;
        seen.forget(settings.seed, run_queries);
        for (index, disagreement) in disagreed {
            seen.queries.insert((settings.seed, index), disagreement);
        }
        std::fs::write(&settings.seen, seen.render())
            .map_err(|error| format!("{}: {error}", settings.seen.display()))?;
    }
    if let Some(path) = &settings.report {
        std::fs::write(path, &report).map_err(|error| format!("{}: {error}", path.display()))?;
    }
    let summary_end = report.find("keyword coverage").unwrap_or(report.len());
    print!("{}", &report[..summary_end]);
    let _ = std::fs::remove_dir_all(&work);
    Ok(passed)
}

/// Runs the random queries through CQL 6.2 alone and prints why it refused them, the most
/// frequent reason first: where the generator writes what CQL does not take.
/// Writes the random queries of the seed into a folder, one file each (`gen-SEED-INDEX.cql`),
/// as seeds for the fuzz targets of the query language.
fn write_seeds(settings: &Settings, folder: &Path) -> Result<(), String> {
    std::fs::create_dir_all(folder).map_err(|error| format!("{}: {error}", folder.display()))?;
    for index in 0..settings.queries.min(1_000_000) {
        let text = random_query(settings.seed, index).render();
        let path = folder.join(format!("gen-{}-{index:05}.cql", settings.seed));
        std::fs::write(&path, text).map_err(|error| format!("{}: {error}", path.display()))?;
    }
    Ok(())
}

fn survey(settings: &Settings, benches: &[Bench]) {
    let reasons = Mutex::new(BTreeMap::<String, (usize, String)>::new());
    let ran = AtomicUsize::new(0);
    in_parallel(benches, settings.queries, None, |bench, index| {
        let text = random_query(settings.seed, index).render();
        let outcome = bench.cql.run(&bench.dir, &text, &bench.games);
        if outcome.status == run::Status::Ran {
            ran.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let reason: String = outcome.said.split(" (end").next().unwrap_or_default().chars().take(90).collect();
        let mut reasons = reasons.lock().expect("reasons");
        let entry = reasons.entry(reason).or_insert((0, text));
        entry.0 += 1;
    });
    let mut reasons: Vec<(String, (usize, String))> = reasons.into_inner().expect("reasons").into_iter().collect();
    reasons.sort_by_key(|(_, (count, _))| std::cmp::Reverse(*count));
    println!("CQL 6.2 ran {} of {} queries", ran.into_inner(), settings.queries);
    for (reason, (count, example)) in reasons.iter().take(40) {
        println!("{count:>6}  {reason}\n        {example}");
    }
}

/// The random query numbered `index` of the stream of `seed`.
fn random_query(seed: u64, index: usize) -> query::Node {
    let mut rng = rng::Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index as u64);
    generate::query(&mut rng, generate::Options::default())
}

/// Runs `task` on `0..count` over the benches, one thread each, until `deadline`; returns what
/// each index gave (None for those not run).
fn in_parallel<T: Send>(
    benches: &[Bench],
    count: usize,
    deadline: Option<Instant>,
    task: impl Fn(&Bench, usize) -> T + Sync,
) -> Vec<Option<T>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<BTreeMap<usize, T>> = Mutex::new(BTreeMap::new());
    std::thread::scope(|scope| {
        for bench in benches {
            scope.spawn(|| {
                loop {
                    if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                        break;
                    }
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= count {
                        break;
                    }
                    let result = task(bench, index);
                    results.lock().expect("results").insert(index, result);
                }
            });
        }
    });
    let mut results = results.into_inner().expect("results");
    let end = results.keys().next_back().map_or(0, |last| last + 1);
    (0..end).map(|index| results.remove(&index)).collect()
}
