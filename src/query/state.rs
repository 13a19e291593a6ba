//! What evaluating a query keeps while it goes through the positions of a game: the values of
//! its variables, and the comments it makes. Positions are tested in the order of the game, so
//! a value given at one position is seen at the next ones, as in CQL 6.2.

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use super::SortValue;
use super::dictionaries::{Entries, Key};
use super::note_text::NoteText;
use super::plan::SetValue;
use super::texts::Groups;
use crate::board::{Geometry, Square, SquareSet};
use crate::hash::{FastMap, FastSet};
use crate::variant::KindSet;

/// The value a variable holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) enum Value<const W: usize> {
    #[default]
    /// No value yet (or no longer).
    Unset,
    /// A number.
    Number(i64),
    /// A set of squares.
    Set(SetValue<W>),
    /// A position of the line: the index of its frame in the context.
    Position(usize),
    /// A piece, by its identity: wherever it stands in the position looked at.
    Piece(PieceRef),
    /// A text.
    Text(Arc<str>),
}

/// A piece, by its identity, with the square it stood on when it was found, where it is
/// looked for first (it is there again in the position it was found in, and until it moves).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PieceRef {
    pub id: PieceId,
    pub seen: Square,
}

impl PartialEq for PieceRef {
    /// The same piece, wherever it was seen.
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for PieceRef {}

/// The identity of a piece: given to each piece of a game's first position (and to each piece
/// dropped later), and kept by the piece as it moves.
pub type PieceId = u16;

/// The values of a query's persistent variables apart from any board, handed from the games
/// of one board to those of another: numbers as they are, sets as the files and ranks of their
/// squares (counted from 0).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Persistent {
    values: Vec<(usize, Kept)>,
    /// The entries of the persistent dictionaries, by slot: keys and values.
    dictionaries: Vec<(usize, Vec<(Kept, Kept)>)>,
    /// The last path that matched.
    path: Option<EarlierPath>,
}

/// A persistent variable's value, apart from any board.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kept {
    Unset,
    Number(i64),
    Text(Arc<str>),
    Set { squares: Vec<(u8, u8)>, backhand: [KindSet; 2] },
}

impl Kept {
    /// A value apart from the board of `geometry`.
    fn of<const W: usize>(value: &Value<W>, geometry: Geometry) -> Kept {
        match value {
            Value::Number(number) => Kept::Number(*number),
            Value::Text(text) => Kept::Text(text.clone()),
            Value::Set(set) => Kept::Set {
                squares: set
                    .squares
                    .iter()
                    .map(|square| (geometry.file_of(square).index(), geometry.rank_of(square).index()))
                    .collect(),
                backhand: set.backhand,
            },
            Value::Unset | Value::Position(_) | Value::Piece(_) => Kept::Unset,
        }
    }

    /// The value on the board of `geometry`: a set keeps the squares it has there.
    fn value<const W: usize>(&self, geometry: Geometry) -> Value<W> {
        match self {
            Kept::Unset => Value::Unset,
            Kept::Number(number) => Value::Number(*number),
            Kept::Text(text) => Value::Text(text.clone()),
            Kept::Set { squares, backhand } => {
                let squares = squares
                    .iter()
                    .filter_map(|&(file, rank)| geometry.square_at(i32::from(file), i32::from(rank)))
                    .collect();
                Value::Set(SetValue { squares, backhand: *backhand })
            }
        }
    }
}

impl Persistent {
    /// The values printed at the end of a run, as CQL 6.2 prints them (`name: value`), for the
    /// variables `printed` names with their slots.
    #[must_use]
    pub fn report(&self, printed: &[(String, usize)]) -> Vec<String> {
        let value = |slot: usize| match self.values.iter().find(|(held, _)| *held == slot).map(|(_, kept)| kept) {
            Some(Kept::Number(number)) => number.to_string(),
            Some(Kept::Text(text)) => format!("\"{text}\""),
            Some(Kept::Set { squares, .. }) => {
                let names: Vec<String> =
                    squares.iter().map(|&(file, rank)| format!("{}{}", char::from(b'a' + file), rank + 1)).collect();
                if names.len() == 1 { names.concat() } else { format!("[{}]", names.join(",")) }
            }
            _ => "<unbound>".to_owned(),
        };
        printed.iter().map(|(name, slot)| format!("{name}: {}", value(*slot))).collect()
    }
}

