//! Evaluating the filters that look at other positions of the game: `find`, `parent`, `child`,
//! `lca`, `echo`, the dashes, position variables and `P : F`. A position is the index of its
//! frame in the context (a line's, or a game's tree's).

use super::ast::DashWhen;
use super::comments::position_name;
use super::context::{Context, Frame};
use super::plan::{DashNode, DashTarget, EchoBody, EchoNode, FindNode, PositionNode, Program};
use super::state::{PathIds, PathStatus, Value};
use crate::board::Square;
use crate::position::RulesView;

/// The value of an `echo`: none when no target matched; else the largest value of its number
/// over the targets that have one (none for a filter).
type Echoed = Option<Option<i64>>;

/// What CQL 6.2 says at each position `find` found.
const FOUND: &str = "Found";

impl<const W: usize> Program<W> {
    /// The frame of a position, if the position exists.
    pub(super) fn position<P: RulesView<W>>(
        &self,
        node: &PositionNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> Option<usize> {
        let frames = context.frames.len();
        let exists = |index: usize| (index < frames).then_some(index);
        match node {
            PositionNode::Current => Some(at),
            PositionNode::Unmapped(position) => self.position(position, context, at),
            PositionNode::Initial => Some(0),
            PositionNode::Parent => context.parent(at),
            PositionNode::Child(number) => context.children(at).nth(*number as usize),
            PositionNode::Entry(entry) => match self.entry(entry, context, at) {
                Some(Value::Position(frame)) => Some(frame),
                _ => None,
            },
            PositionNode::Variable(slot) => match context.state.get(*slot) {
                Value::Position(index) => exists(index),
                Value::Unset => self.unbound(*slot, context, at),
                _ => None,
            },
            PositionNode::Find(find) => self.find_first(find, context, at),
            PositionNode::Lca(first, second) => {
                context.lca(self.position(first, context, at)?, self.position(second, context, at)?)
            }
            PositionNode::Numbered(number) => {
                let number = usize::try_from(self.number(number, context, at)?).ok()?;
                Self::numbered_position(context, number)
            }
            PositionNode::NumberedChild(number) => {
                let number = usize::try_from(self.number(number, context, at)?).ok()?;
                context.children(at).nth(number)
            }
            PositionNode::At(from, to) => self.position(to, context, self.position(from, context, at)?),
            PositionNode::If(conditional) => self.position(self.choose(conditional, context, at)?, context, at),
            PositionNode::Line(line) => self.line_match(line, context, at).map(|run| run.last),
            PositionNode::Path(path) => self.path_match(path, context, at).map(|found| found.last),
            PositionNode::PathStart { inside } => {
                Self::path_position(context, *inside, |status| Some(status.start), |ids| ids.start)
            }
            PositionNode::PathLast { inside } => {
                Self::path_position(context, *inside, |status| status.last, |ids| ids.last)
            }
            PositionNode::Block(block) => {
                let matched = block.before.iter().all(|filter| self.filter(filter, context, at));
                if matched { self.position(&block.last, context, at) } else { None }
            }
        }
    }

    /// A position (`in_game`'s) of the path around (`inside`) or of the game's last path that
    /// matched; where none has matched in the game yet, the position of this game with the
    /// number (`numbered`'s) of one of the last path that matched in a game before, as CQL 6.2
    /// finds it.
    fn path_position<P>(
        context: &Context<'_, P, W>,
        inside: bool,
        in_game: impl FnOnce(PathStatus) -> Option<usize>,
        numbered: impl FnOnce(PathIds) -> u32,
    ) -> Option<usize> {
        match context.state.path_status(inside) {
            Some(status) => in_game(status),
            None => {
                let earlier = context.state.earlier_path(inside)?;
                let number = numbered(earlier.ids);
                let found = Self::numbered_position(context, usize::try_from(number).ok()?);
                if found.is_none() {
                    context.state.miss_earlier_position(number);
                }
                found
            }
        }
    }

    /// `positionid`: the position's number in the game ([`Frame::id`]).
    pub(super) fn position_id<P>(context: &Context<'_, P, W>, at: usize) -> Option<i64> {
        Some(i64::from(context.frames[at].id))
    }

    /// `position N`: the frame of the game's position numbered N, if the game has it. The
    /// frames hold every position of the game from its first on (in a tree, in the order of
    /// their numbers), so that on a line the position numbered N is the N-th.
    fn numbered_position<P>(context: &Context<'_, P, W>, number: usize) -> Option<usize> {
        let numbered = |frame: &Frame<P, W>| usize::try_from(frame.id) == Ok(number);
        if context.frames.get(number).is_some_and(numbered) {
            return Some(number);
        }
        context.frames.iter().position(numbered)
    }

    /// The positions `find` looks at, in the order it looks at them: from `at` on (every
    /// position after it, in CQL 6.2's order), or back to the game's first.
    fn searched<'c, P>(
        find: &FindNode<W>,
        context: &'c Context<'_, P, W>,
        at: usize,
    ) -> Box<dyn Iterator<Item = usize> + 'c> {
        if find.backward { Box::new(context.ancestry(at)) } else { Box::new(context.subtree(at)) }
    }

    fn find_first<P: RulesView<W>>(&self, find: &FindNode<W>, context: &Context<'_, P, W>, at: usize) -> Option<usize> {
        let found = match context.lines {
            // Its filter looks at nothing but the positions: tested once at each position of the
            // line, whatever the number of positions the search starts from.
            Some(cache) if find.pure && context.tree.is_none() => {
                cache.found(std::ptr::from_ref(find) as usize, context, at, || {
                    let matches: Vec<bool> =
                        (0..context.frames.len()).map(|there| self.filter(&find.filter, context, there)).collect();
                    nearest(&matches, find.backward)
                })?
            }
            _ => Self::searched(find, context, at).find(|&there| self.filter(&find.filter, context, there))?,
        };
        if !find.quiet {
            context.state.note(found, FOUND.to_owned());
        }
        Some(found)
    }

    /// How many positions `find` finds, when `within` takes that number; the positions found
    /// are commented (unless quiet) only then, as CQL 6.2 comments them.
    pub(super) fn find_count<P: RulesView<W>>(
        &self,
        find: &FindNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
        within: impl Fn(i64) -> bool,
    ) -> Option<i64> {
        let found: Vec<usize> =
            Self::searched(find, context, at).filter(|&there| self.filter(&find.filter, context, there)).collect();
        let count = found.len() as i64;
        if !within(count) {
            return None;
        }
        for (index, &there) in found.iter().enumerate().filter(|_| !find.quiet) {
            context.state.note(there, format!("{FOUND} {} of {}", index + 1, found.len()));
        }
        Some(count)
    }

    /// Tests the `echo`'s filter at each target, the source and the target named; comments on
    /// each pair found, unless quiet: the names at both ends, and where each pair's other end is.
    pub(super) fn echo<P: RulesView<W>>(&self, echo: &EchoNode<W>, context: &Context<'_, P, W>, at: usize) -> Echoed {
        let state = context.state;
        let (source, target) = (echo.source.0, echo.target.0);
        let old = (state.get(source), state.get(target));
        state.set(source, Value::Position(at));
        let mut matched = false;
        let mut best: Option<i64> = None;
        for there in (0..context.frames.len()).filter(|&there| echo.all || there != at) {
            state.set(target, Value::Position(there));
            let passes = match &echo.body {
                EchoBody::Filter(filter) => self.filter(filter, context, there),
                EchoBody::Number(number) => match self.number(number, context, there) {
                    Some(value) => {
                        best = Some(best.map_or(value, |best| best.max(value)));
                        true
                    }
                    None => false,
                },
            };
            if !passes {
                continue;
            }
            matched = true;
            if !echo.quiet {
                if let Some(meeting) = context.lca(at, there).filter(|&meeting| meeting != at && meeting != there) {
                    state.note(meeting, "LCA".to_owned());
                }
                state.note(at, echo.source.1.clone());
                state.note(there, echo.target.1.clone());
                state.note(there, format!("-->{}", position_name(context, at)));
                state.note(at, format!("<--{}", position_name(context, there)));
            }
        }
        state.set(source, old.0);
        state.set(target, old.1);
        matched.then_some(best)
    }
}

