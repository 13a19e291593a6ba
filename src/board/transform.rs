//! [`SquareMap`]: symmetries and translations of a board, for squares and square sets.
//!
//! Query transforms (`flip`, `rotate90`, `shift`) are expanded when a query is compiled: each
//! square set of the query is mapped once per symmetry or translation. [`SquareMap::apply`] moves
//! one square; [`Masks::map`] moves a whole set and tells when part of it falls off the board.
//! Diagonal flips and quarter turns only exist on square boards; on a 10x8 board a set has four
//! symmetric images, not eight.
//!
//! ```
//! use cqlq::board::{Geometry, Masks, SquareMap};
//!
//! let board = Geometry::new(10, 8).unwrap();
//! let masks = Masks::<2>::new(board).unwrap();
//! let a1 = board.parse_square("a1")?;
//! assert_eq!(SquareMap::MirrorFiles.apply(board, a1), Some(board.parse_square("j1")?));
//! assert!(!SquareMap::Rotate90.exists_on(board));
//! assert_eq!(SquareMap::symmetries(board).len(), 4);
//!
//! // A knight's jump fits 9 x 6 times on the board.
//! let pattern = masks.square(a1) | masks.square(board.parse_square("b3")?);
//! let fits = SquareMap::shifts(board, true, true)
//!     .into_iter()
//!     .filter(|&shift| masks.map(pattern, shift).is_some())
//!     .count();
//! assert_eq!(fits, 54);
//! # Ok::<_, cqlq::board::ParseSquareError>(())
//! ```

use super::geometry::{File, Geometry, Rank, Square};
use super::masks::Masks;
use super::set::SquareSet;

/// A mapping of a board's squares: a symmetry of the board or a translation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SquareMap {
    /// Every square stays where it is.
    Identity,
    /// The ranks mirrored, about the board's horizontal middle line: `a1` and `a8` swap on
    /// 8x8 (rank `r` goes to `ranks - 1 - r`). CQL calls this `fliphorizontal`.
    MirrorRanks,
    /// The files mirrored, about the board's vertical middle line: `a1` and `h1` swap on 8x8.
    /// CQL calls this `flipvertical`.
    MirrorFiles,
    /// Mirrored about the `a1`-`h8` diagonal: file and rank swap. Square boards only.
    FlipDiagonal,
    /// Mirrored about the `a8`-`h1` diagonal: `(f, r)` goes to `(n - 1 - r, n - 1 - f)`. Square
    /// boards only.
    FlipAntiDiagonal,
    /// A quarter turn clockwise: `a1` to `a8` to `h8` to `h1` to `a1` on 8x8. Square boards only.
    Rotate90,
    /// A half turn: `a1` and `h8` swap on 8x8. Exists on every board.
    Rotate180,
    /// A quarter turn counter-clockwise: `a1` to `h1` to `h8` to `a8` to `a1` on 8x8. Square
    /// boards only.
    Rotate270,
    /// A translation by `files` files (towards `h` when positive) and `ranks` ranks (towards the
    /// last rank when positive); squares pushed off the board are lost.
    Shift {
        /// The number of files to move by; negative moves towards `a`.
        files: i32,
        /// The number of ranks to move by; negative moves towards rank `1`.
        ranks: i32,
    },
}

