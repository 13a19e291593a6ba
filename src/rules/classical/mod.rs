//! The classical family on 8x8 bitboards: Standard chess, Chess960, Crazyhouse (and X-Decor's
//! standard rules).
//!
//! [`Board`] holds a position and plays moves; [`San`] reads Standard Algebraic Notation and
//! [`Board::play_san`] finds the legal move it names. The board implements
//! [`PositionView`](crate::position::PositionView), so compiled queries run on it directly.
//! [`lichess`] adds the rules of lichess's variants (Atomic, Antichess, Horde, King of the Hill,
//! Racing Kings, Three-check) over the same board.
//! This module (with [`board`](crate::board)) is where the 8x8 `u64` representation lives.

pub mod attacks;
mod board;
mod fen;
mod game;
pub(crate) mod kept;
pub mod lichess;
mod san;
mod san_moves;
mod view;
pub mod xdecor;

pub use board::{Board, Move, MoveList, Rules, bits, file_and_rank, square_index};
pub use san::{ParseSanError, San, SanError, SanText};
pub use san_moves::{SAN_MOVES, SanMoves, play_san_token};
