//! Evaluating the filters that look at other positions of the line: `find`, `parent`, `child`,
//! `lca`, position variables and `P : F`. A position is the index of its frame in the context.

use super::ast::DashWhen;
use super::comments::position_name;
use super::context::{Context, Frame};
use super::plan::{DashNode, DashTarget, EchoBody, EchoNode, FindNode, PositionNode, Program};
use super::state::Value;
use crate::board::Square;
use crate::position::RulesView;

/// The value of an `echo`: none when no target matched; else the largest value of its number
/// over the targets that have one (none for a filter).
type Echoed = Option<Option<i64>>;

/// What CQL 6.2 says at each position `find` found.
const FOUND: &str = "Found";

/// Why a run stops where `position N` names a position of another line than the one tested.
const NUMBERED_ELSEWHERE: &str = "position N names a position of the game off the line of the position tested (in \
     another variation, or on the main line past where a variation branches), where cqlq cannot go: search the main \
     line only (no variations), or name positions of the line";

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
            PositionNode::Initial => Some(0),
            PositionNode::Parent => at.checked_sub(1),
            // The line holds no variation of its own: only the position after this one on it.
            PositionNode::Child(0) => exists(at + 1),
            PositionNode::Child(_) => None,
            PositionNode::Entry(entry) => match self.entry(entry, context, at) {
                Some(Value::Position(frame)) => Some(frame),
                _ => None,
            },
            PositionNode::Variable(slot) => match context.state.get(*slot) {
                Value::Position(index) => exists(index),
                _ => None,
            },
            PositionNode::Find(find) => self.find_first(find, context, at),
            // Both lie on this line, back to the game's start: the earlier is where they meet.
            PositionNode::Lca(first, second) => {
                Some(self.position(first, context, at)?.min(self.position(second, context, at)?))
            }
            PositionNode::Numbered(number) => {
                let number = usize::try_from(self.number(number, context, at)?).ok()?;
                Self::numbered_position(context, number)
            }
            PositionNode::At(from, to) => self.position(to, context, self.position(from, context, at)?),
            PositionNode::If(conditional) => self.position(self.choose(conditional, context, at)?, context, at),
            PositionNode::Line(line) => self.line_match(line, context, at).map(|run| run.last),
            PositionNode::Path(path) => self.path_match(path, context, at).map(|found| found.last),
            PositionNode::PathStart { inside } => context.state.path_status(*inside).map(|status| status.start),
            PositionNode::PathLast { inside } => context.state.path_status(*inside)?.last,
            PositionNode::Block(block) => {
                let matched = block.before.iter().all(|filter| self.filter(filter, context, at));
                if matched { self.position(&block.last, context, at) } else { None }
            }
        }
    }

    /// `positionid`: the position's number in the game ([`Frame::id`]).
    pub(super) fn position_id<P>(context: &Context<'_, P, W>, at: usize) -> Option<i64> {
        Some(i64::from(context.frames[at].id))
    }

    /// `position N`: the frame of the game's position numbered N, if the game has it.
    fn numbered_position<P>(context: &Context<'_, P, W>, number: usize) -> Option<usize> {
        let frames = context.frames;
        let numbered = |frame: &Frame<P, W>| usize::try_from(frame.id) == Ok(number);
        // The line holds every position from the game's first on: on the main line, the
        // position numbered N is the N-th.
        if frames.get(number).is_some_and(numbered) {
            return Some(number);
        }
        if let Some(at) = frames.iter().position(numbered) {
            return Some(at);
        }
        // Past the end of the main line, only a variation's position has the number.
        if !context.game.variations && frames.last().is_some_and(|last| last.mainline) {
            return None;
        }
        context.state.refuse(NUMBERED_ELSEWHERE);
        None
    }

    /// The positions `find` looks at, in the order it looks at them (from `at` on, or back).
    fn searched<P>(find: &FindNode<W>, context: &Context<'_, P, W>, at: usize) -> Box<dyn Iterator<Item = usize>> {
        if find.backward { Box::new((0..=at).rev()) } else { Box::new(at..context.frames.len()) }
    }

    fn find_first<P: RulesView<W>>(&self, find: &FindNode<W>, context: &Context<'_, P, W>, at: usize) -> Option<usize> {
        let found = match context.lines {
            // Its filter looks at nothing but the positions: tested once at each position of the
            // line, whatever the number of positions the search starts from.
            Some(cache) if find.pure => cache.found(std::ptr::from_ref(find) as usize, context, at, || {
                let matches: Vec<bool> =
                    (0..context.frames.len()).map(|there| self.filter(&find.filter, context, there)).collect();
                nearest(&matches, find.backward)
            })?,
            _ => Self::searched(find, context, at).find(|&there| self.filter(&find.filter, context, there))?,
        };
        if !find.quiet {
            context.state.note(found, FOUND.to_owned());
        }
        Some(found)
    }

    pub(super) fn find_count<P: RulesView<W>>(
        &self,
        find: &FindNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> i64 {
        let found: Vec<usize> =
            Self::searched(find, context, at).filter(|&there| self.filter(&find.filter, context, there)).collect();
        for (index, &there) in found.iter().enumerate().filter(|_| !find.quiet) {
            context.state.note(there, format!("{FOUND} {} of {}", index + 1, found.len()));
        }
        found.len() as i64
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
        self.dash_target(node, context, at).is_some_and(|after| self.dash_target_matches(node, context, after))
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
            None => true,
        }
    }

    /// The frame after the move played from `at`, when that move fits the dash: it leaves a
    /// square of `from` for one of `to` (castling counts as the king's move and as the rook's),
    /// captures (on `to`) with `[x]`, and promotes as asked.
    ///
    /// With `currentmove`, the move is the one that led to `at`, and the frame is `at`.
    pub(super) fn dash_target<P: RulesView<W>>(
        &self,
        node: &DashNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> Option<usize> {
        let (at, after) = match node.when {
            DashWhen::Previous => (at.checked_sub(1)?, at),
            DashWhen::Next | DashWhen::Count => (at, at + 1),
        };
        self.dash_target_castling(node, context, at, true, true).filter(|&found| found == after)
    }

    /// The frame after the move played from `at` (the next frame), when that move fits the
    /// dash; a castling fits as the king's move only if `king`, as the rook's only if `rook`.
    pub(super) fn dash_target_castling<P: RulesView<W>>(
        &self,
        node: &DashNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
        king: bool,
        rook: bool,
    ) -> Option<usize> {
        let after = at + 1;
        let played = context.frames.get(after)?.previous?;
        if node.promote.is_some_and(|kinds| played.promotion().is_none_or(|kind| !kinds.contains(kind))) {
            return None;
        }
        let from = node.from.as_ref().map(|set| self.squares(set, context, at));
        let to = node.to.as_ref().map(|set| self.squares(set, context, at));
        let fits = |leaves: Option<Square>, reaches: Square| {
            from.is_none_or(|from| leaves.is_some_and(|square| from.contains(square)))
                && to.is_none_or(|to| to.contains(reaches))
        };
        if node.capture {
            return played.capture().filter(|&captured| fits(played.from(), captured)).map(|_| after);
        }
        let castle = played.castle().is_some();
        if (!castle || king) && fits(played.from(), played.to()) {
            return Some(after);
        }
        // Castling: the rook's move, from the squares the mover left to those it took.
        if castle
            && rook
            && let Some((rook_from, rook_to)) = Self::castle_rook(context, at)
            && fits(Some(rook_from), rook_to)
        {
            return Some(after);
        }
        None
    }

    /// The squares the rook of the castling played from `at` left and reached.
    pub(super) fn castle_rook<P: RulesView<W>>(context: &Context<'_, P, W>, at: usize) -> Option<(Square, Square)> {
        let played = context.frames.get(at + 1)?.previous?;
        let (before, now) = (&context.frames[at].position, &context.frames[at + 1].position);
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
