//! [`Horde`]: White's pawns against Black's army.

use super::{Outcome, ParseFenError, RuleSet, fen, insufficient};
use crate::rules::classical::Board;
use crate::variant::Color;

/// A position of Horde: White has 36 pawns and no king (pawns on the first rank may step two
/// squares), Black a standard army; a side whose pieces are all taken loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Horde {
    board: Board,
}

impl RuleSet for Horde {
    const NAME: &'static str = "Horde";

    fn from_fen(text: &str) -> Result<Horde, ParseFenError> {
        let (board, _) = fen::read(text, false)?;
        Ok(Horde { board })
    }

    fn from_board(board: Board) -> Horde {
        Horde { board }
    }

    fn board(&self) -> &Board {
        &self.board
    }

    fn board_mut(&mut self) -> &mut Board {
        &mut self.board
    }

    fn has_insufficient_material(&self, color: Color) -> bool {
        insufficient::horde(&self.board, color)
    }

    fn variant_outcome(&self) -> Option<Outcome> {
        match (self.board.side(Color::White) == 0, self.board.side(Color::Black) == 0) {
            (true, true) => Some(Outcome::Draw),
            (true, false) => Some(Outcome::Decisive { winner: Color::Black }),
            (false, true) => Some(Outcome::Decisive { winner: Color::White }),
            (false, false) => None,
        }
    }
}
