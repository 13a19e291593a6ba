//! `hhdb`: the conventions of Harold van der Heijden's database of endgame studies (the marks of
//! the `Black` tag, the award at the start of the `Event` tag, the composer, the stipulation
//! and the `<cook>` marks in the comments), and comments with line breaks, which `hhdb search`
//! makes. The expected games are CQL 6.2's, for the same queries over the same studies; the
//! ignored test runs CQL 6.2 beside `cqlq cql` and compares what both write, to the byte.

use cqlq::search::SearchOptions;

use crate::common::{cql_written, found_with};

/// Four studies written in the database's way: a prize with a `<cook>` (its text), a shared
/// special honourable mention by several composers, a study with no award, and a
/// commendation whose comment speaks of a `<cook` in passing.
const STUDIES: &str = r#"[Event "2.p Shakhmaty v SSSR #12"]
[Site "?"]
[Date "1950.??.??"]
[Round "?"]
[White "Kasparyan, Genrikh NN"]
[Black "+0100.00a1b2 U1"]
[Result "1-0"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]
[SetUp "1"]

{Kasparyan, G. and Smith. stipulation: +. EG#123} 1. e4 {<cook> bad} Kd7 (1... Ke7 {<main>} 2. e5) 2. e5 1-0

[Event "1/3.sp.hm Tourney"]
[Site "?"]
[Date "1960.??.??"]
[Round "?"]
[White "Troitzky, A"]
[Black "MC =0001.10e4e8"]
[Result "1/2-1/2"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]
[SetUp "1"]

{Someone. stipulation: =. <eg>} 1. e4 {<or>} Kd7 2. e5 {<minor_dual>} 1/2-1/2

[Event "c Tourney"]
[Site "?"]
[Date "1960.??.??"]
[Round "?"]
[White "Rinck, H"]
[Black "U3 TW"]
[Result "1/2-1/2"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]
[SetUp "1"]

1. e4 Kd7 2. e5 1/2-1/2

[Event "3.c Tourney #44"]
[Site "?"]
[Date "1960.??.??"]
[Round "?"]
[White "Rinck, H"]
[Black "(c) AN"]
[Result "1-0"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]
[SetUp "1"]

{a <cook in prose} 1. e4 Kd7 2. e5 1-0
"#;

/// The numbers of the studies a query finds, their variations searched or not.
fn studies(query: &str, variations: bool) -> Vec<u64> {
    let options = SearchOptions { threads: 1, variations, ..SearchOptions::default() };
    found_with(query, STUDIES, options).into_iter().map(|(game, _)| game).collect()
}

/// Each query, and the studies CQL 6.2 finds with it.
const FOUND: &[(&str, &[u64])] = &[
    ("cql_hhdbhascook", &[1, 4]),
    ("hhdb cooked", &[1, 4]),
    ("hhdb sound", &[2, 4]),
    ("hhdb unsound", &[1, 3, 4]),
    ("hhdb \"<cook>\"", &[1, 4]),
    ("hhdb \"<eg>\"", &[2]),
    ("hhdb \"<minor_dual>\"", &[2]),
    ("hhdb dual", &[1]),
    ("hhdb MC", &[2]),
    ("hhdb \"(c)\"", &[4]),
    ("hhdb too_many_composers", &[2]),
    ("hhdb white_fails", &[3]),
    ("hhdb award", &[1, 2, 4]),
    ("hhdb prize", &[1]),
    ("hhdb hm", &[2]),
    ("hhdb commendation", &[4]),
    ("hhdb special", &[2]),
    ("hhdb special hm", &[2]),
    ("hhdb award == 2", &[1]),
    ("hhdb award max == 3", &[4]),
    ("hhdb special hm max == 3", &[2]),
    ("hhdb composer \"Kas\"", &[1]),
    ("hhdb composer == \"Someone\"", &[2]),
    ("hhdb composer == \"Rinck, H\"", &[3, 4]),
    ("hhdb diagram == \"12\"", &[1]),
    ("hhdb egdiagram == 123", &[1]),
    ("hhdb firstcomment \"stip\"", &[1, 2]),
    ("hhdb gbr kings == \"a1b2\"", &[1]),
    ("hhdb gbr material == \"0001.10\"", &[2]),
    ("hhdb gbr pawns == \"10\"", &[2]),
    ("hhdb gbr pieces == \"0100\"", &[1]),
    ("hhdb search \"Troitzky\"", &[2]),
    ("hhdb stipulation == \"=\"", &[2]),
    ("flipcolor hhdb composer \"Kas\"", &[1]),
    ("hhdb sort award", &[1, 2, 4]),
];

#[test]
fn hhdb_keys_find_what_cql_6_2_finds() {
    let wrong: Vec<String> = FOUND
        .iter()
        .filter_map(|&(query, expected)| {
            let found = studies(query, false);
            (found != expected).then(|| format!("{query}: CQL 6.2 {expected:?}, cqlq {found:?}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn hhdb_keys_of_the_game_tree_want_its_variations() {
    assert_eq!(studies("hhdb \"<main>\"", true), [1]);
    assert_eq!(studies("hhdb \"<or>\"", true), [2]);
    assert_eq!(studies("hhdb mainline", true), [1, 2, 3, 4]);
    assert_eq!(studies("hhdb variation", true), [0u64; 0]);
    // Without them, the search is refused before it starts, as in CQL 6.2.
    let query = cqlq::Query::parse("hhdb variation").unwrap();
    assert!(query.asserted_variations().is_some_and(|message| message.contains("'variations'")));
}

#[test]
fn hhdb_refuses_what_cql_6_2_refuses() {
    for query in
        ["hhdb", "hhdb foo", "hhdb \"MC\"", "hhdb source", "hhdb composer \"a*\"", "hhdb sort", "hhdb hm prize"]
    {
        assert!(cqlq::Query::parse(query).is_err(), "{query} is refused");
    }
}

#[test]
fn a_line_break_in_a_comment_is_written_as_cql_6_2_writes_it() {
    // A comment's words keep the spaces between them; a line break starts a new line, and a
    // word is broken onto the next line on its length up to the break.
    let game = "[Event \"t\"]\n[Result \"*\"]\n\n1. e4 {a  long\ncomment} e5 *\n";
    let written = cql_written("ply == 1 comment(\"x  y\" \\n \"z\")", game, false);
    assert!(written.contains("1.e4 {a long comment x  y\nz CQL} 1...e5 *"), "{written}");
}

/// CQL 6.2 and `cqlq cql` write the same studies, to the byte, for each query.
#[test]
#[ignore = "runs CQL 6.2 from ../shared/tools/cql6"]
fn hhdb_writes_what_cql_6_2_writes_live() {
    let Some(cql6) = crate::cql_command::cql6() else { return };
    let dir = crate::common::temp_dir("cql-hhdb-beside-cql6");
    std::fs::write(dir.join("studies.pgn"), STUDIES).unwrap();
    let mut queries: Vec<String> = FOUND.iter().map(|(query, _)| format!("cql() {query}")).collect();
    queries.extend(
        [
            "x = hhdb search comment(x)",
            "x = hhdb composer comment(x)",
            "x = hhdb award max comment(x)",
            "hhdb special sort hm",
            "hhdb sort prize",
        ]
        .map(|query| format!("cql() {query}")),
    );
    queries
        .extend(["hhdb \"<main>\"", "hhdb mainline", "hhdb \"<or>\""].map(|query| format!("cql(variations) {query}")));
    for query in &queries {
        std::fs::write(dir.join("q.cql"), query).unwrap();
        let run = |program: &std::path::Path, prefix: &[&str], out: &str| {
            let mut command = std::process::Command::new(program);
            command.args(prefix).args(["-i", "studies.pgn", "-o", out, "q.cql"]).current_dir(&dir);
            command.output().unwrap();
            std::fs::read(dir.join(out)).unwrap_or_default()
        };
        let theirs = run(&cql6, &[], "theirs.pgn");
        let ours = run(std::path::Path::new(env!("CARGO_BIN_EXE_cqlq")), &["cql"], "ours.pgn");
        assert!(!theirs.is_empty(), "{query}: CQL 6.2 wrote nothing");
        assert_eq!(crate::common::text(&ours), crate::common::text(&theirs), "{query}: the studies written");
    }
}
