//! A game that was found, read again into the form CQL 6.2 writes ([`CqlGame`]).
//!
//! The moves are replayed so that they are written in SAN as the position gives them; the
//! comments, annotation glyphs and variations are kept as CQL keeps them (the last comment of a
//! move, at most [`MAX_NAGS`](crate::notation::pgn::cql_style::MAX_NAGS) glyphs), and the mark
//! is added to the comment of each move that reached a matched position. A move that cannot be
//! played ends its line with the comment `Error reading move: TOKEN`, as in CQL; in a
//! variation, the main line goes on after it. Games of variants whose moves cqlq does not replay
//! keep their move tokens as written.

use std::ops::{ControlFlow, Range};

use super::Found;
use super::convert::provenance;
use super::main_line::read_main_line;
use super::replay::{GameEdits, GameNote};
use crate::notation::pgn::cql_style::{CqlGame, Line, MoveNode, MoveText, append_comment, nag_of, write_game};
use crate::notation::pgn::export::WrittenMove;
use crate::notation::pgn::{Damage, Lexer, Visitor, tag_text};
use crate::notation::{Container, MovetextReader};
use crate::rules::GameRules;
use crate::rules::registry::{Typed, WithRules, rule_set, with_rules};
use crate::variant::{Color, Edition, Notation, Variant};

/// A game read for writing, and what the comment before its first move gains (the initial
/// position's notes and mark, which go there with the game's other comments).
#[derive(Debug)]
pub struct ReadGame<'a> {
    /// The game.
    pub game: CqlGame<'a>,
    /// What the initial position's comment gains (the query's comments, the mark), in order.
    pub initial_notes: Vec<&'a [u8]>,
    /// The moves whose comments would have grown too long with what they gain, which were
    /// left as they were ([`append_texts`]).
    pub long_comments: u32,
}

/// Reads the game `text` (one game, as found), adding to the comment of each position what
/// `notes` give it (offsets into `text`; `mark` for the mark of a match); games without a
/// `Variant` tag are of `default_variant`. `played` holds the first moves of the main line as
/// the search played them: those are played again without reading their SAN.
#[must_use]
pub fn read_game<'a>(
    text: &'a [u8],
    notes: &'a [GameNote],
    played: &'a [u32],
    default_variant: &'static Variant,
    mark: &'a [u8],
    edits: &GameEdits,
) -> ReadGame<'a> {
    // What each move's comment gains, by the offset of the move's end (the notes at its
    // position, then the mark if it matched), in the order of the moves.
    let mut marks: Vec<(usize, &[u8])> =
        notes.iter().filter(|note| note.ply > 0).map(|note| (note.offset, note_text(note, mark))).collect();
    marks.sort_by_key(|&(offset, _)| offset);
    let (mark_ends, mark_texts) = marks.into_iter().unzip();
    let mut tags = TagReader(Vec::with_capacity(12));
    Lexer::new(text).next_game(&mut tags);
    // The moves of a variant cqlq does not replay are kept as written.
    let variant = variant_of(&tags.0, default_variant, None).filter(|variant| rule_set(variant).is_some());
    // Where the moves whose own comments go end.
    let mut removed_ends: Vec<usize> =
        edits.removed.iter().filter(|&&(ply, _)| ply > 0).map(|&(_, offset)| offset).collect();
    removed_ends.sort_unstable();
    let read = ReadWith { text, played, variant, mark_ends, mark_texts, removed_ends };
    let (game, long_comments) = with_rules(variant.unwrap_or_else(Variant::standard), read)
        .unwrap_or_else(|_| unreachable!("the rules of Standard are registered"));
    ReadGame { game, initial_notes: initial_notes(notes, mark), long_comments }
}

/// Reading a game for writing, its moves played by the rules of its variant where `variant`
/// is given.
struct ReadWith<'a> {
    text: &'a [u8],
    played: &'a [u32],
    variant: Option<&'static Variant>,
    mark_ends: Vec<usize>,
    mark_texts: Vec<&'a [u8]>,
    removed_ends: Vec<usize>,
}

impl<'a> WithRules for ReadWith<'a> {
    type Output = (CqlGame<'a>, u32);

    fn run<R: GameRules<W>, const W: usize>(self, _typed: Typed<W>) -> (CqlGame<'a>, u32) {
        let mut reader: GameReader<'a, R, W> = GameReader {
            variant: self.variant,
            mark_ends: self.mark_ends,
            mark_texts: self.mark_texts,
            removed_ends: self.removed_ends,
            next_mark: 0,
            played: self.played,
            tags: Vec::new(),
            lines: Vec::new(),
            result: None,
            stopped: false,
            long_comments: 0,
        };
        Lexer::new(self.text).next_game(&mut reader);
        let main = reader.close_all();
        let result = reader.result.or_else(|| tag_result(&reader.tags)).unwrap_or(b"*");
        (CqlGame { tags: reader.tags, line: main, result }, reader.long_comments)
    }
}

/// What the comment before the first move gains: the initial position's notes, in order.
#[must_use]
pub fn initial_notes<'a>(notes: &'a [GameNote], mark: &'a [u8]) -> Vec<&'a [u8]> {
    notes.iter().filter(|note| note.ply == 0).map(|note| note_text(note, mark)).collect()
}

/// What a note adds to its position's comment: its text, or `mark` for the mark of a match.
fn note_text<'a>(note: &'a GameNote, mark: &'a [u8]) -> &'a [u8] {
    note.text.as_ref().map_or(mark, |text| text.as_bytes())
}