impl SquareMap {
    /// Where a square goes; `None` when it leaves the board, when the square is not on the board
    /// or when the map does not exist on the board (see [`SquareMap::exists_on`]).
    #[must_use]
    pub fn apply(self, geometry: Geometry, square: Square) -> Option<Square> {
        if !geometry.contains(square) || !self.exists_on(geometry) {
            return None;
        }
        let file = i32::from(geometry.file_of(square).index());
        let rank = i32::from(geometry.rank_of(square).index());
        let last_file = i32::from(geometry.files()) - 1;
        let last_rank = i32::from(geometry.ranks()) - 1;
        // On square boards that need it, `last_file == last_rank`.
        let (to_file, to_rank) = match self {
            SquareMap::Identity => (file, rank),
            SquareMap::MirrorRanks => (file, last_rank - rank),
            SquareMap::MirrorFiles => (last_file - file, rank),
            SquareMap::FlipDiagonal => (rank, file),
            SquareMap::FlipAntiDiagonal => (last_rank - rank, last_file - file),
            SquareMap::Rotate90 => (rank, last_file - file),
            SquareMap::Rotate180 => (last_file - file, last_rank - rank),
            SquareMap::Rotate270 => (last_rank - rank, file),
            SquareMap::Shift { files, ranks } => (file.checked_add(files)?, rank.checked_add(ranks)?),
        };
        geometry.square_at(to_file, to_rank)
    }

    /// Where a step between squares (`files`, `ranks`) goes: the step between the images of two
    /// squares that many files and ranks apart (shifts keep every step).
    #[must_use]
    pub const fn apply_step(self, (files, ranks): (i32, i32)) -> (i32, i32) {
        match self {
            SquareMap::Identity | SquareMap::Shift { .. } => (files, ranks),
            SquareMap::MirrorRanks => (files, -ranks),
            SquareMap::MirrorFiles => (-files, ranks),
            SquareMap::FlipDiagonal => (ranks, files),
            SquareMap::FlipAntiDiagonal => (-ranks, -files),
            SquareMap::Rotate90 => (ranks, -files),
            SquareMap::Rotate180 => (-files, -ranks),
            SquareMap::Rotate270 => (-ranks, files),
        }
    }

    /// Whether the map takes the light squares of the board to dark ones and the dark to light
    /// ones (every map takes all squares of one shade to one shade): a mirror across an even
    /// number of ranks or files does, as does a translation by an odd number of steps.
    ///
    /// ```
    /// use cqlq::board::{Geometry, SquareMap};
    ///
    /// let board = Geometry::new(8, 8).unwrap();
    /// assert!(SquareMap::MirrorRanks.swaps_shades(board));
    /// assert!(!SquareMap::Rotate180.swaps_shades(board));
    /// assert!(SquareMap::Shift { files: 1, ranks: 0 }.swaps_shades(board));
    /// assert!(!SquareMap::MirrorFiles.swaps_shades(Geometry::new(9, 9).unwrap()));
    /// ```
    #[must_use]
    pub const fn swaps_shades(self, geometry: Geometry) -> bool {
        let (files, ranks) = (geometry.files() as i32, geometry.ranks() as i32);
        // A square (f, r) goes to one whose f + r differs by this much, whatever f and r.
        let change = match self {
            SquareMap::Identity | SquareMap::FlipDiagonal | SquareMap::FlipAntiDiagonal => 0,
            SquareMap::MirrorRanks => ranks - 1,
            SquareMap::MirrorFiles => files - 1,
            SquareMap::Rotate90 | SquareMap::Rotate270 => files - 1,
            SquareMap::Rotate180 => files + ranks,
            SquareMap::Shift { files, ranks } => (files % 2) + (ranks % 2),
        };
        change % 2 != 0
    }

    /// Whether the map exists on the board: diagonal flips and quarter turns need a square board;
    /// the other maps exist everywhere.
    #[must_use]
    pub const fn exists_on(self, geometry: Geometry) -> bool {
        match self {
            SquareMap::FlipDiagonal | SquareMap::FlipAntiDiagonal | SquareMap::Rotate90 | SquareMap::Rotate270 => {
                geometry.is_square()
            }
            SquareMap::Identity
            | SquareMap::MirrorRanks
            | SquareMap::MirrorFiles
            | SquareMap::Rotate180
            | SquareMap::Shift { .. } => true,
        }
    }

