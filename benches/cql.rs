//! CQL 6.2 and `cqlq cql` running the same query files of the reference corpus over
//! `gnuchess-book`, both on 2 threads, in one run: the time of each, their ratio per query, the
//! median ratio, and each query's time against plain replay (pgn-reader + shakmaty replaying the
//! same file on the same threads, the fastest open replay).
//!
//! `cargo bench --bench cql` — needs `../shared/data/pgn/gnuchess-book.pgn.zst` and
//! `../shared/tools/cql6/cql`. `CQLQ_BENCH_RUNS` sets cqlq's runs per query (default 3),
//! `CQLQ_BENCH_CQL_RUNS` CQL 6.2's (default 1: it takes minutes), `CQLQ_BENCH_THREADS` the threads
//! of both (default 2), `CQLQ_BENCH_ONLY` a part of the query names to run only those.
//!
//! Targets (`performance.md` 1b and the CQL command line's): cqlq at least 20x faster than CQL 6.2
//! on the median query, no query slower than CQL 6.2, and no query slower than plain replay by
//! more than 3x unless CQL 6.2 itself needs more than 10x plain replay for it. Both programs must
//! find the same number of games; whether their output files are identical is printed too.
//!
//! Each run of either program writes a new output file: the file its last run wrote is removed,
//! and the disk brought up to date, before the run is timed.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;

use memmap2::Mmap;

#[path = "common/measure.rs"]
mod measure;
#[path = "common/replay.rs"]
mod replay;

use measure::{Job, env_number, prepare_corpus, secs, target};

/// The query files measured, from `tests/cql/queries`, with what each exercises.
const QUERIES: [(&str, &str); 35] = [
    ("001-rook-on-the-seventh", "designators"),
    ("002-queen-and-king", "designators"),
    ("006-pawn-counts", "designators"),
    ("066-light-squares-bishops", "designators"),
    ("017-pin", "pin"),
    ("003-mate", "mate"),
    ("011-move-played-next", "move"),
    ("013-move-parameters-in-any-order", "move"),
    ("022-move-legal", "move legal"),
    ("148-dash-promotion", "dash"),
    ("020-line-checks", "line"),
    ("072-line-check-rest-check", "line"),
    ("118-line-singlecolor-range", "line"),
    ("124-line-optional", "line"),
    ("099-piece-all-knights", "piece loop"),
    ("100-piece-nested-loops", "piece loop"),
    ("094-square-loop-set-value", "square loop"),
    ("112-echo-piece-identity", "echo"),
    ("168-echo-mate-earlier-check", "echo"),
    ("126-arrow-chain-pin", "arrows"),
    ("248-path-consecutive-checks", "path"),
    ("249-path-focus", "path"),
    ("250-path-singlecolor-firstmatch", "path"),
    ("251-path-max", "path"),
    ("252-path-words", "path"),
    ("253-path-lastposition", "path"),
    ("254-path-nestban", "path"),
    ("256-path-piecepath", "path"),
    ("258-path-keepallbest", "path"),
    ("261-path-groups", "path"),
    ("224-text-variables", "texts"),
    ("225-regex-groups", "texts"),
    ("228-str-and-indexof", "texts"),
    ("235-local-dictionary-of-positions", "dictionaries"),
    ("237-dictionary-entries-unbound", "dictionaries"),
];

