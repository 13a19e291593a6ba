//! Replaying the games of a stretch of PGN and testing every position against the plan.
//!
//! [`replay_range`] reads the games of a byte range with the PGN [`Lexer`], replays their moves
//! with the rules of their variant, and records for each game the positions that matched (with
//! the byte offset where a marking comment goes) and the first error, if any. It never prints.

use std::fmt;
use std::ops::ControlFlow;

use crate::notation::fen;
use crate::notation::pgn::{Lexer, Visitor, unescape};
use crate::position::Position;
use crate::query::Program;
use crate::rules::classical::{Board, San, SanError};
use crate::variant::{Family, Variant};

use super::plans::Plans;

/// What a replay needs to know besides the text.
#[derive(Clone, Copy, Debug)]
pub struct ReplayOptions<'a> {
    /// The compiled query.
    pub plans: &'a Plans,
    /// The variant of games without a `Variant` tag.
    pub default_variant: &'static Variant,
    /// Search the positions of variations too.
    pub variations: bool,
    /// Only games with this result (from the `Result` tag).
    pub result: Option<&'a [u8]>,
}

/// A position that matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchedPly {
    /// Its ply: 0 for the initial position, then 1 after the first move.
    pub ply: u32,
    /// Where the marking comment goes: after the move that reached it (before the first move for
    /// the initial position), as an offset into the text given.
    pub offset: usize,
}

/// Why a game could not be replayed to its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameErrorKind {
    /// A token that is no move.
    Unreadable,
    /// A move that is not legal here.
    Illegal,
    /// A move that fits several legal moves.
    Ambiguous,
    /// The `FEN` tag is not a position of the variant.
    BadFen(String),
    /// The `Variant` tag names no variant cqlq knows.
    UnknownVariant(String),
    /// A variant whose PGN moves cqlq does not replay.
    UnsupportedVariant(&'static str),
    /// The query does not compile for the game's variant.
    QueryDoesNotFit(&'static str),
}

/// The first error of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError {
    /// The ply the move would have made (0 for errors before the first move).
    pub ply: u32,
    /// Where the move token starts, as an offset into the text given.
    pub offset: usize,
    /// The move token, as written.
    pub token: String,
    /// What is wrong.
    pub kind: GameErrorKind,
}

impl fmt::Display for GameErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameErrorKind::Unreadable => f.write_str("not a move"),
            GameErrorKind::Illegal => f.write_str("illegal move"),
            GameErrorKind::Ambiguous => f.write_str("ambiguous move"),
            GameErrorKind::BadFen(reason) => write!(f, "bad FEN tag: {reason}"),
            GameErrorKind::UnknownVariant(name) => write!(f, "unknown variant '{name}'"),
            GameErrorKind::UnsupportedVariant(name) => write!(f, "{name} games are not replayed from PGN moves"),
            GameErrorKind::QueryDoesNotFit(name) => write!(f, "the query does not compile for {name}"),
        }
    }
}

/// One game of a range, as replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Where the game starts, as an offset into the text given.
    pub start: usize,
    /// Where its movetext starts.
    pub movetext: usize,
    /// One past its end.
    pub end: usize,
    /// The positions that matched.
    pub matched: Vec<MatchedPly>,
    /// The first error, if the replay stopped early.
    pub error: Option<GameError>,
    /// Whether the game was left out before any replay (its result did not fit).
    pub excluded: bool,
    /// The number of plies replayed.
    pub plies: u32,
}

/// Replays every game of `text` (which holds whole games) and returns one record per game.
#[must_use]
pub fn replay_range(text: &[u8], options: &ReplayOptions<'_>) -> Vec<GameRecord> {
    let mut replayer = Replayer::new(options);
    let mut lexer = Lexer::new(text);
    let mut records = Vec::new();
    while let Some(span) = lexer.next_game(&mut replayer) {
        records.push(GameRecord {
            start: span.start,
            movetext: span.movetext,
            end: span.end,
            matched: std::mem::take(&mut replayer.matched),
            error: replayer.error.take(),
            excluded: replayer.excluded,
            plies: replayer.plies,
        });
    }
    records
}

/// The line in one variation level: the board, and the board before the last move.
#[derive(Clone)]
struct Line {
    board: Board,
    before_last: Board,
    ply: u32,
}

struct Replayer<'a, 'o> {
    options: &'o ReplayOptions<'o>,
    tags: Vec<(&'a [u8], &'a [u8])>,
    program: Option<&'o Program<1>>,
    line: Option<Line>,
    outer: Vec<Line>,
    matched: Vec<MatchedPly>,
    error: Option<GameError>,
    excluded: bool,
    plies: u32,
}

impl<'a, 'o> Replayer<'a, 'o> {
    fn new(options: &'o ReplayOptions<'o>) -> Replayer<'a, 'o> {
        Replayer {
            options,
            tags: Vec::new(),
            program: None,
            line: None,
            outer: Vec::new(),
            matched: Vec::new(),
            error: None,
            excluded: false,
            plies: 0,
        }
    }

