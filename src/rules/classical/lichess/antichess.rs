//! [`Antichess`]: captures are compulsory, and a side that loses everything wins.

use super::moves::{self, Freedoms};
use super::{Outcome, ParseFenError, RuleSet, fen, insufficient};
use crate::rules::classical::{Board, Move, MoveList};
use crate::variant::Color;

/// A position of Antichess (lichess's Giveaway): a side that can capture must; the king is an
/// ordinary piece (no check, no castling) and a pawn may promote to one; a side with no piece
/// or no legal move wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Antichess {
    board: Board,
}

/// The kings move and take as any piece, and pawns may become kings.
const FREEDOMS: Freedoms = Freedoms { king_captures: true, king_promotion: true };

impl RuleSet for Antichess {
    const NAME: &'static str = "Antichess";

    fn from_fen(text: &str) -> Result<Antichess, ParseFenError> {
        let (board, _) = fen::read(text, false)?;
        if board.castling_rights() != 0 {
            return Err(ParseFenError::Castling);
        }
        Ok(Antichess { board })
    }

    fn from_board(board: Board) -> Antichess {
        Antichess { board }
    }

    fn board(&self) -> &Board {
        &self.board
    }

    fn board_mut(&mut self) -> &mut Board {
        &mut self.board
    }

    /// The pseudo-legal moves, only the captures where there is one: all legal.
    fn candidate_moves(&self, moves: &mut MoveList) {
        let start = moves.len();
        moves::pseudo_legal(&self.board, FREEDOMS, moves);
        let captures = moves.as_slice()[start..]
            .iter()
            .any(|m| matches!(m, Move::EnPassant { .. } | Move::Normal { capture: Some(_), .. }));
        if captures {
            moves.retain_from(start, |m| matches!(m, Move::EnPassant { .. } | Move::Normal { capture: Some(_), .. }));
        }
    }

    fn is_legal_candidate(&self, _m: Move) -> bool {
        true
    }

    fn play(&mut self, m: Move) {
        moves::play_standard(&mut self.board, m);
    }

    fn has_insufficient_material(&self, color: Color) -> bool {
        insufficient::antichess(&self.board, color)
    }

    fn is_check(&self) -> bool {
        false
    }

    /// A side with pieces but no legal move is stalemated, which wins it the game.
    fn is_stalemate(&self) -> bool {
        self.board.side(self.board.turn()) != 0 && self.has_no_move()
    }

    fn variant_outcome(&self) -> Option<Outcome> {
        let us = self.board.turn();
        (self.board.side(us) == 0 || self.has_no_move()).then_some(Outcome::Decisive { winner: us })
    }
}
