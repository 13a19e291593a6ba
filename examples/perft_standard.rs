//! Counts the leaf positions of Standard chess's initial position at a depth (5 unless given):
//! a yardstick for move generation speed.
//!
//! `cargo run --release --example perft_standard -- 5`

use cqlq::Variant;
use cqlq::rules::classical::Board;

fn main() {
    let depth = std::env::args().nth(1).and_then(|arg| arg.parse().ok()).unwrap_or(5);
    let board = Board::initial(Variant::standard());
    println!("perft {depth}: {}", board.perft(depth));
}
