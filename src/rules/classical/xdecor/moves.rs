//! Playing X-Decor halfmoves and `moves_raw` entries on the classical board.
//!
//! Both forms name the squares a move goes from and to, so no move needs finding; each is still
//! checked against the legal moves, and what the record says of the move besides (the
//! figurine's kind, `×` or a dash, ` e.p.`, the promotion piece; in `moves_raw` the pieces'
//! item names) must be what the move does. A figurine's colour is only a hint: the side to
//! move is the one whose turn it is.

use super::halfmove::{Figurine, Halfmove, TableMove};
use super::raw::{RawEntry, RawMove, current_move};
use crate::board::{File, Rank};
use crate::notation::{MoveError, MoveErrorKind, MoveReader};
use crate::rules::classical::{Board, Move, MoveList, square_index};
use crate::variant::{Color, Role};

/// Plays the halfmoves of the move table (`♘g1–f3`, `e5×d6 e.p.`, `0–0`).
#[derive(Clone, Copy, Debug, Default)]
pub struct TableMoves;

/// The player of move-table halfmoves.
pub static TABLE_MOVES: TableMoves = TableMoves;

/// Plays the entries of `moves_raw` (`realchess:pawn_white_1,,53,37,`).
#[derive(Clone, Copy, Debug, Default)]
pub struct RawMoves;

/// The player of `moves_raw` entries.
pub static RAW_MOVES: RawMoves = RawMoves;

fn illegal(reason: impl Into<String>) -> MoveError {
    MoveError::because(MoveErrorKind::Illegal, reason)
}

/// A square's name, such as `e4`.
fn name(square: u8) -> String {
    let (file, rank) = (square % 8, square / 8);
    format!("{}{}", char::from(b'a' + file), rank + 1)
}

/// A role in words.
fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The board's index of a square of the notation.
fn index((file, rank): (File, Rank)) -> Result<u8, MoveError> {
    square_index(file, rank).ok_or_else(|| MoveError::because(MoveErrorKind::Unreadable, "a square off the board"))
}

/// The side's piece on `from`, or why there is none.
fn mover(board: &Board, from: u8) -> Result<Role, MoveError> {
    let us = board.turn();
    match board.role_at(from) {
        None => Err(illegal(format!("{} is empty", name(from)))),
        Some(role) if board.side(us) & (1u64 << from) == 0 => Err(illegal(format!(
            "the {} on {} is {}'s, and it is {}'s turn",
            role_name(role),
            name(from),
            color_name(us.other()),
            color_name(us)
        ))),
        Some(role) => Ok(role),
    }
}

/// Plays the move of the side to move's `role` from `from` to `to`, or says why it is not
/// legal.
#[inline]
fn play_from_to(board: &mut Board, role: Role, from: u8, to: u8, promotion: Option<Role>) -> Result<Move, MoveError> {
    board.play_piece(role, from, to, promotion).map_err(|_| {
        let last_rank = if board.turn() == Color::White { 7 } else { 0 };
        if role == Role::Pawn && to / 8 == last_rank && promotion.is_none() {
            return illegal("a pawn that reaches the last rank must promote, and no piece is given");
        }
        if promotion.is_some() && (role != Role::Pawn || to / 8 != last_rank) {
            return illegal("only a pawn reaching the last rank promotes");
        }
        let mut moves = MoveList::new();
        board.pseudo_legal_moves_from(1u64 << from, &mut moves);
        if moves.as_slice().iter().any(|m| m.to() == Some(to)) {
            illegal(format!("it leaves {}'s king in check", color_name(board.turn())))
        } else {
            illegal(format!("a {} on {} cannot go to {}", role_name(role), name(from), name(to)))
        }
    })
}

impl MoveReader<Board, Move> for TableMoves {
    fn play(&self, board: &mut Board, token: &[u8]) -> Result<Move, MoveError> {
        let halfmove =
            Halfmove::parse(token).map_err(|error| MoveError::because(MoveErrorKind::Unreadable, error.to_string()))?;
        match halfmove {
            Halfmove::Castle { long } => castle(board, long),
            Halfmove::Move(table_move) => play_table_move(board, &table_move),
        }
    }
}

/// Castles on the king's side, or the queen's (`long`).
fn castle(board: &mut Board, long: bool) -> Result<Move, MoveError> {
    let king = board.king(board.turn());
    let to = if long { king.checked_sub(2) } else { Some(king + 2) };
    let castled = to.filter(|to| to / 8 == king / 8).and_then(|to| board.play_from_to(king, to, None).ok());
    match castled {
        Some(m @ Move::Castle { .. }) => Ok(m),
        _ => Err(illegal(format!(
            "{} may not castle on the {}'s side here",
            color_name(board.turn()),
            if long { "queen" } else { "king" }
        ))),
    }
}

