//! Attack tables of 8x8 chess on plain `u64` bitboards (bit 0 is a1, bit 63 is h8).
//!
//! Leapers read precomputed tables. Sliders use the hyperbola quintessence on files and
//! diagonals (whose masks hold one square a rank, so a byte swap mirrors them) and a table of
//! first-rank attacks for ranks. Everything is computed at compile time.

use crate::variant::Role;

/// A bitboard: bit `i` is square `i` (a1 = 0, h1 = 7, a8 = 56).
pub type Bitboard = u64;

/// The a-file.
pub const FILE_A: Bitboard = 0x0101_0101_0101_0101;
/// The first rank.
pub const RANK_1: Bitboard = 0xFF;

const fn file_of(square: usize) -> i32 {
    (square % 8) as i32
}

const fn rank_of(square: usize) -> i32 {
    (square / 8) as i32
}

const fn leaper_table(steps: &[(i32, i32)]) -> [Bitboard; 64] {
    let mut table = [0; 64];
    let mut square = 0;
    while square < 64 {
        let mut i = 0;
        while i < steps.len() {
            let file = file_of(square) + steps[i].0;
            let rank = rank_of(square) + steps[i].1;
            if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
                table[square] |= 1 << (rank * 8 + file);
            }
            i += 1;
        }
        square += 1;
    }
    table
}

