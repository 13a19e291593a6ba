//! Square loops whose body only narrows the loop's square (`square y in . {y attackedby R
//! y attackedby Q}`), worked out for all the loop's squares at once.
//!
//! Such a body is a set of filters each asking whether a set is not empty, where each set
//! takes the variable and keeps part of it, square by square: `y & T`, `y attackedby T`,
//! `y attacks T`, `light y`, with `T` holding no variable. For these, the squares that pass
//! are those each set keeps when the variable holds the whole loop set, with no loop at all.

use super::ast::AttackSide;
use super::context::Context;
use super::plan::{FilterNode, LoopNode, Program, SetNode, SetValue};
use super::state::Value;
use crate::board::SquareSet;
use crate::position::RulesView;

/// The body's filters, when each narrows the variable `slot` square by square.
fn narrowing_filters<const W: usize>(body: &FilterNode<W>, slot: usize) -> Option<&[FilterNode<W>]> {
    let filters = match body {
        FilterNode::All(filters) => filters.as_slice(),
        single => std::slice::from_ref(single),
    };
    let narrows = |filter: &FilterNode<W>| match filter {
        FilterNode::NotEmpty(set) | FilterNode::HasSquare(set) => narrows(set, slot),
        _ => false,
    };
    (!filters.is_empty() && filters.iter().all(narrows)).then_some(filters)
}

/// Whether the set keeps part of the variable `slot`, square by square.
fn narrows<const W: usize>(set: &SetNode<W>, slot: usize) -> bool {
    match set {
        SetNode::Variable(variable) => *variable == slot,
        SetNode::Intersection(left, right) => {
            (narrows(left, slot) && fixed(right)) || (fixed(left) && narrows(right, slot))
        }
        SetNode::Attacks { attackers, targets, side: AttackSide::Targets } => {
            narrows(targets, slot) && fixed(attackers)
        }
        SetNode::Attacks { attackers, targets, side: AttackSide::Attackers } => {
            narrows(attackers, slot) && fixed(targets)
        }
        SetNode::Shade { set, .. } => narrows(set, slot),
        _ => false,
    }
}

/// Whether the set depends only on the position (no variable, no other position).
fn fixed<const W: usize>(set: &SetNode<W>) -> bool {
    match set {
        SetNode::Squares { .. } | SetNode::Pieces { .. } => true,
        SetNode::Union(left, right) | SetNode::Intersection(left, right) => fixed(left) && fixed(right),
        SetNode::Attacks { attackers, targets, .. } => fixed(attackers) && fixed(targets),
        SetNode::Complement { set, .. } | SetNode::Shade { set, .. } => fixed(set),
        SetNode::Orbit(sets) => sets.iter().all(fixed),
        _ => false,
    }
}

impl<const W: usize> Program<W> {
    /// The squares of a square loop's set that pass its body, worked out at once where the body
    /// only narrows the variable; `None` for other loops.
    pub(super) fn narrowed_squares<P: RulesView<W>>(
        &self,
        node: &LoopNode<W>,
        squares: SquareSet<W>,
        context: &Context<'_, P, W>,
        at: usize,
    ) -> Option<SquareSet<W>> {
        let filters = narrowing_filters(&node.body, node.slot)?;
        let old = context.state.get(node.slot);
        context.state.set(node.slot, Value::Set(SetValue::board(squares)));
        let passed = filters.iter().fold(squares, |passed, filter| match filter {
            FilterNode::NotEmpty(set) | FilterNode::HasSquare(set) => passed & self.squares(set, context, at),
            _ => unreachable!("narrowing_filters keeps set tests only"),
        });
        context.state.set(node.slot, old);
        Some(passed)
    }
}

#[cfg(test)]
mod tests {
    use crate::notation::fen;
    use crate::{Position, Query, Variant};

    /// The loop worked out at once and the loop run square by square agree (the second query
    /// adds a filter that is not a set, which makes the loop run square by square).
    #[test]
    fn narrowed_loops_find_what_the_loop_finds() {
        let fens = [
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R b KQkq - 0 5",
            "3r2k1/5ppp/8/8/8/2Q5/5PPP/3R2K1 w - - 0 1",
            "4k3/8/8/3q4/8/8/3R4/3RK3 w - - 0 1",
        ];
        let pairs = [
            ("square y in . {y attackedby R  y attackedby Q}", "square y in . {y attackedby R  y attackedby Q  true}"),
            (
                "#(square y in [a-h1-4] {y & light  [RQ] attacks y}) >= 2",
                "#(square y in [a-h1-4] {y & light  [RQ] attacks y  true}) >= 2",
            ),
            ("square all y in R {y attacks a}", "square all y in R {y attacks a  true}"),
        ];
        let plan = |text: &str| Query::parse(text).unwrap().compile(Variant::standard()).unwrap();
        let mut found = 0;
        for fen in fens {
            let position = Position::from_setup(fen::read::<1>(Variant::standard(), fen).unwrap()).unwrap().into();
            for (narrowed, looped) in pairs {
                let matches = plan(narrowed).matches(&position);
                assert_eq!(matches, plan(looped).matches(&position), "{narrowed} at {fen}");
                found += usize::from(matches);
            }
        }
        assert!(found > 0 && found < fens.len() * pairs.len(), "the positions tell the loops apart");
    }
}
