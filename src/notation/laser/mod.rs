//! Laser Chess notation: Setup Notation.

pub mod setup_notation;