    fn tag_value(&self, name: &[u8]) -> Option<&'a [u8]> {
        self.tags.iter().rev().find(|(tag, _)| tag.eq_ignore_ascii_case(name)).map(|(_, value)| *value)
    }

    fn fail(&mut self, ply: u32, offset: usize, token: &[u8], kind: GameErrorKind) -> ControlFlow<()> {
        if self.error.is_none() {
            self.error = Some(GameError { ply, offset, token: String::from_utf8_lossy(token).into_owned(), kind });
        }
        ControlFlow::Break(())
    }

    /// The game's variant: its `Variant` tag, else the default.
    fn variant(&self) -> Result<&'static Variant, GameErrorKind> {
        let Some(raw) = self.tag_value(b"Variant") else { return Ok(self.options.default_variant) };
        let name = String::from_utf8_lossy(&unescape(raw)).into_owned();
        if name.trim().is_empty() {
            return Ok(self.options.default_variant);
        }
        Variant::by_name(&name).map_err(|_| GameErrorKind::UnknownVariant(name))
    }

    /// The board the game starts from: its `FEN` tag, else the variant's initial position.
    fn initial_board(&self, variant: &'static Variant) -> Result<Board, GameErrorKind> {
        match self.tag_value(b"FEN") {
            None => Ok(Board::initial(variant)),
            Some(raw) => {
                let text = String::from_utf8_lossy(&unescape(raw)).into_owned();
                let setup = fen::read::<1>(variant, &text).map_err(|e| GameErrorKind::BadFen(e.to_string()))?;
                let position = Position::from_setup(setup).map_err(|e| GameErrorKind::BadFen(e.to_string()))?;
                Ok(Board::from_position(&position))
            }
        }
    }

    fn test(&mut self, ply: u32, offset: usize, board: &Board) {
        if self.program.is_some_and(|program| program.matches(board)) {
            self.matched.push(MatchedPly { ply, offset });
        }
    }
}

impl<'a> Visitor<'a> for Replayer<'a, '_> {
    fn begin_game(&mut self, _start: usize) {
        self.tags.clear();
        self.program = None;
        self.line = None;
        self.outer.clear();
        self.matched.clear();
        self.error = None;
        self.excluded = false;
        self.plies = 0;
    }

    fn tag(&mut self, name: &'a [u8], value: &'a [u8]) {
        self.tags.push((name, value));
    }

    fn begin_movetext(&mut self, start: usize) -> ControlFlow<()> {
        if let Some(result) = self.options.result
            && self.tag_value(b"Result") != Some(result)
        {
            self.excluded = true;
            return ControlFlow::Break(());
        }
        let variant = match self.variant() {
            Ok(variant) => variant,
            Err(kind) => return self.fail(0, start, b"", kind),
        };
        if variant.family != Family::Classical {
            return self.fail(0, start, b"", GameErrorKind::UnsupportedVariant(variant.name));
        }
        let program = match self.options.plans.get(variant).map(|plan| plan.program::<1>()) {
            Ok(Some(program)) => program,
            _ => return self.fail(0, start, b"", GameErrorKind::QueryDoesNotFit(variant.name)),
        };
        let board = match self.initial_board(variant) {
            Ok(board) => board,
            Err(kind) => return self.fail(0, start, b"", kind),
        };
        self.program = Some(program);
        self.test(0, start, &board);
        if program.is_game_level() {
            // Nothing in the query looks at positions: the game is decided by its start.
            return ControlFlow::Break(());
        }
        self.line = Some(Line { before_last: board.clone(), board, ply: 0 });
        ControlFlow::Continue(())
    }

    fn san(&mut self, token: &'a [u8], end: usize) -> ControlFlow<()> {
        let Some(line) = self.line.as_mut() else { return ControlFlow::Break(()) };
        let ply = line.ply + 1;
        let start = end - token.len();
        let Ok(san) = San::from_ascii(token) else {
            return self.fail(ply, start, token, GameErrorKind::Unreadable);
        };
        // Only variations need the position before the last move (after an error, nothing
        // needs it).
        if self.options.variations {
            line.before_last = line.board.clone();
        }
        let played = line.board.play_san(&san).or_else(|error| {
            // A lower-case `b` may name a bishop where no pawn move fits (`bd3`).
            match (token.first(), San::from_ascii(&[b"B", &token[1..]].concat())) {
                (Some(b'b'), Ok(bishop)) => line.board.play_san(&bishop),
                _ => Err(error),
            }
        });
        match played {
            Ok(_) => {
                line.ply = ply;
                self.plies = self.plies.max(ply);
                if self.program.is_some_and(|program| program.matches(&line.board)) {
                    self.matched.push(MatchedPly { ply, offset: end });
                }
                ControlFlow::Continue(())
            }
            Err(SanError::Ambiguous) => self.fail(ply, start, token, GameErrorKind::Ambiguous),
            Err(SanError::Illegal) => self.fail(ply, start, token, GameErrorKind::Illegal),
        }
    }

    fn begin_variation(&mut self) -> ControlFlow<()> {
        if !self.options.variations || self.error.is_some() {
            return ControlFlow::Break(());
        }
        let Some(line) = self.line.as_ref() else { return ControlFlow::Break(()) };
        // The variation replaces the last move.
        let branch = Line {
            board: line.before_last.clone(),
            before_last: line.before_last.clone(),
            ply: line.ply.saturating_sub(1),
        };
        self.outer.push(std::mem::replace(self.line.as_mut().expect("checked above"), branch));
        ControlFlow::Continue(())
    }

    fn end_variation(&mut self) {
        if let Some(outer) = self.outer.pop() {
            self.line = Some(outer);
        }
    }
}
