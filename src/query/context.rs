//! What a compiled query sees besides the pieces: the line of positions around the one tested
//! (for `move previous`, `terminal` and `line`), and the values of the game's tags.

use std::borrow::Cow;

use std::sync::Arc;

use super::ast::{Award, GameFilter, Side, TagWord};
use super::line::LineCache;
use super::state::{Identities, State};
use super::tags::tag_text;
use super::tree::GameTree;
use crate::board::SquareSet;
use crate::notation::pgn::cql_style::MAX_NAGS;
use crate::position::MoveFacts;
use crate::variant::Color;

/// One position of a line, with where it stands in the game. Frames of positions that are
/// `Copy` are too, so that a line copies them as plain memory.
#[derive(Clone, Copy, Debug)]
pub struct Frame<P, const W: usize> {
    /// The position.
    pub position: P,
    /// Plies played since the game's first position (0 there).
    pub ply: u32,
    /// The move that led here, if known.
    pub previous: Option<MoveFacts>,
    /// The squares whose pieces that move removed besides the one it captured (an Atomic
    /// explosion's), which `move ... capture` counts as captured.
    pub removed: SquareSet<W>,
    /// Whether the position is on the game's main line (not in a variation).
    pub mainline: bool,
    /// Whether the move that led here begins a variation: it is not the main continuation of
    /// the position before (`line secondary` follows only such moves, `line primary` none).
    pub branch: bool,
    /// How many variations deep the position lies: the moves of the line to it that begin a
    /// variation (0 on the main line).
    pub depth: u32,
    /// The position's number in the game (`positionid`), in CQL 6.2's order: the main line's
    /// positions by their plies, then each variation's after its parent line's (those branching
    /// later first). A variation's positions are numbered once the whole game is read.
    pub id: u32,
}

impl<P, const W: usize> Frame<P, W> {
    /// A position of the main line, `ply` plies from the game's first, reached by `previous`.
    pub fn new(position: P, ply: u32, previous: Option<MoveFacts>) -> Frame<P, W> {
        Frame { position, ply, previous, removed: SquareSet::EMPTY, mainline: true, branch: false, depth: 0, id: ply }
    }
}

/// What the game's text says about the move that led to a position: the comment after it (the
/// last, where several follow it; before the first move, the game's first comment) and its
/// numeric annotation glyphs (`!` is 1), for `hascomment` and `originalcomment`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Remark {
    /// The comment's words, one space between them.
    pub comment: Option<Arc<str>>,
    /// The glyphs, in the order written, at most [`MAX_NAGS`] (as CQL 6.2 keeps them).
    pub glyphs: arrayvec::ArrayVec<u8, MAX_NAGS>,
}

impl Remark {
    /// Adds a glyph, unless the move has [`MAX_NAGS`] already.
    pub fn add_glyph(&mut self, glyph: u8) {
        let _ = self.glyphs.try_push(glyph);
    }
}

/// The positions of a line, the one tested among them, the game's tag values, and what the
/// evaluation keeps from position to position.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a, P, const W: usize> {
    /// Consecutive positions of one line; each after the move stored in it.
    pub frames: &'a [Frame<P, W>],
    /// The identities of the pieces of each frame's position, when the query follows pieces
    /// (`piece x in ...`); empty otherwise.
    pub pieces: &'a [Identities],
    /// What the game's text says about each frame's move, when the query reads comments
    /// (`hascomment`); empty otherwise.
    pub remarks: &'a [Remark],
    /// Whether the line ends with its last frame (then that position is terminal).
    pub complete: bool,
    /// The values of the game filters, from [`Program::game_facts`](super::Program::game_facts).
    pub game: &'a GameFacts,
    /// Where the answers of `line` filters over these frames are kept, when every position of
    /// the line is tested: then each `line` filter costs time linear in the line's length over
    /// all its positions together. Without it, each test looks ahead on its own.
    pub lines: Option<&'a LineCache>,
    /// The variables and comments of the game's evaluation.
    pub state: &'a State<W>,
    /// When the frames hold a game's tree (its variations searched too), its shape; without
    /// one, the frames are one line.
    pub tree: Option<&'a GameTree>,
}

