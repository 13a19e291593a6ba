//! A position that stands alone, tested with a query and shown beside it (`cqlq filter`, `cqlq
//! explain`): played on by the rules of its variant where cqlq plays them, drawn with what those
//! rules show of it, else tested and drawn as it is.

use std::fmt::Write;

use serde_json::{Value, json};

use super::GameRules;
use super::registry::{Typed, WithRules, with_rules};
use crate::notation::MoveError;
use crate::position::{AnyPosition, FromAny, Position, drawing};
use crate::query::{FromPlan, Plan, Program};

/// A position as `cqlq explain` shows it beside a query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplainedPosition {
    /// The position written as its variant writes positions (FEN; Setup Notation and the side
    /// to move), where cqlq plays the variant's rules.
    pub written: Option<String>,
    /// The position drawn, with what its rules show of it (each laser's beam).
    pub drawing: String,
    /// Whether the query matches it, as a game of that one position.
    pub matches: bool,
}

impl ExplainedPosition {
    /// As text: how it was reached (`moves`), its drawing, and whether the query matches.
    #[must_use]
    pub fn text(&self, moves: &[&str]) -> String {
        let mut out = String::from("\nposition");
        if !moves.is_empty() {
            let _ = write!(out, " after {}", moves.join(" "));
        }
        match &self.written {
            Some(written) => {
                let _ = writeln!(out, ": {written}");
            }
            None => out.push_str(":\n"),
        }
        out.push_str(&self.drawing);
        let _ = writeln!(out, "matches: {}", if self.matches { "yes" } else { "no" });
        out
    }

    /// As JSON: `{"written", "diagram", "matches"}`.
    #[must_use]
    pub fn json(&self) -> Value {
        json!({"written": self.written, "diagram": self.drawing, "matches": self.matches})
    }
}

impl Plan {
    /// Whether the position matches, as a game of that one position (its ply comes from its
    /// move counters; it is both initial and terminal), tested with its variant's rules
    /// (attacks, check, legal moves, beams) where cqlq plays them, else as it is. A position of
    /// another variant never matches.
    #[must_use]
    pub fn matches(&self, position: &AnyPosition) -> bool {
        if position.variant() != self.variant() {
            return false;
        }
        match with_rules(self.variant(), Alone { plan: self, position, moves: &[] }) {
            Ok(explained) => explained.is_ok_and(|explained| explained.matches),
            // Tested as it is.
            Err(_) => crate::each_position!(position, p => as_it_is(self, p).unwrap_or(false)),
        }
    }
}

/// Plays `moves` (in the variant's own notation: SAN, Laser Algebraic Notation) from
/// `position`, then draws the position reached and tests the plan on it; or says which move
/// could not be played, and why.
pub fn explain_position(plan: &Plan, position: &AnyPosition, moves: &[&str]) -> Result<ExplainedPosition, String> {
    let variant = position.variant();
    if variant != plan.variant() {
        return Err(format!("the position is of {}, the query of {}", variant.name, plan.variant().name));
    }
    match with_rules(variant, Alone { plan, position, moves }) {
        Ok(explained) => explained,
        Err(_) => {
            if let Some(first) = moves.first() {
                return Err(format!("move 1 '{first}': cqlq does not play the moves of {} games", variant.name));
            }
            crate::each_position!(position, p => shown_as_it_is(plan, p))
        }
    }
}

/// A position that stands alone, with the moves to play from it, and the plan to test.
struct Alone<'a> {
    plan: &'a Plan,
    position: &'a AnyPosition,
    moves: &'a [&'a str],
}

impl WithRules for Alone<'_> {
    type Output = Result<ExplainedPosition, String>;

    fn run<R: GameRules<W>, const W: usize>(self, typed: Typed<W>) -> Self::Output {
        let program = (typed.program)(self.plan).ok_or("the position's board is not the query's")?;
        let position = (typed.position)(self.position).ok_or("the position's board is not the query's")?;
        let board = match R::from_position(position) {
            Ok(board) => board,
            // A setup no game can reach (a piece where it may not stand) is tested as it is.
            Err(_) if self.moves.is_empty() => return shown_as_it_is_with(program, position),
            Err(error) => return Err(error),
        };
        explain_with(program, board, self.moves)
    }
}

/// Plays the moves on a board of a rule set, then writes, draws and tests the position reached.
fn explain_with<R: GameRules<W>, const W: usize>(
    program: &Program<W>,
    mut board: R,
    moves: &[&str],
) -> Result<ExplainedPosition, String> {
    for (index, token) in moves.iter().enumerate() {
        let mut reason = None;
        board.play_token(token.as_bytes(), &mut reason).map_err(|kind| {
            let error = reason.unwrap_or(MoveError { kind, reason: None });
            format!("move {} '{token}': {error}", index + 1)
        })?;
    }
    let mut written = String::new();
    board.write_position(&mut written);
    Ok(ExplainedPosition { written: Some(written), drawing: board.draw(), matches: program.matches(&board) })
}

/// Whether the plan matches a position tested as it is, without rules.
fn as_it_is<const W: usize>(plan: &Plan, position: &Position<W>) -> Option<bool>
where
    Program<W>: FromPlan,
{
    plan.program::<W>().map(|program| program.matches(position))
}

/// A position shown and tested as it is, without rules.
fn shown_as_it_is<const W: usize>(plan: &Plan, position: &Position<W>) -> Result<ExplainedPosition, String>
where
    Program<W>: FromPlan,
    Position<W>: FromAny,
{
    let program = plan.program::<W>().ok_or("the position's board is not the query's")?;
    shown_as_it_is_with(program, position)
}

fn shown_as_it_is_with<const W: usize>(
    program: &Program<W>,
    position: &Position<W>,
) -> Result<ExplainedPosition, String> {
    Ok(ExplainedPosition {
        written: None,
        drawing: drawing::draw(position, |_| None),
        matches: program.matches(position),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::AnyPosition;
    use crate::{Query, Variant};

    fn explain(variant: &str, query: &str, moves: &[&str]) -> Result<ExplainedPosition, String> {
        let variant = Variant::by_name(variant).unwrap();
        let plan = Query::parse(query).unwrap().compile(variant).unwrap();
        explain_position(&plan, &AnyPosition::initial(variant), moves)
    }

    #[test]
    fn a_laser_position_is_played_on_drawn_with_its_beams_and_tested() {
        let explained = explain("Laser Chess", "nextbeam & j8", &["j4j3"]).unwrap();
        assert!(explained.written.as_deref().is_some_and(|written| written.ends_with(" b")));
        assert!(explained.drawing.starts_with("Blue's laser on j1 fired last: "), "{}", explained.drawing);
        assert!(explained.drawing.contains("\nRed's laser on a8 fires next: "), "{}", explained.drawing);
        assert!(!explained.matches);
        // Blue's first shot leaves the board after g1 (laser.md's worked example).
        assert!(explain("Laser Chess", "beam & g1", &["j4j3"]).unwrap().matches);
        let error = explain("Laser Chess", "beam", &["j4j3", "j3j2", "a5a4"]).unwrap_err();
        assert!(error.starts_with("move 2 'j3j2': illegal move: "), "{error}");
    }
}
