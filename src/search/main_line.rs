//! The main line of one game, read again from its text in whatever notation it is written and
//! played by the rules of its variant: its tags, the position it starts from, its moves (as the
//! variant's own notation writes them, and as its rules keep them) up to any error, its result.
//! Writers of games in another notation (PGN from X-Decor, X-Decor from PGN) start from it.

use std::borrow::Cow;
use std::ops::ControlFlow;

use super::cql_game::{TagReader, standard_result, variant_of};
use crate::notation::pgn::export::WrittenMove;
use crate::notation::pgn::{GameSpan, Lexer, Visitor, decode_text, tag_text};
use crate::notation::{Container, MoveError, MoveErrorKind, MoveReader, MovetextReader};
use crate::rules::registry::{Typed, WithRules, with_rules};
use crate::rules::{GameRules, formats};
use crate::text::excerpt;
use crate::variant::{Color, Edition, Variant};

/// A game's main line.
#[derive(Clone, Debug)]
pub struct MainLine<'a> {
    /// Its tag pairs, as written (escapes in).
    pub tags: Vec<(&'a [u8], &'a [u8])>,
    /// Its variant.
    pub variant: &'static Variant,
    /// The text of its `FEN` tag, where it has one.
    pub fen_tag: Option<String>,
    /// The position it starts from, as its variant writes positions, where it is not the
    /// variant's first.
    pub setup: Option<String>,
    /// Its moves, up to the first that could not be played, as the variant's own notation
    /// writes them (SAN), with their numbers.
    pub moves: Vec<WrittenMove>,
    /// The same moves as the variant's rules keep them ([`GameRules::keep`]); empty where the
    /// rules keep none.
    pub kept: Vec<u32>,
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
/// without a `Variant` tag are of `default_variant`, those of a variant with editions without
/// an `Edition` tag of `edition` (else the variant's own). `None` when the text holds no game, or
/// one whose moves cqlq does not replay (its variant, its `FEN` tag).
#[must_use]
pub fn read_main_line<'a>(
    text: &'a [u8],
    container: Container,
    default_variant: &'static Variant,
    edition: Option<Edition>,
) -> Option<MainLine<'a>> {
    let variant = match container {
        Container::Pgn => {
            let mut tags = TagReader(Vec::new());
            Lexer::new(text).next_game(&mut tags)?;
            variant_of(&tags.0, default_variant, edition)?
        }
        Container::Native(format) => format.variant(),
    };
    with_rules(variant, ReadLine { text, container, variant }).ok().flatten()
}

/// Reading a main line with the rules of its variant.
struct ReadLine<'a> {
    text: &'a [u8],
    container: Container,
    variant: &'static Variant,
}

impl<'a> WithRules for ReadLine<'a> {
    type Output = Option<MainLine<'a>>;

    fn run<R: GameRules<W>, const W: usize>(self, _typed: Typed<W>) -> Option<MainLine<'a>> {
        let mut reader: LineReader<'a, R, W> = LineReader {
            container: self.container,
            variant: self.variant,
            tags: Vec::new(),
            line: None,
            moves: None,
            reader: None,
        };
        let span: Option<GameSpan> = match self.container {
            Container::Pgn => Lexer::new(self.text).next_game(&mut reader),
            Container::Native(format) => format.next_game(self.text, &mut 0, &mut reader),
        };
        span?;
        let mut line = reader.line?;
        line.tags = reader.tags;
        Some(line)
    }
}

/// The board after the moves read, and what plays the tokens of the game's notation (`None`:
/// its rules' own).
type Playing<R, const W: usize> = (R, Option<&'static dyn MoveReader<R, <R as GameRules<W>>::Played>>);

/// The visitor that reads a main line.
struct LineReader<'a, R: GameRules<W>, const W: usize> {
    container: Container,
    variant: &'static Variant,
    tags: Vec<(&'a [u8], &'a [u8])>,
    /// The line read so far, once the movetext begins.
    line: Option<MainLine<'a>>,
    moves: Option<Playing<R, W>>,
    reader: Option<&'static dyn MovetextReader>,
}

impl<R: GameRules<W>, const W: usize> LineReader<'_, R, W> {
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

