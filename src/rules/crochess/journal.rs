//! [`Journal`]: what a move being played has changed, to undo it if the move fails.

use crate::board::{Square, SquareSet};
use crate::variant::Piece;

/// The fields a move changed, as they were before it, and the pieces it put in the backhand
/// or took out of it, to put back if it fails. The board keeps one, empty between moves, so
/// that a move allocates nothing.
#[derive(Clone, Debug, Default)]
pub(super) struct Journal<const W: usize> {
    pub(super) touched: SquareSet<W>,
    pub(super) saved: Vec<(Square, Option<Piece>, u8)>,
    /// Pieces put in the backhand (`true`) or taken out of it.
    pub(super) backhand: Vec<(Piece, bool)>,
    /// The fields of the pieces whose paths fit the first ply, where more than one does.
    pub(super) candidates: Vec<Square>,
}
