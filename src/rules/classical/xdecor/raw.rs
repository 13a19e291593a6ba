//! One entry of the `moves_raw` record, the only machine-readable trace of an X-Decor game.
//!
//! The chessboard node keeps the moves in its metadata as `entry { ";" entry }`, one entry a
//! ply: `pieceFrom,pieceTo,fromIdx,toIdx,special`. Pieces are item names such as
//! `realchess:knight_white_2`; `pieceTo` is empty unless something was captured; squares are
//! indices from `a8` = 1 to `h1` = 64; `special` is empty, `promo__<item name>`, or a result
//! marker (`whiteWon`, `blackWon`, `draw`) in an entry whose other fields are empty.
//!
//! Versions of July 2023 wrote `pieceFrom,pieceTo,pieceTo_short,fromIdx,toIdx` and then, for a
//! few days, the same with `,special` after it; [`RawEntry::parse`] reads those too.
//!
//! ```
//! use cqlq::rules::classical::xdecor::{ParseRawError, RawEntry, entries};
//! use cqlq::variant::{Color, Role};
//!
//! let record = b"realchess:pawn_white_5,,53,37,;realchess:pawn_black_5,,13,29,";
//! let mut moves = Vec::new();
//! for entry in entries(record) {
//!     if let RawEntry::Move(m) = RawEntry::parse(entry)? {
//!         moves.push(m);
//!     }
//! }
//! assert_eq!(moves[1].piece, (Role::Pawn, Color::Black));
//! assert_eq!((moves[1].to.0.char(), moves[1].to.1.number()), ('e', 5));
//!
//! let mut out = Vec::new();
//! moves[0].write((Some(5), None), &mut out);
//! assert_eq!(out, b"realchess:pawn_white_5,,53,37,");
//! # Ok::<_, ParseRawError>(())
//! ```

use std::fmt;

use super::halfmove::{Outcome, SIDE};
use crate::board::{File, Rank};
use crate::variant::{Color, Role};

/// The mod's namespace, before every item name.
const PREFIX: &[u8] = b"realchess:";
/// The start of the special field of a promotion.
const PROMO: &[u8] = b"promo__";

/// The item-name word of each role.
const ROLE_NAMES: [(&[u8], Role); 6] = [
    (b"king", Role::King),
    (b"queen", Role::Queen),
    (b"rook", Role::Rook),
    (b"bishop", Role::Bishop),
    (b"knight", Role::Knight),
    (b"pawn", Role::Pawn),
];

/// One entry of `moves_raw`: a move, or the result marker that ends a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RawEntry {
    /// A ply.
    Move(RawMove),
    /// `,,,,whiteWon`, `,,,,blackWon` or `,,,,draw`.
    Result(Outcome),
}

/// One ply as `moves_raw` stores it. Castling and en passant are not flagged: a king moving two
/// files along its home rank castles, a pawn changing file onto an empty square takes en passant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RawMove {
    /// The piece that moved (`pieceFrom`).
    pub piece: (Role, Color),
    /// The `pieceTo` field: the piece captured; for a promotion, the mod stores the promoted
    /// piece here, captured or not.
    pub target: Option<(Role, Color)>,
    /// The square moved from.
    pub from: (File, Rank),
    /// The square moved to.
    pub to: (File, Rank),
    /// The piece a pawn promoted to (`promo__<item name>`).
    pub promotion: Option<(Role, Color)>,
}

/// The longest excerpt of an entry an error keeps, in bytes.
const EXCERPT_LEN: usize = 40;

/// A short copy of the text an error is about, kept without allocating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Excerpt {
    bytes: [u8; EXCERPT_LEN],
    len: u8,
    cut: bool,
}

impl Excerpt {
    /// The first bytes of `text`, cut at a character boundary if it is long.
    fn new(text: &[u8]) -> Excerpt {
        let mut len = text.len().min(EXCERPT_LEN);
        let cut = len < text.len();
        if cut {
            while len > 0 && text[len] & 0xC0 == 0x80 {
                len -= 1;
            }
        }
        let mut bytes = [0; EXCERPT_LEN];
        bytes[..len].copy_from_slice(&text[..len]);
        Excerpt { bytes, len: len as u8, cut }
    }

    /// The bytes kept.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// Whether the text was longer than what is kept.
    #[must_use]
    pub const fn is_cut(&self) -> bool {
        self.cut
    }
}

impl fmt::Display for Excerpt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&String::from_utf8_lossy(self.as_bytes()))?;
        if self.cut { f.write_str("…") } else { Ok(()) }
    }
}