/// Writes a game found whose movetext holds its moves only, all of them played by the search
/// ([`Found::moves_only`]), as [`read_game`] and [`CqlGame::write`] write it, without reading
/// its movetext again: the SAN comes from the moves, and `notes` (by ply) go after the moves
/// that reached their positions. `comment` is the comment before the first move. A game in
/// another notation than SAN ([`in_other_notation`]), with moves only or not, is written from
/// its main line read again in its notation. Returns how many moves' comments were left as
/// they were because they would have grown too long ([`append_texts`]), or `None`, having
/// written nothing, for a game that does not start from a position cqlq replays.
pub fn write_played(
    out: &mut Vec<u8>,
    game: &Found<'_>,
    notes: &[GameNote],
    default_variant: &'static Variant,
    mark: &[u8],
    comment: Option<&[u8]>,
    buffer: usize,
) -> Option<u32> {
    if let Container::Native(_) = game.container {
        return write_other_notation(out, game, notes, default_variant, (mark, comment, buffer));
    }
    let mut tags = TagReader(Vec::with_capacity(12));
    Lexer::new(&game.text[..game.movetext.min(game.text.len())]).next_game(&mut tags);
    let tags = tags.0;
    let variant = variant_of(&tags, default_variant, None)?;
    if variant.notation != Notation::San {
        return write_other_notation(out, game, notes, default_variant, (mark, comment, buffer));
    }
    let fen = tag(&tags, b"FEN");
    let result = game.outcome.or_else(|| tag_result(&tags)).unwrap_or(b"*");
    let mut tags = tags;
    tags.extend(game.edits.tag_pairs());
    let line = PlayedLine { tags: &tags, result, error: None };
    let write = WriteKept {
        variant,
        fen: fen.as_deref(),
        kept: game.played,
        out,
        line,
        notes,
        written: (mark, comment, buffer),
    };
    with_rules(variant, write).ok().flatten()
}

/// Writing a main line from the moves its rules kept, played again from the position a game
/// of `variant` with the `FEN` tag `fen` starts from.
struct WriteKept<'a, 'o> {
    variant: &'static Variant,
    fen: Option<&'a str>,
    kept: &'a [u32],
    out: &'o mut Vec<u8>,
    line: PlayedLine<'a>,
    notes: &'a [GameNote],
    written: Written<'a>,
}

impl WithRules for WriteKept<'_, '_> {
    type Output = Option<u32>;

    fn run<R: GameRules<W>, const W: usize>(self, _typed: Typed<W>) -> Option<u32> {
        let board = R::start(self.variant, self.fen).ok()?;
        let mut moves: KeptMoves<'_, R, W> = KeptMoves { board, kept: self.kept.iter(), text: Vec::new() };
        write_line(self.out, &self.line, &mut moves, self.notes, self.written)
    }
}

/// The moves of a main line, given one at a time as they are written.
trait LineMoves {
    /// How many moves the line has.
    fn len(&self) -> usize;

    /// The next move: its number, whether the second player makes it, and its text; `goes_on`:
    /// a move follows it. `None` where it cannot be played.
    fn next_move(&mut self, goes_on: bool) -> Option<(u32, bool, &[u8])>;
}

/// The moves a game's rules kept, played again on `board` and written as its notation writes
/// them.
struct KeptMoves<'a, R, const W: usize> {
    board: R,
    kept: std::slice::Iter<'a, u32>,
    /// The text of the move written last.
    text: Vec<u8>,
}

impl<R: GameRules<W>, const W: usize> LineMoves for KeptMoves<'_, R, W> {
    fn len(&self) -> usize {
        self.kept.len()
    }

    fn next_move(&mut self, goes_on: bool) -> Option<(u32, bool, &[u8])> {
        let &kept = self.kept.next()?;
        let (number, black) = (self.board.move_number(), self.board.turn() == Color::Black);
        self.text.clear();
        self.board.play_kept_written(kept, goes_on, &mut self.text)?;
        Some((number, black, &self.text))
    }
}

/// The moves of a main line as written.
struct WrittenMoves<'a> {
    moves: std::slice::Iter<'a, WrittenMove>,
}

impl LineMoves for WrittenMoves<'_> {
    fn len(&self) -> usize {
        self.moves.len()
    }

    fn next_move(&mut self, _goes_on: bool) -> Option<(u32, bool, &[u8])> {
        let played = self.moves.next()?;
        Some((played.number, played.black, played.san.as_bytes()))
    }
}

