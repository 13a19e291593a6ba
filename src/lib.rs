//! cqlq: a chess position query engine.
//!
//! Queries are written in a CQL 6 style language with Scidb's square designators, compiled per
//! variant to square masks sized to its board (8x8 to 26x26), and matched against positions of
//! classical chess and its relatives, the Croatian Chess variants, Laser Chess and Chess Evolved
//! Online.
//!
//! ```
//! use cqlq::notation::sniff::read_position;
//! use cqlq::{Query, Variant};
//!
//! // A white rook on the seventh rank with the black king on the eighth.
//! let query = Query::parse("Ra-h7 ka-h8")?;
//! let plan = query.compile(Variant::standard())?;
//! let position = read_position("6k1/1R3ppp/8/8/8/8/5PPP/6K1 w - - 0 40", None)?;
//! assert!(plan.matches(&position));
//!
//! // The same language on a 26x26 board: a Starchild next to the light-half Monolith.
//! let one = Variant::by_name("One")?;
//! let plan = Query::parse("Mb8 [Ii][a-c7-9]")?.compile(one)?;
//! let position = read_position("O Kn1,kn26,Mb8,Ic9", None)?;
//! assert!(plan.matches(&position));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! The modules, in the order data flows through them:
//!
//! - [`board`]: geometry, squares and square sets ([`board::SquareSet`], `W` words per set).
//! - [`variant`]: the catalogue of variants, as data.
//! - [`position`]: positions of every variant, and the [`position::PositionView`] queries read.
//! - [`notation`]: FEN, Croatian Chess setup strings, Laser Chess Setup Notation, sniffing.
//! - [`query`]: the language: parse, check, compile to a [`Plan`], explain.
//! - [`search`]: running a query over many positions on every core.
//!
//! # Feature flags
//!
//! - `cli` (default): the `cqlq` command (clap, anyhow). The library needs neither.

pub mod board;
pub(crate) mod hash;
pub mod notation;
pub mod position;
pub mod query;
pub mod rules;
pub mod search;
#[cfg(test)]
mod test_random;
pub mod text;
pub mod variant;

pub use position::{AnyPosition, Position, Setup};
pub use query::{Plan, Query, QueryError};
pub use variant::{Color, Variant};
