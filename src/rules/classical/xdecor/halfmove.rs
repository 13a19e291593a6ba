//! One halfmove of X-Decor-libre's move table, and its result rows.
//!
//! The mod writes long figurine algebraic notation: `♘g1–f3`, `e5×d6 e.p.`, `g7×h8♕`, `0–0–0`,
//! and a result row `1–0`, `0–1` or `½–½`. [`Halfmove::parse`] reads that and what a person
//! transcribing the table might type instead (`Ng1-f3`, `e5xd6 ep`, `e7-e8=Q`, `O-O`);
//! [`Halfmove::write`] writes either form.
//!
//! ```
//! use cqlq::Color;
//! use cqlq::rules::classical::xdecor::{Halfmove, ParseHalfmoveError, Style};
//!
//! let half = Halfmove::parse("g7×h8♕".as_bytes())?;
//! let mut out = Vec::new();
//! half.write(Color::White, Style::Letters, &mut out);
//! assert_eq!(out, b"g7xh8Q");
//! # Ok::<_, ParseHalfmoveError>(())
//! ```

use std::fmt;

use crate::board::{File, Rank};
use crate::variant::{Color, Role};

/// The number of files, and of ranks, of the X-Decor chessboard.
pub(super) const SIDE: u8 = 8;

/// The roles in the order of the Unicode figurines, from ♔ (U+2654) to ♙ (U+2659).
const FIGURINE_ORDER: [Role; 6] = [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn];

/// White's figurines, then Black's, in [`FIGURINE_ORDER`].
const FIGURINES: [[char; 6]; 2] = [['♔', '♕', '♖', '♗', '♘', '♙'], ['♚', '♛', '♜', '♝', '♞', '♟']];

/// EN DASH, the separator of quiet moves and of castling and results.
const EN_DASH: &[u8] = "–".as_bytes();
/// MULTIPLICATION SIGN, the separator of captures.
const TIMES: &[u8] = "×".as_bytes();

/// A piece sign: a Unicode figurine, which carries a colour, or an ASCII letter, which does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Figurine {
    /// The piece.
    pub role: Role,
    /// The colour of a Unicode figurine (♘ White, ♞ Black); `None` for a letter. Transcriptions
    /// get it wrong often, so it is only a hint: the side comes from the row position.
    pub color: Option<Color>,
}

impl Figurine {
    /// The Unicode figurine of a piece: `♘` for a white knight, `♞` for a black one.
    #[must_use]
    pub const fn unicode(role: Role, color: Color) -> char {
        FIGURINES[color.index()][role_offset(role) as usize]
    }

    /// The upper-case ASCII letter of a piece: `K Q R B N P`.
    #[must_use]
    pub const fn letter(role: Role) -> char {
        match role {
            Role::King => 'K',
            Role::Queen => 'Q',
            Role::Rook => 'R',
            Role::Bishop => 'B',
            Role::Knight => 'N',
            Role::Pawn => 'P',
        }
    }

    /// The piece sign a character is: a Unicode figurine (U+2654..U+265F) or an upper-case
    /// letter `K Q R B N P`.
    #[must_use]
    pub fn from_char(c: char) -> Option<Figurine> {
        let mut buf = [0; 4];
        match unicode_figurine(c.encode_utf8(&mut buf).as_bytes()) {
            Some((figurine, _)) => Some(figurine),
            None if c.is_ascii() => letter_role(c as u8).map(|role| Figurine { role, color: None }),
            None => None,
        }
    }
}

/// The index of a role in [`FIGURINE_ORDER`].
const fn role_offset(role: Role) -> u8 {
    match role {
        Role::King => 0,
        Role::Queen => 1,
        Role::Rook => 2,
        Role::Bishop => 3,
        Role::Knight => 4,
        Role::Pawn => 5,
    }
}

/// One halfmove as the move table shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Halfmove {
    /// Castling: `0–0`, or `0–0–0` when `long` (queen's side).
    Castle {
        /// Whether it is queen's side castling, `0–0–0`.
        long: bool,
    },
    /// Any other move, written from square to square.
    Move(TableMove),
}

/// A halfmove other than castling: `♘g1–f3`, `e5×d6 e.p.`, `g7×h8♕`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableMove {
    /// The sign of the moving piece; `None` when there is none, for a pawn. (The mod shows no
    /// sign for pawns; a transcription may still write `♙` or `P`, which is kept.)
    pub piece: Option<Figurine>,
    /// The square moved from.
    pub from: (File, Rank),
    /// The square moved to.
    pub to: (File, Rank),
    /// Whether the separator is a capture sign (`×` or `x`) rather than a dash.
    pub capture: bool,
    /// Whether the `e.p.` suffix follows.
    pub en_passant: bool,
    /// The piece a pawn promotes to, written after the destination.
    pub promotion: Option<Figurine>,
}

/// How [`Halfmove::write`] and [`Outcome::write`] spell things.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Style {
    /// Exactly what the mod's table shows: figurines of the mover's colour, `–` and `×`,
    /// `0–0` with digit zeros, `½–½`.
    Strict,
    /// The ASCII form a person would type: `Ng1-f3`, `e5xd6 e.p.`, `g7xh8Q`, `O-O`, `1/2-1/2`.
    Letters,
}

/// The result row of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `1–0`.
    WhiteWins,
    /// `0–1`.
    BlackWins,
    /// `½–½`, whatever the kind of draw.
    Draw,
}

