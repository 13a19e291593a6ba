//! The classical family's [`GameRules`]: games start from the `FEN` tag or the variant's
//! initial position, and their moves are SAN.

use super::board::{Board, Move};
use super::kept;
use super::san_moves::{SAN_MOVES, play_san_token};
use super::xdecor::{self, Outcome, Style, write_raw, write_table};
use crate::notation::{MoveError, MoveErrorKind, MoveNotation, MoveReader, fen};
use crate::position::{MoveFacts, Position, PositionError};
use crate::rules::{GameRules, RecordFormat};
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

    fn reader_of(notation: MoveNotation) -> Option<&'static dyn MoveReader<Board, Move>> {
        match notation {
            xdecor::TABLE_NOTATION => Some(&xdecor::TABLE_MOVES),
            xdecor::RAW_NOTATION => Some(&xdecor::RAW_MOVES),
            _ => None,
        }
    }

    #[inline]
    fn facts(&self, played: Move) -> Option<MoveFacts> {
        // The side to move now is the one that did not move.
        self.facts_of_last(played, self.turn().other())
    }

    fn write_move(&self, played: &Move, after: &Board, goes_on: bool, out: &mut String) -> bool {
        let mut san = self.san_body(*played);
        after.push_check_sign(*played, &mut san, goes_on);
        out.push_str(san.as_str());
        true
    }

    fn keep(played: &Move) -> Option<u32> {
        Some(played.code())
    }

    fn play_kept(&mut self, kept: u32) -> Option<Move> {
        kept::play_kept(kept, |played| self.play(played))
    }

    fn play_kept_written(&mut self, kept: u32, goes_on: bool, out: &mut Vec<u8>) -> Option<Move> {
        // The move's SAN is worked out before it is played and its check sign after, on one
        // board.
        let played = Move::from_code(kept)?;
        let mut san = self.san_body(played);
        self.play(played);
        self.push_check_sign(played, &mut san, goes_on);
        san.append_to(out);
        Some(played)
    }

    fn write_record(
        &self,
        moves: &[Move],
        format: RecordFormat,
        result: Option<&[u8]>,
        out: &mut Vec<u8>,
    ) -> Result<(), String> {
        xdecor_record(self, moves, format, result, out)
    }

    fn write_position(&self, out: &mut String) {
        self.write_fen(out);
    }
}

/// Writes a main line of the standard rules as X-Decor records it.
fn xdecor_record(
    initial: &Board,
    moves: &[Move],
    format: RecordFormat,
    result: Option<&[u8]>,
    out: &mut Vec<u8>,
) -> Result<(), String> {
    let outcome = match result {
        Some(b"1-0") => Some(Outcome::WhiteWins),
        Some(b"0-1") => Some(Outcome::BlackWins),
        Some(b"1/2-1/2") => Some(Outcome::Draw),
        _ => None,
    };
    let written = match format {
        RecordFormat::XDecorTable => write_table(initial, moves, outcome, Style::Strict, out),
        RecordFormat::XDecorLetters => write_table(initial, moves, outcome, Style::Letters, out),
        RecordFormat::XDecorRaw => write_raw(initial, moves, outcome, out),
    };
    written.map_err(|error| error.to_string())
}