/// Why an entry of `moves_raw` could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParseRawError {
    /// The entry does not have 5 comma-separated fields (or 6, as for a few days in 2023).
    FieldCount {
        /// How many fields it has.
        found: usize,
    },
    /// A move with an empty `pieceFrom`, or an entry with nothing in it.
    MissingPiece,
    /// A field that should name a piece names none.
    UnknownItem(Excerpt),
    /// A square index that is not a number.
    NotAnIndex(Excerpt),
    /// A square index outside 1..=64.
    OffBoard(Excerpt),
    /// A `special` field that is neither a promotion nor a result marker.
    UnknownSpecial(Excerpt),
    /// A result marker in an entry that also holds a move.
    ResultWithMove,
}

impl fmt::Display for ParseRawError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseRawError::FieldCount { found } => write!(f, "expected 5 fields, found {found}"),
            ParseRawError::MissingPiece => f.write_str("no piece in the first field"),
            ParseRawError::UnknownItem(name) => write!(f, "unknown item name '{name}'"),
            ParseRawError::NotAnIndex(text) => write!(f, "'{text}' is not a square index"),
            ParseRawError::OffBoard(index) => write!(f, "index {index} is off the board"),
            ParseRawError::UnknownSpecial(text) => write!(f, "unknown special field '{text}'"),
            ParseRawError::ResultWithMove => f.write_str("a result marker in an entry with a move"),
        }
    }
}

impl std::error::Error for ParseRawError {}

/// The entries of a whole `moves_raw` record, split at `;`; empty ones (as Luanti's
/// `string.split` drops them) are skipped.
pub fn entries(record: &[u8]) -> impl Iterator<Item = &[u8]> {
    record.split(|&b| b == b';').filter(|entry| !entry.trim_ascii().is_empty())
}

impl RawEntry {
    /// Reads one entry (without its `;`). Blanks around fields are ignored, and so are the
    /// numbers at the end of item names.
    #[inline]
    pub fn parse(entry: &[u8]) -> Result<RawEntry, ParseRawError> {
        // Most entries are moves in the current layout, as the mod writes them: read at once.
        match current_move(entry) {
            Some(raw) => Ok(RawEntry::Move(raw)),
            None => RawEntry::parse_any(entry),
        }
    }

    /// [`RawEntry::parse`] for every layout, with blanks, and for the errors.
    fn parse_any(entry: &[u8]) -> Result<RawEntry, ParseRawError> {
        let mut fields: [&[u8]; 6] = [&[]; 6];
        let mut count = 0;
        for field in entry.split(|&b| b == b',') {
            if let Some(slot) = fields.get_mut(count) {
                *slot = field.trim_ascii();
            }
            count += 1;
        }
        let [piece, target, third, fourth, fifth, sixth] = fields;
        // (pieceFrom, pieceTo, pieceTo_short, fromIdx, toIdx, special)
        let (short, from, to, special) = match count {
            5 if is_number(third) || !is_number(fifth) => (None, third, fourth, fifth),
            5 => (Some(third), fourth, fifth, &[][..]),
            6 if !is_number(third) => (Some(third), fourth, fifth, sixth),
            found => return Err(ParseRawError::FieldCount { found }),
        };

        if piece.is_empty()
            && target.is_empty()
            && short.is_none_or(<[u8]>::is_empty)
            && from.is_empty()
            && to.is_empty()
        {
            return match result_marker(special) {
                Some(outcome) => Ok(RawEntry::Result(outcome)),
                None if special.is_empty() => Err(ParseRawError::MissingPiece),
                None => Err(ParseRawError::UnknownSpecial(Excerpt::new(special))),
            };
        }
        if piece.is_empty() {
            return Err(ParseRawError::MissingPiece);
        }
        let piece = item(piece)?;
        let target = if target.is_empty() { None } else { Some(item(target)?) };
        if let Some(short) = short.filter(|short| !short.is_empty()) {
            short_name(short.strip_prefix(PREFIX).unwrap_or(short))
                .ok_or(ParseRawError::UnknownItem(Excerpt::new(short)))?;
        }
        let from = square_index(from)?;
        let to = square_index(to)?;
        let promotion = if special.is_empty() {
            None
        } else if let Some(name) = special.strip_prefix(PROMO) {
            Some(item(name)?)
        } else if result_marker(special).is_some() {
            return Err(ParseRawError::ResultWithMove);
        } else {
            return Err(ParseRawError::UnknownSpecial(Excerpt::new(special)));
        };
        Ok(RawEntry::Move(RawMove { piece, target, from, to, promotion }))
    }

    /// Appends the entry in the current layout, with no numbers on item names (see
    /// [`RawMove::write`] for numbers).
    pub fn write(&self, out: &mut Vec<u8>) {
        match self {
            RawEntry::Move(m) => m.write((None, None), out),
            RawEntry::Result(outcome) => outcome.write_raw(out),
        }
    }
}

