//! Playing a turn as a record writes it ([`Turn`]): its squares found on the board, the move
//! checked and played, and what the record says the laser removed checked against the shot.

use super::board::{LaserBoard, Shot};
use super::moves::{IllegalLaserMove, LaserMove};
use crate::rules::laser::notation::{Action, SquareAt, Turn};

/// A turn that was played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Played {
    /// The move.
    pub m: LaserMove,
    /// Where the mover's beam went.
    pub shot: Shot,
    /// The beam removed a piece the record does not write (`x<square>` left out): the rules
    /// remove it anyway, and this says so.
    pub unwritten_removal: bool,
}

/// Why a turn of a record cannot be played as written; the board is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnError {
    /// A square of the turn is not on the board.
    OffBoard(SquareAt),
    /// The move breaks the rules.
    Illegal(IllegalLaserMove),
    /// The record says the beam removed a piece on a square, and the beam did not (what it
    /// did is in words).
    WrongRemoval {
        /// The square the record names.
        written: SquareAt,
        /// What the beam did.
        actual: String,
    },
}

impl TurnError {
    /// The reason in words, with the board's square names.
    #[must_use]
    pub fn describe(&self, board: &LaserBoard) -> String {
        match self {
            TurnError::OffBoard((file, rank)) => {
                format!("{}{} is not on the board, {}", file.char(), rank.number(), board.layout().geometry.describe())
            }
            TurnError::Illegal(illegal) => illegal.describe(board),
            TurnError::WrongRemoval { written: (file, rank), actual } => {
                format!("the record says the beam removes the piece on {}{}, but {actual}", file.char(), rank.number())
            }
        }
    }
}

impl LaserBoard {
    /// The square a record names, found on this board.
    pub fn square_of(&self, (file, rank): SquareAt) -> Result<u8, TurnError> {
        let square = self.layout().geometry.square(file, rank).ok_or(TurnError::OffBoard((file, rank)))?;
        Ok(square.index() as u8)
    }

    /// The name of a square, as a record writes it.
    #[must_use]
    pub fn name_of(&self, square: u8) -> SquareAt {
        let geometry = self.layout().geometry;
        let square = crate::board::Square::from_index(u16::from(square));
        (geometry.file_of(square), geometry.rank_of(square))
    }

    /// The turn a record writes for a move and the shot that followed it.
    #[must_use]
    pub fn turn_of(&self, m: LaserMove, shot: &Shot) -> Turn {
        let action = match m {
            LaserMove::Step { from, to } => Action::Step { from: self.name_of(from), to: self.name_of(to) },
            LaserMove::Swap { switch, with } => Action::Swap { switch: self.name_of(switch), with: self.name_of(with) },
            LaserMove::Rotate { square, clockwise } => Action::Rotate { square: self.name_of(square), clockwise },
        };
        Turn { action, victim: shot.hit.map(|(square, _)| self.name_of(square)) }
    }

    /// The move a turn names, its squares found on this board.
    pub fn move_of(&self, action: &Action) -> Result<LaserMove, TurnError> {
        Ok(match *action {
            Action::Step { from, to } => LaserMove::Step { from: self.square_of(from)?, to: self.square_of(to)? },
            Action::Swap { switch, with } => {
                LaserMove::Swap { switch: self.square_of(switch)?, with: self.square_of(with)? }
            }
            Action::Rotate { square, clockwise } => LaserMove::Rotate { square: self.square_of(square)?, clockwise },
        })
    }

    /// Plays a turn of a record and checks what it says the laser removed.
    pub fn play_turn(&mut self, turn: &Turn) -> Result<Played, TurnError> {
        let m = self.move_of(&turn.action)?;
        let written = match turn.victim {
            Some(at) => Some((at, self.square_of(at)?)),
            None => None,
        };
        self.check_move(m).map_err(TurnError::Illegal)?;
        self.arrange(m);
        let shot = self.aim(self.turn());
        let removed = shot.hit.map(|(square, _)| square);
        match written {
            Some((at, square)) if removed != Some(square) => {
                let actual = self.tell_shot(&shot);
                self.unarrange(m);
                return Err(TurnError::WrongRemoval { written: at, actual });
            }
            _ => {}
        }
        self.fire(shot);
        Ok(Played { m, shot, unwritten_removal: written.is_none() && removed.is_some() })
    }

    /// What a shot did, in words: the piece it removed, or where it ended.
    #[must_use]
    pub fn tell_shot(&self, shot: &Shot) -> String {
        let name = |square: u8| self.layout().name(square);
        match (shot.hit, shot.end) {
            (Some((square, piece)), _) => format!(
                "it removes {}'s {} on {}",
                self.layout().variant.players[piece.color.index()],
                piece.kind.name(),
                name(square)
            ),
            (None, None) => "it leaves the board at once, removing nothing".to_owned(),
            (None, Some(end)) if self.piece_at(end).is_some() => format!("it stops at {}, removing nothing", name(end)),
            (None, Some(end)) => format!("it leaves the board after {}, removing nothing", name(end)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    fn turn(text: &str) -> Turn {
        Turn::parse(text.as_bytes()).unwrap()
    }

    #[test]
    fn the_example_capture_of_the_notation_is_flagged() {
        let laser = Variant::by_name("Laser Chess").unwrap();
        let mut board = LaserBoard::initial(laser).unwrap();
        let error = board.play_turn(&turn("j4j3xg3")).unwrap_err();
        assert_eq!(
            error.describe(&board),
            "the record says the beam removes the piece on g3, but it leaves the board after g1, removing nothing"
        );
        // Unchanged, the board plays the turn as it is.
        assert_eq!(board, LaserBoard::initial(laser).unwrap());
        let played = board.play_turn(&turn("j4j3")).unwrap();
        assert!(played.shot.hit.is_none() && !played.unwritten_removal);
        let error = board.play_turn(&turn("k4k3")).unwrap_err();
        assert_eq!(error.describe(&board), "k4 is not on the board, 10x8 (files a-j, ranks 1-8)");
        let error = board.play_turn(&turn("a8a7")).unwrap_err();
        assert_eq!(error.describe(&board), "a laser never moves");
    }

    #[test]
    fn a_removal_the_record_leaves_out_is_made_and_told() {
        // Turned a quarter, Blue's Deflector on j5 sends the beam along rank 5 onto Red's King.
        let laser = Variant::by_name("Laser Chess").unwrap();
        let setup = crate::notation::laser::setup_notation::read::<2>(laser, "l++1K7/*/*/4k4B+++/*/*/*/9L").unwrap();
        let start = LaserBoard::from_setup(&setup).unwrap();
        assert_eq!(start.aim(crate::Color::White).hit, None);
        let mut board = start.clone();
        let played = board.play_turn(&turn("j5+")).unwrap();
        assert!(played.unwritten_removal);
        assert_eq!(start.tell_shot(&played.shot), "it removes Red's King on e5");
        assert_eq!(board.winner(), Some(crate::Color::White));
        let mut board = start.clone();
        let played = board.play_turn(&turn("j5+xe5")).unwrap();
        assert!(!played.unwritten_removal);
        let mut board = start;
        let error = board.play_turn(&turn("j5-xe5")).unwrap_err();
        assert_eq!(
            error.describe(&board),
            "the record says the beam removes the piece on e5, but it removes Blue's Deflector on j5"
        );
    }
}
