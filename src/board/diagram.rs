//! Boards drawn as text: one row per rank, rank 1 at the bottom, file letters underneath.
//!
//! ```
//! use cqlq::board::{diagram, Geometry};
//!
//! let board = Geometry::new(3, 2).unwrap();
//! let text = diagram::render(board, |square| if board.is_light(square) { 'o' } else { '.' });
//! assert_eq!(text, "2 o . o\n1 . o .\n  a b c\n");
//! ```

use std::fmt::Write;

use super::geometry::{File, Geometry, Rank};

/// Draws a board, asking `cell` for the character of each square.
pub fn render(geometry: Geometry, cell: impl Fn(super::Square) -> char) -> String {
    let label_width = geometry.ranks().to_string().len();
    let mut out = String::new();
    for rank_index in (0..geometry.ranks()).rev() {
        let rank = Rank::new(rank_index).expect("rank on the board");
        let _ = write!(out, "{:>label_width$}", rank.number());
        for file_index in 0..geometry.files() {
            let file = File::new(file_index).expect("file on the board");
            let square = geometry.square(file, rank).expect("square on the board");
            out.push(' ');
            out.push(cell(square));
        }
        out.push('\n');
    }
    out.push_str(&" ".repeat(label_width));
    for file_index in 0..geometry.files() {
        out.push(' ');
        out.push(File::new(file_index).expect("file on the board").char());
    }
    out.push('\n');
    out
}