impl RawMove {
    /// Appends the entry in the current layout, `pieceFrom,pieceTo,fromIdx,toIdx,special`;
    /// `numbers` go at the end of the names of `pieceFrom` and `pieceTo` (see [`write_item`]).
    /// A promotion is written as the mod does: `promo__realchess:queen_white`, and other pieces
    /// with `_1` (`promo__realchess:knight_white_1`).
    pub fn write(&self, numbers: (Option<u8>, Option<u8>), out: &mut Vec<u8>) {
        write_item(self.piece.0, self.piece.1, numbers.0, out);
        out.push(b',');
        if let Some((role, color)) = self.target {
            write_item(role, color, numbers.1, out);
        }
        out.push(b',');
        push_decimal(raw_index(self.from.0, self.from.1), out);
        out.push(b',');
        push_decimal(raw_index(self.to.0, self.to.1), out);
        out.push(b',');
        if let Some((role, color)) = self.promotion {
            out.extend_from_slice(PROMO);
            let number = if role == Role::Queen { None } else { Some(1) };
            write_item(role, color, number, out);
        }
    }
}

impl Outcome {
    /// Appends the result marker entry: `,,,,whiteWon`, `,,,,blackWon` or `,,,,draw`.
    pub fn write_raw(self, out: &mut Vec<u8>) {
        out.extend_from_slice(b",,,,");
        out.extend_from_slice(match self {
            Outcome::WhiteWins => b"whiteWon",
            Outcome::BlackWins => b"blackWon",
            Outcome::Draw => b"draw",
        });
    }
}

/// Appends an item name: `realchess:<type>_<colour>`, then `_<number>` if there is one.
///
/// The mod numbers the pieces of the starting position: rooks, knights and bishops 1 on the
/// queen's side (files a, b, c) and 2 on the king's side, pawns 1 to 8 by file from a to h;
/// queens and kings have no number. A pawn promoted to a queen has none, to another piece `_1`.
pub fn write_item(role: Role, color: Color, number: Option<u8>, out: &mut Vec<u8>) {
    out.extend_from_slice(PREFIX);
    out.extend_from_slice(role_name(role));
    out.extend_from_slice(match color {
        Color::White => b"_white",
        Color::Black => b"_black",
    });
    if let Some(number) = number {
        out.push(b'_');
        push_decimal(number, out);
    }
}

/// The `moves_raw` index of a square: `a8` is 1, `h8` 8, `a7` 9, `h1` 64. A square off the 8x8
/// board gives 0, which is no index.
#[must_use]
pub const fn raw_index(file: File, rank: Rank) -> u8 {
    if file.index() < SIDE && rank.index() < SIDE { (SIDE - 1 - rank.index()) * SIDE + file.index() + 1 } else { 0 }
}

/// The square of a `moves_raw` index, if it is 1..=64.
#[must_use]
pub const fn raw_square(index: u8) -> Option<(File, Rank)> {
    if index == 0 || index > SIDE * SIDE {
        return None;
    }
    let i = index - 1;
    match (File::new(i % SIDE), Rank::new(SIDE - 1 - i / SIDE)) {
        (Some(file), Some(rank)) => Some((file, rank)),
        _ => None,
    }
}

/// Appends a number in decimal.
fn push_decimal(number: u8, out: &mut Vec<u8>) {
    if number >= 100 {
        out.push(b'0' + number / 100);
    }
    if number >= 10 {
        out.push(b'0' + number / 10 % 10);
    }
    out.push(b'0' + number % 10);
}

/// Whether a field is a number: digits, at least one.
fn is_number(field: &[u8]) -> bool {
    !field.is_empty() && field.iter().all(u8::is_ascii_digit)
}

/// The square of an index field.
fn square_index(field: &[u8]) -> Result<(File, Rank), ParseRawError> {
    if !is_number(field) {
        return Err(ParseRawError::NotAnIndex(Excerpt::new(field)));
    }
    let value = field.iter().fold(0u32, |n, &digit| n.saturating_mul(10).saturating_add(u32::from(digit - b'0')));
    u8::try_from(value).ok().and_then(raw_square).ok_or(ParseRawError::OffBoard(Excerpt::new(field)))
}

/// The outcome of a result marker.
fn result_marker(special: &[u8]) -> Option<Outcome> {
    match special {
        b"whiteWon" => Some(Outcome::WhiteWins),
        b"blackWon" => Some(Outcome::BlackWins),
        b"draw" => Some(Outcome::Draw),
        _ => None,
    }
}

