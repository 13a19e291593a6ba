//! [`Plans`]: one query, compiled on first use for each variant met.

use std::sync::OnceLock;

use crate::query::{Plan, Query, QueryError};
use crate::variant::Variant;

/// A query and its plans, one per variant, compiled when a variant is first met. Shared by all
/// threads.
#[derive(Debug)]
pub struct Plans {
    query: Query,
    plans: Vec<OnceLock<Result<Plan, QueryError>>>,
    /// The numbers of the games searched, from the first to the last (or the first alone):
    /// all when none are given.
    games: Option<(u64, Option<u64>)>,
}

impl Plans {
    /// The plans of a query.
    #[must_use]
    pub fn new(query: Query) -> Plans {
        Plans { query, plans: Variant::all().iter().map(|_| OnceLock::new()).collect(), games: None }
    }

    /// The same plans, searching only the games numbered from `first` to `last` (`first` alone
    /// without `last`; all with none): the others are read, but the query is not tested on
    /// them, and does nothing there.
    #[must_use]
    pub fn searching(self, games: Option<(u64, Option<u64>)>) -> Plans {
        Plans { games, ..self }
    }

    /// The same plans, failing for every variant where `other` fails, with `other`'s error:
    /// a game of such a variant is reported as `other` reports it. Compiles `other` for every
    /// variant.
    #[must_use]
    pub fn failing_where(mut self, other: &Plans) -> Plans {
        for variant in Variant::all() {
            if let Err(error) = other.get(variant) {
                self.plans[variant.index()] = OnceLock::from(Err(error.clone()));
            }
        }
        self
    }

    /// Whether the game numbered `number` (from 1) is searched.
    #[must_use]
    pub fn searches(&self, number: u64) -> bool {
        self.games.is_none_or(|(first, last)| {
            number >= first && last.map_or(first == 0 || number <= first, |last| number <= last)
        })
    }

    /// The query.
    #[must_use]
    pub fn query(&self) -> &Query {
        &self.query
    }

    /// The plan for a variant, compiled on first use.
    pub fn get(&self, variant: &'static Variant) -> Result<&Plan, &QueryError> {
        self.plans[variant.index()].get_or_init(|| self.query.compile(variant)).as_ref()
    }

    /// Whether the query compiles for no variant among `variants`.
    #[must_use]
    pub fn fits_none(&self, variants: &[&'static Variant]) -> bool {
        variants.iter().all(|variant| self.get(variant).is_err())
    }
}
