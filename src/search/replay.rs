//! Replaying the games of a stretch of PGN and testing every position against the plan.
//!
//! [`replay_range`] (and [`replay_ranges`], for several ranges with one replayer) reads the
//! games of a byte range with the PGN [`Lexer`], replays their moves with the rules of their
//! variant, and records for each game the positions that matched (with the byte offset where a
//! marking comment goes), the moves of a game found, and the first error, if any. It never
//! prints.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::collections::hash_map::Entry;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::ControlFlow;
use std::sync::{Mutex, PoisonError};

use crate::board::{Square, SquareSet};
use crate::hash::{FastHasher, FastMap};
use crate::notation::pgn::cql_style::nag_of;
use crate::notation::pgn::{Damage, GameSpan, Lexer, Visitor, decode_text, tag_text};
use crate::notation::{Container, MoveError, MoveErrorKind, MoveReader, MovetextReader, NativeFormat};
use crate::position::{MoveEffects, MoveFacts, PositionView, RulesView};
use crate::query::state::Note;
use crate::query::{
    Context, Frame, GameFacts, GameTree, Identities, LineCache, Needs, Persistent, Program, Remark, SortValue, State,
    TagSource,
};
use crate::rules::registry::{RuleSetKey, Typed, WithRules, rule_set, with_rules};
use crate::rules::{GameRules, formats};
use crate::text::excerpt;
use crate::variant::{Edition, Variant};

use super::cql_game::{MAX_COMMENT, comment_words, split_annotation, standard_result};
use super::plans::Plans;
use super::positions::{EpdComments, PositionsFormat};

/// What a replay needs to know besides the text.
#[derive(Clone, Copy, Debug)]
pub struct ReplayOptions<'a> {
    /// The compiled query.
    pub plans: &'a Plans,
    /// How the text holds its games.
    pub container: Container,
    /// The variant of games without a `Variant` tag.
    pub default_variant: &'static Variant,
    /// The edition of the book that games of variants with editions follow where they have
    /// no `Edition` tag: the default variant's, else the 2020 edition.
    pub edition: Option<Edition>,
    /// Search the positions of variations too.
    pub variations: bool,
    /// Only games with this result (from the `Result` tag).
    pub result: Option<&'a [u8]>,
    /// The number of the text's first game in the input, from 1 (for `gamenumber`).
    pub first_game: u64,
    /// The number of the input's last game, for `lastgamenumber` (0: not known).
    pub last_game: u64,
    /// Where the variables that last from game to game (`persistent`) are kept between ranges
    /// of games; `None` when the query has none.
    pub carried: Option<&'a Carried>,
    /// Keep the moves of the games found ([`GameRecord::played`]), for writing them again.
    pub keep_played: bool,
    /// Write every position of each game's main line into [`GameRecord::positions`], so.
    pub positions: Option<PositionsFormat>,
    /// Whether the text ends the input: a last game it cuts off is reported as cut short.
    pub ends_input: bool,
    /// Where the games of the text that a stopped search no longer needs begin, shared by the
    /// threads that replay it; `None`: each game is read to its end.
    pub stop: Option<&'a StopMark>,
}

impl<'a> ReplayOptions<'a> {
    /// Options for the main lines of PGN games, Standard where they have no `Variant` tag,
    /// numbered from 1, nothing kept beyond what they match.
    #[must_use]
    pub fn main_lines(plans: &'a Plans) -> ReplayOptions<'a> {
        ReplayOptions {
            plans,
            container: Container::Pgn,
            default_variant: Variant::standard(),
            edition: None,
            variations: false,
            result: None,
            first_game: 1,
            last_game: 0,
            carried: None,
            keep_played: false,
            positions: None,
            ends_input: false,
            stop: None,
        }
    }
}

/// The earliest offset in a text of a game whose search stopped the run (an `assert` that
/// failed, a value CQL 6.2 refuses): the games after it are not wanted, and the threads
/// replaying them leave them as soon as they see it.
#[derive(Debug)]
pub struct StopMark(std::sync::atomic::AtomicUsize);

impl Default for StopMark {
    fn default() -> Self {
        Self(std::sync::atomic::AtomicUsize::new(usize::MAX))
    }
}

impl StopMark {
    /// Records that the search stopped in the game that begins at `offset`.
    pub fn stop_at(&self, offset: usize) {
        self.0.fetch_min(offset, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether a game before the one that begins at `offset` stopped the search.
    #[must_use]
    pub fn passed(&self, offset: usize) -> bool {
        self.0.load(std::sync::atomic::Ordering::Relaxed) < offset
    }
}

/// What a query carries from game to game, handed from each range of games to the next, and
/// from the games of one rule family (one board) to those of another: the values of its
/// variables that last (`persistent`), and the positions where it ran `removecomment`. The
/// ranges must then be replayed one after another, in the order of the input.
#[derive(Debug, Default)]
pub struct Carried {
    values: Mutex<Option<Carry>>,
    /// The numbers (`positionid`) of the positions where `removecomment` ran in a game before:
    /// CQL 6.2 keeps a game's positions in memory it reuses from game to game, numbered so,
    /// without clearing that mark, so the position of that number in every later game loses
    /// its comment too.
    removals: Mutex<BTreeSet<u32>>,
}

/// What [`Carried`] holds once a game has been replayed.
#[derive(Debug)]
struct Carry {
    values: Persistent,
    /// The variables printed at the end, with their slots.
    printed: Vec<(String, usize)>,
}

impl Carried {
    /// What the persistent variables hold now, printed as CQL 6.2 prints them at the end of a
    /// run (`name: value`, `quiet` ones left out); `None` when no game was replayed.
    #[must_use]
    pub fn report(&self) -> Option<Vec<String>> {
        let carry = self.values.lock().unwrap_or_else(PoisonError::into_inner);
        carry.as_ref().map(|carry| carry.values.report(&carry.printed))
    }

    /// The values kept, if a game has been replayed.
    fn take(&self) -> Option<Carry> {
        self.values.lock().unwrap_or_else(PoisonError::into_inner).take()
    }

    fn put(&self, carry: Carry) {
        *self.values.lock().unwrap_or_else(PoisonError::into_inner) = Some(carry);
    }

    /// The positions where `removecomment` ran in the games before.
    fn removals(&self) -> BTreeSet<u32> {
        self.removals.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    fn set_removals(&self, removals: BTreeSet<u32>) {
        *self.removals.lock().unwrap_or_else(PoisonError::into_inner) = removals;
    }

    fn keep<const W: usize>(&self, program: &Program<W>, state: &State<W>) {
        let values = state.persistent(program.geometry());
        self.put(Carry { values, printed: program.printed().to_vec() });
    }
}

/// A variation of the game being replayed: which it is, and where its moves are marked.
#[derive(Clone, Copy, Debug)]
struct VariationSpan {
    /// The ply of the move it replaces.
    replaced: u32,
    /// Its number among the variations of that move, from 1.
    number: u32,
    /// The offsets where the marks of its first and last moves (those of the variations inside
    /// it included) go, once it has a move.
    moves: Option<(usize, usize)>,
}

/// A position that matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchedPly {
    /// Its ply: 0 for the initial position, then 1 after the first move.
    pub ply: u32,
    /// Where the marking comment goes: after the move that reached it (before the first move for
    /// the initial position), as an offset into the game's text (from its first byte).
    pub offset: usize,
}

/// The items of `list`, in a list of their own length; `list` is left empty with its room.
fn take_keeping_room<T: Clone>(list: &mut Vec<T>) -> Vec<T> {
    let taken = list.clone();
    list.clear();
    taken
}

/// How the query changes the game written: the comments it removes (`removecomment`) and the
/// tags it gives (`settag`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameEdits {
    /// The positions whose own comments are left out, as `(ply, offset)` ([`MatchedPly`]'s).
    pub removed: Vec<(u32, usize)>,
    /// The tags given, in the order first given, each with its last value.
    pub tags: Vec<(String, String)>,
}

impl GameEdits {
    /// No change.
    pub const NONE: GameEdits = GameEdits { removed: Vec::new(), tags: Vec::new() };

    /// The edits kept: the tags where `set_tags`, the comments removed where `remove_comments`.
    #[must_use]
    pub fn kept(self, set_tags: bool, remove_comments: bool) -> GameEdits {
        GameEdits {
            removed: if remove_comments { self.removed } else { Vec::new() },
            tags: if set_tags { self.tags } else { Vec::new() },
        }
    }

    /// Whether the position at `offset` (ply `ply`) loses its own comment.
    #[must_use]
    pub fn removes(&self, ply: u32, offset: usize) -> bool {
        self.removed.iter().any(|&(removed_ply, removed)| removed == offset && (removed_ply == 0) == (ply == 0))
    }

    /// The tags given, as tag pairs (the values as they are written: CQL 6.2 escapes nothing).
    pub fn tag_pairs(&self) -> impl Iterator<Item = (&[u8], &[u8])> {
        self.tags.iter().map(|(name, value)| (name.as_bytes(), value.as_bytes()))
    }

    /// Whether the game's first position loses its comment (the one before the first move).
    #[must_use]
    pub fn removes_first(&self) -> bool {
        self.removed.iter().any(|&(ply, _)| ply == 0)
    }
}

/// The hash of a comment's text (none: the mark of a match).
fn text_hash(text: Option<&str>) -> u64 {
    let mut hasher = FastHasher::default();
    text.hash(&mut hasher);
    hasher.finish()
}

/// The comments a game's positions got, each once (CQL 6.2 writes a text once at a position).
/// Once a position's texts hold more than [`MAX_COMMENT`] bytes, CQL writes none after them
/// there: those are not kept.
#[derive(Default)]
struct Notes {
    notes: Vec<GameNote>,
    /// The first note kept with each position and hash of its text.
    seen: FastMap<(usize, u64), usize>,
    bytes: FastMap<usize, usize>,
}

impl Notes {
    fn keep(&mut self, note: GameNote) {
        let bytes = self.bytes.entry(note.offset).or_default();
        if *bytes > MAX_COMMENT {
            return;
        }
        let key = (note.offset, text_hash(note.text.as_deref()));
        match self.seen.entry(key) {
            Entry::Occupied(first) => {
                let kept = &self.notes[*first.get()];
                // Two texts of one hash are almost always one text: the rest are looked for.
                if kept.text == note.text
                    || self.notes.iter().any(|kept| kept.offset == note.offset && kept.text == note.text)
                {
                    return;
                }
            }
            Entry::Vacant(vacant) => {
                vacant.insert(self.notes.len());
            }
        }
        *bytes += note.text.as_ref().map_or(0, String::len);
        self.notes.push(note);
    }