/// Reads a move entry in the current layout, with no blanks, as the mod writes it:
/// `realchess:<type>_<colour>[_<n>],[realchess:...],<from>,<to>,[promo__realchess:...]`. Gives
/// up (for [`RawEntry::parse_any`] to read, or to say what is wrong) at anything else.
#[inline]
pub(super) fn current_move(entry: &[u8]) -> Option<RawMove> {
    read_current_move(entry).filter(|&(_, len)| len == entry.len()).map(|(raw, _)| raw)
}

/// Reads a move entry as [`current_move`] does at the start of `text` (the rest of a record),
/// and says how long it is: what follows it is the end of `text` or a `;`.
#[inline(always)]
pub(super) fn read_current_move(text: &[u8]) -> Option<(RawMove, usize)> {
    let (piece, rest) = fast_item(text)?;
    let rest = rest.strip_prefix(b",")?;
    let (target, rest) = match rest.strip_prefix(b",") {
        Some(rest) => (None, rest),
        None => {
            let (target, rest) = fast_item(rest)?;
            (Some(target), rest.strip_prefix(b",")?)
        }
    };
    let (from, rest) = fast_index(rest)?;
    let (to, rest) = fast_index(rest.strip_prefix(b",")?)?;
    let rest = rest.strip_prefix(b",")?;
    let (promotion, rest) = match rest {
        [] | [b';', ..] => (None, rest),
        _ => {
            let (promoted, rest) = fast_item(rest.strip_prefix(PROMO)?)?;
            (Some(promoted), rest)
        }
    };
    if !matches!(rest, [] | [b';', ..]) {
        return None;
    }
    let raw = RawMove { piece, target, from, to, promotion };
    Some((raw, text.len() - rest.len()))
}

/// How many bytes of an item name the fast reader compares: the longest name without its
/// number, `realchess:knight_white`.
const ITEM_BYTES: usize = 22;

/// The multiplier of the hash that gives each item name its slot in [`ITEM_KEYS`] from the 8
/// bytes after `realchess:` (`pawn_whi`, `knight_b`, ...), which differ from name to name.
const ITEM_HASH: u64 = 0x5a70_2cfa_93ea_5c4f;

/// The slot of an item name in [`ITEM_KEYS`], from its bytes 10 to 17.
#[inline(always)]
const fn item_slot(word: u64) -> usize {
    (word.wrapping_mul(ITEM_HASH) >> 60) as usize
}

/// What the fast reader compares an item name without its number with: its bytes 10 to 17,
/// its bytes 18 to 21 (zeros past its end) and the mask of those that are the name's.
#[derive(Clone, Copy)]
struct ItemKey {
    word: u64,
    rest: u32,
    rest_mask: u32,
    len: usize,
    piece: (Role, Color),
}

impl ItemKey {
    /// The key of `realchess:<type>_<colour>`.
    const fn of(role: Role, color: Color) -> ItemKey {
        let mut bytes = [0u8; ITEM_BYTES];
        let mut len = 0;
        let colour: &[u8] = match color {
            Color::White => b"_white",
            Color::Black => b"_black",
        };
        let parts: [&[u8]; 3] = [PREFIX, role_name(role), colour];
        let mut part = 0;
        while part < parts.len() {
            let mut i = 0;
            while i < parts[part].len() {
                bytes[len] = parts[part][i];
                len += 1;
                i += 1;
            }
            part += 1;
        }
        let (_, _, word, rest) = split_item(&bytes);
        let rest_mask = u32::MAX >> (8 * (ITEM_BYTES - len));
        ItemKey { word, rest, rest_mask, len, piece: (role, color) }
    }
}

/// The keys of the twelve item names, each in the slot its hash gives. A slot no name has
/// holds a key whose word hashes elsewhere, so that nothing read is compared with it.
const ITEM_KEYS: [ItemKey; 16] = {
    let mut keys = [None::<ItemKey>; 16];
    let mut i = 0;
    while i < ROLE_NAMES.len() {
        let role = ROLE_NAMES[i].1;
        let pair = [ItemKey::of(role, Color::White), ItemKey::of(role, Color::Black)];
        let mut j = 0;
        while j < pair.len() {
            let slot = item_slot(pair[j].word);
            assert!(keys[slot].is_none(), "two item names hash to one slot");
            keys[slot] = Some(pair[j]);
            j += 1;
        }
        i += 1;
    }
    let filler = ItemKey::of(Role::King, Color::White);
    let mut table = [filler; 16];
    let mut slot = 0;
    while slot < table.len() {
        if let Some(key) = keys[slot] {
            table[slot] = key;
        }
        slot += 1;
    }
    table
};

