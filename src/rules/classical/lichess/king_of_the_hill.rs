//! [`KingOfTheHill`]: a king in the centre wins.

use super::{Outcome, ParseFenError, RuleSet, fen};
use crate::rules::classical::Board;
use crate::rules::classical::attacks::Bitboard;
use crate::variant::{Color, Role};

/// d4, e4, d5 and e5.
const HILL: Bitboard = 0x0000_0018_1800_0000;

/// A position of King of the Hill: standard chess, and a king that reaches d4, e4, d5 or e5
/// wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KingOfTheHill {
    board: Board,
}

impl RuleSet for KingOfTheHill {
    const NAME: &'static str = "King of the Hill";

    const STANDARD_MOVES: bool = true;

    fn from_fen(text: &str) -> Result<KingOfTheHill, ParseFenError> {
        let (board, _) = fen::read(text, true)?;
        Ok(KingOfTheHill { board })
    }

    fn from_board(board: Board) -> KingOfTheHill {
        KingOfTheHill { board }
    }

    fn board(&self) -> &Board {
        &self.board
    }

    fn board_mut(&mut self) -> &mut Board {
        &mut self.board
    }

    fn variant_outcome(&self) -> Option<Outcome> {
        Color::ALL
            .into_iter()
            .find(|color| self.board.pieces(*color, Role::King) & HILL != 0)
            .map(|winner| Outcome::Decisive { winner })
    }
}
