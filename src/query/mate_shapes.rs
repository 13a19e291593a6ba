//! The mates and stalemates of problem chess, as CQL 6.2 finds them: `puremate`, `modelmate`,
//! `idealmate` and their stalemate twins. The side to move is mated (or stalemated); the other
//! is the side that mates. Each is a set: the pieces that take part, empty when the position is
//! no such mate.
//!
//! A mate is pure when each square around the mated king that it could go to is denied once
//! only (a line piece that checks guards the square behind the king too), the mated side's own
//! pieces around its king are not guarded (unless the one guard pins a piece that could
//! otherwise take the checker or block the check), and each checker of a double check is
//! needed (another piece could answer the other check alone). A pure mate is a model mate when
//! every piece of the mating side but its king and pawns takes part, an ideal mate when every
//! piece of both sides does. The stalemates follow the same pattern around the stalemated king.

use super::ast::MateShape;
use crate::board::{Masks, Square, SquareSet};
use crate::position::RulesView;
use crate::variant::{Color, KindSet};

/// A mate shape test, with the variant's pieces it needs to know.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MateShapeNode {
    /// Which shape.
    pub shape: MateShape,
    /// A stalemate rather than a mate.
    pub stalemate: bool,
    /// The kings.
    pub king: KindSet,
    /// The pieces that see along files and ranks, and along diagonals.
    pub orthogonal: KindSet,
    /// See `orthogonal`.
    pub diagonal: KindSet,
    /// The mating side's pieces that must all take part in a model mate: all but king and pawns.
    pub officers: KindSet,
}

/// One position as a mate shape sees it.
struct Board<'a, P, const W: usize> {
    view: &'a P,
    masks: &'a Masks<W>,
    node: &'a MateShapeNode,
    /// The side mated (to move), and the side that mates.
    mated: Color,
    mating: Color,
    /// The mated king's square, and the squares it attacks (its field).
    king: Square,
    field: SquareSet<W>,
    /// The pinned pieces of both sides, and each pin as its pinner and pinned piece.
    pinned: SquareSet<W>,
    pinners: Vec<(Square, Square)>,
    /// The pieces that see along files and ranks, and along diagonals.
    orthogonal: SquareSet<W>,
    diagonal: SquareSet<W>,
}

impl MateShapeNode {
    /// The pieces taking part when the position is a mate (or stalemate) of this shape.
    pub(super) fn participants<P: RulesView<W>, const W: usize>(&self, view: &P, masks: &Masks<W>) -> SquareSet<W> {
        let mated = view.turn();
        let mating = mated.other();
        let kings = view.pieces(mated, self.king);
        let Some(king) = kings.iter().next() else { return SquareSet::EMPTY };
        let ended = if self.stalemate { view.is_stalemate() } else { view.is_mate() };
        if kings.count() != 1 || !ended {
            return SquareSet::EMPTY;
        }
        let all_kings = kings | view.pieces(mating, self.king);
        let (mut pinned, mut pinners) = (SquareSet::EMPTY, Vec::new());
        view.pins(all_kings, &mut |pinner, piece, _| {
            pinned.add(piece);
            pinners.push((pinner, piece));
        });
        let seers = |kinds: KindSet| kinds.iter().fold(SquareSet::EMPTY, |found, kind| found | view.kind(kind));
        let board = Board {
            view,
            masks,
            mated,
            mating,
            king,
            field: view.attacks_from(king),
            pinned,
            pinners,
            orthogonal: seers(self.orthogonal),
            diagonal: seers(self.diagonal),
            node: self,
        };
        let found = if self.stalemate { board.stalemate() } else { board.mate() };
        found.unwrap_or(SquareSet::EMPTY)
    }
}