/// The first [`ITEM_BYTES`] of an item name as little-endian numbers: bytes 0 to 7
/// (`realches`), 8 and 9 (`s:`), 10 to 17 and 18 to 21.
#[inline(always)]
const fn split_item(bytes: &[u8; ITEM_BYTES]) -> (u64, u16, u64, u32) {
    let [a, b, c, d, e, f, g, h, s, colon, w0, w1, w2, w3, w4, w5, w6, w7, r0, r1, r2, r3] = *bytes;
    (
        u64::from_le_bytes([a, b, c, d, e, f, g, h]),
        u16::from_le_bytes([s, colon]),
        u64::from_le_bytes([w0, w1, w2, w3, w4, w5, w6, w7]),
        u32::from_le_bytes([r0, r1, r2, r3]),
    )
}

/// The item-name word of a role.
const fn role_name(role: Role) -> &'static [u8] {
    let mut i = 0;
    while i < ROLE_NAMES.len() {
        if ROLE_NAMES[i].1 as usize == role as usize {
            return ROLE_NAMES[i].0;
        }
        i += 1;
    }
    b""
}

/// `realchess:<type>_<colour>[_<n>]` at the start of `text`, and what follows it: the name's
/// slot is found from its bytes, then the name is compared with that slot's at once. Gives up
/// on a `text` shorter than [`ITEM_BYTES`] (a promotion's name at the end of its entry), which
/// the general reader reads.
#[inline(always)]
fn fast_item(text: &[u8]) -> Option<((Role, Color), &[u8])> {
    let bytes = text.first_chunk::<ITEM_BYTES>()?;
    let (head, colon, word, rest) = split_item(bytes);
    let key = &ITEM_KEYS[item_slot(word)];
    let differs = (head ^ PREFIX_HEAD)
        | u64::from(colon ^ PREFIX_COLON)
        | (word ^ key.word)
        | u64::from((rest & key.rest_mask) ^ key.rest);
    if differs != 0 {
        return None;
    }
    let text = text.get(key.len..)?;
    let text = match text {
        [b'_', rest @ ..] => skip_number(rest)?,
        _ => text,
    };
    Some((key.piece, text))
}

/// The first bytes of `realchess:` as [`split_item`] gives them.
const PREFIX_HEAD: u64 = u64::from_le_bytes(*b"realches");
const PREFIX_COLON: u16 = u16::from_le_bytes(*b"s:");

/// A square's index, 1 to 64 in one or two digits, and its square; and what follows it.
#[inline(always)]
fn fast_index(text: &[u8]) -> Option<((File, Rank), &[u8])> {
    let digit = |byte: u8| Some(byte.wrapping_sub(b'0')).filter(|&digit| digit <= 9);
    let (index, rest) = match *text {
        [first, second, ref rest @ ..] if let Some(second) = digit(second) => (digit(first)? * 10 + second, rest),
        [first, ref rest @ ..] => (digit(first)?, rest),
        [] => return None,
    };
    if rest.first().is_some_and(u8::is_ascii_digit) {
        return None;
    }
    Some((RAW_SQUARES[usize::from(index)]?, rest))
}

/// The square of each index up to 99, as [`raw_square`] gives it.
const RAW_SQUARES: [Option<(File, Rank)>; 100] = {
    let mut squares = [None; 100];
    let mut index = 0;
    while index < squares.len() {
        squares[index] = raw_square(index as u8);
        index += 1;
    }
    squares
};

/// What follows the one to three digits at the start of `text` (the number of an item).
#[inline(always)]
fn skip_number(text: &[u8]) -> Option<&[u8]> {
    let digits = text.iter().take(4).take_while(|byte| byte.is_ascii_digit()).count();
    if digits == 0 || digits > 3 {
        return None;
    }
    text.get(digits..)
}

/// The piece of a full item name, `realchess:<type>_<colour>[_<n>]`.
fn item(name: &[u8]) -> Result<(Role, Color), ParseRawError> {
    name.strip_prefix(PREFIX).and_then(short_name).ok_or(ParseRawError::UnknownItem(Excerpt::new(name)))
}

