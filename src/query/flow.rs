//! Evaluating the filters that keep or choose: assignments, variables, `if`, and the `square`
//! and `piece` loops. Their values live in the context's [`State`](super::State).

use super::ast::{AssignOp, BinaryOp, LoopOver};
use super::context::Context;
use super::plan::{Conditional, EqualSide, FilterNode, LoopNode, Program, SetValue, ValueNode};
use super::state::Value;
use crate::board::{Square, SquareSet};
use crate::position::RulesView;

impl<const W: usize> Program<W> {
    /// Gives the variable `slot` a value; matches when the value exists.
    pub(super) fn assign<P: RulesView<W>>(
        &self,
        slot: usize,
        op: AssignOp,
        value: &ValueNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> bool {
        let state = context.state;
        let new = self.value(value, context, at);
        let combined = match (op, state.get(slot), new) {
            (AssignOp::Set, _, new) => new,
            // `=?` gives a set only when it is not empty.
            (AssignOp::SetOrUnset, _, Some(Value::Set(set))) if set.is_empty() => None,
            (AssignOp::SetOrUnset, _, new) => new,
            (AssignOp::Arithmetic(_) | AssignOp::Union | AssignOp::Intersection, Value::Unset, _) => {
                self.unbound(slot, context, at)
            }
            (AssignOp::Arithmetic(_), Value::Text(old), Some(Value::Text(new))) => {
                Some(Value::Text(format!("{old}{new}").into()))
            }
            (AssignOp::Arithmetic(op), Value::Number(old), Some(Value::Number(new))) => {
                arithmetic(op, old, new).map(Value::Number)
            }
            (AssignOp::Arithmetic(op), Value::Number(old), Some(Value::Set(new))) => {
                arithmetic(op, old, new.count(&context.frames[at].position)).map(Value::Number)
            }
            (AssignOp::Piece, _, Some(Value::Set(set))) => {
                // As in CQL 6.2, the set is one square, and a piece stands there.
                let mut squares = set.squares.iter();
                match (squares.next(), squares.next(), context.pieces.get(at)) {
                    (Some(square), None, Some(pieces)) => pieces.piece_at(square).map(Value::Piece),
                    _ => None,
                }
            }
            (AssignOp::Union, Value::Set(old), Some(Value::Set(new))) => Some(Value::Set(SetValue {
                squares: old.squares | new.squares,
                backhand: [0, 1].map(|c| old.backhand[c].union(new.backhand[c])),
            })),
            (AssignOp::Intersection, Value::Set(old), Some(Value::Set(new))) => Some(Value::Set(SetValue {
                squares: old.squares & new.squares,
                backhand: [0, 1].map(|c| old.backhand[c].intersection(new.backhand[c])),
            })),
            _ => None,
        };
        match combined {
            Some(value) => {
                state.set(slot, value);
                true
            }
            None => false,
        }
    }

    /// The value of a value node at `at`, if it has one (a set always has one).
    pub(super) fn value<P: RulesView<W>>(
        &self,
        value: &ValueNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> Option<Value<W>> {
        match value {
            ValueNode::Number(number) => self.number(number, context, at).map(Value::Number),
            ValueNode::Set(set) => Some(Value::Set(self.set(set, context, at))),
            ValueNode::Position(position) => self.position(position, context, at).map(Value::Position),
            ValueNode::Text(text) => self.text(text, context, at).map(Value::Text),
        }
    }

    /// Whether both sides of `equal(X Y)` give the same value, tested in turn, as CQL 6.2 has
    /// it: a filter gives whether it matched, a side without a value gives no match, so that
    /// two sides without a value (or one, and a filter that fails) are equal.
    pub(super) fn equal<P: RulesView<W>>(
        &self,
        sides: &[EqualSide<W>; 2],
        context: &Context<'_, P, W>,
        at: usize,
    ) -> bool {
        let mut given = sides.iter().map(|side| match side {
            EqualSide::Matched(filter) => Err(self.filter(filter, context, at)),
            EqualSide::Value(value) => self.value(value, context, at).ok_or(false),
        });
        let first = given.next();
        first == given.next()
    }

    /// The branch of a conditional that applies here; none when the condition fails and there
    /// is no `else`.
    pub(super) fn choose<'n, T, P: RulesView<W>>(
        &self,
        conditional: &'n Conditional<T, W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> Option<&'n T> {
        if self.filter(&conditional.condition, context, at) {
            Some(&conditional.then)
        } else {
            conditional.otherwise.as_ref()
        }
    }

    pub(super) fn number_variable<P>(&self, slot: usize, context: &Context<'_, P, W>, at: usize) -> Option<i64> {
        match context.state.read(slot, |value| match value {
            Value::Number(number) => Ok(Some(*number)),
            Value::Unset => Err(()),
            _ => Ok(None),
        }) {
            Ok(number) => number,
            Err(()) => self.unbound(slot, context, at),
        }
    }

    /// Stops the run where a variable is read before it has a value, as CQL 6.2 stops it.
    pub(super) fn unbound<P, T>(&self, slot: usize, context: &Context<'_, P, W>, at: usize) -> Option<T> {
        let name = self.variable_names.get(slot).map_or("", String::as_str);
        let (game, id) = (context.game.number, context.frames[at].id);
        context.state.refuse(&format!(
            "the variable '{name}' was read before it had a value, in game {game} at positionid {id} (CQL 6.2 stops there too)"
        ));
        None
    }

    /// The value of a set variable; for a piece, the square where it stands at `at` (none once
    /// it is captured).
    pub(super) fn set_variable<P: RulesView<W>>(
        &self,
        slot: usize,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> SetValue<W> {
        let held = context.state.read(slot, |value| match value {
            Value::Set(set) => Ok(*set),
            Value::Piece(piece) => Err(Some(*piece)),
            Value::Unset => Err(None),
            _ => Ok(SetValue::board(SquareSet::EMPTY)),
        });
        match held {
            Ok(set) => set,
            Err(Some(piece)) => {
                let square = context.pieces.get(at).and_then(|pieces| pieces.square_of_piece(piece));
                SetValue::board(square.map_or(SquareSet::EMPTY, SquareSet::from_square))
            }
            Err(None) => {
                self.unbound::<P, ()>(slot, context, at);
                SetValue::board(SquareSet::EMPTY)
            }
        }
    }

    /// The squares of the loop's set whose square (or piece) passes the body.
    pub(super) fn loop_squares<P: RulesView<W>>(
        &self,
        node: &LoopNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> SquareSet<W> {
        let squares = self.squares(&node.set, context, at);
        if node.over == LoopOver::Squares
            && let Some(passed) = self.narrowed_squares(node, squares, context, at)
        {
            return passed;
        }
        let mut passed = SquareSet::EMPTY;
        self.each_bound(node, squares, context, at, |square, passes| {
            if passes {
                passed.add(square);
            }
            true
        });
        passed
    }

    /// Whether every square (or piece) of the loop's set passes the body.
    pub(super) fn loop_all<P: RulesView<W>>(&self, node: &LoopNode<W>, context: &Context<'_, P, W>, at: usize) -> bool {
        let squares = self.squares(&node.set, context, at);
        if node.over == LoopOver::Squares
            && let Some(passed) = self.narrowed_squares(node, squares, context, at)
        {
            return passed == squares;
        }
        let mut all = true;
        self.each_bound(node, squares, context, at, |_, passes| {
            all &= passes;
            passes
        });
        all
    }

    /// Tests the body with the loop's variable bound to each square (or piece) of its set,
    /// `squares` (worked out once, as CQL 6.2 works it out), in turn, while `go_on` says to;
    /// the variable has its old value again afterwards.
    fn each_bound<P: RulesView<W>>(
        &self,
        node: &LoopNode<W>,
        mut squares: SquareSet<W>,
        context: &Context<'_, P, W>,
        at: usize,
        mut go_on: impl FnMut(Square, bool) -> bool,
    ) {
        let frame = &context.frames[at];
        if node.over == LoopOver::Pieces {
            squares &= frame.position.occupied();
        }
        let old = context.state.get(node.slot);
        for square in squares.iter() {
            match (node.over, context.pieces.get(at)) {
                (LoopOver::Pieces, Some(pieces)) => match pieces.piece_at(square) {
                    Some(piece) => context.state.set_piece(node.slot, piece),
                    None => continue,
                },
                _ => context.state.set_squares(node.slot, SquareSet::from_square(square)),
            }
            // A failing body's comments go, whatever filter it is, as CQL 6.2 drops them.
            let before = self.makes_notes.then(|| context.state.notes_len());
            let passes = self.filter(&node.body, context, at);
            if let (false, Some(before)) = (passes, before) {
                context.state.truncate_notes(before);
            }
            if !go_on(square, passes) {
                break;
            }
        }
        context.state.set(node.slot, old);
    }
}

/// The most rounds a `loop` or a `while` makes at one position: past them it stops, and says so.
const MAX_ROUNDS: u32 = 100_000;

impl<const W: usize> Program<W> {
    /// `while (T) F` with a test (always matches), `loop F` without (matches when F matched
    /// once); a loop that would go on for ever stops after [`MAX_ROUNDS`] rounds, with a message.
    pub(super) fn repeat<P: RulesView<W>>(
        &self,
        test: Option<&FilterNode<W>>,
        body: &FilterNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> bool {
        let mut matched = false;
        for _ in 0..MAX_ROUNDS {
            let goes_on = match test {
                Some(test) => {
                    self.filter(test, context, at) && {
                        self.filter(body, context, at);
                        true
                    }
                }
                None => self.filter(body, context, at),
            };
            if !goes_on {
                return test.is_some() || matched;
            }
            matched = true;
        }
        context.state.message(format!(
            "Game: {} {}: a loop stopped after {MAX_ROUNDS} rounds",
            context.game.number,
            super::comments::position_name(context, at)
        ));
        true
    }
}

/// `old op new`, none on overflow or division by zero.
fn arithmetic(op: BinaryOp, old: i64, new: i64) -> Option<i64> {
    match op {
        BinaryOp::Add => old.checked_add(new),
        BinaryOp::Sub => old.checked_sub(new),
        BinaryOp::Mul => old.checked_mul(new),
        BinaryOp::Div => old.checked_div(new),
        _ => old.checked_rem(new),
    }
}
