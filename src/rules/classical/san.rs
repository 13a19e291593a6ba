//! Standard Algebraic Notation: reading a move token, and finding the move it names.
//!
//! Reading is tolerant where real files are sloppy: `x` may be missing or superfluous, `+` and
//! `#` need not be true, castling may be written with zeros, suffixes such as `!?` are ignored,
//! long algebraic and UCI forms (`e2e4`, `Ng1-f3`, `e7e8q`) and drops (`N@f3`, `@e4`) are read,
//! and `--` or `Z0` is a null move.
//!
//! ```
//! use cqlq::rules::classical::{Board, San};
//! use cqlq::Variant;
//!
//! let mut board = Board::initial(Variant::standard());
//! for token in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O"] {
//!     board.play_san(&San::from_ascii(token.as_bytes())?)?;
//! }
//! assert_eq!(board.fullmoves(), 5);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use super::attacks;
use super::board::{Board, Move, bits};
use crate::variant::{Color, Role};

/// A move as SAN writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum San {
    /// A piece or pawn move: the role, the disambiguating file and rank, the destination and the
    /// promotion.
    Normal {
        /// The role (a pawn when no letter is written).
        role: Role,
        /// The file it comes from, if written.
        file: Option<u8>,
        /// The rank it comes from, if written.
        rank: Option<u8>,
        /// Whether `x` was written.
        capture: bool,
        /// The destination square (0 is a1).
        to: u8,
        /// The role promoted to.
        promotion: Option<Role>,
    },
    /// `O-O` (king side) or `O-O-O`.
    Castle {
        /// Castling on the king's side.
        king_side: bool,
    },
    /// A drop, `N@f3`.
    Put {
        /// The role dropped.
        role: Role,
        /// Where.
        to: u8,
    },
    /// `--`: a null move.
    Null,
}

/// A token that is no move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseSanError;

impl fmt::Display for ParseSanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a move in standard algebraic notation")
    }
}

impl std::error::Error for ParseSanError {}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SanError {
    /// No legal move fits.
    Illegal,
    /// Several legal moves fit.
    Ambiguous,
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SanError::Illegal => "illegal move",
            SanError::Ambiguous => "ambiguous move",
        })
    }
}

impl std::error::Error for SanError {}

/// The role each byte names as the piece letter of a SAN move, looked up rather than matched:
/// the letter of the commonest moves is read without a branch on it.
static ROLE_LETTERS: [Option<Role>; 256] = {
    let mut roles = [None; 256];
    roles[b'N' as usize] = Some(Role::Knight);
    roles[b'B' as usize] = Some(Role::Bishop);
    roles[b'R' as usize] = Some(Role::Rook);
    roles[b'Q' as usize] = Some(Role::Queen);
    roles[b'K' as usize] = Some(Role::King);
    roles[b'P' as usize] = Some(Role::Pawn);
    roles
};

#[inline]
fn role_of_letter(letter: u8) -> Option<Role> {
    ROLE_LETTERS[usize::from(letter)]
}

fn promotion_of_letter(letter: u8) -> Option<Role> {
    match letter.to_ascii_uppercase() {
        // `=K`: Antichess promotes to a king; the standard rules refuse it.
        b'N' | b'B' | b'R' | b'Q' | b'K' => role_of_letter(letter.to_ascii_uppercase()),
        _ => None,
    }
}

fn file(byte: u8) -> Option<u8> {
    (b'a'..=b'h').contains(&byte).then(|| byte - b'a')
}

fn rank(byte: u8) -> Option<u8> {
    (b'1'..=b'8').contains(&byte).then(|| byte - b'1')
}

impl San {
    /// Reads a move token.
    pub fn from_ascii(token: &[u8]) -> Result<San, ParseSanError> {
        let token = without_signs(token);
        match simple(token) {
            Some(san) => Ok(san),
            None => San::from_ascii_general(token),
        }
    }

    /// Whether a token is a null move (`--`, `Z0`, `0000`, `@@@@`, perhaps with signs after
    /// it): what [`San::from_ascii`] reads as [`San::Null`], told without reading the token.
    #[must_use]
    pub fn is_null_ascii(token: &[u8]) -> bool {
        NULL_TOKENS.contains(&without_signs(token))
    }

