//! Board geometry: files, ranks, squares and their names.
//!
//! A board has 1 to 26 files (`a`..`z`) and 1 to 26 ranks (`1`..`26`). A [`Square`] is an index
//! into one board, counted rank by rank from `a1`: on 8x8, `a1` is 0, `h1` is 7 and `a2` is 8; on
//! 10x10, `a2` is 10. The [`Geometry`] turns indices into coordinates and names and back.
//!
//! ```
//! use cqlq::board::Geometry;
//!
//! let board = Geometry::new(10, 10).expect("10x10 is a valid board");
//! let j10 = board.parse_square("j10")?;
//! assert_eq!(j10.index(), 99);
//! assert_eq!(board.square_name(j10).to_string(), "j10");
//! assert!(!board.is_light(j10), "j10 is dark, like h8 on 8x8");
//! # Ok::<_, cqlq::board::ParseSquareError>(())
//! ```

use std::fmt;

/// The largest number of files or ranks a board can have (`a`..`z`, `1`..`26`).
pub const MAX_SIDE: u8 = 26;

/// A file (column), counted from 0 for `a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct File(u8);

impl File {
    /// The file with this 0-based index, if it is `a`..`z`.
    #[must_use]
    pub const fn new(index: u8) -> Option<File> {
        if index < MAX_SIDE { Some(File(index)) } else { None }
    }

    /// The file named by a lower-case letter `a`..`z`.
    #[must_use]
    pub const fn from_char(c: char) -> Option<File> {
        if c.is_ascii_lowercase() { Some(File(c as u8 - b'a')) } else { None }
    }