    fn is_empty(&self) -> bool {
        self.notes.is_empty()
    }

    fn take(&mut self) -> Vec<GameNote> {
        self.seen.clear();
        self.bytes.clear();
        std::mem::take(&mut self.notes)
    }

    fn clear(&mut self) {
        self.take();
    }
}

/// What goes into the comment of a position, in the order the search made it: the query's
/// comments (`comment(...)`, what `find`, `line` and `echo` say about the positions they
/// found) and the mark of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameNote {
    /// The position's ply.
    pub ply: u32,
    /// Where it goes: as [`MatchedPly::offset`].
    pub offset: usize,
    /// The text; none for the mark of a match (whose text the printer chooses).
    pub text: Option<String>,
}

/// Why a game could not be replayed to its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameErrorKind {
    /// A move token that could not be played: no move, not legal, ambiguous.
    Move(MoveError),
    /// The `FEN` tag is not a position of the variant.
    BadFen(String),
    /// The `Variant` tag names no variant cqlq knows.
    UnknownVariant(String),
    /// The `Edition` tag names no edition of the book (`2020`, `current`).
    UnknownEdition(String),
    /// A variant whose PGN moves cqlq does not replay.
    UnsupportedVariant(&'static str),
    /// The query does not compile for the game's variant.
    QueryDoesNotFit(&'static Variant),
    /// The game's text is malformed there: the positions after it are not searched.
    Damaged(Damage),
}

/// The first error of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError {
    /// The ply the move would have made (0 for errors before the first move).
    pub ply: u32,
    /// Where the move token starts, as an offset into the text given.
    pub offset: usize,
    /// The move token, as written, as messages show it: cut after [`TOKEN_CHARS`] characters,
    /// control characters escaped.
    pub token: String,
    /// What is wrong.
    pub kind: GameErrorKind,
}

impl fmt::Display for GameErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameErrorKind::Move(error) => write!(f, "{error}"),
            GameErrorKind::BadFen(reason) => write!(f, "bad FEN tag: {reason}"),
            GameErrorKind::UnknownVariant(name) => write!(f, "unknown variant '{name}'"),
            GameErrorKind::UnknownEdition(name) => write!(f, "unknown edition '{name}' (editions: 2020, current)"),
            GameErrorKind::UnsupportedVariant(name) => write!(f, "{name} games are not replayed from their moves yet"),
            GameErrorKind::QueryDoesNotFit(variant) => write!(f, "the query does not compile for {}", variant.name),
            GameErrorKind::Damaged(damage) => write!(f, "{damage}"),
        }
    }
}

/// Something a game's record leaves out that its rules did anyway (a piece a laser's beam
/// removed that the turn does not write): the move stands, and the replay goes on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameWarning {
    /// The ply of the move.
    pub ply: u32,
    /// Where its token starts, as an offset into the text given.
    pub offset: usize,
    /// The token, as [`GameError::token`] shows it.
    pub token: String,
    /// What the rules did, in words.
    pub text: String,
}

/// The most characters of a token that messages show (a `moves_raw` entry with a promotion has 79).
pub const TOKEN_CHARS: usize = 80;

/// The most characters of a tag's text that messages show.
const TAG_CHARS: usize = 80;

/// One game of a range, as replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Where the game starts, as an offset into the text given.
    pub start: usize,
    /// Where its movetext starts.
    pub movetext: usize,
    /// One past its end.
    pub end: usize,
    /// The positions that matched (their offsets into the game's own text).
    pub matched: Vec<MatchedPly>,
    /// The comments the query made at positions, in the order made (their offsets into the
    /// game's own text).
    pub notes: Vec<GameNote>,
    /// The lines the query printed (`message(...)`), in the order printed.
    pub messages: Vec<String>,
    /// The first error, if the replay stopped early.
    pub error: Option<GameError>,
    /// Why the search must stop after this game: the query tested a value that cannot be
    /// tested.
    pub refusal: Option<String>,
    /// What the record leaves out that the rules did, move by move (its moves stand).
    pub warnings: Vec<GameWarning>,
    /// Whether the game was left out before any replay (its result did not fit).
    pub excluded: bool,
    /// Whether the game names no variant (no `Variant` tag): it was read as a game of the
    /// default variant.
    pub untagged: bool,
    /// For each position that matched, the variations it lies in, from the outermost: each as
    /// the ply of the move it replaces and its number among the variations of that move (from
    /// 1); none on the main line. Empty when no variation was searched.
    pub variations: Vec<Vec<(u32, u32)>>,
    /// The number of plies replayed.
    pub plies: u32,
    /// The game's values for the query's `sort` keys where it sorts: the header's `sort` (the
    /// best over the matching positions), then each of the body's (the best at any position
    /// tested); `None` for a key with no value.
    pub sort: Vec<Option<SortValue>>,
    /// The moves of the main line as replayed, up to any error, each as its rules keep it
    /// ([`GameRules::keep`]), for a game that matched when [`ReplayOptions::keep_played`] asks
    /// for them (so that writing it again needs no SAN read); empty for the others, and for
    /// the games of rules that keep no moves.
    pub played: Vec<u32>,
    /// Whether the movetext holds nothing but moves, all of them replayed, and a result: no
    /// comment, glyph or variation, no damage, no error. `played` then holds the whole game
    /// (where it is kept), which can be written again without reading its text.
    pub moves_only: bool,
    /// The result that ends the movetext, as PGN spells it (`1/2-1/2` for `½-½`), if any.
    pub outcome: Option<&'static [u8]>,
    /// The lines of the positions of the main line, where [`ReplayOptions::positions`] asks
    /// for them (up to any error).
    pub positions: Vec<u8>,
    /// How the query changes the game written.
    pub edits: GameEdits,
}

impl GameRecord {
    /// About how many bytes the record holds besides its fixed size: what the query wrote (its
    /// comments, its messages), the moves kept and the positions written.
    #[must_use]
    pub fn weight(&self) -> usize {
        let texts = |texts: &mut dyn Iterator<Item = usize>| texts.sum::<usize>();
        let notes = texts(&mut self.notes.iter().map(|note| note.text.as_ref().map_or(0, String::len) + 32));
        let messages = texts(&mut self.messages.iter().map(String::len));
        notes + messages + self.positions.len() + self.played.len() * std::mem::size_of::<u32>()
    }

    /// Makes the offsets of the positions into the game's own text, which starts at `start`.
    fn rebase(&mut self, start: usize) {
        for ply in &mut self.matched {
            ply.offset = ply.offset.saturating_sub(start);
        }
        for note in &mut self.notes {
            note.offset = note.offset.saturating_sub(start);
        }
        for (_, offset) in &mut self.edits.removed {
            *offset = offset.saturating_sub(start);
        }
    }

    /// Moves the record's offsets into the text `by` bytes on (from its range into the text
    /// around it); those of its positions stay the game's own.
    fn shift(&mut self, by: usize) {
        self.start += by;
        self.movetext += by;
        self.end += by;
        if let Some(error) = &mut self.error {
            error.offset += by;
        }
        for warning in &mut self.warnings {
            warning.offset += by;
        }
    }
}

/// Replays every game of `text` (which holds whole games) and returns one record per game.
#[must_use]
pub fn replay_range(text: &[u8], options: &ReplayOptions<'_>) -> Vec<GameRecord> {
    replay_ranges(text, &[(0, text.len(), options.first_game)], options)
}

/// [`replay_range`] for several ranges of `text`, each `(start, end, number)`: its games are
/// numbered on from `number`, and their offsets are into `text`. One replayer reads them all,
/// keeping what it made for one game (its lists, the evaluation's state) for the next.
///
/// The games are replayed with the rules of the default variant (Standard's where cqlq does
/// not play them); a game of a variant of other rules is read again with those.
#[must_use]
pub fn replay_ranges(text: &[u8], ranges: &[(usize, usize, u64)], options: &ReplayOptions<'_>) -> Vec<GameRecord> {
    let replay = Replay { text, ranges, options, handed_over: false };
    with_rules(options.default_variant, replay)
        .or_else(|replay| with_rules(Variant::standard(), replay))
        .unwrap_or_else(|_| unreachable!("the rules of Standard are registered"))
        .0
}

/// The games of ranges of a text, to replay with the rules of a rule set.
struct Replay<'t, 'o> {
    text: &'t [u8],
    ranges: &'t [(usize, usize, u64)],
    options: &'o ReplayOptions<'o>,
    /// The replayer of other rules handed these games over: after the first, they are read
    /// while they are of these rules, and handed back at the first that is not.
    handed_over: bool,
}

impl WithRules for Replay<'_, '_> {
    /// The records, and where the games handed back begin, if some are.
    type Output = (Vec<GameRecord>, Option<HandBack>);

    fn run<R: GameRules<W>, const W: usize>(self, typed: Typed<W>) -> Self::Output {
        replay_ranges_with::<R, W>(self, typed)
    }
}

/// Where a replayer that was handed games over stopped: the first game of other rules.
#[derive(Clone, Copy, Debug)]
struct HandBack {
    /// The range it is in, an index into the ranges handed over.
    range: usize,
    /// Where it begins in the text.
    at: usize,
    /// The number of the game before it.
    number: u64,
}

