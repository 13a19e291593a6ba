//! [`SquareSet`]: a set of squares stored as bits in `W` 64-bit words.
//!
//! The width `W` is chosen per board size class (see [`crate::board::Width`]): one word for boards
//! of 64 squares or fewer, so that an 8x8 set is a plain `u64` in disguise, and up to eleven words
//! for 26x26. Bit `i` stands for the square with index `i`. Boolean algebra works word by word;
//! operations that need the board's shape (complement, shifts, files and ranks) live in
//! [`crate::board::Masks`].
//!
//! ```
//! use cqlq::board::{Geometry, SquareSet};
//!
//! let board = Geometry::new(8, 8).unwrap();
//! let e4 = board.parse_square("e4")?;
//! let d5 = board.parse_square("d5")?;
//! let set: SquareSet<1> = [e4, d5].into_iter().collect();
//! assert_eq!(set.count(), 2);
//! assert!(set.contains(e4));
//! assert_eq!(set.iter().collect::<Vec<_>>(), vec![e4, d5]);
//! # Ok::<_, cqlq::board::ParseSquareError>(())
//! ```

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Sub, SubAssign};

use bitvec::prelude::{BitArray, Lsb0};

use super::geometry::Square;

/// A set of squares of a board of at most `64 * W` squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SquareSet<const W: usize> {
    bits: BitArray<[u64; W], Lsb0>,
}

impl<const W: usize> SquareSet<W> {
    /// The empty set.
    pub const EMPTY: SquareSet<W> = SquareSet::from_words([0; W]);

    /// The number of squares a set of this width can hold.
    pub const CAPACITY: usize = 64 * W;

    /// The set whose bits are these words (bit `i` of word `w` is square `64 * w + i`).
    #[must_use]
    pub const fn from_words(words: [u64; W]) -> SquareSet<W> {
        SquareSet { bits: BitArray { _ord: std::marker::PhantomData, data: words } }
    }

    /// The words that store the set.
    #[must_use]
    pub const fn words(&self) -> &[u64; W] {
        &self.bits.data
    }

    /// The set holding one square.
    #[must_use]
    pub fn from_square(square: Square) -> SquareSet<W> {
        let mut set = SquareSet::EMPTY;
        set.add(square);
        set
    }

    /// Whether the set holds the square.
    #[must_use]
    #[inline]
    pub fn contains(&self, square: Square) -> bool {
        self.bits.get(square.index()).is_some_and(|bit| *bit)
    }

    /// Adds a square (squares beyond the capacity are ignored).
    #[inline]
    pub fn add(&mut self, square: Square) {
        if square.index() < Self::CAPACITY {
            self.bits.set(square.index(), true);
        }
    }

    /// Removes a square.
    #[inline]
    pub fn discard(&mut self, square: Square) {
        if square.index() < Self::CAPACITY {
            self.bits.set(square.index(), false);
        }
    }

    /// Adds a square and tells whether it was new.
    #[must_use = "use SquareSet::add() if the answer is not needed"]
    pub fn insert(&mut self, square: Square) -> bool {
        let new = !self.contains(square);
        self.add(square);
        new
    }

    /// Removes a square and tells whether it was there.
    #[must_use = "use SquareSet::discard() if the answer is not needed"]
    pub fn remove(&mut self, square: Square) -> bool {
        let present = self.contains(square);
        self.discard(square);
        present
    }

    /// Adds the square if it is missing, removes it if it is there.
    pub fn toggle(&mut self, square: Square) {
        if square.index() < Self::CAPACITY {
            let bit = self.contains(square);
            self.bits.set(square.index(), !bit);
        }
    }

    /// This set with one more square.
    #[must_use]
    pub fn with(mut self, square: Square) -> SquareSet<W> {
        self.add(square);
        self
    }

    /// This set without a square.
    #[must_use]
    pub fn without(mut self, square: Square) -> SquareSet<W> {
        self.discard(square);
        self
    }

    /// The number of squares in the set.
    #[must_use]
    #[inline]
    pub fn count(&self) -> usize {
        self.bits.data.iter().map(|word| word.count_ones() as usize).sum()
    }

