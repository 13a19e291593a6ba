//! A position shown beside a query, for `cqlq explain`: played on by the rules of its family
//! where cqlq plays them, drawn with what those rules show of it, and tested with the query.

use std::any::Any;

use super::GameRules;
use super::classical::Board;
use super::laser::LaserBoard;
use crate::notation::MoveError;
use crate::position::{Position, PositionView, drawing};
use crate::query::Program;
use crate::variant::Family;

/// A position as `cqlq explain` shows it beside a query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplainedPosition {
    /// The position written as its variant writes positions (FEN; Setup Notation and the side
    /// to move), where cqlq plays the family's rules.
    pub written: Option<String>,
    /// The position drawn, with what its family's rules show of it (each laser's beam).
    pub drawing: String,
    /// Whether the query matches it, as a game of that one position.
    pub matches: bool,
}

/// Plays `moves` (in the family's own notation: SAN, Laser Algebraic Notation) from
/// `position`, then draws the position reached and tests `program` on it; or says which move
/// could not be played, and why.
pub fn explain_position<const W: usize>(
    program: &Program<W>,
    position: &Position<W>,
    moves: &[&str],
) -> Result<ExplainedPosition, String> {
    let (any_program, any_position) = (program as &dyn Any, position as &dyn Any);
    let family = position.variant().family;
    match family {
        Family::Classical => {
            if let (Some(program), Some(position)) =
                (any_program.downcast_ref::<Program<1>>(), any_position.downcast_ref::<Position<1>>())
            {
                return explain_with(program, Board::from_position(position), moves);
            }
        }
        Family::Laser => {
            if let Some(program) = any_program.downcast_ref::<Program<2>>() {
                let board = LaserBoard::from_setup(position.setup()).map_err(|error| error.to_string())?;
                return explain_with(program, board, moves);
            }
        }
        Family::Croatian | Family::ChessEvolved => {}
    }
    if let Some(first) = moves.first() {
        return Err(format!("move 1 '{first}': cqlq does not play the moves of {family:?} games"));
    }
    Ok(ExplainedPosition {
        written: None,
        drawing: drawing::draw(position, |_| None),
        matches: program.matches(position),
    })
}

/// [`explain_position`] on a board of a family whose rules cqlq plays.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Query, Variant};

    fn explain(variant: &str, query: &str, moves: &[&str]) -> Result<ExplainedPosition, String> {
        let variant = Variant::by_name(variant).unwrap();
        let plan = Query::parse(query).unwrap().compile(variant).unwrap();
        let position = Position::<2>::initial(variant);
        explain_position(plan.program::<2>().unwrap(), &position, moves)
    }

    #[test]
    fn a_laser_position_is_played_on_drawn_with_its_beams_and_tested() {
        let explained = explain("Laser Chess", "beam next & j8", &["j4j3"]).unwrap();
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