fn replay_ranges_with<R: GameRules<W>, const W: usize>(
    replay: Replay<'_, '_>,
    typed: Typed<W>,
) -> (Vec<GameRecord>, Option<HandBack>) {
    let Replay { text, ranges, options, handed_over } = replay;
    let mut replayer = Replayer::<R, W>::new(options, typed);
    replayer.inherited = options.carried.and_then(Carried::take);
    let mut records = Vec::with_capacity(ranges.len());
    let mut index = 0;
    // Where reading goes on in the range, and the number of the game before, after games of
    // other rules were handed back.
    let mut resume: Option<(usize, u64)> = None;
    while let Some(&(start, end, number)) = ranges.get(index) {
        let (from, number) = resume.take().unwrap_or((start, number.saturating_sub(1)));
        replayer.number = number;
        let ending = options.ends_input && end == text.len();
        let mut games = Games::new(options.container, &text[from..end], ending);
        replayer.base = from;
        let mut handed = None;
        while let Some(span) = games.next(&mut replayer) {
            if let Some(variant) = replayer.other_rules.take() {
                let at = from + span.start;
                replayer.hand_over();
                if handed_over && (index > 0 || at > start) {
                    // Back to the replayer that handed these games over.
                    return (records, Some(HandBack { range: index, at, number: replayer.number - 1 }));
                }
                // The games of a variant of other rules, from this one on while they are of
                // those rules, read again with those; the persistent variables go on from
                // where the games before left them, and back.
                let mut rest = vec![(at, end, replayer.number)];
                rest.extend_from_slice(&ranges[index + 1..]);
                let replay = Replay { text, ranges: &rest, options, handed_over: true };
                let Ok((replayed, back)) = with_rules(variant, replay) else { continue };
                records.extend(replayed);
                replayer.inherited = options.carried.and_then(Carried::take);
                handed = Some(back);
                break;
            }
            if replayer.needs.game_text {
                replayer.game = std::mem::take(&mut replayer.game).with_text(&text[from..end][span.start..span.end]);
            }
            replayer.finish_game();
            if let (Some(carried), Some(removals)) = (options.carried, replayer.found.removals.take()) {
                carried.set_removals(removals);
            }
            let found = !replayer.found.matched.is_empty() || !replayer.found.notes.is_empty();
            // The moves are kept where the game can be written again from them.
            let played = if found && options.keep_played { kept_moves::<R, W>(&replayer.played) } else { Vec::new() };
            // Before the error and the matched positions are taken into the record.
            let moves_only = replayer.moves_only && replayer.error.is_none();
            let variations = replayer.variation_paths();
            let header_sort = replayer.found.sort.take();
            let end_notes = std::mem::take(&mut replayer.found.end_notes);
            // Kept with the game whether its positions match or not (`matchcount 0` writes it).
            for note in end_notes.into_iter().flatten() {
                replayer.found.notes.keep(note);
            }
            let sort = match &replayer.state {
                Some((program, state)) if program.sorts() => {
                    let header = program.header_sort().map(|_| header_sort.map(SortValue::Number));
                    header.into_iter().chain(state.game_sorts()).collect()
                }
                _ => Vec::new(),
            };
            if let Some(text) = replayer.state.as_mut().and_then(|(_, state)| state.take_earlier_position_warning()) {
                replayer.warnings.push(GameWarning { ply: 0, offset: span.movetext, token: String::new(), text });
            }
            let mut record = GameRecord {
                start: span.start,
                movetext: span.movetext,
                end: span.end,
                // A copy of its length, the list kept for the next game: a list grown a mark at
                // a time would be allocated again for every game found.
                matched: take_keeping_room(&mut replayer.found.matched),
                notes: replayer.found.notes.take(),
                messages: replayer.state.as_mut().map(|(_, state)| state.take_messages()).unwrap_or_default(),
                error: replayer.error.take(),
                refusal: replayer.state.as_mut().and_then(|(_, state)| state.take_refusal()),
                warnings: std::mem::take(&mut replayer.warnings),
                excluded: replayer.excluded,
                untagged: replayer.untagged,
                variations,
                plies: replayer.plies,
                sort,
                played,
                moves_only,
                outcome: replayer.outcome,
                positions: std::mem::take(&mut replayer.positions),
                edits: GameEdits {
                    removed: std::mem::take(&mut replayer.found.removed),
                    tags: replayer.state.as_mut().map(|(_, state)| state.take_tags()).unwrap_or_default(),
                },
            };
            if let (Some(stop), Some(_)) = (options.stop, &record.refusal) {
                stop.stop_at(replayer.game_start);
            }
            record.rebase(span.start);
            record.shift(from);
            records.push(record);
        }
        match handed {
            Some(Some(back)) => {
                index += back.range;
                resume = Some((back.at, back.number));
            }
            Some(None) => break,
            None => index += 1,
        }
    }
    replayer.hand_over();
    (records, None)
}

/// The games of a range, read by the reader of its container.
enum Games<'a> {
    Pgn(Lexer<'a>),
    Native { format: &'static dyn NativeFormat, text: &'a [u8], at: usize },
}

impl<'a> Games<'a> {
    /// The games of `text`, which ends the input when `ending`.
    fn new(container: Container, text: &'a [u8], ending: bool) -> Games<'a> {
        match container {
            Container::Pgn => Games::Pgn(Lexer::new(text).ending_the_input(ending)),
            Container::Native(format) => Games::Native { format, text, at: 0 },
        }
    }

    /// Reads the next game, telling the visitor.
    #[inline]
    fn next<V: Visitor<'a>>(&mut self, visitor: &mut V) -> Option<GameSpan> {
        match self {
            Games::Pgn(lexer) => lexer.next_game(visitor),
            Games::Native { format, text, at } => format.next_game(text, at, visitor),
        }
    }
}

/// A variation whose positions are numbered: its branches ([`Deferred::branches`]), and the
/// number in the game (`positionid`) of each of its positions, by ply.
type Numbered = (Vec<(u32, u32)>, Vec<(u32, u32)>);

/// A variation placed in a game's tree: its branches ([`Deferred::branches`]), and the frame of
/// each of its positions in the tree, by ply.
type Placed = (Vec<(u32, u32)>, Vec<(u32, usize)>);

/// A variation read whole, whose positions are tested once the game is read.
struct Deferred<R, const W: usize> {
    /// Where it branches off: for each variation from the main line's down to it, the ply of
    /// the move it replaces and its number among the variations of that move.
    branches: Vec<(u32, u32)>,
    line: Line<R, W>,
    /// Whether it ends with its last position (not cut short by an error).
    complete: bool,
}

impl<R, const W: usize> Deferred<R, W> {
    /// The order in which CQL 6.2 visits the positions of a game's variations, after the main
    /// line's: the game's tree walked depth first, the main continuation first. So a variation
    /// comes before the variations inside it; of two that part at a line, the one branching
    /// later comes first, and of two replacing the same move, the one written first.
    fn cql_order(first: &Deferred<R, W>, second: &Deferred<R, W>) -> std::cmp::Ordering {
        for (&(first_ply, first_number), &(second_ply, second_number)) in first.branches.iter().zip(&second.branches) {
            if first_ply != second_ply {
                return second_ply.cmp(&first_ply);
            }
            if first_number != second_number {
                return first_number.cmp(&second_number);
            }
        }
        first.branches.len().cmp(&second.branches.len())
    }
}

/// The frames a line may hold beyond those it must keep, so that the older ones are dropped
/// in batches.
const TRIM_SLACK: usize = 14;

/// The positions of one line (the main line or a variation) that are kept: all of them when the
/// query looks ahead, else (at least) the last one or two.
#[derive(Clone)]
struct Line<R, const W: usize> {
    frames: Vec<Frame<R, W>>,
    /// Where the marking comment of each frame goes.
    offsets: Vec<usize>,
    /// The identities of the pieces of each frame, when the query follows pieces; else empty.
    pieces: Vec<Identities>,
    /// What the text says about each frame's move, when the query reads comments; else empty.
    remarks: Vec<Remark>,
    /// The first frame that belongs to this line (earlier ones are its parent's, kept for
    /// looking back); only frames from here on are tested when the line is complete.
    own_from: usize,
    /// Whether the line is the game's main line.
    mainline: bool,
}

impl<R: Clone, const W: usize> Line<R, W> {
    /// What a test of the line's positions sees: `complete` when the line ends with its last
    /// frame, `lines` to keep the answers of `line` filters over all its positions.
    fn context<'c>(
        &'c self,
        game: &'c GameFacts,
        state: &'c State<W>,
        complete: bool,
        lines: Option<&'c LineCache>,
    ) -> Context<'c, R, W> {
        Context {
            frames: &self.frames,
            pieces: &self.pieces,
            remarks: &self.remarks,
            complete,
            game,
            lines,
            state,
            tree: None,
        }
    }

    fn current(&self) -> &Frame<R, W> {
        self.frames.last().expect("a line has a position")
    }

    /// Copies the last position (its frame, the offset of its mark, its pieces) to the end of
    /// the line, where the next move is played; then, past `keep` positions and some slack,
    /// drops the oldest ones (`keep` 0: none).
    fn copy_last(&mut self, keep: usize) {
        let last = self.frames.len() - 1;
        self.frames.extend_from_within(last..);
        self.offsets.extend_from_within(last..);
        if !self.pieces.is_empty() {
            self.pieces.extend_from_within(last..);
        }
        if !self.remarks.is_empty() {
            // The next move has its own comment and glyphs.
            self.remarks.push(Remark::default());
        }
        if keep != 0 && self.frames.len() > keep + TRIM_SLACK {
            // Dropped a batch at a time: one shift of the frames now and then, not one a move.
            let dropped = self.frames.len() - keep;
            self.frames.drain(..dropped);
            self.offsets.drain(..dropped);
            self.pieces.drain(..dropped.min(self.pieces.len()));
            self.remarks.drain(..dropped.min(self.remarks.len()));
            self.own_from = self.own_from.saturating_sub(dropped);
        }
    }

    /// Drops the last position.
    fn pop(&mut self) {
        self.frames.pop();
        self.offsets.pop();
        self.pieces.truncate(self.frames.len());
        self.remarks.truncate(self.frames.len());
    }

    /// A variation of this line that replaces its last move: it holds the positions before it
    /// (where a line keeps `keep` positions, about as many of them; 0: all).
    fn variation(&self, keep: usize) -> Line<R, W> {
        let branch = self.frames.len() - 1;
        let first = if keep == 0 { 0 } else { branch.saturating_sub(keep + TRIM_SLACK) };
        let kept = |len: usize| first.min(len)..branch.min(len);
        Line {
            frames: self.frames[first..branch].to_vec(),
            offsets: self.offsets[first..branch].to_vec(),
            pieces: self.pieces[kept(self.pieces.len())].to_vec(),
            remarks: self.remarks[kept(self.remarks.len())].to_vec(),
            own_from: branch - first,
            mainline: false,
        }
    }

    /// Forgets every position, keeping the lists for the next game.
    fn clear(&mut self) {
        self.frames.clear();
        self.offsets.clear();
        self.pieces.clear();
        self.remarks.clear();
    }

    /// What the text says about the last move (or, before any, the game), where the query
    /// reads it.
    fn last_remark(&mut self) -> Option<&mut Remark> {
        self.remarks.last_mut()
    }

    fn ply(&self) -> u32 {
        self.current().ply
    }

    /// Whether the position `at` may have no legal move: it is the last, or the move after it
    /// moved no piece (a null move; or a castling whose king and rook swapped squares, which
    /// is tested for nothing).
    fn may_end_at(&self, at: usize) -> bool
    where
        R: PositionView<W>,
    {
        self.frames.get(at + 1).is_none_or(|next| {
            PositionView::occupied(&next.position) == PositionView::occupied(&self.frames[at].position)
        })
    }
}