    /// Whether the set has no square.
    #[must_use]
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.bits.data.iter().all(|&word| word == 0)
    }

    /// Whether the set has at least one square.
    #[must_use]
    #[inline]
    pub fn any(&self) -> bool {
        !self.is_empty()
    }

    /// Whether the set has more than one square.
    #[must_use]
    pub fn more_than_one(&self) -> bool {
        self.count() > 1
    }

    /// The square with the lowest index.
    #[must_use]
    pub fn first(&self) -> Option<Square> {
        self.iter().next()
    }

    /// The square with the highest index.
    #[must_use]
    pub fn last(&self) -> Option<Square> {
        self.bits.last_one().map(|index| Square::from_index(index as u16))
    }

    /// Whether every square of this set is in `other`.
    #[must_use]
    pub fn is_subset(&self, other: SquareSet<W>) -> bool {
        (*self - other).is_empty()
    }

    /// Whether the two sets share no square.
    #[must_use]
    pub fn is_disjoint(&self, other: SquareSet<W>) -> bool {
        (*self & other).is_empty()
    }

    /// Whether the two sets share a square.
    #[must_use]
    pub fn intersects(&self, other: SquareSet<W>) -> bool {
        !self.is_disjoint(other)
    }

    /// The squares in ascending order of index.
    #[must_use]
    pub fn iter(&self) -> Iter<W> {
        Iter { words: self.bits.data, word: 0 }
    }

    /// Every bit moved `n` places towards higher indices; bits pushed past the capacity are lost.
    ///
    /// `n` must be below 64. Board-aware shifts are in [`crate::board::Masks::shift`].
    #[must_use]
    #[inline]
    pub fn shift_up(self, n: u32) -> SquareSet<W> {
        debug_assert!(n < 64);
        if n == 0 {
            return self;
        }
        let words = &self.bits.data;
        let mut out = [0u64; W];
        for i in (0..W).rev() {
            out[i] = words[i] << n;
            if i > 0 {
                out[i] |= words[i - 1] >> (64 - n);
            }
        }
        SquareSet::from_words(out)
    }

    /// Every bit moved `n` places towards lower indices; bits pushed below index 0 are lost.
    ///
    /// `n` must be below 64.
    #[must_use]
    #[inline]
    pub fn shift_down(self, n: u32) -> SquareSet<W> {
        debug_assert!(n < 64);
        if n == 0 {
            return self;
        }
        let words = &self.bits.data;
        let mut out = [0u64; W];
        for i in 0..W {
            out[i] = words[i] >> n;
            if i + 1 < W {
                out[i] |= words[i + 1] << (64 - n);
            }
        }
        SquareSet::from_words(out)
    }

    #[inline]
    fn zip(self, other: SquareSet<W>, op: impl Fn(u64, u64) -> u64) -> SquareSet<W> {
        let mut out = self.bits.data;
        for (word, theirs) in out.iter_mut().zip(other.bits.data) {
            *word = op(*word, theirs);
        }
        SquareSet::from_words(out)
    }
}

impl<const W: usize> Default for SquareSet<W> {
    fn default() -> Self {
        SquareSet::EMPTY
    }
}

impl<const W: usize> BitAnd for SquareSet<W> {
    type Output = SquareSet<W>;
    #[inline]
    fn bitand(self, other: SquareSet<W>) -> SquareSet<W> {
        self.zip(other, |a, b| a & b)
    }
}

impl<const W: usize> BitOr for SquareSet<W> {
    type Output = SquareSet<W>;
    #[inline]
    fn bitor(self, other: SquareSet<W>) -> SquareSet<W> {
        self.zip(other, |a, b| a | b)
    }
}

impl<const W: usize> BitXor for SquareSet<W> {
    type Output = SquareSet<W>;
    #[inline]
    fn bitxor(self, other: SquareSet<W>) -> SquareSet<W> {
        self.zip(other, |a, b| a ^ b)
    }
}

/// The squares of the left set that are not in the right one.
impl<const W: usize> Sub for SquareSet<W> {
    type Output = SquareSet<W>;
    #[inline]
    fn sub(self, other: SquareSet<W>) -> SquareSet<W> {
        self.zip(other, |a, b| a & !b)
    }
}