/// Where a `path` stands: for the words about it inside it (`pathcount`, `pathstart`,
/// `pathlastposition`) while it is searched, and outside every path for the last one that
/// matched in the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PathStatus {
    /// The frame it started from.
    pub start: usize,
    /// The moves counted so far (in the end: those of the best run).
    pub count: u32,
    /// The last frame of the best run so far.
    pub last: Option<usize>,
    /// The best `max` value so far, if the path has `max`.
    pub max: Option<i64>,
}

/// The numbers (`positionid`) of the first and last positions of a path that matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PathIds {
    /// The position it started from.
    pub start: u32,
    /// The last position of its best run.
    pub last: u32,
}

/// The last path that matched in a game before, kept as CQL 6.2 keeps it: its positions by
/// their numbers (CQL 6.2 reuses a game's positions for the next game, so they name the
/// positions of those numbers in the game being read) and its count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EarlierPath {
    /// The positions it started from and ended at.
    pub ids: PathIds,
    /// The moves of its best run.
    pub count: u32,
}

impl EarlierPath {
    fn of((status, ids): (PathStatus, PathIds)) -> EarlierPath {
        EarlierPath { ids, count: status.count }
    }
}

/// A comment made by `comment(...)` at a position: where, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// The index of the position's frame.
    pub at: usize,
    /// The text.
    pub text: NoteText,
}

/// The variables and comments of one game's evaluation (and the persistent variables, which
/// last from game to game).
#[derive(Debug)]
pub struct State<const W: usize> {
    /// The value of each variable, by slot (read and written whole).
    values: Box<[RefCell<Value<W>>]>,
    /// Which variables last from game to game.
    /// The value each persistent variable starts from (none for the others).
    persistent: Vec<Option<Value<W>>>,
    notes: RefCell<Vec<Note>>,
    /// The messages printed so far (`message(...)`), whatever the positions' fate.
    messages: RefCell<Vec<String>>,
    /// The frames whose own comments `removecomment` removed, not yet taken by the replay.
    removed: RefCell<Vec<usize>>,
    /// The tags `settag` gave the game, in the order first given, each with its last value.
    tags: RefCell<Vec<(String, String)>>,
    /// The frames the runs each `nestban` line found in the game went through, by the line's
    /// slot.
    line_nests: RefCell<FastMap<usize, FastSet<usize>>>,
    /// The frames each `nestban` path's runs went through in the game, by the path's slot.
    path_nests: RefCell<FastMap<usize, FastSet<usize>>>,
    /// The paths being searched, innermost last.
    paths: RefCell<Vec<PathStatus>>,
    /// The last path that matched in the game, with the numbers (`positionid`) of its first
    /// and last positions.
    last_path: Cell<Option<(PathStatus, PathIds)>>,
    /// The last path that matched in a game before, where none has matched in this one yet:
    /// CQL 6.2 keeps it from game to game.
    earlier_path: Cell<Option<EarlierPath>>,
    /// The number of a position of the earlier path that this game did not have, where one
    /// was asked for (CQL 6.2 reads what its memory holds of an earlier game there).
    missed_earlier_position: Cell<Option<u32>>,
    /// The best value each `sort` key of the body gave the game so far, at any position
    /// tested (matching or not, as CQL 6.2 keeps it), by key.
    game_sorts: RefCell<Vec<Option<SortValue>>>,
    /// The most moves in a row each commenting `consecutivemoves` found two lines to share in
    /// the game so far, by its key.
    shared_moves: RefCell<Vec<usize>>,
    /// The comments kept aside to be added once the game is found, as CQL 6.2 adds them: those
    /// of each commenting `consecutivemoves` on its longest share of moves (by its key), then
    /// those each `sort` key made where it gave the game's best value so far, taken off the
    /// comments of their positions (by the sort's key after those of `consecutivemoves`).
    /// Kept until the search takes them; `None` where unchanged since.
    end_notes: RefCell<Vec<Option<Vec<Note>>>>,
    /// What the groups of the last `~~` that matched matched (none after one that did not).
    groups: RefCell<Groups>,
    /// Why the run must stop, once a filter that CQL 6.2 refuses to test was tested.
    refusal: RefCell<Option<String>>,
    /// The entries of each dictionary, by slot.
    dictionaries: Box<[RefCell<Entries<W>>]>,
    /// Whether each dictionary's entries last from game to game.
    lasting_dictionaries: Box<[bool]>,
    /// Whether no comment is written at all (`silent`): CQL 6.2 then adds none, the
    /// query's own included.
    silent: bool,
}