/// What a game's replay found so far: the positions that matched, and the value of the
/// header's `sort`.
#[derive(Default)]
struct Findings {
    matched: Vec<MatchedPly>,
    notes: Notes,
    sort: Option<i64>,
    /// Whether the query makes notes, so that the marks go among them in the order made;
    /// otherwise the notes stay empty and the marks are the matched positions.
    marks_in_notes: bool,
    /// The positions whose own comments the query removed, as `(ply, offset)`.
    removed: Vec<(u32, usize)>,
    /// The numbers of the positions where `removecomment` ran in this game or one before,
    /// where the query carries them from game to game ([`Carried`]).
    removals: Option<BTreeSet<u32>>,
    /// The comments kept for the game's end (of `consecutivemoves`, and of each `sort` key of
    /// the body with the game's best value), by key, added to the game's once it is read (as
    /// CQL 6.2 adds them).
    end_notes: Vec<Vec<GameNote>>,
}

impl Findings {
    /// Records a match at a position.
    fn mark(&mut self, ply: u32, offset: usize) {
        self.matched.push(MatchedPly { ply, offset });
        if self.marks_in_notes {
            self.notes.keep(GameNote { ply, offset, text: None });
        }
    }

    /// Keeps the positions whose comments the last test removed (whatever its answer, as in
    /// CQL 6.2).
    fn keep_removed<R, const W: usize>(&mut self, context: &Context<'_, R, W>, offsets: &[usize]) {
        for at in context.state.take_removed() {
            self.removed.push((context.frames[at].ply, offsets[at]));
            if let Some(removals) = &mut self.removals {
                removals.insert(context.frames[at].id);
            }
        }
    }

    /// Whether `removecomment` ran in a game before, so that positions of this game lose their
    /// comments whether or not they are tested: they must be replayed to be found.
    fn removes_before(&self) -> bool {
        self.removals.as_ref().is_some_and(|removals| !removals.is_empty())
    }

    /// Removes the comment of the position `at` where `removecomment` ran at the position of
    /// its number in a game before.
    fn keep_removed_before<R, const W: usize>(&mut self, context: &Context<'_, R, W>, offsets: &[usize], at: usize) {
        if self.removals.as_ref().is_some_and(|removals| removals.contains(&context.frames[at].id)) {
            self.removed.push((context.frames[at].ply, offsets[at]));
        }
    }

    /// Tests the position `at` of the context's line, whose marking comments go at `offsets`.
    #[inline(always)]
    fn test<R: RulesView<W>, const W: usize>(
        &mut self,
        program: &Program<W>,
        context: &Context<'_, R, W>,
        offsets: &[usize],
        at: usize,
    ) {
        if !program.makes_notes && !program.sorts() {
            // Nothing to keep but the match itself.
            if program.matches_at(context, at) {
                self.mark(context.frames[at].ply, offsets[at]);
            }
            if program.removes_comments {
                self.keep_removed_before(context, offsets, at);
                self.keep_removed(context, offsets);
            }
            return;
        }
        let notes_before = context.state.notes_len();
        let matched = program.matches_at(context, at);
        for (key, notes) in context.state.take_end_notes() {
            // Kept whether the position matches or not.
            let place = |note: Note| GameNote {
                ply: context.frames[note.at].ply,
                offset: offsets[note.at],
                text: Some(note.text.into_string()),
            };
            if self.end_notes.len() <= key {
                self.end_notes.resize_with(key + 1, Vec::new);
            }
            self.end_notes[key] = notes.into_iter().map(place).collect();
        }
        if program.removes_comments {
            self.keep_removed_before(context, offsets, at);
            self.keep_removed(context, offsets);
        }
        if !matched {
            // The comments of a position that does not match are not kept.
            context.state.truncate_notes(notes_before);
            return;
        }
        for note in context.state.drain_notes(notes_before) {
            let (ply, offset) = (context.frames[note.at].ply, offsets[note.at]);
            self.notes.keep(GameNote { ply, offset, text: Some(note.text.into_string()) });
        }
        self.mark(context.frames[at].ply, offsets[at]);
        if let Some(min) = program.header_sort()
            && let Some(value) = program.sort_value(context, at)
        {
            self.sort = Some(match self.sort {
                Some(best) if min => best.min(value),
                Some(best) => best.max(value),
                None => value,
            });
        }
    }
}

