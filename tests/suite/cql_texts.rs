//! Texts, as CQL 6.2 has them: the tags as values (in the forms SCID, CQL's PGN library, gives
//! them), text variables, `+`, `in`, comparisons, `#`, `~~` and its groups, parts `[i:j]`, and
//! the functions of texts; and the values CQL refuses to test as filters, which stop the run.
//! The answers here were worked out by hand; `cql_reference.rs` runs the same kinds of query
//! beside CQL 6.2 on real games.

use cqlq::Query;
use cqlq::search::{Input, Search, SearchOptions, Summary};

use crate::common::{Record, found};

/// Three games with their tags written in the ways SCID reads into one form.
const TAGGED: &str = r#"[Event "Rated Blitz game"]
[Site "  Hastings  "]
[Date "1990"]
[White "  Adams, Michael  "]
[Black "Short, Nigel"]
[ECO "c4"]
[TimeControl "300+3"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event ""]
[Date "1990.13.45"]
[White "Short, Nigel"]
[ECO "E99z"]
[Result "*"]

1. d4 *

[Date "19xx.01.02"]
[ECO "F00"]
[Result "*"]

1. e4 *
"#;

/// The numbers of the games in which some position matches.
fn games(query: &str) -> Vec<u64> {
    found(query, TAGGED).into_iter().map(|(game, _)| game).collect()
}

/// The plies of game 1 (the scholar's mate) that match.
fn plies(query: &str) -> Vec<u32> {
    found(query, TAGGED).into_iter().filter(|(game, _)| *game == 1).flat_map(|(_, plies)| plies).collect()
}

#[test]
fn tags_read_in_their_normal_forms() {
    // A missing event, site or player reads as "?"; an empty one has no value.
    assert_eq!(games("initial event == \"?\""), [3]);
    assert_eq!(games("initial event"), [1, 3]);
    assert_eq!(games("initial site == \"  Hastings  \""), [1], "a site keeps its spaces");
    assert_eq!(games("initial player white == \"Adams, Michael\""), [1], "a player's name is trimmed");
    assert_eq!(games("initial player black == \"?\""), [2, 3]);
    // Dates: each field the number it begins with, ?? where it is missing or out of range.
    assert_eq!(games("initial date == \"1990.??.??\""), [1, 2]);
    assert_eq!(games("initial date == \"0019.01.02\""), [3]);
    assert_eq!(games("initial eventdate == \"????.??.??\""), [1, 2, 3]);
    // ECO codes: C40 from c4, the extension kept, none for a code that is none.
    assert_eq!(games("initial eco == \"C40\""), [1]);
    assert_eq!(games("initial eco == \"E99z\""), [2]);
    assert_eq!(games("initial eco"), [1, 2]);
    // Any tag by its name; a tag word followed by a text holds it.
    assert_eq!(games("initial tag \"TimeControl\" == \"300+3\""), [1]);
    assert_eq!(games("initial player \"Short\""), [1, 2]);
    assert_eq!(games("initial flipcolor player white \"Short\""), [1, 2]);
}

#[test]
fn texts_join_compare_and_hold_one_another() {
    assert_eq!(plies("initial x = player white + \" v \" + player black  x == \"Adams, Michael v Short, Nigel\""), [0]);
    assert_eq!(plies("initial x = \"a\"  x += \"b\"  x == \"ab\" and #x == 2"), [0]);
    assert_eq!(plies("initial \"Adams\" in player white and not (\"Adams\" in player black)"), [0]);
    assert_eq!(plies("initial \"Adams\" < \"Short\" and \"b\" > \"a\" and \"a\" <= \"a\""), [0]);
    // Two texts differ where either has no value, as in CQL 6.2.
    assert_eq!(games("initial \"x\" != tag \"Annotator\""), [1, 2, 3]);
    assert_eq!(games("initial \"x\" == tag \"Annotator\""), Vec::<u64>::new());
    // `#` before a text counts the whole sum after it.
    assert_eq!(plies("initial # \"ab\" + \"c\" == 3 and (#\"ab\") + 1 == 3"), [0]);
    // min and max of texts, in the order of their bytes.
    assert_eq!(plies("initial max(\"b\" \"a\" \"c\") == \"c\" and min(\"b\" \"a\") == \"a\""), [0]);
}

