//! Lines between squares on boards of any shape: files, ranks and diagonals.
//!
//! [`Geometry::step_between`] tells whether two squares share a line and which way it runs;
//! [`Masks::between`] gives the squares strictly between them, as the `between` filter and pins
//! need.
//!
//! ```
//! use cqlq::board::{Geometry, Masks};
//!
//! let board = Geometry::new(10, 8).unwrap();
//! let masks = Masks::<2>::new(board).unwrap();
//! let a1 = board.parse_square("a1")?;
//! let j1 = board.parse_square("j1")?;
//! assert_eq!(board.step_between(a1, j1), Some((1, 0)));
//! assert_eq!(masks.between(a1, j1).count(), 8);
//! assert!(masks.between(a1, board.parse_square("b3")?).is_empty());
//! # Ok::<_, cqlq::board::ParseSquareError>(())
//! ```

use super::geometry::{Geometry, Square};
use super::masks::Masks;
use super::set::SquareSet;

impl Geometry {
    /// The unit step (file step, rank step), each in `-1..=1`, from `a` towards `b` when they are
    /// different squares of this board on one file, rank or diagonal; `None` otherwise.
    #[must_use]
    pub const fn step_between(self, a: Square, b: Square) -> Option<(i32, i32)> {
        if !self.contains(a) || !self.contains(b) || a.index() == b.index() {
            return None;
        }
        let files = self.file_of(b).index() as i32 - self.file_of(a).index() as i32;
        let ranks = self.rank_of(b).index() as i32 - self.rank_of(a).index() as i32;
        if files == 0 || ranks == 0 || files.abs() == ranks.abs() {
            Some((files.signum(), ranks.signum()))
        } else {
            None
        }
    }
}

impl<const W: usize> Masks<W> {
    /// The squares strictly between `a` and `b` when they share a file, rank or diagonal; empty
    /// otherwise (and when `a` is `b`).
    #[must_use]
    #[inline]
    pub fn between(&self, a: Square, b: Square) -> SquareSet<W> {
        let squares = self.geometry().squares();
        match &self.between {
            Some(table) if a.index() < squares && b.index() < squares => table[a.index() * squares + b.index()],
            _ => self.walk_between(a, b),
        }
    }

