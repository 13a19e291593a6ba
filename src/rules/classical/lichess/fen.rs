//! FEN for the lichess rule sets: read with or without move counters, with Three-check's
//! checks in either form (`3+3` before the counters, or `+0+0` after them, counting the checks
//! given); written as shakmaty writes it (`3+3` before the counters).

use std::fmt;

use crate::rules::classical::attacks::{self, Bitboard};
use crate::rules::classical::board::ROLES;
use crate::rules::classical::{Board, bits};
use crate::variant::{Color, Role};

/// Why a text is not a FEN of a lichess variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParseFenError {
    /// Fields are missing, or there are too many.
    Fields,
    /// The piece placement is not 8 ranks of 8 squares.
    Board,
    /// The side to move is neither `w` nor `b`.
    Turn,
    /// The castling rights are unreadable, or the variant has none.
    Castling,
    /// The en passant square is unreadable, or no pawn just stepped over it.
    EnPassant,
    /// The remaining checks are unreadable.
    Checks,
    /// A move counter is no number.
    Counter,
    /// A side has not exactly one king, where the variant needs one.
    Kings,
}

impl fmt::Display for ParseFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ParseFenError::Fields => "invalid fen",
            ParseFenError::Board => "invalid board part in fen",
            ParseFenError::Turn => "invalid turn part in fen",
            ParseFenError::Castling => "invalid castling part in fen",
            ParseFenError::EnPassant => "invalid en passant part in fen",
            ParseFenError::Checks => "invalid remaining checks in fen",
            ParseFenError::Counter => "invalid move counter in fen",
            ParseFenError::Kings => "a side has not exactly one king",
        })
    }
}

impl std::error::Error for ParseFenError {}

const LETTERS: [u8; 6] = *b"pnbrqk";

/// Reads a FEN: the board, and the remaining checks if the text has them. `one_king` asks
/// that each side have exactly one king.
pub(super) fn read(text: &str, one_king: bool) -> Result<(Board, Option<[u8; 2]>), ParseFenError> {
    let mut parts = text.split_ascii_whitespace();
    let (by_role, by_color) = read_placement(parts.next().ok_or(ParseFenError::Fields)?)?;
    let turn = match parts.next() {
        Some("w") | None => Color::White,
        Some("b") => Color::Black,
        Some(_) => return Err(ParseFenError::Turn),
    };
    let castling = read_castling(parts.next().unwrap_or("-"), &by_role, &by_color)?;
    let en_passant = match parts.next() {
        None | Some("-") => None,
        Some(square) => Some(read_en_passant(square, turn, &by_role, &by_color)?),
    };
    let mut checks = None;
    let mut rest: Vec<&str> = parts.collect();
    if let Some(first) = rest.first()
        && let Some(remaining) = remaining_checks(first)
    {
        checks = Some(remaining?);
        rest.remove(0);
    }
    if checks.is_none()
        && let Some(last) = rest.last()
        && let Some(remaining) = remaining_checks(last)
    {
        checks = Some(remaining?);
        rest.pop();
    }
    if rest.len() > 2 {
        return Err(ParseFenError::Fields);
    }
    let counter = |text: Option<&&str>, default: u32| {
        text.map_or(Ok(default), |text| text.parse::<u32>().map_err(|_| ParseFenError::Counter))
    };
    let halfmoves = counter(rest.first(), 0)?;
    let fullmoves = counter(rest.get(1), 1)?.max(1);
    if one_king && Color::ALL.iter().any(|c| (by_role[5] & by_color[c.index()]).count_ones() != 1) {
        return Err(ParseFenError::Kings);
    }
    let board = Board::from_parts(by_role, by_color, turn, castling, en_passant, halfmoves, fullmoves);
    Ok((board, checks))
}

fn read_placement(text: &str) -> Result<([Bitboard; 6], [Bitboard; 2]), ParseFenError> {
    let mut by_role = [0; 6];
    let mut by_color = [0; 2];
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(ParseFenError::Board);
    }
    for (row, rank) in ranks.iter().enumerate() {
        let mut file = 0u8;
        for byte in rank.bytes() {
            if let Some(empty) = (byte as char).to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += empty as u8;
                continue;
            }
            let role = LETTERS.iter().position(|l| *l == byte.to_ascii_lowercase()).ok_or(ParseFenError::Board)?;
            if file >= 8 {
                return Err(ParseFenError::Board);
            }
            let square = (7 - row as u8) * 8 + file;
            by_role[role] |= 1u64 << square;
            by_color[usize::from(byte.is_ascii_lowercase())] |= 1u64 << square;
            file += 1;
        }
        if file != 8 {
            return Err(ParseFenError::Board);
        }
    }
    Ok((by_role, by_color))
}