impl<const W: usize> Program<W> {
    /// Whether the move fits the dash and its target, if any, holds after it.
    pub(super) fn dash_matches<P: RulesView<W>>(
        &self,
        node: &DashNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> bool {
        self.dash_find(node, context, at, |after| self.dash_target_matches(node, context, after)).is_some()
    }

    /// Whether the dash's target (what must hold after the move) holds at `after`.
    pub(super) fn dash_target_matches<P: RulesView<W>>(
        &self,
        node: &DashNode<W>,
        context: &Context<'_, P, W>,
        after: usize,
    ) -> bool {
        match &node.target {
            Some(DashTarget::Filter(filter)) => self.filter(filter, context, after),
            Some(DashTarget::Number(number)) => self.number(number, context, after).is_some(),
            Some(DashTarget::Set(set)) => !self.set(set, context, after).is_empty(),
            Some(DashTarget::Text(text)) => self.text(text, context, after).is_some(),
            None => true,
        }
    }

    /// The first frame after a move from `at` that fits the dash (with `currentmove`, the
    /// move that led to `at`, and the frame is `at`) and that `accept` takes.
    pub(super) fn dash_find<P: RulesView<W>>(
        &self,
        node: &DashNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
        mut accept: impl FnMut(usize) -> bool,
    ) -> Option<usize> {
        match node.when {
            DashWhen::Previous => {
                let parent = context.parent(at)?;
                (self.dash_fits(node, context, parent, at, true, true) && accept(at)).then_some(at)
            }
            DashWhen::Next | DashWhen::Count => context
                .children(at)
                .find(|&after| self.dash_fits(node, context, at, after, true, true) && accept(after)),
        }
    }

    /// The first frame after a move from `at` that fits the dash (see [`Program::dash_find`]).
    pub(super) fn dash_target<P: RulesView<W>>(
        &self,
        node: &DashNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> Option<usize> {
        self.dash_find(node, context, at, |_| true)
    }

    /// How many moves from `at` fit the dash, with its target holding after them.
    pub(super) fn dash_count<P: RulesView<W>>(
        &self,
        node: &DashNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> i64 {
        let fits = |after: usize| {
            self.dash_fits(node, context, at, after, true, true) && self.dash_target_matches(node, context, after)
        };
        context.children(at).filter(|&after| fits(after)).count() as i64
    }

    /// Whether the move from `at` to the frame `after` fits the dash: it leaves a square of
    /// `from` for one of `to`, captures (on `to`) with `[x]`, and promotes as asked. A castling
    /// fits as the king's move only if `king`, as the rook's only if `rook`.
    pub(super) fn dash_fits<P: RulesView<W>>(
        &self,
        node: &DashNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
        after: usize,
        king: bool,
        rook: bool,
    ) -> bool {
        let Some(played) = context.frames.get(after).and_then(|frame| frame.previous) else { return false };
        if node.promote.is_some_and(|kinds| played.promotion().is_none_or(|kind| !kinds.contains(kind))) {
            return false;
        }
        let from = node.from.as_ref().map(|set| self.squares(set, context, at));
        let to = node.to.as_ref().map(|set| self.squares(set, context, at));
        let fits = |leaves: Option<Square>, reaches: Square| {
            from.is_none_or(|from| leaves.is_some_and(|square| from.contains(square)))
                && to.is_none_or(|to| to.contains(reaches))
        };
        if node.capture {
            return played.capture().is_some_and(|captured| fits(played.from(), captured));
        }
        let castle = played.castle().is_some();
        if (!castle || king) && fits(played.from(), played.to()) {
            return true;
        }
        // Castling: the rook's move, from the squares the mover left to those it took.
        castle
            && rook
            && Self::castle_rook(context, at, after).is_some_and(|(rook_from, rook_to)| fits(Some(rook_from), rook_to))
    }

    /// The squares the rook of the castling from `at` to the frame `after` left and reached.
    pub(super) fn castle_rook<P: RulesView<W>>(
        context: &Context<'_, P, W>,
        at: usize,
        after: usize,
    ) -> Option<(Square, Square)> {
        let played = context.frames.get(after)?.previous?;
        let (before, now) = (&context.frames[at].position, &context.frames[after].position);
        let mover = before.turn();
        let left = before.color(mover) - now.color(mover);
        let took = now.color(mover) - before.color(mover);
        let rook_from = left.iter().find(|&square| Some(square) != played.from())?;
        let rook_to = took.iter().find(|&square| square != played.to())?;
        Some((rook_from, rook_to))
    }
}

/// For each position, the nearest at or after it (with `backward`, at or before it) whose value
/// is true.
fn nearest(matches: &[bool], backward: bool) -> Vec<Option<usize>> {
    let mut found = vec![None; matches.len()];
    let mut last = None;
    let mut visit = |index: usize| {
        if matches[index] {
            last = Some(index);
        }
        found[index] = last;
    };
    if backward {
        (0..matches.len()).for_each(&mut visit);
    } else {
        (0..matches.len()).rev().for_each(&mut visit);
    }
    found
}