    /// [`Masks::between`], walked from `a` to `b`.
    pub(super) fn walk_between(&self, a: Square, b: Square) -> SquareSet<W> {
        let geometry = self.geometry();
        let mut squares = SquareSet::EMPTY;
        let Some((file_step, rank_step)) = geometry.step_between(a, b) else {
            return squares;
        };
        let mut file = i32::from(geometry.file_of(a).index()) + file_step;
        let mut rank = i32::from(geometry.rank_of(a).index()) + rank_step;
        while let Some(square) = geometry.square_at(file, rank) {
            if square == b {
                break;
            }
            squares.add(square);
            file += file_step;
            rank += rank_step;
        }
        squares
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Width;

    use crate::board::transform::tests::{board, boards, sq};

    /// The number of squares strictly between two named squares.
    fn between_count(geometry: Geometry, a: &str, b: &str) -> usize {
        fn count<const W: usize>(geometry: Geometry, a: Square, b: Square) -> usize {
            Masks::<W>::new(geometry).unwrap().between(a, b).count()
        }
        crate::with_width!(Width::of(geometry), W => count::<W>(geometry, sq(geometry, a), sq(geometry, b)))
    }

    #[test]
    fn steps_point_from_a_to_b() {
        let geometry = board(8, 8);
        let step = |a: &str, b: &str| geometry.step_between(sq(geometry, a), sq(geometry, b));
        assert_eq!(step("a1", "h8"), Some((1, 1)));
        assert_eq!(step("h8", "a1"), Some((-1, -1)));
        assert_eq!(step("a8", "h1"), Some((1, -1)));
        assert_eq!(step("e4", "e1"), Some((0, -1)));
        assert_eq!(step("e4", "a4"), Some((-1, 0)));
        assert_eq!(step("a1", "b2"), Some((1, 1)));
        assert_eq!(step("a1", "b3"), None);
        assert_eq!(step("a1", "a1"), None);
        let laser = board(10, 8);
        assert_eq!(laser.step_between(sq(laser, "c1"), sq(laser, "j8")), Some((1, 1)));
        assert_eq!(laser.step_between(sq(laser, "a1"), sq(laser, "j8")), None, "not a diagonal on 10x8");
        assert_eq!(geometry.step_between(Square::from_index(0), Square::from_index(72)), None, "off the board");
    }

    #[test]
    fn squares_between_counted_by_hand() {
        let [standard, laser, big, ten] = boards();
        assert_eq!(between_count(standard, "a1", "h8"), 6);
        assert_eq!(between_count(standard, "h8", "a1"), 6);
        assert_eq!(between_count(standard, "a1", "b3"), 0);
        assert_eq!(between_count(standard, "a1", "a1"), 0);
        assert_eq!(between_count(standard, "a1", "b2"), 0);
        assert_eq!(between_count(standard, "e1", "e8"), 6);
        assert_eq!(between_count(laser, "a1", "j1"), 8);
        assert_eq!(between_count(laser, "a1", "h8"), 6);
        assert_eq!(between_count(laser, "a1", "j8"), 0);
        assert_eq!(between_count(big, "a1", "z26"), 24);
        assert_eq!(between_count(big, "z1", "a26"), 24);
        assert_eq!(between_count(big, "a1", "a26"), 24);
        assert_eq!(between_count(big, "a1", "z1"), 24);
        assert_eq!(between_count(big, "a1", "a1"), 0);
        assert_eq!(between_count(ten, "a1", "j10"), 8);
        assert_eq!(between_count(ten, "a10", "j1"), 8);

        let masks = Masks::<1>::new(standard).unwrap();
        let expected: SquareSet<1> =
            ["b2", "c3", "d4", "e5", "f6", "g7"].map(|name| sq(standard, name)).into_iter().collect();
        assert_eq!(masks.between(sq(standard, "a1"), sq(standard, "h8")), expected);
    }

    #[test]
    fn between_matches_the_definition() {
        fn check<const W: usize>(geometry: Geometry) {
            let masks = Masks::<W>::new(geometry).unwrap();
            let at = |square: Square| {
                (i32::from(geometry.file_of(square).index()), i32::from(geometry.rank_of(square).index()))
            };
            // Every pair on small boards; on big ones, every square paired with a sample of them.
            let sample = if geometry.squares() > 128 { 23 } else { 1 };
            for a in geometry.all_squares().step_by(sample) {
                for b in geometry.all_squares() {
                    let (af, ar) = at(a);
                    let (bf, br) = at(b);
                    let (df, dr) = (bf - af, br - ar);
                    let aligned = (df == 0 || dr == 0 || df.abs() == dr.abs()) && a != b;
                    // A square is strictly between when it is a multiple k of the unit step away
                    // from a, with 0 < k < the distance.
                    let expected: SquareSet<W> = if aligned {
                        let distance = df.abs().max(dr.abs());
                        (1..distance)
                            .map(|k| geometry.square_at(af + k * df.signum(), ar + k * dr.signum()).unwrap())
                            .collect()
                    } else {
                        SquareSet::EMPTY
                    };
                    assert_eq!(masks.between(a, b), expected, "{a:?} {b:?} on {geometry}");
                    assert_eq!(masks.between(b, a), expected);
                    assert_eq!(geometry.step_between(a, b).is_some(), aligned);
                }
            }
        }
        for geometry in boards() {
            crate::with_width!(Width::of(geometry), W => check::<W>(geometry));
        }
        check::<1>(board(1, 1));
        check::<1>(board(3, 7));
    }
}
