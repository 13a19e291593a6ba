//! [`RacingKings`]: the kings race to the eighth rank.

use super::moves;
use super::{Outcome, ParseFenError, RuleSet, fen};
use crate::rules::classical::attacks::{self, Bitboard};
use crate::rules::classical::{Board, Move, bits};
use crate::variant::{Color, Role};

/// The eighth rank.
const GOAL: Bitboard = attacks::RANK_1 << 56;

/// A position of Racing Kings: no move may give check (nor leave one's king in check); the
/// first king on the eighth rank wins, but when White's gets there first Black has one more
/// move to draw by reaching it too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RacingKings {
    board: Board,
}

impl RuleSet for RacingKings {
    const NAME: &'static str = "Racing Kings";

    fn from_fen(text: &str) -> Result<RacingKings, ParseFenError> {
        let (mut board, _) = fen::read(text, true)?;
        if board.castling_rights() != 0 {
            return Err(ParseFenError::Castling);
        }
        board.set_en_passant(None);
        Ok(RacingKings { board })
    }

    fn from_board(board: Board) -> RacingKings {
        RacingKings { board }
    }

    fn board(&self) -> &Board {
        &self.board
    }

    fn board_mut(&mut self) -> &mut Board {
        &mut self.board
    }

    /// A move is legal when it keeps the mover's king safe and gives no check.
    fn is_legal_candidate(&self, m: Move) -> bool {
        let mut after = *self;
        after.play(m);
        let (us, them) = (self.board.turn(), self.board.turn().other());
        !moves::king_attacked(&after.board, us) && !moves::king_attacked(&after.board, them)
    }

    fn play(&mut self, m: Move) {
        moves::play_standard(&mut self.board, m);
        self.board.set_en_passant(None);
    }

    fn is_check(&self) -> bool {
        moves::king_attacked(&self.board, self.board.turn())
    }

    fn variant_outcome(&self) -> Option<Outcome> {
        let board = &self.board;
        let white = board.pieces(Color::White, Role::King) & GOAL != 0;
        let black = board.pieces(Color::Black, Role::King) & GOAL != 0;
        if !white && !black {
            return None;
        }
        if board.turn() == Color::Black && !black {
            // White got there first: Black may still reach the goal on this move.
            let king = board.pieces(Color::Black, Role::King);
            if king != 0 {
                let reach = attacks::king(king.trailing_zeros() as usize) & GOAL & !board.side(Color::Black);
                if bits(reach).any(|to| board.attackers(to as u8, Color::White, board.occupied()) == 0) {
                    return None;
                }
            }
        }
        Some(match (white, black) {
            (true, true) => Outcome::Draw,
            (true, false) => Outcome::Decisive { winner: Color::White },
            _ => Outcome::Decisive { winner: Color::Black },
        })
    }
}
