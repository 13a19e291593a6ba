//! The rules of each variant family: what a move does, and which moves are legal.
//!
//! - [`classical`]: Standard chess, Chess960 and Crazyhouse on `u64` bitboards.
//! - [`crochess`]: the eleven variants of Croatian Chess, 8x8 to 26x26.
//! - [`laser`]: Laser Chess, its beam and its turns, on 128-bit boards.
//!
//! [`registry`] is the one place that knows which rule set plays a variant; [`Plan::matches`]
//! and [`explain_position`] test a position that stands alone with its variant's rules.
//!
//! [`Plan::matches`]: crate::query::Plan::matches

pub mod classical;
pub mod crochess;
mod explain;
pub mod formats;
mod game;
pub mod laser;
pub mod registry;

pub use explain::{ExplainedPosition, explain_position};
pub use game::{GameRules, NotationForm, RecordFormat, Rewritten};
pub use registry::{check_position, read_position};
