//! A test that every game a query finds passes at some position of its main line (or at some
//! run of consecutive positions), for the queries that have one whose failure says everything:
//! in a game without such a position or run, the query is false at every position and does
//! nothing else, so the game can be replayed with that test alone, and with the whole query
//! only where it passes.
//!
//! The test is found where it is cheap and certain: `mate` or `stalemate` leading the query
//! (the query stops there wherever it fails), or ending a `path` that leads the query and steps
//! over moves only (its runs end on such a position, and without one it finds none), or the
//! pieces a leading move leaves from (`Pe7--e8=Q`: a game where no white pawn stands on e7 plays
//! no such move). A leading `line` of one test repeated (`line --> check --> check`), or a
//! leading `path` of moves each followed by it (`path (-- check){2,}`), needs as many
//! consecutive positions that pass it (with `line singlecolor`, as many positions of one side
//! to move in a row). Most games may pass a test of pieces or of `check`: a
//! search measures how many do, and replays the rest of its games with the query alone where
//! the test spares little.

use super::ast::{
    Constituent, ConstituentBody, DashWhen, Expr, ExprKind, LineMoves, LineOptions, PathExpr, PathOptions, PathStep,
    Word,
};

/// The filter of `body` that every position the query matches needs at some position of the
/// game, or at a run of so many positions of its main line (and how far apart they stand: 1,
/// one after another, or 2, those of one side to move), when the query has one that spares
/// working the rest out ([`super::Query::game_prefilter`] says which queries may use it).
pub(super) fn leading_test(body: &[Expr]) -> Option<(&Expr, u32, u32)> {
    let first = body.first()?;
    if is_rare_position_test(first) {
        return Some((first, 1, 1));
    }
    match &first.kind {
        ExprKind::Path(path) => {
            path_end_test(path).map(|test| (test, 1)).or_else(|| path_run(path)).map(|(test, run)| (test, run, 1))
        }
        ExprKind::Line { options, constituents, bounds } if bounds.is_empty() => {
            let (test, run) = line_run(options, constituents)?;
            Some((test, run, if options.singlecolor { 2 } else { 1 }))
        }
        ExprKind::Dash { from: Some(from), when: DashWhen::Next, .. } => {
            // The move played next leaves one of these pieces, which stand in the position.
            matches!(from.kind, ExprKind::Pieces(_)).then_some((&**from, 1, 1))
        }
        _ => None,
    }
}

/// Whether a filter looks at the position alone, does nothing else, and holds in few
/// positions: the end of a game by `mate` or `stalemate`.
fn is_rare_position_test(filter: &Expr) -> bool {
    matches!(filter.kind, ExprKind::Word(Word::Mate | Word::Stalemate))
}

/// Whether a filter looks at the position alone and does nothing else, so that it may stand
/// for a run of positions: `check`, `mate`, `stalemate`, or pieces.
fn is_position_test(filter: &Expr) -> bool {
    matches!(filter.kind, ExprKind::Word(Word::Check | Word::Mate | Word::Stalemate) | ExprKind::Pieces(_))
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
        PathStep::Move(dash) => is_bare_dash(dash),
        PathStep::Repeat { step, .. } => matches!(**step, PathStep::Move(_)) && is_plain_move(step),
        PathStep::Filter(_) | PathStep::Group(_) => false,
    }
}

/// The one filter a dash that plays any next move tests after it (`-- check`, `--(check)`).
fn dash_target(dash: &Expr) -> Option<&Expr> {
    let ExprKind::Dash { from: None, to: None, capture: false, promote: None, target: Some(target), when } = &dash.kind
    else {
        return None;
    };
    if *when != DashWhen::default() {
        return None;
    }
    match &target.kind {
        ExprKind::Block(filters) => match filters.as_slice() {
            [filter] => Some(filter),
            _ => None,
        },
        _ => Some(target),
    }
}

/// Whether a dash is `--` alone: any move played next, with nothing tested after it.
fn is_bare_dash(dash: &Expr) -> bool {
    matches!(
        &dash.kind,
        ExprKind::Dash { from: None, to: None, capture: false, promote: None, target: None, when }
            if *when == DashWhen::default()
    )
}