impl<const W: usize> State<W> {
    /// A state for variables that start without a value, or (the persistent ones) from a value,
    /// for empty dictionaries (`dictionaries` tells which last from game to game), and for the
    /// body's `sort` keys (`sorts` holds one entry a key); a `silent` state keeps no comment.
    pub(crate) fn new(
        persistent: Vec<Option<Value<W>>>,
        dictionaries: &[bool],
        sorts: &[bool],
        shared_moves: usize,
        silent: bool,
    ) -> State<W> {
        let values = persistent.iter().map(|start| RefCell::new(start.clone().unwrap_or(Value::Unset)));
        State {
            values: values.collect(),
            persistent,
            notes: RefCell::new(Vec::new()),
            messages: RefCell::new(Vec::new()),
            removed: RefCell::new(Vec::new()),
            tags: RefCell::new(Vec::new()),
            line_nests: RefCell::new(FastMap::default()),
            path_nests: RefCell::new(FastMap::default()),
            paths: RefCell::new(Vec::new()),
            last_path: Cell::new(None),
            earlier_path: Cell::new(None),
            missed_earlier_position: Cell::new(None),
            game_sorts: RefCell::new(vec![None; sorts.len()]),
            shared_moves: RefCell::new(vec![0; shared_moves]),
            end_notes: RefCell::new(vec![None; shared_moves + sorts.len()]),
            groups: RefCell::new(Vec::new()),
            refusal: RefCell::new(None),
            dictionaries: dictionaries.iter().map(|_| RefCell::new(Entries::new())).collect(),
            lasting_dictionaries: dictionaries.into(),
            silent,
        }
    }

    /// Forgets what one game gave: every variable but the persistent ones loses its value, and
    /// the comments are dropped.
    pub fn new_game(&mut self) {
        for (value, persistent) in self.values.iter_mut().zip(&self.persistent) {
            if persistent.is_none() {
                *value.get_mut() = Value::Unset;
            }
        }
        self.notes.get_mut().clear();
        self.messages.get_mut().clear();
        self.removed.get_mut().clear();
        self.tags.get_mut().clear();
        self.line_nests.get_mut().clear();
        self.path_nests.get_mut().clear();
        self.paths.get_mut().clear();
        self.missed_earlier_position.set(None);
        if let Some(last) = self.last_path.take() {
            self.earlier_path.set(Some(EarlierPath::of(last)));
        }
        self.game_sorts.get_mut().fill(None);
        self.shared_moves.get_mut().fill(0);
        self.end_notes.get_mut().fill(None);
        self.groups.get_mut().clear();
        for (entries, lasting) in self.dictionaries.iter_mut().zip(&self.lasting_dictionaries) {
            if !lasting {
                entries.get_mut().clear();
            }
        }
    }

    /// The values of the persistent variables and dictionaries, apart from any board, to go on
    /// from in a game of another board (`geometry` is this state's).
    #[must_use]
    pub fn persistent(&self, geometry: Geometry) -> Persistent {
        let values = self
            .values
            .iter()
            .zip(&self.persistent)
            .enumerate()
            .filter(|(_, (_, persistent))| persistent.is_some())
            .map(|(slot, (value, _))| (slot, Kept::of(&value.borrow(), geometry)))
            .collect();
        let dictionaries = self
            .dictionaries
            .iter()
            .zip(&self.lasting_dictionaries)
            .enumerate()
            .filter(|(_, (_, lasting))| **lasting)
            .map(|(slot, (entries, _))| {
                let entries = entries.borrow();
                let kept =
                    entries.iter().map(|(key, value)| (Kept::of(&key.value(), geometry), Kept::of(value, geometry)));
                (slot, kept.collect())
            })
            .collect();
        let path = self.last_path.get().map(EarlierPath::of).or(self.earlier_path.get());
        Persistent { values, dictionaries, path }
    }

