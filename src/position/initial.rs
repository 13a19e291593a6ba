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
        let role = variant.piece_type(piece.kind).role;
        if role == Some(Role::Pawn) {
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
    for name in description.extra_pawns {
        let square = geometry.parse_square(name).expect("catalogue squares lie on the board");
        let (file, rank) = (geometry.file_of(square).index(), geometry.rank_of(square).index());
        place(file, rank, 'P', Color::White);
        place(file, mirror(rank), 'P', Color::Black);
    }
    for (name, color) in description.monoliths.iter().zip(Color::ALL) {
        let square = geometry.parse_square(name).expect("catalogue squares lie on the board");
        place(geometry.file_of(square).index(), geometry.rank_of(square).index(), 'M', color);
    }
    setup
}