/// Checks what a halfmove says against the board, then plays it.
fn play_table_move(board: &mut Board, halfmove: &TableMove) -> Result<Move, MoveError> {
    let (from, to) = (index(halfmove.from)?, index(halfmove.to)?);
    let role = mover(board, from)?;
    if let Some(Figurine { role: written, .. }) = halfmove.piece
        && written != role
    {
        return Err(illegal(format!(
            "the figurine names a {}, but a {} stands on {}",
            role_name(written),
            role_name(role),
            name(from)
        )));
    }
    let target = board.role_at(to).filter(|_| board.side(board.turn().other()) & (1u64 << to) != 0);
    let en_passant = role == Role::Pawn && from % 8 != to % 8 && target.is_none();
    let promotion = halfmove.promotion.map(|figurine| figurine.role);
    if halfmove.en_passant && !en_passant {
        return Err(illegal(format!("{}-{} is no en passant capture", name(from), name(to))));
    }
    if halfmove.capture && target.is_none() && !en_passant && promotion.is_none() {
        // The table writes every promotion with `×`, so only other moves are checked.
        return Err(illegal(format!("'×' onto {}, where there is nothing to take", name(to))));
    }
    if !halfmove.capture && (target.is_some() || en_passant) {
        let what =
            target.map_or("a pawn en passant".to_owned(), |role| format!("the {} on {}", role_name(role), name(to)));
        return Err(illegal(format!("a capture written with a dash: the move takes {what}")));
    }
    play_from_to(board, role, from, to, promotion)
}

impl MoveReader<Board, Move> for RawMoves {
    fn play(&self, board: &mut Board, token: &[u8]) -> Result<Move, MoveError> {
        let raw = match current_move(token) {
            Some(raw) => raw,
            None => match RawEntry::parse(token) {
                Ok(RawEntry::Move(raw)) => raw,
                Ok(RawEntry::Result(_)) => {
                    return Err(MoveError::because(
                        MoveErrorKind::Unreadable,
                        "a result marker where a move should be",
                    ));
                }
                Err(error) => return Err(MoveError::because(MoveErrorKind::Unreadable, error.to_string())),
            },
        };
        match raw.play(board) {
            Some(played) => Ok(played),
            None => raw.play_or_explain(board),
        }
    }
}

impl RawMove {
    /// Checks what the entry says against the board while playing it: the side, the piece
    /// taken (or the promoted piece the mod writes in its place), the promotion's colour;
    /// `None`, the board unchanged, where any of it is not so.
    #[inline(always)]
    pub fn play(&self, board: &mut Board) -> Option<Move> {
        let (from, to) = (square_index(self.from.0, self.from.1)?, square_index(self.to.0, self.to.1)?);
        let us = board.turn();
        let (role, color) = self.piece;
        let promotion = match self.promotion {
            None => None,
            Some((promoted, side)) if side == us => Some(promoted),
            Some(_) => return None,
        };
        let capture = match self.target {
            None => None,
            Some((taken, side)) if side != us => Some(taken),
            Some((promoted, _)) if promotion == Some(promoted) => {
                board.role_at(to).filter(|_| board.side(us.other()) & (1u64 << to) != 0)
            }
            Some(_) => return None,
        };
        if color != us {
            return None;
        }
        board.play_piece_taking(role, from, to, capture, promotion).ok()
    }

    /// Plays the entry the careful way after [`RawMove::play`] refused it, or says what is
    /// wrong with it; on an error the board is unchanged.
    pub fn play_or_explain(&self, board: &mut Board) -> Result<Move, MoveError> {
        explain_raw_move(board, self)
    }
}

