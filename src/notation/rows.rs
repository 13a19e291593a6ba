//! The board part of FEN-like texts: ranks from the last to the first, separated by `/`.
//!
//! A rank is a run of piece tokens and empty-square counts. A piece token is a symbol of the
//! variant's alphabet (`N`, `KN`), in the case of its side, followed by `+` signs for its level
//! (tier or orientation) and `~` when it is a promoted piece. FEN counts empty squares with
//! numbers of any size (`10`, `26`); Laser Chess Setup Notation uses single digits and `*` for a
//! rank of ten empty squares.
//!
//! Where symbols of several letters stand side by side, a run of letters may split into
//! symbols in more than one way (Chess Evolved Online's `PSP` is `P SP` or `PS P`): the writer
//! then puts a `.` between the two tokens, and the reader takes `.` as the end of a token.

use std::fmt;

use crate::board::{File, Rank, Square};
use crate::position::{Mark, Placement};
use crate::variant::Variant;

/// The dialect of the rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RowSyntax {
    /// FEN extended to every board: empty runs of any size.
    Fen,
    /// Laser Chess Setup Notation: digits 1-9 and `*` for ten empty squares.
    SetupNotation,
}

/// Why the board part could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// The number of ranks differs from the board's.
    RankCount {
        /// Ranks found.
        found: usize,
        /// Ranks of the board.
        expected: u8,
    },
    /// A rank holds more or fewer squares than the board has files.
    RankLength {
        /// The rank (as numbered on the board).
        rank: u32,
        /// Squares found.
        found: usize,
        /// Files of the board.
        expected: u8,
    },
    /// Letters that are no piece of the variant.
    UnknownPiece {
        /// The rank.
        rank: u32,
        /// The letters that begin no symbol of the variant.
        text: String,
        /// The variant's letters.
        letters: String,
    },
    /// A character that has no place in a rank.
    Unexpected {
        /// The rank.
        rank: u32,
        /// The character.
        found: char,
    },
    /// An empty-square count that is zero or too long.
    BadCount {
        /// The rank.
        rank: u32,
        /// The digits.
        text: String,
    },
    /// More than three `+` signs.
    LevelTooHigh {
        /// The rank.
        rank: u32,
    },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::RankCount { found, expected } => {
                write!(f, "{found} ranks where the board has {expected}")
            }
            BoardError::RankLength { rank, found, expected } => {
                write!(f, "rank {rank} has {found} squares where the board has {expected} files")
            }
            BoardError::UnknownPiece { rank, text, letters } => {
                write!(f, "'{text}' on rank {rank} is no piece here (pieces: {letters})")
            }
            BoardError::Unexpected { rank, found } => write!(f, "unexpected '{found}' on rank {rank}"),
            BoardError::BadCount { rank, text } => {
                write!(f, "'{text}' on rank {rank} is not a count of empty squares")
            }
            BoardError::LevelTooHigh { rank } => write!(f, "more than three '+' on rank {rank}"),
        }
    }
}

impl std::error::Error for BoardError {}

/// Reads ranks, the last rank first.
pub(crate) fn read<const W: usize>(
    variant: &Variant,
    text: &str,
    syntax: RowSyntax,
) -> Result<Placement<W>, BoardError> {
    let geometry = variant.geometry;
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != usize::from(geometry.ranks()) {
        return Err(BoardError::RankCount { found: rows.len(), expected: geometry.ranks() });
    }
    let mut board = Placement::empty(variant.kinds());
    for (row_index, row) in rows.iter().enumerate() {
        let rank = Rank::new(geometry.ranks() - 1 - row_index as u8).expect("rank on the board");
        read_rank(variant, &mut board, rank, row, syntax)?;
    }
    Ok(board)
}

