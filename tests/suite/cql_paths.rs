//! `path`: its constituents (filters, dashes with what follows them, groups, repetitions), its
//! options (ranges, `firstmatch`, `focus`, `max`, `nestban`, `quiet`, `lastposition`), the
//! words about it (`pathcount`, `pathstart`, `pathlastposition`), `atomic` variables, its
//! comments and its spellings. The answers here were worked out by hand on the Scholar's mate;
//! `cql_reference.rs` runs the same kinds of query beside CQL 6.2 on real games.

use cqlq::Query;

use crate::common::{self, found};

/// Plies 0 to 7: 1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6 4.Qxf7#, the mate at ply 7.
const SCHOLAR: &str = "[Event \"scholar\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";

/// The plies of the game that match.
fn plies(query: &str) -> Vec<u32> {
    found(query, SCHOLAR).into_iter().flat_map(|(_, plies)| plies).collect()
}

/// The comments a query makes in the game, with the plies they go to, in order.
fn notes(query: &str) -> Vec<(u32, String)> {
    common::notes(SCHOLAR, query)
}

/// The mistake a query is refused for.
fn error(query: &str) -> String {
    Query::parse(query).expect_err(query).to_string()
}

#[test]
fn a_path_counts_the_moves_of_its_longest_run() {
    assert_eq!(plies("path --{2}"), vec![0, 1, 2, 3, 4, 5]);
    assert_eq!(plies("path --+ == 7"), vec![0]);
    assert_eq!(plies("path --+ == 3"), vec![4]);
    // firstmatch: the first run found, here the shortest.
    assert_eq!(plies("path firstmatch --+ == 1"), vec![0, 1, 2, 3, 4, 5, 6]);
    // A dash's target holds after its move; a range bounds the count.
    assert_eq!(plies("path -- check"), vec![6]);
    assert_eq!(plies("path --* mate"), vec![0, 1, 2, 3, 4, 5, 6]);
    assert_eq!(plies("path 2 3 --+ mate"), vec![4, 5]);
    assert_eq!(plies("path (-- not check)+ == 6"), vec![0]);
    // A run of no move is no run.
    assert_eq!(plies("path mate"), Vec::<u32>::new());
}

#[test]
fn a_filter_before_the_first_move_is_tested_wherever_the_search_starts() {
    // The search begins with `{y = ply}` at every position, whether or not a check follows:
    // the value it gives stays (as CQL 6.2 keeps it), so every position sees its own ply.
    assert_eq!(plies("y = -1 {path {y = ply} -- check} or true y == ply"), (0..=7).collect::<Vec<_>>());
    // Where the first move's tests look at the positions only, they give the same answers
    // as the search: one move then check, a capture on f7, a queen's run ending in mate.
    assert_eq!(plies("path -- check"), vec![6]);
    assert_eq!(plies("path (-- check)+"), vec![6]);
    assert_eq!(plies("path (-- not check){2}"), vec![0, 1, 2, 3, 4]);
    assert_eq!(plies("path not check -- Q-- mate"), vec![5]);
}

#[test]
fn dashes_name_their_squares_and_groups_repeat() {
    assert_eq!(plies("path Q--f7"), vec![6]);
    assert_eq!(plies("path [x]f7"), vec![6]);
    assert_eq!(plies("path (-- --){3}"), vec![0, 1]);
    assert_eq!(plies("path (Q--) (-- --)?"), vec![2, 6]);
    assert_eq!(plies("path (Q-- -- --)+ == 3"), vec![2]);
    // After a dash, a filter in parentheses is its target; a dash in parentheses is a group.
    assert_eq!(plies("path -- (check)"), vec![6]);
    assert_eq!(plies("path -- (--) mate"), vec![5]);
}