    /// The symmetries of the board, identity first: eight on a square board, four (identity,
    /// vertical and horizontal flips, half turn) otherwise.
    #[must_use]
    pub fn symmetries(geometry: Geometry) -> Vec<SquareMap> {
        const ALL: [SquareMap; 8] = [
            SquareMap::Identity,
            SquareMap::MirrorRanks,
            SquareMap::MirrorFiles,
            SquareMap::FlipDiagonal,
            SquareMap::FlipAntiDiagonal,
            SquareMap::Rotate90,
            SquareMap::Rotate180,
            SquareMap::Rotate270,
        ];
        ALL.into_iter().filter(|map| map.exists_on(geometry)).collect()
    }

    /// The rotations, identity first: identity, quarter turn, half turn, three-quarter turn.
    ///
    /// The quarter turns exist on square boards only; callers check [`SquareMap::exists_on`].
    #[must_use]
    pub const fn rotations() -> [SquareMap; 4] {
        [SquareMap::Identity, SquareMap::Rotate90, SquareMap::Rotate180, SquareMap::Rotate270]
    }

    /// Every translation that moves at least one square of the board onto the board, identity
    /// first: by `-(files - 1)..=files - 1` files when `horizontal` (else none), and likewise by
    /// ranks when `vertical`.
    ///
    /// The zero translation is given as [`SquareMap::Identity`], never as a `Shift` of zero; the
    /// others follow rank offset by rank offset, then file offset by file offset, lowest first.
    #[must_use]
    pub fn shifts(geometry: Geometry, horizontal: bool, vertical: bool) -> Vec<SquareMap> {
        let reach = |enabled: bool, side: u8| if enabled { i32::from(side) - 1 } else { 0 };
        let file_reach = reach(horizontal, geometry.files());
        let rank_reach = reach(vertical, geometry.ranks());
        let count = (2 * file_reach + 1) as usize * (2 * rank_reach + 1) as usize;
        let mut maps = Vec::with_capacity(count);
        maps.push(SquareMap::Identity);
        for ranks in -rank_reach..=rank_reach {
            for files in -file_reach..=file_reach {
                if files != 0 || ranks != 0 {
                    maps.push(SquareMap::Shift { files, ranks });
                }
            }
        }
        maps
    }
}

impl<const W: usize> Masks<W> {
    /// The image of a set under a map, or `None` when some square of the set leaves the board (or
    /// is not on it), or when the map does not exist on the board.
    ///
    /// A set holding every square of the board maps onto itself under any map that exists on the
    /// board, translations included: it stands for "anywhere". Translations are computed word by
    /// word with [`Masks::translate`]; the symmetries walk the squares of the set.
    #[must_use]
    pub fn map(&self, set: SquareSet<W>, map: SquareMap) -> Option<SquareSet<W>> {
        let geometry = self.geometry();
        if !map.exists_on(geometry) || !set.is_subset(self.full()) {
            return None;
        }
        if set == self.full() {
            return Some(set);
        }
        match map {
            SquareMap::Identity => Some(set),
            SquareMap::Shift { files, ranks } => {
                let off_board = files.unsigned_abs() >= u32::from(geometry.files())
                    || ranks.unsigned_abs() >= u32::from(geometry.ranks());
                if off_board {
                    // Every square leaves the board; only the empty set survives.
                    return set.is_empty().then_some(set);
                }
                let moved = self.translate(set, files, ranks);
                (moved.count() == set.count()).then_some(moved)
            }
            _ => {
                let mut image = SquareSet::EMPTY;
                for square in set {
                    image.add(map.apply(geometry, square)?);
                }
                Some(image)
            }
        }
    }

