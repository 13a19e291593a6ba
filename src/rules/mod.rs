//! The rules of each variant family: what a move does, and which moves are legal.
//!
//! - [`classical`]: Standard chess, Chess960 and Crazyhouse on `u64` bitboards.

pub mod classical;
