//! The values CQL 6.2 refuses to test as filters: a number or a text written alone, a variable
//! alone (but for a set's), `white`, `black`, `sidetomove`, `typename`, `piecename`, `fen`
//! without its text, `readfile`, `str`, `min`, `max`, `abs`, `sqrt`, `distance`, `lca`, the
//! length of a text, `P & Q` of two positions, and two texts joined by `+` whose result is
//! dropped. CQL
//! accepts such a query and stops the run when it comes to test one (`false 1` runs, `check 1`
//! stops at the first check); cqlq does the same, and says why.

use super::ast::{BinaryOp, Expr, ExprKind, TagWord, TextFunction, Type, UnaryOp, Word};
use super::check::type_of;

/// Why `expr`, tested as a filter, stops the run; none for a filter that can be tested.
pub(super) fn refused_as_filter(expr: &Expr) -> Option<String> {
    let what = match &expr.kind {
        // `notransform F` tests F, and refuses what it refuses alone.
        ExprKind::NoTransform(body) => return refused_as_filter(body),
        ExprKind::Number(value) => format!("the number {value} alone is no test of a position"),
        ExprKind::Text(text) => format!("the text \"{text}\" alone is no test of a position: it always has its value"),
        ExprKind::Word(Word::White | Word::Black | Word::SideToMove) => {
            "'white', 'black' and 'sidetomove' are values (1 and -1), no tests: compare them, as in sidetomove == white"
                .to_owned()
        }
        ExprKind::Variable { name, ty: Type::Number | Type::Text } => {
            format!("the variable '{name}' alone is no test: its value is given, so it would always match")
        }
        ExprKind::Variable { name, ty: Type::Position } => {
            format!("the position variable '{name}' alone is no test: use its value, as in {name} : check")
        }
        ExprKind::TypeName(_) | ExprKind::PieceName(_) => {
            "typename and piecename give a text to use (compare it, as in typename e1 == \"K\"): alone they test nothing"
                .to_owned()
        }
        ExprKind::Word(Word::LastGameNumber) => "'lastgamenumber' invoked in a context where it is used for whether it \
                                                  matches, but this filter always matches. Do not ignore its numeric value"
            .to_owned(),
        ExprKind::Word(Word::CurrentTransform) => "'currenttransform' is the name of the transform being tried, which \
                                                   every copy has: compare it, as in currenttransform == \"<>\""
            .to_owned(),
        ExprKind::Word(Word::PositionId) => {
            "'positionid' is the position's number, which every position has: compare it, as in positionid > 10".to_owned()
        }
        ExprKind::CurrentFen => "'fen' alone is the position's FEN, which every position has: compare it, or give \
                                 fen a text to test the board against"
            .to_owned(),
        ExprKind::Str(_) => "str gives a text to use: alone, the text would be made and dropped".to_owned(),
        ExprKind::TextFunction { function: TextFunction::ReadFile, .. } => {
            "readfile gives a file's contents to use: alone, they would be read and dropped".to_owned()
        }
        ExprKind::Tag(TagWord::Player(None)) => {
            "'player' alone joins both names and drops them: write player white or player black, or player \"name\""
                .to_owned()
        }
        ExprKind::Extreme { max, .. } => {
            let word = if *max { "max" } else { "min" };
            format!("'{word}' gives the extreme of its values: alone it tests nothing, so compare it, as in {word}(a b) > 2")
        }
        ExprKind::Unary(UnaryOp::Abs | UnaryOp::Sqrt, _) => {
            "abs and sqrt give a number to use: alone they test nothing, so compare the number".to_owned()
        }
        ExprKind::Unary(UnaryOp::Count, operand) if type_of(operand) == Type::Text => {
            "'#' of a text is its length, and here the length would be dropped: compare it, as in #t > 3".to_owned()
        }
        ExprKind::Distance(..) => "distance gives a number of plies: alone it tests nothing, so compare it".to_owned(),
        ExprKind::Lca(..) => "lca gives a position to use: alone it tests nothing, as in lca(x y) : check".to_owned(),
        ExprKind::Binary(BinaryOp::Intersection, left, _) if type_of(left) == Type::Position => {
            "'P & Q' of two positions is the set of squares whose contents agree, which is almost never empty: \
             test the set, as in #(x & y) == 64"
                .to_owned()
        }
        ExprKind::Binary(BinaryOp::Add, left, _) if type_of(left) == Type::Text => {
            "two texts joined by '+' and then dropped: give the text to a variable, or compare it".to_owned()
        }
        _ => return None,
    };
    Some(what)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::ast::{Side, Span};

    fn expr(kind: ExprKind) -> Expr {
        Expr { kind, span: Span::default() }
    }

    #[test]
    fn values_alone_are_refused_and_tests_are_not() {
        assert!(refused_as_filter(&expr(ExprKind::Number(8))).is_some());
        assert!(refused_as_filter(&expr(ExprKind::Text("a".into()))).is_some());
        assert!(refused_as_filter(&expr(ExprKind::Tag(TagWord::Player(None)))).is_some());
        assert!(refused_as_filter(&expr(ExprKind::Tag(TagWord::Player(Some(Side::White))))).is_none());
        assert!(refused_as_filter(&expr(ExprKind::Word(Word::Check))).is_none());
        let numbers = vec![expr(ExprKind::Number(1)), expr(ExprKind::Number(2))];
        assert!(refused_as_filter(&expr(ExprKind::Extreme { max: true, args: numbers })).is_some());
        let length = ExprKind::Unary(UnaryOp::Count, Box::new(expr(ExprKind::Text("a".into()))));
        assert!(refused_as_filter(&expr(length)).is_some());
        let size =
            ExprKind::Unary(UnaryOp::Count, Box::new(expr(ExprKind::Variable { name: "s".into(), ty: Type::Set })));
        assert!(refused_as_filter(&expr(size)).is_none());
        let set = ExprKind::Variable { name: "x".into(), ty: Type::Set };
        assert!(refused_as_filter(&expr(set)).is_none());
    }
}
