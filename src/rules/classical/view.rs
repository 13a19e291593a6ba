//! The classical rules as the query sees them: [`RulesView`] for [`Board`], and the facts of a
//! move played.

use super::attacks;
use super::board::{Board, Move, MoveList, bits};
use crate::board::{Square, SquareSet};
use crate::position::{MoveFacts, RulesView, Wing};
use crate::variant::{Color, Kind, Piece, Role};

fn square(index: u8) -> Square {
    Square::from_index(u16::from(index))
}

fn kind(role: Role) -> Kind {
    Kind::new(role as u8)
}

impl Board {
    /// What a legal move of this position does, as the query's move filters see it.
    #[must_use]
    #[inline]
    pub fn move_facts(&self, m: Move) -> Option<MoveFacts> {
        Board::facts_of(m, self.turn())
    }

    /// What the move that led to this position did, `mover` having made it: [`Board::facts_of`],
    /// but for a null move, the mover's king standing still (none without a king).
    #[must_use]
    #[inline]
    pub fn facts_of_last(&self, m: Move, mover: Color) -> Option<MoveFacts> {
        if m != Move::Null {
            return Board::facts_of(m, mover);
        }
        let king = self.pieces(mover, Role::King);
        (king != 0).then(|| {
            let at = square(king.trailing_zeros() as u8);
            MoveFacts::new(Some(at), at, Piece { kind: kind(Role::King), color: mover }).passing()
        })
    }

    /// What a move made by `mover` does, as the query's move filters see it: all of it is in
    /// the move (none for a null move).
    #[must_use]
    #[inline]
    pub fn facts_of(m: Move, mover: Color) -> Option<MoveFacts> {
        let piece = |role: Role, color: Color| Piece { kind: kind(role), color };
        let to = square(m.to()?);
        let from = m.from().map(square);
        Some(match m {
            Move::Normal { role, capture, promotion, .. } => {
                let facts = MoveFacts::new(from, to, piece(role, mover));
                let facts = capture.map_or(facts, |taken| facts.capturing(to, piece(taken, mover.other())));
                promotion.map_or(facts, |role| facts.promoting(kind(role)))
            }
            Move::EnPassant { from, to: landing } => {
                // The captured pawn stands beside the capturing one, on the file it lands on.
                let captured = square((from & !7) | (landing & 7));
                MoveFacts::new(Some(square(from)), to, piece(Role::Pawn, mover))
                    .en_passant_of(captured, piece(Role::Pawn, mover.other()))
            }
            Move::Castle { king, rook } => MoveFacts::new(from, to, piece(Role::King, mover))
                .castling(if rook > king { Wing::King } else { Wing::Queen }),
            Move::Drop { role, .. } => MoveFacts::new(None, to, piece(role, mover)).dropping(),
            Move::Null => return None,
        })
    }
}

impl RulesView<1> for Board {
    fn position_string(&self) -> String {
        let mut fen = String::new();
        self.write_fen(&mut fen);
        fen
    }
    fn attacks_from(&self, from: Square) -> SquareSet<1> {
        let index = from.index() as u8;
        let Some(role) = self.role_at(index) else { return SquareSet::EMPTY };
        let color = if self.side(Color::White) & (1 << index) != 0 { Color::White } else { Color::Black };
        SquareSet::from_words([self.attacks_from(role, color, index, self.occupied())])
    }

    fn in_check(&self) -> bool {
        self.is_check()
    }

    fn legal_moves(&self, moves: &mut Vec<MoveFacts>) {
        self.moves_within(false, None, None, moves);
    }

    fn pseudo_legal_moves(&self, moves: &mut Vec<MoveFacts>) {
        self.moves_within(true, None, None, moves);
    }

    fn moves_within(
        &self,
        pseudo: bool,
        from: Option<SquareSet<1>>,
        to: Option<SquareSet<1>>,
        moves: &mut Vec<MoveFacts>,
    ) {
        // Only the moves that fit are listed and described.
        let (from, to) = (from.map(|set| set.words()[0]), to.map(|set| set.words()[0]));
        let mut list = MoveList::new();
        if pseudo {
            Board::pseudo_legal_moves_from(self, from.unwrap_or(!0), &mut list);
        } else {
            Board::legal_moves_from(self, from.unwrap_or(!0), &mut list);
        }
        let within = |m: &Move| {
            from.is_none_or(|from| m.from().is_some_and(|square| from & (1u64 << square) != 0))
                && to.is_none_or(|to| m.to().is_some_and(|square| to & (1u64 << square) != 0))
        };
        moves.extend(list.as_slice().iter().filter(|m| within(m)).filter_map(|&m| self.move_facts(m)));
    }

    fn has_legal_move(&self) -> bool {
        Board::has_legal_move(self)
    }

    fn pins(&self, shielded: SquareSet<1>, pin: &mut dyn FnMut(Square, Square, Square)) {
        let occupied = self.occupied();
        for target in bits(shielded.words()[0]) {
            // A piece is shielded from the other side's line pieces; an empty square from both
            // sides'.
            for ours in Color::ALL {
                if occupied & (1 << target) != 0 && self.side(ours) & (1 << target) == 0 {
                    continue;
                }
                let them = ours.other();
                let lines = self.pieces(them, Role::Queen);
                let snipers = (attacks::rook_rays(target) & (self.pieces(them, Role::Rook) | lines))
                    | (attacks::bishop_rays(target) & (self.pieces(them, Role::Bishop) | lines));
                for sniper in bits(snipers) {
                    let blockers = attacks::between(target, sniper) & occupied;
                    if blockers.count_ones() == 1 && blockers & self.side(ours) != 0 {
                        let pinned = blockers.trailing_zeros() as u8;
                        pin(square(sniper as u8), square(pinned), square(target as u8));
                    }
                }
            }
        }
    }

    fn move_number(&self) -> u32 {
        self.fullmoves()
    }
}