    /// Takes up the values of the persistent variables and dictionaries where a game of the
    /// same query left them, perhaps on another board (`geometry` is this state's): a set keeps
    /// its squares on this board.
    pub fn resume(&mut self, persistent: &Persistent, geometry: Geometry) {
        self.earlier_path.set(persistent.path);
        for (slot, kept) in &persistent.values {
            self.set(*slot, kept.value(geometry));
        }
        for (slot, entries) in &persistent.dictionaries {
            if let Some(held) = self.dictionaries.get_mut(*slot) {
                let entries = entries
                    .iter()
                    .filter_map(|(key, value)| Some((Key::of(key.value(geometry))?, value.value(geometry))));
                *held.get_mut() = entries.collect();
            }
        }
    }

    /// Keeps a value of the `sort` key `key` given at the position tested, where it is the
    /// game's best so far (the smallest with `smallest`, the measure of the filter that gave
    /// it). The comments made since the first `mark` (while the value was
    /// worked out) are taken off: kept aside when the value is the game's best so far, else
    /// dropped.
    pub(crate) fn record_sort(&self, (key, smallest): (usize, bool), value: SortValue, mark: usize) {
        let made = self.drain_notes(mark);
        let mut sorts = self.game_sorts.borrow_mut();
        let better = sorts[key].as_ref().is_none_or(|best| if smallest { value < *best } else { value > *best });
        if better {
            sorts[key] = Some(value);
            let key = self.shared_moves.borrow().len() + key;
            self.end_notes.borrow_mut()[key] = Some(made);
        }
    }

    /// Keeps the moves two lines share, as pairs of the frames each move leads to, where they
    /// are more than the commenting `consecutivemoves` of the key `key` found before in the
    /// game: the comments `first-move[i]` and `second-move[i]` on the `i`th pair are added
    /// once the game is found (by [`State::take_end_notes`]).
    pub(crate) fn record_shared_moves(&self, key: usize, pairs: &[(usize, usize)], names: (&str, &str)) {
        let mut longest = self.shared_moves.borrow_mut();
        if pairs.len() <= longest[key] {
            return;
        }
        longest[key] = pairs.len();
        let notes = pairs.iter().enumerate().flat_map(|(index, &(first, second))| {
            let number = index + 1;
            [
                Note { at: first, text: format!("{}-move[{number}]", names.0).into() },
                Note { at: second, text: format!("{}-move[{number}]", names.1).into() },
            ]
        });
        self.end_notes.borrow_mut()[key] = Some(notes.collect());
    }

    /// The comments kept aside for the game's end (those of `consecutivemoves`, then of each
    /// `sort` key), for the keys whose comments changed since they were last taken:
    /// `(key, comments)`.
    pub fn take_end_notes(&self) -> Vec<(usize, Vec<Note>)> {
        let mut notes = self.end_notes.borrow_mut();
        notes.iter_mut().enumerate().filter_map(|(key, made)| Some((key, made.take()?))).collect()
    }

    /// The best value each `sort` key of the body gave the game so far, by key.
    pub fn game_sorts(&self) -> Vec<Option<SortValue>> {
        self.game_sorts.borrow().clone()
    }

    /// Whether a run of the `nestban` line of `slot` went through the frame `at`.
    pub(crate) fn line_nested(&self, slot: usize, at: usize) -> bool {
        self.line_nests.borrow().get(&slot).is_some_and(|frames| frames.contains(&at))
    }

    /// Records that a run of the `nestban` line of `slot` went through the frames `frames`.
    pub(crate) fn add_line_nested(&self, slot: usize, frames: impl Iterator<Item = usize>) {
        self.line_nests.borrow_mut().entry(slot).or_default().extend(frames);
    }

    /// Whether a run of the `nestban` path of `slot` went through the frame `at`.
    pub(crate) fn path_nested(&self, slot: usize, at: usize) -> bool {
        self.path_nests.borrow().get(&slot).is_some_and(|frames| frames.contains(&at))
    }

    /// Records that a run of the `nestban` path of `slot` went through the frames `frames`.
    pub(crate) fn add_path_nested(&self, slot: usize, frames: impl Iterator<Item = usize>) {
        self.path_nests.borrow_mut().entry(slot).or_default().extend(frames);
    }

    /// Begins the search of a path (its status is the innermost one's until it ends).
    pub(crate) fn enter_path(&self, status: PathStatus) {
        self.paths.borrow_mut().push(status);
    }

    /// Changes the status of the innermost path searched.
    pub(crate) fn update_path(&self, change: impl FnOnce(&mut PathStatus)) {
        if let Some(status) = self.paths.borrow_mut().last_mut() {
            change(status);
        }
    }

