//! The classical family's [`GameRules`]: games start from the `FEN` tag or the variant's
//! initial position, and their moves are SAN.

use super::board::{Board, Move};
use crate::notation::pgn::{SAN_MOVES, play_san_token};
use crate::notation::{FamilyMoves, MoveError, MoveErrorKind, MoveReader, ReadMove, fen};
use crate::position::{MoveFacts, Position, PositionError};
use crate::rules::GameRules;
use crate::variant::Variant;

impl GameRules<1> for Board {
    type Played = Move;

    fn start(variant: &'static Variant, setup: Option<&str>) -> Result<Board, String> {
        let Some(text) = setup else { return Ok(Board::initial(variant)) };
        let setup = fen::read::<1>(variant, text).map_err(|error| error.to_string())?;
        let position = Position::from_setup(setup).map_err(|error| error.to_string())?;
        Board::check_position(&position).map_err(|error| error.to_string())?;
        Ok(Board::from_position(&position))
    }

    fn check_position(position: &Position<1>) -> Result<(), PositionError> {
        let setup = position.setup();
        if Board::waiting_side_in_check(setup) {
            return Err(PositionError::WaitingSideInCheck { player: setup.variant.player(setup.turn.other()) });
        }
        Ok(())
    }

    fn from_position(position: &Position<1>) -> Result<Board, String> {
        Ok(Board::from_position(position))
    }

    #[inline(always)]
    fn play_token(&mut self, token: &[u8], _reason: &mut Option<MoveError>) -> Result<Move, MoveErrorKind> {
        play_san_token(self, token)
    }

    fn is_null_token(token: &[u8]) -> bool {
        SAN_MOVES.is_null(token)
    }

    #[inline(always)]
    fn play_read(&mut self, read: &dyn ReadMove, reason: &mut Option<MoveError>) -> Result<Move, MoveErrorKind> {
        match read.play(self) {
            Some(played) => Ok(played),
            None => read.play_or_explain(self).map_err(|error| {
                let kind = error.kind;
                *reason = Some(error);
                kind
            }),
        }
    }

    fn reader_of(moves: FamilyMoves) -> Option<&'static dyn MoveReader<Board, Move>> {
        match moves {
            FamilyMoves::Classical(reader) => Some(reader),
        }
    }

    #[inline]
    fn facts(&self, played: Move) -> Option<MoveFacts> {
        // The side to move now is the one that did not move.
        Board::facts_of(played, self.turn().other())
    }

    fn write_position(&self, out: &mut String) {
        self.write_fen(out);
    }
}