#[test]
fn a_focus_follows_some_pieces_and_steps_over_the_other_moves() {
    // From ply 2, Qh5 and then (after four other moves) Qxf7.
    assert_eq!(plies("path focus Q --+ == 2"), vec![2]);
    assert_eq!(plies("path focus Q --+"), vec![2, 6]);
    assert_eq!(plies("⊢ ◎ Q --+ == 2"), vec![2]);
    // singlecolor: the moves of the side to move's pieces.
    assert_eq!(plies("path singlecolor --+ == 4"), vec![0]);
    // The sets of a dash are seen where the move in focus is played.
    assert_eq!(plies("path focus Q -- --f7"), vec![2]);
}

#[test]
fn max_compares_runs_by_a_value_at_their_ends() {
    assert_eq!(plies("path max ply --{1,3} == 3"), vec![0]);
    assert_eq!(plies("path max ply --{1,3} == 7"), vec![4, 5, 6]);
}

#[test]
fn the_words_about_a_path_inside_it_and_after_it() {
    assert_eq!(plies("path (-- pathcount <= 2)+ == 2"), vec![0, 1, 2, 3, 4, 5]);
    assert_eq!(plies("{path --{2}} pathlastposition:ply == ply + 2"), vec![0, 1, 2, 3, 4, 5]);
    assert_eq!(plies("{path --{3}} pathcount == 3 pathstart == currentposition"), vec![0, 1, 2, 3, 4]);
    assert_eq!(plies("path --+ mate {pathcountunfocused == 0}"), vec![0, 1, 2, 3, 4, 5, 6]);
    assert_eq!(plies("pathlastposition:mate"), Vec::<u32>::new());
    assert_eq!(plies("(path lastposition --{2}):check"), vec![5]);
}

#[test]
fn nestban_and_atomic_variables() {
    // Each run of two moves goes through two positions where no other run may start.
    assert_eq!(plies("path nestban --{2}"), vec![0, 2, 4]);
    // An atomic variable is given back its value when the search turns back from a move, and
    // keeps the one the best run gave it.
    assert_eq!(plies("atomic x = 0 {path (-- atomic x += 1)+} x == 7"), vec![0]);
    assert_eq!(plies("atomic x = 0 {path (-- atomic x += 1)+} x == 6"), vec![1]);
}

#[test]
fn a_path_notes_where_it_starts_and_ends() {
    assert_eq!(
        notes("cql() path -- check"),
        vec![
            (7, "End path of length 1 that starts at move 4(wtm)".to_owned()),
            (6, "Start path that ends at move 4(btm)".to_owned()),
        ]
    );
    assert_eq!(notes("cql() path quiet -- check"), Vec::<(u32, String)>::new());
    assert_eq!(
        notes("cql() ply == 2 path quiet title \"T\" verbose focus Q --+ mate"),
        vec![(2, "T".to_owned()), (3, "T: move 1 of 2".to_owned()), (7, "T: move 2 of 2".to_owned())]
    );
    assert_eq!(
        notes("cql() ply == 2 path quiet piecepath focus Q --+ mate")[0],
        (2, "Focus path: Qd1-h5-f7".to_owned())
    );
    // Comments made along the runs are kept for the best run only.
    // The best run here is the shortest (max of -ply), found first; the longer ones after it
    // comment too, and lose their comments.
    assert_eq!(notes("cql() ply == 0 path quiet max (0 - ply) (-- comment(ply))+"), vec![(1, "1".to_owned())]);
}

#[test]
fn a_blank_line_ends_a_path_and_plus_repeats() {
    assert_eq!(plies("path --\ncheck"), vec![6]);
    assert_eq!(plies("path --\n\ncheck"), Vec::<u32>::new());
    assert_eq!(plies("path -- + mate"), vec![0, 1, 2, 3, 4, 5, 6]);
}

