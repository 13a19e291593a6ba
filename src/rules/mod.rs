//! The rules of each variant family: what a move does, and which moves are legal.
//!
//! - [`classical`]: Standard chess, Chess960 and Crazyhouse on `u64` bitboards.
//! - [`laser`]: Laser Chess, its beam and its turns, on 128-bit boards.

pub mod classical;
mod explain;
mod game;
pub mod laser;

pub use explain::{ExplainedPosition, explain_position};
pub use game::GameRules;

use std::any::Any;

use crate::position::{Position, PositionView};
use crate::query::Program;
use crate::variant::Family;
use classical::Board;
use laser::LaserBoard;

/// Whether a program matches a position that stands alone, tested with the rules of its
/// variant's family (attacks, legal moves, beams) where cqlq plays them, else on the position
/// as it is.
#[must_use]
pub fn matches_with_rules<const W: usize>(program: &Program<W>, position: &Position<W>) -> bool {
    let (any_program, any_position) = (program as &dyn Any, position as &dyn Any);
    match position.variant().family {
        Family::Classical => {
            if let (Some(program), Some(position)) =
                (any_program.downcast_ref::<Program<1>>(), any_position.downcast_ref::<Position<1>>())
            {
                return program.matches(&Board::from_position(position));
            }
        }
        Family::Laser => {
            // A setup no game can reach (a piece where it may not stand) is tested as it is.
            if let (Some(program), Ok(board)) =
                (any_program.downcast_ref::<Program<2>>(), LaserBoard::from_setup(position.setup()))
            {
                return program.matches(&board);
            }
        }
        Family::Croatian | Family::ChessEvolved => {}
    }
    program.matches(position)
}