#[test]
fn parts_and_regular_expressions() {
    assert_eq!(plies("initial x = \"abcdef\"  x[1:3] == \"bc\" and x[-2:] == \"ef\" and x[:2] == \"ab\""), [0]);
    assert_eq!(plies("initial \"abcdef\"[2] == \"c\" and \"abc\"[-1] == \"c\""), [0]);
    assert_eq!(plies("initial \"abc\"[5]"), Vec::<u32>::new(), "an index past the end has no value");
    assert_eq!(plies("initial \"abc\"[1:9] == \"bc\" and \"abc\"[2:1] == \"\""), [0]);
    // `~~` is the part matched; \N is a group's text, \-N where it begins.
    assert_eq!(plies("initial event ~~ \"(B)litz\" == \"Blitz\" and \\1 == \"B\" and \\-1 == 6"), [0]);
    assert_eq!(plies("initial player white ~~ \"^([A-Z])[a-z]+, ([A-Z])\" and \\1 + \\2 == \"AM\""), [0]);
    assert_eq!(plies("initial event ~~ \"zzz\""), Vec::<u32>::new());
    assert!(Query::parse("event ~~ \"(\"").is_err(), "a regular expression that is none is a mistake");
}

#[test]
fn functions_of_texts() {
    assert_eq!(plies("initial lowercase \"AbC\" == \"abc\" and uppercase \"AbC\" == \"ABC\""), [0]);
    assert_eq!(plies("lowercase \"abc\""), Vec::<u32>::new(), "as in CQL 6.2, never as a filter");
    assert_eq!(plies("initial int \"42\" == 42 and int \"-7\" == -7 and int \"4\" + \"2\" == 42"), [0]);
    assert_eq!(plies("initial int \"4 2\""), Vec::<u32>::new(), "no number");
    assert_eq!(plies("initial ascii \"A\" == 65 and ascii 66 == \"B\""), [0]);
    assert_eq!(plies("initial indexof(\"l\" \"Blitz\") == 1 and str(ply \"-\" a1) == \"0-a1\""), [0]);
    assert_eq!(plies("initial indexof(\"q\" \"Blitz\")"), Vec::<u32>::new(), "absent: no value");
    assert_eq!(plies("initial \\n + \\t + \\\" + \\\\ == str(\\n \\t \\\" \\\\)"), [0]);
    assert_eq!(plies("#\"a\\b\" == 3 initial"), [0], "no escapes inside quotes");
    // The pieces' letters, the FEN, and a square from its name.
    assert_eq!(plies("initial piecename e8 == \"k\" and typename e8 == \"K\" and piecename e4 == \"_\""), [0]);
    assert_eq!(plies("initial fen == \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\""), [0]);
    // As CQL 6.2 writes it: the square a double step passed over, whether or not a pawn can
    // take there; castling while king and rook stand on their first squares; `0 1` always.
    assert_eq!(plies("fen == \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\""), [1]);
    assert_eq!(plies("fen ~~ \" KQkq - 0 1$\""), [0, 3, 4, 5, 6, 7], "no double step, no move of king or rook");
    assert_eq!(plies("makesquare (\"f\" + \"7\") & Q"), [7]);
}

/// A search of the tagged games that tells why it stopped, if it did.
fn refusal(query: &str) -> Option<String> {
    let query = Query::parse(query).expect("the query parses");
    let search = Search::new(query, SearchOptions { threads: 1, ..SearchOptions::default() }).expect("a search");
    let mut input = Input::from_bytes("games.pgn", TAGGED.as_bytes().to_vec());
    let _ = search.run(&mut input, &mut Record::default(), &mut Summary::default());
    search.refusal()
}

#[test]
fn values_that_cannot_be_tested_stop_the_search() {
    for query in ["8", "\"a\"", "check 1", "typename e1", "x = 1 x", "fen", "player", "white", "\"a\" + \"b\""] {
        assert!(refusal(query).is_some(), "{query}");
    }
    // Untested, they stop nothing: CQL 6.2 tests the filters in order, up to one that fails.
    for query in ["false 1", "x = K x", "x = 1 x > 0", "player white", "fen == \"\""] {
        assert_eq!(refusal(query), None, "{query}");
    }
}
