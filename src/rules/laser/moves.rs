//! The turns of Laser Chess: a step, a rotation or a Switch's swap, each followed by the
//! mover's shot; which are legal, and playing them.

use super::beam::LaserKind;
use super::board::{LaserBoard, Shot};

/// What a player does in a turn, before the laser fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LaserMove {
    /// A piece goes one square, in any of eight directions, onto an empty square.
    Step {
        /// Where it stands.
        from: u8,
        /// Where it goes.
        to: u8,
    },
    /// A piece (a laser too) turns a quarter turn.
    Rotate {
        /// Where it stands.
        square: u8,
        /// Clockwise (`+`), or the other way (`-`).
        clockwise: bool,
    },
    /// A Switch and a neighbouring Deflector or Defender, of either side, change places.
    Swap {
        /// The Switch's square.
        switch: u8,
        /// The other piece's square.
        with: u8,
    },
}

/// Why a turn cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalLaserMove {
    /// The game is over: a King was hit.
    GameOver,
    /// No piece of the side to move stands on the square.
    NotYours(u8),
    /// Lasers do not move.
    LaserMoves,
    /// The squares are not neighbours.
    NotAdjacent,
    /// A piece stands on the square gone to.
    Occupied(u8),
    /// The square is a laser's, or reserved for the other side.
    Barred(u8),
    /// Only a Switch swaps.
    NotASwitch(u8),
    /// A Switch swaps only with a Deflector or a Defender.
    CannotSwap(u8),
}

impl IllegalLaserMove {
    /// The reason in words, with the board's square names.
    #[must_use]
    pub fn describe(self, board: &LaserBoard) -> String {
        let name = |square| board.layout().name(square);
        match self {
            IllegalLaserMove::GameOver => "the game is over: a King was hit".to_owned(),
            IllegalLaserMove::NotYours(square) => format!("no piece of the side to move on {}", name(square)),
            IllegalLaserMove::LaserMoves => "a laser never moves".to_owned(),
            IllegalLaserMove::NotAdjacent => "a piece goes one square, to a neighbouring square".to_owned(),
            IllegalLaserMove::Occupied(square) => format!("{} is occupied", name(square)),
            IllegalLaserMove::Barred(square) if board.layout().lasers.contains(&square) => {
                format!("{} is a laser's square, where no other piece goes", name(square))
            }
            IllegalLaserMove::Barred(square) => {
                let other = board.layout().variant.players[board.turn().other().index()];
                format!("{} is reserved for {other}'s pieces", name(square))
            }
            IllegalLaserMove::NotASwitch(square) => format!("the piece on {} is no Switch", name(square)),
            IllegalLaserMove::CannotSwap(square) => match board.piece_at(square) {
                Some(piece) => format!(
                    "a Switch swaps only with a Deflector or a Defender, not with the {} on {}",
                    piece.kind.name(),
                    name(square)
                ),
                None => format!("a Switch swaps with a piece, and {} is empty", name(square)),
            },
        }
    }
}

