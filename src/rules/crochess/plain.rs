//! The commonest move, one plain ply ([`PlainPly`]: a piece, its start, its destination, a
//! capture at most), played without the general play's plies, records and journal: it is
//! checked in full before the board changes, so that nothing needs undoing. A move it cannot
//! play is left to the general play, which plays it or says why; in builds with debug
//! assertions every move it plays is played by the general play too, and the two must agree.

use super::board::CroatianBoard;
use super::paths::Wanted;
use super::play::{Played, landing_takes};
use crate::board::SquareSet;
use crate::notation::crochess::dialect::Figure;
use crate::notation::crochess::moves::SideEffect;
use crate::notation::crochess::plain::PlainPly;
use crate::position::{Mark, MoveFacts};
use crate::variant::croatian;

/// The side effect of a plain ply that captures.
const CAPTURE: SideEffect = SideEffect::Capture { piece: None, lost: None, promotion: None };

impl<const W: usize> CroatianBoard<W> {
    /// Plays a plain ply, or gives `None` (the board unchanged) where the move fails or asks
    /// for more than a plain ply does.
    pub(super) fn play_plain(&mut self, ply: &PlainPly) -> Option<Played<W>> {
        let color = self.setup.turn;
        let figure = ply.piece.unwrap_or(Figure::Pawn);
        let destination = self.field(ply.destination)?;
        let effect = ply.capture.then_some(&CAPTURE);
        let wanted = Wanted { figure, color, start: ply.start, through: &[], destination, effect, goes_on: false };
        let origin = if ply.start.is_field() {
            let origin = self.field(ply.start)?;
            let (piece, found) = self.figure_at(origin)?;
            let own = piece.color == color || figure == Figure::Monolith;
            (found == figure && own && self.reaches(&wanted, origin)).then_some(origin)?
        } else {
            self.only_origin(&wanted)?
        };
        if origin == destination {
            return None;
        }
        let (mover, _) = self.figure_at(origin)?;
        // A capture takes what stands there; a landing takes an enemy piece, but for a King or
        // a celestial body.
        let taken = match self.figure_at(destination) {
            None if ply.capture => return None,
            None => None,
            Some((piece, _)) if ply.capture => Some(piece),
            Some((piece, found)) if landing_takes(piece, found, color) => Some(piece),
            Some(_) => return None,
        };
        let rushed_before = self.setup.board.marked(Mark::RUSHED);
        self.setup.board.take(origin);
        if let Some(piece) = taken {
            self.setup.board.take(destination);
            self.setup.backhand.add(piece);
        }
        self.setup.board.put(destination, mover);
        let mut facts = MoveFacts::new(Some(origin), destination, mover);
        if let Some(piece) = taken {
            facts = facts.capturing(destination, piece);
        }
        let mut rushed = SquareSet::EMPTY;
        if figure.is_private() && self.rushes(origin, destination, color) {
            rushed.add(destination);
            facts = facts.acting(croatian::RUSH);
        }
        let momentum = self.momentum(figure, &[origin], origin, destination);
        self.finish_move(color, rushed_before, rushed, momentum);
        Some(Played { facts, removed: SquareSet::EMPTY, displaced: None })
    }
}

/// Whether two plays of a move left the same board and told the same of the move.
#[cfg(debug_assertions)]
pub(super) fn same_play<const W: usize>(
    (plain, plain_played): (&CroatianBoard<W>, &Played<W>),
    (general, general_played): (&CroatianBoard<W>, &Played<W>),
) -> bool {
    plain.setup() == general.setup()
        && plain_played.facts == general_played.facts
        && plain_played.removed == general_played.removed
        && plain_played.displaced == general_played.displaced
}