/// Within a key's or a part's brackets `+` is arithmetic, even where, in a path's parentheses,
/// it would repeat a constituent (as CQL 6.2 reads it, which refuses `path min(1 + 2)`).
#[test]
fn brackets_in_a_path_hold_arithmetic() {
    let moves = plies("path --");
    assert!(!moves.is_empty());
    assert_eq!(plies("x = \"abc\" path -- ( x[0 + 1] == \"b\" )"), moves);
    assert!(plies("x = \"abc\" path -- ( x[0 + 1] == \"c\" )").is_empty());
    assert_eq!(plies("x = \"abc\" path -- ( x[0 + 1 : 1 + 1] == \"b\" )"), moves);
    assert_eq!(plies("dictionary D D[\"ab\"] = 1 path -- ( D[\"a\" + \"b\"] == 1 )"), moves);
    assert!(plies("dictionary D D[\"ab\"] = 1 path -- ( D[\"a\" + \"c\"] == 1 )").is_empty());
    assert!(Query::parse("dictionary D { path D[ min ( str ( ng4 ) \"B\" + \"a\" ) ] }").is_ok());
    assert!(error("path min ( 1 + 2 )").contains("repeats what comes before it"));
}

#[test]
fn mistakes_in_a_path_are_named() {
    assert!(error("path -- 3").contains("a path constituent cannot be a number alone"), "{}", error("path -- 3"));
    assert!(error("path singlecolor focus Q --").contains("'singlecolor' cannot be used with 'focus'"));
    assert!(error("path piecepath --").contains("'piecepath'"));
    assert!(error("path secondary --").contains("no 'secondary'"));
    // Right after a dash, parentheses are a filter of its target, as CQL 6.2 reads them.
    assert!(error("path Q-- (-- --)?").contains("parentheses hold one filter"));
}

/// Right after a dash, parentheses are a filter of its target unless they hold one dash alone
/// (then a group): `--(--h5 and --)` is the target, `--(--h5)` a group; as CQL 6.2 reads them.
#[test]
fn parentheses_after_a_dash_are_its_target_unless_they_hold_one_dash() {
    let start =
        |query: &str| notes(query).into_iter().find(|(_, text)| text.starts_with("Start path")).map(|(ply, _)| ply);
    // The target: from the position after the first move, 2.Qh5 is played next.
    assert_eq!(start("path -- (--h5 and --)"), Some(1));
    // The group: the second move of the path is 2.Qh5.
    assert_eq!(start("path --(--h5)"), Some(1));
    let end = |query: &str| notes(query).into_iter().find(|(_, text)| text.starts_with("End path")).map(|(ply, _)| ply);
    assert_eq!((end("path -- (--h5 and --)"), end("path --(--h5)")), (Some(2), Some(3)));
    assert_eq!(plies("path --( N-- and a1 ){+}"), Vec::<u32>::new());
    assert!(error("path --(--h5 --c6)").contains("parentheses hold one filter"));
}

/// CQL 6.2 first reads a dash right after a dash as a dash filter, which takes `(` only right
/// after it, and once: a path with such a dash is refused.
#[test]
fn a_dash_after_a_dash_takes_its_target_only_right_after_it() {
    for query in ["path -- -- (check)", "path -- --(check) (--)", "path --( --h5 (check) )", "path ( -- -- (check) )"] {
        assert!(error(query).contains("after a dash that follows a dash"), "{query}");
    }
    for query in ["path -- --(check) --", "path --{2} -- (check)", "path -- (--) (--)", "path --( --h5(check) )"] {
        assert!(Query::parse(query).is_ok(), "{query}");
    }
    // Parentheses right after a dash hold one filter: a dash with its target glued to it, not
    // a dash and filters after it.
    for query in ["path -- (-- check)", "path --(-- check)", "path Q-- (--h5 {check})", "path -- (Q--(mate) check)"] {
        assert!(error(query).contains("parentheses right after a dash hold one filter"), "{query}");
    }
    for query in ["path -- (Q--(mate))", "path (Q-- mate)", "path -- (--h5) check"] {
        assert!(Query::parse(query).is_ok(), "{query}");
    }
}
