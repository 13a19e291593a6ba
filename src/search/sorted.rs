//! [`SortedSink`]: the games found by a query with `sort`, held back until the search ends and
//! then passed on in the order of their values.

use std::io;

use super::driver::{Found, Problem, Sink, Summary};
use super::replay::MatchedPly;

/// A game found, owned, waiting for its turn.
#[derive(Debug)]
struct Held {
    input: String,
    number: u64,
    offset: u64,
    line: u64,
    text: Vec<u8>,
    movetext: usize,
    matched: Vec<MatchedPly>,
    sort: Option<i64>,
}

/// Holds the games found and passes them to another sink in order of their `sort` value:
/// largest first (smallest first with `min`), games without a value last, ties in input order.
/// Errors and progress pass through at once.
pub struct SortedSink<'s> {
    inner: &'s mut dyn Sink,
    min: bool,
    held: Vec<Held>,
}

impl<'s> SortedSink<'s> {
    /// A sink sorting for `inner`, smallest value first with `min`.
    pub fn new(inner: &'s mut dyn Sink, min: bool) -> SortedSink<'s> {
        SortedSink { inner, min, held: Vec::new() }
    }

    /// Passes the games on, sorted, at most `limit` of them.
    pub fn finish(mut self, limit: Option<u64>) -> io::Result<()> {
        let min = self.min;
        // Games without a value go last; among the others, the best value first.
        self.held.sort_by_key(|game| match game.sort {
            Some(value) if min => (0, value),
            Some(value) => (0, value.saturating_neg()),
            None => (1, 0),
        });
        let limit = limit.map_or(usize::MAX, |limit| usize::try_from(limit).unwrap_or(usize::MAX));
        for game in self.held.iter().take(limit) {
            self.inner.found(&Found {
                input: &game.input,
                number: game.number,
                offset: game.offset,
                line: game.line,
                text: &game.text,
                movetext: game.movetext,
                matched: &game.matched,
                sort: game.sort,
            })?;
        }
        Ok(())
    }
}

impl Sink for SortedSink<'_> {
    fn found(&mut self, game: &Found<'_>) -> io::Result<()> {
        self.held.push(Held {
            input: game.input.to_owned(),
            number: game.number,
            offset: game.offset,
            line: game.line,
            text: game.text.to_vec(),
            movetext: game.movetext,
            matched: game.matched.to_vec(),
            sort: game.sort,
        });
        Ok(())
    }

    fn problem(&mut self, problem: &Problem<'_>) -> io::Result<()> {
        self.inner.problem(problem)
    }

    fn progress(&mut self, summary: &Summary) {
        self.inner.progress(summary);
    }
}
