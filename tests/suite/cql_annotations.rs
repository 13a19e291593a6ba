//! What the game itself says, and how it is written again: `hascomment` and `originalcomment`
//! (the comment and glyphs of the move played), `removecomment` and `settag`. The expected
//! outputs are CQL 6.2's own, for the same queries over the same games.

use crate::common::{cql_written, found};

/// A game with a comment before its first move, two comments after one move, glyphs written
/// as `$N`, as symbols and glued to moves; and a game with one comment.
const ANNOTATED: &str = r#"[Event "A"]
[Site "?"]
[Date "2020.01.01"]
[Round "1"]
[White "W"]
[Black "B"]
[Result "1-0"]
[Annotator "X"]

{pre game} 1. e4 {first comment} {second} e5 $1 2. Nf3 ! {with nag} Nc6 $14 3. Bb5 a6 {Carlsen move} 4. Ba4 1-0

[Event "B"]
[Site "?"]
[Date "2020.01.01"]
[Round "1"]
[White "W"]
[Black "B"]
[Result "0-1"]

1. d4 d5 {x} 2. c4 0-1
"#;

/// The plies of each game that match.
fn plies(query: &str) -> Vec<(u64, Vec<u32>)> {
    found(query, ANNOTATED)
}

/// The written games, without the tags CQL 6.2 gives every game.
fn written(query: &str) -> String {
    let kept = |line: &&str| !["[Site", "[Date", "[Round", "[White", "[Black"].iter().any(|tag| line.starts_with(tag));
    cql_written(query, ANNOTATED, false).lines().filter(kept).collect::<Vec<_>>().join("\n")
}

#[test]
fn hascomment_reads_the_last_comment_after_the_move_played() {
    // The first position has the comment before the first move; a move followed by two
    // comments has the second.
    assert_eq!(plies("hascomment"), [(1, vec![0, 1, 3, 6]), (2, vec![2])]);
    assert_eq!(plies("originalcomment \"first\""), []);
    assert_eq!(plies("originalcomment \"second\""), [(1, vec![1])]);
    assert_eq!(plies("originalcomment == \"Carlsen move\""), [(1, vec![6])]);
    assert_eq!(plies("\"pre\" in hascomment"), [(1, vec![0])]);
    assert_eq!(plies("originalcomment ~~ \"^C\""), [(1, vec![6])]);
}

#[test]
fn hascomment_with_a_glyph_looks_for_it_on_the_move_played() {
    // `$1`, `!` apart from its move: both are the glyph 1.
    assert_eq!(plies("hascomment \"!\""), [(1, vec![2, 3])]);
    assert_eq!(plies("hascomment \"$1\""), [(1, vec![2, 3])]);
    assert_eq!(plies("hascomment \"+/=\""), [(1, vec![4])]);
    assert_eq!(plies("hascomment \"$14\""), [(1, vec![4])]);
    assert_eq!(plies("hascomment \"?\""), []);
    // Glued to the move.
    let glued = "1. e4!? e5? 2. Nf3 *";
    assert_eq!(found("hascomment \"!?\"", glued), [(1, vec![1])]);
    assert_eq!(found("hascomment \"$2\"", glued), [(1, vec![2])]);
}

#[test]
fn hascomment_refuses_what_cql_refuses() {
    for query in ["hascomment \"$0\"", "hascomment \"$256\"", "hascomment \"a*\"", "originalcomment \"[ab]\""] {
        assert!(cqlq::Query::parse(query).is_err(), "{query}");
    }
    // `$00` is a text to look for.
    assert_eq!(plies("hascomment \"$00\""), []);
}

