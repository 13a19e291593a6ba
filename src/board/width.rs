//! Size classes of boards: how many 64-bit words a [`SquareSet`](super::SquareSet) needs.
//!
//! Code that works on square sets is generic over the width `W`; a board picks its class once,
//! and [`with_width!`](crate::with_width) turns the class into the constant that instantiates the
//! generic code. Five classes cover every board from 1x1 to 26x26.
//!
//! ```
//! use cqlq::board::{Geometry, Width};
//!
//! assert_eq!(Width::of(Geometry::new(8, 8).unwrap()), Width::W1);
//! assert_eq!(Width::of(Geometry::new(10, 8).unwrap()), Width::W2);
//! assert_eq!(Width::of(Geometry::new(26, 26).unwrap()).words(), 11);
//! ```

use super::geometry::Geometry;

/// The number of 64-bit words in the square sets of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Width {
    /// One word: up to 64 squares (8x8).
    W1,
    /// Two words: up to 128 squares (10x8, 10x10).
    W2,
    /// Four words: up to 256 squares (12x12 .. 16x16).
    W4,
    /// Eight words: up to 512 squares (18x18 .. 22x22).
    W8,
    /// Eleven words: up to 704 squares (24x24, 26x26).
    W11,
}

impl Width {
    /// Every class, narrowest first.
    pub const ALL: [Width; 5] = [Width::W1, Width::W2, Width::W4, Width::W8, Width::W11];

    /// The narrowest class that holds every square of the board.
    #[must_use]
    pub const fn of(geometry: Geometry) -> Width {
        match geometry.squares() {
            0..=64 => Width::W1,
            65..=128 => Width::W2,
            129..=256 => Width::W4,
            257..=512 => Width::W8,
            _ => Width::W11,
        }
    }

    /// The number of words.
    #[must_use]
    pub const fn words(self) -> usize {
        match self {
            Width::W1 => 1,
            Width::W2 => 2,
            Width::W4 => 4,
            Width::W8 => 8,
            Width::W11 => 11,
        }
    }
}

/// Runs `body` with `W` bound to the number of words of a [`Width`] class, as a constant.
///
/// ```
/// use cqlq::board::{Geometry, Masks, Width};
/// use cqlq::with_width;
///
/// let board = Geometry::new(12, 12).unwrap();
/// let light = with_width!(Width::of(board), W => Masks::<W>::new(board).unwrap().light().count());
/// assert_eq!(light, 72);
/// ```
#[macro_export]
macro_rules! with_width {
    ($width:expr, $w:ident => $body:expr) => {
        match $width {
            $crate::board::Width::W1 => {
                const $w: usize = 1;
                $body
            }
            $crate::board::Width::W2 => {
                const $w: usize = 2;
                $body
            }
            $crate::board::Width::W4 => {
                const $w: usize = 4;
                $body
            }
            $crate::board::Width::W8 => {
                const $w: usize = 8;
                $body
            }
            $crate::board::Width::W11 => {
                const $w: usize = 11;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_board_fits_its_class() {
        for files in 1..=26 {
            for ranks in 1..=26 {
                let geometry = Geometry::new(files, ranks).unwrap();
                let width = Width::of(geometry);
                assert!(geometry.squares() <= width.words() * 64);
                assert!(with_width!(width, W => crate::board::Masks::<W>::new(geometry).is_ok()));
            }
        }
    }
}