/// For a `path` that starts with moves each followed by one test (`(-- check){2,}`), the
/// test and the fewest consecutive positions after the start that every run passes it at:
/// the repetitions' least counts, and the path's least count where every move is such a step.
fn path_run(path: &PathExpr) -> Option<(&Expr, u32)> {
    let PathOptions { focus, max, bounds, .. } = &path.options;
    if focus.is_some() || max.is_some() || !bounds.is_empty() || !path.atomics.is_empty() {
        return None;
    }
    let mut tested = TestedMoves::default();
    let whole = tested.read(&path.steps);
    let (test, mut run) = (tested.test?, tested.count);
    if whole && let Some((least, _)) = path.options.range {
        // Every move of a run is followed by the test.
        run = run.max(least);
    }
    (run > 0).then_some((test, run))
}

/// The moves at the start of a path's constituents that are each followed by one position
/// test: the test, and how many such moves every run makes, one after another, at least.
#[derive(Default)]
struct TestedMoves<'e> {
    test: Option<&'e Expr>,
    count: u32,
}

impl<'e> TestedMoves<'e> {
    /// Reads `steps` from the first on while they are tested moves; returns whether they all
    /// were.
    fn read(&mut self, steps: &'e [PathStep]) -> bool {
        let mut rest = steps;
        while !rest.is_empty() {
            let taken = match rest {
                // `-- check`: a bare dash, then the test.
                [PathStep::Move(dash), PathStep::Filter(test), ..] if is_bare_dash(dash) && self.takes(test) => {
                    self.count = self.count.saturating_add(1);
                    2
                }
                [PathStep::Move(dash), ..] => match dash_target(dash) {
                    // `-- check`: the test as the dash's target.
                    Some(test) if self.takes(test) => {
                        self.count = self.count.saturating_add(1);
                        1
                    }
                    _ => return false,
                },
                [PathStep::Group(group), ..] => {
                    if !self.read(group) {
                        return false;
                    }
                    1
                }
                [PathStep::Repeat { step, min, .. }, ..] => {
                    let mut once = TestedMoves { test: self.test, count: 0 };
                    if !once.read(std::slice::from_ref(&**step)) {
                        return false;
                    }
                    self.test = once.test;
                    self.count = self.count.saturating_add(once.count.saturating_mul(*min));
                    1
                }
                _ => return false,
            };
            rest = &rest[taken..];
        }
        true
    }

    /// Whether a filter is the test of the moves read so far (or may be, as the first).
    fn takes(&mut self, filter: &'e Expr) -> bool {
        if !is_position_test(filter) || self.test.is_some_and(|test| test.kind != filter.kind) {
            return false;
        }
        self.test = Some(filter);
        true
    }
}

/// For a `line` that starts with constituents of one position test (`line --> check -->
/// check{+}`), the test and the fewest positions in a row every run passes it at: the sum of
/// their least counts, and the line's least length where every constituent is the test. Not
/// for a line through variations' first moves alone.
fn line_run<'e>(options: &LineOptions, constituents: &'e [Constituent]) -> Option<(&'e Expr, u32)> {
    if options.moves == LineMoves::Secondary {
        return None;
    }
    let mut test: Option<&Expr> = None;
    let mut run = 0u32;
    let mut whole = true;
    for constituent in constituents {
        let ConstituentBody::Filter(filter) = &constituent.body else {
            whole = false;
            break;
        };
        if !is_position_test(filter) || test.is_some_and(|test| test.kind != filter.kind) {
            whole = false;
            break;
        }
        test = Some(filter);
        run = run.saturating_add(constituent.min);
    }
    if whole && let Some((least, _)) = options.range {
        // Every position of a run passes the test.
        run = run.max(least);
    }
    let test = test?;
    (run > 0).then_some((test, run))
}

#[cfg(test)]
mod tests {
    use crate::query::Query;

    fn test_of(text: &str) -> Option<String> {
        let query = Query::parse(text).unwrap();
        query.game_prefilter().map(|prefilter| {
            assert_eq!(prefilter.run, 1, "{text}");
            prefilter.test.ast().body.iter().map(|e| format!("{:?}", e.kind)).collect()
        })
    }

    /// The test and the run of the query's prefilter, of consecutive positions.
    fn run_of(text: &str) -> Option<(String, u32)> {
        let query = Query::parse(text).unwrap();
        query.game_prefilter().map(|prefilter| {
            assert_eq!(prefilter.stride, 1, "{text}");
            let test = prefilter.test.ast().body.iter().map(|e| format!("{:?}", e.kind)).collect();
            (test, prefilter.run)
        })
    }

