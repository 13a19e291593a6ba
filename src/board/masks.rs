//! [`Masks`]: the square sets of one board shape, and the operations that need them.
//!
//! A [`SquareSet`] knows nothing of the board; `Masks` does. It holds the whole board, every file,
//! every rank and the light and dark squares, and uses them for the complement within the board
//! and for shifts that drop the squares leaving the board.
//!
//! ```
//! use cqlq::board::{Direction, Geometry, Masks};
//!
//! let board = Geometry::new(10, 8).unwrap();
//! let masks = Masks::<2>::new(board).expect("80 squares fit in two words");
//! let j1 = board.parse_square("j1")?;
//! let a1 = board.parse_square("a1")?;
//! let corner = masks.square(j1) | masks.square(a1);
//! // Shifting east drops j1 instead of wrapping it onto the next rank.
//! assert_eq!(masks.shift(corner, Direction::East), masks.square(board.parse_square("b1")?));
//! assert_eq!(masks.complement(corner).count(), 78);
//! # Ok::<_, cqlq::board::ParseSquareError>(())
//! ```

use std::fmt;
use std::sync::Arc;

use super::geometry::{File, Geometry, MAX_SIDE, Rank, Square};
use super::set::SquareSet;

/// One of the eight directions a square set can be shifted in. North is towards higher ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards higher ranks.
    North,
    /// Towards lower ranks.
    South,
    /// Towards higher files.
    East,
    /// Towards lower files.
    West,
    /// North and east.
    NorthEast,
    /// North and west.
    NorthWest,
    /// South and east.
    SouthEast,
    /// South and west.
    SouthWest,
}

impl Direction {
    /// All eight directions.
    pub const ALL: [Direction; 8] = [
        Direction::North,
        Direction::South,
        Direction::East,
        Direction::West,
        Direction::NorthEast,
        Direction::NorthWest,
        Direction::SouthEast,
        Direction::SouthWest,
    ];

    /// The step in files and ranks.
    #[must_use]
    pub const fn offset(self) -> (i32, i32) {
        match self {
            Direction::North => (0, 1),
            Direction::South => (0, -1),
            Direction::East => (1, 0),
            Direction::West => (-1, 0),
            Direction::NorthEast => (1, 1),
            Direction::NorthWest => (-1, 1),
            Direction::SouthEast => (1, -1),
            Direction::SouthWest => (-1, -1),
        }
    }
}

/// The board shape does not fit in a square set of the requested width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WidthError {
    /// The board.
    pub geometry: Geometry,
    /// The number of 64-bit words asked for.
    pub words: usize,
}

impl fmt::Display for WidthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a {} board has {} squares, more than {} words of 64 bits hold",
            self.geometry,
            self.geometry.squares(),
            self.words
        )
    }
}

impl std::error::Error for WidthError {}

/// The masks of one board shape, in square sets of `W` words.
#[derive(Clone, Debug)]
pub struct Masks<const W: usize> {
    geometry: Geometry,
    full: SquareSet<W>,
    light: SquareSet<W>,
    files: [SquareSet<W>; MAX_SIDE as usize],
    ranks: [SquareSet<W>; MAX_SIDE as usize],
    /// The file and rank of each square, looked up rather than divided out.
    places: Arc<[(u8, u8)]>,
    /// The squares strictly between each pair of squares (`a` then `b`, at `a * squares + b`),
    /// on boards of at most [`BETWEEN_TABLE_SQUARES`] squares; on larger ones they are walked.
    pub(super) between: Option<Arc<[SquareSet<W>]>>,
}

/// The most squares of a board whose squares between every pair are kept in a table (for
/// 128 squares, 16,384 sets of two words: 256 KiB).
const BETWEEN_TABLE_SQUARES: usize = 128;