/// What is wrong with a halfmove token; see [`ParseHalfmoveError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HalfmoveErrorKind {
    /// The token is empty.
    Empty,
    /// A letter or symbol stands where a piece sign may, but is none.
    UnknownPiece,
    /// A piece sign with no square after it.
    NoSquareAfterPiece,
    /// The token starts with neither a piece sign nor a square.
    NoFromSquare,
    /// A square name off the 8x8 board, such as `e9` or `i2`.
    OffBoard {
        /// The file letter as written.
        file: char,
        /// The rank number as written (saturating at `u16::MAX`).
        rank: u16,
    },
    /// No dash or capture sign after the square moved from.
    NoSeparator,
    /// No square after the dash or capture sign.
    NoToSquare,
    /// A `=` with no promotion piece after it.
    NoPromotionPiece,
    /// Zeros and dashes that are neither `0–0` nor `0–0–0`.
    Castling,
    /// Something follows a complete halfmove.
    Trailing,
    /// The token is a result (`1–0`, `0–1`, `½–½`), not a halfmove.
    IsResult,
}

impl fmt::Display for HalfmoveErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HalfmoveErrorKind::Empty => f.write_str("empty halfmove"),
            HalfmoveErrorKind::UnknownPiece => f.write_str("unknown piece sign"),
            HalfmoveErrorKind::NoSquareAfterPiece => f.write_str("no square after the piece sign"),
            HalfmoveErrorKind::NoFromSquare => f.write_str("expected a piece sign or a square such as e2"),
            HalfmoveErrorKind::OffBoard { file, rank } => write!(f, "square {file}{rank} is off the board"),
            HalfmoveErrorKind::NoSeparator => f.write_str("expected a dash or a capture sign after the square"),
            HalfmoveErrorKind::NoToSquare => f.write_str("no square after the separator"),
            HalfmoveErrorKind::NoPromotionPiece => f.write_str("no promotion piece after '='"),
            HalfmoveErrorKind::Castling => f.write_str("castling is written 0–0 or 0–0–0"),
            HalfmoveErrorKind::Trailing => f.write_str("unexpected text after the halfmove"),
            HalfmoveErrorKind::IsResult => f.write_str("a game result, not a halfmove"),
        }
    }
}

/// Why a token is no halfmove, and at which byte of it that shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParseHalfmoveError {
    /// The byte offset into the token where the problem is.
    pub at: usize,
    /// What is wrong.
    pub kind: HalfmoveErrorKind,
}

impl fmt::Display for ParseHalfmoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            HalfmoveErrorKind::Empty | HalfmoveErrorKind::IsResult => write!(f, "{}", self.kind),
            kind => write!(f, "{kind} at byte {}", self.at),
        }
    }
}

impl std::error::Error for ParseHalfmoveError {}

/// An error of `kind` at byte `at`.
const fn error(at: usize, kind: HalfmoveErrorKind) -> ParseHalfmoveError {
    ParseHalfmoveError { at, kind }
}

impl Halfmove {
    /// Reads one halfmove, as a tokenizer cut it (with its ` e.p.` suffix, if any).
    ///
    /// Accepted: an optional piece sign (a Unicode figurine or `K Q R B N P`); the square moved
    /// from (`a1`..`h8`, file letters in either case); a dash (`-`, `–`, `—`, `−`, any of
    /// U+2010..U+2015) or a capture sign (`×`, `x`, `X`, `:`); the square moved to; then, in
    /// either order and with or without blanks before them, a promotion piece (a figurine or a
    /// letter in either case, optionally after `=`) and the en passant suffix (`e.p.`, `e.p`,
    /// `e. p.`, `ep`, in any case). Castling is two or three zeros (`0`, `O` or `o`) joined by
    /// dashes. Blanks are spaces, TABs and no-break spaces.
    ///
    /// Only syntax is checked: `d8×d8♖` reads fine.
    pub fn parse(token: &[u8]) -> Result<Halfmove, ParseHalfmoveError> {
        parse_halfmove(token).map_err(|error| {
            if Outcome::parse_result(token).is_some() {
                ParseHalfmoveError { at: 0, kind: HalfmoveErrorKind::IsResult }
            } else {
                error
            }
        })
    }

    /// Appends the halfmove as `color` plays it, in `style`.
    ///
    /// Piece signs are written in the mover's colour, whatever colour hint they carry; a piece
    /// sign is written whenever [`TableMove::piece`] has one (the mod's own rows have none for
    /// pawns).
    pub fn write(&self, color: Color, style: Style, out: &mut Vec<u8>) {
        let dash: &[u8] = match style {
            Style::Strict => EN_DASH,
            Style::Letters => b"-",
        };
        match *self {
            Halfmove::Castle { long } => {
                let zero = match style {
                    Style::Strict => b'0',
                    Style::Letters => b'O',
                };
                out.push(zero);
                let more = if long { 2 } else { 1 };
                for _ in 0..more {
                    out.extend_from_slice(dash);
                    out.push(zero);
                }
            }
            Halfmove::Move(ref m) => {
                if let Some(piece) = m.piece {
                    write_sign(piece.role, color, style, out);
                }
                write_square(m.from, out);
                if m.capture {
                    out.extend_from_slice(match style {
                        Style::Strict => TIMES,
                        Style::Letters => b"x",
                    });
                } else {
                    out.extend_from_slice(dash);
                }
                write_square(m.to, out);
                if let Some(promotion) = m.promotion {
                    write_sign(promotion.role, color, style, out);
                }
                if m.en_passant {
                    out.extend_from_slice(b" e.p.");
                }
            }
        }
    }
}