impl<'a, P, const W: usize> Context<'a, P, W> {
    /// What a test sees of positions with no line around them and nothing of a game's text:
    /// the last is taken as the end of its line.
    #[must_use]
    pub fn alone(frames: &'a [Frame<P, W>], game: &'a GameFacts, state: &'a State<W>) -> Context<'a, P, W> {
        Context { frames, pieces: &[], remarks: &[], complete: true, game, lines: None, state, tree: None }
    }

    /// The frame of the position before `at`, if `at` is not the first.
    #[inline]
    pub fn parent(&self, at: usize) -> Option<usize> {
        match self.tree {
            None => at.checked_sub(1),
            Some(tree) => tree.parent(at),
        }
    }

    /// The frame of the main continuation of `at` (the move played next), if a move follows it.
    #[inline]
    pub fn main_child(&self, at: usize) -> Option<usize> {
        let next = at + 1;
        (next < self.frames.len() && self.tree.is_none_or(|tree| tree.parent(next) == Some(at))).then_some(next)
    }

    /// The frames of the positions the moves from `at` lead to: its main continuation first,
    /// then its variations in the order written.
    pub fn children(&self, at: usize) -> impl Iterator<Item = usize> + '_ {
        let end = self.subtree(at).end;
        std::iter::successors(self.main_child(at), move |&child| {
            let next = self.subtree(child).end;
            (next < end).then_some(next)
        })
    }

    /// The moves played in the position `at`, each with the frame it leads to: on the main
    /// continuation (`branch` false), in variations (true), or both (`None`).
    pub fn moves_played(&self, at: usize, branch: Option<bool>) -> impl Iterator<Item = (MoveFacts, usize)> + '_ {
        self.children(at).filter_map(move |after| Some((self.move_before(after, branch)?, after)))
    }

    /// The move that led to the position `at`, where it was played on the continuation asked
    /// for: the main one (`branch` false), a variation's first move (true), or either (`None`).
    pub fn move_before(&self, at: usize, branch: Option<bool>) -> Option<MoveFacts> {
        let frame = &self.frames[at];
        frame.previous.filter(|_| branch.is_none_or(|branch| frame.branch == branch))
    }

    /// The frames of `at` and of every position after it, in CQL 6.2's order.
    #[inline]
    pub fn subtree(&self, at: usize) -> std::ops::Range<usize> {
        match self.tree {
            None => at..self.frames.len(),
            Some(tree) => tree.subtree(at),
        }
    }

    /// The frames from `at` back to the game's first position.
    pub fn ancestry(&self, at: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(at), move |&at| self.parent(at))
    }

    /// The nearest position that both `first` and `second` are or come after.
    pub fn lca(&self, first: usize, second: usize) -> Option<usize> {
        let (earlier, later) = (first.min(second), first.max(second));
        self.ancestry(earlier).find(|&there| self.subtree(there).contains(&later))
    }

    /// The longest run of moves in a row that the lines from where `first` and `second` part
    /// to each of them share (the same piece from the same square to the same square), as
    /// pairs of the frames those moves lead to; of runs as long, the one that ends first on
    /// the way to `first`, then to `second`, as CQL 6.2 picks it. Empty when one position
    /// lies on the line to the other.
    pub fn shared_moves(&self, first: usize, second: usize) -> Vec<(usize, usize)> {
        let Some(meeting) = self.lca(first, second) else { return Vec::new() };
        if meeting == first || meeting == second {
            return Vec::new();
        }
        let key = |at: usize| self.frames[at].previous.map(|played| (played.from(), played.to(), played.mover()));
        let (left, right) = (self.way(meeting, first), self.way(meeting, second));
        let right_keys: Vec<_> = right.iter().map(|&at| key(at)).collect();
        // The length of the run ending at each move of `right`, for the move of `left` before.
        let mut runs = vec![0usize; right.len()];
        let (mut longest, mut end) = (0, (0, 0));
        for (i, &at) in left.iter().enumerate() {
            let played = key(at);
            for j in (0..right.len()).rev() {
                runs[j] = if played.is_some() && played == right_keys[j] {
                    1 + j.checked_sub(1).map_or(0, |j| runs[j])
                } else {
                    0
                };
            }
            for (j, &run) in runs.iter().enumerate() {
                if run > longest {
                    (longest, end) = (run, (i, j));
                }
            }
        }
        (0..longest).map(|step| (left[end.0 + 1 + step - longest], right[end.1 + 1 + step - longest])).collect()
    }

    /// The frames after `from` on the way to `to` (`to` included), when `to` comes after
    /// `from` on a line through it; empty otherwise.
    pub fn way(&self, from: usize, to: usize) -> Vec<usize> {
        if !self.subtree(from).contains(&to) {
            return Vec::new();
        }
        let mut way: Vec<usize> = self.ancestry(to).take_while(|&at| at != from).collect();
        way.reverse();
        way
    }

    /// Whether `at` is the last position of a game's line: no move follows it, and the line
    /// was not cut short.
    #[inline]
    pub fn is_terminal(&self, at: usize) -> bool {
        match self.tree {
            None => self.complete && at + 1 == self.frames.len(),
            Some(tree) => self.main_child(at).is_none() && !tree.is_cut(at),
        }
    }
}