/// Replays games with the rules of one family, `R`, whose square sets take `W` words.
struct Replayer<'a, 'o, R: GameRules<W>, const W: usize> {
    options: &'o ReplayOptions<'o>,
    /// Where the games being read begin in the whole text, and where the current one begins.
    base: usize,
    game_start: usize,
    tags: Vec<(&'a [u8], &'a [u8])>,
    program: Option<&'o Program<W>>,
    needs: Needs,
    /// What plays the game's move tokens, if they are not of the family's own notation.
    moves: Option<&'static dyn MoveReader<R, R::Played>>,
    /// Who reads the game's movetext, when the PGN lexer does not (it is not SAN).
    movetext_reader: Option<&'static dyn MovetextReader>,
    /// How many frames a line keeps (0: all).
    keep: usize,
    game: GameFacts,
    /// The answers of `line` filters over the line being closed.
    lines: LineCache,
    /// The shape of the game's tree, when its variations are searched by a query that looks
    /// beyond the position tested (then the whole tree is tested at the game's end).
    tree: GameTree,
    /// The variables of the game's evaluation, and the program they are for.
    state: Option<(&'o Program<W>, State<W>)>,
    /// What the games before left in the persistent variables, not yet taken up.
    inherited: Option<Carry>,
    line: Option<Line<R, W>>,
    outer: Vec<Line<R, W>>,
    /// The lists of the last game's main line, emptied, for the next game's.
    spare: Option<Line<R, W>>,
    /// The moves of the game's main line, as played.
    played: Vec<R::Played>,
    /// What the game's record leaves out that the rules did.
    warnings: Vec<GameWarning>,
    /// Takes the plan's program of this width out of a plan.
    typed: Typed<W>,
    /// The rule set these rules are.
    rules: Option<RuleSetKey>,
    /// The game just begun is of a variant of other rules, which must replay it.
    other_rules: Option<&'static Variant>,
    /// The first position waits for the move numbers to say who moves first.
    first_pending: bool,
    /// Whether the movetext read so far holds moves only (see [`GameRecord::moves_only`]).
    moves_only: bool,
    /// The result that ended the movetext.
    outcome: Option<&'static [u8]>,
    /// The lines of the main line's positions written so far.
    positions: Vec<u8>,
    /// What the game's EPD lines say besides the position.
    epd: EpdComments,
    /// The position being written.
    fen: String,
    /// The last variant's initial board, for the next game of that variant without a setup.
    initial: Option<(&'static Variant, R)>,
    found: Findings,
    error: Option<GameError>,
    excluded: bool,
    /// The game names no variant.
    untagged: bool,
    /// The variations searched in the game, in the order they begin.
    spans: Vec<VariationSpan>,
    /// The variations read whole, whose positions are tested after the main line's.
    deferred: Vec<Deferred<R, W>>,
    /// The variations open, innermost last (indexes into `spans`).
    open: Vec<usize>,
    /// The variation that ended last, where no move was played since: its depth, the ply of
    /// the move it replaced and its number (the next variation of that move is the one after).
    closed: Option<(usize, u32, u32)>,
    plies: u32,
    /// The number of the game being read in the input.
    number: u64,
    /// The query looks at no position and the game's tags made it match: every position of
    /// the game matches, as in CQL 6.2.
    every_position: bool,
    /// The game's main line is replayed alone, each position tested as it comes and then
    /// dropped: no variation is searched, and the query looks at nothing but the position and
    /// the move to it (no position before or after, no piece followed, no comment read), nor
    /// are the positions written, nor does the first wait for the move numbers.
    plain_line: bool,
}

/// The tags of the game being read.
struct Tags<'t, 'a>(&'t [(&'a [u8], &'a [u8])]);

impl TagSource for Tags<'_, '_> {
    fn tag(&self, name: &str) -> Option<Cow<'_, str>> {
        let (_, value) = self.0.iter().rev().find(|(tag, _)| tag.eq_ignore_ascii_case(name.as_bytes()))?;
        Some(tag_text(value))
    }
}

/// The kind of a reader's error, its reason kept in `failure`.
fn keep_reason(error: MoveError, failure: &mut Option<MoveError>) -> MoveErrorKind {
    let kind = error.kind;
    *failure = Some(error);
    kind
}

/// The moves `played`, each as its rules keep it ([`GameRules::keep`]); none where a move
/// cannot be kept.
fn kept_moves<R: GameRules<W>, const W: usize>(played: &[R::Played]) -> Vec<u32> {
    let mut kept = Vec::with_capacity(played.len());
    for played in played {
        let Some(code) = R::keep(played) else { return Vec::new() };
        kept.push(code);
    }
    kept
}

/// What the rules did that the record leaves out, in the move `played` (the token `token`,
/// at byte `offset`, ply `ply`) that led to `position`, if anything.
#[inline(always)]
fn rules_warning<R: GameRules<W>, const W: usize>(
    position: &R,
    played: &R::Played,
    token: &[u8],
    ply: u32,
    offset: usize,
) -> Option<GameWarning> {
    let text = position.warning(played)?;
    Some(GameWarning { ply, offset, token: excerpt(&decode_text(token), TOKEN_CHARS), text })
}

impl<'a, 'o, R: GameRules<W>, const W: usize> Replayer<'a, 'o, R, W> {
    /// [`Replayer::play_token`] for a main line whose last position is its only one
    /// ([`Replayer::plain_line`]): the move is played in that position's frame.
    #[inline(always)]
    fn play_plain_token(
        &mut self,
        token: &'a [u8],
        end: usize,
        play: impl FnOnce(&mut R, &mut Option<MoveError>) -> Result<R::Played, MoveErrorKind>,
    ) -> ControlFlow<()> {
        if self.error.is_some() {
            return ControlFlow::Break(());
        }
        let Some(line) = self.line.as_mut() else { return ControlFlow::Break(()) };
        let frame = &mut line.frames[0];
        let ply = frame.ply + 1;
        let mut failure = None;
        match play(&mut frame.position, &mut failure) {
            Ok(played) => {
                frame.ply = ply;
                frame.id = ply;
                if self.needs.previous_move {
                    frame.previous = frame.position.facts(played);
                    frame.removed = frame.position.effects(played).removed;
                }
                if self.options.keep_played {
                    self.played.push(played);
                }
                if let Some(warning) = rules_warning(&frame.position, &played, token, ply, end - token.len()) {
                    self.warnings.push(warning);
                }
                if matches!(token.last(), Some(b'!' | b'?')) {
                    // A glyph glued to the move (`e4!`).
                    self.moves_only = false;
                }
                line.offsets[0] = end;
                self.plies = ply;
                self.test_current();
                ControlFlow::Continue(())
            }
            Err(error) => {
                let error = failure.unwrap_or(MoveError::new(error));
                self.fail(ply, end - token.len(), token, GameErrorKind::Move(error))
            }
        }
    }

    /// Plays the move `token` (ending at byte `end`) with `play`, which gives the kind of an
    /// error and keeps any reason aside, then tests the position reached.
    #[inline(always)]
    fn play_token(
        &mut self,
        token: &'a [u8],
        end: usize,
        play: impl FnOnce(&mut R, &mut Option<MoveError>) -> Result<R::Played, MoveErrorKind>,
    ) -> ControlFlow<()> {
        if self.plain_line {
            return self.play_plain_token(token, end, play);
        }
        let keep = self.keep;
        let needs_facts = self.needs.previous_move || self.needs.identities;
        if self.error.is_some() || self.settle_first().is_break() {
            return ControlFlow::Break(());
        }
        let Some(line) = self.line.as_mut() else { return ControlFlow::Break(()) };
        let ply = line.ply() + 1;
        let mainline = line.mainline;
        let start = end - token.len();
        let glued = matches!(token.last(), Some(b'!' | b'?'));
        if glued {
            // A glyph glued to the move (`e4!`).
            self.moves_only = false;
        }
        if self.needs.terminal && self.moves.map_or_else(|| R::is_null_token(token), |moves| moves.is_null(token)) {
            // A null move leaves a position that may have no legal move.
            self.test_last();
        }
        let Some(line) = self.line.as_mut() else { return ControlFlow::Break(()) };
        if keep != 1 {
            // Keep the position before the move (for variations, `move previous`, lookahead);
            // a variation keeps all its positions, tested once the game is read.
            line.copy_last(if mainline { keep } else { 0 });
        }
        // The first move of a variation is played just after the positions it shares.
        let branch = !mainline && line.frames.len() - 1 == line.own_from;
        let frame = line.frames.last_mut().expect("a line has a position");
        // The hot path (SAN) carries only the kind of an error; a reader's reasons are kept aside.
        let mut failure = None;
        let played = play(&mut frame.position, &mut failure);
        match played {
            Ok(played) => {
                frame.ply = ply;
                frame.mainline = mainline;
                frame.branch = branch;
                frame.depth += u32::from(branch);
                // A variation's positions are numbered once the game is read.
                frame.id = ply;
                if mainline && self.options.keep_played {
                    self.played.push(played);
                }
                if needs_facts {
                    let facts = frame.position.facts(played);
                    let effects = frame.position.effects(played);
                    if let (Some(facts), Some(pieces)) = (&facts, line.pieces.last_mut()) {
                        follow(pieces, *facts, &effects, PositionView::occupied(&frame.position));
                    }
                    frame.previous = facts;
                    frame.removed = effects.removed;
                }
                if let Some(warning) = rules_warning(&frame.position, &played, token, ply, start) {
                    self.warnings.push(warning);
                }
                if glued
                    && let (Some(remark), Some(glyph)) = (line.remarks.last_mut(), nag_of(split_annotation(token).1))
                {
                    remark.add_glyph(glyph);
                }
                *line.offsets.last_mut().expect("a line has offsets") = end;
                self.closed = None;
                for &open in &self.open {
                    let moves = &mut self.spans[open].moves;
                    *moves = Some((moves.map_or(end, |(first, _)| first), end));
                }
                self.plies = self.plies.max(ply);
                if self.options.positions.is_some() {
                    self.write_position();
                }
                self.test_current();
                ControlFlow::Continue(())
            }
            Err(error) => {
                if keep != 1 {
                    // The failed move left the copy unchanged or half-made: drop it.
                    line.pop();
                }
                let error = failure.unwrap_or(MoveError::new(error));
                self.fail(ply, start, token, GameErrorKind::Move(error))
            }
        }
    }

    /// The variations each matched position lies in (see [`GameRecord::variations`]): those
    /// whose moves' marks take in its mark.
    fn variation_paths(&self) -> Vec<Vec<(u32, u32)>> {
        if self.spans.is_empty() {
            return Vec::new();
        }
        let within = |span: &&VariationSpan, offset: usize| {
            span.moves.is_some_and(|(first, last)| (first..=last).contains(&offset))
        };
        self.found
            .matched
            .iter()
            .map(|matched| {
                let spans = self.spans.iter().filter(|span| within(span, matched.offset));
                spans.map(|span| (span.replaced, span.number)).collect()
            })
            .collect()
    }

    /// Hands the persistent variables on to the games another replayer reads next: as the last
    /// game left them, or as this replayer was handed them when it replayed none.
    fn hand_over(&mut self) {
        let Some(carried) = self.options.carried else { return };
        if let Some((program, state)) = self.state.take() {
            carried.keep(program, &state);
        } else if let Some(carry) = self.inherited.take() {
            carried.put(carry);
        }
    }

    fn new(options: &'o ReplayOptions<'o>, typed: Typed<W>) -> Replayer<'a, 'o, R, W> {
        Replayer {
            typed,
            rules: Some(typed.rules),
            options,
            base: 0,
            game_start: 0,
            tags: Vec::new(),
            program: None,
            needs: Needs::default(),
            moves: None,
            movetext_reader: None,
            keep: 1,
            game: GameFacts::default(),
            lines: LineCache::new(),
            tree: GameTree::new(),
            state: None,
            inherited: None,
            line: None,
            outer: Vec::new(),
            spare: None,
            played: Vec::new(),
            warnings: Vec::new(),
            other_rules: None,
            first_pending: false,
            moves_only: true,
            outcome: None,
            positions: Vec::new(),
            epd: EpdComments::default(),
            fen: String::new(),
            initial: None,
            found: Findings::default(),
            error: None,
            excluded: false,
            untagged: false,
            spans: Vec::new(),
            open: Vec::new(),
            closed: None,
            deferred: Vec::new(),
            every_position: false,
            plain_line: false,
            plies: 0,
            number: 0,
        }
    }

    fn tag_value(&self, name: &[u8]) -> Option<&'a [u8]> {
        self.tags.iter().rev().find(|(tag, _)| tag.eq_ignore_ascii_case(name)).map(|(_, value)| *value)
    }

    fn fail(&mut self, ply: u32, offset: usize, token: &[u8], kind: GameErrorKind) -> ControlFlow<()> {
        if self.error.is_none() {
            self.error = Some(GameError { ply, offset, token: excerpt(&decode_text(token), TOKEN_CHARS), kind });
        }
        ControlFlow::Break(())
    }

    /// The game's variant: its `Variant` tag, else the default; in the edition of the book its
    /// `Edition` tag names, else the one asked for, where the variant has editions.
    fn variant(&self) -> Result<&'static Variant, GameErrorKind> {
        let named = match self.tag_value(b"Variant").map(|raw| tag_text(raw).into_owned()) {
            Some(name) if !name.trim().is_empty() => {
                Variant::by_name(&name).map_err(|_| GameErrorKind::UnknownVariant(excerpt(&name, TAG_CHARS)))?
            }
            _ => self.options.default_variant,
        };
        let Some(own) = named.edition() else { return Ok(named) };
        let edition = match self.tag_value(b"Edition").map(|raw| tag_text(raw).into_owned()) {
            Some(name) if !name.trim().is_empty() => {
                Edition::by_name(&name).ok_or_else(|| GameErrorKind::UnknownEdition(excerpt(&name, TAG_CHARS)))?
            }
            _ => self.options.edition.unwrap_or(own),
        };
        Ok(named.in_edition(edition).unwrap_or(named))
    }

    /// The board the game starts from: its `FEN` tag, else the variant's initial position.
    fn initial_board(&mut self, variant: &'static Variant) -> Result<R, GameErrorKind> {
        let setup = self.tag_value(b"FEN").map(|raw| tag_text(raw).into_owned());
        if setup.is_none()
            && let Some((known, board)) = &self.initial
            && std::ptr::eq(*known, variant)
        {
            return Ok(board.clone());
        }
        let board = R::start(variant, setup.as_deref())
            .map_err(|reason| GameErrorKind::BadFen(excerpt(&reason, TAG_CHARS * 2)))?;
        if setup.is_none() {
            self.initial = Some((variant, board.clone()));
        }
        Ok(board)
    }

    /// Writes the line of the newest position of the main line, where positions are written.
    fn write_position(&mut self) {
        if let (Some(format), Some(line)) = (self.options.positions, &self.line)
            && line.mainline
        {
            let frame = line.current();
            self.fen.clear();
            frame.position.write_position(&mut self.fen);
            format.write_line(&mut self.positions, self.number, frame.ply, &self.fen, &self.epd);
        }
    }

    /// Tests the newest position of the current line, unless the query looks ahead, or only the
    /// ends of lines or the game's first position can match.
    #[inline(always)]
    fn test_current(&mut self) {
        if self.needs.lookahead || self.needs.terminal {
            return;
        }
        if self.needs.first_only && self.line.as_ref().is_some_and(|line| line.current().ply > 0) {
            // Past the game's first position, the query matches nowhere.
            return;
        }
        self.test_last();
    }

    /// Tests the newest position of the current line (a variation's positions are tested once
    /// the game is read).
    #[inline(always)]
    fn test_last(&mut self) {
        if let (Some(program), Some(line)) = (self.program, &self.line) {
            if self.every_position {
                let at = line.frames.len() - 1;
                self.found.mark(line.frames[at].ply, line.offsets[at]);
            } else if line.mainline {
                let state = &self.state.as_ref().expect("a state for the game's program").1;
                let context = line.context(&self.game, state, false, None);
                self.found.test(program, &context, &line.offsets, line.frames.len() - 1);
            }
        }
    }