/// Writes a game found that is written in another notation than SAN (a file of X-Decor
/// games, a PGN game whose `Variant` has its own notation) as [`write_played`] does, its main
/// line read again in its notation (a game of standard rules loses its `Variant` tag, which
/// would say its SAN is in another notation, and it gains an `Annotator` tag saying where it
/// came from, as `cqlq convert` writes it); a move that cannot be played ends it with the comment
/// `Error reading move: TOKEN`, as CQL 6.2 ends a PGN game. Returns what [`write_played`]
/// returns.
fn write_other_notation(
    out: &mut Vec<u8>,
    game: &Found<'_>,
    notes: &[GameNote],
    default_variant: &'static Variant,
    written: Written<'_>,
) -> Option<u32> {
    let main = read_main_line(game.text, game.container, default_variant, None)?;
    let error = main.error.as_ref().map(|(_, token, _)| token.as_bytes());
    let result = if error.is_some() { b"*" } else { main.outcome.unwrap_or(b"*") };
    if main.kept.len() != main.moves.len() {
        // Moves its rules keep none of are written as they stand.
        return None;
    }
    // Written in SAN, a game of standard rules is a standard game: its `Variant` goes.
    let standard = main.variant.same_rules(Variant::standard());
    let annotation = provenance(&main, game);
    let mut tags: Vec<_> = main
        .tags
        .iter()
        .copied()
        .filter(|(name, _)| {
            !(name.eq_ignore_ascii_case(b"Annotator") || standard && name.eq_ignore_ascii_case(b"Variant"))
        })
        .collect();
    tags.push((b"Annotator", annotation.as_bytes()));
    tags.extend(game.edits.tag_pairs());
    let line = PlayedLine { tags: &tags, result, error };
    write_line(out, &line, &mut WrittenMoves { moves: main.moves.iter() }, notes, written)
}

/// Whether a game found is written in another notation than SAN: the games of a native
/// format, and the PGN games whose `Variant` tag names a variant with a notation of its own.
#[must_use]
pub fn in_other_notation(game: &Found<'_>, default_variant: &'static Variant) -> bool {
    match game.container {
        Container::Native(_) => true,
        Container::Pgn => {
            let header = &game.text[..game.movetext.min(game.text.len())];
            if default_variant.edition().is_none() && memchr::memmem::find(header, b"Variant").is_none() {
                // No `Variant` tag: a game of the default variant, which has no editions.
                return default_variant.notation != Notation::San;
            }
            let mut tags = TagReader(Vec::with_capacity(12));
            Lexer::new(header).next_game(&mut tags);
            variant_of(&tags.0, default_variant, None).is_some_and(|variant| variant.notation != Notation::San)
        }
    }
}

/// How a game is written: the mark of a match, the comment before the first move, and the
/// bytes of CQL 6.2's buffer for its text.
type Written<'a> = (&'a [u8], Option<&'a [u8]>, usize);

/// A main line to write from its moves.
struct PlayedLine<'a> {
    tags: &'a [(&'a [u8], &'a [u8])],
    result: &'a [u8],
    /// The token of the move that could not be played after the last of `moves`.
    error: Option<&'a [u8]>,
}

/// Writes a main line from its moves, `notes` (by ply) after the moves that reached their
/// positions, `comment` before the first move. Returns how many moves' comments were left out
/// as too long, or `None`, having written nothing, where a move cannot be played.
fn write_line(
    out: &mut Vec<u8>,
    line: &PlayedLine<'_>,
    moves: &mut impl LineMoves,
    notes: &[GameNote],
    written: Written<'_>,
) -> Option<u32> {
    let (mark, comment, buffer) = written;
    // What each move's comment gains, by ply, in the order made.
    let mut marks: Vec<(u32, &[u8])> =
        notes.iter().filter(|note| note.ply > 0).map(|note| (note.ply, note_text(note, mark))).collect();
    marks.sort_by_key(|&(ply, _)| ply);
    let mut marks = marks.into_iter().peekable();
    let mut texts: Vec<&[u8]> = Vec::new();
    // The comment of a move, made again in the same memory for each move that has one.
    let mut gained: Option<Vec<u8>> = None;
    let error = line.error.map(error_comment);
    let mut comment = comment.map(<[u8]>::to_vec);
    let mut long_comments = 0;
    let count = moves.len();
    if count == 0
        && let Some(error) = &error
    {
        append_comment(&mut comment, error);
    }
    let start = out.len();
    let mut played_all = true;
    write_game(out, line.tags, line.result, comment.as_deref(), buffer, |writer| {
        for ply in 1..=count {
            let last = ply == count;
            // A check before the last move is no mate: the game went on.
            let Some((number, black, san)) = moves.next_move(!last) else {
                played_all = false;
                return;
            };
            writer.move_played(number, black, san);
            let ply = u32::try_from(ply).unwrap_or(u32::MAX);
            let marked = marks.peek().is_some_and(|&(at, _)| at <= ply);
            if marked || (last && error.is_some()) {
                texts.clear();
                while let Some((_, text)) = marks.next_if(|&(at, _)| at <= ply) {
                    texts.push(text);
                }
                let error_here = last && error.is_some();
                if let [text] = texts[..]
                    && !error_here
                    && is_clean_comment(text)
                {
                    // One text with nothing in it to clean or cut (a search's `CQL`) is the
                    // comment as merging would make it.
                    writer.comment(text);
                } else {
                    if let Some(gained) = &mut gained {
                        gained.clear();
                    }
                    if !append_texts(&mut gained, &texts) {
                        long_comments += 1;
                    }
                    if last && let Some(error) = &error {
                        append_comment(&mut gained, error);
                    }
                    if let Some(gained) = gained.as_deref().filter(|gained| !gained.is_empty()) {
                        writer.comment(gained);
                    }
                }
            }
            writer.end_move();
        }
    });
    if !played_all {
        out.truncate(start);
        return None;
    }
    Some(long_comments)
}

/// Whether a text is a comment as [`append_texts`] would make it of the text alone: not empty,
/// short enough, with no brace and nothing outside ASCII.
fn is_clean_comment(text: &[u8]) -> bool {
    !text.is_empty() && text.len() <= MAX_COMMENT && text.iter().all(|&byte| cleaned(byte) == byte)
}

