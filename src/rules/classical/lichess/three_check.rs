//! [`ThreeCheck`]: the third check wins.

use super::moves;
use super::{Outcome, ParseFenError, RuleSet, fen, insufficient};
use crate::rules::classical::{Board, Move};
use crate::variant::Color;
use crate::variant::vocabulary::MAX_COUNTERS;

/// The checks that win.
const CHECKS: u8 = 3;

/// A position of Three-check: standard chess, and a side that gives its third check wins. The
/// position carries the checks each side has still to give.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ThreeCheck {
    board: Board,
    /// The checks White and Black have still to give, from 3 down to 0.
    remaining: [u8; 2],
}

impl ThreeCheck {
    /// The checks `color` has still to give to win.
    #[must_use]
    pub fn remaining_checks(&self, color: Color) -> u8 {
        self.remaining[color.index()]
    }
}

impl RuleSet for ThreeCheck {
    const NAME: &'static str = "Three-check";

    const STANDARD_MOVES: bool = true;

    fn from_fen(text: &str) -> Result<ThreeCheck, ParseFenError> {
        let (board, remaining) = fen::read(text, true)?;
        Ok(ThreeCheck { board, remaining: remaining.unwrap_or([CHECKS; 2]) })
    }

    fn from_board(board: Board) -> ThreeCheck {
        ThreeCheck { board, remaining: [CHECKS; 2] }
    }

    fn counters(&self) -> [[u16; 2]; MAX_COUNTERS] {
        let given = |color: Color| u16::from(CHECKS - self.remaining[color.index()]);
        let mut counters = [[0; 2]; MAX_COUNTERS];
        counters[0] = [given(Color::White), given(Color::Black)];
        counters
    }

    fn with_counters(self, counters: [[u16; 2]; MAX_COUNTERS]) -> ThreeCheck {
        let left = |given: u16| CHECKS.saturating_sub(u8::try_from(given).unwrap_or(u8::MAX));
        ThreeCheck { remaining: [left(counters[0][0]), left(counters[0][1])], ..self }
    }

    fn board(&self) -> &Board {
        &self.board
    }

    fn board_mut(&mut self) -> &mut Board {
        &mut self.board
    }

    fn play(&mut self, m: Move) {
        let mover = self.board.turn();
        moves::play_standard(&mut self.board, m);
        if self.is_check() {
            let remaining = &mut self.remaining[mover.index()];
            *remaining = remaining.saturating_sub(1);
        }
    }

    fn has_insufficient_material(&self, color: Color) -> bool {
        insufficient::three_check(&self.board, color)
    }

    fn variant_outcome(&self) -> Option<Outcome> {
        Color::ALL
            .into_iter()
            .find(|color| self.remaining[color.index()] == 0)
            .map(|winner| Outcome::Decisive { winner })
    }

    fn write_fen(&self, out: &mut String) {
        fen::write(&self.board, self.legal_en_passant(), Some(self.remaining), out);
    }
}