    /// Ends the search of the innermost path; a path that matched (with the numbers of its
    /// first and last positions) becomes the game's last.
    pub(crate) fn leave_path(&self, matched: Option<(PathStatus, PathIds)>) {
        self.paths.borrow_mut().pop();
        if matched.is_some() {
            self.last_path.set(matched);
        }
    }

    /// The innermost path being searched (`inside`), or the game's last path that matched.
    pub(crate) fn path_status(&self, inside: bool) -> Option<PathStatus> {
        if inside { self.paths.borrow().last().copied() } else { self.last_path.get().map(|(status, _)| status) }
    }

    /// Outside every path (not `inside` one), the last path that matched in a game before
    /// this one, where none has matched in this one yet.
    pub(crate) fn earlier_path(&self, inside: bool) -> Option<EarlierPath> {
        if inside || self.last_path.get().is_some() { None } else { self.earlier_path.get() }
    }

    /// Records that the position numbered `number` of the earlier path was asked for and the
    /// game has none so numbered (the first such number of the game is kept).
    pub(crate) fn miss_earlier_position(&self, number: u32) {
        if self.missed_earlier_position.get().is_none() {
            self.missed_earlier_position.set(Some(number));
        }
    }

    /// What to warn of where the game did not have a position of the earlier path that was
    /// asked for. (The differential tester knows these runs by the sentence in parentheses.)
    pub fn take_earlier_position_warning(&mut self) -> Option<String> {
        let number = self.missed_earlier_position.take()?;
        Some(format!(
            "the query asks for position {number} of the last path that matched in an earlier game, which this \
             game does not have: no position is found (CQL 6.2 reads what its memory still holds of the earlier \
             game)"
        ))
    }

    /// Keeps a message to print.
    pub(crate) fn message(&self, text: String) {
        self.messages.borrow_mut().push(text);
    }

    /// Takes the messages kept so far.
    pub fn take_messages(&mut self) -> Vec<String> {
        std::mem::take(self.messages.get_mut())
    }

    /// Records that the frame `at`'s own comment is removed from the game written (whatever
    /// the position's fate, as in CQL 6.2).
    pub(crate) fn remove_comment(&self, at: usize) {
        self.removed.borrow_mut().push(at);
    }

    /// Whether a comment was removed since the last [`State::take_removed`].
    #[must_use]
    pub fn has_removed(&self) -> bool {
        !self.removed.borrow().is_empty()
    }

    /// Takes the frames whose comments were removed since the last call.
    pub fn take_removed(&self) -> Vec<usize> {
        std::mem::take(&mut *self.removed.borrow_mut())
    }

    /// Gives the game written the tag `name` valued `value` (a tag given again keeps its place
    /// and takes the new value).
    pub(crate) fn set_tag(&self, name: &str, value: &str) {
        let mut tags = self.tags.borrow_mut();
        match tags.iter_mut().find(|(held, _)| held == name) {
            Some((_, held)) => value.clone_into(held),
            None => tags.push((name.to_owned(), value.to_owned())),
        }
    }

    /// Takes the tags given to the game, in the order first given.
    pub fn take_tags(&mut self) -> Vec<(String, String)> {
        std::mem::take(self.tags.get_mut())
    }

    pub(crate) fn get(&self, slot: usize) -> Value<W> {
        self.values.get(slot).map_or(Value::Unset, |held| held.borrow().clone())
    }

    /// What `read` makes of the value of variable `slot`, looked at where it is held (no copy
    /// of a text is made): the way loops' bodies read their variables at every square.
    #[inline]
    pub(crate) fn read<T>(&self, slot: usize, read: impl FnOnce(&Value<W>) -> T) -> T {
        match self.values.get(slot) {
            Some(held) => read(&held.borrow()),
            None => read(&Value::Unset),
        }
    }

    /// Records that a filter CQL 6.2 refuses to test was tested: the run stops after this game
    /// (the first reason is kept).
    pub(crate) fn refuse(&self, reason: &str) {
        let mut refusal = self.refusal.borrow_mut();
        if refusal.is_none() {
            *refusal = Some(reason.to_owned());
        }
    }

    /// Whether the run must stop (a filter that cannot be tested was tested).
    pub(crate) fn refused(&self) -> bool {
        self.refusal.borrow().is_some()
    }