fn read_castling(text: &str, by_role: &[Bitboard; 6], by_color: &[Bitboard; 2]) -> Result<Bitboard, ParseFenError> {
    let mut rights = 0;
    if text == "-" {
        return Ok(0);
    }
    for byte in text.bytes() {
        let color = if byte.is_ascii_uppercase() { Color::White } else { Color::Black };
        let home = if color == Color::White { attacks::RANK_1 } else { attacks::RANK_1 << 56 };
        let rooks = by_role[3] & by_color[color.index()] & home;
        let square = match byte.to_ascii_lowercase() {
            b'k' => 63 - rooks.leading_zeros() as u8,
            b'q' => rooks.trailing_zeros() as u8,
            file @ b'a'..=b'h' => (home.trailing_zeros() as u8) + (file - b'a'),
            _ => return Err(ParseFenError::Castling),
        };
        if rooks == 0 || rooks & (1u64 << square) == 0 {
            return Err(ParseFenError::Castling);
        }
        rights |= 1u64 << square;
    }
    Ok(rights)
}

fn read_en_passant(
    text: &str,
    turn: Color,
    by_role: &[Bitboard; 6],
    by_color: &[Bitboard; 2],
) -> Result<u8, ParseFenError> {
    let &[file @ b'a'..=b'h', rank @ b'1'..=b'8'] = text.as_bytes() else {
        return Err(ParseFenError::EnPassant);
    };
    let square = (rank - b'1') * 8 + (file - b'a');
    // The pawn that stepped over the square stands in front of it, seen from the side to move.
    let (skipped_rank, pawn) = if turn == Color::White { (5, square - 8) } else { (2, square + 8) };
    let them = by_color[turn.other().index()];
    if square / 8 != skipped_rank || by_role[0] & them & (1u64 << pawn) == 0 {
        return Err(ParseFenError::EnPassant);
    }
    Ok(square)
}

/// The checks still to give in a `3+3` or `+0+0` field, if the field is one of those.
fn remaining_checks(text: &str) -> Option<Result<[u8; 2], ParseFenError>> {
    if !text.contains('+') {
        return None;
    }
    let number = |text: &str| text.parse::<u8>().ok().filter(|n| *n <= 3);
    let remaining = if let Some(given) = text.strip_prefix('+') {
        given.split_once('+').and_then(|(white, black)| Some([3 - number(white)?, 3 - number(black)?]))
    } else {
        text.split_once('+').and_then(|(white, black)| Some([number(white)?, number(black)?]))
    };
    Some(remaining.ok_or(ParseFenError::Checks))
}

/// Appends a board's FEN: `en_passant` where a pawn can take there, and Three-check's
/// remaining checks.
pub(super) fn write(board: &Board, en_passant: Option<u8>, checks: Option<[u8; 2]>, out: &mut String) {
    for rank in (0..8u8).rev() {
        let mut empty = 0u8;
        for file in 0..8u8 {
            let square = rank * 8 + file;
            let Some(role) = board.role_at(square) else {
                empty += 1;
                continue;
            };
            if empty > 0 {
                out.push(char::from(b'0' + empty));
                empty = 0;
            }
            let letter = LETTERS[ROLES.iter().position(|r| *r == role).unwrap_or(0)];
            let white = board.side(Color::White) & (1u64 << square) != 0;
            out.push(char::from(if white { letter.to_ascii_uppercase() } else { letter }));
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push_str(if board.turn() == Color::White { " w " } else { " b " });
    let before = out.len();
    for color in Color::ALL {
        let home = if color == Color::White { attacks::RANK_1 } else { attacks::RANK_1 << 56 };
        let rooks = board.pieces(color, Role::Rook) & home;
        let king = board.pieces(color, Role::King).trailing_zeros() as usize;
        let mut rights: Vec<usize> = bits(board.castling_rights() & board.side(color)).collect();
        rights.reverse();
        for rook in rights {
            // The outermost rook on its side of the king is written `K` or `Q`, another by its
            // file.
            let beyond = if rook > king { rooks & !(u64::MAX >> (63 - rook)) } else { rooks & ((1u64 << rook) - 1) };
            let letter = match (beyond == 0, rook > king) {
                (true, true) => b'k',
                (true, false) => b'q',
                (false, _) => b'a' + rook as u8 % 8,
            };
            out.push(char::from(if color == Color::White { letter.to_ascii_uppercase() } else { letter }));
        }
    }
    if out.len() == before {
        out.push('-');
    }
    out.push(' ');
    match en_passant {
        Some(square) => {
            out.push(char::from(b'a' + square % 8));
            out.push(char::from(b'1' + square / 8));
        }
        None => out.push('-'),
    }
    if let Some([white, black]) = checks {
        out.push_str(&format!(" {white}+{black}"));
    }
    out.push_str(&format!(" {} {}", board.halfmoves(), board.fullmoves()));
}