impl<'a, R: GameRules<W>, const W: usize> Visitor<'a> for LineReader<'a, R, W> {
    fn tag(&mut self, name: &'a [u8], value: &'a [u8]) {
        self.tags.push((name, value));
    }

    fn begin_movetext(&mut self, _start: usize) -> ControlFlow<()> {
        let variant = self.variant;
        let Some(movetext) = formats::movetext(self.container, variant) else { return ControlFlow::Break(()) };
        let fen_tag = self.tag_value(b"FEN");
        let Ok(initial) = R::start(variant, fen_tag.as_deref()) else { return ControlFlow::Break(()) };
        let written = |board: &R| {
            let mut text = String::new();
            board.write_position(&mut text);
            text
        };
        let setup = fen_tag
            .as_ref()
            .map(|_| written(&initial))
            .filter(|setup| R::start(variant, None).map_or(true, |first| *setup != written(&first)));
        self.reader = movetext.reader;
        self.moves = Some((initial, movetext.moves.and_then(R::reader_of)));
        let line = MainLine {
            tags: Vec::new(),
            variant,
            fen_tag,
            setup,
            moves: Vec::new(),
            kept: Vec::new(),
            outcome: None,
            error: None,
        };
        self.line = Some(line);
        ControlFlow::Continue(())
    }

    fn movetext_reader(&self) -> Option<&'static dyn MovetextReader> {
        self.reader
    }

    fn move_token(&mut self, token: &'a [u8], _end: usize) -> ControlFlow<()> {
        let Some((board, moves)) = &mut self.moves else { return ControlFlow::Break(()) };
        let before = board.clone();
        let played = match moves {
            None => {
                let mut reason = None;
                board.play_token(token, &mut reason).map_err(|kind| reason.unwrap_or_else(|| MoveError::new(kind)))
            }
            Some(moves) => moves.play(board, token),
        };
        match played {
            Ok(m) => {
                let (number, black) = (before.move_number(), before.turn() == Color::Black);
                let mut san = String::new();
                if !before.write_move(&m, board, false, &mut san) {
                    san = String::from_utf8_lossy(token).into_owned();
                }
                if let Some(line) = &mut self.line {
                    line.moves.push(WrittenMove { number, black, san });
                    if let Some(kept) = R::keep(&m) {
                        line.kept.push(kept);
                    }
                }
                ControlFlow::Continue(())
            }
            Err(error) => self.stop(token, &error),
        }
    }

    fn unreadable(&mut self, token: &'a [u8], _end: usize, reason: String) {
        let error = MoveError::because(MoveErrorKind::Unreadable, reason);
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
    use crate::rules::classical::xdecor::{RAW_FORMAT, TABLE_FORMAT};

    #[test]
    fn main_lines_are_read_in_every_notation() {
        let pgn =
            read_main_line(b"[White \"A\"]\n\n1. e4 (1. d4) e5 2. Nf3 1-0", Container::Pgn, Variant::standard(), None);
        let pgn = pgn.unwrap();
        assert_eq!((pgn.moves.len(), pgn.outcome, pgn.tag("white").as_deref()), (3, Some(&b"1-0"[..]), Some("A")));
        assert_eq!(pgn.moves[2], WrittenMove { number: 2, black: false, san: "Nf3".to_owned() });
        let table = "1. e2–e4 e7–e5\n2. ♘g1–f3\n1–0\n";
        let native =
            read_main_line(table.as_bytes(), Container::Native(&TABLE_FORMAT), Variant::standard(), None).unwrap();
        assert_eq!((&native.moves, &native.kept, native.outcome), (&pgn.moves, &pgn.kept, pgn.outcome));
        let raw = b"realchess:pawn_white_5,,53,37,;realchess:pawn_black_5,,13,29,;realchess:knight_white_2,,63,46,;,,,,blackWon";
        let raw = read_main_line(raw, Container::Native(&RAW_FORMAT), Variant::standard(), None).unwrap();
        assert_eq!((raw.moves, raw.outcome), (pgn.moves, Some(&b"0-1"[..])));
        let broken = read_main_line(b"1. e4 e5 2. Ke3 *", Container::Pgn, Variant::standard(), None).unwrap();
        assert_eq!(broken.moves.len(), 2);
        assert_eq!(broken.error, Some((3, "Ke3".to_owned(), "illegal move".to_owned())));
    }

    #[test]
    fn the_moves_of_each_variant_are_written_by_its_rules() {
        // The pawn taking on d5 explodes with what it takes; the queen's capture explodes the
        // king beside d2, which ends the game, written as a mate.
        let text = b"[Variant \"Atomic\"]\n\n1. e4 d5 2. exd5 Qxd2 0-1";
        let atomic = read_main_line(text, Container::Pgn, Variant::standard(), None).unwrap();
        assert_eq!(atomic.error, None);
        let sans: Vec<String> = atomic.moves.into_iter().map(|m| m.san).collect();
        assert_eq!(sans, ["e4", "d5", "exd5", "Qxd2#"]);
        let set_up = b"[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]\n\n30... Kd7 *";
        let line = read_main_line(set_up, Container::Pgn, Variant::standard(), None).unwrap();
        assert_eq!(line.setup.as_deref(), Some("4k3/8/8/8/8/8/4P3/4K3 b - - 0 30"));
        let from_start = read_main_line(
            b"[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n1. e4 *",
            Container::Pgn,
            Variant::standard(),
            None,
        );
        assert_eq!(from_start.unwrap().setup, None);
    }
}