    /// Tests the positions of a line that has ended which were not tested as they came: all of
    /// them when the query looks ahead, or for a variation (tested once the game is read);
    /// where only the ends of lines can match, those that may end it (the main line's last,
    /// its null moves' were tested as they came).
    fn close_line(&mut self, line: &Line<R, W>, complete: bool) {
        let Some(program) = self.program else { return };
        let (lookahead, terminal) = (self.needs.lookahead, self.needs.terminal);
        if line.frames.len() <= line.own_from || (line.mainline && !lookahead && !terminal) {
            return;
        }
        if self.needs.first_only && !lookahead && !terminal {
            // A variation's positions all come after the game's first.
            return;
        }
        let state = &self.state.as_ref().expect("a state for the game's program").1;
        if line.mainline && terminal && !lookahead {
            let context = line.context(&self.game, state, complete, None);
            self.found.test(program, &context, &line.offsets, line.frames.len() - 1);
            return;
        }
        // The frames stay the same while the line's positions are tested: each `line` filter
        // looks ahead once for all of them.
        self.lines.clear();
        let context = line.context(&self.game, state, complete, lookahead.then_some(&self.lines));
        for at in line.own_from..line.frames.len() {
            if terminal && !line.may_end_at(at) {
                continue;
            }
            if self.stop_passed() {
                break;
            }
            self.found.test(program, &context, &line.offsets, at);
        }
    }

    /// Whether a game before this one stopped the search, so that this one is not wanted.
    fn stop_passed(&self) -> bool {
        self.options.stop.is_some_and(|stop| stop.passed(self.game_start))
    }

    /// Writes and tests the game's first position, once the game's program is set.
    fn begin_positions(&mut self, program: &'o Program<W>) -> ControlFlow<()> {
        self.write_position();
        let Some(line) = self.line.take() else { return ControlFlow::Break(()) };
        let state = &self.state.as_ref().expect("a state for the game's program").1;
        if program.is_game_level() {
            // Nothing in the query looks at positions: the game's start decides it, and when it
            // matches, every position of the game matches (its moves are replayed to find them).
            let context = line.context(&self.game, state, false, None);
            self.found.test(program, &context, &line.offsets, 0);
            if self.found.matched.is_empty() {
                if !self.found.removes_before() {
                    return ControlFlow::Break(());
                }
                // No position matches, but those where `removecomment` ran in a game before
                // lose their comments: the positions are tested to be found.
                self.line = Some(line);
                return ControlFlow::Continue(());
            }
            self.every_position = true;
            self.line = Some(line);
            return ControlFlow::Continue(());
        }
        self.line = Some(line);
        self.test_current();
        ControlFlow::Continue(())
    }

    /// Writes and tests the first position, if it waited for the move numbers: they are read
    /// (or there are none before the first move).
    #[inline(always)]
    fn settle_first(&mut self) -> ControlFlow<()> {
        if R::TURN_FROM_MOVE_NUMBERS
            && std::mem::take(&mut self.first_pending)
            && let Some(program) = self.program
        {
            return self.begin_positions(program);
        }
        ControlFlow::Continue(())
    }

    /// Ends the game: the lines still open are complete (unless the replay stopped at an error).
    /// The variations' positions are tested after the main line's, in CQL 6.2's order.
    fn finish_game(&mut self) {
        let _ = self.settle_first();
        let complete = self.error.is_none();
        let mut positions = 0;
        let mut whole = None;
        while let Some(mut line) = self.line.take() {
            self.line = self.outer.pop();
            if !line.mainline {
                self.defer(line, complete);
                self.open.pop();
                continue;
            }
            positions = line.ply() + 1;
            if self.searches_tree() {
                whole = Some(line);
                continue;
            }
            self.close_line(&line, complete);
            // The main line's lists serve the next game.
            line.clear();
            self.spare = Some(line);
        }
        let deferred = !self.deferred.is_empty();
        match whole {
            Some(main) => self.test_tree(main, complete),
            None => self.test_deferred(positions),
        }
        if self.needs.lookahead || self.needs.terminal || deferred {
            self.found.matched.sort_by_key(|matched| matched.offset);
        }
    }

    /// Keeps a variation read whole (the innermost open one), to test its positions once the
    /// game is read.
    fn defer(&mut self, line: Line<R, W>, complete: bool) {
        if self.every_position || self.program.is_none() {
            return;
        }
        let branches = self.open.iter().map(|&open| (self.spans[open].replaced, self.spans[open].number)).collect();
        self.deferred.push(Deferred { branches, line, complete });
    }

    /// Numbers the positions of the variations kept and tests them, in CQL 6.2's order (see
    /// [`Deferred::cql_order`]): the main line's `positions` are numbered before them.
    fn test_deferred(&mut self, positions: u32) {
        let mut deferred = std::mem::take(&mut self.deferred);
        deferred.sort_by(Deferred::cql_order);
        let mut next = positions;
        // The variations the one being numbered lies in (by their branches), with the numbers
        // of their positions by ply.
        let mut outer: Vec<Numbered> = Vec::new();
        for Deferred { branches, mut line, complete } in deferred {
            while outer.last().is_some_and(|(around, _)| !branches.starts_with(around)) {
                outer.pop();
            }
            let own_from = line.own_from;
            for frame in &mut line.frames[..own_from] {
                if !frame.mainline {
                    let numbered = outer.iter().rev().flat_map(|(_, ids)| ids).find(|(ply, _)| *ply == frame.ply);
                    frame.id = numbered.map_or(frame.id, |&(_, id)| id);
                }
            }
            let mut ids = Vec::with_capacity(line.frames.len() - own_from);
            for frame in &mut line.frames[own_from..] {
                frame.id = next;
                ids.push((frame.ply, next));
                next += 1;
            }
            self.close_line(&line, complete);
            outer.push((branches, ids));
        }
    }
}

impl<R: GameRules<W>, const W: usize> Replayer<'_, '_, R, W> {
    /// Whether the game's positions are tested as one tree at its end: its variations are
    /// searched, and the query looks beyond the position tested (to the moves from it, to
    /// other positions), which may lie in other variations.
    fn searches_tree(&self) -> bool {
        self.options.variations && self.needs.lookahead && self.program.is_some() && !self.every_position
    }

    /// Tests every position of the game, its `main` line's and its variations', as one tree in
    /// CQL 6.2's order; `complete` when the game was read to its end.
    fn test_tree(&mut self, main: Line<R, W>, complete: bool) {
        let mut whole = main;
        self.tree.clear();
        for at in 0..whole.frames.len() {
            self.tree.push(at.checked_sub(1));
        }
        if !complete {
            self.tree.cut_last();
        }
        let mut deferred = std::mem::take(&mut self.deferred);
        deferred.sort_by(Deferred::cql_order);
        // The frame of each position numbered so far, by the variations it lies in and its ply.
        let mut numbered: Vec<Placed> = Vec::new();
        for Deferred { branches, line, complete } in deferred {
            if line.frames.len() <= line.own_from || line.own_from == 0 {
                continue;
            }
            while numbered.last().is_some_and(|(around, _)| !branches.starts_with(around)) {
                numbered.pop();
            }
            // The position the variation branches from: on the main line, or in a variation
            // around this one, by its ply.
            let branch = &line.frames[line.own_from - 1];
            let parent = if branch.mainline {
                Some(branch.ply as usize)
            } else {
                numbered.iter().rev().flat_map(|(_, frames)| frames).find(|(ply, _)| *ply == branch.ply).map(|f| f.1)
            };
            let Some(mut parent) = parent else { continue };
            let mut frames = Vec::with_capacity(line.frames.len() - line.own_from);
            for at in line.own_from..line.frames.len() {
                let mut frame = line.frames[at].clone();
                frame.id = u32::try_from(whole.frames.len()).unwrap_or(u32::MAX);
                frames.push((frame.ply, whole.frames.len()));
                self.tree.push(Some(parent));
                parent = whole.frames.len();
                whole.frames.push(frame);
                whole.offsets.push(line.offsets[at]);
                if let Some(pieces) = line.pieces.get(at) {
                    whole.pieces.push(pieces.clone());
                }
                if let Some(remark) = line.remarks.get(at) {
                    whole.remarks.push(remark.clone());
                }
            }
            if !complete {
                self.tree.cut_last();
            }
            numbered.push((branches, frames));
        }
        self.tree.seal();
        if let Some(program) = self.program {
            let state = &self.state.as_ref().expect("a state for the game's program").1;
            self.lines.clear();
            let mut context = whole.context(&self.game, state, complete, Some(&self.lines));
            context.tree = Some(&self.tree);
            for at in 0..whole.frames.len() {
                let ends_here = context.main_child(at).is_none_or(|next| {
                    PositionView::occupied(&whole.frames[next].position)
                        == PositionView::occupied(&whole.frames[at].position)
                });
                if self.needs.terminal && !ends_here {
                    continue;
                }
                self.found.test(program, &context, &whole.offsets, at);
            }
        }
        whole.clear();
        self.spare = Some(whole);
    }
}

/// Follows the pieces of `pieces` through a move, after which the board is occupied on
/// `occupied`.
fn follow<const W: usize>(pieces: &mut Identities, facts: MoveFacts, effects: &MoveEffects<W>, occupied: SquareSet<W>) {
    let occupied = |index: usize| u16::try_from(index).is_ok_and(|index| occupied.contains(Square::from_index(index)));
    match (facts.from(), effects.displaced) {
        (Some(from), Some(displaced)) if displaced == (facts.to(), from) => {
            // Two pieces changed places (a Laser Chess swap).
            pieces.swap(from, facts.to());
            if let Some(removed) = facts.capture() {
                // The piece a beam removed after the swap.
                pieces.play(Some(removed), removed, None, false, occupied);
            }
        }
        _ => {
            pieces.play(facts.from(), facts.to(), facts.capture(), facts.castle().is_some(), occupied);
            if let Some((from, to)) = effects.displaced {
                pieces.play(Some(from), to, None, false, occupied);
            }
        }
    }
    for removed in effects.removed.iter() {
        pieces.play(Some(removed), removed, None, false, occupied);
    }
}

impl<'a, R: GameRules<W>, const W: usize> Visitor<'a> for Replayer<'a, '_, R, W> {
    fn begin_game(&mut self, start: usize) {
        self.number += 1;
        self.game_start = self.base + start;
        self.warnings.clear();
        self.other_rules = None;
        self.first_pending = false;
        self.movetext_reader = None;
        self.tags.clear();
        self.program = None;
        self.line = None;
        self.outer.clear();
        self.found.matched.clear();
        self.found.notes.clear();
        self.found.removed.clear();
        self.found.removals = self.options.carried.map(Carried::removals);
        self.played.clear();
        self.moves_only = true;
        self.outcome = None;
        self.positions.clear();
        self.found.sort = None;
        self.found.end_notes.clear();
        self.error = None;
        self.excluded = false;
        self.untagged = false;
        self.spans.clear();
        self.open.clear();
        self.deferred.clear();
        self.closed = None;
        self.plies = 0;
        self.every_position = false;
        self.plain_line = false;
    }