    /// Reads a move token without annotations, of any shape.
    fn from_ascii_general(token: &[u8]) -> Result<San, ParseSanError> {
        match token {
            _ if NULL_TOKENS.contains(&token) => return Ok(San::Null),
            b"O-O" | b"0-0" | b"OO" | b"00" => return Ok(San::Castle { king_side: true }),
            b"O-O-O" | b"0-0-0" | b"OOO" | b"000" => return Ok(San::Castle { king_side: false }),
            _ => {}
        }
        if let Some(at) = token.iter().position(|&b| b == b'@') {
            let role = match &token[..at] {
                [] => Role::Pawn,
                [letter] => role_of_letter(*letter).filter(|r| *r != Role::King).ok_or(ParseSanError)?,
                _ => return Err(ParseSanError),
            };
            let [f, r] = token[at + 1..] else { return Err(ParseSanError) };
            return Ok(San::Put { role, to: square(f, r)? });
        }
        // A promotion at the end: `=Q`, `Q`, or (UCI) `q` after the destination.
        let (body, promotion) = match token {
            [rest @ .., b'=', letter] => (rest, Some(promotion_of_letter(*letter).ok_or(ParseSanError)?)),
            [rest @ .., r, letter] if rank(*r).is_some() && promotion_of_letter(*letter).is_some() => {
                (&token[..rest.len() + 1], promotion_of_letter(*letter))
            }
            _ => (token, None),
        };
        let (role, body) = match body.split_first() {
            Some((&letter, rest)) if letter.is_ascii_uppercase() => {
                (role_of_letter(letter).ok_or(ParseSanError)?, rest)
            }
            _ => (Role::Pawn, body),
        };
        let [disambiguation @ .., f, r] = body else { return Err(ParseSanError) };
        if promotion.is_some() && role != Role::Pawn {
            return Err(ParseSanError);
        }
        let to = square(*f, *r)?;
        let (disambiguation, capture) = match disambiguation {
            [rest @ .., b'x' | b':' | b'-'] => (rest, disambiguation.last() != Some(&b'-')),
            _ => (disambiguation, false),
        };
        let (from_file, from_rank) = match disambiguation {
            [] => (None, None),
            [b] if file(*b).is_some() => (file(*b), None),
            [b] if rank(*b).is_some() => (None, rank(*b)),
            [f, r] if file(*f).is_some() && rank(*r).is_some() => (file(*f), rank(*r)),
            _ => return Err(ParseSanError),
        };
        Ok(San::Normal { role, file: from_file, rank: from_rank, capture, to, promotion })
    }
}

/// The ways of writing a null move.
const NULL_TOKENS: [&[u8]; 4] = [b"--", b"Z0", b"0000", b"@@@@"];

/// A move token without the check signs and annotations after it, which carry no move.
fn without_signs(token: &[u8]) -> &[u8] {
    let end = token.iter().rposition(|b| !matches!(b, b'+' | b'#' | b'!' | b'?')).map_or(0, |i| i + 1);
    &token[..end]
}

/// The commonest shapes of move, read fast: `e4`, `Nf3`, `exd5`, `Nxe5`.
#[inline]
fn simple(token: &[u8]) -> Option<San> {
    let (role, file, capture, f, r) = match *token {
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => (Role::Pawn, None, false, f, r),
        [letter, f @ b'a'..=b'h', r @ b'1'..=b'8'] => (role_of_letter(letter)?, None, false, f, r),
        [from @ b'a'..=b'h', b'x', f @ b'a'..=b'h', r @ b'1'..=b'8'] => (Role::Pawn, Some(from - b'a'), true, f, r),
        [letter, b'x', f @ b'a'..=b'h', r @ b'1'..=b'8'] => (role_of_letter(letter)?, None, true, f, r),
        _ => return None,
    };
    let to = (r - b'1') * 8 + (f - b'a');
    Some(San::Normal { role, file, rank: None, capture, to, promotion: None })
}

/// The SAN of a move without its check sign; `rivals(role, from, to)` gives the squares of the
/// other pieces of the mover's kind that may legally go to `to`, which say how a piece move
/// names its square of departure.
pub(super) fn write_body(m: Move, rivals: impl FnOnce(Role, u8, u8) -> u64) -> SanText {
    let mut text = SanText::new();
    match m {
        Move::Null => {
            text.push(b'-');
            text.push(b'-');
        }
        Move::Castle { king, rook } => {
            let written: &[u8] = if rook > king { b"O-O" } else { b"O-O-O" };
            written.iter().for_each(|&byte| text.push(byte));
        }
        Move::Drop { role, to } => {
            if let Some(letter) = role_letter(role) {
                text.push(letter);
            }
            text.push(b'@');
            text.push_square(to);
        }
        Move::EnPassant { from, to } => {
            text.push(file_letter(from));
            text.push(b'x');
            text.push_square(to);
        }
        Move::Normal { role: Role::Pawn, from, to, capture, promotion } => {
            if capture.is_some() {
                text.push(file_letter(from));
                text.push(b'x');
            }
            text.push_square(to);
            if let Some(promotion) = promotion {
                text.push(b'=');
                text.push(role_letter(promotion).unwrap_or(b'Q'));
            }
        }
        Move::Normal { role, from, to, capture, .. } => {
            if let Some(letter) = role_letter(role) {
                text.push(letter);
            }
            let rivals = rivals(role, from, to);
            if rivals != 0 {
                let same_file = rivals & (attacks::FILE_A << (from % 8)) != 0;
                let same_rank = rivals & (attacks::RANK_1 << (8 * (from / 8))) != 0;
                if !same_file {
                    text.push(file_letter(from));
                } else if !same_rank {
                    text.push(rank_digit(from));
                } else {
                    text.push_square(from);
                }
            }
            if capture.is_some() {
                text.push(b'x');
            }
            text.push_square(to);
        }
    }
    text
}

