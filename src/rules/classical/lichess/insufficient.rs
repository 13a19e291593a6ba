//! Whether a side can still win, in the variants where lichess ends a game for want of
//! material.

use crate::rules::classical::Board;
use crate::rules::classical::attacks::Bitboard;
use crate::variant::{Color, Role};

/// The dark squares (a1 is one).
const DARK: Bitboard = 0xAA55_AA55_AA55_AA55;
/// The light squares.
const LIGHT: Bitboard = !DARK;

/// All the pieces of a role, both colours.
fn all(board: &Board, role: Role) -> Bitboard {
    board.pieces(Color::White, role) | board.pieces(Color::Black, role)
}

/// Atomic: a bare king cannot win; nor can a lone minor piece or rook, or two knights, against
/// a bare king; nor bishops against bishops that can never stand next to each other.
pub(super) fn atomic(board: &Board, color: Color) -> bool {
    let them = color.other();
    let kings = all(board, Role::King);
    if board.pieces(them, Role::King) == 0 {
        return false;
    }
    if board.side(color) & !kings == 0 {
        return true;
    }
    if board.side(them) & !kings != 0 {
        // The enemy's own pieces may explode next to its king, unless all are bishops that
        // never meet ours.
        let bishops = all(board, Role::Bishop);
        if board.occupied() == kings | bishops {
            let ours = |color: Color, squares: Bitboard| board.pieces(color, Role::Bishop) & squares;
            if ours(Color::White, DARK) == 0 {
                return ours(Color::Black, LIGHT) == 0;
            }
            if ours(Color::White, LIGHT) == 0 {
                return ours(Color::Black, DARK) == 0;
            }
        }
        return false;
    }
    if all(board, Role::Queen) | all(board, Role::Pawn) != 0 {
        return false;
    }
    if (all(board, Role::Knight) | all(board, Role::Bishop) | all(board, Role::Rook)).count_ones() == 1 {
        return true;
    }
    if board.occupied() == kings | all(board, Role::Knight) {
        return all(board, Role::Knight).count_ones() <= 2;
    }
    false
}

/// Antichess: a side can no longer lose all its pieces when only bishops are left that the
/// other side's can never take, or in some endings of a knight against a knight.
pub(super) fn antichess(board: &Board, color: Color) -> bool {
    let ours = board.side(color);
    let theirs = board.side(color.other());
    if ours == 0 {
        return false;
    }
    if theirs == 0 {
        return true;
    }
    let occupied = board.occupied();
    if occupied == all(board, Role::Bishop) {
        let (we_light, we_dark) = (ours & LIGHT != 0, ours & DARK != 0);
        return (we_light && theirs & LIGHT == 0) || (we_dark && theirs & DARK == 0);
    }
    if occupied == all(board, Role::Knight)
        && board.side(Color::White).count_ones() == 1
        && board.side(Color::Black).count_ones() == 1
    {
        // Knights on squares of the same colour: the side to move can never be taken.
        let white_light = board.side(Color::White) & LIGHT != 0;
        let black_dark = board.side(Color::Black) & DARK != 0;
        let flips = white_light ^ black_dark;
        let side = if flips { color.other() } else { color };
        return board.turn() == side;
    }
    false
}

/// Three-check: any piece but the king can still give check.
pub(super) fn three_check(board: &Board, color: Color) -> bool {
    board.side(color) & !board.pieces(color, Role::King) == 0
}

/// What a side has, counted by kind: bishops by the colour of their squares, `all` with the
/// king.
struct Material {
    pawns: u32,
    knights: u32,
    light: u32,
    dark: u32,
    rooks: u32,
    queens: u32,
    all: u32,
}

impl Material {
    fn of(board: &Board, color: Color) -> Material {
        let count = |role: Role| board.pieces(color, role).count_ones();
        let bishops = board.pieces(color, Role::Bishop);
        Material {
            pawns: count(Role::Pawn),
            knights: count(Role::Knight),
            light: (bishops & LIGHT).count_ones(),
            dark: (bishops & DARK).count_ones(),
            rooks: count(Role::Rook),
            queens: count(Role::Queen),
            all: board.side(color).count_ones(),
        }
    }

