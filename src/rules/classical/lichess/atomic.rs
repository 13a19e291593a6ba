//! [`Atomic`]: captures explode.

use super::moves::{self, Freedoms};
use super::{Outcome, ParseFenError, RuleSet, fen, insufficient};
use crate::rules::classical::attacks::{self, Bitboard};
use crate::rules::classical::{Board, Move, MoveList, bits};
use crate::variant::{Color, Role};

/// A position of Atomic chess: a capture explodes the capturing piece and every piece but the
/// pawns next to the capture square; a move that explodes one's own king is illegal; kings may
/// touch, and a king touching the other is never in check; a king cannot capture; the game ends
/// when a king explodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Atomic {
    board: Board,
    /// The squares whose pieces the last capture's explosion removed, besides the capture
    /// square.
    exploded: Bitboard,
}

impl Atomic {
    /// The pieces of the other side that attack `square`, as Atomic counts them: none when
    /// their king touches the square or is gone.
    fn attackers(board: &Board, square: u8, attacker: Color, occupied: Bitboard) -> Bitboard {
        let kings = board.pieces(attacker, Role::King);
        if kings == 0 || attacks::king(usize::from(square)) & kings != 0 {
            return 0;
        }
        board.attackers(square, attacker, occupied)
    }
}

impl RuleSet for Atomic {
    const NAME: &'static str = "Atomic";

    fn from_fen(text: &str) -> Result<Atomic, ParseFenError> {
        let (board, _) = fen::read(text, true)?;
        Ok(Atomic { board, exploded: 0 })
    }

    fn from_board(board: Board) -> Atomic {
        Atomic { board, exploded: 0 }
    }

    fn board(&self) -> &Board {
        &self.board
    }

    fn board_mut(&mut self) -> &mut Board {
        &mut self.board
    }

    fn candidate_moves(&self, moves: &mut MoveList) {
        let board = &self.board;
        let them = board.turn().other();
        moves::pseudo_legal(board, Freedoms { king_captures: false, king_promotion: false }, moves);
        moves::castling(board, |square, occupied| Atomic::attackers(board, square, them, occupied) != 0, moves);
    }

    /// A move is legal when the mover's king survives it and is not left in check (a king
    /// touching the other, or the other gone, is not).
    fn is_legal_candidate(&self, m: Move) -> bool {
        let (us, them) = (self.board.turn(), self.board.turn().other());
        let mut after = *self;
        after.play(m);
        let ours = after.board.pieces(us, Role::King);
        ours != 0
            && (after.board.pieces(them, Role::King) == 0
                || Atomic::attackers(&after.board, ours.trailing_zeros() as u8, them, after.board.occupied()) == 0)
    }

    fn play(&mut self, m: Move) {
        moves::play_standard(&mut self.board, m);
        self.exploded = 0;
        let to = match m {
            Move::Normal { capture: Some(_), to, .. } | Move::EnPassant { to, .. } => to,
            _ => return,
        };
        let board = &mut self.board;
        let blast = attacks::king(usize::from(to))
            & board.occupied()
            & !board.pieces(Color::White, Role::Pawn)
            & !board.pieces(Color::Black, Role::Pawn);
        for color in Color::ALL {
            if blast & board.pieces(color, Role::King) != 0 {
                board.discard_castling(color);
            }
        }
        board.take_off(to);
        for square in bits(blast) {
            board.take_off(square as u8);
        }
        self.exploded = blast;
    }

    fn removed_by_last_move(&self) -> Bitboard {
        self.exploded
    }

    fn has_insufficient_material(&self, color: Color) -> bool {
        insufficient::atomic(&self.board, color)
    }

    fn is_check(&self) -> bool {
        let board = &self.board;
        let us = board.turn();
        let king = board.pieces(us, Role::King);
        king != 0 && Atomic::attackers(board, king.trailing_zeros() as u8, us.other(), board.occupied()) != 0
    }

    fn variant_outcome(&self) -> Option<Outcome> {
        Color::ALL
            .into_iter()
            .find(|color| self.board.pieces(*color, Role::King) == 0)
            .map(|color| Outcome::Decisive { winner: color.other() })
    }
}