pub(super) fn role_letter(role: Role) -> Option<u8> {
    match role {
        Role::Pawn => None,
        Role::Knight => Some(b'N'),
        Role::Bishop => Some(b'B'),
        Role::Rook => Some(b'R'),
        Role::Queen => Some(b'Q'),
        Role::King => Some(b'K'),
    }
}

pub(super) fn file_letter(square: u8) -> u8 {
    b'a' + square % 8
}

pub(super) fn rank_digit(square: u8) -> u8 {
    b'1' + square / 8
}

/// A move written in SAN, kept inline: the longest (`Qa1xb2+`, `exd8=Q#`) has 7 bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SanText {
    bytes: [u8; SanText::CAPACITY],
    len: u8,
}

impl SanText {
    /// The bytes of a word: the text is set as one.
    const CAPACITY: usize = std::mem::size_of::<u64>();

    pub(super) fn new() -> SanText {
        SanText { bytes: [0; SanText::CAPACITY], len: 0 }
    }

    pub(super) fn push(&mut self, byte: u8) {
        // SAN writes at most 7 bytes; a longer text would be a defect, and is cut instead.
        if usize::from(self.len) < SanText::CAPACITY {
            // The bytes are set as one word, not one at a time: a text made by several pushes is
            // built in a register and stored at once, and reading it back does not wait on
            // eight stores of a byte.
            let word = u64::from_le_bytes(self.bytes) | u64::from(byte) << (8 * u32::from(self.len));
            self.bytes = word.to_le_bytes();
            self.len += 1;
        }
    }

    pub(super) fn push_square(&mut self, square: u8) {
        self.push(file_letter(square));
        self.push(rank_digit(square));
    }

    /// Appends the text to `out`: its word is copied whole and the bytes past the text cut
    /// again, one store rather than a copy of a length known only when it runs.
    pub fn append_to(&self, out: &mut Vec<u8>) {
        let end = out.len() + usize::from(self.len);
        out.extend_from_slice(&self.bytes);
        out.truncate(end);
    }

    /// The text's bytes.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// The text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        // Only ASCII letters, digits and signs are pushed.
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }
}

impl std::ops::Deref for SanText {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for SanText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for SanText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

fn square(f: u8, r: u8) -> Result<u8, ParseSanError> {
    Ok(rank(r).ok_or(ParseSanError)? * 8 + file(f).ok_or(ParseSanError)?)
}

impl Board {
    /// Finds the legal move a SAN names and plays it.
    pub fn play_san(&mut self, san: &San) -> Result<Move, SanError> {
        match *san {
            San::Normal { role, file, rank, capture: _, to, promotion } => {
                // Long algebraic and UCI moves (`g1f3`) name the square, not the piece.
                let role = match (role, file, rank) {
                    (Role::Pawn, Some(file), Some(rank)) => {
                        let from = rank * 8 + file;
                        let ours = self.side(self.turn()) & (1u64 << from) != 0;
                        if ours { self.role_at(from).unwrap_or(Role::Pawn) } else { Role::Pawn }
                    }
                    _ => role,
                };
                // Reading refuses a promotion after a piece letter; a square can name a piece too.
                // No standard pawn becomes a king.
                if promotion.is_some() && role != Role::Pawn || promotion == Some(Role::King) {
                    return Err(SanError::Illegal);
                }
                let mut origins = !0u64;
                if let Some(file) = file {
                    origins &= attacks::FILE_A << file;
                }
                if let Some(rank) = rank {
                    origins &= attacks::RANK_1 << (8 * rank);
                }
                let candidates = self.candidates(role, to, promotion.is_some()) & origins;
                // A king moving two files, or onto its own rook, castles (long notation).
                if role == Role::King
                    && let Some(castle) = self.castle_by_destination(self.pieces(self.turn(), Role::King) & origins, to)
                {
                    return self.play_checked(castle).then_some(castle).ok_or(SanError::Illegal);
                }
                self.play_unique(candidates, |board, from| board.normal_move(role, from, to, promotion))
            }
            San::Castle { king_side } => {
                let us = self.turn();
                let king = self.king(us);
                let home = if us == Color::White { attacks::RANK_1 } else { attacks::RANK_1 << 56 };
                let rooks = self.castling_rights() & home & self.pieces(us, Role::Rook);
                let side = bits(rooks).filter(|&rook| (rook as u8 > king) == king_side);
                let rook = if king_side { side.last() } else { side.into_iter().next() };
                let castle = Move::Castle { king, rook: rook.ok_or(SanError::Illegal)? as u8 };
                if self.is_legal(castle) {
                    self.play(castle);
                    Ok(castle)
                } else {
                    Err(SanError::Illegal)
                }
            }
            San::Put { role, to } => {
                let us = self.turn();
                let back_ranks = attacks::RANK_1 | (attacks::RANK_1 << 56);
                if self.in_hand(us, role) == 0
                    || self.occupied() & (1u64 << to) != 0
                    || (role == Role::Pawn && back_ranks & (1u64 << to) != 0)
                {
                    return Err(SanError::Illegal);
                }
                let drop = Move::Drop { role, to };
                self.play_checked(drop).then_some(drop).ok_or(SanError::Illegal)
            }
            San::Null => {
                if self.is_check() {
                    return Err(SanError::Illegal);
                }
                self.play(Move::Null);
                Ok(Move::Null)
            }
        }
    }

