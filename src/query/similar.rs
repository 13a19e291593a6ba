//! `similarposition "F.pgn"`: the positions of the main lines of a file of games, each under the
//! symmetries CQL 6.2 tries, found again in the games searched.
//!
//! The file is read once, before the search, by the search layer
//! ([`load_similar_games`](crate::search::load_similar_games)), which hands each position to
//! [`SimilarIndex::add`]. A position is known by its pieces and side to move alone (castling and
//! en passant rights are not compared). Each position of the file is entered as it stands and,
//! unless `notransform` is given, under every symmetry that keeps its pieces on the board: the
//! eight reflections and rotations when it has no pawn, else the shifts along the ranks, the
//! mirror of the files, and the mirror after each shift.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

/// The side of a board CQL 6.2 compares positions on.
const SIDE: usize = 8;

/// The games of a `similarposition` file, read once before the search.
#[derive(Debug)]
pub struct SimilarGames {
    file: String,
    notransform: bool,
    index: OnceLock<SimilarIndex>,
}

impl SimilarGames {
    /// The games of `file`, to be read; `notransform`: each position as it stands only.
    #[must_use]
    pub fn new(file: String, notransform: bool) -> SimilarGames {
        SimilarGames { file, notransform, index: OnceLock::new() }
    }

    /// The file's name, as the query gives it.
    #[must_use]
    pub fn file(&self) -> &str {
        &self.file
    }

    /// Whether positions are compared as they stand only (`notransform`).
    #[must_use]
    pub fn notransform(&self) -> bool {
        self.notransform
    }

    /// The positions read, once [`SimilarGames::set_index`] has given them.
    #[must_use]
    pub fn index(&self) -> Option<&SimilarIndex> {
        self.index.get()
    }

    /// Gives the positions read; the first index given is kept.
    pub fn set_index(&self, index: SimilarIndex) {
        let _ = self.index.set(index);
    }

    /// The comments a position gets where it is found: one per sighting, each holding the
    /// ones before it, as CQL 6.2 writes them; and the smallest game number among them. None
    /// where the position is not in the file (or the file was not read).
    #[must_use]
    pub fn comments(&self, position: &str) -> Option<(Vec<String>, u64)> {
        let index = self.index.get()?;
        let sightings = index.sightings.get(&Board::read(position)?)?;
        let mut text = String::new();
        let mut comments = Vec::with_capacity(sightings.len());
        for sighting in sightings {
            let side = if sighting.board_white_to_move { "wtm" } else { "btm" };
            let _ = write!(text, "see {} game: {} at move: {} {side} ", self.file, sighting.game, sighting.move_number);
            text.push_str(&sighting.symmetry.name());
            comments.push(text.clone());
        }
        let least = sightings.iter().map(|sighting| sighting.game).min()?;
        Some((comments, least))
    }
}

// Two filters on the same file, with the same choice of symmetries, are the same filter.
impl PartialEq for SimilarGames {
    fn eq(&self, other: &Self) -> bool {
        self.file == other.file && self.notransform == other.notransform
    }
}

impl Eq for SimilarGames {}

impl Hash for SimilarGames {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.file.hash(state);
        self.notransform.hash(state);
    }
}

/// The positions of a file of games, under their symmetries.
#[derive(Debug, Default)]
pub struct SimilarIndex {
    notransform: bool,
    games: u64,
    last_game: Option<u64>,
    sightings: HashMap<Board, Vec<Sighting>>,
}

impl SimilarIndex {
    /// An empty index; `notransform`: positions are entered as they stand only.
    #[must_use]
    pub fn new(notransform: bool) -> SimilarIndex {
        SimilarIndex { notransform, ..SimilarIndex::default() }
    }

    /// The number of games whose positions were added.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Adds the position after `ply` plies of game number `game`, written as FEN writes one
    /// (its first two fields are read). Positions are added game after game, each game's in
    /// order; a position that is not of an 8x8 board is left out.
    pub fn add(&mut self, game: u64, ply: u32, position: &str) {
        if self.last_game != Some(game) {
            self.last_game = Some(game);
            self.games += 1;
        }
        let Some(board) = Board::read(position) else { return };
        let move_number = move_number(ply, board.white_to_move);
        let symmetries: &[Symmetry] = if self.notransform {
            &[Symmetry::IDENTITY]
        } else if board.has_pawns() {
            &PAWN_SYMMETRIES
        } else {
            &PAWNLESS_SYMMETRIES
        };
        for &symmetry in symmetries {
            let Some(moved) = board.moved(symmetry) else { continue };
            let sightings = self.sightings.entry(moved).or_default();
            // A game's position is entered once under each key, by its first symmetry.
            if sightings.iter().any(|seen| seen.game == game && seen.move_number == move_number) {
                continue;
            }
            sightings.push(Sighting { game, move_number, board_white_to_move: board.white_to_move, symmetry });
        }
    }
}

