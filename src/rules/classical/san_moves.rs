//! Playing SAN move tokens: [`SAN_MOVES`], the [`MoveReader`] of PGN movetext.

use crate::notation::{MoveError, MoveErrorKind, MoveReader};
use crate::rules::classical::{Board, Move, San, SanError};

/// Plays SAN tokens (with drops, null moves, long algebraic and UCI forms, and a lower-case `b`
/// for a bishop where no pawn move fits).
#[derive(Clone, Copy, Debug, Default)]
pub struct SanMoves;

/// The SAN move reader.
pub static SAN_MOVES: SanMoves = SanMoves;

/// Plays a SAN token, as [`SAN_MOVES`] does, with only the kind of an error: for replay, which
/// plays most moves of most games so, without a call through a pointer.
#[inline(always)]
pub fn play_san_token(board: &mut Board, token: &[u8]) -> Result<Move, MoveErrorKind> {
    if let Some(played) = board.play_common_san(token) {
        return Ok(played);
    }
    let Ok(san) = San::from_ascii(token) else { return Err(MoveErrorKind::Unreadable) };
    let played = board.play_san(&san).or_else(|error| {
        // A lower-case `b` may name a bishop where no pawn move fits (`bd3`).
        match (token.first(), San::from_ascii(&[b"B", &token[1..]].concat())) {
            (Some(b'b'), Ok(bishop)) => board.play_san(&bishop),
            _ => Err(error),
        }
    });
    played.map_err(|error| if error == SanError::Ambiguous { MoveErrorKind::Ambiguous } else { MoveErrorKind::Illegal })
}

impl MoveReader<Board, Move> for SanMoves {
    fn play(&self, board: &mut Board, token: &[u8]) -> Result<Move, MoveError> {
        play_san_token(board, token).map_err(MoveError::new)
    }

    fn is_null(&self, token: &[u8]) -> bool {
        San::is_null_ascii(token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn san_tokens_are_played_or_refused() {
        let mut board = Board::initial(Variant::standard());
        assert!(SAN_MOVES.play(&mut board, b"e4").is_ok());
        assert_eq!(SAN_MOVES.play(&mut board, b"e4").unwrap_err().kind, MoveErrorKind::Illegal);
        assert_eq!(SAN_MOVES.play(&mut board, b"%%").unwrap_err().kind, MoveErrorKind::Unreadable);
        assert!(SAN_MOVES.play(&mut board, b"b6").is_ok());
        assert!(SAN_MOVES.play(&mut board, b"d4").is_ok());
        // A lower-case `b` for the bishop.
        assert!(SAN_MOVES.play(&mut board, b"bb7").is_ok());
        assert!(SAN_MOVES.is_null(b"--") && !SAN_MOVES.is_null(b"e4"));
    }
}
