//! X-ray chains, `A -> B -> C` and `xray (A B C)`: a queen, rook or bishop on the first set
//! looks along one of its lines and meets a piece of each middle set in turn, nothing else in
//! between, then a square of the last set. An empty square of a middle set may count as met or
//! be passed over, as in CQL 6.2.

use super::context::Context;
use super::plan::{Program, XRayNode};
use crate::board::{Masks, SquareSet};
use crate::position::RulesView;
use crate::variant::KindSet;

/// The directions of files and ranks, then of diagonals.
const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The most sets of a chain whose values are kept on the stack.
const SHORT_CHAIN: usize = 8;

/// A chain's sets as they stand in one position, and who may start it.
struct Chain<'s, const W: usize> {
    masks: &'s Masks<W>,
    occupied: SquareSet<W>,
    /// The pieces that see along files and ranks, and along diagonals.
    orthogonal: SquareSet<W>,
    diagonal: SquareSet<W>,
    first: SquareSet<W>,
    /// The middle sets, then the last.
    rest: &'s [SquareSet<W>],
}

impl<const W: usize> Program<W> {
    /// The squares of the first set (or of the last) of the chains that see through.
    pub(super) fn xray<P: RulesView<W>>(
        &self,
        node: &XRayNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> SquareSet<W> {
        let view = &context.frames[at].position;
        let mut short = [SquareSet::EMPTY; SHORT_CHAIN];
        let long: Vec<SquareSet<W>>;
        let sets = if node.sets.len() <= SHORT_CHAIN {
            for (value, set) in short.iter_mut().zip(&node.sets) {
                *value = self.squares(set, context, at);
            }
            &short[..node.sets.len()]
        } else {
            long = node.sets.iter().map(|set| self.squares(set, context, at)).collect();
            &long
        };
        let Some((&first, rest)) = sets.split_first() else { return SquareSet::EMPTY };
        if rest.is_empty() || rest.iter().any(SquareSet::is_empty) {
            // Every set after the first must be met on a square of its own.
            return SquareSet::EMPTY;
        }
        let seers = |kinds: KindSet| kinds.iter().fold(SquareSet::EMPTY, |found, kind| found | view.kind(kind));
        let chain = Chain {
            masks: &self.masks,
            occupied: view.occupied(),
            orthogonal: seers(node.orthogonal),
            diagonal: seers(node.diagonal),
            first,
            rest,
        };
        let (firsts, lasts) =
            if rest.iter().all(|set| set.is_subset(chain.occupied)) { chain.through_pieces() } else { chain.walk() };
        if node.last { lasts } else { firsts }
    }
}

impl<const W: usize> Chain<'_, W> {
    /// The pieces that may start the chain.
    fn starts(&self) -> SquareSet<W> {
        self.first & self.occupied & (self.orthogonal | self.diagonal)
    }

    /// The chains when every middle and last square holds a piece (the usual case): a start
    /// sees a last square on a line it looks along, and the pieces between them are, in order,
    /// one of each middle set. Returns the starts and the last squares of the chains.
    fn through_pieces(&self) -> (SquareSet<W>, SquareSet<W>) {
        let (middle, last) = self.rest.split_at(self.rest.len() - 1);
        let (mut firsts, mut lasts) = (SquareSet::EMPTY, SquareSet::EMPTY);
        let starts = self.starts();
        // The last set is most often one square (a king): it goes round the outer loop.
        for target in last[0].iter() {
            for start in starts.iter() {
                let pieces = self.masks.between(start, target) & self.occupied;
                // Squares on no common line have none between them: most pairs end here, before
                // the pieces between are counted.
                let wrong_count = match middle.len() {
                    0 => pieces.any(),
                    len => pieces.is_empty() || pieces.count() != len,
                };
                if wrong_count {
                    continue;
                }
                let Some((across, up)) = self.masks.geometry().step_between(start, target) else { continue };
                let straight = across == 0 || up == 0;
                if !(if straight { self.orthogonal } else { self.diagonal }).contains(start) {
                    continue;
                }
                // Along a line the squares' indices run one way: the pieces nearest the start
                // come first when the target's index is the greater.
                let outward = target.index() > start.index();
                let in_order = pieces.iter().enumerate().all(|(nearer, square)| {
                    let stage = if outward { nearer } else { middle.len() - 1 - nearer };
                    middle[stage].contains(square)
                });
                if in_order {
                    firsts.add(start);
                    lasts.add(target);
                }
            }
        }
        (firsts, lasts)
    }