/// The move number CQL 6.2 gives the position after `ply` plies: the game's first move is
/// move 1, whichever side makes it.
fn move_number(ply: u32, white_to_move: bool) -> u64 {
    let ply = u64::from(ply);
    let white_moved_first = (ply % 2 == 0) == white_to_move;
    let counted = if !white_moved_first && white_to_move { ply + 1 } else { ply };
    counted / 2 + 1
}

/// Where a position of the file is found.
#[derive(Clone, Copy, Debug)]
struct Sighting {
    game: u64,
    move_number: u64,
    board_white_to_move: bool,
    symmetry: Symmetry,
}

/// A symmetry of the board: a shift along the ranks, then the mirrors and the swap of files
/// and ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Symmetry {
    shift: i8,
    mirror_files: bool,
    mirror_ranks: bool,
    swap: bool,
}

impl Symmetry {
    const IDENTITY: Symmetry = Symmetry::dihedral(false, false, false);

    const fn dihedral(mirror_files: bool, mirror_ranks: bool, swap: bool) -> Symmetry {
        Symmetry { shift: 0, mirror_files, mirror_ranks, swap }
    }

    const fn shifted(shift: i8, mirror_files: bool) -> Symmetry {
        Symmetry { shift, mirror_files, mirror_ranks: false, swap: false }
    }

    /// Where a square (file and rank from 0) goes, if it stays on the board.
    fn square(self, file: usize, rank: usize) -> Option<(usize, usize)> {
        let file = file.checked_add_signed(isize::from(self.shift)).filter(|&file| file < SIDE)?;
        let file = if self.mirror_files { SIDE - 1 - file } else { file };
        let rank = if self.mirror_ranks { SIDE - 1 - rank } else { rank };
        Some(if self.swap { (rank, file) } else { (file, rank) })
    }

    /// Its name in a comment, as CQL 6.2 writes it (empty for the identity).
    fn name(self) -> String {
        let reflection = match (self.mirror_files, self.mirror_ranks, self.swap) {
            (false, false, false) => "",
            (false, true, false) => "reflect_h",
            (true, false, false) => "reflect_v",
            (true, true, false) => "rotate180",
            (false, false, true) => "reflect_a1h8",
            (false, true, true) => "counterclockwise90",
            (true, false, true) => "clockwise90",
            (true, true, true) => "reflect_a8h1",
        };
        let shift = match self.shift {
            0 => String::new(),
            right if right > 0 => format!("right^{right}"),
            left => format!("left^{}", -left),
        };
        match (reflection.is_empty(), shift.is_empty()) {
            (_, true) => reflection.to_owned(),
            (true, false) => shift,
            (false, false) => format!("{reflection} {shift}"),
        }
    }
}

/// The eight symmetries of a board without pawns, in CQL 6.2's order.
const PAWNLESS_SYMMETRIES: [Symmetry; 8] = [
    Symmetry::dihedral(false, false, false),
    Symmetry::dihedral(false, false, true),
    Symmetry::dihedral(false, true, false),
    Symmetry::dihedral(false, true, true),
    Symmetry::dihedral(true, false, false),
    Symmetry::dihedral(true, false, true),
    Symmetry::dihedral(true, true, false),
    Symmetry::dihedral(true, true, true),
];

/// The symmetries of a board with pawns, in CQL 6.2's order: itself, the shifts from seven
/// files left to seven right, the mirror of the files, and the mirror after each shift.
const PAWN_SYMMETRIES: [Symmetry; 30] = {
    let mut all = [Symmetry::IDENTITY; 30];
    let mut shift = -7;
    let mut at = 1;
    while shift <= 7 {
        if shift != 0 {
            all[at] = Symmetry::shifted(shift, false);
            all[at + 15] = Symmetry::shifted(shift, true);
            at += 1;
        }
        shift += 1;
    }
    all[15] = Symmetry::shifted(0, true);
    all
};

/// A position as `similarposition` compares it: the letter of the piece on each square (0 on
/// an empty one), and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Board {
    letters: [u8; SIDE * SIDE],
    white_to_move: bool,
}

impl Board {
    /// The board of a position written as FEN writes one, if it is an 8x8 board.
    fn read(position: &str) -> Option<Board> {
        let mut fields = position.split_whitespace();
        let placement = fields.next()?;
        let white_to_move = match fields.next()? {
            "w" => true,
            "b" => false,
            _ => return None,
        };
        // A pocket (`[Qp]`) is not part of the board.
        let placement = placement.split('[').next()?;
        let mut letters = [0; SIDE * SIDE];
        let mut rows = placement.split('/');
        for rank in (0..SIDE).rev() {
            let mut file = 0;
            for byte in rows.next()?.bytes() {
                match byte {
                    b'1'..=b'8' => file += usize::from(byte - b'0'),
                    b'~' => {}
                    letter if letter.is_ascii_alphabetic() && file < SIDE => {
                        letters[rank * SIDE + file] = letter;
                        file += 1;
                    }
                    _ => return None,
                }
            }
            if file != SIDE {
                return None;
            }
        }
        // The pocket of a crazyhouse position may follow as a ninth row.
        if rows.next().is_some_and(|row| row.bytes().any(|byte| !byte.is_ascii_alphabetic())) {
            return None;
        }
        Some(Board { letters, white_to_move })
    }

