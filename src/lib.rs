//! cqlq: a chess position query engine.
pub mod board;
pub mod notation;
pub mod position;
pub mod query;
pub mod search;
pub mod variant;

pub use position::{AnyPosition, Position, Setup};
pub use query::{Plan, Query, QueryError};
pub use variant::{Color, Variant};
