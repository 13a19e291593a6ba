//! The main line of one game, read again from its text in whatever notation it is written:
//! its tags, the position it starts from, its moves up to any error, its result. Writers of
//! games in another notation (PGN from X-Decor, X-Decor from PGN) start from it.

use std::borrow::Cow;
use std::ops::ControlFlow;

use super::cql_game::standard_result;
use crate::notation::pgn::{GameSpan, Lexer, Visitor, decode_text, play_san_token, tag_text};
use crate::notation::{Container, MoveError, MoveReader, MovetextReader, fen};
use crate::position::Position;
use crate::rules::GameRules;
use crate::rules::classical::{Board, Move};
use crate::text::excerpt;
use crate::variant::{Family, Variant};

/// A game's main line.
#[derive(Clone, Debug)]
pub struct MainLine<'a> {
    /// Its tag pairs, as written (escapes in).
    pub tags: Vec<(&'a [u8], &'a [u8])>,
    /// Its variant.
    pub variant: &'static Variant,
    /// The position it starts from.
    pub initial: Board,
    /// Its moves, up to the first that could not be played.
    pub moves: Vec<Move>,
    /// The result that ends its movetext, as PGN spells it.
    pub outcome: Option<&'static [u8]>,
    /// Why its moves stop early: the ply of the move that could not be played, its token, and
    /// what is wrong.
    pub error: Option<(u32, String, String)>,
}

impl MainLine<'_> {
    /// The value of a tag, unescaped.
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<Cow<'_, str>> {
        let (_, value) = self.tags.iter().rev().find(|(tag, _)| tag.eq_ignore_ascii_case(name.as_bytes()))?;
        Some(tag_text(value))
    }
}

/// Reads the main line of the first game of `text`, held as `container` holds games; games
/// without a `Variant` tag are of `default_variant`. `None` when the text holds no game, or
/// one whose moves cqlq does not replay (its variant, its `FEN` tag).
#[must_use]
pub fn read_main_line<'a>(
    text: &'a [u8],
    container: Container,
    default_variant: &'static Variant,
) -> Option<MainLine<'a>> {
    let mut reader = LineReader { container, default_variant, tags: Vec::new(), line: None, moves: None, reader: None };
    let span: Option<GameSpan> = match container {
        Container::Pgn => Lexer::new(text).next_game(&mut reader),
        Container::Native(format) => format.next_game(text, &mut 0, &mut reader),
    };
    span?;
    let mut line = reader.line?;
    line.tags = reader.tags;
    Some(line)
}

/// The visitor that reads a main line.
struct LineReader<'a> {
    container: Container,
    default_variant: &'static Variant,
    tags: Vec<(&'a [u8], &'a [u8])>,
    /// The line read so far, once the movetext begins.
    line: Option<MainLine<'a>>,
    /// The board after the moves read.
    moves: Option<(Board, Option<&'static dyn MoveReader>)>,
    reader: Option<&'static dyn MovetextReader>,
}

impl LineReader<'_> {
    fn tag_value(&self, name: &[u8]) -> Option<String> {
        let (_, value) = self.tags.iter().rev().find(|(tag, _)| tag.eq_ignore_ascii_case(name))?;
        Some(tag_text(value).into_owned())
    }

    fn stop(&mut self, token: &[u8], error: &MoveError) -> ControlFlow<()> {
        if let Some(line) = &mut self.line
            && line.error.is_none()
        {
            let ply = u32::try_from(line.moves.len()).unwrap_or(u32::MAX).saturating_add(1);
            line.error = Some((ply, excerpt(&decode_text(token), 32), error.to_string()));
        }
        self.moves = None;
        ControlFlow::Break(())
    }
}

impl<'a> Visitor<'a> for LineReader<'a> {
    fn tag(&mut self, name: &'a [u8], value: &'a [u8]) {
        self.tags.push((name, value));
    }

    fn begin_movetext(&mut self, _start: usize) -> ControlFlow<()> {
        let variant = match self.tag_value(b"Variant").filter(|name| !name.trim().is_empty()) {
            Some(name) => Variant::by_name(&name).ok(),
            None => Some(self.default_variant),
        };
        let Some(variant) = variant.filter(|variant| variant.family == Family::Classical) else {
            return ControlFlow::Break(());
        };
        let Some(movetext) = self.container.movetext(variant) else { return ControlFlow::Break(()) };
        let initial = match self.tag_value(b"FEN") {
            None => Board::initial(variant),
            Some(text) => {
                let position = fen::read::<1>(variant, &text).ok().and_then(|setup| Position::from_setup(setup).ok());
                let Some(position) = position else { return ControlFlow::Break(()) };
                Board::from_position(&position)
            }
        };
        self.reader = movetext.reader;
        self.moves = Some((initial, movetext.moves.and_then(Board::reader_of)));
        self.line =
            Some(MainLine { tags: Vec::new(), variant, initial, moves: Vec::new(), outcome: None, error: None });
        ControlFlow::Continue(())
    }

    fn movetext_reader(&self) -> Option<&'static dyn MovetextReader> {
        self.reader
    }

    fn move_token(&mut self, token: &'a [u8], _end: usize) -> ControlFlow<()> {
        let Some((board, moves)) = &mut self.moves else { return ControlFlow::Break(()) };
        let played = match moves {
            None => play_san_token(board, token).map_err(MoveError::new),
            Some(moves) => moves.play(board, token),
        };
        match played {
            Ok(m) => {
                if let Some(line) = &mut self.line {
                    line.moves.push(m);
                }
                ControlFlow::Continue(())
            }
            Err(error) => self.stop(token, &error),
        }
    }

    fn unreadable(&mut self, token: &'a [u8], _end: usize, reason: String) {
        let error = MoveError::because(crate::notation::MoveErrorKind::Unreadable, reason);
        let _ = self.stop(token, &error);
    }

    fn begin_variation(&mut self) -> ControlFlow<()> {
        ControlFlow::Break(())
    }

    fn outcome(&mut self, result: &'a [u8]) {
        if let Some(line) = &mut self.line {
            line.outcome = standard_result(result);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::xdecor::{RAW_FORMAT, TABLE_FORMAT};

    #[test]
    fn main_lines_are_read_in_every_notation() {
        let pgn = read_main_line(b"[White \"A\"]\n\n1. e4 (1. d4) e5 2. Nf3 1-0", Container::Pgn, Variant::standard());
        let pgn = pgn.unwrap();
        assert_eq!((pgn.moves.len(), pgn.outcome, pgn.tag("white").as_deref()), (3, Some(&b"1-0"[..]), Some("A")));
        let table = "1. e2–e4 e7–e5\n2. ♘g1–f3\n1–0\n";
        let native = read_main_line(table.as_bytes(), Container::Native(&TABLE_FORMAT), Variant::standard()).unwrap();
        assert_eq!((native.moves, native.outcome), (pgn.moves.clone(), pgn.outcome));
        let raw = b"realchess:pawn_white_5,,53,37,;realchess:pawn_black_5,,13,29,;realchess:knight_white_2,,63,46,;,,,,blackWon";
        let raw = read_main_line(raw, Container::Native(&RAW_FORMAT), Variant::standard()).unwrap();
        assert_eq!((raw.moves, raw.outcome), (pgn.moves, Some(&b"0-1"[..])));
        let broken = read_main_line(b"1. e4 e5 2. Ke3 *", Container::Pgn, Variant::standard()).unwrap();
        assert_eq!(broken.moves.len(), 2);
        assert_eq!(broken.error, Some((3, "Ke3".to_owned(), "illegal move".to_owned())));
    }
}