impl Outcome {
    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    #[must_use]
    pub const fn pgn(self) -> &'static [u8] {
        match self {
            Outcome::WhiteWins => b"1-0",
            Outcome::BlackWins => b"0-1",
            Outcome::Draw => b"1/2-1/2",
        }
    }

    /// Reads a result row's text: `1–0`, `0–1`, `½–½` or `1/2–1/2`, with any dash (including
    /// ASCII `1-0`, `0-1`, `1/2-1/2`). `0–0` is castling, not a result.
    #[must_use]
    pub fn parse_result(token: &[u8]) -> Option<Outcome> {
        let (white, rest) = result_score(token)?;
        let dash = dash_len(rest);
        if dash == 0 {
            return None;
        }
        let (black, rest) = result_score(&rest[dash..])?;
        if !rest.is_empty() {
            return None;
        }
        match (white, black) {
            (Score::One, Score::Zero) => Some(Outcome::WhiteWins),
            (Score::Zero, Score::One) => Some(Outcome::BlackWins),
            (Score::Half, Score::Half) => Some(Outcome::Draw),
            _ => None,
        }
    }

    /// Appends the result row's text: `1–0`, `0–1`, `½–½` in [`Style::Strict`]; `1-0`, `0-1`,
    /// `1/2-1/2` in [`Style::Letters`].
    pub fn write(self, style: Style, out: &mut Vec<u8>) {
        match style {
            Style::Strict => out.extend_from_slice(
                match self {
                    Outcome::WhiteWins => "1–0",
                    Outcome::BlackWins => "0–1",
                    Outcome::Draw => "½–½",
                }
                .as_bytes(),
            ),
            Style::Letters => out.extend_from_slice(self.pgn()),
        }
    }
}

/// One side's score in a result.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Score {
    Zero,
    Half,
    One,
}

/// A score at the front of `bytes`: `0`, `1`, `½` or `1/2`.
fn result_score(bytes: &[u8]) -> Option<(Score, &[u8])> {
    match bytes {
        [b'1', b'/', b'2', rest @ ..] | [0xC2, 0xBD, rest @ ..] => Some((Score::Half, rest)),
        [b'1', rest @ ..] => Some((Score::One, rest)),
        [b'0', rest @ ..] => Some((Score::Zero, rest)),
        _ => None,
    }
}

/// Appends a piece sign.
fn write_sign(role: Role, color: Color, style: Style, out: &mut Vec<u8>) {
    let c = match style {
        Style::Strict => Figurine::unicode(role, color),
        Style::Letters => Figurine::letter(role),
    };
    let mut buf = [0; 4];
    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
}

/// Appends a square name such as `e4` (or `j10`, off the X-Decor board, which reads back as an
/// error).
fn write_square((file, rank): (File, Rank), out: &mut Vec<u8>) {
    out.push(file.char() as u8);
    let number = rank.number();
    if number >= 10 {
        out.push(b'0' + (number / 10 % 10) as u8);
    }
    out.push(b'0' + (number % 10) as u8);
}

/// The length of the dash at the front of `bytes`, or 0: `-`, U+2010..U+2015, U+2212.
fn dash_len(bytes: &[u8]) -> usize {
    match bytes {
        [b'-', ..] => 1,
        [0xE2, 0x80, 0x90..=0x95, ..] | [0xE2, 0x88, 0x92, ..] => 3,
        _ => 0,
    }
}

/// The length of the capture sign at the front of `bytes`, or 0: `×`, `x`, `X`, `:`.
fn capture_len(bytes: &[u8]) -> usize {
    match bytes {
        [b'x' | b'X' | b':', ..] => 1,
        [0xC3, 0x97, ..] => 2,
        _ => 0,
    }
}

/// The length of the blank at the front of `bytes`, or 0: space, TAB, NBSP, narrow NBSP.
fn blank_len(bytes: &[u8]) -> usize {
    match bytes {
        [b' ' | b'\t', ..] => 1,
        [0xC2, 0xA0, ..] => 2,
        [0xE2, 0x80, 0xAF, ..] => 3,
        _ => 0,
    }
}

/// The offset of the first byte at or after `pos` that starts no blank.
fn skip_blanks(token: &[u8], mut pos: usize) -> usize {
    loop {
        let len = token.get(pos..).map_or(0, blank_len);
        if len == 0 {
            return pos;
        }
        pos += len;
    }
}

/// The Unicode figurine at the front of `bytes` and its length (3).
fn unicode_figurine(bytes: &[u8]) -> Option<(Figurine, usize)> {
    match bytes {
        [0xE2, 0x99, c @ 0x94..=0x9F, ..] => {
            let offset = usize::from(c - 0x94);
            let color = if offset < 6 { Color::White } else { Color::Black };
            Some((Figurine { role: FIGURINE_ORDER[offset % 6], color: Some(color) }, 3))
        }
        _ => None,
    }
}

