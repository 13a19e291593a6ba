//! Laser Chess replay: generated games searched with a query that traces a beam at every ply,
//! beside classical replay of `gnuchess-book` in the same run.
//!
//! `cargo bench --bench laser` — 100,000 random legal games from the five named setups
//! (`CQLQ_LASER_GAMES` sets how many) are generated once into `target/bench-data/`; the
//! classical side needs `../shared/data/pgn/gnuchess-book.pgn.zst` and is left out without it.
//! `CQLQ_BENCH_RUNS` sets the runs per measurement (default 5).
//!
//! Printed: for each corpus, on 1 thread and on all threads, the time and the plies replayed
//! and tested per second, and Laser Chess's time per ply against classical replay's.

use std::path::{Path, PathBuf};

#[path = "common/measure.rs"]
#[allow(dead_code)]
mod measure;

#[path = "common/counting.rs"]
mod counting;

#[path = "../tests/suite/common/laser_games.rs"]
#[allow(dead_code)]
mod laser_games;

use counting::{Counts, search};
use laser_games::{Game, Random, setups};
use measure::{Job, env_number, prepare_corpus, secs};

/// Where the side to move's beam would pass through a piece of its own: every ply traces a
/// beam.
const LASER_QUERY: &str = "cql(variant \"Laser Chess\") wtm (nextbeam & [KSDB]) or btm (nextbeam & [ksdb])";

/// The classical query of the other benchmarks.
const CLASSICAL_QUERY: &str = "Ra-h7 ka-h8";

fn main() {
    let runs: usize = env_number("CQLQ_BENCH_RUNS", 5);
    let count: usize = env_number("CQLQ_LASER_GAMES", 100_000);
    let threads = rayon::current_num_threads();
    let laser = generated(count);
    let classical = prepare_corpus();
    let laser_plies = plies(&laser, "cql(variant \"Laser Chess\") true");
    let classical_plies = classical.as_deref().map(|path| plies(path, "true"));
    println!("Laser Chess: {count} generated games, {laser_plies} plies; query `{LASER_QUERY}`");
    match classical_plies {
        Some(plies) => println!("gnuchess-book: {plies} plies; query `{CLASSICAL_QUERY}`"),
        None => println!("gnuchess-book left out: ../shared/data/pgn/gnuchess-book.pgn.zst is not here"),
    }
    println!("{runs} rounds, medians");
    let mut jobs: Vec<(&str, usize, u64, Job<'_, Counts>)> = Vec::new();
    let laser = laser.as_path();
    for used in [1, threads] {
        jobs.push(("Laser Chess", used, laser_plies, Job::new(move || search(laser, LASER_QUERY, None, used))));
        if let (Some(path), Some(plies)) = (classical.as_deref(), classical_plies) {
            jobs.push(("classical", used, plies, Job::new(move || search(path, CLASSICAL_QUERY, None, used))));
        }
    }
    // Round robin: a machine getting slower or faster moves every job alike.
    for _ in 0..runs.max(1) {
        for (_, _, _, job) in &mut jobs {
            job.run();
        }
    }
    println!("{:<28} {:>9} {:>12} {:>22}", "", "time", "plies/s", "time/ply ÷ classical");
    let results: Vec<(&str, usize, u64, Counts, f64)> = jobs
        .into_iter()
        .map(|(name, used, plies, job)| {
            let (counts, time) = job.median().expect("at least one run");
            (name, used, plies, counts, secs(time))
        })
        .collect();
    for &(name, used, plies, counts, time) in &results {
        assert_eq!(counts.errors, 0, "{name}: every game replays");
        let per_ply = time / plies as f64;
        let classical = results.iter().find(|other| other.0 == "classical" && other.1 == used);
        let ratio = classical.map_or(String::from("-"), |c| format!("{:.2}", per_ply / (c.4 / c.2 as f64)));
        println!(
            "{:<28} {:>8.3}s {:>10.2} M {:>22}",
            format!("{name}, {used} thread{}", if used == 1 { "" } else { "s" }),
            time,
            plies as f64 / time / 1e6,
            ratio
        );
    }
    let laser_counts = results[0].3;
    println!(
        "Laser Chess query: {} games, {} positions matched of {} games read",
        laser_counts.games, laser_counts.positions, laser_counts.read
    );
}

/// `count` random legal games, generated once into the bench data folder.
fn generated(count: usize) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-data");
    let path = dir.join(format!("laser-{count}.pgn"));
    if path.exists() {
        return path;
    }
    std::fs::create_dir_all(&dir).expect("target/bench-data");
    let setups = setups();
    let mut random = Random(0x5851_f42d_4c95_7f2d);
    let mut text = String::new();
    for index in 0..count {
        let (name, start) = &setups[index % setups.len()];
        let game = Game::random(name, start, &mut random, 120, index % 4 == 3);
        text.push_str(&game.pgn(&format!("{name} {}", index + 1)));
    }
    let partial = path.with_extension("partial");
    std::fs::write(&partial, text).expect("bench data");
    std::fs::rename(&partial, &path).expect("bench data");
    path
}

/// The plies of a file: the positions `query` (which every position matches) finds, less each
/// game's first.
fn plies(path: &Path, query: &str) -> u64 {
    let counts = search(path, query, None, 0);
    assert_eq!(counts.errors, 0, "{}: every game replays", path.display());
    counts.positions - counts.read
}