    fn tag(&mut self, name: &'a [u8], value: &'a [u8]) {
        self.tags.push((name, value));
    }

    fn begin_movetext(&mut self, start: usize) -> ControlFlow<()> {
        if self.error.is_some() {
            // A malformed tag: the game is reported, not searched.
            return ControlFlow::Break(());
        }
        if self.stop_passed() {
            // A game before this one stopped the search: this one is not wanted.
            self.excluded = true;
            return ControlFlow::Break(());
        }
        if !self.options.plans.searches(self.number)
            || self.options.result.is_some_and(|result| self.tag_value(b"Result") != Some(result))
        {
            self.excluded = true;
            return ControlFlow::Break(());
        }
        self.untagged = self.tag_value(b"Variant").is_none_or(|name| tag_text(name).trim().is_empty());
        let variant = match self.variant() {
            Ok(variant) => variant,
            Err(kind) => return self.fail(0, start, b"", kind),
        };
        let rules = rule_set(variant);
        if rules.is_some() && rules != self.rules {
            self.other_rules = Some(variant);
            return ControlFlow::Break(());
        }
        let program = self.options.plans.get(variant).ok().and_then(self.typed.program);
        if let Some(program) = program {
            self.game = program
                .game_facts(&Tags(&self.tags))
                .numbered(self.number)
                .last_numbered(self.options.last_game)
                .with_variations(self.options.variations);
            if program.decide(&self.game) == Some(false) && !self.found.removes_before() {
                // The tags rule out every position (even of a game cqlq could not replay): the
                // game has none of the values the last game searched left.
                if let Some((_, state)) = &mut self.state {
                    state.new_game();
                }
                return ControlFlow::Break(());
            }
        }
        let movetext = formats::movetext(self.options.container, variant).filter(|_| rules == self.rules);
        let moves = movetext.map(|movetext| movetext.moves.map(R::reader_of));
        let (Some(movetext), Some(moves)) = (movetext, moves) else {
            return self.fail(0, start, b"", GameErrorKind::UnsupportedVariant(variant.name));
        };
        let Some(moves) = moves.map_or(Some(None), |reader| reader.map(Some)) else {
            return self.fail(0, start, b"", GameErrorKind::UnsupportedVariant(variant.name));
        };
        self.moves = moves;
        self.movetext_reader = movetext.reader;
        let Some(program) = program else {
            return self.fail(0, start, b"", GameErrorKind::QueryDoesNotFit(variant));
        };
        let board = match self.initial_board(variant) {
            Ok(board) => board,
            Err(kind) => return self.fail(0, start, b"", kind),
        };
        // The programs of one query for different variants have the same variables: a state
        // passes from one to the next, keeping the persistent ones.
        // Reset where it stands: a state is large, and moving it twice a game shows.
        let (_, state) = match &mut self.state {
            Some(kept) => {
                kept.0 = program;
                kept.1.new_game();
                kept
            }
            empty => empty.insert((program, program.new_state())),
        };
        if let Some(carry) = self.inherited.take() {
            state.resume(&carry.values, variant.geometry);
        }
        self.program = Some(program);
        self.found.marks_in_notes = program.makes_notes;
        self.needs = program.needs();
        self.keep = if self.needs.lookahead {
            0
        } else if self.needs.parent || self.needs.identities || self.options.variations {
            2
        } else {
            1
        };
        let first = Frame::new(board, 0, None);
        let mut line = self.spare.take().unwrap_or_else(|| Line {
            frames: Vec::new(),
            offsets: Vec::new(),
            pieces: Vec::new(),
            remarks: Vec::new(),
            own_from: 0,
            mainline: true,
        });
        if self.needs.identities {
            let occupied = PositionView::occupied(&first.position);
            line.pieces.push(Identities::first(variant.geometry.squares(), occupied.iter()));
        }
        if self.needs.remarks {
            line.remarks.push(Remark::default());
        }
        line.frames.push(first);
        line.offsets.push(start);
        line.own_from = 0;
        line.mainline = true;
        if self.options.positions == Some(PositionsFormat::Epd) {
            let tag = |name: &[u8]| self.tag_value(name).map(|value| tag_text(value).into_owned());
            let (white, black, event, result) = (tag(b"White"), tag(b"Black"), tag(b"Event"), tag(b"Result"));
            self.epd = EpdComments::new(white.as_deref(), black.as_deref(), event.as_deref(), result.as_deref());
        }
        self.line = Some(line);
        // Keeping one frame, the line searches no variation and looks neither back nor ahead.
        self.plain_line = self.keep == 1
            && !self.needs.remarks
            && !self.needs.terminal
            && self.options.positions.is_none()
            && !R::TURN_FROM_MOVE_NUMBERS;
        if R::TURN_FROM_MOVE_NUMBERS {
            // The move numbers may say that the second player moves first: the first position
            // is tested once they are read.
            self.first_pending = true;
            return ControlFlow::Continue(());
        }
        self.begin_positions(program)
    }

    fn move_number(&mut self, number: &'a [u8]) -> ControlFlow<()> {
        if !R::TURN_FROM_MOVE_NUMBERS || !self.first_pending {
            return ControlFlow::Continue(());
        }
        if let Some(line) = self.line.as_mut()
            && let [first] = line.frames.as_mut_slice()
        {
            let digits = number.iter().take_while(|byte| byte.is_ascii_digit()).count();
            let fullmove = std::str::from_utf8(&number[..digits]).ok().and_then(|text| text.parse().ok());
            // `1...`: the second player makes the first move.
            let second = number.len() - digits > 1;
            first.position.number_first_move(fullmove.unwrap_or(1), second);
        }
        self.settle_first()
    }

    fn move_token(&mut self, token: &'a [u8], end: usize) -> ControlFlow<()> {
        match self.moves {
            None => self.play_token(token, end, |board, failure| board.play_token(token, failure)),
            Some(moves) => self.play_token(token, end, |board, failure| {
                moves.play(board, token).map_err(|error| keep_reason(error, failure))
            }),
        }
    }

