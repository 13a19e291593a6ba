//! Croatian Chess notation: setup strings (the book's and libcrochess's position format), the
//! symbol tables of the two editions, and the reader of moves in short and long notation.

pub mod dialect;
pub mod moves;
pub mod movetext;
pub mod plain;
pub mod setup_string;
pub mod write;
