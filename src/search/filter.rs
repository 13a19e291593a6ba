//! Filtering batches of positions, one per line.
//!
//! A line is a FEN (an `epd ` prefix allowed), a Croatian Chess setup string or Laser Chess Setup
//! Notation, of a given variant or of a sniffed one. Blank lines, `#` comments and the `id` and
//! `perft` lines of perft suites are skipped. The query is compiled once per variant met.
//!
//! ```
//! use cqlq::search::{LineOutcome, PositionFilter};
//! use cqlq::Query;
//!
//! let filter = PositionFilter::new(Query::parse("Qh7 kg8")?, None);
//! let lines = ["# two positions", "6k1/7Q/8/8/8/8/8/6K1 b - - 0 1", "6k1/8/8/8/8/8/8/6K1 b - - 0 1"];
//! let outcomes = filter.run(&lines);
//! assert_eq!(outcomes, [LineOutcome::Skipped, LineOutcome::Matched, LineOutcome::NotMatched]);
//! # Ok::<_, cqlq::QueryError>(())
//! ```

use rayon::prelude::*;

use super::plans::Plans;
use crate::notation::sniff::ReadPositionError;
use crate::query::{Plan, Query, QueryError};
use crate::rules::read_position;
use crate::variant::Variant;

/// What became of one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineOutcome {
    /// A blank line, a comment or a perft-suite directive.
    Skipped,
    /// A position that matches.
    Matched,
    /// A position that does not match.
    NotMatched,
    /// Not a position.
    Invalid(ReadPositionError),
    /// A position of a variant the query does not compile for (the error is in
    /// [`PositionFilter::compile_error`]).
    Uncompiled(&'static Variant),
}

/// A query ready to run over lines of positions, compiled lazily per variant.
#[derive(Debug)]
pub struct PositionFilter {
    plans: Plans,
    variant: Option<&'static Variant>,
    pool: Option<rayon::ThreadPool>,
}

impl PositionFilter {
    /// A filter for positions of `variant`, or of any variant sniffed from each line.
    #[must_use]
    pub fn new(query: Query, variant: Option<&'static Variant>) -> PositionFilter {
        PositionFilter { plans: Plans::new(query), variant, pool: None }
    }

    /// Runs on `threads` threads rather than on all cores.
    pub fn with_threads(mut self, threads: usize) -> Result<PositionFilter, rayon::ThreadPoolBuildError> {
        self.pool = Some(rayon::ThreadPoolBuilder::new().num_threads(threads).build()?);
        Ok(self)
    }

    /// The plan for a variant, compiled on first use.
    pub fn plan(&self, variant: &'static Variant) -> Result<&Plan, &QueryError> {
        self.plans.get(variant)
    }

    /// The compile error for a variant, if the query does not compile for it.
    #[must_use]
    pub fn compile_error(&self, variant: &'static Variant) -> Option<&QueryError> {
        self.plan(variant).err()
    }

    /// Decides one line.
    #[must_use]
    pub fn line(&self, line: &str) -> LineOutcome {
        self.line_as(line, None)
    }

    /// Decides one line, read as a position of `likely` first when the filter has no variant of
    /// its own and the line reads so (else sniffed).
    #[must_use]
    pub fn line_as(&self, line: &str, likely: Option<&'static Variant>) -> LineOutcome {
        let trimmed = line.trim();
        if is_skipped(trimmed) {
            return LineOutcome::Skipped;
        }
        let read = match (self.variant, likely) {
            (Some(variant), _) => read_position(trimmed, Some(variant)),
            (None, Some(likely)) => read_position(trimmed, Some(likely)).or_else(|_| read_position(trimmed, None)),
            (None, None) => read_position(trimmed, None),
        };
        let position = match read {
            Ok(position) => position,
            Err(error) => return LineOutcome::Invalid(error),
        };
        match self.plan(position.variant()) {
            Ok(plan) if plan.matches(&position) => LineOutcome::Matched,
            Ok(_) => LineOutcome::NotMatched,
            Err(_) => LineOutcome::Uncompiled(position.variant()),
        }
    }

    /// Decides many lines on all threads; the outcomes are in the order of the lines.
    #[must_use]
    pub fn run<S: AsRef<str> + Sync>(&self, lines: &[S]) -> Vec<LineOutcome> {
        self.run_as(lines, None)
    }

    /// Decides many lines on all threads, each read as a position of `likely` first (see
    /// [`PositionFilter::line_as`]); the outcomes are in the order of the lines.
    #[must_use]
    pub fn run_as<S: AsRef<str> + Sync>(&self, lines: &[S], likely: Option<&'static Variant>) -> Vec<LineOutcome> {
        let run = || lines.par_iter().with_min_len(256).map(|line| self.line_as(line.as_ref(), likely)).collect();
        match &self.pool {
            Some(pool) => pool.install(run),
            None => run(),
        }
    }

    /// The variant of the first line that is a position, sniffed: the likely variant of the
    /// lines of the same input. `None` when the filter has a variant of its own.
    #[must_use]
    pub fn likely_variant<S: AsRef<str>>(&self, lines: &[S]) -> Option<&'static Variant> {
        if self.variant.is_some() {
            return None;
        }
        lines
            .iter()
            .map(|line| line.as_ref().trim())
            .filter(|line| !is_skipped(line))
            .find_map(|line| read_position(line, None).ok())
            .map(|position| position.variant())
    }
}

/// Lines that hold no position: blank lines, `#` comments, and the `id`/`perft` lines of perft
/// suites.
fn is_skipped(line: &str) -> bool {
    line.is_empty() || line.starts_with('#') || line.starts_with("id ") || line.starts_with("perft ")
}
