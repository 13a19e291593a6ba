//! Running a query over many positions or games, on every core. This is the only module that uses
//! rayon: work is split into chunks that keep their input order, so output never depends on the
//! number of threads.
//!
//! - [`Search`]: PGN game collections (files, memory-mapped; standard input; `.zst`, `.gz`),
//!   replayed in parallel, results to a [`Sink`].
//! - [`PositionFilter`]: batches of positions, one per line.
//! - [`SortedSink`]: the games of a query with `sort`, in the order of their values.
//!
//! ```
//! use cqlq::search::{Found, Input, Search, SearchOptions, Sink, Summary};
//! use cqlq::Query;
//!
//! struct Numbers(Vec<u64>);
//! impl Sink for Numbers {
//!     fn found(&mut self, game: &Found<'_>) -> std::io::Result<()> {
//!         self.0.push(game.number);
//!         Ok(())
//!     }
//! }
//!
//! let pgn = b"[Event \"a\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n[Event \"b\"]\n\n1. d4 d5 *\n";
//! let search = Search::new(Query::parse("Qf7 ke8")?, SearchOptions::default())?;
//! let mut found = Numbers(Vec::new());
//! let mut summary = Summary::default();
//! search.run(&mut Input::from_bytes("games.pgn", pgn.to_vec()), &mut found, &mut summary)?;
//! assert_eq!(found.0, [1]);
//! assert_eq!((summary.games, summary.matched, summary.positions), (2, 1, 1));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

mod convert;
mod cql_game;
mod driver;
pub mod filter;
mod input;
mod main_line;
pub mod output;
mod pipeline;
mod plans;
mod positions;
mod reasons;
mod render;
mod replay;
mod similar;
mod sorted;

pub use convert::{Converter, NOT_CONVERTED, NotConverted, Target, pgn_of};
pub use driver::{Found, Problem, Search, SearchError, SearchOptions, Sink, Summary, estimated_games};
pub use filter::{LineOutcome, PositionFilter};
pub use input::{Input, MAPPED_GROWTH, WINDOW_BYTES, WINDOW_GAMES, Window, paths_or_stdin};
pub use main_line::{MainLine, read_main_line};
pub use plans::Plans;
pub use positions::{EpdComments, PositionsFormat};
pub use reasons::{describe, in_words, open_to_read};
pub use render::Render;
pub use replay::{
    Carried, GameEdits, GameError, GameErrorKind, GameNote, GameRecord, GameWarning, MatchedPly, ReplayOptions,
    StopMark, TOKEN_CHARS, replay_range, replay_ranges,
};
pub use similar::{SimilarGamesError, load_similar_games};
pub use sorted::SortedSink;
