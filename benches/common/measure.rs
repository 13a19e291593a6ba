//! What every benchmark needs: the corpus decompressed once, jobs timed round robin, medians and
//! the targets' verdicts.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// `gnuchess-book`, decompressed once into `target/bench-data`; `None` when `../shared` is absent.
pub fn prepare_corpus() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let source = root.join("../shared/data/pgn/gnuchess-book.pgn.zst");
    if !source.exists() {
        return None;
    }
    let dir = root.join("target/bench-data");
    let target = dir.join("gnuchess-book.pgn");
    if !target.exists() {
        std::fs::create_dir_all(&dir).expect("target/bench-data");
        let partial = dir.join("gnuchess-book.pgn.partial");
        let mut decoder = zstd::stream::read::Decoder::new(File::open(&source).expect("corpus")).expect("zstd");
        io::copy(&mut decoder, &mut File::create(&partial).expect("bench data")).expect("decompress");
        std::fs::rename(&partial, &target).expect("bench data");
    }
    Some(target)
}

/// A whole number read from the environment, or `default`.
pub fn env_number<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|value| value.parse().ok()).unwrap_or(default)
}

/// Seconds, as a float.
pub fn secs(time: Duration) -> f64 {
    time.as_secs_f64()
}

/// Prints a target's line: what was measured, its value, the goal and whether it is met.
pub fn target(number: &str, what: &str, value: f64, goal: &str, met: bool) {
    let verdict = if met { "met" } else { "NOT MET" };
    println!("{number}. {what:<48} {value:>9.2}   target {goal:<8} {verdict}");
}

/// A measured job: its times, and what it found last.
pub struct Job<'a, T> {
    prepare: Option<Box<dyn FnMut() + 'a>>,
    work: Box<dyn FnMut() -> T + 'a>,
    times: Vec<Duration>,
    found: Option<T>,
}

impl<'a, T> Job<'a, T> {
    /// A job doing `work` once per run.
    pub fn new(work: impl FnMut() -> T + 'a) -> Job<'a, T> {
        Job { prepare: None, work: Box::new(work), times: Vec::new(), found: None }
    }

    /// A job doing `prepare`, untimed, then `work`, timed, once per run.
    #[allow(dead_code, reason = "only some benchmarks prepare their runs")]
    pub fn prepared(prepare: impl FnMut() + 'a, work: impl FnMut() -> T + 'a) -> Job<'a, T> {
        Job { prepare: Some(Box::new(prepare)), ..Job::new(work) }
    }

    /// Runs the job once and keeps its time.
    pub fn run(&mut self) {
        if let Some(prepare) = &mut self.prepare {
            prepare();
        }
        let start = Instant::now();
        self.found = Some(std::hint::black_box((self.work)()));
        self.times.push(start.elapsed());
    }

    /// What it found last and its median time; `None` before any run.
    pub fn median(mut self) -> Option<(T, Duration)> {
        self.times.sort();
        let median = *self.times.get(self.times.len() / 2)?;
        Some((self.found?, median))
    }
}
