//! Board geometry and square masks, sized to the variant: 1x1 up to 26x26.
//!
//! - [`Geometry`]: files x ranks, [`Square`] indices and their names (`j10`).
//! - [`SquareSet`]: a set of squares in `W` 64-bit words (bitvec storage).
//! - [`Masks`]: the files, ranks, light and dark squares of one board; complement and shifts.
//! - [`SquareMap`]: flips, rotations and translations of squares and sets ([`Masks::map`]).
//! - Lines: [`Geometry::step_between`] and the squares [`Masks::between`] two others.
//! - [`Width`]: the size class that picks `W` for a board; [`with_width!`](crate::with_width).
//! - [`diagram`]: boards drawn as text.
//!
//! This module is the only place that knows how squares are laid out in words.

pub mod diagram;
mod geometry;
mod lines;
mod masks;
mod set;
mod transform;
mod width;

pub use geometry::{File, Geometry, MAX_SIDE, ParseSquareError, Rank, Square, SquareName, split_square};
pub use masks::{Direction, Masks, WidthError};
pub use set::{Iter, SquareSet};
pub use transform::SquareMap;
pub use width::Width;
