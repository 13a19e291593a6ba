//! Whether a side can still win, in the variants where lichess ends a game for want of
//! material.

use crate::rules::classical::Board;
use crate::rules::classical::attacks::Bitboard;
use crate::variant::{Color, Role};

/// The dark squares (a1 is one).
const DARK: Bitboard = 0xAA55_AA55_AA55_AA55;
/// The light squares.
const LIGHT: Bitboard = !DARK;

/// All the pieces of a role, both colours.
fn all(board: &Board, role: Role) -> Bitboard {
    board.pieces(Color::White, role) | board.pieces(Color::Black, role)
}

/// Atomic: a bare king cannot win; nor can a lone minor piece or rook, or two knights, against
/// a bare king; nor bishops against bishops that can never stand next to each other.
pub(super) fn atomic(board: &Board, color: Color) -> bool {
    let them = color.other();
    let kings = all(board, Role::King);
    if board.pieces(them, Role::King) == 0 {
        return false;
    }
    if board.side(color) & !kings == 0 {
        return true;
    }
    if board.side(them) & !kings != 0 {
        // The enemy's own pieces may explode next to its king, unless all are bishops that
        // never meet ours.
        let bishops = all(board, Role::Bishop);
        if board.occupied() == kings | bishops {
            let ours = |color: Color, squares: Bitboard| board.pieces(color, Role::Bishop) & squares;
            if ours(Color::White, DARK) == 0 {
                return ours(Color::Black, LIGHT) == 0;
            }
            if ours(Color::White, LIGHT) == 0 {
                return ours(Color::Black, DARK) == 0;
            }
        }
        return false;
    }
    if all(board, Role::Queen) | all(board, Role::Pawn) != 0 {
        return false;
    }
    if (all(board, Role::Knight) | all(board, Role::Bishop) | all(board, Role::Rook)).count_ones() == 1 {
        return true;
    }
    if board.occupied() == kings | all(board, Role::Knight) {
        return all(board, Role::Knight).count_ones() <= 2;
    }
    false
}

/// Antichess: a side can no longer lose all its pieces when only bishops are left that the
/// other side's can never take, or in some endings of a knight against a knight.
pub(super) fn antichess(board: &Board, color: Color) -> bool {
    let ours = board.side(color);
    let theirs = board.side(color.other());
    if ours == 0 {
        return false;
    }
    if theirs == 0 {
        return true;
    }
    let occupied = board.occupied();
    if occupied == all(board, Role::Bishop) {
        let (we_light, we_dark) = (ours & LIGHT != 0, ours & DARK != 0);
        return (we_light && theirs & LIGHT == 0) || (we_dark && theirs & DARK == 0);
    }
    if occupied == all(board, Role::Knight)
        && board.side(Color::White).count_ones() == 1
        && board.side(Color::Black).count_ones() == 1
    {
        // Knights on squares of the same colour: the side to move can never be taken.
        let white_light = board.side(Color::White) & LIGHT != 0;
        let black_dark = board.side(Color::Black) & DARK != 0;
        let flips = white_light ^ black_dark;
        let side = if flips { color.other() } else { color };
        return board.turn() == side;
    }
    false
}

/// Three-check: any piece but the king can still give check.
pub(super) fn three_check(board: &Board, color: Color) -> bool {
    board.side(color) & !board.pieces(color, Role::King) == 0
}
