//! [`Placement`]: the pieces on the board, as square sets by kind and by colour, with per-square
//! marks.

use crate::board::{Square, SquareSet};
use crate::variant::vocabulary::{MAX_MARKS, Mark};
use crate::variant::{Color, Kind, Piece};

/// The pieces on a board of at most `64 * W` squares.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Placement<const W: usize> {
    by_kind: Vec<SquareSet<W>>,
    by_color: [SquareSet<W>; 2],
    marks: [SquareSet<W>; MAX_MARKS],
}

impl<const W: usize> Placement<W> {
    /// An empty board for an alphabet of `kinds` piece types.
    #[must_use]
    pub fn empty(kinds: usize) -> Placement<W> {
        Placement {
            by_kind: vec![SquareSet::EMPTY; kinds],
            by_color: [SquareSet::EMPTY; 2],
            marks: [SquareSet::EMPTY; MAX_MARKS],
        }
    }

    /// The squares holding pieces of a kind, of both colours.
    #[must_use]
    #[inline]
    pub fn kind(&self, kind: Kind) -> SquareSet<W> {
        self.by_kind.get(kind.index()).copied().unwrap_or_default()
    }

    /// The squares holding pieces of a colour (ownerless pieces count by their shade).
    #[must_use]
    #[inline]
    pub fn color(&self, color: Color) -> SquareSet<W> {
        self.by_color[color.index()]
    }

    /// The squares holding a piece of this kind and colour.
    #[must_use]
    #[inline]
    pub fn pieces(&self, piece: Piece) -> SquareSet<W> {
        self.kind(piece.kind) & self.color(piece.color)
    }

    /// The squares holding any piece.
    #[must_use]
    #[inline]
    pub fn occupied(&self) -> SquareSet<W> {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares carrying a mark.
    #[must_use]
    #[inline]
    pub fn marked(&self, mark: Mark) -> SquareSet<W> {
        self.marks[mark.index()]
    }

    /// The piece on a square.
    #[must_use]
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        let color = Color::ALL.into_iter().find(|color| self.by_color[color.index()].contains(square))?;
        let kind = self.by_kind.iter().position(|set| set.contains(square))?;
        Some(Piece { kind: Kind::new(kind as u8), color })
    }

    /// Puts a piece on a square, replacing what was there; the square's marks are cleared.
    pub fn put(&mut self, square: Square, piece: Piece) {
        self.take(square);
        self.by_kind[piece.kind.index()].add(square);
        self.by_color[piece.color.index()].add(square);
    }

    /// Takes the piece off a square, with its marks.
    pub fn take(&mut self, square: Square) -> Option<Piece> {
        let piece = self.piece_at(square)?;
        self.by_kind[piece.kind.index()].discard(square);
        self.by_color[piece.color.index()].discard(square);
        for marks in &mut self.marks {
            marks.discard(square);
        }
        Some(piece)
    }

    /// Sets or clears a mark on a square.
    pub fn set_mark(&mut self, mark: Mark, square: Square, on: bool) {
        if on {
            self.marks[mark.index()].add(square);
        } else {
            self.marks[mark.index()].discard(square);
        }
    }

    /// The level (tier or orientation, 0 to 3) of the piece on a square.
    #[must_use]
    pub fn level(&self, square: Square) -> u8 {
        u8::from(self.marked(Mark::LEVEL_LOW).contains(square))
            | u8::from(self.marked(Mark::LEVEL_HIGH).contains(square)) << 1
    }

    /// Sets the level (0 to 3; higher values keep their two low bits).
    pub fn set_level(&mut self, square: Square, level: u8) {
        self.set_mark(Mark::LEVEL_LOW, square, level & 1 != 0);
        self.set_mark(Mark::LEVEL_HIGH, square, level & 2 != 0);
    }

    /// Every piece with its square, in square order.
    pub fn iter(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied().into_iter().filter_map(|square| Some((square, self.piece_at(square)?)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_take_and_marks() {
        let mut board = Placement::<2>::empty(5);
        let square = Square::from_index(70);
        let piece = Piece { kind: Kind::new(3), color: Color::Black };
        board.put(square, piece);
        board.set_level(square, 3);
        board.set_mark(Mark::CASTLE, square, true);
        assert_eq!(board.piece_at(square), Some(piece));
        assert_eq!(board.level(square), 3);
        assert_eq!(board.take(square), Some(piece));
        assert!(board.occupied().is_empty());
        assert!(board.marked(Mark::CASTLE).is_empty());
        assert_eq!(board.level(square), 0);
    }
}