    /// Plays the legal move from `from` to `to` (a pawn promoting to `promotion`), as long
    /// notations name moves: a king going two files along its rank, or onto its own rook,
    /// castles; a pawn going onto the en passant square takes en passant. On an error the
    /// board is unchanged.
    pub fn play_from_to(&mut self, from: u8, to: u8, promotion: Option<Role>) -> Result<Move, SanError> {
        let from_bit = 1u64.checked_shl(u32::from(from)).ok_or(SanError::Illegal)?;
        if self.side(self.turn()) & from_bit == 0 {
            return Err(SanError::Illegal);
        }
        let role = self.role_at(from).ok_or(SanError::Illegal)?;
        self.play_piece(role, from, to, promotion)
    }

    /// [`Board::play_from_to`] for the side to move's `role` on `from` (which the caller
    /// knows stands there).
    #[inline(always)]
    pub fn play_piece(&mut self, role: Role, from: u8, to: u8, promotion: Option<Role>) -> Result<Move, SanError> {
        let capture = if to < 64 { self.role_at(to) } else { None };
        self.play_piece_unchecked_capture(role, from, to, capture, promotion)
    }

    /// [`Board::play_piece`] for a record that names what the move takes: the other side's
    /// `capture` on `to`, or nothing (an en passant capture takes nothing there). Where `to`
    /// holds anything else of the other side's, the move is refused.
    #[inline(always)]
    pub fn play_piece_taking(
        &mut self,
        role: Role,
        from: u8,
        to: u8,
        capture: Option<Role>,
        promotion: Option<Role>,
    ) -> Result<Move, SanError> {
        let to_bit = 1u64.checked_shl(u32::from(to)).ok_or(SanError::Illegal)?;
        let them = self.turn().other();
        let holds = match capture {
            None => self.side(them) & to_bit == 0,
            Some(taken) => self.pieces(them, taken) & to_bit != 0,
        };
        if !holds {
            return Err(SanError::Illegal);
        }
        self.play_piece_unchecked_capture(role, from, to, capture, promotion)
    }

    /// [`Board::play_piece`] with `capture`, what stands on `to`, given (the move is refused
    /// anyway where it is one of the side to move's pieces).
    #[inline(always)]
    fn play_piece_unchecked_capture(
        &mut self,
        role: Role,
        from: u8,
        to: u8,
        capture: Option<Role>,
        promotion: Option<Role>,
    ) -> Result<Move, SanError> {
        let from_bit = 1u64.checked_shl(u32::from(from)).ok_or(SanError::Illegal)?;
        if to >= 64 || self.pieces(self.turn(), role) & from_bit == 0 {
            return Err(SanError::Illegal);
        }
        if promotion.is_some() && role != Role::Pawn {
            return Err(SanError::Illegal);
        }
        if role == Role::King
            && let Some(castle) = self.castle_by_destination(from_bit, to)
        {
            return self.play_checked(castle).then_some(castle).ok_or(SanError::Illegal);
        }
        if !self.reaches(role, from, to, promotion.is_some()) {
            return Err(SanError::Illegal);
        }
        let m = self.normal_move_taking(role, from, to, capture, promotion);
        if self.play_checked(m) { Ok(m) } else { Err(SanError::Illegal) }
    }

    /// Whether the side to move's `role` on `from` may go to `to` as pieces move, before
    /// checks: looked at from `from`, with the tables of lines between squares (a long
    /// notation names both squares, so nothing has to be searched for).
    #[inline(always)]
    fn reaches(&self, role: Role, from: u8, to: u8, promotes: bool) -> bool {
        let us = self.turn();
        let (f, t) = (usize::from(from), usize::from(to));
        let to_bit = 1u64 << to;
        if self.side(us) & to_bit != 0 {
            return false;
        }
        if role != Role::Pawn {
            // Leapers have nothing between them and where they go.
            return attacks::empty_board_reach(role, f) & to_bit != 0 && attacks::between(f, t) & self.occupied() == 0;
        }
        let last_rank = if us == Color::White { attacks::RANK_1 << 56 } else { attacks::RANK_1 };
        if (last_rank & to_bit != 0) != promotes {
            return false;
        }
        let takes = self.side(us.other()) & to_bit != 0 || self.en_passant_target() == Some(to);
        if takes {
            return attacks::pawn(us.index(), f) & to_bit != 0;
        }
        let (step, home) = if us == Color::White { (8i16, 1) } else { (-8, 6) };
        let distance = i16::from(to) - i16::from(from);
        let clear = attacks::between(f, t) & self.occupied() == 0;
        self.occupied() & to_bit == 0 && (distance == step || distance == 2 * step && from / 8 == home && clear)
    }

