//! Positions drawn as text, for `cqlq explain`: each piece by the first letter of its symbol
//! (upper case the first player's, lower case the second's), and what a caller overlays.

use super::PositionView;
use crate::board::{Square, diagram};
use crate::variant::Color;

/// Draws a position: on each square what `overlay` says, else its piece's letter, else `.`.
#[must_use]
pub fn draw<const W: usize>(view: &impl PositionView<W>, overlay: impl Fn(Square) -> Option<char>) -> String {
    let variant = view.variant();
    let letter = |square: Square| {
        let color = [Color::White, Color::Black].into_iter().find(|&color| view.color(color).contains(square))?;
        let kind = variant.all_kinds().iter().find(|&kind| view.kind(kind).contains(square))?;
        variant.symbol(crate::variant::Piece { kind, color }).chars().next()
    };
    diagram::render(variant.geometry, |square| overlay(square).or_else(|| letter(square)).unwrap_or('.'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;
    use crate::position::Setup;

    #[test]
    fn pieces_are_drawn_by_their_letters() {
        let setup = Setup::<1>::initial(Variant::standard());
        let e4 = Variant::standard().geometry.parse_square("e4").unwrap();
        let text = draw(&setup, |square| (square == e4).then_some('*'));
        assert!(text.starts_with("8 r n b q k b n r\n7 p p p p p p p p\n"), "{text}");
        assert!(text.contains("\n4 . . . . * . . .\n"), "{text}");
        assert!(text.ends_with("1 R N B Q K B N R\n  a b c d e f g h\n"), "{text}");
    }
}