    #[test]
    fn a_leading_line_of_one_test_needs_a_run_of_it() {
        let check = "Word(Check)".to_owned();
        assert_eq!(run_of("cql() line --> check --> check --> check"), Some((check.clone(), 3)));
        assert_eq!(run_of("cql() line quiet --> check{2} --> check{+} --> mate"), Some((check.clone(), 3)));
        assert_eq!(run_of("cql() line firstmatch --> check* --> check --> btm"), Some((check.clone(), 1)));
        assert_eq!(run_of("cql() line <-- check <-- check"), Some((check.clone(), 2)));
        assert_eq!(run_of("cql() line 4 9 --> check{+}"), Some((check.clone(), 4)));
        assert_eq!(run_of("cql() line 4 9 --> check{+} --> btm"), Some((check.clone(), 1)));
        // Positions of one side to move: as many of them in a row.
        let prefilter = Query::parse("cql() line quiet singlecolor 4 100 --> check{+}").unwrap().game_prefilter();
        assert!(prefilter.is_some_and(|prefilter| prefilter.run == 4 && prefilter.stride == 2));
        // A group, a test that reads more than the position, none at all.
        assert_eq!(run_of("cql() line --> (check --> check)"), None);
        assert_eq!(run_of("cql() line --> check* --> btm"), None);
        assert_eq!(run_of("cql() line --> btm --> check"), None);
    }

    #[test]
    fn a_leading_path_of_moves_each_followed_by_one_test_needs_a_run_of_it() {
        let check = "Word(Check)".to_owned();
        assert_eq!(run_of("cql() path (-- check){2,}"), Some((check.clone(), 2)));
        assert_eq!(run_of("cql() path nestban (-- check){2,}"), Some((check.clone(), 2)));
        assert_eq!(run_of("cql() path 3 100 (-- check)+"), Some((check.clone(), 3)));
        assert_eq!(run_of("cql() path (-- check){2} -- mate"), Some((check.clone(), 2)));
        assert_eq!(run_of("cql() path (-- check)? (-- check)+ -- mate"), Some((check.clone(), 1)));
        // The path's count bounds the run only where every move is followed by the test.
        assert_eq!(run_of("cql() path 4 9 (-- check)+ --"), Some((check.clone(), 1)));
        // Moves of some pieces, a best value, other tests, no tested move first: none.
        assert_eq!(run_of("cql() path singlecolor (-- check){2,}"), None);
        assert_eq!(run_of("cql() path max #A (-- check){2,}"), None);
        assert_eq!(run_of("cql() path (-- btm){2,}"), None);
        assert_eq!(run_of("cql() path btm (-- check){2,}"), None);
    }

    #[test]
    fn a_run_is_plies_a_stride_apart() {
        use super::super::passes_run;
        assert!(passes_run([4, 7, 8, 9], 3, 1));
        assert!(passes_run([9, 8, 7], 3, 1), "in any order");
        assert!(!passes_run([4, 5, 7, 8], 3, 1));
        assert!(!passes_run([5, 5, 5], 2, 1), "one ply once");
        assert!(passes_run([0], 1, 1));
        assert!(!passes_run([], 1, 1));
        assert!(passes_run([3, 4, 5, 6, 7], 3, 2), "3, 5, 7");
        assert!(!passes_run([3, 4, 6, 7], 3, 2));
        assert!(!passes_run([1, 2, 3], 3, 2));
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
        // A dash that tests something: the position after it passes that test.
        assert_eq!(test_of("cql() path (-- check)+ mate").as_deref(), Some("Word(Check)"));
        // A variable's bounds, nested paths banned, more after the path: the run may do more.
        assert_eq!(test_of("cql() path nestban --+ mate"), None);
        assert_eq!(test_of("cql() path --+ mate check"), None);
    }

    #[test]
    fn the_pieces_a_leading_move_leaves_from_are_the_test() {
        let test = test_of("cql() Pe7--e8=Q").expect("a test");
        assert!(test.starts_with("Pieces("), "{test}");
        assert!(test_of("cql() Pe7[x]d8 check").is_some_and(|test| test.starts_with("Pieces(")));
        // No pieces named, squares of any content, the move before, or moves counted: no test.
        assert_eq!(test_of("cql() --e8=Q"), None);
        assert_eq!(test_of("cql() e7--e8"), None);
        assert_eq!(test_of("cql() previous Pe7--e8"), None);
        assert_eq!(test_of("cql() countmoves Pe7--e8"), None);
        assert_eq!(test_of("cql() check Pe7--e8"), None);
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