/// The comment CQL 6.2 ends a line with at a move that cannot be played: the move without
/// its capture and check signs (`Qf8` for `Qxf8+`).
fn error_comment(token: &[u8]) -> Vec<u8> {
    let mut message = b"Error reading move: ".to_vec();
    message.extend(token.iter().filter(|byte| !matches!(byte, b'x' | b'+' | b'#')));
    message
}

/// The tag pairs of a game, as read.
pub(super) struct TagReader<'a>(pub(super) Vec<(&'a [u8], &'a [u8])>);

impl<'a> Visitor<'a> for TagReader<'a> {
    fn tag(&mut self, name: &'a [u8], value: &'a [u8]) {
        self.0.push((name, value));
    }

    fn begin_movetext(&mut self, _start: usize) -> ControlFlow<()> {
        ControlFlow::Break(())
    }
}

/// The value of a tag, unescaped.
fn tag(tags: &[(&[u8], &[u8])], name: &[u8]) -> Option<String> {
    let (_, value) = tags.iter().rev().find(|(tag, _)| *tag == name)?;
    Some(tag_text(value).into_owned())
}

/// The variant of a game with these tags: its `Variant` tag, else `default_variant`; `None`
/// for a variant cqlq does not know.
pub(super) fn variant_of(
    tags: &[(&[u8], &[u8])],
    default_variant: &'static Variant,
    edition: Option<Edition>,
) -> Option<&'static Variant> {
    let named = match tag(tags, b"Variant").filter(|name| !name.trim().is_empty()) {
        Some(name) => Variant::by_name(&name).ok()?,
        None => default_variant,
    };
    let Some(own) = named.edition() else { return Some(named) };
    let edition = match tag(tags, b"Edition").filter(|name| !name.trim().is_empty()) {
        Some(name) => Edition::by_name(&name)?,
        None => edition.unwrap_or(own),
    };
    Some(named.in_edition(edition).unwrap_or(named))
}

/// The longest comment CQL 6.2 writes: what would make a comment longer is left out.
pub const MAX_COMMENT: usize = 4500;

/// Past this many bytes, the texts a position gains are cut off without a word.
const CUT_OFF: usize = 4800;

/// What CQL 6.2 writes in place of the texts that would make a comment too long.
const TRUNCATED: &[u8] = b"[cql truncate]...";

/// Adds what the query says about a position to its comment as CQL 6.2 merges it: the texts
/// in one piece, each after a space where the comment or the piece holds something; then
/// braces are written as `_` and bytes outside ASCII as `?` in the whole comment. Counted with the comment (spaces left
/// out), a text that passes [`MAX_COMMENT`] bytes ends the piece with `[cql truncate]...`,
/// one that passes 4,800 bytes ends it there. A piece that would make the comment longer than
/// [`MAX_COMMENT`] is left out whole: then this returns false (CQL 6.2 says so).
pub fn append_texts(comment: &mut Option<Vec<u8>>, texts: &[&[u8]]) -> bool {
    merge_texts(comment, texts, false)
}

/// [`append_texts`] for a position whose own comment the query removed (`removecomment`): the
/// comment goes, and the texts are counted as CQL 6.2 counts them, from its length (a space
/// goes before the first where it held something).
pub fn append_texts_removing(comment: &mut Option<Vec<u8>>, texts: &[&[u8]]) -> bool {
    merge_texts(comment, texts, true)
}

/// [`append_texts`], the comment removed first where `remove`.
fn merge_texts(comment: &mut Option<Vec<u8>>, texts: &[&[u8]], remove: bool) -> bool {
    let mut counted = comment.as_ref().map_or(0, Vec::len);
    if remove {
        *comment = None;
    }
    let had_comment = comment.is_some();
    let merged = comment.get_or_insert_with(Vec::new);
    let held = merged.len();
    // The piece is written straight after what the comment holds, and taken off again where
    // it makes the comment too long.
    for text in texts.iter().filter(|text| !text.is_empty()) {
        let grown = counted + text.len();
        if grown > CUT_OFF {
            break;
        }
        if grown > MAX_COMMENT {
            merged.extend_from_slice(TRUNCATED);
            break;
        }
        if counted > 0 {
            merged.push(b' ');
        }
        counted = grown;
        merged.extend_from_slice(text);
    }
    let piece = merged.len() - held;
    if piece == 0 || held + piece > MAX_COMMENT {
        merged.truncate(held);
        if !had_comment {
            *comment = None;
        }
        return piece == 0;
    }
    // CQL 6.2 cleans the whole comment it writes again, what it held included.
    for byte in merged {
        *byte = cleaned(*byte);
    }
    true
}

/// A byte of a comment as CQL 6.2 writes it: a brace as `_`, a byte outside ASCII as `?`.
fn cleaned(byte: u8) -> u8 {
    match byte {
        b'{' | b'}' => b'_',
        127.. => b'?',
        _ => byte,
    }
}

/// The `Result` tag, when it is a result.
fn tag_result<'a>(tags: &[(&'a [u8], &'a [u8])]) -> Option<&'a [u8]> {
    let (_, value) = tags.iter().rev().find(|(name, _)| *name == b"Result")?;
    standard_result(value)
}

