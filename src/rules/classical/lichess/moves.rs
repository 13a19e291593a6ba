//! Move generation shared by the lichess rule sets: the moves of the pieces as they move
//! (pseudo-legal), castling under a variant's notion of attack, and the standard test of a
//! king left in check.

use crate::rules::classical::attacks::{self, Bitboard};
use crate::rules::classical::{Board, Move, MoveList, bits};
use crate::variant::{Color, Role};

/// What the pieces may do beyond the standard moves.
#[derive(Clone, Copy, Debug)]
pub(super) struct Freedoms {
    /// Whether a king may take (not in Atomic).
    pub king_captures: bool,
    /// Whether a pawn may promote to a king (Antichess).
    pub king_promotion: bool,
}

/// The standard freedoms.
pub(super) const STANDARD: Freedoms = Freedoms { king_captures: true, king_promotion: false };

/// The ranks where pawns promote.
const BACK_RANKS: Bitboard = attacks::RANK_1 | attacks::RANK_1 << 56;

/// Appends the moves of the side to move's pieces as they move, en passant included, castling
/// not, whatever the safety of its king.
pub(super) fn pseudo_legal(board: &Board, freedoms: Freedoms, moves: &mut MoveList) {
    let us = board.turn();
    let occupied = board.occupied();
    let ours = board.side(us);
    let theirs = board.side(us.other());
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
        let targets = if role == Role::King && !freedoms.king_captures { !occupied } else { !ours };
        for from in bits(board.pieces(us, role)) {
            let from = from as u8;
            for to in bits(board.attacks_from(role, us, from, occupied) & targets) {
                let to = to as u8;
                moves.push(Move::Normal { role, from, to, capture: board.role_at(to), promotion: None });
            }
        }
    }
    // A double step lands in the mover's own half: from the second rank, and in Horde from the
    // first.
    let own_half = if us == Color::White { 0x0000_0000_FFFF_FFFF } else { 0xFFFF_FFFF_0000_0000 };
    for from in bits(board.pieces(us, Role::Pawn)) {
        let from = from as u8;
        let mut targets = attacks::pawn(us.index(), usize::from(from)) & theirs;
        let step = |square: u8| if us == Color::White { square.checked_add(8) } else { square.checked_sub(8) };
        if let Some(one) = step(from).filter(|&s| s < 64 && occupied & (1u64 << s) == 0) {
            targets |= 1u64 << one;
            if let Some(two) = step(one).filter(|&s| s < 64)
                && own_half & !occupied & (1u64 << two) != 0
            {
                targets |= 1u64 << two;
            }
        }
        for to in bits(targets) {
            let to = to as u8;
            let capture = board.role_at(to);
            if BACK_RANKS & (1u64 << to) == 0 {
                moves.push(Move::Normal { role: Role::Pawn, from, to, capture, promotion: None });
                continue;
            }
            for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                moves.push(Move::Normal { role: Role::Pawn, from, to, capture, promotion: Some(promotion) });
            }
            if freedoms.king_promotion {
                moves.push(Move::Normal { role: Role::Pawn, from, to, capture, promotion: Some(Role::King) });
            }
        }
    }
    if let Some(to) = board.en_passant_target() {
        for from in bits(board.pieces(us, Role::Pawn) & attacks::pawn(us.other().index(), usize::from(to))) {
            moves.push(Move::EnPassant { from: from as u8, to });
        }
    }
}

/// Appends the castling moves of the side to move, `attacked(square, occupied)` telling whether
/// the enemy attacks a square as the variant means it.
pub(super) fn castling(board: &Board, attacked: impl Fn(u8, Bitboard) -> bool, moves: &mut MoveList) {
    let us = board.turn();
    let home = if us == Color::White { attacks::RANK_1 } else { attacks::RANK_1 << 56 };
    let kings = board.pieces(us, Role::King) & home;
    if kings.count_ones() != 1 {
        return;
    }
    let king = kings.trailing_zeros() as u8;
    let occupied = board.occupied();
    for rook in bits(board.castling_rights() & board.pieces(us, Role::Rook) & home) {
        let rook = rook as u8;
        let rank = king & !7;
        let (king_to, rook_to) = if rook > king { (rank + 6, rank + 5) } else { (rank + 2, rank + 3) };
        let movers = (1u64 << king) | (1u64 << rook);
        let path = (attacks::between(usize::from(king), usize::from(king_to))
            | (1u64 << king_to)
            | attacks::between(usize::from(rook), usize::from(rook_to))
            | (1u64 << rook_to))
            & !movers;
        if path & occupied != 0 {
            continue;
        }
        if attacked(king_to, occupied ^ (1u64 << king) ^ (1u64 << rook) ^ (1u64 << rook_to)) {
            continue;
        }
        let king_path = attacks::between(usize::from(king), usize::from(king_to)) | (1u64 << king);
        if bits(king_path).any(|square| attacked(square as u8, occupied ^ (1u64 << king))) {
            continue;
        }
        moves.push(Move::Castle { king, rook });
    }
}

/// Plays a move's standard effects: a double step from the first rank (Horde) leaves no en
/// passant square, as lichess has it.
pub(super) fn play_standard(board: &mut Board, m: Move) {
    board.play(m);
    if let Move::Normal { role: Role::Pawn, from, to, .. } = m
        && from.abs_diff(to) == 16
        && BACK_RANKS & (1u64 << from) != 0
    {
        board.set_en_passant(None);
    }
}

/// Whether `color`'s king, if it has one, is attacked by the other side.
pub(super) fn king_attacked(board: &Board, color: Color) -> bool {
    let king = board.pieces(color, Role::King);
    king != 0 && board.attackers(king.trailing_zeros() as u8, color.other(), board.occupied()) != 0
}

/// Appends standard chess's pseudo-legal moves, then its legal castlings: every legal move is
/// among them, and [`keeps_king_safe`] tells which.
pub(super) fn standard_candidates(board: &Board, moves: &mut MoveList) {
    let us = board.turn();
    pseudo_legal(board, STANDARD, moves);
    castling(board, |square, occupied| board.attackers(square, us.other(), occupied) != 0, moves);
}

/// Whether a move of [`standard_candidates`] leaves the mover's king, if any, unattacked
/// (castlings are listed only where legal).
pub(super) fn keeps_king_safe(board: &Board, m: Move) -> bool {
    if matches!(m, Move::Castle { .. }) {
        return true;
    }
    let mut after = *board;
    play_standard(&mut after, m);
    !king_attacked(&after, board.turn())
}