fn read_rank<const W: usize>(
    variant: &Variant,
    board: &mut Placement<W>,
    rank: Rank,
    row: &str,
    syntax: RowSyntax,
) -> Result<(), BoardError> {
    let geometry = variant.geometry;
    let number = rank.number();
    let bytes = row.as_bytes();
    let mut file = 0usize;
    let mut at = 0;
    let mut last: Option<Square> = None;
    let too_long = |found| BoardError::RankLength { rank: number, found, expected: geometry.files() };
    while at < bytes.len() {
        let byte = bytes[at];
        if byte.is_ascii_digit() {
            let digits = bytes[at..].iter().take_while(|b| b.is_ascii_digit()).count();
            let text = &row[at..at + digits];
            let count: usize = text.parse().unwrap_or(0);
            let single_digit_only = syntax == RowSyntax::SetupNotation && digits > 1;
            if count == 0 || count > usize::from(geometry.files()) || text.starts_with('0') || single_digit_only {
                return Err(BoardError::BadCount { rank: number, text: text.to_owned() });
            }
            file = file.saturating_add(count);
            at += digits;
            last = None;
        } else if byte == b'*' && syntax == RowSyntax::SetupNotation {
            file += 10;
            at += 1;
            last = None;
        } else if byte.is_ascii_alphabetic() {
            let letters = bytes[at..].iter().take_while(|b| b.is_ascii_alphabetic()).count();
            let text = &row[at..at + letters];
            let pieces = variant.split_symbols(text).map_err(|at| BoardError::UnknownPiece {
                rank: number,
                text: symbol_at(variant, text, at).to_owned(),
                letters: variant.letters(),
            })?;
            for (_, piece) in pieces {
                if file >= usize::from(geometry.files()) {
                    return Err(too_long(file.saturating_add(1)));
                }
                let square =
                    geometry.square(File::new(file as u8).expect("file below 26"), rank).expect("square on the board");
                board.put(square, piece);
                last = Some(square);
                file += 1;
            }
            at += letters;
        } else if byte == b'.' && syntax == RowSyntax::Fen && last.is_some() {
            at += 1;
            last = None;
        } else if byte == b'+' || byte == b'~' {
            let Some(square) = last else {
                return Err(BoardError::Unexpected { rank: number, found: byte as char });
            };
            if byte == b'+' {
                let level = board.level(square) + 1;
                if level > 3 {
                    return Err(BoardError::LevelTooHigh { rank: number });
                }
                board.set_level(square, level);
            } else {
                board.set_mark(Mark::PROMOTED, square, true);
            }
            at += 1;
        } else {
            let found = row[at..].chars().next().unwrap_or('?');
            return Err(BoardError::Unexpected { rank: number, found });
        }
    }
    if file != usize::from(geometry.files()) {
        return Err(too_long(file));
    }
    Ok(())
}

/// The letters at `at` in a run of letters that splits into no symbols of the variant from
/// there: as many as its longest symbol has (`G` in `KG`, not the whole run).
pub(super) fn symbol_at<'t>(variant: &Variant, letters: &'t str, at: usize) -> &'t str {
    let rest = letters.get(at..).unwrap_or("");
    let end = rest.char_indices().nth(variant.longest_symbol()).map_or(rest.len(), |(index, _)| index);
    &rest[..end]
}

/// Writes the ranks, the last rank first.
pub(crate) fn write<const W: usize>(variant: &Variant, board: &Placement<W>, syntax: RowSyntax) -> String {
    let geometry = variant.geometry;
    let mut out = String::new();
    for rank_index in (0..geometry.ranks()).rev() {
        let rank = Rank::new(rank_index).expect("rank on the board");
        let mut empty = 0;
        // The run of letters written last, and the pieces it was written for.
        let mut run = String::new();
        let mut run_pieces = Vec::new();
        for file_index in 0..geometry.files() {
            let square = geometry.square(File::new(file_index).expect("file"), rank).expect("square");
            match board.piece_at(square) {
                None => {
                    empty += 1;
                    run.clear();
                    run_pieces.clear();
                }
                Some(piece) => {
                    flush_empty(&mut out, &mut empty, syntax);
                    let symbol = variant.symbol(piece);
                    run.push_str(&symbol);
                    run_pieces.push(piece);
                    if !splits_into(variant, &run, &run_pieces) {
                        out.push('.');
                        run.clone_from(&symbol);
                        run_pieces = vec![piece];
                    }
                    out.push_str(&symbol);
                    let level = board.level(square);
                    let promoted = board.marked(Mark::PROMOTED).contains(square);
                    for _ in 0..level {
                        out.push('+');
                    }
                    if promoted {
                        out.push('~');
                    }
                    if level > 0 || promoted {
                        run.clear();
                        run_pieces.clear();
                    }
                }
            }
        }
        flush_empty(&mut out, &mut empty, syntax);
        if rank_index > 0 {
            out.push('/');
        }
    }
    out
}