impl<const W: usize> BitAndAssign for SquareSet<W> {
    #[inline]
    fn bitand_assign(&mut self, other: SquareSet<W>) {
        *self = *self & other;
    }
}

impl<const W: usize> BitOrAssign for SquareSet<W> {
    #[inline]
    fn bitor_assign(&mut self, other: SquareSet<W>) {
        *self = *self | other;
    }
}

impl<const W: usize> BitXorAssign for SquareSet<W> {
    #[inline]
    fn bitxor_assign(&mut self, other: SquareSet<W>) {
        *self = *self ^ other;
    }
}

impl<const W: usize> SubAssign for SquareSet<W> {
    #[inline]
    fn sub_assign(&mut self, other: SquareSet<W>) {
        *self = *self - other;
    }
}

impl<const W: usize> FromIterator<Square> for SquareSet<W> {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut set = SquareSet::EMPTY;
        set.extend(iter);
        set
    }
}

impl<const W: usize> Extend<Square> for SquareSet<W> {
    fn extend<I: IntoIterator<Item = Square>>(&mut self, iter: I) {
        for square in iter {
            self.add(square);
        }
    }
}

impl<const W: usize> IntoIterator for SquareSet<W> {
    type Item = Square;
    type IntoIter = Iter<W>;
    fn into_iter(self) -> Iter<W> {
        self.iter()
    }
}

impl<const W: usize> fmt::Debug for SquareSet<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(Square::index)).finish()
    }
}

/// The squares of a [`SquareSet`] in ascending order.
#[derive(Clone, Debug)]
pub struct Iter<const W: usize> {
    words: [u64; W],
    word: usize,
}

impl<const W: usize> Iterator for Iter<W> {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        while self.word < W {
            let bits = self.words[self.word];
            if bits != 0 {
                self.words[self.word] = bits & (bits - 1);
                let index = self.word * 64 + bits.trailing_zeros() as usize;
                return Some(Square::from_index(index as u16));
            }
            self.word += 1;
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.words[self.word.min(W)..].iter().map(|w| w.count_ones() as usize).sum();
        (left, Some(left))
    }
}

impl<const W: usize> ExactSizeIterator for Iter<W> {}

impl<const W: usize> std::iter::FusedIterator for Iter<W> {}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(index: u16) -> Square {
        Square::from_index(index)
    }

    #[test]
    fn one_word_behaves_like_u64() {
        let set: SquareSet<1> = [sq(0), sq(9), sq(63)].into_iter().collect();
        assert_eq!(set.words(), &[1 | 1 << 9 | 1 << 63]);
        assert_eq!(set.count(), 3);
        assert_eq!(set.last(), Some(sq(63)));
        assert_eq!(set.shift_up(1).words(), &[(1 | 1 << 9 | 1 << 63) << 1]);
    }

    #[test]
    fn shifts_carry_between_words() {
        let set: SquareSet<3> = [sq(63), sq(127), sq(130)].into_iter().collect();
        let up: Vec<_> = set.shift_up(5).iter().map(Square::index).collect();
        assert_eq!(up, vec![68, 132, 135]);
        let down: Vec<_> = set.shift_down(64 - 1).iter().map(Square::index).collect();
        assert_eq!(down, vec![0, 64, 67]);
    }

    #[test]
    fn insert_and_remove_report_changes() {
        let mut set = SquareSet::<2>::EMPTY;
        assert!(set.insert(sq(70)));
        assert!(!set.insert(sq(70)));
        assert!(set.remove(sq(70)));
        assert!(!set.remove(sq(70)));
        assert!(set.is_empty());
        set.add(sq(500));
        assert!(set.is_empty(), "squares beyond the capacity are ignored");
    }

    #[test]
    fn iterator_reports_exact_size() {
        let set: SquareSet<2> = [sq(1), sq(64), sq(100)].into_iter().collect();
        let mut iter = set.iter();
        assert_eq!(iter.len(), 3);
        iter.next();
        assert_eq!(iter.len(), 2);
        assert_eq!(iter.collect::<Vec<_>>(), vec![sq(64), sq(100)]);
    }
}