    /// The image of the squares of a set that stay on the board under a map (those pushed off
    /// it are lost), as CQL 6.2 shifts a designator; `None` when the map does not exist on the
    /// board or the set is not on it. As in CQL 6.2, a translation moves the set up or down
    /// first, then sideways, and a whole file stays whole when it moves up or down, a whole rank
    /// when it moves sideways: a set holding every square of the board maps onto itself.
    ///
    /// ```
    /// use cqlq::board::{Geometry, Masks, SquareMap};
    ///
    /// let board = Geometry::new(8, 8).unwrap();
    /// let masks = Masks::<1>::new(board).unwrap();
    /// let [d2, d4, d1] = ["d2", "d4", "d1"].map(|name| masks.square(board.parse_square(name).unwrap()));
    /// let down = SquareMap::Shift { files: 0, ranks: -3 };
    /// assert_eq!(masks.map_clipped(d2 | d4, down), Some(d1));
    /// assert_eq!(masks.map(d2 | d4, down), None);
    /// ```
    #[must_use]
    pub fn map_clipped(&self, set: SquareSet<W>, map: SquareMap) -> Option<SquareSet<W>> {
        let geometry = self.geometry();
        if !map.exists_on(geometry) || !set.is_subset(self.full()) {
            return None;
        }
        if set == self.full() {
            return Some(set);
        }
        Some(match map {
            SquareMap::Identity => set,
            SquareMap::Shift { files, ranks } => {
                let files_of = |set: SquareSet<W>| {
                    self.lines(geometry.files(), |index| self.file(File::new(index).expect("a file of the board")), set)
                };
                let ranks_of = |set: SquareSet<W>| {
                    self.lines(geometry.ranks(), |index| self.rank(Rank::new(index).expect("a rank of the board")), set)
                };
                let moved = self.translate(set, 0, ranks) | files_of(set);
                self.translate(moved, files, 0) | ranks_of(moved)
            }
            _ => set.iter().filter_map(|square| map.apply(geometry, square)).collect(),
        })
    }

