//! Laser Chess positions drawn with their beams, for `cqlq explain`: the last shot (when the
//! position was reached by a turn) and the shot the side to move's laser would fire next.
//!
//! On a beam's path an empty square shows `-` where the beam crossed it along a rank, `|`
//! along a file, `+` both ways; the piece the beam removes shows `x`; the pieces it passes
//! show their letters.

use std::fmt::Write;

use super::beam::Travel;
use super::board::{LaserBoard, Shot};
use crate::board::Square;
use crate::position::drawing;
use crate::variant::Color;

impl LaserBoard {
    /// The position drawn twice: with the last shot's beam, if a turn fired one, and with the
    /// beam the side to move's laser would fire next; each with what its beam removes.
    #[must_use]
    pub fn draw_shots(&self) -> String {
        let mut out = String::new();
        let shooter = self.turn().other();
        let last = self.last_shot();
        if last.end.is_some() {
            // The shot went over this board as it is, but for the piece it removed.
            let mut before = self.clone();
            if let Some((square, piece)) = last.hit {
                before.put(square, piece);
            }
            before.draw_shot(shooter, "fired last", &mut out);
        }
        if self.winner().is_none() {
            self.draw_shot(self.turn(), "fires next", &mut out);
        }
        out
    }

    /// Draws `color`'s shot on this board, under a line that tells what it does.
    fn draw_shot(&self, color: Color, when: &str, out: &mut String) {
        let mut along_rank = 0u128;
        let mut along_file = 0u128;
        let shot: Shot = self.trace(color, |square, travel| match travel {
            Travel::Left | Travel::Right => along_rank |= 1u128 << square,
            Travel::Up | Travel::Down => along_file |= 1u128 << square,
        });
        let player = self.layout().variant.players[color.index()];
        let laser = self.layout().name(self.layout().lasers[color.index()]);
        let _ = writeln!(out, "{player}'s laser on {laser} {when}: {}", self.tell_shot(&shot));
        let glyph = |square: Square| {
            let at = u8::try_from(square.index()).ok()?;
            let bit = 1u128 << at;
            if shot.hit.is_some_and(|(hit, _)| hit == at) {
                return Some('x');
            }
            if self.piece_at(at).is_some() {
                return None;
            }
            match (along_rank & bit != 0, along_file & bit != 0) {
                (true, true) => Some('+'),
                (true, false) => Some('-'),
                (false, true) => Some('|'),
                (false, false) => None,
            }
        };
        out.push_str(&drawing::draw(self, glyph));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;
    use crate::notation::laser::setup_notation;
    use crate::rules::laser::notation::Turn;

    #[test]
    fn both_shots_are_drawn_with_what_they_remove() {
        // Blue's Deflector on j5, turned, sends Blue's beam along rank 5 to Red's Deflector.
        let laser = Variant::by_name("Laser Chess").unwrap();
        let setup = setup_notation::read::<2>(laser, "l++1K2k4/*/*/4b+4B+++/*/*/*/9L").unwrap();
        let mut board = LaserBoard::from_setup(&setup).unwrap();
        board.play_turn(&Turn::parse(b"j5+").unwrap()).unwrap();
        let text = board.draw_shots();
        let expected = "\
Blue's laser on j1 fired last: it removes Red's Deflector on e5
8 l . K . . k . . . .
7 . . . . . . . . . .
6 . . . . . . . . . .
5 . . . . x - - - - B
4 . . . . . . . . . |
3 . . . . . . . . . |
2 . . . . . . . . . |
1 . . . . . . . . . L
  a b c d e f g h i j
Red's laser on a8 fires next: it leaves the board after a1, removing nothing
8 l . K . . k . . . .
7 | . . . . . . . . .
6 | . . . . . . . . .
5 | . . . . . . . . B
4 | . . . . . . . . .
3 | . . . . . . . . .
2 | . . . . . . . . .
1 | . . . . . . . . L
  a b c d e f g h i j
";
        assert_eq!(text, expected);
    }
}
