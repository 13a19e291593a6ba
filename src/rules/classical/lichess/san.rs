//! SAN for the lichess rule sets: a move is read by matching it against the variant's legal
//! moves, and written as lichess writes it (`=K` in Antichess, an explosion implied, `+` and
//! `#` as the variant means check).

use super::RuleSet;
use crate::notation::MoveErrorKind;
use crate::rules::classical::san::write_body;
use crate::rules::classical::{Move, MoveList, San, SanText, play_san_token};
use crate::variant::Role;

/// Finds the legal move a SAN token names and plays it; on an error the position is unchanged.
pub(super) fn play_san<R: RuleSet>(rules: &mut R, token: &[u8]) -> Result<Move, MoveErrorKind> {
    if R::STANDARD_MOVES && rules.variant_outcome().is_none() {
        // The board's reader finds the move among the standard moves, on a copy; the rule set
        // plays it with all its effects (a check counted).
        let mut board = *rules.board();
        let found = play_san_token(&mut board, token)?;
        rules.play(found);
        return Ok(found);
    }
    let Ok(san) = San::from_ascii(token) else { return Err(MoveErrorKind::Unreadable) };
    let found = find(rules, &san).or_else(|error| {
        // A lower-case `b` may name a bishop where no pawn move fits (`bd3`).
        match (token.first(), San::from_ascii(&[b"B", &token[1..]].concat())) {
            (Some(b'b'), Ok(bishop)) => find(rules, &bishop),
            _ => Err(error),
        }
    })?;
    rules.play(found);
    Ok(found)
}

/// The one legal move `san` names.
fn find<R: RuleSet>(rules: &R, san: &San) -> Result<Move, MoveErrorKind> {
    let mut moves = MoveList::new();
    rules.candidate_moves(&mut moves);
    let board = rules.board();
    // Long algebraic and UCI moves (`g1f3`) name the square, not the piece.
    let san = match *san {
        San::Normal { role: Role::Pawn, file: Some(file), rank: Some(rank), capture, to, promotion } => {
            let from = rank * 8 + file;
            let role = board.role_at(from).filter(|_| board.side(board.turn()) & (1u64 << from) != 0);
            San::Normal { role: role.unwrap_or(Role::Pawn), file: Some(file), rank: Some(rank), capture, to, promotion }
        }
        other => other,
    };
    let mut fitting =
        moves.as_slice().iter().copied().filter(|&m| names(&san, m)).filter(|&m| rules.is_legal_candidate(m));
    match (fitting.next(), fitting.next()) {
        (Some(found), None) => Ok(found),
        (Some(_), Some(_)) => Err(MoveErrorKind::Ambiguous),
        (None, _) => Err(MoveErrorKind::Illegal),
    }
}

/// Whether `san` names the move `m`.
fn names(san: &San, m: Move) -> bool {
    match *san {
        San::Normal { role, file, rank, to, promotion, .. } => {
            let from_fits =
                |from: u8| file.is_none_or(|file| from % 8 == file) && rank.is_none_or(|rank| from / 8 == rank);
            match m {
                Move::Normal { role: moved, from, to: landing, promotion: promoted, .. } => {
                    moved == role && landing == to && promoted == promotion && from_fits(from)
                }
                Move::EnPassant { from, to: landing } => {
                    role == Role::Pawn && landing == to && promotion.is_none() && from_fits(from)
                }
                // A king moving two files, or onto its own rook, castles (long notation).
                Move::Castle { king, rook } => {
                    let two_files = king - king % 8 + if rook > king { 6 } else { 2 };
                    role == Role::King && (to == rook || to == two_files) && from_fits(king) && promotion.is_none()
                }
                Move::Drop { .. } | Move::Null => false,
            }
        }
        San::Castle { king_side } => matches!(m, Move::Castle { king, rook } if (rook > king) == king_side),
        San::Put { role, to } => m == Move::Drop { role, to },
        San::Null => false,
    }
}

/// Writes `m`, a legal move of `before` that led to `after`, as lichess writes it, with `+`
/// where it gives check as the variant means it, `#` where it mates or ends the game by the
/// variant's own rule; `goes_on`: a move follows, so a check is no mate.
pub(super) fn write_san<R: RuleSet>(before: &R, m: Move, after: &R, goes_on: bool) -> SanText {
    let mut text = write_body(m, |role, from, to| {
        // The other pieces of the kind that may legally go there.
        let mut moves = MoveList::new();
        before.legal_moves(&mut moves);
        moves.as_slice().iter().fold(0u64, |rivals, other| match *other {
            Move::Normal { role: moved, from: square, to: landing, .. }
                if moved == role && landing == to && square != from =>
            {
                rivals | 1u64 << square
            }
            _ => rivals,
        })
    });
    // The variant's own end (a king exploded, on the hill or on the last rank, a third check,
    // no piece left) is written as a mate, as lichess writes it.
    if after.variant_outcome().is_some() || !goes_on && after.is_checkmate() {
        text.push(b'#');
    } else if after.is_check() {
        text.push(b'+');
    }
    text
}