/// The role of an upper-case piece letter.
const fn letter_role(letter: u8) -> Option<Role> {
    match letter {
        b'K' => Some(Role::King),
        b'Q' => Some(Role::Queen),
        b'R' => Some(Role::Rook),
        b'B' => Some(Role::Bishop),
        b'N' => Some(Role::Knight),
        b'P' => Some(Role::Pawn),
        _ => None,
    }
}

/// Whether a byte is a zero of castling.
const fn is_zero(byte: u8) -> bool {
    matches!(byte, b'0' | b'O' | b'o')
}

/// A square of the X-Decor board.
type Coords = (File, Rank);

/// The square at the front of `bytes` (found at offset `at` of the token) and its length; `None`
/// when no letter followed by a digit is there.
fn read_square(bytes: &[u8], at: usize) -> Result<Option<(Coords, usize)>, ParseHalfmoveError> {
    let [letter, digit, ..] = *bytes else { return Ok(None) };
    if !letter.is_ascii_alphabetic() || !digit.is_ascii_digit() {
        return Ok(None);
    }
    let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    let lower = letter.to_ascii_lowercase();
    if digits == 1
        && (b'a'..b'a' + SIDE).contains(&lower)
        && (b'1'..b'1' + SIDE).contains(&digit)
        && let (Some(file), Some(rank)) = (File::new(lower - b'a'), Rank::new(digit - b'1'))
    {
        return Ok(Some(((file, rank), 2)));
    }
    let rank = bytes[1..=digits]
        .iter()
        .fold(0u16, |number, digit| number.saturating_mul(10).saturating_add(u16::from(digit - b'0')));
    Err(error(at, HalfmoveErrorKind::OffBoard { file: letter as char, rank }))
}

/// Whether the bytes at the front look like an attempt at a piece sign: an upper-case letter or
/// a character that is not ASCII.
fn looks_like_sign(bytes: &[u8]) -> bool {
    bytes.first().is_some_and(|&b| b.is_ascii_uppercase() || !b.is_ascii())
}

/// [`Halfmove::parse`], before a failure is checked for being a result.
fn parse_halfmove(token: &[u8]) -> Result<Halfmove, ParseHalfmoveError> {
    let Some(&first) = token.first() else {
        return Err(error(0, HalfmoveErrorKind::Empty));
    };
    if is_zero(first) && !token.get(1).is_some_and(u8::is_ascii_digit) {
        return parse_castle(token);
    }

    let (piece, mut pos) = if let Some((figurine, len)) = unicode_figurine(token) {
        (Some(figurine), len)
    } else {
        match letter_role(first) {
            Some(role) if !token.get(1).is_some_and(u8::is_ascii_digit) => (Some(Figurine { role, color: None }), 1),
            _ => (None, 0),
        }
    };

    let Some((from, len)) = read_square(&token[pos..], pos)? else {
        let kind = if piece.is_some() {
            HalfmoveErrorKind::NoSquareAfterPiece
        } else if looks_like_sign(token)
            || (first.is_ascii_alphabetic() && token.get(1).is_some_and(u8::is_ascii_alphabetic))
        {
            HalfmoveErrorKind::UnknownPiece
        } else {
            HalfmoveErrorKind::NoFromSquare
        };
        return Err(error(pos, kind));
    };
    pos += len;

    let rest = &token[pos..];
    let capture = if dash_len(rest) > 0 {
        pos += dash_len(rest);
        false
    } else if capture_len(rest) > 0 {
        pos += capture_len(rest);
        true
    } else {
        return Err(error(pos, HalfmoveErrorKind::NoSeparator));
    };

    let Some((to, len)) = read_square(&token[pos..], pos)? else {
        return Err(error(pos, HalfmoveErrorKind::NoToSquare));
    };
    pos += len;

    let mut promotion = None;
    let mut en_passant = false;
    loop {
        pos = skip_blanks(token, pos);
        let rest = &token[pos..];
        if rest.is_empty() {
            break;
        }
        if !en_passant && let Some(len) = en_passant_len(rest) {
            en_passant = true;
            pos += len;
            continue;
        }
        if promotion.is_none() {
            if let [b'=', after @ ..] = rest {
                let Some((figurine, len)) = promotion_sign(after) else {
                    return Err(error(pos + 1, HalfmoveErrorKind::NoPromotionPiece));
                };
                promotion = Some(figurine);
                pos += 1 + len;
                continue;
            }
            if let Some((figurine, len)) = promotion_sign(rest) {
                promotion = Some(figurine);
                pos += len;
                continue;
            }
        }
        let kind = if looks_like_sign(rest) && dash_len(rest) == 0 && capture_len(rest) == 0 {
            HalfmoveErrorKind::UnknownPiece
        } else {
            HalfmoveErrorKind::Trailing
        };
        return Err(error(pos, kind));
    }

    Ok(Halfmove::Move(TableMove { piece, from, to, capture, en_passant, promotion }))
}

/// A promotion piece at the front of `bytes`: a figurine or a letter in either case.
fn promotion_sign(bytes: &[u8]) -> Option<(Figurine, usize)> {
    unicode_figurine(bytes).or_else(|| {
        let role = letter_role(bytes.first()?.to_ascii_uppercase())?;
        Some((Figurine { role, color: None }, 1))
    })
}

