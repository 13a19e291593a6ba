//! A move of the classical family in 32 bits, kept with a game found so that its writers play
//! it again without reading its SAN.

use super::board::{Move, ROLES};
use crate::variant::Role;

fn role_code(role: Option<Role>) -> u32 {
    role.map_or(0, |role| role as u32 + 1)
}

/// The role of each 3-bit code: 0 none, 1 to 6 the roles (7 is no code, told apart first).
const ROLE_OF_CODE: [Option<Role>; 8] = {
    let mut table = [None; 8];
    let mut role = 0;
    while role < ROLES.len() {
        table[role + 1] = Some(ROLES[role]);
        role += 1;
    }
    table
};

fn role_of(code: u32) -> Option<Role> {
    ROLE_OF_CODE[(code & 7) as usize]
}

/// Whether one of the three role fields of a code holds 7, which codes no role.
fn has_no_role(code: u32) -> bool {
    let roles = code >> 15;
    roles & (roles >> 1) & (roles >> 2) & 0b001_001_001 != 0
}

impl Move {
    /// The move in 32 bits: its shape, two squares and three roles.
    #[must_use]
    pub fn code(self) -> u32 {
        let pack = |shape: u32, a: u8, b: u8, role: Option<Role>, capture: Option<Role>, promotion: Option<Role>| {
            shape
                | u32::from(a) << 3
                | u32::from(b) << 9
                | role_code(role) << 15
                | role_code(capture) << 18
                | role_code(promotion) << 21
        };
        match self {
            Move::Normal { role, from, to, capture, promotion } => pack(0, from, to, Some(role), capture, promotion),
            Move::EnPassant { from, to } => pack(1, from, to, None, None, None),
            Move::Castle { king, rook } => pack(2, king, rook, None, None, None),
            Move::Drop { role, to } => pack(3, 0, to, Some(role), None, None),
            Move::Null => pack(4, 0, 0, None, None, None),
        }
    }

    /// The move of a [`Move::code`]; `None` for a number that is no code.
    #[must_use]
    #[inline]
    pub fn from_code(code: u32) -> Option<Move> {
        let (a, b) = ((code >> 3 & 63) as u8, (code >> 9 & 63) as u8);
        if has_no_role(code) {
            return None;
        }
        let (role, capture, promotion) = (role_of(code >> 15), role_of(code >> 18), role_of(code >> 21));
        Some(match code & 7 {
            0 => Move::Normal { role: role?, from: a, to: b, capture, promotion },
            1 => Move::EnPassant { from: a, to: b },
            2 => Move::Castle { king: a, rook: b },
            3 => Move::Drop { role: role?, to: b },
            4 => Move::Null,
            _ => return None,
        })
    }
}

/// Plays a kept move with `play` (a rule set's own): `None`, nothing played, for a number that
/// is no code.
pub(crate) fn play_kept(kept: u32, play: impl FnOnce(Move)) -> Option<Move> {
    let played = Move::from_code(kept)?;
    play(played);
    Some(played)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_comes_back() {
        let moves = [
            Move::Normal { role: Role::Pawn, from: 52, to: 60, capture: Some(Role::Rook), promotion: Some(Role::King) },
            Move::Normal { role: Role::Knight, from: 6, to: 21, capture: None, promotion: None },
            Move::EnPassant { from: 36, to: 43 },
            Move::Castle { king: 4, rook: 7 },
            Move::Drop { role: Role::Queen, to: 63 },
            Move::Null,
        ];
        for m in moves {
            assert_eq!(Move::from_code(m.code()), Some(m));
        }
        assert_eq!(Move::from_code(7), None);
        // A role field of 7 codes no role, whichever of the three it is.
        for field in [15, 18, 21] {
            assert_eq!(Move::from_code(moves[1].code() | 7 << field), None);
        }
    }
}