    /// The chains in general, square by square along each line of each start: every middle
    /// set met so far is a stage, and an empty square of a set both meets it and passes over.
    fn walk(&self) -> (SquareSet<W>, SquareSet<W>) {
        let rest = self.rest;
        let (mut firsts, mut lasts) = (SquareSet::EMPTY, SquareSet::EMPTY);
        // stages[k]: the chain has met the first k middle sets and goes on from this square.
        let mut stages = vec![false; rest.len()];
        let mut next = vec![false; rest.len()];
        for start in self.starts().iter() {
            let lines = [(self.orthogonal, &ORTHOGONAL), (self.diagonal, &DIAGONAL)];
            for (_, directions) in lines.into_iter().filter(|(seers, _)| seers.contains(start)) {
                for &(file_step, rank_step) in directions {
                    stages.fill(false);
                    stages[0] = true;
                    let (mut file, mut rank) = self.masks.place(start);
                    loop {
                        file += file_step;
                        rank += rank_step;
                        let Some(square) = self.masks.geometry().square_at(file, rank) else { break };
                        let empty = !self.occupied.contains(square);
                        next.fill(false);
                        for stage in (0..rest.len()).filter(|&stage| stages[stage]) {
                            if rest[stage].contains(square) {
                                match next.get_mut(stage + 1) {
                                    Some(later) => *later = true,
                                    None => {
                                        firsts.add(start);
                                        lasts.add(square);
                                    }
                                }
                            }
                            if empty {
                                next[stage] = true;
                            }
                        }
                        std::mem::swap(&mut stages, &mut next);
                        if !stages.contains(&true) {
                            break;
                        }
                    }
                }
            }
        }
        (firsts, lasts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Geometry, Width};
    use proptest::prelude::*;

    /// The chain whose sets each square's byte says it is in: bit 0 occupied, 1 a piece that
    /// sees along files and ranks, 2 along diagonals, 3 the first set, 4 up the later sets.
    /// Squares of the later sets all hold pieces, as [`Chain::through_pieces`] needs.
    fn both_ways<const W: usize>(geometry: Geometry, bytes: &[u8], later: usize) -> (usize, bool) {
        let masks = Masks::<W>::new(geometry).unwrap();
        let having = |bit: u8| {
            geometry.all_squares().zip(bytes).filter(move |&(_, byte)| byte & (1 << bit) != 0).map(|(square, _)| square)
        };
        let set = |bit: u8| having(bit).fold(SquareSet::<W>::EMPTY, SquareSet::with);
        let occupied = set(0);
        let rest: Vec<SquareSet<W>> = (0..later).map(|stage| set(4 + stage as u8) & occupied).collect();
        let chain = Chain {
            masks: &masks,
            occupied,
            orthogonal: set(1) & occupied,
            diagonal: set(2) & occupied,
            first: set(3),
            rest: &rest,
        };
        let walked = chain.walk();
        (walked.0.count(), chain.through_pieces() == walked)
    }

    proptest! {
        /// Where every middle and last square holds a piece, looking between the start and
        /// each last square finds the chains the square by square walk finds, on small boards
        /// and large ones.
        #[test]
        fn chains_through_pieces_are_those_the_walk_finds(
            shape in prop::sample::select(vec![(8u8, 8u8), (10, 8), (14, 14), (26, 26)]),
            later in 1usize..=4,
            sparse in any::<bool>(),
            mut bytes in prop::collection::vec(any::<u8>(), 676),
        ) {
            if sparse {
                // About one square in eight holds a piece, as late in a game: longer lines.
                for byte in &mut bytes {
                    if *byte >> 5 != 0 {
                        *byte &= !1;
                    }
                }
            }
            let geometry = Geometry::new(shape.0, shape.1).unwrap();
            let (_, same) = crate::with_width!(Width::of(geometry), W => both_ways::<W>(geometry, &bytes, later));
            prop_assert!(same);
        }
    }

    /// A rook sees the king through a knight: both ways find it.
    #[test]
    fn a_rook_sees_through_a_knight() {
        let geometry = Geometry::new(8, 8).unwrap();
        let mut bytes = vec![0u8; 64];
        // a1: a rook, starting the chain; a4: the knight; a8: the king.
        bytes[0] = 0b1011;
        bytes[24] = 0b1_0001;
        bytes[56] = 0b10_0001;
        assert_eq!(both_ways::<1>(geometry, &bytes, 2), (1, true));
        // A piece of neither set between them breaks the chain.
        bytes[40] = 0b1;
        assert_eq!(both_ways::<1>(geometry, &bytes, 2), (0, true));
    }
}
