//! A position in its variant's own string: FEN for the classical family and Chess Evolved
//! Online, the setup string for Croatian Chess, Setup Notation for Laser Chess.

use super::fen::CastlingStyle;
use super::{crochess, fen, laser};
use crate::position::{Backhand, Setup};
use crate::variant::{BackhandRule, PositionFormat};

/// Writes a setup as its variant's players write positions. The pieces captured, which cqlq
/// keeps beside the board, are no part of a FEN but where they are dropped again (Crazyhouse).
#[must_use]
pub fn write<const W: usize>(setup: &Setup<W>) -> String {
    match setup.variant.position_format {
        PositionFormat::Fen if setup.variant.backhand == BackhandRule::Captures && !setup.backhand.is_empty() => {
            let board_only = Setup { backhand: Backhand::empty(setup.variant.pieces.len()), ..setup.clone() };
            fen::write(&board_only, CastlingStyle::XFen)
        }
        PositionFormat::Fen => fen::write(setup, CastlingStyle::XFen),
        PositionFormat::SetupString => crochess::setup_string::write(setup),
        PositionFormat::SetupNotation => laser::setup_notation::write(setup),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn each_family_has_its_string() {
        let standard = write(&Setup::<1>::initial(Variant::standard()));
        assert_eq!(standard, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let ties = write(&Setup::<2>::initial(Variant::by_name("Croatian Ties").unwrap()));
        assert!(ties.starts_with("Ct "), "{ties}");
        let laser = write(&Setup::<2>::initial(Variant::by_name("Laser Chess").unwrap()));
        assert!(!laser.contains(' ') && laser.contains('/'), "{laser}");
    }
}
