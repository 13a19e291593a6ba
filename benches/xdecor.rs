//! `cqlq search` over `gnuchess-book` as PGN and as X-Decor records, the same query in the same
//! run: the long forms name both squares of every move, so no SAN has to be resolved, and
//! searching them should be at least as fast per ply as searching the PGN.
//!
//! `cargo bench --bench xdecor` — needs `../shared/data/pgn/gnuchess-book.pgn.zst`; the PGN is
//! decompressed and converted to `moves_raw` and to the move table once, into
//! `target/bench-data/`. `CQLQ_BENCH_RUNS` sets the runs per measurement (default 5).
//!
//! Measured, each on 1 thread and on all threads, query `Ra-h7 ka-h8`: the PGN, the
//! `moves_raw` records (one game a line), the move table as the mod shows it. Printed: times,
//! plies per second, and each X-Decor form's time per ply against the PGN's.

use std::io;
use std::path::{Path, PathBuf};

use cqlq::notation::Container;
use cqlq::rules::classical::xdecor::{RAW_FORMAT, TABLE_FORMAT};
use cqlq::search::{Converter, Found, Input, Render, Search, SearchOptions, Sink, Summary, Target};
use cqlq::{Query, Variant};

#[path = "common/measure.rs"]
mod measure;

#[path = "common/counting.rs"]
mod counting;

use counting::Counts;
use measure::{Job, env_number, prepare_corpus, secs, target};

const QUERY: &str = "Ra-h7 ka-h8";

fn main() {
    let Some(pgn) = prepare_corpus() else {
        println!("xdecor benchmark skipped: ../shared/data/pgn/gnuchess-book.pgn.zst is not here");
        return;
    };
    let runs: usize = env_number("CQLQ_BENCH_RUNS", 5);
    let threads = rayon::current_num_threads();
    let raw = converted(&pgn, Target::XDecorRaw, "gnuchess-book.raw");
    let table = converted(&pgn, Target::XDecor, "gnuchess-book.xdecor");
    let plies = plies(&pgn);
    let size = |path: &Path| std::fs::metadata(path).expect("bench data").len() as f64 / 1e6;
    println!(
        "gnuchess-book: {plies} plies; PGN {:.1} MB, moves_raw {:.1} MB, move table {:.1} MB; {runs} rounds, medians",
        size(&pgn),
        size(&raw),
        size(&table)
    );
    let raw_format = Some(Container::Native(&RAW_FORMAT));
    let table_format = Some(Container::Native(&TABLE_FORMAT));
    let mut jobs: [Job<'_, Counts>; 6] = [
        Job::new(|| search(&pgn, None, 1)),
        Job::new(|| search(&raw, raw_format, 1)),
        Job::new(|| search(&table, table_format, 1)),
        Job::new(|| search(&pgn, None, 0)),
        Job::new(|| search(&raw, raw_format, 0)),
        Job::new(|| search(&table, table_format, 0)),
    ];
    // Round robin: a machine getting slower or faster moves every job alike.
    for _ in 0..runs.max(1) {
        for job in &mut jobs {
            job.run();
        }
    }
    let results = jobs.map(|job| job.median().expect("at least one run"));
    let pgn_counts = results[0].0;
    for (counts, _) in &results {
        assert_eq!(*counts, pgn_counts, "every form finds the same games and positions");
    }
    println!(
        "query `{QUERY}`: {} games, {} positions matched of {} games read",
        pgn_counts.games, pgn_counts.positions, pgn_counts.read
    );
    println!("{:<36} {:>9} {:>12} {:>14}", "", "time", "plies/s", "time/ply ÷ PGN");
    let names = ["PGN", "moves_raw", "move table"];
    for (index, (_, time)) in results.iter().enumerate() {
        let threads_used = if index < 3 { 1 } else { threads };
        let baseline = results[if index < 3 { 0 } else { 3 }].1;
        println!(
            "{:<36} {:>8.3}s {:>10.1} M {:>14.2}",
            format!("{}, {threads_used} thread{}", names[index % 3], if threads_used == 1 { "" } else { "s" }),
            secs(*time),
            plies as f64 / secs(*time) / 1e6,
            secs(*time) / secs(baseline)
        );
    }
    println!();
    let raw_ratio = secs(results[1].1) / secs(results[0].1);
    let raw_ratio_n = secs(results[4].1) / secs(results[3].1);
    target("x1", "moves_raw / PGN, time per ply, 1 thread", raw_ratio, "<= 1.00", raw_ratio <= 1.0);
    target(
        "x2",
        &format!("moves_raw / PGN, time per ply, {threads} threads"),
        raw_ratio_n,
        "<= 1.00",
        raw_ratio_n <= 1.0,
    );
}

/// The plies of the corpus, counted by `cqlq positions`' way: the positions of every game,
/// less its initial one.
fn plies(pgn: &Path) -> u64 {
    let counts = counting::search(pgn, "true", None, 0);
    counts.positions - counts.read
}

/// The corpus converted to an X-Decor form, once, into the bench data folder.
fn converted(pgn: &Path, target: Target, name: &str) -> PathBuf {
    let path = pgn.with_file_name(name);
    if path.exists() {
        return path;
    }
    struct Writer {
        converter: Converter,
        out: Vec<u8>,
    }
    impl Sink for Writer {
        fn renderer(&self) -> Option<std::sync::Arc<dyn Render>> {
            Some(std::sync::Arc::new(self.converter))
        }
        fn found(&mut self, game: &Found<'_>) -> io::Result<()> {
            let rendered = game.rendered.expect("rendered on the search's threads");
            assert!(Converter::not_converted(rendered).is_none(), "every game converts");
            self.out.extend_from_slice(rendered);
            Ok(())
        }
    }
    let search = Search::new(Query::parse("true").expect("query"), SearchOptions::default()).expect("search");
    let mut writer = Writer {
        converter: Converter { target, default_variant: Variant::standard(), edition: None, to_edition: None },
        out: Vec::new(),
    };
    let _ =
        search.run(&mut Input::open(pgn).expect("corpus"), &mut writer, &mut Summary::default()).expect("conversion");
    let partial = path.with_extension("partial");
    std::fs::write(&partial, &writer.out).expect("bench data");
    std::fs::rename(&partial, &path).expect("bench data");
    path
}

/// cqlq's library search of a file held as `container` says (sniffed when `None`).
fn search(path: &Path, container: Option<Container>, threads: usize) -> Counts {
    counting::search(path, QUERY, container, threads)
}
