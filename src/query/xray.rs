//! X-ray chains, `A -> B -> C` and `xray (A B C)`: a queen, rook or bishop on the first set
//! looks along one of its lines and meets a piece of each middle set in turn, nothing else in
//! between, then a square of the last set. An empty square of a middle set may count as met or
//! be passed over, as in CQL 6.2.

use super::context::Context;
use super::plan::{Program, XRayNode, coordinates};
use crate::board::SquareSet;
use crate::position::RulesView;

/// The directions of files and ranks, then of diagonals.
const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

impl<const W: usize> Program<W> {
    /// The squares of the first set (or of the last) of the chains that see through.
    pub(super) fn xray<P: RulesView<W>>(
        &self,
        node: &XRayNode<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> SquareSet<W> {
        let view = &context.frames[at].position;
        let sets: Vec<SquareSet<W>> = node.sets.iter().map(|set| self.squares(set, context, at)).collect();
        let occupied = view.occupied();
        let geometry = self.masks.geometry();
        let (mut firsts, mut lasts) = (SquareSet::EMPTY, SquareSet::EMPTY);
        let Some((first, rest)) = sets.split_first() else { return SquareSet::EMPTY };
        if rest.is_empty() {
            return SquareSet::EMPTY;
        }
        let seers =
            |kinds: crate::variant::KindSet| kinds.iter().fold(SquareSet::EMPTY, |found, kind| found | view.kind(kind));
        let (orthogonal, diagonal) = (seers(node.orthogonal), seers(node.diagonal));
        // stages[k]: the chain has met the first k middle sets and goes on from this square.
        let mut stages = vec![false; rest.len()];
        let mut next = vec![false; rest.len()];
        for start in (*first & occupied).iter() {
            let lines = [(orthogonal, &ORTHOGONAL), (diagonal, &DIAGONAL)];
            for (_, directions) in lines.into_iter().filter(|(seers, _)| seers.contains(start)) {
                for &(file_step, rank_step) in directions {
                    stages.fill(false);
                    stages[0] = true;
                    let (mut file, mut rank) = coordinates(geometry, start);
                    loop {
                        file += file_step;
                        rank += rank_step;
                        let Some(square) = geometry.square_at(file, rank) else { break };
                        let empty = !occupied.contains(square);
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
        if node.last { lasts } else { firsts }
    }
}
