//! Cheaper nodes of the same meaning, put in place once a program is compiled and every
//! transform has made its copies (so that the masks folded here are final):
//!
//! - a count compared with 0 or 1 is a test of whether its set is empty (`light B == 0`,
//!   `#N > 0`);
//! - the light or the dark squares of a set of pieces or squares are part of its mask
//!   (`light B` is the bishops on a mask of the light squares);
//! - a set tested for squares takes the cheapest form that says so ([`set_filter`]).

use super::ast::BinaryOp;
use super::compile::set_filter;
use super::plan::{FilterNode, NumberNode, SetNode};
use super::walk::Walk;
use crate::board::Masks;
use crate::variant::KindSet;

/// Rewrites the filters of `node` into cheaper ones of the same meaning.
pub(super) fn simplify<const W: usize>(node: &mut dyn Walk<W>, masks: &Masks<W>) {
    node.each_filter(&mut |filter| {
        let taken = std::mem::replace(filter, FilterNode::Constant(true));
        *filter = cheaper(taken, masks);
    });
}

fn cheaper<const W: usize>(filter: FilterNode<W>, masks: &Masks<W>) -> FilterNode<W> {
    match filter {
        FilterNode::Compare(op, left, right) => match (left, right) {
            (NumberNode::Count(set), NumberNode::Constant(value)) => count_against(set, op, value, masks),
            (NumberNode::Constant(value), NumberNode::Count(set)) => count_against(set, mirrored(op), value, masks),
            (left, right) => FilterNode::Compare(op, left, right),
        },
        FilterNode::HasSquare(set) => set_filter(folded(set, masks)),
        filter => filter,
    }
}

/// `count op value`, as a test of whether the set is empty where the comparison says no more
/// than that (a count is never negative), else as it is.
fn count_against<const W: usize>(set: SetNode<W>, op: BinaryOp, value: i64, masks: &Masks<W>) -> FilterNode<W> {
    let not_empty = match (op, value) {
        (BinaryOp::Eq | BinaryOp::Le, 0) | (BinaryOp::Lt, 1) => false,
        (BinaryOp::Ne | BinaryOp::Gt, 0) | (BinaryOp::Ge, 1) => true,
        _ => return FilterNode::Compare(op, NumberNode::Count(set), NumberNode::Constant(value)),
    };
    let test = set_filter(folded(set, masks));
    if not_empty { test } else { FilterNode::Not(Box::new(test)) }
}

/// The comparison with its sides swapped (`a < b` is `b > a`).
fn mirrored(op: BinaryOp) -> BinaryOp {
    match op {
        BinaryOp::Lt => BinaryOp::Gt,
        BinaryOp::Le => BinaryOp::Ge,
        BinaryOp::Gt => BinaryOp::Lt,
        BinaryOp::Ge => BinaryOp::Le,
        op => op,
    }
}

/// The set with the shade of a set of pieces or squares folded into its mask.
fn folded<const W: usize>(set: SetNode<W>, masks: &Masks<W>) -> SetNode<W> {
    let SetNode::Shade { light, set: inner } = set else { return set };
    let shade = if light { masks.light() } else { masks.dark() };
    match *inner {
        // The shade keeps the board's squares only, never the backhand.
        SetNode::Pieces { classes, empty, squares, .. } => {
            SetNode::Pieces { classes, empty, squares: squares & shade, backhand: false }
        }
        SetNode::Squares { squares, .. } => {
            SetNode::Squares { squares: squares & shade, backhand: [KindSet::EMPTY; 2] }
        }
        inner => SetNode::Shade { light, set: Box::new(inner) },
    }
}

#[cfg(test)]
mod tests {
    use crate::notation::fen;
    use crate::{Position, Query, Variant};

    /// Counts compared with 0 and 1, and shades of piece sets, answer as the same filters
    /// written so that they are not rewritten (`+ 0` keeps a count a sum).
    #[test]
    fn rewritten_filters_answer_as_the_filters_written() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "4k3/8/8/8/2b5/8/8/4K1B1 w - - 0 1",
            "4k3/8/8/3b4/8/8/8/4K3 b - - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        ];
        let counts = ["light B", "dark b", "[Bb]", "light [a-d1-4]", "dark [a-h1]"];
        let comparisons =
            ["# == 0", "# <= 0", "# < 1", "# != 0", "# > 0", "# >= 1", "0 == #", "1 > #", "0 < #", "1 <= #", "# == 1"];
        let plan = |text: &str| Query::parse(text).unwrap().compile(Variant::standard()).unwrap();
        let (mut matched, mut tried) = (0, 0);
        for fen in fens {
            let position = Position::from_setup(fen::read::<1>(Variant::standard(), fen).unwrap()).unwrap().into();
            for set in counts {
                for comparison in comparisons {
                    let rewritten = comparison.replace('#', &format!("#({set})"));
                    let written = comparison.replace('#', &format!("(#({set}) + 0)"));
                    let matches = plan(&rewritten).matches(&position);
                    assert_eq!(matches, plan(&written).matches(&position), "{rewritten} at {fen}");
                    matched += usize::from(matches);
                    tried += 1;
                }
                let shaded = plan(&format!("{set} and K")).matches(&position);
                assert_eq!(shaded, plan(&format!("#({set}) + 0 > 0 and K")).matches(&position), "{set} at {fen}");
            }
        }
        assert!(matched > 0 && matched < tried, "the positions tell the answers apart");
    }

    #[test]
    fn counts_against_0_and_1_become_tests_of_emptiness() {
        let program = Query::parse("light B == 0").unwrap().compile(Variant::standard()).unwrap();
        let text = format!("{:?}", program.program::<1>().unwrap().filters);
        assert!(text.starts_with("[Not(PieceOn"), "{text}");
    }
}