/// What one program reported: its closing line's matches and games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Closing {
    matches: u64,
    games: u64,
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cql = root.join("../shared/tools/cql6/cql");
    let Some(corpus) = prepare_corpus() else {
        println!("cql benchmark skipped: ../shared/data/pgn/gnuchess-book.pgn.zst is not here");
        return;
    };
    if !cql.exists() {
        println!("cql benchmark skipped: ../shared/tools/cql6/cql is not here");
        return;
    }
    let runs: usize = env_number("CQLQ_BENCH_RUNS", 3);
    let cql_runs: usize = env_number("CQLQ_BENCH_CQL_RUNS", 1);
    let threads: usize = env_number("CQLQ_BENCH_THREADS", 2);
    let only = std::env::var("CQLQ_BENCH_ONLY").unwrap_or_default();
    let scratch = corpus.parent().expect("bench data folder").join("cql");
    std::fs::create_dir_all(&scratch).expect("scratch folder");

    let queries: Vec<(PathBuf, &str, &str)> = QUERIES
        .iter()
        .filter(|(name, _)| name.contains(&only))
        .map(|&(name, kind)| (root.join("tests/cql/queries").join(format!("{name}.cql")), name, kind))
        .collect();
    println!(
        "gnuchess-book, {} query files, {threads} threads each; cqlq {runs} runs, CQL 6.2 {cql_runs}, medians",
        queries.len()
    );

    let file = File::open(&corpus).expect("corpus");
    // SAFETY: the benchmark's own copy of the corpus is not changed while it is mapped.
    let map = unsafe { Mmap::map(&file) }.expect("mmap");
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("thread pool");
    let mut plain = Job::new(|| pool.install(|| replay::peer_replay_parallel(&map)));

    let cqlq = Path::new(env!("CARGO_BIN_EXE_cqlq"));
    let mut jobs: Vec<(Job<'_, Closing>, Job<'_, Closing>)> = queries
        .iter()
        .map(|(query, name, _)| {
            let ours = scratch.join(format!("{name}-cqlq.pgn"));
            let theirs = scratch.join(format!("{name}-cql6.pgn"));
            let (query, corpus) = (query.clone(), corpus.clone());
            // Each run writes a new file: the last run's output is removed before the clock
            // starts, so that neither program's time holds the file system's freeing of it.
            let ours_job = {
                let (query, corpus, stale) = (query.clone(), corpus.clone(), ours.clone());
                Job::prepared(
                    move || remove_output(&stale),
                    move || run(Command::new(cqlq).arg("cql"), &corpus, &query, &ours, threads),
                )
            };
            let cql = cql.clone();
            let stale = theirs.clone();
            let theirs_job = Job::prepared(
                move || remove_output(&stale),
                move || run(&mut Command::new(&cql), &corpus, &query, &theirs, threads),
            );
            (ours_job, theirs_job)
        })
        .collect();

    for round in 0..runs.max(cql_runs).max(1) {
        if round < runs {
            plain.run();
        }
        for (ours, theirs) in &mut jobs {
            if round < runs {
                ours.run();
            }
            if round < cql_runs {
                theirs.run();
            }
        }
    }

    let (replayed, plain) = plain.median().expect("at least one run");
    println!(
        "plain replay (pgn-reader + shakmaty, {threads} threads): {:.3}s, {:.1} M plies/s",
        secs(plain),
        replayed.plies as f64 / secs(plain) / 1e6
    );
    println!();
    println!(
        "{:<36} {:<12} {:>9} {:>9} {:>8} {:>9} {:>8}  output",
        "query", "kind", "CQL 6.2", "cqlq", "ratio", "x replay", "games"
    );
    let mut ratios = Vec::new();
    let mut worst_replay: f64 = 0.0;
    for ((ours, theirs), (_, name, kind)) in jobs.into_iter().zip(&queries) {
        let (ours, our_time) = ours.median().expect("at least one run");
        let (theirs, their_time) = theirs.median().expect("at least one run");
        assert_eq!(ours, theirs, "{name}: cqlq and CQL 6.2 find the same games");
        let ratio = secs(their_time) / secs(our_time);
        let against_replay = secs(our_time) / secs(plain);
        ratios.push(ratio);
        // A query CQL 6.2 itself needs more than 10x plain replay for is held to no replay bound.
        let excused = secs(their_time) / secs(plain) > 10.0;
        if !excused {
            worst_replay = worst_replay.max(against_replay);
        }
        let same = same_output(&scratch.join(format!("{name}-cqlq.pgn")), &scratch.join(format!("{name}-cql6.pgn")));
        println!(
            "{name:<36} {kind:<12} {:>8.2}s {:>8.3}s {:>7.1}x {:>8.2}x{} {:>7}  {}",
            secs(their_time),
            secs(our_time),
            ratio,
            against_replay,
            if excused { "*" } else { " " },
            ours.matches,
            if same { "identical" } else { "DIFFERS" }
        );
    }
    println!();
    ratios.sort_by(f64::total_cmp);
    let median = median_of(&ratios);
    let slowest = ratios.first().copied().unwrap_or(f64::NAN);
    println!("* CQL 6.2 itself needs more than 10x plain replay: no replay bound");
    target("1b", "CQL 6.2 / cqlq, median query", median, ">= 20", median >= 20.0);
    target("1b", "CQL 6.2 / cqlq, least ratio", slowest, ">= 1", slowest >= 1.0);
    target("1b", "slowest query / plain replay", worst_replay, "<= 3", worst_replay <= 3.0);
}

/// Removes an output file a run left, and waits until its blocks are freed.
fn remove_output(output: &Path) {
    match std::fs::remove_file(output) {
        Ok(()) => {
            // The file system frees the blocks of a removed file on its own time: let it finish
            // before the next run is timed.
            let _ = Command::new("sync").status();
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
        Err(error) => panic!("{}: {error}", output.display()),
    }
}

/// Runs `program -threads N -i corpus -o output query` and reads its closing line.
fn run(program: &mut Command, corpus: &Path, query: &Path, output: &Path, threads: usize) -> Closing {
    let result = program
        .arg("-threads")
        .arg(threads.to_string())
        .arg("-i")
        .arg(corpus)
        .arg("-o")
        .arg(output)
        .arg(query)
        .output()
        .expect("the program runs");
    let stdout = String::from_utf8_lossy(&result.stdout);
    closing(&stdout).unwrap_or_else(|| panic!("no closing line from {program:?}:\n{stdout}"))
}

/// `N matches of M games in T seconds ...`, the last line of the kind.
fn closing(stdout: &str) -> Option<Closing> {
    stdout.lines().rev().find_map(|line| {
        let mut words = line.split_whitespace();
        let matches = words.next()?.parse().ok()?;
        (words.next()? == "matches" && words.next()? == "of").then_some(())?;
        let games = words.next()?.parse().ok()?;
        Some(Closing { matches, games })
    })
}

/// Whether two output files hold the same bytes.
fn same_output(a: &Path, b: &Path) -> bool {
    matches!((std::fs::read(a), std::fs::read(b)), (Ok(a), Ok(b)) if a == b)
}

/// The middle of sorted values (the mean of the two middle ones for an even count).
fn median_of(sorted: &[f64]) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}
