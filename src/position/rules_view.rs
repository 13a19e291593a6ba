//! [`RulesView`]: what the rules of a variant say about a position (attacks, check, legal
//! moves), for the query filters that need them; and [`MoveFacts`], a move as those filters see it.

use super::{Mark, Position, PositionView, Setup};
use crate::board::{Square, SquareSet};
use crate::variant::{Color, Kind, KindSet, Piece, Variant};

/// The side of the board a king castles to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wing {
    /// Towards the h-file (`O-O`).
    King,
    /// Towards the a-file (`O-O-O`).
    Queen,
}

/// A move as the query's move filters see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveFacts {
    /// The square the piece leaves (none for a drop).
    pub from: Option<Square>,
    /// The square it lands on (the king's square, for castling).
    pub to: Square,
    /// The square of the piece captured, if any (for en passant, the captured pawn's square).
    pub capture: Option<Square>,
    /// The kind a pawn promotes to, in the colour of the side that moved.
    pub promotion: Option<Kind>,
    /// Whether it is an en passant capture.
    pub en_passant: bool,
    /// The side castled to, for castling.
    pub castle: Option<Wing>,
    /// Whether a piece from the hand is put on the board.
    pub drop: bool,
}

/// A position with the rules of its variant: what its pieces attack, whether the side to move
/// is in check, and its legal moves.
///
/// Views without rules (as [`Position`] of a variant cqlq does not play) keep the defaults; the
/// query compiler refuses the filters that need rules for such variants, so the defaults are
/// never consulted for them.
pub trait RulesView<const W: usize>: PositionView<W> {
    /// The squares the piece on `square` attacks (none for an empty square).
    fn attacks_from(&self, square: Square) -> SquareSet<W> {
        let _ = square;
        SquareSet::EMPTY
    }

    /// Whether the side to move is in check.
    fn in_check(&self) -> bool {
        false
    }

    /// Appends the legal moves of the side to move.
    fn legal_moves(&self, moves: &mut Vec<MoveFacts>) {
        let _ = moves;
    }

    /// Appends the pseudo-legal moves of the side to move: the legal ones, and those that would
    /// be legal but leave (or put) the mover's king in check. Views that know no more give the
    /// legal moves.
    fn pseudo_legal_moves(&self, moves: &mut Vec<MoveFacts>) {
        self.legal_moves(moves);
    }

    /// Appends the legal moves (with `pseudo`, the pseudo-legal ones) that leave a square of
    /// `from` and land on a square of `to`, where these are given (a drop leaves no square).
    fn moves_within(
        &self,
        pseudo: bool,
        from: Option<SquareSet<W>>,
        to: Option<SquareSet<W>>,
        moves: &mut Vec<MoveFacts>,
    ) {
        let mut all = Vec::new();
        if pseudo {
            self.pseudo_legal_moves(&mut all);
        } else {
            self.legal_moves(&mut all);
        }
        moves.extend(all.into_iter().filter(|m| {
            from.is_none_or(|from| m.from.is_some_and(|square| from.contains(square)))
                && to.is_none_or(|to| to.contains(m.to))
        }));
    }

    /// Whether the side to move has a legal move.
    fn has_legal_move(&self) -> bool {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        !moves.is_empty()
    }

    /// The pieces standing alone on a line between an enemy line piece and a piece of theirs on
    /// one of `shielded`, each given to `pin` as `(pinner, pinned, shielded)` squares.
    fn pins(&self, shielded: SquareSet<W>, pin: &mut dyn FnMut(Square, Square, Square)) {
        let _ = (shielded, pin);
    }

    /// The number of the move, as the FEN counts it (1 in the first move).
    fn move_number(&self) -> u32;

    /// The number of plies since move 1 with White to move, from the move number.
    fn ply_from_counters(&self) -> u32 {
        let black = u32::from(self.turn() == Color::Black);
        self.move_number().saturating_sub(1).saturating_mul(2).saturating_add(black)
    }
}

impl<const W: usize> RulesView<W> for Position<W> {
    fn move_number(&self) -> u32 {
        self.setup().fullmove_number
    }
}

impl<const W: usize> RulesView<W> for Setup<W> {
    fn move_number(&self) -> u32 {
        self.fullmove_number
    }
}

// A borrowed position is a position: single positions are tested without a copy.
impl<const W: usize, T: PositionView<W>> PositionView<W> for &T {
    fn variant(&self) -> &'static Variant {
        (**self).variant()
    }
    #[inline]
    fn kind(&self, kind: Kind) -> SquareSet<W> {
        (**self).kind(kind)
    }
    #[inline]
    fn color(&self, color: Color) -> SquareSet<W> {
        (**self).color(color)
    }
    fn marked(&self, mark: Mark) -> SquareSet<W> {
        (**self).marked(mark)
    }
    fn in_backhand(&self, piece: Piece) -> u32 {
        (**self).in_backhand(piece)
    }
    fn backhand_kinds(&self, color: Color) -> KindSet {
        (**self).backhand_kinds(color)
    }
    fn turn(&self) -> Color {
        (**self).turn()
    }
    #[inline]
    fn pieces(&self, color: Color, kinds: KindSet) -> SquareSet<W> {
        (**self).pieces(color, kinds)
    }
    #[inline]
    fn occupied(&self) -> SquareSet<W> {
        (**self).occupied()
    }
    fn with_level(&self, level: u8) -> SquareSet<W> {
        (**self).with_level(level)
    }
}

impl<const W: usize, T: RulesView<W>> RulesView<W> for &T {
    fn attacks_from(&self, square: Square) -> SquareSet<W> {
        (**self).attacks_from(square)
    }
    fn in_check(&self) -> bool {
        (**self).in_check()
    }
    fn legal_moves(&self, moves: &mut Vec<MoveFacts>) {
        (**self).legal_moves(moves);
    }
    fn pseudo_legal_moves(&self, moves: &mut Vec<MoveFacts>) {
        (**self).pseudo_legal_moves(moves);
    }
    fn has_legal_move(&self) -> bool {
        (**self).has_legal_move()
    }
    fn pins(&self, shielded: SquareSet<W>, pin: &mut dyn FnMut(Square, Square, Square)) {
        (**self).pins(shielded, pin);
    }
    fn move_number(&self) -> u32 {
        (**self).move_number()
    }
}
