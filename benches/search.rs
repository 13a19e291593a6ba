//! `cqlq search` over `gnuchess-book` beside pgn-reader + shakmaty replaying the same file, in one
//! run: times (medians), ratios and the targets of `performance.md`.
//!
//! `cargo bench --bench search` — needs `../shared/data/pgn/gnuchess-book.pgn.zst`, decompressed
//! once into `target/bench-data/`. `CQLQ_BENCH_RUNS` sets the runs per measurement (default 5);
//! `CQLQ_BENCH_STDIN_GB` the size of the stream fed to `cqlq search -` for peak memory (default 1).
//!
//! Measured:
//! 1. query `Ra-h7 ka-h8`: cqlq on 1 thread against pgn-reader + shakmaty (parse, replay, the same
//!    mask test on every position) on 1 thread (cqlq `-j 1` replays on one thread; the next
//!    window of the input is cut meanwhile on another, about a tenth of the work);
//! 2. the same on all threads, both engines (the peer split at `\n[Event `, rayon over the games);
//! 3. cqlq on 1 thread against pgn-extract's position search (`kg8 Qh7` against its
//!    `FENPattern`, the same 946 games) and against python-chess replaying games for
//!    `CQLQ_BENCH_PYTHON_SECONDS` (default 20; plies per second compared), run in the same
//!    process when they are installed, else against the anchors of `performance.md`;
//! 4. queries that read only tags (the header's `result`, and game filters in the body):
//!    throughput in GB/s;
//! 5. peak resident memory of `cqlq search` reading a stream of 1 GB or more from standard input.

use std::fs::File;
use std::io;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use cqlq::Query;
use cqlq::search::{Found, Input, Search, SearchOptions, Sink, Summary};
use memmap2::Mmap;

#[path = "common/measure.rs"]
mod measure;
#[path = "common/peers.rs"]
mod peers;
#[path = "common/replay.rs"]
mod replay;

use measure::{Job, env_number, prepare_corpus, secs, target};
use replay::{Counts, peer_replay, peer_replay_parallel};

/// The anchors of `performance.md`, for tools that are not installed (seconds, 1 thread).
const PGN_EXTRACT_POSITION_SEARCH: f64 = 14.2;
const PYTHON_CHESS_REPLAY: f64 = 360.0;

/// A query of game filters alone: decided from the tags, it never replays a move.
const GAME_FILTERS: &str = r#"flipcolor {player white "Kasparov" result 1-0} year >= 1980"#;