impl<const W: usize> Masks<W> {
    /// The masks of a board, if its squares fit in `W` words.
    pub fn new(geometry: Geometry) -> Result<Masks<W>, WidthError> {
        if geometry.squares() > SquareSet::<W>::CAPACITY {
            return Err(WidthError { geometry, words: W });
        }
        let mut masks = Masks {
            geometry,
            full: SquareSet::EMPTY,
            light: SquareSet::EMPTY,
            files: [SquareSet::EMPTY; MAX_SIDE as usize],
            ranks: [SquareSet::EMPTY; MAX_SIDE as usize],
            places: geometry
                .all_squares()
                .map(|square| (geometry.file_of(square).index(), geometry.rank_of(square).index()))
                .collect(),
            between: None,
        };
        for square in geometry.all_squares() {
            masks.full.add(square);
            masks.files[geometry.file_of(square).index() as usize].add(square);
            masks.ranks[geometry.rank_of(square).index() as usize].add(square);
            if geometry.is_light(square) {
                masks.light.add(square);
            }
        }
        if geometry.squares() <= BETWEEN_TABLE_SQUARES {
            let walked = &masks;
            let table =
                geometry.all_squares().flat_map(|a| geometry.all_squares().map(move |b| walked.walk_between(a, b)));
            masks.between = Some(table.collect());
        }
        Ok(masks)
    }

    /// The board shape.
    #[must_use]
    pub const fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The file and rank of a square of the board, counted from 0.
    #[must_use]
    pub fn place(&self, square: Square) -> (i32, i32) {
        self.places.get(square.index()).map_or((-1, -1), |&(file, rank)| (i32::from(file), i32::from(rank)))
    }

    /// Every square of the board.
    #[must_use]
    pub const fn full(&self) -> SquareSet<W> {
        self.full
    }

    /// The light squares (`a1` is dark).
    #[must_use]
    pub const fn light(&self) -> SquareSet<W> {
        self.light
    }

    /// The dark squares.
    #[must_use]
    pub fn dark(&self) -> SquareSet<W> {
        self.full - self.light
    }

    /// The squares of a file (empty if the file is off the board).
    #[must_use]
    pub fn file(&self, file: File) -> SquareSet<W> {
        self.files[file.index() as usize]
    }

    /// The squares of a rank (empty if the rank is off the board).
    #[must_use]
    pub fn rank(&self, rank: Rank) -> SquareSet<W> {
        self.ranks[rank.index() as usize]
    }

    /// The set holding one square.
    #[must_use]
    pub fn square(&self, square: Square) -> SquareSet<W> {
        SquareSet::from_square(square) & self.full
    }

    /// The squares of the files `from..=to` and the ranks `low..=high` (empty when reversed).
    #[must_use]
    pub fn rectangle(&self, files: (File, File), ranks: (Rank, Rank)) -> SquareSet<W> {
        let mut by_file = SquareSet::EMPTY;
        for index in files.0.index()..=files.1.index().min(MAX_SIDE - 1) {
            by_file |= self.files[index as usize];
        }
        let mut by_rank = SquareSet::EMPTY;
        for index in ranks.0.index()..=ranks.1.index().min(MAX_SIDE - 1) {
            by_rank |= self.ranks[index as usize];
        }
        by_file & by_rank
    }

    /// The squares of the board that are not in `set`.
    #[must_use]
    #[inline]
    pub fn complement(&self, set: SquareSet<W>) -> SquareSet<W> {
        self.full - set
    }

    /// Every square moved one step in a direction; squares that would leave the board are dropped.
    #[must_use]
    #[inline]
    pub fn shift(&self, set: SquareSet<W>, direction: Direction) -> SquareSet<W> {
        let width = u32::from(self.geometry.files());
        let first_file = self.files[0];
        let last_file = self.files[usize::from(self.geometry.files() - 1)];
        match direction {
            Direction::North => set.shift_up(width) & self.full,
            Direction::South => set.shift_down(width),
            Direction::East => (set - last_file).shift_up(1),
            Direction::West => (set - first_file).shift_down(1),
            Direction::NorthEast => (set - last_file).shift_up(width + 1) & self.full,
            Direction::NorthWest => (set - first_file).shift_up(width - 1) & self.full,
            Direction::SouthEast => (set - last_file).shift_down(width - 1),
            Direction::SouthWest => (set - first_file).shift_down(width + 1),
        }
    }

