//! Writing games as X-Decor writes them: the move table (as the mod shows it, or in letters as a
//! person would type it) and the `moves_raw` record, with the item numbers the mod gives its
//! pieces.

use std::fmt;

use super::halfmove::{Figurine, Halfmove, Outcome, Style, TableMove};
use super::raw::RawMove;
use crate::rules::classical::{Board, Move, file_and_rank};
use crate::variant::{Color, Role};

/// Why a game cannot be written as X-Decor writes games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteError {
    /// X-Decor games start from the standard position.
    NotFromTheStart,
    /// A move X-Decor has no way to make (a drop, a null move), at this ply.
    Unwritable(u32),
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::NotFromTheStart => f.write_str("X-Decor games start from the standard position"),
            WriteError::Unwritable(ply) => {
                write!(f, "the move at ply {ply} (a drop or a null move) has no X-Decor form")
            }
        }
    }
}

impl std::error::Error for WriteError {}

/// The file and rank of a board index.
fn coordinates(square: u8) -> Result<(crate::board::File, crate::board::Rank), WriteError> {
    file_and_rank(square).ok_or(WriteError::Unwritable(0))
}

/// The halfmove of the table that makes `m`. Every promotion is written with `×` in the strict
/// style, as the mod writes it.
fn halfmove(m: Move, style: Style, ply: u32) -> Result<Halfmove, WriteError> {
    let figurine = |role: Role| (role != Role::Pawn).then_some(Figurine { role, color: None });
    let table = |from: u8, to: u8, role: Role, capture: bool, en_passant: bool, promotion: Option<Role>| {
        Ok(Halfmove::Move(TableMove {
            piece: figurine(role),
            from: coordinates(from)?,
            to: coordinates(to)?,
            capture: capture || (style == Style::Strict && promotion.is_some()),
            en_passant,
            promotion: promotion.map(|role| Figurine { role, color: None }),
        }))
    };
    match m {
        Move::Normal { role, from, to, capture, promotion } => {
            table(from, to, role, capture.is_some(), false, promotion)
        }
        Move::EnPassant { from, to } => table(from, to, Role::Pawn, true, true, None),
        Move::Castle { king, rook } => Ok(Halfmove::Castle { long: rook < king }),
        Move::Drop { .. } | Move::Null => Err(WriteError::Unwritable(ply)),
    }
}

/// Checks that a game starts where X-Decor games start.
fn check_start(initial: &Board) -> Result<(), WriteError> {
    if *initial == Board::initial(initial.variant()) && initial.variant().geometry.files() == 8 {
        Ok(())
    } else {
        Err(WriteError::NotFromTheStart)
    }
}

/// The width of the move-number column, and of White's halfmoves, in characters.
const NUMBER_WIDTH: usize = 4;
const HALFMOVE_WIDTH: usize = 12;

/// Writes a game (from the standard position) as the move table: a row a move, then the
/// result row if the game has a result.
pub fn write_table(
    initial: &Board,
    moves: &[Move],
    outcome: Option<Outcome>,
    style: Style,
    out: &mut Vec<u8>,
) -> Result<(), WriteError> {
    check_start(initial)?;
    let mut cell = Vec::new();
    for (index, &m) in moves.iter().enumerate() {
        let ply = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let color = if index % 2 == 0 { Color::White } else { Color::Black };
        cell.clear();
        halfmove(m, style, ply)?.write(color, style, &mut cell);
        if color == Color::White {
            let number = format!("{}.", index / 2 + 1);
            out.extend_from_slice(format!("{number:>NUMBER_WIDTH$} ").as_bytes());
            out.extend_from_slice(&cell);
            if index + 1 < moves.len() {
                let width = String::from_utf8_lossy(&cell).chars().count();
                out.extend(std::iter::repeat_n(b' ', HALFMOVE_WIDTH.saturating_sub(width).max(1)));
            }
        } else {
            out.extend_from_slice(&cell);
            out.push(b'\n');
        }
    }
    if moves.len() % 2 == 1 {
        out.push(b'\n');
    }
    if let Some(outcome) = outcome {
        out.extend(std::iter::repeat_n(b' ', NUMBER_WIDTH + 1));
        outcome.write(style, out);
        out.push(b'\n');
    }
    Ok(())
}

/// The item numbers the mod gives the pieces of the first position: rooks, knights and bishops
/// 1 on the queen's side and 2 on the king's, pawns 1 to 8 by file; none for queens and kings.
fn first_numbers(board: &Board) -> [Option<u8>; 64] {
    let mut numbers = [None; 64];
    for (square, number) in numbers.iter_mut().enumerate() {
        let file = (square % 8) as u8;
        *number = match board.role_at(square as u8) {
            Some(Role::Pawn) => Some(file + 1),
            Some(Role::Rook | Role::Knight | Role::Bishop) => Some(if file < 4 { 1 } else { 2 }),
            _ => None,
        };
    }
    numbers
}