    /// The 0-based index (`a` is 0).
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The file's letter.
    #[must_use]
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A rank (row), counted from 0 for rank `1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

impl Rank {
    /// The rank with this 0-based index, if it is rank `1`..`26`.
    #[must_use]
    pub const fn new(index: u8) -> Option<Rank> {
        if index < MAX_SIDE { Some(Rank(index)) } else { None }
    }

    /// The rank with this 1-based number, as written in notation (`1`..`26`).
    #[must_use]
    pub const fn from_number(number: u32) -> Option<Rank> {
        if number >= 1 && number <= MAX_SIDE as u32 { Some(Rank(number as u8 - 1)) } else { None }
    }

    /// The 0-based index (rank `1` is 0).
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The number as written in notation (`1`..`26`).
    #[must_use]
    pub const fn number(self) -> u32 {
        self.0 as u32 + 1
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// A square of a particular board: its index, rank by rank from `a1`.
///
/// A square only has a file, a rank and a name together with the [`Geometry`] it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u16);

impl Square {
    /// The square with this index. The caller makes sure it lies on the board in use.
    #[must_use]
    pub const fn from_index(index: u16) -> Square {
        Square(index)
    }

    /// The index, rank by rank from `a1`.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// The shape of a board: files by ranks, each 1 to 26.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    files: u8,
    ranks: u8,
    /// `2^16 / files`, rounded up: a square's rank is its index times this, over `2^16` (exact
    /// for every index below `2^16 / 26`, far beyond the largest board), which spares a
    /// division on every look at a square's coordinates.
    reciprocal: u32,
}

impl Geometry {
    /// A board of `files` x `ranks` squares, if both are 1 to 26.
    #[must_use]
    pub const fn new(files: u8, ranks: u8) -> Option<Geometry> {
        if files >= 1 && files <= MAX_SIDE && ranks >= 1 && ranks <= MAX_SIDE {
            Some(Geometry { files, ranks, reciprocal: (1u32 << 16).div_ceil(files as u32) })
        } else {
            None
        }
    }

    /// The number of files.
    #[must_use]
    pub const fn files(self) -> u8 {
        self.files
    }

    /// The number of ranks.
    #[must_use]
    pub const fn ranks(self) -> u8 {
        self.ranks
    }

    /// The most steps a line of squares takes from one edge to the other (7 on 8x8).
    #[must_use]
    pub const fn longest_step(self) -> u8 {
        if self.files > self.ranks { self.files - 1 } else { self.ranks - 1 }
    }

    /// The number of squares.
    #[must_use]
    pub const fn squares(self) -> usize {
        self.files as usize * self.ranks as usize
    }

    /// Whether the board has as many files as ranks.
    #[must_use]
    pub const fn is_square(self) -> bool {
        self.files == self.ranks
    }

    /// The last file (`h` on 8x8).
    #[must_use]
    pub const fn last_file(self) -> File {
        File(self.files - 1)
    }

    /// The last rank (`8` on 8x8).
    #[must_use]
    pub const fn last_rank(self) -> Rank {
        Rank(self.ranks - 1)
    }

    /// Whether the file lies on this board.
    #[must_use]
    pub const fn has_file(self, file: File) -> bool {
        file.0 < self.files
    }

    /// Whether the rank lies on this board.
    #[must_use]
    pub const fn has_rank(self, rank: Rank) -> bool {
        rank.0 < self.ranks
    }

    /// The square at `file` and `rank`, if both lie on this board.
    #[must_use]
    pub const fn square(self, file: File, rank: Rank) -> Option<Square> {
        if self.has_file(file) && self.has_rank(rank) {
            Some(Square(rank.0 as u16 * self.files as u16 + file.0 as u16))
        } else {
            None
        }
    }

    /// The square at 0-based coordinates, if they lie on this board.
    #[must_use]
    pub const fn square_at(self, file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && rank >= 0 && file < self.files as i32 && rank < self.ranks as i32 {
            Some(Square((rank * self.files as i32 + file) as u16))
        } else {
            None
        }
    }

    /// The file of a square of this board.
    #[must_use]
    pub const fn file_of(self, square: Square) -> File {
        File((square.0 - self.rank_of(square).0 as u16 * self.files as u16) as u8)
    }

    /// The rank of a square of this board.
    #[must_use]
    pub const fn rank_of(self, square: Square) -> Rank {
        Rank(((square.0 as u32 * self.reciprocal) >> 16) as u8)
    }

    /// Whether the square lies on this board.
    #[must_use]
    pub const fn contains(self, square: Square) -> bool {
        square.index() < self.squares()
    }

    /// Whether a square is light: `a1` is dark on every board.
    #[must_use]
    pub const fn is_light(self, square: Square) -> bool {
        (self.file_of(square).0 + self.rank_of(square).0) % 2 == 1
    }

    /// Every square of the board, `a1` first, rank by rank.
    pub fn all_squares(self) -> impl DoubleEndedIterator<Item = Square> + ExactSizeIterator {
        (0..self.squares() as u16).map(Square)
    }

    /// The same square seen from the other side: files kept, ranks mirrored.
    #[must_use]
    pub const fn flip_vertical(self, square: Square) -> Square {
        let file = self.file_of(square);
        let rank = self.rank_of(square);
        Square((self.ranks - 1 - rank.0) as u16 * self.files as u16 + file.0 as u16)
    }

    /// The name of a square, such as `j10`, for display.
    #[must_use]
    pub const fn square_name(self, square: Square) -> SquareName {
        SquareName { file: self.file_of(square), rank: self.rank_of(square) }
    }

    /// Reads a square name such as `e4` or `j10` and checks that it lies on this board.
    pub fn parse_square(self, text: &str) -> Result<Square, ParseSquareError> {
        let (file, rank, rest) = split_square(text.as_bytes()).ok_or(ParseSquareError::Syntax)?;
        if !rest.is_empty() {
            return Err(ParseSquareError::Syntax);
        }
        self.square(file, rank).ok_or(ParseSquareError::OffBoard { file, rank, board: self })
    }

    /// A short description of the board for messages: `8x8 (files a-h, ranks 1-8)`.
    #[must_use]
    pub fn describe(self) -> String {
        format!("{}x{} (files a-{}, ranks 1-{})", self.files, self.ranks, self.last_file(), self.last_rank())
    }
}

impl fmt::Display for Geometry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.files, self.ranks)
    }
}

/// Splits a square name at the front of `bytes` into file, rank and the bytes after it.
///
/// Ranks take one or two digits (`1`..`26`); `a0` and `a27` are not squares.
#[must_use]
pub fn split_square(bytes: &[u8]) -> Option<(File, Rank, &[u8])> {
    let (&first, rest) = bytes.split_first()?;
    let file = File::from_char(first as char)?;
    let digits = rest.iter().take(2).take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || rest[0] == b'0' {
        return None;
    }
    let mut number = 0u32;
    let mut used = 0;
    for &digit in &rest[..digits] {
        let next = number * 10 + u32::from(digit - b'0');
        if next > u32::from(MAX_SIDE) {
            break;
        }
        number = next;
        used += 1;
    }
    Some((file, Rank::from_number(number)?, &rest[used..]))
}

/// A square's name, such as `j10`; displays as written in notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SquareName {
    /// The file.
    pub file: File,
    /// The rank.
    pub rank: Rank,
}

impl SquareName {
    /// The name's bytes (a letter and one or two digits), in a buffer, and their number.
    fn bytes(self) -> ([u8; 3], usize) {
        // Files are letters `a`..`z`, ranks run from 1 to 26.
        let file = self.file.char() as u8;
        let rank = self.rank.number() as u8;
        if rank < 10 { ([file, b'0' + rank, 0], 2) } else { ([file, b'0' + rank / 10, b'0' + rank % 10], 3) }
    }
}

impl fmt::Display for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Written without the formatting machinery: names are written by the thousand.
        let (bytes, len) = self.bytes();
        f.pad(std::str::from_utf8(&bytes[..len]).unwrap_or_default())
    }
}

/// Why a square name could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParseSquareError {
    /// Not a file letter followed by a rank number.
    Syntax,
    /// A well-formed name that lies outside the board.
    OffBoard {
        /// The file written.
        file: File,
        /// The rank written.
        rank: Rank,
        /// The board it was read for.
        board: Geometry,
    },
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseSquareError::Syntax => f.write_str("expected a square such as e4"),
            ParseSquareError::OffBoard { file, rank, board } => {
                write!(f, "square {file}{rank} is outside the {} board", board.describe())
            }
        }
    }
}

impl std::error::Error for ParseSquareError {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rank found by multiplication is the quotient, on every square of every board.
    #[test]
    fn coordinates_are_the_quotient_and_the_remainder() {
        for files in 1..=MAX_SIDE {
            let geometry = Geometry::new(files, MAX_SIDE).expect("a board");
            for index in 0..u16::from(files) * u16::from(MAX_SIDE) {
                let square = Square(index);
                assert_eq!(u16::from(geometry.rank_of(square).index()), index / u16::from(files), "{files} {index}");
                assert_eq!(u16::from(geometry.file_of(square).index()), index % u16::from(files), "{files} {index}");
            }
        }
    }

    #[test]
    fn squares_count_rank_by_rank() {
        for (files, ranks) in [(8, 8), (10, 8), (26, 26), (1, 1)] {
            let board = Geometry::new(files, ranks).unwrap();
            for square in board.all_squares() {
                let file = board.file_of(square);
                let rank = board.rank_of(square);
                assert_eq!(board.square(file, rank), Some(square));
                let name = board.square_name(square).to_string();
                assert_eq!(name, format!("{file}{rank}"));
                assert_eq!(board.parse_square(&name), Ok(square));
                assert_eq!(format!("{:>4}|", board.square_name(square)), format!("{name:>4}|"));
            }
        }
    }

    #[test]
    fn a1_is_dark_everywhere() {
        for side in 1..=26 {
            let board = Geometry::new(side, side).unwrap();
            let a1 = board.parse_square("a1").unwrap();
            assert!(!board.is_light(a1));
        }
        let board = Geometry::new(8, 8).unwrap();
        assert!(board.is_light(board.parse_square("h1").unwrap()));
        assert!(!board.is_light(board.parse_square("h8").unwrap()));
    }

    #[test]
    fn names_with_two_digit_ranks() {
        let board = Geometry::new(26, 26).unwrap();
        assert_eq!(board.parse_square("z26").unwrap().index(), 675);
        assert_eq!(board.parse_square("j10").unwrap().index(), 9 * 26 + 9);
        assert_eq!(board.parse_square("a0"), Err(ParseSquareError::Syntax));
        assert_eq!(board.parse_square("a27"), Err(ParseSquareError::Syntax));
        assert_eq!(board.parse_square("A1"), Err(ParseSquareError::Syntax));
        let small = Geometry::new(8, 8).unwrap();
        assert!(matches!(small.parse_square("j10"), Err(ParseSquareError::OffBoard { .. })));
        assert_eq!(
            small.parse_square("i1").unwrap_err().to_string(),
            "square i1 is outside the 8x8 (files a-h, ranks 1-8) board"
        );
    }

    #[test]
    fn split_square_stops_after_the_rank() {
        let (file, rank, rest) = split_square(b"b10-12").unwrap();
        assert_eq!((file.char(), rank.number(), rest), ('b', 10, &b"-12"[..]));
        let (_, rank, rest) = split_square(b"a27").unwrap();
        assert_eq!((rank.number(), rest), (2, &b"7"[..]));
        let (_, rank, rest) = split_square(b"h81").unwrap();
        assert_eq!((rank.number(), rest), (8, &b"1"[..]));
    }

    #[test]
    fn geometry_limits() {
        assert!(Geometry::new(0, 8).is_none());
        assert!(Geometry::new(27, 8).is_none());
        assert_eq!(Geometry::new(10, 8).unwrap().describe(), "10x8 (files a-j, ranks 1-8)");
    }
}