    /// Why the run must stop, if a filter that cannot be tested was tested.
    pub fn take_refusal(&mut self) -> Option<String> {
        self.refusal.get_mut().take()
    }

    /// The value a dictionary holds for a key.
    pub(crate) fn entry(&self, dictionary: usize, key: &Key<W>) -> Option<Value<W>> {
        self.dictionaries.get(dictionary)?.borrow().get(key).cloned()
    }

    /// Gives a dictionary's key a value.
    pub(crate) fn store(&self, dictionary: usize, key: Key<W>, value: Value<W>) {
        if let Some(entries) = self.dictionaries.get(dictionary) {
            entries.borrow_mut().insert(key, value);
        }
    }

    /// Forgets the entry of a key, or (with none) every entry of a dictionary.
    pub(crate) fn forget(&self, dictionary: usize, key: Option<&Key<W>>) {
        let Some(entries) = self.dictionaries.get(dictionary) else { return };
        let mut entries = entries.borrow_mut();
        match key {
            Some(key) => {
                entries.remove(key);
            }
            None => entries.clear(),
        }
    }

    /// A dictionary's keys, in order.
    pub(crate) fn keys(&self, dictionary: usize) -> Vec<Key<W>> {
        self.dictionaries.get(dictionary).map_or_else(Vec::new, |entries| entries.borrow().keys().cloned().collect())
    }

    /// How many keys a dictionary holds.
    pub(crate) fn dictionary_len(&self, dictionary: usize) -> usize {
        self.dictionaries.get(dictionary).map_or(0, |entries| entries.borrow().len())
    }

    /// Keeps what the groups of a `~~` match matched (nothing, for a search that failed).
    pub(crate) fn set_groups(&self, groups: Groups) {
        *self.groups.borrow_mut() = groups;
    }

    /// Where group `group` of the last match begins and what it matched, if it took part.
    /// When the last match has no such group (or failed, or there was none), the run stops,
    /// as CQL 6.2 stops it, and there is no value.
    pub(crate) fn group_matched(&self, group: u8) -> Option<(usize, Arc<str>)> {
        let groups = self.groups.borrow();
        match groups.get(usize::from(group)) {
            Some(matched) => matched.clone(),
            None => {
                let reason = match groups.len() {
                    0 => format!("\\{group} names a group of the last match of ~~, and there is none: it failed"),
                    count => {
                        format!("\\{group} names a group of the last match of ~~, which has groups 0 to {}", count - 1)
                    }
                };
                drop(groups);
                self.refuse(&reason);
                None
            }
        }
    }

    pub(crate) fn set(&self, slot: usize, value: Value<W>) {
        if let Some(held) = self.values.get(slot) {
            *held.borrow_mut() = value;
        }
    }

    /// Gives variable `slot` the piece `piece`, written over the piece it held in place: the
    /// way a piece loop binds its variable at every square.
    #[inline]
    pub(crate) fn set_piece(&self, slot: usize, piece: PieceRef) {
        if let Some(held) = self.values.get(slot) {
            match &mut *held.borrow_mut() {
                Value::Piece(bound) => *bound = piece,
                other => *other = Value::Piece(piece),
            }
        }
    }

    /// Gives variable `slot` the set of the squares `squares` (nothing in the backhand),
    /// written over the set it held in place: the way a square loop binds its variable.
    #[inline]
    pub(crate) fn set_squares(&self, slot: usize, squares: SquareSet<W>) {
        if let Some(held) = self.values.get(slot) {
            match &mut *held.borrow_mut() {
                Value::Set(bound) => *bound = SetValue::board(squares),
                other => *other = Value::Set(SetValue::board(squares)),
            }
        }
    }

    /// Adds a comment at the frame `at`.
    pub(crate) fn note(&self, at: usize, text: impl Into<NoteText>) {
        if self.silent {
            return;
        }
        self.notes.borrow_mut().push(Note { at, text: text.into() });
    }

    /// How many comments have been made so far.
    pub fn notes_len(&self) -> usize {
        self.notes.borrow().len()
    }

    /// Takes the last comment made.
    pub(crate) fn pop_note(&self) -> Option<Note> {
        self.notes.borrow_mut().pop()
    }

    /// Takes the comments made after the first `len`.
    pub(crate) fn take_notes_from(&self, len: usize) -> Vec<Note> {
        let mut notes = self.notes.borrow_mut();
        let len = len.min(notes.len());
        notes.split_off(len)
    }