static KNIGHT: [Bitboard; 64] = leaper_table(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
static KING: [Bitboard; 64] = leaper_table(&[(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]);
static WHITE_PAWN: [Bitboard; 64] = leaper_table(&[(-1, 1), (1, 1)]);
static BLACK_PAWN: [Bitboard; 64] = leaper_table(&[(-1, -1), (1, -1)]);

/// The squares a knight on `square` attacks.
#[inline]
#[must_use]
pub fn knight(square: usize) -> Bitboard {
    KNIGHT[square]
}

/// The squares a king on `square` attacks.
#[inline]
#[must_use]
pub fn king(square: usize) -> Bitboard {
    KING[square]
}

/// The squares a pawn of a side (0 White, 1 Black) on `square` attacks.
#[inline]
#[must_use]
pub fn pawn(side: usize, square: usize) -> Bitboard {
    if side == 0 { WHITE_PAWN[square] } else { BLACK_PAWN[square] }
}

/// The line masks of each square, the square itself left out.
struct Lines {
    file: [Bitboard; 64],
    diagonal: [Bitboard; 64],
    anti_diagonal: [Bitboard; 64],
    /// The file and rank through each square, the square left out.
    orthogonal: [Bitboard; 64],
    /// The two diagonals through each square, the square left out.
    diagonals: [Bitboard; 64],
}

const fn line_masks() -> Lines {
    let mut lines =
        Lines { file: [0; 64], diagonal: [0; 64], anti_diagonal: [0; 64], orthogonal: [0; 64], diagonals: [0; 64] };
    let mut square = 0;
    while square < 64 {
        let mut other = 0;
        while other < 64 {
            if other != square {
                let df = file_of(other) - file_of(square);
                let dr = rank_of(other) - rank_of(square);
                if df == 0 {
                    lines.file[square] |= 1 << other;
                }
                if df == 0 || dr == 0 {
                    lines.orthogonal[square] |= 1 << other;
                }
                if df == dr {
                    lines.diagonal[square] |= 1 << other;
                }
                if df == -dr {
                    lines.anti_diagonal[square] |= 1 << other;
                }
                if df == dr || df == -dr {
                    lines.diagonals[square] |= 1 << other;
                }
            }
            other += 1;
        }
        square += 1;
    }
    lines
}

static LINES: Lines = line_masks();

/// The attacks along a line of one square per rank: `(o - 2s) ^ mirror(mirror(o) - 2 mirror(s))`,
/// where a byte swap mirrors the ranks.
#[inline]
fn line_attacks(occupied: Bitboard, square: usize, mask: Bitboard) -> Bitboard {
    let slider = 1u64 << square;
    let blockers = occupied & mask;
    let forward = blockers.wrapping_sub(slider.wrapping_mul(2));
    let backward = blockers.swap_bytes().wrapping_sub(slider.swap_bytes().wrapping_mul(2)).swap_bytes();
    (forward ^ backward) & mask
}

/// First-rank attacks, by the slider's file and the occupancy of the six inner files.
const fn rank_table() -> [[u8; 64]; 8] {
    let mut table = [[0u8; 64]; 8];
    let mut file = 0;
    while file < 8 {
        let mut inner = 0;
        while inner < 64 {
            let occupied = (inner << 1) as u8;
            let mut attacks = 0u8;
            let mut f = file as i32 + 1;
            while f < 8 {
                attacks |= 1 << f;
                if occupied & (1 << f) != 0 {
                    break;
                }
                f += 1;
            }
            f = file as i32 - 1;
            while f >= 0 {
                attacks |= 1 << f;
                if occupied & (1 << f) != 0 {
                    break;
                }
                f -= 1;
            }
            table[file][inner] = attacks;
            inner += 1;
        }
        file += 1;
    }
    table
}

static RANK_ATTACKS: [[u8; 64]; 8] = rank_table();

#[inline]
fn rank_attacks(occupied: Bitboard, square: usize) -> Bitboard {
    let shift = square & !7;
    let inner = ((occupied >> shift) >> 1) & 63;
    u64::from(RANK_ATTACKS[square & 7][inner as usize]) << shift
}

/// The squares a bishop on `square` attacks, given the occupied squares.
#[inline]
#[must_use]
pub fn bishop(square: usize, occupied: Bitboard) -> Bitboard {
    line_attacks(occupied, square, LINES.diagonal[square]) | line_attacks(occupied, square, LINES.anti_diagonal[square])
}

/// The squares a rook on `square` attacks, given the occupied squares.
#[inline]
#[must_use]
pub fn rook(square: usize, occupied: Bitboard) -> Bitboard {
    line_attacks(occupied, square, LINES.file[square]) | rank_attacks(occupied, square)
}

/// The squares a rook on `square` would attack on an empty board.
#[inline]
#[must_use]
pub fn rook_rays(square: usize) -> Bitboard {
    LINES.orthogonal[square]
}

/// The squares a bishop on `square` would attack on an empty board.
#[inline]
#[must_use]
pub fn bishop_rays(square: usize) -> Bitboard {
    LINES.diagonals[square]
}

/// The squares a queen on `square` attacks, given the occupied squares.
#[inline]
#[must_use]
pub fn queen(square: usize, occupied: Bitboard) -> Bitboard {
    bishop(square, occupied) | rook(square, occupied)
}

/// The squares each role's piece on each square reaches on an empty board (none for a pawn,
/// whose moves depend on its side and on what it takes).
static EMPTY_BOARD_REACH: [[Bitboard; 64]; 6] = {
    let lines = line_masks();
    let knight = leaper_table(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
    let king = leaper_table(&[(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]);
    let mut reach = [[0; 64]; 6];
    let mut square = 0;
    while square < 64 {
        let bishop = lines.diagonal[square] | lines.anti_diagonal[square];
        let rook = (lines.file[square] | (RANK_1 << (square & !7))) & !(1u64 << square);
        reach[Role::Knight as usize][square] = knight[square];
        reach[Role::Bishop as usize][square] = bishop;
        reach[Role::Rook as usize][square] = rook;
        reach[Role::Queen as usize][square] = bishop | rook;
        reach[Role::King as usize][square] = king[square];
        square += 1;
    }
    reach
};

/// The squares a piece of `role` (other than a pawn) on `square` reaches on an empty board:
/// one that goes to another square on it reaches it when [`between`] them is empty.
#[inline]
#[must_use]
pub fn empty_board_reach(role: Role, square: usize) -> Bitboard {
    EMPTY_BOARD_REACH[role as usize][square]
}

/// The full line through two squares (empty if they share no rank, file or diagonal).
struct Rays {
    line: [[Bitboard; 64]; 64],
    between: [[Bitboard; 64]; 64],
}

const fn rays() -> Rays {
    let mut rays = Rays { line: [[0; 64]; 64], between: [[0; 64]; 64] };
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let df = file_of(b) - file_of(a);
            let dr = rank_of(b) - rank_of(a);
            let aligned = a != b && (df == 0 || dr == 0 || df == dr || df == -dr);
            if aligned {
                let step_f = if df > 0 {
                    1
                } else if df < 0 {
                    -1
                } else {
                    0
                };
                let step_r = if dr > 0 {
                    1
                } else if dr < 0 {
                    -1
                } else {
                    0
                };
                // The whole line, both ways from a.
                let mut f = file_of(a);
                let mut r = rank_of(a);
                while f >= 0 && f < 8 && r >= 0 && r < 8 {
                    rays.line[a][b] |= 1 << (r * 8 + f);
                    f += step_f;
                    r += step_r;
                }
                f = file_of(a) - step_f;
                r = rank_of(a) - step_r;
                while f >= 0 && f < 8 && r >= 0 && r < 8 {
                    rays.line[a][b] |= 1 << (r * 8 + f);
                    f -= step_f;
                    r -= step_r;
                }
                // The squares strictly between.
                f = file_of(a) + step_f;
                r = rank_of(a) + step_r;
                while (r * 8 + f) as usize != b {
                    rays.between[a][b] |= 1 << (r * 8 + f);
                    f += step_f;
                    r += step_r;
                }
            }
            b += 1;
        }
        a += 1;
    }
    rays
}

static RAYS: Rays = rays();

/// The whole rank, file or diagonal through two squares, or nothing.
#[inline]
#[must_use]
pub fn line(a: usize, b: usize) -> Bitboard {
    RAYS.line[a][b]
}

/// The squares strictly between two squares on a line, or nothing.
#[inline]
#[must_use]
pub fn between(a: usize, b: usize) -> Bitboard {
    RAYS.between[a][b]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow_slider(square: usize, occupied: Bitboard, directions: &[(i32, i32)]) -> Bitboard {
        let mut attacks = 0;
        for &(df, dr) in directions {
            let (mut f, mut r) = (file_of(square) + df, rank_of(square) + dr);
            while (0..8).contains(&f) && (0..8).contains(&r) {
                let bit = 1u64 << (r * 8 + f);
                attacks |= bit;
                if occupied & bit != 0 {
                    break;
                }
                f += df;
                r += dr;
            }
        }
        attacks
    }

    #[test]
    fn sliders_agree_with_ray_walking() {
        let mut words = crate::test_random::random_words(0x2545_F491_4F6C_DD1D);
        for _ in 0..20_000 {
            let seed = words();
            let occupied = seed & (seed >> 3);
            let square = (seed >> 58) as usize;
            let diagonal = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
            let straight = [(1, 0), (-1, 0), (0, 1), (0, -1)];
            assert_eq!(bishop(square, occupied), slow_slider(square, occupied, &diagonal));
            assert_eq!(rook(square, occupied), slow_slider(square, occupied, &straight));
        }
    }

    #[test]
    fn leapers_and_rays() {
        assert_eq!(knight(0), (1 << 10) | (1 << 17));
        assert_eq!(king(63).count_ones(), 3);
        assert_eq!(pawn(0, 8), 1 << 17);
        assert_eq!(pawn(1, 63), 1 << 54);
        assert_eq!(between(0, 63).count_ones(), 6);
        assert_eq!(line(0, 9), line(63, 54));
        assert_eq!(between(0, 17), 0);
        // A slider's rays are what it attacks on an empty board.
        for square in 0..64 {
            assert_eq!(rook_rays(square), rook(square, 0), "{square}");
            assert_eq!(bishop_rays(square), bishop(square, 0), "{square}");
        }
    }
}
