//! The initial position of every variant, built from the catalogue's description.

use super::{Mark, Setup};
use crate::board::{File, Rank};
use crate::notation::{fen, laser};
use crate::variant::{Color, CroatianSetup, Initial, Piece, Role, Variant};

/// Builds a variant's initial position. The catalogue's setups are checked by the tests, so a
/// failure here is a defect of the catalogue.
pub(super) fn build<const W: usize>(variant: &'static Variant) -> Setup<W> {
    match &variant.initial {
        Initial::Fen(text) => fen::read(variant, text).expect("catalogue FEN is valid"),
        Initial::Laser(setups) => {
            let (_, text) = setups.setups.first().expect("a Laser Chess variant has a setup");
            laser::setup_notation::read(variant, text).expect("catalogue Setup Notation is valid")
        }
        Initial::Croatian(setup) => croatian(variant, setup),
    }
}

/// A Croatian Chess setup: the light figure row and Pawns, mirrored with colours swapped for dark;
/// every private may rush and every King and Rook may castle.
fn croatian<const W: usize>(variant: &'static Variant, description: &CroatianSetup) -> Setup<W> {
    let geometry = variant.geometry;
    let mut setup = Setup::empty(variant);
    let last = geometry.ranks() - 1;
    let mirror = |rank: u8| last - rank;
    let mut place = |file: u8, rank: u8, symbol: char, color: Color| {
        let piece = variant
            .piece_by_symbol(&symbol.to_ascii_uppercase().to_string())
            .map(|found| Piece { kind: found.kind, color })
            .expect("catalogue symbols belong to the variant");
        let square = geometry
            .square(File::new(file).expect("file"), Rank::new(rank).expect("rank"))
            .expect("catalogue squares lie on the board");
        setup.board.put(square, piece);
        let kind = variant.piece_type(piece.kind);
        let role = kind.role;
        if kind.private {
            setup.board.set_mark(Mark::RUSH, square, true);
        }
        if matches!(role, Some(Role::King | Role::Rook)) {
            setup.board.set_mark(Mark::CASTLE, square, true);
        }
    };
    for (file, symbol) in description.figure_row.chars().enumerate() {
        let light_color = Color::of_case(symbol.is_ascii_uppercase());
        place(file as u8, 0, symbol, light_color);
        place(file as u8, last, symbol, light_color.other());
    }
    for &rank in description.pawn_ranks {
        for file in 0..geometry.files() {
            place(file, rank - 1, 'P', Color::White);
            place(file, mirror(rank - 1), 'P', Color::Black);
        }
    }
    for &(letter, squares) in description.privates {
        for name in squares {
            let square = geometry.parse_square(name).expect("catalogue squares lie on the board");
            let (file, rank) = (geometry.file_of(square).index(), geometry.rank_of(square).index());
            place(file, rank, letter, Color::White);
            place(file, mirror(rank), letter, Color::Black);
        }
    }
    for (name, color) in description.monoliths.iter().zip(Color::ALL) {
        let square = geometry.parse_square(name).expect("catalogue squares lie on the board");
        place(geometry.file_of(square).index(), geometry.rank_of(square).index(), 'M', color);
    }
    setup
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Edition;

    /// The light figure rows of crochess.md §1, in the current edition's letters (the 2020
    /// edition writes the Pegasus `G`), with the ranks full of Pawns.
    const ROWS: [(&str, &str, &[u8]); 11] = [
        ("Classical Chess", "RNBQKBNR", &[2]),
        ("Croatian Ties", "RENBQKBNER", &[2]),
        ("Mayan Ascendancy", "REANBQKBNAER", &[2]),
        ("Age of Aquarius", "REAUNBQKBNUAER", &[2]),
        ("Miranda's Veil", "REAUWNBQKBNWUAER", &[2]),
        ("Nineteen", "TRNBWEUAQKAUEWBNRt", &[2, 3]),
        ("Hemera's Dawn", "TRNBCWEUAQKAUEWCBNRt", &[2, 3]),
        ("Tamoanchan Revisited", "TRNBSWUECAQKACEUWSBNRt", &[2, 3]),
        ("Conquest of Tlalocan", "TRNBSCUWEAHQKHAEWUCSBNRt", &[2, 3]),
        ("Discovery", "TRNBSCUWEAHQKHAEWUCSBNRt", &[2, 3]),
        ("One", "TRNBSICUEWAHQKHAWEUCISBNRt", &[2, 3]),
    ];

    /// The scouts on ranks 4 and 5 (crochess.md §1), and the Monoliths.
    const EXTRAS: [(&str, &str, &[&str]); 5] = [
        ("Hemera's Dawn", "c4 g4 n4 r4 d5 f5 o5 q5", &[]),
        ("Tamoanchan Revisited", "g4 k4 l4 p4 h5 j5 m5 o5", &[]),
        ("Conquest of Tlalocan", "d4 h4 i4 l4 m4 p4 q4 u4 e5 g5 j5 l5 m5 o5 r5 t5", &[]),
        ("Discovery", "d4 h4 i4 l4 m4 p4 q4 u4 e5 g5 j5 l5 m5 o5 r5 t5", &["b7", "w18"]),
        ("One", "e4 i4 j4 m4 n4 q4 r4 v4 f5 h5 k5 m5 n5 p5 s5 u5", &["b8", "y19"]),
    ];

    /// Every initial setup of both editions holds what the book puts on each square: the
    /// figure rows (the dark one mirrored, colours swapped), the Pawn rows, the scouts (Pawns in
    /// 2020; Scouts now, with a Grenadier under each), the Monoliths, and the tags.
    #[test]
    fn initial_setups_follow_the_book_in_both_editions() {
        for (name, row, pawn_ranks) in ROWS {
            for edition in Edition::ALL {
                let variant = Variant::by_name(name).unwrap().in_edition(edition).unwrap();
                let n = variant.geometry.ranks();
                let extras = EXTRAS.iter().find(|(extra, _, _)| *extra == name);
                // What the book puts on each square, by name: a symbol, and its tag (| or &).
                let mut expected = std::collections::BTreeMap::new();
                let mut both = |file: u8, rank: u8, light: String, tag: &str| {
                    let dark = match light.as_str() {
                        "T" => "t".to_owned(),
                        "t" => "T".to_owned(),
                        _ => light.to_ascii_lowercase(),
                    };
                    let file = (b'a' + file) as char;
                    expected.insert(format!("{file}{rank}"), format!("{light}{tag}"));
                    expected.insert(format!("{file}{}", n + 1 - rank), format!("{dark}{tag}"));
                };
                for (file, letter) in row.chars().enumerate() {
                    let letter = if edition == Edition::Ed2020 && letter == 'E' { 'G' } else { letter };
                    let tag = if matches!(letter, 'K' | 'R') { "&" } else { "" };
                    both(file as u8, 1, letter.to_string(), tag);
                }
                for &rank in pawn_ranks {
                    for file in 0..n {
                        both(file, rank, "P".to_owned(), "|");
                    }
                }
                for scout in extras.iter().flat_map(|(_, scouts, _)| scouts.split(' ')) {
                    let (file, rank) = (scout.as_bytes()[0] - b'a', scout[1..].parse::<u8>().unwrap());
                    let letter = if edition == Edition::Ed2020 { "P" } else { "O" };
                    both(file, rank, letter.to_owned(), "|");
                    if edition == Edition::Current {
                        both(file, 7 - rank, "G".to_owned(), "|");
                    }
                }
                for (index, monolith) in extras.iter().flat_map(|(_, _, monoliths)| monoliths.iter()).enumerate() {
                    expected.insert((*monolith).to_owned(), if index == 0 { "M" } else { "m" }.to_owned());
                }
                crate::with_width!(variant.width(), W => {
                    let setup = Setup::<W>::initial(variant);
                    let geometry = variant.geometry;
                    let mut found = std::collections::BTreeMap::new();
                    for (square, piece) in setup.board.iter() {
                        let mut text = variant.symbol(piece);
                        for (mark, tag) in [(Mark::RUSH, "|"), (Mark::CASTLE, "&")] {
                            if setup.board.marked(mark).contains(square) {
                                text.push_str(tag);
                            }
                        }
                        found.insert(geometry.square_name(square).to_string(), text);
                    }
                    assert_eq!(found, expected, "{}", variant.name);
                });
            }
        }
    }
}