#[test]
fn removecomment_leaves_the_comment_out_whatever_the_position() {
    // Every comment of the first game goes (its positions fail but at ply 4); the space that
    // stood between the removed comment and what is added stays, as in CQL 6.2.
    let expected = "[Event \"A\"]\n[Result \"1-0\"]\n[Annotator \"X\"]\n\n{ Game number 1}\n\
                    1.e4 e5 $1 2.Nf3 $1 Nc6 $14 {CQL} 3.Bb5 a6 4.Ba4 1-0\n\n";
    assert_eq!(written("{removecomment false} or ply == 4"), expected);
    let expected =
        "[Event \"B\"]\n[Result \"0-1\"]\n\n{Game number 2 CQL}\n1.d4 {CQL} 1...d5 { CQL} 2.c4 {CQL} 0-1\n\n";
    assert!(written("removecomment").ends_with(expected), "{}", written("removecomment"));
}

#[test]
fn removecomment_carries_to_the_position_of_the_same_number_in_later_games() {
    // Run at ply 2 of the first game (which has no comment there), it removes the comment at
    // ply 2 of the second, as CQL 6.2 does: it reuses a position's memory from game to game
    // without clearing that mark.
    let expected =
        "[Event \"B\"]\n[Result \"0-1\"]\n\n{Game number 2 CQL}\n1.d4 {CQL} 1...d5 { CQL} 2.c4 {CQL} 0-1\n\n";
    let text = written("{event \"A\" ply == 2 removecomment} or true");
    assert!(text.ends_with(expected), "{text}");
    // Not the other way: a game before the one that ran it keeps its comment.
    let text = written("{event \"B\" ply == 1 removecomment} or true");
    assert!(text.contains("1.e4 {second CQL}"), "{text}");
    // A game that its tags rule out, written for its count of matches, loses them too.
    let text = written("cql(matchcount 0 100) result 1-0 removecomment");
    assert!(text.ends_with("[Event \"B\"]\n[Result \"0-1\"]\n\n{Game number 2}\n1.d4 d5 2.c4 0-1\n\n"), "{text}");
}

/// A query that can match only where no move is left still visits every position where
/// `removecomment` ran in a game before: the mate at ply 4 of the first game takes the
/// comment at ply 4 of the second, which is tested only at its mate.
#[test]
fn removecomment_carries_to_later_games_where_only_mates_are_tested() {
    let games = "[Event \"A\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n\
                 [Event \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 {x} 3. Bc4 {y} Nf6 4. Qxf7# 1-0\n";
    let text = cql_written("cql() mate removecomment", games, false);
    assert!(text.contains("\n1.e4 e5 2.Qh5 Nc6 3.Bc4 {y} 3...Nf6 4.Qxf7# {CQL} 1-0\n"), "{text}");
}

#[test]
fn settag_gives_tags_in_the_order_given_with_their_last_values() {
    // A tag of the game keeps its place; a new one comes after the game's tags; the last
    // value given stands; `tag` still reads the game's own value.
    let text = written("settag(\"Found\" originalcomment) settag(\"Annotator\" \"Y\") tag \"Annotator\" == \"X\"");
    assert!(
        text.starts_with("[Event \"A\"]\n[Result \"1-0\"]\n[Annotator \"Y\"]\n[Found \"Carlsen move\"]\n"),
        "{text}"
    );
    let text = written("{settag(\"Found\" \"x\") false} or btm");
    assert!(text.contains("[Event \"B\"]\n[Result \"0-1\"]\n[Found \"x\"]\n"), "{text}");
    for query in
        ["settag(\"Event\" \"x\")", "settag(\"WhiteTitle\" \"GM\")", "settag(\"\" \"x\")", "settag(\"Found\" 1)"]
    {
        assert!(cqlq::Query::parse(query).is_err(), "{query}");
    }
}

/// A game with variations, comments inside them and glyphs glued to moves.
const WITH_VARIATIONS: &str = r#"[Event "V"]
[Site "?"]
[Date "2020.01.01"]
[Round "1"]
[White "W"]
[Black "B"]
[Result "*"]

1. e4! {c1} e5 (1... c5 {sic} $2 2. Nf3 {in var} (2. c3 {deep}) d6) {after var} 2. Nf3!? {c2} Nc6 {c3} $5 $6 3. Bb5 *
"#;