/// Checks what an entry says against the board and says what is wrong, or plays it.
#[cold]
fn explain_raw_move(board: &mut Board, raw: &RawMove) -> Result<Move, MoveError> {
    let (from, to) = (index(raw.from)?, index(raw.to)?);
    let role = mover(board, from)?;
    let us = board.turn();
    if raw.piece != (role, us) {
        return Err(illegal(format!(
            "the record moves a {} {}, but a {} {} stands on {}",
            color_name(raw.piece.1),
            role_name(raw.piece.0),
            color_name(us),
            role_name(role),
            name(from)
        )));
    }
    let target = board.role_at(to).filter(|_| board.side(us.other()) & (1u64 << to) != 0);
    let promotion = match raw.promotion {
        Some((_, color)) if color != us => {
            return Err(illegal(format!("a {} promotes to a {} piece", color_name(us), color_name(color))));
        }
        promotion => promotion.map(|(promoted, _)| promoted),
    };
    // The record names what stood on the square it went to, read after a promotion: then the
    // promoted piece.
    let named_right = match raw.target {
        None => target.is_none(),
        Some((role, color)) => {
            (color == us.other() && target == Some(role)) || (color == us && promotion == Some(role))
        }
    };
    if !named_right {
        let written = raw
            .target
            .map_or("nothing".to_owned(), |(role, color)| format!("a {} {}", color_name(color), role_name(role)));
        let there =
            target.map_or("nothing".to_owned(), |role| format!("a {} {}", color_name(us.other()), role_name(role)));
        return Err(illegal(format!("the record takes {written} on {}, where {there} stands", name(to))));
    }
    play_from_to(board, role, from, to, promotion)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    fn replay(reader: &dyn MoveReader<Board, Move>, tokens: &[&str]) -> Result<Board, (usize, String)> {
        let mut board = Board::initial(Variant::standard());
        for (ply, token) in tokens.iter().enumerate() {
            reader.play(&mut board, token.as_bytes()).map_err(|error| (ply + 1, error.to_string()))?;
        }
        Ok(board)
    }

    #[test]
    fn the_spec_example_replays() {
        let tokens = ["e2–e4", "e7–e5", "♘g1–f3", "♞b8–c6", "♗f1–c4", "♝f8–c5", "0–0", "♞g8–f6", "♖f1–e1", "0–0"];
        let board = replay(&TABLE_MOVES, &tokens).unwrap();
        assert_eq!(
            crate::notation::position_string::write(&board.to_setup()),
            "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQR1K1 w - - 8 6"
        );
        // Letters and every dash read the same; the figurine's colour is only a hint.
        let letters = ["e2-e4", "e7—e5", "Ng1-f3", "♘b8−c6", "Bf1-c4", "Bf8-c5", "O-O", "Ng8-f6", "Rf1-e1", "o-o"];
        assert_eq!(replay(&TABLE_MOVES, &letters).unwrap(), board);
    }

    #[test]
    fn what_a_halfmove_says_must_be_so() {
        let cases: [(&[&str], usize, &str); 8] = [
            (&["♘b1–c3", "♞b8–c6", "♘c3×d5"], 3, "illegal move: '×' onto d5, where there is nothing to take"),
            (&["♗g1–f3"], 1, "illegal move: the figurine names a bishop, but a knight stands on g1"),
            (&["e3–e4"], 1, "illegal move: e3 is empty"),
            (&["e7–e5"], 1, "illegal move: the pawn on e7 is Black's, and it is White's turn"),
            (
                &["e2–e4", "d7–d5", "e4–d5"],
                3,
                "illegal move: a capture written with a dash: the move takes the pawn on d5",
            ),
            (&["e2–e4", "d7–d5", "e4×d5 e.p."], 3, "illegal move: e4-d5 is no en passant capture"),
            (&["♘g1–e2"], 1, "illegal move: a knight on g1 cannot go to e2"),
            (&["0–0"], 1, "illegal move: White may not castle on the king's side here"),
        ];
        for (tokens, ply, message) in cases {
            assert_eq!(replay(&TABLE_MOVES, tokens).unwrap_err(), (ply, message.to_owned()), "{tokens:?}");
        }
    }

    #[test]
    fn en_passant_and_promotions() {
        let tokens = ["e2–e4", "♞g8–f6", "e4–e5", "d7–d5", "e5×d6 e.p.", "♞f6–e4", "d6×c7", "♞e4–d6", "c7×b8♕"];
        let board = replay(&TABLE_MOVES, &tokens).unwrap();
        assert_eq!(board.role_at(57), Some(Role::Queen));
        // Without its suffix an en passant capture still reads; the quiet promotion has its `×`.
        let tokens = ["e2–e4", "a7–a6", "e4–e5", "d7–d5", "e5×d6", "a6–a5"];
        assert!(replay(&TABLE_MOVES, &tokens).is_ok());
        let tokens = ["h2–h4", "g7–g5", "h4×g5", "♞g8–f6", "g5–g6", "♞f6–g8", "g6–g7", "♞b8–c6", "g7×h8♕"];
        assert!(replay(&TABLE_MOVES, &tokens).is_ok());
        let tokens = ["h2–h4", "g7–g5", "h4×g5", "♞g8–f6", "g5–g6", "♞f6–g8", "g6–g7", "♞b8–c6", "g7×h8"];
        assert_eq!(
            replay(&TABLE_MOVES, &tokens).unwrap_err().1,
            "illegal move: a pawn that reaches the last rank must promote, and no piece is given"
        );
    }

    #[test]
    fn raw_entries_replay_and_are_checked() {
        let tokens =
            ["realchess:pawn_white_5,,53,37,", "realchess:pawn_black_5,,13,29,", "realchess:knight_white_2,,63,46,"];
        let board = replay(&RAW_MOVES, &tokens).unwrap();
        let table = replay(&TABLE_MOVES, &["e2–e4", "e7–e5", "♘g1–f3"]).unwrap();
        assert_eq!(board, table);
        let wrong = ["realchess:pawn_white_5,,53,37,", "realchess:pawn_black_5,realchess:pawn_white_1,13,29,"];
        assert_eq!(
            replay(&RAW_MOVES, &wrong).unwrap_err(),
            (2, "illegal move: the record takes a White pawn on e5, where nothing stands".to_owned())
        );
        let wrong = ["realchess:knight_white_1,,53,37,"];
        assert_eq!(
            replay(&RAW_MOVES, &wrong).unwrap_err(),
            (1, "illegal move: the record moves a White knight, but a White pawn stands on e2".to_owned())
        );
    }
}
