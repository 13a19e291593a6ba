//! Programs of plain piece and move tests, tested without walking the plan's nodes.
//!
//! Most queries people write first are a few designators, counts and moves: `Ra-h7 ka-h8`,
//! `#P == 8 and #p <= 5`, `light B == 0 and B`, `move from K to g1`. When every filter of a
//! program is of that kind (pieces of some classes on a mask, present or absent, or their
//! number compared with a constant; a move made here, or the one that led here, told by its
//! facts alone, or none), the program keeps them as a flat list of [`Quick`] tests, and a
//! position is tested by going down the list. A program whose first filters only are of that
//! kind tests those first, the same way, and walks the nodes of the rest only where they pass.

use super::ast::BinaryOp;
use super::context::Context;
use super::plan::{FilterNode, MoveNode, NumberNode, PieceClass, Program, SetNode, compare};
use crate::board::SquareSet;
use crate::position::{PositionView, RulesView};
use crate::variant::{Color, KindSet, Piece};

/// A test of the pieces of some classes on a mask, or of the moves made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Quick<const W: usize> {
    /// Whether a piece of the class stands on the mask (`present`), or none does.
    Present { class: Class, squares: SquareSet<W>, present: bool },
    /// How many pieces of the class stand on the mask, compared with `value`.
    Count { class: Class, squares: SquareSet<W>, op: BinaryOp, value: i64 },
    /// Whether a move made fits the filter ([`MoveNode::told_by_a_move_made`]), or (not
    /// `present`) none does.
    Moved { node: Box<MoveNode<W>>, present: bool },
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
    /// Whether the position `at` passes the test.
    #[inline]
    fn passes<P: RulesView<W>>(&self, program: &Program<W>, context: &Context<'_, P, W>, at: usize) -> bool {
        let view = &context.frames[at].position;
        match self {
            Quick::Present { class, squares, present } => (class.squares(view) & *squares).any() == *present,
            Quick::Count { class, squares, op, value } => {
                compare(*op, (class.squares(view) & *squares).count() as i64, *value)
            }
            Quick::Moved { node, present } => program.some_move_made_fits(node, context, at) == *present,
        }
    }
}

/// The leading filters of a program that are plain piece tests, as quick tests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct QuickPrefix<const W: usize> {
    /// The tests, in the order of the filters they stand for.
    pub(crate) tests: Vec<Quick<W>>,
    /// How many of the program's filters the tests stand for: its first ones.
    pub(crate) filters: usize,
}

impl<const W: usize> QuickPrefix<W> {
    /// Whether the position `at` passes every test.
    #[inline]
    pub(crate) fn passes<P: RulesView<W>>(&self, program: &Program<W>, context: &Context<'_, P, W>, at: usize) -> bool {
        self.tests.iter().all(|test| test.passes(program, context, at))
    }
}

/// The leading filters that are plain piece tests (a chain of `and` counts as its filters),
/// as quick tests: up to the first filter that is not one.
pub(crate) fn quick_prefix<const W: usize>(filters: &[FilterNode<W>]) -> QuickPrefix<W> {
    let mut prefix = QuickPrefix::default();
    for filter in filters {
        let mut tests = Vec::new();
        if add(filter, &mut tests).is_none() {
            break;
        }
        prefix.tests.append(&mut tests);
        prefix.filters += 1;
    }
    prefix
}

fn add<const W: usize>(filter: &FilterNode<W>, tests: &mut Vec<Quick<W>>) -> Option<()> {
    let present = |filter: &FilterNode<W>, present: bool| match filter {
        FilterNode::PieceOn { piece, squares } => {
            Some(Quick::Present { class: Class::One(*piece), squares: *squares, present })
        }
        FilterNode::HasSquare(SetNode::Move(node)) | FilterNode::NotEmpty(SetNode::Move(node))
            if node.told_by_a_move_made() =>
        {
            Some(Quick::Moved { node: node.clone(), present })
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
    /// first keeps a program's tests off the quick list), and so do programs whose first
    /// filters only are such tests.
    #[test]
    fn quick_tests_answer_as_the_plan_does() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "6k1/R7/8/8/2b5/8/5PPP/4K1B1 w - - 0 1",
            "r5k1/pp3ppp/8/3b4/8/8/PPP5/4K3 b - - 0 1",
            "4k3/8/8/3n4/8/2N5/8/N3K3 w - - 0 1",
        ];
        // Each query, and how many of its filters are quick.
        let queries = [
            ("Ra-h7 ka-h8", 2),
            ("#P == 8 and #p <= 5", 1),
            ("light B == 0 and B", 1),
            ("not [QR] #[Pp] > 4", 2),
            ("dark b #(A) >= 3", 2),
            ("#[Bb] < 2 or K", 0),
            ("#N >= 2 piece all x in N x attacks a", 1),
            ("K a1 > 0 not k", 1),
            ("P check", 1),
            ("move from K to g1 not move previous capture a", 2),
            ("K move to . from [Qq] check", 2),
        ];
        let plan = |text: &str| Query::parse(text).unwrap().compile(Variant::standard()).unwrap();
        let mut matched = 0;
        for (query, quick) in queries {
            let fast = plan(query);
            assert_eq!(fast.program::<1>().unwrap().quick.filters, quick, "{query}");
            let walked = plan(&format!("true {query}"));
            assert_eq!(walked.program::<1>().unwrap().quick.filters, 0);
            for fen in fens {
                let position = Position::from_setup(fen::read::<1>(Variant::standard(), fen).unwrap()).unwrap().into();
                let matches = fast.matches(&position);
                assert_eq!(matches, walked.matches(&position), "{query} at {fen}");
                matched += usize::from(matches);
            }
        }
        assert!(matched > 0 && matched < queries.len() * fens.len(), "the positions tell the answers apart");
    }
}