/// Whether a run of letters reads back as the pieces it was written for.
fn splits_into(variant: &Variant, run: &str, pieces: &[crate::variant::Piece]) -> bool {
    variant.split_symbols(run).is_ok_and(|split| split.iter().map(|(_, piece)| *piece).eq(pieces.iter().copied()))
}

fn flush_empty(out: &mut String, empty: &mut usize, syntax: RowSyntax) {
    if *empty == 0 {
        return;
    }
    match syntax {
        RowSyntax::Fen => out.push_str(&empty.to_string()),
        RowSyntax::SetupNotation => {
            while *empty > 0 {
                if *empty >= 10 {
                    out.push('*');
                    *empty -= 10;
                } else {
                    let run = (*empty).min(9);
                    out.push_str(&run.to_string());
                    *empty -= run;
                }
            }
        }
    }
    *empty = 0;
}

#[cfg(test)]
mod tests {
    use crate::notation::fen;
    use crate::variant::Variant;

    /// `PS P` and `P SP` would both be written `PSP`: a `.` keeps them apart, and only where
    /// needed.
    /// `PS P` and `P SP` would both be written `PSP`: a `.` keeps them apart, and only where
    /// needed.
    #[test]
    fn dbg() {
        let ceo = Variant::by_name("Chess Evolved Online").unwrap();
        eprintln!("{:?}", ceo.split_symbols("PSP"));
        eprintln!("{:?}", ceo.split_symbols("SP"));
        for t in [
            "kk7/8/8/8/8/8/6PSP+++/KK7 w - - 0 1",
            "kk7/8/8/8/8/8/6P.SP/KK7 w - - 0 1",
            "kk7/8/8/8/8/8/6PPS/KK7 w - - 0 1",
        ] {
            match fen::read::<1>(ceo, t) {
                Ok(x) => eprintln!(
                    "{:?} {:?}",
                    x.board.piece_at(crate::board::Square::from_index(14)),
                    x.board.piece_at(crate::board::Square::from_index(15))
                ),
                Err(e) => eprintln!("{e:?}"),
            }
        }
    }
    #[test]
    fn runs_that_split_two_ways_are_written_apart() {
        let ceo = Variant::by_name("Chess Evolved Online").unwrap();
        for (fen_text, written) in [
            ("kk7/8/8/8/8/8/6P.SP/KK7 w - - 0 1", "6P.SP"),
            ("kk7/8/8/8/8/8/6SPPS/KK7 w - - 0 1", "6SPPS"),
            ("kk7/8/8/8/8/8/6PS.P+++/KK7 w - - 0 1", "6PSP+++"),
        ] {
            let setup = fen::read::<1>(ceo, fen_text).unwrap();
            let again = fen::write(&setup, fen::CastlingStyle::XFen);
            assert!(again.contains(&format!("/{written}/")), "{again}");
            assert_eq!(fen::read::<1>(ceo, &again).unwrap(), setup);
        }
        let a = fen::read::<1>(ceo, "kk7/8/8/8/8/8/6PS.P/KK7 w - - 0 1").unwrap();
        let b = fen::read::<1>(ceo, "kk7/8/8/8/8/8/6P.SP/KK7 w - - 0 1").unwrap();
        assert_ne!(a, b);
    }
}