    /// The SAN of a legal move, with `+` or `#` when it gives check or mate.
    #[must_use]
    pub fn san(&self, m: Move) -> SanText {
        let mut after = *self;
        after.play(m);
        self.san_to(m, &after)
    }

    /// The SAN of a legal move whose position after it is `after` (as [`Board::san`], without
    /// playing the move again).
    #[must_use]
    pub fn san_to(&self, m: Move, after: &Board) -> SanText {
        let mut text = self.san_body(m);
        after.push_check_sign(m, &mut text, false);
        text
    }

    /// Adds to the SAN of `m`, the move that led here, `+` where it gives check, `#` where it
    /// gives mate (a null move has neither); `goes_on` tells that a legal move follows, so that
    /// a check is no mate.
    pub fn push_check_sign(&self, m: Move, text: &mut SanText, goes_on: bool) {
        if m != Move::Null && self.is_check() {
            text.push(if goes_on || self.has_legal_move() { b'+' } else { b'#' });
        }
    }

    /// The SAN of a legal move without its check sign.
    #[must_use]
    pub fn san_body(&self, m: Move) -> SanText {
        write_body(m, |role, from, to| {
            // Most moves are of a piece with no other of its kind: nothing to look at.
            if self.pieces(self.turn(), role) & !(1u64 << from) == 0 {
                return 0;
            }
            // The other pieces of the kind that could go there, and may.
            let others = self.candidates(role, to, false) & !(1u64 << from);
            bits(others)
                .filter(|&square| self.is_legal(self.normal_move(role, square as u8, to, None)))
                .fold(0u64, |rivals, square| rivals | 1u64 << square)
        })
    }

    /// The squares of the side to move's pieces of `role` that could reach `to`, before pins and
    /// checks are considered.
    #[inline(always)]
    fn candidates(&self, role: Role, to: u8, promotes: bool) -> u64 {
        let us = self.turn();
        let to_bit = 1u64 << to;
        let own = self.pieces(us, role);
        if self.side(us) & to_bit != 0 {
            // Only a king may move onto its own piece: a rook, castling in long notation.
            return if role == Role::King && self.pieces(us, Role::Rook) & to_bit != 0 { own } else { 0 };
        }
        if role != Role::Pawn {
            return self.attacks_from(role, us.other(), to, self.occupied()) & own;
        }
        let last_rank = if us == Color::White { attacks::RANK_1 << 56 } else { attacks::RANK_1 };
        if (last_rank & to_bit != 0) != promotes {
            return 0;
        }
        let takes = self.side(us.other()) & to_bit != 0 || self.en_passant_target() == Some(to);
        if takes {
            return attacks::pawn(us.other().index(), usize::from(to)) & own;
        }
        let behind = |square: u8| {
            if us == Color::White { square.checked_sub(8) } else { square.checked_add(8).filter(|s| *s < 64) }
        };
        let Some(one) = behind(to) else { return 0 };
        if own & (1u64 << one) != 0 {
            return 1u64 << one;
        }
        let start = if us == Color::White { attacks::RANK_1 << 8 } else { attacks::RANK_1 << 48 };
        match behind(one) {
            Some(two) if self.occupied() & (1u64 << one) == 0 && own & start & (1u64 << two) != 0 => 1u64 << two,
            _ => 0,
        }
    }

    #[inline]
    fn normal_move(&self, role: Role, from: u8, to: u8, promotion: Option<Role>) -> Move {
        self.normal_move_taking(role, from, to, self.role_at(to), promotion)
    }

    /// [`Board::normal_move`] with what stands on `to` given.
    #[inline(always)]
    fn normal_move_taking(&self, role: Role, from: u8, to: u8, capture: Option<Role>, promotion: Option<Role>) -> Move {
        if role == Role::Pawn && self.en_passant_target() == Some(to) && self.occupied() & (1u64 << to) == 0 {
            return Move::EnPassant { from, to };
        }
        Move::Normal { role, from, to, capture, promotion }
    }

    /// The castling a king move in long notation stands for: onto its own rook (Chess960 style)
    /// or two files along its rank (standard style).
    fn castle_by_destination(&self, kings: u64, to: u8) -> Option<Move> {
        let king = bits(kings).next()? as u8;
        let us = self.turn();
        let rights = self.castling_rights() & self.pieces(us, Role::Rook);
        if rights & (1u64 << to) != 0 {
            return Some(Move::Castle { king, rook: to });
        }
        if king.abs_diff(to) != 2 || king / 8 != to / 8 {
            return None;
        }
        bits(rights & (attacks::RANK_1 << (8 * (king / 8))))
            .map(|rook| Move::Castle { king, rook: rook as u8 })
            .find(|castle| castle.to() == Some(to))
    }

    /// Plays the only legal move from the candidate squares.
    fn play_unique(&mut self, candidates: u64, make: impl Fn(&Board, u8) -> Move) -> Result<Move, SanError> {
        if candidates.count_ones() == 1 {
            let m = make(self, candidates.trailing_zeros() as u8);
            return if self.play_checked(m) { Ok(m) } else { Err(SanError::Illegal) };
        }
        let mut legal = None;
        for from in bits(candidates) {
            let m = make(self, from as u8);
            if self.is_legal(m) {
                if legal.is_some() {
                    return Err(SanError::Ambiguous);
                }
                legal = Some(m);
            }
        }
        let m = legal.ok_or(SanError::Illegal)?;
        self.play(m);
        Ok(m)
    }