/// A result as PGN spells it (`½-½` is `1/2-1/2`); `None` for anything else.
pub(super) fn standard_result(result: &[u8]) -> Option<&'static [u8]> {
    match result {
        b"1-0" => Some(b"1-0"),
        b"0-1" => Some(b"0-1"),
        b"1/2-1/2" | b"\xC2\xBD-\xC2\xBD" => Some(b"1/2-1/2"),
        b"*" => Some(b"*"),
        _ => None,
    }
}

/// A line being read: the main line or a variation.
struct OpenLine<R> {
    line: Line,
    /// The position now, when the game's moves are replayed.
    board: Option<R>,
    /// The position before the last move (where a variation of it starts).
    before: Option<R>,
    /// The number and side of the next move.
    next: (u32, bool),
    /// What the last move's comment gains (the notes and mark of the position it reached), as
    /// a range of the reader's marks.
    last_marks: Range<usize>,
    /// Whether what the last move's comment gains was left out as too long.
    last_long: bool,
    /// Whether the last move's own comment is removed (`removecomment`).
    last_removed: bool,
    /// Whether a move could not be played: the rest of the line is left out.
    dead: bool,
}

impl<R> OpenLine<R> {
    fn new(board: Option<R>, next: (u32, bool)) -> OpenLine<R> {
        OpenLine {
            line: Line::default(),
            before: None,
            board,
            next,
            last_marks: 0..0,
            last_long: false,
            last_removed: false,
            dead: false,
        }
    }

    /// Gives the last move (or, before any, the line) a comment, keeping its notes and mark
    /// (`marks`: the reader's).
    fn comment(&mut self, text: &[u8], marks: &[&[u8]]) {
        let text = comment_words(text);
        match self.line.moves.last_mut() {
            None => self.line.comment = Some(text),
            Some(last) => {
                last.comment = Some(text);
                let merge = if self.last_removed { append_texts_removing } else { append_texts };
                self.last_long = !merge(&mut last.comment, &marks[self.last_marks.clone()]);
            }
        }
    }

    /// Ends the line at a move that cannot be played, as CQL says: the move without its
    /// capture and check signs (`Qf8` for `Qxf8+`).
    fn fail(&mut self, token: &[u8]) {
        let message = error_comment(token);
        match self.line.moves.last_mut() {
            None => append_comment(&mut self.line.comment, &message),
            Some(last) => append_comment(&mut last.comment, &message),
        }
        self.dead = true;
    }
}

struct GameReader<'a, R, const W: usize> {
    /// The game's variant, where its moves are replayed.
    variant: Option<&'static Variant>,
    /// Where the moves whose comments gain something end, in order, and what each gains.
    mark_ends: Vec<usize>,
    mark_texts: Vec<&'a [u8]>,
    /// Where the moves whose own comments the query removed end, in order.
    removed_ends: Vec<usize>,
    /// The first of the marks not yet reached.
    next_mark: usize,
    /// The main line's moves not yet reached, as the search played and kept them.
    played: &'a [u32],
    tags: Vec<(&'a [u8], &'a [u8])>,
    /// The main line, then the variations entered.
    lines: Vec<OpenLine<R>>,
    result: Option<&'a [u8]>,
    /// Whether the game's text is damaged or its main line has a move that cannot be played.
    stopped: bool,
    /// The moves whose comments were left as they were, as too long with what they gain.
    long_comments: u32,
}

impl<R: GameRules<W>, const W: usize> GameReader<'_, R, W> {
    /// The marks of the move that ends at `end` (the moves are met in order): a range of
    /// `mark_texts`.
    fn marks_at(&mut self, end: usize) -> Range<usize> {
        let ends = &self.mark_ends;
        let mut first = self.next_mark;
        while first < ends.len() && ends[first] < end {
            first += 1;
        }
        let mut last = first;
        while last < ends.len() && ends[last] == end {
            last += 1;
        }
        self.next_mark = last;
        first..last
    }

    /// The position the game starts from, when cqlq replays its variant's moves.
    fn starting_board(&self) -> Option<R> {
        R::start(self.variant?, tag(&self.tags, b"FEN").as_deref()).ok()
    }

    /// Closes the variations left open (by damage or an error) and returns the main line.
    fn close_all(&mut self) -> Line {
        while self.lines.len() > 1 {
            self.end_variation();
        }
        self.lines.pop().map(|open| open.line).unwrap_or_default()
    }

    /// The move `played` (a kept move, else the token) played on `board`, written as the
    /// variant's notation writes it (the token as it stands where its rules write no moves);
    /// `None` when it cannot be played there.
    fn play(board: &mut R, kept: Option<u32>, token: &[u8], written: &[u8]) -> Option<String> {
        let before = board.clone();
        let played = match kept {
            Some(kept) => board.play_kept(kept)?,
            None => board.play_token(token, &mut None).ok()?,
        };
        let mut text = String::new();
        if !before.write_move(&played, board, false, &mut text) {
            text = String::from_utf8_lossy(written).into_owned();
        }
        Some(text)
    }
}

/// The glyph of a token that is an evaluation symbol (`+-`, `=`, `~`) or `N`, not a move.
fn annotation_token(token: &[u8]) -> Option<u8> {
    match token.first()? {
        b'+' | b'=' | b'~' | b'-' | b'N' | b'D' if token != b"--" => nag_of(token),
        _ => None,
    }
}

/// A comment as CQL 6.2 reads it: its words, one space between them.
pub(super) fn comment_words(text: &[u8]) -> Vec<u8> {
    let words: Vec<&[u8]> = text.split(u8::is_ascii_whitespace).filter(|word| !word.is_empty()).collect();
    words.join(&b' ')
}