    fn has_pawns(&self) -> bool {
        self.letters.iter().any(|&letter| letter == b'P' || letter == b'p')
    }

    /// The board under a symmetry, if every piece stays on it.
    fn moved(&self, symmetry: Symmetry) -> Option<Board> {
        let mut letters = [0; SIDE * SIDE];
        for (square, &letter) in self.letters.iter().enumerate().filter(|(_, letter)| **letter != 0) {
            let (file, rank) = symmetry.square(square % SIDE, square / SIDE)?;
            letters[rank * SIDE + file] = letter;
        }
        Some(Board { letters, white_to_move: self.white_to_move })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn index_of(positions: &[(u64, u32, &str)], notransform: bool) -> SimilarGames {
        let games = SimilarGames::new("f.pgn".to_owned(), notransform);
        let mut index = SimilarIndex::new(notransform);
        for &(game, ply, position) in positions {
            index.add(game, ply, position);
        }
        games.set_index(index);
        games
    }

    #[test]
    fn move_numbers_count_from_the_first_move_whoever_makes_it() {
        assert_eq!([0, 1, 2, 3].map(|ply| move_number(ply, ply % 2 == 0)), [1, 1, 2, 2]);
        // Black moved first: after one ply white is to move, in move 2.
        assert_eq!([0, 1, 2].map(|ply| move_number(ply, ply % 2 == 1)), [1, 2, 2]);
    }

    #[test]
    fn the_symmetries_are_in_the_order_cql_tries_them() {
        assert_eq!(PAWN_SYMMETRIES[0], Symmetry::IDENTITY);
        assert_eq!(PAWN_SYMMETRIES[1].name(), "left^7");
        assert_eq!(PAWN_SYMMETRIES[14].name(), "right^7");
        assert_eq!(PAWN_SYMMETRIES[15].name(), "reflect_v");
        assert_eq!(PAWN_SYMMETRIES[16].name(), "reflect_v left^7");
        assert_eq!(PAWN_SYMMETRIES[29].name(), "reflect_v right^7");
        let names: Vec<String> = PAWNLESS_SYMMETRIES.iter().map(|symmetry| symmetry.name()).collect();
        let expected = [
            "",
            "reflect_a1h8",
            "reflect_h",
            "counterclockwise90",
            "reflect_v",
            "clockwise90",
            "rotate180",
            "reflect_a8h1",
        ];
        assert_eq!(names, expected);
    }

    #[test]
    fn a_position_is_found_as_it_stands_and_mirrored() {
        let games = index_of(&[(1, 0, "8/8/8/8/8/8/4P3/K6k w - - 0 1")], false);
        let (comments, least) = games.comments("8/8/8/8/8/8/4P3/K6k w KQ - 3 9").expect("as it stands");
        assert_eq!(comments, ["see f.pgn game: 1 at move: 1 wtm "]);
        assert_eq!(least, 1);
        let (comments, _) = games.comments("8/8/8/8/8/8/3P4/k6K w - - 0 1").expect("mirrored");
        assert_eq!(comments, ["see f.pgn game: 1 at move: 1 wtm reflect_v"]);
        assert!(games.comments("8/8/8/8/8/8/3P4/k6K b - - 0 1").is_none(), "the other side to move");
        assert!(games.comments("8/8/8/8/8/4P3/8/K6k w - - 0 1").is_none(), "pawns are not moved up");
    }

    #[test]
    fn each_sighting_comment_holds_the_ones_before_it() {
        let games = index_of(&[(1, 0, START), (2, 0, START)], false);
        let (comments, _) = games.comments(START).expect("found");
        assert_eq!(
            comments,
            ["see f.pgn game: 1 at move: 1 wtm ", "see f.pgn game: 1 at move: 1 wtm see f.pgn game: 2 at move: 1 wtm "]
        );
    }

    #[test]
    fn a_pawnless_position_is_found_turned() {
        let games = index_of(&[(3, 4, "8/8/8/8/8/8/8/KR5k w - - 0 1")], false);
        let (comments, least) = games.comments("k7/8/8/8/8/8/R7/K7 w - - 0 1").expect("turned");
        assert_eq!(comments, ["see f.pgn game: 3 at move: 3 wtm reflect_a1h8"]);
        assert_eq!(least, 3);
        let notransform = index_of(&[(3, 4, "8/8/8/8/8/8/8/KR5k w - - 0 1")], true);
        assert!(notransform.comments("k7/8/8/8/8/8/R7/K7 w - - 0 1").is_none());
    }

    #[test]
    fn boards_of_other_sizes_are_not_compared() {
        assert!(Board::read("10/10/10/10/10/10/10/10 w - - 0 1").is_none());
        assert!(Board::read("8/8/8/8/8/8/8 w").is_none());
        assert!(Board::read("8/8/8/8/8/8/8/8[Qp] w - - 0 1").is_some());
    }
}