impl<P: RulesView<W>, const W: usize> Board<'_, P, W> {
    fn side(&self, color: Color) -> SquareSet<W> {
        self.view.color(color)
    }

    /// The pieces of `from` that attack `square`.
    fn attackers(&self, from: SquareSet<W>, square: Square) -> SquareSet<W> {
        from.iter().filter(|&piece| self.view.attacks_from(piece).contains(square)).collect()
    }

    /// The mating pieces that deny `square` to the mated king: those that attack it, and the
    /// line pieces that would see it through the king.
    fn guards(&self, square: Square) -> SquareSet<W> {
        let mating = self.side(self.mating);
        let mut guards = self.attackers(mating, square);
        for piece in mating.iter() {
            if self.sees_through(piece, self.king, SquareSet::from_square(square)) {
                guards.add(piece);
            }
        }
        guards
    }

    /// Whether the line piece on `piece` looks along a line, meets the piece on `middle` first,
    /// and beyond it sees a square of `last` (up to and including the next piece).
    fn sees_through(&self, piece: Square, middle: Square, last: SquareSet<W>) -> bool {
        let (from, to) = (self.masks.place(piece), self.masks.place(middle));
        let (files, ranks) = (to.0 - from.0, to.1 - from.1);
        let diagonal = files.abs() == ranks.abs() && files != 0;
        let orthogonal = (files == 0) != (ranks == 0);
        let sees = (orthogonal && self.orthogonal.contains(piece)) || (diagonal && self.diagonal.contains(piece));
        if !sees || self.masks.between(piece, middle).intersects(self.view.occupied()) {
            return false;
        }
        let mut at = SquareSet::from_square(middle);
        loop {
            at = self.masks.translate(at, files.signum(), ranks.signum());
            let Some(square) = at.first() else { return false };
            if last.contains(square) {
                return true;
            }
            if self.view.occupied().contains(square) {
                return false;
            }
        }
    }

    /// The pieces of `from` (line pieces) that see through `middle` to a square of `last`.
    fn any_sees_through(&self, from: SquareSet<W>, middle: Square, last: SquareSet<W>) -> bool {
        from.iter().any(|piece| self.sees_through(piece, middle, last))
    }

    /// The squares between the pieces of `set` and the mated king.
    fn between_king(&self, set: SquareSet<W>) -> SquareSet<W> {
        set.iter().fold(SquareSet::EMPTY, |between, square| between | self.masks.between(square, self.king))
    }

    /// The pieces of the mated side with a pseudo-legal move to a square of `to`.
    fn movers_to(&self, to: SquareSet<W>) -> SquareSet<W> {
        let mut moves = Vec::new();
        self.view.moves_within(true, None, Some(to), &mut moves);
        moves.iter().filter_map(|facts| facts.from()).collect()
    }

    fn mate(&self) -> Option<SquareSet<W>> {
        let (mated, mating) = (self.side(self.mated), self.side(self.mating));
        let checkers = self.attackers(mating, self.king);
        let single = checkers.count() == 1;
        for square in (self.field - mated).iter() {
            if self.guards(square).count() != 1 {
                return None;
            }
        }
        for blocker in (self.field & mated).iter() {
            let guards = self.guards(blocker).count();
            let excused = single && guards == 1 && self.pinned.contains(blocker) && {
                let answers = checkers | self.between_king(checkers);
                let mut moves = Vec::new();
                self.view.moves_within(true, Some(SquareSet::from_square(blocker)), None, &mut moves);
                moves.iter().any(|facts| answers.contains(facts.to()) || facts.is_en_passant())
            };
            if guards != 0 && !excused {
                return None;
            }
        }
        if !single {
            let free = (mated - self.pinned).without(self.king);
            for checker in checkers.iter() {
                let others = checkers.without(checker);
                let answers = others | self.between_king(others);
                if !free.iter().any(|piece| self.view.attacks_from(piece).intersects(answers)) {
                    return None;
                }
            }
        }
        let answers = self.view.pieces(self.mating, self.node.king) | checkers | self.between_king(checkers);
        let refuters = self.movers_to(answers) & mated;
        let attackers: SquareSet<W> = mating
            .iter()
            .filter(|&piece| {
                checkers.contains(piece)
                    || self.view.attacks_from(piece).intersects(self.field)
                    || self.pinned.contains(piece)
                    || single
                        && self.pinners.iter().any(|&(pinner, pinned)| pinner == piece && refuters.contains(pinned))
                    || single && self.any_sees_through(refuters, piece, answers)
            })
            .collect();
        let mating_king = self.view.pieces(self.mating, self.node.king);
        let defenders: SquareSet<W> = mated
            .iter()
            .filter(|&piece| {
                piece == self.king
                    || self.field.contains(piece)
                    || self.any_sees_through(mated, piece, mating_king)
                    || single && self.any_sees_through(mated, piece, answers)
            })
            .collect();
        self.shaped(attackers, defenders, defenders == mated)
    }

    fn stalemate(&self) -> Option<SquareSet<W>> {
        let (mated, mating) = (self.side(self.mated), self.side(self.mating));
        for square in (self.field - mated).iter() {
            if self.attackers(mating, square).count() != 1 {
                return None;
            }
        }
        for blocker in (self.field & mated).iter() {
            let wanted = usize::from(self.pinned.contains(blocker));
            if self.attackers(mating, blocker).count() != wanted {
                return None;
            }
        }
        let pinning: SquareSet<W> = self.pinners.iter().map(|&(pinner, _)| pinner).collect();
        let attackers = (mating & self.pinned)
            | (mating & pinning)
            | mating.iter().filter(|&piece| self.view.attacks_from(piece).intersects(self.field)).collect();
        self.shaped(attackers, mated, true)
    }

    /// The participants when the pure mate has the shape asked for: the mating side's pieces
    /// that take part and the mated side's.
    fn shaped(&self, attackers: SquareSet<W>, defenders: SquareSet<W>, all_defenders: bool) -> Option<SquareSet<W>> {
        let mating = self.side(self.mating);
        let fits = match self.node.shape {
            MateShape::Pure => true,
            MateShape::Model => self.view.pieces(self.mating, self.node.officers).is_subset(attackers),
            MateShape::Ideal => attackers == mating && all_defenders,
        };
        fits.then_some(attackers | defenders)
    }
}