    /// Puts back comments taken.
    pub(crate) fn push_notes(&self, notes: impl Iterator<Item = Note>) {
        self.notes.borrow_mut().extend(notes);
    }

    /// Forgets the comments made after the first `len`.
    pub fn truncate_notes(&self, len: usize) {
        self.notes.borrow_mut().truncate(len);
    }

    /// Forgets the comments made in a range of their order.
    pub(crate) fn forget_notes(&self, range: std::ops::Range<usize>) {
        let mut notes = self.notes.borrow_mut();
        let end = range.end.min(notes.len());
        notes.drain(range.start.min(end)..end);
    }

    /// Takes the comments made after the first `len`.
    pub fn drain_notes(&self, len: usize) -> Vec<Note> {
        let mut notes = self.notes.borrow_mut();
        let len = len.min(notes.len());
        notes.drain(len..).collect()
    }

    /// Takes the comments made so far.
    pub fn take_notes(&mut self) -> Vec<Note> {
        std::mem::take(self.notes.get_mut())
    }
}

/// The most squares whose identities are kept inline: those of a board whose square sets take
/// one word. Larger boards share theirs between copies until one changes.
const INLINE_SQUARES: usize = u64::BITS as usize;

/// The identities of the pieces of a position, square by square (0 on an empty square).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identities {
    ids: Ids,
    /// The next identity to give.
    next: PieceId,
}

/// The identities, square by square: copied with the position on small boards (a copy per
/// move costs less than a shared list made anew), shared on large ones.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Ids {
    Inline { ids: [PieceId; INLINE_SQUARES], squares: u16 },
    Shared(Arc<[PieceId]>),
}

impl Ids {
    fn as_slice(&self) -> &[PieceId] {
        match self {
            Ids::Inline { ids, squares } => &ids[..usize::from(*squares)],
            Ids::Shared(ids) => ids,
        }
    }

    /// The identities to change, copied first where they are shared.
    fn as_mut_slice(&mut self) -> &mut [PieceId] {
        match self {
            Ids::Inline { ids, squares } => &mut ids[..usize::from(*squares)],
            Ids::Shared(ids) => Arc::make_mut(ids),
        }
    }
}

impl Identities {
    /// The identities of a first position: 1, 2, ... for its pieces in the order of the squares.
    #[must_use]
    pub fn first(squares: usize, occupied: impl Iterator<Item = Square>) -> Identities {
        let mut ids = match u16::try_from(squares) {
            Ok(count) if squares <= INLINE_SQUARES => Ids::Inline { ids: [0; INLINE_SQUARES], squares: count },
            _ => Ids::Shared(vec![0; squares].into()),
        };
        let slots = ids.as_mut_slice();
        let mut next: PieceId = 1;
        for square in occupied {
            if let Some(id) = slots.get_mut(square.index()) {
                *id = next;
                next = next.saturating_add(1);
            }
        }
        Identities { ids, next }
    }

    /// The identity of the piece on a square, if one stands there.
    #[must_use]
    pub fn at(&self, square: Square) -> Option<PieceId> {
        self.ids.as_slice().get(square.index()).copied().filter(|&id| id != 0)
    }

    /// The piece on a square, if one stands there.
    #[must_use]
    pub(crate) fn piece_at(&self, square: Square) -> Option<PieceRef> {
        self.at(square).map(|id| PieceRef { id, seen: square })
    }

    /// The square of a piece, if it is on the board: where it was seen, if it is still there.
    #[must_use]
    pub(crate) fn square_of_piece(&self, piece: PieceRef) -> Option<Square> {
        if self.at(piece.seen) == Some(piece.id) { Some(piece.seen) } else { self.square_of(piece.id) }
    }

    /// The square of the piece with an identity, if it is on the board.
    #[must_use]
    pub fn square_of(&self, id: PieceId) -> Option<Square> {
        // Sixteen squares compared at a time, without a branch per square.
        let index = self.ids.as_slice().chunks(16).enumerate().find_map(|(chunk, ids)| {
            let hits = ids.iter().enumerate().fold(0u32, |hits, (i, &held)| hits | u32::from(held == id) << i);
            (hits != 0).then(|| chunk * 16 + hits.trailing_zeros() as usize)
        })?;
        Some(Square::from_index(u16::try_from(index).ok()?))
    }