/// The values of a query's game filters for one game: computed once from the tags, before any
/// move is replayed (but for what the game's whole text says, known once it is read).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFacts {
    pub(crate) values: Vec<Option<i64>>,
    /// The texts of the tag words, by the slot of their test (none for the other tests).
    pub(crate) texts: Vec<Option<Arc<str>>>,
    /// The game's number in the input, from 1 (0 when not known).
    pub(crate) number: u64,
    /// The number of the input's last game (`lastgamenumber`; 0 when not known).
    pub(crate) last_number: u64,
    /// Whether the game's variations are searched too: then its positions are numbered past
    /// the main line's.
    pub(crate) variations: bool,
    /// Whether the game's text holds `<cook` (known once the game is read; see
    /// [`GameFacts::with_text`]).
    pub(crate) has_cook: bool,
}

impl GameFacts {
    /// The same facts, for the game numbered `number` in the input (from 1).
    #[must_use]
    pub fn numbered(self, number: u64) -> GameFacts {
        GameFacts { number, ..self }
    }

    /// The same facts, for an input whose last game is numbered `last` (0: not known).
    #[must_use]
    pub fn last_numbered(self, last: u64) -> GameFacts {
        GameFacts { last_number: last, ..self }
    }

    /// The same facts, for a game whose whole text (its tags and moves) is `text`.
    #[must_use]
    pub fn with_text(self, text: &[u8]) -> GameFacts {
        GameFacts { has_cook: memchr::memmem::find(text, b"<cook").is_some(), ..self }
    }

    /// The same facts, for a game whose variations are searched too (or not).
    #[must_use]
    pub fn with_variations(self, variations: bool) -> GameFacts {
        GameFacts { variations, ..self }
    }
}

/// Where a game's tags come from.
pub trait TagSource {
    /// The value of a tag, if the game has it.
    fn tag(&self, name: &str) -> Option<Cow<'_, str>>;
}

/// No tags at all: a position that stands alone.
impl TagSource for () {
    fn tag(&self, _name: &str) -> Option<Cow<'_, str>> {
        None
    }
}

