//! Files of `moves_raw` records, one game to a line: the entries of a game separated by `;`,
//! a result marker (`,,,,whiteWon`) where the game ended. A line may keep the key it was
//! copied with (`moves_raw = "..."`).
//!
//! [`RAW_FORMAT`] cuts the entries and tells them to the visitor; [`RAW_MOVES`](super::RAW_MOVES)
//! plays them.

use memchr::memchr;

use super::halfmove::Outcome;
use super::raw::RawEntry;
use crate::notation::lines::{BOM, LineSplitter, first_content_line, is_blank, line_end, skip_blank_lines};
use crate::notation::pgn::{GameSpan, Visitor};
use crate::notation::{GameSplitter, MoveNotation, NativeFormat};
use crate::variant::Variant;

/// Files of `moves_raw` records.
#[derive(Clone, Copy, Debug, Default)]
pub struct RawFormat;

/// The reader of files of `moves_raw` records.
pub static RAW_FORMAT: RawFormat = RawFormat;

/// The item names every record holds.
const ITEM_PREFIX: &[u8] = b"realchess:";

/// The key of the record in the board's metadata.
const KEY: &[u8] = b"moves_raw";

/// The entries of a line: after any key and opening quote, up to any closing quote.
fn record_bounds(line: &[u8], start: usize) -> (usize, usize) {
    let mut from = start;
    let mut to = line.len();
    while to > from && line[to - 1].is_ascii_whitespace() {
        to -= 1;
    }
    while from < to && line[from].is_ascii_whitespace() {
        from += 1;
    }
    if line[from..to].starts_with(BOM) {
        from += BOM.len();
    }
    if line[from..to].starts_with(KEY) {
        from += KEY.len();
        while from < to && matches!(line[from], b' ' | b'\t' | b'=' | b':') {
            from += 1;
        }
    }
    if from < to && matches!(line[from], b'"' | b'\'') {
        let quote = line[from];
        from += 1;
        if to > from && line[to - 1] == quote {
            to -= 1;
        }
    }
    (from, to)
}

impl NativeFormat for RawFormat {
    fn name(&self) -> &'static str {
        "xdecor-raw"
    }

    fn description(&self) -> &'static str {
        "X-Decor moves_raw record"
    }

    fn variant(&self) -> &'static Variant {
        super::variant()
    }

    fn sniff(&self, head: &[u8]) -> bool {
        // The first line with content is a record: it starts with an item name (or, for a game
        // without a move, a result marker).
        let Some(line) = first_content_line(head) else { return false };
        let (from, to) = record_bounds(line, 0);
        let record = &line[from..to];
        record.starts_with(ITEM_PREFIX) || record.starts_with(b",,,,")
    }

    fn splitter(&self) -> Box<dyn GameSplitter> {
        Box::new(LineSplitter::default())
    }

    fn next_game<'a>(&self, text: &'a [u8], at: &mut usize, visitor: &mut dyn Visitor<'a>) -> Option<GameSpan> {
        if !skip_blank_lines(text, at, is_blank) {
            return None;
        }
        let start = *at;
        let end = line_end(text, start);
        *at = end;
        visitor.begin_game(start);
        if visitor.begin_movetext(start).is_continue() {
            let (from, to) = record_bounds(&text[..end], start);
            read_entries(text, from, to, visitor);
        }
        Some(GameSpan { start, movetext: start, end })
    }

    fn moves(&self) -> Option<MoveNotation> {
        Some(super::RAW_NOTATION)
    }
}

/// Tells the visitor the entries of `text[from..to]`: result markers as results, the others as
/// move tokens (which the move reader parses).
fn read_entries<'a>(text: &'a [u8], from: usize, to: usize, visitor: &mut dyn Visitor<'a>) {
    let mut at = from;
    let mut moving = true;
    while at < to {
        let end = memchr(b';', &text[at..to]).map_or(to, |i| at + i);
        let entry = &text[at..end];
        if let Some(outcome) = result_marker(entry) {
            visitor.outcome(outcome.pgn());
        } else if moving && !is_blank(entry) {
            moving = visitor.move_token(entry, end).is_continue();
        }
        at = end + 1;
    }
}

/// The result a marker entry (`,,,,draw`) names; `None` for every other entry.
fn result_marker(entry: &[u8]) -> Option<Outcome> {
    let trimmed = entry.trim_ascii_start();
    if !trimmed.starts_with(b",") {
        return None;
    }
    match RawEntry::parse(entry) {
        Ok(RawEntry::Result(outcome)) => Some(outcome),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_sniffed_by_their_first_line() {
        assert!(RAW_FORMAT.sniff(b"\nrealchess:pawn_white_5,,53,37,;,,,,draw\n"));
        assert!(RAW_FORMAT.sniff(b"moves_raw = \"realchess:pawn_white_5,,53,37,\"\n"));
        assert!(!RAW_FORMAT.sniff(b"# Notes\n\nThe items are named realchess:pawn_white_5 and so on.\n"));
    }
}
