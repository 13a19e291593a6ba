//! Running a query over many positions or games, on every core. This is the only module that uses
//! rayon: work is split into chunks that keep their input order, so output never depends on the
//! number of threads.

pub mod filter;

pub use filter::{LineOutcome, PositionFilter};