    /// Follows two pieces that change places (a Laser Chess Switch's swap): each keeps its
    /// identity.
    pub fn swap(&mut self, a: Square, b: Square) {
        let ids = self.ids.as_mut_slice();
        if a.index() < ids.len() && b.index() < ids.len() {
            ids.swap(a.index(), b.index());
        }
    }

    /// Follows a move from `from` (none for a drop) to `to`, capturing on `capture`: the piece
    /// moved keeps its identity. When a piece moved with it (`besides`: the rook of castling),
    /// the board is occupied exactly on `occupied` after the move, and that piece keeps its own.
    pub fn play(
        &mut self,
        from: Option<Square>,
        to: Square,
        capture: Option<Square>,
        besides: bool,
        occupied: impl Fn(usize) -> bool,
    ) {
        let moved = match from {
            Some(from) => self.at(from).unwrap_or(0),
            None => {
                let dropped = self.next;
                self.next = self.next.saturating_add(1);
                dropped
            }
        };
        let ids = self.ids.as_mut_slice();
        for left in [from, capture].into_iter().flatten() {
            if let Some(id) = ids.get_mut(left.index()) {
                *id = 0;
            }
        }
        if let Some(id) = ids.get_mut(to.index()) {
            // A piece that the move's own capture removed (a laser's beam) is gone.
            *id = if occupied(to.index()) { moved } else { 0 };
        }
        if besides {
            // A piece that moved besides (castling's rook) left a square now empty for one now
            // held that has no identity.
            let mut lost = Vec::new();
            for (index, id) in ids.iter_mut().enumerate() {
                if *id != 0 && !occupied(index) {
                    lost.push(std::mem::take(id));
                }
            }
            for (index, id) in ids.iter_mut().enumerate() {
                if *id == 0 && occupied(index) {
                    *id = lost.pop().unwrap_or_else(|| {
                        let id = self.next;
                        self.next = self.next.saturating_add(1);
                        id
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(index: u16) -> Square {
        Square::from_index(index)
    }

    /// Pieces on 0, 1, 4, 7 and 60, on a board whose identities are kept inline (64 squares)
    /// and on one where they are shared (100 squares).
    fn both() -> [Identities; 2] {
        [64, 100].map(|squares| Identities::first(squares, [0, 1, 4, 7, 60].into_iter().map(square)))
    }

    #[test]
    fn identities_follow_moves_alike_inline_and_shared() {
        for mut pieces in both() {
            let copy = pieces.clone();
            // 1 to 20, then 60 takes on 20: the taker keeps its identity, the taken is gone.
            pieces.play(Some(square(1)), square(20), None, false, |_| true);
            pieces.play(Some(square(60)), square(20), Some(square(20)), false, |_| true);
            assert_eq!(pieces.at(square(20)), Some(5));
            assert_eq!(pieces.square_of(2), None);
            // Castling: the king goes 4 to 6, the rook 7 to 5 and keeps its identity.
            let occupied = [0, 5, 6, 20];
            pieces.play(Some(square(4)), square(6), None, true, |index| occupied.contains(&index));
            assert_eq!((pieces.at(square(6)), pieces.at(square(5)), pieces.at(square(7))), (Some(3), Some(4), None));
            // A drop on 30 gets the next identity.
            pieces.play(None, square(30), None, false, |_| true);
            assert_eq!(pieces.at(square(30)), Some(6));
            // The copy made before the moves kept its own identities.
            assert_eq!((copy.at(square(1)), copy.at(square(20))), (Some(2), None));
        }
    }

    #[test]
    fn a_piece_is_looked_for_where_it_was_seen_then_everywhere() {
        let [mut pieces, _] = both();
        let knight = pieces.piece_at(square(1)).unwrap();
        assert_eq!(pieces.square_of_piece(knight), Some(square(1)));
        pieces.play(Some(square(1)), square(18), None, false, |_| true);
        assert_eq!(pieces.square_of_piece(knight), Some(square(18)));
        pieces.play(Some(square(60)), square(18), Some(square(18)), false, |_| true);
        assert_eq!(pieces.square_of_piece(knight), None);
        // Two references to one piece are equal wherever they saw it.
        assert_eq!(pieces.piece_at(square(18)).map(|piece| piece.id), Some(5));
        assert_eq!(PieceRef { id: 2, seen: square(1) }, PieceRef { id: 2, seen: square(9) });
    }
}