/// A comment made while a filter fails is dropped where CQL 6.2 drops it: by `and`, a block of
/// several filters, `not` (always), `or` when no side matches, the comparisons. `P : F` and `if`
/// drop nothing, nor does a block of one filter (which is that filter): what they made stays
/// unless a filter around them drops it. The expected comments are CQL 6.2's.
#[test]
fn comments_made_by_a_failing_filter_stay_where_cql_6_2_keeps_them() {
    let game = "[Event \"t\"]\n[Result \"*\"]\n\n1. e4 e5 *\n";
    let moves = |query: &str| {
        let written = cql_written(query, game, false);
        written.lines().find(|line| line.starts_with("1.e4")).unwrap_or_default().to_owned()
    };
    let kept = "1.e4 {Found CQL} 1...e5 {Found CQL} *";
    let dropped = "1.e4 {CQL} 1...e5 {CQL} *";
    assert_eq!(moves("(find true : false) or true"), kept);
    assert_eq!(moves("{ find true : false } or true"), kept);
    assert_eq!(moves("if find true : false then false else true"), kept);
    assert_eq!(moves("not (find true : false)"), dropped);
    assert_eq!(moves("{ find true : false  true } or true"), dropped);
}

/// CQL 6.2 and `cqlq cql` write the same games, to the byte, and print the same, for queries
/// of these words over the games above.
#[test]
#[ignore = "runs CQL 6.2 from ../shared/tools/cql6"]
fn the_words_of_comments_and_tags_write_what_cql6_writes() {
    let Some(cql6) = crate::cql_command::cql6() else { return };
    let dir = crate::common::temp_dir("cql-annotations-beside-cql6");
    std::fs::write(dir.join("games.pgn"), format!("{ANNOTATED}\n{WITH_VARIATIONS}")).unwrap();
    let queries = [
        "cql() hascomment",
        "cql() hascomment \"!\"",
        "cql() hascomment \"!?\"",
        "cql() hascomment \"$14\"",
        "cql() hascomment \"Carlsen\"",
        "cql() originalcomment \"second\"",
        "cql() \"var\" in originalcomment",
        "cql() removecomment",
        "cql() {removecomment false} or ply == 4",
        "cql() removecomment comment(\"x\")",
        "cql() settag(\"Found\" originalcomment) settag(\"Annotator\" \"Y\")",
        "cql() {settag(\"Found\" \"x\") false} or btm",
        "cql(variations) hascomment",
        "cql(variations) hascomment \"!?\"",
        "cql(variations) removecomment",
        "cql(variations) {removecomment false} or ply == 3",
        "cql() {event \"A\" ply == 2 removecomment} or true",
        "cql(variations) {not event \"A\" ply == 3 removecomment} or true",
        "cql(variations) message(originalcomment)",
        "cql(variations) settag(\"X\" originalcomment)",
        "cql(variations) message(positionid) comment(ply)",
    ];
    for query in queries {
        std::fs::write(dir.join("q.cql"), query).unwrap();
        let run = |program: &std::path::Path, prefix: &[&str], out: &str| {
            let mut command = std::process::Command::new(program);
            command.args(prefix).args(["-i", "games.pgn", "-o", out, "q.cql"]).current_dir(&dir);
            let output = command.output().unwrap();
            let written = std::fs::read(dir.join(out)).unwrap_or_default();
            let printed = crate::common::text(&output.stdout);
            let said: Vec<String> =
                printed.lines().skip(1).filter(|line| !line.contains(" matches of ")).map(str::to_owned).collect();
            (written, said)
        };
        let theirs = run(&cql6, &[], "theirs.pgn");
        let ours = run(std::path::Path::new(env!("CARGO_BIN_EXE_cqlq")), &["cql"], "ours.pgn");
        assert_eq!(crate::common::text(&ours.0), crate::common::text(&theirs.0), "{query}: the games written");
        assert_eq!(ours.1, theirs.1, "{query}: what is printed");
    }
}
