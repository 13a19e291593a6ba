//! Dictionaries, as CQL 6.2 has them: `[local | persistent] dictionary D`, entries given,
//! read, counted, unbound and gone through in the order of their keys; and, for any variable,
//! `isbound`, `isunbound` and `unbind`. The answers here were worked out by hand;
//! `cql_reference.rs` runs the same kinds of query beside CQL 6.2 on real games.

use cqlq::Query;
use cqlq::search::{Input, Search, SearchOptions, Summary};

use crate::common::{Record, found};

/// A mate in four plies, then a game of one move.
const GAMES: &str =
    "[Event \"first\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n[Event \"second\"]\n\n1. d4 *\n";

/// The numbers of the games in which some position matches.
fn games(query: &str) -> Vec<u64> {
    found(query, GAMES).into_iter().map(|(game, _)| game).collect()
}

/// The plies of the first game that match.
fn plies(query: &str) -> Vec<u32> {
    found(query, GAMES).into_iter().filter(|(game, _)| *game == 1).flat_map(|(_, plies)| plies).collect()
}

/// Why a search of the games stopped, if it did.
fn refusal(query: &str) -> Option<String> {
    let query = Query::parse(query).expect("the query parses");
    let search = Search::new(query, SearchOptions { threads: 1, ..SearchOptions::default() }).expect("a search");
    let mut input = Input::from_bytes("games.pgn", GAMES.as_bytes().to_vec());
    let _ = search.run(&mut input, &mut Record::default(), &mut Summary::default());
    search.refusal()
}

/// The mistake a query is refused for.
fn error(query: &str) -> String {
    Query::parse(query).expect_err(query).to_string()
}