/// A test of a game's tags, compiled; a filter test has the value 1 when it passes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum GameTest {
    /// The `Result` tag equals the text.
    Result(String),
    /// A player's rating (the higher of both with no colour).
    Elo(Option<Color>),
    /// The year of the `Date` tag.
    Year,
    /// The tag's text holds the text.
    Holds(TagWord, String),
    /// The tag's text, which the game has (its test has the value 1 then).
    Text(TagWord),
    /// The rank of an award the `Event` tag shows (none for a special award not asked for).
    Award(Award),
    /// The `Event` tag shows the award (its test has the value 1 then).
    Awarded(Award),
}

impl GameTest {
    /// The test a game filter compiles to.
    pub(crate) fn of(filter: &GameFilter) -> Option<GameTest> {
        let color =
            |side: &Option<Side>| side.map(|side| if side == Side::White { Color::White } else { Color::Black });
        Some(match filter {
            GameFilter::Result(result) => GameTest::Result(normal_result(result).to_owned()),
            GameFilter::Elo(side) => GameTest::Elo(color(side)),
            GameFilter::Year => GameTest::Year,
            GameFilter::Holds { tag, text } => GameTest::Holds(tag.clone(), text.clone()),
            GameFilter::Award(award) => GameTest::Award(*award),
            GameFilter::Variant(_) => return None,
        })
    }

    /// The same test with White and Black swapped (for `flipcolor`).
    pub(crate) fn flip_color(&self) -> GameTest {
        let swap = |tag: &TagWord| match tag {
            TagWord::Player(Some(Side::White)) => TagWord::Player(Some(Side::Black)),
            TagWord::Player(Some(Side::Black)) => TagWord::Player(Some(Side::White)),
            other => other.clone(),
        };
        match self {
            GameTest::Result(result) => GameTest::Result(match result.as_str() {
                "1-0" => "0-1".to_owned(),
                "0-1" => "1-0".to_owned(),
                other => other.to_owned(),
            }),
            GameTest::Elo(color) => GameTest::Elo(color.map(Color::other)),
            GameTest::Year => GameTest::Year,
            GameTest::Holds(tag, text) => GameTest::Holds(swap(tag), text.clone()),
            GameTest::Text(tag) => GameTest::Text(swap(tag)),
            GameTest::Award(_) | GameTest::Awarded(_) => self.clone(),
        }
    }

    /// The test's value for a game.
    pub(crate) fn value(&self, tags: &impl TagSource) -> Option<i64> {
        let passes = |pass: bool| pass.then_some(1);
        let elo = |color: Color| {
            let name = if color == Color::White { "WhiteElo" } else { "BlackElo" };
            tags.tag(name).and_then(|value| value.trim().parse::<i64>().ok())
        };
        match self {
            GameTest::Result(result) => passes(tags.tag("Result").is_some_and(|value| value.trim() == result)),
            GameTest::Elo(Some(color)) => elo(*color),
            GameTest::Elo(None) => elo(Color::White).max(elo(Color::Black)),
            GameTest::Year => tags.tag("Date").and_then(|date| date.get(..4).and_then(|year| year.parse().ok())),
            GameTest::Holds(tag, text) => {
                passes(tag_text(tag, tags).is_some_and(|value| value.contains(text.as_str())))
            }
            GameTest::Text(tag) => passes(tag_text(tag, tags).is_some()),
            GameTest::Award(award) => tags.tag("Event").and_then(|event| award.rank(&event)).filter(|&rank| rank > 0),
            GameTest::Awarded(award) => passes(tags.tag("Event").is_some_and(|event| award.rank(&event).is_some())),
        }
    }

    /// The test's text for a game: the tag's, for a tag word's value.
    pub(crate) fn text(&self, tags: &impl TagSource) -> Option<Arc<str>> {
        match self {
            GameTest::Text(tag) => tag_text(tag, tags).map(Arc::from),
            _ => None,
        }
    }
}

/// A result as the `Result` tag writes it (`1/2` is `1/2-1/2`).
pub(crate) fn normal_result(result: &str) -> &str {
    if result == "1/2" { "1/2-1/2" } else { result }
}
