//! Croatian Chess notation: setup strings (the book's and libcrochess's position format).

pub mod setup_string;