    /// Plays the commonest shapes of move straight from their token, without reading them into
    /// a [`San`] first: a pawn's push (`e4`), a piece's move (`Nf3`), a capture by either
    /// (`exd5`, `Nxe5`), each perhaps with a check sign. `None`, the board unchanged, for
    /// every other token and for one of these whose piece is not the only one that can go
    /// there, or whose move is not legal: [`Board::play_san`] then decides, as it decides
    /// every move.
    #[inline(always)]
    pub(super) fn play_common_san(&mut self, token: &[u8]) -> Option<Move> {
        let body = match token {
            [body @ .., b'+' | b'#'] => body,
            _ => token,
        };
        let (role, file, f, r) = match *body {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => (Role::Pawn, None, f, r),
            [from @ b'a'..=b'h', b'x', f @ b'a'..=b'h', r @ b'1'..=b'8'] => (Role::Pawn, Some(from - b'a'), f, r),
            [letter, f @ b'a'..=b'h', r @ b'1'..=b'8'] | [letter, b'x', f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
                (role_of_letter(letter)?, None, f, r)
            }
            _ => return None,
        };
        let to = (r - b'1') * 8 + (f - b'a');
        if role == Role::King && self.side(self.turn()) & (1u64 << to) != 0 {
            // A king onto its own rook castles, in long notation.
            return None;
        }
        let mut candidates = self.candidates(role, to, false);
        if let Some(file) = file {
            candidates &= attacks::FILE_A << file;
        }
        if !candidates.is_power_of_two() {
            return None;
        }
        let m = self.normal_move(role, candidates.trailing_zeros() as u8, to, None);
        self.play_checked(m).then_some(m)
    }

