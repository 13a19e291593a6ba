//! Text in PGN files: UTF-8 where it is valid. Old databases wrote names in a single-byte code
//! page instead: Windows-1252 (Latin-1 and its Windows superset), or, in files from DOS days,
//! code page 437, where `ü` is byte 0x81 and `ä` 0x84. A value that is not UTF-8 is read as
//! Windows-1252, unless one of its bytes stands between two letters and is a letter in code
//! page 437 but not in Windows-1252 (`Z\x81rich`, `Schottl\x84nder`): then as code page 437.
//!
//! ```
//! use cqlq::notation::pgn::{decode_text, tag_text};
//!
//! assert_eq!(decode_text(b"Schottl\xE4nder"), "Schottländer");
//! assert_eq!(decode_text(b"Schottl\x84nder"), "Schottländer");
//! assert_eq!(decode_text("Schottländer".as_bytes()), "Schottländer");
//! assert_eq!(decode_text(b"\x93quoted\x94 \x80"), "\u{201C}quoted\u{201D} €");
//! assert_eq!(tag_text(br#"A \"B\""#), r#"A "B""#);
//! ```

use std::borrow::Cow;

use super::unescape;

/// The characters of Windows-1252 from 0x80 to 0x9F (the rest of its upper half is Latin-1);
/// its five unassigned bytes stand for the control characters of the same number.
const WINDOWS_1252_HIGH: [char; 32] = [
    '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8D}', 'Ž', '\u{8F}', '\u{90}', '‘', '’',
    '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9D}', 'ž', 'Ÿ',
];

/// The upper half of code page 437, from 0x80.
const CP437_HIGH: [char; 128] = [
    'Ç', 'ü', 'é', 'â', 'ä', 'à', 'å', 'ç', 'ê', 'ë', 'è', 'ï', 'î', 'ì', 'Ä', 'Å', //
    'É', 'æ', 'Æ', 'ô', 'ö', 'ò', 'û', 'ù', 'ÿ', 'Ö', 'Ü', '¢', '£', '¥', '₧', 'ƒ', //
    'á', 'í', 'ó', 'ú', 'ñ', 'Ñ', 'ª', 'º', '¿', '⌐', '¬', '½', '¼', '¡', '«', '»', //
    '░', '▒', '▓', '│', '┤', '╡', '╢', '╖', '╕', '╣', '║', '╗', '╝', '╜', '╛', '┐', //
    '└', '┴', '┬', '├', '─', '┼', '╞', '╟', '╚', '╔', '╩', '╦', '╠', '═', '╬', '╧', //
    '╨', '╤', '╥', '╙', '╘', '╒', '╓', '╫', '╪', '┘', '┌', '█', '▄', '▌', '▐', '▀', //
    'α', 'ß', 'Γ', 'π', 'Σ', 'σ', 'µ', 'τ', 'Φ', 'Θ', 'Ω', 'δ', '∞', 'φ', 'ε', '∩', //
    '≡', '±', '≥', '≤', '⌠', '⌡', '÷', '≈', '°', '∙', '·', '√', 'ⁿ', '²', '■', '\u{A0}',
];

/// Bytes of a PGN file as text: as UTF-8 when they are valid UTF-8, else in the code page they
/// look written in (see the module's documentation).
#[must_use]
pub fn decode_text(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => {
            let page: fn(u8) -> char = if looks_dos(bytes) { cp437 } else { windows_1252 };
            Cow::Owned(bytes.iter().map(|&byte| page(byte)).collect())
        }
    }
}

/// A tag value as written (escapes in) as text: escapes undone, then decoded.
#[must_use]
pub fn tag_text(value: &[u8]) -> Cow<'_, str> {
    match unescape(value) {
        Cow::Borrowed(bytes) => decode_text(bytes),
        Cow::Owned(bytes) => Cow::Owned(decode_text(&bytes).into_owned()),
    }
}

/// Whether a byte between two ASCII letters is a letter in code page 437 and not in
/// Windows-1252 (whose quotes may stand beside a word, not inside it).
fn looks_dos(bytes: &[u8]) -> bool {
    let letter_at = |at: Option<usize>| at.and_then(|at| bytes.get(at)).is_some_and(u8::is_ascii_alphabetic);
    bytes.iter().enumerate().any(|(at, &byte)| {
        byte >= 0x80
            && cp437(byte).is_alphabetic()
            && !windows_1252(byte).is_alphabetic()
            && letter_at(at.checked_sub(1))
            && letter_at(Some(at + 1))
    })
}

fn windows_1252(byte: u8) -> char {
    match byte {
        0x80..=0x9F => WINDOWS_1252_HIGH[usize::from(byte - 0x80)],
        _ => char::from(byte),
    }
}

fn cp437(byte: u8) -> char {
    if byte < 0x80 { char::from(byte) } else { CP437_HIGH[usize::from(byte - 0x80)] }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_the_corpus() {
        for (bytes, text) in [
            (&b"Br\x81ssel"[..], "Brüssel"),
            (b"K\x94ln", "Köln"),
            (b"Si\xa2n M", "Sión M"),
            (b"M\xfcller", "Müller"),
            (b"\xc9mile", "Émile"),
            (b"caf\xe9 \x80", "café €"),
        ] {
            assert_eq!(decode_text(bytes), text);
        }
    }
}
