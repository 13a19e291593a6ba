//! Croatian Chess replay: generated games of One (26x26) and of Classical Chess (8x8), written
//! in the long notation, beside standard games in PGN (SAN), searched with one query in the
//! same run, per ply.
//!
//! `cargo bench --bench crochess` — the games are generated once into `target/bench-data/`
//! (`CQLQ_CROCHESS_GAMES` sets how many of each Croatian variant, `CQLQ_BENCH_RUNS` the runs
//! per measurement, default 5).
//!
//! Printed: for each corpus, on 1 thread, the time and the plies per second; One's time per ply
//! against Classical Chess's (performance target: at most 4x), and Classical Chess's against
//! PGN's (at most 2x).

use std::path::{Path, PathBuf};

#[path = "common/measure.rs"]
#[allow(dead_code)]
mod measure;

#[path = "common/counting.rs"]
mod counting;

#[path = "../tests/suite/common/games.rs"]
mod games;

#[path = "../tests/suite/common/crochess_games.rs"]
#[allow(dead_code)]
mod crochess_games;

use counting::{Counts, search};
use cqlq::{Variant, with_width};
use crochess_games::{Form, pgn, random_game};
use measure::{Job, env_number, secs, target};

/// A board query every position is tested with.
const QUERY: &str = "Ra-h7 ka-h8";

fn main() {
    let runs: usize = env_number("CQLQ_BENCH_RUNS", 5);
    let count: usize = env_number("CQLQ_CROCHESS_GAMES", 400);
    let corpora = [
        ("One, long notation", generated("One", count)),
        ("Classical Chess, long notation", generated("Classical Chess", count * 4)),
        ("Standard, PGN", standard(count * 4)),
    ];
    let plies: Vec<u64> = corpora.iter().map(|(_, path)| plies(path)).collect();
    for ((name, _), plies) in corpora.iter().zip(&plies) {
        println!("{name}: {plies} plies");
    }
    println!("query `{QUERY}`, 1 thread, {runs} rounds, medians");
    let mut jobs: Vec<Job<'_, Counts>> =
        corpora.iter().map(|(_, path)| Job::new(move || search(path, QUERY, None, 1))).collect();
    // Round robin: a machine getting slower or faster moves every job alike.
    for _ in 0..runs.max(1) {
        for job in &mut jobs {
            job.run();
        }
    }
    let mut per_ply = Vec::new();
    for (((name, _), job), plies) in corpora.iter().zip(jobs).zip(&plies) {
        let (counts, time) = job.median().expect("at least one run");
        assert_eq!(counts.errors, 0, "{name}: every game replays");
        let time = secs(time);
        per_ply.push(time / *plies as f64);
        println!(
            "{name:<32} {time:>8.3}s {:>8.2} M plies/s {:>8.1} ns/ply",
            *plies as f64 / time / 1e6,
            time / *plies as f64 * 1e9
        );
    }
    let one = per_ply[0] / per_ply[1];
    let classical = per_ply[1] / per_ply[2];
    target("6", "One per ply ÷ Classical Chess per ply", one, "at most 4", one <= 4.0);
    target("6", "Classical Chess per ply ÷ PGN per ply", classical, "at most 2", classical <= 2.0);
}

/// `count` random games of a Croatian variant in the long notation, generated once.
fn generated(name: &str, count: usize) -> PathBuf {
    let variant = Variant::by_name(name).expect("a variant of the catalogue");
    let file = format!("crochess-{}-{count}.pgn", variant.code.unwrap_or("x"));
    cached(&file, || {
        let mut text = String::new();
        for seed in 0..count as u64 {
            let game = with_width!(variant.width(), W => random_game::<W>(variant, seed, 100));
            text.push_str(&pgn(&game, name, seed, Form::Long));
        }
        text
    })
}

/// `count` random standard games in PGN.
fn standard(count: usize) -> PathBuf {
    cached(&format!("standard-{count}.pgn"), || games::random_games("Standard", count, 11))
}

fn cached(file: &str, make: impl FnOnce() -> String) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-data");
    let path = dir.join(file);
    if !path.exists() {
        std::fs::create_dir_all(&dir).expect("target/bench-data");
        let partial = path.with_extension("partial");
        std::fs::write(&partial, make()).expect("bench data");
        std::fs::rename(&partial, &path).expect("bench data");
    }
    path
}

/// The plies of a file: the positions every position matches, less each game's first.
fn plies(path: &Path) -> u64 {
    let counts = search(path, "true", None, 0);
    assert_eq!(counts.errors, 0, "{}: every game replays", path.display());
    counts.positions - counts.read
}
