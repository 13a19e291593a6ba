//! Programs of plain piece tests, tested without walking the plan's nodes.
//!
//! Most queries people write first are a few designators and counts: `Ra-h7 ka-h8`,
//! `#P == 8 and #p <= 5`, `light B == 0 and B`. When every filter of a program is of that kind
//! (pieces of some classes on a mask, present or absent, or their number compared with a
//! constant), the program keeps them as a flat list of [`Quick`] tests, and a position is
//! tested by going down the list.

use super::ast::BinaryOp;
use super::plan::{FilterNode, NumberNode, PieceClass, SetNode, compare};
use crate::board::SquareSet;
use crate::position::PositionView;
use crate::variant::{Color, KindSet, Piece};

/// A test of the pieces of some classes on a mask.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Quick<const W: usize> {
    /// Whether a piece of the class stands on the mask (`present`), or none does.
    Present { class: Class, squares: SquareSet<W>, present: bool },
    /// How many pieces of the class stand on the mask, compared with `value`.
    Count { class: Class, squares: SquareSet<W>, op: BinaryOp, value: i64 },
}

/// The pieces a quick test looks at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// One kind of one colour.
    One(Piece),
    /// Some kinds of each colour.
    Kinds(Vec<(Color, KindSet)>),
}

impl Class {
    #[inline]
    fn squares<const W: usize>(&self, view: &impl PositionView<W>) -> SquareSet<W> {
        match self {
            Class::One(piece) => view.kind(piece.kind) & view.color(piece.color),
            Class::Kinds(classes) => {
                classes.iter().fold(SquareSet::EMPTY, |pieces, &(color, kinds)| pieces | view.pieces(color, kinds))
            }
        }
    }
}

impl<const W: usize> Quick<W> {
    /// Whether the position passes the test.
    #[inline]
    pub(crate) fn passes(&self, view: &impl PositionView<W>) -> bool {
        match self {
            Quick::Present { class, squares, present } => (class.squares(view) & *squares).any() == *present,
            Quick::Count { class, squares, op, value } => {
                compare(*op, (class.squares(view) & *squares).count() as i64, *value)
            }
        }
    }
}

/// The filters as a list of quick tests, when all of them are plain piece tests (a chain of
/// `and` counts as its filters).
pub(crate) fn quick_tests<const W: usize>(filters: &[FilterNode<W>]) -> Option<Vec<Quick<W>>> {
    let mut tests = Vec::new();
    for filter in filters {
        add(filter, &mut tests)?;
    }
    (!tests.is_empty()).then_some(tests)
}

fn add<const W: usize>(filter: &FilterNode<W>, tests: &mut Vec<Quick<W>>) -> Option<()> {
    let present = |filter: &FilterNode<W>, present: bool| match filter {
        FilterNode::PieceOn { piece, squares } => {
            Some(Quick::Present { class: Class::One(*piece), squares: *squares, present })
        }
        FilterNode::HasSquare(set) => {
            let (class, squares) = pieces(set)?;
            Some(Quick::Present { class, squares, present })
        }
        _ => None,
    };
    match filter {
        FilterNode::All(filters) => {
            for filter in filters {
                add(filter, tests)?;
            }
        }
        FilterNode::Not(inner) => tests.push(present(inner, false)?),
        FilterNode::Compare(op, NumberNode::Count(set), NumberNode::Constant(value)) => {
            let (class, squares) = pieces(set)?;
            tests.push(Quick::Count { class, squares, op: *op, value: *value });
        }
        filter => tests.push(present(filter, true)?),
    }
    Some(())
}

/// The pieces and the mask of a set of pieces on the board (no backhand, no empty squares,
/// no level).
fn pieces<const W: usize>(set: &SetNode<W>) -> Option<(Class, SquareSet<W>)> {
    let SetNode::Pieces { classes, empty: false, squares, backhand: false } = set else { return None };
    if classes.iter().any(|class| class.level.is_some()) {
        return None;
    }
    let class = match classes.as_slice() {
        [PieceClass { color, kinds, .. }] if kinds.iter().count() == 1 => {
            Class::One(Piece { kind: kinds.iter().next()?, color: *color })
        }
        classes => Class::Kinds(classes.iter().map(|class| (class.color, class.kinds)).collect()),
    };
    Some((class, *squares))
}

#[cfg(test)]
mod tests {
    use crate::notation::fen;
    use crate::{Position, Query, Variant};

    /// Programs of plain piece tests answer as the same tests walked node by node (a `true`
    /// among them keeps a program off the quick list).
    #[test]
    fn quick_tests_answer_as_the_plan_does() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "6k1/R7/8/8/2b5/8/5PPP/4K1B1 w - - 0 1",
            "r5k1/pp3ppp/8/3b4/8/8/PPP5/4K3 b - - 0 1",
        ];
        let queries = [
            "Ra-h7 ka-h8",
            "#P == 8 and #p <= 5",
            "light B == 0 and B",
            "not [QR] #[Pp] > 4",
            "dark b #(A) >= 3",
            "#[Bb] < 2 or K",
        ];
        let plan = |text: &str| Query::parse(text).unwrap().compile(Variant::standard()).unwrap();
        let (mut matched, mut quick) = (0, 0);
        for query in queries {
            let fast = plan(query);
            quick += usize::from(fast.program::<1>().unwrap().quick.is_some());
            let walked = plan(&format!("{query} true"));
            assert!(walked.program::<1>().unwrap().quick.is_none());
            for fen in fens {
                let position = Position::from_setup(fen::read::<1>(Variant::standard(), fen).unwrap()).unwrap().into();
                let matches = fast.matches(&position);
                assert_eq!(matches, walked.matches(&position), "{query} at {fen}");
                matched += usize::from(matches);
            }
        }
        assert_eq!(quick, queries.len() - 1, "all but the `or` are quick");
        assert!(matched > 0 && matched < queries.len() * fens.len(), "the positions tell the answers apart");
    }
}