/// The length of the en passant suffix at the front of `bytes`, without the blanks before it:
/// `e`, optionally `.` and blanks, `p`, optionally `.`; in any case.
fn en_passant_len(bytes: &[u8]) -> Option<usize> {
    let mut pos = 0;
    if !bytes.first()?.eq_ignore_ascii_case(&b'e') {
        return None;
    }
    pos += 1;
    if bytes.get(pos) == Some(&b'.') {
        pos = skip_blanks(bytes, pos + 1);
    }
    if !bytes.get(pos)?.eq_ignore_ascii_case(&b'p') {
        return None;
    }
    pos += 1;
    if bytes.get(pos) == Some(&b'.') {
        pos += 1;
    }
    Some(pos)
}

/// Reads castling: two or three zeros joined by dashes, then nothing but blanks.
fn parse_castle(token: &[u8]) -> Result<Halfmove, ParseHalfmoveError> {
    let mut pos = 1;
    let mut zeros = 1;
    loop {
        let rest = &token[pos..];
        let dash = dash_len(rest);
        if dash == 0 {
            break;
        }
        if !rest.get(dash).copied().is_some_and(is_zero) {
            return Err(error(pos + dash, HalfmoveErrorKind::Castling));
        }
        if zeros == 3 {
            return Err(error(pos, HalfmoveErrorKind::Castling));
        }
        zeros += 1;
        pos += dash + 1;
    }
    if zeros == 1 {
        return Err(error(pos, HalfmoveErrorKind::Castling));
    }
    let end = skip_blanks(token, pos);
    if end < token.len() {
        return Err(error(end, HalfmoveErrorKind::Trailing));
    }
    Ok(Halfmove::Castle { long: zeros == 3 })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> (File, Rank) {
        let b = name.as_bytes();
        (File::new(b[0] - b'a').unwrap(), Rank::new(b[1] - b'1').unwrap())
    }

    fn fig(role: Role, color: Color) -> Option<Figurine> {
        Some(Figurine { role, color: Some(color) })
    }

    fn letter(role: Role) -> Option<Figurine> {
        Some(Figurine { role, color: None })
    }

    fn mv(piece: Option<Figurine>, from: &str, to: &str) -> TableMove {
        TableMove { piece, from: sq(from), to: sq(to), capture: false, en_passant: false, promotion: None }
    }

    fn parse(text: &str) -> Result<Halfmove, ParseHalfmoveError> {
        Halfmove::parse(text.as_bytes())
    }

    fn parse_move(text: &str) -> TableMove {
        match parse(text) {
            Ok(Halfmove::Move(m)) => m,
            other => panic!("{text}: {other:?}"),
        }
    }

    fn kind(text: &str) -> (usize, HalfmoveErrorKind) {
        let error = parse(text).unwrap_err();
        (error.at, error.kind)
    }

    fn write(half: &Halfmove, color: Color, style: Style) -> String {
        let mut out = Vec::new();
        half.write(color, style, &mut out);
        String::from_utf8(out).unwrap()
    }

    /// Forgets the colour hints of piece signs.
    fn without_colors(half: Halfmove) -> Halfmove {
        match half {
            Halfmove::Move(mut m) => {
                m.piece = m.piece.map(|p| Figurine { color: None, ..p });
                m.promotion = m.promotion.map(|p| Figurine { color: None, ..p });
                Halfmove::Move(m)
            }
            castle => castle,
        }
    }

    #[test]
    fn examples_of_the_spec() {
        assert_eq!(parse_move("e2–e4"), mv(None, "e2", "e4"));
        assert_eq!(parse_move("♘g1–f3"), mv(fig(Role::Knight, Color::White), "g1", "f3"));
        assert_eq!(parse_move("♞b8–c6"), mv(fig(Role::Knight, Color::Black), "b8", "c6"));
        assert_eq!(parse("0–0"), Ok(Halfmove::Castle { long: false }));
        assert_eq!(parse("0–0–0"), Ok(Halfmove::Castle { long: true }));
        let ep = TableMove { capture: true, en_passant: true, ..mv(None, "e5", "d6") };
        assert_eq!(parse_move("e5×d6 e.p."), ep);
        let capture = TableMove { capture: true, ..mv(fig(Role::Queen, Color::White), "d1", "d8") };
        assert_eq!(parse_move("♕d1×d8"), capture);
        let promotion = TableMove { capture: true, promotion: fig(Role::Queen, Color::White), ..mv(None, "g7", "h8") };
        assert_eq!(parse_move("g7×h8♕"), promotion);
        let quiet_promotion =
            TableMove { capture: true, promotion: fig(Role::Queen, Color::White), ..mv(None, "a7", "a8") };
        assert_eq!(parse_move("a7×a8♕"), quiet_promotion);
        assert_eq!(parse_move("♗f1–c4"), mv(fig(Role::Bishop, Color::White), "f1", "c4"));
        assert_eq!(parse_move("♝f8–c5"), mv(fig(Role::Bishop, Color::Black), "f8", "c5"));
        assert_eq!(parse_move("♖f1–e1"), mv(fig(Role::Rook, Color::White), "f1", "e1"));
    }

    #[test]
    fn examples_of_the_seed() {
        assert_eq!(parse_move("d2—d4"), mv(None, "d2", "d4"));
        assert_eq!(parse_move("e7—e6"), mv(None, "e7", "e6"));
        assert_eq!(parse_move("♔e1–d2"), mv(fig(Role::King, Color::White), "e1", "d2"));
        assert_eq!(parse_move("♛d8–h4"), mv(fig(Role::Queen, Color::Black), "d8", "h4"));
        assert_eq!(parse_move("d4–d5"), mv(None, "d4", "d5"));
        assert_eq!(parse_move("e6×d5"), TableMove { capture: true, ..mv(None, "e6", "d5") });
        let rook = TableMove { capture: true, promotion: fig(Role::Rook, Color::White), ..mv(None, "d8", "d8") };
        assert_eq!(parse_move("d8×d8♖"), rook);
        assert_eq!(parse_move("♞b8-c6"), mv(fig(Role::Knight, Color::Black), "b8", "c6"));
        assert_eq!(parse_move("b8-c6"), mv(None, "b8", "c6"));
        let ep = |from, to| TableMove { capture: true, en_passant: true, ..mv(None, from, to) };
        assert_eq!(parse_move("d4×e3 e.p."), ep("d4", "e3"));
        assert_eq!(parse_move("a5×b4 e.p"), ep("a5", "b4"));
        assert_eq!(parse_move("a5×b4 e.p."), ep("a5", "b4"));
    }

    #[test]
    fn tolerant_forms() {
        let knight = mv(letter(Role::Knight), "g1", "f3");
        for text in ["Ng1-f3", "Ng1−f3", "Ng1‐f3", "Ng1‒f3", "Ng1―f3", "NG1-F3", "Ng1-f3 ", "Ng1-f3\u{a0}"] {
            assert_eq!(parse_move(text), knight, "{text}");
        }
        let ep = TableMove { capture: true, en_passant: true, ..mv(None, "e5", "d6") };
        for text in [
            "e5xd6 e.p.",
            "e5xd6 ep",
            "e5xd6 EP",
            "e5Xd6 e. p.",
            "e5:d6\te.p.",
            "e5×d6\u{a0}e.p.",
            "e5×d6  e.p",
            "e5xd6e.p.",
            "e5xd6 ep.",
        ] {
            assert_eq!(parse_move(text), ep, "{text}");
        }
        let queen = TableMove { promotion: letter(Role::Queen), ..mv(None, "e7", "e8") };
        for text in ["e7-e8Q", "e7-e8=Q", "e7-e8q", "e7-e8=q", "e7-e8 Q"] {
            assert_eq!(parse_move(text), queen, "{text}");
        }
        assert_eq!(parse_move("e7-e8♛").promotion, fig(Role::Queen, Color::Black));
        assert_eq!(parse_move("e7-e8=♕").promotion, fig(Role::Queen, Color::White));
        assert_eq!(parse_move("Pe2-e4"), mv(letter(Role::Pawn), "e2", "e4"));
        assert_eq!(parse_move("♙e2-e4"), mv(fig(Role::Pawn, Color::White), "e2", "e4"));
        assert_eq!(parse_move("Bb2-b4"), mv(letter(Role::Bishop), "b2", "b4"));
        assert_eq!(parse_move("B2-b4"), mv(None, "b2", "b4"), "an upper-case file, not a bishop");
        assert_eq!(parse_move("BB2-B4"), mv(letter(Role::Bishop), "b2", "b4"));
        for text in ["0-0", "O-O", "o-o", "0—0", "O–O", "0−0", "0-O"] {
            assert_eq!(parse(text), Ok(Halfmove::Castle { long: false }), "{text}");
        }
        for text in ["0-0-0", "O-O-O", "o-o-o", "0—0—0", "O–O–O", "0-0-0 "] {
            assert_eq!(parse(text), Ok(Halfmove::Castle { long: true }), "{text}");
        }
    }

    #[test]
    fn errors_say_what_and_where() {
        assert_eq!(kind(""), (0, HalfmoveErrorKind::Empty));
        assert_eq!(kind("♘"), (3, HalfmoveErrorKind::NoSquareAfterPiece));
        assert_eq!(kind("N"), (1, HalfmoveErrorKind::NoSquareAfterPiece));
        assert_eq!(kind("♘♘g1-f3"), (3, HalfmoveErrorKind::NoSquareAfterPiece));
        assert_eq!(kind("e9-e4"), (0, HalfmoveErrorKind::OffBoard { file: 'e', rank: 9 }));
        assert_eq!(kind("e2-e0"), (3, HalfmoveErrorKind::OffBoard { file: 'e', rank: 0 }));
        assert_eq!(kind("i2-e4"), (0, HalfmoveErrorKind::OffBoard { file: 'i', rank: 2 }));
        assert_eq!(kind("e2-e44"), (3, HalfmoveErrorKind::OffBoard { file: 'e', rank: 44 }));
        assert_eq!(kind("e2~e4"), (2, HalfmoveErrorKind::NoSeparator));
        assert_eq!(kind("e2e4"), (2, HalfmoveErrorKind::NoSeparator));
        assert_eq!(kind("e2"), (2, HalfmoveErrorKind::NoSeparator));
        assert_eq!(kind("e2-"), (3, HalfmoveErrorKind::NoToSquare));
        assert_eq!(kind("e2–"), (5, HalfmoveErrorKind::NoToSquare));
        assert_eq!(kind("e2-x4"), (3, HalfmoveErrorKind::OffBoard { file: 'x', rank: 4 }));
        assert_eq!(kind("e2-4"), (3, HalfmoveErrorKind::NoToSquare));
        assert_eq!(kind("0-0-0-0"), (5, HalfmoveErrorKind::Castling));
        assert_eq!(kind("0"), (1, HalfmoveErrorKind::Castling));
        assert_eq!(kind("0-"), (2, HalfmoveErrorKind::Castling));
        assert_eq!(kind("0-0+"), (3, HalfmoveErrorKind::Trailing));
        assert_eq!(kind("e2-e4+"), (5, HalfmoveErrorKind::Trailing));
        assert_eq!(kind("e2-e4 e.p. e.p."), (11, HalfmoveErrorKind::Trailing));
        assert_eq!(kind("e7-e8QQ"), (6, HalfmoveErrorKind::UnknownPiece));
        assert_eq!(kind("e7-e8Z"), (5, HalfmoveErrorKind::UnknownPiece));
        assert_eq!(kind("e7-e8="), (6, HalfmoveErrorKind::NoPromotionPiece));
        assert_eq!(kind("e7-e8=Z"), (6, HalfmoveErrorKind::NoPromotionPiece));
        assert_eq!(kind("Zg1-f3"), (0, HalfmoveErrorKind::UnknownPiece));
        assert_eq!(kind("♠g1-f3"), (0, HalfmoveErrorKind::UnknownPiece));
        assert_eq!(kind("ng1-f3"), (0, HalfmoveErrorKind::UnknownPiece));
        assert_eq!(kind("-e4"), (0, HalfmoveErrorKind::NoFromSquare));
        assert_eq!(kind(" e2-e4"), (0, HalfmoveErrorKind::NoFromSquare));
        for result in ["1–0", "0–1", "½–½", "1/2-1/2", "0-1"] {
            assert_eq!(kind(result), (0, HalfmoveErrorKind::IsResult), "{result}");
        }
        let message = |text: &str| parse(text).unwrap_err().to_string();
        assert_eq!(message(""), "empty halfmove");
        assert_eq!(message("e9-e4"), "square e9 is off the board at byte 0");
        assert_eq!(message("e2~e4"), "expected a dash or a capture sign after the square at byte 2");
        assert_eq!(message("e2-"), "no square after the separator at byte 3");
        assert_eq!(message("Zg1-f3"), "unknown piece sign at byte 0");
        assert_eq!(message("♘"), "no square after the piece sign at byte 3");
        assert_eq!(message("0-0-0-0"), "castling is written 0–0 or 0–0–0 at byte 5");
        assert_eq!(message("0–1"), "a game result, not a halfmove");
    }

    #[test]
    fn writes_the_mods_table() {
        let cases: [(&str, Color, &str, &str); 10] = [
            ("e2–e4", Color::White, "e2–e4", "e2-e4"),
            ("♘g1–f3", Color::White, "♘g1–f3", "Ng1-f3"),
            ("♘b8–c6", Color::Black, "♞b8–c6", "Nb8-c6"),
            ("0–0", Color::White, "0–0", "O-O"),
            ("O-O-O", Color::Black, "0–0–0", "O-O-O"),
            ("e5×d6 e.p.", Color::White, "e5×d6 e.p.", "e5xd6 e.p."),
            ("d4xe3 ep", Color::Black, "d4×e3 e.p.", "d4xe3 e.p."),
            ("♕d1×d8", Color::White, "♕d1×d8", "Qd1xd8"),
            ("g7×h8Q", Color::White, "g7×h8♕", "g7xh8Q"),
            ("b2×a1=q", Color::Black, "b2×a1♛", "b2xa1Q"),
        ];
        for (text, color, strict, letters) in cases {
            let half = parse(text).unwrap();
            assert_eq!(write(&half, color, Style::Strict), strict, "{text}");
            assert_eq!(write(&half, color, Style::Letters), letters, "{text}");
        }
    }

    #[test]
    fn written_halfmoves_read_back() {
        let squares: Vec<(File, Rank)> =
            (0..SIDE).flat_map(|f| (0..SIDE).map(move |r| (File::new(f).unwrap(), Rank::new(r).unwrap()))).collect();
        let signs: Vec<Option<Role>> = std::iter::once(None).chain(FIGURINE_ORDER.map(Some)).collect();
        let mut count = 0;
        for (i, &from) in squares.iter().enumerate() {
            for (j, &to) in squares.iter().enumerate() {
                // Every pair, with a kind of move that varies along the pairs.
                let k = i * 7 + j * 3;
                let piece = signs[k % signs.len()];
                let capture = k % 2 == 0;
                let en_passant = k % 5 == 0;
                let promotion = if k % 3 == 0 { Some(FIGURINE_ORDER[k % 6]) } else { None };
                for color in Color::ALL {
                    let table = TableMove {
                        piece: piece.map(|role| Figurine { role, color: Some(color) }),
                        from,
                        to,
                        capture,
                        en_passant,
                        promotion: promotion.map(|role| Figurine { role, color: Some(color) }),
                    };
                    let half = Halfmove::Move(table);
                    let mut out = Vec::new();
                    half.write(color, Style::Strict, &mut out);
                    assert_eq!(Halfmove::parse(&out), Ok(half), "{}", String::from_utf8_lossy(&out));
                    out.clear();
                    half.write(color, Style::Letters, &mut out);
                    assert_eq!(Halfmove::parse(&out), Ok(without_colors(half)), "{}", String::from_utf8_lossy(&out));
                    count += 1;
                }
            }
        }
        assert_eq!(count, 64 * 64 * 2);
        for long in [false, true] {
            for color in Color::ALL {
                for style in [Style::Strict, Style::Letters] {
                    let half = Halfmove::Castle { long };
                    let mut out = Vec::new();
                    half.write(color, style, &mut out);
                    assert_eq!(Halfmove::parse(&out), Ok(half));
                }
            }
        }
    }

    #[test]
    fn every_kind_of_move_reads_back() {
        let from = sq("b7");
        let to = sq("c8");
        for color in Color::ALL {
            for piece in std::iter::once(None).chain(FIGURINE_ORDER.map(Some)) {
                for promotion in std::iter::once(None).chain(FIGURINE_ORDER.map(Some)) {
                    for flags in 0..4 {
                        let hint = |role: Role| Figurine { role, color: Some(color) };
                        let half = Halfmove::Move(TableMove {
                            piece: piece.map(hint),
                            from,
                            to,
                            capture: flags & 1 != 0,
                            en_passant: flags & 2 != 0,
                            promotion: promotion.map(hint),
                        });
                        let strict = write(&half, color, Style::Strict);
                        assert_eq!(parse(&strict), Ok(half), "{strict}");
                        let letters = write(&half, color, Style::Letters);
                        assert_eq!(parse(&letters), Ok(without_colors(half)), "{letters}");
                    }
                }
            }
        }
    }

    #[test]
    fn results() {
        for (text, outcome) in [
            ("1–0", Outcome::WhiteWins),
            ("0–1", Outcome::BlackWins),
            ("½–½", Outcome::Draw),
            ("1/2–1/2", Outcome::Draw),
            ("½-½", Outcome::Draw),
            ("1-0", Outcome::WhiteWins),
            ("0-1", Outcome::BlackWins),
            ("1/2-1/2", Outcome::Draw),
            ("1—0", Outcome::WhiteWins),
            ("0−1", Outcome::BlackWins),
            ("½-1/2", Outcome::Draw),
        ] {
            assert_eq!(Outcome::parse_result(text.as_bytes()), Some(outcome), "{text}");
        }
        for text in ["0–0", "0-0-0", "1-1", "½-1", "1-", "1", "", "1-0 ", "1:0", "O-1", "1/2", "1/2-"] {
            assert_eq!(Outcome::parse_result(text.as_bytes()), None, "{text}");
        }
        assert_eq!(parse("0–0"), Ok(Halfmove::Castle { long: false }));
        for outcome in [Outcome::WhiteWins, Outcome::BlackWins, Outcome::Draw] {
            for style in [Style::Strict, Style::Letters] {
                let mut out = Vec::new();
                outcome.write(style, &mut out);
                assert_eq!(Outcome::parse_result(&out), Some(outcome));
            }
            assert_eq!(Outcome::parse_result(outcome.pgn()), Some(outcome));
        }
        let strict = |outcome: Outcome| {
            let mut out = Vec::new();
            outcome.write(Style::Strict, &mut out);
            String::from_utf8(out).unwrap()
        };
        assert_eq!(strict(Outcome::WhiteWins), "1–0");
        assert_eq!(strict(Outcome::BlackWins), "0–1");
        assert_eq!(strict(Outcome::Draw), "½–½");
        assert_eq!(Outcome::Draw.pgn(), b"1/2-1/2");
    }

    #[test]
    fn figurines() {
        for color in Color::ALL {
            for role in FIGURINE_ORDER {
                let c = Figurine::unicode(role, color);
                assert_eq!(Figurine::from_char(c), Some(Figurine { role, color: Some(color) }));
                assert_eq!(Figurine::from_char(Figurine::letter(role)), Some(Figurine { role, color: None }));
            }
        }
        assert_eq!(Figurine::unicode(Role::King, Color::White), '\u{2654}');
        assert_eq!(Figurine::unicode(Role::Pawn, Color::Black), '\u{265F}');
        assert_eq!(Figurine::from_char('♠'), None);
        assert_eq!(Figurine::from_char('k'), None);
        assert_eq!(Figurine::from_char('e'), None);
    }

    #[test]
    fn never_panics() {
        let tokens = [
            "e2–e4",
            "♘g1–f3",
            "♞b8–c6",
            "0–0–0",
            "e5×d6 e.p.",
            "♕d1×d8",
            "g7×h8♕",
            "d2—d4",
            "a5×b4 e.p",
            "e7-e8=Q",
            "O-O",
            "½–½",
            "1/2-1/2",
        ];
        for token in tokens {
            let bytes = token.as_bytes();
            for end in 0..=bytes.len() {
                let _ = Halfmove::parse(&bytes[..end]);
                let _ = Halfmove::parse(&bytes[end..]);
                let _ = Outcome::parse_result(&bytes[..end]);
            }
            let mut mutated = bytes.to_vec();
            for i in 0..bytes.len() {
                for byte in 0..=255 {
                    mutated[i] = byte;
                    if let Ok(half) = Halfmove::parse(&mutated) {
                        // Whatever reads also writes, and reads back.
                        let mut out = Vec::new();
                        half.write(Color::White, Style::Letters, &mut out);
                        assert_eq!(Halfmove::parse(&out).map(without_colors), Ok(without_colors(half)));
                    }
                    let _ = Outcome::parse_result(&mutated);
                }
                mutated[i] = bytes[i];
            }
        }
    }
}
