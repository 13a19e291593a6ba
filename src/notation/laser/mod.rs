//! Laser Chess positions: Setup Notation. The turns of its games are the family's own, read
//! and written beside its rules (`rules::laser::notation`).

pub mod setup_notation;
