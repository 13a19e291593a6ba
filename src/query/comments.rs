//! `comment(...)` and `message(...)`: their text, made as CQL 6.2 makes it. Numbers as digits
//! (`<false>` without a value), squares as `e4` or `[a1,h8]`, a piece by its letter and square,
//! a position as `move 12(btm)`, a filter as `<true>` or `<false>`, and a variable without a
//! value as `<unbound: x>`.

use std::fmt::Write;

use super::context::Context;
use super::note_text::PositionName;
use super::plan::{CommentNode, Program, TextNode};
use super::similar::SimilarGames;
use super::state::{State, Value};
use super::texts::piece_on;
use crate::board::SquareSet;
use crate::position::RulesView;
use crate::variant::Color;

impl<const W: usize> Program<W> {
    /// Writes the comment at the position `at` (or keeps the message).
    pub(super) fn comment<P: RulesView<W>>(&self, node: &CommentNode<W>, context: &Context<'_, P, W>, at: usize) {
        let mut text = String::new();
        for part in &node.parts {
            self.text_part(part, context, at, &mut text);
        }
        if !node.message {
            context.state.note(at, text);
            return;
        }
        let line = if node.quiet {
            text
        } else {
            format!("Game: {} {}: {text}", context.game.number, position_name(context, at))
        };
        context.state.message(line);
    }

    /// `similarposition`: where the position is one of the file's, a comment for each
    /// sighting, and the least game number found so far in the game into the slot.
    pub(super) fn similar<P: RulesView<W>>(
        &self,
        games: &SimilarGames,
        slot: usize,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> bool {
        let position = context.frames[at].position.position_string();
        let Some((comments, least)) = games.comments(&position) else { return false };
        for comment in comments {
            context.state.note(at, comment);
        }
        let least = i64::try_from(least).unwrap_or(i64::MAX);
        let value = match context.state.get(slot) {
            Value::Number(before) => before.min(least),
            _ => least,
        };
        context.state.set(slot, Value::Number(value));
        true
    }

    pub(super) fn text_part<P: RulesView<W>>(
        &self,
        part: &TextNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
        text: &mut String,
    ) {
        let view = &context.frames[at].position;
        match part {
            TextNode::Text(written) => text.push_str(written),
            TextNode::Variable { slot, name } => match context.state.get(*slot) {
                Value::Unset => {
                    let _ = write!(text, "<unbound: {name}>");
                }
                Value::Number(value) => {
                    let _ = write!(text, "{value}");
                }
                Value::Set(set) => text.push_str(&self.square_list(set.squares)),
                Value::Position(index) if index < context.frames.len() => {
                    let _ = write!(text, "{}", position_name(context, index));
                }
                Value::Position(_) => text.push_str("<false>"),
                Value::Text(value) => text.push_str(&value),
                Value::Piece(piece) => {
                    let square = context.pieces.get(at).and_then(|pieces| pieces.square_of_piece(piece));
                    if let Some((square, piece)) = square.and_then(|square| Some((square, piece_on(view, square)?))) {
                        text.push_str(&view.variant().symbol(piece));
                        text.push_str(&self.masks.geometry().square_name(square).to_string());
                    }
                }
            },
            TextNode::Number(number) => match self.number(number, context, at) {
                Some(value) => {
                    let _ = write!(text, "{value}");
                }
                None => text.push_str("<false>"),
            },
            TextNode::Set(set) => text.push_str(&self.square_list(self.squares(set, context, at))),
            TextNode::Position(position) => match self.position(position, context, at) {
                Some(index) => {
                    let _ = write!(text, "{}", position_name(context, index));
                }
                None => text.push_str("<false>"),
            },
            TextNode::TextValue(value) => match self.text(value, context, at) {
                Some(value) => text.push_str(&value),
                None => text.push_str("<false>"),
            },
            TextNode::Filter(filter) => {
                text.push_str(if self.filter(filter, context, at) { "<true>" } else { "<false>" });
            }
        }
    }

    /// The persistent variables printed at the end of a run, as CQL 6.2 prints them
    /// (`name: value`), with the values `state` holds; `quiet` ones are left out.
    #[must_use]
    pub fn persistent_report(&self, state: &State<W>) -> Vec<String> {
        state.persistent(self.geometry()).report(&self.printed)
    }

    /// The persistent variables printed at the end of a run (not `quiet`), with their slots:
    /// the same in the programs of one query for every variant.
    #[must_use]
    pub fn printed(&self) -> &[(String, usize)] {
        &self.printed
    }

    /// Squares as CQL 6.2 lists them: one alone (`e4`), others in brackets by rank from the
    /// first (`[a1,h1,c2]`).
    fn square_list(&self, squares: SquareSet<W>) -> String {
        let geometry = self.masks.geometry();
        let names: Vec<String> = squares.iter().map(|square| geometry.square_name(square).to_string()).collect();
        if names.len() == 1 { names.into_iter().collect() } else { format!("[{}]", names.join(",")) }
    }
}

/// The position `at` as CQL 6.2 names it: `move 12(wtm)`; in a variation, with its number in
/// the game after it (`move 12(wtm)[40]`), which CQL also writes at the position, in a comment
/// (`id:40`).
pub(super) fn position_name<P: RulesView<W>, const W: usize>(context: &Context<'_, P, W>, at: usize) -> PositionName {
    let frame = &context.frames[at];
    let view = &frame.position;
    let id = (frame.depth != 0).then(|| {
        context.state.note(at, format!("id:{}", frame.id));
        frame.id
    });
    PositionName { move_number: view.move_number(), white_to_move: view.turn() == Color::White, id }
}
