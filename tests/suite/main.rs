//! The integration tests, in one test binary (one link of the library, one run).
//!
//! Each module tests one part of cqlq from the outside: the command line (`cli`, `search`,
//! `cql_command`), the language (`language`, `cql_language`, `designators`, `query_errors`,
//! `cql_reference` beside CQL 6.2), the rules beside shakmaty (`rules_vs_shakmaty`,
//! `replay_vs_shakmaty`, `filter_vs_shakmaty`, `perft`), the notations (`xdecor`, `laser`), the
//! boards (`masks`, `positions`), damaged and hostile input (`damaged_input`,
//! `hostile_input`, `corrupted_corpus`), the files written under hostile use (`output_files`), the bundled
//! samples (`samples_check`) and the example queries of `queries/` (`example_queries`).
//!
//! The tests that read `../shared` (real data, CQL 6.2) are `#[ignore]`: `.ci/run` runs them
//! with `cargo test --release -- --ignored`.

mod common;

mod cli;
mod corrupted_corpus;
mod cql_annotations;
mod cql_command;
mod cql_dictionaries;
mod cql_hhdb;
mod cql_language;
mod cql_moves;
mod cql_paths;
mod cql_probes;
mod cql_reference;
mod cql_similar;
mod cql_texts;
mod cql_tree;
mod crochess;
mod damaged_input;
mod designators;
mod example_queries;
mod filter_vs_shakmaty;
mod hostile_input;
mod language;
mod laser;
mod lichess_vs_shakmaty;
mod masks;
#[cfg(unix)]
mod output_files;
mod perft;
mod positions;
mod query_errors;
mod replay_vs_shakmaty;
mod rules_vs_shakmaty;
mod samples_check;
mod search;
mod xdecor;