    fn bishops(&self) -> u32 {
        self.light + self.dark
    }

    /// The bishops on light squares if `light`, else those on dark squares.
    fn bishops_on(&self, light: bool) -> u32 {
        if light { self.light } else { self.dark }
    }

    /// How many of the kinds rook, knight, bishop and pawn the side has.
    fn kinds(&self) -> usize {
        [self.rooks, self.knights, self.bishops(), self.pawns].iter().filter(|n| **n > 0).count()
    }
}

/// Horde: the side without a king can no longer mate when its pieces (a third bishop on squares
/// of one colour adding nothing) are too few to mate even with the help of the king's own
/// pieces hemming it in; the side with the king can always win by taking everything.
pub(super) fn horde(board: &Board, color: Color) -> bool {
    if board.pieces(color, Role::King) != 0 {
        return false;
    }
    let horde = Material::of(board, color);
    let king = Material::of(board, color.other());
    let effective = horde.pawns + horde.knights + horde.rooks + horde.queens + horde.light.min(2) + horde.dark.min(2);
    // Where the horde has bishops, they stand on squares of one colour, save with a bishop of
    // each, which is judged apart.
    let bishop_light = horde.light > 0;
    let same = king.bishops_on(bishop_light);
    let opposite = king.bishops_on(!bishop_light);
    // A lone queen mates a king in a corner walled in by a pawn or a rook of its own, or by
    // two of its bishops on squares of one colour.
    let queen_fails = king.pawns == 0 && king.rooks == 0 && king.light < 2 && king.dark < 2;
    // A lone knight smothers a king in a corner, with enough of its own pieces of the right
    // kinds, not all of them bishops on squares of one colour.
    let knight_fails = !(king.all >= 4
        && (king.knights >= 2 || king.pawns >= 2 || king.kinds() >= 2)
        && (king.dark < 2 || king.all - king.dark >= 3)
        && (king.light < 2 || king.all - king.light >= 3));
    match effective {
        0 => true,
        1 if horde.pawns == 1 => queen_fails && knight_fails,
        1 if horde.queens == 1 => queen_fails,
        1 if horde.knights == 1 => knight_fails,
        // A rook mates against two pawns, or two of pawn, rook and knight.
        1 if horde.rooks == 1 => {
            let kinds = [king.pawns, king.rooks, king.knights].iter().filter(|n| **n > 0).count();
            !(king.pawns >= 2 || kinds >= 2)
        }
        // A bishop mates when the king has two blockers, pawns or bishops on squares of the
        // other colour.
        1 => king.pawns + opposite < 2,
        2 | 3 if horde.pawns + horde.queens > 0 => false,
        // A rook and a bishop fail only against a king with nothing but bishops of the
        // bishop's square colour.
        2 if horde.rooks == 1 && horde.bishops() == 1 => king.all - same == 1,
        2 | 3 if horde.rooks > 0 => false,
        2 if horde.knights == 2 => king.pawns + king.bishops() + king.knights == 0,
        2 if horde.light > 0 && horde.dark > 0 => {
            king.pawns == 0 && king.bishops() == 0 && (king.knights == 0 || king.rooks + king.queens == 0)
        }
        2 if horde.knights == 1 => king.pawns == 0 && opposite == 0 && king.all - same < 3,
        // Bishops on squares of one colour need two blockers on squares of the other.
        2 => king.pawns + opposite + king.knights < 2,
        // Three minor pieces mate, save a knight with bishops of one square colour against a
        // bare king.
        3 => horde.knights == 1 && (horde.light == 0 || horde.dark == 0) && king.all == 1,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::fen;
    use super::*;

    /// Horde positions at the edges of the judgement, and whether White, then Black, can no
    /// longer win.
    const HORDE: [(&str, bool, bool); 32] = [
        ("rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1", false, false),
        ("7k/8/8/8/8/8/8/8 b - - 0 1", true, false),
        // A lone queen.
        ("7k/8/8/8/3n4/8/8/1Q6 b - - 0 1", true, false),
        ("7k/8/8/8/3r4/8/8/1Q6 b - - 0 1", false, false),
        // A lone pawn, to become a queen or a knight.
        ("8/2k5/3q4/8/8/8/1P6/8 b - - 0 1", true, false),
        ("k7/ppP5/brp5/8/8/8/8/8 b - - 0 1", false, false),
        // A lone rook.
        ("7k/8/8/2r1r3/8/8/8/R7 b - - 0 1", true, false),
        ("7k/8/8/2r1n3/8/8/8/R7 b - - 0 1", false, false),
        // A lone bishop, against a pawn and a bishop of either square colour.
        ("7k/8/8/4b3/3p4/8/8/2B5 b - - 0 1", true, false),
        ("7k/8/4b3/8/3p4/8/8/2B5 b - - 0 1", false, false),
        // A lone knight: enough pieces, but two bishops of one square colour among them.
        ("7k/8/8/8/3rn3/8/8/N7 b - - 0 1", true, false),
        ("3N4/b7/4r2b/8/8/8/8/2k5 w - - 0 1", true, false),
        ("3N4/b7/4r2b/8/8/4p3/8/2k5 w - - 0 1", false, false),
        // A rook and a bishop, against a bishop of either square colour.
        ("7k/8/8/4b3/8/8/8/R1B5 b - - 0 1", true, false),
        ("7k/8/4b3/8/8/8/8/R1B5 b - - 0 1", false, false),
        // Two knights.
        ("7k/8/8/3qr3/8/8/8/NN6 b - - 0 1", true, false),
        ("7k/8/8/3p4/8/8/8/NN6 b - - 0 1", false, false),
        // A bishop of each square colour.
        ("7k/8/8/3n4/8/8/8/2B2B2 b - - 0 1", true, false),
        ("7k/8/8/3nr3/8/8/8/2B2B2 b - - 0 1", false, false),
        // A knight and a bishop.
        ("7k/8/8/4b3/8/8/8/N1B5 b - - 0 1", true, false),
        ("7k/8/8/3rq3/8/8/8/N1B5 b - - 0 1", false, false),
        // Two bishops of one square colour.
        ("7k/8/8/3pb3/8/8/8/2B1B3 b - - 0 1", true, false),
        ("7k/8/8/3pn3/8/8/8/2B1B3 b - - 0 1", false, false),
        // Three minor pieces.
        ("7k/8/8/8/8/8/8/N1B1B3 b - - 0 1", true, false),
        ("7k/8/8/3p4/8/8/8/N1B1B3 b - - 0 1", false, false),
        ("7k/8/8/8/8/8/8/NNB5 b - - 0 1", false, false),
        ("7k/8/8/8/8/8/8/N1BB4 b - - 0 1", false, false),
        // Four pieces, a third bishop of a square colour not counted.
        ("7k/8/8/8/8/8/8/NNB1B3 b - - 0 1", false, false),
        ("7k/8/8/8/8/8/8/BBBB4 b - - 0 1", false, false),
        ("7k/8/8/8/8/8/8/B1B1B1B1 b - - 0 1", true, false),
        // Black's horde against White's king.
        ("7K/8/8/8/3N4/8/8/1q6 w - - 0 1", false, true),
        ("7K/8/8/8/3R4/8/8/1q6 w - - 0 1", false, false),
    ];

    #[test]
    fn horde_judgement() {
        for (text, white, black) in HORDE {
            let (board, _) = fen::read(text, false).unwrap();
            assert_eq!([horde(&board, Color::White), horde(&board, Color::Black)], [white, black], "{text}");
        }
    }
}