/// Writes a game (from the standard position) as a `moves_raw` record: its entries joined by
/// `;`, then the result marker if it has a result. No line end is written.
pub fn write_raw(
    initial: &Board,
    moves: &[Move],
    outcome: Option<Outcome>,
    out: &mut Vec<u8>,
) -> Result<(), WriteError> {
    check_start(initial)?;
    let mut board = *initial;
    let mut numbers = first_numbers(&board);
    let mut first = true;
    for (index, &m) in moves.iter().enumerate() {
        let ply = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let us = board.turn();
        let (from, to, promotion) = match m {
            Move::Normal { from, to, promotion, .. } => (from, to, promotion),
            Move::EnPassant { from, to } => (from, to, None),
            Move::Castle { .. } => (m.from().unwrap_or(0), m.to().unwrap_or(0), None),
            Move::Drop { .. } | Move::Null => return Err(WriteError::Unwritable(ply)),
        };
        let role = board.role_at(from).ok_or(WriteError::Unwritable(ply))?;
        let captured = board.role_at(to).filter(|_| board.side(us.other()) & (1u64 << to) != 0);
        // The record names what stood on the square after the move was made: after a
        // promotion, the promoted piece.
        let promoted_number = |role: Role| (role != Role::Queen).then_some(1);
        let (target, target_number) = match (promotion, captured) {
            (Some(promoted), _) => (Some((promoted, us)), promoted_number(promoted)),
            (None, Some(captured)) => (Some((captured, us.other())), numbers[usize::from(to)]),
            (None, None) => (None, None),
        };
        let raw = RawMove {
            piece: (role, us),
            target,
            from: coordinates(from)?,
            to: coordinates(to)?,
            promotion: promotion.map(|role| (role, us)),
        };
        if !first {
            out.push(b';');
        }
        first = false;
        raw.write((numbers[usize::from(from)], target_number), out);
        // The numbers move with the pieces.
        let moving = numbers[usize::from(from)];
        numbers[usize::from(from)] = None;
        numbers[usize::from(to)] = match promotion {
            Some(promoted) => promoted_number(promoted),
            None => moving,
        };
        if let Move::Castle { king, rook } = m {
            let rook_number = numbers[usize::from(rook)];
            numbers[usize::from(rook)] = None;
            numbers[usize::from(king)] = None;
            numbers[usize::from(to)] = None;
            let (rook_to, king_to) = if rook > king { (king + 1, king + 2) } else { (king - 1, king - 2) };
            numbers[usize::from(rook_to)] = rook_number;
            numbers[usize::from(king_to)] = None;
        }
        board.play(m);
    }
    if let Some(outcome) = outcome {
        if !first {
            out.push(b';');
        }
        outcome.write_raw(out);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;
    use crate::notation::MoveReader;
    use crate::notation::NativeFormat;
    use crate::rules::classical::SAN_MOVES;
    use crate::rules::classical::xdecor::{RAW_MOVES, TABLE_FORMAT, TABLE_MOVES, entries};

    fn game(sans: &str) -> (Board, Vec<Move>) {
        let initial = Board::initial(Variant::standard());
        let mut board = initial;
        let moves = sans.split_whitespace().map(|san| SAN_MOVES.play(&mut board, san.as_bytes()).unwrap()).collect();
        (initial, moves)
    }

    /// The move tokens a reader tells.
    struct Tokens(Vec<Vec<u8>>);

    impl crate::notation::pgn::Visitor<'_> for Tokens {
        fn move_token(&mut self, token: &[u8], _end: usize) -> std::ops::ControlFlow<()> {
            self.0.push(token.to_vec());
            std::ops::ControlFlow::Continue(())
        }
    }

    /// Reads the tokens back with a move reader and checks the moves are the same.
    fn replays(reader: &dyn MoveReader<Board, Move>, tokens: &[&[u8]], moves: &[Move]) {
        let mut board = Board::initial(Variant::standard());
        let read: Vec<Move> = tokens.iter().map(|token| reader.play(&mut board, token).unwrap()).collect();
        assert_eq!(read, moves);
    }

    const GAME: &str =
        "e4 d5 exd5 c5 dxc6 Nf6 cxb7 Bd7 bxa8=Q e5 Nf3 Be7 Bc4 O-O O-O Qb6 Qe2 e4 d4 exd3 Qxd3 Qxb2 Bxb2";

    #[test]
    fn tables_are_written_and_read_back() {
        let (initial, moves) = game(GAME);
        for style in [Style::Strict, Style::Letters] {
            let mut out = Vec::new();
            write_table(&initial, &moves, Some(Outcome::Draw), style, &mut out).unwrap();
            let mut tokens = Tokens(Vec::new());
            TABLE_FORMAT.next_game(&out, &mut 0, &mut tokens);
            let tokens: Vec<&[u8]> = tokens.0.iter().map(Vec::as_slice).collect();
            replays(&TABLE_MOVES, &tokens, &moves);
        }
        let mut out = Vec::new();
        write_table(&initial, &moves[..3], Some(Outcome::WhiteWins), Style::Strict, &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "  1. e2–e4       d7–d5\n  2. e4×d5\n     1–0\n");
    }

    #[test]
    fn records_are_written_and_read_back() {
        let (initial, moves) = game(GAME);
        let mut out = Vec::new();
        write_raw(&initial, &moves, Some(Outcome::BlackWins), &mut out).unwrap();
        let tokens: Vec<&[u8]> = entries(&out).collect();
        assert_eq!(tokens.last(), Some(&&b",,,,blackWon"[..]));
        replays(&RAW_MOVES, &tokens[..tokens.len() - 1], &moves);
        let text = String::from_utf8(out.clone()).unwrap();
        assert!(text.starts_with("realchess:pawn_white_5,,53,37,;realchess:pawn_black_4,,12,28,;"), "{text}");
        // The pawn taking on a8 promotes: the record names the queen it became.
        assert!(
            text.contains("realchess:pawn_white_5,realchess:queen_white,10,1,promo__realchess:queen_white"),
            "{text}"
        );
    }

    #[test]
    fn only_games_from_the_start_are_written() {
        let (_, moves) = game("e4");
        let mut other = Board::initial(Variant::standard());
        SAN_MOVES.play(&mut other, b"d4").unwrap();
        assert_eq!(write_table(&other, &moves, None, Style::Strict, &mut Vec::new()), Err(WriteError::NotFromTheStart));
    }
}
