//! [`Board::write_fen`]: a board's FEN, written straight from its bitboards for standard rules
//! (the common case, once a ply in `cqlq positions`), through the general writer otherwise.

use super::board::{Board, Rules};
use crate::notation::position_string;
use crate::variant::{Color, Role};

impl Board {
    /// Appends the board's FEN (for Crazyhouse with its hands, for Chess960 with X-FEN
    /// castling); the en passant square only where a pawn can take there, as shakmaty's
    /// `EnPassantMode::Legal` writes it.
    pub fn write_fen(&self, out: &mut String) {
        if Rules::of(self.variant()) != Rules::Standard {
            out.push_str(&position_string::write(&self.to_setup()));
            return;
        }
        for rank in (0..8u8).rev() {
            let mut empty = 0u8;
            for file in 0..8u8 {
                let square = rank * 8 + file;
                match self.role_at(square) {
                    None => empty += 1,
                    Some(role) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        let letter = letter(role);
                        let white = self.side(Color::White) & (1u64 << square) != 0;
                        out.push(if white { letter.to_ascii_uppercase() } else { letter });
                    }
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(if self.turn() == Color::White { 'w' } else { 'b' });
        out.push(' ');
        let rights = self.castling_rights();
        let before = out.len();
        for (square, sign) in [(7u8, 'K'), (0, 'Q'), (63, 'k'), (56, 'q')] {
            if rights & (1u64 << square) != 0 {
                out.push(sign);
            }
        }
        if out.len() == before {
            out.push('-');
        }
        out.push(' ');
        match self.legal_en_passant() {
            Some(square) => {
                out.push(char::from(b'a' + square % 8));
                out.push(char::from(b'1' + square / 8));
            }
            None => out.push('-'),
        }
        out.push_str(&format!(" {} {}", self.halfmoves(), self.fullmoves()));
    }
}

/// The lower-case FEN letter of a role.
fn letter(role: Role) -> char {
    match role {
        Role::Pawn => 'p',
        Role::Knight => 'n',
        Role::Bishop => 'b',
        Role::Rook => 'r',
        Role::Queen => 'q',
        Role::King => 'k',
    }
}

#[cfg(test)]
mod tests {
    use crate::Variant;
    use crate::notation::MoveReader;
    use crate::notation::position_string;
    use crate::rules::classical::Board;
    use crate::rules::classical::SAN_MOVES;

    #[test]
    fn the_fast_fen_is_the_general_one() {
        for (variant, game) in [
            ("Standard", "e4 d5 exd5 c5 dxc6 Nf6 cxb7 Bd7 bxa8=Q e6 Nf3 Be7 Bb5 O-O O-O h5"),
            ("Chess960", "e4 d5 exd5 c5 dxc6 Nf6 Nf3 e5"),
            ("Crazyhouse", "e4 d5 exd5 Qxd5 Nc3 Qa5 P@d4"),
            ("X-Decor", "d4 e5 dxe5 f5 exf6 Kf7 f4 Kg6"),
        ] {
            let mut board = Board::initial(Variant::by_name(variant).unwrap());
            for san in std::iter::once("").chain(game.split(' ')) {
                if !san.is_empty() {
                    SAN_MOVES.play(&mut board, san.as_bytes()).unwrap_or_else(|e| panic!("{variant} {san}: {e}"));
                }
                let mut fast = String::new();
                board.write_fen(&mut fast);
                assert_eq!(fast, position_string::write(&board.to_setup()), "{variant} after {san}");
            }
        }
    }
}