    /// Every square moved by `files` files and `ranks` ranks; squares that would leave the board
    /// are dropped.
    #[must_use]
    pub fn translate(&self, set: SquareSet<W>, files: i32, ranks: i32) -> SquareSet<W> {
        let width = i32::from(self.geometry.files());
        let height = i32::from(self.geometry.ranks());
        if files.unsigned_abs() >= width.unsigned_abs() || ranks.unsigned_abs() >= height.unsigned_abs() {
            return SquareSet::EMPTY;
        }
        let keep_files = if files >= 0 { (0, width - 1 - files) } else { (-files, width - 1) };
        let keep_ranks = if ranks >= 0 { (0, height - 1 - ranks) } else { (-ranks, height - 1) };
        let staying = set
            & self.rectangle(
                (file_at(keep_files.0), file_at(keep_files.1)),
                (rank_at(keep_ranks.0), rank_at(keep_ranks.1)),
            );
        let mut distance = ranks * width + files;
        let mut moved = staying;
        while distance != 0 {
            let step = distance.clamp(-63, 63);
            moved = if step > 0 { moved.shift_up(step as u32) } else { moved.shift_down((-step) as u32) };
            distance -= step;
        }
        moved
    }

    /// The set drawn as a board, rank 1 at the bottom: `x` for a square in the set, `.` for one
    /// that is not.
    #[must_use]
    pub fn diagram(&self, set: SquareSet<W>) -> String {
        super::diagram::render(self.geometry, |square| if set.contains(square) { 'x' } else { '.' })
    }
}

fn file_at(index: i32) -> File {
    File::new(index as u8).expect("translate keeps indices on the board")
}

fn rank_at(index: i32) -> Rank {
    Rank::new(index as u8).expect("translate keeps indices on the board")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn masks_8x8() -> Masks<1> {
        Masks::new(Geometry::new(8, 8).unwrap()).unwrap()
    }

    #[test]
    fn eight_by_eight_masks_are_the_usual_bitboards() {
        let masks = masks_8x8();
        assert_eq!(masks.full().words(), &[u64::MAX]);
        assert_eq!(masks.light().words(), &[0x55AA_55AA_55AA_55AA]);
        assert_eq!(masks.file(File::new(0).unwrap()).words(), &[0x0101_0101_0101_0101]);
        assert_eq!(masks.rank(Rank::new(7).unwrap()).words(), &[0xFF00_0000_0000_0000]);
    }

    #[test]
    fn shifts_drop_squares_leaving_the_board() {
        let masks = masks_8x8();
        let h_file = masks.file(File::new(7).unwrap());
        assert!(masks.shift(h_file, Direction::East).is_empty());
        assert_eq!(masks.shift(h_file, Direction::West), masks.file(File::new(6).unwrap()));
        let rank8 = masks.rank(Rank::new(7).unwrap());
        assert!(masks.shift(rank8, Direction::NorthEast).is_empty());
        assert_eq!(masks.shift(rank8, Direction::SouthWest).count(), 7);
    }

    #[test]
    fn translate_across_words_on_big_boards() {
        let board = Geometry::new(26, 26).unwrap();
        let masks = Masks::<11>::new(board).unwrap();
        let a1 = masks.square(board.parse_square("a1").unwrap());
        let z26 = masks.square(board.parse_square("z26").unwrap());
        assert_eq!(masks.translate(a1, 25, 25), z26);
        assert_eq!(masks.translate(z26, -25, -25), a1);
        assert!(masks.translate(z26, 1, 0).is_empty());
        assert!(masks.translate(a1, 0, 26).is_empty());
    }

    #[test]
    fn too_small_a_width_is_refused() {
        let err = Masks::<1>::new(Geometry::new(10, 8).unwrap()).unwrap_err();
        assert_eq!(err.to_string(), "a 10x8 board has 80 squares, more than 1 words of 64 bits hold");
    }

    #[test]
    fn diagram_puts_rank_one_at_the_bottom() {
        let board = Geometry::new(3, 2).unwrap();
        let masks = Masks::<1>::new(board).unwrap();
        let set = masks.square(board.parse_square("a1").unwrap()) | masks.square(board.parse_square("c2").unwrap());
        assert_eq!(masks.diagram(set), "2 . . x\n1 x . .\n  a b c\n");
    }
}