    fn movetext_reader(&self) -> Option<&'static dyn MovetextReader> {
        self.movetext_reader
    }

    fn unreadable(&mut self, token: &'a [u8], end: usize, reason: String) {
        self.moves_only = false;
        let _ = self.settle_first();
        let ply = self.line.as_ref().map_or(0, Line::ply) + 1;
        let error = MoveError::because(MoveErrorKind::Unreadable, reason);
        let _ = self.fail(ply, end - token.len(), token, GameErrorKind::Move(error));
    }

    fn begin_variation(&mut self) -> ControlFlow<()> {
        self.moves_only = false;
        if !self.options.variations || self.error.is_some() {
            return ControlFlow::Break(());
        }
        let Some(line) = self.line.as_ref() else { return ControlFlow::Break(()) };
        if line.frames.len() < 2 {
            // A variation before the first move has no move to replace.
            return ControlFlow::Break(());
        }
        // The variation replaces the last move: it continues from the position before it.
        let replaced = line.ply();
        let depth = self.open.len();
        let number = match self.closed.take() {
            Some((closed_depth, ply, number)) if closed_depth == depth && ply == replaced => number + 1,
            _ => 1,
        };
        self.open.push(self.spans.len());
        self.spans.push(VariationSpan { replaced, number, moves: None });
        let variation = line.variation(self.keep);
        self.outer.push(std::mem::replace(self.line.as_mut().expect("checked above"), variation));
        ControlFlow::Continue(())
    }

    fn comment(&mut self, text: &'a [u8]) {
        self.moves_only = false;
        if let Some(remark) = self.line.as_mut().and_then(Line::last_remark) {
            // The last comment after a move is its comment, as CQL 6.2 keeps it.
            let words = comment_words(text);
            remark.comment = Some(String::from_utf8_lossy(&words).into());
        }
    }

    fn nag(&mut self, nag: &'a [u8]) {
        self.moves_only = false;
        if let (Some(remark), Some(glyph)) = (self.line.as_mut().and_then(Line::last_remark), nag_of(nag)) {
            remark.add_glyph(glyph);
        }
    }

    fn outcome(&mut self, result: &'a [u8]) {
        self.outcome = standard_result(result);
    }

    fn damaged(&mut self, at: usize, damage: Damage) {
        if damage.is_harmless() {
            // Reported, and the game is read on.
            if self.error.is_none() {
                let ply = self.line.as_ref().map_or(0, Line::ply);
                self.warnings.push(GameWarning { ply, offset: at, token: String::new(), text: damage.to_string() });
            }
            return;
        }
        self.moves_only = false;
        let _ = self.settle_first();
        let ply = self.line.as_ref().map_or(0, Line::ply);
        let token: &[u8] = match damage {
            Damage::UnclosedComment => b"{",
            Damage::UnclosedVariation => b"(",
            Damage::StrayClose(_) | Damage::MalformedTag | Damage::UnclosedTag | Damage::CutShort => b"",
        };
        // Nothing after the damage is searched (`san` stops at the error).
        let _ = self.fail(ply, at, token, GameErrorKind::Damaged(damage));
    }

    fn end_variation(&mut self) {
        if let Some(&index) = self.open.last() {
            let span = &self.spans[index];
            self.closed = Some((self.open.len() - 1, span.replaced, span.number));
        }
        if let Some(outer) = self.outer.pop() {
            if let Some(variation) = self.line.take() {
                self.defer(variation, true);
            }
            self.line = Some(outer);
        }
        self.open.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::{Query, line_work};

    /// A game of `plies` plies from a bare position: knights shuffle, then a rook checks the
    /// black king twice, over and over.
    fn long_game(plies: usize) -> String {
        let cycle = ["Ne4", "Ne5", "Nc3", "Nc6", "Ra8+", "Kh7", "Ra7+", "Kh8"];
        let moves: Vec<String> = (0..plies)
            .map(|ply| {
                let san = cycle[ply % cycle.len()];
                if ply % 2 == 0 { format!("{}. {san}", ply / 2 + 1) } else { san.to_owned() }
            })
            .collect();
        format!(
            "[Event \"long\"]\n[SetUp \"1\"]\n[FEN \"7k/8/2n5/8/8/2N5/8/R5K1 w - - 0 1\"]\n[Result \"*\"]\n\n{} *\n",
            moves.join(" ")
        )
    }

    /// Options for the main lines of standard games.
    fn options(plans: &Plans, keep_played: bool) -> ReplayOptions<'_> {
        ReplayOptions { keep_played, ..ReplayOptions::main_lines(plans) }
    }

    /// A game that stops the search marks where it begins; the games after it are left
    /// unsearched, those before it are searched in full.
    #[test]
    fn a_stopped_search_leaves_the_games_after_the_one_that_stopped_it() {
        let game = |event: &str| format!("[Event \"{event}\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n");
        let text = [game("first"), game("stops"), game("after")].concat();
        let plans = Plans::new(Query::parse("if event \"stops\" then { assert false } else true").unwrap());
        let stop = StopMark::default();
        let options = ReplayOptions { stop: Some(&stop), ..options(&plans, false) };
        let records = replay_range(text.as_bytes(), &options);
        assert_eq!(records.len(), 3);
        assert!(records[0].refusal.is_none() && !records[0].excluded && !records[0].matched.is_empty());
        assert!(records[1].refusal.is_some());
        assert!(records[2].excluded && records[2].matched.is_empty());
        assert!(stop.passed(text.find("[Event \"after\"]").unwrap()));
        assert!(!stop.passed(text.find("[Event \"stops\"]").unwrap()));
    }

    /// The plies that match, and the units of work the `line` filters took.
    fn search(query: &str, text: &str) -> (Vec<u32>, u64) {
        let plans = Plans::new(Query::parse(query).unwrap());
        let options = options(&plans, false);
        let before = line_work();
        let records = replay_range(text.as_bytes(), &options);
        let work = line_work() - before;
        assert_eq!(records.len(), 1);
        assert_eq!(records[0].error, None);
        (records[0].matched.iter().map(|matched| matched.ply).collect(), work)
    }

    /// A game is of moves only when its movetext holds nothing but moves, all of them played.
    #[test]
    fn games_of_moves_only_are_told_apart() {
        let plans = Plans::new(Query::parse("wtm").unwrap());
        let options = options(&plans, true);
        for (text, moves_only, outcome) in [
            ("1. e4 e5 2. Nf3 1-0", true, Some(b"1-0".as_slice())),
            ("1. e4 e5 2. Nf3", true, None),
            ("1. e4 e5 2. Nf3 \u{bd}-\u{bd}", true, Some(b"1/2-1/2".as_slice())),
            ("1. e4 0-3 2. Nf3 *", false, Some(b"*".as_slice())),
            ("1. e4 e5 2. Qxf7 *", false, Some(b"*".as_slice())),
            ("1. e4 {good} e5 *", false, Some(b"*".as_slice())),
            ("1. e4 $1 e5 *", false, Some(b"*".as_slice())),
            ("1. e4! e5 *", false, Some(b"*".as_slice())),
            ("1. e4 (1. d4) e5 *", false, Some(b"*".as_slice())),
        ] {
            let records = replay_range(text.as_bytes(), &options);
            assert_eq!(records.len(), 1, "{text}");
            let record = &records[0];
            assert!(!record.played.is_empty(), "{text}");
            assert_eq!((record.moves_only, record.outcome), (moves_only, outcome), "{text}");
        }
    }

    /// Where only positions without a legal move can match, testing the ends of lines (and the
    /// positions before null moves) finds what testing every position finds, in variations
    /// too, in the order of the text.
    #[test]
    fn mates_and_stalemates_are_found_at_the_ends_of_lines() {
        let games = [
            // A mate in a variation, a check on the main line.
            "1. f3 e5 2. Nc3 (2. g4 Qh4#) 2... Qh4+ 3. g3 *",
            // Mates at the end of the main line and of a variation, none in the others.
            "1. f3 e5 2. g4 (2. g3 Qf6 (2... Qh4 3. Nc3)) 2... Qh4# (2... Qh4#) 0-1",
            // A stalemate that a null move leaves, one ending a variation, one at the end.
            "[FEN \"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\"]\n\n1... -- 2. Qf6 (2. Kh6) 2... Kg8 3. Qf7+ Kh8 4. Kh6 *",
            // An illegal move: the position before it ends the line searched.
            "[FEN \"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\"]\n\n1... Kg8 *",
        ];
        // `echo` looks at other positions: a query with it tests each line once it ends (and
        // finds nothing in a line cut short by an error).
        let cases: [(&str, &[&[u32]]); 5] = [
            ("mate", &[&[4], &[4, 4], &[], &[]]),
            ("stalemate", &[&[], &[], &[0, 2, 6], &[0]]),
            ("mate or stalemate", &[&[4], &[4, 4], &[0, 2, 6], &[0]]),
            ("mate echo quiet (s t) true", &[&[4], &[4, 4], &[], &[]]),
            ("stalemate echo quiet (s t) true", &[&[], &[], &[0, 2, 6], &[]]),
        ];
        for (query, expected) in cases {
            for every_position in [false, true] {
                // `or false` keeps every position tested.
                let query = if every_position { format!("{{{query}}} or false") } else { query.to_owned() };
                let plans = Plans::new(Query::parse(&query).unwrap());
                let needs = plans.get(Variant::standard()).unwrap().program::<1>().unwrap().needs();
                assert_eq!(needs.terminal, !every_position && !query.contains(" or "), "{query}");
                let options = ReplayOptions { variations: true, ..options(&plans, false) };
                for (game, expected) in games.iter().zip(expected) {
                    let records = replay_range(game.as_bytes(), &options);
                    let plies: Vec<u32> = records[0].matched.iter().map(|matched| matched.ply).collect();
                    assert_eq!(plies, *expected, "{query} in {game}");
                }
            }
        }
    }

    /// Move filters tested as quick tests (ahead of the plan's nodes) match where the same
    /// filters walked node by node match: a `true` first keeps them off the quick list.
    #[test]
    fn quick_move_tests_match_where_the_walked_filters_do() {
        let games = [
            "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O (4. d3 Bc5 5. O-O) 4... Nxe4 5. Re1 d5 *",
            "1. d4 d5 2. c4 dxc4 (2... e6 3. Nc3 Be7) 3. e4 b5 4. a4 c6 5. axb5 cxb5 *",
            "[FEN \"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. b8=Q+ (1. b8=N) 1... Kd7 2. Qb5+ Kd6 *",
        ];
        let queries = [
            "move from K to g1",
            "move from K castle",
            "not move capture a",
            "move previous capture a",
            "move to [e4,d5] from P",
            "not move previous from [Nn]",
            "move promote Q",
            "move primary to e4",
            "move secondary from P",
            "B move to .",
            "move from N move previous to f3",
        ];
        let mut matched = 0;
        for query in queries {
            let quick = Plans::new(Query::parse(query).unwrap());
            let walked = Plans::new(Query::parse(&format!("true {query}")).unwrap());
            let program = quick.get(Variant::standard()).unwrap().program::<1>().unwrap();
            assert!(program.quick.filters > 0, "{query} is tested quickly");
            for game in games {
                let plies = |plans: &Plans| -> Vec<u32> {
                    let options = ReplayOptions { variations: true, ..options(plans, false) };
                    replay_range(game.as_bytes(), &options)[0].matched.iter().map(|matched| matched.ply).collect()
                };
                let found = plies(&quick);
                assert_eq!(found, plies(&walked), "{query} in {game}");
                matched += found.len();
            }
        }
        assert!(matched > 20, "the games hold positions that match");
    }

    /// A query whose first filter is `initial` is tested at the game's first position only, with
    /// the answers of testing every position: in games with variations, from a position, and
    /// with filters after it that write (they run only where `initial` holds).
    #[test]
    fn a_query_led_by_initial_is_tested_at_the_first_position_only() {
        let games = [
            "[Event \"a\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *",
            "[FEN \"7k/8/8/8/8/8/8/R5K1 w - - 0 1\"]\n\n1. Ra8+ Kh7 (1... Kg7) *",
            "[Event \"b\"]\n\n*",
        ];
        let cases: [(&str, bool, &[&[u32]]); 6] = [
            ("initial", true, &[&[0], &[0], &[0]]),
            ("initial event \"a\"", true, &[&[0], &[], &[]]),
            ("initial comment(\"start\") wtm", true, &[&[0], &[0], &[0]]),
            ("initial and K", true, &[&[0], &[0], &[0]]),
            ("initial or check", false, &[&[0], &[0, 1], &[0]]),
            ("check or initial", false, &[&[0], &[0, 1], &[0]]),
        ];
        for (query, first_only, expected) in cases {
            for every_position in [false, true] {
                // `false or` ahead keeps every position tested.
                let query = if every_position { format!("{{false or {query}}}") } else { query.to_owned() };
                let plans = Plans::new(Query::parse(&query).unwrap());
                let needs = plans.get(Variant::standard()).unwrap().program::<1>().unwrap().needs();
                assert_eq!(needs.first_only, first_only && !every_position, "{query}");
                let options = ReplayOptions { variations: true, ..options(&plans, false) };
                for (game, expected) in games.iter().zip(expected) {
                    let records = replay_range(game.as_bytes(), &options);
                    let plies: Vec<u32> = records[0].matched.iter().map(|matched| matched.ply).collect();
                    assert_eq!(plies, *expected, "{query} in {game}");
                }
            }
        }
    }

    /// Testing every position of a line once costs work linear in its length: each step's
    /// filter is tested at most once per position, and the tables are a few per step. Testing
    /// each position on its own looked ahead from it, in work quadratic in the length.
    #[test]
    fn sequences_are_linear_in_the_length_of_the_line() {
        let plies = 4000;
        let text = long_game(plies);
        for (query, steps, matches) in [
            ("line --> check{6,}", 1, 0),
            ("line --> .* --> Qf7", 2, 0),
            ("line --> kh7 --> Ra7", 2, plies / 4),
            ("line --> check --> not check{1,3} --> check", 3, plies / 8),
            ("line --> Nc3* --> btm --> (line --> wtm --> check)", 5, plies * 3 / 8),
        ] {
            let (matched, work) = search(query, &text);
            assert_eq!(matched.len(), matches, "{query}");
            let bound = 16 * (plies as u64 + 1) * steps;
            assert!(work <= bound, "{query}: {work} units of work for {plies} plies, more than {bound}");
        }
    }
}