fn main() {
    let Some(pgn) = prepare_corpus() else {
        println!("search benchmark skipped: ../shared/data/pgn/gnuchess-book.pgn.zst is not here");
        return;
    };
    let runs: usize = env_number("CQLQ_BENCH_RUNS", 5);
    let threads = rayon::current_num_threads();
    let bytes = std::fs::metadata(&pgn).expect("corpus").len();
    println!("gnuchess-book: {:.1} MB, {runs} rounds of every job, medians; {threads} threads available", mb(bytes));

    // First, while this process is small: a child's peak memory includes what its parent had
    // mapped when it was started.
    let gigabytes: f64 = env_number("CQLQ_BENCH_STDIN_GB", 1.0);
    let memory = peak_memory_of_stdin_search(&pgn, gigabytes);

    let file = File::open(&pgn).expect("corpus");
    // SAFETY: the benchmark's own copy of the corpus is not changed while it is mapped.
    let map = unsafe { Mmap::map(&file) }.expect("mmap");
    let text: &[u8] = &map;

    // Round robin: each round runs every job once, so that a machine getting slower or faster
    // meanwhile moves all of them alike.
    let mut jobs: [Job<'_, Counts>; 7] = [
        Job::new(|| peer_replay(text)),
        Job::new(|| peer_replay_parallel(text)),
        Job::new(|| cqlq_search(&pgn, "Ra-h7 ka-h8", 1)),
        Job::new(|| cqlq_search(&pgn, "Ra-h7 ka-h8", 0)),
        Job::new(|| cqlq_search(&pgn, "cql(result 1-0)", 0)),
        Job::new(|| cqlq_search(&pgn, GAME_FILTERS, 0)),
        Job::new(|| cqlq_search(&pgn, peers::PATTERN_QUERY, 1)),
    ];
    for _ in 0..runs.max(1) {
        for job in &mut jobs {
            job.run();
        }
    }
    let [peer_1, peer_n, cqlq_1, cqlq_n, header, game_filters, pattern] =
        jobs.map(|job| job.median().expect("at least one run"));
    let ((peer_counts, peer_1), (peer_counts_n, peer_n)) = (peer_1, peer_n);
    let ((cqlq_counts, cqlq_1), (cqlq_counts_n, cqlq_n)) = (cqlq_1, cqlq_n);
    let (header_counts, header) = header;
    let (game_filter_counts, game_filters) = game_filters;
    assert_eq!(peer_counts, peer_counts_n, "the peer finds the same on every thread count");
    assert_eq!(cqlq_counts, cqlq_counts_n, "cqlq finds the same on every thread count");
    assert_eq!(
        (cqlq_counts.games, cqlq_counts.positions),
        (peer_counts.games, peer_counts.positions),
        "cqlq and the peer agree on what matches"
    );

    println!();
    println!("query `Ra-h7 ka-h8`: {} games, {} positions matched", cqlq_counts.games, cqlq_counts.positions);
    println!("{:<44} {:>9} {:>12}", "", "time", "plies/s");
    let plies = peer_counts.plies as f64;
    for (name, time) in [
        ("pgn-reader + shakmaty, 1 thread", peer_1),
        (&*format!("pgn-reader + shakmaty, {threads} threads"), peer_n),
        ("cqlq search, 1 thread", cqlq_1),
        (&*format!("cqlq search, {threads} threads"), cqlq_n),
    ] {
        println!("{name:<44} {:>8.3}s {:>10.1} M", secs(time), plies / secs(time) / 1e6);
    }
    println!(
        "{:<44} {:>8.3}s {:>8.2} GB/s  ({} games)",
        "cqlq search, tags only `cql(result 1-0)`",
        secs(header),
        bytes as f64 / secs(header) / 1e9,
        header_counts.games
    );
    println!(
        "{:<44} {:>8.3}s {:>8.2} GB/s  ({} games)",
        "cqlq search, game filters alone (below)",
        secs(game_filters),
        bytes as f64 / secs(game_filters) / 1e9,
        game_filter_counts.games
    );
    println!("   `{GAME_FILTERS}`");

    println!();
    let ratio_1 = secs(cqlq_1) / secs(peer_1);
    let speedup = secs(cqlq_1) / secs(cqlq_n);
    let header_rate = bytes as f64 / secs(header) / 1e9;
    target("1", "cqlq 1 thread / peer 1 thread", ratio_1, "<= 0.80", ratio_1 <= 0.8);
    println!("   (all threads: cqlq / peer = {:.2})", secs(cqlq_n) / secs(peer_n));
    target("2", &format!("cqlq speedup on {threads} threads"), speedup, ">= 1.80", speedup >= 1.8);
    let scratch = pgn.parent().expect("bench data folder");
    let (pattern_counts, pattern_time) = pattern;
    match peers::pgn_extract(&pgn, scratch) {
        Some((games, time)) => {
            assert_eq!(games, pattern_counts.games, "pgn-extract and cqlq find the same games");
            let ratio = secs(time) / secs(pattern_time);
            target("3", "pgn-extract / cqlq, 1 thread, same run", ratio, ">= 10", ratio >= 10.0);
            println!(
                "   (`{}`: {games} games; pgn-extract {:.2}s, cqlq {:.3}s)",
                peers::PATTERN_QUERY,
                secs(time),
                secs(pattern_time)
            );
        }
        None => {
            let ratio = PGN_EXTRACT_POSITION_SEARCH / secs(pattern_time);
            target("3", "pgn-extract anchor / cqlq 1 thread", ratio, ">= 10", ratio >= 10.0);
        }
    }
    let python_seconds: f64 = env_number("CQLQ_BENCH_PYTHON_SECONDS", 20.0);
    let cqlq_rate = plies / secs(cqlq_1);
    match peers::python_chess(&pgn, python_seconds) {
        Some((python_plies, time)) => {
            let python_rate = python_plies as f64 / secs(time);
            let ratio = cqlq_rate / python_rate;
            target("3", "python-chess / cqlq, per ply, same run", ratio, ">= 200", ratio >= 200.0);
            println!("   (python-chess: {python_plies} plies in {:.1}s, {:.0} plies/s)", secs(time), python_rate);
        }
        None => {
            let ratio = PYTHON_CHESS_REPLAY / secs(cqlq_1);
            target("3", "python-chess anchor / cqlq 1 thread", ratio, ">= 200", ratio >= 200.0);
        }
    }
    target("4", "tags-only query, GB/s", header_rate, ">= 0.50", header_rate >= 0.5);
    let game_filter_rate = bytes as f64 / secs(game_filters) / 1e9;
    target("4", "game filters alone, GB/s", game_filter_rate, ">= 0.50", game_filter_rate >= 0.5);

    match memory {
        Ok((streamed, peak_kb, time)) => {
            let peak_mb = peak_kb as f64 / 1024.0;
            target(
                "5",
                &format!("peak RSS, {:.2} GB from stdin, MB", streamed as f64 / 1e9),
                peak_mb,
                "< 100",
                peak_mb < 100.0,
            );
            println!("   (stdin search took {:.2}s, {:.0} MB/s)", secs(time), mb(streamed) / secs(time));
        }
        Err(error) => println!("5. peak memory not measured: {error}"),
    }
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

/// cqlq's library search of a file, counting what matched.
fn cqlq_search(path: &Path, query: &str, threads: usize) -> Counts {
    struct Count(Counts);
    impl Sink for Count {
        fn found(&mut self, game: &Found<'_>) -> io::Result<()> {
            self.0.games += 1;
            self.0.positions += game.matched.len() as u64;
            Ok(())
        }
    }
    let query = Query::parse(query).expect("query");
    // The header's `result` leaves games out before any replay, as `cqlq search` has it do.
    let result = query.header().and_then(|header| header.result.clone());
    let search = Search::new(query, SearchOptions { threads, result, ..SearchOptions::default() }).expect("threads");
    let mut input = Input::open(path).expect("corpus");
    let mut sink = Count(Counts::default());
    let mut summary = Summary::default();
    let _ = search.run(&mut input, &mut sink, &mut summary).expect("search");
    assert_eq!(summary.errors, 0, "the corpus replays without errors");
    sink.0
}

/// Feeds the corpus, repeated up to `gigabytes`, to `cqlq search -c 'Ra-h7 ka-h8' --count -` and
/// returns the bytes streamed, the child's peak resident memory (KiB) and the time taken.
fn peak_memory_of_stdin_search(path: &Path, gigabytes: f64) -> io::Result<(u64, u64, Duration)> {
    let size = std::fs::metadata(path)?.len();
    let repeats = ((gigabytes * 1e9) / size as f64).ceil().max(1.0) as u64;
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_cqlq"))
        .args(["search", "-c", "Ra-h7 ka-h8", "--count", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut stdin = child.stdin.take().expect("piped");
    let mut streamed = 0u64;
    for _ in 0..repeats {
        streamed += io::copy(&mut File::open(path)?, &mut stdin)?;
    }
    drop(stdin);
    let output = child.wait_with_output()?;
    let time = start.elapsed();
    let summary = String::from_utf8_lossy(&output.stdout);
    print!("   stdin search: {summary}");
    Ok((streamed, children_peak_rss_kib(), time))
}

/// The peak resident set of the waited-for children, in KiB (Linux reports `ru_maxrss` in KiB).
fn children_peak_rss_kib() -> u64 {
    // SAFETY: `getrusage` only writes the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    u64::try_from(usage.ru_maxrss).unwrap_or(0)
}