/// A move token without the annotation glued to it (`e4!?`), and that annotation.
pub(super) fn split_annotation(token: &[u8]) -> (&[u8], &[u8]) {
    let end = token.iter().rposition(|byte| !matches!(byte, b'!' | b'?')).map_or(0, |i| i + 1);
    token.split_at(end)
}

impl<'a, R: GameRules<W>, const W: usize> Visitor<'a> for GameReader<'a, R, W> {
    fn tag(&mut self, name: &'a [u8], value: &'a [u8]) {
        self.tags.push((name, value));
    }

    fn movetext_reader(&self) -> Option<&'static dyn MovetextReader> {
        // A notation of the family's own that is not SAN (Croatian Chess) reads its movetext.
        let movetext = crate::rules::formats::movetext(Container::Pgn, self.variant?)?;
        movetext.moves.is_none().then_some(movetext.reader).flatten()
    }

    fn begin_movetext(&mut self, _start: usize) -> ControlFlow<()> {
        let board = self.starting_board();
        let next = board.as_ref().map_or((1, false), |board| (board.move_number(), board.turn() == Color::Black));
        self.lines.push(OpenLine::new(board, next));
        ControlFlow::Continue(())
    }

    fn move_token(&mut self, token: &'a [u8], end: usize) -> ControlFlow<()> {
        if self.stopped {
            return ControlFlow::Break(());
        }
        let marks = self.marks_at(end);
        let in_variation = self.lines.len() > 1;
        let Some(open) = self.lines.last_mut() else { return ControlFlow::Break(()) };
        if open.dead {
            return ControlFlow::Continue(());
        }
        if let Some(nag) = annotation_token(token) {
            // `+-`, `N`: CQL reads them as glyphs; the search's replay stopped there.
            if let Some(last) = open.line.moves.last_mut() {
                last.add_nag(nag);
            }
            return ControlFlow::Continue(());
        }
        let (written, annotation) = split_annotation(token);
        let before = open.board.clone();
        let san = match &mut open.board {
            Some(board) => {
                // The main line's moves the search played are played as they were.
                let kept = if in_variation { None } else { self.played.split_first() };
                if let Some((_, rest)) = kept {
                    self.played = rest;
                }
                match GameReader::<R, W>::play(board, kept.map(|(&kept, _)| kept), token, written) {
                    Some(san) => MoveText::from(san.as_str()),
                    None => {
                        open.fail(written);
                        self.stopped = !in_variation;
                        return if in_variation { ControlFlow::Continue(()) } else { ControlFlow::Break(()) };
                    }
                }
            }
            None => MoveText::from(String::from_utf8_lossy(written).as_ref()),
        };
        let (number, black) = open.next;
        let mut node = MoveNode { number, black, san, ..MoveNode::default() };
        node.nags.extend(nag_of(annotation));
        open.last_long = !append_texts(&mut node.comment, &self.mark_texts[marks.clone()]);
        open.last_removed = self.removed_ends.binary_search(&end).is_ok();
        self.long_comments += u32::from(open.last_long);
        open.line.moves.push(node);
        open.before = before;
        open.next = if black { (number.saturating_add(1), false) } else { (number, true) };
        open.last_marks = marks;
        ControlFlow::Continue(())
    }

    fn nag(&mut self, nag: &'a [u8]) {
        if let Some(open) = self.lines.last_mut().filter(|open| !open.dead)
            && let (Some(last), Some(nag)) = (open.line.moves.last_mut(), nag_of(nag))
        {
            last.add_nag(nag);
        }
    }

    fn comment(&mut self, text: &'a [u8]) {
        let stopped = self.stopped;
        if let Some(open) = self.lines.last_mut().filter(|open| !open.dead && !stopped) {
            let was_long = open.last_long;
            open.comment(text, &self.mark_texts);
            self.long_comments = self.long_comments + u32::from(open.last_long) - u32::from(was_long);
        }
    }

    fn begin_variation(&mut self) -> ControlFlow<()> {
        let Some(open) = self.lines.last().filter(|open| !open.dead && !self.stopped) else {
            return ControlFlow::Break(());
        };
        let Some(replaced) = open.line.moves.last() else {
            // A variation before the first move replaces nothing: it is left out.
            return ControlFlow::Break(());
        };
        let variation = OpenLine::new(open.before.clone(), (replaced.number, replaced.black));
        self.lines.push(variation);
        ControlFlow::Continue(())
    }

    fn end_variation(&mut self) {
        if self.lines.len() < 2 {
            return;
        }
        let Some(variation) = self.lines.pop() else { return };
        if let Some(replaced) = self.lines.last_mut().and_then(|open| open.line.moves.last_mut()) {
            replaced.variations.push(variation.line);
        }
    }

    fn outcome(&mut self, result: &'a [u8]) {
        self.result = standard_result(result);
    }

    fn damaged(&mut self, _at: usize, damage: Damage) {
        // As in the search, nothing after the damage counts; a harmless one (a tag without its
        // `]`) leaves the game read on.
        self.stopped |= !damage.is_harmless();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen;
    use crate::notation::pgn::cql_style::GAME_BUFFER;
    use crate::position::Position;
    use crate::rules::classical::{Board, San};

    fn written(text: &str, notes: &[GameNote]) -> String {
        let read = read_game(text.as_bytes(), notes, &[], Variant::standard(), b"CQL", &GameEdits::NONE);
        let mut out = Vec::new();
        read.game.write(&mut out);
        String::from_utf8(out).unwrap()
    }

    fn movetext(written: &str) -> &str {
        written.split("\n\n").nth(1).unwrap()
    }

    /// A tag without its `]` is harmless: the game is written to its end (found by fuzzing:
    /// the game was written without moves, where the search had read them all).
    #[test]
    fn a_tag_without_its_bracket_leaves_the_moves_written() {
        let written = written("[Event \"a\"]\n[Round \"]?\"\n[Result \"1-0\"]\n\n1.e4 e5 1-0\n", &[]);
        assert_eq!(movetext(&written), "1.e4 e5 1-0");
    }

    #[test]
    fn moves_are_rewritten_with_their_comments_glyphs_and_variations() {
        let text = "[Event \"x\"]\n\n{c1} {c2} 1. e4! e5 2. Qh5 {m1} {m2} Nc6 $2 {m3} (2... g6 3. Qf3 \
                    (3. Qe2) ) 3. Bc4 ! ? Nf6 ?? 4. Qxf7 1-0";
        let at = |token: &str| text.find(token).unwrap() + token.len();
        let notes = [
            GameNote { ply: 0, offset: 0, text: None },
            GameNote { ply: 3, offset: at("Qh5"), text: Some("Found".to_owned()) },
            GameNote { ply: 3, offset: at("Qh5"), text: None },
        ];
        let read = read_game(text.as_bytes(), &notes, &[], Variant::standard(), b"CQL", &GameEdits::NONE);
        assert_eq!(read.initial_notes, [b"CQL".to_vec()]);
        let mut out = Vec::new();
        read.game.write(&mut out);
        let out = String::from_utf8(out).unwrap();
        assert_eq!(
            movetext(&out),
            "{c2}\n1.e4 $1 e5 2.Qh5 {m2 Found CQL} 2...Nc6 $2 {m3} ( 2...g6 3.Qf3 ( 3.Qe2 ) ) 3.\nBc4 $1 $2 Nf6 $4 4.Qxf7# 1-0"
        );
        assert!(out.contains("[Result \"1-0\"]\n"), "{out}");
    }

    #[test]
    fn moves_played_by_the_search_are_written_as_their_san_reads() {
        let text = "1. e4 e5 2. Nf3 (2. f4 exf4) Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O f6 6. d4 Bg4 7. dxe5 Qxd1 \
                    8. Rxd1 fxe5 9. Rd8+ Kxd8 1-0";
        let mut board = Board::initial(Variant::standard());
        let main_line = "e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6 O-O f6 d4 Bg4 dxe5 Qxd1 Rxd1 fxe5 Rd8+ Kxd8";
        let played: Vec<u32> = main_line
            .split(' ')
            .map(|token| board.play_san(&San::from_ascii(token.as_bytes()).unwrap()).unwrap().code())
            .collect();
        assert_eq!(played.len(), 18);
        let notes = [GameNote { ply: 4, offset: text.find("Nc6").unwrap() + 3, text: None }];
        let write = |played: &[u32]| {
            let mut out = Vec::new();
            read_game(text.as_bytes(), &notes, played, Variant::standard(), b"CQL", &GameEdits::NONE)
                .game
                .write(&mut out);
            String::from_utf8(out).unwrap()
        };
        let from_san = write(&[]);
        assert!(from_san.contains("2.Nf3 ( 2.f4 exf4 ) 2...Nc6 {CQL} 3.Bb5"), "{from_san}");
        assert_eq!(write(&played), from_san);
        // A search that stopped early played fewer moves: the rest are read from their SAN.
        assert_eq!(write(&played[..5]), from_san);
    }

    #[test]
    fn games_of_moves_only_are_written_from_their_moves_as_from_their_text() {
        let games = [
            "[Event \"e\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7 1-0",
            "[White \"w\"]\n\n1. d4 d5 2. c4 dxc4 3. e4 b5 4. a4 c6 5. axb5 cxb5 6. Nc3 a6 7. Nxb5 axb5 \
             8. Rxa8 Qd6 9. Bxc4 bxc4 10. Nf3 Kd8 11. O-O Kc7 12. Qa4 *",
            "[FEN \"4k3/P7/8/8/8/8/6p1/4K2R b K - 0 40\"]\n\n40... g1=Q+ 41. Rxg1 Kd7 42. a8=N Kc6 43. Rg6+ 1/2-1/2",
            "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4#",
        ];
        for text in games {
            let movetext = text.find("\n\n").map_or(0, |blank| blank + 2);
            let mut board = Board::initial(Variant::standard());
            if let Some(fen) = text.split('"').nth(1).filter(|_| text.starts_with("[FEN")) {
                let position = Position::from_setup(fen::read::<1>(Variant::standard(), fen).unwrap()).unwrap();
                board = Board::from_position(&position);
            }
            let results = ["1-0", "0-1", "1/2-1/2", "*"];
            let mut ends = Vec::new();
            let mut played = Vec::new();
            let mut at = movetext;
            for token in text[movetext..].split(' ') {
                at = text[at..].find(token).unwrap() + at + token.len();
                if !token.ends_with('.') && !results.contains(&token) {
                    ends.push(at);
                    played.push(board.play_san(&San::from_ascii(token.as_bytes()).unwrap()).unwrap().code());
                }
            }
            // Marks at the first, third and last moves, two texts at the third.
            let note = |ply: usize, text: Option<&str>| GameNote {
                ply: ply as u32,
                offset: ends[ply - 1],
                text: text.map(str::to_owned),
            };
            let notes = [note(3, Some("Here")), note(1, None), note(3, None), note(played.len(), Some("last"))];
            let outcome =
                ["1-0", "0-1", "1/2-1/2"].into_iter().find(|result| text.ends_with(result)).map(str::as_bytes);
            let found = Found {
                edits: &GameEdits::NONE,
                input: "in",
                number: 1,
                offset: 0,
                line: 1,
                text: text.as_bytes(),
                movetext,
                matched: &[],
                variations: &[],
                notes: &notes,
                sort: &[],
                played: &played,
                moves_only: true,
                outcome,
                positions: &[],
                container: crate::notation::Container::Pgn,
                rendered: None,
                said: None,
                said_when_found: false,
            };
            let mut fast = Vec::new();
            let comment = Some(b"Game number 1".as_slice());
            let long = write_played(&mut fast, &found, &notes, Variant::standard(), b"CQL", comment, GAME_BUFFER);
            assert_eq!(long, Some(0));
            let mut read = read_game(text.as_bytes(), &notes, &[], Variant::standard(), b"CQL", &GameEdits::NONE);
            read.game.line.comment = Some(b"Game number 1".to_vec());
            let mut slow = Vec::new();
            read.game.write(&mut slow);
            assert_eq!(String::from_utf8(fast).unwrap(), String::from_utf8(slow).unwrap(), "{text}");
        }
    }

    #[test]
    fn lines_cut_at_a_move_that_cannot_be_played_games_from_a_position_and_games_not_replayed() {
        for (text, movetext_written) in [
            (
                "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf8 Kxf8 1-0",
                "1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6 {Error reading move: Qf8} 1-0",
            ),
            ("1. e4 (1. d4 Ke7 2. c4) e5 *", "1.e4 ( 1.d4 {Error reading move: Ke7} ) 1...e5 *"),
            ("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]\n\n30... Kd7 31. e4 *", "30...Kd7 31.e4 *"),
            ("[Variant \"Chess Evolved Online\"]\n\n1. Kd2! Ke9 *", "1.Kd2 $1 Ke9 *"),
            ("[Variant \"Croatian Ties\"]\n\n1. Kd2! Ke9 *", "{Error reading move: Kd2}\n*"),
            ("[Variant \"Croatian Ties\"]\n\n1. e4! [Gb10-c8] *", "1.e4 $1 [Gb10-c8] *"),
            ("1. e4 +- e5 N 2. Nf3 *", "1.e4 $18 e5 $146 2.Nf3 *"),
        ] {
            assert_eq!(movetext(&written(text, &[])), movetext_written, "{text}");
        }
    }

    #[test]
    fn long_comments_are_cut_with_a_mark_or_left_as_they_were() {
        let long = "a".repeat(4000);
        let texts: [&[u8]; 3] = [b"CQL", long.as_bytes(), b"x"];
        // Within the bounds: everything, a space between the texts and after the comment,
        // and the comment cleaned of what is not ASCII.
        let mut comment = Some("café".as_bytes().to_vec());
        assert!(append_texts(&mut comment, &texts));
        assert_eq!(comment.as_deref(), Some(format!("caf?? CQL {long} x").as_bytes()));
        // A text that passes 4,500 bytes with the comment ends the texts with the mark.
        let mut comment = Some(vec![b'c'; 600]);
        assert!(append_texts(&mut comment, &texts));
        let mut expected = vec![b'c'; 600];
        expected.extend_from_slice(b" CQL[cql truncate]...");
        assert_eq!(comment, Some(expected));
        // Past 4,800 bytes a text ends them without the mark.
        let mut comment = Some(vec![b'c'; 1000]);
        assert!(append_texts(&mut comment, &texts));
        assert_eq!(comment.map(|comment| comment.len()), Some(1004));
        // What would make the comment longer than 4,500 bytes is left out whole.
        let mut comment = Some(vec![b'c'; 4499]);
        assert!(!append_texts(&mut comment, &[b"CQL"]));
        assert_eq!(comment.map(|comment| comment.len()), Some(4499));
        // Braces and bytes outside ASCII in the texts are replaced.
        let mut comment = None;
        assert!(append_texts(&mut comment, &["{é}".as_bytes(), b"", b"z"]));
        assert_eq!(comment.as_deref(), Some(b"_??_ z".as_slice()));
    }

    /// A text that is a clean comment is the comment merging it alone makes, with or without an
    /// emptied comment before it; the others are not clean.
    #[test]
    fn a_clean_comment_merges_to_itself() {
        let long = "b".repeat(MAX_COMMENT);
        let longer = "b".repeat(MAX_COMMENT + 1);
        let texts: [&[u8]; 9] =
            [b"CQL", b"two words", b"x", long.as_bytes(), longer.as_bytes(), b"", b"a{b", b"}", "caf\u{e9}".as_bytes()];
        for text in texts {
            for before in [None, Some(Vec::new())] {
                let mut merged = before;
                let whole = append_texts(&mut merged, &[text]);
                // An empty text makes no comment to write.
                let itself = whole && !text.is_empty() && merged.as_deref() == Some(text);
                assert_eq!(is_clean_comment(text), itself, "{:?}", String::from_utf8_lossy(text));
            }
        }
    }
}