#[test]
fn entries_are_given_read_counted_and_tested() {
    let query = r#"initial local dictionary D D["a"] = 1 D["b"] = 2 #D == 2 D["a"] == 1 not D["c"]"#;
    assert_eq!(plies(query), [0]);
    // An entry's value stands where its type is wanted; a missing one has none.
    assert_eq!(plies("local dictionary D D[ply] = 2 * ply  D[ply - 1] == 2 * ply - 2"), [1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(plies("local dictionary D D[ply] = ply  D[ply + 1] >= 0"), Vec::<u32>::new());
    // A set's entry matches when it is there, even empty.
    assert_eq!(plies("initial local dictionary D D[1] = ~. D[1]"), [0]);
}

#[test]
fn keys_are_gone_through_in_order() {
    let numbers =
        r#"initial local dictionary D D[3] = 1 D[-2] = 1 D[10] = 1 s = "" key ∊ D s += str(key) s == "-2310""#;
    assert_eq!(plies(numbers), [0]);
    let texts = r#"initial local dictionary D D["b"] = 1 D["ab"] = 1 D[""] = 1 D["a"] = 1
        s = "" key [element] D s += key + "," s == ",a,ab,b,""#;
    assert_eq!(plies(texts), [0]);
    // Sets in the order of the number their squares make, a1 the smallest square.
    let sets = r#"initial local dictionary D D[(h8)] = 1 D[(a2)] = 1 D[(b1)] = 1 D[(a1)] = 1
        s = "" key ∊ D s += str(key) s == "a1b1a2h8""#;
    assert_eq!(plies(sets), [0]);
    // CQL 6.1's form, over text keys; the variable has no value afterwards.
    let old = r#"initial local dictionary D D["x"] = 1 string key in D true isunbound key"#;
    assert_eq!(plies(old), [0]);
}

#[test]
fn local_entries_end_with_the_game_and_others_last() {
    assert_eq!(games("local dictionary D D[ply] = 1 terminal #D == ply + 1"), [1, 2]);
    assert_eq!(games("dictionary D D[ply] = 1 terminal #D == ply + 1"), [1]);
    assert_eq!(games("persistent dictionary D D[ply] = 1 terminal #D == 8"), [1, 2]);
    // Lasting entries keep the games in order on one thread, as CQL 6.2 runs them.
    assert!(Query::parse("dictionary D D[1] = 1").unwrap().runs_in_order());
    assert!(!Query::parse("local dictionary D D[1] = 1").unwrap().runs_in_order());
}

#[test]
fn entries_and_variables_are_unbound() {
    let entries = "initial local dictionary D D[1] = 1 D[2] = 2 unbind D[1] #D == 1 not D[1] unbind D #D == 0";
    assert_eq!(plies(entries), [0]);
    assert_eq!(plies("initial isunbound x x = 1 isbound x unbind x isunbound \"x\""), [0]);
    // A variable keeps its value from position to position of a game, until it is unbound.
    assert_eq!(plies("(initial and z = 0) or isbound z  not check or unbind z"), [0, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(plies("(initial and z = 0) or isbound z  ply < 3 or unbind z"), [0, 1, 2, 3]);
    // A dictionary is always bound; a name nothing holds never is.
    assert_eq!(plies("initial local dictionary D isbound D isunbound nothing"), [0]);
}

#[test]
fn local_dictionaries_hold_positions() {
    assert_eq!(plies("local dictionary D D[ply] = currentposition  ply > 2  D[ply - 2] : btm"), [3, 5, 7]);
    assert_eq!(plies("local dictionary D D[currentposition] = ply  D[parent] == ply - 1"), [1, 2, 3, 4, 5, 6, 7]);
}

#[test]
fn a_walk_over_a_bound_variable_stops_the_search() {
    assert!(refusal("initial local dictionary D D[1] = 1 x = 1 x ∊ D true").is_some());
    assert_eq!(refusal("initial local dictionary D D[1] = 1 x ∊ D true x ∊ D true"), None);
    // A count whose value is dropped stops it too, as in CQL 6.2.
    assert!(refusal("local dictionary D #D").is_some());
}

#[test]
fn types_are_fixed_by_the_first_entry() {
    assert!(error("dictionary D D[1] = 2 D[\"a\"] = 3").contains("has a number as keys, not a text"));
    assert!(error("dictionary D D[1] = 2 D[2] = \"a\"").contains("holds a number as values, not a text"));
    assert!(error("dictionary D D[currentposition] = 1").contains("cannot be positions: declare it local"));
    assert!(error("x = 1 dictionary x").contains("is a variable already"));
    assert!(error("dictionary D local dictionary D").contains("was declared persistent"));
    assert!(error("dictionary D D = 1").contains("is a dictionary"));
    assert!(error("dictionary D unbind D[1]").contains("has no keys yet"));
    assert!(error("unbind y").contains("unbind takes a variable"));
    assert!(error("x = 1 x[1] = 2").contains("is no dictionary"));
}

/// What CQL 6.2 refuses in a dictionary's key, which the CQL command line refuses too: a
/// `move` that is no set, and a designator right before the `]` (CQL 6.2 reads the `]` as
/// part of it).
#[test]
fn keys_cql_6_2_cannot_read_are_refused_by_the_cql_command_line() {
    for query in [
        "dictionary D D[move previous] = 1",
        "function f(x){move previous} dictionary D D[f(a1)] = 1",
        "dictionary D D[1] = move previous",
        "dictionary D D[light R] = 1",
        "dictionary D D[move from a1] = 1",
    ] {
        let parsed = Query::parse(query).unwrap_or_else(|error| panic!("{query}: {error}"));
        assert!(parsed.within_cql().is_err(), "{query}");
    }
    for query in ["dictionary D D[light R ] = 1", "dictionary D D[(move from a1)] = 1", "dictionary D D[(a1)] = 1"] {
        assert!(Query::parse(query).unwrap().within_cql().is_ok(), "{query}");
    }
}

#[test]
fn an_entry_right_after_path_is_a_constituent_not_a_range() {
    // `D[...]` after `path` is no numeric variable bounding the path: the name has a key.
    assert_eq!(plies(r#"dictionary D D[ply] = 1 path D[ply - 2] -- --"#), [2, 3, 4, 5]);
    assert_eq!(games(r#"dictionary D path keepallbest D["a"]"#), Vec::<u64>::new());
    assert_eq!(games(r#"dictionary D D["a"] = 1 path D["a"] --"#), [1, 2]);
}
