//! A test that every game a query finds passes at some position of its main line, for the
//! queries that have one whose failure says everything: in a game that passes it nowhere, the
//! query is false at every position and does nothing else, so the game can be replayed with
//! that test alone, and with the whole query only where it passes somewhere.
//!
//! The test is found where it is cheap, rare and certain: `mate` or `stalemate` leading the
//! query (the query stops there wherever it fails), or ending a `path` that leads the query and
//! steps over moves only (its runs end on such a position, and without one it finds none).

use super::ast::{DashWhen, Expr, ExprKind, PathExpr, PathStep, Word};

/// The filter of `body` that every position the query matches needs at some position of the
/// game, when the query has one that spares working the rest out ([`super::Query::game_prefilter`]
/// says which queries may use it).
pub(super) fn leading_test(body: &[Expr]) -> Option<&Expr> {
    let first = body.first()?;
    if is_rare_position_test(first) {
        return Some(first);
    }
    match &first.kind {
        ExprKind::Path(path) => path_end_test(path),
        _ => None,
    }
}

/// Whether a filter looks at the position alone, does nothing else, and holds in few
/// positions: the end of a game by `mate` or `stalemate`.
fn is_rare_position_test(filter: &Expr) -> bool {
    matches!(filter.kind, ExprKind::Word(Word::Mate | Word::Stalemate))
}

/// The test that ends every run of a `path` that steps over moves only (bare dashes, repeated
/// or not) and then tests the position: without a position that passes it, the path finds no
/// run, reads no variable and comments nothing that is kept.
fn path_end_test(path: &PathExpr) -> Option<&Expr> {
    let options = &path.options;
    if options.nestban || !options.bounds.is_empty() || !path.atomics.is_empty() {
        return None;
    }
    let (last, moves) = path.steps.split_last()?;
    let PathStep::Filter(test) = last else { return None };
    (is_rare_position_test(test) && moves.iter().all(is_plain_move)).then_some(test)
}

/// Whether a constituent plays any next move and tests nothing: a bare dash (`--`), or one
/// repeated.
fn is_plain_move(step: &PathStep) -> bool {
    match step {
        PathStep::Move(dash) => matches!(
            &dash.kind,
            ExprKind::Dash { from: None, to: None, capture: false, promote: None, target: None, when }
                if *when == DashWhen::default()
        ),
        PathStep::Repeat { step, .. } => matches!(**step, PathStep::Move(_)) && is_plain_move(step),
        PathStep::Filter(_) | PathStep::Group(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::query::Query;

    fn test_of(text: &str) -> Option<String> {
        let query = Query::parse(text).unwrap();
        query.game_prefilter().map(|prefilter| prefilter.ast().body.iter().map(|e| format!("{:?}", e.kind)).collect())
    }

    #[test]
    fn a_leading_mate_or_stalemate_is_the_test() {
        assert_eq!(test_of("cql() mate check").as_deref(), Some("Word(Mate)"));
        assert_eq!(test_of("cql() stalemate check").as_deref(), Some("Word(Stalemate)"));
        // A query that is its own test has no other.
        assert_eq!(test_of("cql() stalemate"), None);
        assert_eq!(test_of("cql() check mate"), None);
        assert_eq!(test_of("cql() not mate"), None);
    }

    #[test]
    fn a_path_of_moves_ending_in_mate_has_it_as_its_test() {
        assert_eq!(test_of("cql() path firstmatch singlecolor --+ mate").as_deref(), Some("Word(Mate)"));
        assert_eq!(test_of("cql() path --{2} stalemate").as_deref(), Some("Word(Stalemate)"));
        // A dash that tests something, a group, a variable's bounds: the run may do more.
        assert_eq!(test_of("cql() path (-- check)+ mate"), None);
        assert_eq!(test_of("cql() path --(check) mate"), None);
        assert_eq!(test_of("cql() path nestban --+ mate"), None);
        assert_eq!(test_of("cql() path --+ mate check"), None);
    }

    #[test]
    fn what_follows_the_test_is_worked_out_where_it_passes() {
        // Messages and tags after the test are made at the positions that pass it only.
        assert_eq!(test_of("cql() mate message(\"m\") settag(\"A\" \"b\")").as_deref(), Some("Word(Mate)"));
    }

    #[test]
    fn queries_that_carry_values_between_games_or_sort_them_have_none() {
        assert_eq!(test_of("cql() mate persistent x = 1"), None);
        assert_eq!(test_of("cql() mate removecomment"), None);
        assert_eq!(test_of("cql() mate sort #A"), None);
        assert_eq!(test_of("cql() mate consecutivemoves (x y) 1"), None);
    }
}