/// The eight steps to a neighbouring square.
const NEIGHBOURS: [(i8, i8); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

impl LaserBoard {
    /// Whether a square neighbours another (in any of eight directions).
    fn neighbours(&self, a: u8, b: u8) -> bool {
        NEIGHBOURS.iter().any(|&step| self.layout().step(a, step) == Some(b))
    }

    /// Checks a turn against the position.
    pub fn check_move(&self, m: LaserMove) -> Result<(), IllegalLaserMove> {
        if self.winner().is_some() {
            return Err(IllegalLaserMove::GameOver);
        }
        let us = self.turn();
        let own = |square: u8| self.piece_at(square).filter(|piece| piece.color == us);
        let barred = |square: u8| self.layout().barred[us.index()] & (1u128 << square) != 0;
        match m {
            LaserMove::Step { from, to } => {
                let piece = own(from).ok_or(IllegalLaserMove::NotYours(from))?;
                if piece.kind == LaserKind::Laser {
                    return Err(IllegalLaserMove::LaserMoves);
                }
                if !self.neighbours(from, to) {
                    return Err(IllegalLaserMove::NotAdjacent);
                }
                // A laser's square is barred before it is occupied (by the laser).
                if barred(to) {
                    return Err(IllegalLaserMove::Barred(to));
                }
                if self.piece_at(to).is_some() {
                    return Err(IllegalLaserMove::Occupied(to));
                }
            }
            LaserMove::Rotate { square, .. } => {
                own(square).ok_or(IllegalLaserMove::NotYours(square))?;
            }
            LaserMove::Swap { switch, with } => {
                let piece = own(switch).ok_or(IllegalLaserMove::NotYours(switch))?;
                if piece.kind != LaserKind::Switch {
                    return Err(IllegalLaserMove::NotASwitch(switch));
                }
                if !self.neighbours(switch, with) {
                    return Err(IllegalLaserMove::NotAdjacent);
                }
                let other = self.piece_at(with).ok_or(IllegalLaserMove::CannotSwap(with))?;
                if !matches!(other.kind, LaserKind::Deflector | LaserKind::Defender) {
                    return Err(IllegalLaserMove::CannotSwap(with));
                }
                // Neither piece may land where its side may not stand.
                if barred(with) {
                    return Err(IllegalLaserMove::Barred(with));
                }
                if self.layout().barred[other.color.index()] & (1u128 << switch) != 0 {
                    return Err(IllegalLaserMove::Barred(switch));
                }
            }
        }
        Ok(())
    }

    /// Plays a turn: the move, then the mover's shot, which it gives. On an error the board is
    /// unchanged.
    pub fn play(&mut self, m: LaserMove) -> Result<Shot, IllegalLaserMove> {
        self.check_move(m)?;
        self.arrange(m);
        let shot = self.aim(self.turn());
        self.fire(shot);
        Ok(shot)
    }

    /// Moves the pieces as a checked turn does, before the laser fires.
    pub(super) fn arrange(&mut self, m: LaserMove) {
        match m {
            LaserMove::Step { from, to } => {
                if let Some(piece) = self.take(from) {
                    self.put(to, piece);
                }
            }
            LaserMove::Rotate { square, clockwise } => {
                if let Some(mut piece) = self.take(square) {
                    piece.orientation = (piece.orientation + if clockwise { 1 } else { 3 }) % 4;
                    self.put(square, piece);
                }
            }
            LaserMove::Swap { switch, with } => {
                if let (Some(a), Some(b)) = (self.take(switch), self.take(with)) {
                    self.put(with, a);
                    self.put(switch, b);
                }
            }
        }
    }

    /// Puts the pieces back as they stood before [`LaserBoard::arrange`] moved them.
    pub(super) fn unarrange(&mut self, m: LaserMove) {
        let back = match m {
            LaserMove::Step { from, to } => LaserMove::Step { from: to, to: from },
            LaserMove::Rotate { square, clockwise } => LaserMove::Rotate { square, clockwise: !clockwise },
            LaserMove::Swap { .. } => m,
        };
        self.arrange(back);
    }

    /// Every legal turn of the side to move, in a fixed order: by square, steps, rotations,
    /// then swaps.
    pub fn legal_turns(&self, moves: &mut Vec<LaserMove>) {
        moves.clear();
        if self.winner().is_some() {
            return;
        }
        let mut own = self.side(self.turn());
        while own != 0 {
            let square = own.trailing_zeros() as u8;
            own &= own - 1;
            let candidates = NEIGHBOURS
                .iter()
                .filter_map(|&step| self.layout().step(square, step))
                .map(|to| LaserMove::Step { from: square, to })
                .chain([true, false].map(|clockwise| LaserMove::Rotate { square, clockwise }))
                .chain(
                    NEIGHBOURS
                        .iter()
                        .filter_map(|&step| self.layout().step(square, step))
                        .map(|with| LaserMove::Swap { switch: square, with }),
                );
            moves.extend(candidates.filter(|&m| self.check_move(m).is_ok()));
        }
    }
}