/// The piece of an item name after its `realchess:`: `<type>_<colour>[_<n>]`.
fn short_name(name: &[u8]) -> Option<(Role, Color)> {
    let (role, rest) =
        ROLE_NAMES.iter().find_map(|&(word, role)| Some((role, name.strip_prefix(word)?.strip_prefix(b"_")?)))?;
    let (color, rest) = if let Some(rest) = rest.strip_prefix(b"white") {
        (Color::White, rest)
    } else {
        (Color::Black, rest.strip_prefix(b"black")?)
    };
    match rest {
        [] => Some((role, color)),
        [b'_', digits @ ..] if is_number(digits) => Some((role, color)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> (File, Rank) {
        let b = name.as_bytes();
        (File::new(b[0] - b'a').unwrap(), Rank::new(b[1] - b'1').unwrap())
    }

    fn parse(text: &str) -> Result<RawEntry, ParseRawError> {
        RawEntry::parse(text.as_bytes())
    }

    fn parse_move(text: &str) -> RawMove {
        match parse(text) {
            Ok(RawEntry::Move(m)) => m,
            other => panic!("{text}: {other:?}"),
        }
    }

    fn message(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    const WP: (Role, Color) = (Role::Pawn, Color::White);
    const BP: (Role, Color) = (Role::Pawn, Color::Black);

    fn quiet(piece: (Role, Color), from: &str, to: &str) -> RawMove {
        RawMove { piece, target: None, from: sq(from), to: sq(to), promotion: None }
    }

    #[test]
    fn indices_count_from_a8() {
        assert_eq!(raw_index(sq("a8").0, sq("a8").1), 1);
        assert_eq!(raw_index(sq("h8").0, sq("h8").1), 8);
        assert_eq!(raw_index(sq("a7").0, sq("a7").1), 9);
        assert_eq!(raw_index(sq("e2").0, sq("e2").1), 53);
        assert_eq!(raw_index(sq("h1").0, sq("h1").1), 64);
        for index in 0..=255 {
            match raw_square(index) {
                Some((file, rank)) => assert_eq!(raw_index(file, rank), index),
                None => assert!(index == 0 || index > 64),
            }
        }
        assert_eq!(raw_index(File::new(8).unwrap(), Rank::new(0).unwrap()), 0);
        assert_eq!(raw_index(File::new(0).unwrap(), Rank::new(25).unwrap()), 0);
    }

    #[test]
    fn the_example_record() {
        let record = b"realchess:pawn_white_1,,53,37,;realchess:pawn_black_1,,13,29,;realchess:knight_white_1,,63,46,";
        let parsed: Vec<_> = entries(record).map(RawEntry::parse).collect();
        assert_eq!(
            parsed,
            [
                Ok(RawEntry::Move(quiet(WP, "e2", "e4"))),
                Ok(RawEntry::Move(quiet(BP, "e7", "e5"))),
                Ok(RawEntry::Move(quiet((Role::Knight, Color::White), "g1", "f3"))),
            ]
        );
        assert_eq!(entries(b"").count(), 0);
        assert_eq!(entries(b";a;;b; ;").collect::<Vec<_>>(), [&b"a"[..], b"b"]);
    }

    #[test]
    fn captures_promotions_and_results() {
        let capture = parse_move("realchess:queen_white,realchess:queen_black,60,4,");
        assert_eq!(
            capture,
            RawMove {
                piece: (Role::Queen, Color::White),
                target: Some((Role::Queen, Color::Black)),
                ..quiet(WP, "d1", "d8")
            }
        );
        let promotion = parse_move("realchess:pawn_white_1,realchess:queen_white,9,1,promo__realchess:queen_white");
        assert_eq!(
            promotion,
            RawMove {
                target: Some((Role::Queen, Color::White)),
                promotion: Some((Role::Queen, Color::White)),
                ..quiet(WP, "a7", "a8")
            }
        );
        let knight = parse_move("realchess:pawn_black_8,realchess:rook_white_2,56,63,promo__realchess:knight_black_1");
        assert_eq!(knight.promotion, Some((Role::Knight, Color::Black)));
        assert_eq!((knight.from, knight.to), (sq("h2"), sq("g1")));
        assert_eq!(knight.target, Some((Role::Rook, Color::White)));
        assert_eq!(parse(",,,,whiteWon"), Ok(RawEntry::Result(Outcome::WhiteWins)));
        assert_eq!(parse(",,,,blackWon"), Ok(RawEntry::Result(Outcome::BlackWins)));
        assert_eq!(parse(",,,,draw"), Ok(RawEntry::Result(Outcome::Draw)));
        assert_eq!(parse(" , , , , draw "), Ok(RawEntry::Result(Outcome::Draw)));
        assert_eq!(parse(",,,,,whiteWon"), Ok(RawEntry::Result(Outcome::WhiteWins)));
    }

    #[test]
    fn older_layouts_and_blanks() {
        let e4 = quiet(WP, "e2", "e4");
        assert_eq!(parse_move("realchess:pawn_white_5,,,53,37"), e4);
        assert_eq!(parse_move("realchess:pawn_white_5,,,53,37,"), e4);
        assert_eq!(parse_move(" realchess:pawn_white_5 , , 53 , 37 , "), e4);
        assert_eq!(parse_move("realchess:pawn_white_5,,53,37,\n"), e4);
        let capture = parse_move("realchess:pawn_white_5,realchess:pawn_black_4,pawn_black,36,27");
        assert_eq!(capture, RawMove { target: Some(BP), ..quiet(WP, "d4", "c5") });
        assert_eq!(parse_move("realchess:pawn_white_5,realchess:pawn_black_4,pawn_black,36,27,"), capture);
        assert_eq!(parse_move("realchess:pawn_white_5,realchess:pawn_black_4,realchess:pawn_black,36,27"), capture);
        assert_eq!(
            message("realchess:pawn_white_5,realchess:pawn_black_4,pawn_blue,36,27"),
            "unknown item name 'pawn_blue'"
        );
    }

    #[test]
    fn errors_say_what_is_wrong() {
        assert_eq!(message("realchess:pawn_white,,0,37,"), "index 0 is off the board");
        assert_eq!(message("realchess:pawn_white,,53,65,"), "index 65 is off the board");
        assert_eq!(message("realchess:pawn_white,,99999999999999,37,"), "index 99999999999999 is off the board");
        assert_eq!(message("realchess:pawn_white,,e2,37,"), "'e2' is not a square index");
        assert_eq!(message("realchess:pawn_white,,53,,"), "'' is not a square index");
        assert_eq!(message("realchess:pawn_white,,-1,37,"), "'-1' is not a square index");
        assert_eq!(message("realchess:dragon_white,,53,37,"), "unknown item name 'realchess:dragon_white'");
        assert_eq!(message("realchess:pawn_red,,53,37,"), "unknown item name 'realchess:pawn_red'");
        assert_eq!(message("realchess:pawn_whitey,,53,37,"), "unknown item name 'realchess:pawn_whitey'");
        assert_eq!(message("realchess:pawn_white_,,53,37,"), "unknown item name 'realchess:pawn_white_'");
        assert_eq!(message("realchess:pawn_white_x,,53,37,"), "unknown item name 'realchess:pawn_white_x'");
        assert_eq!(message("pawn_white,,53,37,"), "unknown item name 'pawn_white'");
        assert_eq!(message("realchess:Pawn_white,,53,37,"), "unknown item name 'realchess:Pawn_white'");
        assert_eq!(message("realchess:pawn_white,default:dirt,53,37,"), "unknown item name 'default:dirt'");
        assert_eq!(
            message("realchess:pawn_white,,9,1,promo__realchess:dragon_white"),
            "unknown item name 'realchess:dragon_white'"
        );
        assert_eq!(message("realchess:pawn_white,,53,37,castle"), "unknown special field 'castle'");
        assert_eq!(message("realchess:pawn_white,,53,37,whiteWon"), "a result marker in an entry with a move");
        assert_eq!(message(",,,,checkmate"), "unknown special field 'checkmate'");
        assert_eq!(message(",,,,"), "no piece in the first field");
        assert_eq!(message(",,53,37,"), "no piece in the first field");
        assert_eq!(message(""), "expected 5 fields, found 1");
        assert_eq!(message("realchess:pawn_white,,53"), "expected 5 fields, found 3");
        assert_eq!(message("realchess:pawn_white,,53,37"), "expected 5 fields, found 4");
        assert_eq!(message("realchess:pawn_white,,53,37,,,"), "expected 5 fields, found 7");
        assert_eq!(message("realchess:pawn_white,,53,37,,"), "expected 5 fields, found 6");
        assert_eq!(message("realchess:pawn_white,,53,37,;realchess:pawn_black,,13,29,"), "expected 5 fields, found 9");
        let long = format!("realchess:{}_white,,53,37,", "é".repeat(30));
        assert_eq!(message(&long), format!("unknown item name 'realchess:{}…'", "é".repeat(15)));
    }

    #[test]
    fn items() {
        let mut out = Vec::new();
        write_item(Role::Knight, Color::White, Some(2), &mut out);
        assert_eq!(out, b"realchess:knight_white_2");
        out.clear();
        write_item(Role::Queen, Color::Black, None, &mut out);
        assert_eq!(out, b"realchess:queen_black");
        out.clear();
        write_item(Role::Pawn, Color::Black, Some(255), &mut out);
        assert_eq!(out, b"realchess:pawn_black_255");
        for (_, role) in ROLE_NAMES {
            for color in Color::ALL {
                for number in [None, Some(0), Some(1), Some(8), Some(10), Some(255)] {
                    out.clear();
                    write_item(role, color, number, &mut out);
                    assert_eq!(item(&out), Ok((role, color)), "{}", String::from_utf8_lossy(&out));
                }
            }
        }
    }

    #[test]
    fn written_entries_read_back() {
        let pieces: Vec<(Role, Color)> =
            Color::ALL.iter().flat_map(|&color| ROLE_NAMES.map(|(_, role)| (role, color))).collect();
        let mut out = Vec::new();
        let mut count = 0;
        for from in 1..=64 {
            for to in 1..=64 {
                let k = usize::from(from) * 5 + usize::from(to) * 3;
                let m = RawMove {
                    piece: pieces[k % pieces.len()],
                    target: if k % 3 == 0 { None } else { Some(pieces[(k / 3) % pieces.len()]) },
                    from: raw_square(from).unwrap(),
                    to: raw_square(to).unwrap(),
                    promotion: if k % 4 == 0 { Some(pieces[(k / 4) % pieces.len()]) } else { None },
                };
                for numbers in [(None, None), (Some(1), Some(8)), (Some(2), None)] {
                    out.clear();
                    m.write(numbers, &mut out);
                    assert_eq!(RawEntry::parse(&out), Ok(RawEntry::Move(m)), "{}", String::from_utf8_lossy(&out));
                    count += 1;
                }
            }
        }
        assert_eq!(count, 64 * 64 * 3);
        for &piece in &pieces {
            for &target in std::iter::once(&None).chain(pieces.iter().map(Some).collect::<Vec<_>>().iter()) {
                for &promotion in std::iter::once(&None).chain(pieces.iter().map(Some).collect::<Vec<_>>().iter()) {
                    let m = RawMove {
                        piece,
                        target: target.copied(),
                        from: sq("b7"),
                        to: sq("a8"),
                        promotion: promotion.copied(),
                    };
                    out.clear();
                    RawEntry::Move(m).write(&mut out);
                    assert_eq!(RawEntry::parse(&out), Ok(RawEntry::Move(m)));
                }
            }
        }
        for outcome in [Outcome::WhiteWins, Outcome::BlackWins, Outcome::Draw] {
            out.clear();
            outcome.write_raw(&mut out);
            assert_eq!(RawEntry::parse(&out), Ok(RawEntry::Result(outcome)));
        }
        out.clear();
        RawEntry::Move(RawMove { promotion: Some((Role::Queen, Color::White)), ..quiet(WP, "a7", "a8") })
            .write(&mut out);
        assert_eq!(out, b"realchess:pawn_white,,9,1,promo__realchess:queen_white");
        out.clear();
        RawEntry::Move(RawMove { promotion: Some((Role::Rook, Color::Black)), ..quiet(BP, "a2", "a1") })
            .write(&mut out);
        assert_eq!(out, b"realchess:pawn_black,,49,57,promo__realchess:rook_black_1");
    }

    #[test]
    fn never_panics() {
        let samples = [
            "realchess:pawn_white_1,,53,37,",
            "realchess:knight_white_1,,63,46,",
            "realchess:queen_white,realchess:queen_black,60,4,",
            "realchess:pawn_white_1,realchess:queen_white,9,1,promo__realchess:queen_white",
            ",,,,whiteWon",
            ",,,,,draw",
            "realchess:pawn_white_5,realchess:pawn_black_4,pawn_black,36,27",
            "realchess:pawn_white_5,,,53,37,",
            " realchess:pawn_white_5 , , 53 , 37 , ",
            "realchess:bishop_black_2,,6,13,",
            "realchess:king_black,,5,7,",
            "realchess:rook_white_2,realchess:rook_black_1,64,1,",
            "realchess:pawn_black_3,realchess:knight_white_1,51,58,promo__realchess:queen_black",
        ];
        let mut out = Vec::new();
        for entry in samples {
            let bytes = entry.as_bytes();
            assert!(RawEntry::parse(bytes).is_ok(), "{entry}");
            for end in 0..=bytes.len() {
                let _ = RawEntry::parse(&bytes[..end]);
                let _ = RawEntry::parse(&bytes[end..]);
            }
            let mut mutated = bytes.to_vec();
            for i in 0..bytes.len() {
                for byte in 0..=255 {
                    mutated[i] = byte;
                    if let Some(fast) = current_move(&mutated) {
                        assert_eq!(RawEntry::parse_any(&mutated), Ok(RawEntry::Move(fast)));
                    }
                    // Read at the start of a record, an entry ends at its `;`.
                    let record = [&mutated[..], b";realchess:pawn_black_5,,13,29,"].concat();
                    if let Some((fast, len)) = read_current_move(&record) {
                        assert!(matches!(record.get(len), None | Some(b';')));
                        assert_eq!(RawEntry::parse_any(&record[..len]), Ok(RawEntry::Move(fast)));
                    }
                    match RawEntry::parse(&mutated) {
                        Ok(parsed) => {
                            out.clear();
                            parsed.write(&mut out);
                            assert_eq!(RawEntry::parse(&out), Ok(parsed));
                        }
                        Err(error) => {
                            let _ = error.to_string();
                        }
                    }
                }
                mutated[i] = bytes[i];
            }
        }
    }
}