    /// The lines (files or ranks, `count` of them, each given by `line`) that `set` holds whole.
    fn lines(&self, count: u8, line: impl Fn(u8) -> SquareSet<W>, set: SquareSet<W>) -> SquareSet<W> {
        (0..count).map(line).filter(|line| line.is_subset(set)).fold(SquareSet::EMPTY, |whole, line| whole | line)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    #[test]
    fn steps_go_where_the_squares_they_join_go() {
        let geometry = Geometry::new(8, 8).expect("8x8");
        let steps = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1), (2, 1)];
        for map in SquareMap::symmetries(geometry) {
            for square in geometry.all_squares() {
                let (file, rank) =
                    (i32::from(geometry.file_of(square).index()), i32::from(geometry.rank_of(square).index()));
                for step in steps {
                    let Some(next) = geometry.square_at(file + step.0, rank + step.1) else { continue };
                    let (from, to) = (map.apply(geometry, square).unwrap(), map.apply(geometry, next).unwrap());
                    let moved = (
                        i32::from(geometry.file_of(to).index()) - i32::from(geometry.file_of(from).index()),
                        i32::from(geometry.rank_of(to).index()) - i32::from(geometry.rank_of(from).index()),
                    );
                    assert_eq!(map.apply_step(step), moved, "{map:?} {step:?}");
                }
            }
        }
    }
    use crate::board::Width;

    pub(in crate::board) fn board(files: u8, ranks: u8) -> Geometry {
        Geometry::new(files, ranks).unwrap()
    }

    pub(in crate::board) fn sq(geometry: Geometry, name: &str) -> Square {
        geometry.parse_square(name).unwrap()
    }

    pub(in crate::board) fn boards() -> [Geometry; 4] {
        [board(8, 8), board(10, 8), board(26, 26), board(10, 10)]
    }

    #[test]
    fn flips_of_a1() {
        let cases = [("8x8", "a8", "h1"), ("10x8", "a8", "j1"), ("26x26", "a26", "z1"), ("10x10", "a10", "j1")];
        for (geometry, (name, vertical, horizontal)) in boards().into_iter().zip(cases) {
            assert_eq!(geometry.to_string(), name);
            let a1 = sq(geometry, "a1");
            assert_eq!(SquareMap::MirrorRanks.apply(geometry, a1), Some(sq(geometry, vertical)), "{name}");
            assert_eq!(SquareMap::MirrorFiles.apply(geometry, a1), Some(sq(geometry, horizontal)), "{name}");
            assert_eq!(SquareMap::MirrorRanks.apply(geometry, a1), Some(geometry.flip_vertical(a1)));
        }
    }

    #[test]
    fn quarter_turns_cycle_the_corners() {
        let geometry = board(8, 8);
        let cycle = ["a1", "a8", "h8", "h1", "a1"].map(|name| sq(geometry, name));
        for pair in cycle.windows(2) {
            assert_eq!(SquareMap::Rotate90.apply(geometry, pair[0]), Some(pair[1]));
            assert_eq!(SquareMap::Rotate270.apply(geometry, pair[1]), Some(pair[0]));
        }
        assert_eq!(SquareMap::Rotate180.apply(geometry, sq(geometry, "a1")), Some(sq(geometry, "h8")));
        assert_eq!(SquareMap::FlipDiagonal.apply(geometry, sq(geometry, "b1")), Some(sq(geometry, "a2")));
        assert_eq!(SquareMap::FlipAntiDiagonal.apply(geometry, sq(geometry, "a1")), Some(sq(geometry, "h8")));
        assert_eq!(SquareMap::FlipAntiDiagonal.apply(geometry, sq(geometry, "b1")), Some(sq(geometry, "h7")));
        let big = board(26, 26);
        assert_eq!(SquareMap::Rotate90.apply(big, sq(big, "b1")), Some(sq(big, "a25")));
        assert_eq!(SquareMap::Rotate180.apply(board(10, 8), sq(board(10, 8), "b1")), Some(sq(board(10, 8), "i8")));
    }

    #[test]
    fn symmetries_undo_themselves() {
        for geometry in boards() {
            for map in SquareMap::symmetries(geometry) {
                let order = if matches!(map, SquareMap::Rotate90 | SquareMap::Rotate270) { 4 } else { 2 };
                let mut images = std::collections::HashSet::new();
                for square in geometry.all_squares() {
                    let image = map.apply(geometry, square).expect("symmetries keep squares on the board");
                    assert!(images.insert(image), "{map:?} on {geometry} is one-to-one");
                    let mut back = square;
                    for _ in 0..order {
                        back = map.apply(geometry, back).unwrap();
                    }
                    assert_eq!(back, square, "{map:?} applied {order} times on {geometry}");
                }
                assert_eq!(images.len(), geometry.squares());
            }
            if geometry.is_square() {
                for square in geometry.all_squares() {
                    let turned = SquareMap::Rotate90.apply(geometry, square).unwrap();
                    assert_eq!(SquareMap::Rotate270.apply(geometry, turned), Some(square));
                    let half = SquareMap::Rotate90.apply(geometry, turned).unwrap();
                    assert_eq!(SquareMap::Rotate180.apply(geometry, square), Some(half));
                }
            }
        }
    }

    #[test]
    fn square_boards_have_eight_symmetries() {
        assert_eq!(SquareMap::symmetries(board(8, 8)).len(), 8);
        assert_eq!(SquareMap::symmetries(board(10, 10)).len(), 8);
        assert_eq!(SquareMap::symmetries(board(26, 26)).len(), 8);
        let laser = board(10, 8);
        assert_eq!(
            SquareMap::symmetries(laser),
            vec![SquareMap::Identity, SquareMap::MirrorRanks, SquareMap::MirrorFiles, SquareMap::Rotate180]
        );
        for geometry in boards() {
            assert_eq!(SquareMap::symmetries(geometry)[0], SquareMap::Identity);
        }
        for map in [SquareMap::FlipDiagonal, SquareMap::FlipAntiDiagonal, SquareMap::Rotate90, SquareMap::Rotate270] {
            assert!(!map.exists_on(laser));
            assert!(map.exists_on(board(10, 10)));
            assert_eq!(map.apply(laser, sq(laser, "a1")), None);
        }
        assert!(SquareMap::Rotate180.exists_on(laser));
        assert!(SquareMap::Shift { files: 3, ranks: -2 }.exists_on(laser));
        assert_eq!(SquareMap::rotations()[0], SquareMap::Identity);
    }

    #[test]
    fn shifts_cover_every_offset_once() {
        for geometry in boards() {
            let (files, ranks) = (usize::from(geometry.files()), usize::from(geometry.ranks()));
            let all = SquareMap::shifts(geometry, true, true);
            assert_eq!(all[0], SquareMap::Identity);
            assert_eq!(all.len(), (2 * files - 1) * (2 * ranks - 1));
            assert!(!all.contains(&SquareMap::Shift { files: 0, ranks: 0 }));
            let unique: std::collections::HashSet<_> = all.iter().collect();
            assert_eq!(unique.len(), all.len());
            assert_eq!(SquareMap::shifts(geometry, true, false).len(), 2 * files - 1);
            assert_eq!(SquareMap::shifts(geometry, false, true).len(), 2 * ranks - 1);
            assert_eq!(SquareMap::shifts(geometry, false, false), vec![SquareMap::Identity]);
        }
        assert_eq!(SquareMap::shifts(board(1, 1), true, true), vec![SquareMap::Identity]);
    }

    /// How many translations (of those asked for) keep every square of the named set on the board.
    fn placements(geometry: Geometry, names: &[&str], horizontal: bool, vertical: bool) -> usize {
        fn count<const W: usize>(geometry: Geometry, names: &[&str], horizontal: bool, vertical: bool) -> usize {
            let masks = Masks::<W>::new(geometry).unwrap();
            let set: SquareSet<W> = names.iter().map(|name| sq(geometry, name)).collect();
            SquareMap::shifts(geometry, horizontal, vertical)
                .into_iter()
                .filter(|&shift| masks.map(set, shift).is_some_and(|image| image.count() == set.count()))
                .count()
        }
        crate::with_width!(Width::of(geometry), W => count::<W>(geometry, names, horizontal, vertical))
    }

    #[test]
    fn patterns_fit_where_counted_by_hand() {
        let [standard, laser, big, ten] = boards();
        // {a1, b3} spans 2 files and 3 ranks.
        assert_eq!(placements(standard, &["a1", "b3"], true, true), 7 * 6);
        assert_eq!(placements(laser, &["a1", "b3"], true, true), 9 * 6);
        assert_eq!(placements(big, &["a1", "b3"], true, true), 25 * 24);
        assert_eq!(placements(ten, &["a1", "b3"], true, true), 9 * 8);
        // {a1, c3} spans 3 by 3.
        assert_eq!(placements(standard, &["a1", "c3"], true, true), 6 * 6);
        assert_eq!(placements(big, &["c3", "a1"], true, true), 24 * 24);
        // Only sideways or only up and down.
        assert_eq!(placements(standard, &["a1", "b3"], true, false), 7);
        assert_eq!(placements(standard, &["a1", "b3"], false, true), 6);
        assert_eq!(placements(laser, &["e4", "f6"], true, false), 9);
        // Squares from far apart words of a 26x26 set, and a whole rank.
        assert_eq!(placements(big, &["a1", "z26"], true, true), 1);
        assert_eq!(placements(big, &["m1", "n26"], true, true), 25);
        assert_eq!(placements(laser, &["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1", "j1"], true, true), 8);
        // The empty set fits everywhere.
        assert_eq!(placements(big, &[], true, true), 51 * 51);
    }

    #[test]
    fn translations_agree_with_moving_each_square() {
        fn check<const W: usize>(geometry: Geometry) {
            let masks = Masks::<W>::new(geometry).unwrap();
            let squares: Vec<Square> = geometry.all_squares().collect();
            let last = squares.len() - 1;
            let sets: Vec<SquareSet<W>> = vec![
                [squares[0], squares[last]].into_iter().collect(),
                squares.iter().copied().step_by(7).collect(),
                squares[last / 3..last / 2].iter().copied().collect(),
                masks.light(),
                masks.file(geometry.last_file()) | masks.rank(geometry.last_rank()),
                SquareSet::from_square(squares[last / 2]),
            ];
            for set in sets {
                for shift in SquareMap::shifts(geometry, true, true) {
                    let walked: Option<SquareSet<W>> = set.iter().map(|square| shift.apply(geometry, square)).collect();
                    assert_eq!(masks.map(set, shift), walked, "{shift:?} on {geometry}");
                }
            }
        }
        for geometry in boards() {
            crate::with_width!(Width::of(geometry), W => check::<W>(geometry));
        }
    }

    #[test]
    fn full_board_maps_onto_itself() {
        fn check<const W: usize>(geometry: Geometry) {
            let masks = Masks::<W>::new(geometry).unwrap();
            let maps = SquareMap::symmetries(geometry)
                .into_iter()
                .chain(SquareMap::shifts(geometry, true, true))
                .chain([SquareMap::Shift { files: 100, ranks: -100 }, SquareMap::Shift { files: i32::MIN, ranks: 0 }]);
            for map in maps {
                assert_eq!(masks.map(masks.full(), map), Some(masks.full()), "{map:?} on {geometry}");
                assert_eq!(masks.map(SquareSet::EMPTY, map), Some(SquareSet::EMPTY), "{map:?} on {geometry}");
            }
        }
        for geometry in boards() {
            crate::with_width!(Width::of(geometry), W => check::<W>(geometry));
        }
    }

    #[test]
    fn sets_map_under_symmetries() {
        let geometry = board(8, 8);
        let masks = Masks::<1>::new(geometry).unwrap();
        let set = masks.square(sq(geometry, "a1")) | masks.square(sq(geometry, "b3"));
        let flipped = masks.map(set, SquareMap::MirrorFiles).unwrap();
        assert_eq!(flipped, masks.square(sq(geometry, "h1")) | masks.square(sq(geometry, "g3")));
        let turned = masks.map(set, SquareMap::Rotate90).unwrap();
        assert_eq!(turned, masks.square(sq(geometry, "a8")) | masks.square(sq(geometry, "c7")));
        assert_eq!(masks.map(masks.light(), SquareMap::Rotate90), Some(masks.light() ^ masks.full()));
        assert_eq!(masks.map(masks.light(), SquareMap::Rotate180), Some(masks.light()));

        let laser = board(10, 8);
        let laser_masks = Masks::<2>::new(laser).unwrap();
        let a1 = laser_masks.square(sq(laser, "a1"));
        assert_eq!(laser_masks.map(a1, SquareMap::Rotate90), None, "no quarter turn on 10x8");
        assert_eq!(laser_masks.map(a1, SquareMap::Rotate180), Some(laser_masks.square(sq(laser, "j8"))));
    }

    #[test]
    fn far_translations_lose_everything_without_panicking() {
        let geometry = board(8, 8);
        let masks = Masks::<1>::new(geometry).unwrap();
        let e4 = sq(geometry, "e4");
        let set = masks.square(e4);
        for (files, ranks) in [(8, 0), (0, -8), (i32::MAX, 0), (i32::MIN, i32::MIN), (3, i32::MAX)] {
            let shift = SquareMap::Shift { files, ranks };
            assert_eq!(masks.map(set, shift), None, "{shift:?}");
            assert_eq!(shift.apply(geometry, e4), None, "{shift:?}");
        }
        assert_eq!(masks.map(set, SquareMap::Shift { files: 3, ranks: 4 }), Some(masks.square(sq(geometry, "h8"))));
        assert_eq!(masks.map(set, SquareMap::Shift { files: 4, ranks: 0 }), None);
        assert_eq!(SquareMap::Identity.apply(geometry, Square::from_index(64)), None, "off the board");
    }
}