    /// Plays a pseudo-legal move if it leaves the mover's king safe; otherwise changes nothing.
    #[inline]
    fn play_checked(&mut self, m: Move) -> bool {
        let legal = match m {
            // The commonest moves, checked without going through every kind of move.
            Move::Normal { role, from, to, .. } => self.leaves_king_safe(role, from, to),
            m => self.is_legal(m),
        };
        if legal {
            self.play_inline(m);
        }
        legal
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;
    use crate::rules::classical::MoveList;
    use crate::test_random::random_below;

    /// A token is told a null move exactly when it reads as one: the written forms, and
    /// random tokens over the bytes of null moves, moves and signs.
    #[test]
    fn a_null_move_is_told_as_it_reads() {
        let written: [&[u8]; 12] =
            [b"--", b"--+", b"Z0#", b"0000!?", b"@@@@", b"-", b"---", b"0-0", b"O-O", b"Z", b"", b"+"];
        let mut random = random_below(0x5851_f42d_4c95_7f2d);
        let alphabet = b"-Z0@O+#!?e4N";
        let drawn = (0..20_000).map(|_| (0..random(6)).map(|_| alphabet[random(alphabet.len())]).collect::<Vec<u8>>());
        let mut nulls = 0;
        for token in written.iter().map(|token| token.to_vec()).chain(drawn) {
            let reads_null = San::from_ascii(&token) == Ok(San::Null);
            assert_eq!(San::is_null_ascii(&token), reads_null, "{}", String::from_utf8_lossy(&token));
            nulls += usize::from(reads_null);
        }
        assert!(nulls > 50, "{nulls} null moves");
    }

    /// Whether the side to move is in check is what its checkers say, on random games of
    /// Standard chess, Chess960 and Crazyhouse (drops give checks from anywhere).
    #[test]
    fn a_check_is_told_as_the_checkers_tell_it() {
        let mut random = random_below(0x9e37_79b9_7f4a_7c15);
        let mut checks = 0;
        for variant in ["Standard", "Chess960", "Crazyhouse"] {
            for _game in 0..40 {
                let mut board = Board::initial(Variant::by_name(variant).unwrap());
                for _ply in 0..200 {
                    assert_eq!(board.is_check(), board.checkers() != 0, "{board:?}");
                    checks += usize::from(board.is_check());
                    let mut legal = MoveList::new();
                    board.legal_moves(&mut legal);
                    if legal.is_empty() {
                        break;
                    }
                    board.play(legal.as_slice()[random(legal.len())]);
                }
            }
        }
        assert!(checks > 100, "{checks} checks");
    }

    /// A move named by its squares is played exactly when a legal move goes so: on random
    /// games of Standard chess, Chess960 and Crazyhouse, every square pair and promotion.
    #[test]
    fn moves_named_by_their_squares_are_the_legal_moves() {
        let mut random = random_below(0x2545_f491_4f6c_dd1d);
        let promotions = [None, Some(Role::Queen), Some(Role::Rook), Some(Role::Bishop), Some(Role::Knight)];
        for variant in ["Standard", "Chess960", "Crazyhouse"] {
            for _game in 0..6 {
                let mut board = Board::initial(Variant::by_name(variant).unwrap());
                for _ply in 0..100 {
                    let mut legal = MoveList::new();
                    board.legal_moves(&mut legal);
                    if legal.is_empty() {
                        break;
                    }
                    for from in 0..64u8 {
                        if board.side(board.turn()) & (1u64 << from) == 0 {
                            continue;
                        }
                        for to in 0..64u8 {
                            for promotion in promotions {
                                let named = legal.as_slice().iter().any(|&m| match m {
                                    Move::Castle { king, rook } => {
                                        king == from && promotion.is_none() && (m.to() == Some(to) || rook == to)
                                    }
                                    Move::Normal { from: f, to: t, promotion: p, .. } => {
                                        (f, t, p) == (from, to, promotion)
                                    }
                                    Move::EnPassant { from: f, to: t } => (f, t, None) == (from, to, promotion),
                                    Move::Drop { .. } | Move::Null => false,
                                });
                                let mut after = board;
                                let played = after.play_from_to(from, to, promotion);
                                assert_eq!(played.is_ok(), named, "{variant} {board:?}: {from} to {to} {promotion:?}");
                                // Told what it takes, the same move is played; told wrong, refused.
                                let role = board.role_at(from).expect("the side's piece");
                                let them = board.side(board.turn().other());
                                let taken = board.role_at(to).filter(|_| them & (1u64 << to) != 0);
                                for capture in [None, Some(Role::Pawn), Some(Role::Knight), Some(Role::Queen)] {
                                    let mut told = board;
                                    let result = told.play_piece_taking(role, from, to, capture, promotion);
                                    if capture == taken {
                                        assert_eq!(result.ok(), played.ok(), "{board:?}: {from} to {to}");
                                        assert_eq!(told, after);
                                    } else {
                                        assert!(result.is_err(), "{board:?}: {from} to {to} taking {capture:?}");
                                        assert_eq!(told, board);
                                    }
                                }
                            }
                        }
                    }
                    let m = legal.as_slice()[random(legal.len())];
                    board.play(m);
                }
            }
        }
    }

    /// Every token of the shapes played straight from their text (`e4`, `Nf3`, `exd5`, `Nxe5`,
    /// with and without a check sign) is played as the general reader plays it, or left to it
    /// with the board unchanged: on random games of Standard chess, Chess960 and Crazyhouse.
    #[test]
    fn common_shapes_play_as_the_general_reader_plays_them() {
        let mut random = random_below(0x9e37_79b9_7f4a_7c15);
        let mut tokens = Vec::new();
        for to in 0..64u8 {
            let square = [file_letter(to), rank_digit(to)];
            tokens.push(square.to_vec());
            for lead in b"abcdefghNBRQKP" {
                tokens.push([&[*lead][..], &square].concat());
                tokens.push([&[*lead, b'x'][..], &square].concat());
            }
        }
        let (mut fast, mut left) = (0, 0);
        for variant in ["Standard", "Chess960", "Crazyhouse"] {
            for _game in 0..8 {
                let mut board = Board::initial(Variant::by_name(variant).unwrap());
                for _ply in 0..120 {
                    let mut legal = MoveList::new();
                    board.legal_moves(&mut legal);
                    if legal.is_empty() {
                        break;
                    }
                    for token in &tokens {
                        for sign in [&b""[..], b"+", b"#"] {
                            let token = [token.as_slice(), sign].concat();
                            let mut general = board;
                            let expected = San::from_ascii(&token).map(|san| general.play_san(&san));
                            let mut common = board;
                            match common.play_common_san(&token) {
                                Some(played) => {
                                    fast += 1;
                                    assert_eq!(
                                        expected,
                                        Ok(Ok(played)),
                                        "{board:?} {}",
                                        String::from_utf8_lossy(&token)
                                    );
                                    assert_eq!(common, general);
                                }
                                None => {
                                    left += 1;
                                    assert_eq!(common, board, "{}", String::from_utf8_lossy(&token));
                                }
                            }
                        }
                    }
                    let m = legal.as_slice()[random(legal.len())];
                    board.play(m);
                }
            }
        }
        assert!(fast > 10_000 && left > fast, "{fast} played, {left} left");
    }

    #[test]
    fn the_fast_shapes_read_as_the_general_reader_reads_them() {
        let letters = b"abcdefghxNBRQKPZ0O-=1234589 ";
        let mut tried = 0;
        for length in 2..=4 {
            for index in 0..letters.len().pow(length) {
                let token: Vec<u8> =
                    (0..length).map(|place| letters[index / letters.len().pow(place) % letters.len()]).collect();
                if let Some(fast) = simple(&token) {
                    tried += 1;
                    assert_eq!(Ok(fast), San::from_ascii_general(&token), "{}", String::from_utf8_lossy(&token));
                }
            }
        }
        assert!(tried > 1000, "{tried}");
    }

    fn san(text: &str) -> San {
        San::from_ascii(text.as_bytes()).unwrap_or_else(|_| panic!("{text}"))
    }

    #[test]
    fn reading_tokens() {
        assert_eq!(
            san("Nf3"),
            San::Normal { role: Role::Knight, file: None, rank: None, capture: false, to: 21, promotion: None }
        );
        assert_eq!(
            san("exd5"),
            San::Normal { role: Role::Pawn, file: Some(4), rank: None, capture: true, to: 35, promotion: None }
        );
        assert_eq!(
            san("e8=Q+"),
            San::Normal {
                role: Role::Pawn,
                file: None,
                rank: None,
                capture: false,
                to: 60,
                promotion: Some(Role::Queen)
            }
        );
        assert_eq!(
            san("e7e8q"),
            San::Normal {
                role: Role::Pawn,
                file: Some(4),
                rank: Some(6),
                capture: false,
                to: 60,
                promotion: Some(Role::Queen)
            }
        );
        assert_eq!(
            san("Qh4xe1#"),
            San::Normal { role: Role::Queen, file: Some(7), rank: Some(3), capture: true, to: 4, promotion: None }
        );
        assert_eq!(san("0-0-0"), San::Castle { king_side: false });
        assert_eq!(san("N@f3"), San::Put { role: Role::Knight, to: 21 });
        assert_eq!(san("@e4"), San::Put { role: Role::Pawn, to: 28 });
        assert_eq!(san("--"), San::Null);
        assert_eq!(san("Rd1!?"), san("Rd1"));
        let mut board = Board::initial(Variant::standard());
        for uci in ["g1f3", "e7e5", "e2e4", "g8f6", "f1c4", "f8c5", "e1g1"] {
            board.play_san(&san(uci)).unwrap_or_else(|e| panic!("{uci}: {e}"));
        }
        assert_eq!(board.role_at(6), Some(Role::King), "e1g1 castles");
        // A king is promoted to in Antichess: read here, refused by the standard rules.
        let king = san("e8=K");
        assert_eq!(
            king,
            San::Normal {
                role: Role::Pawn,
                file: None,
                rank: None,
                capture: false,
                to: 60,
                promotion: Some(Role::King)
            }
        );
        for bad in ["", "x", "Nf9", "Xf3", "K@e4", "i4", "Nbbd7", "Ke1B", "Nf8=Q"] {
            assert!(San::from_ascii(bad.as_bytes()).is_err(), "{bad}");
        }
    }

    #[test]
    fn writing_san_reads_back() {
        let mut board = Board::initial(Variant::standard());
        let mut seed = 7u64;
        for _ in 0..400 {
            let mut moves = crate::rules::classical::MoveList::new();
            board.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let m = moves.as_slice()[(seed >> 33) as usize % moves.len()];
            let text = board.san(m);
            let mut replay = board;
            assert_eq!(replay.play_san(&San::from_ascii(text.as_bytes()).unwrap()), Ok(m), "{text}");
            board.play(m);
        }
    }

    #[test]
    fn moves_from_some_squares_are_those_of_all_moves_that_leave_them() {
        let mut board = Board::initial(Variant::standard());
        let mut seed = 11u64;
        for _ in 0..300 {
            let (mut all, mut pseudo) = (MoveList::new(), MoveList::new());
            board.legal_moves(&mut all);
            board.pseudo_legal_moves(&mut pseudo);
            if all.is_empty() {
                break;
            }
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let origins = seed ^ (seed >> 17);
            let (mut some, mut some_pseudo) = (MoveList::new(), MoveList::new());
            board.legal_moves_from(origins, &mut some);
            board.pseudo_legal_moves_from(origins, &mut some_pseudo);
            let leaving = |list: &MoveList| -> Vec<Move> {
                list.as_slice()
                    .iter()
                    .copied()
                    .filter(|m| m.from().is_some_and(|from| origins >> from & 1 == 1))
                    .collect()
            };
            assert_eq!(some.as_slice(), leaving(&all).as_slice());
            assert_eq!(some_pseudo.as_slice(), leaving(&pseudo).as_slice());
            board.play(all.as_slice()[(seed >> 33) as usize % all.len()]);
        }
    }

    #[test]
    fn pins_and_ambiguity() {
        let position = |fen: &str| {
            let setup = crate::notation::fen::read::<1>(Variant::standard(), fen).unwrap();
            Board::from_position(&crate::Position::from_setup(setup).unwrap())
        };
        // Two knights can reach d2, but the one on b1... both legal: ambiguous without a hint.
        let mut board = position("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
        assert_eq!(board.play_san(&san("Nd2")), Err(SanError::Ambiguous));
        assert!(board.clone().play_san(&san("Nbd2")).is_ok());
        // Both knights reach d4, but the one on e2 is pinned: only the b3 knight may go.
        let mut board = position("4r1k1/8/8/8/8/1N6/4N3/4K3 w - - 0 1");
        assert_eq!(
            board.play_san(&san("Nd4")),
            Ok(Move::Normal { role: Role::Knight, from: 17, to: 27, capture: None, promotion: None })
        );
        let mut board = position("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1");
        assert_eq!(board.play_san(&san("Nd4")), Err(SanError::Illegal));
    }
}
