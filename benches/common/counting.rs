//! A search that only counts what it finds, for the benchmarks that compare searches of the
//! same games in different files or notations.

use std::io;
use std::path::Path;

use cqlq::Query;
use cqlq::notation::Container;
use cqlq::search::{Found, Input, Search, SearchOptions, Sink, Summary};

/// What a search found, and what it read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Games that matched.
    pub games: u64,
    /// Positions that matched.
    pub positions: u64,
    /// Games read.
    pub read: u64,
    /// Games with errors.
    pub errors: u64,
}

/// A sink that only counts.
#[derive(Default)]
struct Counted(Counts);

impl Sink for Counted {
    fn found(&mut self, game: &Found<'_>) -> io::Result<()> {
        self.0.games += 1;
        self.0.positions += game.matched.len() as u64;
        Ok(())
    }
}

/// cqlq's library search of a file with `query` on `threads` threads (0: all), the file held
/// as `container` says (sniffed when `None`).
pub fn search(path: &Path, query: &str, container: Option<Container>, threads: usize) -> Counts {
    let options = SearchOptions { threads, ..SearchOptions::default() };
    let search = Search::new(Query::parse(query).expect("query"), options).expect("search");
    let mut counted = Counted::default();
    let mut summary = Summary::default();
    let mut input = Input::open(path).expect("input").with_container(container);
    let _ = search.run(&mut input, &mut counted, &mut summary).expect("search");
    Counts { read: summary.games, errors: summary.errors, ..counted.0 }
}
